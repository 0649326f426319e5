"""The table service: one owner thread per table, where the game, the launcher, the event log
and the scoreboard meet.

Everything that changes the table goes through the owner thread's inbox: commands from tablets
(`submit`), presses of the physical button, the demo's bots. The owner thread applies each to
the `TableSession`, commits the record to the `Store`, and only then publishes it to the
scoreboards and answers. A refused command changes nothing and is not logged. Readers (HTTP
threads) see an immutable snapshot replaced after every change.

The table's launcher side (presses, dealing by launcher, filling, the launcher's status) is a
`TableLauncher` (`launcher_side.py`) the service owns: the owner thread calls it, and it asks
the service only through the public methods `TableHost` names. Clearing a launcher's fault is
logged here, as a `clear` record (the game does not change).
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.engine import EngineError, IllegalAction
from controller.policy import PROFILES, Policy, ProfileError
from controller.policy.custom_profiles import ProfileShelf, profile_params
from controller.store import LOSSES, Record, SetAside, Store, StoreError

from .codec import InvalidInput, record_to_dict
from .hub import Hub, Message, Subscription
from .launcher_side import TableLauncher
from .session import (
    Checkpoint,
    TableSession,
    TableSetup,
    current_keys,
    recorded_setups,
    reproduced,
)
from .summaries import MatchHistory, MatchSummary, Published

if TYPE_CHECKING:  # the launcher is composed in by the caller; only its type is named here
    from controller.launcher import Launcher

log = logging.getLogger(__name__)

UNDOABLE = frozenset({"action", "round"})
UNSEEN_BY_UNDO = frozenset({"clear"})  # logged, but no step of the game: undo looks past it
UNDO_DEPTH = 64  # undoable steps kept as checkpoints; an undo deeper than that replays the match
TICK = 0.25  # seconds: how often an idle owner thread wakes (watchdog, demo pace)
COMMAND_TIMEOUT = 15.0  # seconds a tablet's command may wait for the owner thread
MAIN = "main"  # the id of a service's only table


class Unreplayable(Exception):
    """The current match cannot be rebuilt from the log (its set-up is refused, or replaying or
    showing it fails): it is set aside whole, so the table still starts."""


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
    the eject profiles a set-up may choose (the built-ins, then the custom ones, which come
    with their one-line descriptions; custom files refused, with the reason, are only told)."""

    has_launcher: bool
    simulated_launcher: bool
    eject_profiles: tuple[str, ...]
    custom_eject_profiles: tuple[tuple[str, str], ...] = ()  # (name, description)
    refused_eject_profiles: tuple[tuple[str, str], ...] = ()  # (name, why)


class TableService:
    """One table's owner thread. `start()` it, `submit()` commands, read `snapshot()`.
    Its launcher side (presses, dealing, the launcher's status) is `launcher_side`."""

    def __init__(
        self,
        store: Store,
        *,
        table_id: str = MAIN,
        launcher: Launcher | None = None,
        suspense: float = 0.0,
        deal_pause: float = 0.0,
        rng: random.Random | None = None,
        policy: Policy | None = None,
        eject_profile: str = "toy",
        eject_profiles: ProfileShelf | None = None,
    ) -> None:
        self.store = store
        self.table_id = table_id
        self.launcher = launcher
        self.eject_profile = eject_profile  # for a set-up that does not choose one
        # the profiles a set-up may choose by name: by default the custom ones beside the log
        self.eject_profiles = eject_profiles or ProfileShelf.for_data_dir(store.path.parent)
        self.hub = Hub()
        self.session: TableSession | None = None
        self.on_tick: list[Callable[[], None]] = []
        self.tick_interval = TICK  # a faster demo wakes the owner thread more often
        self._inbox: queue.Queue[_Job | None] = queue.Queue()
        self._snapshot: dict[str, Any] = {}
        self._seq = 0
        self._match_start = 0  # seq of the current match's set-up
        self._match: list[Record] = []  # the current match's records, undone ones included
        self._before: list[tuple[int, Checkpoint]] = []  # (seq, the session before it) of the
        # steps an undo can reach, oldest first: an undo rewinds instead of replaying
        self._history = MatchHistory(store, table_id)
        self._set_aside: tuple[SetAside, ...] = ()  # what was set aside since the set-up
        self._tournament: dict[str, Any] | None = None  # the tournament's view, for this table
        self._stopping = threading.Event()
        self.launcher_side = TableLauncher(
            self, launcher, policy=policy, rng=rng, suspense=suspense, deal_pause=deal_pause
        )
        self._thread = threading.Thread(target=self._loop, name=f"table-{table_id}", daemon=True)
        self._rebuild()
        self.launcher_side.listen()

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

    def run_now(
        self, command: dict[str, Any], *, actor: str, idem_key: str | None = None
    ) -> Record:
        """`submit` for code already running on the owner thread (the demo's bots, the
        launcher side)."""
        assert self.on_owner_thread(), "only on the owner thread"
        return self._execute(command, actor, idem_key)

    def on_owner_thread(self) -> bool:
        """Whether the calling thread is this table's owner thread."""
        return threading.current_thread() is self._thread

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

    def history_mark(self) -> Published:
        """A new object whenever the matches' summaries change (any thread): a cache key."""
        return self._history.published

    def match_summaries(self, mark: Published | None = None) -> list[MatchSummary]:
        """Every match of this table, oldest first, as of `mark` (now if None): a few summary
        rows read on a read-only connection (never the lock commands need), the current
        match's from memory (any thread)."""
        return self._history.summaries(mark)

    # --- what the table has, for the pages to show (any thread) ---

    def capabilities(self) -> Capabilities:
        simulated = self.launcher is not None and self.launcher.simulator is not None
        entries = self.eject_profiles.entries()
        usable = [e for e in entries if e.profile is not None]
        return Capabilities(
            self.launcher is not None,
            simulated,
            tuple(e.name for e in usable),
            tuple((e.name, e.description) for e in usable if e.custom),
            tuple((e.name, e.error or "") for e in entries if e.profile is None),
        )

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

    def notice(self, code: str, text: str, **details: Any) -> None:
        """Tell every open scoreboard something to show briefly: `event: notice`."""
        self.hub.publish(Message("notice", {"code": code, "text": text, **details}))

    def show_tournament(self, view: dict[str, Any] | None) -> None:
        """The tournament this table plays in, as its scoreboards show it (None: none); the
        state's `tournament` from now on, and every open scoreboard hears it at once
        (`event: tournament`). Any thread: it is done on the owner thread, without waiting."""

        def show() -> None:
            self._tournament = view
            self._snapshot = self._snapshot | {"tournament": view}
            self.hub.publish(Message("tournament", {"tournament": view}))

        self.post(show)

    # --- the table's settings, kept in its log's file (any thread) ---

    def setting(self, key: str) -> str | None:
        return self.store.setting(self._setting_key(key))

    def set_setting(self, key: str, value: str) -> None:
        self.store.set_setting(self._setting_key(key), value)

    def _setting_key(self, key: str) -> str:
        """Where the log's file keeps this table's `key`: the first table of a log, "main",
        under the key itself (as a service of one table always has), another table under
        "<id>:<key>"; what the log says of itself (records found missing) is every table's."""
        if self.table_id == MAIN or key == LOSSES:
            return key
        return f"{self.table_id}:{key}"

    @property
    def log_path(self) -> Path:
        """The event log's file (it holds the settings too: keep it private)."""
        return self.store.path

    # --- the launcher (any thread) ---

    def virtual_press(self, *, actor: str = "tablet", key: str | None = None) -> Record | None:
        """Press the simulated launcher's button: `TableLauncher.virtual_press`."""
        return self.launcher_side.virtual_press(actor=actor, key=key)

    def deal_by_launcher(self) -> None:
        """Deal every hand with the launcher, one player after another."""
        self.call(self.launcher_side.deal_by_launcher)

    def clear_fault(self, *, actor: str = "tablet", key: str | None = None) -> Record:
        """A person cleared the jam or refilled the launcher: logged (`clear`, the fault it was
        in the event), the game unchanged. A retried key clears once."""
        record: Record = self.call(lambda: self._clear_fault(actor, key))
        return record

    # --- what the launcher side asks of its table (`launcher_side.TableHost`) ---

    def logged_under(self, key: str) -> Record | None:
        """The record this match logged with a tap's `key` (its set-up's included), or None.
        Reads only that record (any thread)."""
        done = self.store.find(self.table_id, f"m{self._match_start}:{key}")
        setup = self._match[0] if self._match else None
        setup_key = (setup.idem_key if setup else None) or ""
        if done is None and setup_key and setup_key.partition(":")[2] == key:
            done = setup  # keyed as a step of the match before it
        return done

    def launcher_changed(self, *, announce: bool) -> None:
        """Owner thread: the launcher side's view changed. The state shows it, and with
        `announce` every open scoreboard hears it at once (`event: launcher`). Only the state's
        `launcher` is new (the rest is as the last change left it): a press's way to the motor
        (its decision, the launcher firing) does not wait for the whole state to be made."""
        self._snapshot = self._snapshot | {"launcher": self.launcher_side.view()}
        if announce:
            self.hub.publish(Message("launcher", self.launcher_side.view()))

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
            if not isinstance(error, InvalidInput | EngineError | StoreError):  # refusals
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
            self.launcher_side.check_empty()
        checkpoint = self.session.checkpoint() if _undoable(command) else None
        events = self.session.apply(command)
        record = self._log(str(kind), command, events, actor, idem_key)
        record = self._publish(self._remember(record, checkpoint))
        if kind in ("deal", "reload"):
            self.launcher_side.filled()
        return record

    # ---- idempotency keys: a key means one tap, within one match (keys of older matches
    # ---- are free again); it is stored as `m<seq of the match's setup>:<key>`.

    def _done_before(self, command: dict[str, Any], key: str) -> Record | None:
        """The record this tap's key already made in this match (a retry), or None. A key
        reused for a different command is refused: it would silently drop that command."""
        done = self.logged_under(key)
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
            retried = self._table_setup(command).to_dict()
            for setup in (logged, retried):  # the same choice, even if the file changed since
                setup.pop("eject_params", None)
            return bool(logged == retried)
        return record.command == command

    def _table_setup(self, command: dict[str, Any]) -> TableSetup:
        data = command.get("setup")
        if isinstance(data, dict):
            data = current_keys(data)
            data.setdefault("eject_profile", self.eject_profile)
            data = self._with_eject_params(data)
        return TableSetup.from_dict(data)

    def _with_eject_params(self, data: dict[str, Any]) -> dict[str, Any]:
        """The set-up with its custom eject profile's parameters, read from the profile's file
        now: the log keeps them, not the file (a request does not send them)."""
        if "eject_params" in data:
            raise InvalidInput("eject_params are the table's record of a profile: send its name")
        name = data["eject_profile"]
        if not isinstance(name, str) or name in PROFILES:
            return data  # TableSetup says what is wrong with a name that is not text
        try:
            profile = self.eject_profiles.load(name)
        except ProfileError as error:
            raise InvalidInput(str(error)) from None
        return data | {"eject_params": profile_params(profile)}

    # ---- end of idempotency keys

    def _setup(self, command: dict[str, Any], actor: str, idem_key: str | None) -> Record:
        setup = self._table_setup(command)
        session = TableSession(setup)
        _check_shown(session)
        command = {"type": "setup", "setup": setup.to_dict()}
        events = [{"type": "MatchStarted", "players": list(setup.players)}]
        record = self._log("setup", command, events, actor, idem_key)
        self.session = session
        self.launcher_side.new_match()
        self._match_start, self._match, self._before = record.seq, [record], []
        self._set_aside = ()  # the log forgets its notices at a set-up (`Store.append`)
        return self._publish(record)

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

    def _undo(self, actor: str, idem_key: str | None) -> Record:
        target = self._undo_target()
        command = {"type": "undo", "seq": target.seq}
        events = [{"type": "Undone", "seq": target.seq, "undone": target.command}]
        record = self._log("undo", command, events, actor, idem_key)
        if self.session is not None and self._before and self._before[-1][0] == target.seq:
            self.session.rewind(self._before.pop()[1])
        else:
            self._replay()  # deeper than the checkpoints kept: from the match's records
        return self._publish(record)

    def _undo_target(self) -> Record:
        """The latest step not undone yet (from memory: no reading of the log)."""
        undone = set()
        for record in reversed(self._match):
            if record.kind == "undo":
                undone.add(record.command["seq"])
            elif record.kind in UNSEEN_BY_UNDO:
                continue
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
        if kind != "undo" and kind not in UNSEEN_BY_UNDO and not _undoable(command):
            self._before.clear()  # no undo reaches past a step that cannot be undone
        self._history.note(record)
        return record

    def _remember(self, record: Record, checkpoint: Checkpoint | None) -> Record:
        """Keep the session before an undoable step (the latest UNDO_DEPTH of them)."""
        if checkpoint is not None:
            self._before.append((record.seq, checkpoint))
            del self._before[:-UNDO_DEPTH]
        return record

    def _publish(self, record: Record) -> Record:
        self._seq = record.seq
        self._refresh()
        deal = self._snapshot.get("deal") or {}
        self.launcher_side.show_colour(deal.get("colour"))
        data = record_to_dict(record) | {"state": self._snapshot}
        self.hub.publish(Message("record", data, record.seq))
        return record

    def _refresh(self) -> None:
        state = {} if self.session is None else self.session.snapshot()
        state["seq"] = self._seq
        state["launcher"] = self.launcher_side.view()
        state["table_id"] = self.table_id
        state["log_id"] = self.store.log_id
        state["set_aside"] = [_notice_view(notice) for notice in self._set_aside]
        state["tournament"] = self._tournament
        self._snapshot = state

    # ------------------------------------------------------------------ rebuilding

    def _rebuild(self) -> None:
        """Read the current match's records (only those) from the log and replay them. A match
        that cannot be rebuilt (its set-up refused, its replay or its state failing) is set
        aside whole and the match before it is the current one again, so no record stops the
        table from starting; each round sets a set-up aside, so this ends. What was set aside
        is said in the journal and, until the next set-up, in the state (`set_aside`)."""
        while True:
            start = self.store.match_start(self.table_id)
            try:
                self._load(start)
                break
            except Unreplayable as error:
                if not self.store.set_aside_match(self.table_id, start, str(error)):
                    raise  # nothing was moved: never a rebuild without end
        self._set_aside = tuple(self.store.set_aside_notices(self.table_id))
        self._refresh()

    def _load(self, start: int) -> None:
        """Replay the match set-up `start` began (none when 0); raise Unreplayable when it
        cannot be."""
        self._match_start = start
        self._history.fill()  # the summaries of the matches before this one
        records = self.store.records(self.table_id, after=start - 1) if start else []
        self._match = records
        self._seq = records[-1].seq if records else 0
        self.session = self._session(records[0] if records else None)
        try:
            self._replay()
        except Exception as error:
            if not start:
                raise
            log.exception("the match set up at record %d cannot be replayed", start)
            raise Unreplayable(f"it cannot be replayed: {error}") from None

    def _session(self, setup: Record | None) -> TableSession | None:
        if setup is None:
            return None
        try:
            session = TableSession(self._played_under(recorded_setups(setup.command["setup"])))
            _check_shown(session)
        except Exception as error:
            if not isinstance(error, InvalidInput | EngineError):
                log.exception("the set-up of record %d cannot be read", setup.seq)
            raise Unreplayable(f"its set-up is refused: {error}") from None
        return session

    def _played_under(self, setups: list[TableSetup]) -> TableSetup:
        """Of the set-ups a logged one may stand for (`recorded_setups`), the one whose replay
        gives back the most of the events logged with the match (the likeliest on a tie)."""
        if len(setups) == 1:
            return setups[0]
        steps = [(record.command, record.events) for record in self._steps()]
        return max(setups, key=lambda setup: reproduced(setup, steps))

    def _steps(self) -> list[Record]:
        """The current match's records a replay applies: undone ones and undos left out."""
        undone = {r.command.get("seq") for r in self._match if r.kind == "undo"}
        skipped = {"setup", "undo", *UNSEEN_BY_UNDO}
        return [r for r in self._match if r.kind not in skipped and r.seq not in undone]

    def _replay(self) -> None:
        """Rebuild the session from the current match's records in memory, undone ones left
        out, with a checkpoint before each step an undo can reach. A record the rules now
        refuse is set aside (with a warning), never a stop."""
        if self.session is not None:
            self.session = TableSession(self.session.setup)
        steps = self._steps()
        reach = _undo_reach(steps)
        self._before = []
        for index, record in enumerate(steps):
            if self.session is None:
                continue
            checkpoint = self.session.checkpoint() if index >= reach else None
            try:
                self.session.apply(record.command)
            except (InvalidInput, EngineError) as error:
                self.store.set_aside(record.seq, f"the rules refuse it on replay: {error}")
                self._match.remove(record)
                self._set_aside = tuple(self.store.set_aside_notices(self.table_id))
                continue
            self._remember(record, checkpoint)
        self._history.recount(self._match)
        self._refresh()


def _check_shown(session: TableSession) -> None:
    """A table is set up only if its state can be shown: a set-up whose state fails would
    answer no command once logged, and stop the table's next start."""
    try:
        session.snapshot()
    except Exception as error:
        log.exception("a set-up whose state cannot be shown")
        raise InvalidInput(f"the table cannot be set up this way: {error}") from None


def _notice_view(notice: SetAside) -> dict[str, Any]:
    """What was set aside, JSON-ready for the state: the first record, how many, whether a
    whole match, why, and the whole in words."""
    return {
        "seq": notice.seq, "records": notice.records, "match": notice.match,
        "reason": notice.reason, "at": notice.at, "text": notice.describe(),
    }  # fmt: skip


def _is_press(record: Record) -> bool:
    return _presses(record.command)


def _presses(command: dict[str, Any]) -> bool:
    action = command.get("action")
    return isinstance(action, dict) and action.get("type") == "Press"


def _undoable(command: dict[str, Any]) -> bool:
    """Whether undo may take back this command once logged (as `_undo_target` judges it)."""
    return command.get("type") in UNDOABLE and not _presses(command)


def _undo_reach(steps: list[Record]) -> int:
    """The index in `steps` (the match's steps in force, in order) from which an undo can
    reach each one: the trailing undoable steps, UNDO_DEPTH at most."""
    start = len(steps)
    while start and len(steps) - start < UNDO_DEPTH and _undoable(steps[start - 1].command):
        start -= 1
    return start


def _cannot_undo(record: Record) -> str:
    if _is_press(record):
        return "a launcher press cannot be undone: correct the hand count instead"
    if record.kind == "setup":
        return "there is nothing to undo in this match yet"
    return f"the last step ({record.kind}) cannot be undone"
