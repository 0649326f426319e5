"""No handler can silence the inputs. lgpio hands every input's edges to the handlers on one
thread, which ends at the first exception it meets: a failing handler (here the beam's) must
not reach it, and must show as a fault. A thread that has ended anyway is an outage the table
shows. The alert thread is played here by one thread that calls the mock pins' edges in order
and, like lgpio's, has no exception handling of its own."""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from gpiozero.pins.mock import MockFactory

from controller.launcher import Launcher
from controller.launcher.devices import alert_thread_dead
from controller.launcher.launcher import LauncherStatus, PinDrive
from tests.waiting import wait_until

from .helpers import Recorder, pin

BUTTON, BEAM = 17, 27
MakeLauncher = Callable[..., Launcher]


class AlertThread(threading.Thread):
    """Calls each queued edge in turn; an exception ends it, as it ends lgpio's."""

    def __init__(self) -> None:
        super().__init__(name="alerts", daemon=True)
        self.edges: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self.delivered = 0

    def run(self) -> None:
        while (edge := self.edges.get()) is not None:
            edge()
            self.delivered += 1


def broken_beam(self: PinDrive, t: float, blocked: bool) -> None:
    raise RuntimeError("a bug in the beam's handler")


def test_a_failing_handler_leaves_every_input_hearing_and_shows_a_fault(
    make_launcher: MakeLauncher, mock_factory: MockFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(PinDrive, "_on_beam", broken_beam)
    launcher = make_launcher()
    presses = Recorder()
    launcher.add_press_consumer(presses)
    alerts = AlertThread()
    alerts.start()
    beam, button = pin(mock_factory, BEAM), pin(mock_factory, BUTTON)
    try:
        alerts.edges.put(beam.drive_low)  # blocked: the handler raises
        alerts.edges.put(beam.drive_high)
        alerts.edges.put(button.drive_low)  # a press after it, on the same thread
        wait_until(lambda: alerts.delivered == 3, "every edge delivered")
        presses.wait_for(lambda items: any(event.kind == "press" for event in items))
        assert alerts.is_alive()
        fault = launcher.fault
        assert fault is not None and fault.kind == "input", fault
        assert "beam input's handler failed (RuntimeError: a bug" in fault.detail
        assert launcher.status is LauncherStatus.FAULT
    finally:
        alerts.edges.put(button.drive_high)
        alerts.edges.put(None)
        alerts.join()


def test_a_dead_alert_thread_is_an_outage_the_table_sees(
    make_launcher: MakeLauncher, monkeypatch: pytest.MonkeyPatch
) -> None:
    ended = threading.Thread(target=lambda: None)
    ended.start()
    ended.join()
    launcher = make_launcher()
    assert launcher.fault is None
    monkeypatch.setitem(sys.modules, "lgpio", SimpleNamespace(_notify_thread=ended))
    wait_until(lambda: launcher.fault is not None, "the deaf inputs seen")
    fault = launcher.fault
    assert fault is not None and fault.kind == "input" and "restart the service" in fault.detail
    launcher.clear_fault()  # a person's clear cannot make the inputs hear again
    assert launcher.fault == fault


def test_only_an_ended_alert_thread_is_dead(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "lgpio", raising=False)
    assert not alert_thread_dead()  # no lgpio loaded: the simulator, a board, a PC
    waiting = threading.Event()
    live, ended = threading.Thread(target=waiting.wait), threading.Thread(target=lambda: None)
    unstarted = threading.Thread(target=lambda: None)
    live.start()
    ended.start()
    ended.join()
    try:
        for thread, dead in ((unstarted, False), (live, False), (ended, True)):
            monkeypatch.setitem(sys.modules, "lgpio", SimpleNamespace(_notify_thread=thread))
            assert alert_thread_dead() is dead, thread
    finally:
        waiting.set()
        live.join()
