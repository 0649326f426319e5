"""The validated engine's own speed (the path the table and the log use): complete 4-player
games per second and actions per game, random bots, every action checked by the engine that
listed it. One line per rule set, each naming the path; house rules against classic.

- engine.validated.classic4p: classic, all options off.
- engine.validated.houserules4p: classic with stacking (S0), jump-in (identical) and 对牌
  (multi_same_face); ratio to engine.validated.classic4p in the same run (target >= 0.5).
- engine.validated.attack4p: UNO Attack with the `toy` eject profile.
- engine.validated.memory: peak RSS of 20,000 validated Attack games in one process.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from benchmarks.peak import peak_mb
from controller.engine import Rules, deal
from controller.engine.autoplay import play_out
from controller.engine.bots import RandomBot
from controller.policy import PROFILES, EjectPolicy

SECONDS = 2.0
ROUNDS = 3
HOUSE_RULES = {"stack_s0": True, "jumpin_identical": True, "multi_same_face": True}
PATH = "validated engine (controller.engine Game.moves + Game.push)"


def _games(game_kind: str, **options: object) -> Callable[[], int]:
    """Play one seeded game after another; each call returns the actions it took."""
    rules = Rules.create(game_kind, **options)  # type: ignore[arg-type]
    rng = random.Random(1)
    bots = [RandomBot(random.Random(rng.random())) for _ in range(4)]
    policy = EjectPolicy(PROFILES["toy"], random.Random(2))

    def press(game: Any) -> int:
        return policy.decide(len(game.pile) or max(len(game.discard) - 1, 0)).cards

    def play_one() -> int:
        game, _ = deal(rules, 4, rng.randrange(4), rng)
        play_out(game, bots, press)
        return game.steps

    return play_one


def _rate(play_one: Callable[[], int]) -> tuple[float, float]:
    """Best of ROUNDS: (games per second, actions per game)."""
    best, actions = 0.0, 0.0
    for _ in range(ROUNDS):
        games = steps = 0
        started = time.process_time()
        while (elapsed := time.process_time() - started) < SECONDS:
            steps += play_one()
            games += 1
        if games / elapsed > best:
            best, actions = games / elapsed, steps / games
    return best, actions


def _line(name: str, rate: tuple[float, float], **extra: Any) -> dict[str, Any]:
    games, actions = rate
    return {"name": name, "value": round(games), "unit": "games/s (CPU time)",
            "actions_per_game": round(actions, 1), "path": PATH, **extra}  # fmt: skip


def _peak_rss_mb(games: int) -> float:
    """In a process of its own (`peak.peak_mb`: its VmHWM, not the benchmark's peak)."""
    code = (
        "from benchmarks.bench_engine_validated import _games\n"
        f"play = _games('attack')\nfor _ in range({games}): play()\n"
    )
    return peak_mb(code)[0]


def run() -> Iterator[dict[str, Any]]:
    classic = _rate(_games("classic"))
    yield _line("engine.validated.classic4p", classic)
    house = _rate(_games("classic", **HOUSE_RULES))
    yield _line(
        "engine.validated.houserules4p", house, options=sorted(HOUSE_RULES),
        peer="engine.validated.classic4p, same run", peer_value=round(classic[0]),
        ratio=round(house[0] / classic[0], 2), target_ratio=0.5,
    )  # fmt: skip
    yield _line("engine.validated.attack4p", _rate(_games("attack")), profile="toy")
    yield {"name": "engine.validated.memory", "value": _peak_rss_mb(20_000), "unit": "MB",
           "target": 60, "games": 20_000, "path": PATH}  # fmt: skip
