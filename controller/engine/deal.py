"""Dealing a new deal (§2.3) and, in full mode, turning up its first card (§2.5)."""

from __future__ import annotations

import random

from .cards import UNKNOWN
from .errors import OptionError
from .events import DealStarted, Event, Returned, TurnedUp
from .game import Game
from .options import Rules
from .start import must_return, start_pile
from .state import Knowledge


def deal(
    rules: Rules,
    players: int,
    dealer: int,
    rng: random.Random,
    knowledge: Knowledge = Knowledge.FULL,
) -> tuple[Game, list[Event]]:
    """Shuffle, deal and (in full mode) turn up the first card. At a table (TABLE mode) the
    hands hold unseen cards and the game waits for a `TurnUp` with the card on the table."""
    game = Game(rules, players, dealer, rng, knowledge)
    size, deck = rules.hand_size, game.deck
    if players * size > deck.size - 1:
        raise OptionError(
            f"option hand_size: {players} players x {size} cards needs more than the "
            f"{deck.size}-card {deck.name} deck"
        )
    if knowledge is Knowledge.FULL:
        cards = deck.cards()
        rng.shuffle(cards)
    else:
        cards = [UNKNOWN] * deck.size
    game.hands = [cards[seat * size : (seat + 1) * size] for seat in range(players)]
    game.pile = cards[players * size :]
    events: list[Event] = [DealStarted(dealer, players, size)]
    if knowledge is Knowledge.FULL:
        turn_up_from_pile(game, events)
    return game, events


def turn_up_from_pile(game: Game, events: list[Event]) -> None:
    while True:
        c = game.pile.pop()
        events.append(TurnedUp(c))
        if not must_return(game, c):
            start_pile(game, c, events)
            return
        game.pile.append(c)
        game.rng.shuffle(game.pile)
        events.append(Returned(c))
