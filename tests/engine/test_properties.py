"""Properties over random games (hypothesis): no card is created or lost; everything
`legal_actions` offers is accepted; everything else is refused with a reason and changes
nothing; games end; the same seed gives the same game."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.engine import Rules, deal
from tests.exploring import examples

from .unkind_player import play_checked

GAMES = st.sampled_from(["classic", "attack"])
SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.integers(2, 10)


@settings(max_examples=examples(150))
@given(game_kind=GAMES, seed=SEEDS, players=PLAYERS)
def test_random_games_keep_every_card_and_end(game_kind: str, seed: int, players: int) -> None:
    rng = random.Random(seed)
    game, _ = deal(Rules.create(game_kind), players, rng.randrange(players), rng)
    play_checked(game, rng)
    assert game.over and game.winner is not None and game.points is not None
    assert game.hands[game.winner] == []


@settings(max_examples=examples(40))
@given(game_kind=GAMES, seed=SEEDS, players=PLAYERS)
def test_same_seed_same_game(game_kind: str, seed: int, players: int) -> None:
    runs = []
    for _ in range(2):
        rng = random.Random(seed)
        game, opening = deal(Rules.create(game_kind), players, 0, rng)
        runs.append(opening + play_checked(game, rng))
    assert runs[0] == runs[1]
