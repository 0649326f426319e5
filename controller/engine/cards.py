"""Cards as small interned values, and the text notation used in tests and transcripts.

Notation (RULES.md §12): a colour letter R, Y, G, B followed by the face, so `R5` is red 5,
`RS` red Skip, `RR` red Reverse, `R+2` red Draw Two (also `RD2`), `RH2` red Hit 2, `RTH` red
Trade Hands, `RDA` red Discard All; the colourless cards are `W` (Wild), `W4` (Wild Draw Four,
also `WD4`), `WAH` (Wild All Hit) and `WHF` (Wild Hit-Fire). `?` is a card nobody at the table
has seen (a physical card in a hand, in *table* mode).

Every distinct card exists once (`card(colour, face)` returns the same object), so cards compare
and hash by identity and a hand is simply a list of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Final, final


class Colour(StrEnum):
    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"


COLOURS: Final = (Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE)


class Face(StrEnum):
    """What is printed on a card: a number, an action symbol or a wild."""

    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    SKIP = "S"
    REVERSE = "R"
    DRAW_TWO = "+2"
    HIT_TWO = "H2"
    TRADE_HANDS = "TH"
    DISCARD_ALL = "DA"
    WILD = "W"
    WILD_DRAW_FOUR = "W4"
    WILD_ALL_HIT = "WAH"
    WILD_HIT_FIRE = "WHF"
    UNKNOWN = "?"


NUMBER_FACES: Final = tuple(Face(str(n)) for n in range(10))
WILD_FACES: Final = frozenset(
    {Face.WILD, Face.WILD_DRAW_FOUR, Face.WILD_ALL_HIT, Face.WILD_HIT_FIRE}
)

_ALIASES: Final = {"D2": "+2", "WD4": "W4", "W+4": "W4"}


@final
class Card:
    """One distinct card. Build with `card()` or `parse_card()`; never instantiate directly."""

    __slots__ = ("colour", "face", "is_number", "is_wild", "number", "text")

    colour: Colour | None
    face: Face
    number: int | None
    is_number: bool
    is_wild: bool
    text: str

    def __repr__(self) -> str:
        return f"Card({self.text})"

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, tuple[Colour | None, Face]]:
        return (card, (self.colour, self.face))


_CARDS: dict[tuple[Colour | None, Face], Card] = {}


def card(colour: Colour | None, face: Face) -> Card:
    """The one card with this colour and face (wilds and the unknown card have no colour)."""
    found = _CARDS.get((colour, face))
    if found is not None:
        return found
    is_wild = face in WILD_FACES
    if (colour is None) != (is_wild or face is Face.UNKNOWN):
        raise ValueError(f"{face.name} cards {'have no' if colour is None else 'need a'} colour")
    new = object.__new__(Card)
    new.colour = colour
    new.face = face
    new.is_wild = is_wild
    new.number = int(face.value) if face in NUMBER_FACES else None
    new.is_number = new.number is not None
    new.text = (colour.value if colour else "") + face.value
    _CARDS[(colour, face)] = new
    return new


UNKNOWN: Final = card(None, Face.UNKNOWN)


def parse_card(text: str) -> Card:
    """`R5` → red 5; raises ValueError naming the text when it is not a card."""
    raw = text.strip().upper()
    if raw in ("?", *WILD_FACES, *_ALIASES):
        return card(None, Face(_ALIASES.get(raw, raw)))
    colour, face = raw[:1], raw[1:]
    try:
        return card(Colour(colour), Face(_ALIASES.get(face, face)))
    except ValueError:
        raise ValueError(
            f"{text!r} is not a card (examples: R5, GS, B+2, YH2, W, W4, WHF)"
        ) from None


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """`"R5 G7 W4"` (spaces or commas) → a list of cards."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(word) for word in words]


def parse_colour(text: str) -> Colour:
    try:
        return Colour(text.strip().upper()[:1])
    except ValueError:
        raise ValueError(f"{text!r} is not a colour (R, Y, G or B)") from None


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(c.text for c in cards)
