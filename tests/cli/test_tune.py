"""`uno-attack tune`: a profile checked on fresh deals, written as TOML that reproduces the
check exactly, or installed where a table offers it by name; progress shown; clear errors for
bad arguments. The searches here are tiny (a few deals a candidate, a few hundred a check, a
wide tolerance): they test what the command does with its result, not how good the result is
(`tests/test_tuning.py` and `python -m benchmarks engine` do that)."""

from __future__ import annotations

import errno
import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.cli.simulate import RUNAWAY_EXIT
from controller.cli.tune import ProgressBar
from controller.engine import Rules
from controller.engine.autoplay import RunawayGame
from controller.policy import PROFILES, load_profile
from controller.policy.custom_profiles import ProfileShelf
from controller.tuning import Runner, Table, Target, candidates, check_one, deals

TINY = ["--games", "8", "--check-games", "400", "--seed", "4", "--jobs", "1"]
EASY = ["--minutes", "10", "--tolerance", "3", *TINY]  # a target such a tiny check can confirm


def test_tune_writes_a_profile_whose_check_the_file_reproduces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "party.toml"
    code = main(["tune", "--max-drought", "5", "--out", str(out), *EASY])
    report, progress = capsys.readouterr()
    assert code == 0, report + progress
    assert "the profile checked meets the target (10 ± 3 minutes)" in report
    assert f"wrote {out}: use it with --eject-profile {out}" in report
    assert "candidate rounds" in progress and "on 400 fresh deals" in progress
    profile = load_profile(str(out))
    assert profile.name == "party" and profile.max_drought is not None
    assert profile.max_drought <= 5
    text = out.read_text(encoding="utf-8")
    assert "Checked on 400 fresh deals" in text and 'description = "Tuned: 4 players' in text
    # The file holds the very profile checked: checked again, the same deals say the same.
    minutes = float(report.split("minutes per deal:")[1].split()[0])
    number = report.count("  check ")  # the chosen one is the last check made
    again = check_one(
        Runner(Table(Rules.create("attack"), 4)), profile, Target(10, 3), seed=4, games=400,
        stream=number - 1,
    )  # fmt: skip
    assert again.meets and again.minutes == minutes


def test_tune_never_claims_a_target_its_check_misses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "fast.toml"
    code = main(["tune", "--minutes", "1", "--tolerance", "0.1", "--out", str(out), *TINY])
    report, said = capsys.readouterr()
    assert code == 1
    assert "no profile met the target on fresh deals: nothing written" in said
    assert "meets the target" not in report
    assert not out.exists()


def test_tune_keeps_an_existing_file_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mine.toml"
    out.write_text("base = 'toy'\n", encoding="utf-8")
    args = ["tune", "--out", str(out), *EASY]
    assert main(args) == 2
    assert "exists (add --force" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "base = 'toy'\n"
    assert main([*args, "--force"]) == 0
    assert load_profile(str(out)).counts


def test_tune_installs_a_profile_a_table_offers_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["tune", "--install", "ours", "--data-dir", str(tmp_path), *EASY])
    report = capsys.readouterr().out
    assert code == 0, report
    place = tmp_path / "eject-profiles" / "ours.toml"
    assert f"wrote {place}: a table using this data directory offers it as 'ours'" in report
    shelf = ProfileShelf.for_data_dir(tmp_path)
    assert "ours" in shelf.names()
    (entry,) = [e for e in shelf.entries() if e.name == "ours"]
    assert entry.description.startswith("Tuned: 4 players")
    again = ["tune", "--install", "ours", "--data-dir", str(tmp_path), *EASY]
    assert main(again) == 2
    assert "a profile 'ours' is installed" in capsys.readouterr().err


def test_tune_installs_where_the_configuration_keeps_its_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    config = tmp_path / "uno.toml"
    config.write_text(f'[service]\ndata_dir = "{data}"\n', encoding="utf-8")
    assert main(["tune", "--install", "kids", "--config", str(config), *EASY]) == 0
    assert (data / "eject-profiles" / "kids.toml").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--install", "toy"], "'toy' is a built-in eject profile's name"),
        (["--install", "Our Rules"], "is no eject profile name"),
        (["--install", "x", "--data-dir", "/nonexistent/data"], "does not exist"),
        (["--install", "x", "--config", "/nonexistent.toml"], "--config: cannot read"),
        (["--out", "x.toml", "--data-dir", "d"], "say where --install puts the profile"),
        ([], "give --out FILE, --install NAME, or both"),
    ],
)
def test_tune_refuses_an_install_it_cannot_make(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)  # the default data directory, ./data, does not exist here
    assert main(["tune", *args, *EASY]) == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--minutes", "0"], "--minutes must be more than 0"),
        (["--minutes", "nan"], "--minutes must be more than 0"),
        (["--minutes", "9", "--tolerance", "-1"], "--tolerance must be more than 0"),
        (["--minutes", "9", "--tolerance", "0"], "--tolerance must be more than 0"),
        (["--minutes", "9", "--max-drought", "0"], "--max-drought must be 1 to 100"),
        (["--minutes", "9", "--players", "11"], "--players must be 2 to 10"),
        (["--minutes", "9", "--games", "0"], "--games must be 1 to 100000"),
        (["--minutes", "9", "--check-games", "1"], "--check-games must be 2 to 100000"),
        (["--minutes", "9", "--jobs", "0"], "--jobs must be 1 to 64"),
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
    assert main(["tune", "--out", str(out), *TINY, *args]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_tune_starts_from_an_installed_profile_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "eject-profiles"
    folder.mkdir()
    (folder / "gentler.toml").write_text('base = "gentle"\nmax_drought = 4\n', encoding="utf-8")
    args = ["--base", "gentler", "--data-dir", str(tmp_path), "--install", "next"]
    assert main(["tune", *args, *EASY]) == 0, capsys.readouterr()
    tuned = load_profile(str(folder / "next.toml"))  # gentle's four counts, scaled; no jackpot
    assert len(tuned.counts) == 4 and tuned.jackpot_probability == 0


@pytest.mark.parametrize(
    ("out", "message"),
    [("profile.txt", "must name a .toml file"), ("missing/p.toml", "no such folder")],
)
def test_tune_refuses_an_output_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], out: str, message: str
) -> None:
    assert main(["tune", "--minutes", "9", "--out", str(tmp_path / out), *TINY]) == 2
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
    assert len(lines) == 10 and lines[-1] == "tune: 40/40 candidate rounds"
    assert "\r" not in log.getvalue()


def test_candidates_never_allow_a_longer_drought_than_asked() -> None:
    found = candidates(PROFILES["toy"], Target(12, 0.5, max_drought=3))
    assert len(found) == 6 * 3 * 8
    assert {p.max_drought for p in found} == {1, 2, 3}
    assert all(p.floor is not None and p.floor <= (p.max_drought or 0) for p in found)
    assert len(candidates(PROFILES["gentle"], Target(12))) == 6 * 6 * 8


def test_progress_bar_on_a_real_terminal(tmp_path: Path) -> None:
    """`uno-attack tune` run with its error stream on a pseudo-terminal draws the bar in place,
    in worker processes (--jobs 2) as in one."""
    master, slave = pty.openpty()
    out = tmp_path / "tty.toml"
    command = [sys.executable, "-m", "controller.cli", "tune", "--out", str(out)]
    with subprocess.Popen(
        [*command, *EASY, "--jobs", "2"],
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
    total = text.rsplit("\rtune [", 1)[1].split("]")[1].split()[0]  # "n/n"
    assert text.count("\rtune [") > 100 and total.split("/")[0] == total.split("/")[1]
    assert "candidate rounds" not in text  # no plain progress lines on a terminal
    assert out.exists()


def test_a_full_disk_leaves_no_half_written_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(source: object, target: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", disk_full)
    out = tmp_path / "full.toml"
    assert main(["tune", "--out", str(out), *EASY]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_tune_stopped_by_a_deal_that_never_ends_exits_3_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As `simulate` does (`tests/cli/test_simulate_limits.py` has a real such deal): a deal
    that does not end is no bad argument, and nothing is written."""

    def runaway(*_: object) -> None:
        raise RunawayGame("deal 3 of seed 4: the deal had not ended after 100,000 actions")

    monkeypatch.setattr(deals, "play", runaway)
    out = tmp_path / "p.toml"
    assert main(["tune", "--out", str(out), *EASY]) == RUNAWAY_EXIT == 3
    err = capsys.readouterr().err
    assert "uno-attack tune: stopped: deal 3 of seed 4: the deal had not ended" in err
    assert not out.exists()
