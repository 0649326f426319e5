"""POST /api/setup refuses a set-up the rules refuse (issue 21) with 400 and the reason, and
records nothing: an option the format does not use (the elimination tournament counted in
chips that hung the table), a number out of range (its range said), a hand too big to deal
(the largest that fits, §2.3), an option of the other game at any value (§11)."""

from __future__ import annotations

from typing import Any

import pytest

from controller.store import Store

from .conftest import SETUP, Tablet

CLASSIC = SETUP | {"game": "classic"}

REFUSED: list[tuple[dict[str, Any], dict[str, Any], str]] = [
    (SETUP, {"format": "elim_tournament", "scoring": "chips", "starting_chips": 500},
     "options scoring and starting_chips are not used by the elim_tournament format "
     "(it uses target)"),
    (SETUP, {"format": "team_play", "starting_chips": 100},
     "option starting_chips is not used by the team_play format (it uses teams, team_scoring "
     "and target)"),
    (SETUP, {"format": "elim_within_deal", "scoring": "chips"}, "option scoring is not used by"),
    (SETUP, {"format": "rotation_4p", "target": 300}, "option target is not used by"),
    (SETUP, {"scoring": "chips", "target": 300}, "option target is not used with scoring=chips"),
    (SETUP, {"hand_size": 0}, "option hand_size must be between 1 and 53, not 0"),
    (SETUP, {"hand_size": 60}, "option hand_size must be between 1 and 53, not 60"),
    (SETUP, {"hand_size": 40},
     "option hand_size: 4 players x 40 cards needs more than the 112-card attack_1998 deck: "
     "deal at most 26 cards each to 4 players (§2.3)"),
    (CLASSIC, {"hand_size": 26}, "deal at most 25 cards each to 4 players (§2.3)"),
    (SETUP, {"target": 0}, "option target must be between 1 and 100000, not 0"),
    (SETUP, {"format": "team_play", "teams": 9}, "option teams must be between 2 and 5, not 9"),
    (SETUP, {"wd4_legal_colour": True},
     "option wd4_legal_colour applies to classic UNO only, not to attack UNO"),
    (SETUP, {"uno_identical_cards": True},
     "option uno_identical_cards applies to classic UNO only, not to attack UNO"),
    (SETUP, {"wd4_bluffing": True, "start_draw2_skip": True, "challenge_victim_plays": True,
             "start_wild_first_names": True},
     "options challenge_victim_plays, start_draw2_skip, start_wild_first_names and wd4_bluffing "
     "do not apply to attack UNO (only to classic UNO)"),  # the test client sorts the keys
    (SETUP, {"no_finish_on_action": False},
     "option no_finish_on_action applies to classic UNO only, not to attack UNO"),
    (SETUP, {"uno_state": "one_card_or_identical"},
     "option uno_state=one_card_or_identical (uno_identical_cards) applies to classic UNO only"),
    (CLASSIC, {"atk_suggestion_penalty": True},
     "option atk_suggestion_penalty applies to attack UNO only, not to classic UNO"),
    (CLASSIC, {"start_colour_namer": "starter"},
     "option start_colour_namer applies to attack UNO only, not to classic UNO"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("setup", "options", "reason"), REFUSED, ids=[str(case[1]) for case in REFUSED]
)
def test_a_refused_set_up_answers_400_with_the_reason_and_records_nothing(
    tablet: Tablet, store: Store, setup: dict[str, Any], options: dict[str, Any], reason: str
) -> None:
    assert tablet.unlock().status_code == 200
    answer = tablet.post("/api/setup", {"setup": setup | {"options": options}})
    assert answer.status_code == 400
    assert reason in answer.get_json()["error"]
    assert store.records("main") == [] and store.set_aside_records() == []
    assert "setup" not in tablet.get("/api/state").get_json()


def test_the_same_set_ups_without_the_refused_options_are_taken(tablet: Tablet) -> None:
    assert tablet.unlock().status_code == 200
    for setup, options in (
        (SETUP, {"format": "elim_tournament", "target": 500}),
        (SETUP, {"hand_size": 26}),
        (CLASSIC, {"hand_size": 25, "wd4_legal_colour": True, "uno_identical_cards": True}),
        (SETUP, {"scoring": "chips", "starting_chips": 500, "num_deals": 3}),
    ):
        answer = tablet.post("/api/setup", {"setup": setup | {"options": options}})
        assert answer.status_code == 200, answer.get_json()
        assert tablet.post("/api/deal").status_code == 200
