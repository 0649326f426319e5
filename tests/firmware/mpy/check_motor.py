"""The motor driver: brake, duty cap, PWM frequencies refused, lines low after every path."""

from fakes import FakeMachine
from rig import PINS
from uno_hw import Hardware
from uno_motor import Motor, check_pwm_hz


def expect_value_error(function, *args):
    try:
        function(*args)
    except ValueError as error:
        return str(error)
    raise AssertionError("no ValueError from %s%s" % (function, args))


def hbridge():
    machine = FakeMachine()
    a = machine.PWM(machine.Pin(14, 1, value=0))
    b = machine.PWM(machine.Pin(15, 1, value=0))
    enable = machine.Pin(13, 1, value=0)
    return Motor("hbridge", a, b, enable=enable), a, b


def test_pwm_frequencies_the_driver_cannot_do_are_refused():
    for hz in (0, 50, 200_000, 1_000_000, "fast", 20000.5):
        assert "pwm_hz" in expect_value_error(check_pwm_hz, hz)
    assert check_pwm_hz(20000) == 20000
    pins = dict(PINS)
    pins["pwm_hz"] = 500_000
    machine = FakeMachine()
    expect_value_error(Hardware, machine, pins, None)
    assert not machine.pwms  # refused before any line became a PWM


def test_brake_shorts_the_bridge_and_off_releases_it():
    motor, a, b = hbridge()
    motor.enable()
    motor.forward(800)
    motor.brake()
    assert (a.duty_u16(), b.duty_u16(), motor.speed, motor.braking) == (65535, 65535, 0, True)
    motor.backward(600)
    assert a.duty_u16() == 0 and b.duty_u16() > 0 and not motor.braking
    motor.off()
    assert (a.duty_u16(), b.duty_u16()) == (0, 0)


def test_a_sleeping_driver_neither_runs_nor_brakes():
    motor, a, b = hbridge()
    motor.forward(800)
    motor.brake()
    assert (a.duty_u16(), b.duty_u16()) == (0, 0)


def test_the_duty_cap_holds_both_ways():
    motor, a, _b = hbridge()
    motor.enable()
    motor.max_duty = 500
    motor.forward(1000)
    assert motor.speed == 500 and a.duty_u16() == 32767
    motor.backward(900)
    assert motor.speed == -500
