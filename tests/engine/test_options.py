"""Rule options: defaults, validation naming the option, parsing from text."""

from __future__ import annotations

import dataclasses
import random

import pytest

from controller.engine import OPTIONS, GameKind, OptionError, Rules, deal
from controller.engine.deal import largest_hand
from controller.engine.decks import DECKS
from controller.engine.options import OPTIONS_BY_ID


def test_defaults_follow_the_feature_table() -> None:
    attack, classic = Rules.create("attack"), Rules.create("classic")
    assert attack.deck == "attack_1998" and classic.deck == "classic"
    assert attack.hand_size == 7 and attack.scoring == "winner_collects" and attack.target == 500
    assert classic.wd4_bluffing and classic.may_draw_when_playable
    assert not classic.must_play_drawn_if_playable and attack.suggestion_penalty
    assert attack.changed() == {} and classic.changed() == {}


def test_registry_describes_every_field() -> None:
    fields = {f.name for f in dataclasses.fields(Rules)} - {"game", "edition"}  # no options
    assert fields == {spec.id for spec in OPTIONS}
    for spec in OPTIONS:
        assert spec.en and spec.zh and spec.section.startswith("§")
        assert getattr(Rules(), spec.id) == spec.default or spec.id == "deck"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour_blind": True}, "unknown option 'colour_blind'"),
        ({"hand_size": 0}, "hand_size must be between 1 and 53, not 0"),
        ({"hand_size": "7"}, "hand_size must be a whole number"),
        ({"replay_any_count": 1}, "replay_any_count must be true or false"),
        ({"scoring": "golf"}, "scoring must be one of"),
        ({"start_wild": "free_lead"}, "start_wild applies to classic UNO only"),
        ({"deck": "classic"}, "deck: classic is not a attack deck"),
        ({"deck": "pinochle"}, "deck must be one of"),
    ],
)
def test_bad_options_name_the_option(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Rules.create("attack", **options)  # type: ignore[arg-type]


def test_bad_game_is_an_option_error() -> None:
    with pytest.raises(OptionError, match="game must be"):
        Rules.create("poker")


def test_from_text_parses_each_type() -> None:
    rules = Rules.from_text(
        "classic",
        {"wd4_bluffing": "off", "hand_size": "9", "start_wild": "random", "deck": "classic"},
    )
    assert (rules.wd4_bluffing, rules.hand_size, rules.start_wild) == (False, 9, "random")
    assert rules.changed() == {"wd4_bluffing": False, "hand_size": 9, "start_wild": "random"}
    with pytest.raises(OptionError, match="true or false"):
        Rules.from_text("classic", {"wd4_bluffing": "perhaps"})
    with pytest.raises(OptionError, match="whole number"):
        Rules.from_text("classic", {"target": "lots"})


def test_replace_validates() -> None:
    rules = Rules.create(GameKind.CLASSIC).replace(target=200)
    assert rules.target == 200
    with pytest.raises(OptionError):
        rules.replace(target=-1)


def test_hand_size_too_big_for_the_deck_names_the_option() -> None:
    rules = Rules.create("classic", hand_size=15)
    with pytest.raises(OptionError, match="option hand_size: 10 players x 15 cards"):
        deal(rules, 10, 0, random.Random(1))
    with pytest.raises(OptionError, match="option hand_size: 7 players x 15 cards leave 3"):
        deal(rules, 7, 0, random.Random(1))  # the 3 left could all be Wild Draw Fours (§2.5)
    game, _ = deal(rules, 6, 0, random.Random(1))
    assert all(len(hand) in (15, 17) for hand in game.hands)


@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        ("hand_size", "0", "option hand_size must be between 1 and 53, not 0"),
        ("hand_size", "60", "option hand_size must be between 1 and 53, not 60"),
        ("target", "0", "option target must be between 1 and 100000, not 0"),
        ("teams", "9", "option teams must be between 2 and 5, not 9"),
        ("hand_size", "many", "option hand_size must be a whole number, not 'many'"),
    ],
)
def test_a_number_out_of_range_is_told_its_range(key: str, text: str, message: str) -> None:
    """Issue 21: the range error was swallowed and came out as "must be a whole number"."""
    with pytest.raises(OptionError) as refused:
        Rules.from_text("classic", {key: text})
    assert str(refused.value) == message


def test_the_hand_size_range_is_the_most_any_deck_deals_two_players() -> None:
    """§2.3's exact bound decides per deck and players; the range only stops what no deck
    can deal (2 players of the 112-card Attack deck: 107 cards, 53 each)."""
    most = max(largest_hand(Rules.create(DECKS[name].game, deck=name), 2) for name in DECKS)
    assert OPTIONS_BY_ID["hand_size"].maximum == most == 53


@pytest.mark.parametrize(
    ("game", "options", "players", "largest"),
    [
        ("classic", {"hand_size": 40}, 3, 34),  # 108 - 1 - 4 Wild Draw Fours = 103 cards
        ("classic", {"hand_size": 30, "start_wild": "redraw"}, 4, 24),  # 8 wilds go back: 99
        ("attack", {"hand_size": 53}, 3, 35),  # 112 - 1 - 4 Trade Hands = 107
        ("attack", {"hand_size": 11}, 10, 10),
    ],
)
def test_a_hand_too_big_to_deal_names_the_largest_that_fits(
    game: str, options: dict[str, object], players: int, largest: int
) -> None:
    rules = Rules.create(game, **options)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=f"deal at most {largest} cards each to {players} p"):
        deal(rules, players, 0, random.Random(1))
    deal(rules.replace(hand_size=largest), players, 0, random.Random(1))  # and it fits
