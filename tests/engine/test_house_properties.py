"""Properties over random *combinations* of compatible options, in every match format, with an
unkind player (wrong plays, stray claims, random launcher counts): every card is kept, nobody
who has gone out is ever given a turn, a duty or cards, and every deal ends.

The option families come from the option declarations themselves (`options.FAMILIES`, each
option's `games` and `needs`), so a new option is covered as soon as it is declared."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from controller.engine import OptionError, Rules, deal
from controller.engine.decks import DECKS
from controller.engine.formats import FORMATS, format_uses
from controller.engine.match import Match
from controller.engine.options import FAMILIES, OPTIONS, OptionSpec, options_for
from tests.exploring import examples

from .unkind_player import choose, play_checked, with_outcome

INTS = {"hand_size": (1, 2, 7), "target": (60, 500), "num_deals": (0, 3), "teams": (2, 3)}
"""Whole-number options: a few telling values (others keep their default)."""

MATCH_DEALS = 4
"""Deals played of a match format (each one checked to its end)."""


def _value(draw: st.DrawFn, spec: OptionSpec, game: str) -> object:
    if spec.kind is bool:
        return draw(st.booleans())
    if spec.kind is int:
        return draw(st.sampled_from(INTS.get(spec.id, (spec.default,))))
    if spec.id == "deck":
        return draw(st.sampled_from(["", *(n for n, d in DECKS.items() if d.game == game)]))
    choices = [c for c in spec.choices if spec.value_applies_to(c, game)]
    if spec.id == "format":  # standard more often: its scoring options need it
        choices.append("standard")
    return draw(st.sampled_from(choices))


@st.composite
def house_rules(draw: st.DrawFn, game: str | None = None) -> Rules:
    """A random compatible combination of every option that applies to one of the games."""
    game = game or draw(st.sampled_from(["classic", "attack"]))
    applicable = options_for(game)
    options: dict[str, object] = {}
    for family in FAMILIES.values():
        members = [spec.id for spec in family if spec in applicable]
        chosen = draw(st.sampled_from((None, *members)))
        if chosen:
            options[chosen] = True
    for spec in applicable:
        if spec.family or spec.needs:
            continue
        options[spec.id] = _value(draw, spec, game)
    for spec in applicable:
        if spec.needs and any(options.get(n) for n in spec.needs):
            options[spec.id] = draw(st.booleans())
    match_format = str(options.get("format", "standard"))  # a format refuses what it does not use
    scoring = str(options.get("scoring", "winner_collects"))
    options = {key: v for key, v in options.items() if format_uses(match_format, scoring, key)}
    try:
        return Rules.create(game, **options)  # type: ignore[arg-type]
    except OptionError as error:  # a combination the engine refuses must say why
        raise AssertionError(f"compatible options refused: {error}") from None


def play_format(rules: Rules, players: int, rng: random.Random) -> None:
    """One deal, or the first deals of a match format, each played out and checked."""
    if rules.format in ("standard", "elim_within_deal"):
        game, _ = deal(rules, players, rng.randrange(players), rng)
        play_checked(game, rng)
        assert game.over and game.winner is not None
        return
    try:
        match = Match(rules, players, rng)
    except OptionError as error:  # e.g. a rotation for another number of players
        assert "players" in str(error) or "table" in str(error)
        assume(False)
        return
    for _ in range(MATCH_DEALS):
        if match.over:
            return
        match.start_deal()
        assert match.game is not None
        play_checked(match.game, rng)
        match.finish_deal()


@settings(max_examples=examples(100))
@given(rules=house_rules(), seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8))
def test_house_rule_games_keep_every_card_and_end(rules: Rules, seed: int, players: int) -> None:
    rng = random.Random(seed)
    try:
        play_format(rules, players, rng)
    except OptionError as error:  # too many cards dealt for the deck: refused, with the reason
        assert "hand_size" in str(error)


@settings(max_examples=examples(30))
@given(rules=house_rules(), seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_house_rule_games_are_reproducible(rules: Rules, seed: int, players: int) -> None:
    runs = []
    for _ in range(2):
        rng = random.Random(seed)
        try:
            game, opening = deal(rules, players, 0, rng)
        except OptionError:
            return
        runs.append(opening + play_checked(game, rng))
    assert runs[0] == runs[1]


def test_every_option_and_format_is_drawn() -> None:
    """The strategy reaches every option that applies to a game, and every format."""
    seen: set[str] = set()
    formats: set[str] = set()

    @settings(max_examples=1000, deadline=None, database=None)
    @given(rules=house_rules())
    def collect(rules: Rules) -> None:
        seen.update(rules.changed())
        formats.add(rules.format)

    collect()
    fixed = {spec.id for spec in OPTIONS if spec.kind is int and spec.id not in INTS}
    assert {spec.id for spec in OPTIONS} - seen <= {"deck", *fixed}
    assert formats == set(FORMATS)


@settings(max_examples=examples(60))
@given(rules=house_rules(), seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_quick_listing_agrees_with_the_full_one(rules: Rules, seed: int, players: int) -> None:
    """Under options that leave a turn's plays to matching alone (`Rules.quick_plays`,
    derived from the declarations), the quick listing is exactly the full one."""
    shaping = {s.id for s in OPTIONS if s.shapes_plays}
    defaults = {s.id: s.default for s in OPTIONS if s.id in shaping or shaping & set(s.needs)}
    rules = rules.replace(**defaults)  # type: ignore[arg-type]
    assert rules.quick_plays and not rules.replace(uno_state="one_card").quick_plays
    rng = random.Random(seed)
    game, _ = deal(rules, players, 0, rng)
    for _ in range(300):
        if game.over:
            return
        full = game.copy()
        full.plain = False
        assert game.legal_actions() == full.legal_actions()
        game.push(with_outcome(choose(game.moves(), rng), rng))


@pytest.mark.parametrize("seed", [787, 37, 103, 123, 139])
def test_eight_player_elimination_with_wrong_plays_ends(seed: int) -> None:
    """The case that once ran past the step cap: UNO Attack, 8 players, within-deal elimination
    and wrong-play penalties. Its length came from trading hands at random (a player about to
    go out swapping for the biggest hand), not from the penalties: a wrong play ends the turn,
    so each costs at most one turn and two presses."""
    rules = Rules.create("attack", format="elim_within_deal", wrong_play_penalty=True)
    rng = random.Random(seed)
    game, _ = deal(rules, 8, rng.randrange(8), rng)
    play_checked(game, rng)
    assert game.over and len(game.finished) == 7
