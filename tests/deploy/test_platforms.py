"""The installer's decisions, for every supported OS release and Pi model, and the boot config.

`plan(release, model)` is a pure function: the table below is what a maker on each machine gets.
Nothing is compiled on a Pi (Debian's python3-lgpio, a venv that sees it), no GPIO library the
app never imports is installed, and `dtparam=strict_gpiod` goes into the right config.txt.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.py"


def _load_installer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("uno_install", INSTALL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["uno_install"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


installer = _load_installer()

MODELS = {  # what /proc/device-tree/model says on each supported board
    "Pi 3": "Raspberry Pi 3 Model B Plus Rev 1.3",
    "Pi 4": "Raspberry Pi 4 Model B Rev 1.5",
    "Pi 5": "Raspberry Pi 5 Model B Rev 1.0",
    "Pi Zero 2 W": "Raspberry Pi Zero 2 W Rev 1.0",
}


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
@pytest.mark.parametrize("board", list(MODELS))
def test_plan_on_every_supported_pi(release: str, board: str) -> None:
    plan = installer.plan(release, MODELS[board])
    assert plan.apt == ("python3-venv", "python3-lgpio")
    assert plan.system_site_packages, "the venv must see Debian's python3-lgpio"
    assert plan.boot_config == "/boot/firmware/config.txt"
    assert plan.notes == ()


@pytest.mark.parametrize("release", ["bullseye", "buster"])
def test_plan_on_an_older_release_uses_the_old_boot_path_and_says_so(release: str) -> None:
    plan = installer.plan(release, MODELS["Pi 4"])
    assert plan.boot_config == "/boot/config.txt"
    assert any("Bookworm or Trixie" in note for note in plan.notes)


@pytest.mark.parametrize(
    "model", ["Raspberry Pi Model B Rev 2", "Raspberry Pi Zero W Rev 1.1", "Raspberry Pi 2 Model B"]
)
def test_plan_on_an_untested_pi_installs_the_same_and_says_so(model: str) -> None:
    plan = installer.plan("bookworm", model)
    assert plan.apt == ("python3-venv", "python3-lgpio") and plan.boot_config is not None
    assert any("not tested" in note for note in plan.notes)


def test_plan_off_a_pi_has_no_gpio_packages_and_no_boot_config() -> None:
    plan = installer.plan("bookworm", "")
    assert plan.apt == ("python3-venv",)
    assert not plan.system_site_packages and plan.boot_config is None
    assert any("simulator" in note for note in plan.notes)


def test_plan_for_a_tree_built_elsewhere_is_any_supported_pi() -> None:
    assert installer.plan("trixie", installer.ANY_PI).notes == ()


def test_no_gpio_library_that_is_never_imported() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert [req.split(">")[0] for req in extras["pi"]] == ["lgpio"]
    assert "pi5" not in extras
    text = (ROOT / "pyproject.toml").read_text() + INSTALL.read_text()
    assert "RPi.GPIO>" not in text and "rpi-lgpio" not in text


STRICT = "dtparam=strict_gpiod"


@pytest.mark.parametrize(
    "config",
    [
        "dtparam=strict_gpiod\n",
        "dtparam=audio=on\ndtparam=strict_gpiod=on  # motor safety\n",
        "dtparam=i2c_arm=on,strict_gpiod\n",
        "  dtparam = strict_gpiod\n",
    ],
)
def test_strict_gpiod_already_there_is_left_alone(config: str) -> None:
    assert installer.with_strict_gpiod(config) is None


@pytest.mark.parametrize(
    "config",
    [
        "",
        "dtparam=audio=on",
        "# dtparam=strict_gpiod\ncamera_auto_detect=1\n",
        "dtparam=strict_gpiod=off\n",
        "[cm5]\ndtoverlay=dwc2,dr_mode=host\n",
    ],
)
def test_strict_gpiod_is_added_under_all_keeping_the_rest(config: str) -> None:
    updated = installer.with_strict_gpiod(config)
    assert updated is not None and updated.startswith(config)
    tail = updated[len(config) :].splitlines()
    assert tail[-1] == STRICT and "[all]" in tail  # not inside a [cm5] section
    assert installer.with_strict_gpiod(updated) is None


def run_install(destdir: Path, *options: str) -> str:
    result = subprocess.run(
        [sys.executable, str(INSTALL), "install", "--destdir", str(destdir), *options],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return result.stdout


def test_destdir_install_writes_strict_gpiod_into_the_tree_and_asks_for_a_reboot(
    tmp_path: Path,
) -> None:
    boot = tmp_path / "boot/firmware/config.txt"
    boot.parent.mkdir(parents=True)
    boot.write_text("[all]\ndtparam=audio=on\n")
    out = run_install(tmp_path, "--release", "trixie", "--model", MODELS["Pi 5"])
    text = boot.read_text()
    assert text.startswith("[all]\ndtparam=audio=on\n") and text.endswith(STRICT + "\n")
    assert "REBOOT NEEDED" in out
    again = run_install(tmp_path, "--release", "trixie", "--model", MODELS["Pi 5"])
    assert boot.read_text() == text and "REBOOT NEEDED" not in again
    assert "already has dtparam=strict_gpiod" in again


def test_destdir_install_for_an_older_release_edits_boot_config_txt(tmp_path: Path) -> None:
    run_install(tmp_path, "--release", "bullseye", "--model", MODELS["Pi 3"])
    assert (tmp_path / "boot/config.txt").read_text().endswith(STRICT + "\n")
    assert not (tmp_path / "boot/firmware").exists()


def test_os_release_reads_the_code_name(tmp_path: Path) -> None:
    release = tmp_path / "os-release"
    release.write_text('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nVERSION_CODENAME=trixie\n')
    assert installer.os_release(release) == "trixie"
    assert installer.os_release(tmp_path / "missing") == ""
