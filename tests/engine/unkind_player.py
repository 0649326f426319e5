"""An unkind player for property tests: random launcher counts, stray claims, wrong plays
(at most one per turn), mostly plays and otherwise anything offered; and the checks made after
every action: every card is kept, nobody who has gone out owes anything or is to move."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from controller.engine import (
    COLOURS,
    Accept,
    Action,
    CallUno,
    Catch,
    ChooseColour,
    Draw,
    Face,
    Game,
    IllegalAction,
    Pass,
    Phase,
    Play,
    Press,
)
from controller.engine.events import Event, Reshuffled, Why

from .conftest import state_of


def with_outcome(action: Action, rng: random.Random) -> Action:
    if type(action) is Press:
        return Press(action.seat, rng.choice((0, 0, 1, 3, 6)))
    return action


def listed(action: Action, offered: set[Action]) -> bool:
    """Offered as is, or a variant the engine accepts without listing (a play without the
    UNO call, a press with another count)."""
    if type(action) is Play:
        return dataclasses.replace(action, uno=not action.uno) in offered or action in offered
    if type(action) is Press:
        return Press(action.seat) in offered
    return action in offered


def mistake(events: list[Event]) -> bool:
    """A wrong play or jump-in accepted under §10.7 / §10.2: only its penalty happened."""
    wrong = {Why.WRONG_PLAY, Why.WRONG_JUMP_IN}
    penalties = [event for event in events if not isinstance(event, Reshuffled)]
    return bool(penalties) and all(getattr(e, "why", None) in wrong for e in penalties)


def random_action(game: Game, rng: random.Random) -> Action:
    seat = rng.randrange(game.players)
    deck = [c for c, _ in game.deck.counts]
    kind = rng.randrange(6)
    if kind == 0:
        chosen = rng.choice(deck)
        colour = rng.choice(COLOURS) if chosen.is_wild else None
        target = rng.randrange(game.players) if chosen.face is Face.TRADE_HANDS else None
        return Play(seat, chosen, colour, target)
    return (Draw(seat), Pass(seat), Press(seat), Accept(seat), ChooseColour(seat, COLOURS[0]))[
        kind - 1
    ]


def choose(offered: list[Action], rng: random.Random) -> Action:
    """Mostly plays (so games end in reasonable time), sometimes anything at all."""
    plays = [a for a in offered if type(a) is Play]
    return rng.choice(plays if plays and rng.random() < 0.8 else offered)


def _gone_out(game: Game) -> set[int]:
    """Who has gone out: the winner, the players out under within-deal elimination, and a
    jumper who shed their last card on the winning card."""
    out = set(game.finished)
    if game.winner is not None:
        out.add(game.winner)
    out.update(seat for seat, hand in enumerate(game.hands) if not hand)
    return out


def check_nobody_out_owes(game: Game) -> None:
    """§6 and §9.3: a player who has gone out gets no turn, no duty, no stack and no cards."""
    if game.phase is not Phase.PLAYING:
        return
    out = _gone_out(game)
    for seat in set(game.finished) | {game.winner} - {None}:
        assert not game.hands[seat], f"P{seat} went out but holds {game.hands[seat]}"
    for duty in game.duties:
        assert duty.seat not in out or game.deal_done(), f"P{duty.seat} went out but owes {duty}"
    mover = game.to_move()
    assert game.deal_done() or mover not in out, f"P{mover} went out but is to move"


def play_checked(game: Game, rng: random.Random, steps: int = 20_000) -> list[Event]:
    """Play a deal out with an unkind player (random claims, one wrong play per turn at most,
    random launcher counts), checking the invariants after every action."""
    deck = Counter(game.deck.cards())
    history: list[Event] = []
    mistaken: tuple[int, int] | None = None  # (seat, turn number) of the last wrong play
    turns = 0
    for _ in range(steps):
        if game.over:
            return history
        if rng.random() < 0.02:
            history += _stray_claim(game, rng)
        offered = game.legal_actions()
        assert offered, "a game that is not over always offers something"
        wrong = random_action(game, rng)
        if mistaken != (wrong.seat, turns) and not listed(wrong, set(offered)):
            before = state_of(game)
            try:
                penalised = game.push(wrong)
            except IllegalAction as error:
                assert str(error)
                assert state_of(game) == before, f"refused {wrong} changed the game"
            else:
                assert mistake(penalised), f"{wrong} was accepted but not offered"
                history += penalised
                mistaken = (wrong.seat, turns)
                check_nobody_out_owes(game)
                continue
        mover = game.to_move()
        history += game.push(with_outcome(choose(_sensible(game, offered), rng), rng))
        turns += game.to_move() != mover
        assert Counter(game.cards_in_play()) == deck
        check_nobody_out_owes(game)
    raise AssertionError("the game did not end")


def _sensible(game: Game, offered: list[Action]) -> list[Action]:
    """The choices a careless but not perverse player makes: Trade Hands only with a player
    holding the fewest cards. (Trading at random keeps undoing the progress of within-deal
    elimination, and its deals run to tens of thousands of actions.)"""

    def fewest(play: Play) -> bool:
        targets = [
            len(game.hands[s]) for s in range(game.players) if s != play.seat and game.active[s]
        ]
        return play.target is None or len(game.hands[play.target]) == min(targets)

    return [a for a in offered if type(a) is not Play or fewest(a)]


def _stray_claim(game: Game, rng: random.Random) -> list[Event]:
    claim = rng.choice((CallUno(rng.randrange(game.players)), Catch(0, 1)))
    before = state_of(game)
    try:
        events = game.push(claim)
    except IllegalAction:  # a player who has gone out makes no claims
        assert state_of(game) == before
        return []
    check_nobody_out_owes(game)
    return events
