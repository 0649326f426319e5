"""One deal of UNO Attack or classic UNO: its state and the verbs to drive it.

The verbs, as in python-chess: `legal_actions()`, `is_legal(action)`, `push(action) -> events`,
`copy()`; and `apply(game, action) -> (new_game, events)` for callers that want values. Every
refused action raises an `IllegalAction` subclass and leaves the game untouched. The engine is
pure: no I/O, no clock; randomness (shuffling) comes from the injected `random.Random`.

The layers run one way: `state.DealState` (the state and its primitive operations) at the
bottom; the rule handlers above it (`playability` says what may be played, `play`,
`resolve`, `drawing`, `claims`, `start`, `scoring` apply actions, `legal_actions` lists
them); `Game` and its verbs on top.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from . import claims, drawing, legal_actions, play, scoring, start
from .actions import (
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
from .errors import IllegalAction
from .events import Event
from .state import DealState, Phase, duty_text

A = TypeVar("A", bound=Action)
Handler = Callable[[DealState, A, list[Event]], None]


class Game(DealState):
    """One deal. Create it with `controller.engine.deal()` (or a test position)."""

    steps: int = 0  # actions applied so far
    listed: tuple[Action, ...] = ()  # the last actions listed...
    listed_at: int = -1  # ...and at which step: a listed play is applied without checks

    # ----------------------------------------------------------------- the verbs

    def legal_actions(self) -> list[Action]:
        """Every action accepted now, by any player, including the forced ones (owed presses)
        and the out-of-turn ones (jump-ins, catching a missed UNO, a true UNO call). The list
        and `push` decide with the same predicates (`legal_actions.py`), so whatever is listed
        is accepted and whatever is accepted is listed, save what only costs its maker: a
        wrong play or jump-in under the penalty rules, a false UNO call or catch, owning up to
        a suggestion; and a table's hand-count `Correct`, a referee's fix outside play.

        Some choices are not spelled out: a play is listed with the UNO call it needs (without
        it is accepted too, and catchable) and, for a Discard All, with no `also` (the cards of
        its colour go along); at a table, where hands are unseen, a group of cards is built on
        a listed play of one of its cards. An owed or chosen `Press` is listed with `cards=0`;
        replace it with the launcher's real count. In table mode `EnterHand` is listed empty:
        fill in the cards or points shown, and a challenge lists both verdicts."""
        return self._listing(legal_actions.all_actions(self))

    def _listing(self, found: list[Action]) -> list[Action]:
        self.listed, self.listed_at = tuple(found), self.steps
        return found

    def moves(self) -> list[Action]:
        """The legal actions of the player the game waits for (`to_move()`), without the
        out-of-turn claims: what a bot chooses from."""
        if self.phase is not Phase.PLAYING:
            return self._listing(legal_actions.all_actions(self))
        if self.duties:
            return self._listing(legal_actions.duty_actions(self))
        return self._listing(legal_actions.turn_actions(self))

    def may_press(self, seat: int) -> bool:
        """`seat` may press the launcher now (a press it owes, or its turn's): the check
        `push(Press(seat))` makes, without listing every other action (a tablet's press waits
        on it, on its way to the motor)."""
        return drawing.may_press(self, seat)

    def is_legal(self, action: Action) -> bool:
        try:
            self.copy().push(action)
        except IllegalAction:
            return False
        return True

    def push(self, action: Action) -> list[Event]:
        """Check and apply `action`; return what happened. Raises IllegalAction (and changes
        nothing) when the rules do not allow it."""
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"{action!r} is not an action")
        events: list[Event] = []
        self.trusted = (
            type(action) is Play and self.listed_at == self.steps and _among(action, self.listed)
        )
        try:
            handler(self, action, events)
        finally:
            self.trusted = False
        self.steps += 1
        ending = self.winner is not None or self.elimination
        if ending and self.phase is Phase.PLAYING and self.deal_done():
            scoring.end_deal(self, events)
        elif self.empty_turns >= self.active_count and self.round_of_empty_turns():
            scoring.end_blocked(self, events)  # §8: nothing to draw and nobody played
        return events

    def copy(self) -> Game:
        """An independent copy (its own random generator state included)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.hands = [hand[:] for hand in self.hands]
        other.pile = self.pile[:]
        other.unaccounted = self.unaccounted[:]
        other.discard = self.discard[:]
        other.duties = [duty.copy() for duty in self.duties]
        other.active = self.active[:]
        other.finished = self.finished[:]
        other.shown = dict(self.shown)
        return other


def _among(action: Action, listed: tuple[Action, ...]) -> bool:
    """`action` is one of the very objects listed (listed plays are kept one per play)."""
    return id(action) in map(id, listed)


def apply(game: Game, action: Action) -> tuple[Game, list[Event]]:
    """The functional form of `push`: a new game and the events; `game` is unchanged."""
    new = game.copy()
    events = new.push(action)
    return new, events


def _handles(kind: type[A], handler: Handler[A]) -> tuple[type, Callable[..., None]]:
    """One entry of the table, checked: the handler takes the very action type it is listed
    for (`push` finds it by `type(action)`, so it only ever gets that type)."""
    return kind, handler


_HANDLERS: dict[type, Callable[..., None]] = dict(  # every action type, its handler
    [
        _handles(Play, play.push_play),
        _handles(Draw, drawing.push_draw),
        _handles(Pass, drawing.push_pass),
        _handles(Press, drawing.push_press),
        _handles(Accept, drawing.push_accept),
        _handles(Challenge, drawing.push_challenge),
        _handles(ChooseColour, start.push_choose_colour),
        _handles(CallUno, claims.push_call_uno),
        _handles(Catch, claims.push_catch),
        _handles(Suggest, claims.push_suggest),
        _handles(TurnUp, start.push_turn_up),
        _handles(EnterHand, scoring.push_enter_hand),
        _handles(Correct, claims.push_correct),
    ]
)

__all__ = ["Game", "apply", "duty_text"]
