"""Bad input gets a 400 (or 409) with a reason and changes nothing; what is already stored,
however hostile, never stops a replay, a stream or systemd's status line."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from controller.cli.run import StatusReporter
from controller.config import Config
from controller.launcher import Launcher, open_launcher
from controller.launcher.sim import SimOptions
from controller.policy import ScriptedPolicy
from controller.preset_store import LIMIT, presets, save_preset
from controller.sdnotify import Notifier
from controller.store import Store
from controller.table.service import TableService
from tests.serving import serve
from web_ui.app import create_app

from .conftest import SETUP, Tablet

HOSTILE = ["Bob\nWATCHDOG=trigger", "Ann\ud800", "\u202eCy", "Di\u200b"]


def post_raw(tablet: Tablet, path: str, text: str) -> Any:
    headers = {"X-CSRF-Token": tablet.csrf, "Content-Type": "application/json"}
    return tablet.client.post(path, data=text.encode("utf-8", "surrogatepass"), headers=headers)


def unchanged(tablet: Tablet) -> Any:
    return tablet.get("/api/state").get_json()["seq"]


# ------------------------------------------------------------------ names


@pytest.mark.parametrize(
    ("players", "reason"),
    [
        (["Ann", "Bob\nWATCHDOG=trigger"], "control"),
        (["Ann", "\u202eboB"], "control"),  # a right-to-left override
        (["Ann", "Bo\u200bb"], "control"),  # a zero-width space
        (["Ann", "Bob\u0000"], "control"),
        (["Ann", "B" * 25], "1 to 24"),
        (["Ann", "   "], "1 to 24"),
        (["Ann", "ann"], "same name"),
        (["Ann", "Ａｎｎ"], "same name"),  # full-width letters
        (["Zoë", "Zoe\u0308"], "same name"),  # the same letters, composed or not
        (["Ann", 7], "text"),
        (["Ann"] * 11, "2 to 10"),
    ],
)
def test_bad_names_are_refused(playing: Tablet, players: list[Any], reason: str) -> None:
    before = unchanged(playing)
    answer = playing.post("/api/setup", {"setup": SETUP | {"players": players}})
    assert answer.status_code == 400 and reason in answer.get_json()["error"]
    assert unchanged(playing) == before


def test_a_lone_surrogate_is_refused(playing: Tablet) -> None:
    text = json.dumps({"setup": SETUP | {"players": ["Ann", "Bob\ud800"]}})
    answer = post_raw(playing, "/api/setup", text)
    assert answer.status_code == 400 and "Unicode" in answer.get_json()["error"]


def test_names_are_kept_in_nfc(playing: Tablet) -> None:
    setup = SETUP | {"players": ["Zoe\u0308", " Bob ", "Cy", "Di"]}
    state = playing.post("/api/setup", {"setup": setup}).get_json()["state"]
    assert state["setup"]["players"][:2] == ["Zoë", "Bob"]


# ------------------------------------------------------------------ inputs that answered 500


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("/api/history?limit=²", "limit"),
        ("/api/history?limit=" + "9" * 5000, "limit"),
        ("/api/events?last=²", "Last-Event-ID"),
        ("/api/events?last=" + "9" * 5000, "Last-Event-ID"),
        ("/api/events?last=99999999999999999999", "Last-Event-ID"),
    ],
)
def test_bad_numbers_in_queries_are_400(tablet: Tablet, path: str, reason: str) -> None:
    answer = tablet.get(path)
    assert answer.status_code == 400 and reason in answer.get_json()["error"]


def test_a_huge_last_event_id_is_400(tablet: Tablet) -> None:
    answer = tablet.client.get("/api/events", headers={"Last-Event-ID": "1" * 10_000})
    assert answer.status_code == 400 and "Last-Event-ID" in answer.get_json()["error"]


@pytest.mark.parametrize(
    "path", ["/api/setup", "/api/actions", "/api/session/pin", "/api/presets", "/api/undo"]
)
def test_json_nested_1000_deep_is_400(playing: Tablet, path: str) -> None:
    before = unchanged(playing)
    for deep in ("[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000):
        answer = post_raw(playing, path, deep)
        assert answer.status_code == 400 and "nested" in answer.get_json()["error"]
    assert unchanged(playing) == before


@pytest.mark.parametrize("token", ["é", "\u2603" * 30, "x" * 5000])
def test_a_strange_csrf_token_is_403(playing: Tablet, token: str) -> None:
    answer = playing.client.post("/api/deal", json={}, headers={"X-CSRF-Token": token})
    assert answer.status_code == 403 and "CSRF" in answer.get_json()["error"]


@pytest.mark.parametrize(
    "options",
    [None, [], [1, 2], {"stack_s0": None}, {"stack_s0": [True]}, {"target": {"a": 1}}],
)
def test_bad_preset_options_are_400(playing: Tablet, options: Any) -> None:
    answer = playing.post("/api/presets", {"name": "Ours", "options": options})
    assert answer.status_code == 400 and answer.get_json()["error"]


@pytest.mark.parametrize("key", [7, "short", "é" * 10, "k" * 81, "tab\tkey12"])
def test_bad_idempotency_keys_are_400(playing: Tablet, key: Any) -> None:
    answer = playing.act({"type": "Play", "seat": 0, "card": "R7"}, key=key)
    assert answer.status_code == 400 and "key" in answer.get_json()["error"]


# ------------------------------------------------------------------ idempotency keys


def test_a_key_reused_for_another_command_is_409(playing: Tablet) -> None:
    first = playing.act({"type": "Play", "seat": 0, "card": "R7"}, key="tap-0000001")
    again = playing.act({"type": "Play", "seat": 0, "card": "R7"}, key="tap-0000001")
    assert first.status_code == again.status_code == 200
    assert again.get_json()["seq"] == first.get_json()["seq"]
    other = playing.act({"type": "Play", "seat": 1, "card": "R8"}, key="tap-0000001")
    assert other.status_code == 409 and "already used" in other.get_json()["error"]
    undo = playing.post("/api/undo", {"key": "tap-0000001"})
    assert undo.status_code == 409
    assert unchanged(playing) == first.get_json()["seq"]


def test_keys_are_scoped_to_the_match(playing: Tablet) -> None:
    assert (
        playing.act({"type": "Play", "seat": 0, "card": "R7"}, key="tap-again-1").status_code == 200
    )
    setup = playing.post("/api/setup", {"setup": SETUP, "key": "setup-tap-1"})
    retried = playing.post("/api/setup", {"setup": SETUP, "key": "setup-tap-1"})
    assert retried.get_json()["seq"] == setup.get_json()["seq"]  # the same match, not a new one
    assert playing.post("/api/deal", {"key": "tap-again-1"}).status_code == 200  # a new match


@pytest.fixture
def launcher() -> Iterator[Launcher]:
    opened = open_launcher("hbridge", backend="sim", sim=SimOptions(time_scale=0.25))
    yield opened
    opened.close()


def test_a_double_tap_on_the_virtual_press_presses_once(store: Store, launcher: Launcher) -> None:
    table = TableService(store, launcher=launcher, policy=ScriptedPolicy([0] * 5)).start()
    try:
        tablet = Tablet(create_app(table, Config(), secret_key="k").test_client())
        assert tablet.unlock().status_code == 200
        assert tablet.post("/api/setup", {"setup": SETUP}).status_code == 200
        assert tablet.post("/api/deal").status_code == 200
        assert tablet.act({"type": "TurnUp", "card": "R5"}).status_code == 200
        sub = table.hub.subscribe()
        for key in ("press-tap-1", "press-tap-1", "press-tap-2"):
            assert tablet.post("/api/launcher/press", {"key": key}).status_code == 200
        seats = []
        while len(seats) < 2:  # the third tap's press comes after any second one
            message = sub.get(10.0)
            assert message is not None, "a press was not recorded in time"
            if message.event == "record" and message.data["kind"] == "action":
                seats += [e["seat"] for e in message.data["events"] if e["type"] == "Pressed"]
        presses = [r for r in store.records("main") if "Press" in json.dumps(r.command)]
        assert seats == [0, 1] and len(presses) == 2
    finally:
        table.stop()


# ------------------------------------------------------------------ presets


def test_presets_are_whole_while_saved_concurrently(tmp_path: Path) -> None:
    errors: list[BaseException] = []
    stop = threading.Event()

    def save(n: int) -> None:
        for target in range(100, 160):
            save_preset(tmp_path, "Ours", "attack", {"target": target + n})

    def read() -> None:
        while not stop.is_set():
            try:
                found = presets(tmp_path)
                assert "ours" not in found or found["ours"].options["target"] >= 100
            except BaseException as error:
                errors.append(error)

    readers = [threading.Thread(target=read) for _ in range(3)]
    writers = [threading.Thread(target=save, args=(n,)) for n in range(3)]
    for thread in readers + writers:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    for thread in readers:
        thread.join()
    assert errors == []
    assert not list(tmp_path.glob("*.tmp"))


def test_a_half_written_preset_never_breaks_the_list(app: Flask, playing: Tablet) -> None:
    assert playing.post("/api/presets", {"name": "Good", "options": {}}).status_code == 200
    folder = Path(app.config["PRESETS_DIR"])
    (folder / "broken.toml").write_text('name = "Bro', encoding="utf-8")
    (folder / "binary.toml").write_bytes(b"\xff\xfe\x00")
    answer = playing.get("/api/presets")
    assert answer.status_code == 200
    keys = {p["key"] for p in answer.get_json()["presets"]}
    assert "good" in keys and "broken" not in keys and "binary" not in keys


def test_presets_are_bounded_in_number_and_size(app: Flask, playing: Tablet) -> None:
    for n in range(LIMIT):
        assert playing.post("/api/presets", {"name": f"Set {n}", "options": {}}).status_code == 200
    more = playing.post("/api/presets", {"name": "One more", "options": {}})
    assert more.status_code == 400 and str(LIMIT) in more.get_json()["error"]
    assert playing.post("/api/presets", {"name": "Set 3", "options": {}}).status_code == 200
    huge = playing.post("/api/presets", {"name": "Set 4", "options": {"x" * 9000: 1}})
    assert huge.status_code == 400
    long_name = playing.post("/api/presets", {"name": "N" * 41, "options": {}})
    assert long_name.status_code == 400


# ------------------------------------------------------------------ hostile data already stored


def hostile_store(path: Path) -> Store:
    """An event log written by an older version that let any name in."""
    store = Store(path)
    setup = {"players": HOSTILE, "game": "attack", "options": {}, "first_dealer": 3,
             "mode": "tracked", "profile": "toy", "seed": 1}  # fmt: skip
    store.append("main", "setup", {"type": "setup", "setup": setup},
                 [{"type": "MatchStarted", "players": HOSTILE}], actor="tablet:?")  # fmt: skip
    store.append("main", "deal", {"type": "deal"}, [], actor="tablet:?")
    turn_up = {"type": "action", "action": {"type": "TurnUp", "card": "R5"}}
    store.append("main", "action", turn_up, [], actor="tablet:?")
    return store


def test_hostile_stored_names_still_replay_and_stream(tmp_path: Path) -> None:
    store = hostile_store(tmp_path / "old.db")
    table = TableService(store).start()
    url, stop = serve(create_app(table, Config(), secret_key="k"))
    try:
        port = int(url.rsplit(":", 1)[1])
        assert table.snapshot()["setup"]["players"] == HOSTILE  # replayed as recorded
        for path in ("/api/state", "/api/history", "/"):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", path)
            assert connection.getresponse().status == 200, path
            connection.close()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/api/events", headers={"Last-Event-ID": "0"})
        response = connection.getresponse()
        assert response.status == 200
        frames = []
        while len(frames) < 4:  # three records, then the snapshot
            line = response.readline().decode("utf-8")
            assert line, "the stream ended"
            if line.startswith("data: "):
                frames.append(json.loads(line[6:]))
        assert frames[0]["events"][0]["players"] == HOSTILE
        assert frames[3]["setup"]["players"] == HOSTILE
        connection.close()
    finally:
        stop()
        table.stop()
        store.close()


def test_a_hostile_name_reaches_systemd_as_part_of_one_line(tmp_path: Path) -> None:
    store = hostile_store(tmp_path / "old.db")
    table = TableService(store).start()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify"))
    listener.settimeout(10)
    try:
        notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "notify")})
        StatusReporter(notifier, [table]).tick()
        notifier.send("STATUS=a\nWATCHDOG=trigger", "STATUS=\ud800\x00\u202e")
        messages = [listener.recv(4096).decode("utf-8") for _ in range(2)]
        assert "Bob WATCHDOG=trigger to play" in messages[0]
        lines = [line for message in messages for line in message.split("\n")]
        assert all(line.startswith("STATUS=") and line.isprintable() for line in lines), lines
        notifier.close()
    finally:
        listener.close()
        table.stop()
        store.close()
