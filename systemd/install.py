#!/usr/bin/env python3
"""Install uno-attack on a Raspberry Pi (Raspberry Pi OS Bookworm or Trixie; Pi 3, 4, 5, Zero 2 W)
as a systemd service, or remove it. Run by `make install` / `make uninstall` (as root).

    install     copy the app to /opt/uno-attack/app, build /opt/uno-attack/venv with the `pi`
                extra (lgpio everywhere; RPi.GPIO except on a Pi 5), write a commented config
                to /etc/uno-attack/config.toml unless one exists, install the unit and the udev
                rule, create the `uno-attack` user, enable and start the service, and print
                where the tablets find the scoreboard. Run it again to upgrade: the config and
                the data in /var/lib/uno-attack are kept (the service migrates its database on
                start, keeping a backup of the old file).
    uninstall   stop and remove the service, the app and the rules; keep config and data.

With `--destdir DIR` (or `DESTDIR=DIR`) only files are written, all under DIR: no user, no venv,
no apt, no systemctl. That is how packaging and the tests use it. Standard library only: this
runs before the virtual environment exists.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1]
PREFIX = Path("/opt/uno-attack")
USER = "uno-attack"
FILES = {  # source path -> installed path
    "systemd/uno-attack.service": "/etc/systemd/system/uno-attack.service",
    "systemd/99-uno-launcher.rules": "/etc/udev/rules.d/99-uno-launcher.rules",
}
CONFIG = "/etc/uno-attack/config.toml"
SKIP = {".git", ".venv", "data", "test-artifacts", "__pycache__", ".mypy_cache", ".ruff_cache",
        ".pytest_cache", ".hypothesis", "build", "dist"}  # fmt: skip


class Installer:
    def __init__(self, destdir: Path | None, source: Path = SOURCE) -> None:
        self.destdir, self.source = destdir, source
        self.real = destdir is None

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
            self.ensure_venv_support()
            self.ensure_user()
        self.copy_app()
        for source, target in FILES.items():
            self.write(target, (self.source / source).read_bytes())
        self.write_config()
        if self.real:
            self.build_venv()
            self.start()
            self.show_where()
        else:
            self.say(f"files written under {self.destdir}")

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

    # ------------------------------------------------------------------ a real machine

    def check_root(self) -> None:
        if os.geteuid() != 0:
            raise SystemExit("uno-attack install: run as root (sudo make install)")

    def ensure_venv_support(self) -> None:
        if _run([sys.executable, "-m", "ensurepip", "--version"], check=False) != 0:
            self.say("installing python3-venv with apt")
            _run(["apt-get", "update", "-q"])
            _run(["apt-get", "install", "-y", "-q", "python3-venv"])

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
        if not (venv / "bin" / "python").exists():
            _run([sys.executable, "-m", "venv", str(venv)])
        extra = "pi5" if "Raspberry Pi 5" in board_model() else "pi"
        pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "-q"]
        _run([*pip, "install", "--upgrade", "pip"])
        # Editable, so the app's own files (pin profiles, docs) are read from PREFIX/app.
        _run([*pip, "install", "--upgrade", "--editable", f"{PREFIX / 'app'}[{extra}]"])
        self.say(f"virtual environment ready in {venv} (extra: {extra})")

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


def _ignored(directory: str, names: list[str]) -> set[str]:
    return {name for name in names if name in SKIP or name.endswith((".pyc", ".egg-info"))}


def _run(command: list[str], *, check: bool = True) -> int:
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if check and result.returncode != 0:
        raise SystemExit(f"uno-attack install: {' '.join(command)} failed: {result.stderr.strip()}")
    return result.returncode


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
    args = parser.parse_args(argv)
    installer = Installer(Path(args.destdir).resolve() if args.destdir else None)
    getattr(installer, args.action)()
    return 0


if __name__ == "__main__":
    sys.exit(main())
