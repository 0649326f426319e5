"""`uno-attack tune`: a profile that meets the target, written as TOML the launcher reads back,
reproducing the searched figures exactly; progress shown; clear errors for bad arguments."""

from __future__ import annotations

import errno
import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.cli.tune import ProgressBar
from controller.launcher.policy import PROFILES, load_profile
from controller.tuning import Target, candidates

QUICK = ["--games", "20", "--seed", "4"]


def _simulated(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["simulate", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_tune_writes_a_profile_that_gives_the_deals_it_promised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "party.toml"
    code = main(["tune", "--minutes", "10", "--max-drought", "5", "--out", str(out), *QUICK])
    report, progress = capsys.readouterr()
    assert code == 0, report + progress
    assert "the best meets the target" in report and f"wrote {out}" in report
    assert "240/240 candidates" in progress  # not a terminal: plain progress lines
    profile = load_profile(str(out))
    assert profile.name == "party" and profile.max_drought is not None
    assert profile.max_drought <= 5
    minutes = float(report.split("minutes per deal:")[1].split()[0])
    # The written file replays the search: same seed, same deals, same figures.
    again = _simulated(capsys, "--profile", str(out), *QUICK)
    assert again["mean_minutes"] == minutes and abs(minutes - 10) <= 0.5
    assert isinstance(again["max_drought"], int) and again["max_drought"] <= 5


def test_tune_reports_an_unreachable_target_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "fast.toml"
    code = main(["tune", "--minutes", "1", "--tolerance", "0.1", "--out", str(out), *QUICK])
    assert code == 1
    assert "no candidate met the target: nothing written" in capsys.readouterr().err
    assert not out.exists()


def test_tune_keeps_an_existing_file_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mine.toml"
    out.write_text("base = 'toy'\n", encoding="utf-8")
    args = ["tune", "--minutes", "9", "--out", str(out), *QUICK]
    assert main(args) == 2
    assert "exists (add --force" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "base = 'toy'\n"
    assert main([*args, "--force"]) == 0
    assert load_profile(str(out)).counts


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--minutes", "0"], "--minutes must be more than 0"),
        (["--minutes", "nan"], "--minutes must be more than 0"),
        (["--minutes", "9", "--tolerance", "-1"], "--tolerance must be 0 or more"),
        (["--minutes", "9", "--max-drought", "0"], "--max-drought must be 1 to 100"),
        (["--minutes", "9", "--players", "11"], "--players must be 2 to 10"),
        (["--minutes", "9", "--games", "0"], "--games must be 1 to 100000"),
        (["--minutes", "9", "--option", "nonsense=1"], "unknown option 'nonsense'"),
        (["--minutes", "9", "--option", "start_wild=random"], "applies to classic UNO only"),
        (["--minutes", "9", "--base", "wild-west"], "unknown eject profile"),
        (["--minutes", "9", "--seconds-per-turn", "-2"], "--seconds-per-turn must be 0 to"),
        (["--minutes", "9", "--seconds-per-press", "1e9"], "--seconds-per-press must be 0 to"),
    ],
)
def test_tune_bad_arguments_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = tmp_path / "p.toml"
    assert main(["tune", "--out", str(out), *QUICK, *args]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("out", "message"),
    [("profile.txt", "must name a .toml file"), ("missing/p.toml", "no such folder")],
)
def test_tune_refuses_an_output_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], out: str, message: str
) -> None:
    assert main(["tune", "--minutes", "9", "--out", str(tmp_path / out), *QUICK]) == 2
    assert message in capsys.readouterr().err


def test_tune_without_required_arguments_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tune", "--out", "x.toml"])
    assert exit_.value.code == 2
    assert "--minutes" in capsys.readouterr().err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_a_bar_on_a_terminal_and_lines_elsewhere() -> None:
    terminal, log = _Terminal(), io.StringIO()
    for stream in (terminal, log):
        bar = ProgressBar(stream)
        for done in range(1, 41):
            bar(done, 40, None)
    assert terminal.getvalue().count("\r") == 40 and terminal.getvalue().endswith("40/40\n")
    assert "[" + "#" * 30 + "]" in terminal.getvalue()
    lines = log.getvalue().splitlines()
    assert len(lines) == 10 and lines[-1] == "tune: 40/40 candidates" and "\r" not in log.getvalue()


def test_candidates_never_allow_a_longer_drought_than_asked() -> None:
    found = candidates(PROFILES["toy"], Target(12, 0.5, max_drought=3))
    assert len(found) == 6 * 3 * 8
    assert {p.max_drought for p in found} == {1, 2, 3}
    assert all(p.floor is not None and p.floor <= (p.max_drought or 0) for p in found)
    assert len(candidates(PROFILES["gentle"], Target(12))) == 6 * 6 * 8


def test_progress_bar_on_a_real_terminal(tmp_path: Path) -> None:
    """`uno-attack tune` run with its error stream on a pseudo-terminal draws the bar in place."""
    master, slave = pty.openpty()
    out = tmp_path / "tty.toml"
    command = [sys.executable, "-m", "controller.cli", "tune", "--minutes", "9"]
    with subprocess.Popen(
        [*command, "--out", str(out), "--games", "10"],
        stdout=subprocess.PIPE,
        stderr=slave,
        cwd=Path(__file__).resolve().parents[2],
    ) as process:
        os.close(slave)
        drawn = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal closed: the command has ended
                break
            if not chunk:
                break
            drawn += chunk
        report = process.stdout.read() if process.stdout else b""
    os.close(master)
    assert process.returncode == 0, drawn + report
    text = drawn.decode()
    assert text.count("\rtune [") == 288 and "288/288" in text
    assert "tune: " not in text  # no plain progress lines on a terminal
    assert out.exists()


def test_a_full_disk_leaves_no_half_written_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(source: object, target: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", disk_full)
    out = tmp_path / "full.toml"
    assert main(["tune", "--minutes", "9", "--out", str(out), *QUICK]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
