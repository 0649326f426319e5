"""Dealing a new deal (§2.3) and, in full mode, turning up its first card (§2.5)."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from .cards import UNKNOWN, Card
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
    check_room_to_turn_up(rules, playing, size)
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


def check_room_to_turn_up(rules: Rules, playing: int, size: int) -> None:
    """§2.3 [ENG]: after dealing, the pile must hold a card that may start the discard pile
    whatever the shuffle: at least one card, and more cards than those §2.5 sends back when
    turned up. Otherwise a pile of only Wild Draw Fours (or Trade Hands) would be turned up,
    returned and turned up again forever; the deal is refused instead, naming the option and
    the largest hand that fits."""
    deck, dealt = rules.deck_spec, playing * size
    if dealt <= most_dealt(rules):
        return
    fits = f"deal at most {largest_hand(rules, playing)} cards each to {playing} players (§2.3)"
    if dealt > deck.size - 1:
        raise OptionError(
            f"option hand_size: {playing} players x {size} cards needs more than the "
            f"{deck.size}-card {deck.name} deck: {fits}"
        )
    returned = returned_at_start(rules)
    names = sorted({c.face.name.replace("_", " ").title() for c in returned})
    raise OptionError(
        f"option hand_size: {playing} players x {size} cards leave {deck.size - dealt} "
        f"cards to turn up, and they could all be among the {len(returned)} "
        f"{' or '.join(names)} cards that go back when turned up (§2.5): {fits}"
    )


def largest_hand(rules: Rules, playing: int) -> int:
    """§2.3: the most cards each of `playing` players may be dealt: more cards are left than
    go back when turned up."""
    return most_dealt(rules) // playing


@functools.lru_cache(maxsize=64)
def returned_at_start(rules: Rules) -> tuple[Card, ...]:
    """The deck's cards that go back when turned up first (§2.5). Kept per rules: reading the
    whole deck at every deal cost the fast path a fifth of its speed."""
    return tuple(c for c in rules.deck_spec.cards() if must_return(rules, c))


@functools.lru_cache(maxsize=64)
def most_dealt(rules: Rules) -> int:
    """The most cards the hands may take together: see `check_room_to_turn_up`."""
    return rules.deck_spec.size - 1 - len(returned_at_start(rules))


def turn_up_from_pile(game: Game, events: list[Event]) -> None:
    """§2.5: turn up the pile's top card; one that must go back is returned, the pile
    reshuffled and another turned up. A pile with no card that may start is refused rather
    than turned up forever (`deal` never leaves one)."""
    if all(must_return(game.rules, c) for c in game.pile):
        pile = " ".join(c.text for c in game.pile) or "empty"
        raise OptionError(
            f"the pile ({pile}) holds no card that may start the discard pile: each would go "
            "back when turned up (§2.5); deal fewer cards (option hand_size)"
        )
    while True:
        c = game.pile.pop()
        events.append(TurnedUp(c))
        if not must_return(game.rules, c):
            start_pile(game, c, events)
            return
        game.pile.append(c)
        game.rng.shuffle(game.pile)
        events.append(Returned(c))
