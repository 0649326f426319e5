"""The launcher board's wire protocol: framing shared by the Pico firmware and the Pi.

One frame per line, printable ASCII (0x20-0x7e), at most `MAX_LINE` bytes before the newline::

    <num> <WORD> <arg> <arg> ...*<crc32 of everything before the '*', 8 hex digits>\\n

For a command from the host, `num` is its sequence number; a reply (``ACK``/``NAK``) carries
the number of the command it answers; an event from the board carries the board's event
counter. Arguments are ``key=value`` tokens (no spaces). See PROTOCOL.md for the catalogue.

This file runs unchanged under MicroPython (on the Pico) and CPython (on the Pi, in tests): it
imports nothing but ``binascii`` and uses no f-strings, dataclasses or typing at run time.
"""

try:
    from binascii import crc32 as _crc32_c
except ImportError:  # a MicroPython build without binascii.crc32
    _crc32_c = None  # type: ignore[assignment]

PROTOCOL = 1  # the newest protocol this side speaks
PROTOCOL_MIN = 1  # the oldest protocol this side still speaks
MAX_LINE = 160  # bytes before the newline

COMMANDS = ("HELLO", "PING", "STATUS", "EJECT", "STOP", "TUNE", "SHOW", "SAFE", "MAINT")
REPLIES = ("ACK", "NAK")
EVENTS = ("BOOT", "CARD", "EXIT", "DONE", "BUTTON", "LID", "FAULT")

# NAK codes for frames that arrived damaged: the sender should simply send the frame again.
DAMAGED = ("crc", "format", "long", "ascii")


class FrameError(ValueError):
    """A line that is not a valid frame. `code` is one of `DAMAGED`."""

    def __init__(self, code: str, detail: str = "") -> None:
        # super(), not ValueError.__init__: MicroPython's built-in types have no __init__
        super().__init__(code + (": " + detail if detail else ""))
        self.code = code


def _crc32_soft(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def crc(data: bytes) -> int:
    """CRC-32 (IEEE, as zlib) of `data`."""
    if _crc32_c is None:
        return _crc32_soft(data)
    return _crc32_c(data) & 0xFFFFFFFF


def encode(num: int, word: str, args: list[str] | tuple[str, ...] = ()) -> bytes:
    """One frame as bytes, newline included. Raises ValueError for a token that would break
    the framing (a space, a '*', a non-printable character) or a frame that is too long."""
    body = str(num) + " " + word
    for token in args:
        _check_token(token)
        body += " " + token
    raw = body.encode()
    if len(raw) + 9 > MAX_LINE:
        raise ValueError("frame longer than %d bytes" % MAX_LINE)
    return raw + b"*" + ("%08x" % crc(raw)).encode() + b"\n"


def _check_token(token: str) -> None:
    if not token:
        raise ValueError("empty token")
    for char in token:
        if char in " *" or not " " < char <= "~":
            raise ValueError("bad character in token " + repr(token))


def decode(line: bytes) -> tuple[int, str, list[str]]:
    """``(num, word, args)`` from one line (without or with its newline).

    Raises `FrameError`: ``long`` (over `MAX_LINE`), ``ascii`` (a byte outside 0x20-0x7e),
    ``format`` (no checksum, no number or word), ``crc`` (checksum mismatch).
    """
    if line[-1:] == b"\n":
        line = line[:-1]
    if line[-1:] == b"\r":
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise FrameError("long", "%d bytes" % len(line))
    for byte in line:
        if byte < 0x20 or byte > 0x7E:
            raise FrameError("ascii", "byte 0x%02x" % byte)
    star = len(line) - 9
    if star < 0 or line[star : star + 1] != b"*":
        raise FrameError("format", "no checksum")
    body = line[:star]
    try:
        expected = int(line[star + 1 :].decode(), 16)
    except ValueError:
        raise FrameError("format", "checksum is not hex") from None
    if crc(body) != expected:
        raise FrameError("crc")
    parts = body.decode().split(" ")
    if len(parts) < 2 or not parts[0].isdigit() or not _is_word(parts[1]):
        raise FrameError("format", "expected <num> <WORD>")
    for token in parts[2:]:
        if not token:
            raise FrameError("format", "empty argument")
    return int(parts[0]), parts[1], parts[2:]


def _is_word(text: str) -> bool:
    if not text:
        return False
    return all("A" <= char <= "Z" for char in text)


def fields(args: list[str]) -> dict[str, str]:
    """``{"key": "value"}`` from ``key=value`` arguments; a bare token maps to ``""``."""
    result = {}
    for token in args:
        cut = token.find("=")
        if cut < 0:
            result[token] = ""
        else:
            result[token[:cut]] = token[cut + 1 :]
    return result


def kv(key: str, value: object) -> str:
    """One ``key=value`` argument."""
    return key + "=" + str(value)


class LineReader:
    """Splits a byte stream into lines. A line longer than `MAX_LINE` is cut to ``MAX_LINE + 1``
    bytes (so `decode` reports it as ``long``) and the rest of it, up to the newline, dropped."""

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """The complete lines in `data` (newline removed), in order; an empty line is kept
        (the board ignores it: the host sends one to flush a partial line before HELLO)."""
        lines = []
        for byte in data:
            if byte == 10:
                lines.append(bytes(self._buf))
                self._buf = bytearray()
            elif len(self._buf) <= self.limit:
                self._buf.append(byte)
        return lines

    def reset(self) -> None:
        """Forget a partial line (after a reconnect)."""
        self._buf = bytearray()
