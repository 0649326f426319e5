"""lgpio makes its notification FIFO in ``$LG_WD`` (else the working directory) when it is
imported: the gpio backend picks a directory this user can write first, and says so in one line
when there is none, never with a traceback.

The real lgpio is never imported here. The CLI runs in a child process (when the tests run as
root, stripped of every capability, so that a directory's mode binds it as it binds the service
user), in a working directory it cannot write, against a stand-in ``lgpio`` module on its path
that does what lgpio's import does: change into ``$LG_WD`` or stay, make ``.lgd-nfy0`` there,
and open ``.lgd-nfy-3`` (and fail) when it could not.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.launcher.factory import LG_WD, can_make_fifo, lgpio_workdir

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534

STAND_IN = '''"""Stands in for lgpio in the tests: its import, as the real one does it."""
import os

_workdir = os.environ.get("LG_WD") or os.getcwd()
try:
    os.chdir(_workdir)  # lguGetWorkDir changes into the working directory it chose
except OSError:
    pass
try:
    _name = os.path.join(_workdir, ".lgd-nfy0")
    if os.path.lexists(_name):
        os.unlink(_name)
    os.mkfifo(_name, 0o664)
    _fd = os.open(_name, os.O_RDWR | os.O_NONBLOCK)
    _handle = 0
except OSError:
    _handle = -3  # LG_BAD_PATHNAME
_file = open(".lgd-nfy{}".format(_handle), "rb")  # lgpio's Python side, relative to the cwd


class error(Exception):
    pass


def gpiochip_open(chip):
    raise error("'can not open gpiochip'")


def __getattr__(name):  # the constants gpiozero reads at import
    return 0
'''


def unprivileged() -> list[str]:
    """A command prefix that drops root's capabilities (root without CAP_DAC_OVERRIDE cannot
    write a 0555 directory); nothing for another user."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("setpriv (util-linux) is needed to drop root's capabilities")
    return [setpriv, "--bounding-set=-all", "--inh-caps=-all", "--"]


@pytest.fixture
def world() -> Iterator[Path]:
    """A folder with the stand-in lgpio in ``lib`` and a working directory ``clone`` the child
    cannot write."""
    base = Path(tempfile.mkdtemp(prefix="uno-lgwd-"))
    base.chmod(0o755)
    lib = base / "lib"
    lib.mkdir(mode=0o755)
    (lib / "lgpio.py").write_text(STAND_IN)
    (lib / "lgpio.py").chmod(0o644)
    clone = base / "clone"
    clone.mkdir()
    clone.chmod(0o555)  # root's, and read-only: the maker's clone, seen by the service user
    yield base
    clone.chmod(0o755)
    shutil.rmtree(base, ignore_errors=True)


def run(world: Path, argv: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    environ = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": f"{world / 'lib'}{os.pathsep}{ROOT}",
        "PYTHONDONTWRITEBYTECODE": "1",
        "HOME": str(world),
        **env,
    }
    return subprocess.run(
        [*unprivileged(), sys.executable, *argv],
        cwd=world / "clone",
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def private_dir(world: Path, name: str) -> Path:
    path = world / name
    path.mkdir(mode=0o700)
    return path


SELFTEST = ["-m", "controller.cli", "selftest", "--backend", "gpio", "--pin-profile", "hbridge"]


def test_selftest_in_an_unwritable_clone_puts_the_fifo_in_the_runtime_dir(world: Path) -> None:
    runtime = private_dir(world, "runtime")
    result = run(world, SELFTEST, XDG_RUNTIME_DIR=str(runtime))
    assert "Traceback" not in result.stderr, result.stderr
    # lgpio imported fine; the stand-in then has no GPIO chip to open, and says so in one line
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("uno-attack selftest: error: cannot open the GPIO chip")
    assert len(result.stderr.strip().splitlines()) == 1
    fifo = runtime / "uno-attack" / ".lgd-nfy0"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert stat.S_IMODE((runtime / "uno-attack").stat().st_mode) == 0o700
    assert list((world / "clone").iterdir()) == []


def test_selftest_without_a_runtime_dir_uses_a_private_temporary_dir(world: Path) -> None:
    tmp = world / "tmp"
    tmp.mkdir()
    tmp.chmod(0o1777)  # like /tmp
    result = run(world, SELFTEST, TMPDIR=str(tmp))
    assert "Traceback" not in result.stderr and result.returncode == 2, result.stderr
    mine = tmp / f"uno-attack-lgpio-{os.geteuid()}"
    assert stat.S_ISFIFO((mine / ".lgd-nfy0").lstat().st_mode)
    assert stat.S_IMODE(mine.stat().st_mode) == 0o700


def test_selftest_with_nowhere_to_write_says_so_in_one_line(world: Path) -> None:
    closed = world / "closed"
    closed.mkdir(mode=0o555)
    result = run(world, SELFTEST, TMPDIR=str(closed), LG_WD=str(world / "clone"))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("uno-attack selftest: error: lgpio needs a directory")
    assert f"set {LG_WD} to a directory this user can write" in lines[0]
    assert f"{world / 'clone'} is not writable" in lines[0]


def test_safe_off_in_an_unwritable_clone_does_not_crash_either(world: Path) -> None:
    runtime = private_dir(world, "runtime")
    result = run(
        world,
        ["-m", "controller.cli", "safe-off", "--backend", "gpio", "--pin-profile", "mosfet"],
        XDG_RUNTIME_DIR=str(runtime),
    )
    assert "Traceback" not in result.stderr and result.returncode == 2, result.stderr
    assert (runtime / "uno-attack" / ".lgd-nfy0").exists()


PROBE = """
import os
from controller.launcher.factory import _import_lgpio_factory
before = os.getcwd()
_import_lgpio_factory()
import lgpio
print(os.getcwd() == before, os.environ.get("LG_WD"), lgpio._workdir)
"""


def test_the_import_comes_back_to_the_working_directory_and_environment(world: Path) -> None:
    """lgpio changes into ``$LG_WD``; relative paths the user gave (``calibrate --write``) must
    still mean the directory they were typed in."""
    runtime = private_dir(world, "runtime")
    result = run(world, ["-c", PROBE], XDG_RUNTIME_DIR=str(runtime))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "None", str(runtime / "uno-attack")]


def test_a_usable_lg_wd_is_kept(world: Path) -> None:
    service = private_dir(world, "run-uno-attack")  # systemd's RuntimeDirectory
    result = run(world, ["-c", PROBE], LG_WD=str(service), XDG_RUNTIME_DIR=str(world))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", str(service), str(service)]


# --- choosing the directory ---


def test_workdir_prefers_lg_wd_then_the_runtime_dir_then_a_private_tmp(tmp_path: Path) -> None:
    lg_wd, runtime, tmp = tmp_path / "lg", tmp_path / "run", tmp_path / "tmp"
    for folder in (lg_wd, runtime, tmp):
        folder.mkdir()
    env = {LG_WD: str(lg_wd), "XDG_RUNTIME_DIR": str(runtime)}
    assert lgpio_workdir(env, tmp=tmp) == (lg_wd, [])
    chosen, tried = lgpio_workdir(env, tmp=tmp, usable=lambda path: path != lg_wd)
    assert chosen == runtime / "uno-attack" and tried == [f"$LG_WD {lg_wd} is not writable"]
    assert stat.S_IMODE(chosen.stat().st_mode) == 0o700
    chosen, tried = lgpio_workdir({LG_WD: "relative/dir"}, tmp=tmp)
    assert chosen == tmp / f"uno-attack-lgpio-{os.geteuid()}"
    assert tried == ["$LG_WD relative/dir is not an absolute path"]
    assert stat.S_IMODE(chosen.stat().st_mode) == 0o700


def test_workdir_never_uses_a_tmp_dir_someone_else_made_or_may_write(tmp_path: Path) -> None:
    mine = tmp_path / f"uno-attack-lgpio-{os.geteuid()}"
    mine.mkdir(mode=0o777)
    mine.chmod(0o777)  # group and others may write: they could swap the FIFO
    assert lgpio_workdir({}, tmp=tmp_path)[0] is None
    mine.rmdir()
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    mine.symlink_to(tmp_path / "elsewhere")  # planted by someone
    chosen, tried = lgpio_workdir({}, tmp=tmp_path)
    assert chosen is None and "cannot be made this user's own" in tried[0]
    if os.geteuid() == 0:
        mine.unlink()
        mine.mkdir(mode=0o700)
        os.chown(mine, NOBODY, NOBODY)  # another user's
        assert lgpio_workdir({}, tmp=tmp_path)[0] is None


def test_workdir_none_usable_lists_every_try(tmp_path: Path) -> None:
    env = {LG_WD: "/proc", "XDG_RUNTIME_DIR": str(tmp_path)}
    chosen, tried = lgpio_workdir(env, tmp=tmp_path, usable=lambda path: False)
    assert chosen is None and len(tried) == 3
    assert tried[0] == "$LG_WD /proc is not writable"


def test_can_make_fifo_probes_for_real_and_leaves_nothing(tmp_path: Path) -> None:
    assert can_make_fifo(tmp_path) and list(tmp_path.iterdir()) == []
    assert not can_make_fifo(Path("/proc"))  # not even root makes a FIFO there
    assert not can_make_fifo(tmp_path / "missing")
