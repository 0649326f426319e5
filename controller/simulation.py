"""Simulated games: bots play complete deals in full mode, the eject policy decides what each
launcher press gives. Behind `uno-attack simulate`, `make run`'s demo and the benchmarks."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from controller.engine import Game, Rules, deal
from controller.engine.autoplay import DealStats, play_out, remaining_for_press
from controller.engine.bots import Bot, HeuristicBot, RandomBot
from controller.engine.match import choose_dealer
from controller.launcher.policy import EjectPolicy, Policy, Profile

BOTS: dict[str, Callable[[random.Random], Bot]] = {"heuristic": HeuristicBot, "random": RandomBot}


@dataclass
class Summary:
    """The figures `uno-attack simulate --json` prints."""

    rules: str
    players: int
    profile: str
    bot: str
    seed: int
    games: int = 0
    finished: int = 0
    mean_turns: float = 0.0
    mean_presses: float = 0.0
    mean_cards_per_press: float = 0.0
    max_drought: int = 0
    wins_by_seat: list[int] = field(default_factory=list)
    mean_winner_points: float = 0.0
    conservation_violations: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Totals:
    turns: int = 0
    presses: int = 0
    cards: int = 0
    points: int = 0


def simulate(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    profile: Profile,
    bot: str = "heuristic",
) -> Summary:
    """Play `games` complete deals and summarise them."""
    summary = Summary(rules.game.value, players, profile.name, bot, seed)
    summary.wins_by_seat = [0] * players
    totals = _Totals()
    started = time.perf_counter()
    for game, stats in _played(rules, players, games, seed, profile, bot):
        summary.games += 1
        summary.finished += game.over
        if game.winner is not None:
            summary.wins_by_seat[game.winner] += 1
            totals.points += sum(game.points or ())
        summary.conservation_violations += not conserves(game)
        summary.max_drought = max(summary.max_drought, stats.longest_drought)
        totals.turns += stats.turns
        totals.presses += stats.presses
        totals.cards += stats.cards_pressed
    summary.seconds = round(time.perf_counter() - started, 3)
    _averages(summary, totals)
    return summary


def _averages(summary: Summary, totals: _Totals) -> None:
    games = max(summary.games, 1)
    summary.mean_turns = round(totals.turns / games, 2)
    summary.mean_presses = round(totals.presses / games, 2)
    summary.mean_cards_per_press = round(totals.cards / max(totals.presses, 1), 3)
    summary.mean_winner_points = round(totals.points / games, 1)


def _played(
    rules: Rules, players: int, games: int, seed: int, profile: Profile, bot: str
) -> Iterator[tuple[Game, DealStats]]:
    rng = random.Random(seed)
    bots = [BOTS[bot](random.Random(rng.random())) for _ in range(players)]
    press = press_outcome(EjectPolicy(profile, random.Random(rng.random())))
    for _ in range(games):
        dealer = choose_dealer(rules.deck_spec, players, rng).dealer
        game, _ = deal(rules, players, dealer, rng)
        yield game, play_out(game, bots, press)


def press_outcome(policy: Policy) -> Callable[[Game], int]:
    """The launcher, simulated: each press asks the eject policy how many cards come out."""

    def press(game: Game) -> int:
        return policy.decide(remaining_for_press(game)).cards

    return press


def conserves(game: Game) -> bool:
    """No card was created or lost: the game holds exactly its deck."""
    return Counter(game.cards_in_play()) == Counter(game.deck.cards())
