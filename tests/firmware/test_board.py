"""The board's program under CPython: commands, idempotence, the run, safety stops."""

from __future__ import annotations

import pytest
import uno_proto

from .conftest import Rig
from .feeder import Feeder


def test_board_boots_with_motor_lines_low_and_driver_asleep(rig: Rig) -> None:
    for role in ("forward", "backward", "enable"):
        assert rig.motor_line(role) == 0, role
    assert rig.machine.pins[rig.pins["enable"]].history[0] == 0  # driven low before anything
    rig.board.boot()
    (boot,) = rig.events("BOOT")
    assert boot["reason"] == "power" and boot["proto"] == "1"


def test_board_hello_wakes_the_driver_and_reports_versions(rig: Rig) -> None:
    _n, word, args = rig.send("HELLO", "proto=1", "min=1")
    given = uno_proto.fields(args)
    assert word == "ACK" and given["proto"] == "1" and given["fw"] and given["reset"] == "power"
    assert rig.motor_line("enable") == 1


@pytest.mark.parametrize(
    ("host", "answer"),
    [(("proto=1", "min=1"), "ACK"), (("proto=2", "min=1"), "ACK"), (("proto=3", "min=2"), "NAK")],
)
def test_board_version_negotiation(rig: Rig, host: tuple[str, str], answer: str) -> None:
    _n, word, args = rig.send("HELLO", *host)
    assert word == answer
    if word == "NAK":
        assert args[0] == "version" and rig.motor_line("enable") == 0


def test_board_eject_counts_cards_then_retracts(rig: Rig) -> None:
    rig.hello()
    feeder = Feeder(rig)
    assert rig.send("EJECT", "job=7", "n=3", "deadline=5000")[1] == "ACK"
    backward_seen = []
    rig.run(1500, each=lambda: (feeder.tick(), backward_seen.append(rig.motor_line("backward"))))
    (done,) = rig.events("DONE")
    assert (done["ejected"], done["reason"], done["job"]) == ("3", "count", "7")
    assert [e["n"] for e in rig.events("CARD")] == ["1", "2", "3"]
    assert feeder.out == 3
    assert max(backward_seen) > 0  # the retract pulse
    assert rig.motor_line("forward") == 0 and rig.motor_line("backward") == 0


def test_board_soft_start_ramps_up(rig: Rig) -> None:
    rig.hello()
    rig.send("EJECT", "job=1", "n=1", "speed=800", "deadline=5000")
    duties = []
    rig.run(200, each=lambda: duties.append(rig.motor_line("forward")))
    rising = [d for d in duties[:150] if d > 0]
    assert rising[0] == pytest.approx(0.4, abs=0.01) and max(rising) == pytest.approx(0.8, abs=0.01)
    assert rising == sorted(rising)


def test_board_retransmitted_eject_runs_once(rig: Rig) -> None:
    rig.hello()
    first = rig.send("EJECT", "job=9", "n=2", "deadline=5000", seq=500)
    again = rig.send("EJECT", "job=9", "n=2", "deadline=5000", seq=500)
    assert first == again
    _n, word, args = rig.send("EJECT", "job=9", "n=2", "deadline=5000")  # new seq, same job
    assert word == "ACK" and "dup=1" in args
    feeder = Feeder(rig)
    rig.run(1500, each=feeder.tick)
    assert len(rig.events("DONE")) == 1 and feeder.out == 2


def test_board_refuses_eject_without_session_with_lid_open_and_while_busy(rig: Rig) -> None:
    assert rig.send("EJECT", "job=1", "n=1", "deadline=5000")[2][0] == "session"
    rig.hello()
    rig.pin[rig.pins["lid"]].drive(1)  # lid open
    rig.run(5)
    assert rig.send("EJECT", "job=2", "n=1", "deadline=5000")[2][0] == "lid"
    rig.pin[rig.pins["lid"]].drive(0)
    rig.run(60)
    assert rig.send("EJECT", "job=3", "n=5", "deadline=5000")[1] == "ACK"
    assert rig.send("EJECT", "job=4", "n=1", "deadline=5000")[2][0] == "busy"


def test_board_empty_hopper_stops_with_empty(rig: Rig) -> None:
    rig.hello()
    rig.send("EJECT", "job=1", "n=2", "deadline=8000")
    rig.run(2000)
    (done,) = rig.events("DONE")
    assert (done["ejected"], done["reason"], done["detail"]) == ("0", "empty", "no-first-card")
    assert rig.motor_line("forward") == 0


def test_board_jam_stops_with_jam(rig: Rig) -> None:
    rig.hello()
    feeder = Feeder(rig, jam_at=2)
    rig.send("EJECT", "job=1", "n=4", "deadline=8000")
    rig.run(1500, each=feeder.tick)
    (done,) = rig.events("DONE")
    assert (done["ejected"], done["reason"]) == ("1", "jam")
    assert rig.motor_line("forward") == 0 and rig.motor_line("backward") == 0  # no retract


def test_board_deadline_stops_with_timeout(rig: Rig) -> None:
    rig.hello()
    feeder = Feeder(rig, gap_ms=300)
    rig.send("EJECT", "job=1", "n=5", "deadline=700")
    rig.run(1500, each=feeder.tick)
    (done,) = rig.events("DONE")
    assert done["reason"] == "timeout" and int(done["ejected"]) < 5


def test_board_host_silence_stops_the_motor(rig: Rig) -> None:
    rig.hello()
    feeder = Feeder(rig, gap_ms=400, pulse_ms=30)
    rig.send("EJECT", "job=1", "n=20", "deadline=20000")
    rig.run(2900, each=feeder.tick)
    assert rig.motor_line("forward") > 0 and not rig.events("DONE")
    rig.run(200, each=feeder.tick)
    (done,) = rig.events("DONE")
    assert (done["reason"], done["detail"]) == ("stopped", "host-silent")
    assert rig.events("FAULT")[0]["kind"] == "host-silent"
    assert rig.motor_line("forward") == 0 and rig.motor_line("enable") == 0
    rig.send("PING")  # the host is back: the driver wakes
    assert rig.motor_line("enable") == 1


def test_board_heartbeat_keeps_a_long_run_going(rig: Rig) -> None:
    rig.hello()
    feeder = Feeder(rig, gap_ms=400)
    rig.send("EJECT", "job=1", "n=8", "deadline=20000")
    for _ in range(8):
        rig.run(500, each=feeder.tick)
        rig.send("PING")
    assert not rig.events("FAULT")
    assert rig.events("DONE")[0]["reason"] == "count"


def test_board_feeds_the_watchdog_every_step(rig: Rig) -> None:
    rig.run(50)
    assert rig.wdt.fed == 50


def test_board_error_in_a_command_stops_the_motor(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig.hello()
    rig.send("EJECT", "job=1", "n=5", "deadline=5000")
    rig.run(200)
    assert rig.motor_line("forward") > 0

    def broken(*_args: object) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(rig.hw.lights, "show", broken)
    _n, word, args = rig.send("SHOW", "colour=red")
    assert (word, args[0]) == ("NAK", "error")
    assert rig.motor_line("forward") == 0 and rig.motor_line("enable") == 0
    assert rig.events("FAULT")[-1]["kind"] == "error"
    assert rig.events("DONE")[-1]["detail"] == "error"
    assert rig.send("EJECT", "job=2", "n=1", "deadline=5000")[2][0] == "session"


def test_board_fail_makes_every_line_safe(rig: Rig) -> None:
    rig.hello()
    rig.send("SHOW", "colour=green", "tension=500")
    rig.send("EJECT", "job=1", "n=5", "deadline=5000")
    rig.run(50)
    rig.board.fail(MemoryError())
    for role in ("forward", "backward", "enable", "green", "button_led"):
        assert rig.motor_line(role) == 0, role


def test_board_lid_opening_stops_a_run(rig: Rig) -> None:
    rig.hello()
    rig.send("EJECT", "job=1", "n=5", "deadline=5000")
    rig.run(100)
    rig.pin[rig.pins["lid"]].drive(1)
    rig.run(5)
    assert rig.events("DONE")[0]["detail"] == "lid"
    assert rig.events("LID")[0]["open"] == "1"
    assert rig.motor_line("forward") == 0


def test_board_button_debounce_in_the_interrupt(rig: Rig) -> None:
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


def test_board_stop_ends_a_run_without_retract(rig: Rig) -> None:
    rig.hello()
    rig.send("EJECT", "job=1", "n=5", "deadline=5000")
    rig.run(100)
    rig.send("STOP")
    (done,) = rig.events("DONE")
    assert done["reason"] == "stopped" and rig.motor_line("forward") == 0
    assert rig.motor_line("backward") == 0


def test_board_status_reports_the_last_run_and_persists_progress(rig: Rig) -> None:
    rig.hello()
    feeder = Feeder(rig)
    rig.send("EJECT", "job=42", "n=2", "deadline=5000")
    rig.run(1000, each=feeder.tick)
    given = uno_proto.fields(rig.send("STATUS")[2])
    assert (given["job"], given["ejected"], given["reason"]) == ("42", "2", "count")
    assert rig.saved == (42, 2, 2, "count")


def test_board_after_a_reset_reports_the_interrupted_run() -> None:
    rig = Rig(recall=lambda: (42, 5, 2, "reset"))
    rig.hello()
    given = uno_proto.fields(rig.send("STATUS")[2])
    assert (given["job"], given["ejected"], given["reason"]) == ("42", "2", "reset")
    _n, word, args = rig.send("EJECT", "job=42", "n=5", "deadline=5000")
    assert word == "ACK" and "dup=1" in args  # the interrupted job is never started again


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("min_pulse_us=5000",), None),
        (("min_pulse_us=500000", "max_pulse_us=400000"), "args"),
        (("nonsense=1",), "args"),
        (("speed=2000",), "args"),
        (("speed=fast",), "args"),
    ],
)
def test_board_tune(rig: Rig, args: tuple[str, ...], code: str | None) -> None:
    _n, word, reply = rig.send("TUNE", *args)
    assert (word == "ACK") == (code is None)
    if code:
        assert reply[0] == code and rig.board.tuning.min_pulse_us == 4000  # nothing applied


def test_board_answers_damaged_and_unknown_frames(rig: Rig) -> None:
    rig.board.receive(b"5 PING*00000000\n")
    assert rig.frames()[-1][:3] == (0, "NAK", ["crc"])
    _n, word, args = rig.send("LAUNCH")
    assert (word, args[0]) == ("NAK", "unknown")
