"""`uno-attack run` as an operator starts it: the banner never shows the PIN, and default or
weak credentials are warned about."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.serving import free_port, wait_answering


def start(tmp_path: Path, config: str, service: str) -> str:
    """Run the service with `config` until it answers; return everything it printed."""
    port = free_port()
    path = tmp_path / "uno.toml"
    (tmp_path / "data").mkdir()  # an operator's data directory exists (systemd makes it)
    data = f'data_dir = "{tmp_path / "data"}"'
    path.write_text(f"{config}\n[service]\n{data}\n{service}\n", encoding="utf-8")
    output = tmp_path / "output.txt"
    with output.open("w") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "run", "--config", str(path),
             "--launcher", "none", "--host", "127.0.0.1", "--port", str(port)],
            stdout=sink, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            wait_answering(port, process, output.read_text)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(30)
    return output.read_text()


@pytest.mark.parametrize(
    ("config", "service", "warned", "pin"),
    [
        ("", "", ["still the default one", "no admin password"], "1234"),
        ('[table]\npin = "80386"', 'admin_password = "x"', ["shorter than 8"], "80386"),
        ('[table]\npin = "80386"', 'admin_password = "a long one"', [], "80386"),
    ],
)
def test_the_start_warns_of_weak_credentials_and_never_shows_the_pin(
    tmp_path: Path, config: str, service: str, warned: list[str], pin: str
) -> None:
    said = start(tmp_path, config, service)
    assert "Scoreboard: http://" in said
    assert all(warning in said for warning in warned), said
    assert ("WARNING" in said) == bool(warned), said
    assert pin not in said.replace(str(tmp_path), "")
