"""The installer in DESTDIR mode (files only), the unit it installs, safe-off, and where it
takes lgpio from (checked before it changes anything)."""

from __future__ import annotations

import filecmp
import http.server
import importlib.util
import json
import shutil
import subprocess
import sys
import threading
import tomllib
from pathlib import Path
from types import ModuleType

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


# --- where lgpio comes from: said, or refused, before anything changes ---


def _load_installer() -> ModuleType:
    if "uno_install" in sys.modules:
        return sys.modules["uno_install"]
    spec = importlib.util.spec_from_file_location("uno_install", INSTALL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["uno_install"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


installer = _load_installer()
PI5 = "Raspberry Pi 5 Model B Rev 1.0"

RPI_POLICY = """python3-lgpio:
  Installed: (none)
  Candidate: 0.2.2-1~rpt1
  Version table:
     0.2.2-1~rpt1 500
        500 http://archive.raspberrypi.com/debian bookworm/main arm64 Packages
     0.2.0-1~rpt1 500
        500 http://archive.raspberrypi.com/debian bookworm/main arm64 Packages
"""
LGPIO_FILES = [  # what PyPI lists for lgpio (late 2026), a placeholder and an sdist among them
    "lgpio-0.0.0.2-py3-none-any.whl",
    "lgpio-0.2.0.0.tar.gz",
    "lgpio-0.2.2.0-cp311-cp311-manylinux_2_34_aarch64.whl",
    "lgpio-0.2.2.0-cp311-cp311-linux_armv7l.whl",
    "lgpio-0.2.2.0-cp312-cp312-manylinux_2_34_aarch64.whl",
    "lgpio-0.2.2.0.tar.gz",
]


class Machine(installer.Probe):  # type: ignore[misc, name-defined]
    """Canned answers: plain Debian by default (no python3-lgpio anywhere in apt)."""

    def __init__(
        self,
        *,
        installed: str | None = None,
        policy: str = "",
        files: list[str] | Exception = LGPIO_FILES,
        python: tuple[int, int] = (3, 11),
        machine: str = "aarch64",
        glibc: tuple[int, int] | None = (2, 36),
    ) -> None:
        self.answers = (installed, policy, files, python, machine, glibc)
        self.asked: list[str] = []

    def installed_version(self, package: str) -> str | None:
        self.asked.append(f"dpkg {package}")
        return self.answers[0] if package == "python3-lgpio" else None  # a fresh machine

    def apt_policy(self, package: str) -> str:
        self.asked.append(f"policy {package}")
        return str(self.answers[1])

    def pypi_files(self, project: str) -> list[str]:
        self.asked.append(f"pypi {project}")
        files = self.answers[2]
        if isinstance(files, Exception):
            raise files
        return list(files)

    def python(self) -> tuple[int, int]:
        return self.answers[3]  # type: ignore[no-any-return]

    def machine(self) -> str:
        return str(self.answers[4])

    def glibc(self) -> tuple[int, int] | None:
        return self.answers[5]  # type: ignore[no-any-return]


def pi_plan() -> object:
    return installer.plan("bookworm", PI5)


def test_lgpio_from_the_raspberry_pi_os_archive_names_its_origin() -> None:
    source = installer.choose_lgpio(pi_plan(), Machine(policy=RPI_POLICY))
    assert source.via == "apt"
    assert source.text == (
        "lgpio: python3-lgpio 0.2.2-1~rpt1 will be installed with apt from "
        "http://archive.raspberrypi.com/debian bookworm/main (the Raspberry Pi OS archive)"
    )


def test_lgpio_already_installed_is_said_and_apt_is_not_asked() -> None:
    probe = Machine(installed="0.2.2-1~rpt1")
    source = installer.choose_lgpio(pi_plan(), probe)
    assert source.via == "installed" and "0.2.2-1~rpt1 is installed already" in source.text
    assert probe.asked == ["dpkg python3-lgpio"]


def test_plain_debian_takes_a_pypi_wheel_for_this_python_and_cpu() -> None:
    source = installer.choose_lgpio(pi_plan(), Machine())
    assert source.via == "pypi"
    assert source.wheel == "lgpio-0.2.2.0-cp311-cp311-manylinux_2_34_aarch64.whl"
    assert "only the Raspberry Pi OS archive has it" in source.text
    armv7 = installer.choose_lgpio(pi_plan(), Machine(machine="armv7l"))
    assert armv7.wheel == "lgpio-0.2.2.0-cp311-cp311-linux_armv7l.whl"


@pytest.mark.parametrize(
    ("probe", "why"),
    [
        (Machine(python=(3, 13)), "PyPI has no lgpio>=0.2.2.0 wheel for Python 3.13 on aarch64"),
        (Machine(glibc=(2, 31)), "PyPI has no lgpio>=0.2.2.0 wheel for Python 3.11 on aarch64"),
        (Machine(files=OSError("network is unreachable")), "PyPI could not be asked"),
        (Machine(policy="python3-lgpio:\n  Installed: (none)\n  Candidate: (none)\n",
                 python=(3, 13)), "PyPI has no"),
    ],
)  # fmt: skip
def test_no_lgpio_anywhere_stops_with_a_clear_message(probe: object, why: str) -> None:
    with pytest.raises(SystemExit) as stop:
        installer.choose_lgpio(pi_plan(), probe)
    message = str(stop.value)
    assert message.startswith("uno-attack install: stopped, nothing was changed")
    assert "only the Raspberry Pi OS archive" in message and why in message
    assert "Use Raspberry Pi OS" in message and "apt-get update" in message


def test_off_a_pi_lgpio_is_not_looked_for() -> None:
    probe = Machine()
    assert installer.choose_lgpio(installer.plan("bookworm", ""), probe) is None
    assert probe.asked == []


def test_apt_candidate_reads_apt_cache_policy() -> None:
    assert installer.apt_candidate(RPI_POLICY) == (
        "0.2.2-1~rpt1",
        ["http://archive.raspberrypi.com/debian bookworm/main"],
    )
    assert installer.apt_candidate("") is None  # plain Debian: apt knows no such package
    installed = ("python3-lgpio:\n  Installed: 0.2.2-1~rpt1\n  Candidate: 0.2.2-1~rpt1\n"
                 "  Version table:\n *** 0.2.2-1~rpt1 500\n"
                 "        500 http://archive.raspberrypi.org/debian bullseye/main armhf Packages\n"
                 "        100 /var/lib/dpkg/status\n")  # fmt: skip
    version, origins = installer.apt_candidate(installed)
    assert version == "0.2.2-1~rpt1" and installer.raspberry_pi_archive(origins[0])
    assert not installer.raspberry_pi_archive("http://deb.debian.org/debian bookworm/main")


def test_pypi_wheel_never_picks_the_placeholder_or_an_sdist() -> None:
    assert installer.pypi_wheel(LGPIO_FILES, (3, 12), "x86_64", (2, 36)) is None
    assert installer.pypi_wheel(LGPIO_FILES, (3, 12), "aarch64", (2, 36)) == (
        "lgpio-0.2.2.0-cp312-cp312-manylinux_2_34_aarch64.whl"
    )
    assert installer.pypi_wheel(["lgpio-0.3.0.0-cp38-abi3-manylinux2014_aarch64.whl"],
                                (3, 13), "aarch64", (2, 36)) == (
        "lgpio-0.3.0.0-cp38-abi3-manylinux2014_aarch64.whl")  # fmt: skip


def test_the_lgpio_version_wanted_is_the_pi_extras() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert extras["pi"][0].split(";")[0].strip() == f"lgpio>={installer.LGPIO_MIN}"


CHANGES = ("copy_app", "write", "write_config", "ensure_strict_gpiod", "start", "show_where")


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A real-machine install whose every change is recorded instead of made."""
    log: list[str] = []

    def run(command: list[str], **options: object) -> int:
        log.append("run " + " ".join(command))
        return 0

    monkeypatch.setattr(installer, "_run", run)
    monkeypatch.setattr(installer.Installer, "check_root", lambda self: None)
    monkeypatch.setattr(installer.Installer, "say", lambda self, text: log.append(f"say {text}"))
    for name in CHANGES:
        monkeypatch.setattr(installer.Installer, name, _recorder(log, name))
    return log


def _recorder(log: list[str], name: str) -> object:
    return lambda self, *args: log.append(f"change {name}")


def test_install_without_any_lgpio_changes_nothing(recorded: list[str]) -> None:
    with pytest.raises(SystemExit, match="nothing was changed"):
        installer.Installer(None, pi_plan(), probe=Machine(glibc=None)).install()
    assert recorded == []


def test_install_says_where_lgpio_comes_from_before_its_first_change(
    recorded: list[str],
) -> None:
    installer.Installer(None, pi_plan(), probe=Machine()).install()
    assert recorded[0].startswith("say lgpio: python3-lgpio is not in apt's sources")
    changes = [line for line in recorded if not line.startswith("say")]
    assert changes[0] == "run apt-get update -q"
    assert "run apt-get install -y -q python3-venv" in changes  # not python3-lgpio: no such
    assert not any("python3-lgpio" in line for line in changes)
    pip = [line for line in changes if " -m pip " in line]
    assert pip[-1].endswith("install --only-binary=:all: lgpio>=0.2.2.0")


def test_the_app_copy_leaves_lgpio_fifos_behind() -> None:
    """`import lgpio` leaves a FIFO in its working directory; copying one fails."""
    names = [".lgd-nfy0", ".lgd-nfy12", "controller", "README.md"]
    assert installer._ignored("/src", names) == {".lgd-nfy0", ".lgd-nfy12"}


def test_install_from_the_archive_puts_python3_lgpio_in_with_apt(recorded: list[str]) -> None:
    installer.Installer(None, pi_plan(), probe=Machine(policy=RPI_POLICY)).install()
    assert recorded[0].startswith("say lgpio: python3-lgpio 0.2.2-1~rpt1 will be installed")
    assert "run apt-get install -y -q python3-venv python3-lgpio" in recorded
    assert not [line for line in recorded if "--only-binary" in line]


def test_the_probe_reads_the_index_as_pip_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """PEP 691's JSON from ``$PIP_INDEX_URL`` (a server on this machine), yanked files left
    out."""
    files = [{"filename": name, "yanked": name.endswith("tar.gz")} for name in LGPIO_FILES]

    class Index(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps({"files": files}).encode()
            ok = self.path == "/simple/lgpio/" and "pypi.simple.v1+json" in self.headers["Accept"]
            self.send_response(200 if ok else 404)
            self.send_header("Content-Type", "application/vnd.pypi.simple.v1+json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Index)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        monkeypatch.setenv("PIP_INDEX_URL", f"http://127.0.0.1:{server.server_port}/simple/")
        names = installer.Probe().pypi_files("lgpio")
        assert names == [n for n in LGPIO_FILES if not n.endswith("tar.gz")]
        with pytest.raises(OSError):
            installer.Probe().pypi_files("nothing-here")
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
