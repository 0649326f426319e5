"""The fast path's contract, at length: the same deals on the fast and the validated path, in
lockstep, compared hand for hand and draw for draw (the CI test plays a few thousand; this
plays 5,000 per line).

- fastsim.same_games.<game>.<bot>: deals identical out of those played (target: all of them),
  with the first difference in words when there is one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from controller.engine import Rules
from controller.launcher.policy import PROFILES
from controller.simulation import compare_paths

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


if __name__ == "__main__":
    for result in run():
        print(json.dumps(result))
