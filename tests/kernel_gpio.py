"""A model of the kernel's GPIO lines, shared by processes: levels outlive their owner.

gpiozero's mock pins live inside one process and die with it, which is kinder than a Raspberry
Pi: there the kernel keeps a released output at its last level when the owning process dies
(SIGKILL, a segfault, the OOM killer), unless ``dtparam=strict_gpiod`` is set, and lgpio's
software PWM dies with the process, leaving the line possibly high (modelled as high: any duty
above zero is "on"). This model keeps every line in a JSON file, under a file lock:

* ``owner``: the pid that claimed the line; a claim while another *live* process owns it fails
  as lgpio fails on the kernel's EBUSY: with its own exception type (``lgpio.error``, neither
  a gpiozero error nor an OSError). A dead owner (gone or a zombie) holds nothing.
* ``value``: the last level or duty the owner drove; a line that is an input reads 0 (the motor
  lines have pull-downs).
* ``history``: every change as ``[monotonic time, pid, gpio, value]``
  (CLOCK_MONOTONIC is one clock for every process).

`KernelPin` writes through to the model, so the launcher, the guard and a test in three
processes see the same lines. Like gpiozero's lgpio pins it claims its line when it is created,
and closing it only turns it back into an input: the line is freed when the factory closes (or
the process dies). `factory()` builds a pin factory on the file named by
``$UNO_KERNEL_GPIO``: ``UNO_ATTACK_PIN_FACTORY=tests.kernel_gpio:factory`` puts the gpio
backend (and its guard) on it.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

ENV = "UNO_KERNEL_GPIO"
SPEC = "tests.kernel_gpio:factory"


class LineBusy(Exception):
    """What lgpio raises for EBUSY: ``lgpio.error("GPIO busy")``, a plain Exception."""


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie has already released its files and lines)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


class KernelLines:
    """The lines of one GPIO chip, in `path`. ``strict``: released lines revert to input."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def create(cls, path: Path, *, strict: bool = False) -> KernelLines:
        path.write_text(json.dumps({"strict": strict, "lines": {}, "history": []}))
        return cls(path)

    @contextmanager
    def _locked(self, write: bool) -> Iterator[dict[str, Any]]:
        """The state under a lock on a side file; a write replaces the file whole, so a process
        killed in the middle of one (the point of these tests) cannot damage the "kernel"."""
        with self.path.with_suffix(".lock").open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX if write else fcntl.LOCK_SH)
            state = json.loads(self.path.read_text())
            yield state
            if write:
                fresh = self.path.with_suffix(f".{os.getpid()}.tmp")
                fresh.write_text(json.dumps(state))
                fresh.replace(self.path)

    def claim(self, gpio: int) -> None:
        me = os.getpid()
        with self._locked(write=True) as state:
            line = state["lines"].setdefault(str(gpio), {"owner": 0, "value": 0.0})
            owner = line["owner"]
            if owner not in (0, me) and alive(owner):
                raise LineBusy(f"'GPIO busy' (GPIO{gpio} is held by process {owner})")
            line["owner"] = me

    def drive(self, gpio: int, value: float) -> None:
        with self._locked(write=True) as state:
            line = state["lines"].setdefault(str(gpio), {"owner": os.getpid(), "value": 0.0})
            line["value"] = float(value)
            state["history"].append([time.monotonic(), os.getpid(), gpio, float(value)])

    def release_mine(self) -> None:
        """Free every line this process holds (what closing the GPIO chip does)."""
        with self._locked(write=True) as state:
            for line in state["lines"].values():
                if line["owner"] == os.getpid():
                    line["owner"] = 0
                    if state["strict"]:
                        line["value"] = 0.0

    def level(self, gpio: int) -> float:
        """What the pin carries now: the owner's drive, or after its death what the kernel kept."""
        with self._locked(write=False) as state:
            line = state["lines"].get(str(gpio))
            if line is None:
                return 0.0
            if line["owner"] and not alive(line["owner"]) and state["strict"]:
                return 0.0
            return float(line["value"])

    def owner(self, gpio: int) -> int:
        with self._locked(write=False) as state:
            return int(state["lines"].get(str(gpio), {}).get("owner", 0))

    def history(self) -> list[tuple[float, int, int, float]]:
        with self._locked(write=False) as state:
            return [(t, pid, gpio, value) for t, pid, gpio, value in state["history"]]


class KernelPin(MockPWMPin):  # type: ignore[misc]
    """A mock PWM pin whose claims, levels and release go through the shared `KernelLines`."""

    def __init__(self, factory: KernelFactory, info: Any) -> None:
        super().__init__(factory, info)
        self.kernel.claim(self.gpio)  # as LGPIOPin does: the line is ours from here on

    @property
    def gpio(self) -> int:
        return int(self.info.name.removeprefix("GPIO"))

    @property
    def kernel(self) -> KernelLines:
        return self.factory.kernel  # type: ignore[no-any-return]

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        if value == "input":
            self.kernel.drive(self.gpio, 0.0)

    def _change_state(self, value: Any) -> bool:
        changed = bool(super()._change_state(value))
        if changed and self._function == "output":
            self.kernel.drive(self.gpio, float(value))
        return changed


class KernelFactory(MockFactory):  # type: ignore[misc]
    """Mock pins on the shared kernel model at `path`."""

    def __init__(self, path: Path) -> None:
        self.kernel = KernelLines(path)
        super().__init__(pin_class=KernelPin)

    def close(self) -> None:
        super().close()
        self.kernel.release_mine()


def factory() -> KernelFactory:
    """The pin factory for ``UNO_ATTACK_PIN_FACTORY``: the model in ``$UNO_KERNEL_GPIO``."""
    return KernelFactory(Path(os.environ[ENV]))
