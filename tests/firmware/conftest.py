"""Fixtures for the firmware under CPython: the real firmware modules on a fake machine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from controller.launcher.board.firmware import make_importable

from .fakes import WDT, FakeMachine, FakeTime

make_importable()

import uno_app  # noqa: E402
import uno_board  # noqa: E402
import uno_hw  # noqa: E402
import uno_proto  # noqa: E402

PINS = dict(uno_board.PINS)


class Rig:
    """A board on fake pins: the test plays the host (`send`, `frames`) and the world (pins)."""

    def __init__(self, pins: dict[str, Any] | None = None, **board: Any) -> None:
        self.pins = dict(pins or PINS)
        self.time = FakeTime()
        self.machine = FakeMachine()
        if self.pins.get("lid") is not None:  # the lid starts closed: its switch pulls it low
            self.machine.Pin(self.pins["lid"]).drive(0)
        uno_hw.safe_lines(self.machine, self.pins)
        self.hw = uno_hw.Hardware(self.machine, self.pins, self.time)
        self.wdt = WDT()
        self.out: list[bytes] = []
        self.saved: tuple[int, int, int, str] | None = None
        self.board = uno_app.Board(
            self.hw,
            self.time,
            self.out.append,
            **{"persist": self._persist, "recall": lambda: None, "wdt": self.wdt, **board},
        )
        self.seq = 100
        self.pin = self.machine.pins

    def _persist(self, job: int, requested: int, count: int, reason: str) -> None:
        self.saved = (job, requested, count, reason)

    def send(self, word: str, *args: str, seq: int | None = None) -> tuple[int, str, list[str]]:
        """One command; returns the reply frame decoded."""
        if seq is None:
            self.seq += 1
            seq = self.seq
        before = len(self.out)
        self.board.receive(uno_proto.encode(seq, word, list(args)))
        replies = [f for f in self.frames(before) if f[1] in ("ACK", "NAK")]
        assert replies, f"no reply to {word}"
        return replies[-1]

    def frames(self, start: int = 0) -> list[tuple[int, str, list[str]]]:
        return [uno_proto.decode(raw) for raw in self.out[start:]]

    def events(self, word: str | None = None) -> list[dict[str, str]]:
        return [
            uno_proto.fields(args)
            for _n, w, args in self.frames()
            if w not in ("ACK", "NAK") and (word is None or w == word)
        ]

    def hello(self) -> None:
        assert self.send("HELLO", "proto=1", "min=1")[1] == "ACK"

    def run(self, ms: float, step_ms: float = 1.0, each: Callable[[], None] | None = None) -> None:
        """Let `ms` pass, stepping the main loop every `step_ms`."""
        for _ in range(int(ms / step_ms)):
            self.time.advance(ms=step_ms)
            if each is not None:
                each()
            self.board.step()

    def motor_line(self, role: str) -> float:
        gpio = self.pins[role]
        pwm = self.machine.pwms.get(gpio)
        return pwm.duty / 65535 if pwm is not None else float(self.machine.pins[gpio].level)


@pytest.fixture
def rig() -> Rig:
    return Rig()
