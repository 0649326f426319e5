"""The table's launcher side: `TableLauncher`, the part of a table that runs its launcher.

Presses of the UNO button (attributed by the game, counted by the card sensor, the suspense
showing the tension being decided), dealing by launcher, runs settled late (a card heard after
its run returned, a run a launcher board's link cut off), filling the launcher after a deal and
at a reload (RULES.md §8), the RGB LED's colour, and the launcher's status as the scoreboards
see it.

`TableService` owns one `TableLauncher` and calls it on its owner thread. The launcher side
reaches its table only through `TableHost`, a few public methods of `TableService`; the
launcher's own threads (its input, its status changes, its late counts) only post a job on the
table's inbox, so everything that changes the game, the log or the launcher runs on the owner
thread.

A tablet's press of the simulated button (`virtual_press`) is logged as that tablet's, with the
tap's key: a retry of the key, even after a restart, finds the press in the log instead of
pressing again.
"""

from __future__ import annotations

import functools
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from controller.engine import Game, IllegalAction, Phase, Press, remaining_for_press
from controller.policy import PROFILES, EjectDecision, EjectPolicy, Policy
from controller.store import Record

from .codec import InvalidInput, action_to_dict
from .session import TableSession

if TYPE_CHECKING:  # the launcher's types only: a table without one never loads the hardware layer
    from controller.launcher import (
        ButtonEvent,
        EjectResult,
        Fault,
        Launcher,
        LauncherStatus,
        Settlement,
    )

COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
TAP_LIFE = 60.0  # seconds a tablet's press may wait for its button event before it is forgotten
KEPT_RUNS = 64  # runs remembered with the seat that got their cards, for a late settlement


@dataclass(frozen=True)
class _Tap:
    """A tablet's press of the simulated button, waiting for the button event it makes."""

    actor: str
    key: str | None
    at: float = field(default_factory=time.monotonic)


@dataclass(frozen=True, kw_only=True)
class LauncherView:
    """The launcher as the scoreboards see it: its status, its fault in words, the tension of the
    last press decided and what that press's run did."""

    status: str
    fault: str | None = None
    tension: float = 0.0
    last: dict[str, Any] | None = None


class TableHost(Protocol):
    """What the launcher side asks of the table that owns it (`TableService`'s public methods)."""

    @property
    def session(self) -> TableSession | None:
        """The match on the table, None before the first set-up (read on the owner thread)."""
        ...

    def post(self, function: Callable[[], Any]) -> None:
        """Run `function` on the owner thread later (any thread)."""
        ...

    def on_owner_thread(self) -> bool:
        """Whether the calling thread is the table's owner thread."""
        ...

    def run_now(
        self, command: dict[str, Any], *, actor: str, idem_key: str | None = None
    ) -> Record:
        """Apply `command`, log it and publish it (the owner thread)."""
        ...

    def logged_under(self, key: str) -> Record | None:
        """The record this match logged with a tap's `key`, or None (any thread)."""
        ...

    def notice(self, code: str, text: str, **details: Any) -> None:
        """Tell every open scoreboard something to show briefly (any thread)."""
        ...

    def launcher_changed(self, *, announce: bool) -> None:
        """The launcher's view changed: the state shows it, and with `announce` the scoreboards
        hear it at once (the owner thread)."""
        ...


class TableLauncher:
    """A table's launcher side (`launcher` None: a table without one). Its owner thread calls:

    * `listen()` once the table is rebuilt: from then on the launcher's presses, status changes
      and late counts become jobs on the table's inbox;
    * `view()` for the table's state, `show_colour(code)` after every published change,
      `new_match()` at a set-up (the next press takes the new set-up's eject policy), `policy()`;
    * `check_empty()` before a reload and `filled()` after a deal or a reload;
    * `deal_by_launcher()`.

    `virtual_press` runs on any thread. `suspense` and `deal_pause` (seconds) may be changed."""

    def __init__(
        self,
        table: TableHost,
        launcher: Launcher | None,
        *,
        policy: Policy | None = None,
        rng: random.Random | None = None,
        suspense: float = 0.0,
        deal_pause: float = 0.0,
    ) -> None:
        self.launcher = launcher
        self.suspense = suspense
        self.deal_pause = deal_pause
        self._table = table
        self._rng = rng or random.Random()
        self._fixed_policy = policy
        self._policy: Policy | None = policy
        self._finger = threading.Lock()
        self._shown_colour: str | None = None
        self._view = LauncherView(status="none" if launcher is None else "ready")
        self._status_lock = threading.Lock()
        self._status: tuple[LauncherStatus, Fault | None] | None = None  # not shown yet
        self._runs: dict[int, tuple[EjectResult, int]] = {}  # id(result) -> (result, seat)
        self._taps: deque[_Tap] = deque(maxlen=16)  # tablets' presses, oldest first: see _press

    def listen(self) -> None:
        """Hear the launcher's presses, status changes and late counts."""
        launcher = self.launcher
        if launcher is not None:
            launcher.add_press_consumer(self._on_button)
            launcher.add_status_consumer(self._on_launcher_status)
            launcher.add_settlement_consumer(
                lambda settled: self._table.post(lambda: self._settle(settled))
            )

    def view(self) -> dict[str, Any]:
        """The launcher as the scoreboards see it, JSON-ready."""
        return dict(self._view.__dict__)

    def show_colour(self, code: str | None) -> None:
        """The launcher's RGB LED shows the active colour (`code`: R, Y, G, B; None between
        deals: off)."""
        colour = COLOUR_NAMES.get(code or "")
        if self.launcher is not None and colour != self._shown_colour:
            self._shown_colour = colour
            self.launcher.show_colour(colour)

    def new_match(self) -> None:
        """A new set-up: the next press decides with the policy it was given, or one of the
        new set-up's eject profile."""
        self._policy = self._fixed_policy

    def policy(self) -> Policy:
        if self._policy is None:
            # the set-up's own record of its profile: never the file, which may have changed
            session = self._table.session
            profile = session.setup.profile if session else PROFILES["toy"]
            self._policy = EjectPolicy(profile, self._rng)
        return self._policy

    # --- presses ---

    def _on_button(self, event: ButtonEvent) -> None:
        """Launcher input thread: hand the press to the owner thread, nothing more."""
        if event.kind == "press":
            self._table.post(lambda: self._press(event))

    def _press(self, event: ButtonEvent) -> Record | None:
        actor, key = self._tap()
        session, launcher = self._table.session, self.launcher
        seat = None if session is None else session.press_seat()
        if session is None or launcher is None or seat is None:
            self._notice("press_ignored", "nobody needs to press the launcher now")
            return None
        game = session.game
        assert game is not None
        from controller.launcher import handle_press  # loaded already: the launcher came from it

        outcome = handle_press(
            launcher, self.policy(), event, remaining=remaining_for_press(game),
            suspense=self.suspense, on_decision=self._decided,
        )  # fmt: skip
        if outcome.refused:
            self._notice("press_refused", outcome.refused)
            return None
        self._remember_run(outcome.result, seat)
        action = action_to_dict(Press(seat, outcome.ejected))
        decided = outcome.decision
        info = {
            "wanted": decided.cards if decided else 0,
            "reason": decided.reason if decided else "",
            "stop": outcome.result.reason if outcome.result else "",
            "doubles": outcome.result.doubles if outcome.result else 0,  # shingled cards seen
        }
        self._view = LauncherView(
            status=self._view.status,
            fault=self._view.fault,
            tension=decided.tension if decided else 0.0,
            last={"seat": seat, "cards": outcome.ejected} | info,
        )
        command = {"type": "action", "action": action, "launcher": info}
        return self._table.run_now(command, actor=actor, idem_key=self._free(key))

    def _tap(self) -> tuple[str, str | None]:
        """Who pressed: the oldest tablet's press still waiting for its button event, else the
        button itself (`button`)."""
        while self._taps:
            tap = self._taps.popleft()
            if time.monotonic() - tap.at <= TAP_LIFE:
                return tap.actor, tap.key
        return "button", None

    def _free(self, key: str | None) -> str | None:
        """The tap's key, unless this match used it meanwhile: the cards came out, so the press
        is logged whatever a key says (a key is never worth losing a press)."""
        if key is None or self._table.logged_under(key) is not None:
            return None
        return key

    def _decided(self, decision: EjectDecision) -> None:
        """The press's tension is shown from its decision on: its suspense carries it."""
        self._view = replace(self._view, tension=decision.tension)
        self._table.launcher_changed(announce=False)

    def virtual_press(self, *, actor: str = "tablet", key: str | None = None) -> Record | None:
        """Press the simulated launcher's button (demos): the press takes the real path, and is
        logged as `actor`'s with the tap's `key`. A key that already made a press in this match
        (a retry, also after a restart) presses nothing: its recorded press is returned. Any
        thread (the log is read, never written, here)."""
        launcher = self.launcher
        if launcher is None:
            raise IllegalAction("this table has no launcher")
        simulator = launcher.simulator
        if simulator is None:
            raise IllegalAction("this launcher is real: press its button")
        if key is not None:
            done = self._pressed_before(key)
            if done is not None:
                return done
        fault = launcher.fault
        if fault is not None and fault.kind == "empty":  # the scoreboards offer no press now
            raise IllegalAction("the launcher is empty: reload it, tap Reloaded, then press")
        with self._finger:  # one virtual finger: two tablets' presses do not merge into one
            tap = _Tap(actor, key)
            self._taps.append(tap)
            try:
                simulator.press()
            except BaseException:
                self._taps.remove(tap)
                raise
        return None

    def _pressed_before(self, key: str) -> Record | None:
        """The press this match logged with `key`, or None; a key this match used for another
        command is refused (409), as for every command."""
        done = self._table.logged_under(key)
        if done is None or _is_press(done):
            return done
        raise IllegalAction(
            f"the key {key!r} was already used for another command ({done.kind}): "
            "send a new key with a new tap"
        )

    # --- dealing by launcher ---

    def deal_by_launcher(self) -> None:
        """Deal every hand with the launcher, one player after another."""
        if self.launcher is None:
            raise IllegalAction("this table has no launcher: deal by hand")
        session = self._table.session
        game = session.game if session else None
        if game is None or game.phase is not Phase.TURN_UP:
            raise IllegalAction("deal by launcher right after starting a deal")
        self._announce_deal([*game.seats_after(game.dealer), game.dealer])

    def _announce_deal(self, order: list[int]) -> None:
        """Say whose hand comes next, then deal it after a pause. Between hands the owner
        thread is free (taps, presses and the watchdog go on)."""
        if not order:
            self._notice("dealt", "every hand is dealt: turn up the first card")
            return
        name = self._name(order[0])
        self._notice("dealing", f"dealing to {name}: hold your hand under the launcher")
        deal_next = functools.partial(self._deal_one, order)
        timer = threading.Timer(self.deal_pause, self._table.post, args=(deal_next,))
        timer.daemon = True
        timer.start()

    def _deal_one(self, order: list[int]) -> None:
        session, launcher = self._table.session, self.launcher
        game = session.game if session else None
        if game is None or launcher is None or game.phase is not Phase.TURN_UP:
            return  # the table moved on (a new deal, a new match) while we waited
        seat = order[0]
        size = len(game.hands[seat])
        result = launcher.deal(size)
        self._remember_run(result, seat)
        if result.ejected != size:
            fix = {"type": "Correct", "seat": seat, "count": max(result.ejected, 1)}
            self._table.run_now({"type": "action", "action": fix}, actor="launcher")
        if result.reason != "count":
            self._notice("deal_stopped", f"dealing stopped ({result.reason}): {result.detail}")
            return
        self._announce_deal(order[1:])

    # --- runs settled late: a card the beam saw as the run ended was heard after it returned,
    # or a launcher board's link was cut mid-run and the run's result was what had been heard;
    # the settled count corrects the hand, with the audited count correction (Correct ->
    # Corrected) a person would use.

    def _remember_run(self, result: EjectResult | None, seat: int) -> None:
        if result is not None:
            self._runs[id(result)] = (result, seat)
            while len(self._runs) > KEPT_RUNS:
                del self._runs[next(iter(self._runs))]

    def _settle(self, settled: Settlement) -> None:
        """Owner thread: correct the hand that got the run's cards by the difference."""
        result, seat = self._runs.pop(id(settled.result), (None, None))
        session = self._table.session
        game = session.game if session else None
        if result is None or seat is None or settled.difference == 0 or game is None:
            return
        count = len(game.hands[seat]) + settled.difference
        fix = {"type": "Correct", "seat": seat, "count": count}
        note = {"settled": {"was": result.ejected, "now": settled.ejected, "why": settled.reason}}
        try:
            self._table.run_now(
                {"type": "action", "action": fix, "launcher": note}, actor="launcher"
            )
        except (IllegalAction, InvalidInput) as error:  # the deal moved on: a person counts
            got = f"{self._name(seat)} got {settled.ejected} card(s), not {result.ejected}"
            self._notice("launcher_settled", f"{got}: correct the hand by hand ({error})")

    def _name(self, seat: int) -> str:
        session = self._table.session
        assert session is not None
        return session.setup.players[session.seating()[seat]]

    # --- the players fill the launcher: after a deal and when they reload it (RULES.md §8) ---

    def filled(self) -> None:
        """A deal or a reload filled the launcher: the simulated hopper holds what the engine
        says it holds, and an empty launcher may eject again."""
        session, launcher = self._table.session, self.launcher
        game = session.game if session else None
        if launcher is None or game is None or session is None or not session.rules.attack:
            return
        if launcher.simulator is not None:
            launcher.simulator.load(_in_launcher(game))
        fault = launcher.fault
        if fault is not None and fault.kind == "empty":
            launcher.clear_fault()

    def check_empty(self) -> None:
        """A reload is refused while the launcher does not say it is empty."""
        fault = None if self.launcher is None else self.launcher.fault
        if self.launcher is not None and (fault is None or fault.kind != "empty"):
            raise IllegalAction("the launcher is not empty: reload it when it says Empty")

    # --- the launcher's status ---

    def _on_launcher_status(self, status: LauncherStatus, fault: Fault | None) -> None:
        """Launcher threads hand the change to the owner thread, which shows it. Changes that
        come faster than it shows them are merged: the latest one wins."""
        with self._status_lock:
            posted, self._status = self._status is not None, (status, fault)
        if self._table.on_owner_thread():
            self._launcher_changed()
        elif not posted:
            self._table.post(self._launcher_changed)

    def _launcher_changed(self) -> None:
        with self._status_lock:
            latest, self._status = self._status, None
        if latest is None:
            return
        status, fault = latest
        view = self._view
        detail = None if fault is None else f"{fault.kind}: {fault.detail}"
        self._view = LauncherView(
            status=status.value, fault=detail, tension=view.tension, last=view.last
        )
        self._table.launcher_changed(announce=True)

    def _notice(self, code: str, text: str) -> None:
        self._table.notice(code, text, at=time.time())


def _in_launcher(game: Game) -> int:
    """The cards the players load into the launcher: the engine's pile, but for the deck's top
    card while it is still to be turned up (RULES.md §2: it starts the discard pile, on the
    launcher's lid, and the engine takes it off the pile only at the turn-up). Loading that card
    too would let the launcher give one card more than the engine's pile holds."""
    waiting = 1 if game.phase is Phase.TURN_UP and game.pile else 0
    return len(game.pile) - waiting


def _is_press(record: Record) -> bool:
    action = record.command.get("action")
    return isinstance(action, dict) and action.get("type") == "Press"
