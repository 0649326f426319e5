"""`uno-attack hall`: registered with the other commands, its addresses from the command line
or the configuration's `[hall]`, and a real hall process serving the board of a table."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.cli import build_parser, main
from controller.cli.hall import hall_config
from controller.config import parse_config
from tests.hall.playing import ServedTable, play
from tests.serving import free_port
from tests.waiting import wait_until


def test_hall_is_a_command_and_run_can_keep_quiet() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")
    assert "hall" in commands.choices  # type: ignore[operator]
    assert parser.parse_args(["run", "--no-announce"]).no_announce is True
    assert parser.parse_args(["run"]).no_announce is False


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ftp://pi-a.local"], "is not a table's address"),
        (["--since", "after lunch"], "hall.since: must be a date"),
        (["--port", "0"], "hall.port: must be >= 1"),
    ],
)
def test_hall_refuses_what_it_cannot_use(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hall", *args]) == 2
    assert message in capsys.readouterr().err


def test_hall_takes_its_tables_from_the_command_line_else_the_config(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[hall]\ntables = ["pi-a.local:8080", "http://pi-b.local:8080/t/b"]\nsince = "2025-06-14"\n'
    )
    parser = build_parser()
    from_config = hall_config(parser.parse_args(["hall", "--config", str(config)]))
    assert from_config.tables == ("http://pi-a.local:8080/", "http://pi-b.local:8080/t/b/")
    assert from_config.since_time is not None and from_config.port == 8090
    given = parser.parse_args(
        ["hall", "--config", str(config), "pi-c:80", "pi-c:80/", "--port", "9"]
    )
    chosen = hall_config(given)
    assert chosen.tables == ("http://pi-c:80/",) and chosen.port == 9
    assert parse_config("").hall.tables == ()


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read()) if "api/" in url else answer.read().decode()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[ServedTable]:
    served = ServedTable(tmp_path / "table")
    yield served
    served.close()


def test_a_hall_process_serves_the_board_of_a_table(table: ServedTable) -> None:
    play(table.service, 12, random.Random(5))
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "hall", table.url,
         "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    board = f"http://127.0.0.1:{port}/"
    try:

        def caught_up() -> bool:
            assert process.poll() is None, process.communicate()[0]
            try:
                view = get(f"{board}api/hall")
            except OSError:
                return False
            tables = view["tables"]
            return tables[0]["status"] == "live" and tables[0]["seq"] == table.seq

        wait_until(caught_up, "the hall shows the table")
        assert {row["name"] for row in get(f"{board}api/hall")["standings"]} <= {
            "Ann", "Bob", "Cy", "Di"
        }  # fmt: skip
        assert "hall.js" in get(board)
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0
        output = process.communicate()[0]
        assert f"Hall board: http://127.0.0.1:{port}/" in output
        assert f"Following: {table.url}" in output
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
