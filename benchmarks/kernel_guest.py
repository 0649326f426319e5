"""The kernel tier's benchmark, inside the rig's guest (benchmarks/bench_kernel.py boots it):
ejects of 1-12 cards on the real gpio-sim chip through the real lgpio, each compared with the
cards the world (tests/kernel/world.py) really passed through the beam. Prints one JSON line."""

from __future__ import annotations

import json
import random
import sys
import time

from controller.launcher.guard import open_guarded
from tests.kernel.conftest import PROFILE, World

EJECTS = 40


def main() -> None:
    rng, world = random.Random(20), World()
    launcher = open_guarded(str(PROFILE), backend="gpio")
    exact = cards = 0
    wrong: list[tuple[int, int, int]] = []  # (asked, counted, came out)
    started = time.monotonic()
    try:
        for _ in range(EJECTS):
            asked = rng.randint(1, 12)
            world("cards 40")
            before = world.out()
            result = launcher.eject(asked)
            came_out = world.out() - before
            cards += came_out
            if result.ejected == came_out and result.reason == "count":
                exact += 1
            else:
                wrong.append((asked, result.ejected, came_out))
                launcher.clear_fault()
    finally:
        launcher.close()
        world.close()
    print(json.dumps({"ejects": EJECTS, "exact": exact, "cards": cards, "wrong": wrong,
                      "seconds": round(time.monotonic() - started, 1)}), flush=True)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
