"""Positions from text, and states as text: so tests read like the scenarios in RULES.md §12.

game = position("attack", top="R5", hands={0: "B2 G7"}, pile="R9")
game.push(Press(0, 1))          # P0 presses; the card that comes out is R9
print(describe(game))
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from .cards import Card, Colour, cards_text, parse_card, parse_cards, parse_colour
from .decks import GameKind
from .events import (
    ColourNamed,
    DealBlocked,
    DealEnded,
    Drew,
    Event,
    HandShown,
    Played,
    Pressed,
    Returned,
    Reversed,
    Skipped,
    Traded,
    TurnedUp,
)
from .game import Game
from .option_table import OptionValue
from .options import Rules
from .start import start_pile
from .state import Knowledge, Phase

FILLER = "B1 B2 B3 G1 G2 G3 Y1"
"""The hand a position gives to players whose cards the scenario does not name."""


def position(
    game: GameKind | str = GameKind.ATTACK,
    *,
    players: int = 4,
    dealer: int | None = None,
    top: str = "R5",
    colour: str | None = None,
    hands: Mapping[int, str] | None = None,
    pile: str | None = None,
    turn: int = 0,
    direction: int = 1,
    knowledge: Knowledge = Knowledge.FULL,
    seed: int = 0,
    **options: OptionValue,
) -> Game:
    """A game in the middle of a deal. Players are P0..P(n-1), the dealer defaults to the last
    seat (so P0 is the first player), `top` is the discard pile's top card and `colour` the
    active colour when the top is a wild. `pile` lists the draw pile / launcher from the next
    card out; by default it holds the rest of the deck, shuffled with `seed`."""
    rules = Rules.create(game, **options)
    new = Game(rules, players, players - 1 if dealer is None else dealer, random.Random(seed))
    new.knowledge = knowledge
    given = hands or {}
    new.hands = [parse_cards(given.get(seat, FILLER)) for seat in range(players)]
    new.discard = [parse_card(top)]
    new.colour = parse_colour(colour) if colour else new.top.colour
    new.pile = _pile(new, pile)
    new.turn = turn
    new.direction = direction
    new.phase = Phase.PLAYING
    return new


def _pile(game: Game, text: str | None) -> list[Card]:
    if text is not None:
        return parse_cards(text)[::-1]
    left = Counter(game.deck.cards())
    left.subtract(game.discard + [c for hand in game.hands for c in hand])
    rest = [c for c, copies in left.items() for _ in range(max(copies, 0))]
    game.rng.shuffle(rest)
    return rest


def start_from(
    turned_up: str, game: GameKind | str = GameKind.ATTACK, **kw: object
) -> tuple[Game, list[Event]]:
    """A fresh deal whose first face-up card is `turned_up`, with its start effect applied."""
    new = position(game, top=turned_up, **kw)  # type: ignore[arg-type]
    new.discard.clear()
    new.phase = Phase.TURN_UP
    events: list[Event] = []
    start_pile(new, parse_card(turned_up), events)
    return new, events


def describe(game: Game) -> str:
    """A few lines a person can read: hands, top card, direction, whose move and what is owed."""
    lines = []
    for seat, hand in enumerate(game.hands):
        marker = "*" if seat == game.to_move() else " "
        lines.append(f"{marker}P{seat} [{cards_text(hand)}]")
    colour = game.colour.value if isinstance(game.colour, Colour) else "-"
    top = game.discard[-1].text if game.discard else "-"
    lines.append(f" top {top} colour {colour} direction {'+' if game.direction > 0 else '-'}")
    lines.extend(f" owes: P{duty.seat} {duty.kind.value} {duty.count}" for duty in game.duties)
    return "\n".join(lines)


def event_text(event: Event) -> str:
    """One event in words and card notation, for transcripts."""
    match event:
        case Drew(seat, cards, why):
            return f"P{seat} draws {len(cards)} [{cards_text(cards)}] ({why})"
        case Pressed(seat, cards, why, _):
            return f"P{seat} presses ({why}): {len(cards)} out [{cards_text(cards)}]"
        case Played(seat, c, colour, also):
            extra = f" with {cards_text(also)}" if also else ""
            return f"P{seat} plays {c}{extra}, colour {colour}"
        case DealEnded(winner, points, _, _, _, True):
            return f"P{winner} wins the blocked deal; points left {list(points)}"
        case DealEnded(winner, points, _):
            return f"P{winner} wins the deal; points left {list(points)}"
        case DealBlocked(seat):
            return f"the deal is blocked: nothing to draw or reload, P{seat} last got nothing"
        case Returned(c):
            return f"{c} goes back into the deck"
        case Skipped(seat):
            return f"P{seat} loses the turn"
        case Reversed(direction):
            return f"play now goes {'forwards' if direction > 0 else 'backwards'}"
        case TurnedUp(c):
            return f"{c} is turned up"
        case Traded(seat, target):
            return f"P{seat} trades hands with P{target}"
        case ColourNamed(seat, colour):
            return f"P{seat} names {colour}"
        case HandShown(seat, to, cards):
            return f"P{seat} shows their hand to P{to}: [{cards_text(cards)}]"
    fields = " ".join(str(value) for value in _values(event))
    return f"{type(event).__name__} {fields}".strip()


def _values(event: Event) -> list[object]:
    return [getattr(event, name) for name in event.__slots__]
