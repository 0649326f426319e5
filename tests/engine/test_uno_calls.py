"""The UNO call (§5): calling, the catch window, penalties, false calls and false accusations."""

from __future__ import annotations

import pytest

from controller.engine import (
    COLOURS,
    CallUno,
    Catch,
    Draw,
    IllegalAction,
    Play,
    Press,
    Suggest,
    TooLate,
)
from controller.engine.events import Caught, FalseAccusation, FalseCall, UnoCalled, UnoMissed, Why
from controller.engine.notation import position
from controller.engine.state import DutyKind

from .conftest import c

R, Y, G, B = COLOURS


def exposed_game(game_kind: str = "classic", **options: object):
    """P0 has just played R1 from [R1 R2] without calling UNO."""
    game = position(game_kind, top="R5", hands={0: "R1 R2"}, **options)  # type: ignore[arg-type]
    events = game.push(Play(0, c("R1")))
    assert UnoMissed(0) in events and game.exposed == (0,)
    return game


def test_calling_with_the_play_is_safe() -> None:
    game = position("classic", top="R5", hands={0: "R1 R2"})
    events = game.push(Play(0, c("R1"), uno=True))
    assert UnoCalled(0) in events and game.exposed == ()


def test_caught_in_classic_draws_two() -> None:
    game = exposed_game()
    events = game.push(Catch(2, 0))
    assert Caught(2, 0) in events and len(game.hands[0]) == 3 and game.exposed == ()


def test_caught_in_attack_presses_twice() -> None:
    game = exposed_game("attack")
    game.push(Catch(1, 0))
    duty = game.duties[0]
    assert (duty.kind, duty.seat, duty.count, duty.why) == (DutyKind.PRESS, 0, 2, Why.UNO)
    game.push(Press(0, 0))
    game.push(Press(0, 3))
    assert len(game.hands[0]) == 4 and game.to_move() == 1


def test_late_call_before_anyone_catches_is_safe() -> None:
    game = exposed_game()
    assert UnoCalled(0) in game.push(CallUno(0))
    events = game.push(Catch(1, 0))
    assert FalseAccusation(1, 0) in events and len(game.hands[1]) == 9


def test_window_closes_at_the_next_voluntary_action() -> None:
    """§5: a catch after the window has closed is refused as too late; nobody pays."""
    game = exposed_game()
    game.push(Draw(1))
    assert game.exposed == ()
    before = [len(hand) for hand in game.hands]
    with pytest.raises(TooLate, match="too late to catch P0"):
        game.push(Catch(2, 0))
    assert [len(hand) for hand in game.hands] == before and not game.duties


def test_late_catch_in_attack_costs_nobody_presses() -> None:
    game = exposed_game("attack")
    game.push(Press(1, 0))
    with pytest.raises(TooLate):
        game.push(Catch(2, 0))
    assert not game.duties


def test_accusing_a_player_who_called_is_still_false() -> None:
    game = position("classic", top="R5", hands={0: "R1 R2"})
    game.push(Play(0, c("R1"), uno=True))
    game.push(Draw(1))
    assert FalseAccusation(2, 0) in game.push(Catch(2, 0)) and len(game.hands[2]) == 9


def test_forced_presses_do_not_close_the_window() -> None:
    game = position("attack", top="R5", hands={0: "RH2 R2"})
    game.push(Play(0, c("RH2")))
    game.push(Press(1, 0))
    assert game.exposed == (0,)
    game.push(Catch(3, 0))
    assert [d.seat for d in game.duties] == [0, 1]


def test_false_call_costs_two() -> None:
    game = position("classic", top="R5", hands={0: "R1 R2 R3"})
    events = game.push(Play(0, c("R1"), uno=True))
    assert FalseCall(0) in events and len(game.hands[0]) == 4
    events = game.push(CallUno(2))
    assert FalseCall(2) in events and len(game.hands[2]) == 9


def test_false_call_without_penalty_option() -> None:
    game = position("classic", top="R5", uno_false_call_penalty=False)
    assert game.push(CallUno(2)) == [FalseCall(2)] and len(game.hands[2]) == 7


def test_false_accusation_costs_the_accuser() -> None:
    game = position("attack")
    events = game.push(Catch(1, 2))
    assert FalseAccusation(1, 2) in events and game.duties[0].seat == 1


def test_false_accusation_without_penalty_option() -> None:
    game = position("classic", uno_false_accusation_penalty=False)
    assert game.push(Catch(1, 2)) == [FalseAccusation(1, 2)] and not game.duties


def test_catching_yourself_or_nobody_is_refused() -> None:
    game = exposed_game()
    with pytest.raises(IllegalAction, match="yourself"):
        game.push(Catch(0, 0))
    with pytest.raises(IllegalAction, match="no P9"):
        game.push(Catch(1, 9))


def test_going_out_with_a_call_is_not_a_false_call() -> None:
    game = position("classic", top="R5", hands={0: "R1"})
    events = game.push(Play(0, c("R1"), uno=True))
    assert game.over and not any(isinstance(e, FalseCall) for e in events)


def test_claims_after_the_deal_are_refused() -> None:
    game = position("classic", top="R5", hands={0: "R1"})
    game.push(Play(0, c("R1")))
    with pytest.raises(IllegalAction, match="over"):
        game.push(CallUno(1))


def test_suggestion_penalty_is_four_presses_in_attack_only() -> None:
    game = position("attack")
    game.push(Suggest(2))
    assert (game.duties[0].seat, game.duties[0].count) == (2, 4)
    with pytest.raises(IllegalAction, match="no suggestion"):
        position("classic").push(Suggest(2))
    with pytest.raises(IllegalAction, match="no suggestion"):
        position("attack", suggestion_penalty=False).push(Suggest(2))


def test_catch_offered_to_everyone_but_the_exposed() -> None:
    game = exposed_game()
    claims = [a for a in game.legal_actions() if isinstance(a, CallUno | Catch)]
    assert claims == [CallUno(0), Catch(1, 0), Catch(2, 0), Catch(3, 0)]


def test_a_second_catch_is_refused_as_already_caught() -> None:
    """§5: one penalty per missed call. In Attack the caught player still holds one card while
    pressing; nobody has begun a turn, and the refusal says what really happened."""
    game = exposed_game("attack")
    game.push(Catch(1, 0))
    for _ in range(2):
        with pytest.raises(TooLate, match="P0 has already been caught") as refused:
            game.push(Catch(2, 0))
        assert "next player" not in str(refused.value) and "too late" not in str(refused.value)
        game.push(Press(0, 0))  # the penalty presses give nothing: P0 still holds one card
    assert game.hands[0] == [c("R2")] and game.to_move() == 1


def test_a_late_catch_says_play_went_on() -> None:
    game = exposed_game()
    game.push(Draw(1))
    with pytest.raises(TooLate, match="too late to catch P0: play went on after their card"):
        game.push(Catch(2, 0))


def test_a_catch_of_a_player_who_owed_no_call_says_so() -> None:
    """Dealt one card (hand_size 1): no play of P0's left it at one card, so no call was owed."""
    game = position("classic", top="R5", hands={0: "G7"})
    with pytest.raises(TooLate, match="P0 owes no UNO call"):
        game.push(Catch(1, 0))


def test_a_new_missed_call_after_a_catch_is_caught_again() -> None:
    """A catch settles one missed call: the next one, after more plays, is catchable again."""
    game = position("classic", players=2, top="R5", hands={0: "R1 R2", 1: "R3 R4 R6"},
                    pile="R8 R9")  # fmt: skip
    game.push(Play(0, c("R1")))
    game.push(Catch(1, 0))  # P0 draws R8 R9
    for seat, card in ((1, "R3"), (0, "R2"), (1, "R4"), (0, "R8")):
        game.push(Play(seat, c(card)))
    assert game.exposed == (0,) and Caught(1, 0) in game.push(Catch(1, 0))


def test_true_uno_calls_are_listed_for_every_hand_in_the_uno_state() -> None:
    game = position("classic", top="R5", hands={0: "R1 R2", 2: "G7"})
    claims = [a for a in game.legal_actions() if isinstance(a, CallUno | Catch)]
    assert claims == [CallUno(2)]
    assert UnoCalled(2) in game.push(CallUno(2))
