"""The tournament desk on two tables of one log, driven by hand (score-only rounds typed in):
it seats each round once every table has finished the last, follows a restart from the log,
sets a round up again where a person replaced it (resume), and serves `rotation_4p` over
several tables and open tables with one leaderboard."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from controller.engine import IllegalAction
from controller.store import Store
from controller.table import InvalidInput, TableService
from controller.tournament import Plan, TournamentDesk
from tests.waiting import wait_until

EIGHT = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hui"]


@pytest.fixture
def tables(store: Store) -> Iterator[dict[str, TableService]]:
    opened = {t: TableService(store, table_id=t).start() for t in ("a", "b")}
    yield opened
    for table in opened.values():
        table.stop()


@pytest.fixture
def desk(store: Store, tables: dict[str, TableService]) -> Iterator[TournamentDesk]:
    opened = TournamentDesk(store, tables).start()
    yield opened
    opened.stop()


def play_round(table: TableService, winner: int = 0) -> None:
    """The four deals of the table's match, typed in: `winner` wins each, the others hold
    10, 20 and 30 points."""
    for _ in range(4):
        points = [0 if seat == winner else 10 * seat + 10 for seat in range(4)]
        table.submit({"type": "round", "winner": winner, "points": points})


def players(table: TableService) -> list[str]:
    return list(table.snapshot()["setup"]["players"])


def shown(table: TableService) -> dict[str, Any]:
    view: dict[str, Any] = table.snapshot()["tournament"]
    return view


def test_the_next_round_waits_for_every_table(
    desk: TournamentDesk, tables: dict[str, TableService]
) -> None:
    a, b = tables["a"], tables["b"]
    view = desk.begin({"kind": "rotation_4p", "players": EIGHT, "modes": "score_only"})
    assert [t["seating"] for t in view["tables"]] == [
        ["Ann", "Cy", "Bob", "Di"], ["Eve", "Gus", "Fay", "Hui"],
    ]  # fmt: skip
    assert players(a) == ["Ann", "Bob", "Cy", "Di"] and players(b) == EIGHT[4:]
    play_round(a)
    wait_until(lambda: shown(a)["tables"][0]["over"], "a's round shown over")
    assert players(a) == ["Ann", "Bob", "Cy", "Di"]  # b has not finished: a waits
    assert shown(a)["next"] == {"round": 1, "table": 0, "seating": ["Ann", "Bob", "Cy", "Di"]}
    play_round(b, winner=1)
    wait_until(lambda: shown(a)["round"] == 1 and shown(b)["round"] == 1, "round 2 seated")
    assert players(a) == ["Ann", "Cy", "Bob", "Di"]  # Ann partners Cy now
    standings = {line["name"]: line["total"] for line in desk.view()["standings"]}  # type: ignore[index]
    # winner collects the other team's points: a's team Ann & Bob (seats 0, 2) won 4 x (20+40)
    assert standings == {"Ann": 240, "Bob": 240, "Cy": 0, "Di": 0,
                         "Eve": 0, "Fay": 0, "Gus": 160, "Hui": 160}  # fmt: skip


def test_a_restart_carries_on_from_the_log(
    store: Store, desk: TournamentDesk, tables: dict[str, TableService]
) -> None:
    desk.begin({"kind": "rotation_4p", "players": EIGHT, "modes": "score_only"})
    desk.stop()
    play_round(tables["a"])
    play_round(tables["b"])  # both finished while no desk was running
    again = TournamentDesk(store, tables).start()
    try:
        wait_until(lambda: (again.view() or {}).get("round") == 1, "round 2 seated")
        assert players(tables["a"]) == ["Ann", "Cy", "Bob", "Di"]
    finally:
        again.stop()


def test_resume_seats_a_round_a_person_replaced(
    desk: TournamentDesk, tables: dict[str, TableService]
) -> None:
    desk.begin({"kind": "rotation_4p", "players": EIGHT, "modes": "score_only"})
    a = tables["a"]
    a.submit({"type": "setup", "setup": {"players": ["X", "Y"]}})  # someone's own game
    play_round(tables["b"])
    wait_until(lambda: shown(tables["b"])["tables"][1]["over"], "b's round over")
    assert players(a) == ["X", "Y"]  # the tournament waits for table a
    desk.resume()
    assert players(a) == ["Ann", "Bob", "Cy", "Di"]
    play_round(a)
    wait_until(lambda: (desk.view() or {}).get("round") == 1, "round 2 seated")


def test_one_tournament_at_a_time(desk: TournamentDesk) -> None:
    desk.begin({"kind": "rotation_8p", "players": EIGHT, "modes": "score_only"})
    with pytest.raises(IllegalAction, match="under way"):
        desk.begin({"kind": "rotation_8p", "players": EIGHT})
    desk.end()
    assert desk.view() is None
    desk.begin({"kind": "open"})


def test_open_tables_share_a_leaderboard(
    desk: TournamentDesk, tables: dict[str, TableService]
) -> None:
    desk.begin({"kind": "open"})
    two = {"players": ["Ann", "Bob"], "mode": "score_only", "options": {"target": 50}}
    tables["a"].submit({"type": "setup", "setup": two})
    tables["b"].submit({"type": "setup", "setup": two | {"players": ["Ann", "Cy"]}})
    for table in tables.values():
        table.submit({"type": "round", "winner": 0, "points": [0, 60]})  # Ann wins both

    def lines() -> dict[str, dict[str, Any]]:
        return {line["name"]: line for line in (desk.view() or {}).get("standings", ())}

    wait_until(lambda: lines().get("Ann", {}).get("wins") == 2, "Ann's two wins counted")
    assert (lines()["Ann"]["played"], lines()["Ann"]["rank"]) == (2, 1)
    assert lines()["Bob"]["wins"] == lines()["Cy"]["wins"] == 0


@pytest.mark.parametrize(
    ("entered", "says"),
    [
        ({"kind": "league"}, "kind must be one of"),
        ({"kind": "rotation_8p", "players": EIGHT[:7]}, "needs 8 players"),
        ({"kind": "rotation_8p", "players": [*EIGHT[:7], "ann"]}, "the same name"),
        ({"kind": "rotation_4p", "players": EIGHT, "tables": ["a", "c"]}, "some of this service"),
        ({"kind": "rotation_8p", "players": EIGHT, "tables": ["a"]}, "two tables"),
        ({"kind": "rotation_8p", "players": EIGHT, "modes": {"c": "tracked"}}, "modes must be"),
        ({"kind": "rotation_8p", "players": EIGHT, "modes": "sometimes"}, "mode must be one of"),
        ({"kind": "rotation_8p", "players": EIGHT, "game": "poker"}, "game must be"),
    ],
)
def test_what_the_organiser_entered_is_checked(entered: dict[str, Any], says: str) -> None:
    with pytest.raises(InvalidInput, match=says):
        Plan.entered(entered, ["a", "b"])


def test_rotation_4p_over_two_tables_partners_everyone_in_each_group() -> None:
    plan = Plan.entered({"kind": "rotation_4p", "players": EIGHT}, ["a", "b"])
    rounds = plan.rounds()
    assert len(rounds) == 3
    for table, group in enumerate((EIGHT[:4], EIGHT[4:])):
        pairs = {frozenset(r[table][:2]) for r in rounds} | {
            frozenset(r[table][2:]) for r in rounds
        }
        assert len(pairs) == 6 and set().union(*pairs) == set(group)
