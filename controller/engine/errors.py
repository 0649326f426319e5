"""Errors the engine raises. Every refused action is an `IllegalAction` whose message says why.

Each class also inherits the matching builtin (as gpiozero does), so callers that only know
`ValueError` still catch bad options.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of everything the rules engine raises on purpose."""


class OptionError(EngineError, ValueError):
    """An option is unknown, has a bad value, or contradicts another; the message names it."""


class IllegalAction(EngineError, ValueError):
    """An action the rules do not allow now. Nothing about the game changed."""


class NotYourTurn(IllegalAction):
    """Someone acted out of turn, or while another player owes something."""


class WrongPhase(IllegalAction):
    """The action does not fit this stage of the deal (e.g. a play after the deal ended)."""


class CardNotHeld(IllegalAction):
    """The player does not hold that card."""


class CardNotPlayable(IllegalAction):
    """The card does not match the top card, or a rule forbids it here."""


class TooLate(IllegalAction):
    """A claim made after its window closed (a catch once the next player has begun)."""


class BadChoice(IllegalAction):
    """A colour, target or count that goes with a play is missing or wrong."""
