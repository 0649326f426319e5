"""Deck compositions and card point values as data (RULES.md §1).

A deck preset says how many of each card it holds and what each face scores. New editions
(blank cards, later Attack decks) are new presets, not new code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from .cards import COLOURS, NUMBER_FACES, Card, Face, card


class GameKind(StrEnum):
    CLASSIC = "classic"
    ATTACK = "attack"


@dataclass(frozen=True)
class DeckSpec:
    """A named deck: (card, copies) pairs and the points each face is worth."""

    name: str
    game: GameKind
    counts: tuple[tuple[Card, int], ...]
    points: Mapping[Face, int]

    @property
    def size(self) -> int:
        return sum(copies for _, copies in self.counts)

    @property
    def total_points(self) -> int:
        """Every card of the deck together, in points: more than any hand can hold (§6)."""
        return sum(self.points[c.face] * copies for c, copies in self.counts)

    def copies(self, c: Card) -> int:
        """How many copies of `c` the deck holds."""
        return sum(copies for known, copies in self.counts if known is c)

    def cards(self) -> list[Card]:
        """Every physical card, in a fixed order (shuffle it yourself)."""
        return [c for c, copies in self.counts for _ in range(copies)]

    def holds(self, c: Card) -> bool:
        return any(c is held for held, _ in self.counts)

    def value(self, c: Card) -> int:
        return self.points[c.face]


def _coloured(faces: Mapping[Face, int]) -> list[tuple[Card, int]]:
    return [(card(colour, face), n) for colour in COLOURS for face, n in faces.items() if n]


def _numbers(zero: int) -> dict[Face, int]:
    return {face: (zero if face is Face.ZERO else 2) for face in NUMBER_FACES}


def _points(actions: Mapping[Face, int]) -> Mapping[Face, int]:
    table = {face: int(face.value) for face in NUMBER_FACES}
    table.update(actions)
    table[Face.UNKNOWN] = 0
    return MappingProxyType(table)


CLASSIC_POINTS: Final = _points(
    {Face.SKIP: 20, Face.REVERSE: 20, Face.DRAW_TWO: 20, Face.WILD: 50, Face.WILD_DRAW_FOUR: 50}
)
ATTACK_POINTS: Final = _points(
    {
        Face.SKIP: 20,
        Face.REVERSE: 20,
        Face.HIT_TWO: 20,
        Face.DISCARD_ALL: 30,
        Face.TRADE_HANDS: 30,
        Face.WILD: 50,
        Face.WILD_ALL_HIT: 50,
        Face.WILD_HIT_FIRE: 50,
    }
)


def _attack(reverse: int, discard_all: int) -> tuple[tuple[Card, int], ...]:
    per_colour = _numbers(zero=0) | {
        Face.REVERSE: reverse,
        Face.SKIP: 2,
        Face.HIT_TWO: 2,
        Face.DISCARD_ALL: discard_all,
        Face.TRADE_HANDS: 1,
    }
    wilds = [
        (card(None, Face.WILD), 4),
        (card(None, Face.WILD_ALL_HIT), 2),
        (card(None, Face.WILD_HIT_FIRE), 2),
    ]
    return tuple(_coloured(per_colour) + wilds)


CLASSIC: Final = DeckSpec(
    name="classic",
    game=GameKind.CLASSIC,
    counts=tuple(
        [
            *_coloured(_numbers(zero=1) | {Face.SKIP: 2, Face.REVERSE: 2, Face.DRAW_TWO: 2}),
            (card(None, Face.WILD), 4),
            (card(None, Face.WILD_DRAW_FOUR), 4),
        ]
    ),
    points=CLASSIC_POINTS,
)
ATTACK_1998: Final = DeckSpec("attack_1998", GameKind.ATTACK, _attack(2, 1), ATTACK_POINTS)
ATTACK_ALT: Final = DeckSpec("attack_alt", GameKind.ATTACK, _attack(1, 2), ATTACK_POINTS)

DECKS: Final[Mapping[str, DeckSpec]] = MappingProxyType(
    {deck.name: deck for deck in (CLASSIC, ATTACK_1998, ATTACK_ALT)}
    | {"attack_alt_4rev_8da": ATTACK_ALT}
)
DEFAULT_DECK: Final = MappingProxyType(
    {GameKind.CLASSIC: "classic", GameKind.ATTACK: "attack_1998"}
)
