"""``make firmware-deploy`` and ``safe-off`` for the board. The deploy refuses while the service
holds the board, and otherwise asks the firmware for maintenance mode and copies every file
(mpremote itself is not run here)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from controller.cli import main as cli_main
from controller.launcher.board import FakeBoard
from controller.launcher.board import deploy as deploy_module
from controller.launcher.board.deploy import DeployError, deploy, main
from controller.launcher.board.launcher import SerialLauncher
from tests.launcher.helpers import WAIT

from .conftest import serial_profile


@pytest.fixture(autouse=True)
def no_service(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deploy_module, "service_active", lambda name="uno-attack": False)
    monkeypatch.delenv("UNO_ATTACK_SERIAL_PORT", raising=False)


def test_deploy_refuses_while_the_port_is_held() -> None:
    profile = serial_profile()
    with FakeBoard(profile) as board:
        launcher = SerialLauncher(profile, lambda: board.port, connect_timeout=WAIT)
        try:
            with pytest.raises(DeployError, match=r"in use.*systemctl stop uno-attack"):
                deploy(board.port, None, dry_run=True)
        finally:
            launcher.close()
        assert not board.app.maintenance


def test_deploy_refuses_while_the_service_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deploy_module, "service_active", lambda name="uno-attack": True)
    with pytest.raises(DeployError, match="service is running"):
        deploy("/dev/null", None, dry_run=True)


def test_deploy_asks_for_maintenance_and_copies_every_file() -> None:
    with FakeBoard(serial_profile()) as board:
        command = deploy(board.port, "hbridge", dry_run=True)
        assert board.app.maintenance and not board.app.session
    assert command[:4] == ["mpremote", "connect", board.port, "cp"]
    assert command[-3:] == [":", "+", "reset"]
    names = {part.rsplit("/", 1)[-1] for part in command}
    assert {"main.py", "uno_app.py", "uno_proto.py", "board.json"} <= names


def test_deploy_without_a_board_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(deploy_module, "find_port", lambda port=None: None)
    assert main(["--dry-run"]) == 1
    assert "no launcher board found" in capsys.readouterr().err


@contextmanager
def a_board_left_running() -> Iterator[FakeBoard]:
    """A fake board whose service died mid-eject: its motor runs and nobody said SAFE."""
    profile = serial_profile()
    with FakeBoard(profile) as board:
        launcher = SerialLauncher(profile, lambda: board.port, connect_timeout=WAIT)
        try:
            launcher.link.request("EJECT", "job=5", "n=50", "deadline=9000")
            launcher.link.close()  # the service died: nobody said SAFE
            assert board.app.hw.motor.enabled
            yield board
        finally:
            launcher.close()


def test_safe_off_tells_the_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with a_board_left_running() as board:
        monkeypatch.setenv("UNO_ATTACK_SERIAL_PORT", board.port)
        config = tmp_path / "config.toml"
        config.write_text('[launcher]\nbackend = "serial"\n')
        assert cli_main(["safe-off", "--config", str(config), "--backend", "auto"]) == 0
        assert "stopped its motor" in capsys.readouterr().out
        assert not board.app.hw.motor.enabled and not board.app.ejector.busy


def test_safe_off_tells_each_table_its_board_by_serial_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A service of two tables, one on the Pi's pins (mock pins here) and one on a board found by
    its USB serial number (a fake board's pty stands in for the port with that number): the
    board that was left running is told SAFE over its port, and both tables are reported."""
    with a_board_left_running() as board:
        monkeypatch.setattr("controller.cli.safe_off.board_port", {"E6614103E7": board.port}.get)
        config = tmp_path / "config.toml"
        config.write_text(
            '[[tables]]\nid = "window"\nlauncher = "gpio"\n'
            '[[tables]]\nid = "corner"\nlauncher = "board"\nserial_number = "E6614103E7"\n'
        )
        assert cli_main(["safe-off", "--config", str(config), "--mock"]) == 0
        out = capsys.readouterr().out
        assert "safe-off (table window, mock pins): motor.forward (GPIO12): driven low" in out
        assert f"safe-off (table corner, board): the launcher board on {board.port} stopped" in out
        assert not board.app.hw.motor.enabled and not board.app.ejector.busy


@pytest.mark.parametrize(("hz", "ok"), [(20_000, True), (500, True), (50, False)])
def test_board_pin_map_takes_the_profiles_pwm_frequency_or_refuses_it(hz: int, ok: bool) -> None:
    from dataclasses import replace

    from controller.launcher.board.pinmap import board_pins

    base = serial_profile()
    profile = replace(base, motor=replace(base.motor, pwm_frequency=hz))
    if ok:
        assert board_pins(profile)["pwm_hz"] == hz
    else:
        with pytest.raises(ValueError, match="pwm_frequency"):
            board_pins(profile)
