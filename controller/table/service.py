"""The table service: one owner thread per table, where the game, the launcher, the event log
and the scoreboard meet.

Everything that changes the table goes through the owner thread's inbox: commands from tablets
(`submit`), presses of the physical button, the demo's bots. The owner thread applies each to
the `TableSession`, commits the record to the `Store`, and only then publishes it to the
scoreboards and answers. A refused command changes nothing and is not logged. Readers (HTTP
threads) see an immutable snapshot replaced after every change.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from controller.engine import IllegalAction, Press
from controller.engine.autoplay import remaining_for_press
from controller.launcher import ButtonEvent, Fault, Launcher, LauncherStatus, handle_press
from controller.launcher.policy import EjectPolicy, Policy, load_profile
from controller.store import Record, Store

from .codec import BadRequest, action_to_dict
from .hub import Hub, Message
from .session import TableSession, TableSetup

log = logging.getLogger(__name__)

UNDOABLE = frozenset({"action", "round"})
COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
TICK = 0.25  # seconds: how often an idle owner thread wakes (watchdog, demo pace)


@dataclass
class _Job:
    run: Callable[[], Any]
    done: Future[Any] = field(default_factory=Future)


@dataclass(frozen=True)
class LauncherView:
    status: str
    fault: str | None = None
    tension: float = 0.0
    last: dict[str, Any] | None = None


class TableService:
    """One table's owner thread. `start()` it, `submit()` commands, read `snapshot()`."""

    def __init__(
        self,
        store: Store,
        *,
        table_id: str = "main",
        launcher: Launcher | None = None,
        suspense: float = 0.0,
        deal_pause: float = 0.0,
        rng: random.Random | None = None,
        policy: Policy | None = None,
        eject_profile: str = "toy",
    ) -> None:
        self.store = store
        self.table_id = table_id
        self.launcher = launcher
        self.suspense = suspense
        self.deal_pause = deal_pause
        self.eject_profile = eject_profile  # for a set-up that does not choose one
        self.hub = Hub()
        self.session: TableSession | None = None
        self.on_tick: list[Callable[[], None]] = []
        self._rng = rng or random.Random()
        self._fixed_policy = policy
        self._policy: Policy | None = policy
        self._inbox: queue.Queue[_Job | None] = queue.Queue()
        self._snapshot: dict[str, Any] = {}
        self._seq = 0
        self._stopping = threading.Event()
        self._finger = threading.Lock()
        self._shown_colour: str | None = None
        self._launcher_view = LauncherView("none" if launcher is None else "ready")
        self._thread = threading.Thread(target=self._loop, name=f"table-{table_id}", daemon=True)
        self._rebuild()
        if launcher is not None:
            launcher.add_press_consumer(self._on_button)
            launcher.add_status_consumer(self._on_launcher_status)

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> TableService:
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        if self.launcher is not None:
            self.launcher.stop("service stopping")
        self._inbox.put(None)
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    # ------------------------------------------------------------------ public API

    def submit(
        self,
        command: dict[str, Any],
        *,
        actor: str = "tablet",
        idem_key: str | None = None,
        timeout: float = 60.0,
    ) -> Record:
        """Apply `command` on the owner thread; return the committed record. Raises BadRequest
        or IllegalAction (nothing changed) like the session does."""
        record: Record = self.call(lambda: self._execute(command, actor, idem_key), timeout=timeout)
        return record

    def run_now(self, command: dict[str, Any], *, actor: str) -> Record:
        """`submit` for code already running on the owner thread (the demo's bots)."""
        assert threading.current_thread() is self._thread, "only on the owner thread"
        return self._execute(command, actor, None)

    def call(self, function: Callable[[], Any], *, timeout: float = 60.0) -> Any:
        """Run `function` on the owner thread and return its result (or raise its error)."""
        job = _Job(function)
        self._inbox.put(job)
        return job.done.result(timeout)

    def post(self, function: Callable[[], Any]) -> None:
        """Run `function` on the owner thread later, without waiting."""
        self._inbox.put(_Job(function))

    def snapshot(self) -> dict[str, Any]:
        """The latest state of the table, JSON-ready (safe from any thread)."""
        return self._snapshot

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        """The current match's latest records (newest last), for a scoreboard just opened."""
        records = self._current_records()[-limit:]
        return [
            {"seq": r.seq, "kind": r.kind, "actor": r.actor, "at": r.at, "events": r.events}
            for r in records
        ]

    # ------------------------------------------------------------------ the owner thread

    def _loop(self) -> None:
        while True:
            try:
                job = self._inbox.get(timeout=TICK)
            except queue.Empty:
                job = _Job(lambda: None)
            if job is None:
                return
            self._run(job)
            for hook in list(self.on_tick):
                self._run(_Job(hook))

    @staticmethod
    def _run(job: _Job) -> None:
        try:
            job.done.set_result(job.run())
        except Exception as error:  # handed to the caller, who decides what it means
            if not isinstance(error, BadRequest | IllegalAction):
                log.exception("table job failed")
            job.done.set_exception(error)

    def _execute(self, command: dict[str, Any], actor: str, idem_key: str | None) -> Record:
        if idem_key is not None:
            done = self.store.find(self.table_id, idem_key)
            if done is not None:
                return done
        kind = command.get("type")
        if kind == "setup":
            return self._setup(command, actor, idem_key)
        if kind == "undo":
            return self._undo(actor, idem_key)
        if self.session is None:
            raise IllegalAction("set up the table first")
        events = self.session.apply(command)
        return self._publish(self._log(str(kind), command, events, actor, idem_key))

    def _setup(self, command: dict[str, Any], actor: str, idem_key: str | None) -> Record:
        data = command.get("setup")
        if isinstance(data, dict) and "profile" not in data:
            data = data | {"profile": self.eject_profile}
        setup = TableSetup.from_dict(data)
        session = TableSession(setup)
        command = {"type": "setup", "setup": setup.to_dict()}
        events = [{"type": "MatchStarted", "players": list(setup.players)}]
        record = self._log("setup", command, events, actor, idem_key)
        self.session, self._policy = session, self._fixed_policy
        return self._publish(record)

    def _undo(self, actor: str, idem_key: str | None) -> Record:
        target = self._undo_target()
        command = {"type": "undo", "seq": target.seq}
        events = [{"type": "Undone", "seq": target.seq, "undone": target.command}]
        record = self._log("undo", command, events, actor, idem_key)
        self._rebuild()
        return self._publish(record)

    def _undo_target(self) -> Record:
        undone = set()
        for record in reversed(self._current_records()):
            if record.kind == "undo":
                undone.add(record.command["seq"])
            elif record.seq not in undone:
                if record.kind not in UNDOABLE or _is_press(record):
                    raise IllegalAction(_cannot_undo(record))
                return record
        raise IllegalAction("there is nothing to undo")

    def _log(
        self,
        kind: str,
        command: dict[str, Any],
        events: list[dict[str, Any]],
        actor: str,
        idem_key: str | None,
    ) -> Record:
        """Commit the record. If that fails, the in-memory table is rebuilt from the log, so it
        never shows what was not recorded."""
        try:
            return self.store.append(
                self.table_id, kind, command, events, actor=actor, idem_key=idem_key
            )
        except Exception:
            self._rebuild()
            raise

    def _publish(self, record: Record) -> Record:
        self._seq = record.seq
        self._refresh()
        self._show_colour()
        data = {
            "seq": record.seq,
            "kind": record.kind,
            "actor": record.actor,
            "events": record.events,
            "state": self._snapshot,
        }
        self.hub.publish(Message("record", data, record.seq))
        return record

    def _show_colour(self) -> None:
        """The launcher's RGB LED shows the active colour (off between deals)."""
        deal = self._snapshot.get("deal") or {}
        colour = COLOUR_NAMES.get(deal.get("colour") or "")
        if self.launcher is not None and colour != self._shown_colour:
            self._shown_colour = colour
            self.launcher.show_colour(colour)

    def _refresh(self) -> None:
        state = {} if self.session is None else self.session.snapshot()
        state["seq"] = self._seq
        state["launcher"] = dict(self._launcher_view.__dict__)
        state["table_id"] = self.table_id
        self._snapshot = state

    # ------------------------------------------------------------------ rebuilding

    def _current_records(self) -> list[Record]:
        records = self.store.records(self.table_id)
        starts = [i for i, record in enumerate(records) if record.kind == "setup"]
        return records[starts[-1] :] if starts else []

    def _rebuild(self) -> None:
        """Replay the current match's records (undone ones left out) into a fresh session."""
        records = self._current_records()
        self._seq = records[-1].seq if records else 0
        undone = {r.command["seq"] for r in records if r.kind == "undo"}
        session = None
        for record in records:
            if record.kind == "setup":
                session = TableSession(TableSetup.from_dict(record.command["setup"]))
            elif record.kind != "undo" and record.seq not in undone and session is not None:
                session.apply(record.command)
        self.session = session
        self._refresh()

    # ------------------------------------------------------------------ the launcher

    def _on_button(self, event: ButtonEvent) -> None:
        """Launcher input thread: hand the press to the owner thread, nothing more."""
        if event.kind == "press":
            self.post(lambda: self._press(event))

    def _press(self, event: ButtonEvent) -> Record | None:
        session, launcher = self.session, self.launcher
        seat = None if session is None else session.press_seat()
        if session is None or launcher is None or seat is None:
            self._notice("press_ignored", "nobody needs to press the launcher now")
            return None
        game = session.game
        assert game is not None
        outcome = handle_press(
            launcher, self.policy(), event, remaining=remaining_for_press(game),
            suspense=self.suspense,
        )  # fmt: skip
        if outcome.refused:
            self._notice("press_refused", outcome.refused)
            return None
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
        return self._execute({"type": "action", "action": action, "launcher": info}, "button", None)

    def virtual_press(self) -> None:
        """Press the simulated launcher's button (demos): the press takes the real path."""
        if self.launcher is None:
            raise IllegalAction("this table has no launcher")
        simulator = getattr(self.launcher, "simulator", None)
        if simulator is None:
            raise IllegalAction("this launcher is real: press its button")
        with self._finger:  # one virtual finger: two tablets' presses do not merge into one
            simulator.press()

    def clear_fault(self) -> None:
        """A person cleared the jam or refilled the launcher."""
        if self.launcher is None:
            raise IllegalAction("this table has no launcher")
        self.launcher.clear_fault()

    def deal_by_launcher(self) -> None:
        """Deal every hand with the launcher, one player after another (on the owner thread)."""
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
        if result.ejected != size:
            fix = {"type": "Correct", "seat": seat, "count": max(result.ejected, 1)}
            self._execute({"type": "action", "action": fix}, "launcher", None)
        if result.reason != "count":
            self._notice("deal_stopped", f"dealing stopped ({result.reason}): {result.detail}")
            return
        self._announce_deal(order[1:])

    def _name(self, seat: int) -> str:
        assert self.session is not None
        return self.session.setup.players[self.session.seating()[seat]]

    def policy(self) -> Policy:
        if self._policy is None:
            profile = load_profile(self.session.setup.profile if self.session else "toy")
            self._policy = EjectPolicy(profile, self._rng)
        return self._policy

    def _on_launcher_status(self, status: LauncherStatus, fault: Fault | None) -> None:
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


def _cannot_undo(record: Record) -> str:
    if _is_press(record):
        return "a launcher press cannot be undone: correct the hand count instead"
    if record.kind == "setup":
        return "there is nothing to undo in this match yet"
    return f"the last step ({record.kind}) cannot be undone"
