"""The fast path's contract: from the same seed it plays exactly the validated engine's games,
every hand, pile, score, eject and random draw, under every rule set it covers; and anything it
does not cover goes to the validated engine.

`UNO_SOAK=20` plays twenty times as many deals (`python -m benchmarks fastsim` runs a long
comparison too)."""

from __future__ import annotations

import os
import random
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller import simulation
from controller.engine import Rules
from controller.fastsim import EjectDecider, covers
from controller.fastsim.rand import QUICK, picker, shuffle
from controller.policy import PROFILES, EjectPolicy, Profile
from controller.simulation import compare_paths, generators, simulate
from tests.exploring import examples

SOAK = int(os.environ.get("UNO_SOAK", "1"))

# Launchers as unkind as a real one can be: dry for a dozen presses, or flooding the table
# until the launcher is empty and must be reloaded from the discards again and again.
STINGY = Profile("stingy", 0.0, ((1, 1.0),), max_drought=12, drought_floor=10)
FLOOD = Profile(
    "flood", 1.0, ((12, 1.0),), max_drought=0, jackpot_probability=0.5, jackpot_min=20,
    jackpot_max=40,
)  # fmt: skip
LAUNCHERS = {**PROFILES, "stingy": STINGY, "flood": FLOOD}

MULTI: dict[str, object] = {"multi_in_attack": True}
STACK: dict[str, object] = {"attack_stack_hits": True}
BOTH = MULTI | STACK
WHF: dict[str, object] = {"whf_needs_no_colour_match": True}
REPLAY: dict[str, object] = {"replay_any_count": True}
AFTER: dict[str, object] = {"atk_play_after_press": True}

# (game, players, bot, deals, eject profile, options): thousands of deals per covered rule set.
RUNS: list[tuple[str, int, str, int, str, dict[str, object]]] = [
    ("classic", 4, "random", 700, "toy", {}),
    ("classic", 4, "heuristic", 400, "toy", {}),
    ("classic", 2, "random", 300, "toy", {}),
    ("classic", 3, "heuristic", 250, "toy", {}),
    ("classic", 7, "random", 150, "toy", {}),
    ("classic", 10, "heuristic", 80, "toy", {}),
    ("attack", 4, "random", 600, "toy", {}),
    ("attack", 4, "heuristic", 400, "toy", {}),
    ("attack", 2, "random", 200, "brutal", {}),
    ("attack", 3, "heuristic", 250, "gentle", {}),
    ("attack", 6, "random", 150, "draw-one", {}),
    ("attack", 10, "heuristic", 80, "toy", {}),
    # The corners: a starved draw pile, one-card hands, a flooding or stingy launcher, the
    # other Attack deck, hand sizes by player count, options no bot here can meet.
    ("classic", 10, "random", 80, "toy", {"hand_size": 10}),
    ("classic", 3, "random", 200, "toy", {"hand_size": 1, "uno_false_call_penalty": False}),
    ("attack", 5, "random", 40, "flood", {}),
    ("attack", 10, "random", 20, "flood", {"hand_size": 10}),
    ("attack", 4, "heuristic", 150, "stingy", {"deck": "attack_alt"}),
    ("attack", 8, "random", 80, "toy", {"deal_size_by_count": True, "target": 200}),
    # UNO Attack's house rules: groups of one face (§10.3) and Hit 2s passed on (§10.1), each
    # alone and together, with both bots, from two to ten seats and the unkind launchers.
    ("attack", 4, "heuristic", 400, "toy", BOTH),
    ("attack", 4, "random", 500, "toy", BOTH),
    ("attack", 4, "heuristic", 250, "gentle", MULTI),
    ("attack", 4, "random", 300, "toy", MULTI),
    ("attack", 4, "heuristic", 250, "toy", STACK),
    ("attack", 4, "random", 300, "brutal", STACK),
    ("attack", 2, "random", 150, "brutal", BOTH),
    ("attack", 2, "heuristic", 100, "toy", BOTH),
    ("attack", 3, "heuristic", 200, "gentle", BOTH),
    ("attack", 3, "random", 200, "toy", STACK),
    ("attack", 6, "random", 150, "draw-one", BOTH),
    ("attack", 6, "heuristic", 100, "toy", MULTI),
    ("attack", 10, "heuristic", 60, "toy", BOTH),
    ("attack", 10, "random", 60, "toy", {**MULTI, "hand_size": 10}),
    ("attack", 5, "random", 40, "flood", BOTH),
    ("attack", 4, "heuristic", 150, "stingy", {**BOTH, "deck": "attack_alt"}),
    ("attack", 4, "random", 150, "stingy", STACK),
    ("attack", 3, "random", 300, "toy", {**MULTI, "hand_size": 2}),
    # Options no bot here meets: a wrong play (§10.7) is never among the actions listed.
    ("attack", 4, "random", 150, "toy", {"wrong_play_penalty": True}),
    ("attack", 3, "heuristic", 100, "stingy", {**BOTH, "wrong_play_penalty": True}),
    ("classic", 4, "random", 150, "toy", {"wrong_play_penalty": True}),
    # §4.2: a Wild Hit-Fire only by a player holding no card of the active colour, alone and
    # with groups of Wild Hit-Fires and stacked Hit 2s.
    ("attack", 4, "random", 400, "toy", WHF),
    ("attack", 4, "heuristic", 300, "toy", WHF),
    ("attack", 2, "random", 200, "stingy", WHF),
    ("attack", 6, "heuristic", 100, "toy", WHF),
    ("attack", 5, "random", 40, "flood", WHF),
    ("attack", 4, "random", 300, "toy", {**WHF, **MULTI}),
    ("attack", 3, "heuristic", 200, "toy", {**WHF, **MULTI}),
    ("attack", 4, "heuristic", 200, "stingy", {**WHF, **STACK}),
    ("attack", 4, "random", 300, "toy", {**WHF, **BOTH}),
    ("attack", 6, "heuristic", 100, "toy", {**WHF, **BOTH}),
    ("attack", 5, "random", 40, "flood", {**WHF, **BOTH}),
    ("attack", 3, "random", 300, "toy", {**WHF, **MULTI, "hand_size": 2}),
    # §10.5: after a Skip or Reverse (any number of them) the same player plays again, at any
    # table size and in either game.
    ("attack", 4, "random", 400, "toy", REPLAY),
    ("attack", 4, "heuristic", 300, "gentle", REPLAY),
    ("attack", 2, "heuristic", 200, "stingy", REPLAY),
    ("attack", 3, "random", 250, "toy", REPLAY),
    ("attack", 6, "random", 40, "flood", REPLAY),
    ("attack", 4, "random", 300, "toy", {**REPLAY, **MULTI}),
    ("attack", 5, "heuristic", 150, "toy", {**REPLAY, **BOTH}),
    ("attack", 2, "random", 200, "stingy", {**REPLAY, **BOTH}),
    ("attack", 6, "heuristic", 100, "toy", {**REPLAY, **WHF, **BOTH}),
    ("classic", 4, "random", 400, "toy", REPLAY),
    ("classic", 3, "heuristic", 250, "toy", REPLAY),
    ("classic", 2, "random", 200, "toy", REPLAY),
    # §3.4: a player whose press brought a playable card plays it in the same turn.
    ("attack", 4, "random", 400, "toy", AFTER),
    ("attack", 4, "heuristic", 300, "toy", AFTER),
    ("attack", 2, "random", 200, "stingy", AFTER),
    ("attack", 3, "heuristic", 200, "gentle", AFTER),
    ("attack", 6, "heuristic", 40, "flood", AFTER),  # (flooded, many such tables never end)
    ("attack", 3, "random", 40, "flood", AFTER),
    ("attack", 4, "random", 300, "toy", {**AFTER, **MULTI}),
    ("attack", 5, "heuristic", 150, "toy", {**AFTER, **BOTH}),
    ("attack", 4, "random", 300, "brutal", {**AFTER, **WHF}),
    ("attack", 3, "heuristic", 200, "toy", {**AFTER, **WHF, **MULTI}),
    ("attack", 6, "random", 100, "toy", {**AFTER, **REPLAY, **BOTH}),
    ("attack", 2, "heuristic", 150, "stingy", {**AFTER, **WHF, **REPLAY, **BOTH}),
    ("attack", 5, "random", 40, "flood", {**AFTER, **WHF, **BOTH}),
]


@pytest.mark.parametrize(
    ("game", "players", "bot", "deals", "profile", "options"),
    RUNS,
    ids=[f"{g}-{p}p-{b}-{pr}{'-' if o else ''}{'-'.join(o)}" for g, p, b, _, pr, o in RUNS],
)
def test_fast_path_plays_the_validated_engines_games(
    game: str, players: int, bot: str, deals: int, profile: str, options: dict[str, object]
) -> None:
    rules = Rules.create(game, **options)  # type: ignore[arg-type]
    assert covers(rules, players, bot)
    seed = zlib.crc32(f"{game} {players} {bot} {profile}".encode())
    difference = compare_paths(rules, players, deals * SOAK, seed, LAUNCHERS[profile], bot)
    assert difference is None, difference


def test_the_comparison_notices_other_random_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """The contract test can fail: a fast side drawing from another stream is caught in the
    first deal. (One extra draw can vanish: two streams a word apart fall back into step when
    `randint` or `choice` rejects a word on one side only.)"""
    made: list[object] = []

    def generators_one_off(seed: int, players: int) -> object:
        rngs = generators(seed, players)
        if made:  # the second set is the fast path's
            rngs[2].seed(seed + 1)
        made.append(rngs)
        return rngs

    monkeypatch.setattr(simulation, "generators", generators_one_off)
    difference = compare_paths(Rules.create("attack"), 4, 50, 5, PROFILES["toy"], "random")
    assert difference is not None and difference.startswith("deal 0: ")


def test_simulate_gives_the_same_summary_on_both_paths() -> None:
    for game in ("classic", "attack"):
        rules = Rules.create(game)
        both = [
            simulate(rules, 5, 120, 3, PROFILES["brutal"], "heuristic", path=path).as_dict()
            for path in ("fast", "validated")
        ]
        assert [s.pop("path") for s in both] == ["fast", "validated"]
        for summary in both:
            del summary["seconds"]
        assert both[0] == both[1]
        assert both[0]["conservation_violations"] == 0 and both[0]["finished"] == 120


@pytest.mark.parametrize(
    ("game", "players", "bot", "options", "fast"),
    [
        ("classic", 4, "heuristic", {}, True),
        ("attack", 10, "random", {"hand_size": 9}, True),
        ("classic", 4, "heuristic", {"stack_s0": True}, False),  # house rules: validated
        ("classic", 4, "random", {"jumpin_identical": True}, False),
        ("attack", 4, "random", {**AFTER, **WHF, **REPLAY, **BOTH}, True),  # house rules
        ("classic", 4, "random", {**REPLAY, "wrong_play_penalty": True}, True),
        ("attack", 4, "heuristic", {"discard_all_choose_subset": True}, False),
        ("attack", 4, "random", {"uno_after_trade_receiver": True}, False),
        ("attack", 4, "random", {"start_colour_namer": "dealer"}, False),
        ("attack", 4, "random", {**MULTI, "multi_skip_opponents_only": True}, False),
        ("attack", 4, "random", {**MULTI, "uno_state": "one_card"}, False),
        ("classic", 4, "heuristic", {"format": "team_play"}, False),  # matches: validated
        ("classic", 3, "heuristic", {"format": "elim_within_deal"}, False),
        ("classic", 4, "reckless", {}, False),  # a bot it does not know
        ("classic", 10, "random", {"hand_size": 11}, False),  # the engine refuses the deal
    ],
)
def test_the_fast_path_covers_only_what_it_plays_exactly(
    game: str, players: int, bot: str, options: dict[str, object], fast: bool
) -> None:
    rules = Rules.create(game, **options)  # type: ignore[arg-type]
    assert covers(rules, players, bot) is fast
    if bot in ("heuristic", "random") and players * rules.hand_size < rules.deck_spec.size:
        chosen = simulate(rules, players, 2, 1, PROFILES["toy"], bot).path
        assert chosen == ("fast" if fast else "validated")


@pytest.mark.timeout(10)
def test_a_deal_the_engine_refuses_is_not_played_fast() -> None:
    # 5 x 22 Attack cards leave 2 in the launcher: both could be Trade Hands, which §2.5 sends
    # back, so the engine refuses the deal; the fast path could turn cards up forever.
    rules = Rules.create("attack", hand_size=22)
    assert not covers(rules, 5, "random")
    assert covers(rules.replace(hand_size=21), 5, "random")
    with pytest.raises(ValueError, match="option hand_size"):
        simulate(rules, 5, 1, 636, PROFILES["toy"], "random", path="auto")


def test_quick_draws_are_in_use_on_this_interpreter() -> None:
    assert QUICK, "the quick forms of choice and shuffle drew differently: the slow forms run"


@settings(max_examples=examples(60))
@given(seed=st.integers(0, 2**64), sizes=st.lists(st.integers(1, 300), min_size=1, max_size=20))
def test_quick_picks_and_shuffles_draw_what_random_draws(seed: int, sizes: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    pick = picker(ours)
    for n in sizes:
        cards, same = list(range(n)), list(range(n))
        shuffle(ours, cards)
        theirs.shuffle(same)
        assert cards == same
        assert pick(n) == theirs.choice(range(n))
    assert ours.getstate() == theirs.getstate()


def test_quick_picks_among_thousands_draw_what_random_draws() -> None:
    """A flooded hand under multi_in_attack can list thousands of groups."""
    ours, theirs = random.Random(8), random.Random(8)
    pick = picker(ours)
    for n in (1023, 1024, 1025, 4096, 70_000):
        assert pick(n) == theirs.choice(range(n))
    assert ours.getstate() == theirs.getstate()


profiles = st.builds(
    Profile,
    name=st.just("drawn"),
    fire_probability=st.floats(0.01, 1.0),
    counts=st.lists(
        st.tuples(st.integers(1, 30), st.floats(0.0, 10.0)), min_size=1, max_size=8,
        unique_by=lambda pair: pair[0],
    ).filter(lambda pairs: sum(w for _, w in pairs) > 0).map(tuple),
    max_drought=st.one_of(st.none(), st.integers(0, 12)),
    jackpot_probability=st.sampled_from([0.0, 0.05, 0.5]),
    jackpot_min=st.just(5),
    jackpot_max=st.integers(5, 40),
)  # fmt: skip


@settings(max_examples=examples(80))
@given(
    profile=st.one_of(st.sampled_from(list(LAUNCHERS.values())), profiles),
    seed=st.integers(0, 2**32),
    remaining=st.lists(st.integers(0, 60), min_size=1, max_size=200),
)
def test_the_eject_decider_draws_what_the_policy_draws(
    profile: Profile, seed: int, remaining: list[int]
) -> None:
    theirs, ours = random.Random(seed), random.Random(seed)
    policy, decider = EjectPolicy(profile, theirs), EjectDecider(profile, ours)
    assert [decider(k) for k in remaining] == [policy.decide(k).cards for k in remaining]
    assert ours.getstate() == theirs.getstate()


# The house rules drawn below. (Not atk_play_after_press: on a flooded table its deals can run
# on for ever, which both paths refuse alike; its fixed RUNS above avoid such tables.)
ATTACK_ONLY = {"multi_in_attack", "attack_stack_hits", "whf_needs_no_colour_match"}
HOUSE_RULES = sorted(ATTACK_ONLY | {"replay_any_count", "wrong_play_penalty"})


@settings(max_examples=examples(40))
@given(
    game=st.sampled_from(["classic", "attack"]),
    players=st.integers(2, 10),
    bot=st.sampled_from(["random", "heuristic"]),
    hand=st.integers(1, 10),
    profile=st.one_of(st.sampled_from(list(LAUNCHERS.values())), profiles),
    seed=st.integers(0, 2**32),
    alt_deck=st.booleans(),
    house=st.sets(st.sampled_from(HOUSE_RULES)),
)
def test_any_covered_table_plays_the_same_deals(
    game: str,
    players: int,
    bot: str,
    hand: int,
    profile: Profile,
    seed: int,
    alt_deck: bool,
    house: set[str],
) -> None:
    """Random corners of what the fast path covers: seats, hand sizes, decks, launchers and
    the house rules it plays (UNO Attack's only in UNO Attack)."""
    options: dict[str, object] = {"hand_size": min(hand, 107 // players)}
    if alt_deck and game == "attack":
        options["deck"] = "attack_alt"
    if game == "classic":
        house -= ATTACK_ONLY
    options |= dict.fromkeys(sorted(house), True)
    rules = Rules.create(game, **options)  # type: ignore[arg-type]
    assert covers(rules, players, bot)
    assert compare_paths(rules, players, 4 * SOAK, seed, profile, bot) is None
