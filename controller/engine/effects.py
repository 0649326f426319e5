"""What each card does when played (RULES.md §4), as one table of data keyed by face.

A played card's `Effect` is applied in one place, `resolve.resolve` (its draws and presses by
`resolve.charge`); a turned-up first card (§2.5) is applied by `start.py`, whose hits go through
the same `charge`. A house rule changes the data (`effects_for`: the last-card bans of §6) or
reads its option where the effect is applied (`resolve.py`), never a chain of per-card branches.
Everything that asks what a card does reads the deal's own table (`DealState.effects`, and
`DealState.plain_faces` made from it), never `EFFECTS`: the listing, the checks, the start, the
resolution and the bots.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from .cards import NUMBER_FACES, Face

if TYPE_CHECKING:
    from .options import Rules


@dataclass(frozen=True)
class Effect:
    """The consequences of playing one card of a face.

    wild: the player names a colour; reverse: the direction of play turns; skip: the next
    player loses the turn; draw: the next player draws this many (classic); presses: the next
    player presses this many times (Attack); until_fire: the next player presses until a card
    comes out; everyone_presses: every other player presses once, in order; trade: the player
    trades hands with a player they choose; discard_colour: the player's other cards of its
    colour go down with it (Discard All); challengeable: the next player may challenge the play
    (Wild Draw Four); may_be_last: it may be the card that empties a hand (§6).
    """

    wild: bool = False
    reverse: bool = False
    skip: bool = False
    draw: int = 0
    presses: int = 0
    until_fire: bool = False
    everyone_presses: bool = False
    trade: bool = False
    discard_colour: bool = False
    challengeable: bool = False
    may_be_last: bool = True


PLAIN: Final = Effect()

EFFECTS: Final[Mapping[Face, Effect]] = MappingProxyType(
    {face: PLAIN for face in NUMBER_FACES}
    | {
        Face.SKIP: Effect(skip=True),
        Face.REVERSE: Effect(reverse=True),
        Face.DRAW_TWO: Effect(skip=True, draw=2),
        Face.WILD: Effect(wild=True),
        Face.WILD_DRAW_FOUR: Effect(wild=True, skip=True, draw=4, challengeable=True),
        Face.HIT_TWO: Effect(skip=True, presses=2),
        Face.TRADE_HANDS: Effect(trade=True, may_be_last=False),
        Face.DISCARD_ALL: Effect(discard_colour=True),
        Face.WILD_ALL_HIT: Effect(wild=True, everyone_presses=True),
        Face.WILD_HIT_FIRE: Effect(wild=True, skip=True, until_fire=True),
    }
)


def plain_faces(effects: Mapping[Face, Effect]) -> frozenset[Face]:
    """The faces of `effects` played one way only, with no rule beyond matching the top card:
    no colour to name, no target, no cards along, and allowed as the last card."""
    return frozenset(
        face
        for face, effect in effects.items()
        if not (effect.wild or effect.trade or effect.discard_colour) and effect.may_be_last
    )


@functools.cache
def effects_for(rules: Rules) -> Mapping[Face, Effect]:
    """The effects table under `rules`: the last-card bans of §6 change `may_be_last`."""
    banned: set[Face] = set()
    if rules.no_finish_on_action:
        banned |= {Face.REVERSE, Face.SKIP, Face.WILD}
    if rules.no_finish_extended:
        banned |= {Face.DRAW_TWO, Face.WILD_DRAW_FOUR}
    if not banned:
        return EFFECTS
    table = dict(EFFECTS)
    for face in banned:
        table[face] = dataclasses.replace(table[face], may_be_last=False)
    return MappingProxyType(table)
