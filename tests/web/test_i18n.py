"""The words: every language's file has the same keys and placeholders, card names follow the
rule texts, every option's choices and sections have names, and so do the house rules and formats
the state reports."""

from __future__ import annotations

import re
import typing
from typing import Any

import pytest

from controller.engine import OPTIONS, DutyKind, Rules
from controller.engine.cards import parse_card
from controller.engine.decks import DECKS
from controller.engine.events import Event, Why
from web_ui.i18n import (
    CARD_NAMES,
    CHOICES,
    COLOUR_NAMES,
    LANGUAGES,
    WORDS,
    bundle,
    t,
)
from web_ui.option_words import SECTIONS
from web_ui.words import ENGLISH, files_by_language


def flat(tables: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Every word of a language's file by its path (`words.undo`, `options.deck.hint`)."""
    found: dict[str, Any] = {}
    for key, value in tables.items():
        if isinstance(value, dict):
            found |= flat(value, f"{prefix}{key}.")
        else:
            found[prefix + key] = value
    return found


def placeholders(word: str) -> set[str]:
    return set(re.findall(r"\{\w+\}", word))


def differences(english: dict[str, Any], other: dict[str, Any]) -> dict[str, list[str]]:
    """What a language's words (`flat`) lack, add or word differently from the English ones."""
    return {
        "missing": sorted(english.keys() - other.keys()),
        "not in English": sorted(other.keys() - english.keys()),
        "other placeholders": [
            key
            for key in english.keys() & other.keys()
            if placeholders(english[key]) != placeholders(other[key])
        ],
    }


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != ENGLISH])
def test_every_language_has_the_same_words_and_placeholders_as_english(language: str) -> None:
    english = flat(files_by_language()[ENGLISH])
    other = flat(files_by_language()[language])
    assert differences(english, other) == {
        "missing": [],
        "not in English": [],
        "other placeholders": [],
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_is_a_text(language: str) -> None:
    words = flat(files_by_language()[language])
    assert [key for key, word in words.items() if not isinstance(word, str) or not word] == []


def test_the_files_are_read_once() -> None:
    assert files_by_language() is files_by_language()
    assert WORDS["zh-CN"] is files_by_language()["zh-CN"]["words"]


@pytest.mark.parametrize(
    ("text", "language", "name"),
    [
        ("RH2", "en", "Red Hit 2"),
        ("RH2", "zh-CN", "红 罚按牌 2"),
        ("G+2", "zh-CN", "绿 罚两张"),
        ("W4", "zh-CN", "王牌+4"),
        ("GS", "zh-CN", "绿 跳过"),
        ("YR", "zh-CN", "黄 反转"),
        ("BTH", "zh-CN", "蓝 交换牌"),
        ("RDA", "zh-CN", "红 负载牌"),
        ("W", "zh-CN", "万用牌"),
        ("WAH", "zh-CN", "万用罚按牌"),
        ("WHF", "zh-CN", "王牌"),
        ("B7", "en", "Blue 7"),
    ],
)
def test_card_name_follows_the_rule_texts(text: str, language: str, name: str) -> None:
    assert page_card_name(text, bundle(language)) == name


def page_card_name(text: str, tables: dict[str, typing.Any]) -> str:
    """What the page's script (`cardName` in api.js) makes of a card from the bundle's tables."""
    coloured = text[:1] in "RYGB" and len(text) > 1
    face = text[1:] if coloured else text
    name = tables["cards"].get(face, face)
    return f"{tables['colours'].get(text[0], text[0])} {name}" if coloured else name


DECK_CARDS = {name: [card.text for card, _ in deck.counts] + ["?"] for name, deck in DECKS.items()}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("deck", DECK_CARDS)
def test_every_card_of_a_deck_has_a_name_of_its_own(deck: str, language: str) -> None:
    """Two different cards of one deck (and a card nobody has seen) never read the same."""
    names: dict[str, list[str]] = {}
    for text in DECK_CARDS[deck]:
        names.setdefault(page_card_name(text, bundle(language)), []).append(text)
    assert {name: cards for name, cards in names.items() if len(cards) > 1} == {}


NUMBER_WORDS = {"2": ("2", "Two", "两"), "4": ("4", "Four", "四")}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("deck", DECK_CARDS)
def test_a_card_name_keeps_the_number_on_its_face(deck: str, language: str) -> None:
    """The 2 of Hit 2 and Draw Two, the 4 of Wild Draw Four, a number card's number."""
    lost = []
    for text in DECK_CARDS[deck]:
        number = "".join(ch for ch in str(parse_card(text).face) if ch.isdigit())
        name = page_card_name(text, bundle(language))
        if number and not any(word in name for word in NUMBER_WORDS.get(number, (number,))):
            lost.append(f"{text}: {name}")
    assert lost == []


def test_t_falls_back_to_english_then_the_key() -> None:
    assert t("deal", "fr") == "Deal"
    assert t("no-such-word", "zh-CN") == "no-such-word"


def test_bundle_holds_the_tables_for_the_script() -> None:
    tables = bundle("zh-CN")
    assert tables["cards"] is CARD_NAMES["zh-CN"]
    assert tables["colours"] is COLOUR_NAMES["zh-CN"]
    assert tables["words"]["undo"] == "撤销"


def test_words_name_every_reason_duty_and_event_of_the_engine() -> None:
    words = WORDS["en"]
    assert [why.value for why in Why if f"why_{why.value}" not in words] == []
    assert [kind.value for kind in DutyKind if f"duty_{kind.value}" not in words] == []
    events = [cls.__name__ for cls in typing.get_args(Event)]
    assert [name for name in events if f"ev_{name}" not in words] == []


def test_choices_name_every_value_of_every_option_in_both_languages() -> None:
    for language in LANGUAGES:
        missing = [
            f"{option.id}={value}"
            for option in OPTIONS
            for value in option.choices
            if not CHOICES[language].get(option.id, {}).get(value)
        ]
        assert missing == [], language
    assert CHOICES["en"]["scoring"]["winner_collects"] == "Winner collects the others' points"
    assert CHOICES["zh-CN"]["format"]["elim_within_deal"] == "淘汰制：最后持牌者输"


def test_choices_name_only_real_options_and_values() -> None:
    choices = {option.id: set(option.choices) for option in OPTIONS}
    for language in LANGUAGES:
        for option, values in CHOICES[language].items():
            assert set(values) == choices[option], (language, option)


def test_sections_title_every_section_of_the_options() -> None:
    sections = {option.section for option in OPTIONS}
    for language in LANGUAGES:
        assert sections <= set(SECTIONS[language]), language


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"jumpin_numbers": True}, "house_jumpin_{jumpin}"),
        ({"jumpin_identical": True}, "house_jumpin_{jumpin}"),
        ({"multi_same_face": True}, "house_multi_{multi}"),
        ({"multi_identical": True}, "house_multi_{multi}"),
    ],
)
def test_words_name_the_house_rules_the_state_reports(options: dict[str, bool], words: str) -> None:
    rules = Rules.create("classic", **options)
    key = words.format(jumpin=rules.jumpin, multi=rules.multi)
    assert key in WORDS["en"] and key in WORDS["zh-CN"]


def test_words_name_every_format_but_the_standard_one() -> None:
    formats = next(option for option in OPTIONS if option.id == "format").choices
    assert [f for f in formats if f != "standard" and f"format_{f}" not in WORDS["en"]] == []


def test_bundle_sends_the_choices_in_the_pages_language() -> None:
    assert bundle("zh-CN")["choices"]["team_scoring"]["team_penalty"].startswith("各队")
    assert bundle("fr")["choices"] is CHOICES["en"]
