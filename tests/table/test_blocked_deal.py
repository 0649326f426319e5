"""The blocked deal at the table (RULES.md §8): with the launcher empty and nothing left to
reload, the scoreboard's deal says so (`exhausted`), presses through the launcher's button give
nothing, and one full round of them ends the deal blocked; the players enter their hands and
the fewest points win it."""

from __future__ import annotations

import functools
import random
from typing import Any

from controller.engine.options import EDITION
from controller.launcher import SimOptions, open_launcher
from controller.policy import ScriptedPolicy
from controller.store import Store
from controller.table.demo import DemoTable
from controller.table.service import TableService
from controller.table.session import TableSession, TableSetup
from tests.waiting import FakeClock, wait_until

from .conftest import SETUP, act, started


def deal_of(service: TableService) -> dict[str, Any]:
    deal: dict[str, Any] = service.snapshot()["deal"]
    return deal


def pressed(service: TableService, presses: int) -> bool:
    """`presses` empty presses are recorded (the last of a round ends the deal)."""
    deal = deal_of(service)
    return bool(deal["empty_turns"] == presses or deal["phase"] != "playing")


def test_a_round_of_empty_presses_on_the_launcher_ends_the_deal_blocked(store: Store) -> None:
    launcher = open_launcher("hbridge", backend="sim", sim=SimOptions(time_scale=0.25))
    simulator = launcher.simulator  # type: ignore[attr-defined]
    policy = ScriptedPolicy([3] * 4)  # it would fire every time, were any card left
    service = started(TableService(store, launcher=launcher, policy=policy).start())
    try:
        deal = deal_of(service)
        assert not deal["exhausted"] and deal["to_move"] == 0 and deal["next"] == 1
        # every card the launcher held went to Ann (the count says so): nothing is left to
        # press out, and the discard pile is only its top card, so nothing to reload either
        act(service, {"type": "Correct", "seat": 0, "count": deal["hands"][0] + deal["pile"]})
        deal = deal_of(service)
        assert deal["exhausted"] and deal["pile"] == 0 and deal["reloadable"] == 0
        assert deal["empty_turns"] == 0 and not deal["blocked"]
        assert service.snapshot()["launcher"]["status"] == "ready"
        for seat in range(4):
            assert deal_of(service)["to_move"] == seat
            simulator.press()  # the button: the press takes the launcher's own path
            wait_until(functools.partial(pressed, service, seat + 1), f"press {seat + 1} done")
        deal = deal_of(service)
        assert deal["phase"] == "scoring" and deal["blocked"] and deal["winner"] is None
        assert deal["hands"] == [90, 7, 7, 7]  # nobody got a card
        assert [m["seat"] for m in deal["moves"] if m["type"] == "EnterHand"] == [0, 1, 2, 3]
        for seat, points in enumerate((250, 31, 40, 31)):
            act(service, {"type": "EnterHand", "seat": seat, "points": points})
        state = service.snapshot()
        assert state["deal"] is None
        scored = state["deals"][-1]
        # Bob and Di hold 31 points in 7 cards each: Di is the first in turn order from Di,
        # who pressed last
        assert scored["blocked"] and scored["winner"] == 3
        assert scored["points"] == [250, 31, 40, 0] and state["totals"] == [0, 0, 0, 321]
    finally:
        service.stop()
        launcher.close()


def test_the_deal_view_names_who_plays_next_after_a_hit_two() -> None:
    session = TableSession(TableSetup.from_dict(SETUP))
    session.apply({"type": "deal"})
    session.apply({"type": "action", "action": {"type": "TurnUp", "card": "R5"}})
    session.apply({"type": "action", "action": {"type": "Play", "seat": 0, "card": "RH2"}})
    deal = session.snapshot()["deal"]
    assert deal["to_move"] == 1 and deal["turn"] == 2 and deal["next"] == 2


def test_a_blocked_deal_replays_from_the_log(store: Store) -> None:
    """The table's log rebuilds the blocked deal as it was (the rule lives in the engine)."""
    service = started(TableService(store).start())
    try:
        deal = deal_of(service)
        act(service, {"type": "Correct", "seat": 2, "count": deal["hands"][2] + deal["pile"]})
        for seat in range(4):
            act(service, {"type": "Press", "seat": seat, "cards": 0})
        before = deal_of(service)
        assert before["blocked"] and before["phase"] == "scoring"
    finally:
        service.stop()
    again = TableService(store).start()
    try:
        assert deal_of(again) == before
    finally:
        again.stop()


def test_the_demo_bots_finish_a_blocked_deal(store: Store) -> None:
    """The bots enter every hand of a deal nobody went out of; the engine picks the winner."""
    launcher = open_launcher("hbridge", backend="sim", sim=SimOptions(time_scale=0.25))
    service = TableService(store, launcher=launcher).start()
    clock = FakeClock()
    bots = DemoTable(service, players=3, rng=random.Random(4), clock=clock)
    try:
        step(bots, clock, service, lambda: phase(service) == "playing", "the bots dealt")
        bots.seats_after(functools.partial(seat_people, bots, True))  # people play
        deal = deal_of(service)
        seat = deal["to_move"]
        act(service, {"type": "Correct", "seat": seat, "count": deal["hands"][seat] + deal["pile"]})
        assert deal_of(service)["exhausted"]
        while deal_of(service)["phase"] == "playing":  # presses (or a turned-up wild's colour)
            moves = deal_of(service)["moves"]
            press = [move | {"cards": 0} for move in moves if move["type"] == "Press"]
            act(service, (press or moves)[0])
        assert deal_of(service)["blocked"] and deal_of(service)["winner"] is None
        bots.seats_after(functools.partial(seat_people, bots, False))  # the bots again
        step(bots, clock, service, lambda: service.snapshot()["deal"] is None, "hands entered")
        scored = service.snapshot()["deals"][-1]
        assert scored["blocked"] and scored["points"][scored["winner"]] == 0
    finally:
        service.stop()
        launcher.close()


def seat_people(bots: DemoTable, people: bool) -> None:
    for seat in range(bots.players):
        if people:
            bots.take_seat(seat)
        else:
            bots.leave_seat(seat)


def step(bots: DemoTable, clock: FakeClock, service: TableService, done: Any, what: str) -> None:
    """Let the bots make their moves, one at a time, until `done()` holds."""
    while not done():
        clock.advance(bots.pace)
        service.post(lambda: None)  # wake the owner thread: it runs the bots' tick after it
        wait_until(lambda: bots._next > clock.now, what)  # the tick ran


def phase(service: TableService) -> str | None:
    deal = service.snapshot().get("deal") or {}
    return deal.get("phase")


def test_a_match_logged_before_the_blocked_deal_replays_as_it_was_played(store: Store) -> None:
    """§11: an upgrade never changes a recorded game. A log written before the engine's rules
    had editions (its set-up has none) kept pressing past a round of empty presses; it opens
    with every record, the deal still in play, nothing set aside."""
    command = {"type": "setup", "setup": SETUP | {"options": {}, "mode": "tracked"}}
    store.append("main", "setup", command, [], actor="tablet")
    steps: list[dict[str, Any]] = [
        {"type": "deal"},
        {"type": "action", "action": {"type": "TurnUp", "card": "R5"}},
        {"type": "action", "action": {"type": "Correct", "seat": 2, "count": 90}},
    ]
    steps += [{"type": "action", "action": {"type": "Press", "seat": s % 4, "cards": 0}}
              for s in range(6)]  # fmt: skip
    for step in steps:
        store.append("main", str(step["type"]), step, [], actor="tablet")
    service = TableService(store).start()
    try:
        deal = deal_of(service)
        assert store.set_aside_records() == []
        assert deal["phase"] == "playing" and not deal["blocked"] and deal["exhausted"]
        assert deal["to_move"] == 2  # six presses later, as it was played
        assert service.snapshot()["setup"]["edition"] == 1
    finally:
        service.stop()
    fresh = started(TableService(store).start())  # a new match: today's rules
    try:
        assert fresh.snapshot()["setup"]["edition"] == EDITION
    finally:
        fresh.stop()
