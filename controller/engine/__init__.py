"""The rules engine: UNO Attack and classic UNO (RULES.md), pure: standard library only, no
I/O, no clock, randomness injected.

    rules = Rules.create("attack")
    game, events = deal(rules, players=4, dealer=3, rng=random.Random(1))
    while not game.over:
        action = choose(game.legal_actions())   # a Press carries the launcher's real count
        events = game.push(action)
"""

from .actions import (
    CLAIMS,
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    Correct,
    Draw,
    EnterHand,
    Pass,
    Play,
    Press,
    Suggest,
    TurnUp,
)
from .cards import (
    COLOURS,
    UNKNOWN,
    Card,
    Colour,
    Face,
    card,
    cards_text,
    parse_card,
    parse_cards,
    parse_colour,
)
from .deal import deal
from .decks import DECKS, DeckSpec, GameKind
from .errors import (
    BadChoice,
    CardNotHeld,
    CardNotPlayable,
    EngineError,
    IllegalAction,
    NotYourTurn,
    OptionError,
    TooLate,
    WrongPhase,
)
from .game import Game, apply, duty_text
from .options import OPTIONS, OptionSpec, Rules
from .state import Duty, DutyKind, Knowledge, Phase

__all__ = [
    "CLAIMS",
    "COLOURS",
    "DECKS",
    "OPTIONS",
    "UNKNOWN",
    "Accept",
    "Action",
    "BadChoice",
    "CallUno",
    "Card",
    "CardNotHeld",
    "CardNotPlayable",
    "Catch",
    "Challenge",
    "ChooseColour",
    "Colour",
    "Correct",
    "DeckSpec",
    "Draw",
    "Duty",
    "DutyKind",
    "EngineError",
    "EnterHand",
    "Face",
    "Game",
    "GameKind",
    "IllegalAction",
    "Knowledge",
    "NotYourTurn",
    "OptionError",
    "OptionSpec",
    "Pass",
    "Phase",
    "Play",
    "Press",
    "Rules",
    "Suggest",
    "TooLate",
    "TurnUp",
    "WrongPhase",
    "apply",
    "card",
    "cards_text",
    "deal",
    "duty_text",
    "parse_card",
    "parse_cards",
    "parse_colour",
]
