"""The vocabulary the options are declared with (`options.Rules`): value types, the games an
option applies to, the match formats and the options each uses (`format_uses`); and the feature
ids of RULES.md §11 that are spelled as a setting of an option (`ALIASES`, with their own game
where it is not their option's: `FEATURE_GAMES`), follow other options (`IMPLIED`) or have no
option at all."""

from __future__ import annotations

from typing import Final

from .decks import GameKind

OptionValue = bool | int | str

BOTH: Final = frozenset(GameKind)
CLASSIC: Final = frozenset({GameKind.CLASSIC})
ATTACK: Final = frozenset({GameKind.ATTACK})

FORMATS: Final = (
    "standard",
    "elim_within_deal",
    "elim_tournament",
    "team_play",
    "rotation_4p",
    "rotation_8p",
)

FORMAT_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "standard": (
        "scoring", "target", "num_deals", "chip_rate", "starting_chips",
        "break_ties_by_continuing",
    ),
    "elim_within_deal": ("num_deals",),
    "elim_tournament": ("target",),
    "team_play": ("teams", "team_scoring", "target"),
    "rotation_4p": ("team_scoring", "num_deals"),
    "rotation_8p": ("team_scoring", "num_deals"),
}  # fmt: skip
"""The options each format uses (RULES.md §9.2-§9.6). Everything else is a rule of play."""

SCORING_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "target": ("winner_collects", "penalty", "bust"),
    "num_deals": ("chips",),
    "chip_rate": ("chips",),
    "starting_chips": ("chips",),
    "break_ties_by_continuing": ("penalty",),
}
"""Under the standard format, the options that mean something only with some ways of
scoring."""

FORMAT_PLAYERS: Final[dict[str, int]] = {"rotation_4p": 4, "rotation_8p": 8}
"""Formats played by exactly this many players (§9.6)."""

MATCH_OPTIONS: Final = frozenset(option for fields in FORMAT_FIELDS.values() for option in fields)
"""The options that belong to a match format rather than to the rules of play."""


def format_uses(match_format: str, scoring: str, option_id: str) -> bool:
    """Whether a match of `match_format` (scored by `scoring`, under the standard format) uses
    `option_id`: the rules of play always; a format's options only where §9 gives them a
    meaning (`FORMAT_FIELDS`, `SCORING_FIELDS`)."""
    if option_id not in MATCH_OPTIONS:
        return True
    if option_id not in FORMAT_FIELDS.get(match_format, ()):
        return False
    modes = SCORING_FIELDS.get(option_id) if match_format == "standard" else None
    return modes is None or scoring in modes


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

WITHOUT_OPTION: Final[dict[str, str]] = {
    "dealer_by_agreement": "at a table the players choose the first dealer (the set-up's first "
    "dealer); simulations draw high card (dealer_high_card)",
}
"""§11 feature ids that are not a setting: how the engine stands to them."""
