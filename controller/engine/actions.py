"""What players do, as small immutable values. `Game.legal_actions()` lists them; `Game.push()`
checks and applies one.

Outcomes that come from outside the engine travel inside the action: `Press.cards` is how many
cards the launcher gave (the real sensor count at a table, an eject policy in simulation), and
`Challenge.guilty` is what the players saw in the challenged hand (table mode only).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Colour


@dataclass(frozen=True, slots=True)
class Play:
    """`seat` plays `card`. `colour` for a wild, `target` for Trade Hands, `also` for the cards
    that go down with a Discard All, `group` for the other cards of a multi-card play (§10.3;
    `card` ends on top), `uno` when the player calls UNO with this play."""

    seat: int
    card: Card
    colour: Colour | None = None
    target: int | None = None
    also: tuple[Card, ...] = ()
    uno: bool = False
    group: tuple[Card, ...] = ()

    def __str__(self) -> str:
        text = f"P{self.seat} plays {self.card}"
        if self.group:
            text += " + " + " ".join(c.text for c in self.group)
        if self.also:
            text += " with " + " ".join(c.text for c in self.also)
        if self.colour:
            text += f" naming {self.colour}"
        if self.target is not None:
            text += f" trading with P{self.target}"
        return text + (" UNO!" if self.uno else "")


@dataclass(frozen=True, slots=True)
class Draw:
    """Classic: `seat` draws one card instead of playing."""

    seat: int

    def __str__(self) -> str:
        return f"P{self.seat} draws"


@dataclass(frozen=True, slots=True)
class Pass:
    """Classic: `seat` keeps the card just drawn and ends the turn."""

    seat: int

    def __str__(self) -> str:
        return f"P{self.seat} keeps it"


@dataclass(frozen=True, slots=True)
class Press:
    """Attack: `seat` presses the launcher button once and `cards` cards came out."""

    seat: int
    cards: int = 0

    def __str__(self) -> str:
        return f"P{self.seat} presses: {self.cards}"


@dataclass(frozen=True, slots=True)
class Accept:
    """`seat` takes the pending draw penalty instead of challenging it."""

    seat: int

    def __str__(self) -> str:
        return f"P{self.seat} accepts"


@dataclass(frozen=True, slots=True)
class Challenge:
    """`seat` challenges the Wild Draw Four just played. At a table, `guilty` is what the shown
    hand proved; in full mode the engine knows and the field may stay None."""

    seat: int
    guilty: bool | None = None

    def __str__(self) -> str:
        return f"P{self.seat} challenges"


@dataclass(frozen=True, slots=True)
class ChooseColour:
    """`seat` names the colour for a turned-up wild."""

    seat: int
    colour: Colour

    def __str__(self) -> str:
        return f"P{self.seat} names {self.colour}"


@dataclass(frozen=True, slots=True)
class CallUno:
    """`seat` calls "UNO!" on its own (a claim: a false call is penalised, not refused)."""

    seat: int

    def __str__(self) -> str:
        return f"P{self.seat} calls UNO"


@dataclass(frozen=True, slots=True)
class Catch:
    """`seat` says `target` forgot to call UNO (a claim: a false accusation is penalised)."""

    seat: int
    target: int

    def __str__(self) -> str:
        return f"P{self.seat} catches P{self.target}"


@dataclass(frozen=True, slots=True)
class Suggest:
    """Attack: `seat` suggested a card to another player and must press 4 times (§3.4)."""

    seat: int

    def __str__(self) -> str:
        return f"P{self.seat} suggested a card"


@dataclass(frozen=True, slots=True)
class TurnUp:
    """Table mode: the card turned up to start the discard pile."""

    card: Card

    def __str__(self) -> str:
        return f"turned up {self.card}"


@dataclass(frozen=True, slots=True)
class EnterHand:
    """Table mode, after the deal: the cards `seat` was left holding, or just their points.
    `correction`: the players counted again and the hand really holds a number of cards other
    than the one tracked (without it, such an entry is refused as a likely miscount)."""

    seat: int
    cards: tuple[Card, ...] = ()
    points: int | None = None
    correction: bool = False

    def __str__(self) -> str:
        shown = " ".join(c.text for c in self.cards) if self.points is None else self.points
        return f"P{self.seat} shows {shown}" + (" (a correction)" if self.correction else "")


@dataclass(frozen=True, slots=True)
class Correct:
    """Table mode: a person counted `seat`'s hand and it holds `count` cards (the sensor or a
    tap was wrong). Unseen cards move between the hand and the pile; the log keeps the record."""

    seat: int
    count: int

    def __str__(self) -> str:
        return f"P{self.seat} really holds {self.count}"


Action = (
    Play
    | Draw
    | Pass
    | Press
    | Accept
    | Challenge
    | ChooseColour
    | CallUno
    | Catch
    | Suggest
    | TurnUp
    | EnterHand
    | Correct
)

CLAIMS = (CallUno, Catch, Suggest)
"""Actions any player may make at any moment; when untrue they are penalised, not refused."""
