"""One name per idea on the command line: `--pin-profile` is the wiring, `--eject-profile` the
randomness. The spellings the README once documented (`--profile`, `press --policy`) still
work but are not shown in help."""

from __future__ import annotations

import json
import re

import pytest

from controller.cli import build_parser, main


def _commands() -> dict[str, str]:
    """Each subcommand's help text."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    return {name: sub.format_help() for name, sub in subparsers.choices.items()}  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("command", "flags"),
    [
        ("selftest", ["--pin-profile"]),
        ("calibrate", ["--pin-profile"]),
        ("safe-off", ["--pin-profile"]),
        ("press", ["--pin-profile", "--eject-profile"]),
        ("simulate", ["--eject-profile"]),
    ],
)
def test_profile_names_help_shows_one_name_per_idea(command: str, flags: list[str]) -> None:
    text = _commands()[command]
    for flag in flags:
        assert flag in text
    assert "--profile " not in text and "--policy" not in text


def test_profile_names_simulate_old_and_new_spelling_agree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    runs = []
    for flag in ("--eject-profile", "--profile"):
        assert main(["simulate", "--json", "--games", "15", "--seed", "3", flag, "draw-one"]) == 0
        out = json.loads(capsys.readouterr().out)
        del out["seconds"]
        runs.append(out)
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["press", "--eject-profile", "wild"], "unknown eject profile"),
        (["press", "--policy", "wild"], "unknown eject profile"),
        (["simulate", "--eject-profile", "wild-west"], "unknown eject profile"),
        (["selftest", "--pin-profile", "nope"], "unknown pin profile"),
        (["safe-off", "--pin-profile", "nope", "--mock"], "unknown pin profile"),
        (["safe-off", "--profile", "nope", "--mock"], "unknown pin profile"),
    ],
)
def test_profile_names_each_spelling_names_its_profile(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_profile_names_pin_profile_from_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNO_ATTACK_PIN_PROFILE", "no-such-build")
    assert main(["safe-off", "--mock"]) == 2
    assert "no-such-build" in capsys.readouterr().err


def test_press_takes_a_custom_profile_by_name_as_the_table_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`party` is a shipped custom profile (hardware/eject-profiles/): a name the set-up page
    offers works with `press` and `simulate` too, and so does the path of its file."""
    by_name = ["press", "--eject-profile", "party", "--seed", "3", "--presses", "2"]
    assert main(by_name) == 0, capsys.readouterr().err
    named = capsys.readouterr().out
    by_path = [*by_name[:2], "hardware/eject-profiles/party.toml", *by_name[3:]]
    assert main(by_path) == 0, capsys.readouterr().err
    assert _presses(capsys.readouterr().out) == _presses(named)


def _presses(out: str) -> list[str]:
    """What each press decided and ejected (without how long it took)."""
    return [re.sub(r" in [0-9.]+ s", "", line) for line in out.splitlines() if "press " in line]
