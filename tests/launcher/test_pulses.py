"""Counting cards from beam edges (pure): the pulse-width window, dropouts, jams in wheel
travel, the single-card reference."""

from __future__ import annotations

from dataclasses import replace

import pytest

from controller.launcher.pulses import CardReference, PulseCounter, PulseWindow

WINDOW = PulseWindow(min_pulse=0.004, max_pulse=0.4, min_gap=0.002)


def feed(counter: PulseCounter, edges: list[tuple[float, bool]], end: float) -> PulseCounter:
    for t, blocked in edges:
        counter.edge(t, blocked)
    counter.poll(end)
    return counter


def test_pulse_counter_counts_complete_pulses_in_the_window() -> None:
    c = feed(PulseCounter(WINDOW, 0.0), [(0.1, True), (0.15, False), (0.3, True), (0.36, False)], 1)
    assert (c.count, c.noise, c.last_card) == (2, 0, 0.36)
    assert [round(w, 3) for w in c.widths] == [0.05, 0.06]


def test_pulse_counter_ignores_short_noise() -> None:
    c = feed(PulseCounter(WINDOW, 0.0), [(0.1, True), (0.1001, False)], 1.0)
    assert (c.count, c.noise, c.activity) == (0, 1, 1)


def test_pulse_counter_merges_a_dropout_inside_a_card() -> None:
    edges = [(0.1, True), (0.12, False), (0.1205, True), (0.15, False)]
    c = feed(PulseCounter(WINDOW, 0.0), edges, 1.0)
    assert c.count == 1 and abs(c.widths[0] - 0.0495) < 1e-9


def test_pulse_counter_waits_min_gap_before_counting() -> None:
    c = PulseCounter(WINDOW, 0.0)
    c.edge(0.1, True)
    c.edge(0.15, False)
    c.poll(0.1505)
    assert c.count == 0 and c.next_change() == 0.15 + 0.002
    c.poll(0.153)
    assert c.count == 1


def test_pulse_counter_jam_while_blocked_and_overlong() -> None:
    c = PulseCounter(WINDOW, 0.0)
    c.edge(0.1, True)
    assert not c.jammed(0.45) and c.jammed(0.51)
    c.edge(0.6, False)
    c.poll(1.0)
    assert c.count == 0 and c.jammed(1.0)


def test_pulse_counter_card_already_in_the_throat() -> None:
    c = PulseCounter(WINDOW, 5.0, blocked=True)
    assert not c.idle
    c.edge(5.05, False)
    c.poll(5.1)
    assert c.count == 1


def test_pulse_counter_ignores_redundant_edges() -> None:
    edges = [(0.1, True), (0.11, True), (0.15, False), (0.16, False)]
    assert feed(PulseCounter(WINDOW, 0.0), edges, 1.0).count == 1


def test_pulse_counter_a_burst_of_merged_spikes_is_still_noise() -> None:
    edges = []
    for i in range(20):  # spikes of 10 µs every 1 ms: each gap is shorter than min_gap
        t = 0.1 + i * 0.001
        edges += [(t, True), (t + 0.00001, False)]
    c = feed(PulseCounter(WINDOW, 0.0), edges, 1.0)
    assert (c.count, c.noise) == (0, 1)


def test_pulse_counter_a_late_dropout_edge_reopens_the_card() -> None:
    # The dropout's clear edge came, the clock passed min_gap with the beam reading clear (the
    # card had left by then), and only then did the re-block edge arrive: still one card.
    c = PulseCounter(WINDOW, 0.0)
    c.edge(0.1, True)
    c.edge(0.12, False)
    c.poll(0.3, blocked_now=False)
    assert c.count == 1
    c.edge(0.1205, True)
    c.edge(0.15, False)
    c.poll(0.4, blocked_now=False)
    assert c.count == 1 and abs(c.widths[0] - 0.0495) < 1e-9


def test_pulse_counter_does_not_close_while_the_beam_reads_blocked() -> None:
    c = PulseCounter(WINDOW, 0.0)
    c.edge(0.1, True)
    c.edge(0.12, False)
    c.poll(0.3, blocked_now=True)  # the next edge is on its way
    assert c.count == 0
    assert not c.jammed(0.9, blocked_now=False), "the clear edge on its way has the last word"


def test_pulse_counter_edges_stamped_before_the_run_are_ignored() -> None:
    c = PulseCounter(WINDOW, 5.0)
    c.edge(4.9, True)
    c.edge(5.05, False)
    c.poll(5.2)
    assert (c.count, c.activity) == (0, 0)


def test_pulse_counter_measures_doubles_in_wheel_travel() -> None:
    window = PulseWindow(min_pulse=0.004, max_pulse=2.0, min_gap=0.002, card=0.2)

    def half_speed_after_one_second(t0: float, t1: float) -> float:
        full = max(0.0, min(t1, 1.0) - t0)
        return full + 0.5 * max(0.0, t1 - max(t0, 1.0))

    c = PulseCounter(window, 0.0, pace=half_speed_after_one_second)
    c.edge(0.1, True)
    c.edge(0.3, False)  # one card at full speed
    c.edge(0.5, True)
    c.edge(0.85, False)  # 1.75 cards: two shingled
    c.edge(1.2, True)
    c.edge(1.6, False)  # one card at half speed: twice as long, still one
    c.edge(1.8, True)
    c.edge(2.9, False)  # 2.75 cards at half speed: three
    c.poll(3.0)
    assert (c.count, c.doubles) == (1 + 2 + 1 + 3, 2)


def test_pulse_counter_judges_a_jam_in_time_and_wheel_travel() -> None:
    window = PulseWindow(min_pulse=0.004, max_pulse=0.4, min_gap=0.002, max_travel=0.2)

    def held_after_one_second(t0: float, t1: float) -> float:
        """Half speed until t = 1, then the motor holds still."""
        return 0.5 * max(0.0, min(t1, 1.0) - t0)

    c = PulseCounter(window, 0.0, pace=held_after_one_second)
    c.edge(0.5, True)
    assert not c.jammed(0.85)  # 0.175 of travel in 0.35 s
    assert c.jammed(0.95)  # 0.225 of travel in 0.45 s: too long, and too far
    quick = PulseCounter(replace(window, max_travel=0.1), 0.0, pace=held_after_one_second)
    quick.edge(0.5, True)
    assert not quick.jammed(0.85), "far enough, not long enough (a late clear edge may come)"
    still = PulseCounter(window, 0.0, pace=held_after_one_second)
    still.edge(1.0, True)  # a card in the beam while the motor holds still
    assert not still.jammed(60.0)


def test_pulse_counter_finish_at_the_end_of_forward_motion() -> None:
    c = PulseCounter(WINDOW, 0.0)
    c.edge(0.1, True)
    c.edge(0.15, False)
    c.finish_at(0.151)  # the wheel stopped: no re-block can follow, the card is out
    assert c.count == 1
    c.edge(0.3, True)
    c.finish_at(0.4)  # still blocked when the wheel stopped: no card
    assert (c.count, c.idle) == (1, False)
    c.abandon()  # the retract pulled it back
    assert c.idle and c.count == 1


def test_card_reference_follows_the_recent_single_cards() -> None:
    window = PulseWindow(min_pulse=0.004, max_pulse=2.0, min_gap=0.002, card=0.2)
    reference = CardReference(0.2)
    c = PulseCounter(window, 0.0, reference=reference)
    t = 0.0
    for _ in range(5):  # the wheel runs 10 % faster than calibrated: singles measure 0.9
        c.edge(t + 0.1, True)
        c.edge(t + 0.28, False)
        t += 0.5
    c.poll(t)
    assert c.count == 5 and reference.card == pytest.approx(0.18)
    c.edge(t + 0.1, True)
    c.edge(t + 0.1 + 0.18 * 1.6, False)  # a double trailing by 0.6: 1.44 calibrated cards
    c.poll(t + 1.0)
    assert (c.count, c.doubles) == (7, 1)
    for _ in range(20):
        reference.observe(0.01, 1)  # however far the singles drift, it stays near calibrated
    assert reference.card == pytest.approx(0.2 / 1.35)
