"""RULES.md §11: an option whose game column does not include the table's game is refused at
set-up with a message naming it and the game, whatever its value, its default included: it
never shows as on while doing nothing, and never acts (issue 21: `uno_identical_cards` on an
UNO Attack table exposed a player left with R5 R5 and cost 2 presses)."""

from __future__ import annotations

import pytest

from controller.engine import Catch, OptionError, Play, Rules
from controller.engine.cards import parse_card
from controller.engine.notation import position
from controller.engine.option_table import ALIASES, ALWAYS_ON, IMPLIED
from controller.engine.options import OPTIONS_BY_ID

CLASSIC_ONLY = (
    "deck_classic_108",
    "first_player_dealer",
    "start_reverse_right_leads",
    "start_draw2_skip",
    "start_draw2_noskip",
    "start_wild_first_names",
    "start_wild_free_lead",
    "start_wild_redraw",
    "start_wild_predecessor",
    "start_wild_random",
    "wd4_legal_colour",
    "wd4_legal_colour_or_face",
    "wd4_legal_no_other_play",
    "wd4_bluffing",
    "challenge_victim_plays",
    "may_draw_when_playable",
    "must_play_if_able",
    "uno_identical_cards",
    "no_finish_on_action",
    "no_finish_extended",
    "stack_s0",
    "stack_s1",
    "jumpin_numbers",
    "jumpin_identical",
    "jumpin_draw_accumulate",
    "multi_same_face",
    "multi_identical",
    "wild_after_draw",
    "wrong_jumpin_penalty",
)
"""§11's rows whose game is classic and that are an option or a feature id of one."""

ATTACK_ONLY = (
    "deck_attack_1998",
    "deck_attack_alt",
    "atk_start_colour_namer",
    "atk_play_after_press",
    "atk_suggestion_penalty",
    "whf_restricted",
    "attack_stack_hits",
    "discard_all_subset",
    "uno_after_trade_receiver",
    "multi_in_attack",
)

BOTH_GAMES = (
    "first_player_dealer_left",
    "start_reverse_dealer_leads",
    "hand_size_7",
    "deal_size_by_count",
    "uno_false_call",
    "uno_false_accusation",
    "replay_any_count",
    "wrong_play_penalty",
    "score_winner_collects",
    "score_penalty",
    "score_bust",
    "score_chips",
    "deal_loser_tiebreak",
    "elim_within_deal",
    "elim_tournament",
    "team_play",
    "team_scoring_mode",
    "rotation_4p",
    "rotation_8p",
)


CLASSIC_ALWAYS = ("points_classic", "start_wd4_redraw", "wd4_challenge", "draw_one",
                  "play_drawn_card", "penalty_loses_turn", "draw_two",
                  "wild_draw_four")  # fmt: skip
ATTACK_ALWAYS = ("points_attack", "atk_start_hit2", "atk_start_trade_redraw",
                 "atk_start_discard_plain", "atk_start_wah", "atk_start_whf", "atk_press_once",
                 "atk_press_ends_turn", "atk_renege", "atk_stuck_cards", "atk_launcher_random",
                 "atk_no_counter", "hit_2", "trade_hands", "trade_hands_not_last", "discard_all",
                 "wild_all_hit", "wild_hit_fire")  # fmt: skip
BOTH_ALWAYS = ("players_2_10", "dealer_high_card", "start_skip", "match_basic", "wild_anytime",
               "skip", "reverse", "wild", "uno_call", "uno_penalty", "uno_window",
               "final_card_penalty", "reshuffle_except_top", "two_player_reverse_skip",
               "two_player_skip_again", "two_player_penalty_returns")  # fmt: skip
"""§11's rows that are always on ("on" or "auto", no option changes them), by game column."""


def _as_given(feature: str) -> object:
    """The value a set-up would send: an option at its default, a feature id switched on."""
    spec = OPTIONS_BY_ID.get(feature)
    return spec.default if spec is not None else True


def test_the_lists_are_every_option_and_feature_id_of_one_game() -> None:
    """Every option and feature id the engine takes is in one of the lists above (so a new
    one must say its game here too)."""
    taken = set(OPTIONS_BY_ID) | set(ALIASES) | set(IMPLIED) | set(ALWAYS_ON)
    engine_only = {"deck", "hand_size", "first_player", "start_reverse", "start_draw2_skips",
                   "start_wild", "start_colour_namer", "wd4_legality", "uno_state",
                   "challenge_success_victim_plays", "must_play_drawn_if_playable",
                   "suggestion_penalty", "whf_needs_no_colour_match", "discard_all_choose_subset",
                   "uno_false_call_penalty", "uno_false_accusation_penalty",
                   "stack_wd4_ignores_legality", "multi_skip_opponents_only", "scoring",
                   "target", "chip_rate", "starting_chips", "num_deals",
                   "break_ties_by_continuing", "next_dealer", "format", "teams",
                   "team_scoring"}  # fmt: skip
    one_game = {*CLASSIC_ONLY, *ATTACK_ONLY, *BOTH_GAMES, *CLASSIC_ALWAYS, *ATTACK_ALWAYS}
    assert taken - engine_only == one_game | set(BOTH_ALWAYS)


@pytest.mark.parametrize(
    ("feature", "game", "other"),
    [(f, "classic", "attack") for f in (*CLASSIC_ONLY, *CLASSIC_ALWAYS)]
    + [(f, "attack", "classic") for f in (*ATTACK_ONLY, *ATTACK_ALWAYS)],
)
def test_an_id_of_the_other_game_is_refused_whatever_its_value(
    feature: str, game: str, other: str
) -> None:
    with pytest.raises(OptionError) as refused:
        Rules.create(other, **{feature: _as_given(feature)})  # type: ignore[arg-type]
    assert str(refused.value) == f"option {feature} applies to {game} UNO only, not to {other} UNO"
    with pytest.raises(OptionError, match=f"option {feature} applies to {game} UNO only"):
        Rules.from_text(other, {feature: str(_as_given(feature)).lower()})


@pytest.mark.parametrize("feature", BOTH_GAMES + BOTH_ALWAYS)
@pytest.mark.parametrize("game", ["classic", "attack"])
def test_an_id_of_both_games_is_taken_by_either(feature: str, game: str) -> None:
    Rules.create(game, **{feature: _as_given(feature)})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("feature", "game"),
    [(f, "classic") for f in CLASSIC_ALWAYS + BOTH_ALWAYS]
    + [(f, "attack") for f in ATTACK_ALWAYS + BOTH_ALWAYS],
)
def test_an_always_on_rule_of_the_game_is_taken_and_changes_nothing_but_cannot_be_off(
    feature: str, game: str
) -> None:
    """`--option draw_one` on a classic table names a rule it always plays: accepted, the same
    rules; switched off it is refused (before, both were "unknown option")."""
    assert Rules.from_text(game, {feature: ""}) == Rules.create(game)
    for off in ("false", "off"):
        with pytest.raises(OptionError, match=f"^{feature} is always part of the rules"):
            Rules.from_text(game, {feature: off})
    with pytest.raises(OptionError, match="cannot be off"):
        Rules.create(game, **{feature: False})


def test_the_ids_the_issue_names_are_refused_on_attack_at_their_defaults() -> None:
    named = {
        "wd4_legal_colour": True,
        "start_draw2_skip": True,
        "challenge_victim_plays": True,
        "start_wild_first_names": True,
        "wd4_bluffing": True,
        "uno_identical_cards": True,
    }
    with pytest.raises(OptionError) as refused:
        Rules.create("attack", **named)
    assert str(refused.value) == (
        "options wd4_legal_colour, start_draw2_skip, challenge_victim_plays, "
        "start_wild_first_names, wd4_bluffing and uno_identical_cards do not apply to attack "
        "UNO (only to classic UNO)"
    )


def test_calling_uno_on_identical_cards_is_classic_only_as_an_option_setting_too() -> None:
    with pytest.raises(OptionError) as refused:
        Rules.create("attack", uno_state="one_card_or_identical")
    assert str(refused.value) == (
        "option uno_state=one_card_or_identical (uno_identical_cards) applies to classic UNO "
        "only, not to attack UNO"
    )
    assert Rules.create("attack", uno_state="one_card_or_same_face").uno_rule == (
        "one_card_or_same_face"
    )


def _left_with_two_fives(game: str, **options: object) -> tuple[list[int], int]:
    """P0 plays R9 from R5 R5 R9 without calling UNO, and P1 catches whoever is exposed: the
    seats exposed, and the cards P0 holds then (or owes to press for)."""
    table = position(game, top="R7", hands={0: "R5 R5 R9"}, **options)  # type: ignore[arg-type]
    table.push(Play(0, parse_card("R9")))
    exposed = list(table.exposed)
    if exposed:
        table.push(Catch(1, 0))
    owed = sum(duty.count for duty in table.duties if duty.seat == 0)
    return exposed, len(table.hands[0]) + owed


def test_identical_cards_expose_a_player_in_classic_uno_and_never_in_attack() -> None:
    assert _left_with_two_fives("classic", uno_identical_cards=True) == ([0], 4)  # drew 2
    assert _left_with_two_fives("attack") == ([], 2)  # no UNO state, no presses owed
    with pytest.raises(OptionError, match="uno_identical_cards applies to classic UNO only"):
        _left_with_two_fives("attack", uno_identical_cards=True)


def test_the_official_lead_and_turned_up_reverse_are_attack_rules_too() -> None:
    """§11 marks them both games: the feature ids are taken on an Attack table (where they
    are the fixed rules), while the classic options that change them are not."""
    assert Rules.create("attack", first_player_dealer_left=True).changed() == {}
    with pytest.raises(OptionError, match="option first_player applies to classic UNO only"):
        Rules.create("attack", first_player="dealer_left")
