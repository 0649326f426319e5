"""History across matches (`web_ui/history.py`): a match a new set-up replaced before it ended
is abandoned, only the table's last one is in progress; the best comeback counts points behind
the leader, whichever way the match is won; the CSV has a row per round with every player's
points and running totals, and a byte-order mark so a spreadsheet reads Chinese names."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask.testing import FlaskClient

from controller.table.service import TableService
from web_ui.history import CSV_BOM
from web_ui.i18n import WORDS, t


def match(
    service: TableService,
    players: list[str],
    rounds: list[tuple[int, list[int]]],
    **options: Any,
) -> None:
    """A score-only match of these rounds (winner, each player's points left)."""
    options.setdefault("target", 100)
    setup = {"players": players, "mode": "score_only", "options": options}
    service.submit({"type": "setup", "setup": setup})
    for winner, points in rounds:
        service.submit({"type": "round", "winner": winner, "points": points})


def matches(client: FlaskClient) -> dict[str, Any]:
    answer = client.get("/api/matches")
    assert answer.status_code == 200
    return answer.get_json()  # type: ignore[no-any-return]


def test_only_the_last_match_is_in_progress(client: FlaskClient, service: TableService) -> None:
    match(service, ["Ann", "Bob"], [(0, [0, 30])])  # replaced unfinished
    match(service, ["Ann", "Bob"], [(0, [0, 120])])  # over
    match(service, ["Cy", "Di"], [(1, [20, 0])])  # the table's current match
    newest_first = matches(client)["matches"]
    assert [(m["number"], m["status"]) for m in newest_first] == [
        (3, "in_progress"),
        (2, "over"),
        (1, "abandoned"),
    ]
    assert [m["over"] for m in newest_first] == [False, True, False]


def test_a_replaced_match_with_no_round_is_abandoned_too(
    client: FlaskClient, service: TableService
) -> None:
    match(service, ["Ann", "Bob"], [])
    assert [m["status"] for m in matches(client)["matches"]] == ["in_progress"]
    match(service, ["Ann", "Bob"], [])
    assert [m["status"] for m in matches(client)["matches"]] == ["in_progress", "abandoned"]


def test_best_comeback_is_points_behind_the_leader_either_way(
    client: FlaskClient, service: TableService
) -> None:
    # the winner collects: Ann is 60 behind Bob after round 1, then wins
    match(service, ["Ann", "Bob"], [(1, [60, 0]), (0, [0, 70]), (0, [0, 40])])
    # penalty points, the lowest total wins: Cy is 50 points worse than Di, then wins
    rounds = [(1, [50, 0]), (0, [0, 30]), (0, [0, 80])]
    match(service, ["Cy", "Di"], rounds, scoring="penalty")
    board = {row["name"]: row for row in matches(client)["leaderboard"]}
    assert board["Ann"]["comeback"] == 60
    assert board["Cy"]["comeback"] == 50
    assert board["Bob"]["comeback"] == board["Di"]["comeback"] == 0  # they did not win


def test_csv_has_a_row_per_round_and_a_byte_order_mark(
    client: FlaskClient, service: TableService
) -> None:
    match(service, ["安娜", "Bob", "=1+1"], [(1, [12, 0, 8]), (0, [0, 30, 5])])
    answer = client.get("/api/matches/1.csv")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert answer.headers["Content-Disposition"] == 'attachment; filename="uno-attack-match-1.csv"'
    assert answer.data.startswith(b"\xef\xbb\xbf")
    text = answer.data.decode("utf-8")
    assert text.startswith(CSV_BOM)
    rows = list(csv.reader(io.StringIO(text.removeprefix(CSV_BOM))))
    assert rows == [
        ["round", "winner", "安娜", "Bob", "'=1+1", "安娜 total", "Bob total", "'=1+1 total"],
        ["1", "Bob", "0", "20", "0", "0", "20", "0"],
        ["2", "安娜", "35", "0", "0", "35", "20", "0"],
    ]
    assert client.get("/api/matches/2.csv").status_code == 404


def test_the_history_words_reach_the_pages_in_both_languages() -> None:
    assert (WORDS["en"]["leaderboard"], WORDS["zh-CN"]["leaderboard"]) == ("Leaderboard", "排行榜")
    assert t("export_csv", "zh-CN") == "下载 CSV"
