"""Engine throughput and memory (issue: rules engine, part 6).

- engine.classic4p: complete classic 4-player games per second, random bots, UNO calls and
  scoring on, full mode, one core; side by side with RLCard 1.2.0's raw `UnoGame(4)` stepped
  with random legal actions in the same run.
- engine.houserules4p: classic with stacking (S0), jump-in (identical) and multi-card play on,
  against engine.classic4p in the same run.
- engine.attack4p: the same for UNO Attack with the `toy` eject profile.
- engine.memory: peak RSS of a 100,000-game simulation (and of a 10,000-game one, to show
  that memory does not grow with the number of games).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from controller.engine import Rules, deal
from controller.engine.autoplay import play_out
from controller.engine.bots import RandomBot
from controller.launcher.policy import PROFILES, EjectPolicy
from controller.simulation import press_outcome

SECONDS = 3.0
ROUNDS = 3


def games_per_second(play_one: Callable[[], None], seconds: float = SECONDS) -> float:
    games, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        play_one()
        games += 1
    return games / elapsed


HOUSE_RULES = {"stack_s0": True, "jumpin_identical": True, "multi_same_face": True}


def ours(game_kind: str, seed: int = 1, **options: object) -> Callable[[], None]:
    rules = Rules.create(game_kind, **options)  # type: ignore[arg-type]
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(rng.random())) for _ in range(4)]
    press = press_outcome(EjectPolicy(PROFILES["toy"], random.Random(seed)))

    def play_one() -> None:
        game, _ = deal(rules, 4, rng.randrange(4), rng)
        play_out(game, bots, press)

    return play_one


def rlcard_peer(seed: int = 1) -> Callable[[], None] | None:
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=4)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)

    def play_one() -> None:
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))

    return play_one


def best(play_one: Callable[[], None]) -> float:
    return max(games_per_second(play_one) for _ in range(ROUNDS))


def peak_rss_mb(games: int) -> float:
    code = (
        "import resource, random\n"
        "from controller.engine import Rules\n"
        "from controller.launcher.policy import PROFILES\n"
        "from controller.simulation import simulate\n"
        f"simulate(Rules.create('attack'), 4, {games}, 1, PROFILES['toy'], 'random')\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return round(int(out.stdout.split()[-1]) / 1024, 1)


def run() -> Iterator[dict[str, Any]]:
    classic = best(ours("classic"))
    peer_play = rlcard_peer()
    line: dict[str, Any] = {
        "name": "engine.classic4p",
        "value": round(classic),
        "unit": "games/s",
        "target_ratio": 3,
        "peer": "rlcard 1.2.0 UnoGame(num_players=4), raw step, random legal actions",
    }
    if peer_play is None:
        line |= {"peer_value": None, "ratio": None, "note": "rlcard not installed"}
    else:
        peer = best(peer_play)
        line |= {"peer_value": round(peer), "ratio": round(classic / peer, 2)}
    yield line
    house = best(ours("classic", **HOUSE_RULES))
    yield {
        "name": "engine.houserules4p",
        "value": round(house),
        "unit": "games/s",
        "options": sorted(HOUSE_RULES),
        "peer": "engine.classic4p (all options off), same run",
        "peer_value": round(classic),
        "ratio": round(house / classic, 2),
        "target_ratio": 0.5,
    }
    yield {
        "name": "engine.attack4p",
        "value": round(best(ours("attack"))),
        "unit": "games/s",
        "target": 4000,
        "profile": "toy",
    }
    small, large = peak_rss_mb(10_000), peak_rss_mb(100_000)
    yield {
        "name": "engine.memory",
        "value": large,
        "unit": "MB",
        "target": 60,
        "games": 100_000,
        "value_at_10000_games": small,
    }


if __name__ == "__main__":
    for result in run():
        print(json.dumps(result))
