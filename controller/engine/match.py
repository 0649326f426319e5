"""A match: deals one after another under a format (`formats.py`, RULES.md §9.2-§9.6) until
the match's end condition. Also the choice of the first dealer by high card (§2.2)."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from .deal import check_room_to_turn_up, deal, hand_size
from .decks import DeckSpec
from .errors import IllegalAction
from .events import Event
from .formats import FORMATS, DealRecord, Format, Seating, Verdict, deal_losers, score_deal
from .game import Game
from .options import Rules
from .state import Knowledge

__all__ = [
    "DealRecord",
    "DealerDraw",
    "Match",
    "Verdict",
    "choose_dealer",
    "deal_losers",
    "score_deal",
]


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


class Match:
    """Deals one after another under the table's format (§9.2-§9.6) until the match is over."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        rng: random.Random,
        *,
        knowledge: Knowledge = Knowledge.FULL,
        first_dealer: int | None = None,
    ) -> None:
        self.format: Format = FORMATS[rules.format](rules, players)
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
        self.totals = [self.format.starting_total()] * players
        self.deals: list[DealRecord] = []
        self.game: Game | None = None
        self.seating: Seating | None = None
        self._check_first_deal()

    def _check_first_deal(self) -> None:
        """§2.3: a match whose first deal cannot be dealt (too many cards for the deck) is
        refused at once, naming `hand_size` and the most that fits; later deals have as many
        players or fewer."""
        playing = sum(self.format.seating(self).active)
        check_room_to_turn_up(self.rules, playing, hand_size(self.rules, playing))

    @property
    def next_dealer(self) -> int:
        return self.format.seating(self).dealer

    def start_deal(self) -> list[Event]:
        """Deal the next deal (the right table, seats and dealer; a fresh shuffle)."""
        if self.over:
            raise IllegalAction("the match is over")
        if self.game is not None and not self.game.over:
            raise IllegalAction("the current deal is still being played")
        seating = self.seating = self.format.seating(self)
        self.game, events = deal(
            self.rules, len(seating.players), seating.dealer, self.rng, self.knowledge,
            active=seating.active,
        )  # fmt: skip
        return events

    def finish_deal(self) -> DealRecord:
        """Score the deal just ended and add it to the record."""
        game = self.game
        if game is None or not game.over or game.points is None or game.winner is None:
            raise IllegalAction("no finished deal to score")
        cards_left = [game.shown[seat][1] for seat in range(game.players)]
        loser = next((s for s in range(game.players) if game.active[s]), None)
        record = self.record(
            game.winner, list(game.points), cards_left, dealer=game.dealer,
            loser=loser if game.elimination else None, order=tuple(game.finished),
            blocked=game.blocked,
        )  # fmt: skip
        self.game = None
        return record

    def record(
        self,
        winner: int,
        points: list[int],
        cards_left: list[int],
        *,
        dealer: int | None = None,
        loser: int | None = None,
        order: tuple[int, ...] = (),
        blocked: bool = False,
    ) -> DealRecord:
        """Score a deal from its result, per seat: the winner, each seat's points and cards
        left (also how a table that only keeps score enters its rounds)."""
        if self.game is not None and not self.game.over:
            raise IllegalAction("the current deal is still being played")
        seating = self.seating or self.format.seating(self)
        record = DealRecord(
            number=len(self.deals) + 1,
            dealer=seating.dealer if dealer is None else dealer,
            winner=winner,
            points=tuple(points),
            cards_left=tuple(cards_left),
            seating=seating.players,
            loser=loser,
            order=order,
            table=seating.table,
            round=seating.round,
            blocked=blocked,
        )
        deltas = self.format.deltas(self, record)
        record = dataclasses.replace(record, deltas=deltas)
        self.deals.append(record)
        self.totals = [total + delta for total, delta in zip(self.totals, deltas, strict=True)]
        self.seating = None
        return record

    @property
    def over(self) -> bool:
        return self.format.over(self)

    def verdict(self) -> Verdict:
        """Who wins and who loses, as things stand (final once `over`): match players."""
        return self.format.verdict(self)

    def standings(self) -> dict[str, object]:
        """What the format adds to the totals: losses, eliminations, team totals, schedule."""
        return self.format.standings(self)
