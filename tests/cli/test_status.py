"""`uno-attack status`: is ``dtparam=strict_gpiod`` in force in the running kernel, or only in
the boot config (a reboot away), or not at all. Read from a made-up /sys, /proc and boot
partition, as a Pi 3, 4 and 5 show them."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

from controller.cli import main
from controller.launcher import strict_gpiod
from controller.launcher.strict_gpiod import (
    StrictGpiod,
    board_model,
    boot_time,
    has_strict_gpiod,
    strict_gpiod_status,
)

ROOT = Path(__file__).resolve().parents[2]
PI4 = "Raspberry Pi 4 Model B Rev 1.5"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
BOOTED = 1_800_000_000  # btime: when the running kernel started


class Pi:
    """A made-up /sys, /proc and boot config."""

    def __init__(self, root: Path) -> None:
        self.sys, self.proc, self.boot = root / "sys", root / "proc", root / "config.txt"
        self.proc.mkdir(parents=True)
        (self.proc / "stat").write_text(f"cpu  1 2 3\nbtime {BOOTED}\nprocesses 99\n")
        (self.proc / "cmdline").write_text("console=tty1 root=PARTUUID=1234 rootwait\n")

    def param(self, driver: str, value: str) -> None:
        folder = self.sys / "module" / driver / "parameters"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "persist_gpio_outputs").write_text(value + "\n")

    def config(self, text: str, *, since_boot: bool) -> None:
        self.boot.write_text(text)
        when = BOOTED + 60 if since_boot else BOOTED - 3600
        os.utime(self.boot, (when, when))

    def status(self, model: str = PI4) -> StrictGpiod:
        return strict_gpiod_status(
            model, sys_root=self.sys, proc=self.proc, boot_configs=(self.boot,)
        )


@pytest.fixture
def pi(tmp_path: Path) -> Pi:
    return Pi(tmp_path)


def test_in_force_when_the_driver_no_longer_keeps_released_outputs(pi: Pi) -> None:
    pi.param("pinctrl_bcm2835", "N")
    status = pi.status()
    assert (status.state, status.ok) == ("in force", True)
    assert "pinctrl_bcm2835.persist_gpio_outputs=N" in status.text


def test_a_pi_5_is_judged_by_rp1_not_by_the_unused_bcm2835_driver(pi: Pi) -> None:
    pi.param("pinctrl_bcm2835", "Y")  # built in, but not the header's pins on a Pi 5
    pi.param("pinctrl_rp1", "N")
    assert pi.status(PI5).state == "in force"
    pi.param("pinctrl_rp1", "Y")
    assert pi.status(PI5).state == "off"


def test_just_installed_it_takes_effect_after_a_reboot(pi: Pi) -> None:
    pi.param("pinctrl_bcm2835", "Y")
    pi.config("[all]\ndtparam=strict_gpiod\n", since_boot=True)
    status = pi.status()
    assert (status.state, status.ok) == ("after reboot", False)
    assert status.text.startswith(f"configured in {pi.boot}, takes effect after a reboot")


def test_configured_before_this_boot_and_still_not_in_force_says_so(pi: Pi) -> None:
    pi.param("pinctrl_bcm2835", "Y")
    pi.config("[pi5]\ndtparam=strict_gpiod\n", since_boot=False)
    status = pi.status()
    assert (status.state, status.ok) == ("not in force", False)
    assert "since before this boot" in status.text and "[section]" in status.text


def test_not_configured_says_what_to_do(pi: Pi) -> None:
    pi.param("pinctrl_bcm2835", "Y")
    pi.config("dtparam=audio=on\n", since_boot=False)
    status = pi.status()
    assert (status.state, status.ok) == ("off", False)
    assert "add dtparam=strict_gpiod" in status.text and "reboot" in status.text


def test_a_kernel_without_the_switch_is_judged_by_its_command_line(pi: Pi) -> None:
    (pi.proc / "cmdline").write_text("console=tty1 pinctrl_bcm2835.persist_gpio_outputs=n\n")
    assert pi.status().state == "in force"
    (pi.proc / "cmdline").write_text("console=tty1\n")
    pi.config("dtparam=strict_gpiod\n", since_boot=True)
    assert pi.status().state == "after reboot"
    pi.config("dtparam=strict_gpiod\n", since_boot=False)
    status = pi.status()
    assert (status.state, status.ok) == ("unknown", False)


def test_off_a_pi_there_is_nothing_to_keep_safe(pi: Pi) -> None:
    status = pi.status("")
    assert (status.state, status.ok) == ("no pi", True)


def test_model_and_boot_time_readers(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_text(PI5 + "\0")
    assert board_model(model) == PI5
    assert board_model(tmp_path / "missing") == ""
    assert boot_time(tmp_path) is None
    assert boot_time(Path("/proc")) is not None  # this machine's own


def _installer() -> ModuleType:
    if "uno_install" in sys.modules:
        return sys.modules["uno_install"]
    spec = importlib.util.spec_from_file_location("uno_install", ROOT / "systemd" / "install.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["uno_install"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "config",
    [
        "dtparam=strict_gpiod\n",
        "dtparam=audio=on\ndtparam=strict_gpiod=on  # motor safety\n",
        "dtparam=i2c_arm=on,strict_gpiod\n",
        "  dtparam = strict_gpiod\n",
        "",
        "# dtparam=strict_gpiod\n",
        "dtparam=strict_gpiod=off\n",
    ],
)
def test_status_reads_the_boot_config_as_the_installer_writes_it(config: str) -> None:
    assert has_strict_gpiod(config) == (_installer().with_strict_gpiod(config) is None)


def test_cli_status_off_a_pi(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["status"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "board: not a Raspberry Pi",
        "strict_gpiod: not a Raspberry Pi: no GPIO outputs to keep safe",
    ]


def test_cli_status_on_a_pi_awaiting_its_reboot_exits_1(
    pi: Pi, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pi.param("pinctrl_rp1", "Y")
    pi.config("dtparam=strict_gpiod\n", since_boot=True)
    monkeypatch.setattr(strict_gpiod, "board_model", lambda: PI5)
    monkeypatch.setattr(strict_gpiod, "strict_gpiod_status", lambda model: pi.status(model))
    assert main(["status"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"board: {PI5}"
    assert out[1].startswith("lgpio: not installed")  # this machine has none
    assert out[2].startswith("strict_gpiod: configured in ") and "after a reboot" in out[2]
