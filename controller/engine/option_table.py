"""The vocabulary the options are declared with (`options.Rules`): value types and the games an
option applies to; and the feature ids of RULES.md §11 that are spelled as a setting of an
option (`ALIASES`, with their own game where it is not their option's: `FEATURE_GAMES`), follow
other options (`IMPLIED`) or have no option at all. The match formats and the options each uses
are the formats' own (`formats.FORMATS`)."""

from __future__ import annotations

from typing import Final

from .decks import GameKind
from .formats import FORMATS

OptionValue = bool | int | str

BOTH: Final = frozenset(GameKind)
CLASSIC: Final = frozenset({GameKind.CLASSIC})
ATTACK: Final = frozenset({GameKind.ATTACK})

ALIASES: Final[dict[str, tuple[str, OptionValue]]] = {
    "deck_classic_108": ("deck", "classic"),
    "deck_attack_1998": ("deck", "attack_1998"),
    "deck_attack_alt": ("deck", "attack_alt"),
    "first_player_dealer_left": ("first_player", "dealer_left"),
    "first_player_dealer": ("first_player", "dealer"),
    "start_reverse_dealer_leads": ("start_reverse", "dealer_leads"),
    "start_reverse_right_leads": ("start_reverse", "dealer_right_leads"),
    "start_draw2_skip": ("start_draw2_skips", True),
    "start_draw2_noskip": ("start_draw2_skips", False),
    "start_wild_first_names": ("start_wild", "first_player_names"),
    "start_wild_free_lead": ("start_wild", "free_lead"),
    "start_wild_redraw": ("start_wild", "redraw"),
    "start_wild_predecessor": ("start_wild", "predecessor_names"),
    "start_wild_random": ("start_wild", "random"),
    "atk_start_colour_namer": ("start_colour_namer", "starter"),
    "wd4_legal_colour": ("wd4_legality", "colour"),
    "wd4_legal_colour_or_face": ("wd4_legality", "colour_or_face"),
    "wd4_legal_no_other_play": ("wd4_legality", "no_other_play"),
    "challenge_victim_plays": ("challenge_success_victim_plays", True),
    "atk_suggestion_penalty": ("suggestion_penalty", True),
    "whf_restricted": ("whf_needs_no_colour_match", True),
    "discard_all_subset": ("discard_all_choose_subset", True),
    "uno_false_call": ("uno_false_call_penalty", True),
    "uno_false_accusation": ("uno_false_accusation_penalty", True),
    "uno_identical_cards": ("uno_state", "one_card_or_identical"),
    "hand_size_7": ("hand_size", 7),
    "score_winner_collects": ("scoring", "winner_collects"),
    "score_penalty": ("scoring", "penalty"),
    "score_bust": ("scoring", "bust"),
    "score_chips": ("scoring", "chips"),
    "deal_loser_tiebreak": ("scoring", "deal_loser"),
    "team_scoring_mode": ("team_scoring", "winner_team_collects"),
    **{name: ("format", name) for name in FORMATS if name != "standard"},
}
"""§11 feature ids that are a setting of an option: `--option stack_s0` works directly (it is
an option), `--option score_chips` means `scoring=chips`."""

FEATURE_GAMES: Final[dict[str, frozenset[GameKind]]] = {
    "deck_classic_108": CLASSIC,
    "deck_attack_1998": ATTACK,
    "deck_attack_alt": ATTACK,
    "first_player_dealer_left": BOTH,
    "start_reverse_dealer_leads": BOTH,
    "uno_identical_cards": CLASSIC,
    "jumpin_draw_accumulate": CLASSIC,
}
"""§11's game column for the feature ids whose option applies to other games than the feature
does (every other feature id applies where its option does): the official lead and turned-up
Reverse are Attack's rules too, though only classic UNO has options to change them; calling UNO
on identical cards is classic UNO's, though the option it sets (`uno_state`) is both games'."""

IMPLIED: Final[dict[str, tuple[str, ...]]] = {
    "jumpin_draw_accumulate": ("jumpin_numbers", "jumpin_identical"),
}
"""§11 feature ids that are on exactly when one of the options they follow is on: accepted by
name with one of those options, refused when switched off."""

_ALWAYS_ON_IDS: Final = {
    CLASSIC: "points_classic start_wd4_redraw wd4_challenge draw_one play_drawn_card "
    "penalty_loses_turn draw_two wild_draw_four",
    ATTACK: "points_attack atk_start_hit2 atk_start_trade_redraw atk_start_discard_plain "
    "atk_start_wah atk_start_whf atk_press_once atk_press_ends_turn atk_renege atk_stuck_cards "
    "atk_launcher_random atk_no_counter hit_2 trade_hands trade_hands_not_last discard_all "
    "wild_all_hit wild_hit_fire",
    BOTH: "players_2_10 dealer_high_card start_skip match_basic wild_anytime skip reverse wild "
    "uno_call uno_penalty uno_window final_card_penalty reshuffle_except_top "
    "two_player_reverse_skip two_player_skip_again two_player_penalty_returns",
}
ALWAYS_ON: Final[dict[str, frozenset[GameKind]]] = {
    feature: games for games, ids in _ALWAYS_ON_IDS.items() for feature in ids.split()
}
"""§11 feature ids that are always part of their game's rules (its official cards and turns;
the two-player rules whenever two play), with §11's game column: no setting changes them, so
`--option draw_one` is accepted on a classic table and does nothing, switched off it is refused,
and on an Attack table it is refused as another game's (§11)."""

WITHOUT_OPTION: Final[dict[str, str]] = {
    "dealer_by_agreement": "at a table the players choose the first dealer (the set-up's first "
    "dealer); simulations draw high card (dealer_high_card)",
}
"""§11 feature ids that are not a setting: how the engine stands to them."""
