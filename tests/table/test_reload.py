"""Reloading the empty launcher (RULES.md §8): it then holds the discard pile but its top card,
whatever the table's count said was left in it."""

from __future__ import annotations

from typing import Any

import pytest

from controller.engine import IllegalAction
from controller.launcher import SimOptions, open_launcher
from controller.policy import ScriptedPolicy
from controller.store import Store
from controller.table.service import TableService
from controller.table.session import TableSession, TableSetup
from tests.waiting import wait_until

from .conftest import SETUP, act, started

DECK = 112  # UNO Attack


def three_plays(session: TableSession) -> None:
    """Deal, turn up R5, and three plays: the discard pile holds three cards under its top."""
    session.apply({"type": "deal"})
    session.apply({"type": "action", "action": {"type": "TurnUp", "card": "R5"}})
    for seat, card in enumerate(("R7", "R8", "R9")):
        session.apply({"type": "action", "action": {"type": "Play", "seat": seat, "card": card}})


def view(session: TableSession) -> dict[str, Any]:
    deal: dict[str, Any] = session.snapshot()["deal"]
    return deal


def every_card(deal: dict[str, Any]) -> int:
    return sum(deal["hands"]) + deal["pile"] + deal["reloadable"] + 1 + deal["unaccounted"]


def reloaded(events: list[dict[str, Any]]) -> int:
    count: int = next(e["count"] for e in events if e["type"] == "Reloaded")
    return count


def test_a_reload_sets_the_launcher_to_the_discards_not_adds_to_a_drifted_count() -> None:
    session = TableSession(TableSetup.from_dict(SETUP))
    three_plays(session)
    left = view(session)["pile"]
    assert left == DECK - 28 - 1  # the count says 83 are in the launcher: it ran empty anyway
    assert reloaded(session.apply({"type": "reload"})) == 3
    deal = view(session)
    assert deal["pile"] == 3 and deal["reloadable"] == 0
    assert deal["unaccounted"] == left  # not in the launcher, nor any hand's count
    assert every_card(deal) == DECK


def test_cards_the_empty_press_moved_are_loaded_with_the_rest() -> None:
    """The press that found the launcher empty already moved the discards into the engine's
    launcher; they were still on the table, and go in with the cards played since."""
    session = TableSession(TableSetup.from_dict(SETUP))
    three_plays(session)
    whole = view(session)["hands"][3] + view(session)["pile"]
    session.apply({"type": "action", "action": {"type": "Correct", "seat": 3, "count": whole}})
    session.apply({"type": "action", "action": {"type": "Press", "seat": 3, "cards": 0}})
    session.apply({"type": "action", "action": {"type": "Play", "seat": 0, "card": "R1"}})
    assert reloaded(session.apply({"type": "reload"})) == 4  # R5 R7 R8, then R9
    deal = view(session)
    assert deal["pile"] == 4 and deal["unaccounted"] == 0 and every_card(deal) == DECK


def test_a_hand_corrected_up_after_a_reload_takes_the_unaccounted_cards() -> None:
    session = TableSession(TableSetup.from_dict(SETUP))
    three_plays(session)
    session.apply({"type": "reload"})
    before = view(session)
    count = before["hands"][0] + 2
    session.apply({"type": "action", "action": {"type": "Correct", "seat": 0, "count": count}})
    after = view(session)
    assert after["pile"] == before["pile"] == 3  # the launcher holds what it held
    assert after["unaccounted"] == before["unaccounted"] - 2 and every_card(after) == DECK


def test_the_dealt_launcher_holds_the_deck_but_the_turned_up_card(store: Store) -> None:
    """After the deal the players load the rest of the deck but its top card, which is turned
    up on the lid (RULES.md §2; a Trade Hands turned up goes back and another is turned up):
    the simulated launcher holds exactly the table's count, so emptying it never gives a card
    more than the count has (a press that did reported one card more than it moved)."""
    launcher = open_launcher("hbridge", backend="sim", sim=SimOptions(time_scale=0.25))
    simulator = launcher.simulator  # type: ignore[attr-defined]
    service = TableService(store, launcher=launcher).start()
    try:
        service.submit({"type": "setup", "setup": SETUP})
        service.submit({"type": "deal"})
        assert simulator.stack == DECK - 28 - 1  # the top card is not in it
        act(service, {"type": "TurnUp", "card": "RTH"})  # goes back: another is turned up
        act(service, {"type": "TurnUp", "card": "R5"})
        assert service.snapshot()["deal"]["pile"] == simulator.stack == DECK - 28 - 1
    finally:
        service.stop()
        launcher.close()


def test_the_reloaded_launcher_holds_what_the_table_says(store: Store) -> None:
    """The players forgot to fill the launcher: the table's count said 83 cards were left."""
    sim = SimOptions(time_scale=0.25)
    launcher = open_launcher("hbridge", backend="sim", sim=sim)
    simulator = launcher.simulator  # type: ignore[attr-defined]
    service = started(TableService(store, launcher=launcher, policy=ScriptedPolicy([3])).start())
    try:
        for seat, card in enumerate(("R7", "R8", "R9")):
            act(service, {"type": "Play", "seat": seat, "card": card})
        simulator.load(0)
        simulator.press()  # the motor runs, no card comes out
        wait_until(lambda: service.snapshot()["launcher"]["status"] == "empty", "empty")
        service.submit({"type": "reload"})
        deal = service.snapshot()["deal"]
        assert deal["pile"] == 3 and simulator.stack == 3  # filled as told: the discards
        assert service.snapshot()["launcher"]["status"] == "ready"
    finally:
        service.stop()
        launcher.close()


def test_the_virtual_button_is_refused_until_the_reload(store: Store) -> None:
    """An empty launcher serves no press: the scoreboards offer none, and the table refuses a
    virtual one (the button's own press would be refused by the launcher) until the reload."""
    launcher = open_launcher("hbridge", backend="sim", sim=SimOptions(time_scale=0.25))
    simulator = launcher.simulator  # type: ignore[attr-defined]
    service = started(TableService(store, launcher=launcher, policy=ScriptedPolicy([3, 3])).start())
    try:
        act(service, {"type": "Play", "seat": 0, "card": "R7"})
        simulator.load(0)
        simulator.press()
        wait_until(lambda: service.snapshot()["launcher"]["status"] == "empty", "empty")
        seq = service.snapshot()["seq"]
        with pytest.raises(IllegalAction, match="reload it, tap Reloaded, then press"):
            service.virtual_press()
        assert service.snapshot()["seq"] == seq
        service.submit({"type": "reload"})
        service.virtual_press()  # reloaded: the press is served
        wait_until(lambda: service.snapshot()["seq"] > seq + 1, "the press recorded")
    finally:
        service.stop()
        launcher.close()
