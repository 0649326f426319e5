"""The rules engine: UNO Attack and classic UNO (RULES.md), pure: standard library only, no
I/O, no clock, randomness injected.

    rules = Rules.create("attack")
    game, events = deal(rules, players=4, dealer=3, rng=random.Random(1))
    while not game.over:
        action = choose(game.legal_actions())   # a Press carries the launcher's real count
        events = game.push(action)

This package is the engine's public surface: the rest of the project imports only from
`controller.engine` (`tests/test_layers.py` checks it); the engine's own modules import each
other directly.
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
from .autoplay import DealStats, RunawayGame, play_out, remaining_for_press
from .bots import Bot, HeuristicBot, RandomBot
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
from .editions import edition_view
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
from .events import Event, plain, to_dict
from .formats import (
    DEALS_PER_PARTNERSHIP,
    FORMATS,
    DealRecord,
    Seating,
    rotation_schedule,
)
from .game import Game, apply, duty_text
from .legal_actions import jump_ins
from .match import Match, choose_dealer
from .notation import describe
from .option_table import ALIASES, ALWAYS_ON, IMPLIED, WITHOUT_OPTION, OptionValue
from .options import EDITION, OPTIONS, OptionSpec, Rules
from .state import Duty, DutyKind, Knowledge, Phase

__all__ = [
    "ALIASES",
    "ALWAYS_ON",
    "CLAIMS",
    "COLOURS",
    "DEALS_PER_PARTNERSHIP",
    "DECKS",
    "EDITION",
    "FORMATS",
    "IMPLIED",
    "OPTIONS",
    "UNKNOWN",
    "WITHOUT_OPTION",
    "Accept",
    "Action",
    "BadChoice",
    "Bot",
    "CallUno",
    "Card",
    "CardNotHeld",
    "CardNotPlayable",
    "Catch",
    "Challenge",
    "ChooseColour",
    "Colour",
    "Correct",
    "DealRecord",
    "DealStats",
    "DeckSpec",
    "Draw",
    "Duty",
    "DutyKind",
    "EngineError",
    "EnterHand",
    "Event",
    "Face",
    "Game",
    "GameKind",
    "HeuristicBot",
    "IllegalAction",
    "Knowledge",
    "Match",
    "NotYourTurn",
    "OptionError",
    "OptionSpec",
    "OptionValue",
    "Pass",
    "Phase",
    "Play",
    "Press",
    "RandomBot",
    "Rules",
    "RunawayGame",
    "Seating",
    "Suggest",
    "TooLate",
    "TurnUp",
    "WrongPhase",
    "apply",
    "card",
    "cards_text",
    "choose_dealer",
    "deal",
    "describe",
    "duty_text",
    "edition_view",
    "jump_ins",
    "parse_card",
    "parse_cards",
    "parse_colour",
    "plain",
    "play_out",
    "remaining_for_press",
    "rotation_schedule",
    "to_dict",
]
