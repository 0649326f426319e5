"""`Game.legal_actions()`: every action the rules accept now, the single source of truth."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    Draw,
    EnterHand,
    Pass,
    Play,
    Press,
    TurnUp,
)
from .cards import COLOURS, UNKNOWN, Card, Colour
from .effects import EFFECTS
from .play import discarded_with, playable
from .state import DutyKind, Phase

if TYPE_CHECKING:
    from .game import Game


def actions(game: Game) -> list[Action]:
    phase = game.phase
    if phase is Phase.PLAYING:
        found = duty_actions(game) if game.duties else turn_actions(game)
        if game.exposed is not None:
            found.extend(_catches(game, game.exposed))
        return found
    if phase is Phase.TURN_UP:
        return [TurnUp(c) for c, _ in game.deck.counts]
    if phase is Phase.SCORING:
        return [EnterHand(seat) for seat in range(game.players) if seat not in game.shown]
    return []


def duty_actions(game: Game) -> list[Action]:
    duty = game.duties[0]
    seat = duty.seat
    if duty.kind is DutyKind.CHOOSE_COLOUR:
        return [ChooseColour(seat, colour) for colour in COLOURS]
    if duty.kind is DutyKind.PENALTY:
        if duty.legal is None and game.hands[duty.offender]:
            return [Challenge(seat, True), Challenge(seat, False), Accept(seat)]
        return [Challenge(seat), Accept(seat)]
    return [_PRESSES[seat]]


def turn_actions(game: Game) -> list[Action]:
    seat = game.turn
    if game.drawn is not None:
        return _after_drawing(game, seat, game.drawn)
    found = _plays_from(game, seat, game.hands[seat])
    if game.rules.attack:
        found.append(_PRESSES[seat])
    elif game.rules.may_draw_when_playable or not found:
        found.append(_DRAWS[seat])
    return found


def _after_drawing(game: Game, seat: int, drawn: Card) -> list[Action]:
    found = _plays_from(game, seat, [drawn])
    if not (found and game.rules.must_play_drawn_if_playable and drawn is not UNKNOWN):
        found.append(_PASSES[seat])
    return found


def _plays_from(game: Game, seat: int, cards: list[Card]) -> list[Action]:
    """Every play of one of `cards` by `seat`. The common case (known cards, plain faces) is
    kept quick: this is the simulator's innermost loop."""
    found: list[Action] = []
    if UNKNOWN in cards or game.free_lead:
        for c in _candidates(game, cards):
            if playable(game, seat, c):
                found.extend(plays(game, seat, c))
        return found
    colour, top_face = game.colour, game.discard[-1].face
    calls_uno = len(game.hands[seat]) == 2
    for c in dict.fromkeys(cards):
        if c.is_wild or c.colour is colour or c.face is top_face:
            if c.face in _PLAIN_FACES:
                found.append(_play(seat, c, None, None, calls_uno))
            elif playable(game, seat, c):
                found.extend(plays(game, seat, c))
    return found


def _candidates(game: Game, cards: list[Card]) -> list[Card]:
    """The distinct cards that might be played from `cards` (any card, if some are unseen)."""
    distinct = list(dict.fromkeys(cards))
    if UNKNOWN in distinct:
        distinct.remove(UNKNOWN)
        distinct.extend(c for c, _ in game.deck.counts if c not in distinct)
    return distinct


def plays(game: Game, seat: int, c: Card) -> list[Action]:
    """Every way to play `c`: each colour for a wild, each target for Trade Hands; with the UNO
    call when the play leaves one card (playing without it is accepted too, and catchable)."""
    effect = EFFECTS[c.face]
    colours: tuple[Colour | None, ...] = COLOURS if c.is_wild else (None,)
    if effect.trade:
        targets: list[int | None] = [s for s in range(game.players) if s != seat and game.active[s]]
    else:
        targets = [None]
    found: list[Action] = []
    for target in targets:
        uno = _left_after(game, seat, c, target) == 1
        found.extend(_play(seat, c, colour, target, uno) for colour in colours)
    return found


def _left_after(game: Game, seat: int, c: Card, target: int | None) -> int:
    if target is not None:
        return len(game.hands[target])
    left = len(game.hands[seat]) - 1
    if EFFECTS[c.face].discard_colour and c in game.hands[seat]:
        left -= len(discarded_with(game, seat, c))
    return left


_PLAIN_FACES = frozenset(
    face
    for face, effect in EFFECTS.items()
    if not (effect.wild or effect.trade or effect.discard_colour) and effect.may_be_last
)
"""Faces played one way only, with no rule beyond matching the top card."""

_SEATS = range(10)
_DRAWS = tuple(Draw(seat) for seat in _SEATS)
_PRESSES = tuple(Press(seat) for seat in _SEATS)
_PASSES = tuple(Pass(seat) for seat in _SEATS)

_PLAYS: dict[tuple[int, Card, Colour | None, int | None, bool], Play] = {}


def _play(seat: int, c: Card, colour: Colour | None, target: int | None, uno: bool) -> Play:
    """Plays are few and immutable: keep one object per distinct play."""
    key = (seat, c, colour, target, uno)
    found = _PLAYS.get(key)
    if found is None:
        found = _PLAYS[key] = Play(seat, c, colour, target, (), uno)
    return found


def _catches(game: Game, exposed: int) -> list[Action]:
    found: list[Action] = [CallUno(exposed)]
    found.extend(
        Catch(seat, exposed)
        for seat in range(game.players)
        if seat != exposed and game.active[seat]
    )
    return found
