"""The fast path's contract, at length: the same deals on the fast and the validated path, in
lockstep, compared hand for hand and draw for draw (the CI test plays a few thousand; this
plays 5,000 per line).

- fastsim.same_games.<game>.<bot>: deals identical out of those played (target: all of them),
  with the first difference in words when there is one.
- tune.search_s: seconds for `uno-attack tune --minutes 12 --max-drought 6` (4 players, the
  default 500 deals for the race's finalists, one process): the whole tune, the race over 288
  candidates and the checks on fresh deals (target: under a minute). `engine.tune_houserules_s`
  (`bench_engine_tune.py`) is the same for house rules, on the validated engine.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from controller.engine import Rules
from controller.policy import PROFILES
from controller.simulation import compare_paths
from controller.tuning import Table, Target, candidates, tune

DEALS = 5_000


def run() -> Iterator[dict[str, Any]]:
    for seed, (game, bot, players, profile) in enumerate(
        [
            ("classic", "random", 4, "toy"),
            ("classic", "heuristic", 5, "toy"),
            ("attack", "random", 4, "toy"),
            ("attack", "heuristic", 3, "brutal"),
        ]
    ):
        started = time.perf_counter()
        difference = compare_paths(Rules.create(game), players, DEALS, seed, PROFILES[profile], bot)
        yield {
            "name": f"fastsim.same_games.{game}.{bot}",
            "value": DEALS if difference is None else 0,
            "unit": "deals identical",
            "target": DEALS,
            "players": players,
            "profile": profile,
            "difference": difference,
            "seconds": round(time.perf_counter() - started, 1),
        }

    yield tune_line()


def tune_line() -> dict[str, Any]:
    target = Target(12, 0.5, max_drought=6)
    tried = candidates(PROFILES["toy"], target)
    started, cpu = time.perf_counter(), time.process_time()
    tuned = tune(Table(Rules.create("attack"), 4), tried, target, games=500, seed=1)
    chosen = tuned.chosen
    return {
        "name": "tune.search_s",
        "path": tuned.path,
        "value": round(time.perf_counter() - started, 1),
        "unit": "s",
        "cpu_s": round(time.process_time() - cpu, 1),
        "target": 60,
        "candidates": len(tried),
        "deals": tuned.deals,
        "checks": len(tuned.checks),
        "checked_minutes": None if chosen is None else chosen.minutes,
        "checked_half_width": None if chosen is None else chosen.half_width,
        "met": chosen is not None,
    }


if __name__ == "__main__":
    for result in run():
        print(json.dumps(result))
