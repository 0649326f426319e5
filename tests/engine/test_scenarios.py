"""The scenario tests T01–T25 of RULES.md §12, in the card notation.

Players are P0..P(n-1), the dealer is the last seat unless stated, so P0 is the first player.
A launcher script L=[k1, k2, ...] becomes a sequence of `Press(seat, k)` actions.
"""

from __future__ import annotations

import pytest

from controller.engine import (
    COLOURS,
    DECKS,
    Accept,
    Card,
    CardNotPlayable,
    Catch,
    Challenge,
    ChooseColour,
    Draw,
    Face,
    IllegalAction,
    Pass,
    Play,
    Press,
    card,
    parse_card,
    parse_cards,
)
from controller.engine.deal import turn_up_from_pile
from controller.engine.events import Caught, Pressed, Returned, Skipped, TurnedUp, UnoMissed
from controller.engine.game import Game
from controller.engine.notation import position, start_from
from controller.engine.state import DutyKind, Phase

R, Y, G, B = COLOURS


def c(text: str) -> Card:
    return parse_card(text)


def press_all(game: Game, seat: int, script: list[int]) -> list[int]:
    """Press for `seat` once per scripted value; return what each press gave."""
    got = []
    for k in script:
        events = game.push(Press(seat, k))
        got.extend(len(e.cards) for e in events if isinstance(e, Pressed))
    return got


# --------------------------------------------------------------------------- decks


def test_t01_classic_deck_census() -> None:
    deck = DECKS["classic"]
    cards = deck.cards()
    assert len(cards) == 108
    for colour in COLOURS:
        mine = [x for x in cards if x.colour is colour]
        assert len(mine) == 25
        assert mine.count(card(colour, Face.ZERO)) == 1
        for n in range(1, 10):
            assert mine.count(card(colour, Face(str(n)))) == 2
        for face in (Face.SKIP, Face.REVERSE, Face.DRAW_TWO):
            assert mine.count(card(colour, face)) == 2
    assert cards.count(c("W")) == 4 and cards.count(c("W4")) == 4
    assert sum(deck.value(x) for x in cards) == 1240


@pytest.mark.parametrize(
    ("name", "reverses", "discard_alls", "value"),
    [("attack_1998", 2, 1, 1480), ("attack_alt_4rev_8da", 1, 2, 1520), ("attack_alt", 1, 2, 1520)],
)
def test_t02_attack_deck_census(name: str, reverses: int, discard_alls: int, value: int) -> None:
    deck = DECKS[name]
    cards = deck.cards()
    assert len(cards) == 112
    assert not any(x.face is Face.ZERO for x in cards)
    for colour in COLOURS:
        assert sum(1 for x in cards if x.colour is colour and x.is_number) == 18
        assert cards.count(card(colour, Face.REVERSE)) == reverses
        assert cards.count(card(colour, Face.SKIP)) == 2
        assert cards.count(card(colour, Face.HIT_TWO)) == 2
        assert cards.count(card(colour, Face.DISCARD_ALL)) == discard_alls
        assert cards.count(card(colour, Face.TRADE_HANDS)) == 1
    assert [cards.count(c(w)) for w in ("W", "WAH", "WHF")] == [4, 2, 2]
    assert sum(deck.value(x) for x in cards) == value


# --------------------------------------------------------------------------- start cards


def test_t03_classic_start_wd4_is_returned_until_another_card() -> None:
    game = position("classic", pile="W4 R5")
    game.discard.clear()
    game.phase = Phase.TURN_UP
    events: list = []
    turn_up_from_pile(game, events)
    assert events[:2] == [TurnedUp(c("W4")), Returned(c("W4"))]
    assert events[-1] == TurnedUp(c("R5"))
    assert all(e == Returned(c("W4")) for e in events if isinstance(e, Returned))
    assert game.top is c("R5") and game.pile == [c("W4")]
    assert game.to_move() == 0 and game.colour is R


def test_t04_classic_start_draw_two_skips_first_player() -> None:
    game, events = start_from("R+2", "classic")
    assert len(game.hands[0]) == 9
    assert Skipped(0) in events
    assert game.to_move() == 1 and game.colour is R and game.top is c("R+2")


def test_t04_classic_start_draw_two_without_skip() -> None:
    game, _ = start_from("R+2", "classic", start_draw2_skips=False)
    assert len(game.hands[0]) == 9
    assert game.to_move() == 0


def _order(game: Game, turns: int) -> list[int]:
    """Who plays the next `turns` turns, each simply drawing (classic)."""
    seen = []
    for _ in range(turns):
        seat = game.to_move()
        seen.append(seat)
        game.push(Draw(seat))
        if game.drawn is not None:
            game.push(Pass(seat))
    return seen


def test_t05_classic_start_reverse_dealer_leads() -> None:
    game, _ = start_from("RR", "classic", hands={s: "B1 B2" for s in range(4)}, pile="G1 " * 8)
    assert game.direction == -1
    assert _order(game, 4) == [3, 2, 1, 0]


def test_t05_classic_start_reverse_dealer_right_leads() -> None:
    game, _ = start_from(
        "RR", "classic", start_reverse="dealer_right_leads",
        hands={s: "B1 B2" for s in range(4)}, pile="G1 " * 8,
    )  # fmt: skip
    assert _order(game, 4) == [2, 1, 0, 3]


def test_t06_classic_start_wild_first_player_names() -> None:
    game, _ = start_from("W", "classic", hands={0: "G3 R4"})
    assert game.to_move() == 0 and game.duties[0].kind is DutyKind.CHOOSE_COLOUR
    with pytest.raises(IllegalAction):
        game.push(Play(0, c("G3")))
    game.push(ChooseColour(0, G))
    assert game.colour is G
    assert game.is_legal(Play(0, c("G3"))) and not game.is_legal(Play(0, c("R4")))


def test_t06_classic_start_wild_free_lead() -> None:
    game, _ = start_from("W", "classic", start_wild="free_lead", hands={0: "G3 R4"})
    assert game.to_move() == 0 and not game.duties
    game.push(Play(0, c("R4")))
    assert game.colour is R and game.to_move() == 1


def test_t06_classic_start_wild_random_colour() -> None:
    game, _ = start_from("W", "classic", start_wild="random")
    assert game.colour in COLOURS and game.to_move() == 0 and not game.duties


def test_t06_classic_start_wild_predecessor_names() -> None:
    game, _ = start_from("W", "classic", start_wild="predecessor_names")
    assert game.duties[0].seat == 2 and game.turn == 0


def test_t06_classic_start_wild_redraw() -> None:
    game = position("classic", start_wild="redraw", pile="W G7")
    game.discard.clear()
    events: list = []
    turn_up_from_pile(game, events)
    assert Returned(c("W")) in events and game.top is c("G7")


def test_t07_attack_start_wild_hit_fire_misses_three_times() -> None:
    game, _ = start_from("WHF")
    assert press_all(game, 0, [0, 0, 0, 2]) == [0, 0, 0, 2]
    assert len(game.hands[0]) == 9
    assert game.to_move() == 1 and game.duties[0].kind is DutyKind.CHOOSE_COLOUR
    game.push(ChooseColour(1, B))
    assert game.to_move() == 1 and not game.duties and game.colour is B


def test_t07_attack_start_wild_hit_fire_dealer_names() -> None:
    game, _ = start_from("WHF", start_colour_namer="dealer")
    press_all(game, 0, [1])
    assert game.duties[0].seat == 3 and game.turn == 1


def test_t08_attack_start_wild_all_hit() -> None:
    game, _ = start_from("WAH")
    assert game.to_move() == 0 and game.duties[0].kind is DutyKind.CHOOSE_COLOUR
    game.push(ChooseColour(0, Y))
    for seat, k in zip((0, 1, 2), (1, 0, 3), strict=True):
        assert game.to_move() == seat
        game.push(Press(seat, k))
    assert [len(h) for h in game.hands] == [8, 7, 10, 7]
    assert game.to_move() == 0 and not game.duties and game.colour is Y


def test_t09_attack_start_trade_hands_is_returned() -> None:
    game = position("attack", pile="RTH GTH B4")
    game.discard.clear()
    events: list = []
    turn_up_from_pile(game, events)
    assert events.count(Returned(c("RTH"))) == 1
    assert game.top is c("B4") and game.to_move() == 0
    assert all(len(h) == 7 for h in game.hands)


def test_t10a_attack_start_discard_all_is_plain() -> None:
    game, _ = start_from("GDA", hands={0: "R1 Y2"})
    assert [type(a) for a in game.moves()] == [Press]
    game.push(Press(0, 0))
    assert game.to_move() == 1 and game.top is c("GDA")


def test_t10b_attack_start_discard_all_played_on_by_symbol() -> None:
    game, _ = start_from("GDA", hands={0: "RDA R3 R8 Y2"})
    game.push(Play(0, c("RDA")))
    assert game.hands[0] == [c("Y2")]
    assert game.top is c("RDA") and game.colour is R


def test_t11_attack_start_hit_two() -> None:
    game, _ = start_from("RH2")
    assert press_all(game, 0, [0, 3]) == [0, 3]
    assert len(game.hands[0]) == 10 and game.to_move() == 1


# --------------------------------------------------------------------------- Attack in play


def test_t12_wild_hit_fire_in_play_nothing_three_times() -> None:
    game = position(hands={1: "WHF R1 R2"}, turn=1)
    game.push(Play(1, c("WHF"), colour=G))
    assert press_all(game, 2, [0, 0, 0, 4]) == [0, 0, 0, 4]
    assert len(game.hands[2]) == 11
    assert game.to_move() == 3 and game.colour is G


def test_t13_pressing_ends_the_turn_even_if_a_playable_card_came_out() -> None:
    game = position(top="R5", hands={0: "B2 G7"}, pile="R9")
    assert game.moves() == [Press(0)]
    game.push(Press(0, 1))
    assert game.hands[0] == parse_cards("B2 G7 R9")
    assert game.to_move() == 1
    with pytest.raises(IllegalAction, match="P1's turn"):
        game.push(Play(0, c("R9")))


def test_t14_reneging_costs_one_press() -> None:
    game = position(top="R5", hands={0: "R2 G7"})
    game.push(Press(0, 0))
    assert game.hands[0] == parse_cards("R2 G7") and game.to_move() == 1


def test_t15_hit_two_always_means_two_presses() -> None:
    game = position(top="B5", hands={0: "BH2 G1", 1: "WHF YH2 R1"})
    game.push(Play(0, c("BH2")))
    for counter in (Play(1, c("WHF"), colour=R), Play(1, c("YH2"))):
        with pytest.raises(IllegalAction, match="P1 must press"):
            game.push(counter)
    assert press_all(game, 1, [3, 0]) == [3, 0]
    assert len(game.hands[1]) == 6
    assert game.to_move() == 2 and game.colour is B


def test_t16_trade_hands_with_a_one_card_player() -> None:
    game = position(top="R4", hands={0: "RTH B3 G5 Y7", 2: "R9"})
    game.push(Play(0, c("RTH"), target=2))
    assert game.hands[0] == [c("R9")] and game.hands[2] == parse_cards("B3 G5 Y7")
    assert game.exposed == (0,) and game.to_move() == 1 and game.colour is R
    events = game.push(Catch(3, 0))
    assert game.duties[0].seat == 0 and game.duties[0].count == 2
    assert Caught(3, 0) in events


def test_t16_trade_hands_called_uno_is_safe() -> None:
    game = position(top="R4", hands={0: "RTH B3 G5 Y7", 2: "R9"})
    game.push(Play(0, c("RTH"), target=2, uno=True))
    assert game.exposed == () and not game.duties


def test_t17_trade_hands_cannot_be_the_last_card() -> None:
    game = position(top="R2", hands={0: "RTH"})
    assert game.moves() == [Press(0)]
    with pytest.raises(CardNotPlayable, match="last card"):
        game.push(Play(0, c("RTH"), target=1))
    game = position(top="R2", hands={0: "RTH RTH"})
    with pytest.raises(IllegalAction, match="choose the player"):
        game.push(Play(0, c("RTH")))
    game.push(Play(0, c("RTH"), target=1))
    assert len(game.hands[0]) == 7 and game.hands[1] == [c("RTH")]


def test_t18_what_discard_all_removes() -> None:
    game = position(top="Y7", hands={0: "YDA Y2 YS YTH R5 W"})
    events = game.push(Play(0, c("YDA")))
    assert game.hands[0] == parse_cards("R5 W")
    assert game.discard[-4:] == parse_cards("Y2 YS YTH YDA")
    assert not game.duties and game.exposed == () and game.colour is Y
    assert game.to_move() == 1 and not any(isinstance(e, Skipped) for e in events)


def test_t18_discard_all_leaving_one_card_needs_uno() -> None:
    game = position(top="Y7", hands={0: "YDA Y2 R5"})
    assert game.moves()[0] == Play(0, c("YDA"), uno=True)
    events = game.push(Play(0, c("YDA")))
    assert UnoMissed(0) in events and game.exposed == (0,)


def test_t19_going_out_with_discard_all() -> None:
    game = position(top="B1", hands={0: "BDA B4 B9"})
    game.push(Play(0, c("BDA")))
    assert game.winner == 0 and game.over
    assert game.discard[-1] is c("BDA")


def test_t20_wild_all_hit_in_play() -> None:
    game = position(hands={1: "WAH R1 R2"}, turn=1)
    game.push(Play(1, c("WAH"), colour=G))
    for seat, k in ((2, 0), (3, 2), (0, 0)):
        assert game.to_move() == seat
        game.push(Press(seat, k))
    assert [len(h) for h in game.hands] == [7, 2, 7, 9]
    assert game.to_move() == 2 and not game.duties and game.colour is G


def test_t21_final_hit_two_still_hits_and_counts() -> None:
    game = position(top="B4", hands={0: "BH2"})
    game.push(Play(0, c("BH2")))
    assert game.winner == 0 and not game.over
    press_all(game, 1, [2, 1])
    assert game.over and len(game.hands[1]) == 10
    assert game.points is not None and game.points[1] == game.value(game.hands[1])


def test_t22_final_wild_hit_fire_still_hits() -> None:
    game = position(top="B4", hands={0: "WHF"})
    game.push(Play(0, c("WHF"), colour=R))
    press_all(game, 1, [0, 5])
    assert game.over and len(game.hands[1]) == 12


# --------------------------------------------------------------------------- classic


def test_t23_final_draw_two_counts() -> None:
    game = position("classic", top="R1", hands={0: "R+2"})
    game.push(Play(0, c("R+2")))
    assert game.over and len(game.hands[1]) == 9
    assert game.points is not None and game.points[1] == game.value(game.hands[1])


@pytest.mark.parametrize(("challenge", "drawn"), [(False, 4), (True, 6)])
def test_t23_final_wild_draw_four_counts(challenge: bool, drawn: int) -> None:
    game = position("classic", top="R1", hands={0: "W4"})
    game.push(Play(0, c("W4"), colour=B))
    assert not game.over
    game.push(Challenge(1) if challenge else Accept(1))
    assert game.over and len(game.hands[1]) == 7 + drawn


def test_t24_classic_two_player_rules() -> None:
    game = position("classic", players=2, top="R1", hands={0: "RR RS R+2 G1 G2"})
    game.push(Play(0, c("RR")))
    assert game.to_move() == 0
    game.push(Play(0, c("RS")))
    assert game.to_move() == 0
    game.push(Play(0, c("R+2")))
    assert len(game.hands[1]) == 9 and game.to_move() == 0


def test_t25_attack_two_player_rules() -> None:
    game = position(players=2, top="Y1", hands={0: "YR YH2 WAH WHF G1 G2"})
    game.push(Play(0, c("YR")))
    assert game.to_move() == 0
    game.push(Play(0, c("YH2")))
    press_all(game, 1, [0, 1])
    assert game.to_move() == 0 and len(game.hands[1]) == 8
    game.push(Play(0, c("WAH"), colour=B))
    press_all(game, 1, [0])
    assert game.to_move() == 1 and game.colour is B
    game.push(Press(1, 0))
    game.push(Play(0, c("WHF"), colour=G))
    assert press_all(game, 1, [0, 2]) == [0, 2]
    assert game.to_move() == 0
