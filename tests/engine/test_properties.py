"""Properties over random games (hypothesis): no card is created or lost; everything
`legal_actions` offers is accepted; everything else is refused with a reason and changes
nothing; games end; the same seed gives the same game."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.engine import (
    COLOURS,
    Accept,
    Action,
    CallUno,
    Catch,
    ChooseColour,
    Draw,
    Game,
    IllegalAction,
    Pass,
    Play,
    Press,
    Rules,
    deal,
)
from controller.engine.events import Event, Reshuffled, Why

from .conftest import state_of

GAMES = st.sampled_from(["classic", "attack"])
SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.integers(2, 10)


def _with_outcome(action: Action, rng: random.Random) -> Action:
    if type(action) is Press:
        return Press(action.seat, rng.choice((0, 0, 1, 3, 6)))
    return action


def _listed(action: Action, offered: set[Action]) -> bool:
    """Offered as is, or a variant the engine accepts without listing (a play without the
    UNO call, a press with another count)."""
    if type(action) is Play:
        return dataclasses.replace(action, uno=not action.uno) in offered or action in offered
    if type(action) is Press:
        return Press(action.seat) in offered
    return action in offered


def _mistake(events: list[Event]) -> bool:
    """A wrong play or jump-in accepted under §10.7 / §10.2: only its penalty happened."""
    wrong = {Why.WRONG_PLAY, Why.WRONG_JUMP_IN}
    penalties = [event for event in events if not isinstance(event, Reshuffled)]
    return bool(penalties) and all(getattr(e, "why", None) in wrong for e in penalties)


def _random_action(game: Game, rng: random.Random) -> Action:
    seat = rng.randrange(game.players)
    deck = [c for c, _ in game.deck.counts]
    kind = rng.randrange(6)
    if kind == 0:
        chosen = rng.choice(deck)
        colour = rng.choice(COLOURS) if chosen.is_wild else None
        target = rng.randrange(game.players) if chosen.face.value == "TH" else None
        return Play(seat, chosen, colour, target)
    return (Draw(seat), Pass(seat), Press(seat), Accept(seat), ChooseColour(seat, COLOURS[0]))[
        kind - 1
    ]


def _choose(offered: list[Action], rng: random.Random) -> Action:
    """Mostly plays (so games end in reasonable time), sometimes anything at all."""
    plays = [a for a in offered if type(a) is Play]
    return rng.choice(plays if plays and rng.random() < 0.8 else offered)


def _play(game: Game, rng: random.Random, steps: int = 20_000) -> list[Event]:
    deck = Counter(game.deck.cards())
    history: list[Event] = []
    for _ in range(steps):
        if game.over:
            return history
        if rng.random() < 0.02:
            claim = rng.choice((CallUno(rng.randrange(game.players)), Catch(0, 1)))
            before = state_of(game)
            try:
                history += game.push(claim)
            except IllegalAction:  # a player who has gone out makes no claims
                assert state_of(game) == before
        offered = game.legal_actions()
        assert offered, "a game that is not over always offers something"
        for action in rng.sample(offered, min(2, len(offered))):
            game.copy().push(_with_outcome(action, rng))
        wrong = _random_action(game, rng)
        if not _listed(wrong, set(offered)):
            before = state_of(game)
            try:
                penalised = game.push(wrong)
            except IllegalAction as error:
                assert str(error)
                assert state_of(game) == before, f"refused {wrong} changed the game"
            else:
                assert _mistake(penalised), f"{wrong} was accepted but not offered"
                history += penalised
                continue
        history += game.push(_with_outcome(_choose(offered, rng), rng))
        assert Counter(game.cards_in_play()) == deck
    raise AssertionError("the game did not end")


@settings(max_examples=150, deadline=None)
@given(game_kind=GAMES, seed=SEEDS, players=PLAYERS)
def test_random_games_keep_every_card_and_end(game_kind: str, seed: int, players: int) -> None:
    rng = random.Random(seed)
    game, _ = deal(Rules.create(game_kind), players, rng.randrange(players), rng)
    _play(game, rng)
    assert game.over and game.winner is not None and game.points is not None
    assert game.hands[game.winner] == []


@settings(max_examples=40, deadline=None)
@given(game_kind=GAMES, seed=SEEDS, players=PLAYERS)
def test_same_seed_same_game(game_kind: str, seed: int, players: int) -> None:
    runs = []
    for _ in range(2):
        rng = random.Random(seed)
        game, opening = deal(Rules.create(game_kind), players, 0, rng)
        runs.append(opening + _play(game, rng))
    assert runs[0] == runs[1]
