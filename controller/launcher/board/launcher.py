"""`SerialLauncher`: the launcher interface, with a Pico board running the motor over USB serial.

It is a `Launcher` composed with a `BoardDrive` (the launcher's core keeps the consumers,
statuses, faults, press detection, suspense and life cycle; the table service cannot tell), but
the motor, the beam and the switches are on the board:

* button and lid changes arrive as ``BUTTON``/``LID`` events and go through the same press
  detector as GPIO edges (long press, stuck button);
* `eject(n)` sends ``EJECT job=<id> n=<n> ...`` and waits for ``DONE``; the board counts the
  cards and enforces the deadline. The job id is fresh per run and the board never starts a job
  id twice, so a retransmitted EJECT cannot fire twice;
* nothing waits for a lost link: while it is down the launcher is ``offline`` (a ``link``
  fault) and refuses at once what needs the board (eject, deal); lights wait for it quietly;
* a run the link cuts off returns at once with what was heard (the cards the board reported,
  and one it said was leaving the beam), and is **settled** when the board is back (see
  `settle.py`): the board keeps the count of its last 8 runs while it runs, and of its last
  run through a watchdog reset (its scratch registers hold one run), so the count is asked
  for, never guessed. If the board lost power, or a reset kept only a later run, it no longer
  knows the run: what it reported stands, and a ``board`` fault asks a person to check the
  throat;
* a board restart the link survives is asked about at once (``STATUS job=<id>``).
"""

from __future__ import annotations

import itertools
import logging
import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from controller.launcher.board.firmware import proto
from controller.launcher.board.link import (
    BoardEvent,
    BoardInfo,
    BoardLink,
    BoardRefused,
    IncompatibleBoard,
    LinkDown,
    LinkTiming,
    Opener,
    PortFinder,
)
from controller.launcher.board.settle import Settler
from controller.launcher.board.views import BoardDevices, BoardFeedback
from controller.launcher.buttons import PressDetector
from controller.launcher.devices import LauncherDevices
from controller.launcher.ejector import Clock, Ejector, EjectResult, StopReason
from controller.launcher.errors import LauncherBusy, LauncherError, LauncherFault
from controller.launcher.feedback import Feedback
from controller.launcher.late_cards import Settlement, SettlementConsumer
from controller.launcher.launcher import Fault, FaultKind, Launcher
from controller.launcher.pins import PinProfile

if TYPE_CHECKING:
    from controller.launcher.board.fake import FakeBoard

log = logging.getLogger(__name__)

GRACE = 3.0  # seconds past a run's deadline before its DONE counts as lost
RECONNECT_GRACE = 6.0  # seconds a run waits for a lost link to come back before giving up

_DETAILS = {
    "no-complete-card": "the beam saw movement but no complete card",
    "no-first-card": "no first card crossed the beam",
    "no-next-card": "no next card crossed the beam",
    "lid": "the lid was opened",
    "host-silent": "the board heard nothing from the Pi for 3 s and stopped the motor",
    "safe": "the launcher is closing",
    "error": "the board hit an error and stopped the motor",
}
_REASONS: tuple[StopReason, ...] = ("count", "jam", "empty", "timeout", "stopped")


@dataclass
class _Job:
    """One run on the board, as the host follows it."""

    id: int
    requested: int
    deadline_ms: float
    started: float
    cards: dict[int, tuple[float, float]] = field(default_factory=dict)  # n -> (width ms, at ms)
    boot: int = 0  # the board's boot id when the run began
    done: dict[str, str] | None = None
    recheck: bool = False  # reconnected, rebooted or events lost: ask the board
    lost: bool = False  # the link went down: stop waiting, settle later
    leaving: bool = False  # the board said a card is leaving the beam (EXIT pending=1)
    stop_detail: str | None = None

    @property
    def heard(self) -> int:
        """Cards the board reported, and one it said was leaving."""
        return len(self.cards) + self.leaving


class SerialLauncher(Launcher):
    """The launcher on a board at `find_port()` (see `ports.find_port`): the launcher's core
    with a `BoardDrive`. `board` is the fake board it talks to (the ``fake-serial`` backend,
    whose simulated machine is the launcher's `simulator`), None on a real board."""

    def __init__(
        self,
        profile: PinProfile,
        find_port: PortFinder,
        *,
        clock: Clock = time.monotonic,
        timing: LinkTiming | None = None,
        connect_timeout: float = 5.0,
        opener: Opener | None = None,
        board: FakeBoard | None = None,
    ) -> None:
        self.board = board
        super().__init__(
            profile,
            clock=clock,
            drive=lambda launcher: BoardDrive(launcher, find_port, timing=timing, opener=opener),
            simulator=None if board is None else board.simulator,
        )
        incompatible = self._drive_.connect(connect_timeout)
        if incompatible is not None:
            self.close()
            raise IncompatibleBoard(incompatible)

    @property
    def unsettled(self) -> int:
        """Runs cut off by the link whose count the board has not given yet."""
        return len(self._drive_.settler)

    @property
    def heard(self) -> tuple[int, bool] | None:
        """The current run as heard from the board: (cards reported, a card leaving)."""
        return self._drive_.heard()

    @property
    def link(self) -> BoardLink:
        """The connection to the board (``link.request("PING")`` for diagnostics)."""
        return self._drive_.link

    @property
    def board_info(self) -> BoardInfo | None:
        """What the board said about itself when it last connected."""
        return self._drive_.board_info

    @property
    def _drive_(self) -> BoardDrive:
        assert isinstance(self.drive, BoardDrive)
        return self.drive


class BoardDrive:
    """Cards fed by the board: ``EJECT`` and its events, the link's faults, settling runs the
    link cut off. `launcher` is the core it reports button, lid and faults to."""

    close_wait = GRACE
    lid_settle = 0.0  # the board filters its lid switch itself
    ejector: Ejector | None = None  # the board counts the cards itself

    def __init__(
        self,
        launcher: Launcher,
        find_port: PortFinder,
        *,
        timing: LinkTiming | None = None,
        opener: Opener | None = None,
    ) -> None:
        self._launcher = launcher
        self.profile = launcher.profile
        self._clock = launcher.clock
        launcher.set_outage(Fault("link", "connecting to the launcher board"))
        self._job: _Job | None = None
        self._job_ids = itertools.count(random.randrange(1, 1 << 24))
        self._changed = threading.Condition()
        self._connected = threading.Event()
        self._presses_seen = 0
        self._incompatible: str | None = None
        self.board_info: BoardInfo | None = None
        extra = {} if opener is None else {"opener": opener}
        self.link = BoardLink(
            find_port,
            on_event=self._on_event,
            on_up=self._on_up,
            on_down=self._on_down,
            timing=timing,
            clock=self._clock,
            **extra,
        )
        self._link = self.link
        # duck-typed stand-ins for the GPIO devices and their lights and chimes
        self.devices: LauncherDevices = BoardDevices(self._link, self.profile)  # type: ignore[assignment]
        self.feedback: Feedback = BoardFeedback(self._link)  # type: ignore[assignment]
        self._cut_jobs: dict[int, _Job] = {}  # runs the link cut off, until settled
        self.settler = Settler(self._link, self._judge)

    def connect(self, timeout: float) -> str | None:
        """Start the link and wait up to `timeout` for the board; why it is incompatible, if
        it is (a board that does not answer in time is simply offline)."""
        self._link.start()
        self._connected.wait(timeout)
        return self._incompatible

    def heard(self) -> tuple[int, bool] | None:
        with self._changed:
            job = self._job
            return None if job is None else (len(job.cards), job.leaving)

    # --- what the launcher's core asks of a drive ---

    def press_detector(self, start: float) -> PressDetector:
        # the board debounces its button itself: its events count as they come
        return PressDetector(self.profile.press, start=start, pressed=False, settle=0.0)

    def lid_open(self) -> bool:
        return False  # the board reports the lid once it is connected

    def button_level(self) -> bool | None:
        return None  # the button is on the board: its events are all there is

    def deaf(self) -> str | None:
        return None  # a silent board is the link's outage

    def feed(self, cards: int, speed: float | None, started: Callable[[], None]) -> EjectResult:
        return self._remote_run(cards, speed or self.profile.ejector.speed, started)

    def add_settlement_consumer(self, consumer: SettlementConsumer) -> None:
        """Receive a `Settlement` for every run the link cut off, once the board has said how
        it ended (on a worker thread: be quick)."""
        self.settler.add_consumer(consumer)

    # --- the link's callbacks ---

    def _on_up(self, info: BoardInfo) -> None:
        """Connected (supervisor thread): tune the board, learn its levels, resume a run."""
        args = tune_args(self.profile)
        for start in range(0, len(args), 3):  # short frames; the pulse window in one of them
            try:
                self._link.request("TUNE", *args[start : start + 3])
            except BoardRefused as error:  # an older firmware's limits, or a bad profile
                raise IncompatibleBoard(
                    f"the launcher board on {info.port} (firmware {info.firmware}) refused the "
                    f"pin profile's tuning: {error}. Update the board with 'make "
                    "firmware-deploy' (see firmware/README.md), or check the profile."
                ) from None
        status = self._link.request("STATUS")
        self.board_info = info
        self._presses_seen = int(status.get("presses", "0"))  # this boot's count, from now on
        self._apply_levels(status)
        self._launcher.set_outage(None)
        self._incompatible = None
        with self._changed:
            if self._job is not None:
                self._job.recheck = True
            self._changed.notify_all()
        self._connected.set()
        self.settler.wake()

    def _on_down(self, why: str, incompatible: bool) -> None:
        kind: FaultKind = "board" if incompatible else "link"
        self._launcher.set_outage(Fault(kind, why))
        if incompatible:
            log.error("%s", why)
            self._incompatible = why
            self._connected.set()
        with self._changed:
            if self._job is not None:
                self._job.lost = True  # nobody waits for the board: settle the run later
            self._changed.notify_all()

    def _on_event(self, event: BoardEvent) -> None:
        """The link's reader thread: quick hand-offs only (no requests here)."""
        handler = self._EVENTS.get(event.word)
        if handler is not None:
            handler(self, event)
        if event.gap and self._link.up:
            threading.Thread(target=self._resync, name="board-resync", daemon=True).start()

    def _button(self, event: BoardEvent) -> None:
        down = event.fields.get("down") == "1"
        if down:
            self._presses_seen = max(self._presses_seen, int(event.fields.get("n", "0")))
        self._launcher.enqueue_input("button", event.at, down)

    def _lid(self, event: BoardEvent) -> None:
        self._launcher.enqueue_input("lid", event.at, event.fields.get("open") == "1")

    def _card(self, event: BoardEvent) -> None:
        with self._changed:
            job = self._job
            if job is not None and event.fields.get("job") == str(job.id):
                width = int(event.fields.get("w", "0")) / 1000
                at = float(event.fields.get("at", "0"))
                job.cards[int(event.fields.get("n", "0"))] = (width, at)
                job.leaving = False
                self._changed.notify_all()

    def _exit(self, event: BoardEvent) -> None:
        with self._changed:
            job = self._job
            if job is not None and event.fields.get("job") == str(job.id):
                job.leaving = event.fields.get("pending") == "1"

    def _done(self, event: BoardEvent) -> None:
        with self._changed:
            job = self._job
            if job is not None and event.fields.get("job") == str(job.id):
                job.done = event.fields
                self._changed.notify_all()

    def _boot(self, event: BoardEvent) -> None:
        log.warning("the launcher board restarted (%s)", event.fields.get("reason", "?"))
        self._presses_seen = 0
        with self._changed:
            if self._job is not None:
                self._job.recheck = True
            self._changed.notify_all()

    def _fault_event(self, event: BoardEvent) -> None:
        kind = event.fields.get("kind", "?")
        log.warning("launcher board fault: %s", kind)
        if kind == "error":
            self._launcher.latch(Fault("board", _DETAILS["error"]))
            self._link.renew("the board ended the session after an error")

    _EVENTS: ClassVar[dict[str, Callable[[BoardDrive, BoardEvent], None]]] = {
        "BUTTON": _button,
        "LID": _lid,
        "CARD": _card,
        "EXIT": _exit,
        "DONE": _done,
        "BOOT": _boot,
        "FAULT": _fault_event,
    }

    def _resync(self) -> None:
        """Events were lost: ask for the levels and the run instead of guessing."""
        try:
            status = self._link.request("STATUS")
        except LauncherError:
            return
        self._apply_levels(status)
        with self._changed:
            if self._job is not None:
                self._job.recheck = True
            self._changed.notify_all()

    def _apply_levels(self, status: dict[str, str]) -> None:
        now = self._clock()
        self._launcher.enqueue_input("lid", now, status.get("lid") == "1")
        presses = int(status.get("presses", "0"))
        missed = min(presses - self._presses_seen, 3)
        self._presses_seen = max(self._presses_seen, presses)
        for _ in range(max(missed, 0)):  # presses whose events were lost still count
            self._launcher.enqueue_input("button", now, True)
            self._launcher.enqueue_input("button", now, False)
        self._launcher.enqueue_input("button", now, status.get("button") == "1")

    # --- running the motor (owner thread) ---

    def _remote_run(self, cards: int, speed: float, started: Callable[[], None]) -> EjectResult:
        if cards == 0:
            return EjectResult(0, 0, "count")
        deadline_ms = self.profile.ejector.deadline_ms(cards)
        boot = self.board_info.boot if self.board_info is not None else 0
        job = _Job(next(self._job_ids), cards, deadline_ms, self._clock(), boot=boot)
        with self._changed:
            self._job = job
        try:
            self._send_eject(job, speed)
            started()  # the board has it (or the link went down as it was sent: it may run)
            return self._await(job)
        finally:
            with self._changed:
                self._job = None

    def _send_eject(self, job: _Job, speed: float) -> None:
        args = (
            f"job={job.id}",
            f"n={job.requested}",
            f"speed={max(1, round(speed * 1000))}",
            f"deadline={max(1, round(job.deadline_ms))}",
        )
        try:
            self._link.request("EJECT", *args)
        except BoardRefused as error:
            if error.code == "lid":
                raise LauncherFault("lid_open: the lid is open") from None
            if error.code == "busy":
                raise LauncherBusy("the launcher board is still finishing a run") from None
            if error.code == "session":
                self._link.renew("the board has no session")
                raise LauncherFault("link: the launcher board is reconnecting") from None
            raise LauncherFault(f"board: {error}") from None
        except LinkDown:
            job.lost = True  # it may or may not have arrived: ask once the link is back

    def _await(self, job: _Job) -> EjectResult:
        """Wait for DONE; ask the board when in doubt; give up only when it cannot answer."""
        overdue = job.started + job.deadline_ms / 1000 + GRACE
        stop_sent = False
        while True:
            with self._changed:
                self._wait_job(job, stopping=job.stop_detail is not None and not stop_sent)
                done, recheck, lost = job.done, job.recheck, job.lost
                job.recheck = False
            if done is not None:
                return self._result(job, done)
            if lost:
                return self._cut_off(job)
            if job.stop_detail is not None and not stop_sent:
                stop_sent = self._send_stop()
            if recheck or self._clock() > overdue:
                result = self._ask(job, overdue)
                if result is not None:
                    return result

    def _wait_job(self, job: _Job, *, stopping: bool) -> None:
        """Wait (holding `_changed`) until the job needs attention, at most 0.1 s."""
        self._changed.wait_for(
            lambda: job.done is not None or job.recheck or job.lost or stopping, 0.1
        )

    def _send_stop(self) -> bool:
        try:
            self._link.request("STOP", "why=host")
        except LinkDown:
            return False  # the board stops by itself when the Pi goes silent
        except BoardRefused:
            pass
        return True

    def _ask(self, job: _Job, overdue: float) -> EjectResult | None:
        """Reconcile with STATUS. None: keep waiting (the run goes on, or the link is down)."""
        try:
            status = self._link.request("STATUS", f"job={job.id}")
        except BoardRefused:
            return None
        except LauncherError:
            job.lost = True  # the link is going down: settle later
            return None
        reason = _reason_for(job.id, status)
        if reason == "unknown":
            return self._lost(job, "the launcher board restarted without its memory mid-eject")
        if reason == "running":
            if self._clock() > overdue + RECONNECT_GRACE:
                return self._lost(job, "the launcher board did not finish in time")
            return None
        return self._result(job, status)

    def _cut_off(self, job: _Job) -> EjectResult:
        """The link went down mid-run: what was heard now, the board's count later."""
        heard = job.heard
        detail = (
            f"lost the launcher board mid-eject after {heard} card(s); "
            "the count is settled when it is back"
        )
        result = self._make_result(job, heard, "stopped", detail, 0)
        self._cut_jobs[job.id] = job
        self.settler.add(job.id, result)
        return result

    def _judge(self, job: int, result: EjectResult, status: dict[str, str]) -> Settlement | None:
        """A cut-off run's `Settlement` from the board's STATUS (None: still running)."""
        reason = _reason_for(job, status)
        if reason == "running":
            return None
        if reason == "unknown":  # never arrived, or the board restarted and the run is gone
            cut = self._cut_jobs.get(job)
            restarted = cut is not None and status.get("boot") != str(cut.boot)
            detail = f"the board does not know the run: {result.ejected} card(s) as reported"
            if restarted and result.ejected:
                detail = (
                    f"the launcher board {self._forgot()} after reporting {result.ejected} "
                    "card(s); check the launcher's throat"
                )
                self._launcher.latch(Fault("board", detail))
            return self._settled(job, Settlement(result, result.ejected, reason, detail))
        ejected = int(status.get("ejected", "0"))
        detail = _DETAILS.get(status.get("detail", ""), reason)
        if reason == "reset":
            detail = f"the launcher board restarted mid-eject after {ejected} card(s)"
            self._launcher.latch(Fault("board", detail + "; check the launcher"))
        return self._settled(job, Settlement(result, ejected, reason, detail))

    def _forgot(self) -> str:
        """Why a board that restarted no longer knows a run, from what it said at HELLO."""
        info = self.board_info
        if info is None or info.reset == "power":
            return "lost power mid-eject"
        if info.memory in ("old", "torn"):
            return f"restarted mid-eject and discarded its memory ({info.memory})"
        if info.memory == "off":
            return f"restarted mid-eject and keeps nothing across a reset ({info.chip})"
        return "restarted mid-eject and keeps only its last run across a reset"

    def _settled(self, job: int, settlement: Settlement) -> Settlement:
        self._cut_jobs.pop(job, None)
        return settlement

    def _lost(self, job: _Job, why: str) -> EjectResult:
        seen = job.heard
        detail = f"{why}: {seen} card(s) reported before; check the launcher and the hand"
        self._launcher.latch(Fault("board", detail))
        return self._make_result(job, seen, "stopped", detail, 0)

    def _result(self, job: _Job, given: dict[str, str]) -> EjectResult:
        ejected = max(int(given.get("ejected", "0")), len(job.cards))
        reason = given.get("reason", "stopped")
        code = given.get("detail", "")
        if reason == "reset":
            detail = f"the launcher board restarted mid-eject after {ejected} card(s)"
            self._launcher.latch(Fault("board", detail + "; check the launcher"))
            return self._make_result(job, ejected, "stopped", detail, 0)
        stop_reason: StopReason = reason if reason in _REASONS else "stopped"
        noise = int(given.get("noise", "0"))
        return self._make_result(job, ejected, stop_reason, self._detail(job, code), noise)

    def _detail(self, job: _Job, code: str) -> str:
        tuning = self.profile.ejector
        if code == "beam-blocked":
            return f"beam blocked for more than {tuning.max_pulse_ms:g} ms"
        if code == "deadline":
            return f"hard deadline of {job.deadline_ms:g} ms reached"
        if code == "host":
            return job.stop_detail or "stopped"
        return _DETAILS.get(code, code)

    def _make_result(
        self, job: _Job, ejected: int, reason: StopReason, detail: str, noise: int
    ) -> EjectResult:
        cards = [job.cards[n] for n in sorted(job.cards)]
        return EjectResult(
            job.requested,
            ejected,
            reason,
            self._clock() - job.started,
            pulse_ms=tuple(round(w, 3) for w, _ in cards),
            card_at_ms=tuple(round(a, 3) for _, a in cards),
            noise=noise,
            detail=detail,
        )

    def stop(self, detail: str) -> None:
        """End a running eject now (any thread): the owner thread sends STOP."""
        with self._changed:
            if self._job is not None and self._job.stop_detail is None:
                self._job.stop_detail = detail
            self._changed.notify_all()

    def shut_down(self) -> None:
        """Motor off (SAFE: the board stops and puts the driver to sleep), link closed."""
        if self._link.up:
            try:
                self._link.request("SAFE")
            except LauncherError as error:
                log.warning("could not tell the board to stop: %s", error)
        self.settler.close()
        self._link.close()
        self.feedback.close()


def _reason_for(job: int, status: dict[str, str]) -> str:
    """The board's reason for `job` from ``STATUS job=<job>``: ``unknown`` if it answered about
    another run (a firmware that predates ``job=`` reports its last run whatever is asked)."""
    if status.get("job") != str(job):
        return "unknown"
    return status.get("reason", "unknown")


def tune_args(profile: PinProfile) -> list[str]:
    """The profile's ejector, motor and press tuning as ``TUNE`` arguments (the board's units):
    the brake before the retract, and the duty cap that keeps a stalled motor's current within
    the driver's rating (rounded down, so the board's cap is never above the profile's)."""
    t = profile.ejector
    values = {
        "speed": round(t.speed * 1000),
        "start_speed": round(t.start_speed * 1000),
        "soft_start_ms": round(t.soft_start_ms),
        "min_pulse_us": round(t.min_pulse_ms * 1000),
        "max_pulse_us": round(t.max_pulse_ms * 1000),
        "min_gap_us": round(t.min_gap_ms * 1000),
        "first_card_ms": max(1, round(t.first_card_timeout_ms)),
        "card_gap_ms": max(1, round(t.card_gap_timeout_ms)),
        "retract_ms": round(t.retract_ms),
        "retract_speed": round(t.retract_speed * 1000),
        "max_run_ms": min(30_000, round(t.max_run_ms)),
        "debounce_ms": round(profile.press.debounce_ms),
        "brake_ms": round(t.brake_ms),
        "max_duty": max(1, math.floor(profile.motor.max_duty * 1000 + 1e-6)),
    }
    return [proto.kv(key, value) for key, value in values.items()]
