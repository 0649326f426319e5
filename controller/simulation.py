"""Simulated games: bots play complete deals (or, for the match formats, whole matches) in full
mode, and the eject policy decides what each launcher press gives. Behind `uno-attack simulate`,
`uno-attack tune` (`controller.tuning` plays its deals here) and the benchmarks.

Two paths play the very same deals from the same seed: the validated engine, and the fast path
(`controller.fastsim`) for the rule sets it covers (single deals, no match format).
`path="auto"` takes the fast one when it can; `compare_paths` plays both in lockstep and names
the first difference.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from controller.engine import (
    Bot,
    DealStats,
    Game,
    HeuristicBot,
    Match,
    RandomBot,
    Rules,
    RunawayGame,
    choose_dealer,
    deal,
    play_out,
    remaining_for_press,
)
from controller.fastsim import Deals, EjectDecider, Outcome, build, covers
from controller.policy import EjectPolicy, Policy, Profile

BOTS: dict[str, Callable[[random.Random], Bot]] = {"heuristic": HeuristicBot, "random": RandomBot}
PATHS = ("auto", "fast", "validated")


@dataclass(frozen=True)
class Pace:
    """How long people take at the table, to turn simulated deals into minutes: each turn
    (deciding and playing) and each press of the launcher (suspense, picking the cards up)."""

    seconds_per_turn: float = 8.0
    seconds_per_press: float = 3.0

    def minutes(self, turns: float, presses: float) -> float:
        return (turns * self.seconds_per_turn + presses * self.seconds_per_press) / 60


@dataclass
class Summary:
    """The figures `uno-attack simulate --json` prints."""

    rules: str
    players: int
    profile: str
    bot: str
    seed: int
    format: str = "standard"
    path: str = "validated"
    games: int = 0
    matches: int = 0
    finished: int = 0
    mean_turns: float = 0.0
    mean_presses: float = 0.0
    mean_cards_per_press: float = 0.0
    max_drought: int = 0
    mean_minutes: float = 0.0
    seconds_per_turn: float = Pace.seconds_per_turn
    seconds_per_press: float = Pace.seconds_per_press
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


@dataclass(slots=True)
class DealFigures:
    """One finished deal, whichever path played it."""

    finished: bool
    winner: int | None  # the match player who won (seat mapped through the seating)
    points: int  # the points the hands left were worth
    conserved: bool  # the deal held exactly its deck
    turns: int
    presses: int
    cards_pressed: int
    longest_drought: int


def simulate(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    profile: Profile,
    bot: str = "heuristic",
    *,
    path: str = "auto",
    pace: Pace = Pace(),
) -> Summary:
    """Play `games` complete deals (or, for the match formats, matches) and summarise them.
    `path` is "fast", "validated" or "auto" (fast when it covers the rules): same games. A deal
    that does not end raises `RunawayGame`, saying which deal of which seed."""
    chosen = choose_path(rules, players, bot, path)
    summary = Summary(rules.game.value, players, profile.name, bot, seed, rules.format, chosen)
    summary.wins_by_seat = [0] * players
    summary.seconds_per_turn = pace.seconds_per_turn
    summary.seconds_per_press = pace.seconds_per_press
    totals = _Totals()
    results = FormatResults(rules.format, players)
    started = time.perf_counter()
    play = _fast_deals if chosen == "fast" else _validated_deals
    try:
        for figures in play(rules, players, games, seed, profile, bot, results):
            _add(summary, totals, figures)
    except RunawayGame as runaway:
        raise RunawayGame(f"deal {summary.games + 1} of seed {seed}: {runaway}") from None
    summary.seconds = round(time.perf_counter() - started, 3)
    summary.matches = results.matches
    summary.format_results = results.summary()
    _averages(summary, totals, pace)
    return summary


def _add(summary: Summary, totals: _Totals, figures: DealFigures) -> None:
    """Count one deal into the summary."""
    summary.games += 1
    summary.finished += figures.finished
    if figures.winner is not None:
        summary.wins_by_seat[figures.winner] += 1
        totals.points += figures.points
    summary.conservation_violations += not figures.conserved
    summary.max_drought = max(summary.max_drought, figures.longest_drought)
    totals.turns += figures.turns
    totals.presses += figures.presses
    totals.cards += figures.cards_pressed


class PathError(ValueError):
    """The fast path was asked for rules it does not cover (or an unknown path was named)."""


def choose_path(rules: Rules, players: int, bot: str, path: str) -> str:
    """ "fast" or "validated": the path that plays these games."""
    if path not in PATHS:
        raise PathError(f"path must be one of {', '.join(PATHS)}, not {path!r}")
    fast = covers(rules, players, bot)
    if path == "fast" and not fast:
        raise PathError(
            "the fast path covers standard deals of the default classic and UNO Attack rules "
            "(hand size and deck may change, and replay_any_count, wrong_play_penalty and "
            "UNO Attack's multi_in_attack, attack_stack_hits, whf_needs_no_colour_match and "
            "atk_play_after_press); use --path validated or auto"
        )
    return "fast" if fast and path != "validated" else "validated"


def _averages(summary: Summary, totals: _Totals, pace: Pace) -> None:
    games = max(summary.games, 1)
    summary.mean_turns = round(totals.turns / games, 2)
    summary.mean_presses = round(totals.presses / games, 2)
    summary.mean_cards_per_press = round(totals.cards / max(totals.presses, 1), 3)
    summary.mean_winner_points = round(totals.points / games, 1)
    summary.mean_minutes = round(pace.minutes(totals.turns / games, totals.presses / games), 2)


def generators(seed: int, players: int) -> tuple[random.Random, list[random.Random], random.Random]:
    """The generators one simulation draws from: the deals' (dealer draws, shuffles), each
    bot's own, and the launcher's. Both paths make them the same way from the seed."""
    rng = random.Random(seed)
    bots = [random.Random(rng.random()) for _ in range(players)]
    return rng, bots, random.Random(rng.random())


def _validated_deals(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    profile: Profile,
    bot: str,
    results: FormatResults,
) -> Iterator[DealFigures]:
    for game, stats, seating in validated_deals(rules, players, games, seed, profile, bot, results):
        winner = None if game.winner is None else seating[game.winner]
        yield DealFigures(
            game.over, winner, sum(game.points or ()), conserves(game), stats.turns,
            stats.presses, stats.cards_pressed, stats.longest_drought,
        )  # fmt: skip


def validated_deals(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    profile: Profile,
    bot: str,
    results: FormatResults | None = None,
) -> Iterator[tuple[Game, DealStats, tuple[int, ...]]]:
    """Every deal the validated engine plays: single deals, or the deals of whole matches."""
    rng, bot_rngs, launcher = generators(seed, players)
    bots = [BOTS[bot](bot_rng) for bot_rng in bot_rngs]
    press = press_outcome(EjectPolicy(profile, launcher))
    results = results or FormatResults(rules.format, players)
    for _ in range(games):
        if rules.format not in MATCH_FORMATS:
            dealer = choose_dealer(rules.deck_spec, players, rng).dealer
            game, _ = deal(rules, players, dealer, rng)
            stats, seats = play_out(game, bots, press), tuple(range(players))
            results.deal(game, seats)
            yield game, stats, seats
            continue
        match = Match(rules, players, rng)
        while not match.over:
            match.start_deal()
            played, seating = match.game, match.seating
            assert played is not None and seating is not None
            at_table = [bots[player] for player in seating.players]
            stats = play_out(played, at_table, press)
            results.deal(played, seating.players)
            yield played, stats, seating.players
            match.finish_deal()
        results.match(match)


def _fast_deals(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    profile: Profile,
    bot: str,
    results: FormatResults,
) -> Iterator[DealFigures]:
    deck = sorted(build(rules).deck)
    for outcome in fast_deals(rules, players, games, seed, profile, bot):
        held = sorted([*itertools.chain(*outcome.hands), *outcome.pile, *outcome.discard])
        yield DealFigures(
            True, outcome.winner, sum(outcome.points), held == deck, outcome.turns,
            outcome.presses, outcome.cards_pressed, outcome.longest_drought,
        )  # fmt: skip


def fast_deals(
    rules: Rules, players: int, games: int, seed: int, profile: Profile, bot: str
) -> Iterator[Outcome]:
    """The same deals as `validated_deals` (standard format), played by the fast path."""
    rng, bot_rngs, launcher = generators(seed, players)
    deals = Deals(rules, players, bot, bot_rngs, EjectDecider(profile, launcher))
    for _ in range(games):
        yield deals.play(deals.choose_dealer(rng), rng)


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


def compare_paths(
    rules: Rules, players: int, games: int, seed: int, profile: Profile, bot: str
) -> str | None:
    """Play the same deals on both paths in lockstep and return the first difference in words
    (None: identical): the dealer, every hand, the pile and the discards in order, the winner,
    the points, the deal's figures, every eject, and the state of every random generator."""
    validated_rngs, fast_rngs = generators(seed, players), generators(seed, players)
    rng, bot_rngs, launcher = validated_rngs
    policy = EjectPolicy(profile, launcher)
    ejects: tuple[list[int], list[int]] = ([], [])

    def press(game: Game) -> int:
        ejects[0].append(policy.decide(remaining_for_press(game)).cards)
        return ejects[0][-1]

    decider = EjectDecider(profile, fast_rngs[2])

    def fast_press(remaining: int) -> int:
        ejects[1].append(decider(remaining))
        return ejects[1][-1]

    bots = [BOTS[bot](bot_rng) for bot_rng in bot_rngs]
    deals = Deals(rules, players, bot, fast_rngs[1], fast_press)
    for number in range(games):
        dealer = choose_dealer(rules.deck_spec, players, rng).dealer
        fast_dealer = deals.choose_dealer(fast_rngs[0])
        game, _ = deal(rules, players, dealer, rng)
        stats = play_out(game, bots, press)
        outcome = deals.play(fast_dealer, fast_rngs[0])
        ours = _seen(dealer, game.hands, game.pile, game.discard, game.winner, game.points, stats)
        theirs = _seen(
            fast_dealer, *_as_cards(deals, outcome), outcome.winner, outcome.points, outcome
        )
        ours |= {"ejects": ejects[0], "generators": _states(validated_rngs)}
        theirs |= {"ejects": ejects[1], "generators": _states(fast_rngs)}
        for key, value in ours.items():
            if theirs[key] != value:
                return f"deal {number}: {key} differ: validated {value}, fast {theirs[key]}"
        ejects[0].clear()
        ejects[1].clear()
    return None


def _seen(
    dealer: int,
    hands: Any,
    pile: Any,
    discard: Any,
    winner: int | None,
    points: tuple[int, ...] | None,
    figures: DealStats | Outcome,
) -> dict[str, Any]:
    return {
        "dealer": dealer,
        "hands": [" ".join(map(str, hand)) for hand in hands],
        "pile": " ".join(map(str, pile)),
        "discard": " ".join(map(str, discard)),
        "winner": winner,
        "points": points,
        "figures": (
            figures.turns, figures.presses, figures.cards_pressed, figures.longest_drought,
        ),
    }  # fmt: skip


def _as_cards(deals: Deals, outcome: Outcome) -> tuple[Any, Any, Any]:
    cards = deals.tables.cards
    return (
        [[cards[c] for c in hand] for hand in outcome.hands],
        [cards[c] for c in outcome.pile],
        [cards[c] for c in outcome.discard],
    )


def _states(rngs: tuple[random.Random, list[random.Random], random.Random]) -> list[Any]:
    rng, bots, launcher = rngs
    return [rng.getstate(), *(bot.getstate() for bot in bots), launcher.getstate()]
