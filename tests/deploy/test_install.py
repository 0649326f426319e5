"""The installer in DESTDIR mode (files only), the unit it installs, and safe-off."""

from __future__ import annotations

import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.py"
EXPECTED = [
    "etc/systemd/system/uno-attack.service",
    "etc/udev/rules.d/99-uno-launcher.rules",
    "etc/uno-attack/config.toml",
    "opt/uno-attack/app/pyproject.toml",
    "opt/uno-attack/app/hardware/hbridge.toml",
    "opt/uno-attack/app/controller/cli/__init__.py",
    "boot/firmware/config.txt",  # dtparam=strict_gpiod: released GPIO outputs revert
]


def install(destdir: Path, action: str = "install") -> str:
    result = subprocess.run(
        [sys.executable, str(INSTALL), action, "--destdir", str(destdir)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return result.stdout


def test_installer_writes_the_expected_files(tmp_path: Path) -> None:
    out = install(tmp_path)
    for name in EXPECTED:
        assert (tmp_path / name).is_file(), name
    assert not (tmp_path / "opt/uno-attack/app/.venv").exists()
    assert not (tmp_path / "opt/uno-attack/app/.git").exists()
    assert (tmp_path / "etc/uno-attack/config.toml").read_text() == (
        ROOT / "controller/config.example.toml"
    ).read_text()
    assert "files written under" in out


def test_installer_is_idempotent_and_keeps_an_edited_config(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    install(first)
    install(second)
    install(second)
    comparison = filecmp.dircmp(first, second)
    assert _same_tree(comparison)
    config = second / "etc/uno-attack/config.toml"
    config.write_text('[table]\npin = "8642"\n')
    out = install(second)
    assert config.read_text() == '[table]\npin = "8642"\n'
    assert "kept your /etc/uno-attack/config.toml" in out


def _same_tree(comparison: filecmp.dircmp[str]) -> bool:
    if comparison.left_only or comparison.right_only or comparison.diff_files:
        return False
    return all(_same_tree(sub) for sub in comparison.subdirs.values())


def test_uninstall_removes_the_service_but_keeps_config(tmp_path: Path) -> None:
    install(tmp_path)
    install(tmp_path, "uninstall")
    assert not (tmp_path / "etc/systemd/system/uno-attack.service").exists()
    assert not (tmp_path / "opt/uno-attack").exists()
    assert (tmp_path / "etc/uno-attack/config.toml").exists()


def test_unit_has_the_safety_and_hardening_it_needs(tmp_path: Path) -> None:
    install(tmp_path)
    unit = (tmp_path / "etc/systemd/system/uno-attack.service").read_text()
    for line in (
        "Type=notify", "WatchdogSec=", "Restart=on-failure", "SupplementaryGroups=gpio dialout",
        "StateDirectory=uno-attack", "RuntimeDirectory=uno-attack",
        "Environment=LG_WD=/run/uno-attack", "DeviceAllow=char-gpiochip rw",
        "DeviceAllow=char-ttyACM rw", "ProtectSystem=strict", "User=uno-attack",
        "Nice=-10", "CPUWeight=1000",  # the motor-off never waits behind other work
    ):  # fmt: skip
        assert line in unit, line
    directives = [ln for ln in unit.splitlines() if not ln.startswith("#")]
    assert "PrivateDevices=yes" not in directives
    assert any(ln.startswith("ExecStopPost=") and " safe-off " in ln for ln in unit.splitlines())


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not installed")
def test_systemd_analyze_verifies_the_installed_unit(tmp_path: Path) -> None:
    """The unit as installed; its commands point at this checkout's program, since a DESTDIR
    tree has no virtual environment (systemd-analyze checks they are executable)."""
    install(tmp_path)
    program = Path(sys.executable).with_name("uno-attack")
    assert program.exists()
    unit = (tmp_path / "etc/systemd/system/uno-attack.service").read_text()
    checked = tmp_path / "uno-attack.service"
    checked.write_text(unit.replace("/opt/uno-attack/venv/bin/uno-attack", str(program)))
    result = subprocess.run(
        ["systemd-analyze", "verify", str(checked)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "" and result.stdout.strip() == ""


def test_udev_rule_names_the_pico_and_the_symlink() -> None:
    rule = (ROOT / "systemd/99-uno-launcher.rules").read_text()
    assert 'ATTRS{idVendor}=="2e8a"' in rule and 'ATTRS{idProduct}=="0005"' in rule
    assert 'SYMLINK+="uno-launcher"' in rule and 'GROUP="dialout"' in rule


def test_udev_rule_keeps_modemmanager_off_the_pico() -> None:
    rules = [ln for ln in (ROOT / "systemd/99-uno-launcher.rules").read_text().splitlines()
             if ln and not ln.startswith("#")]  # fmt: skip
    assert rules and all('ENV{ID_MM_DEVICE_IGNORE}="1"' in rule for rule in rules)


def _section(unit: str, name: str) -> list[str]:
    lines, inside = [], False
    for line in unit.splitlines():
        if line.startswith("["):
            inside = line == f"[{name}]"
        elif inside and line and not line.startswith("#"):
            lines.append(line)
    return lines


def test_unit_never_stays_down_after_a_crash_loop() -> None:
    """No start limit (the default gives up after 5 starts in 10 s), a pause between restarts,
    and only directives Bookworm's systemd 252 knows (RestartSteps= and RestartMaxDelaySec=
    need 254)."""
    unit = (ROOT / "systemd/uno-attack.service").read_text()
    assert "StartLimitIntervalSec=0" in _section(unit, "Unit")
    service = _section(unit, "Service")
    assert "Restart=on-failure" in service
    delay = [ln for ln in service if ln.startswith("RestartSec=")]
    assert delay and 1 <= int(delay[0].split("=")[1]) <= 30
    assert not [ln for ln in service if ln.startswith(("RestartSteps=", "RestartMaxDelaySec="))]
    stop = [ln for ln in service if ln.startswith("ExecStopPost=")]
    assert stop and "--record-stop /var/lib/uno-attack/" in stop[0]
