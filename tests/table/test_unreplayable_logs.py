"""No logged record can stop a table from starting (issue 21). A set-up an older version logged
and today's rules refuse (one that hung the table: `format=elim_tournament`, `scoring=chips`,
`starting_chips` at the target, which counted everyone eliminated and searched for a dealer
forever; an option of the other game; a hand no deck can deal) is set aside with the records
of its match, the journal says so, the state carries a notice the scoreboard shows until the
next set-up, and the table comes up: with the match before it, or empty.

The records are written straight into the SQLite log, as an older version could have."""

from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from controller.config import Config
from controller.engine.options import EDITION
from controller.store import Store
from tests.web.test_pages import page_data
from web_ui.app import create_app

from .conftest import SETUP, act, started, table_on

OLDER_SETUP: dict[str, Any] = {  # with an older key, and today's edition: a log damaged or
    # edited by hand (one an older version wrote replays under its own edition: test_old_logs)
    "players": ["Ann", "Bob", "Cy", "Di"], "game": "attack", "first_dealer": 0, "mode": "tracked",
    "profile": "toy", "seed": 1, "edition": EDITION,
}  # fmt: skip

REFUSED_NOW: dict[str, tuple[dict[str, Any], str]] = {
    "hung the table": (
        {"format": "elim_tournament", "scoring": "chips", "starting_chips": 500},
        "options scoring and starting_chips are not used by the elim_tournament format",
    ),
    "a classic id on attack": (
        {"uno_identical_cards": True},
        "option uno_identical_cards applies to classic UNO only, not to attack UNO",
    ),
    "classic ids at their defaults": (
        {"wd4_legal_colour": True, "wd4_bluffing": True},
        "options wd4_legal_colour and wd4_bluffing do not apply to attack UNO",
    ),
    "too many cards": ({"hand_size": 30}, "deal at most 26 cards each to 4 players"),
}


def write_raw(path: Path, kind: str, command: dict[str, Any]) -> int:
    """Append a record to the log's table directly, checked by nothing; return its seq."""
    with closing(sqlite3.connect(path)) as db, db:
        cursor = db.execute(
            "INSERT INTO log (table_id, at, kind, actor, command, events, idem_key)"
            " VALUES ('main', 1000.0, ?, 'an older version', ?, '[]', NULL)",
            (kind, json.dumps(command)),
        )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def older_setup(options: dict[str, Any]) -> dict[str, Any]:
    return {"type": "setup", "setup": OLDER_SETUP | {"options": options}}


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    path = tmp_path / "uno-attack.db"
    Store(path).close()  # the schema, as any version made it
    return path


def without_notices(state: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in state.items() if key != "set_aside"}


@pytest.mark.parametrize("case", list(REFUSED_NOW))
def test_a_stored_set_up_the_rules_refuse_is_set_aside_and_the_table_starts(
    log_path: Path, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    options, reason = REFUSED_NOW[case]
    seq = write_raw(log_path, "setup", older_setup(options))
    with caplog.at_level(logging.WARNING), table_on(log_path) as (store, table):
        state = table.snapshot()
        assert "setup" not in state  # nothing else was logged: the table starts empty
        (notice,) = state["set_aside"]
        assert (notice["seq"], notice["records"], notice["match"]) == (seq, 1, True)
        assert reason in notice["reason"] and reason in notice["text"]
        assert store.records("main") == []
        ((kept, why),) = store.set_aside_records()
        assert kept == seq and reason in why
        assert f"the match set up at record {seq} set aside (1 record): " in caplog.text
        table.submit({"type": "setup", "setup": SETUP})  # the table answers, and plays
        table.submit({"type": "deal"})
        assert table.snapshot()["set_aside"] == []  # a new match: the notice has been seen
    with table_on(log_path) as (_, table):
        assert table.snapshot()["set_aside"] == [] and table.snapshot()["deal"] is not None


def test_the_match_before_the_refused_set_up_is_the_table_again(log_path: Path) -> None:
    with table_on(log_path) as (store, first):
        act(started(first), {"type": "Play", "seat": 0, "card": "R7"})
        before, first_setup = first.snapshot(), store.records("main")[0].seq
    options, _ = REFUSED_NOW["hung the table"]
    bad = write_raw(log_path, "setup", older_setup(options))
    write_raw(log_path, "deal", {"type": "deal"})  # the refused match's own step
    with table_on(log_path) as (_, again):
        state = again.snapshot()
        (notice,) = state["set_aside"]
        assert (notice["seq"], notice["records"], notice["match"]) == (bad, 2, True)
        assert without_notices(state) == without_notices(before)  # its deal in play, as left
        assert [summary.setup_seq for summary in again.match_summaries()] == [first_setup]
    with table_on(log_path) as (_, third):  # said at every start until the next set-up
        assert third.snapshot()["set_aside"] == [notice]
        assert without_notices(third.snapshot()) == without_notices(before)


def test_the_scoreboard_shows_what_was_set_aside_in_the_tablets_language(log_path: Path) -> None:
    options, _ = REFUSED_NOW["hung the table"]
    seq = write_raw(log_path, "setup", older_setup(options))
    with table_on(log_path) as (_, table):
        client = create_app(table, Config(), secret_key="test").test_client()
        (warning,) = page_data(client.get("/").text)["warnings"]
        assert warning.startswith(f"The match set up at record {seq} could not be replayed")
        assert "starting_chips" in warning
        token = client.get("/api/session").get_json()["csrf"]
        client.post("/api/session/language", json={"language": "zh-CN"},
                    headers={"X-CSRF-Token": token})  # fmt: skip
        (warning,) = page_data(client.get("/").text)["warnings"]
        assert warning.startswith(f"序号 {seq} 开始的对局在牌桌启动时无法重放")


def test_a_step_the_rules_refuse_on_replay_is_set_aside_and_said(log_path: Path) -> None:
    write_raw(log_path, "setup", {"type": "setup", "setup": SETUP | {"mode": "score_only"}})
    bad = write_raw(log_path, "round", {"type": "round", "winner": 7, "points": [0, 1, 2, 3]})
    with table_on(log_path) as (_, table):
        state = table.snapshot()
        (notice,) = state["set_aside"]
        assert (notice["seq"], notice["records"], notice["match"]) == (bad, 1, False)
        assert "winner must be a seat from 0 to 3" in notice["reason"]
        assert state["setup"]["players"] == SETUP["players"] and state["deal_count"] == 0
