"""`uno-attack tune` for a family's own rules, and whether what it claims holds.

- engine.tune_houserules_s: seconds for a whole tune (the race over the default grid of 288
  candidates, then the checks on fresh deals) for a UNO Attack table with house rules (stacked
  Hit 2s and multi-card play, which the fast path covers too: `path` says which path played),
  target 12 minutes ± 0.5, 4 players, in as many processes as there are cores (target < 60 s).
  Its deals are longer than the standard rules' (hands grow, and every group of a hand is a
  play the bots weigh), so it costs several times the peer's CPU time. `cpu_s`
  is the CPU time of every process, `load_before` the machine's load average when it started
  (other work stretches the wall clock, not the CPU time). The peer is the same tune for the
  standard rules (the fast path), in the same run.
- engine.tune_check: the profile that tune claims, played again on 20,000 deals nobody played
  before: the value is their minutes per deal; `claimed` is the check's interval,
  `inside_claimed_interval` whether the value lies in it, `consistent` whether the two figures
  agree within their combined 95 % interval, `within_target` whether the value lies within
  the target's tolerance.
"""

from __future__ import annotations

import json
import math
import os
import resource
import time
from collections.abc import Iterator
from typing import Any

from controller.engine import Rules
from controller.policy import PROFILES
from controller.tuning import Check, Runner, Table, Target, Tuned, candidates, check_one, tune

HOUSE_RULES = {"attack_stack_hits": True, "multi_in_attack": True}
TARGET = Target(12, 0.5)
PLAYERS = 4
SEED = 1
GAMES = 500  # `tune`'s default
AGAIN = 20_000  # deals of the claim's own check
AGAIN_STREAM = 1_000  # check streams the tuning never reaches: deals nobody played before


def _cores() -> int:
    return len(os.sched_getaffinity(0))


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # workers, once the pool is gone
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed_tune(table: Table) -> tuple[Tuned, dict[str, Any]]:
    load = os.getloadavg()[0]
    started, cpu = time.perf_counter(), _cpu()
    tuned = tune(
        table, candidates(PROFILES["toy"], TARGET), TARGET, games=GAMES, seed=SEED, jobs=_cores()
    )
    chosen = tuned.chosen
    return tuned, {
        "value": round(time.perf_counter() - started, 1),
        "unit": "s",
        "cpu_s": round(_cpu() - cpu, 1),
        "load_before": round(load, 2),
        "processes": _cores(),
        "path": tuned.path,
        "candidates": len(tuned.trials),
        "deals": tuned.deals,
        "checks": [_said(c) for c in tuned.checks],
        "met": chosen is not None,
    }


def _said(made: Check) -> str:
    return f"fire {made.profile.fire_probability:g}: {made.tally.deals} deals, {made.verdict()}"


def claim_line(table: Table, claimed: Check | None) -> dict[str, Any]:
    line: dict[str, Any] = {"name": "engine.tune_check", "unit": "minutes per deal"}
    if claimed is None:
        return line | {"value": None, "note": "the tune claimed nothing"}
    with Runner(table, _cores()) as runner:
        again = check_one(
            runner, claimed.profile, TARGET, seed=SEED, games=AGAIN, stream=AGAIN_STREAM
        )
    low, high = claimed.interval
    value, combined = again.tally.mean, math.hypot(claimed.half_width, again.half_width)
    return line | {
        "value": round(value, 2),
        "half_width": again.half_width,
        "deals": again.tally.deals,
        "claimed": [low, high],
        "claimed_deals": claimed.tally.deals,
        "inside_claimed_interval": low <= value <= high,
        "consistent": abs(value - claimed.tally.mean) <= combined,
        "within_target": abs(value - TARGET.minutes) <= TARGET.tolerance,
        "target": str(TARGET),
        "longest_drought": again.tally.longest_drought,
    }


def run() -> Iterator[dict[str, Any]]:
    house = Table(Rules.create("attack", **HOUSE_RULES), PLAYERS)
    standard = Table(Rules.create("attack"), PLAYERS)
    tuned, line = timed_tune(house)
    _, peer = timed_tune(standard)
    yield {
        "name": "engine.tune_houserules_s", **line, "target": 60,
        "options": sorted(HOUSE_RULES), "tune_target": str(TARGET),
        "peer": "the same tune for the standard rules (fast path), same run",
        "peer_value": peer["value"], "peer_cpu_s": peer["cpu_s"], "peer_path": peer["path"],
        "ratio": round(line["value"] / max(peer["value"], 1e-9), 2),
    }  # fmt: skip
    yield claim_line(house, tuned.chosen)


if __name__ == "__main__":
    for result in run():
        print(json.dumps(result))
