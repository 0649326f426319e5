"""Is ``dtparam=strict_gpiod`` in force on this Raspberry Pi, or only written down?

Raspberry Pi OS kernels keep a released GPIO output driven after the process that owned it
dies. ``dtparam=strict_gpiod`` in the boot config puts
``pinctrl_bcm2835.persist_gpio_outputs=n`` (Pi 3, 4, Zero 2 W; ``pinctrl_rp1`` on a Pi 5) on
the kernel command line at the next boot, so released outputs revert to inputs and the motor
lines' pull-downs win. The authority at run time is that driver parameter,
``/sys/module/<driver>/parameters/persist_gpio_outputs`` (``N``: strict, in force; ``Y``: outputs
persist). A kernel without that parameter is judged by ``/proc/cmdline``. When the running
kernel is not strict but the boot config asks for it, the config file's modification time
against the boot time (``btime`` in ``/proc/stat``) tells "takes effect after a reboot" from
"was there at boot and still not in force" (e.g. under a ``[pi4]`` section on a Pi 5).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

LINE = "dtparam=strict_gpiod"
BOOT_CONFIGS = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))
PARAM = "persist_gpio_outputs"
PI5_DRIVER = "pinctrl_rp1"  # the Pi 5's header pins are on RP1
OTHER_DRIVER = "pinctrl_bcm2835"  # Pi 3, 4, Zero 2 W (BCM2837, BCM2711)


@dataclass(frozen=True)
class StrictGpiod:
    """What `strict_gpiod_status` found: ``ok`` is False where a dead process's outputs would
    stay driven (or nobody can tell); ``text`` says so in one line."""

    state: str  # "in force", "after reboot", "not in force", "off", "unknown", "no pi"
    ok: bool
    text: str


def has_strict_gpiod(config: str) -> bool:
    """`config` (a config.txt) turns strict_gpiod on (``dtparam=strict_gpiod``, ``=on``, or in
    a list); the same reading as the installer's."""
    for line in config.splitlines():
        key, _, value = line.split("#", 1)[0].strip().partition("=")
        if key.strip() != "dtparam":
            continue
        for param in value.split(","):
            name, _, setting = param.strip().partition("=")
            if name.strip() == "strict_gpiod" and setting.strip() in ("", "on", "true", "yes"):
                return True
    return False


def drivers_for(model: str) -> tuple[str, str]:
    """The pin-control driver that owns the header pins on `model` first, the other second."""
    pi5 = any(name in model for name in ("Pi 5", "Pi 500", "Compute Module 5"))
    return (PI5_DRIVER, OTHER_DRIVER) if pi5 else (OTHER_DRIVER, PI5_DRIVER)


def strict_gpiod_status(
    model: str,
    *,
    sys_root: Path = Path("/sys"),
    proc: Path = Path("/proc"),
    boot_configs: tuple[Path, ...] = BOOT_CONFIGS,
) -> StrictGpiod:
    """strict_gpiod on the running kernel of board `model` (the device tree's model string)."""
    if "Raspberry Pi" not in model:
        return StrictGpiod("no pi", True, "not a Raspberry Pi: no GPIO outputs to keep safe")
    configured = _configured(boot_configs)
    for driver in drivers_for(model):
        value = _read(sys_root / "module" / driver / "parameters" / PARAM)
        if value is not None:
            where = f"{driver}.{PARAM}={value}"
            if value[:1] in ("N", "n", "0"):
                return StrictGpiod(
                    "in force",
                    True,
                    f"in force: a released GPIO output reverts to an input ({where})",
                )
            return _not_strict(configured, proc, where)
    cmdline = (_read(proc / "cmdline") or "").split()
    for driver in drivers_for(model):
        if f"{driver}.{PARAM}=n" in cmdline or f"{driver}.{PARAM}=N" in cmdline:
            return StrictGpiod(
                "in force",
                True,
                f"in force: the kernel command line has {driver}.{PARAM}=n "
                "(a released GPIO output reverts to an input)",
            )
    if configured is not None and _changed_since_boot(configured, proc):
        return _after_reboot(configured)
    told = f"{LINE} is in {configured}" if configured else f"no {LINE} in the boot config"
    return StrictGpiod(
        "unknown",
        False,
        f"unknown: this kernel has no {PARAM} switch and its command line does not say ({told})",
    )


def _not_strict(configured: Path | None, proc: Path, where: str) -> StrictGpiod:
    if configured is None:
        return StrictGpiod(
            "off",
            False,
            f"NOT in force ({where}): a dead process leaves its outputs driven; add {LINE} to "
            "the boot config (sudo make install does) and reboot",
        )
    if _changed_since_boot(configured, proc):
        return _after_reboot(configured, where)
    return StrictGpiod(
        "not in force",
        False,
        f"NOT in force ({where}) although {configured} has {LINE} since before this boot: "
        "is it under a [section] that does not match this board?",
    )


def _after_reboot(configured: Path, where: str = "") -> StrictGpiod:
    now = f" (now {where})" if where else ""
    return StrictGpiod(
        "after reboot",
        False,
        f"configured in {configured}, takes effect after a reboot{now}: sudo reboot",
    )


def _configured(boot_configs: tuple[Path, ...]) -> Path | None:
    """The first boot config that turns strict_gpiod on."""
    for path in boot_configs:
        text = _read(path)
        if text is not None and has_strict_gpiod(text):
            return path
    return None


def _changed_since_boot(path: Path, proc: Path) -> bool:
    """`path` was modified after this boot (so the kernel has not read it yet)."""
    boot = boot_time(proc)
    try:
        changed = path.stat().st_mtime
    except OSError:
        return False
    return boot is not None and changed > boot


def boot_time(proc: Path = Path("/proc")) -> float | None:
    """When this boot began (seconds since the epoch), from ``btime`` in ``/proc/stat``."""
    for line in (_read(proc / "stat") or "").splitlines():
        key, _, value = line.partition(" ")
        if key == "btime" and value.strip().isdigit():
            return float(value)
    return None


def board_model(model_file: Path = Path("/proc/device-tree/model")) -> str:
    """The device tree's model string (``Raspberry Pi 5 Model B Rev 1.0``), "" off a Pi."""
    return (_read(model_file) or "").strip("\0\n ")


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None
