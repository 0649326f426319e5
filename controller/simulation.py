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
from controller.engine.match import Match, choose_dealer
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
    format: str = "standard"
    games: int = 0
    matches: int = 0
    finished: int = 0
    mean_turns: float = 0.0
    mean_presses: float = 0.0
    mean_cards_per_press: float = 0.0
    max_drought: int = 0
    wins_by_seat: list[int] = field(default_factory=list)
    mean_winner_points: float = 0.0
    conservation_violations: int = 0
    seconds: float = 0.0
    format_results: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Totals:
    turns: int = 0
    presses: int = 0
    cards: int = 0
    points: int = 0


MATCH_FORMATS = ("elim_tournament", "team_play", "rotation_4p", "rotation_8p")
"""Formats whose result is a whole match: `--games` counts matches for them."""


def simulate(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    profile: Profile,
    bot: str = "heuristic",
) -> Summary:
    """Play `games` complete deals (or, for the match formats, matches) and summarise them."""
    summary = Summary(rules.game.value, players, profile.name, bot, seed, rules.format)
    summary.wins_by_seat = [0] * players
    totals = _Totals()
    results = FormatResults(rules.format, players)
    started = time.perf_counter()
    for game, stats, seating in _deals(rules, players, games, seed, profile, bot, results):
        summary.games += 1
        summary.finished += game.over
        if game.winner is not None:
            summary.wins_by_seat[seating[game.winner]] += 1
            totals.points += sum(game.points or ())
        summary.conservation_violations += not conserves(game)
        summary.max_drought = max(summary.max_drought, stats.longest_drought)
        totals.turns += stats.turns
        totals.presses += stats.presses
        totals.cards += stats.cards_pressed
        results.deal(game, seating)
    summary.seconds = round(time.perf_counter() - started, 3)
    summary.matches = results.matches
    summary.format_results = results.summary()
    _averages(summary, totals)
    return summary


def _averages(summary: Summary, totals: _Totals) -> None:
    games = max(summary.games, 1)
    summary.mean_turns = round(totals.turns / games, 2)
    summary.mean_presses = round(totals.presses / games, 2)
    summary.mean_cards_per_press = round(totals.cards / max(totals.presses, 1), 3)
    summary.mean_winner_points = round(totals.points / games, 1)


def _deals(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    profile: Profile,
    bot: str,
    results: FormatResults,
) -> Iterator[tuple[Game, DealStats, tuple[int, ...]]]:
    """Every deal played: single deals, or the deals of whole matches."""
    rng = random.Random(seed)
    bots = [BOTS[bot](random.Random(rng.random())) for _ in range(players)]
    press = press_outcome(EjectPolicy(profile, random.Random(rng.random())))
    for _ in range(games):
        if rules.format not in MATCH_FORMATS:
            dealer = choose_dealer(rules.deck_spec, players, rng).dealer
            game, _ = deal(rules, players, dealer, rng)
            yield game, play_out(game, bots, press), tuple(range(players))
            continue
        match = Match(rules, players, rng)
        while not match.over:
            match.start_deal()
            played, seating = match.game, match.seating
            assert played is not None and seating is not None
            at_table = [bots[player] for player in seating.players]
            yield played, play_out(played, at_table, press), seating.players
            match.finish_deal()
        results.match(match)


@dataclass
class FormatResults:
    """What a format adds to the summary: eliminations, team totals, schedule progress."""

    format: str
    players: int
    matches: int = 0
    deals_in_matches: int = 0
    match_wins: list[int] = field(default_factory=list)
    losses: list[int] = field(default_factory=list)
    eliminations: int = 0
    team_totals: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.match_wins = [0] * self.players
        self.losses = [0] * self.players

    def deal(self, game: Game, seating: tuple[int, ...]) -> None:
        if game.elimination:
            loser = next(seat for seat in range(game.players) if game.active[seat])
            self.losses[seating[loser]] += 1

    def match(self, match: Match) -> None:
        self.matches += 1
        self.deals_in_matches += len(match.deals)
        for player in match.verdict().winners:
            self.match_wins[player] += 1
        standings = match.standings()
        eliminated = standings.get("eliminated")
        if isinstance(eliminated, list):
            self.eliminations += len(eliminated)
        teams = standings.get("team_totals")
        if isinstance(teams, list):
            if not self.team_totals:
                self.team_totals = [0] * len(teams)
            self.team_totals = [a + b for a, b in zip(self.team_totals, teams, strict=True)]

    def summary(self) -> dict[str, Any]:
        if self.format == "standard":
            return {}
        if self.format == "elim_within_deal":
            return {"losses_by_seat": self.losses}
        out: dict[str, Any] = {
            "matches": self.matches,
            "mean_deals_per_match": round(self.deals_in_matches / max(self.matches, 1), 2),
            "match_wins_by_player": self.match_wins,
        }
        if self.format == "elim_tournament":
            out["mean_eliminations_per_match"] = round(self.eliminations / max(self.matches, 1), 2)
        if self.format == "team_play":
            out["mean_team_totals"] = [round(t / max(self.matches, 1)) for t in self.team_totals]
        if self.format.startswith("rotation"):
            out["schedule"] = "complete cycle per match"
        return out


def press_outcome(policy: Policy) -> Callable[[Game], int]:
    """The launcher, simulated: each press asks the eject policy how many cards come out."""

    def press(game: Game) -> int:
        return policy.decide(remaining_for_press(game)).cards

    return press


def conserves(game: Game) -> bool:
    """No card was created or lost: the game holds exactly its deck."""
    return Counter(game.cards_in_play()) == Counter(game.deck.cards())
