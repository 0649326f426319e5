"""The table's launcher side: the part of `TableService` that runs the launcher.

Presses of the UNO button (attributed by the game, counted by the card sensor, the suspense
showing the tension being decided), dealing by launcher, runs a launcher board settles late,
filling the launcher after a deal and at a reload (RULES.md §8), the RGB LED's colour, and the
launcher's status as the scoreboards see it. `TableService` mixes it in: everything here runs
on its owner thread unless its docstring names another thread.

A tablet's press of the simulated button (`virtual_press`) is logged as that tablet's, with the
tap's key: a retry of the key, even after a restart, finds the press in the log instead of
pressing again. Clearing a fault is logged too (a `clear` record; the game does not change).
"""

from __future__ import annotations

import random
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from controller.engine import IllegalAction, Press
from controller.engine.autoplay import remaining_for_press
from controller.policy import PROFILES, EjectDecision, EjectPolicy, Policy
from controller.store import Record, Store

from .codec import InvalidInput, action_to_dict
from .hub import Hub, Message
from .session import TableSession

if TYPE_CHECKING:  # the launcher's types only: a table without one never loads the hardware layer
    from controller.launcher import ButtonEvent, Fault, Launcher, LauncherStatus

COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
TAP_LIFE = 60.0  # seconds a tablet's press may wait for its button event before it is forgotten


@dataclass(frozen=True)
class _Tap:
    """A tablet's press of the simulated button, waiting for the button event it makes."""

    actor: str
    key: str | None
    at: float = field(default_factory=time.monotonic)


@dataclass(frozen=True)
class LauncherView:
    status: str
    fault: str | None = None
    tension: float = 0.0
    last: dict[str, Any] | None = None


class LauncherSide:
    """The launcher's half of a table's owner thread (mixed into `TableService`)."""

    # what the table (`TableService`) holds and does, used here
    launcher: Launcher | None
    session: TableSession | None
    hub: Hub
    store: Store
    table_id: str
    _match_start: int
    _match: list[Record]
    suspense: float
    deal_pause: float
    _thread: threading.Thread
    _snapshot: dict[str, Any]

    if TYPE_CHECKING:

        def post(self, function: Callable[[], Any]) -> None: ...

        def call(self, function: Callable[[], Any], *, timeout: float | None = None) -> Any: ...

        def _execute(self, command: dict[str, Any], actor: str, idem_key: str | None) -> Record: ...

        def _refresh(self) -> None: ...

        def _done_before(self, command: dict[str, Any], key: str) -> Record | None: ...

        def _log(
            self,
            kind: str,
            command: dict[str, Any],
            events: list[dict[str, Any]],
            actor: str,
            idem_key: str | None,
        ) -> Record: ...

        def _publish(self, record: Record) -> Record: ...

    def _init_launcher_side(
        self, launcher: Launcher | None, policy: Policy | None, rng: random.Random | None
    ) -> None:
        """This side's state: before the table rebuilds (its snapshot shows the view)."""
        self._rng = rng or random.Random()
        self._fixed_policy = policy
        self._policy: Policy | None = policy
        self._finger = threading.Lock()
        self._shown_colour: str | None = None
        self._launcher_view = LauncherView("none" if launcher is None else "ready")
        self._status_lock = threading.Lock()
        self._status: tuple[LauncherStatus, Fault | None] | None = None  # not shown yet
        self._runs: dict[int, tuple[Any, int]] = {}  # id(result) -> (result, seat): see _settle
        self._taps: deque[_Tap] = deque(maxlen=16)  # tablets' presses, oldest first: see _press

    def _listen_to_launcher(self) -> None:
        """Hear the launcher's presses, status changes and late counts (once rebuilt)."""
        launcher = self.launcher
        if launcher is not None:
            launcher.add_press_consumer(self._on_button)
            launcher.add_status_consumer(self._on_launcher_status)
            settlements = getattr(launcher, "add_settlement_consumer", None)
            if settlements is not None:  # a launcher board: runs its link cut off settle late
                settlements(lambda settled: self.post(lambda: self._settle(settled)))

    def _show_colour(self) -> None:
        """The launcher's RGB LED shows the active colour (off between deals)."""
        deal = self._snapshot.get("deal") or {}
        colour = COLOUR_NAMES.get(deal.get("colour") or "")
        if self.launcher is not None and colour != self._shown_colour:
            self._shown_colour = colour
            self.launcher.show_colour(colour)

    def _on_button(self, event: ButtonEvent) -> None:
        """Launcher input thread: hand the press to the owner thread, nothing more."""
        if event.kind == "press":
            self.post(lambda: self._press(event))

    def _press(self, event: ButtonEvent) -> Record | None:
        actor, key = self._tap()
        session, launcher = self.session, self.launcher
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
        self._launcher_view = LauncherView(
            self._launcher_view.status, self._launcher_view.fault,
            decided.tension if decided else 0.0, {"seat": seat, "cards": outcome.ejected} | info,
        )  # fmt: skip
        command = {"type": "action", "action": action, "launcher": info}
        return self._execute(command, actor, self._free(command, key))

    def _tap(self) -> tuple[str, str | None]:
        """Who pressed: the oldest tablet's press still waiting for its button event, else the
        button itself (`button`)."""
        while self._taps:
            tap = self._taps.popleft()
            if time.monotonic() - tap.at <= TAP_LIFE:
                return tap.actor, tap.key
        return "button", None

    def _free(self, command: dict[str, Any], key: str | None) -> str | None:
        """The tap's key, unless this match used it meanwhile: the cards came out, so the press
        is logged whatever a key says (a key is never worth losing a press)."""
        if key is None:
            return None
        try:
            return key if self._done_before(command, key) is None else None
        except IllegalAction:
            return None

    def _decided(self, decision: EjectDecision) -> None:
        """The press's tension is shown from its decision on: its suspense carries it."""
        self._launcher_view = replace(self._launcher_view, tension=decision.tension)
        self._refresh()

    def virtual_press(self, *, actor: str = "tablet", key: str | None = None) -> Record | None:
        """Press the simulated launcher's button (demos): the press takes the real path, and is
        logged as `actor`'s with the tap's `key`. A key that already made a press in this match
        (a retry, also after a restart) presses nothing: its recorded press is returned. Any
        thread (the log is read, never written, here)."""
        if self.launcher is None:
            raise IllegalAction("this table has no launcher")
        simulator = getattr(self.launcher, "simulator", None)
        if simulator is None:
            raise IllegalAction("this launcher is real: press its button")
        if key is not None:
            done = self._pressed_before(key)
            if done is not None:
                return done
        fault = self.launcher.fault
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
        done = self.store.find(self.table_id, f"m{self._match_start}:{key}")
        setup = self._match[0] if self._match else None
        if done is None and setup is not None and (setup.idem_key or "").partition(":")[2] == key:
            done = setup  # this match's set-up
        if done is None or _is_press(done):
            return done
        raise IllegalAction(
            f"the key {key!r} was already used for another command ({done.kind}): "
            "send a new key with a new tap"
        )

    def clear_fault(self, *, actor: str = "tablet", key: str | None = None) -> Record:
        """A person cleared the jam or refilled the launcher: logged (`clear`, the fault it was
        in the event), the game unchanged (any thread). A retried key clears once."""
        record: Record = self.call(lambda: self._clear_fault(actor, key))
        return record

    def _clear_fault(self, actor: str, key: str | None) -> Record:
        if self.launcher is None:
            raise IllegalAction("this table has no launcher")
        command: dict[str, Any] = {"type": "clear"}
        if key is not None:
            done = self._done_before(command, key)
            if done is not None:
                return done
            key = f"m{self._match_start}:{key}"
        fault = self.launcher.fault
        cleared = None if fault is None else {"kind": fault.kind, "detail": fault.detail}
        record = self._log(
            "clear", command, [{"type": "FaultCleared", "fault": cleared}], actor, key
        )
        self.launcher.clear_fault()  # once logged: a clear that cannot be recorded clears nothing
        return self._publish(record)

    def deal_by_launcher(self) -> None:
        """Deal every hand with the launcher, one player after another (any thread)."""
        self.call(self._deal_by_launcher)

    def _deal_by_launcher(self) -> None:
        if self.launcher is None:
            raise IllegalAction("this table has no launcher: deal by hand")
        game = self.session.game if self.session else None
        if game is None or game.phase.value != "turn_up":
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
        timer = threading.Timer(self.deal_pause, self.post, args=(lambda: self._deal_one(order),))
        timer.daemon = True
        timer.start()

    def _deal_one(self, order: list[int]) -> None:
        session, launcher = self.session, self.launcher
        game = session.game if session else None
        if game is None or launcher is None or game.phase.value != "turn_up":
            return  # the table moved on (a new deal, a new match) while we waited
        seat = order[0]
        size = len(game.hands[seat])
        result = launcher.deal(size)
        self._remember_run(result, seat)
        if result.ejected != size:
            fix = {"type": "Correct", "seat": seat, "count": max(result.ejected, 1)}
            self._execute({"type": "action", "action": fix}, "launcher", None)
        if result.reason != "count":
            self._notice("deal_stopped", f"dealing stopped ({result.reason}): {result.detail}")
            return
        self._announce_deal(order[1:])

    # --- runs settled late: the launcher board's link was cut mid-run, and the run's result
    # was what had been heard; the board's own count comes later and corrects the hand, with
    # the audited count correction (Correct -> Corrected) a person would use.

    def _remember_run(self, result: Any, seat: int) -> None:
        if result is not None:
            self._runs[id(result)] = (result, seat)
            while len(self._runs) > 64:
                del self._runs[next(iter(self._runs))]

    def _settle(self, settled: Any) -> None:
        """Owner thread: correct the hand that got the run's cards by the difference."""
        result, seat = self._runs.pop(id(settled.result), (None, None))
        game = self.session.game if self.session else None
        if result is None or seat is None or settled.difference == 0 or game is None:
            return
        count = len(game.hands[seat]) + settled.difference
        fix = {"type": "Correct", "seat": seat, "count": count}
        note = {"settled": {"was": result.ejected, "now": settled.ejected, "why": settled.reason}}
        try:
            self._execute({"type": "action", "action": fix, "launcher": note}, "launcher", None)
        except (IllegalAction, InvalidInput) as error:  # the deal moved on: a person counts
            got = f"{self._name(seat)} got {settled.ejected} card(s), not {result.ejected}"
            self._notice("launcher_settled", f"{got}: correct the hand by hand ({error})")

    def _name(self, seat: int) -> str:
        assert self.session is not None
        return self.session.setup.players[self.session.seating()[seat]]

    def policy(self) -> Policy:
        if self._policy is None:
            # the set-up's own record of its profile: never the file, which may have changed
            profile = self.session.setup.profile if self.session else PROFILES["toy"]
            self._policy = EjectPolicy(profile, self._rng)
        return self._policy

    # --- the players fill the launcher: after a deal and when they reload it (RULES.md §8) ---
    def _launcher_loaded(self) -> None:
        session, launcher = self.session, self.launcher
        game = session.game if session else None
        if launcher is None or game is None or session is None or not session.rules.attack:
            return
        simulator = getattr(launcher, "simulator", None)
        if simulator is not None:  # the simulated hopper holds what the engine says it holds
            simulator.load(len(game.pile))
        fault = launcher.fault
        if fault is not None and fault.kind == "empty":
            launcher.clear_fault()

    def _check_empty(self) -> None:
        fault = None if self.launcher is None else self.launcher.fault
        if self.launcher is not None and (fault is None or fault.kind != "empty"):
            raise IllegalAction("the launcher is not empty: reload it when it says Empty")

    # --- end of filling ---

    def _on_launcher_status(self, status: LauncherStatus, fault: Fault | None) -> None:
        """Launcher threads hand the change to the owner thread, which shows it. Changes that
        come faster than it shows them are merged: the latest one wins."""
        with self._status_lock:
            posted, self._status = self._status is not None, (status, fault)
        if threading.current_thread() is self._thread:
            self._launcher_changed()
        elif not posted:
            self.post(self._launcher_changed)

    def _launcher_changed(self) -> None:
        with self._status_lock:
            latest, self._status = self._status, None
        if latest is None:
            return
        status, fault = latest
        view = self._launcher_view
        detail = None if fault is None else f"{fault.kind}: {fault.detail}"
        self._launcher_view = LauncherView(status.value, detail, view.tension, view.last)
        self._refresh()
        self.hub.publish(Message("launcher", dict(self._launcher_view.__dict__)))

    def _notice(self, code: str, text: str) -> None:
        self.hub.publish(Message("notice", {"code": code, "text": text, "at": time.time()}))


def _is_press(record: Record) -> bool:
    action = record.command.get("action")
    return isinstance(action, dict) and action.get("type") == "Press"
