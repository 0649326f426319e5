"""One service, two tables: table `a` on the Pi's pins (the launcher's GPIO code on mock pins),
table `b` on a Pico board (the serial code against the fake board over a pty). Each plays with
its own presses, its own PIN, its own URLs (`/t/<id>/`, the first also at `/`) and its own event
stream; a jam on one never stops the other."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest

from controller.launcher.board import find_port
from controller.table import TableService
from tests.several import Served, serving
from tests.waiting import wait_until

pytestmark = pytest.mark.serial  # table b's fake Pico board must react in time

TABLES = """
[[tables]]
id = "a"
name = "Window table"
launcher = "gpio"
pin = "1111"

[[tables]]
id = "b"
name = "Corner table"
launcher = "board"
serial_number = "E6614103E7"
pin = "2222"
"""
SETUP: dict[str, Any] = {
    "players": ["Ann", "Bob", "Cy", "Di"],
    "game": "attack",
    "first_dealer": 3,
    "seed": 1,
    "eject_profile": "draw-one",  # every press fires one card
}


class Tablet:
    """A browser's cookies and one table's CSRF token, over real HTTP; `at` is the table's
    path ("" for the root, "/t/b" for table b)."""

    def __init__(self, url: str, at: str = "", jar: CookieJar | None = None) -> None:
        self.url, self.at = url, at
        self.jar = jar or CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = self.get("/api/session")["csrf"]

    def table(self, at: str) -> Tablet:
        """The same browser at another table's address."""
        return Tablet(self.url, at, self.jar)

    def get(self, path: str) -> Any:
        with self.opener.open(self.url + self.at + path, timeout=30) as response:
            return json.load(response)

    def post(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.url + self.at + path,
            data=json.dumps(body or {}).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf},
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def cookies(self) -> set[str]:
        return {cookie.name for cookie in self.jar}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(TABLES, tmp_path) as service:
        yield service


def start(tablet: Tablet, pin: str) -> None:
    """Unlock this table, set up a match, deal and turn up: Ann is to move."""
    assert tablet.post("/api/session/pin", {"pin": pin})[0] == 200
    assert tablet.post("/api/setup", {"setup": SETUP})[0] == 200
    assert tablet.post("/api/deal")[0] == 200
    status, answer = tablet.post("/api/actions", {"action": {"type": "TurnUp", "card": "R5"}})
    assert status == 200, answer


def pressed(service: TableService) -> list[dict[str, Any]]:
    """Every Pressed event of the table's current match."""
    return [e for r in service.records_after(0, 10_000) for e in r.events if e["type"] == "Pressed"]


def press(served: Served, table_id: str) -> dict[str, Any]:
    """Press the table's UNO button (its simulated finger) and wait until the table's state
    shows the press's record."""
    table = served.table(table_id)
    before = len(pressed(table.service))
    launcher = table.service.launcher
    assert launcher is not None and launcher.simulator is not None
    launcher.simulator.press()
    wait_until(lambda: len(pressed(table.service)) > before, f"table {table_id}'s press recorded")
    logged = table.service.records_after(0, 1)[-1].seq
    # the record is logged a moment before the state shows it
    wait_until(lambda: table.service.snapshot()["seq"] >= logged, f"table {table_id} shows it")
    return pressed(table.service)[-1]


def test_each_table_plays_with_its_own_launcher(served: Served) -> None:
    start(Tablet(served.url, "/t/a"), "1111")
    start(Tablet(served.url, "/t/b"), "2222")
    a, b = served.table("a").service, served.table("b").service
    for table_id, service in (("a", a), ("b", b), ("a", a), ("b", b)):
        other = b if service is a else a
        others = other.snapshot()["seq"]
        hands = service.snapshot()["deal"]["hands"]
        event = press(served, table_id)
        assert len(event["cards"]) == event["reported"]
        assert service.snapshot()["deal"]["hands"][event["seat"]] == (
            hands[event["seat"]] + event["reported"]
        )
        assert other.snapshot()["seq"] == others  # the other table heard nothing of it
    assert [r.table_id for r in a.all_records()] == ["a"] * len(a.all_records())
    assert len(pressed(a)) == len(pressed(b)) == 2


def test_a_jam_at_one_table_never_stops_the_other(served: Served) -> None:
    start(Tablet(served.url, "/t/a"), "1111")
    tablet_b = Tablet(served.url, "/t/b")
    start(tablet_b, "2222")
    jammed = served.table("b").service.launcher
    assert jammed is not None and jammed.simulator is not None
    jammed.simulator.jam_next()
    jammed.simulator.press()
    wait_until(lambda: jammed.fault is not None and jammed.fault.kind == "jam", "b jams")
    wait_until(lambda: tablet_b.get("/api/state")["launcher"]["status"] == "jam", "b says so")
    for _ in range(3):  # table a plays on while b's launcher stands jammed
        event = press(served, "a")
        assert len(event["cards"]) == event["reported"]
        assert jammed.fault is not None
    jammed.simulator.clear_jam()
    assert tablet_b.post("/api/launcher/clear")[0] == 200
    assert jammed.fault is None
    press(served, "b")


def test_each_table_has_its_own_pin_and_cookie(served: Served) -> None:
    at_a = Tablet(served.url, "/t/a")
    assert at_a.post("/api/session/pin", {"pin": "2222"})[1] == {"error": "wrong PIN"}
    assert at_a.post("/api/session/pin", {"pin": "1111"})[0] == 200
    assert at_a.post("/api/setup", {"setup": SETUP})[0] == 200
    at_b = at_a.table("/t/b")  # the same browser at the other table: still locked there
    status, answer = at_b.post("/api/setup", {"setup": SETUP})
    assert status == 403 and "PIN" in answer["error"]
    assert at_b.post("/api/session/pin", {"pin": "1111"})[1] == {"error": "wrong PIN"}
    assert at_b.post("/api/session/pin", {"pin": "2222"})[0] == 200
    assert at_a.cookies() == {"session", "session_b"}
    assert at_b.post("/session/lock")[0] == 200  # locking b leaves a unlocked
    assert at_b.get("/api/session")["unlocked"] is False
    assert at_a.table("").get("/api/session")["unlocked"] is True  # a, at /
    assert served.table("b").service.snapshot().get("setup") is None


def test_the_first_table_is_also_at_the_root(served: Served) -> None:
    root, a, b = (Tablet(served.url, at) for at in ("", "/t/a", "/t/b"))
    assert root.get("/api/state")["table_id"] == a.get("/api/state")["table_id"] == "a"
    assert b.get("/api/state")["table_id"] == "b"
    listed = root.get("/api/tables")["tables"]
    assert [(t["id"], t["name"], t["url"], t["launcher"], t["first"]) for t in listed] == [
        ("a", "Window table", "/t/a/", "gpio", True),
        ("b", "Corner table", "/t/b/", "board", False),
    ]
    assert {t["status"] for t in listed} == {"ready"} and listed[0]["match"] is None
    for page in ("/", "/setup", "/history", "/rules", "/admin"):
        with urllib.request.urlopen(f"{served.url}/t/b{page}", timeout=30) as answer:
            html = answer.read().decode()
        assert 'name="base" content="/t/b"' in html and "/t/b/static/js/" in html, page
        assert "Corner table" in html
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{served.url}/t/c/api/state", timeout=30)
    assert missing.value.code == 404
    qr_url = root.table("/t/b").get("/api/table-url")["url"]
    assert qr_url.endswith(":" + served.url.rsplit(":", 1)[1] + "/t/b/")


class Stream:
    """An event stream of one table, read on a thread: its messages as they come."""

    def __init__(self, url: str, path: str) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=60)
        self.connection.request("GET", path)
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        self.messages: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        message: dict[str, Any] = {}
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    message["event"] = line[7:]
                elif line.startswith("data: "):
                    message["data"] = json.loads(line[6:])
                elif not line and message:
                    self.messages.append(message)
                    message = {}
        except (OSError, ValueError):
            return

    def records(self) -> int:
        return sum(m["event"] == "record" for m in self.messages)

    def tables_heard(self) -> set[str]:
        return {
            (m["data"].get("state") or m["data"]).get("table_id")
            for m in self.messages
            if m["event"] in ("snapshot", "record")
        }

    def close(self) -> None:
        self.connection.close()


def test_each_table_streams_its_own_events(served: Served) -> None:
    streams = {path: Stream(served.url, path) for path in
               ("/api/events", "/t/a/api/events", "/t/b/api/events")}  # fmt: skip
    try:
        for stream in streams.values():
            wait_until(lambda s=stream: s.messages, "the stream's snapshot")
        start(Tablet(served.url, "/t/b"), "2222")
        wait_until(lambda: streams["/t/b/api/events"].records() == 3, "b's records")
        start(Tablet(served.url), "1111")
        for path in ("/api/events", "/t/a/api/events"):
            wait_until(lambda p=path: streams[p].records() == 3, f"a's records on {path}")
        assert streams["/api/events"].tables_heard() == {"a"}
        assert streams["/t/a/api/events"].tables_heard() == {"a"}
        assert streams["/t/b/api/events"].tables_heard() == {"b"}
    finally:
        for stream in streams.values():
            stream.close()


def test_a_board_is_found_by_its_serial_number() -> None:
    class Port:
        def __init__(self, device: str, serial_number: str) -> None:
            self.device, self.serial_number = device, serial_number
            self.vid, self.pid = 0x2E8A, 0x0005

    boards = [Port("/dev/ttyACM0", "E6614103E7"), Port("/dev/ttyACM1", "E66138935F")]
    found = find_port(serial_number="E66138935F", list_ports=lambda: boards)
    assert found == "/dev/ttyACM1"
    assert find_port(serial_number="0000", list_ports=lambda: boards) is None


def test_a_service_of_one_table_keeps_its_addresses(tmp_path: Path) -> None:
    with serving("", tmp_path) as one:
        tablet = Tablet(one.url)
        assert tablet.get("/api/state")["table_id"] == "main"
        assert tablet.table("/t/main").get("/api/state")["table_id"] == "main"
        (listed,) = tablet.get("/api/tables")["tables"]
        assert (listed["id"], listed["url"], listed["first"]) == ("main", "/t/main/", True)
        start(tablet, "1234")
        assert tablet.cookies() == {"session"}
        with urllib.request.urlopen(f"{one.url}/", timeout=30) as answer:
            html = answer.read().decode()
        assert 'name="base" content=""' in html and '"/static/js/board.js"' in html
