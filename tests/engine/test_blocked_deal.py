"""The blocked deal (RULES.md §8 [ENG]): when no card is left to draw or to reload and every
active player in turn has drawn or pressed for nothing without playing, the deal ends blocked.
The fewest hand points win it (ties: fewer cards, then the first in turn order from the player
who made the last empty turn), and the winner's own hand counts as 0 for the winner.

Positions are in the card notation; `pile=""` leaves nothing to draw, and a discard pile of
only its top card leaves nothing to reload."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.engine import (
    COLOURS,
    UNKNOWN,
    Action,
    Correct,
    Draw,
    EnterHand,
    Game,
    IllegalAction,
    Knowledge,
    Pass,
    Phase,
    Play,
    Press,
    Rules,
    Suggest,
)
from controller.engine.events import DealBlocked, DealEnded, Drew, Event, Pressed
from controller.engine.match import Match
from controller.engine.notation import position
from controller.engine.scoring import blocked_order
from tests.exploring import examples

from .conftest import c

R, Y, G, B = COLOURS


def empty_turn(game: Game, seat: int) -> list[Event]:
    """`seat` draws (classic) or presses (Attack) and gets nothing."""
    return game.push(Press(seat, 0) if game.attack else Draw(seat))


# --------------------------------------------------------------------------- full mode


def test_classic_a_round_of_empty_draws_ends_the_deal_and_the_fewest_points_win() -> None:
    game = position(
        "classic", players=3, top="R5", hands={0: "G1 G2", 1: "B9", 2: "Y3 YS"}, pile=""
    )
    assert game.exhausted()
    empty_turn(game, 0)
    empty_turn(game, 1)
    assert game.phase is Phase.PLAYING and game.empty_turns == 2 and not game.blocked
    events = empty_turn(game, 2)
    assert events[-2:] == [DealBlocked(2), DealEnded(0, (0, 9, 23), (2, 1, 2), blocked=True)]
    assert game.over and game.blocked and game.winner == 0
    assert game.points == (0, 9, 23)  # the winner's own 3 points count as 0 for the winner


def test_a_tie_on_points_goes_to_fewer_cards() -> None:
    game = position("classic", players=3, top="R5", hands={0: "G1 G2", 1: "Y3", 2: "B9"}, pile="")
    for seat in range(3):
        empty_turn(game, seat)
    assert game.winner == 1 and game.points == (3, 0, 9)


@pytest.mark.parametrize(("first", "winner"), [(0, 2), (1, 0), (2, 1)])
def test_a_full_tie_goes_to_the_first_in_turn_order_from_the_last_empty_turn(
    first: int, winner: int
) -> None:
    game = position(
        "classic", players=3, top="R5", hands={0: "G3", 1: "Y3", 2: "B3"}, pile="", turn=first
    )
    for k in range(3):
        empty_turn(game, (first + k) % 3)
    assert game.last_empty == (first + 2) % 3
    assert game.winner == winner == game.last_empty  # the order counts from that player on


def test_turn_order_follows_the_direction_of_play() -> None:
    hands = {0: "G3", 1: "Y3", 2: "B3", 3: "G9"}
    game = position("classic", top="R5", hands=hands, pile="", turn=2, direction=-1)
    for seat in (2, 1, 0, 3):
        empty_turn(game, seat)
    assert game.last_empty == 3
    assert blocked_order(game) == [2, 1, 0, 3]  # from P3 backwards, by points: P3 holds 9
    assert game.winner == 2


def test_a_play_starts_the_round_again() -> None:
    """P2 could have played the red 5 it drew back, but drew instead: an empty turn too."""
    hands = {0: "G1", 1: "R7 B2", 2: "Y3 Y4"}
    game = position("classic", players=3, top="R5", hands=hands, pile="")
    empty_turn(game, 0)
    game.push(Play(1, c("R7")))
    assert game.empty_turns == 0 and not game.exhausted()  # R5 can be reshuffled and drawn
    game.push(Draw(2))  # the pile is refilled with R5, which P2 draws and keeps
    assert game.hands[2] == [c("Y3"), c("Y4"), c("R5")] and game.drawn is c("R5")
    game.push(Pass(2))
    assert game.exhausted() and game.empty_turns == 0
    empty_turn(game, 0)
    empty_turn(game, 1)
    assert not game.over
    empty_turn(game, 2)
    assert game.over and game.winner == 0 and game.points == (0, 2, 12)


def test_attack_a_round_of_empty_presses_ends_the_deal() -> None:
    game = position(top="R5", hands={0: "G9 G8", 1: "B2 B2", 2: "Y1 WHF", 3: "G4"}, pile="")
    for seat in range(3):
        empty_turn(game, seat)
    events = empty_turn(game, 3)
    assert DealBlocked(3) in events
    assert game.winner == 3 and game.points == (17, 4, 51, 0)  # 4 points each; P3 in 1 card


def test_owed_presses_are_not_turns() -> None:
    game = position(top="R5", hands={0: "G9", 1: "B2", 2: "Y1", 3: "G4"}, pile="")
    empty_turn(game, 0)
    empty_turn(game, 1)
    game.push(Suggest(3))  # P3 owns up to a suggestion: four presses, for nothing
    for _ in range(4):
        game.push(Press(3, 0))
    assert game.empty_turns == 2 and not game.duties
    empty_turn(game, 2)
    assert not game.over
    empty_turn(game, 3)
    assert game.over and game.winner == 2


def test_after_a_hit_two_the_round_starts_again_and_the_skipped_victim_is_not_counted() -> None:
    hands = {0: "RH2 G1", 1: "B2", 2: "Y1", 3: "G4"}
    game = position(top="R5", hands=hands, pile="")
    game.push(Play(0, c("RH2")))  # R5 may be reloaded now
    game.push(Press(1, 0))
    game.push(Press(1, 1))  # P1 gets R5: nothing is left again
    assert game.exhausted() and game.empty_turns == 0 and game.to_move() == 2
    for seat in (2, 3, 0):
        empty_turn(game, seat)
    assert not game.over
    empty_turn(game, 1)  # P1 could play R5 on the red Hit 2, and pressed instead
    # P0 and P2 hold one 1 each: P2 is the first in turn order from P1
    assert game.over and game.winner == 2 and game.points == (1, 7, 0, 4)


def test_presses_that_miss_while_the_launcher_holds_cards_block_nothing() -> None:
    game = position(top="R5", hands={0: "G9", 1: "B2", 2: "Y1", 3: "G4"}, pile="R9")
    for _ in range(3):
        for seat in range(4):
            empty_turn(game, seat)
    assert not game.over and game.empty_turns == 0


@pytest.mark.parametrize("kind", ["classic", "attack"])
def test_two_players(kind: str) -> None:
    game = position(kind, players=2, top="R5", hands={0: "G9", 1: "B2 Y3"}, pile="")
    empty_turn(game, 0)
    assert not game.over
    empty_turn(game, 1)
    assert game.over and game.winner == 1 and game.points == (9, 0)


def test_play_after_press_the_turn_counts_once_it_ends() -> None:
    game = position(
        players=2, top="R5", hands={0: "G9", 1: "R2"}, pile="", atk_play_after_press=True
    )
    empty_turn(game, 0)
    empty_turn(game, 1)  # P1 holds a red card and may still play it
    assert game.pressed and not game.over
    game.push(Pass(1))
    assert game.over and game.winner == 1


def test_play_after_press_a_play_ends_the_round() -> None:
    game = position(
        players=2, top="R5", hands={0: "G9", 1: "R2 Y3"}, pile="", atk_play_after_press=True
    )
    empty_turn(game, 0)
    empty_turn(game, 1)
    game.push(Play(1, c("R2")))
    assert game.empty_turns == 0 and not game.over


def test_within_deal_elimination_the_holders_go_out_by_points_and_the_last_loses() -> None:
    hands = {0: "G9", 1: "B2", 2: "Y1 Y2"}
    game = position("classic", players=3, top="R5", hands=hands, pile="", format="elim_within_deal")
    events = [e for seat in range(3) for e in empty_turn(game, seat)]
    ended = events[-1]
    assert isinstance(ended, DealEnded) and ended.blocked
    assert ended.order == (1, 2) and ended.loser == 0 and ended.winner == 1
    assert game.finished == [1, 2] and game.active == [True, False, False]


# --------------------------------------------------------------------------- table mode


def table_position(kind: str, counts: list[int], **kw: object) -> Game:
    game = position(kind, players=len(counts), top="R5", pile="", knowledge=Knowledge.TABLE, **kw)  # type: ignore[arg-type]
    game.hands = [[UNKNOWN] * count for count in counts]
    return game


def test_table_attack_the_winner_is_known_once_every_hand_is_entered() -> None:
    game = table_position("attack", [3, 2, 4, 1])
    with pytest.raises(IllegalAction, match="cannot have given 1 cards"):
        game.push(Press(0, 1))  # nothing is left in the launcher
    for seat in range(3):
        empty_turn(game, seat)
    events = empty_turn(game, 3)
    assert events[-1] == DealBlocked(3)
    assert game.phase is Phase.SCORING and game.blocked and game.winner is None
    assert game.legal_actions() == [EnterHand(0), EnterHand(1), EnterHand(2), EnterHand(3)]
    game.push(EnterHand(0, points=12))
    game.push(EnterHand(1, cards=(c("R1"), c("B4"))))
    game.push(EnterHand(2, points=60))
    assert game.winner is None and not game.over
    events = game.push(EnterHand(3, cards=(c("G5"),)))
    # P1 and P3 hold 5 points each; P3 holds fewer cards
    assert events == [DealEnded(3, (12, 5, 60, 0), (3, 2, 4, 1), blocked=True)]
    assert game.over and game.winner == 3


def test_table_classic_empty_draws_block_the_deal_too() -> None:
    game = table_position("classic", [2, 2, 2])
    for seat in range(3):
        empty_turn(game, seat)
    assert game.phase is Phase.SCORING and game.winner is None
    game.push(EnterHand(2, points=4))
    game.push(EnterHand(0, points=4))
    events = game.push(EnterHand(1, points=4))
    # a full tie: the first in turn order from P2, who made the last empty turn
    assert events[-1] == DealEnded(2, (4, 4, 0), (2, 2, 2), blocked=True)


def test_table_a_hand_count_correction_refills_the_launcher() -> None:
    game = table_position("attack", [3, 2, 4, 1])
    for seat in range(3):
        empty_turn(game, seat)
    game.push(Correct(2, 3))  # P2 held one card fewer: it is in the launcher
    assert not game.exhausted() and not game.over
    game.push(Press(3, 0))  # a miss with a card in the launcher is no empty turn
    assert game.empty_turns == 0 and game.phase is Phase.PLAYING


# --------------------------------------------------------------------------- a match


@pytest.mark.parametrize(
    ("scoring", "deltas"), [("winner_collects", (0, 0, 15)), ("penalty", (9, 6, 0))]
)
def test_a_blocked_deal_is_scored_as_any_deal(scoring: str, deltas: tuple[int, ...]) -> None:
    match = Match(Rules.create("classic", scoring=scoring), 3, random.Random(1), first_dealer=2)
    match.start_deal()
    game = match.game
    assert game is not None
    # the deal as it stands after a while: nothing to draw, and nobody holds a red card or a 5
    game.hands = [[c("G9")], [c("B2"), c("B4")], [c("Y1"), c("Y2")]]
    game.pile, game.discard, game.colour = [], [c("R5")], R
    game.turn, game.direction, game.duties, game.drawn = 0, 1, [], None
    for seat in range(3):
        empty_turn(game, seat)
    assert game.over
    record = match.finish_deal()
    assert record.blocked and record.winner == 2
    assert record.deltas == deltas


# --------------------------------------------------------------------------- properties


def exhausted_position(kind: str, players: int, seed: int) -> Game:
    """A deal where every card but the top one is in a hand: nothing to draw or reload."""
    rng = random.Random(seed)
    rules = Rules.create(kind)
    cards = rules.deck_spec.cards()
    rng.shuffle(cards)
    top = next(x for x in cards if not x.is_wild)
    cards.remove(top)
    game = position(
        kind, players=players, top=top.text, pile="", seed=seed, turn=rng.randrange(players)
    )
    game.hands = [cards[seat::players] for seat in range(players)]
    return game


@settings(max_examples=examples(60))
@given(
    kind=st.sampled_from(["classic", "attack"]),
    players=st.integers(2, 10),
    seed=st.integers(0, 2**32),
)
def test_players_who_never_play_end_the_deal_in_one_round(
    kind: str, players: int, seed: int
) -> None:
    """Nothing to draw, and nobody plays: the deal ends after exactly one empty turn each."""
    game = exhausted_position(kind, players, seed)
    for turn in range(players):
        assert game.phase is Phase.PLAYING, turn
        empty_turn(game, game.turn)
    assert game.over and game.blocked
    assert game.winner == blocked_order(game)[0]
    keys = {seat: game.shown[seat] for seat in range(players)}
    assert keys[game.winner] == min(keys.values())
    assert game.points is not None and game.points[game.winner] == 0


class ReluctantBot:
    """Draws or presses (when it may) with probability `reluctance`, even holding a playable
    card; otherwise picks any of its legal actions."""

    def __init__(self, rng: random.Random, reluctance: float) -> None:
        self.rng, self.reluctance = rng, reluctance

    def choose(self, game: Game, actions: list[Action]) -> Action:
        fallback = [a for a in actions if isinstance(a, Draw | Press | Pass)]
        if fallback and self.rng.random() < self.reluctance:
            return fallback[0]
        return self.rng.choice(actions)

    def catches(self, game: Game, target: int) -> bool:
        return self.rng.random() < 0.5

    def jumps_in(self, game: Game, plays: list[Play]) -> Play | None:
        return None


@settings(max_examples=examples(60))
@given(
    kind=st.sampled_from(["classic", "attack"]),
    players=st.integers(2, 8),
    seed=st.integers(0, 2**32),
    reluctance=st.floats(0.0, 1.0),
)
def test_empty_turns_never_go_round_twice(
    kind: str, players: int, seed: int, reluctance: float
) -> None:
    """Players who draw or press even when they could play, from a position with nothing left
    to draw, and a launcher that fires at random: whatever they choose, once every player in
    turn has drawn or pressed for nothing with nothing left, the deal is over (counted here
    from what happened, not from the engine's own count); a blocked deal goes to the fewest
    points."""
    game = exhausted_position(kind, players, seed)
    rng = random.Random(seed)
    bots = [ReluctantBot(random.Random(rng.random()), reluctance) for _ in range(players)]
    run = 0  # empty turns in a row, with nothing left to draw or reload before each
    for _ in range(3_000):
        if game.over:
            break
        seat = game.to_move()
        assert seat is not None
        action = bots[seat].choose(game, game.moves())
        if isinstance(action, Press):
            action = Press(seat, rng.choice((0, 0, 1, 2)))
        turn, nothing_left = not game.duties, game.exhausted()
        events = game.push(action)
        got = sum(len(e.cards) for e in events if isinstance(e, Drew | Pressed))
        if turn and isinstance(action, Draw | Press):
            run = run + 1 if nothing_left and not got else 0
        elif isinstance(action, Play):
            run = 0
        assert run <= game.active_count
        assert game.over or run < game.active_count or game.pressed
    if game.blocked:
        assert game.exhausted() and game.winner == blocked_order(game)[0]
        assert game.points is not None and game.points[game.winner] == 0
