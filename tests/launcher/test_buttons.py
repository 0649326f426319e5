"""The press detector on its own: settle time, spikes, late edges, long press, stuck button
(pure, timestamps only)."""

from __future__ import annotations

from controller.launcher.buttons import ButtonEvent, PressDetector
from controller.launcher.pins import PressTuning

TUNING = PressTuning(debounce_ms=10, long_press_ms=500, stuck_ms=2000)


def kinds(events: list[ButtonEvent]) -> list[tuple[str, int]]:
    return [(e.kind, e.seq) for e in events]


def test_press_detector_clean_press_and_release() -> None:
    d = PressDetector(TUNING, start=0.0)
    assert d.edge(1.0, True) == []  # not yet stable
    (press,) = d.poll(1.01)
    assert (press.kind, press.seq, press.t) == ("press", 1, 1.0)
    assert kinds(d.edge(1.2, False)) == []
    (release,) = d.poll(1.3)
    assert release.kind == "release" and round(release.held, 6) == 0.2


def test_press_detector_a_microsecond_spike_is_never_a_press() -> None:
    d = PressDetector(TUNING, start=0.0)
    events = d.edge(1.0, True) + d.edge(1.000001, False) + d.poll(5.0)
    assert events == [] and not d.pressed


def test_press_detector_a_spike_while_held_is_not_a_release() -> None:
    d = PressDetector(TUNING, start=0.0)
    events = d.edge(1.0, True) + d.poll(1.1)
    events += d.edge(1.2, False) + d.edge(1.200001, True) + d.poll(1.3)
    assert kinds(events) == [("press", 1)]


def test_press_detector_waits_out_bounce_and_stamps_the_settled_level() -> None:
    d = PressDetector(TUNING, start=0.0)
    events = []
    for i, level in enumerate([True, False, True, False, True]):
        events += d.edge(1.0 + i * 0.001, level)
    assert events == [] and d.next_deadline() == 1.004 + 0.010
    (press,) = d.poll(1.02)
    assert press.t == 1.004
    events = d.edge(1.1, False) + d.edge(1.1005, True) + d.edge(1.101, False) + d.poll(2.0)
    assert kinds(events) == [("release", 1)]


def test_press_detector_late_edges_decide_on_their_stamps() -> None:
    # A spike whose second edge is still on its way: the pin already reads released again, so
    # the clock passing the settle time must not make it a press.
    d = PressDetector(TUNING, start=0.0)
    d.edge(1.0, True)
    assert d.poll(1.08, level=False) == []
    assert d.edge(1.000001, False) == [] and d.poll(1.1, level=False) == []
    # A real press delivered 80 ms late, both edges together: stamped as it happened.
    events = d.edge(2.0, True) + d.edge(2.15, False) + d.poll(2.23, level=False)
    assert [(e.kind, round(e.t, 3)) for e in events] == [("press", 2.0), ("release", 2.15)]


def test_press_detector_long_press_and_stuck_each_once() -> None:
    d = PressDetector(TUNING, start=0.0)
    d.edge(1.0, True)
    assert kinds(d.poll(1.4)) == [("press", 1)]
    assert kinds(d.poll(1.6)) == [("long_press", 1)]
    assert kinds(d.poll(2.9)) == []
    (stuck,) = d.poll(3.1)
    assert (stuck.kind, stuck.t, stuck.held) == ("stuck", 3.0, 2.0)
    assert d.poll(60.0) == []
    assert kinds(d.edge(61.0, False) + d.poll(61.1)) == [("release", 1)]


def test_press_detector_button_held_at_start_is_not_a_press() -> None:
    d = PressDetector(TUNING, start=0.0, pressed=True)
    assert d.poll(1.0) == []
    assert kinds(d.poll(2.5)) == [("stuck", 0)]
    assert kinds(d.edge(3.0, False) + d.poll(3.1)) == [("release", 0)]
    assert kinds(d.edge(4.0, True) + d.poll(4.1)) == [("press", 1)]


def test_press_detector_without_settle_takes_a_boards_events_as_they_come() -> None:
    d = PressDetector(TUNING, start=0.0, settle=0.0)
    events = d.edge(1.0, True) + d.edge(1.0, False) + d.poll(1.0)
    assert kinds(events) == [("press", 1), ("release", 1)]


def test_press_detector_straggling_spike_edges_around_a_real_press_give_one_press() -> None:
    # A spike's first edge arrives; its second is still on its way when a real press begins,
    # so the pin reads pressed and the clock settles a press. Then the stragglers arrive: the
    # spike's release and the real press's edge. They happened before that decision: one press.
    d = PressDetector(TUNING, start=0.0)
    d.edge(1.0, True)
    (press,) = d.poll(1.05, level=True)
    assert press.t == 1.0
    assert d.edge(1.000001, False) + d.edge(1.03, True) + d.poll(1.1, level=True) == []
    events = d.edge(1.3, False) + d.poll(1.4, level=False)
    assert [e.kind for e in events] == ["release"]


def test_press_detector_a_whole_press_straggling_in_after_a_decision_still_counts() -> None:
    # The clock settled the release late (the input thread was starved); meanwhile a whole
    # press happened, and its edges arrive only now. It was a real press.
    d = PressDetector(TUNING, start=0.0, pressed=True)
    d.edge(1.0, False)
    (release,) = d.poll(1.3, level=False)
    assert release.t == 1.0
    events = d.edge(1.1, True) + d.edge(1.2, False) + d.poll(1.4, level=False)
    assert [(e.kind, e.t) for e in events] == [("press", 1.1), ("release", 1.2)]
