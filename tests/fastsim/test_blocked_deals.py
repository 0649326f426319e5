"""The blocked deal (RULES.md §8) on the fast path: from the same position and seeds it plays
exactly the validated engine's deal to the same blocked end, every hand, pile, score, eject
and random draw.

A shuffled deal of a whole deck never blocks with these bots: they play whenever they can, and
with nothing left to draw every other card of the active colour is in some hand. So the deals
here start late, from positions with few cards left in the game and nothing left to draw
(`pile=""`), some found by playing many seeds and kept because they end blocked after several
plays."""

from __future__ import annotations

import random
from typing import Any

import pytest

from controller.engine import COLOURS, Rules
from controller.engine.autoplay import DealStats, play_out, remaining_for_press
from controller.engine.game import Game
from controller.engine.notation import position
from controller.fastsim import Deals, EjectDecider, Outcome
from controller.policy import PROFILES, EjectPolicy
from controller.simulation import BOTS, generators

CASES = [
    # (game, bot, seed, hands, top): nobody can play, so one round of empty turns ends it
    ("classic", "heuristic", 1, {0: "G1 G2", 1: "B9", 2: "Y3 YS"}, "R5"),
    ("attack", "random", 2, {0: "G9 G8", 1: "B2 B2", 2: "Y1 YS", 3: "G4"}, "R5"),
    # plays first (the cards played are reshuffled or reloaded and drawn or pressed again)
    ("classic", "random", 25, {0: "B2 Y6 R0", 1: "Y4 W BS", 2: "Y9 B6 YR"}, "B1"),
    ("classic", "random", 98, {0: "G4 Y4 G3", 1: "G2 Y+2 W4", 2: "Y8 R9 YR"}, "Y7"),
    ("classic", "random", 167, {0: "B1 G5 B8", 1: "Y+2 YR B7", 2: "W GR G9"}, "B4"),
    ("attack", "random", 178, {0: "R5 RR Y8", 1: "RTH R4 B6", 2: "B9 BS RS", 3: "R1 W R3"}, "Y8"),
    ("attack", "random", 227, {0: "G6 G5 B2", 1: "GS Y9 GR", 2: "B3 W Y1", 3: "BTH B7 G7"}, "G8"),
    ("attack", "heuristic", 1661, {0: "Y6 Y1 GS", 1: "YH2 Y4 R9", 2: "BTH G5 WAH"}, "RTH"),
    ("attack", "random", 94, {0: "R8 WHF YH2 RTH", 1: "GS GTH R9 RR"}, "R1"),
]


def validated(kind: str, bot: str, seed: int, hands: dict[int, str], top: str) -> dict[str, Any]:
    players = len(hands)
    game = position(kind, players=players, top=top, hands=hands, pile="", seed=seed)
    rngs = generators(seed, players)
    policy = EjectPolicy(PROFILES["toy"], rngs[2])
    ejects: list[int] = []

    def press(now: Game) -> int:
        ejects.append(policy.decide(remaining_for_press(now)).cards)
        return ejects[-1]

    stats = play_out(game, [BOTS[bot](r) for r in rngs[1]], press)
    assert game.winner is not None and game.points is not None
    texts = ([[c.text for c in hand] for hand in game.hands], [c.text for c in game.pile])
    return seen(game.blocked, game.winner, game.points, *texts, [c.text for c in game.discard],
                stats, ejects, [game.rng, *rngs[1], rngs[2]])  # fmt: skip


def fast(kind: str, bot: str, seed: int, hands: dict[int, str], top: str) -> dict[str, Any]:
    players = len(hands)
    start = position(kind, players=players, top=top, hands=hands, pile="", seed=seed)
    rngs = generators(seed, players)
    decider = EjectDecider(PROFILES["toy"], rngs[2])
    ejects: list[int] = []

    def press(remaining: int) -> int:
        ejects.append(decider(remaining))
        return ejects[-1]

    deals = Deals(Rules.create(kind), players, bot, rngs[1], press)
    cards = deals.tables.cards
    ids = {c: i for i, c in enumerate(cards)}
    assert start.colour is not None
    rng = random.Random(seed)  # as `position` makes the deal's own
    outcome = deals.play_from(
        [[ids[c] for c in hand] for hand in start.hands], [], [ids[start.top]],
        COLOURS.index(start.colour), start.direction, start.turn, [], rng,
    )  # fmt: skip
    text = [[cards[c].text for c in hand] for hand in outcome.hands]
    return seen(outcome.blocked, outcome.winner, outcome.points, text,
                [cards[c].text for c in outcome.pile], [cards[c].text for c in outcome.discard],
                outcome, ejects, [rng, *rngs[1], rngs[2]])  # fmt: skip


def seen(
    blocked: bool,
    winner: int,
    points: tuple[int, ...],
    hands: list[list[str]],
    pile: list[str],
    discard: list[str],
    figures: DealStats | Outcome,
    ejects: list[int],
    generators: list[random.Random],
) -> dict[str, Any]:
    return {
        "blocked": blocked, "winner": winner, "points": points, "hands": hands, "pile": pile,
        "discard": discard, "ejects": ejects, "generators": [g.getstate() for g in generators],
        "figures": (figures.turns, figures.presses, figures.cards_pressed, figures.longest_drought),
    }  # fmt: skip


@pytest.mark.parametrize(
    ("kind", "bot", "seed", "hands", "top"), CASES, ids=[f"{k}-{b}-{s}" for k, b, s, *_ in CASES]
)
def test_the_fast_path_blocks_the_deal_as_the_engine_does(
    kind: str, bot: str, seed: int, hands: dict[int, str], top: str
) -> None:
    ours = validated(kind, bot, seed, hands, top)
    assert ours["blocked"], "the position was chosen because its deal ends blocked"
    assert ours["points"][ours["winner"]] == 0
    assert fast(kind, bot, seed, hands, top) == ours
