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
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from controller.engine import EngineError, IllegalAction, Press
from controller.engine.autoplay import remaining_for_press
from controller.launcher import ButtonEvent, Fault, Launcher, LauncherStatus, handle_press
from controller.launcher.policy import PROFILES, EjectDecision, EjectPolicy, Policy, load_profile
from controller.store import Record, Store, StoreError

from .codec import InvalidInput, action_to_dict, record_to_dict
from .hub import Hub, Message, Subscription
from .session import TableSession, TableSetup, current_keys

log = logging.getLogger(__name__)

UNDOABLE = frozenset({"action", "round"})
COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
TICK = 0.25  # seconds: how often an idle owner thread wakes (watchdog, demo pace)
COMMAND_TIMEOUT = 15.0  # seconds a tablet's command may wait for the owner thread


class TableBusy(TimeoutError):
    """The owner thread did not answer in time (HTTP 503). The message says whether the
    command was dropped unrun or is still running (its outcome then found by its key)."""

    def __init__(self, message: str, *, running: bool) -> None:
        super().__init__(message)
        self.running = running


@dataclass
class _Job:
    run: Callable[[], Any]
    done: Future[Any] = field(default_factory=Future)


@dataclass(frozen=True)
class Capabilities:
    """What this table has: a launcher, a simulated one (a tablet may press its button), and
    the eject profiles a set-up may choose."""

    has_launcher: bool
    simulated_launcher: bool
    eject_profiles: tuple[str, ...]


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
        self.tick_interval = TICK  # a faster demo wakes the owner thread more often
        self._rng = rng or random.Random()
        self._fixed_policy = policy
        self._policy: Policy | None = policy
        self._inbox: queue.Queue[_Job | None] = queue.Queue()
        self._snapshot: dict[str, Any] = {}
        self._seq = 0
        self._match_start = 0  # seq of the current match's set-up
        self._match: list[Record] = []  # the current match's records, undone ones included
        self._stopping = threading.Event()
        self._finger = threading.Lock()
        self._shown_colour: str | None = None
        self._launcher_view = LauncherView("none" if launcher is None else "ready")
        self._status_lock = threading.Lock()
        self._status: tuple[LauncherStatus, Fault | None] | None = None  # not shown yet
        self._thread = threading.Thread(target=self._loop, name=f"table-{table_id}", daemon=True)
        self._rebuild()
        self._runs: dict[int, tuple[Any, int]] = {}  # id(result) -> (result, seat): see _settle
        if launcher is not None:
            launcher.add_press_consumer(self._on_button)
            launcher.add_status_consumer(self._on_launcher_status)
            settlements = getattr(launcher, "add_settlement_consumer", None)
            if settlements is not None:  # a launcher board: runs its link cut off settle late
                settlements(lambda settled: self.post(lambda: self._settle(settled)))

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
        timeout: float | None = None,
    ) -> Record:
        """Apply `command` on the owner thread; return the committed record. Raises InvalidInput
        or IllegalAction (nothing changed) like the session does, TableBusy after `timeout`."""
        try:
            record: Record = self.call(
                lambda: self._execute(command, actor, idem_key), timeout=timeout
            )
        except TableBusy as busy:
            if not busy.running:
                raise
            later = "send it again with the same key to learn its outcome" if idem_key else (
                "its outcome will show on the scoreboard"
            )  # fmt: skip
            raise TableBusy(f"{busy}: {later}", running=True) from None
        return record

    def run_now(self, command: dict[str, Any], *, actor: str) -> Record:
        """`submit` for code already running on the owner thread (the demo's bots)."""
        assert threading.current_thread() is self._thread, "only on the owner thread"
        return self._execute(command, actor, None)

    def call(self, function: Callable[[], Any], *, timeout: float | None = None) -> Any:
        """Run `function` on the owner thread and return its result (or raise its error).

        After `timeout` seconds a job that has not started is cancelled, so it never runs
        later; one already running finishes, and the TableBusy message says so."""
        timeout = COMMAND_TIMEOUT if timeout is None else timeout
        job = _Job(function)
        self._inbox.put(job)
        try:
            return job.done.result(timeout)
        except FutureTimeout:
            if job.done.cancel():
                raise TableBusy(
                    f"the table was busy for {timeout:g} s: the command was not applied, "
                    "send it again",
                    running=False,
                ) from None
            raise TableBusy(
                f"the table is still working on the command after {timeout:g} s", running=True
            ) from None

    def post(self, function: Callable[[], Any]) -> None:
        """Run `function` on the owner thread later, without waiting."""
        self._inbox.put(_Job(function))

    def snapshot(self) -> dict[str, Any]:
        """The latest state of the table, JSON-ready (safe from any thread)."""
        return self._snapshot

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        """The current match's latest records (newest last), for a scoreboard just opened.
        Reads only those records (any thread)."""
        return [record_to_dict(record) for record in self.records_after(0, limit)]

    def records_after(self, seq: int, limit: int) -> list[Record]:
        """The current match's records after `seq`: the newest `limit` of them, oldest first
        (a reconnecting scoreboard's missed records). Reads only those (any thread)."""
        start = self._match_start
        if not start:
            return []
        return self.store.latest(self.table_id, limit, since=max(start, seq + 1))[::-1]

    def all_records(self) -> list[Record]:
        """Every record this table logged, every match's, oldest first (any thread)."""
        return self.store.records(self.table_id)

    # --- what the table has, for the pages to show (any thread) ---

    def capabilities(self) -> Capabilities:
        simulated = getattr(self.launcher, "simulator", None) is not None
        return Capabilities(self.launcher is not None, simulated, tuple(PROFILES))

    # --- the scoreboards' messages (any thread): a queue each, or a quick callback ---

    def subscribe(self) -> Subscription:
        return self.hub.subscribe()

    def unsubscribe(self, subscription: Subscription) -> None:
        self.hub.unsubscribe(subscription)

    def listen(self, listener: Callable[[Message], None]) -> None:
        """Call `listener(message)` on the publishing thread for every message: be quick."""
        self.hub.listen(listener)

    def unlisten(self, listener: Callable[[Message], None]) -> None:
        self.hub.unlisten(listener)

    # --- the table's settings, kept in its log's file (any thread) ---

    def setting(self, key: str) -> str | None:
        return self.store.setting(key)

    def set_setting(self, key: str, value: str) -> None:
        self.store.set_setting(key, value)

    @property
    def log_path(self) -> Path:
        """The event log's file (it holds the settings too: keep it private)."""
        return self.store.path

    # ------------------------------------------------------------------ the owner thread

    def _loop(self) -> None:
        while True:
            try:
                job = self._inbox.get(timeout=self.tick_interval)
            except queue.Empty:
                job = _Job(lambda: None)
            if job is None:
                return
            self._run(job)
            for hook in list(self.on_tick):
                self._run(_Job(hook))

    @staticmethod
    def _run(job: _Job) -> None:
        if not job.done.set_running_or_notify_cancel():
            return  # its caller gave up waiting: it must not run behind their back
        try:
            job.done.set_result(job.run())
        except Exception as error:  # handed to the caller, who decides what it means
            if not isinstance(error, InvalidInput | IllegalAction | StoreError):
                log.exception("table job failed")
            job.done.set_exception(error)

    def _execute(self, command: dict[str, Any], actor: str, idem_key: str | None) -> Record:
        if idem_key is not None:
            done = self._done_before(command, idem_key)
            if done is not None:
                return done
            idem_key = f"m{self._match_start}:{idem_key}"
        kind = command.get("type")
        if kind == "setup":
            return self._setup(command, actor, idem_key)
        if kind == "undo":
            return self._undo(actor, idem_key)
        if self.session is None:
            raise IllegalAction("set up the table first")
        if kind == "reload":
            self._check_empty()
        events = self.session.apply(command)
        record = self._publish(self._log(str(kind), command, events, actor, idem_key))
        if kind in ("deal", "reload"):
            self._launcher_loaded()
        return record

    # ---- idempotency keys: a key means one tap, within one match (keys of older matches
    # ---- are free again); it is stored as `m<seq of the match's setup>:<key>`.

    def _done_before(self, command: dict[str, Any], key: str) -> Record | None:
        """The record this tap's key already made in this match (a retry), or None. A key
        reused for a different command is refused: it would silently drop that command."""
        done = self.store.find(self.table_id, f"m{self._match_start}:{key}")
        setup_key = (self._match[0].idem_key if self._match else None) or ""
        if done is None and setup_key.partition(":")[2] == key:
            done = self.store.find(self.table_id, setup_key)  # this match's setup
        if done is not None and not self._same_command(done, command):
            raise IllegalAction(
                f"the key {key!r} was already used for another command ({done.kind}): "
                "send a new key with a new tap"
            )
        return done

    def _same_command(self, record: Record, command: dict[str, Any]) -> bool:
        kind = command.get("type")
        if record.kind != kind or kind == "undo":
            return record.kind == kind
        if kind == "setup":  # a set-up logged before a key's rename is the same command
            logged = current_keys(record.command["setup"])
            return bool(logged == self._table_setup(command).to_dict())
        return record.command == command

    def _table_setup(self, command: dict[str, Any]) -> TableSetup:
        data = command.get("setup")
        if isinstance(data, dict):
            data = current_keys(data)
            data.setdefault("eject_profile", self.eject_profile)
        return TableSetup.from_dict(data)

    # ---- end of idempotency keys

    def _setup(self, command: dict[str, Any], actor: str, idem_key: str | None) -> Record:
        setup = self._table_setup(command)
        session = TableSession(setup)
        command = {"type": "setup", "setup": setup.to_dict()}
        events = [{"type": "MatchStarted", "players": list(setup.players)}]
        record = self._log("setup", command, events, actor, idem_key)
        self.session, self._policy = session, self._fixed_policy
        self._match_start, self._match = record.seq, [record]
        return self._publish(record)

    def _undo(self, actor: str, idem_key: str | None) -> Record:
        target = self._undo_target()
        command = {"type": "undo", "seq": target.seq}
        events = [{"type": "Undone", "seq": target.seq, "undone": target.command}]
        record = self._log("undo", command, events, actor, idem_key)
        self._replay()
        return self._publish(record)

    def _undo_target(self) -> Record:
        """The latest step not undone yet (from memory: no reading of the log)."""
        undone = set()
        for record in reversed(self._match):
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
            record = self.store.append(
                self.table_id, kind, command, events, actor=actor, idem_key=idem_key
            )
        except Exception:
            self._replay()
            raise
        self._match.append(record)
        return record

    def _publish(self, record: Record) -> Record:
        self._seq = record.seq
        self._refresh()
        self._show_colour()
        data = record_to_dict(record) | {"state": self._snapshot}
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

    def _rebuild(self) -> None:
        """Read the current match's records (only those) from the log and replay them."""
        start = self.store.match_start(self.table_id)
        self._match_start = start
        records = self.store.records(self.table_id, after=start - 1) if start else []
        self._match = records
        self._seq = records[-1].seq if records else 0
        self.session = self._session(records[0] if records else None)
        self._replay()

    def _session(self, setup: Record | None) -> TableSession | None:
        if setup is None:
            return None
        try:
            return TableSession(TableSetup.from_dict(setup.command.get("setup")))
        except (InvalidInput, IllegalAction) as error:
            self.store.set_aside(setup.seq, f"its set-up is refused: {error}")
            return None

    def _replay(self) -> None:
        """Rebuild the session from the current match's records in memory, undone ones left
        out. A record the rules now refuse is set aside (with a warning), never a stop."""
        if self.session is not None:
            self.session = TableSession(self.session.setup)
        undone = {r.command.get("seq") for r in self._match if r.kind == "undo"}
        for record in list(self._match):
            if record.kind in ("setup", "undo") or record.seq in undone or self.session is None:
                continue
            try:
                self.session.apply(record.command)
            except (InvalidInput, IllegalAction, EngineError) as error:
                self.store.set_aside(record.seq, f"the rules refuse it on replay: {error}")
                self._match.remove(record)
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
        return self._execute({"type": "action", "action": action, "launcher": info}, "button", None)

    def _decided(self, decision: EjectDecision) -> None:
        """The press's tension is shown from its decision on: its suspense carries it."""
        self._launcher_view = replace(self._launcher_view, tension=decision.tension)
        self._refresh()

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
        """A person cleared the jam or refilled the launcher (any thread)."""
        self.call(self._clear_fault)

    def _clear_fault(self) -> None:
        if self.launcher is None:
            raise IllegalAction("this table has no launcher")
        self.launcher.clear_fault()

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
            profile = load_profile(self.session.setup.eject_profile if self.session else "toy")
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


def _cannot_undo(record: Record) -> str:
    if _is_press(record):
        return "a launcher press cannot be undone: correct the hand count instead"
    if record.kind == "setup":
        return "there is nothing to undo in this match yet"
    return f"the last step ({record.kind}) cannot be undone"
