"""Classic UNO turn rules: matching (§3.1), Wild Draw Four legality and the challenge (§3.2),
drawing (§3.3), running out of cards (§8)."""

from __future__ import annotations

import pytest

from controller.engine import (
    COLOURS,
    Accept,
    CardNotPlayable,
    Challenge,
    Draw,
    IllegalAction,
    Pass,
    Play,
    parse_cards,
)
from controller.engine.events import Challenged, Drew, Reshuffled, Skipped
from controller.engine.notation import position

from .conftest import c

R, Y, G, B = COLOURS


@pytest.mark.parametrize(
    ("top", "colour", "card", "ok"),
    [
        ("R5", None, "R9", True),  # colour
        ("R5", None, "G5", True),  # number
        ("RS", None, "GS", True),  # symbol
        ("R+2", None, "B+2", True),
        ("RR", None, "GS", False),  # different symbol, different colour
        ("R5", None, "G6", False),
        ("R5", None, "W", True),  # a wild fits anything
        ("W", "G", "G2", True),  # a wild on top: only the declared colour
        ("W", "G", "R2", False),
        ("W4", "B", "W", True),
    ],
)
def test_matching_follows_colour_number_symbol(top: str, colour: str, card: str, ok: bool) -> None:
    game = position("classic", top=top, colour=colour, hands={0: f"{card} Y1"})
    assert game.is_legal(Play(0, c(card), colour=R if c(card).is_wild else None)) is ok


def test_wild_may_be_played_even_with_other_plays() -> None:
    game = position("classic", top="R5", hands={0: "R1 W"})
    assert game.is_legal(Play(0, c("W"), colour=B))


def test_wild_needs_a_colour_and_numbers_refuse_one() -> None:
    game = position("classic", top="R5", hands={0: "R1 W"})
    with pytest.raises(IllegalAction, match="name a colour"):
        game.push(Play(0, c("W")))
    with pytest.raises(IllegalAction, match="not a wild"):
        game.push(Play(0, c("R1"), colour=B))


@pytest.mark.parametrize(
    ("legality", "hand", "legal"),
    [
        ("colour", "W4 G5 Y1", True),  # a number match does not count
        ("colour", "W4 R1", False),
        ("colour", "W4 W", True),  # wilds do not count
        ("colour_or_face", "W4 G5", False),
        ("colour_or_face", "W4 G6 W", True),
        ("no_other_play", "W4 W", False),  # a plain Wild is another play
        ("no_other_play", "W4 G6", True),
    ],
)
def test_wd4_legality_variants(legality: str, hand: str, legal: bool) -> None:
    game = position("classic", top="R5", hands={0: hand}, wd4_legality=legality)
    if legality != "no_other_play":
        game.push(Play(0, c("W4"), colour=B))
        assert game.duties[0].legal is legal
    elif legal:  # no bluffing possible, so nothing to challenge
        game.push(Play(0, c("W4"), colour=B))
        assert not game.duties and len(game.hands[1]) == 11
    else:
        with pytest.raises(CardNotPlayable, match="no other play"):
            game.push(Play(0, c("W4"), colour=B))


def test_no_other_play_refuses_an_illegal_wd4() -> None:
    game = position("classic", top="R5", hands={0: "W4 R1"}, wd4_legality="no_other_play")
    with pytest.raises(CardNotPlayable, match="Wild Draw Four"):
        game.push(Play(0, c("W4"), colour=B))
    assert Play(0, c("W4"), B) not in game.legal_actions()


def test_without_bluffing_an_illegal_wd4_is_refused() -> None:
    game = position("classic", top="R5", hands={0: "W4 R1"}, wd4_bluffing=False)
    with pytest.raises(CardNotPlayable):
        game.push(Play(0, c("W4"), colour=B))
    legal = position("classic", top="R5", hands={0: "W4 G1"}, wd4_bluffing=False)
    legal.push(Play(0, c("W4"), colour=B))
    assert len(legal.hands[1]) == 11 and legal.to_move() == 2


def test_successful_challenge_offender_draws_four_challenger_plays() -> None:
    game = position("classic", top="R5", hands={0: "W4 R1 G2"})
    game.push(Play(0, c("W4"), colour=B))
    events = game.push(Challenge(1))
    assert Challenged(1, 0, True) in events
    assert len(game.hands[0]) == 6 and len(game.hands[1]) == 7
    assert game.to_move() == 1 and game.colour is B and game.top is c("W4")


def test_successful_challenge_without_victim_plays_skips_challenger() -> None:
    game = position(
        "classic", top="R5", hands={0: "W4 R1 G2"}, challenge_success_victim_plays=False
    )
    game.push(Play(0, c("W4"), colour=B))
    events = game.push(Challenge(1))
    assert Skipped(1) in events and game.to_move() == 2


def test_failed_challenge_costs_six_and_the_turn() -> None:
    game = position("classic", top="R5", hands={0: "W4 G1 G2"})
    game.push(Play(0, c("W4"), colour=B))
    events = game.push(Challenge(1))
    assert Challenged(1, 0, False) in events
    assert len(game.hands[1]) == 13 and game.to_move() == 2


def test_accepting_the_wd4_draws_four_and_skips() -> None:
    game = position("classic", top="R5", hands={0: "W4 R1"})
    game.push(Play(0, c("W4"), colour=B))
    assert game.moves() == [Challenge(1), Accept(1)]
    with pytest.raises(IllegalAction, match="P1 must accept"):
        game.push(Play(1, c("B1")))
    game.push(Accept(1))
    assert len(game.hands[1]) == 11 and game.to_move() == 2


def test_only_the_victim_may_challenge() -> None:
    game = position("classic", top="R5", hands={0: "W4 R1"})
    game.push(Play(0, c("W4"), colour=B))
    with pytest.raises(IllegalAction, match="only P1"):
        game.push(Challenge(2))
    with pytest.raises(IllegalAction, match="no draw penalty"):
        position("classic").push(Challenge(1))


def test_draw_one_then_play_only_that_card() -> None:
    game = position("classic", top="R5", hands={0: "G1 R2"}, pile="R7 B9")
    game.push(Draw(0))
    assert game.drawn is c("R7") and game.to_move() == 0
    with pytest.raises(CardNotPlayable, match="only the drawn card"):
        game.push(Play(0, c("R2")))
    assert game.legal_actions() == [Play(0, c("R7")), Pass(0)]
    game.push(Play(0, c("R7")))
    assert game.to_move() == 1


def test_draw_one_unplayable_ends_the_turn() -> None:
    game = position("classic", top="R5", hands={0: "G1"}, pile="B9")
    game.push(Draw(0))
    assert game.hands[0] == parse_cards("G1 B9") and game.to_move() == 1


def test_keeping_the_drawn_card() -> None:
    game = position("classic", top="R5", hands={0: "G1"}, pile="R9")
    with pytest.raises(IllegalAction, match="draw first"):
        game.push(Pass(0))
    game.push(Draw(0))
    game.push(Pass(0))
    assert game.to_move() == 1 and c("R9") in game.hands[0]
    with pytest.raises(IllegalAction):
        game.push(Draw(0))


def test_must_play_drawn_if_playable() -> None:
    game = position(
        "classic", top="R5", hands={0: "G1"}, pile="R9", must_play_drawn_if_playable=True
    )
    game.push(Draw(0))
    assert game.legal_actions() == [Play(0, c("R9"), uno=True)]
    with pytest.raises(IllegalAction, match="must be played"):
        game.push(Pass(0))


def test_pretending_you_cannot_play_is_allowed_by_default() -> None:
    game = position("classic", top="R5", hands={0: "R1"}, pile="B2")
    assert Draw(0) in game.legal_actions()
    game.push(Draw(0))
    assert game.to_move() == 1


def test_may_not_draw_while_holding_a_play_when_option_off() -> None:
    game = position("classic", top="R5", hands={0: "R1"}, may_draw_when_playable=False)
    assert Draw(0) not in game.legal_actions()
    with pytest.raises(CardNotPlayable, match="may not draw"):
        game.push(Draw(0))


def test_reshuffle_keeps_the_top_card() -> None:
    game = position("classic", top="R5", hands={0: "G1"}, pile="")
    game.discard[:0] = parse_cards("W4 B3 Y7")
    events = game.push(Draw(0))
    assert Reshuffled(3) in events
    assert game.discard == [c("R5")] and len(game.pile) == 2
    assert sorted(x.text for x in game.pile + game.hands[0]) == ["B3", "G1", "W4", "Y7"]


def test_drawing_from_nothing_gives_nothing_and_ends_the_turn() -> None:
    game = position("classic", top="R5", hands={0: "G1"}, pile="")
    events = game.push(Draw(0))
    assert Drew(0, (), events[0].why) in events and game.to_move() == 1


def test_penalty_draw_reshuffles_part_way() -> None:
    game = position("classic", top="R5", hands={0: "R+2 G1"}, pile="B1")
    events = game.push(Play(0, c("R+2")))
    assert Reshuffled(1) in events
    assert game.hands[1][-2:] == parse_cards("B1 R5") and game.to_move() == 2


def test_penalty_draw_with_no_cards_left_is_partly_paid() -> None:
    game = position("classic", top="R5", hands={0: "W4 G1 G2"}, pile="")
    game.push(Play(0, c("W4"), colour=B))
    game.push(Accept(1))
    assert game.hands[1][-1] is c("R5") and len(game.hands[1]) == 8
    assert game.to_move() == 2


def test_draw_is_not_a_move_in_attack_and_press_not_in_classic() -> None:
    from controller.engine import Press

    with pytest.raises(IllegalAction, match="no draw pile"):
        position("attack").push(Draw(0))
    with pytest.raises(IllegalAction, match="no launcher"):
        position("classic").push(Press(0, 1))
