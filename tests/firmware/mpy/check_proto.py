"""The frame codec and the board's line reader on MicroPython: damaged frames are answered
``NAK <code>`` (MicroPython's exceptions differ from CPython's), and no byte stream, however
hostile, faults the board or moves the motor."""

import random

import uno_proto
from rig import Rig


def test_round_trip():
    for num, word, args in (
        (1, "PING", []),
        (2**30, "EJECT", ["job=16777215", "n=12", "speed=800", "deadline=10000"]),
        (7, "DONE", ["job=3", "ejected=2", "of=3", "reason=jam", "detail=beam-blocked"]),
    ):
        frame = uno_proto.encode(num, word, args)
        assert uno_proto.decode(frame) == (num, word, args)
        assert uno_proto.decode(frame[:-1] + b"\r\n") == (num, word, args)


def test_crc_matches_the_software_fallback():
    assert uno_proto.crc(b"12 PING") == uno_proto._crc32_soft(b"12 PING")


def test_every_damaged_frame_raises_frame_error_with_its_code():
    good = uno_proto.encode(5, "EJECT", ["job=1", "n=3"]).rstrip(b"\n")
    for line, code in (
        (good.replace(b"n=3", b"n=4"), "crc"),
        (good[:10], "format"),
        (b"", "format"),
        (b"x" * 200, "long"),
        (b"5 PING \x03*00000000", "ascii"),
    ):
        try:
            uno_proto.decode(line)
        except uno_proto.FrameError as error:
            assert error.code == code, (line, error.code)
            assert isinstance(error, ValueError) and code in str(error)
        else:
            raise AssertionError("accepted %s" % line)


def test_encode_refuses_tokens_that_break_the_framing():
    for token in ("a b", "a*b", "", "caf\xe9"):
        try:
            uno_proto.encode(1, "SHOW", [token])
        except ValueError:
            continue
        raise AssertionError("encoded %s" % token)


def replies(rig, start):
    return [f for f in rig.frames(start) if f[1] in ("ACK", "NAK")]


def test_a_damaged_command_is_answered_nak_not_a_fault():
    rig = Rig()
    rig.hello()
    frame = bytearray(uno_proto.encode(7, "EJECT", ["job=1", "n=3", "deadline=5000"]))
    frame[8] ^= 1
    rig.board.receive(bytes(frame))
    assert rig.frames()[-1][:3] == (0, "NAK", ["crc"])
    assert rig.board.session and not rig.events("FAULT") and rig.line("forward") == 0


def test_modem_probes_ctrl_c_and_partial_lines_then_a_flush_and_hello():
    rig = Rig()
    start = len(rig.out)
    rig.board.receive(b"AT\r")  # ModemManager's probe, no newline
    rig.board.receive(b"\x03\x03")  # Ctrl-C: the Pico's kbd_intr(-1) makes it a plain byte
    rig.board.receive(b"12 EJE")  # half a frame, then the cable was pulled
    rig.board.receive(b"\n")  # the host flushes before HELLO
    (nak,) = replies(rig, start)
    assert nak[:2] == (0, "NAK") and nak[2][0] in uno_proto.DAMAGED
    rig.board.receive(b"\n\r\n")  # bare newlines: ignored
    assert len(replies(rig, start)) == 1
    rig.hello()
    assert rig.board.session and rig.line("forward") == 0


def test_overlong_lines_are_cut_and_answered_long():
    rig = Rig()
    rig.board.receive(b"9" * 5000 + b"\n")
    rig.board.receive(uno_proto.encode(3, "PING"))
    frames = rig.frames()
    assert frames[0][:3] == (0, "NAK", ["long"]) and frames[1][:2] == (3, "ACK")


def test_fuzz_random_bytes_never_fault_never_eject():
    random.seed(1234)
    randbits = random.getrandbits
    rig = Rig()
    rig.hello()
    pieces = (b"AT\r", b"\x03", b"\n", b"\r\n", b"*", b" EJECT job=1 n=9 deadline=900", b"+++")
    for round_ in range(300):
        chunk = bytearray()
        for _ in range(randbits(6)):
            if randbits(2) == 0:
                chunk += pieces[randbits(3) % len(pieces)]
            else:
                chunk.append(randbits(8))
        if round_ % 50 == 49:
            chunk += b"9" * 300  # an overlong line
        rig.board.receive(bytes(chunk))
        rig.run(1)
        rig.send("PING")  # the board still answers, in session
        assert rig.board.session
        for _n, word, args in rig.frames():  # only damaged-frame NAKs and the PING's ACK
            assert word == "ACK" or (word == "NAK" and args[0] in uno_proto.DAMAGED), (word, args)
        rig.out.clear()
    assert max(rig.history("forward")) == 0  # the motor never moved
