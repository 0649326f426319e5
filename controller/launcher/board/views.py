"""What a `SerialLauncher` shows in place of gpiozero devices: lights sent to the board, and a
read-only view of the board's parts (for ``uno-attack selftest``)."""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Protocol

from controller.launcher.errors import LauncherError


class Requester(Protocol):
    up: bool

    def request(self, word: str, *args: str) -> dict[str, str]: ...


class BoardFeedback:
    """The `Feedback` interface over the link: the active colour and the tension go to the
    board's LEDs with ``SHOW``, from a worker thread (so a press never waits for the lights),
    latest value wins. Chimes need a buzzer on the Pi; the board build has none."""

    def __init__(self, link: Requester) -> None:
        self._link = link
        self._wanted: dict[str, str] = {}
        self._changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="board-lights", daemon=True)
        self._thread.start()

    def play(self, pattern: str, tension: float | None = None) -> None:
        if tension is not None:
            self.show_tension(tension)

    def show_tension(self, tension: float) -> None:
        self._want("tension", str(round(max(0.0, min(1.0, tension)) * 1000)))

    def show_colour(self, colour: str | None) -> None:
        self._want("colour", colour or "none")

    def clear(self) -> None:
        self._want("tension", "0")

    def _want(self, key: str, value: str) -> None:
        with self._changed:
            self._wanted[key] = value
            self._changed.notify()

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._closed or bool(self._wanted))
                if self._closed:
                    return
                wanted, self._wanted = self._wanted, {}
            if self._link.up:
                with contextlib.suppress(LauncherError):
                    self._link.request("SHOW", *(f"{k}={v}" for k, v in wanted.items()))

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)


class _MotorView:
    def __init__(self, devices: BoardDevices) -> None:
        self._devices = devices

    @property
    def value(self) -> float:
        """The motor's signed speed as the board reports it (-1..1)."""
        return int(self._devices.status().get("motor", "0")) / 1000


class BoardDevices:
    """The parts as the board sees them, asked with ``STATUS`` on every read."""

    buzzer = None

    def __init__(self, link: Requester, profile: Any) -> None:
        self._link = link
        self.motor = _MotorView(self)
        self.button_led = profile.button_led
        self.rgb_led = profile.rgb_led

    def status(self) -> dict[str, str]:
        return self._link.request("STATUS")

    @property
    def beam_blocked(self) -> bool:
        return self.status().get("beam") == "1"

    @property
    def button_pressed(self) -> bool:
        return self.status().get("button") == "1"

    @property
    def lid_open(self) -> bool:
        return self.status().get("lid") == "1"
