"""The default classic and UNO Attack games, played by the bots from fixed seeds, stay the very
same games: every event, every hand, the piles and the random generator's state.

Other simulators reproduce these games card for card, so a change to the engine must not change
the order of random draws or a bot's choices under the default rules. The digests below were
taken from the engine before it was restructured; a change that alters them alters the games.
(The classic digests were renewed twice: when a guilty challenge began to add a `HandShown`
event, and when every challenge began to show the hand before its verdict, guilty or not (§3.2
step 2). Each time, with the new events left out or put back where they were, the digests were
the earlier ones: the games themselves did not change.)
"""

from __future__ import annotations

import hashlib
import random

import pytest

from controller.engine import Game, Rules, deal
from controller.engine.autoplay import play_out
from controller.engine.bots import Bot, HeuristicBot, RandomBot
from controller.engine.match import choose_dealer

GAMES_PER_CASE = 1000
HOUSE_GAMES = 300
PRESS_COUNTS = (0, 0, 0, 1, 1, 2, 3, 5)


def _bots(kind: str, players: int, rng: random.Random) -> list[Bot]:
    if kind == "heuristic":
        return [HeuristicBot(random.Random(rng.random())) for _ in range(players)]
    forgets = 0.3 if kind == "forgetful" else 0.0
    return [RandomBot(random.Random(rng.random()), forgets_uno=forgets) for _ in range(players)]


HOUSE = {
    "house-classic": (
        "classic",
        {"stack_s0": True, "jumpin_identical": True, "multi_same_face": True},
    ),
    "house-attack": ("attack", {"attack_stack_hits": True, "multi_in_attack": True}),
}
"""House-rule sets whose games are pinned too, so speed-ups of the full listing change nothing."""


def _digest(game_kind: str, bot_kind: str, games: int) -> str:
    """Play `games` deals from one seed and hash everything that happened in them."""
    game_kind, options = HOUSE.get(game_kind, (game_kind, {}))
    rules = Rules.create(game_kind, **options)  # type: ignore[arg-type]
    digest = hashlib.sha256()
    rng = random.Random(f"{game_kind}/{bot_kind}")
    presses = random.Random(rng.random())

    def press(game: Game) -> int:
        return presses.choice(PRESS_COUNTS)

    for number in range(games):
        players = 2 + number % 7
        bots = _bots(bot_kind, players, rng)
        dealer = choose_dealer(rules.deck_spec, players, rng).dealer
        game, opening = deal(rules, players, dealer, rng)
        stats = play_out(game, bots, press, record=True)
        assert stats.transcript is not None
        digest.update(repr(opening).encode())
        digest.update("\n".join(stats.transcript).encode())
        digest.update(repr((game.hands, game.pile, game.discard, game.points)).encode())
        digest.update(repr(game.rng.getstate()).encode())
    return digest.hexdigest()


REFERENCE = {
    ("attack", "forgetful"): "c12e2c7f8883d132fbc53841e9932403882591b71fc3509742dd734bd774450a",
    ("attack", "heuristic"): "8f8b955e65fa46ad6f7825a8e798511841ebd920307b3034f559e854ce174f6c",
    ("attack", "random"): "24285cfa7aea14706acdb74e7f6b758f5b2f4a1512dd30e2c0dca6da2aec095e",
    ("classic", "forgetful"): "2381b5dc3c000a13fa33f23ebcef4a156ecc6d4d297b65bd215b551ff30942fe",
    ("classic", "heuristic"): "9b52989aa1abb5e0201dd2fcf3140d3e473003a152736bb74e7d3c37c4bfa223",
    ("classic", "random"): "02029dc0870fbcb94c31ac73f2a51881d719a98ffd10d490e8745f3c80281b48",
    ("house-classic", "random"): "fbd73de29b710ced720429f8e754f25bab3ed5078ac0737aa8f10195ccc3bd70",
    (
        "house-classic",
        "heuristic",
    ): "a8e470c3ceb189f464ec0411f6394d9ffb785ca3965fe4b3f5cab0438a4da447",
    ("house-attack", "random"): "42d0957633c33a8c2961610b9bccd0ae5d045e5ed1f2851f04716936c314a8dd",
    (
        "house-attack",
        "heuristic",
    ): "b031d57e9f098a1bcc444365e5c1b20d9ffd6da965b3111c87823f2cc7191939",
}


@pytest.mark.parametrize(("game_kind", "bot_kind"), sorted(REFERENCE))
def test_default_games_stay_identical(game_kind: str, bot_kind: str) -> None:
    games = HOUSE_GAMES if game_kind in HOUSE else GAMES_PER_CASE
    assert _digest(game_kind, bot_kind, games) == REFERENCE[game_kind, bot_kind]
