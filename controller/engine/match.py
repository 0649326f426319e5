"""A match: deals one after another, scored by one of the modes of RULES.md §9.2, until the
match's end condition. Also the choice of the first dealer by high card (§2.2)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .deal import deal
from .decks import DeckSpec
from .errors import IllegalAction
from .events import Event
from .game import Game
from .options import Rules
from .state import Knowledge


@dataclass(frozen=True)
class DealerDraw:
    """The high-card draw for the first dealer: each round's cards, ties redrawing (§2.2)."""

    dealer: int
    rounds: tuple[tuple[tuple[int, str], ...], ...]


def choose_dealer(deck: DeckSpec, players: int, rng: random.Random) -> DealerDraw:
    """Each player draws a card; the highest number deals. Symbols and wilds count as zero;
    the tied highest draw again among themselves until one is left."""
    candidates = list(range(players))
    rounds = []
    while True:
        cards = deck.cards()
        rng.shuffle(cards)
        drawn = {seat: cards.pop() for seat in candidates}
        rounds.append(tuple((seat, c.text) for seat, c in drawn.items()))
        best = max(c.number or 0 for c in drawn.values())
        candidates = [seat for seat, c in drawn.items() if (c.number or 0) == best]
        if len(candidates) == 1:
            return DealerDraw(candidates[0], tuple(rounds))


@dataclass(frozen=True)
class DealRecord:
    """One finished deal: who dealt and won, the points and cards left, and the score change."""

    number: int
    dealer: int
    winner: int
    points: tuple[int, ...]
    cards_left: tuple[int, ...]
    deltas: tuple[int, ...]


@dataclass(frozen=True)
class Verdict:
    winners: tuple[int, ...]
    losers: tuple[int, ...]


class Match:
    """Deals scored under `rules.scoring` until the match is over."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        rng: random.Random,
        *,
        knowledge: Knowledge = Knowledge.FULL,
        first_dealer: int | None = None,
    ) -> None:
        if first_dealer is None:
            if knowledge is Knowledge.TABLE:
                raise IllegalAction("at a table, say who deals first")
            first_dealer = choose_dealer(rules.deck_spec, players, rng).dealer
        if not 0 <= first_dealer < players:
            raise IllegalAction(f"there is no P{first_dealer} to deal")
        self.rules = rules
        self.players = players
        self.rng = rng
        self.knowledge = knowledge
        self.first_dealer = first_dealer
        self.totals = [rules.starting_chips if rules.scoring == "chips" else 0] * players
        self.deals: list[DealRecord] = []
        self.game: Game | None = None

    @property
    def next_dealer(self) -> int:
        if not self.deals:
            return self.first_dealer
        last = self.deals[-1]
        rule = self.rules.next_dealer
        if rule == "rotate":
            return (last.dealer + 1) % self.players
        if rule == "loser":
            return deal_losers(last)[0]
        return last.winner

    def start_deal(self) -> list[Event]:
        """Deal the next deal (the right dealer, a fresh shuffle)."""
        if self.over:
            raise IllegalAction("the match is over")
        if self.game is not None and not self.game.over:
            raise IllegalAction("the current deal is still being played")
        self.game, events = deal(
            self.rules, self.players, self.next_dealer, self.rng, self.knowledge
        )
        return events

    def finish_deal(self) -> DealRecord:
        """Score the deal just ended and add it to the record."""
        game = self.game
        if game is None or not game.over or game.points is None or game.winner is None:
            raise IllegalAction("no finished deal to score")
        cards_left = [game.shown[seat][1] for seat in range(self.players)]
        record = self.record(game.winner, list(game.points), cards_left, dealer=game.dealer)
        self.game = None
        return record

    def record(
        self, winner: int, points: list[int], cards_left: list[int], *, dealer: int | None = None
    ) -> DealRecord:
        """Score a deal from its result: the winner and each player's points and cards left
        (also how a table that only keeps score enters its rounds)."""
        if self.game is not None and not self.game.over:
            raise IllegalAction("the current deal is still being played")
        deltas = score_deal(self.rules, winner, points)
        number = len(self.deals) + 1
        dealt_by = self.next_dealer if dealer is None else dealer
        record = DealRecord(number, dealt_by, winner, tuple(points), tuple(cards_left), deltas)
        self.deals.append(record)
        self.totals = [total + delta for total, delta in zip(self.totals, deltas, strict=True)]
        return record

    @property
    def over(self) -> bool:
        rules, totals = self.rules, self.totals
        if not self.deals:
            return False
        mode = rules.scoring
        if mode in ("deal_loser", "none"):
            return True
        if mode == "chips":
            return 0 < rules.num_deals <= len(self.deals)
        crossed = max(totals) >= rules.target
        if mode == "penalty" and crossed and rules.break_ties_by_continuing:
            return totals.count(min(totals)) == 1
        return crossed

    def verdict(self) -> Verdict:
        """Who wins and who loses, as things stand (final once `over`)."""
        totals, mode = self.totals, self.rules.scoring
        if not self.deals:
            return Verdict((), ())
        if mode in ("deal_loser", "none"):
            last = self.deals[-1]
            return Verdict((last.winner,), deal_losers(last) if mode == "deal_loser" else ())
        if mode in ("penalty", "bust"):
            # bust: the loser is the highest of those who crossed, i.e. the highest total
            return Verdict(_seats_with(totals, min(totals)), _seats_with(totals, max(totals)))
        return Verdict(_seats_with(totals, max(totals)), _seats_with(totals, min(totals)))


def score_deal(rules: Rules, winner: int, points: Sequence[int]) -> tuple[int, ...]:
    """The change to each player's total for one deal (§9.2)."""
    mode = rules.scoring
    if mode == "winner_collects":
        return tuple(sum(points) if seat == winner else 0 for seat in range(len(points)))
    if mode in ("penalty", "bust"):
        return tuple(0 if seat == winner else p for seat, p in enumerate(points))
    if mode == "chips":
        paid = [0 if seat == winner else p * rules.chip_rate for seat, p in enumerate(points)]
        return tuple(sum(paid) if seat == winner else -p for seat, p in enumerate(paid))
    return (0,) * len(points)


def deal_losers(record: DealRecord) -> tuple[int, ...]:
    """§9.2(d): the most points loses; a tie goes to more cards; still tied, all lose."""
    keys = [
        (p, n) if seat != record.winner else (-1, -1)
        for seat, (p, n) in enumerate(zip(record.points, record.cards_left, strict=True))
    ]
    return _seats_with(keys, max(keys))


def _seats_with(values: Sequence[object], best: object) -> tuple[int, ...]:
    return tuple(seat for seat, value in enumerate(values) if value == best)
