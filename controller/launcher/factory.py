"""Opening a launcher on real pins or on the simulator.

`open_launcher(profile, backend=...)`:

* ``"gpio"``: real pins through gpiozero's lgpio factory (the only one that works on every Pi,
  including the Pi 5), or through the `pin_factory` you pass (a jig's mock pins in tests).
* ``"sim"``: a `SimulatedLauncher` on fresh mock pins (or on the `MockFactory` you pass).
* ``"serial"``: a Pico launcher board over USB serial (controller/launcher/board/, firmware/);
  ``port`` names the port, or ``serial_number`` the board's USB serial number, else
  ``$UNO_ATTACK_SERIAL_PORT``, ``/dev/uno-launcher`` or the Pico's USB id.
* ``"fake-serial"``: the same serial code against a fake board (the real firmware on the
  simulator, behind a pty); with `pin_factory`, the board's pins are those mock pins.
* ``"auto"`` (default): ``$UNO_ATTACK_BACKEND`` if set, else ``gpio`` on a Raspberry Pi and ``sim``
  anywhere else, so the product runs on any machine. gpiozero's own fallback is never used.

lgpio is imported only when the gpio backend is opened, never on a PC and never by the tests.
Importing it makes a notification FIFO (``.lgd-nfy0``) in ``$LG_WD``, else in the working
directory, and changes into that directory: `gpio_pin_factory` first points ``$LG_WD`` at a
directory this user can make a FIFO in (`lgpio_workdir`) and changes back afterwards, so a
`selftest` run as the service user from a clone it cannot write still opens the pins.
"""

from __future__ import annotations

import importlib.util
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Literal

from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.launcher.ejector import Clock
from controller.launcher.errors import BackendUnavailable
from controller.launcher.launcher import Launcher
from controller.launcher.pins import PinProfile, load_pin_profile
from controller.launcher.sim import SimOptions, SimulatedLauncher

Backend = Literal["auto", "gpio", "sim", "serial", "fake-serial"]
Resolved = Literal["gpio", "sim", "serial", "fake-serial"]
BACKENDS = ("auto", "gpio", "sim", "serial", "fake-serial")
_RESOLVED: dict[str, Resolved] = {
    "gpio": "gpio",
    "sim": "sim",
    "serial": "serial",
    "fake-serial": "fake-serial",
}


def on_raspberry_pi(model_file: Path = Path("/proc/device-tree/model")) -> bool:
    """True on a Raspberry Pi (the device tree names the board)."""
    try:
        return "Raspberry Pi" in model_file.read_text(encoding="ascii", errors="replace")
    except OSError:
        return False


def resolve_backend(backend: str) -> Resolved:
    """Turn ``auto`` into ``gpio`` or ``sim``; reject anything unknown."""
    if backend == "auto":
        backend = os.environ.get("UNO_ATTACK_BACKEND", "auto")
        if backend == "auto":
            return "gpio" if on_raspberry_pi() else "sim"
    if backend in _RESOLVED:
        return _RESOLVED[backend]
    raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")


LG_WD = "LG_WD"
FIFO_PROBE = ".uno-attack-fifo-probe"


def can_make_fifo(directory: Path) -> bool:
    """True if this process can make (and remove) a FIFO in `directory`, as lgpio must."""
    probe = directory / f"{FIFO_PROBE}-{os.getpid()}"
    try:
        os.mkfifo(probe, 0o600)
    except OSError:
        return False
    with suppress(OSError):
        probe.unlink()
    return True


def _private_dir(path: Path) -> bool:
    """`path` is (or is now) a real directory of this user's that nobody else may write."""
    try:
        path.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        info = path.lstat()
    except OSError:
        return False
    return (
        stat.S_ISDIR(info.st_mode)  # not a symlink another user planted
        and info.st_uid == os.geteuid()
        and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    )


def lgpio_workdir(
    environ: Mapping[str, str] | None = None,
    *,
    tmp: Path | None = None,
    usable: Callable[[Path], bool] = can_make_fifo,
) -> tuple[Path | None, list[str]]:
    """Where lgpio may make its notification FIFO, and what was tried.

    ``$LG_WD`` if it is set and usable (systemd sets ``/run/uno-attack``), else
    ``$XDG_RUNTIME_DIR/uno-attack``, else ``<tmp>/uno-attack-lgpio-<uid>`` (`tmp`: ``$TMPDIR``
    or ``/tmp``; mode 0700, this user's own: a directory someone else made or may write is
    never used). None if no
    candidate works; the list says each one tried and why it was not used."""
    env = os.environ if environ is None else environ
    tried: list[str] = []
    candidates: list[tuple[str, Path, bool]] = []  # (what, path, private: created 0700)
    if env.get(LG_WD):
        candidates.append((f"${LG_WD}", Path(env[LG_WD]), False))
    if env.get("XDG_RUNTIME_DIR"):
        candidates.append(("$XDG_RUNTIME_DIR", Path(env["XDG_RUNTIME_DIR"]) / "uno-attack", True))
    base = tmp if tmp is not None else Path(env.get("TMPDIR") or "/tmp")
    candidates.append(("a private temporary directory", base / f"uno-attack-lgpio-{os.geteuid()}",
                       True))  # fmt: skip
    for what, path, private in candidates:
        if not path.is_absolute():
            tried.append(f"{what} {path} is not an absolute path")
        elif private and not _private_dir(path):
            tried.append(f"{what} {path} cannot be made this user's own")
        elif not usable(path):
            tried.append(f"{what} {path} is not writable")
        else:
            return path, tried
    return None, tried


@contextmanager
def _lgpio_import_dir() -> Iterator[Path | None]:
    """Around lgpio's import: ``$LG_WD`` set to `lgpio_workdir`'s choice (the library reads it
    once, at import), then the caller's working directory and environment back."""
    if "lgpio" in sys.modules or importlib.util.find_spec("lgpio") is None:
        yield None  # imported already, or not installed: the import says so
        return
    workdir, tried = lgpio_workdir()
    if workdir is None:
        raise BackendUnavailable(
            "lgpio needs a directory it can make its notification FIFO in, and "
            + "; ".join(tried)
            + f": set {LG_WD} to a directory this user can write (e.g. {LG_WD}=$HOME)"
        )
    before = os.environ.get(LG_WD)
    os.environ[LG_WD] = str(workdir)
    try:
        cwd: str | None = os.getcwd()
    except OSError:  # the working directory was deleted
        cwd = None
    try:
        yield workdir
    finally:
        if cwd is not None:
            with suppress(OSError):  # lgpio changed into $LG_WD; relative paths are the caller's
                os.chdir(cwd)
        if before is None:
            os.environ.pop(LG_WD, None)
        else:
            os.environ[LG_WD] = before


def _import_lgpio_factory() -> Any:
    """gpiozero's `LGPIOFactory` class, or a clear error."""
    with _lgpio_import_dir() as workdir:
        try:
            from gpiozero.pins.lgpio import LGPIOFactory
        except ImportError as error:
            raise BackendUnavailable(
                f"the gpio backend needs lgpio ({error}); install the 'pi' extra on a Raspberry "
                "Pi, or use --backend sim"
            ) from None
        except OSError as error:  # lgpio opens '.lgd-nfy-N' when it could not make its FIFO
            raise BackendUnavailable(
                f"lgpio could not make its notification FIFO in {workdir or os.getcwd()} "
                f"({error}); set {LG_WD} to a directory this user can write"
            ) from None
    return LGPIOFactory


def gpio_pin_factory() -> Any:
    """gpiozero's lgpio pin factory, or a clear error where it cannot work."""
    LGPIOFactory = _import_lgpio_factory()
    try:
        return LGPIOFactory()
    except Exception as error:
        raise BackendUnavailable(f"cannot open the GPIO chip: {error}") from None


def sim_pin_factory() -> MockFactory:
    """Fresh mock pins with PWM, as the simulator needs."""
    return MockFactory(pin_class=MockPWMPin)


def open_launcher(
    profile: PinProfile | str = "hbridge",
    *,
    backend: Backend | str = "auto",
    pin_factory: Any = None,
    sim: SimOptions | None = None,
    clock: Clock = time.monotonic,
    port: str | None = None,
    serial_number: str | None = None,
) -> Launcher:
    """Open the launcher for `profile` (a `PinProfile`, a shipped name, or a path).

    With the simulator, ``launcher.simulator`` is the simulated machine (for demos and tests);
    it is closed with the launcher.
    """
    if not isinstance(profile, PinProfile):
        profile = load_pin_profile(profile)
    resolved = resolve_backend(backend)
    if resolved in ("serial", "fake-serial"):
        from controller.launcher.board import open_serial_launcher

        return open_serial_launcher(
            profile, resolved, port=port, serial_number=serial_number,
            pin_factory=pin_factory, sim=sim, clock=clock,
        )  # fmt: skip
    if resolved == "gpio":
        if pin_factory is not None:
            return Launcher(profile, pin_factory=pin_factory, clock=clock)
        factory = gpio_pin_factory()
        try:
            launcher = Launcher(profile, pin_factory=factory, clock=clock)
        except BaseException:
            factory.close()
            raise
        launcher.add_closer(factory.close)  # frees the lines: closing a pin only makes it input
        return launcher
    factory = pin_factory if pin_factory is not None else sim_pin_factory()
    if not isinstance(factory, MockFactory):
        raise ValueError("the sim backend needs a MockFactory")
    machine = SimulatedLauncher(
        profile, pin_factory=factory, options=sim, clock=clock, interrupts=False
    )
    try:
        launcher = Launcher(profile, pin_factory=factory, clock=clock, simulator=machine)
    except BaseException:
        machine.close()
        raise
    launcher.add_closer(machine.close)
    return launcher
