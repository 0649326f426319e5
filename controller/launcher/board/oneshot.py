"""A few commands to the board without the whole link: for ``safe-off`` and the deploy tool,
which run while the service is stopped and need one answer, not a session."""

from __future__ import annotations

import time
from collections.abc import Sequence

import serial

from controller.launcher.board.firmware import proto


def exchange(
    port: str, commands: Sequence[tuple[str, Sequence[str]]], timeout: float = 1.0
) -> bool:
    """Send each command and wait for its ACK; False at the first NAK or silence. Raises
    `serial.SerialException` / `OSError` if the port cannot be opened (exclusively)."""
    with serial.Serial(port, timeout=0.05, exclusive=True) as handle:
        handle.reset_input_buffer()
        for seq, (word, args) in enumerate(commands, start=1):
            handle.write(proto.encode(seq, word, list(args)))
            if not _acked(handle, seq, timeout):
                return False
    return True


def _acked(handle: serial.Serial, seq: int, timeout: float) -> bool:
    reader = proto.LineReader()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for line in reader.feed(handle.read(max(1, handle.in_waiting))):
            try:
                num, word, _args = proto.decode(line)
            except proto.FrameError:
                continue
            if num == seq and word in proto.REPLIES:
                return word == "ACK"
    return False


def safe(port: str) -> bool:
    """SAFE: motor off, driver asleep, any run ended."""
    return exchange(port, [("SAFE", [])])
