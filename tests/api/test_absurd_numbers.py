"""Points and card counts no deal can reach are refused with a 400 naming the bound (the whole
deck, in points or in cards), for rounds, hands entered, corrections and presses; one stored
before that bound is set aside when the table replays it, and never breaks a page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from controller.config import Config, ServiceConfig, TableConfig
from controller.store import Store
from controller.table.service import TableService
from web_ui.app import create_app

from .conftest import SETUP, Tablet

HUGE = 10**309  # more than a float holds: the leaderboard's average overflowed
LONGEST = 10**4300 - 1  # 4,300 digits: the most Python reads; the sum of two it cannot print
SCORE_ONLY = SETUP | {"mode": "score_only"}


def seq(tablet: Tablet) -> int:
    return int(tablet.get("/api/state").get_json()["seq"])


def pages_answer(tablet: Tablet) -> None:
    for path in ("/api/matches", "/", "/api/state", "/api/history", "/history"):
        assert tablet.get(path).status_code == 200, path


@pytest.mark.parametrize("number", [HUGE, LONGEST, 1481], ids=["1e309", "4300-digits", "1481"])
def test_a_round_past_the_whole_deck_is_refused(tablet: Tablet, number: int) -> None:
    assert tablet.unlock().status_code == 200
    assert tablet.post("/api/setup", {"setup": SCORE_ONLY}).status_code == 200
    before = seq(tablet)
    for points, cards in (([0, number, number, 3], None), ([0, 5, 6, 7], [0, number, 1, 1])):
        body: dict[str, Any] = {"winner": 0, "points": points}
        if cards is not None:
            body["cards"] = cards
        answer = tablet.post("/api/rounds", body)
        assert answer.status_code == 400, answer.get_data()
        error = answer.get_json()["error"]
        bound = "1480" if cards is None else "112"  # attack_1998: 1,480 points in 112 cards
        assert f"at most {bound}" in error and "attack_1998 deck" in error, error
    assert seq(tablet) == before
    pages_answer(tablet)
    full = tablet.post(
        "/api/rounds", {"winner": 0, "points": [0, 1480, 0, 0], "cards": [0, 112, 0, 0]}
    )
    assert full.status_code == 200  # the bound itself is a hand a deal could leave


def _to_scoring(tablet: Tablet) -> None:
    """Play P0 out with distinct matching cards: the deal waits for the hands left."""
    colours, cards = "RYGB", []
    for number in range(2, 10):
        first = colours.index(cards[-1][0]) if cards else 0
        cards += [colours[(first + k) % 4] + str(number) for k in range(4)]
    for turn, card in enumerate(cards[:25]):
        answer = tablet.act({"type": "Play", "seat": turn % 4, "card": card})
        assert answer.status_code == 200, answer.get_json()
    assert tablet.get("/api/state").get_json()["deal"]["phase"] == "scoring"


def test_a_hand_entered_past_the_whole_deck_is_refused(playing: Tablet) -> None:
    _to_scoring(playing)
    before = seq(playing)
    for number in (HUGE, LONGEST, 1481):
        answer = playing.act({"type": "EnterHand", "seat": 1, "points": number})
        assert answer.status_code == 400 and "at most 1480" in answer.get_json()["error"]
    assert seq(playing) == before
    # the whole deck passes this guard; the engine then weighs the hand itself (the cards it
    # was tracked holding, the cards in sight) and refuses 1480 for it, saying why
    answer = playing.act({"type": "EnterHand", "seat": 1, "points": 1480})
    assert answer.status_code == 409 and "can score at most" in answer.get_json()["error"]
    assert playing.act({"type": "EnterHand", "seat": 1, "points": 40}).status_code == 200
    pages_answer(playing)


@pytest.mark.parametrize(
    "action",
    [{"type": "Correct", "seat": 0, "count": LONGEST}, {"type": "Press", "seat": 0, "cards": HUGE},
     {"type": "Correct", "seat": 0, "count": 113}, {"type": "Press", "seat": 0, "cards": 113}],
)  # fmt: skip
def test_counts_past_the_whole_deck_are_refused(playing: Tablet, action: dict[str, Any]) -> None:
    before = seq(playing)
    answer = playing.act(action)
    assert answer.status_code == 400, answer.get_json()
    assert "at most 112, the cards of the whole attack_1998 deck" in answer.get_json()["error"]
    assert seq(playing) == before


def test_a_stored_absurd_round_is_set_aside_on_replay(store: Store, tmp_path: Path) -> None:
    """What an older version accepted: the table's replay sets it aside with its reason, and
    the history and the scoreboard answer."""
    setup = store.append("main", "setup", {"type": "setup", "setup": SCORE_ONLY}, [], actor="t")
    fine = {"type": "round", "winner": 1, "points": [40, 0, 12, 3]}
    store.append("main", "round", fine, [_scored(1, [0, 55, 0, 0])], actor="t")
    absurd = {"type": "round", "winner": 0, "points": [0, HUGE, 0, 0]}
    bad = store.append("main", "round", absurd, [_scored(2, [HUGE, 0, 0, 0])], actor="t")
    table = TableService(store).start()
    try:
        config = Config(
            table=TableConfig(pin="1234"), service=ServiceConfig(data_dir=str(tmp_path))
        )
        app: Flask = create_app(table, config, secret_key="test-secret")
        tablet = Tablet(app.test_client())
        pages_answer(tablet)
        assert tablet.get("/api/state").get_json()["totals"] == [0, 55, 0, 0]
        (match,) = tablet.get("/api/matches").get_json()["matches"]
        assert match["totals"] == [0, 55, 0, 0] and len(match["deals"]) == 1
        reasons = dict(store.set_aside_records())
        assert list(reasons) == [bad.seq] and "at most 1480" in reasons[bad.seq]
        assert [r.seq for r in store.records("main")] == [setup.seq, bad.seq - 1]
    finally:
        table.stop()


def _scored(number: int, deltas: list[int]) -> dict[str, Any]:
    """A DealScored event as the table logs it."""
    return {"type": "DealScored", "number": number, "dealer": 3, "winner": 0,
            "points": [0, 0, 0, 0], "cards_left": [0, 0, 0, 0], "deltas": deltas,
            "seating": [0, 1, 2, 3], "loser": None, "order": [], "table": 0, "round": 0,
            "blocked": False, "totals": deltas}  # fmt: skip
