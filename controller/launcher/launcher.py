"""The launcher: one object a table service drives from its own owner thread.

Threads, and who owns what:

* gpiozero's callback thread runs the edge callbacks; they only enqueue each edge with the
  stamp the kernel gave it (they may run tens of ms late, several at once).
* the launcher's input thread owns the button: debounce, long press, stuck detection. It hands
  every stamped `ButtonEvent` to the registered press consumers. The launcher never decides
  whose press it was, nor what a press means: that is the game's business.
* the caller's thread (the table's owner thread) runs `eject()`, `deal()` and `suspense()`;
  they block until done and `stop()` or `close()` from any thread ends them at once.
* the feedback worker plays lights and chimes.

A launcher is this shared core composed with a `Drive`: how cards are fed. `PinDrive` runs the
motor on this machine's pins (the closed-loop ejector); the board drive (controller/launcher/
board/) asks a Pico over serial. The core owns everything else: the consumers, the statuses and
faults, the press detector and its input thread, the run lock, the closers and the life cycle.

The motor is off on every path out of a run, after `close()`, at interpreter exit (atexit) and,
with the CLI's signal handler, on SIGTERM.
"""

from __future__ import annotations

import atexit
import enum
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from gpiozero.exc import GPIOZeroError

from controller.launcher.buttons import ButtonEvent, PressDetector
from controller.launcher.devices import LauncherDevices, alert_thread_dead
from controller.launcher.ejector import Clock, Ejector, EjectResult
from controller.launcher.errors import LauncherBusy, LauncherClosed, LauncherFault
from controller.launcher.feedback import Feedback
from controller.launcher.late_cards import SettlementConsumer
from controller.launcher.pins import PinProfile

if TYPE_CHECKING:
    from controller.launcher.sim import SimulatedLauncher

log = logging.getLogger(__name__)

PressConsumer = Callable[[ButtonEvent], None]
# link: the launcher board is not answering; board: it refused, restarted mid-run or failed;
# input: an input's edge handler failed (an edge may be lost), or the inputs went deaf;
# guard: the motor guard process is gone (controller/launcher/guard.py): the motor stays off
FaultKind = Literal[
    "jam", "empty", "timeout", "stuck_button", "lid_open", "link", "board", "input", "guard"
]


class LauncherStatus(enum.StrEnum):
    READY = "ready"
    SUSPENSE = "suspense"
    FIRING = "firing"
    JAM = "jam"
    EMPTY = "empty"
    FAULT = "fault"
    OFFLINE = "offline"  # the launcher board's link is down: only what needs it is refused
    CLOSED = "closed"


@dataclass(frozen=True)
class Fault:
    """Why the launcher will not eject until a person clears it."""

    kind: FaultKind
    detail: str


StatusConsumer = Callable[[LauncherStatus, Fault | None], None]

_FAULT_STATUS = {
    "jam": LauncherStatus.JAM,
    "empty": LauncherStatus.EMPTY,
    "link": LauncherStatus.OFFLINE,
}
_RUN_FAULTS: dict[str, FaultKind] = {"jam": "jam", "empty": "empty", "timeout": "timeout"}
_CLOSE = ("close", 0.0, False)
LOST_EDGE_S = 2.0  # a pin that disagrees with the edges this long lost an edge on the way


class Drive(Protocol):
    """How a launcher feeds cards, and the devices and lights it does it with."""

    devices: LauncherDevices
    feedback: Feedback
    close_wait: float  # seconds `close()` waits for a run to end before shutting down
    lid_settle: float  # seconds the lid must read open before it counts (0: filtered already)

    def press_detector(self, start: float) -> PressDetector:
        """The press detector for this drive's button, starting at `start`."""
        ...

    def lid_open(self) -> bool:
        """The lid as the launcher opens (a drive that learns it later says False)."""
        ...

    @property
    def ejector(self) -> Ejector | None:
        """The closed-loop ejector on this machine's pins; None when a board counts the cards."""
        ...

    def feed(self, cards: int, speed: float | None, started: Callable[[], None]) -> EjectResult:
        """Feed exactly `cards` cards (the owner thread, holding the run lock); call `started`
        once, as soon as the motor has been told to run (never if it was not)."""
        ...

    def add_settlement_consumer(self, consumer: SettlementConsumer) -> None:
        """Hand `consumer` every correction of a finished run's count."""
        ...

    def stop(self, detail: str) -> None:
        """End a running feed now (any thread)."""
        ...

    def button_level(self) -> bool | None:
        """The button read from its own pin now; None when it is not a local pin."""
        ...

    def deaf(self) -> str | None:
        """Why this drive's inputs no longer hear edges (for good), or None while they do."""
        ...

    def shut_down(self) -> None:
        """Motor off, lights and devices closed (holding the run lock when it could be had)."""
        ...


DriveBuilder = Callable[["Launcher"], Drive]


class Launcher:
    """A launcher the table service drives: on an injected pin factory (`PinDrive`), or with
    the drive `drive` builds (given the launcher, for its hooks). `simulator` is the simulated
    machine on its inputs and motor, None on real hardware: demos and tests press its button and
    fill its hopper."""

    def __init__(
        self,
        profile: PinProfile,
        *,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
        drive: DriveBuilder | None = None,
        simulator: SimulatedLauncher | None = None,
    ) -> None:
        self.profile = profile
        self.simulator = simulator
        self._clock = clock
        self._inputs: queue.SimpleQueue[tuple[str, float, bool]] = queue.SimpleQueue()
        self._press_consumers: list[PressConsumer] = []
        self._status_consumers: list[StatusConsumer] = []
        self._state_lock = threading.RLock()
        self._busy = threading.Lock()
        self._abort = threading.Event()
        self._activity = LauncherStatus.READY
        self._fault: Fault | None = None
        self._outage: Fault | None = None  # stands while a condition lasts (the link is down)
        self._lid_open = False
        self._lid_opening: float | None = None  # the stamp of an open edge not yet settled
        self._published: tuple[LauncherStatus, Fault | None] | None = None
        self._closed = False
        self._closers: list[Callable[[], None]] = []
        build = drive or (lambda launcher: PinDrive(launcher, pin_factory))
        self.drive = build(self)
        self.devices = self.drive.devices
        self.feedback = self.drive.feedback
        try:
            self._lid_open = self.drive.lid_open()
            self._detector = self.drive.press_detector(clock())
            self._thread = threading.Thread(
                target=self._input_loop, name="launcher-input", daemon=True
            )
            self._thread.start()
        except BaseException:
            self.drive.shut_down()
            raise
        atexit.register(self.close)

    @property
    def clock(self) -> Clock:
        return self._clock

    # --- context manager ---

    def __enter__(self) -> Launcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- consumers ---

    def add_press_consumer(self, consumer: PressConsumer) -> None:
        """Receive every stamped `ButtonEvent`. Runs on the input thread: keep it quick
        (``queue.Queue.put`` is ideal)."""
        self._press_consumers.append(consumer)

    def remove_press_consumer(self, consumer: PressConsumer) -> None:
        self._press_consumers.remove(consumer)

    def add_status_consumer(self, consumer: StatusConsumer) -> None:
        """Receive ``(status, fault)`` on every change, on the thread that made it: be quick."""
        self._status_consumers.append(consumer)

    def add_settlement_consumer(self, consumer: SettlementConsumer) -> None:
        """Receive every correction of a finished run's count (`late_cards.Settlement`: a card
        the beam saw as the run ended, heard late; a run a launcher board's link cut off, once
        the board has said how it ended), on the thread that learnt it: be quick."""
        self.drive.add_settlement_consumer(consumer)

    # --- status ---

    @property
    def status(self) -> LauncherStatus:
        with self._state_lock:
            return self._status_locked()

    def _status_locked(self) -> LauncherStatus:
        if self._closed:
            return LauncherStatus.CLOSED
        fault = self._fault_locked()
        if fault is not None:
            return _FAULT_STATUS.get(fault.kind, LauncherStatus.FAULT)
        return self._activity

    @property
    def fault(self) -> Fault | None:
        """What stops the launcher now: the drive's outage (the board's link is down), the
        latched fault, or an open lid; None when the launcher may eject."""
        with self._state_lock:
            return self._fault_locked()

    def _fault_locked(self) -> Fault | None:
        if self._outage is not None and not self._closed:
            return self._outage
        if self._fault is None and self._lid_open:
            return Fault("lid_open", "the lid is open")
        return self._fault

    def clear_fault(self) -> None:
        """A person has cleared the jam, refilled the hopper or freed the button."""
        with self._state_lock:
            self._fault = None
        self.feedback.clear()
        self._publish()

    def set_outage(self, fault: Fault | None) -> None:
        """A drive's standing condition (the board's link is down), or None when it is over."""
        with self._state_lock:
            self._outage = fault
        self._publish()

    def latch(self, fault: Fault) -> None:
        """Refuse to eject until a person clears `fault` (a drive may latch one too)."""
        with self._state_lock:
            if self._fault is None:
                self._fault = fault
        self.feedback.play("fault" if fault.kind not in ("jam", "empty") else fault.kind)
        self._publish()

    def _set_activity(self, activity: LauncherStatus) -> None:
        with self._state_lock:
            self._activity = activity
        self._publish()

    def _publish(self) -> None:
        with self._state_lock:
            current = (self._status_locked(), self._fault_locked())
            if current == self._published:
                return
            self._published = current
        for consumer in list(self._status_consumers):
            _call_safely(consumer, *current)

    # --- feedback the table may show ---

    def show_colour(self, colour: str | None) -> None:
        """Show the active colour (red, yellow, green, blue) on the RGB LED."""
        self.feedback.show_colour(colour)

    def show_tension(self, tension: float) -> None:
        """Show the policy's tension (0..1) on the idle lights."""
        self.feedback.show_tension(tension)

    # --- running the motor (owner thread) ---

    def eject(self, cards: int) -> EjectResult:
        """Eject exactly `cards` cards, closed loop. Raises `LauncherFault` while a fault stands,
        `LauncherBusy` if another run is going, `LauncherClosed` after close()."""
        return self._run(cards, "fire", None)

    def deal(self, cards: int) -> EjectResult:
        """Deal `cards` cards at the gentler deal speed (for dealing hands)."""
        return self._run(cards, "deal", self.profile.ejector.deal_speed)

    def _run(self, cards: int, pattern: str, speed: float | None) -> EjectResult:
        if cards < 0:
            raise ValueError(f"cards must be >= 0, got {cards}")
        self._check_ready()
        if not self._busy.acquire(blocking=False):
            raise LauncherBusy("another eject is running")

        def started() -> None:  # the motor first: then the lights, chimes and scoreboards
            self._set_activity(LauncherStatus.FIRING)
            self.feedback.play(pattern)

        try:
            result = self.drive.feed(cards, speed, started)
        finally:
            self._busy.release()
            self._set_activity(LauncherStatus.READY)
        kind = _RUN_FAULTS.get(result.reason)
        if kind is not None:
            self.latch(Fault(kind, f"{result.detail} ({result.ejected} of {result.requested})"))
        return result

    def suspense(self, seconds: float, tension: float | None = None) -> bool:
        """The dramatic pause before a fire: ticking chimes, blinking LED. Returns False if
        `stop()` or `close()` cut it short."""
        self._check_ready()
        self._abort.clear()
        self._set_activity(LauncherStatus.SUSPENSE)
        self.feedback.play("suspense", tension)
        try:
            interrupted = self._abort.wait(seconds) if seconds > 0 else False
        finally:
            self._set_activity(LauncherStatus.READY)
        return not interrupted and not self._closed

    def stop(self, detail: str = "stopped") -> None:
        """End a running eject or suspense now (any thread)."""
        self._abort.set()
        drive: Drive | None = getattr(self, "drive", None)  # a lid edge may beat the drive
        if drive is not None:
            drive.stop(detail)

    def _check_ready(self) -> None:
        if self._closed:
            raise LauncherClosed("the launcher is closed")
        fault = self.fault
        if fault is not None:
            raise LauncherFault(f"{fault.kind}: {fault.detail}")

    # --- the drive's hooks: button and lid changes, stamped, for the input thread ---

    def enqueue_input(self, kind: Literal["button", "lid"], t: float, level: bool) -> None:
        """A button (pressed) or lid (open) level at stamp `t`; any thread, returns at once."""
        self._inputs.put((kind, t, level))

    # --- the input thread ---

    def _input_loop(self) -> None:
        edge_due = False  # the pin disagrees with the last edge seen: one is on its way
        due_since, due_stamp = 0.0, 0.0
        while True:
            timeout = self._next_deadline() - self._clock()
            timeout = min(max(timeout, 0.002 if edge_due else 0.0), 0.5)
            try:
                first = [self._inputs.get(timeout=timeout)] if timeout > 0 else []
            except queue.Empty:
                first = []
            now = self._clock()  # read before draining: every edge stamped earlier is queued
            items = first + self._drain_inputs()
            if _CLOSE in items:
                return
            events: list[ButtonEvent] = []
            for item in items:
                events.extend(self._input(item))
            self._watch_hearing()
            self._settle_lid(now)
            level = self.drive.button_level()
            was_due, edge_due = edge_due, level is not None and level != self._detector.raw
            waited = time.monotonic()  # how long an edge takes to come is real time
            if not was_due:
                due_since, due_stamp = waited, now
            if edge_due and waited - due_since > LOST_EDGE_S:  # the kernel dropped it: resync
                events.extend(self._detector.edge(due_stamp, not self._detector.raw))
                edge_due = False
            events.extend(self._detector.poll(now, level))
            for event in events:
                self._dispatch(event)

    def _next_deadline(self) -> float:
        deadline = self._detector.next_deadline()
        if self._lid_opening is not None:
            deadline = min(deadline, self._lid_opening + self.drive.lid_settle)
        return deadline

    def _settle_lid(self, now: float) -> None:
        """An open lid counts once it has read open for `lid_settle` (a spike never does): it
        stops the run and refuses the next until it is shut."""
        opening = self._lid_opening
        if opening is None or now < opening + self.drive.lid_settle:
            return
        self._lid_opening = None
        if self.drive.lid_settle and not self.drive.lid_open():
            return  # it read shut again: the edge that says so is still on its way
        self.stop("the lid was opened")
        with self._state_lock:
            self._lid_open = True
        self._publish()

    def _watch_hearing(self) -> None:
        """A drive whose inputs went deaf is an outage the table shows until a restart."""
        why = self.drive.deaf()
        if why is not None and self._outage is None:
            log.error("the launcher's inputs are deaf: %s", why)
            self.set_outage(Fault("input", why))

    def _drain_inputs(self) -> list[tuple[str, float, bool]]:
        items = []
        while True:
            try:
                items.append(self._inputs.get_nowait())
            except queue.Empty:
                return items

    def _input(self, item: tuple[str, float, bool]) -> list[ButtonEvent]:
        kind, t, level = item
        if kind == "button":
            return self._detector.edge(t, level)
        if level:
            if not self._lid_open and self._lid_opening is None:
                self._lid_opening = t
            return []
        self._lid_opening = None
        with self._state_lock:
            self._lid_open = False
        self._publish()
        return []

    def _dispatch(self, event: ButtonEvent) -> None:
        if event.kind == "stuck":
            self.latch(Fault("stuck_button", f"the button has been held for {event.held:g} s"))
        for consumer in list(self._press_consumers):  # first: a press is on its way to the motor
            _call_safely(consumer, event)
        if event.kind == "press":
            self.feedback.play("press")

    # --- shutdown ---

    def add_closer(self, closer: Callable[[], None]) -> None:
        """Run `closer` after the devices are closed (e.g. the simulated hardware)."""
        self._closers.append(closer)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Motor off, threads stopped, devices released. Idempotent; safe from any thread."""
        with self._state_lock:
            if self._closed:
                return
            self._closed = True
        atexit.unregister(self.close)
        self.stop("the launcher is closing")
        self._inputs.put(_CLOSE)
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        acquired = self._busy.acquire(timeout=self.drive.close_wait)
        try:
            self.drive.shut_down()
        finally:
            if acquired:
                self._busy.release()
        for closer in self._closers:
            _call_safely(closer)
        self._publish()


class PinDrive:
    """Cards fed by the motor on this machine's pins, counted by the beam (the `Ejector`)."""

    close_wait = 2.0

    def __init__(self, launcher: Launcher, pin_factory: Any) -> None:
        profile = launcher.profile
        self.lid_settle = profile.press.debounce_ms / 1e3  # the button's settle time
        self._launcher = launcher
        self.devices = LauncherDevices(
            profile,
            pin_factory=pin_factory,
            on_button=lambda t, pressed: launcher.enqueue_input("button", t, pressed),
            on_beam=self._on_beam,
            on_lid=self._on_lid,
            on_error=self._on_input_error,
        )
        try:
            self.ejector = Ejector(
                self.devices.motor,
                profile.ejector,
                beam_blocked=lambda: self.devices.beam_blocked,
                clock=launcher.clock,
            )
            self.ejector.one_card_ms_at_full = profile.one_card_ms(1.0)
            self.feedback = Feedback(self.devices)
        except BaseException:
            self.devices.close()
            raise

    def press_detector(self, start: float) -> PressDetector:
        return PressDetector(
            self._launcher.profile.press, start=start, pressed=self.devices.button_pressed
        )

    def lid_open(self) -> bool:
        return self.devices.lid_open

    def feed(self, cards: int, speed: float | None, started: Callable[[], None]) -> EjectResult:
        return self.ejector.run(cards, speed=speed, started=started)

    def add_settlement_consumer(self, consumer: SettlementConsumer) -> None:
        self.ejector.add_settlement_consumer(consumer)

    def stop(self, detail: str) -> None:
        self.ejector.stop(detail)

    def button_level(self) -> bool | None:
        try:
            return self.devices.button_pressed
        except GPIOZeroError:  # closing
            return None

    def deaf(self) -> str | None:
        if alert_thread_dead():
            return "the GPIO inputs stopped (lgpio's edge thread ended): restart the service"
        return None

    def shut_down(self) -> None:
        self.devices.motor.stop()
        self.feedback.close()
        self.devices.close()

    # gpiozero callbacks: hand the stamped edge on, nothing else

    def _on_beam(self, t: float, blocked: bool) -> None:
        ejector: Ejector | None = getattr(self, "ejector", None)  # an edge may beat it
        if ejector is not None:
            ejector.on_beam(t, blocked)

    def _on_lid(self, t: float, is_open: bool) -> None:
        self._launcher.enqueue_input("lid", t, is_open)  # it stops a run once it has settled

    def _on_input_error(self, name: str, error: Exception) -> None:
        """An edge of `name` may be lost: stop a run (its count may be wrong) and say so."""
        detail = f"the {name} input's handler failed ({type(error).__name__}: {error})"
        self._launcher.stop(detail)
        self._launcher.latch(Fault("input", detail + "; the inputs still work"))


def _call_safely(function: Callable[..., None], *args: Any) -> None:
    try:
        function(*args)
    except Exception:  # one broken consumer must not stop the launcher
        log.exception("launcher consumer %r failed", function)
