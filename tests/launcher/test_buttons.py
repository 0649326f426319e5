"""The press detector on its own: debounce, long press, stuck button (pure, timestamps only)."""

from __future__ import annotations

from controller.launcher.buttons import ButtonEvent, PressDetector
from controller.launcher.pins import PressTuning

TUNING = PressTuning(debounce_ms=10, long_press_ms=500, stuck_ms=2000)


def kinds(events: list[ButtonEvent]) -> list[tuple[str, int]]:
    return [(e.kind, e.seq) for e in events]


def test_press_detector_clean_press_and_release() -> None:
    d = PressDetector(TUNING, start=0.0)
    assert kinds(d.edge(1.0, True)) == [("press", 1)]
    release = d.edge(1.2, False)
    assert kinds(release) == [("release", 1)] and round(release[0].held, 6) == 0.2


def test_press_detector_press_counts_on_the_leading_edge() -> None:
    d = PressDetector(TUNING, start=0.0)
    (press,) = d.edge(3.25, True)
    assert press.t == 3.25


def test_press_detector_ignores_bounce_inside_the_lockout() -> None:
    d = PressDetector(TUNING, start=0.0)
    events = []
    for i, level in enumerate([True, False, True, False, True]):
        events += d.edge(1.0 + i * 0.001, level)
    events += d.edge(1.1, False) + d.edge(1.1005, True) + d.edge(1.101, False)
    events += d.poll(2.0)
    assert kinds(events) == [("press", 1), ("release", 1)]


def test_press_detector_settles_a_tap_shorter_than_the_lockout() -> None:
    d = PressDetector(TUNING, start=0.0)
    assert kinds(d.edge(1.0, True) + d.edge(1.004, False)) == [("press", 1)]
    assert d.next_deadline() == 1.0 + 0.010
    (release,) = d.poll(1.02)
    assert release.kind == "release" and release.t == 1.01
    assert kinds(d.edge(1.5, True)) == [("press", 2)]


def test_press_detector_long_press_and_stuck_each_once() -> None:
    d = PressDetector(TUNING, start=0.0)
    d.edge(1.0, True)
    assert kinds(d.poll(1.4)) == []
    assert kinds(d.poll(1.6)) == [("long_press", 1)]
    assert kinds(d.poll(2.9)) == []
    (stuck,) = d.poll(3.1)
    assert (stuck.kind, stuck.t, stuck.held) == ("stuck", 3.0, 2.0)
    assert d.poll(60.0) == []
    assert kinds(d.edge(61.0, False)) == [("release", 1)]


def test_press_detector_button_held_at_start_is_not_a_press() -> None:
    d = PressDetector(TUNING, start=0.0, pressed=True)
    assert d.poll(1.0) == []
    assert kinds(d.poll(2.5)) == [("stuck", 0)]
    assert kinds(d.edge(3.0, False)) == [("release", 0)]
    assert kinds(d.edge(4.0, True)) == [("press", 1)]
