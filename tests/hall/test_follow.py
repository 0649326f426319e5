"""The hall follows real table services over HTTP (waitress, in this process): live, while a
table is away (its web server cut, the table logging on), and caught up exactly when it is
back: its standings equal the sums worked out from the tables' own logs."""

from __future__ import annotations

import random
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from controller.hall import Hall
from tests.hall.logs import hall_totals, logged_matches, logged_totals
from tests.hall.playing import ServedTable, play
from tests.waiting import wait_until
from web_ui.stream import MISSED

RETRY = 0.02  # seconds between the hall's attempts to reach a table that is away


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[list[ServedTable]]:
    made = [ServedTable(tmp_path / name) for name in ("a", "b")]
    yield made
    for table in made:
        table.close()


@pytest.fixture
def hall() -> Iterator[Hall]:
    followed = Hall(retry=RETRY)
    yield followed
    followed.stop()


def listed(hall: Hall, url: str) -> dict[str, Any]:
    return next(table for table in hall.view()["tables"] if table["url"] == url)


def exact(hall: Hall, tables: list[ServedTable]) -> bool:
    """Every table live and read to its last record, the standings those of the logs."""
    view = hall.view()
    rows = {table["url"]: table for table in view["tables"]}
    caught_up = all(
        rows[table.url]["status"] == "live" and rows[table.url]["seq"] == table.seq
        for table in tables
    )
    return caught_up and hall_totals(view) == logged_totals(t.log_path for t in tables)


def test_hall_follows_tables_as_they_play(tables: list[ServedTable], hall: Hall) -> None:
    for table in tables:
        hall.follow(table.url)
    assert {t["status"] for t in hall.view()["tables"]} <= {"connecting", "live"}
    rng = random.Random(1)
    for table in tables:
        play(table.service, 40, rng)
    wait_until(lambda: exact(hall, tables), "the hall has both tables' totals")
    view = hall.view()
    assert {row["name"] for row in view["standings"]} == {"Ann", "Bob", "Cy", "Di"}
    first = listed(hall, tables[0].url)
    assert first["id"] == "main" and first["match"]["players"][0]["name"] == "Ann"
    assert first["deals"] == tables[0].service.snapshot()["deal_count"]
    assert hall.follow(tables[0].url.upper().replace("HTTP", "http")) is hall.feeds[0]


def test_a_table_away_is_offline_then_caught_up_exactly(
    tables: list[ServedTable], hall: Hall
) -> None:
    here, away = tables
    for table in tables:
        hall.follow(table.url)
    rng = random.Random(2)
    play(here.service, 30, rng)
    play(away.service, 30, rng)
    wait_until(lambda: exact(hall, tables), "caught up before")

    away.cut()
    wait_until(lambda: listed(hall, away.url)["status"] == "offline", "the table shown offline")
    before = hall_totals(hall.view())
    records = 2 * MISSED + 100  # more than a reconnecting stream is resent, several matches
    play(away.service, records, rng)
    assert listed(hall, away.url)["status"] == "offline"
    assert listed(hall, away.url)["error"] == "connection refused"
    assert hall_totals(hall.view()) == before  # what it counted stays while it is away

    away.back()
    wait_until(lambda: exact(hall, tables), "caught up after the table came back")
    feed = next(feed for feed in hall.feeds if feed.url == away.url)
    assert len(feed.matches) == logged_matches(away.log_path) > 5
    assert listed(hall, away.url)["error"] is None


def test_a_table_with_a_new_log_replaces_what_the_hall_counted(
    tables: list[ServedTable], hall: Hall, tmp_path: Path
) -> None:
    old = tables[1]
    hall.follow(old.url)
    play(old.service, 60, random.Random(3))
    wait_until(lambda: exact(hall, [old]), "caught up with the first log")
    old.cut()
    wait_until(lambda: listed(hall, old.url)["status"] == "offline", "offline")
    new = ServedTable(tmp_path / "new", port=old.relay.port)  # its seq starts again below the old
    try:
        play(new.service, 5, random.Random(4))
        wait_until(lambda: exact(hall, [new]), "the new log's totals alone")
    finally:
        new.close()


def test_a_table_that_goes_silent_is_shown_offline() -> None:
    """No FIN, no answer (a Pi that left the Wi-Fi): after `stale` seconds without a byte."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()  # connections are taken by the kernel, never answered
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/"
        hall = Hall(retry=60, stale=0.2)
        try:
            hall.follow(url)
            wait_until(lambda: listed(hall, url)["status"] == "offline", "shown offline")
            assert listed(hall, url)["error"] == "no answer"
        finally:
            hall.stop()


def test_an_address_that_is_no_table_is_offline_saying_why() -> None:
    class NotATable(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_error(404)

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), NotATable)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    hall = Hall(retry=60)
    try:
        hall.follow(url)
        wait_until(lambda: listed(hall, url)["status"] == "offline", "shown offline")
        assert listed(hall, url)["error"] == "its event stream answered 404 Not Found"
        assert listed(hall, url)["id"] is None and hall.view()["standings"] == []
    finally:
        hall.stop()
        server.shutdown()
        server.server_close()
