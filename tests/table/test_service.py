"""The table service: commands through the owner thread, logged before they are seen,
refusals that change nothing, idempotent taps, undo, and rebuilding after a restart."""

from __future__ import annotations

import pytest

from controller.engine import IllegalAction
from controller.store import Store
from controller.table.codec import InvalidInput
from controller.table.service import TableService

from .conftest import SETUP, act, started


def test_a_tracked_deal_flows_through_the_service(service: TableService) -> None:
    started(service)
    record = act(service, {"type": "Play", "seat": 0, "card": "R7"})
    assert record.kind == "action" and record.events[0]["type"] == "Played"
    deal = service.snapshot()["deal"]
    assert deal["hands"] == [6, 7, 7, 7] and deal["top"] == "R7" and deal["to_move"] == 1
    assert service.snapshot()["seq"] == record.seq


def test_every_accepted_command_is_logged_in_order(service: TableService, store: Store) -> None:
    started(service)
    kinds = [(r.kind, r.command.get("action", {}).get("type")) for r in store.records("main")]
    assert kinds == [("setup", None), ("deal", None), ("action", "TurnUp")]


def test_refused_commands_change_nothing(service: TableService, store: Store) -> None:
    started(service)
    before, state = len(store.records("main")), service.snapshot()
    with pytest.raises(IllegalAction, match="P0's turn"):
        act(service, {"type": "Play", "seat": 2, "card": "R7"})
    with pytest.raises(InvalidInput, match="not a card"):
        act(service, {"type": "Play", "seat": 0, "card": "R77"})
    with pytest.raises(InvalidInput, match="2 to 10 players"):
        service.submit({"type": "setup", "setup": SETUP | {"players": ["Solo"]}})
    assert len(store.records("main")) == before and service.snapshot() == state


@pytest.mark.parametrize(
    ("players", "options", "reason"),
    [
        (["A", "B", "C", "D", "E"], {"format": "team_play", "teams": 2}, "cannot form 2 teams"),
        (["A", "B", "C"], {"format": "rotation_4p"}, "rotation_4p needs 4 players"),
    ],
)
def test_a_format_that_does_not_fit_the_players_is_bad_input(
    service: TableService,
    store: Store,
    caplog: pytest.LogCaptureFixture,
    players: list[str],
    options: dict[str, object],
    reason: str,
) -> None:
    setup = SETUP | {"players": players, "game": "classic", "options": options, "first_dealer": 0}
    with pytest.raises(InvalidInput, match=reason):
        service.submit({"type": "setup", "setup": setup})
    assert store.records("main") == []
    assert "table job failed" not in caplog.text  # a refusal, not a failure of the service


def test_a_set_up_its_options_cannot_deal_is_refused_not_a_failure(
    service: TableService, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    # 5 x 22 Attack cards leave 2, which could both be Trade Hands that go back (§2.5)
    setup = SETUP | {"players": list("ABCDE"), "options": {"hand_size": 22}}
    with pytest.raises(InvalidInput, match="option hand_size: 5 players x 22 cards leave 2") as e:
        service.submit({"type": "setup", "setup": setup})
    assert "at most 21 cards each to 5 players" in str(e.value)  # the largest that fits (§2.3)
    assert store.records("main") == []
    assert "table job failed" not in caplog.text  # a refusal, not a failure of the service


def test_a_retried_tap_applies_once(service: TableService, store: Store) -> None:
    started(service)
    first = act(service, {"type": "Play", "seat": 0, "card": "R7"}, idem_key="tap-123456")
    again = act(service, {"type": "Play", "seat": 0, "card": "R7"}, idem_key="tap-123456")
    assert again.seq == first.seq
    assert service.snapshot()["deal"]["hands"][0] == 6
    assert sum(1 for r in store.records("main") if (r.idem_key or "").endswith(":tap-123456")) == 1


def test_undo_takes_back_the_last_tap(service: TableService) -> None:
    started(service)
    before = service.snapshot()["deal"]
    act(service, {"type": "Play", "seat": 0, "card": "R7"})
    service.submit({"type": "undo"})
    after = service.snapshot()["deal"]
    assert after == before
    act(service, {"type": "Play", "seat": 0, "card": "R9"})
    assert service.snapshot()["deal"]["top"] == "R9"


def test_a_press_cannot_be_undone(service: TableService) -> None:
    started(service)
    act(service, {"type": "Press", "seat": 0, "cards": 2})
    with pytest.raises(IllegalAction, match="correct the hand count"):
        service.submit({"type": "undo"})


def test_restart_rebuilds_the_same_table(store: Store) -> None:
    first = started(TableService(store).start())
    act(first, {"type": "Play", "seat": 0, "card": "RH2"})
    act(first, {"type": "Press", "seat": 1, "cards": 0})
    first.submit({"type": "action", "action": {"type": "Press", "seat": 1, "cards": 3}})
    state = first.snapshot()
    first.stop()
    second = TableService(store).start()
    try:
        assert second.snapshot() == state
        assert second.snapshot()["deal"]["hands"][1] == 10
    finally:
        second.stop()


def test_commands_before_setup_are_refused(service: TableService) -> None:
    with pytest.raises(IllegalAction, match="set up the table first"):
        service.submit({"type": "deal"})
    with pytest.raises(InvalidInput, match="unknown command"):
        started(service).submit({"type": "dance"})


def test_score_only_table_takes_round_results(service: TableService) -> None:
    service.submit({"type": "setup", "setup": SETUP | {"mode": "score_only"}})
    record = service.submit({"type": "round", "winner": 1, "points": [40, 0, 12, 3]})
    assert record.events[0]["type"] == "DealScored"
    assert service.snapshot()["totals"] == [0, 55, 0, 0]
    with pytest.raises(IllegalAction, match="only keeps score"):
        service.submit({"type": "deal"})
    with pytest.raises(InvalidInput, match="went out"):
        service.submit({"type": "round", "winner": 1, "points": [40, 5, 12, 3]})


def test_a_new_match_keeps_the_old_one_in_the_log(service: TableService, store: Store) -> None:
    started(service)
    service.submit({"type": "setup", "setup": SETUP | {"players": ["X", "Y"], "first_dealer": 0}})
    assert service.snapshot()["setup"]["players"] == ["X", "Y"]
    assert [r.kind for r in store.records("main")].count("setup") == 2


def test_whole_match_to_the_end_with_scores(service: TableService) -> None:
    started(service, options={"target": 50})
    game_over = None
    for turn, card in enumerate(_matching_run(25)):  # P0 plays its seventh card last
        act(service, {"type": "Play", "seat": turn % 4, "card": card})
    deal = service.snapshot()["deal"]
    assert deal["phase"] == "scoring" and deal["winner"] == 0
    for seat in (1, 2, 3):
        game_over = act(service, {"type": "EnterHand", "seat": seat, "points": 20})
    assert [e["type"] for e in game_over.events] == ["DealEnded", "DealScored", "MatchEnded"]
    state = service.snapshot()
    assert state["totals"] == [60, 0, 0, 0] and state["match_over"] and state["winners"] == [0]


def _matching_run(count: int) -> list[str]:
    """Distinct real cards, each fitting the one before: R2 Y2 G2 B2 B3 R3 Y3 G3 G4 ...
    (a table refuses a card whose every copy is already on the discard pile)."""
    colours, cards = "RYGB", []
    for number in range(2, 10):
        first = colours.index(cards[-1][0]) if cards else 0
        cards += [colours[(first + k) % 4] + str(number) for k in range(4)]
    return cards[:count]


def test_a_setup_without_a_profile_takes_the_configured_one(store: Store) -> None:
    service = TableService(store, eject_profile="gentle").start()
    try:
        service.submit({"type": "setup", "setup": SETUP})
        assert service.snapshot()["setup"]["eject_profile"] == "gentle"
        service.submit({"type": "setup", "setup": SETUP | {"eject_profile": "brutal"}})
        assert service.snapshot()["setup"]["eject_profile"] == "brutal"
    finally:
        service.stop()
