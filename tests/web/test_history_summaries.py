"""The history reads the table's match summaries, not its log: a few rows on a read-only
connection of their own (never the lock commands need), the current match's from memory. It
must say exactly what reading the whole log says (`past_matches`), a log written before the
summaries existed is summarised on its first start, and a tablet that asks again and again
gets the answer built once per change."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from controller.config import Config
from controller.store import Store, StoreFull
from controller.table.service import TableService
from tests.waiting import FakeClock, wait_until
from web_ui.app import create_app
from web_ui.history import BURST, HELD, Pace, leaderboard, past_matches

from .test_history import match


def from_the_log(store: Store) -> dict[str, Any]:
    """What the history said when it read every record of the log."""
    matches = past_matches(store.records("main"))
    return {
        "matches": [m.to_dict() for m in reversed(matches)],
        "leaderboard": leaderboard(matches),
    }


def answer(client: FlaskClient) -> dict[str, Any]:
    got = client.get("/api/matches")
    assert got.status_code == 200
    return got.get_json()  # type: ignore[no-any-return]


def evenings(service: TableService) -> None:
    """Matches of every status, with undone rounds, an undone end, low and high scoring."""
    match(service, ["Ann", "Bob"], [(0, [0, 30]), (1, [20, 0])])  # abandoned
    match(service, ["Ann", "Bob", "Cy"], [(1, [60, 0, 5]), (0, [0, 70, 40])])  # over
    service.submit({"type": "undo"})  # its end undone...
    service.submit({"type": "round", "winner": 2, "points": [10, 10, 0]})  # ...played on
    service.submit({"type": "round", "winner": 0, "points": [0, 50, 50]})  # over again
    match(service, ["Cy", "Di"], [(1, [50, 0]), (0, [0, 30])], scoring="penalty")
    service.submit({"type": "undo"})  # then replaced before its end
    match(service, ["Ann", "Di"], [(0, [0, 12])])  # the table's current match
    service.submit({"type": "round", "winner": 1, "points": [7, 0]})
    service.submit({"type": "undo"})


def test_the_history_reads_summaries_never_the_log(
    client: FlaskClient, service: TableService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    evenings(service)
    expected = from_the_log(store)
    assert [m["status"] for m in expected["matches"]] == [
        "in_progress", "abandoned", "over", "abandoned",
    ]  # fmt: skip

    def no_records(*_: object, **__: object) -> None:
        raise AssertionError("the history read the log's records")

    monkeypatch.setattr(store, "_select", no_records)
    assert answer(client) == expected
    assert client.get("/api/matches/2.csv").status_code == 200


def test_the_history_answers_while_a_command_holds_the_log(
    client: FlaskClient, service: TableService, store: Store
) -> None:
    evenings(service)
    got: list[dict[str, Any]] = []
    with store._lock:  # a command being committed (or a slow disk)
        asking = threading.Thread(target=lambda: got.append(answer(client)))
        asking.start()
        wait_until(lambda: got, "the history's answer while the writer's lock is held")
    asking.join()
    assert got == [from_the_log(store)]


def test_a_log_from_before_the_summaries_is_summarised_on_its_first_start(
    tmp_path: Path,
) -> None:
    path = tmp_path / "uno-attack.db"
    with Store(path) as store:
        first = TableService(store).start()
        evenings(first)
        first.stop()
        expected = from_the_log(store)
    db = sqlite3.connect(path, isolation_level=None)  # as the previous version left it
    db.execute("DROP TABLE match_summary")
    db.execute("PRAGMA user_version = 3")
    db.close()
    with Store(path) as store:
        assert store.migrated_from == 3
        table = TableService(store).start()
        try:
            assert len(store.summaries("main")) == 3  # every match but the current one
            client = create_app(table, Config(), secret_key="t").test_client()
            assert answer(client) == expected
        finally:
            table.stop()


def test_a_summary_lost_between_a_setup_and_its_save_is_made_at_the_next_start(
    tmp_path: Path,
) -> None:
    with Store(tmp_path / "uno-attack.db") as store:
        first = TableService(store).start()
        evenings(first)
        first.stop()
        expected = from_the_log(store)
        lost = store.summaries("main")[1][0]
        with store._transaction() as db:  # the process died before the summary was saved
            db.execute("DELETE FROM match_summary WHERE setup_seq = ?", (lost,))
        table = TableService(store).start()
        try:
            assert [seq for seq, _ in store.summaries("main")].count(lost) == 1
            assert answer(create_app(table, Config(), secret_key="t").test_client()) == expected
        finally:
            table.stop()


def test_asking_again_builds_nothing_new_until_the_matches_change(
    app: Flask,
    client: FlaskClient,
    service: TableService,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app.extensions["history_pace"] = Pace(rate=1e9, burst=10**9)  # never paced here
    evenings(service)
    built: list[object] = []
    summaries = service.match_summaries

    def counted(mark: Any = None) -> Any:
        built.append(mark)
        return summaries(mark)

    monkeypatch.setattr(service, "match_summaries", counted)
    first = client.get("/api/matches").data
    for _ in range(5):
        assert client.get("/api/matches").data == first
        assert client.get("/api/matches/1.csv").status_code == 200
    assert len(built) == 1
    service.submit({"type": "round", "winner": 0, "points": [0, 9]})
    second = client.get("/api/matches").data
    assert second != first and len(built) == 1  # a round: the finished matches stay as built
    assert client.get("/api/matches").get_json() == from_the_log(store)
    service.submit({"type": "setup", "setup": {"players": ["Bo", "Li"], "mode": "score_only"}})
    assert client.get("/api/matches").get_json() == from_the_log(store) and len(built) == 2


def test_a_client_that_asks_too_often_waits_its_turn_not_the_table(
    app: Flask, client: FlaskClient, service: TableService
) -> None:
    evenings(service)
    clock, slept, release = FakeClock(), [], threading.Event()

    def sleep(seconds: float) -> None:  # held until the test lets it go
        slept.append(seconds)
        release.wait(60)

    pace = app.extensions["history_pace"] = Pace(clock=clock, sleep=sleep)
    for _ in range(BURST):  # a page and its downloads: answered at once
        assert client.get("/api/matches").status_code == 200
    assert slept == []
    answers: list[int] = []

    def ask() -> None:  # a client of its own each, from the same address
        answers.append(app.test_client().get("/api/matches").status_code)

    askers = [threading.Thread(target=ask) for _ in range(HELD)]
    for asker in askers:
        asker.start()
    wait_until(lambda: pace.waiting == HELD, "the eager client's requests held")
    assert sorted(slept) == [0.25 * turn for turn in range(1, HELD + 1)]  # one turn each
    too_many = client.get("/api/matches")  # nobody else is held: refused at once
    assert too_many.status_code == 429 and int(too_many.headers["Retry-After"]) >= 1
    other = app.test_client().get("/api/matches", environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200  # another address has its own turns
    service.submit({"type": "round", "winner": 0, "points": [0, 3]})  # the table never waits
    release.set()
    for asker in askers:
        asker.join()
    assert answers == [200] * HELD
    clock.advance(10)  # a client that paused gets its burst back
    assert client.get("/api/matches").status_code == 200 and pace.waiting == 0


def test_a_first_start_on_a_full_disk_shows_the_history_all_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Summaries that cannot be saved at the first start (a full disk) never stop the start:
    they are shown from memory, and saved with the next set-up once there is room."""
    with Store(tmp_path / "uno-attack.db") as store:
        first = TableService(store).start()
        evenings(first)
        first.stop()
        expected = from_the_log(store)
        with store._transaction() as db:  # as a log of the previous version has them: none
            db.execute("DELETE FROM match_summary")

        def full(*_: object) -> None:
            raise StoreFull("disk full: the disk holding the log is full; free some space")

        monkeypatch.setattr(store, "save_summary", full)
        table = TableService(store).start()
        try:
            client = create_app(table, Config(), secret_key="t").test_client()
            assert answer(client) == expected and store.summaries("main") == []
            monkeypatch.undo()  # room again
            table.submit({"type": "setup", "setup": {"players": ["Bo", "Li"]}})
            assert len(store.summaries("main")) == 4
            assert answer(client) == from_the_log(store)
        finally:
            table.stop()


def test_an_absurd_round_stored_long_ago_breaks_no_page(store: Store) -> None:
    """A round of 10**309 points logged before the table bounded points, in a match since
    replaced: the history leaves that round out (and says so in the log) and answers."""
    setup = {"players": ["Ann", "Bob"], "mode": "score_only", "seed": 1}
    store.append("main", "setup", {"type": "setup", "setup": setup}, [], actor="tablet")
    huge = {"type": "DealScored", "number": 1, "winner": 0, "deltas": [10**309, 0],
            "seating": [0, 1], "points": [0, 10**309], "cards_left": [0, 0]}  # fmt: skip
    store.append("main", "round", {"type": "round", "winner": 0, "points": [0, 5]}, [huge],
                 actor="tablet")  # fmt: skip
    service = TableService(store).start()
    try:
        service.submit({"type": "setup", "setup": setup | {"players": ["Cy", "Di"]}})
        client = create_app(service, Config(), secret_key="k").test_client()
        matches = answer(client)["matches"]
        assert [m["players"] for m in matches][-1] == ["Ann", "Bob"]
    finally:
        service.stop()
