"""History across matches in Chromium: the leaderboard with its best comeback explained, each
past match's chart and totals (a match a new set-up replaced reads as abandoned), and a CSV
export, after matches with an undone round."""

from __future__ import annotations

import csv
import io

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, TABLET, Table, csrf, open_page

pytestmark = pytest.mark.browser


def score_only_match(table: Table, players: list[str], rounds: list[tuple[int, list[int]]]) -> None:
    setup = {"players": players, "mode": "score_only", "options": {"target": 100}}
    table.submit({"type": "setup", "setup": setup})
    for winner, points in rounds:
        table.submit({"type": "round", "winner": winner, "points": points})


@pytest.mark.parametrize("viewport", [TABLET, PHONE])
def test_leaderboard_past_charts_and_csv(table: Table, viewport: dict[str, int]) -> None:
    # Ann falls 60 behind, then wins; an undone round does not count
    score_only_match(table, ["Ann", "Bob"], [(1, [60, 0])])
    table.submit({"type": "round", "winner": 1, "points": [99, 0]})
    table.submit({"type": "undo"})
    table.submit({"type": "round", "winner": 0, "points": [0, 70]})
    table.submit({"type": "round", "winner": 0, "points": [0, 40]})
    score_only_match(table, ["Bob", "Cy"], [(0, [0, 120])])
    score_only_match(table, ["Ann", "Cy"], [])  # set up, nothing scored yet

    page = table.tablet(viewport)
    page.click("#history-link")
    expect(page.locator("body[data-history=ready]")).to_be_attached()
    rows = page.locator("#leaderboard tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0).locator("td")).to_have_text(["Bob", "2", "1", "45", "—"])
    expect(rows.nth(1).locator("td")).to_have_text(["Ann", "1", "1", "36.7", "60"])
    expect(rows.nth(2).locator("td")).to_have_text(["Cy", "1", "0", "0", "—"])
    cards = page.locator(".past-match")
    expect(cards).to_have_count(2)  # newest first; the empty third match has no chart
    expect(cards.nth(1).locator(".winner-line")).to_have_text("Winner: Ann")
    expect(cards.nth(1).locator("svg polyline")).to_have_count(2)
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0

    answer = page.request.get(f"{table.url}/api/matches/1.csv")
    assert answer.ok and answer.headers["content-type"].startswith("text/csv")
    assert "attachment" in answer.headers["content-disposition"]
    assert answer.body().startswith(b"\xef\xbb\xbf")  # a spreadsheet reads it as UTF-8
    rows_csv = list(csv.reader(io.StringIO(answer.body().decode("utf-8-sig"))))
    assert rows_csv == [
        ["round", "winner", "Ann", "Bob", "Ann total", "Bob total"],
        ["1", "Bob", "0", "60", "0", "60"],
        ["2", "Ann", "70", "0", "70", "60"],
        ["3", "Ann", "40", "0", "110", "60"],
    ]
    assert page.request.get(f"{table.url}/api/matches/9.csv").status == 404
    open_page(page, "/")
    assert page.errors == []


@pytest.mark.parametrize("viewport", [TABLET, PHONE])
@pytest.mark.parametrize(
    ("language", "abandoned", "current", "comeback"),
    [
        ("en", "Abandoned", "In progress", "behind the leader"),
        ("zh-CN", "已放弃", "进行中", "落后领先者"),
    ],
)
def test_a_replaced_match_is_abandoned_and_the_comeback_explained(
    table: Table,
    viewport: dict[str, int],
    language: str,
    abandoned: str,
    current: str,
    comeback: str,
) -> None:
    score_only_match(table, ["Ann", "Bob"], [(1, [30, 0])])  # a new set-up replaced it
    score_only_match(table, ["Ann", "Bob"], [(0, [0, 20])])  # the table's current match
    page = table.tablet(viewport)
    page.request.post(
        f"{table.url}/api/session/language",
        data={"language": language},
        headers={"X-CSRF-Token": csrf(page)},
    )
    open_page(page, "/history")
    expect(page.locator("body[data-history=ready]")).to_be_attached()
    cards = page.locator(".past-match")
    expect(cards).to_have_count(2)
    expect(cards.nth(0).locator(".winner-line")).to_have_text(current)
    expect(cards.nth(1).locator(".winner-line")).to_contain_text(abandoned)
    hint = page.locator("#comeback-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text(comeback)
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0
    assert page.errors == []
