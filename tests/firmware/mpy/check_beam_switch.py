"""The beam counter and the switches in their interrupts, heap locked: spikes are not cards nor
presses, bounces count once, and a level counts only once it has been stable."""

from fakes import FakeMachine, FakeTime
from rig import Rig
from uno_beam import Beam
from uno_switch import Switch

WINDOW_US = (4000, 400_000, 10_000)


def make_beam():
    machine = FakeMachine()
    clock = FakeTime()
    pin = machine.Pin(7, machine.Pin.IN, machine.Pin.PULL_UP)
    beam = Beam(pin, clock, machine.disable_irq, machine.enable_irq, 0)
    beam.set_window(*WINDOW_US)
    pin.irq(beam.irq, 0, True)
    return beam, clock, pin


def play(beam, clock, pin, spells_us):
    """Alternate blocked/clear spells (blocked first), then clear for long enough."""
    for index, spell in enumerate(spells_us):
        pin.drive(0 if index % 2 == 0 else 1)
        clock.advance(us=spell)
    pin.drive(1)
    clock.advance(us=50_000)
    beam.poll(clock.ticks_us())


def test_beam_counts_complete_pulses_in_the_window():
    beam, clock, pin = make_beam()
    beam.arm(clock.ticks_us())
    play(beam, clock, pin, [30_000, 40_000, 25_000, 40_000])
    assert beam.count == 2


def test_beam_spikes_are_noise_and_dropouts_merge():
    beam, clock, pin = make_beam()
    beam.arm(clock.ticks_us())
    # a 1 us blocked spike (motor noise), then one card with a 1 us clear spike inside it
    play(beam, clock, pin, [1, 40_000, 12_000, 1, 12_000, 40_000])
    count, noise, *_ = beam.snapshot()
    assert (count, noise) == (1, 1)


def test_beam_many_spikes_while_the_motor_runs_count_nothing():
    beam, clock, pin = make_beam()
    beam.arm(clock.ticks_us())
    for spike in range(1000):
        pin.drive(0)
        clock.advance(us=1)
        pin.drive(1)
        clock.advance(us=1000 if spike % 2 else 20_000)  # close ones merge as dropouts
        beam.poll(clock.ticks_us())
    clock.advance(us=50_000)
    beam.poll(clock.ticks_us())
    count, noise, *_ = beam.snapshot()
    assert count == 0 and 500 <= noise <= 501, (count, noise)


def test_beam_interrupt_stops_the_motor_at_the_limit_with_the_heap_locked():
    rig = Rig()
    rig.hello()
    rig.send("EJECT", "job=5", "n=1", "deadline=5000")
    rig.run(200)
    assert rig.line("forward") > 0
    beam = rig.pin[rig.pins["beam"]]
    beam.drive(0)
    rig.time.advance(ms=30)
    beam.drive(1)
    rig.time.advance(ms=20)
    beam.drive(0)  # the next card: the interrupt confirms the first and brakes the motor
    assert rig.line("forward") in (0, 1) and rig.line("backward") in (0, 1)
    assert rig.hw.motor.speed == 0


def test_beam_overlong_pulse_is_a_jam():
    beam, clock, pin = make_beam()
    beam.arm(clock.ticks_us())
    pin.drive(0)
    clock.advance(us=500_000)
    assert beam.jammed(clock.ticks_us())
    assert beam.count == 0


def test_beam_counts_nothing_while_disarmed():
    beam, clock, pin = make_beam()
    play(beam, clock, pin, [30_000, 30_000, 30_000, 30_000])
    assert beam.count == 0


def make_switch(debounce_ms=5):
    machine = FakeMachine()
    clock = FakeTime()
    pin = machine.Pin(6, machine.Pin.IN, machine.Pin.PULL_UP)
    switch = Switch(pin, clock, machine.disable_irq, machine.enable_irq, 0, debounce_ms)
    pin.irq(switch.irq, 0, True)
    return switch, clock, pin


def settle(switch, clock, ms):
    for _ in range(ms):
        clock.advance(us=1000)
        switch.poll(clock.ticks_ms())


def test_switch_a_one_microsecond_spike_is_not_a_press():
    switch, clock, pin = make_switch()
    for _ in range(10_000):
        pin.drive(0)
        clock.advance(us=1)
        pin.drive(1)
        clock.advance(us=99)
        if clock.us % 1000 < 100:
            switch.poll(clock.ticks_ms())
    settle(switch, clock, 20)
    assert switch.presses == 0 and not switch.take()


def test_switch_a_spike_seen_only_by_the_main_loop_is_not_a_press():
    switch, clock, pin = make_switch()
    pin.level = 0  # the interrupt was missed; the main loop reads the spike
    switch.poll(clock.ticks_ms())
    pin.level = 1
    settle(switch, clock, 20)
    assert switch.presses == 0


def test_switch_a_bouncing_press_counts_once_when_stable():
    switch, clock, pin = make_switch()
    for level in (0, 1, 0, 1, 0):
        pin.drive(level)
        clock.advance(us=300)
    settled_at = clock.ticks_ms()
    switch.poll(clock.ticks_ms())
    assert switch.presses == 0  # not yet stable for 5 ms
    settle(switch, clock, 10)
    assert switch.presses == 1
    for level in (1, 0, 1):
        pin.drive(level)
        clock.advance(us=300)
    settle(switch, clock, 10)
    changes = switch.take()
    assert [(c[0], c[2]) for c in changes] == [(True, 1), (False, 1)]
    assert clock.ticks_diff(changes[0][1], settled_at) <= 1  # dated when it became stable


def test_board_button_press_and_release_events():
    rig = Rig()
    button = rig.pin[rig.pins["button"]]
    for level in (0, 1, 0, 1, 0):  # a bouncing press: one press
        button.drive(level)
        rig.time.advance(us=300)
    rig.run(100)
    for level in (1, 0, 1):  # a bouncing release
        button.drive(level)
        rig.time.advance(us=300)
    rig.run(100)
    presses = [(e["down"], e["n"]) for e in rig.events("BUTTON")]
    assert presses == [("1", "1"), ("0", "1")]


def test_board_spikes_on_button_and_lid_during_a_run_change_nothing():
    rig = Rig()
    rig.hello()
    rig.send("EJECT", "job=3", "n=50", "deadline=9000")
    button, lid = rig.pin[rig.pins["button"]], rig.pin[rig.pins["lid"]]
    for _ in range(500):
        button.drive(0)
        lid.drive(1)
        rig.time.advance(us=1)
        button.drive(1)
        lid.drive(0)
        rig.run(1)
    assert not rig.events("BUTTON") and not rig.events("LID") and not rig.events("DONE")
    assert rig.line("forward") > 0


def test_switch_a_release_and_press_between_two_polls_both_count():
    switch, clock, pin = make_switch()
    pin.drive(0)
    settle(switch, clock, 10)
    pin.drive(1)  # released for 30 ms, and the main loop never looked (a busy loop)
    clock.advance(us=30_000)
    pin.drive(0)
    settle(switch, clock, 10)
    assert [(c[0], c[2]) for c in switch.take()] == [(True, 1), (False, 1), (True, 2)]
