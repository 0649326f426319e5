"""Integer-coded cards and the tables the fast deal loop reads, built once per rule set from the
same deck data the validated engine uses (`Rules.deck_spec`: its cards, copies and points).

A card is its index in the deck's list of distinct cards, so a hand is a list of small ints in
the validated engine's order, and shuffling the list of physical cards draws the very same
random numbers as shuffling the engine's `Card` objects.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.engine import COLOURS, Card, Face, Rules

# What a card does when played, one small int per face (the deal loop dispatches on it).
NUMBER, SKIP, REVERSE, DRAW_TWO, WILD, WILD_DRAW_FOUR = range(6)
HIT_TWO, TRADE_HANDS, DISCARD_ALL, WILD_ALL_HIT, WILD_HIT_FIRE = range(6, 11)

KINDS: dict[Face, int] = {
    Face.SKIP: SKIP,
    Face.REVERSE: REVERSE,
    Face.DRAW_TWO: DRAW_TWO,
    Face.WILD: WILD,
    Face.WILD_DRAW_FOUR: WILD_DRAW_FOUR,
    Face.HIT_TWO: HIT_TWO,
    Face.TRADE_HANDS: TRADE_HANDS,
    Face.DISCARD_ALL: DISCARD_ALL,
    Face.WILD_ALL_HIT: WILD_ALL_HIT,
    Face.WILD_HIT_FIRE: WILD_HIT_FIRE,
}
HITS = frozenset({SKIP, DRAW_TWO, WILD_DRAW_FOUR, HIT_TWO, WILD_HIT_FIRE})
"""Faces that cost the next player something (the heuristic bot's "hits")."""

NO_COLOUR = -1
NO_TARGET = -1

Play = tuple[int, int, int]
"""(card, colour named or the card's own colour, Trade Hands target or NO_TARGET)."""


@dataclass(frozen=True)
class Tables:
    """Everything about the deck the deal loop needs, as tuples indexed by card id."""

    cards: tuple[Card, ...]  # id -> the engine's card
    deck: tuple[int, ...]  # every physical card, in the deck's fixed order
    kind: tuple[int, ...]
    colour: tuple[int, ...]  # index into COLOURS, or NO_COLOUR for wilds
    face: tuple[int, ...]  # a small int per face, for matching the top card
    wild: tuple[bool, ...]
    points: tuple[int, ...]
    tenth: tuple[float, ...]  # points / 10, as the heuristic bot adds them
    number: tuple[int, ...]  # the number printed on the card, 0 for symbols (dealer choice)
    fits: tuple[tuple[bool, ...], ...]  # [colour * faces + top face][card]: may go on top
    faces: int
    plays: tuple[tuple[Play, ...], ...]  # every play of the card, in the engine's order
    returned: tuple[bool, ...]  # a turned-up card that goes back into the pile (§2.5)

    def fit_row(self, colour: int, top: int) -> tuple[bool, ...]:
        return self.fits[colour * self.faces + self.face[top]]


def build(rules: Rules) -> Tables:
    spec = rules.deck_spec
    cards = tuple(c for c, _ in spec.counts)
    ids = {c: i for i, c in enumerate(cards)}
    faces = list(dict.fromkeys(c.face for c in cards))
    colour = tuple(NO_COLOUR if c.colour is None else COLOURS.index(c.colour) for c in cards)
    face = tuple(faces.index(c.face) for c in cards)
    wild = tuple(c.is_wild for c in cards)
    fits = tuple(
        tuple(w or col == active or f == top for w, col, f in zip(wild, colour, face, strict=True))
        for active in range(len(COLOURS))
        for top in range(len(faces))
    )
    return Tables(
        cards=cards,
        deck=tuple(ids[c] for c in spec.cards()),
        kind=tuple(KINDS.get(c.face, NUMBER) for c in cards),
        colour=colour,
        face=face,
        wild=wild,
        points=tuple(spec.points[c.face] for c in cards),
        tenth=tuple(spec.points[c.face] / 10 for c in cards),
        number=tuple(c.number or 0 for c in cards),
        fits=fits,
        faces=len(faces),
        plays=tuple(_plays(i, col, w) for i, (col, w) in enumerate(zip(colour, wild, strict=True))),
        returned=tuple(_returned(rules, c) for c in cards),
    )


def _plays(card: int, colour: int, wild: bool) -> tuple[Play, ...]:
    if wild:
        return tuple((card, named, NO_TARGET) for named in range(len(COLOURS)))
    return ((card, colour, NO_TARGET),)


def _returned(rules: Rules, c: Card) -> bool:
    if c.face in (Face.WILD_DRAW_FOUR, Face.TRADE_HANDS):
        return True
    return c.face is Face.WILD and rules.start_wild == "redraw"
