"""What the hall shows, from the tables' JSON: the standings across tables, a match at a
glance, the next round's seating (and the hook a tournament's state will use), table
addresses and the table each reaches, and the event stream's lines."""

from __future__ import annotations

from typing import Any

import pytest

from controller.hall import table_url
from controller.hall.feed import Changes, TableFeed
from controller.hall.sse import Event, events
from controller.hall.views import (
    PlayedMatch,
    match_view,
    next_seating,
    read_matches,
    standings,
    touches_totals,
)


def played(players: list[str], totals: list[int], **kw: Any) -> PlayedMatch:
    fields: dict[str, Any] = {"number": 1, "started": 100.0, "winners": (), "rounds": 1}
    fields |= {"status": "over"} | kw
    return PlayedMatch(players=tuple(players), totals=tuple(totals), **fields)


def test_standings_add_each_players_totals_across_tables_and_matches() -> None:
    table_a = [played(["Ann", "Bob"], [120, 0], winners=(0,)), played(["Ann", "Cy"], [0, 80])]
    table_b = [played(["ann", "Bob", "Ｄｉ"], [10, 30, 5])]
    board = standings([table_a, table_b])
    assert board == [
        {"rank": 1, "name": "Ann", "total": 130, "matches": 3, "wins": 1},
        {"rank": 2, "name": "Cy", "total": 80, "matches": 1, "wins": 0},
        {"rank": 3, "name": "Bob", "total": 30, "matches": 2, "wins": 0},
        {"rank": 4, "name": "Ｄｉ", "total": 5, "matches": 1, "wins": 0},
    ]


def test_standings_skip_matches_without_a_round_and_before_since() -> None:
    matches = [
        played(["Ann"], [0], rounds=0),
        played(["Bob"], [50], started=10.0),
        played(["Cy"], [20], started=200.0),
    ]
    assert [row["name"] for row in standings([matches])] == ["Bob", "Cy"]
    assert [row["name"] for row in standings([matches], since=100.0)] == ["Cy"]


def test_standings_equal_totals_and_wins_share_a_rank() -> None:
    board = standings([[played(["Ann", "Bob", "Cy"], [10, 10, 5])]])
    assert [(row["name"], row["rank"]) for row in board] == [("Ann", 1), ("Bob", 1), ("Cy", 3)]


def test_read_matches_takes_the_history_answer_and_refuses_another() -> None:
    answer = {
        "leaderboard": [],
        "matches": [
            {"number": 2, "started": 5.0, "players": ["A", "B"], "totals": [3, 0],
             "winners": [], "deals": [{}, {}], "status": "in_progress"},
            {"number": 1, "started": 1.0, "players": ["A", "B"], "totals": [0, 9],
             "winners": [1], "deals": [{}], "status": "over"},
        ],
    }  # fmt: skip
    matches = read_matches(answer)
    assert [(m.number, m.rounds, m.winners) for m in matches] == [(1, 1, (1,)), (2, 2, ())]
    with pytest.raises(ValueError):
        read_matches({"matches": [{"number": 1}]})
    with pytest.raises(ValueError):
        read_matches([])
    bad = answer["matches"][0] | {"totals": [1]}
    with pytest.raises(ValueError, match="one total per player"):
        read_matches({"matches": [bad]})


@pytest.mark.parametrize(
    ("record", "touches"),
    [
        ({"kind": "setup", "events": []}, True),
        ({"kind": "undo", "events": []}, True),
        ({"kind": "action", "events": [{"type": "Played"}, {"type": "DealScored"}]}, True),
        ({"kind": "action", "events": [{"type": "MatchEnded"}]}, True),
        ({"kind": "action", "events": [{"type": "Pressed"}]}, False),
        ({"kind": "clear", "events": []}, False),
    ],
)
def test_touches_totals(record: dict[str, Any], touches: bool) -> None:
    assert touches_totals(record) is touches


STATE: dict[str, Any] = {
    "setup": {"players": ["Ann", "Bob", "Cy", "Di"], "mode": "tracked"},
    "totals": [10, 20, 30, 40],
    "seating": [0, 1, 2, 3],
    "deal": {"phase": "playing", "dealer": 3, "to_move": 1, "next": 2, "top": "RH2",
             "colour": "R", "hands": [6, 1, 7, 7], "uno": [1], "active": [True] * 4},
    "house": {"format": "standard"},
    "target": 500,
    "match_over": False,
    "winners": [],
    "standings": {},
    "deal_count": 2,
    "launcher": {"status": "suspense", "fault": None, "tension": 0.4, "last": None},
}  # fmt: skip


def test_match_view_names_who_plays_their_hands_and_totals() -> None:
    view = match_view(STATE)
    assert view is not None
    assert view["turn"] == "Bob" and view["next"] == "Cy" and view["top"] == "RH2"
    assert view["players"][1] == {
        "name": "Bob", "total": 20, "hand": 1, "uno": True, "out": False, "dealer": False
    }  # fmt: skip
    assert view["players"][3]["dealer"] is True
    assert view["next_seating"] is None
    assert match_view({"seq": 0, "setup": None}) is None


def test_match_view_of_a_rotation_table_seats_four_of_eight() -> None:
    players = [f"P{n}" for n in range(8)]
    state = STATE | {
        "setup": {"players": players},
        "totals": list(range(8)),
        "seating": [7, 0, 1, 6],
        "deal": None,
        "standings": {"next": {"round": 1, "table": 0, "seating": [7, 1, 2, 0]}},
    }
    view = match_view(state)
    assert view is not None
    assert [(seat["name"], seat["total"], seat["hand"]) for seat in view["players"]] == [
        ("P7", 7, None), ("P0", 0, None), ("P1", 1, None), ("P6", 6, None)
    ]  # fmt: skip
    assert view["turn"] is None and view["phase"] is None
    assert view["next_seating"] == {"round": 1, "table": 0, "seating": ["P7", "P1", "P2", "P0"]}


def test_next_seating_takes_a_tournaments_first() -> None:
    state = STATE | {
        "standings": {"next": {"round": 0, "table": 0, "seating": [0, 1, 2, 3]}},
        "tournament": {"next": {"round": 3, "table": 1, "seating": ["Eve", "Bob", "Fay", "Cy"]}},
    }
    assert next_seating(state) == {"round": 3, "table": 1, "seating": ["Eve", "Bob", "Fay", "Cy"]}
    assert next_seating(STATE) is None


def test_table_url_spells_each_address_one_way() -> None:
    assert table_url("Pi-A.local:8080") == "http://pi-a.local:8080/"
    assert table_url(" http://pi-a.local:8080/t/b ") == "http://pi-a.local:8080/t/b/"
    assert table_url("https://[::1]:8443/") == "https://[::1]:8443/"
    for bad in ("ftp://pi", "http://", "pi:port", "http://pi/?x=1"):
        with pytest.raises(ValueError):
            table_url(bad)


def identities(states: dict[str, dict[str, Any]]) -> dict[str, object]:
    """Each address's table as the hall tells it, once the address answered this state."""
    changes = Changes()
    told: dict[str, object] = {}
    for url, state in states.items():
        feed = TableFeed(url, changes)
        assert feed.identity is None  # nothing heard yet: no table to tell
        feed.took_state({"seq": 1} | state)
        told[url] = feed.identity
    return told


def test_a_table_is_told_by_its_services_log_and_its_id_at_any_address() -> None:
    told = identities({
        "http://127.0.0.1:8080/": {"log_id": "L1", "table_id": "main"},
        "http://localhost:8080/": {"log_id": "L1", "table_id": "main"},
        "http://pi:8080/t/main/": {"log_id": "L1", "table_id": "main"},
        "http://pi:8080/t/b/": {"log_id": "L1", "table_id": "b"},
        "http://other:8080/": {"log_id": "L2", "table_id": "main"},
    })  # fmt: skip
    assert told["http://127.0.0.1:8080/"] == told["http://localhost:8080/"] == ("L1", "main")
    assert told["http://pi:8080/t/main/"] == ("L1", "main")
    assert len(set(told.values())) == 3


def test_a_service_that_names_no_log_is_told_by_its_host_and_port() -> None:
    told = identities({
        "http://pi:8080/": {"table_id": "main"},
        "http://pi:8080/t/main/": {"table_id": "main"},
        "http://pi:8080/t/b/": {"table_id": "b"},
        "http://other:8080/": {"table_id": "main"},
    })  # fmt: skip
    assert told["http://pi:8080/"] == told["http://pi:8080/t/main/"] == ("pi:8080", "main")
    assert len(set(told.values())) == 3


def test_a_feed_tells_the_hall_which_table_it_reaches_when_it_hears_a_state() -> None:
    heard: list[object] = []
    feed = TableFeed("http://localhost:8080/", Changes(), identified=lambda f: heard.append(f))
    feed.took_state({"seq": 1, "log_id": "L1", "table_id": "main"})
    assert heard == [feed] and feed.identity == ("L1", "main")
    feed.took_record({"seq": 2, "state": {"seq": 2, "log_id": "L1", "table_id": "main"}})
    assert heard == [feed]  # a record's state is the same table's: only a snapshot may change it


def test_events_read_the_stream_a_table_sends() -> None:
    lines = [
        b"retry: 2000\n", b"event: snapshot\n", b'data: {"seq":4}\n', b"\n",
        b": keep-alive\n", b"\n",
        b"id: 5\r\n", b"event: record\r\n", b"data: {\"seq\":5,\r\n", b'data: "x":1}\r\n', b"\r\n",
        b"data: plain\n", b"\n",
    ]  # fmt: skip
    assert list(events(lines)) == [
        Event("snapshot", '{"seq":4}'),
        Event("record", '{"seq":5,\n"x":1}', "5"),
        Event("message", "plain"),
    ]
