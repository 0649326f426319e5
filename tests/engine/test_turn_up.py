"""§2.5: turning up the first card when the cards left are ones that must go back.

A turned-up Wild Draw Four (classic; and Wild under start_wild=redraw) or Trade Hands (Attack)
is returned and another card turned up. A deal whose pile could hold nothing else would turn
cards up forever, so the engine refuses such a deal before it shuffles, naming the option.
"""

from __future__ import annotations

import random

import pytest

from controller.engine import OptionError, Rules, deal
from controller.engine.deal import turn_up_from_pile
from controller.engine.notation import position
from controller.engine.state import Phase


@pytest.mark.timeout(10)
@pytest.mark.parametrize(
    ("game", "options", "pile"),
    [
        ("classic", {}, "W4 W4 W4"),
        ("classic", {"start_wild": "redraw"}, "W W4 W"),
        ("attack", {}, "RTH GTH"),
    ],
)
def test_a_pile_of_only_returned_cards_is_refused_not_turned_up_forever(
    game: str, options: dict[str, str], pile: str
) -> None:
    state = position(game, pile=pile, **options)
    state.discard.clear()
    state.phase = Phase.TURN_UP
    with pytest.raises(OptionError, match="no card that may start"):
        turn_up_from_pile(state, [])
    assert state.phase is Phase.TURN_UP and not state.discard


# Seeds whose shuffle leaves only returned cards in the pile: before the check, these deals
# turned cards up forever.
@pytest.mark.timeout(10)
@pytest.mark.parametrize(
    ("game", "options", "players", "seed", "returned"),
    [
        ("attack", {"hand_size": 22}, 5, 636, "4 Trade Hands"),
        ("classic", {"hand_size": 15}, 7, 24033, "4 Wild Draw Four"),
        ("classic", {"hand_size": 13, "start_wild": "redraw"}, 8, 0, "8 Wild or Wild Draw Four"),
    ],
)
def test_a_deal_that_could_leave_only_returned_cards_is_refused(
    game: str, options: dict[str, object], players: int, seed: int, returned: str
) -> None:
    rules = Rules.create(game, **options)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=f"option hand_size: .* the {returned} cards"):
        deal(rules, players, 0, random.Random(seed))


@pytest.mark.parametrize(
    ("game", "hand_size", "players"),
    [("classic", 17, 6), ("attack", 21, 5)],  # 6 and 7 cards left: more than 4 returned ones
)
def test_a_deal_that_always_leaves_a_card_to_start_is_dealt(
    game: str, hand_size: int, players: int
) -> None:
    state, _ = deal(Rules.create(game, hand_size=hand_size), players, 0, random.Random(1))
    assert state.phase is Phase.PLAYING and state.discard
