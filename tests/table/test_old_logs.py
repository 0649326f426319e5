"""Logs written by earlier versions of the project come back exactly as they were played.

Each log in tests/fixtures/old_logs was written by the code of an earlier commit (logs.toml
says which, and why that one), and beside it is what that version showed for it. Today's
service, started on a copy, must show the same hands, scores and standings, set nothing aside,
and say which of today's rules the match was not played under (RULES.md §11: an upgrade never
changes a recorded game).
"""

from __future__ import annotations

import gzip
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from controller.config import Config
from tests.web.test_pages import page_data
from web_ui.app import create_app

from .conftest import table_on

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "old_logs"
LOGS = tomllib.loads((FIXTURES / "logs.toml").read_text(encoding="utf-8"))
SAME = ("totals", "match_over", "winners", "losers", "standings", "seq", "next_dealer")


def unpacked(name: str, tmp_path: Path) -> Path:
    """A copy of log `name` to open."""
    path = tmp_path / f"{name}.sqlite3"
    path.write_bytes(gzip.decompress((FIXTURES / f"{name}.sqlite3.gz").read_bytes()))
    return path


def as_shown(name: str, tmp_path: Path) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """Today's snapshot of log `name`, and what its replay set aside."""
    with table_on(unpacked(name, tmp_path)) as (store, service):
        return service.snapshot(), store.set_aside_records()


def as_recorded(name: str) -> dict[str, Any]:
    shown: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return shown


def then_keys(now: dict[str, Any], then: dict[str, Any]) -> dict[str, Any]:
    """`now` cut to the keys `then` had (newer versions add keys; none may change)."""
    return {key: now.get(key) for key in then}


def replays(name: str) -> Any:
    """The log's name, marked when today's editions are known not to give it back yet."""
    known = LOGS[name].get("known_divergence")
    return pytest.param(name, marks=pytest.mark.xfail(reason=known, strict=True)) if known else name


@pytest.mark.parametrize("name", [replays(name) for name in LOGS])
def test_an_old_log_replays_exactly_as_it_was_played(name: str, tmp_path: Path) -> None:
    now, set_aside = as_shown(name, tmp_path)
    then = as_recorded(name)
    assert set_aside == [], LOGS[name]["why"]
    assert {key: now[key] for key in SAME} == {key: then[key] for key in SAME}
    assert [then_keys(a, b) for a, b in zip(now["deals"], then["deals"], strict=True)] == then[
        "deals"
    ]
    hands = [(d or {}).get("hands") for d in (now["deal"], then["deal"])]
    assert hands[0] == hands[1]


@pytest.mark.parametrize("name", list(LOGS))
def test_the_scoreboard_says_which_of_todays_rules_the_match_was_not_played_under(
    name: str, tmp_path: Path
) -> None:
    now, _ = as_shown(name, tmp_path)
    rules = now["rules"]
    older = {item["id"] for item in rules["older"]}
    assert rules["edition"] < rules["current"], "every fixture was written before today's rules"
    assert older >= set(LOGS[name]["differs"]), rules
    assert all(item["text"] for item in rules["older"])


def test_the_scoreboard_of_an_old_match_says_it_keeps_its_rules_in_the_tablets_language(
    tmp_path: Path,
) -> None:
    with table_on(unpacked("attack_pairs", tmp_path)) as (_, table):
        client = create_app(table, Config(), secret_key="test").test_client()
        (warning,) = page_data(client.get("/").text)["warnings"]
        assert warning.startswith("This match was recorded under edition 0 of the rules")
        assert "options of the other game are now refused" in warning
        token = client.get("/api/session").get_json()["csrf"]
        client.post("/api/session/language", json={"language": "zh-CN"},
                    headers={"X-CSRF-Token": token})  # fmt: skip
        (warning,) = page_data(client.get("/").text)["warnings"]
        assert warning.startswith("本对局按第 0 版规则记录") and "另一种游戏的选项" in warning
