"""The 8-player rotation (RULES.md §9.6) on two tables of one service, for real: the organiser
enters the eight names once; each round the service seats the pairs at the two tables as §9.6
says (partners opposite), each table plays its four deals, and the next round is seated at both
tables only once both have finished. Bots play; everything is checked against the schedule and
against totals computed here from the two tables' logs alone."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.store import Record
from controller.table import TableService
from tests.exploring import SOAK
from tests.several import Served, serving
from tests.waiting import wait_until

from .test_several_tables import TABLES, Tablet

pytestmark = pytest.mark.serial  # table b's fake Pico board must react in time

EIGHT = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hui"]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(TABLES, tmp_path, bots=True) as service:
        yield service


def schedule(round_: int) -> list[list[tuple[int, int]]]:
    """§9.6 as written: round r's pairs (7, r) and ((r+k) mod 7, (r-k) mod 7), k = 1, 2, 3;
    pairs 1 and 2 at the first table, 3 and 4 at the second."""
    pairs = [(7, round_)] + [((round_ + k) % 7, (round_ - k) % 7) for k in (1, 2, 3)]
    return [pairs[:2], pairs[2:]]


def matches(service: TableService, actor: str) -> list[list[Record]]:
    """The table's matches the tournament set up, each its records in order."""
    found: list[list[Record]] = []
    for record in service.all_records():
        if record.kind == "setup":
            found.append([record] if record.actor == actor else [])
        elif found and found[-1]:
            found[-1].append(record)
    return [match for match in found if match]


def events(match: list[Record], kind: str) -> list[tuple[int, dict[str, Any]]]:
    return [(r.seq, e) for r in match for e in r.events if e["type"] == kind]


TRACKED_CYCLE = pytest.mark.skipif(
    not SOAK, reason="56 tracked deals on two launchers take minutes: `make soak` plays them"
)


@pytest.mark.parametrize(
    "modes",
    ["score_only", pytest.param("tracked", marks=[TRACKED_CYCLE, pytest.mark.timeout(1800)])],
)
def test_a_whole_rotation_of_eight_on_two_tables(served: Served, modes: str) -> None:
    """Score-only, the bots enter each deal's result; tracked, they play every deal, pressing
    table a's launcher on mock GPIO and table b's on the fake Pico board."""
    organiser = Tablet(served.url)  # at the first table, with its PIN
    assert organiser.post("/api/session/pin", {"pin": "1111"})[0] == 200
    status, answer = organiser.post(
        "/api/tournament", {"kind": "rotation_8p", "players": EIGHT, "modes": modes}
    )
    assert status == 200, answer
    begun = answer["tournament"]
    assert (begun["round"], begun["rounds"], begun["kind"]) == (0, 7, "rotation_8p")
    whole = 60.0 if modes == "score_only" else 1500.0
    wait_until(lambda: (served.desk.view() or {}).get("over"), "all seven rounds played", whole)
    actor = f"tournament:{begun['id']}"
    assert_the_whole_rotation(served, actor)
    if modes == "tracked":
        for table_id in ("a", "b"):
            pressed = [
                e
                for match in matches(served.table(table_id).service, actor)
                for _, e in events(match, "Pressed")
            ]
            assert pressed, f"table {table_id} never pressed its launcher"
            assert all(len(e["cards"]) == e["reported"] for e in pressed if e["cards"])


def assert_the_whole_rotation(served: Served, actor: str) -> None:
    """Both tables' logs hold seven rounds of four deals each, seated by §9.6 with partners
    opposite, the next round seated only once both tables had finished; the standings every
    tablet shows equal the totals worked out here from the two logs alone."""
    a, b = served.table("a").service, served.table("b").service
    played = {"a": matches(a, actor), "b": matches(b, actor)}
    assert len(played["a"]) == len(played["b"]) == 7

    totals: Counter[str] = Counter()
    partners: set[frozenset[str]] = set()
    for round_ in range(7):
        ends = []
        for index, table_id in enumerate(("a", "b")):
            match = played[table_id][round_]
            players = match[0].command["setup"]["players"]
            scored = events(match, "DealScored")
            assert len(scored) == 4  # four deals a round at each table
            for _, deal in scored:
                seats = [players[p] for p in deal["seating"]]  # who sat where
                pair_one, pair_two = ({seats[0], seats[2]}, {seats[1], seats[3]})
                expected = [{EIGHT[x], EIGHT[y]} for x, y in schedule(round_)[index]]
                assert [pair_one, pair_two] == expected  # §9.6's pairs, partners opposite
                for player, delta in enumerate(deal["deltas"]):
                    totals[players[player]] += delta
            partners |= {frozenset(pair) for pair in (pair_one, pair_two)}
            (end,) = events(match, "MatchEnded")
            ends.append(end[0])
        if round_ < 6:  # the next round was seated only once both tables had finished
            assert min(played[t][round_ + 1][0].seq for t in ("a", "b")) > max(ends)
    assert len(partners) == 28  # every player partnered each of the other seven once

    view = served.desk.view()
    assert view is not None and view["over"] and view["round"] == 7
    standings = {line["name"]: line for line in view["standings"]}
    assert {name: line["total"] for name, line in standings.items()} == dict(totals)
    assert {line["deals"] for line in standings.values()} == {28}  # 7 rounds x 4 deals each
    ranked = [line["name"] for line in view["standings"]]
    assert ranked == sorted(EIGHT, key=lambda name: (-totals[name], name))
    for service in (a, b):  # every tablet's state carries it
        wait_until(lambda s=service: (s.snapshot().get("tournament") or {}).get("over"))
        assert service.snapshot()["tournament"]["standings"] == view["standings"]


@pytest.mark.timeout(400)
def test_tracked_tables_press_their_own_launchers(served: Served) -> None:
    """Tracked at both tables: the bots' presses go through table a's pins and table b's board,
    each into its own table's match of the round; the organiser ends the tournament."""
    organiser = Tablet(served.url, "/t/b")  # any table's PIN may start it
    assert organiser.post("/api/session/pin", {"pin": "2222"})[0] == 200
    status, answer = organiser.post("/api/tournament", {"kind": "rotation_8p", "players": EIGHT})
    assert status == 200, answer
    actor = f"tournament:{answer['tournament']['id']}"
    a, b = served.table("a").service, served.table("b").service

    def first_deal_scored(service: TableService) -> bool:
        played = matches(service, actor)
        return bool(played) and bool(events(played[0], "DealScored"))

    # A tracked deal presses real-speed simulated launchers: 10-15 s quietly, a long tail
    # beside CPU hogs (over 60 s in `make test-busy`)
    wait_until(lambda: first_deal_scored(a) and first_deal_scored(b), "a deal at each table", 240)
    assert organiser.post("/api/tournament/end")[0] == 200
    for service in (a, b):
        (match,) = matches(service, actor)
        pressed = [e for _, e in events(match, "Pressed") if e["cards"]]
        assert pressed and all(len(e["cards"]) == e["reported"] for e in pressed)
        wait_until(lambda s=service: s.snapshot().get("tournament") is None, "the end shown")
    assert organiser.get("/api/tournament") == {"tournament": None}
