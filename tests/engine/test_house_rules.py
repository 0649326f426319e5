"""House rules of RULES.md §10 and §6, each with the behaviour it changes and the default left
alone. Scenarios in the card notation: players P0..P3, dealer P3, P0 to move unless stated."""

from __future__ import annotations

import pytest

from controller.engine import (
    COLOURS,
    Accept,
    CardNotPlayable,
    Challenge,
    Draw,
    IllegalAction,
    OptionError,
    Pass,
    Play,
    Press,
    Rules,
    parse_cards,
)
from controller.engine.events import Drew, Skipped, UnoMissed, Why
from controller.engine.game import Game
from controller.engine.notation import position, start_from
from controller.engine.state import DutyKind

from .conftest import c

R, Y, G, B = COLOURS


def pending(game: Game) -> tuple[int, int]:
    """(seat, cards) of the draw penalty someone faces."""
    duty = game.duties[0]
    assert duty.kind is DutyKind.PENALTY
    return duty.seat, duty.count


# --------------------------------------------------------------------------- §10.1 stacking


def test_stack_s0_adds_up_and_plus4_may_follow_plus2() -> None:
    game = position("classic", stack_s0=True, top="R5",
                    hands={0: "R+2 G1", 1: "B+2 G2", 2: "W4 G3", 3: "Y1 G4"})  # fmt: skip
    game.push(Play(0, c("R+2")))
    assert pending(game) == (1, 2)
    game.push(Play(1, c("B+2")))
    assert pending(game) == (2, 4)
    game.push(Play(2, c("W4"), colour=G))
    assert pending(game) == (3, 8)
    events = game.push(Accept(3))
    assert len(game.hands[3]) == 10 and Skipped(3) in events and game.to_move() == 0


def test_stack_s0_only_plus4_on_plus4() -> None:
    game = position("classic", stack_s0=True, top="R5", hands={0: "W4 G1", 1: "B+2 W4 G2"})
    game.push(Play(0, c("W4"), colour=R))
    with pytest.raises(CardNotPlayable, match="accept it or pass it on"):
        game.push(Play(1, c("B+2")))
    game.push(Play(1, c("W4"), colour=B))
    assert pending(game) == (2, 8)


def test_stack_s1_same_kind_only() -> None:
    game = position("classic", stack_s1=True, top="R5", hands={0: "R+2 G1", 1: "W4 B+2 G2"})
    game.push(Play(0, c("R+2")))
    with pytest.raises(CardNotPlayable):
        game.push(Play(1, c("W4"), colour=B))
    game.push(Play(1, c("B+2")))
    assert pending(game) == (2, 4)


def test_without_stacking_a_draw_two_is_paid_at_once() -> None:
    game = position("classic", top="R5", hands={0: "R+2 G1", 1: "B+2 G2"})
    game.push(Play(0, c("R+2")))
    assert not game.duties and len(game.hands[1]) == 4 and game.to_move() == 2


def test_stacked_wd4_legality_and_the_challenge_inside_a_stack() -> None:
    game = position("classic", stack_s0=True, top="R5", hands={0: "R+2 G1", 1: "W4 R7 G2"})
    game.push(Play(0, c("R+2")))
    game.push(Play(1, c("W4"), colour=B))  # P1 holds R7: illegal against red
    seat, total = pending(game)
    assert (seat, total) == (2, 6) and game.duties[0].challengeable
    game.push(Challenge(2))
    assert len(game.hands[1]) == 2 + 4 and pending(game) == (2, 2)
    game.push(Accept(2))
    assert len(game.hands[2]) == 9 and game.to_move() == 3


def test_failed_challenge_inside_a_stack_costs_everything_plus_two() -> None:
    game = position("classic", stack_s0=True, top="R5", hands={0: "R+2 G1", 1: "W4 G2"})
    game.push(Play(0, c("R+2")))
    game.push(Play(1, c("W4"), colour=B))
    game.push(Challenge(2))
    assert len(game.hands[2]) == 7 + 6 + 2 and game.to_move() == 3


def test_stack_wd4_ignores_legality() -> None:
    game = position("classic", stack_s0=True, stack_wd4_ignores_legality=True, top="R5",
                    hands={0: "R+2 G1", 1: "W4 R7 G2"})  # fmt: skip
    game.push(Play(0, c("R+2")))
    game.push(Play(1, c("W4"), colour=B))
    game.push(Challenge(2))
    assert len(game.hands[2]) == 15  # legal by the option, so the challenge fails


def test_attack_stack_hits() -> None:
    game = position("attack", attack_stack_hits=True, top="R5",
                    hands={0: "RH2 G1", 1: "BH2 G2", 2: "YH2 G3"})  # fmt: skip
    game.push(Play(0, c("RH2")))
    game.push(Play(1, c("BH2")))
    assert (game.duties[0].seat, game.duties[0].count) == (2, 4)
    game.push(Press(2, 0))
    with pytest.raises(IllegalAction, match="P2 must press"):
        game.push(Play(2, c("YH2")))  # pressing has started: too late to pass it on
    default = position("attack", top="R5", hands={0: "RH2 G1", 1: "BH2 G2"})
    default.push(Play(0, c("RH2")))
    with pytest.raises(IllegalAction, match="P1 must press"):
        default.push(Play(1, c("BH2")))


# --------------------------------------------------------------------------- §10.2 jump-in


def test_jumpin_numbers_cuts_the_players_in_between() -> None:
    game = position("classic", jumpin_numbers=True, top="R1",
                    hands={0: "R5 G1", 1: "B1 B2", 2: "R5 Y7"})  # fmt: skip
    game.push(Play(0, c("R5")))
    assert Play(2, c("R5"), uno=True) in game.legal_actions()
    game.push(Play(2, c("R5"), uno=True))
    assert game.to_move() == 3 and game.hands[2] == [c("Y7")]


def test_jumpin_numbers_refuses_actions_but_identical_allows_them() -> None:
    game = position("classic", jumpin_numbers=True, top="R1", hands={0: "RS G1", 3: "RS Y7"})
    game.push(Play(0, c("RS")))
    with pytest.raises(CardNotPlayable, match="identical"):
        game.push(Play(3, c("RS")))
    game = position("classic", jumpin_identical=True, top="R1",
                    hands={0: "RS G1", 3: "RS Y7"})  # fmt: skip
    game.push(Play(0, c("RS")))  # P1 skipped, P2 due
    game.push(Play(3, c("RS")))  # P3 jumps in: its Skip skips P0
    assert game.to_move() == 1


def test_jumped_in_draw_two_adds_up() -> None:
    """§10.2 / §11: jumped-in draw cards add up whenever a jump-in rule is on (N x 2)."""
    game = position("classic", jumpin_identical=True, top="R1",
                    hands={0: "R+2 G1", 2: "R+2 Y7"})  # fmt: skip
    game.push(Play(0, c("R+2")))
    assert pending(game) == (1, 2)
    game.push(Play(2, c("R+2")))
    assert pending(game) == (3, 4)
    game.push(Accept(3))
    assert len(game.hands[1]) == 7 and len(game.hands[3]) == 7 + 4
    assert game.to_move() == 0


@pytest.mark.parametrize("jumpin", ["jumpin_numbers", "jumpin_identical"])
def test_jumpin_draw_accumulate_follows_the_jump_in_rule(jumpin: str) -> None:
    assert Rules.create("classic", **{jumpin: True}).jumpin_draw_accumulate
    assert Rules.create("classic", **{jumpin: True, "jumpin_draw_accumulate": True}) == (
        Rules.create("classic", **{jumpin: True})
    )
    assert not Rules.create("classic").jumpin_draw_accumulate
    with pytest.raises(OptionError, match="jumpin_draw_accumulate needs jumpin_numbers"):
        Rules.create("classic", jumpin_draw_accumulate=True)
    with pytest.raises(OptionError, match="cannot be off"):
        Rules.create("classic", **{jumpin: True, "jumpin_draw_accumulate": False})


def test_jumped_in_reverse_flips_back() -> None:
    game = position("classic", jumpin_identical=True, top="R1",
                    hands={0: "RR G1", 2: "RR Y7"})  # fmt: skip
    game.push(Play(0, c("RR")))
    assert game.direction == -1 and game.to_move() == 3
    game.push(Play(2, c("RR")))
    assert game.direction == 1 and game.to_move() == 3


def test_jump_in_on_the_turned_up_card() -> None:
    game, _ = start_from("G4", "classic", jumpin_numbers=True, hands={1: "G4 R1"})
    game.push(Play(1, c("G4")))
    assert game.to_move() == 2


def test_jump_in_on_a_winning_draw_two() -> None:
    game = position("classic", jumpin_identical=True, jumpin_draw_accumulate=True, top="R1",
                    hands={0: "R+2", 2: "R+2 Y7"})  # fmt: skip
    game.push(Play(0, c("R+2")))
    assert game.winner == 0 and not game.over
    game.push(Play(2, c("R+2")))
    game.push(Accept(3))
    assert game.over and game.winner == 0 and len(game.hands[3]) == 11


def test_jump_in_window_closes_at_the_next_voluntary_action() -> None:
    game = position("classic", jumpin_numbers=True, top="R1",
                    hands={0: "R5 G1", 1: "B1 B2", 3: "R5 Y7"})  # fmt: skip
    game.push(Play(0, c("R5")))
    game.push(Draw(1))
    if game.drawn is not None:
        game.push(Pass(1))
    with pytest.raises(IllegalAction):
        game.push(Play(3, c("R5")))


def test_wrong_jump_in_penalty() -> None:
    game = position("classic", jumpin_numbers=True, wrong_jumpin_penalty=True, top="R1",
                    hands={0: "R5 G1", 2: "G5 Y7"})  # fmt: skip
    game.push(Play(0, c("R5")))
    events = game.push(Play(2, c("G5")))
    assert [e.why for e in events if isinstance(e, Drew)] == [Why.WRONG_JUMP_IN]
    assert c("G5") in game.hands[2] and len(game.hands[2]) == 4 and game.to_move() == 1


def test_without_jump_in_out_of_turn_plays_are_refused() -> None:
    game = position("classic", top="R1", hands={0: "R5 G1", 2: "R5 Y7"})
    game.push(Play(0, c("R5")))
    with pytest.raises(IllegalAction, match="P1's turn"):
        game.push(Play(2, c("R5")))


# --------------------------------------------------------------------------- §10.3 groups


def test_same_face_group_with_a_chosen_top() -> None:
    game = position("classic", multi_same_face=True, top="R7", hands={0: "R3 G3 B3 Y1"})
    assert any(isinstance(a, Play) and len(a.group) == 2 for a in game.legal_actions())
    game.push(Play(0, c("B3"), group=(c("R3"), c("G3"))))
    assert game.hands[0] == [c("Y1")] and game.top is c("B3") and game.colour is B
    assert game.exposed == (0,)  # one card left and no call


def test_identical_groups_only() -> None:
    game = position("classic", multi_identical=True, top="R7", hands={0: "R3 G3 R3 Y1"})
    with pytest.raises(CardNotPlayable, match="together"):
        game.push(Play(0, c("R3"), group=(c("G3"),)))
    game.push(Play(0, c("R3"), group=(c("R3"),)))
    assert len(game.hands[0]) == 2


def test_groups_are_refused_by_default_and_never_mix_faces() -> None:
    with pytest.raises(CardNotPlayable):
        position("classic", top="R7", hands={0: "R3 G3"}).push(Play(0, c("R3"), group=(c("G3"),)))
    game = position("classic", multi_same_face=True, top="R7", hands={0: "R3 RS W W4 Y1"})
    for top, group in (("R3", "RS"), ("W", "W4")):
        with pytest.raises(CardNotPlayable):
            game.push(Play(0, c(top), group=(c(group),), colour=R if c(top).is_wild else None))


@pytest.mark.parametrize(("opponents_only", "next_seat"), [(False, 3), (True, 3)])
def test_two_skips(opponents_only: bool, next_seat: int) -> None:
    game = position("classic", multi_same_face=True, multi_skip_opponents_only=opponents_only,
                    top="R7", hands={0: "RS GS Y1"})  # fmt: skip
    game.push(Play(0, c("RS"), group=(c("GS"),)))
    assert game.to_move() == next_seat


def test_n_skips_count_the_player_by_default_in_two_players() -> None:
    game = position("classic", players=2, multi_same_face=True, top="R7", hands={0: "RS GS Y1"})
    game.push(Play(0, c("RS"), group=(c("GS"),)))
    assert game.to_move() == 1  # 1 Skip: you again; 2 Skips: the opponent
    game = position("classic", players=2, multi_same_face=True, multi_skip_opponents_only=True,
                    top="R7", hands={0: "RS GS Y1"})  # fmt: skip
    game.push(Play(0, c("RS"), group=(c("GS"),)))
    assert game.to_move() == 1


def test_two_reverses_keep_the_direction() -> None:
    game = position("classic", multi_same_face=True, top="R7", hands={0: "RR GR Y1"})
    game.push(Play(0, c("RR"), group=(c("GR"),)))
    assert game.direction == 1 and game.to_move() == 1


def test_n_draw_twos_and_n_wild_draw_fours() -> None:
    game = position("classic", multi_same_face=True, top="R7", hands={0: "R+2 G+2 Y1"})
    game.push(Play(0, c("R+2"), group=(c("G+2"),)))
    assert len(game.hands[1]) == 11 and game.to_move() == 2
    game = position("classic", multi_same_face=True, top="R7", hands={0: "W4 W4 R1"})
    game.push(Play(0, c("W4"), group=(c("W4"),), colour=G))
    assert pending(game) == (1, 8) and game.duties[0].legal is False
    game.push(Challenge(1))
    assert len(game.hands[0]) == 1 + 8 and game.to_move() == 1


def test_n_wilds_name_one_colour() -> None:
    game = position("classic", multi_same_face=True, top="R7", hands={0: "W W Y1"})
    game.push(Play(0, c("W"), group=(c("W"),), colour=G))
    assert game.colour is G and game.hands[0] == [c("Y1")]


def test_attack_groups_need_multi_in_attack() -> None:
    """§10.3 / §11: 对牌 in UNO Attack is multi_in_attack; the classic ids are refused there."""
    hands = {0: "RH2 BH2 Y1"}
    with pytest.raises(CardNotPlayable):
        position("attack", top="R7", hands=hands).push(Play(0, c("RH2"), group=(c("BH2"),)))
    for classic_only in ("multi_same_face", "multi_identical"):
        with pytest.raises(OptionError, match=f"option {classic_only} applies to classic UNO only"):
            Rules.create("attack", **{classic_only: True})
    game = position("attack", multi_in_attack=True, top="R7", hands=hands)
    game.push(Play(0, c("RH2"), group=(c("BH2"),)))
    assert (game.duties[0].seat, game.duties[0].count) == (1, 4)


def test_attack_groups_of_numbers() -> None:
    game = position("attack", multi_in_attack=True, top="R7", hands={0: "B7 G7 Y1"})
    game.push(Play(0, c("G7"), group=(c("B7"),)))
    assert game.hands[0] == [c("Y1")] and game.colour is G


def test_attack_group_of_discard_alls_sheds_both_colours() -> None:
    game = position("attack", multi_in_attack=True, top="R7",
                    hands={0: "RDA GDA R1 G2 B3 Y4"})  # fmt: skip
    game.push(Play(0, c("GDA"), group=(c("RDA"),)))
    assert game.hands[0] == parse_cards("B3 Y4") and game.colour is G


def test_attack_group_of_hit_fires_needs_two_fires() -> None:
    game = position("attack", multi_in_attack=True, top="R7",
                    hands={0: "WHF WHF Y1"})  # fmt: skip
    game.push(Play(0, c("WHF"), group=(c("WHF"),), colour=B))
    for k in (0, 2, 0, 1):
        game.push(Press(1, k))
    assert not game.duties and len(game.hands[1]) == 10 and game.to_move() == 2


def test_uno_state_with_identical_cards() -> None:
    game = position("classic", multi_identical=True, top="R7", hands={0: "G4 G4 R1"})
    events = game.push(Play(0, c("R1")))
    assert UnoMissed(0) in events
    default = position("classic", top="R7", hands={0: "G4 G4 R1"})
    assert not any(isinstance(e, UnoMissed) for e in default.push(Play(0, c("R1"))))


# --------------------------------------------------------------------------- §10.4-§10.7, §6


def test_deal_size_by_count() -> None:
    import random

    from controller.engine import Rules, deal

    game, _ = deal(Rules.create("classic", deal_size_by_count=True), 6, 0, random.Random(1))
    assert sorted({len(hand) for hand in game.hands}) in ([8], [8, 10])
    game, _ = deal(Rules.create("classic", deal_size_by_count=True), 3, 0, random.Random(1))
    assert 7 in {len(hand) for hand in game.hands}


@pytest.mark.parametrize("card", ["RS", "RR"])
def test_replay_any_count(card: str) -> None:
    game = position("classic", replay_any_count=True, top="R7", hands={0: f"{card} Y1 Y2"})
    game.push(Play(0, c(card)))
    assert game.to_move() == 0
    default = position("classic", top="R7", hands={0: f"{card} Y1 Y2"})
    default.push(Play(0, c(card)))
    assert default.to_move() != 0


def test_wild_after_draw_strict_top() -> None:
    game = position("classic", wild_after_draw="strict_top", top="R+2", hands={0: "W G1"})
    with pytest.raises(CardNotPlayable, match="no plain Wild"):
        game.push(Play(0, c("W"), colour=G))
    assert position("classic", top="R+2", hands={0: "W G1"}).is_legal(Play(0, c("W"), colour=G))


def test_wrong_play_penalty() -> None:
    game = position("classic", wrong_play_penalty=True, top="R7", hands={0: "G1 Y2"})
    events = game.push(Play(0, c("G1")))
    assert [e.why for e in events if isinstance(e, Drew)] == [Why.WRONG_PLAY]
    assert len(game.hands[0]) == 4 and c("G1") in game.hands[0] and game.to_move() == 1
    attack = position("attack", wrong_play_penalty=True, top="R7", hands={0: "G1 Y2"})
    attack.push(Play(0, c("G1")))
    assert attack.duties[0].seat == 0 and attack.duties[0].count == 2 and attack.turn == 1
    with pytest.raises(CardNotPlayable):
        position("classic", top="R7", hands={0: "G1 Y2"}).push(Play(0, c("G1")))


@pytest.mark.parametrize(
    ("options", "last", "allowed"),
    [
        ({}, "RS", True),
        ({"no_finish_on_action": True}, "RS", False),
        ({"no_finish_on_action": True}, "W", False),
        ({"no_finish_on_action": True}, "R+2", True),
        ({"no_finish_on_action": True, "no_finish_extended": True}, "R+2", False),
    ],
)
def test_no_finish_on_action(options: dict[str, bool], last: str, allowed: bool) -> None:
    game = position("classic", top="R7", hands={0: last}, **options)  # type: ignore[arg-type]
    play = Play(0, c(last), colour=G if c(last).is_wild else None)
    assert game.is_legal(play) is allowed
    if not allowed:
        assert game.moves() == [Draw(0)]


def test_must_play_if_able() -> None:
    game = position("classic", must_play_if_able=True, top="R7", hands={0: "R1 G2"})
    assert Draw(0) not in game.legal_actions()
    with pytest.raises(CardNotPlayable, match="may not draw"):
        game.push(Draw(0))


def test_atk_play_after_press() -> None:
    game = position("attack", atk_play_after_press=True, top="R7", hands={0: "G1 Y2"}, pile="R3")
    game.push(Press(0, 1))
    assert game.to_move() == 0 and Pass(0) in game.moves()
    game.push(Play(0, c("R3")))
    assert game.to_move() == 1
    default = position("attack", top="R7", hands={0: "G1 Y2"}, pile="R3")
    default.push(Press(0, 1))
    assert default.to_move() == 1


def test_whf_needs_no_colour_match() -> None:
    game = position("attack", whf_needs_no_colour_match=True, top="R7", hands={0: "WHF R1"})
    with pytest.raises(CardNotPlayable, match="Hit-Fire"):
        game.push(Play(0, c("WHF"), colour=G))
    ok = position("attack", whf_needs_no_colour_match=True, top="R7", hands={0: "WHF G1"})
    assert ok.is_legal(Play(0, c("WHF"), colour=G))


def test_discard_all_choose_subset() -> None:
    game = position("attack", discard_all_choose_subset=True, top="Y7",
                    hands={0: "YDA Y2 YS R5"})  # fmt: skip
    game.push(Play(0, c("YDA"), also=(c("Y2"),)))
    assert game.hands[0] == parse_cards("YS R5")
    default = position("attack", top="Y7", hands={0: "YDA Y2 YS R5"})
    with pytest.raises(IllegalAction, match="every card"):
        default.push(Play(0, c("YDA"), also=(c("Y2"),)))


def test_uno_after_trade_receiver() -> None:
    hands = {0: "RTH B3", 2: "R9 G1 G2"}
    game = position("attack", uno_after_trade_receiver=True, top="R4", hands=hands)
    game.push(Play(0, c("RTH"), target=2))
    assert game.exposed == (2,)
    default = position("attack", top="R4", hands=hands)
    default.push(Play(0, c("RTH"), target=2))
    assert default.exposed == ()


def test_wild_after_draw_victim_only_keeps_a_wild_from_answering_a_draw() -> None:
    game = position("classic", stack_s0=True, wild_after_draw="victim_only", top="R5",
                    hands={0: "R+2 G1", 1: "W B2"})  # fmt: skip
    game.push(Play(0, c("R+2")))
    with pytest.raises(CardNotPlayable, match="accept it or pass it on"):
        game.push(Play(1, c("W"), colour=B))
    game.push(Accept(1))
    assert game.to_move() == 2


def test_bots_jump_in_when_the_rule_allows() -> None:
    import random

    from controller.engine import Rules, deal
    from controller.engine.autoplay import play_out
    from controller.engine.bots import HeuristicBot

    jumped: list[Play] = []

    class Watching(HeuristicBot):
        def jumps_in(self, game: Game, plays: list[Play]) -> Play | None:
            chosen = super().jumps_in(game, plays)
            if chosen is not None:
                jumped.append(chosen)
            return chosen

    rules = Rules.create("classic", jumpin_identical=True)
    rng = random.Random(5)
    for _ in range(20):
        game, _ = deal(rules, 4, 0, rng)
        play_out(game, [Watching(random.Random(s)) for s in range(4)], lambda g: 0)
        assert game.over
    assert jumped
