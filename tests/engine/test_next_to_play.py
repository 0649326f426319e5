"""Who plays next (`DealState.next_to_play`): the seat that plays once the seat the game waits for
is done, when it makes no choice that changes the order. Owed presses, pending penalties and
skips are the engine's to count, not the scoreboard's."""

from __future__ import annotations

from controller.engine import COLOURS, Accept, Catch, Challenge, Game, Play, Press
from controller.engine.notation import position, start_from

from .conftest import c

R, Y, G, B = COLOURS


def waits_then_next(game: Game) -> tuple[int | None, int | None]:
    return game.to_move(), game.next_to_play()


def test_the_ordinary_turn_passes_on_to_the_next_seat() -> None:
    game = position(hands={0: "R7 G1"})
    assert waits_then_next(game) == (0, 1)
    game.push(Play(0, c("R7")))
    assert waits_then_next(game) == (1, 2)
    game.push(Press(1, 0))
    assert waits_then_next(game) == (2, 3)


def test_hit_two_the_victim_presses_and_the_one_after_plays() -> None:
    game = position(hands={0: "RH2 G1"})
    game.push(Play(0, c("RH2")))
    assert waits_then_next(game) == (1, 2)  # counting on from the turn would say P3
    game.push(Press(1, 0))
    assert waits_then_next(game) == (1, 2)
    game.push(Press(1, 1))
    assert waits_then_next(game) == (2, 3)


def test_wild_all_hit_everybody_presses_then_the_next_player_plays() -> None:
    game = position(hands={1: "WAH R1 R2"}, turn=1)
    game.push(Play(1, c("WAH"), colour=G))
    for seat in (2, 3, 0):  # after every owed press it is P2 who plays (§4.2: nobody skipped)
        assert waits_then_next(game) == (seat, 2)
        game.push(Press(seat, 0))
    assert waits_then_next(game) == (2, 3)


def test_wild_draw_four_the_victim_accepts_and_the_one_after_plays() -> None:
    game = position("classic", top="R4", hands={0: "W4 G1"})
    game.push(Play(0, c("W4"), colour=B))
    assert waits_then_next(game) == (1, 2)  # assuming no challenge: a choice
    game.push(Accept(1))
    assert waits_then_next(game) == (2, 3)


def test_a_guilty_challenge_is_a_choice_that_changes_who_plays() -> None:
    game = position("classic", top="R4", hands={0: "W4 R1"})
    game.push(Play(0, c("W4"), colour=B))
    game.push(Challenge(1))
    assert waits_then_next(game) == (1, 2)  # the challenger plays (§3.2), then P2


def test_a_pending_draw_that_may_be_passed_on_counts_as_accepted() -> None:
    game = position("classic", top="R4", hands={0: "R+2 G1"}, stack_s0=True)
    game.push(Play(0, c("R+2")))
    assert waits_then_next(game) == (1, 2)


def test_draw_two_without_stacking_is_drawn_at_once() -> None:
    game = position("classic", top="R4", hands={0: "R+2 G1"})
    game.push(Play(0, c("R+2")))
    assert waits_then_next(game) == (2, 3)


def test_skip_and_reverse() -> None:
    game = position(hands={0: "RS RR G1"})
    game.push(Play(0, c("RS")))
    assert waits_then_next(game) == (2, 3)
    game = position(hands={0: "RR RS G1"})
    game.push(Play(0, c("RR")))
    assert waits_then_next(game) == (3, 2)  # play now runs backwards


def test_two_player_rules() -> None:
    game = position(players=2, top="Y1", hands={0: "YR YS YH2 WAH WHF G1 G2"})
    assert waits_then_next(game) == (0, 1)
    game.push(Play(0, c("YR")))  # §7: Reverse acts as a Skip
    assert waits_then_next(game) == (0, 1)
    game.push(Play(0, c("YS")))
    assert waits_then_next(game) == (0, 1)
    game.push(Play(0, c("YH2")))  # the opponent presses twice, then play comes back
    assert waits_then_next(game) == (1, 0)
    game.push(Press(1, 0))
    game.push(Press(1, 0))
    assert waits_then_next(game) == (0, 1)
    game.push(Play(0, c("WAH"), colour=G))  # the opponent presses once and then plays
    assert waits_then_next(game) == (1, 1)
    game.push(Press(1, 0))
    assert waits_then_next(game) == (1, 0)


def test_two_player_classic_draw_two_returns_to_the_player() -> None:
    game = position("classic", players=2, top="R1", hands={0: "R+2 G1 G2"})
    game.push(Play(0, c("R+2")))
    assert waits_then_next(game) == (0, 1)


def test_a_caught_player_presses_before_the_player_whose_turn_it_is() -> None:
    game = position(hands={0: "R7 G1"})
    game.push(Play(0, c("R7")))  # one card left, no UNO called
    game.push(Catch(2, 0))
    assert waits_then_next(game) == (0, 1)  # P0 presses twice, then P1 plays


def test_turned_up_wild_hit_fire_the_namer_plays() -> None:
    game, _ = start_from("WHF")
    assert waits_then_next(game) == (0, 1)  # P0 presses until fire, P1 names and plays


def test_nobody_is_next_when_the_final_card_only_has_its_effect_left() -> None:
    game = position(top="B4", hands={0: "BH2"})
    game.push(Play(0, c("BH2")))
    assert waits_then_next(game) == (1, None)
    game.push(Press(1, 0))
    game.push(Press(1, 0))
    assert game.over and waits_then_next(game) == (None, None)


def test_within_deal_elimination_play_goes_on_after_a_player_is_out() -> None:
    game = position("classic", players=3, top="R4", hands={0: "R+2"}, format="elim_within_deal")
    game.push(Play(0, c("R+2")))  # P0 goes out; P1 draws 2 and is skipped
    assert waits_then_next(game) == (2, 1)
