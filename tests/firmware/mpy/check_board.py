"""The board's program on MicroPython: commands, idempotence, the run, safety stops, host
silence, the watchdog, and counting across a reset."""

import random

import uno_app
import uno_proto
from rig import Feeder, Rig


def approx(a, b, tolerance=0.01):
    return abs(a - b) <= tolerance


def test_boots_with_motor_lines_low_and_driver_asleep():
    rig = Rig()
    for role in ("forward", "backward", "enable"):
        assert rig.line(role) == 0, role
    assert rig.history("enable")[0] == 0  # driven low before anything
    rig.board.boot()
    (boot,) = rig.events("BOOT")
    assert boot["reason"] == "power" and boot["proto"] == "1"


def test_hello_wakes_the_driver_and_reports_versions():
    rig = Rig()
    given = rig.ok("HELLO", "proto=1", "min=1")
    assert given["proto"] == "1" and given["fw"] and given["reset"] == "power"
    assert rig.line("enable") == 1


def test_version_negotiation():
    for host, answer in (
        (("proto=1", "min=1"), "ACK"),
        (("proto=2", "min=1"), "ACK"),
        (("proto=3", "min=2"), "NAK"),
    ):
        rig = Rig()
        _n, word, args = rig.send("HELLO", *host)
        assert word == answer, host
        if word == "NAK":
            assert args[0] == "version" and rig.line("enable") == 0


def test_eject_counts_cards_then_brakes_and_retracts():
    rig = Rig()
    rig.hello()
    feeder = Feeder(rig)
    rig.ok("EJECT", "job=7", "n=3", "deadline=5000")
    rig.run(1500, each=feeder.tick)
    (done,) = rig.events("DONE")
    assert (done["ejected"], done["reason"], done["job"]) == ("3", "count", "7")
    assert [e["n"] for e in rig.events("CARD")] == ["1", "2", "3"]
    assert feeder.out == 3
    assert max(rig.history("backward")) > 0  # the retract pulse
    assert rig.line("forward") == 0 and rig.line("backward") == 0


def motor_states(rig, feeder, ms):
    """Run `ms` with cards; the distinct (forward, backward) duties the motor went through."""
    states = []

    def watch():
        feeder.tick()
        state = (rig.line("forward"), rig.line("backward"))
        if not states or states[-1] != state:
            states.append(state)

    rig.run(ms, each=watch)
    return states


def test_brake_comes_between_forward_and_reverse():
    rig = Rig()
    rig.hello()
    feeder = Feeder(rig)
    rig.send("EJECT", "job=8", "n=1", "deadline=5000")
    states = motor_states(rig, feeder, 800)
    reverse = states.index((0.0, 0.6))
    assert states[reverse - 1] == (1.0, 1.0), states  # braked, then reversed
    assert states[-1] == (0.0, 0.0)


def test_soft_start_ramps_up_and_the_duty_cap_holds():
    rig = Rig()
    rig.hello()
    rig.ok("TUNE", "max_duty=700")
    rig.send("EJECT", "job=1", "n=1", "speed=800", "deadline=5000")
    duties = []
    rig.run(200, each=lambda: duties.append(rig.line("forward")))
    rising = [d for d in duties[:150] if 0 < d < 1]
    assert approx(rising[0], 0.4) and approx(max(rising), 0.7), rising
    assert rising == sorted(rising)


def test_retransmitted_eject_runs_once():
    rig = Rig()
    rig.hello()
    first = rig.send("EJECT", "job=9", "n=2", "deadline=5000", seq=500)
    again = rig.send("EJECT", "job=9", "n=2", "deadline=5000", seq=500)
    assert first == again
    _n, word, args = rig.send("EJECT", "job=9", "n=2", "deadline=5000")  # new seq, same job
    assert word == "ACK" and "dup=1" in args
    feeder = Feeder(rig)
    rig.run(1500, each=feeder.tick)
    assert len(rig.events("DONE")) == 1 and feeder.out == 2


def test_each_job_keeps_its_count():
    rig = Rig()
    rig.hello()
    feeder = Feeder(rig)
    for job, cards in ((11, 2), (12, 1), (13, 3)):
        rig.ok("EJECT", "job=%d" % job, "n=%d" % cards, "deadline=5000")
        rig.run(1500, each=feeder.tick)
    for job, cards in ((11, 2), (12, 1), (13, 3)):
        given = rig.ok("STATUS", "job=%d" % job)
        assert (given["job"], given["ejected"], given["reason"]) == (str(job), str(cards), "count")
    assert rig.ok("STATUS", "job=99")["reason"] == "unknown"
    _n, word, args = rig.send("EJECT", "job=11", "n=2", "deadline=5000")  # an old job
    assert word == "ACK" and "dup=1" in args and feeder.out == 6


def test_refuses_eject_without_session_with_lid_open_and_while_busy():
    rig = Rig()
    assert rig.send("EJECT", "job=1", "n=1", "deadline=5000")[2][0] == "session"
    rig.hello()
    rig.pin[rig.pins["lid"]].drive(1)  # lid open
    rig.run(30)
    assert rig.send("EJECT", "job=2", "n=1", "deadline=5000")[2][0] == "lid"
    rig.pin[rig.pins["lid"]].drive(0)
    rig.run(60)
    rig.ok("EJECT", "job=3", "n=5", "deadline=5000")
    assert rig.send("EJECT", "job=4", "n=1", "deadline=5000")[2][0] == "busy"


def test_empty_hopper_stops_with_empty():
    rig = Rig()
    rig.hello()
    rig.send("EJECT", "job=1", "n=2", "deadline=8000")
    rig.run(2000)
    (done,) = rig.events("DONE")
    assert (done["ejected"], done["reason"], done["detail"]) == ("0", "empty", "no-first-card")
    assert rig.line("forward") == 0


def test_jam_stops_with_jam_and_no_retract():
    rig = Rig()
    rig.hello()
    feeder = Feeder(rig, jam_at=2)
    rig.send("EJECT", "job=1", "n=4", "deadline=8000")
    states = motor_states(rig, feeder, 1500)
    (done,) = rig.events("DONE")
    assert (done["ejected"], done["reason"]) == ("1", "jam")
    assert not [s for s in states if s[0] == 0 and s[1] > 0], states  # no reverse after a jam
    assert states[-1] == (0.0, 0.0)


def test_deadline_stops_with_timeout():
    rig = Rig()
    rig.hello()
    feeder = Feeder(rig, gap_ms=300)
    rig.send("EJECT", "job=1", "n=5", "deadline=700")
    rig.run(1500, each=feeder.tick)
    (done,) = rig.events("DONE")
    assert done["reason"] == "timeout" and int(done["ejected"]) < 5


def test_host_silence_stops_the_motor():
    rig = Rig()
    rig.hello()
    feeder = Feeder(rig, gap_ms=400, pulse_ms=30)
    rig.send("EJECT", "job=1", "n=20", "deadline=20000")
    rig.run(2900, each=feeder.tick)
    assert rig.line("forward") > 0 and not rig.events("DONE")
    rig.run(200, each=feeder.tick)
    (done,) = rig.events("DONE")
    assert (done["reason"], done["detail"]) == ("stopped", "host-silent")
    assert rig.events("FAULT")[0]["kind"] == "host-silent"
    assert rig.line("forward") == 0 and rig.line("enable") == 0
    rig.send("PING")  # the host is back: the driver wakes
    assert rig.line("enable") == 1
    given = rig.ok("STATUS", "job=1")  # and the run's count is still there to ask for
    assert given["reason"] == "stopped" and given["ejected"] == str(feeder.out)


def test_heartbeat_keeps_a_long_run_going():
    rig = Rig()
    rig.hello()
    feeder = Feeder(rig, gap_ms=400)
    rig.send("EJECT", "job=1", "n=8", "deadline=20000")
    for _ in range(8):
        rig.run(500, each=feeder.tick)
        rig.send("PING")
    assert not rig.events("FAULT")
    assert rig.events("DONE")[0]["reason"] == "count"


def test_feeds_the_watchdog_every_step():
    rig = Rig()
    rig.run(50)
    assert rig.wdt.fed == 50


def test_error_in_a_command_stops_the_motor():
    rig = Rig()
    rig.hello()
    rig.send("EJECT", "job=1", "n=5", "deadline=5000")
    rig.run(200)
    assert rig.line("forward") > 0

    def broken(*_args):
        raise RuntimeError("bug")

    rig.hw.lights.show = broken
    _n, word, args = rig.send("SHOW", "colour=red")
    assert (word, args[0]) == ("NAK", "error")
    assert rig.line("forward") == 0 and rig.line("enable") == 0
    assert rig.events("FAULT")[-1]["kind"] == "error"
    assert rig.events("DONE")[-1]["detail"] == "error"
    assert rig.send("EJECT", "job=2", "n=1", "deadline=5000")[2][0] == "session"


def test_fail_makes_every_line_safe():
    rig = Rig()
    rig.hello()
    rig.send("SHOW", "colour=green", "tension=500")
    rig.send("EJECT", "job=1", "n=5", "deadline=5000")
    rig.run(50)
    rig.board.fail(MemoryError())
    for role in ("forward", "backward", "enable", "green", "button_led"):
        assert rig.line(role) == 0, role


def test_lid_opening_stops_a_run():
    rig = Rig()
    rig.hello()
    rig.send("EJECT", "job=1", "n=5", "deadline=5000")
    rig.run(100)
    rig.pin[rig.pins["lid"]].drive(1)
    rig.run(30)
    assert rig.events("DONE")[0]["detail"] == "lid"
    assert rig.events("LID")[0]["open"] == "1"
    assert rig.line("forward") == 0


def test_stop_ends_a_run_without_retract():
    rig = Rig()
    rig.hello()
    rig.send("EJECT", "job=1", "n=5", "deadline=5000")
    rig.run(100)
    rig.send("STOP")
    (done,) = rig.events("DONE")
    assert done["reason"] == "stopped" and rig.line("forward") == 0
    assert rig.line("backward") == 0


def test_status_reports_the_last_run_and_persists_progress():
    rig = Rig()
    rig.hello()
    feeder = Feeder(rig)
    rig.send("EJECT", "job=42", "n=2", "deadline=5000")
    rig.run(1000, each=feeder.tick)
    given = rig.ok("STATUS")
    assert (given["job"], given["ejected"], given["reason"]) == ("42", "2", "count")
    assert rig.saved == (42, 2, 2, "count")


def reset_mid_run(at_ms):
    """Run job 42 for `at_ms`, then 'reset': a new board on the same pins recalls the run."""
    rig = Rig()
    rig.hello()
    feeder = Feeder(rig, pulse_ms=30, gap_ms=40)
    rig.send("EJECT", "job=42", "n=8", "deadline=9000")
    rig.run(at_ms, each=feeder.tick)
    recalled = rig.recalled()
    blocked = rig.hw.beam.blocked  # the card stays where the reset left it
    after = Rig(recall=lambda: recalled, beam_blocked=blocked)
    after.hello()
    return feeder.out, after


def test_a_reset_at_any_instant_of_a_run_loses_no_card():
    # every millisecond of a card's cycle, the clear spell waiting for min_gap included
    for at in range(150, 290, 3):
        out, after = reset_mid_run(at)
        given = after.ok("STATUS", "job=42")
        assert given["reason"] == "reset", given
        assert given["ejected"] == str(out), (at, out, given)
        _n, word, args = after.send("EJECT", "job=42", "n=8", "deadline=5000")
        assert word == "ACK" and "dup=1" in args  # the interrupted job never starts again


def test_tune():
    for args, code in (
        (("min_pulse_us=5000",), None),
        (("min_pulse_us=500000", "max_pulse_us=400000"), "args"),
        (("nonsense=1",), "args"),
        (("speed=2000",), "args"),
        (("speed=fast",), "args"),
        (("max_duty=0",), "args"),
        (("brake_ms=20", "max_duty=800"), None),
    ):
        rig = Rig()
        _n, word, reply = rig.send("TUNE", *args)
        assert (word == "ACK") == (code is None), args
        if code:
            assert reply[0] == code and rig.board.tuning.min_pulse_us == 4000  # nothing applied


def test_answers_damaged_and_unknown_frames():
    rig = Rig()
    rig.board.receive(b"5 PING*00000000\n")
    assert rig.frames()[-1][:3] == (0, "NAK", ["crc"])
    _n, word, args = rig.send("LAUNCH")
    assert (word, args[0]) == ("NAK", "unknown")
    assert uno_proto.decode(rig.out[-1])[1] == "NAK"


def test_a_leaving_card_is_announced_before_it_is_confirmed():
    rig = Rig()
    rig.hello()
    feeder = Feeder(rig)
    rig.ok("EJECT", "job=6", "n=2", "deadline=5000")
    rig.run(1000, each=feeder.tick)
    said = [(w, uno_proto.fields(a).get("n"), uno_proto.fields(a).get("pending"))
            for _n, w, a in rig.frames() if w in ("EXIT", "CARD")]  # fmt: skip
    assert said == [("EXIT", "1", "1"), ("CARD", "1", None), ("EXIT", "2", "1"),
                    ("CARD", "2", None)], said  # fmt: skip


def test_a_dropout_withdraws_the_leaving_card():
    rig = Rig()
    rig.hello()
    rig.ok("EJECT", "job=6", "n=2", "deadline=5000")
    beam = rig.pin[rig.pins["beam"]]
    beam.drive(0)
    rig.run(20)
    beam.drive(1)  # clear: leaving?
    rig.run(3)
    beam.drive(0)  # no: a dropout inside the same card
    rig.run(3)
    exits = [e["pending"] for e in rig.events("EXIT")]
    assert exits == ["1", "0"] and not rig.events("CARD")


def test_a_card_that_cleared_the_beam_counts_when_the_run_stops():
    rig = Rig()
    rig.hello()
    rig.ok("EJECT", "job=4", "n=5", "deadline=5000")
    beam = rig.pin[rig.pins["beam"]]
    beam.drive(0)
    rig.run(30)
    beam.drive(1)
    rig.run(2)  # inside min_gap: not yet confirmed...
    rig.send("STOP")  # ...but it has left
    (done,) = rig.events("DONE")
    assert done["ejected"] == "1" and rig.line("forward") == 0 and rig.line("backward") == 0


def reply_to(rig, frame):
    """Feed one raw frame; the board's reply frame (raw bytes) and everything it wrote."""
    before = len(rig.out)
    rig.board.receive(frame)
    written = rig.out[before:]
    replies = [raw for raw in written if uno_proto.decode(raw)[1] in ("ACK", "NAK")]
    assert len(replies) == 1, written
    return replies[0], written


def test_a_status_too_long_for_a_frame_leaves_out_fields_and_never_faults():
    rig = Rig()
    rig.hello()
    rig.board.events = 2**30 - 1  # counters after a long, long uptime
    rig.hw.button._s[5] = 2**31 - 1  # presses
    rig.ok("EJECT", "job=%d" % 2**30, "n=200", "speed=1000", "deadline=60000")
    for _ in range(5000):  # no card: empty, brake, then the retract
        if rig.board.ejector.phase == 2:
            break
        rig.run(1)
    assert rig.board.ejector.phase == 2 and rig.line("backward") > 0
    frame = uno_proto.encode(2**30, "STATUS", ["job=%d" % 2**30])
    raw, written = reply_to(rig, frame)
    assert len(raw) <= uno_proto.MAX_LINE + 1
    _n, word, args = uno_proto.decode(raw)
    given = uno_proto.fields(args)
    assert word == "ACK" and given["cut"] == "1", given
    for key in ("job", "n", "ejected", "reason", "boot", "button", "presses", "lid", "motor"):
        assert key in given, (key, given)  # what the host acts on is kept
    assert (given["job"], given["reason"]) == (str(2**30), "running")
    assert given["presses"] == str(2**31 - 1) and "session" not in given
    assert not [w for w in written if b" FAULT " in w] and rig.board.session
    assert reply_to(rig, frame)[0] == raw  # a retransmission: the same reply, not executed
    rig.run(300)
    assert rig.events("DONE")[-1]["reason"] == "empty"
    assert rig.line("forward") == 0 and rig.line("backward") == 0


def test_an_unknown_command_as_long_as_a_frame_is_answered_not_a_fault():
    rig = Rig()
    rig.hello()
    body_room = uno_proto.MAX_LINE - 9 - len("1073741823 ")
    frame = uno_proto.encode(2**30 - 1, "Q" * body_room)  # valid, 160 bytes before the newline
    assert len(frame) == uno_proto.MAX_LINE + 1
    raw, written = reply_to(rig, frame)
    num, word, args = uno_proto.decode(raw)
    assert (num, word, args[0]) == (2**30 - 1, "NAK", "unknown")
    assert len(raw) <= uno_proto.MAX_LINE + 1 and len(written) == 1
    assert rig.board.session and rig.ok("STATUS")["session"] == "1"


def test_fit_keeps_the_nak_code_and_says_what_was_cut():
    raw = uno_app.fit(7, "NAK", ["args", "detail=" + "x" * 300])
    assert uno_proto.decode(raw) == (7, "NAK", ["args", "cut=1"])
    raw = uno_app.fit(8, "ACK", ["k%d=%d" % (i, 10**9) for i in range(30)])
    num, word, args = uno_proto.decode(raw)
    assert (num, word, args[-1]) == (8, "ACK", "cut=1") and args[0] == "k0=%d" % 10**9
    assert uno_app.fit(9, "ACK", ["a=1"]) == uno_proto.encode(9, "ACK", ["a=1"])  # as it was


def test_fuzz_long_valid_frames_never_fault_the_board():
    random.seed(4321)
    rig = Rig()
    rig.hello()
    words = ("STATUS", "PING", "SHOW", "TUNE", "STOP", "X")
    for round_ in range(300):
        word = words[round_ % len(words)]
        if word == "X":
            word = "Z" * (1 + random.getrandbits(7))
        args = []
        while True:
            key = "".join(
                "abcdefghij"[random.getrandbits(3)] for _ in range(random.getrandbits(4) + 1)
            )
            token = key + "=" + str(random.getrandbits(30))
            if (
                len(str(2**30) + " " + word + " " + " ".join(args + [token])) + 9
                > uno_proto.MAX_LINE
            ):
                break
            args.append(token)
        try:
            frame = uno_proto.encode(2**30 - round_, word, args)
        except ValueError:
            continue
        raw, written = reply_to(rig, frame)
        assert len(raw) <= uno_proto.MAX_LINE + 1
        assert not [w for w in written if b" FAULT " in w], written
        assert rig.board.session
    assert max(rig.history("forward")) == 0  # none of it moved the motor


def test_brake_ms_and_max_duty_from_tune_are_what_the_motor_does():
    rig = Rig()
    rig.hello()
    rig.ok("TUNE", "brake_ms=200", "max_duty=600", "retract_speed=900")
    feeder = Feeder(rig)
    rig.ok("EJECT", "job=3", "n=1", "speed=1000", "deadline=5000")
    seen = []  # (ms, forward, backward) at every change

    def watch():
        feeder.tick()
        state = (rig.line("forward"), rig.line("backward"))
        if not seen or seen[-1][1:] != state:
            seen.append((rig.time.ticks_ms(),) + state)

    rig.run(1000, each=watch)
    driven = [s for s in seen if s[1:] != (1.0, 1.0)]  # the brake shorts the winding: not a duty
    assert max(max(s[1], s[2]) for s in driven) <= 0.6 + 1e-9, seen  # forward and retract capped
    brake = [i for i, s in enumerate(seen) if s[1:] == (1.0, 1.0)]
    (start,) = brake
    ms = rig.time.ticks_diff(seen[start + 1][0], seen[start][0])
    assert 200 <= ms <= 202, (ms, seen)  # braked for brake_ms, then reversed
    assert seen[start + 1][1] == 0 and seen[start + 1][2] > 0
    assert seen[-1][1:] == (0.0, 0.0)


def test_tune_accepts_the_pin_profiles_whole_brake_range():
    rig = Rig()
    rig.ok("TUNE", "brake_ms=1000")
    assert rig.board.tuning.brake_ms == 1000
    assert rig.send("TUNE", "brake_ms=1001")[2][0] == "args"


def test_a_command_numbered_past_any_sequence_number_is_damaged_not_a_fault():
    rig = Rig()
    rig.hello()
    digits = uno_proto.MAX_LINE - 9 - len(" X")
    for num in (2**30 + 1, int("9" * digits)):  # both valid frames; no host numbers so
        raw, written = reply_to(rig, uno_proto.encode(num, "X"))
        assert uno_proto.decode(raw) == (0, "NAK", ["format", "detail=num"]) and len(written) == 1
    assert rig.board.session and rig.ok("PING")
    assert rig.send("PING", seq=2**30)[1] == "ACK"  # the largest the host sends
