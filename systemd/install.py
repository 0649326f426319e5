#!/usr/bin/env python3
"""Install uno-attack on a Raspberry Pi (Raspberry Pi OS Bookworm or Trixie; Pi 3, 4, 5, Zero 2 W)
as a systemd service, or remove it. Run by `make install` / `make uninstall` (as root).

    install     install the OS's packages the app needs (python3-venv; on a Pi python3-lgpio,
                so nothing is compiled on the Pi), copy the app to /opt/uno-attack/app, build
                /opt/uno-attack/venv so that it sees those packages, put
                `dtparam=strict_gpiod` in the boot config (released GPIO outputs revert to
                inputs; a reboot applies it), write a commented config to
                /etc/uno-attack/config.toml unless one exists, install the unit and the udev
                rule, create the `uno-attack` user, enable and start the service, and print
                where the tablets find the scoreboard. Run it again to upgrade: the config and
                the data in /var/lib/uno-attack are kept (the service migrates its database on
                start, keeping a backup of the old file).
    uninstall   stop and remove the service, the app and the rules; keep config and data
                (and the boot config line, which only makes the GPIO lines safer).

Before it changes anything, `install` says where lgpio will come from (`choose_lgpio`): Debian's
python3-lgpio, which only the Raspberry Pi OS archive has (already installed, or apt's candidate
and its origin per `apt-cache policy`), else a PyPI wheel of lgpio for this Python and CPU put
into the venv (never a build); with neither it stops, having changed nothing. What the machine
says is asked through a `Probe`, so the tests give their own answers.

What to install follows from the OS release and the Pi model alone (`plan`), so every supported
combination is tested. With `--destdir DIR` (or `DESTDIR=DIR`) only files are written, all under
DIR (the boot config too): no user, no venv, no apt, no systemctl; `--release` and `--model`
say which machine the tree is for. That is how packaging and the tests use it. Standard library
only: this runs before the virtual environment exists.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

SOURCE = Path(__file__).resolve().parents[1]
PREFIX = Path("/opt/uno-attack")
USER = "uno-attack"
FILES = {  # source path -> installed path
    "systemd/uno-attack.service": "/etc/systemd/system/uno-attack.service",
    "systemd/99-uno-launcher.rules": "/etc/udev/rules.d/99-uno-launcher.rules",
}
CONFIG = "/etc/uno-attack/config.toml"
STRICT_GPIOD = "dtparam=strict_gpiod"
SUPPORTED_RELEASES = ("bookworm", "trixie")
OLDER_RELEASES = ("buster", "bullseye")  # the boot partition was still mounted on /boot
SUPPORTED_MODELS = (  # how /proc/device-tree/model starts on each supported board
    "Raspberry Pi 3",
    "Raspberry Pi 4",
    "Raspberry Pi 5",
    "Raspberry Pi Zero 2 W",
)
ANY_PI = "Raspberry Pi"  # a Pi of any supported model (a DESTDIR tree built on another machine)
SKIP = {".git", ".venv", "data", "test-artifacts", "__pycache__", ".mypy_cache", ".ruff_cache",
        ".pytest_cache", ".hypothesis", "build", "dist"}  # fmt: skip
LGPIO_MIN = "0.2.2.0"  # as the 'pi' extra in pyproject.toml asks
PYPI_INDEX = "https://pypi.org/simple"


# ---------------------------------------------------------------------- what to install


@dataclass(frozen=True)
class Plan:
    """What the installer does on one machine: a pure function of (OS release, Pi model)."""

    apt: tuple[str, ...]  # Debian packages the app needs
    system_site_packages: bool  # the venv sees the OS's Python packages (python3-lgpio)
    boot_config: str | None  # where dtparam=strict_gpiod goes; None off a Pi
    notes: tuple[str, ...]  # said to the person installing


def plan(release: str, model: str) -> Plan:
    """Decide for Raspberry Pi OS `release` (VERSION_CODENAME) on board `model` (the device
    tree's model string; empty off a Pi).

    Every Pi gets Debian's python3-lgpio (PyPI's lgpio has no wheel for every Python and ARM
    flavour these releases ship, and building it needs a compiler and swig) and a venv created
    with --system-site-packages so it imports it; gpiozero, Flask and the rest are pure Python
    from PyPI (where apt has no python3-lgpio, `choose_lgpio` takes a PyPI wheel instead). No
    other GPIO library: the app only ever uses gpiozero's lgpio pin factory.
    """
    notes: list[str] = []
    if release not in SUPPORTED_RELEASES:
        notes.append(f"OS release {release or 'unknown'!r} is not tested: use Raspberry Pi OS "
                     "Bookworm or Trixie")  # fmt: skip
    if not model.startswith("Raspberry Pi"):
        notes.append("not a Raspberry Pi: no GPIO packages and no boot config; the launcher "
                     "runs on its simulator unless [launcher] backend says otherwise")  # fmt: skip
        return Plan(("python3-venv",), False, None, tuple(notes))
    if model != ANY_PI and not any(model.startswith(prefix) for prefix in SUPPORTED_MODELS):
        notes.append(f"{model!r} is not tested: use a Pi 3, 4, 5 or Zero 2 W")
    boot = "/boot/config.txt" if release in OLDER_RELEASES else "/boot/firmware/config.txt"
    return Plan(("python3-venv", "python3-lgpio"), True, boot, tuple(notes))


def with_strict_gpiod(config: str) -> str | None:
    """`config` (a config.txt) with dtparam=strict_gpiod added at the end under ``[all]``, or
    None if it already turns it on (``dtparam=strict_gpiod``, ``=on``, or in a list)."""
    for line in config.splitlines():
        key, _, value = line.split("#", 1)[0].strip().partition("=")
        if key.strip() != "dtparam":
            continue
        for param in value.split(","):
            name, _, setting = param.strip().partition("=")
            if name.strip() == "strict_gpiod" and setting.strip() in ("", "on", "true", "yes"):
                return None
    head = config if config.endswith("\n") or not config else config + "\n"
    return (head + "\n[all]\n# uno-attack: a released GPIO output reverts to an input (motor "
            "off) instead of\n# staying driven after the process that owned it dies.\n"
            f"{STRICT_GPIOD}\n")  # fmt: skip


# ---------------------------------------------------------------------- where lgpio comes from


class Probe:
    """What the installer asks the machine before it changes anything. The tests pass a
    subclass with canned answers."""

    def installed_version(self, package: str) -> str | None:
        """The Debian package's installed version, or None."""
        try:
            result = subprocess.run(["dpkg-query", "-W", "-f=${Status} ${Version}", package],
                                    capture_output=True, text=True)  # fmt: skip
        except OSError:
            return None
        status, _, version = result.stdout.strip().rpartition(" ")
        return version if result.returncode == 0 and status == "install ok installed" else None

    def apt_policy(self, package: str) -> str:
        """``apt-cache policy PACKAGE`` (empty when apt knows no such package)."""
        try:
            return subprocess.run(["apt-cache", "policy", package],
                                  capture_output=True, text=True).stdout  # fmt: skip
        except OSError:
            return ""

    def pypi_files(self, project: str) -> list[str]:
        """The file names of `project` on the package index (``$PIP_INDEX_URL`` or PyPI),
        yanked ones left out, through its JSON simple API (PEP 691). Raises OSError or
        ValueError where the index cannot be read."""
        index = (os.environ.get("PIP_INDEX_URL") or PYPI_INDEX).rstrip("/")
        request = urllib.request.Request(
            f"{index}/{project}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
        )
        with urllib.request.urlopen(request, timeout=20) as response:
            files = json.load(response).get("files", [])
        return [f["filename"] for f in files if not f.get("yanked")]

    def python(self) -> tuple[int, int]:
        return sys.version_info[0], sys.version_info[1]

    def machine(self) -> str:
        """The CPU as wheels name it: a 32-bit Python on a 64-bit kernel is armv7l."""
        machine = platform.machine()
        if machine in ("aarch64", "arm64", "armv8l") and sys.maxsize <= 2**32:
            return "armv7l"
        return machine

    def glibc(self) -> tuple[int, int] | None:
        name, version = platform.libc_ver()
        parts = version.split(".")
        if name != "glibc" or len(parts) < 2 or not all(p.isdigit() for p in parts[:2]):
            return None
        return int(parts[0]), int(parts[1])


@dataclass(frozen=True)
class LgpioSource:
    """Where lgpio comes from: ``installed`` (python3-lgpio is there), ``apt`` (python3-lgpio
    from `origin`) or ``pypi`` (`wheel` into the venv)."""

    via: str
    text: str
    origin: str = ""
    wheel: str = ""


def apt_candidate(policy: str) -> tuple[str, list[str]] | None:
    """apt's candidate version in `policy` (``apt-cache policy`` output) and where it would
    come from (the archive URLs listed under it), or None if there is none."""
    candidate = ""
    for line in policy.splitlines():
        key, _, value = line.strip().partition(":")
        if key == "Candidate":
            candidate = value.strip()
    if not candidate or candidate == "(none)":
        return None
    origins: list[str] = []
    current = ""
    for line in policy.splitlines():
        words = line.replace("***", " ").split()
        if len(words) >= 2 and words[0].isdigit() and "/" in words[1]:
            if current == candidate:  # "500 http://archive… bookworm/main arm64 Packages"
                origins.append(words[1] if len(words) < 3 else " ".join(words[1:3]))
        elif len(words) == 2 and words[1].isdigit():  # "0.2.2-1~rpt1 500": a version
            current = words[0]
    return candidate, origins


def raspberry_pi_archive(origin: str) -> bool:
    """`origin` is the Raspberry Pi OS archive (archive.raspberrypi.com, or .org before it)."""
    return urlparse(origin.split()[0]).netloc.startswith("archive.raspberrypi.")


def _version(text: str) -> tuple[int, ...]:
    parts = []
    for part in text.split("."):
        digits = "".join(c for c in part if c.isdigit()) if part[:1].isdigit() else ""
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


MANYLINUX_ALIASES = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


def _platform_fits(tag: str, machine: str, glibc: tuple[int, int] | None) -> bool:
    if tag == "any" or tag == f"linux_{machine}":
        return True
    if not tag.endswith(f"_{machine}"):
        return False
    head = tag[: -len(machine) - 1]
    if head in MANYLINUX_ALIASES:
        needs = MANYLINUX_ALIASES[head]
    elif head.startswith("manylinux_"):
        major, _, minor = head.removeprefix("manylinux_").partition("_")
        if not (major.isdigit() and minor.isdigit()):
            return False
        needs = (int(major), int(minor))
    else:
        return False
    return glibc is not None and needs <= glibc


def pypi_wheel(files: list[str], python: tuple[int, int], machine: str,
               glibc: tuple[int, int] | None, minimum: str = LGPIO_MIN) -> str | None:  # fmt: skip
    """The newest wheel in `files` that pip would install for CPython `python` on `machine`
    with `glibc`, at version `minimum` or later (no sdist: nothing is compiled on a Pi)."""
    major, minor = python
    pythons = {f"cp{major}{minor}", f"py{major}", f"py{major}{minor}"}
    best: tuple[tuple[int, ...], str] | None = None
    for name in files:
        if not name.endswith(".whl"):
            continue
        parts = name[: -len(".whl")].split("-")
        if len(parts) not in (5, 6):
            continue
        version = _version(parts[1])
        py_tags, abi, platforms = parts[-3].split("."), parts[-2], parts[-1].split(".")
        abi3 = abi == "abi3" and any(
            t.startswith(f"cp{major}") and t[2:].isdigit() and int(t[3:] or 0) <= minor
            for t in py_tags
        )
        fits = (
            version >= _version(minimum)
            and (abi3 or (set(py_tags) & pythons and abi in (f"cp{major}{minor}", "none")))
            and any(_platform_fits(tag, machine, glibc) for tag in platforms)
        )
        if fits and (best is None or version > best[0]):
            best = (version, name)
    return None if best is None else best[1]


def choose_lgpio(plan: Plan, probe: Probe) -> LgpioSource | None:
    """Where lgpio will come from on this machine (None where the plan needs none), or a
    SystemExit that says why there is nowhere, before anything was changed."""
    if "python3-lgpio" not in plan.apt:
        return None
    installed = probe.installed_version("python3-lgpio")
    if installed is not None:
        return LgpioSource("installed", f"lgpio: python3-lgpio {installed} is installed already; "
                                        "the virtual environment will use it")  # fmt: skip
    found = apt_candidate(probe.apt_policy("python3-lgpio"))
    if found is not None:
        version, origins = found
        origin = origins[0] if origins else "apt's sources"
        which = " (the Raspberry Pi OS archive)" if raspberry_pi_archive(origin) else ""
        return LgpioSource("apt", f"lgpio: python3-lgpio {version} will be installed with apt "
                                  f"from {origin}{which}", origin=origin)  # fmt: skip
    python, machine, glibc = probe.python(), probe.machine(), probe.glibc()
    why = f"PyPI has no lgpio>={LGPIO_MIN} wheel for Python {python[0]}.{python[1]} on {machine}"
    try:
        wheel = pypi_wheel(probe.pypi_files("lgpio"), python, machine, glibc)
    except (OSError, ValueError) as error:
        wheel, why = None, f"PyPI could not be asked ({error})"
    if wheel is not None:
        text = (
            "lgpio: python3-lgpio is not in apt's sources (only the Raspberry Pi OS archive "
            f"has it); lgpio will come from PyPI as {wheel}, into the virtual environment"
        )
        return LgpioSource("pypi", text, wheel=wheel)
    raise SystemExit(
        "uno-attack install: stopped, nothing was changed: there is no lgpio for this machine. "
        "python3-lgpio is not in apt's sources (only the Raspberry Pi OS archive, "
        f"archive.raspberrypi.com, has it; Debian does not), and {why}. Use Raspberry Pi OS "
        "Bookworm or Trixie, or add the Raspberry Pi OS archive to apt's sources; if this "
        "machine has never run `sudo apt-get update`, run it, then `sudo make install` again."
    )


class Installer:
    def __init__(self, destdir: Path | None, plan: Plan, source: Path = SOURCE,
                 probe: Probe | None = None) -> None:  # fmt: skip
        self.destdir, self.plan, self.source = destdir, plan, source
        self.real = destdir is None
        self.reboot = False
        self.probe = probe if probe is not None else Probe()
        self.lgpio: LgpioSource | None = None

    def path(self, target: str | Path) -> Path:
        """Where `target` goes: itself, or under the DESTDIR tree."""
        target = Path(target)
        return target if self.destdir is None else self.destdir / target.relative_to("/")

    def say(self, text: str) -> None:
        print(f"uno-attack install: {text}", flush=True)

    # ------------------------------------------------------------------ install

    def install(self) -> None:
        if self.real:
            self.check_root()
            self.lgpio = choose_lgpio(self.plan, self.probe)  # before anything changes
            if self.lgpio is not None:
                self.say(self.lgpio.text)
            self.ensure_packages()
            self.ensure_user()
        self.copy_app()
        for source, target in FILES.items():
            self.write(target, (self.source / source).read_bytes())
        self.write_config()
        self.ensure_strict_gpiod()
        if self.real:
            self.build_venv()
            self.start()
            self.show_where()
        else:
            self.say(f"files written under {self.destdir}")
        for note in self.plan.notes:
            self.say(f"note: {note}")
        if self.reboot:
            status = f"{PREFIX}/venv/bin/uno-attack status"
            self.say(f"REBOOT NEEDED: {STRICT_GPIOD} takes effect after `sudo reboot`; "
                     f"then `{status}` says whether it is in force")  # fmt: skip

    def copy_app(self) -> None:
        """The project's files into PREFIX/app, replacing an older copy."""
        app = self.path(PREFIX / "app")
        if app.exists():
            shutil.rmtree(app)
        shutil.copytree(self.source, app, ignore=_ignored)
        self.say(f"app copied to {PREFIX / 'app'}")

    def write(self, target: str, content: bytes, mode: int = 0o644) -> None:
        path = self.path(target)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        path.chmod(mode)
        self.say(f"wrote {target}")

    def write_config(self) -> None:
        path = self.path(CONFIG)
        if path.exists():
            self.say(f"kept your {CONFIG}")
            return
        example = (self.source / "controller" / "config.example.toml").read_bytes()
        self.write(CONFIG, example, 0o640)
        if self.real:
            shutil.chown(path, "root", USER)

    def ensure_strict_gpiod(self) -> None:
        """Released GPIO outputs revert to inputs, so a dead process cannot leave the motor on."""
        target = self.plan.boot_config
        if target is None:
            return
        path = self.path(target)
        if path.exists():
            current = path.read_text(encoding="utf-8")
        elif self.real:
            self.say(f"no {target}: add {STRICT_GPIOD} to your boot config by hand")
            return
        else:
            current = ""
        updated = with_strict_gpiod(current)
        if updated is None:
            self.say(f"{target} already has {STRICT_GPIOD}")
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(updated, encoding="utf-8")
        self.reboot = True
        self.say(f"added {STRICT_GPIOD} to {target}")

    # ------------------------------------------------------------------ a real machine

    def check_root(self) -> None:
        if os.geteuid() != 0:
            raise SystemExit("uno-attack install: run as root (sudo make install)")

    def ensure_packages(self) -> None:
        """The plan's Debian packages, with apt, if any is missing (no apt run otherwise)."""
        wanted = [
            name
            for name in self.plan.apt
            if not (name == "python3-lgpio" and self.lgpio and self.lgpio.via == "pypi")
        ]
        missing = [name for name in wanted if self.probe.installed_version(name) is None]
        if missing:
            self.say(f"installing {' '.join(missing)} with apt")
            _run(["apt-get", "update", "-q"])
            _run(["apt-get", "install", "-y", "-q", *missing])

    def ensure_user(self) -> None:
        for group in ("gpio", "dialout"):
            if _run(["getent", "group", group], check=False) != 0:
                _run(["groupadd", "--system", group])
        if _run(["id", USER], check=False) != 0:
            _run(["useradd", "--system", "--no-create-home", "--home-dir", "/var/lib/uno-attack",
                  "--shell", "/usr/sbin/nologin", "--groups", "gpio,dialout", USER])  # fmt: skip
            self.say(f"created the {USER} user")

    def build_venv(self) -> None:
        venv = PREFIX / "venv"
        see_system = self.plan.system_site_packages
        command = [sys.executable, "-m", "venv"]
        if see_system:
            command.append("--system-site-packages")  # python3-lgpio comes from the OS
        if (venv / "bin" / "python").exists() and _sees_system(venv) != see_system:
            command.append("--clear")  # an older install's venv, made the other way
        elif (venv / "bin" / "python").exists():
            command = []
        if command:
            _run([*command, str(venv)])
        pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "-q"]
        # Editable, so the app's own files (pin profiles, docs) are read from PREFIX/app.
        # Every dependency is pure Python: nothing is compiled on the Pi.
        _run([*pip, "install", "--upgrade", "--editable", str(PREFIX / "app")])
        if self.lgpio is not None and self.lgpio.via == "pypi":  # a wheel: nothing compiled
            _run([*pip, "install", "--only-binary=:all:", f"lgpio>={LGPIO_MIN}"])
        if "python3-lgpio" in self.plan.apt:
            with tempfile.TemporaryDirectory() as scratch:  # its notification FIFO goes there,
                _run([str(venv / "bin" / "python"), "-c", "import lgpio"],  # not in the clone
                     cwd=scratch, env={**os.environ, "LG_WD": scratch})  # fmt: skip
        self.say(f"virtual environment ready in {venv}")

    def start(self) -> None:
        _run(["systemctl", "daemon-reload"])
        _run(["udevadm", "control", "--reload-rules"], check=False)
        _run(["udevadm", "trigger", "--subsystem-match=tty"], check=False)
        _run(["systemctl", "enable", "uno-attack.service"])
        _run(["systemctl", "restart", "uno-attack.service"])
        self.say("service enabled and (re)started: journalctl -u uno-attack -f shows its log")

    def show_where(self) -> None:
        port = _configured_port(self.path(CONFIG))
        for host in (f"{socket.gethostname()}.local", *_addresses()):
            print(f"Scoreboard: http://{host}:{port}/")
        print("Table PIN and admin password: edit /etc/uno-attack/config.toml, then "
              "sudo systemctl restart uno-attack")  # fmt: skip

    # ------------------------------------------------------------------ uninstall

    def uninstall(self) -> None:
        if self.real:
            self.check_root()
            _run(["systemctl", "disable", "--now", "uno-attack.service"], check=False)
        for target in FILES.values():
            self.path(target).unlink(missing_ok=True)
            self.say(f"removed {target}")
        shutil.rmtree(self.path(PREFIX), ignore_errors=True)
        self.say(f"removed {PREFIX}")
        if self.real:
            _run(["systemctl", "daemon-reload"])
            _run(["udevadm", "control", "--reload-rules"], check=False)
        self.say(f"kept {CONFIG} and /var/lib/uno-attack (delete them to forget everything)")
        if self.plan.boot_config is not None:
            self.say(f"kept {STRICT_GPIOD} in {self.plan.boot_config}")


def _ignored(directory: str, names: list[str]) -> set[str]:
    """Build and cache files, and lgpio's notification FIFOs (``.lgd-nfy*``, left where lgpio
    was imported: copying a FIFO fails)."""
    return {name for name in names if name in SKIP or name.endswith((".pyc", ".egg-info"))
            or name.startswith(".lgd-nfy")}  # fmt: skip


def _run(command: list[str], *, check: bool = True, cwd: str | None = None,
         env: dict[str, str] | None = None) -> int:  # fmt: skip
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, cwd=cwd, env=env)  # fmt: skip
    if check and result.returncode != 0:
        raise SystemExit(f"uno-attack install: {' '.join(command)} failed: {result.stderr.strip()}")
    return result.returncode


def _sees_system(venv: Path) -> bool:
    try:
        config = (venv / "pyvenv.cfg").read_text()
    except OSError:
        return False
    return "include-system-site-packages = true" in config


def os_release(path: Path = Path("/etc/os-release")) -> str:
    """The OS release's code name (``bookworm``, ``trixie``), or "" if unknown."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    for line in lines:
        key, _, value = line.partition("=")
        if key == "VERSION_CODENAME":
            return value.strip().strip('"')
    return ""


def board_model(model_file: Path = Path("/proc/device-tree/model")) -> str:
    try:
        return model_file.read_text(errors="replace").strip("\0\n")
    except OSError:
        return ""


def _configured_port(config: Path) -> int:
    import tomllib

    try:
        return int(tomllib.loads(config.read_text()).get("service", {}).get("port", 8080))
    except (OSError, ValueError, tomllib.TOMLDecodeError):
        return 8080


def _addresses() -> list[str]:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this picks the LAN address
            return [str(probe.getsockname()[0])]
    except OSError:
        return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Install or remove the uno-attack service.")
    parser.add_argument("action", choices=("install", "uninstall"))
    parser.add_argument("--destdir", default=os.environ.get("DESTDIR") or None,
                        help="write files under this tree only (packaging, tests)")  # fmt: skip
    parser.add_argument("--release", help="OS release code name (default: this machine's)")
    parser.add_argument("--model", help="Raspberry Pi model (default: this machine's)")
    args = parser.parse_args(argv)
    destdir = Path(args.destdir).resolve() if args.destdir else None
    release = args.release or os_release()
    model = args.model if args.model is not None else board_model()
    if destdir is not None and not model.startswith("Raspberry Pi"):
        model = ANY_PI  # a tree for a Pi, built elsewhere
    installer = Installer(destdir, plan(release, model))
    getattr(installer, args.action)()
    return 0


if __name__ == "__main__":
    sys.exit(main())
