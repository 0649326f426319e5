"""Table mode: physical cards, unseen hands with exact counts, facts supplied by the players."""

from __future__ import annotations

import random

import pytest

from controller.engine import (
    COLOURS,
    UNKNOWN,
    BadChoice,
    Challenge,
    EnterHand,
    IllegalAction,
    Knowledge,
    Phase,
    Play,
    Press,
    Rules,
    TurnUp,
    deal,
)
from controller.engine.events import DealEnded, Returned
from controller.engine.notation import position

from .conftest import c

R, Y, G, B = COLOURS


def table_deal(game_kind: str = "attack", players: int = 4):
    game, _ = deal(Rules.create(game_kind), players, players - 1, random.Random(1), Knowledge.TABLE)
    return game


def test_table_deal_waits_for_the_turned_up_card() -> None:
    game = table_deal()
    assert game.phase is Phase.TURN_UP
    assert all(hand == [UNKNOWN] * 7 for hand in game.hands)
    assert len(game.pile) == 112 - 28
    assert TurnUp(c("R5")) in game.legal_actions()
    with pytest.raises(IllegalAction, match="turn"):
        game.push(Press(0, 1))


def test_table_turn_up_of_trade_hands_is_returned() -> None:
    game = table_deal()
    assert game.push(TurnUp(c("GTH")))[-1] == Returned(c("GTH"))
    assert game.phase is Phase.TURN_UP
    with pytest.raises(BadChoice, match="not in the attack_1998 deck"):
        game.push(TurnUp(c("R0")))
    game.push(TurnUp(c("G4")))
    assert game.phase is Phase.PLAYING and game.to_move() == 0 and len(game.pile) == 83


def test_table_play_replaces_an_unseen_card() -> None:
    game = table_deal()
    game.push(TurnUp(c("G4")))
    offered = {a.card.text for a in game.moves() if isinstance(a, Play)}
    assert {"G9", "R4", "W", "WAH", "WHF", "GTH", "GDA"} <= offered and "R9" not in offered
    game.push(Play(0, c("G9")))
    assert game.hands[0] == [UNKNOWN] * 6 and game.top is c("G9")


def test_table_press_takes_the_sensor_count() -> None:
    game = table_deal()
    game.push(TurnUp(c("G4")))
    game.push(Press(0, 3))
    assert len(game.hands[0]) == 10 and len(game.pile) == 80
    with pytest.raises(IllegalAction, match="cannot have given"):
        game.push(Press(1, 500))


def test_table_discard_all_sheds_the_cards_said() -> None:
    game = table_deal()
    game.push(TurnUp(c("G4")))
    game.push(Play(0, c("GDA"), also=(UNKNOWN, c("G2"))))
    assert len(game.hands[0]) == 4 and game.discard[-3:] == [UNKNOWN, c("G2"), c("GDA")]
    with pytest.raises(BadChoice, match="only R cards"):
        game.push(Play(1, c("RDA"), also=(c("G1"),)))
    with pytest.raises(IllegalAction, match="every copy of GDA is already in sight"):
        game.push(Play(1, c("GDA")))


def test_table_wd4_challenge_needs_the_verdict() -> None:
    game = table_deal("classic")
    game.push(TurnUp(c("R4")))
    game.push(Play(0, c("W4"), colour=B))
    assert Challenge(1, True) in game.moves() and Challenge(1, False) in game.moves()
    with pytest.raises(BadChoice, match="guilty"):
        game.push(Challenge(1))
    game.push(Challenge(1, guilty=True))
    assert len(game.hands[0]) == 10 and game.to_move() == 1


def test_full_mode_refuses_a_wrong_verdict() -> None:
    game = position("classic", top="R5", hands={0: "W4 G1"})
    game.push(Play(0, c("W4"), colour=B))
    with pytest.raises(BadChoice, match="was legal"):
        game.push(Challenge(1, guilty=True))


def test_table_scoring_takes_the_hands_entered() -> None:
    game = position("attack", top="R5", hands={0: "R1"}, knowledge=Knowledge.TABLE)
    game.hands[1:] = [[UNKNOWN] * 3, [UNKNOWN] * 2, [UNKNOWN]]
    game.push(Play(0, c("R1")))
    assert game.phase is Phase.SCORING
    assert game.legal_actions() == [EnterHand(1), EnterHand(2), EnterHand(3)]
    with pytest.raises(BadChoice, match="enter the cards"):
        game.push(EnterHand(1))
    game.push(EnterHand(1, cards=(c("WHF"), c("R9"), c("GS"))))
    game.push(EnterHand(2, points=12))
    events = game.push(EnterHand(3, cards=(c("B7"),)))
    assert events == [DealEnded(0, (0, 79, 12, 7), (0, 3, 2, 1))]
    assert game.over


def test_enter_hand_refuses_the_winner_and_bad_points() -> None:
    game = position("attack", top="R5", hands={0: "R1"}, knowledge=Knowledge.TABLE)
    game.push(Play(0, c("R1")))
    with pytest.raises(IllegalAction, match="went out"):
        game.push(EnterHand(0, points=0))
    with pytest.raises(BadChoice, match="negative"):
        game.push(EnterHand(1, points=-3))
    with pytest.raises(BadChoice, match="not all"):
        game.push(EnterHand(1, cards=(c("W4"),)))


def test_hand_count_corrections_move_unseen_cards() -> None:
    from controller.engine import Correct
    from controller.engine.events import Corrected

    game = table_deal()
    game.push(TurnUp(c("G4")))
    assert game.push(Correct(2, 9)) == [Corrected(2, 7, 9)]
    assert len(game.hands[2]) == 9 and len(game.pile) == 81
    game.push(Correct(2, 6))
    assert len(game.hands[2]) == 6 and len(game.pile) == 84
    with pytest.raises(IllegalAction, match="gone out"):
        game.push(Correct(2, 0))
    with pytest.raises(IllegalAction, match="unaccounted"):
        game.push(Correct(2, 200))
    with pytest.raises(IllegalAction, match="at a table"):
        position().push(Correct(0, 3))


def scoring_deal(top: str = "R5", colour: str | None = None, sizes: tuple[int, ...] = (3, 2, 1)):
    """Classic at a table: P0 has just gone out; the others hold `sizes` unseen cards."""
    game = position("classic", top=top, colour=colour, hands={0: "R1"}, knowledge=Knowledge.TABLE)
    game.hands[1:] = [[UNKNOWN] * size for size in sizes]
    game.push(Play(0, c("R1")))
    assert game.phase is Phase.SCORING
    return game


def cards(text: str) -> tuple:
    return tuple(c(x) for x in text.split())


def test_an_entered_hand_holds_no_card_more_often_than_the_deck() -> None:
    """Five Wild Draw Fours of a deck that has four: refused, whatever the tracked count."""
    game = scoring_deal(sizes=(5, 2, 1))
    with pytest.raises(BadChoice, match="the classic deck has 4 W4: P1 cannot hold 5"):
        game.push(EnterHand(1, cards("W4 W4 W4 W4 W4")))
    game.push(EnterHand(1, cards("W4 W4 W4 W4 W")))  # four are fine: 250 points
    assert game.shown[1] == (250, 5)


def test_copies_in_sight_are_not_in_a_hand() -> None:
    """The discard pile and the hands entered before hold copies no hand can hold too."""
    game = scoring_deal(top="W4", colour="R", sizes=(3, 2, 1))
    with pytest.raises(BadChoice, match="has 4 W4 and 1 in sight: P1 cannot hold 4"):
        game.push(EnterHand(1, cards("W4 W4 W4 W4"), correction=True))
    game.push(EnterHand(1, cards("W4 W4 R2")))
    with pytest.raises(BadChoice, match="has 4 W4 and 3 in sight: P2 cannot hold 2"):
        game.push(EnterHand(2, cards("W4 W4")))
    game.push(EnterHand(2, cards("W4 G7")))


def test_a_count_other_than_the_tracked_one_is_questioned() -> None:
    game = scoring_deal(sizes=(3, 2, 1))
    with pytest.raises(BadChoice, match="P1 was tracked holding 3 cards, not 2: count again"):
        game.push(EnterHand(1, cards("G7 B2")))
    assert 1 not in game.shown
    game.push(EnterHand(1, cards("G7 B2"), correction=True))  # the players counted again
    assert game.shown[1] == (9, 2)


def test_entered_points_are_bounded_by_the_cards_tracked() -> None:
    """Two cards score at most two wilds' worth (100 in classic); a correction frees the count
    (but never beyond every card still out of sight)."""
    game = scoring_deal(sizes=(3, 2, 1))
    with pytest.raises(BadChoice, match="P2's 2 cards can score at most 100 points"):
        game.push(EnterHand(2, points=101))
    game.push(EnterHand(2, points=120, correction=True))
    with pytest.raises(BadChoice, match="P3's hand can score at most"):
        game.push(EnterHand(3, points=100_000, correction=True))


def test_a_hand_is_entered_once() -> None:
    game = scoring_deal(sizes=(3, 2, 1))
    game.push(EnterHand(1, points=12))
    assert EnterHand(1) not in game.legal_actions()
    with pytest.raises(IllegalAction, match="P1's hand is already entered"):
        game.push(EnterHand(1, points=30))


def test_a_match_recorded_before_the_checks_replays_its_entries_as_they_were() -> None:
    """§11: under edition 2 an entry was taken as given (a second one replaced the first)."""
    game = scoring_deal(sizes=(3, 2, 1))
    game.rules = game.rules.of_edition(2)
    game.push(EnterHand(1, cards("W4 W4 W4 W4 W4")))  # 250 points for a 3-card hand
    game.push(EnterHand(1, cards("W4 W4 W4 W4 W4 W4")))
    assert game.shown[1] == (300, 6) and EnterHand(1) in game.legal_actions()
