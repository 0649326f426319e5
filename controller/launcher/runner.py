"""Press → policy → suspense → eject: what one press of the UNO button does in UNO Attack.

`handle_press` is the whole path as one function, for any owner thread (the table service calls
it with the engine's count of cards left in the launcher). `PressRunner` is a minimal owner
thread around it, for demos, the selftest and the benchmarks: it takes presses from the
launcher's queue and runs them one after another.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass

from controller.launcher.buttons import ButtonEvent
from controller.launcher.ejector import EjectResult
from controller.launcher.errors import LauncherClosed, LauncherFault
from controller.launcher.launcher import Launcher
from controller.policy import EjectDecision, Policy

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PressOutcome:
    """What a press did. `result` is None when no motor run happened (a miss, a fault)."""

    press: ButtonEvent
    decision: EjectDecision | None
    result: EjectResult | None
    refused: str = ""

    @property
    def ejected(self) -> int:
        return 0 if self.result is None else self.result.ejected


def handle_press(
    launcher: Launcher,
    policy: Policy,
    press: ButtonEvent,
    *,
    remaining: int,
    suspense: float = 0.0,
    on_decision: Callable[[EjectDecision], None] | None = None,
) -> PressOutcome:
    """Ask the policy, show the tension, pause for suspense, eject. A faulted launcher refuses
    the press without consuming the policy (the countdown does not advance). `on_decision`
    hears the decision before the suspense starts (a scoreboard shows its tension)."""
    fault = launcher.fault
    if fault is not None:
        return PressOutcome(press, None, None, refused=f"{fault.kind}: {fault.detail}")
    decision = policy.decide(remaining)
    if on_decision is not None:
        on_decision(decision)
    launcher.show_tension(decision.tension)
    if decision.cards == 0:
        return PressOutcome(press, decision, None)
    try:
        if suspense > 0 and not launcher.suspense(suspense, decision.tension):
            return PressOutcome(press, decision, None, refused="stopped during suspense")
        return PressOutcome(press, decision, launcher.eject(decision.cards))
    except (LauncherFault, LauncherClosed) as error:
        return PressOutcome(press, decision, None, refused=str(error))


class PressRunner:
    """A small owner thread: each press of the button runs `handle_press`.

    Outcomes go to `outcomes` (a queue) and to `on_outcome` if given. `remaining` says how many
    cards the launcher holds (the game knows; a demo may ask the simulator).
    """

    def __init__(
        self,
        launcher: Launcher,
        policy: Policy,
        *,
        remaining: Callable[[], int] = lambda: 112,
        suspense: float = 0.0,
        on_outcome: Callable[[PressOutcome], None] | None = None,
    ) -> None:
        self.launcher = launcher
        self.policy = policy
        self.remaining = remaining
        self.suspense = suspense
        self.on_outcome = on_outcome
        self.outcomes: queue.Queue[PressOutcome] = queue.Queue()
        self._presses: queue.SimpleQueue[ButtonEvent | None] = queue.SimpleQueue()
        launcher.add_press_consumer(self._presses.put)
        self._thread = threading.Thread(target=self._run, name="press-runner", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (event := self._presses.get()) is not None:
            if event.kind != "press" or self.launcher.closed:
                continue
            try:
                outcome = handle_press(
                    self.launcher,
                    self.policy,
                    event,
                    remaining=self.remaining(),
                    suspense=self.suspense,
                )
            except Exception as error:  # e.g. a scripted policy that ran out: report, go on
                log.exception("press %d failed", event.seq)
                outcome = PressOutcome(event, None, None, refused=f"error: {error}")
            self.outcomes.put(outcome)
            if self.on_outcome is not None:
                self.on_outcome(outcome)

    def close(self) -> None:
        """Stop taking presses (a running eject is ended by closing the launcher)."""
        with contextlib.suppress(ValueError):
            self.launcher.remove_press_consumer(self._presses.put)
        self._presses.put(None)
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)

    def __enter__(self) -> PressRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
