"""Turning up the first card and applying its effect (§2.5), and naming the colour of a
turned-up wild.

F is the first player: the dealer's left, or the dealer under `first_player=dealer`.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import ChooseColour, TurnUp
from .cards import COLOURS, UNKNOWN, Card, Face
from .errors import BadChoice, IllegalAction, NotYourTurn, WrongPhase
from .events import ColourNamed, Event, Returned, Reversed, Skipped, TurnedUp
from .options import Rules
from .resolve import charge
from .state import DealState, Duty, DutyKind, Phase

RANDOM_COLOUR = -1
"""The seat recorded in `ColourNamed` when the engine picked the colour (start_wild=random)."""


def push_turn_up(game: DealState, action: TurnUp, events: list[Event]) -> None:
    """Table mode: the players say which card was turned up."""
    if game.phase is not Phase.TURN_UP:
        raise WrongPhase("the first card has already been turned up")
    c = action.card
    if c is UNKNOWN:
        raise BadChoice("say which card was turned up")
    if not game.deck.holds(c):
        raise BadChoice(f"{c} is not in the {game.deck.name} deck")
    events.append(TurnedUp(c))
    if must_return(game.rules, c):
        events.append(Returned(c))
        return
    game.pile.pop()
    start_pile(game, c, events)


def must_return(rules: Rules, c: Card) -> bool:
    """§2.5: a card turned up first that goes back into the deck for another to be turned up
    (Wild Draw Four, Trade Hands, and Wild under start_wild=redraw)."""
    face = c.face
    if face is Face.WILD_DRAW_FOUR or face is Face.TRADE_HANDS:
        return True
    return face is Face.WILD and rules.start_wild == "redraw"


def start_pile(game: DealState, c: Card, events: list[Event]) -> None:
    game.discard.append(c)
    game.colour = c.colour
    game.phase = Phase.PLAYING
    dealer = game.dealer
    first = dealer if game.rules.first_player == "dealer" else game.next_seat(dealer)
    game.turn = first
    _STARTS.get(c.face, _plain)(game, first, events)
    if game.rules.jumpin is not None:
        game.jump = (dealer, c)  # §10.2: the turned-up card counts as played by the dealer


# Each function applies one turned-up card (§2.5) with F = `first`; game.turn is F on entry.


def _plain(game: DealState, first: int, events: list[Event]) -> None:
    """Numbers and (Attack) Discard All: F plays on it."""


def _skip(game: DealState, first: int, events: list[Event]) -> None:
    events.append(Skipped(first))
    game.turn = game.next_seat(first)


def _reverse(game: DealState, first: int, events: list[Event]) -> None:
    game.direction = -game.direction
    events.append(Reversed(game.direction))
    if game.rules.start_reverse == "dealer_right_leads":
        game.turn = game.next_seat(game.dealer)
    else:
        game.turn = game.dealer


def _hit(game: DealState, first: int, face: Face, events: list[Event]) -> bool:
    """The turned-up card charges F as if the dealer had played it (§2.5): the same draws,
    presses and pending penalties as in play. True when F faces a decision (pass it on)."""
    return charge(game, game.dealer, first, game.effects[face], 1, None, 0, events)


def _draw_two(game: DealState, first: int, events: list[Event]) -> None:
    """F draws 2 and is skipped (or, under start_draw2_skips=false, then plays). Under
    stacking or jump-in the 2 cards are a penalty F may pass on, or someone may jump in."""
    decided = _hit(game, first, Face.DRAW_TWO, events)
    if game.rules.start_draw2_skips:
        if not decided:
            events.append(Skipped(first))
        game.turn = game.next_seat(first)


def _hit_two(game: DealState, first: int, events: list[Event]) -> None:
    if not _hit(game, first, Face.HIT_TWO, events):
        events.append(Skipped(first))
    game.turn = game.next_seat(first)


def _wild(game: DealState, first: int, events: list[Event]) -> None:
    mode = game.rules.start_wild
    if mode == "free_lead":
        game.free_lead = True
    elif mode == "random":
        game.colour = game.rng.choice(COLOURS)
        events.append(ColourNamed(RANDOM_COLOUR, game.colour))
    else:
        namer = game.next_seat(game.dealer, -1) if mode == "predecessor_names" else first
        game.duties.append(Duty(DutyKind.CHOOSE_COLOUR, namer))


def _wild_all_hit(game: DealState, first: int, events: list[Event]) -> None:
    """Every player but the dealer presses once, from F on; F names the colour first."""
    namer = first if game.rules.start_colour_namer == "starter" else game.dealer
    game.duties.append(Duty(DutyKind.CHOOSE_COLOUR, namer))
    _hit(game, first, Face.WILD_ALL_HIT, events)


def _wild_hit_fire(game: DealState, first: int, events: list[Event]) -> None:
    """F presses until cards come out and loses the turn; the next player names the colour."""
    starter = game.next_seat(first)
    namer = starter if game.rules.start_colour_namer == "starter" else game.dealer
    _hit(game, first, Face.WILD_HIT_FIRE, events)
    game.duties.append(Duty(DutyKind.CHOOSE_COLOUR, namer))
    _skip(game, first, events)


_STARTS: dict[Face, Callable[[DealState, int, list[Event]], None]] = {
    Face.SKIP: _skip,
    Face.REVERSE: _reverse,
    Face.DRAW_TWO: _draw_two,
    Face.HIT_TWO: _hit_two,
    Face.WILD: _wild,
    Face.WILD_ALL_HIT: _wild_all_hit,
    Face.WILD_HIT_FIRE: _wild_hit_fire,
}


def push_choose_colour(game: DealState, action: ChooseColour, events: list[Event]) -> None:
    duty = game.duties[0] if game.duties else None
    if duty is None or duty.kind is not DutyKind.CHOOSE_COLOUR:
        raise IllegalAction("no colour needs naming now")
    if duty.seat != action.seat:
        raise NotYourTurn(f"P{duty.seat} names the colour")
    if action.colour not in COLOURS:
        raise BadChoice(f"{action.colour!r} is not a colour")
    game.duties.pop(0)
    game.colour = action.colour
    events.append(ColourNamed(action.seat, action.colour))
