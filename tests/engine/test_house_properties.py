"""Properties over random *combinations* of compatible house rules (§10) and random seeds:
card conservation, termination, `legal_actions` / `push` agreement, reproducibility."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.engine import OptionError, Rules, deal
from controller.engine.options import OPTIONS_BY_ID

from .test_properties import _play

EXCLUSIVE = {  # pick at most one of each family
    "classic": (("stack_s0", "stack_s1"), ("jumpin_numbers", "jumpin_identical"),
                ("multi_same_face", "multi_identical")),
    "attack": (("multi_same_face", "multi_identical"),),
}  # fmt: skip
INDEPENDENT = {
    "classic": ("replay_any_count", "wrong_play_penalty", "no_finish_on_action",
                "must_play_if_able", "deal_size_by_count", "uno_false_call_penalty"),
    "attack": ("attack_stack_hits", "atk_play_after_press", "whf_needs_no_colour_match",
               "discard_all_choose_subset", "uno_after_trade_receiver", "replay_any_count",
               "wrong_play_penalty", "no_finish_on_action"),
}  # fmt: skip
DEPENDENT = {  # sub-option: the family members it needs
    "jumpin_draw_accumulate": ("jumpin_numbers", "jumpin_identical"),
    "wrong_jumpin_penalty": ("jumpin_numbers", "jumpin_identical"),
    "stack_wd4_ignores_legality": ("stack_s0", "stack_s1"),
    "multi_skip_opponents_only": ("multi_same_face", "multi_identical"),
    "multi_in_attack": ("multi_same_face", "multi_identical"),
    "no_finish_extended": ("no_finish_on_action",),
}


@st.composite
def house_rules(draw: st.DrawFn) -> Rules:
    """A random compatible combination of house rules for one of the games."""
    game = draw(st.sampled_from(["classic", "attack"]))
    options: dict[str, object] = {}
    for family in EXCLUSIVE[game]:
        chosen = draw(st.sampled_from((None, *family)))
        if chosen:
            options[chosen] = True
    for option in INDEPENDENT[game]:
        options[option] = draw(st.booleans())
    for option, needs in DEPENDENT.items():
        fits = OPTIONS_BY_ID[option].games
        if game in fits and any(options.get(n) for n in needs) and draw(st.booleans()):
            options[option] = True
    if game == "classic":
        options["wild_after_draw"] = draw(st.sampled_from(("off", "victim_only", "strict_top")))
    options["format"] = draw(st.sampled_from(("standard", "elim_within_deal")))
    options["uno_state"] = draw(st.sampled_from(("auto", "one_card", "one_card_or_same_face")))
    try:
        return Rules.create(game, **options)  # type: ignore[arg-type]
    except OptionError as error:  # a combination the engine refuses must say why
        raise AssertionError(f"compatible options refused: {error}") from None


@settings(max_examples=200, deadline=None)
@given(rules=house_rules(), seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8))
def test_house_rule_games_keep_every_card_and_end(rules: Rules, seed: int, players: int) -> None:
    rng = random.Random(seed)
    game, _ = deal(rules, players, rng.randrange(players), rng)
    _play(game, rng)
    assert game.over and game.winner is not None


@settings(max_examples=30, deadline=None)
@given(rules=house_rules(), seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_house_rule_games_are_reproducible(rules: Rules, seed: int, players: int) -> None:
    runs = []
    for _ in range(2):
        rng = random.Random(seed)
        game, opening = deal(rules, players, 0, rng)
        runs.append(opening + _play(game, rng))
    assert runs[0] == runs[1]
