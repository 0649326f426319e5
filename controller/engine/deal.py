"""Dealing a new deal (§2.3) and, in full mode, turning up its first card (§2.5)."""

from __future__ import annotations

import random
from collections.abc import Sequence

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
    *,
    active: Sequence[bool] | None = None,
) -> tuple[Game, list[Event]]:
    """Shuffle, deal and (in full mode) turn up the first card. At a table (TABLE mode) the
    hands hold unseen cards and the game waits for a `TurnUp` with the card on the table.
    `active` leaves out seats whose players were eliminated from the match (§9.4)."""
    game = Game(rules, players, dealer, rng, knowledge, active=active)
    playing = game.active_count
    size, deck = hand_size(rules, playing), game.deck
    if playing * size > deck.size - 1:
        raise OptionError(
            f"option hand_size: {playing} players x {size} cards needs more than the "
            f"{deck.size}-card {deck.name} deck"
        )
    if knowledge is Knowledge.FULL:
        cards = deck.cards()
        rng.shuffle(cards)
    else:
        cards = [UNKNOWN] * deck.size
    for seat in range(players):
        if game.active[seat]:
            game.hands[seat], cards = cards[:size], cards[size:]
    game.pile = cards
    events: list[Event] = [DealStarted(dealer, players, size)]
    if knowledge is Knowledge.FULL:
        turn_up_from_pile(game, events)
    return game, events


def hand_size(rules: Rules, players: int) -> int:
    """§2.3 / §10.4: 7 cards, or under deal_size_by_count 7 up to 4 players, 8 for 5-6, and
    9 for 7 or more [ENG: the seed gives only 6 players → 8 to 10]."""
    if not rules.deal_size_by_count:
        return rules.hand_size
    return 7 if players <= 4 else 8 if players <= 6 else 9


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
