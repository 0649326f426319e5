"""No set-up can hang a match (issue 21): every match format under every way of scoring, with
extreme starting chips, targets and counts, is either refused with a reason naming an option it
was given, or starts from totals that have not ended it, deals, scores and goes on or ends. An
option a format does not use is refused (§9), so `format=elim_tournament`, `scoring=chips` and
`starting_chips` at the target no longer count everyone eliminated before a deal."""

from __future__ import annotations

import itertools
import random

import pytest

from controller.engine import IllegalAction, OptionError, Rules
from controller.engine.autoplay import play_out
from controller.engine.bots import HeuristicBot
from controller.engine.formats import FORMATS, format_uses
from controller.engine.match import Match
from controller.engine.options import OPTIONS_BY_ID

SCORINGS = OPTIONS_BY_ID["scoring"].choices

EXTREMES: list[dict[str, int]] = [
    {"starting_chips": 500},  # at the default target
    {"starting_chips": 1_000_000},  # the most allowed
    {"starting_chips": 1_000_000, "target": 1},
    {"target": 1},
    {"target": 100_000},
    {"num_deals": 1},
    {"num_deals": 10_000},
    {"chip_rate": 1000, "starting_chips": 1},
    {"teams": 5},  # more teams than 4 players can form
]

DEALS_PLAYED = 2
"""Deals played of each match that is not refused: enough to score, move the dealer on and
eliminate (target 1), checked after each."""


def _set_up(match_format: str, scoring: str, extreme: dict[str, int]) -> Rules | None:
    """The rules, or None when they are refused with a reason naming an option given."""
    options: dict[str, object] = {"format": match_format, "scoring": scoring, **extreme}
    try:
        return Rules.create("classic", **options)  # type: ignore[arg-type]
    except OptionError as error:
        assert any(key in str(error) for key in options), error
        return None


def _no_end_before_a_deal(match: Match, players: int) -> None:
    """A match that has not dealt is not over, has a dealer, and shows its standings."""
    assert not match.over
    assert 0 <= match.next_dealer < players
    assert match.verdict().winners == ()
    match.standings()


def _play_deals(match: Match, rng: random.Random, deals: int) -> None:
    bots = [HeuristicBot(random.Random(rng.random())) for _ in range(match.players)]
    for _ in range(deals):
        if match.over:
            return
        match.start_deal()
        assert match.game is not None and match.seating is not None
        play_out(match.game, [bots[p] for p in match.seating.players], lambda _: 1)
        match.finish_deal()
        match.standings()
        match.verdict()
        if not match.over:
            assert 0 <= match.next_dealer < match.players


@pytest.mark.parametrize(
    ("match_format", "scoring", "extreme"),
    list(itertools.product(FORMATS, SCORINGS, EXTREMES)),
    ids=lambda value: value if isinstance(value, str) else "-".join(map(str, value.values())),
)
def test_every_format_and_scoring_with_extreme_values_ends_or_is_refused(
    match_format: str, scoring: str, extreme: dict[str, int]
) -> None:
    rules = _set_up(match_format, scoring, extreme)
    if rules is None:
        return
    players = FORMATS[match_format].fixed_players or 4
    rng = random.Random(len(str(extreme)))
    try:
        match = Match(rules, players, rng)
    except OptionError as error:  # the format does not fit the players: said, not tried
        assert "teams" in extreme and "cannot form 5 teams" in str(error)
        return
    chips = scoring == "chips" and match_format == "standard"
    assert match.totals == [rules.starting_chips if chips else 0] * players
    _no_end_before_a_deal(match, players)
    _play_deals(match, rng, DEALS_PLAYED)


def test_the_set_up_that_hung_the_table_is_refused_naming_what_the_format_does_not_use() -> None:
    with pytest.raises(OptionError) as refused:
        Rules.create("attack", format="elim_tournament", scoring="chips", starting_chips=500)
    assert str(refused.value) == (
        "options scoring and starting_chips are not used by the elim_tournament format "
        "(it uses target)"
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"format": "team_play", "starting_chips": 9}, "starting_chips is not used by the team_"),
        ({"format": "rotation_4p", "scoring": "penalty"}, "scoring is not used by the rotation"),
        ({"format": "elim_within_deal", "target": 50}, "target is not used by the elim_within"),
        ({"scoring": "chips", "target": 50}, "target is not used with scoring=chips"),
        ({"scoring": "penalty", "num_deals": 5}, "num_deals is not used with scoring=penalty"),
        ({"scoring": "none", "target": 50}, "target is not used with scoring=none"),
    ],
)
def test_an_option_a_format_does_not_use_is_refused(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        Rules.create("classic", **options)  # type: ignore[arg-type]


def test_an_option_a_format_uses_is_taken() -> None:
    for match_format, scoring, option_id in (
        ("standard", "chips", "starting_chips"),
        ("standard", "penalty", "break_ties_by_continuing"),
        ("elim_tournament", "winner_collects", "target"),
        ("team_play", "winner_collects", "teams"),
        ("rotation_8p", "winner_collects", "num_deals"),
    ):
        assert format_uses(match_format, scoring, option_id)
    assert format_uses("team_play", "chips", "stack_s0")  # a rule of play, in every format


@pytest.mark.parametrize("match_format", [f for f in FORMATS if f != "standard"])
def test_only_a_standard_chips_match_starts_from_chips(match_format: str) -> None:
    players = FORMATS[match_format].fixed_players or 4
    match = Match(Rules.create("classic", format=match_format), players, random.Random(1))
    assert match.totals == [0] * players
    chips = Rules.create("classic", scoring="chips", starting_chips=300)
    assert Match(chips, 3, random.Random(1)).totals == [300, 300, 300]


def test_an_elimination_tournament_where_everyone_is_out_is_over_not_searched_forever() -> None:
    """Totals no set-up can give any more (each deal's winner adds 0), set by hand: the match
    is over, and asking for a dealer is refused at once rather than searched for without end."""
    match = Match(Rules.create("attack", format="elim_tournament", target=100), 4, random.Random(1))
    match.totals = [100, 100, 100, 100]
    assert match.over
    with pytest.raises(IllegalAction, match="nobody is left"):
        match.format.seating(match)
    match.totals = [100, 0, 100, 100]
    assert match.over and match.verdict().winners == ()  # no deal was played


def test_an_eliminated_dealer_passes_the_deal_to_the_next_player_still_in() -> None:
    match = Match(Rules.create("attack", format="elim_tournament", target=100), 4, random.Random(1))
    match.first_dealer = 2
    match.totals = [0, 0, 120, 150]
    seating = match.format.seating(match)
    assert seating.dealer == 0 and seating.active == (True, True, False, False)


def test_a_match_whose_first_deal_cannot_be_dealt_is_refused_naming_the_largest_hand() -> None:
    with pytest.raises(OptionError, match="deal at most 25 cards each to 4 players"):
        Match(Rules.create("classic", hand_size=26), 4, random.Random(1))
    with pytest.raises(OptionError, match="deal at most 26 cards each to 4 players"):
        Match(Rules.create("attack", format="team_play", hand_size=27), 4, random.Random(1))
    assert Match(Rules.create("classic", hand_size=25), 4, random.Random(1)).totals == [0] * 4


@pytest.mark.parametrize(
    ("match_format", "options"),
    [
        ("standard", {"target": 1}),
        ("standard", {"scoring": "penalty", "target": 1, "break_ties_by_continuing": True}),
        ("standard", {"scoring": "chips", "num_deals": 1, "starting_chips": 1_000_000}),
        ("elim_within_deal", {"num_deals": 1}),
        ("elim_tournament", {"target": 1}),
        ("team_play", {"target": 1}),
        ("rotation_4p", {"num_deals": 1}),
        ("rotation_8p", {"num_deals": 1}),
    ],
)
def test_a_match_with_the_smallest_end_ends_within_a_few_deals(
    match_format: str, options: dict[str, object]
) -> None:
    rules = Rules.create("attack", format=match_format, **options)  # type: ignore[arg-type]
    rng = random.Random(7)
    match = Match(rules, FORMATS[match_format].fixed_players or 4, rng)
    _play_deals(match, rng, 20)
    assert match.over and match.verdict().winners
