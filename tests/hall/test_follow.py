"""The hall follows real table services over HTTP (waitress, in this process): live, while a
table is away (its web server cut, the table logging on), and caught up exactly when it is
back: its standings equal the sums worked out from the tables' own logs. A table given at two
addresses is followed, listed and counted once; an address that is no table says why."""

from __future__ import annotations

import errno
import http.client
import json
import random
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from controller.hall import Hall
from controller.hall.feed import ReasonCode
from controller.hall.follower import TableAnswer, describe
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
    assert listed(hall, away.url)["error_code"] == "refused"
    assert hall_totals(hall.view()) == before  # what it counted stays while it is away

    away.back()
    wait_until(lambda: exact(hall, tables), "caught up after the table came back")
    feed = next(feed for feed in hall.feeds if feed.url == away.url)
    assert len(feed.matches) == logged_matches(away.log_path) > 5
    assert listed(hall, away.url)["error"] is None
    assert listed(hall, away.url)["error_code"] is None


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
            assert listed(hall, url)["error_code"] == "timeout"
        finally:
            hall.stop()


def test_one_table_at_two_addresses_is_followed_listed_and_counted_once(
    tables: list[ServedTable], hall: Hall
) -> None:
    table, other_table = tables
    port = table.relay.port
    other = f"http://localhost:{port}/"
    for url in (table.url, other, other_table.url):
        hall.follow(url)
    rng = random.Random(6)
    play(table.service, 40, rng)
    play(other_table.service, 10, rng)

    def once() -> bool:
        view = hall.view()
        shown = {row["url"]: row for row in view["tables"]}
        kept = shown.get(table.url) or shown.get(other)
        return (
            len(shown) == 2
            and kept is not None
            and kept["status"] == "live"
            and kept["seq"] == table.seq
            and shown[other_table.url]["seq"] == other_table.seq
            and hall_totals(view) == logged_totals(t.log_path for t in tables)
        )

    wait_until(once, "the table listed and counted once, beside the other table")
    kept = next(row for row in hall.view()["tables"] if row["url"] != other_table.url)
    assert sorted([kept["url"], *kept["also"]]) == sorted([table.url, other])
    assert kept["deals"] == table.service.snapshot()["deal_count"]
    assert hall.follow(other) is hall.follow(table.url)  # followed at one address only
    followers = (f"hall-localhost:{port}/", f"hall-127.0.0.1:{port}/")
    wait_until(
        lambda: (
            sum(t.name.removesuffix("-matches") in followers for t in threading.enumerate()) == 2
        ),
        "one follower (its stream's thread and its matches') left for the table",
    )


def test_a_table_away_from_its_address_is_followed_where_it_answers(
    tables: list[ServedTable], hall: Hall
) -> None:
    """A Pi that came back with a new IP address, found again on the network."""
    table = tables[0]
    hall.follow(table.url)
    rng = random.Random(7)
    play(table.service, 20, rng)
    wait_until(lambda: exact(hall, [table]), "caught up at its first address")
    table.cut()
    wait_until(lambda: listed(hall, table.url)["status"] == "offline", "offline there")
    elsewhere = f"http://127.0.0.1:{table.relay.target}/"  # the service itself, not its relay
    hall.follow(elsewhere)
    play(table.service, 20, rng)

    def followed_elsewhere() -> bool:
        view = hall.view()
        shown = view["tables"][-1]
        return (
            [row["url"] for row in view["tables"]] == [elsewhere]
            and shown["status"] == "live"
            and shown["seq"] == table.seq
            and hall_totals(view) == logged_totals([table.log_path])
        )

    wait_until(followed_elsewhere, "the table followed where it answers, counted once")
    assert hall.view()["tables"][0]["also"] == [table.url]
    assert hall.follow(table.url) is hall.follow(elsewhere)


class NotATable(BaseHTTPRequestHandler):
    """Something else that answers HTTP: `answers` says its status and content type."""

    answers: tuple[int, str] = (404, "text/html")

    def do_GET(self) -> None:
        status, kind = self.answers
        if status != 200:
            self.send_error(status)
            return
        body = b"<html>not a table</html>"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.mark.parametrize(
    ("answers", "error", "code", "status"),
    [
        ((404, "text/html"), "its event stream answered 404 Not Found", "not_a_table", 404),
        ((200, "text/html"), "its /api/events is not an event stream (text/html)",
         "not_a_table", None),
        ((503, "text/html"), "its event stream answered 503 Service Unavailable",
         "http_error", 503),
    ],
)  # fmt: skip
def test_an_address_that_is_no_table_is_offline_saying_why(
    answers: tuple[int, str], error: str, code: str, status: int | None
) -> None:
    handler = type("Answering", (NotATable,), {"answers": answers})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    hall = Hall(retry=60)
    try:
        hall.follow(url)
        wait_until(lambda: listed(hall, url)["status"] == "offline", "shown offline")
        shown = listed(hall, url)
        assert (shown["error"], shown["error_code"], shown["error_status"]) == (error, code, status)
        assert shown["id"] is None and hall.view()["standings"] == []
    finally:
        hall.stop()
        server.shutdown()
        server.server_close()


# what reaching or reading a table may raise, and the reason the board is given for it
FAILURE_REASONS: list[tuple[BaseException, ReasonCode]] = [
    (ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused"), ReasonCode.REFUSED),
    (TimeoutError("timed out"), ReasonCode.TIMEOUT),
    (socket.gaierror(socket.EAI_NONAME, "Name or service not known"),
     ReasonCode.UNKNOWN_HOST),
    (OSError(errno.EHOSTUNREACH, "No route to host"), ReasonCode.UNREACHABLE),
    (OSError(errno.ENETUNREACH, "Network is unreachable"), ReasonCode.UNREACHABLE),
    (ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"), ReasonCode.DROPPED),
    (http.client.RemoteDisconnected("Remote end closed connection"), ReasonCode.DROPPED),
    (http.client.IncompleteRead(b""), ReasonCode.DROPPED),
    (http.client.BadStatusLine("SSH-2.0-OpenSSH_9.2"), ReasonCode.NOT_A_TABLE),
    (TableAnswer("its match history answered 500", ReasonCode.HTTP_ERROR, 500),
     ReasonCode.HTTP_ERROR),
    (TableAnswer("a line of its event stream is too long"), ReasonCode.UNREADABLE),
    (json.JSONDecodeError("Expecting value", "<html>", 0), ReasonCode.UNREADABLE),
    (ValueError("not an answer of GET /api/matches"), ReasonCode.UNREADABLE),
    (KeyError("seq"), ReasonCode.UNREADABLE),
    (OSError(errno.EACCES, "Permission denied"), ReasonCode.FAILED),
    (http.client.LineTooLong("header line"), ReasonCode.FAILED),
]  # fmt: skip


@pytest.mark.parametrize(("error", "code"), FAILURE_REASONS)
def test_every_failure_is_given_a_reason_code_and_english_words(
    error: BaseException, code: ReasonCode
) -> None:
    reason = describe(error)
    assert reason.code is code and reason.text
    assert reason.status == (500 if code is ReasonCode.HTTP_ERROR else None)


def test_every_reason_code_is_given_for_some_failure() -> None:
    """The stream's end is `closed` (no failure); every other code comes from one above."""
    assert {code for _, code in FAILURE_REASONS} | {ReasonCode.CLOSED} == set(ReasonCode)
