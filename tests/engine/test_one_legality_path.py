"""What may be done now is one definition: `Game.legal_actions()` lists exactly what
`Game.push()` accepts (`legality_walk` says how the two are compared). Random reachable states
over random combinations of every option, in every match format (first and later deals), in
full and table mode; each example is fixed by its seed (hypothesis runs derandomized).
UNO_ATTACK_SOAK=1 runs many more."""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable, Mapping
from types import MappingProxyType

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from controller.engine import (
    COLOURS,
    BadChoice,
    Game,
    Knowledge,
    OptionError,
    Play,
    Rules,
    RunawayGame,
    deal,
    play_out,
    remaining_for_press,
    state,
)
from controller.engine.bots import HeuristicBot
from controller.engine.cards import Face
from controller.engine.effects import Effect
from controller.engine.errors import CardNotPlayable
from controller.engine.events import Traded
from controller.engine.formats import FORMATS, MATCH_OPTIONS
from controller.engine.match import Match
from controller.engine.notation import position
from controller.engine.options import OPTIONS

from .conftest import c
from .legality_walk import check_state, walk
from .test_house_properties import house_rules

SOAK = bool(os.environ.get("UNO_ATTACK_SOAK"))
EXAMPLES = 2000 if SOAK else 150  # enough for every option to be on in some example
OUT_OF_TURN_EXAMPLES = 1000 if SOAK else 40
STEPS = 400 if SOAK else 40  # states checked per deal
TRIES = 12  # random candidates (and listed plays) tried at each state
LONG = pytest.mark.timeout(3600 if SOAK else 120)  # the soak runs for minutes

R, Y, G, B = COLOURS


def some_deal(
    rules: Rules, players: int, knowledge: Knowledge, rng: random.Random
) -> tuple[Game, int]:
    """A deal under `rules` and its number: on its own, or of a match of its format, where in
    full mode it is the first, second or third deal (the deals before played out by bots: later
    deals start from what the earlier ones left, e.g. seats out of an elimination tournament)."""
    if rules.format in ("standard", "elim_within_deal"):
        game, _ = deal(rules, players, rng.randrange(players), rng, knowledge)
        return game, 1
    match = Match(rules, players, rng, knowledge=knowledge, first_dealer=0)
    bots = [HeuristicBot(random.Random(rng.random())) for _ in range(players)]
    number = 1
    for _ in range(0 if knowledge is Knowledge.TABLE else rng.randrange(3)):
        match.start_deal()
        assert match.game is not None and match.seating is not None
        play_out(match.game, [bots[p] for p in match.seating.players], _launcher(rng))
        match.finish_deal()
        if match.over:  # it ended early: walk a new match's first deal
            match, number = Match(rules, players, rng, knowledge=knowledge, first_dealer=0), 0
        number += 1
    match.start_deal()
    assert match.game is not None
    return match.game, number


def _launcher(rng: random.Random) -> Callable[[Game], int]:
    """A launcher for the bots' deals: a press gives 0 to 3 cards, as many as are left."""
    return lambda game: min(rng.choice((0, 0, 1, 3)), remaining_for_press(game))


@LONG
def test_listing_and_checking_agree() -> None:
    """Random combinations of every option, every format, full and table mode; the examples
    walked change every option of the rules of play and reach every format."""
    options: set[str] = set()
    formats: set[str] = set()
    tables: set[bool] = set()
    deals: set[int] = set()

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None)
    @given(
        rules=house_rules(),
        players=st.integers(2, 7),
        table=st.booleans(),
        seed=st.integers(0, 2**32 - 1),
    )
    def walk_one(rules: Rules, players: int, table: bool, seed: int) -> None:
        deals.add(check_walk(rules, players, table, seed))
        options.update(rules.changed())
        formats.add(rules.format)
        tables.add(table)

    walk_one()
    assert {spec.id for spec in OPTIONS} - options <= MATCH_OPTIONS  # how a match is scored
    assert formats == set(FORMATS) and tables == {True, False} and deals == {1, 2, 3}


@LONG
@settings(max_examples=OUT_OF_TURN_EXAMPLES, deadline=None, derandomize=True, database=None)
@given(
    rules=house_rules("classic").filter(lambda rules: rules.jumpin is not None),
    players=st.integers(3, 6),
    seed=st.integers(0, 2**32 - 1),
)
def test_listing_and_checking_agree_out_of_turn(rules: Rules, players: int, seed: int) -> None:
    """The same, where most plays are made out of turn: classic with a jump-in rule on (and
    any of the others), full mode, where the engine sees every hand."""
    check_walk(rules.replace(hand_size=7), players, False, seed)


def check_walk(rules: Rules, players: int, table: bool, seed: int) -> int:
    """Walk a deal (`some_deal`) checking every state; its number in its match."""
    players = FORMATS[rules.format].fixed_players or players
    rng = random.Random(seed)
    knowledge = Knowledge.TABLE if table else Knowledge.FULL
    try:
        game, number = some_deal(rules, players, knowledge, rng)
    except (OptionError, RunawayGame):  # too many cards for the deck (§2.3); a deal not ending
        assume(False)
        raise
    found = walk(game, rng, STEPS, TRIES)
    assert not found, "\n\n".join(map(str, found))
    return number


# ---------------------------------------------------------------- the drifts this test found


def test_a_jump_in_wild_draw_four_must_be_legal_without_bluffing() -> None:
    """§10.2 and §3.2: a jumped-in Wild Draw Four must be legal for the jumper; with
    wd4_bluffing off an illegal one is neither listed nor accepted."""
    rules = {"jumpin_identical": True, "wd4_bluffing": False}
    game = position("classic", top="R5", hands={0: "W4 B1", 1: "W4 G2", 2: "W4 G3"}, **rules)
    game.push(Play(0, c("W4"), colour=G))  # P1 and P2 hold a green card
    for jumper in (1, 2):  # the victim passing it on, and a player further round
        jump = Play(jumper, c("W4"), colour=B)
        assert jump not in game.legal_actions()
        with pytest.raises(CardNotPlayable, match="Wild Draw Four"):
            game.copy().push(jump)
    legal = position("classic", top="R5", hands={0: "W4 B1", 1: "W4 B2"}, **rules)
    legal.push(Play(0, c("W4"), colour=G))
    assert Play(1, c("W4"), colour=B, uno=True) in legal.legal_actions()
    legal.push(Play(1, c("W4"), colour=B, uno=True))


def test_a_state_check_reports_what_disagrees() -> None:
    """The checker itself can fail: a listing that offers a play the check refuses is seen."""
    game = position("classic", top="R5", hands={0: "R1 G2"})
    listed = game.legal_actions
    game.legal_actions = lambda: [*listed(), Play(0, c("G2"))]  # type: ignore[method-assign]
    found = check_state(game, random.Random(1), 12)
    assert [d.what for d in found] == ["listed but refused"]


@pytest.fixture
def sevens_trade(monkeypatch: pytest.MonkeyPatch) -> None:
    """A house rule that makes every 7 trade hands, put in the effects table as `effects.py`
    invites (deals made while it is on read it from `DealState.effects`)."""
    base = state.effects_for

    def effects_for(rules: Rules) -> Mapping[Face, Effect]:
        table = dict(base(rules))
        table[Face.SEVEN] = dataclasses.replace(table[Face.SEVEN], trade=True, may_be_last=False)
        return MappingProxyType(table)

    monkeypatch.setattr(state, "effects_for", effects_for)


@pytest.mark.usefixtures("sevens_trade")
def test_a_house_rule_of_the_effects_table_is_listed_as_it_is_checked() -> None:
    game = position("classic", top="R5", hands={0: "R7 G1 G2", 1: "B1"})
    sevens = [a for a in game.legal_actions() if isinstance(a, Play) and a.card is c("R7")]
    assert sevens == [Play(0, c("R7"), target=1, uno=True), *(Play(0, c("R7"), target=t)
                                                              for t in (2, 3))]  # fmt: skip
    for play in sevens:
        game.copy().push(dataclasses.replace(play))  # an equal play, checked: accepted
    with pytest.raises(BadChoice, match="choose the player"):
        game.copy().push(Play(0, c("R7")))
    assert Traded(0, 2) in game.push(Play(0, c("R7"), target=2))


@pytest.mark.usefixtures("sevens_trade")
@pytest.mark.parametrize("seed", range(5))
def test_a_bot_weighs_a_house_rule_of_the_effects_table(seed: int) -> None:
    """The heuristic bot trades its 6 cards for the smallest hand: it knows the 7 trades."""
    hands = {0: "R7 B1 B2 B3 B4 B6", 1: "G1 G2", 2: "Y1 Y2 Y3 Y4 Y5", 3: "G3 G4 G5 G6 G7 G8 G9"}
    game = position("classic", top="R5", hands=hands)
    chosen = HeuristicBot(random.Random(seed)).choose(game, game.moves())
    assert chosen == Play(0, c("R7"), target=1)
