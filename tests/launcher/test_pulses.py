"""Counting cards from beam edges (pure): the pulse-width window, dropouts, jams."""

from __future__ import annotations

from controller.launcher.pulses import PulseCounter, PulseWindow

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
