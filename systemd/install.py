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

What to install follows from the OS release and the Pi model alone (`plan`), so every supported
combination is tested. With `--destdir DIR` (or `DESTDIR=DIR`) only files are written, all under
DIR (the boot config too): no user, no venv, no apt, no systemctl; `--release` and `--model`
say which machine the tree is for. That is how packaging and the tests use it. Standard library
only: this runs before the virtual environment exists.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

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
    from PyPI. No other GPIO library: the app only ever uses gpiozero's lgpio pin factory.
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


class Installer:
    def __init__(self, destdir: Path | None, plan: Plan, source: Path = SOURCE) -> None:
        self.destdir, self.plan, self.source = destdir, plan, source
        self.real = destdir is None
        self.reboot = False

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
            self.say(f"REBOOT NEEDED: {STRICT_GPIOD} takes effect after `sudo reboot`")

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
        missing = [name for name in self.plan.apt if not _dpkg_installed(name)]
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
        if "python3-lgpio" in self.plan.apt:
            _run([str(venv / "bin" / "python"), "-c", "import lgpio"])
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
    return {name for name in names if name in SKIP or name.endswith((".pyc", ".egg-info"))}


def _run(command: list[str], *, check: bool = True) -> int:
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if check and result.returncode != 0:
        raise SystemExit(f"uno-attack install: {' '.join(command)} failed: {result.stderr.strip()}")
    return result.returncode


def _dpkg_installed(package: str) -> bool:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                            capture_output=True, text=True)  # fmt: skip
    return result.returncode == 0 and result.stdout.strip() == "install ok installed"


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
