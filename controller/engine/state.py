"""The pieces of a deal's state that are not cards: phases, knowledge modes and owed duties."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .events import Why


class Knowledge(StrEnum):
    """How much the engine sees.

    FULL: the engine holds the deck and every hand (simulation, bots, tests).
    TABLE: physical cards at a real table. Hands hold unknown cards (`?`) whose number is exact;
    a played card replaces an unknown one; facts that need a hand (was that Wild Draw Four
    legal?) are supplied by the players.
    """

    FULL = "full"
    TABLE = "table"


class Phase(StrEnum):
    TURN_UP = "turn_up"  # table mode: waiting for the card that starts the discard pile
    PLAYING = "playing"
    SCORING = "scoring"  # table mode: waiting for the hands left at the end of the deal
    OVER = "over"


class DutyKind(StrEnum):
    PRESS = "press"  # press the launcher `count` more times
    PRESS_UNTIL_FIRE = "press_until_fire"  # press until a press gives at least one card
    CHOOSE_COLOUR = "choose_colour"  # name the colour of a turned-up wild
    PENALTY = "penalty"  # face a pending draw of `count`: accept, challenge or stack


@dataclass(slots=True)
class Duty:
    """Something a player owes before play goes on (forced, so it never closes a UNO window)."""

    kind: DutyKind
    seat: int
    count: int = 0
    why: Why = Why.TURN
    source: int = -1  # who played the card that created it
    challengeable: bool = False  # PENALTY: a Wild Draw Four the victim may challenge
    legal: bool | None = None  # ...and was it legal (None: nobody at the table knows yet)
    share: int = 0  # PENALTY: the part of `count` a successful challenge takes off
    stackable: bool = False  # may be passed on with a matching card (§10.1)

    def copy(self) -> Duty:
        return Duty(
            self.kind, self.seat, self.count, self.why, self.source, self.challengeable,
            self.legal, self.share, self.stackable,
        )  # fmt: skip
