"""What happened, as small values returned by `Game.push()`.

Events are for people and logs (the scoreboard, transcripts, the event log); the game's state is
always the authority. `to_dict()` gives a JSON-ready form. They are plain slotted dataclasses,
not frozen ones: the simulator creates millions of them, and nobody changes one after the fact.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import Card, Colour


class Why(StrEnum):
    """Why cards were drawn or the launcher was pressed."""

    TURN = "turn"
    DRAW_TWO = "draw_two"
    DRAW_FOUR = "draw_four"
    HIT_TWO = "hit_two"
    HIT_FIRE = "hit_fire"
    ALL_HIT = "all_hit"
    UNO = "uno"
    FALSE_CALL = "false_call"
    FALSE_ACCUSATION = "false_accusation"
    CHALLENGE = "challenge"
    SUGGESTION = "suggestion"
    WRONG_PLAY = "wrong_play"
    WRONG_JUMP_IN = "wrong_jump_in"


@dataclass(slots=True)
class DealStarted:
    dealer: int
    players: int
    hand_size: int


@dataclass(slots=True)
class TurnedUp:
    card: Card


@dataclass(slots=True)
class Returned:
    """A turned-up card that may not start the pile went back into the deck (§2.5)."""

    card: Card


@dataclass(slots=True)
class Played:
    """`seat` played `card` (on top) with the rest of its `group` (§10.3); `also` went down
    with a Discard All."""

    seat: int
    card: Card
    colour: Colour
    also: tuple[Card, ...] = ()
    group: tuple[Card, ...] = ()


@dataclass(slots=True)
class ColourNamed:
    seat: int
    colour: Colour


@dataclass(slots=True)
class Drew:
    seat: int
    cards: tuple[Card, ...]
    why: Why


@dataclass(slots=True)
class Pressed:
    """One press of the launcher: `cards` went to `seat` (the launcher reported `reported`)."""

    seat: int
    cards: tuple[Card, ...]
    why: Why
    reported: int


@dataclass(slots=True)
class Reshuffled:
    count: int


@dataclass(slots=True)
class Skipped:
    seat: int


@dataclass(slots=True)
class Reversed:
    direction: int


@dataclass(slots=True)
class Traded:
    seat: int
    target: int


@dataclass(slots=True)
class Passed:
    seat: int


@dataclass(slots=True)
class Owes:
    """`seat` must press the launcher `presses` times before play goes on (a penalty)."""

    seat: int
    presses: int
    why: Why


@dataclass(slots=True)
class UnoCalled:
    seat: int


@dataclass(slots=True)
class UnoMissed:
    """`seat` is down to one card without calling: others may catch it until the window closes."""

    seat: int


@dataclass(slots=True)
class Caught:
    seat: int
    target: int


@dataclass(slots=True)
class FalseCall:
    seat: int


@dataclass(slots=True)
class FalseAccusation:
    seat: int
    target: int


@dataclass(slots=True)
class Challenged:
    seat: int
    offender: int
    guilty: bool


@dataclass(slots=True)
class HandShown:
    """§3.2 step 2: a challenged Wild Draw Four's player shows their hand to the challenger,
    before the verdict, guilty or not. `cards` is the hand as the engine knows it (unseen cards
    at a table: `?`)."""

    seat: int
    to: int
    cards: tuple[Card, ...]


@dataclass(slots=True)
class Corrected:
    """A person corrected `seat`'s hand count from `before` to `after`."""

    seat: int
    before: int
    after: int


@dataclass(slots=True)
class WentOut:
    """`seat` played its last card; final-card effects may still follow."""

    seat: int


@dataclass(slots=True)
class DealBlocked:
    """§8 [ENG]: nothing is left to draw or reload and every player in turn has drawn or
    pressed for nothing: the deal ends blocked. `seat` made the last empty turn (the fewest
    hand points win; ties go to fewer cards, then to the first in turn order from `seat`)."""

    seat: int


@dataclass(slots=True)
class DealEnded:
    """The deal is over: hand points and cards left per seat. Under within-deal elimination
    (§9.3) `order` is the order players went out and `loser` the last holder. A `blocked`
    deal (§8) was won by the fewest hand points; the winner's own points count as 0."""

    winner: int
    points: tuple[int, ...]
    cards_left: tuple[int, ...]
    order: tuple[int, ...] = ()
    loser: int | None = None
    blocked: bool = False


Event = (
    DealStarted
    | TurnedUp
    | Returned
    | Played
    | ColourNamed
    | Drew
    | Pressed
    | Reshuffled
    | Skipped
    | Reversed
    | Traded
    | Passed
    | Owes
    | UnoCalled
    | UnoMissed
    | Caught
    | FalseCall
    | FalseAccusation
    | Challenged
    | HandShown
    | Corrected
    | WentOut
    | DealBlocked
    | DealEnded
)


def to_dict(item: Any) -> dict[str, Any]:
    """An event (or an action: any of the engine's dataclasses) as
    `{"type": "Played", "seat": 0, "card": "R5", ...}`, ready for JSON."""
    out: dict[str, Any] = {"type": type(item).__name__}
    for field in dataclasses.fields(item):
        out[field.name] = plain(getattr(item, field.name))
    return out


def plain(value: object) -> Any:
    """JSON-ready: cards as their notation, enums as their value, tuples as lists."""
    if isinstance(value, Card):
        return value.text
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, StrEnum):
        return value.value
    return value
