"""The line codec shared by the board and the Pi, from tables."""

from __future__ import annotations

import pytest
import serial

from controller.launcher.board.firmware import proto


@pytest.mark.parametrize(
    ("num", "word", "args"),
    [
        (1, "PING", []),
        (0, "NAK", ["crc"]),
        (2**30, "EJECT", ["job=16777215", "n=12", "speed=800", "deadline=10000"]),
        (7, "DONE", ["job=3", "ejected=2", "of=3", "reason=jam", "detail=beam-blocked"]),
        (12, "BUTTON", ["down=1", "n=5", "t=123456"]),
        (3, "HELLO", ["proto=1", "min=1"]),
        (4, "SHOW", ["colour=none", "tension=0"]),
        (5, "FLAG", ["bare", "x=", "=y", "~!#$%&()"]),
    ],
)
def test_codec_round_trip(num: int, word: str, args: list[str]) -> None:
    frame = proto.encode(num, word, args)
    assert frame.endswith(b"\n") and frame.count(b"\n") == 1
    assert proto.decode(frame) == (num, word, args)
    assert proto.decode(frame.rstrip(b"\n") + b"\r\n") == (num, word, args)


def test_codec_crc_is_zlib_crc32() -> None:
    import zlib

    assert proto.crc(b"12 PING") == zlib.crc32(b"12 PING")
    assert proto._crc32_soft(b"12 PING") == zlib.crc32(b"12 PING")  # the fallback agrees


GOOD = proto.encode(5, "EJECT", ["job=1", "n=3"]).rstrip(b"\n")


def _recrc(body: bytes) -> bytes:
    return body + b"*" + b"%08x" % proto.crc(body)


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (GOOD[:-1] + (b"0" if GOOD[-1:] != b"0" else b"1"), "crc"),  # checksum digit changed
        (GOOD.replace(b"n=3", b"n=4"), "crc"),  # body changed
        (GOOD[:10], "format"),  # truncated
        (GOOD[:-9], "format"),  # no checksum at all
        (b"", "format"),
        (GOOD[:-8] + b"zzzzzzzz", "format"),  # checksum not hex
        (_recrc(b"PING"), "format"),  # no number
        (_recrc(b"5 ping"), "format"),  # word not upper case
        (_recrc(b"-5 PING"), "format"),
        (_recrc(b"5  PING"), "format"),  # empty token
        (_recrc(b"5 PING a  b"), "format"),
        (_recrc(b"5 PING caf\xc3\xa9"), "ascii"),  # non-ASCII
        (_recrc(b"5 PING \x03"), "ascii"),  # a control byte (Ctrl-C)
        (b"\xff\xfe\x00", "ascii"),
        (_recrc(b"5 PING " + b"x" * 200), "long"),
    ],
)
def test_codec_rejects(line: bytes, code: str) -> None:
    with pytest.raises(proto.FrameError) as caught:
        proto.decode(line)
    assert caught.value.code == code


@pytest.mark.parametrize("token", ["has space", "star*", "", "tab\t", "caf\u00e9", "nl\n"])
def test_codec_refuses_tokens_that_break_framing(token: str) -> None:
    with pytest.raises(ValueError):
        proto.encode(1, "SHOW", [token])


def test_codec_refuses_oversize_frames() -> None:
    with pytest.raises(ValueError, match="longer"):
        proto.encode(1, "SHOW", ["x" * proto.MAX_LINE])


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["a=1", "b=two"], {"a": "1", "b": "two"}),
        (["flag"], {"flag": ""}),
        (["k=v=w"], {"k": "v=w"}),
        ([], {}),
    ],
)
def test_codec_fields(args: list[str], expected: dict[str, str]) -> None:
    assert proto.fields(args) == expected


def test_codec_line_reader_splits_any_chunking() -> None:
    frames = [proto.encode(n, "PING") for n in range(1, 6)]
    stream = b"".join(frames)
    for size in (1, 2, 7, 64, len(stream)):
        reader = proto.LineReader()
        lines = []
        for start in range(0, len(stream), size):
            lines += reader.feed(stream[start : start + size])
        assert [proto.decode(line)[0] for line in lines] == [1, 2, 3, 4, 5]


def test_codec_line_reader_cuts_an_oversize_line_and_recovers() -> None:
    reader = proto.LineReader()
    lines = reader.feed(b"x" * 1000 + b"\n" + proto.encode(9, "PING"))
    assert len(lines[0]) == proto.MAX_LINE + 1
    with pytest.raises(proto.FrameError, match="long"):
        proto.decode(lines[0])
    assert proto.decode(lines[1])[0] == 9


def test_codec_over_a_loopback_serial_port() -> None:
    port = serial.serial_for_url("loop://", timeout=0.5)
    frames = [proto.encode(1, "PING"), proto.encode(2, "ACK", ["up=5"])]
    port.write(b"".join(frames))
    reader = proto.LineReader()
    lines: list[bytes] = []
    while len(lines) < 2:
        lines += reader.feed(port.read(port.in_waiting or 1))
    assert [proto.decode(line)[1] for line in lines] == ["PING", "ACK"]
    port.close()
