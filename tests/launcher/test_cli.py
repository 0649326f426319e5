"""The launcher subcommands: selftest, calibrate, safe-off, press; bad arguments exit 2."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from controller.cli import main
from controller.launcher import Launcher, load_pin_profile, open_launcher
from controller.launcher.pins import hardware_dir
from controller.launcher.safeoff import safe_off
from controller.launcher.selftest import FAIL, PASS, SKIP, passed, run_selftest

from .helpers import fast_profile, pin, states

MakeLauncher = Callable[..., Launcher]


def verdicts(checks: list) -> dict[str, str]:
    return {c.name: c.verdict for c in checks}


def test_cli_selftest_passes_on_the_simulator(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest", "--backend", "sim"]) == 0
    out = capsys.readouterr().out
    assert "on the simulator" in out and "result: PASS" in out
    for name in ("motor", "beam", "button", "lid", "button press", "eject", "indicators"):
        assert any(line.split()[1:2] == [name.split()[0]] for line in out.splitlines()[1:]), name


def test_selftest_reports_a_jam(make_launcher: MakeLauncher) -> None:
    checks = run_selftest(make_launcher(jam_at=1))
    assert verdicts(checks)["eject"] == FAIL and not passed(checks)


def test_selftest_reports_a_held_button_and_skips_eject(make_launcher: MakeLauncher) -> None:
    launcher = make_launcher()
    launcher.simulator.hold_button()
    checks = run_selftest(launcher, eject=False, press_timeout=0.5)
    assert verdicts(checks)["button"] == FAIL
    assert verdicts(checks)["eject"] == SKIP


def test_selftest_without_simulator_skips_the_press(mock_factory: MockFactory) -> None:
    launcher = open_launcher(fast_profile("mosfet"), backend="gpio", pin_factory=mock_factory)
    with launcher:
        checks = run_selftest(launcher, eject=False)
    v = verdicts(checks)
    assert v["button press"] == SKIP and v["motor"] == PASS and v["beam"] == PASS


def test_selftest_interactive_press_times_out(mock_factory: MockFactory) -> None:
    prompts: list[str] = []
    launcher = open_launcher(fast_profile("mosfet"), backend="gpio", pin_factory=mock_factory)
    with launcher:
        checks = run_selftest(
            launcher, eject=False, interactive=True, prompt=prompts.append, press_timeout=0.2
        )
    assert verdicts(checks)["button press"] == FAIL and "Press the UNO button" in prompts[0]


def test_cli_calibrate_writes_a_tuned_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "calibrated.toml"
    args = [
        "calibrate",
        "--backend",
        "sim",
        "--cards",
        "3",
        "--runs",
        "1",
        "--write",
        str(out_path),
    ]
    assert main(args) == 0
    assert "cards/s" in capsys.readouterr().out
    profile = load_pin_profile(out_path)
    # every run ejects 3 cards at the run speed and deals 3 at the deal speed
    assert profile.calibration is not None and profile.calibration.samples == 6
    assert profile.ejector.min_pulse_ms < profile.calibration.pulse_ms_min
    assert profile.ejector.max_pulse_ms > profile.calibration.pulse_ms_max
    with open_launcher(profile, backend="sim") as launcher:
        assert launcher.eject(2).complete


def test_cli_calibrate_prints_without_write(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "--backend", "sim", "--cards", "2", "--runs", "1"]) == 0
    assert "[calibration]" in capsys.readouterr().out


def test_cli_safe_off_mock(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["safe-off", "--profile", "hbridge", "--mock"]) == 0
    out = capsys.readouterr().out
    for role in ("enable", "forward", "backward"):
        assert f"motor.{role}" in out


def test_safe_off_turns_off_a_line_left_driven(mock_factory: MockFactory) -> None:
    profile = load_pin_profile("hbridge")
    forward = pin(mock_factory, 12)  # a killed process left the motor running
    forward.function = "output"
    forward.state = 1.0
    done, errors = safe_off(profile, mock_factory)
    assert not errors and len(done) == 3
    assert states(forward)[-1] == 0.0 and forward.function == "input"


def test_safe_off_reports_a_busy_line(mock_factory: MockFactory) -> None:
    from gpiozero import DigitalOutputDevice

    busy = DigitalOutputDevice(13, pin_factory=mock_factory)
    try:
        done, errors = safe_off(load_pin_profile("hbridge"), mock_factory)
    finally:
        busy.close()
    assert len(done) == 2 and "motor.backward (GPIO13)" in errors[0]


def test_cli_press_script(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["press", "--script", "0,2", "--presses", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("press 1: miss")
    assert lines[1].startswith("press 2: fire: wanted 2 → ejected 2 [count]")


def test_cli_press_jam_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["press", "--script", "3,3", "--presses", "2", "--jam-at", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "[jam]" in lines[0] and "refused (jam" in lines[1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["press", "--presses", "0"], "--presses"),
        (["press", "--script", "1,x"], "--script"),
        (["press", "--policy", "wild"], "unknown eject profile"),
        (["press", "--jam-at", "0"], "--jam-at"),
        (["press", "--card-rate", "0"], "--card-rate"),
        (["selftest", "--profile", "nope"], "unknown pin profile"),
        (["calibrate", "--backend", "sim", "--cards", "1"], "--cards"),
        (["calibrate", "--backend", "sim", "--write", "/no/such/dir/x.toml"], "does not exist"),
        (["safe-off", "--profile", "nope", "--mock"], "unknown pin profile"),
    ],
)
def test_cli_bad_arguments_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_invalid_profile_file_names_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.toml"
    shipped = (hardware_dir() / "mosfet.toml").read_text()
    path.write_text(shipped.replace("[beam]\npin = 27", "[beam]\npin = 12"))
    assert main(["selftest", "--backend", "sim", "--profile", str(path)]) == 2
    assert "beam.pin: GPIO 12 is already used by motor.pin" in capsys.readouterr().err


def test_cli_unknown_backend_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["selftest", "--backend", "pigpio"])
    assert exit_info.value.code == 2
