"""Exactness under the options (issue-driven cases): nobody who has gone out is given a stack,
a duty or a turn; a table cannot play a card whose every copy is in sight; a challenged Wild
Draw Four's player shows their hand, whatever the verdict; busts list everyone who crossed;
options of the other game are refused by name."""

from __future__ import annotations

import random

import pytest

from controller.engine import (
    COLOURS,
    UNKNOWN,
    Accept,
    CardNotHeld,
    Challenge,
    Knowledge,
    OptionError,
    Play,
    Press,
    Rules,
    TurnUp,
    deal,
)
from controller.engine.events import Challenged, HandShown
from controller.engine.match import DealRecord, Match, score_deal
from controller.engine.notation import event_text, position
from controller.engine.options import options_for
from controller.engine.state import DutyKind

from .conftest import c

R, Y, G, B = COLOURS


def test_hit_two_stack_never_lands_on_the_player_who_went_out() -> None:
    """P3 goes out on a Red Hit 2; P0, P1 and P2 pass it on; it goes past P3 to P0."""
    game = position("attack", attack_stack_hits=True, turn=3, top="R5",
                    hands={3: "RH2", 0: "BH2 Y1", 1: "GH2 Y2", 2: "YH2 Y3"})  # fmt: skip
    game.push(Play(3, c("RH2")))
    assert game.winner == 3 and not game.over
    for seat, card in ((0, "BH2"), (1, "GH2"), (2, "YH2")):
        game.push(Play(seat, c(card)))
    duty = game.duties[0]
    assert (duty.kind, duty.seat, duty.count) == (DutyKind.PRESS, 0, 8)
    for _ in range(8):
        game.push(Press(0, 1))
    assert game.over and game.winner == 3 and game.hands[3] == []
    assert len(game.hands[0]) == 1 + 8


def test_two_players_final_hit_two_cannot_be_passed_back_to_the_winner() -> None:
    game = position("attack", players=2, attack_stack_hits=True, top="R5",
                    hands={0: "RH2", 1: "BH2 Y1"})  # fmt: skip
    game.push(Play(0, c("RH2")))
    assert not [a for a in game.legal_actions() if isinstance(a, Play)]
    with pytest.raises(Exception, match="nobody is left"):
        game.push(Play(1, c("BH2")))
    game.push(Press(1, 0))
    game.push(Press(1, 0))
    assert game.over and game.hands[0] == []


def test_stacked_draw_two_after_the_last_card_skips_the_winner() -> None:
    game = position("classic", players=3, stack_s1=True, top="R5",
                    hands={0: "R+2", 1: "B+2 Y1", 2: "G9 Y2"})  # fmt: skip
    game.push(Play(0, c("R+2")))
    game.push(Play(1, c("B+2")))
    assert game.duties[0].seat == 2
    game.push(Accept(2))
    assert game.over and game.hands[0] == [] and len(game.hands[2]) == 2 + 4


def _table(game_kind: str = "attack"):
    rules = Rules.create(game_kind)
    game, _ = deal(rules, 4, 3, random.Random(1), Knowledge.TABLE)
    return game


def test_table_refuses_a_card_whose_copies_are_all_in_sight() -> None:
    """Both Red Hit 2s are on the discard pile: a third cannot be played."""
    game = _table()
    game.push(TurnUp(c("R5")))
    game.push(Play(0, c("RH2")))
    for _ in range(2):
        game.push(Press(1, 0))
    game.push(Play(2, c("RH2")))
    for _ in range(2):
        game.push(Press(3, 0))
    before = [len(hand) for hand in game.hands]
    with pytest.raises(CardNotHeld, match="every copy of RH2 is already in sight"):
        game.push(Play(0, c("RH2")))
    assert [len(hand) for hand in game.hands] == before
    offered = {a.card for a in game.legal_actions() if isinstance(a, Play)}
    assert c("RH2") not in offered and c("R5") in offered
    game.push(Play(0, c("R5")))


def test_table_wild_copies_are_counted_too() -> None:
    game = _table("classic")
    game.push(TurnUp(c("R5")))
    for seat in range(4):
        game.push(Play(seat, c("W"), colour=R))
    assert game.hands[0].count(UNKNOWN) == 6
    with pytest.raises(CardNotHeld, match="every copy of W"):
        game.push(Play(0, c("W"), colour=R))


@pytest.mark.parametrize(("hand", "guilty"), [("WD4 R1 G2", True), ("WD4 G1 G2", False)])
def test_a_challenge_shows_the_hand_before_either_verdict(hand: str, guilty: bool) -> None:
    """§3.2 step 2: the challenged player shows their hand, then comes the verdict."""
    game = position("classic", top="R5", hands={0: hand})
    game.push(Play(0, c("WD4"), colour=B))
    events = game.push(Challenge(1))
    kinds = [type(e) for e in events]
    assert kinds[:2] == [HandShown, Challenged]
    shown, verdict = events[0], events[1]
    assert isinstance(shown, HandShown) and isinstance(verdict, Challenged)
    assert (shown.seat, shown.to, shown.cards) == (0, 1, tuple(c(x) for x in hand.split()[1:]))
    assert event_text(shown) == f"P0 shows their hand to P1: [{hand[4:]}]"
    assert verdict.guilty is guilty


@pytest.mark.parametrize("guilty", [True, False])
def test_a_table_challenge_shows_the_hand_whatever_the_verdict(guilty: bool) -> None:
    """At a table the hand is unseen (`?`), but shown all the same, before either verdict."""
    game = position("classic", top="R5", knowledge=Knowledge.TABLE)
    game.hands[0] = [UNKNOWN] * 3
    game.push(Play(0, c("WD4"), colour=B))
    events = game.push(Challenge(1, guilty=guilty))
    assert events[:2] == [HandShown(0, 1, (UNKNOWN, UNKNOWN)), Challenged(1, 0, guilty)]


def test_bust_lists_everyone_who_crossed() -> None:
    """§9.2(b) under score_bust: every player over the target in that deal has busted."""
    rules = Rules.create("classic", scoring="bust")
    match = Match(rules, 3, random.Random(1), first_dealer=0)
    points = (0, 520, 505)
    deltas = score_deal(rules, 0, points)
    match.deals.append(
        DealRecord(number=1, dealer=0, winner=0, points=points, cards_left=(0, 5, 5), deltas=deltas)
    )
    match.totals = list(deltas)
    assert match.over and match.verdict().losers == (1, 2) and match.verdict().winners == (0,)
    assert match.standings() == {"busted": [1, 2]}


@pytest.mark.parametrize(
    ("game", "options", "named"),
    [
        ("attack", {"multi_same_face": True}, "multi_same_face applies to classic UNO only"),
        ("attack", {"stack_s0": True}, "stack_s0 applies to classic UNO only"),
        ("classic", {"attack_stack_hits": True}, "attack_stack_hits applies to attack UNO only"),
        ("attack", {"stack_s0": True, "jumpin_numbers": True}, "stack_s0 and jumpin_numbers do"),
    ],
)
def test_options_of_the_other_game_are_refused_by_name(
    game: str, options: dict[str, bool], named: str
) -> None:
    with pytest.raises(OptionError, match=named):
        Rules.create(game, **options)  # type: ignore[arg-type]


def test_each_game_offers_only_its_options() -> None:
    attack = {spec.id for spec in options_for("attack")}
    classic = {spec.id for spec in options_for("classic")}
    assert "multi_in_attack" in attack and "multi_same_face" not in attack
    assert "multi_same_face" in classic and "attack_stack_hits" not in classic
