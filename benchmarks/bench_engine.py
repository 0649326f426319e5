"""Engine throughput and memory (issue: rules engine, part 6). Each line names the path that
played the games: "fast" (`controller.fastsim`, integer-coded, the very same games) or
"validated" (the rules engine itself), and how many actions a game took.

- engine.classic4p: complete classic 4-player games per second, random bots, UNO calls and
  scoring on, full mode, one core, on the fast path; side by side with RLCard 1.2.0's raw
  `UnoGame(4)` stepped with random legal actions in the same run.
- engine.classic4p.validated: the same games on the validated engine.
- engine.houserules4p: classic with stacking (S0), jump-in (identical) and multi-card play on
  (validated path: the fast one does not cover house rules), against classic on the validated
  path in the same run.
- engine.attack4p / engine.attack4p.validated: UNO Attack with the `toy` eject profile.
- On a shared machine the wall-clock ratios swing with the other work; `ratio_cpu` compares
  games per second of CPU time, which that work disturbs far less.
- engine.memory: peak RSS of a 100,000-game simulation (and of a 10,000-game one, to show
  that memory does not grow with the number of games), each in a process of its own (its
  `VmHWM`: `ru_maxrss` would include the benchmark's own memory, see `peak.py`); the peer is
  a process that only imports the same modules.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from benchmarks.peak import peak_mb
from controller.engine import Game, Rules, deal
from controller.engine.autoplay import play_out
from controller.engine.bots import RandomBot
from controller.fastsim import Deals, EjectDecider
from controller.policy import PROFILES, EjectPolicy
from controller.simulation import press_outcome

SECONDS = 3.0
ROUNDS = 3
COUNTED_GAMES = 500  # games played untimed to count the actions per game

HOUSE_RULES = {"stack_s0": True, "jumpin_identical": True, "multi_same_face": True}
PEER = (
    "rlcard 1.2.0 UnoGame(num_players=4): init_game() then raw step() with random legal "
    "actions; each step returns the next player's observation (hand, target, every played "
    "card, legal actions, card counts); no UNO calls, challenges or scoring"
)

Player = Callable[[], int]
"""Plays one complete game and returns how many actions it took."""


def games_per_second(play_one: Player, seconds: float = SECONDS) -> tuple[float, float]:
    """Games per second of wall-clock time and per second of this process's CPU time (the
    machine is shared: the second shows how much of the first the other work took)."""
    games, started, cpu = 0, time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - started) < seconds:
        play_one()
        games += 1
    return games / elapsed, games / max(time.process_time() - cpu, 1e-9)


def validated(game_kind: str, seed: int = 1, **options: object) -> Player:
    rules = Rules.create(game_kind, **options)  # type: ignore[arg-type]
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(rng.random())) for _ in range(4)]
    press = press_outcome(EjectPolicy(PROFILES["toy"], random.Random(seed)))

    def play_one() -> int:
        game, _ = deal(rules, 4, rng.randrange(4), rng)
        counted = _Counted(game)
        play_out(game, bots, press)
        return counted.actions

    return play_one


class _Counted:
    """Counts a game's pushed actions by wrapping `push` on that one game object."""

    def __init__(self, game: Game) -> None:
        self.actions = 0
        push = game.push

        def counting(action: Any) -> Any:
            self.actions += 1
            return push(action)

        game.push = counting  # type: ignore[method-assign]


def fast(game_kind: str, seed: int = 1) -> Player:
    """The same games as `validated(game_kind, seed)`, on the fast path."""
    rules = Rules.create(game_kind)
    rng = random.Random(seed)
    bot_rngs = [random.Random(rng.random()) for _ in range(4)]
    deals = Deals(rules, 4, "random", bot_rngs, EjectDecider(PROFILES["toy"], random.Random(seed)))

    def play_one() -> int:
        return deals.play(rng.randrange(4), rng).actions

    return play_one


def rlcard_peer(seed: int = 1) -> Player | None:
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=4)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)

    def play_one() -> int:
        steps = 0
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            steps += 1
        return steps

    return play_one


def best(make: Callable[[], Player]) -> tuple[float, float]:
    return max(games_per_second(make()) for _ in range(ROUNDS))


def actions_per_game(make: Callable[[], Player]) -> float:
    play_one = make()
    return round(sum(play_one() for _ in range(COUNTED_GAMES)) / COUNTED_GAMES, 1)


def line(name: str, path: str, make: Callable[[], Player], **extra: Any) -> dict[str, Any]:
    value, cpu = best(make)
    return {
        "name": name,
        "path": path,
        "value": round(value),
        "unit": "games/s",
        "games_per_cpu_s": round(cpu),
        "actions_per_game": actions_per_game(make),
        **extra,
    }


def peak_rss_mb(games: int) -> float:
    """The peak memory of a process of its own simulating `games` games (`peak.peak_mb`)."""
    code = (
        "from controller.engine import Rules\n"
        "from controller.policy import PROFILES\n"
        "from controller.simulation import simulate\n"
        f"s = simulate(Rules.create('attack'), 4, {games}, 1, PROFILES['toy'], 'random')\n"
        "print(s.path)\n"
    )
    megabytes, path = peak_mb(code)
    assert path == "fast", path
    return megabytes


def run() -> Iterator[dict[str, Any]]:
    classic = line("engine.classic4p", "fast", lambda: fast("classic"), target_ratio=3)
    peer = rlcard_peer()
    if peer is None:
        classic |= {"peer": PEER, "peer_value": None, "ratio": None, "note": "rlcard not installed"}
    else:
        peer_speed, peer_cpu = best(rlcard_peer)  # type: ignore[arg-type]
        classic |= {
            "peer": PEER,
            "peer_value": round(peer_speed),
            "peer_games_per_cpu_s": round(peer_cpu),
            "peer_actions_per_game": actions_per_game(rlcard_peer),  # type: ignore[arg-type]
            "ratio": round(classic["value"] / peer_speed, 2),
            "ratio_cpu": round(classic["games_per_cpu_s"] / peer_cpu, 2),
        }
    yield classic
    slow = line("engine.classic4p.validated", "validated", lambda: validated("classic"))
    yield slow | {
        "peer": "engine.classic4p (fast path, same games)",
        "peer_value": classic["value"],
    }
    house = line(
        "engine.houserules4p", "validated", lambda: validated("classic", **HOUSE_RULES),
        options=sorted(HOUSE_RULES),
    )  # fmt: skip
    yield house | {
        "peer": "engine.classic4p.validated (all options off), same run",
        "peer_value": slow["value"],
        "ratio": round(house["value"] / slow["value"], 2),
        "ratio_cpu": round(house["games_per_cpu_s"] / slow["games_per_cpu_s"], 2),
        "target_ratio": 0.5,
    }
    yield line("engine.attack4p", "fast", lambda: fast("attack"), target=4000, profile="toy")
    yield line("engine.attack4p.validated", "validated", lambda: validated("attack"), profile="toy")
    small, large = peak_rss_mb(10_000), peak_rss_mb(100_000)
    imported = peak_mb("import controller.simulation")[0]
    yield {
        "name": "engine.memory",
        "path": "fast",
        "value": large,
        "unit": "MB",
        "target": 60,
        "games": 100_000,
        "value_at_10000_games": small,
        "measured": "VmHWM of a process of its own",
        "peer": "the same process importing the modules only, no game played",
        "peer_value": imported,
        "ratio": round(large / imported, 2),
    }


if __name__ == "__main__":
    for result in run():
        print(json.dumps(result))
