"""Every house rule and match-format option in plain words on the set-up page: a short label
saying what it does at the table, and a hint with the detail, in English and Chinese, with no
specification jargon (section numbers, "threshold", "preset", "=" and the like)."""

from __future__ import annotations

import re

import pytest

from controller.engine import FORMATS, OPTIONS
from web_ui.i18n import CHOICES, LANGUAGES, OPTION_WORDS, bundle
from web_ui.option_words import SECTIONS

JARGON: dict[str, tuple[str, ...]] = {
    "en": (
        "§", "=", "threshold", "preset", "legal", "seed 0", "auto", "victim", "turned-up",
        "active colour", "n skips", "default", "(official)", "e.g.", "etc.",
    ),
    "zh-CN": ("§", "=", "淘汰线", "合法", "预设", "空=", "默认", "万能牌"),
}  # fmt: skip
"""Words that read like the specification, not like a family at the table."""

LONGEST_LABEL = {"en": 52, "zh-CN": 22}
OPTION_ID = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")


def _jargon_in(text: str, language: str) -> list[str]:
    found = [word for word in JARGON[language] if word in text.lower()]
    return found + OPTION_ID.findall(text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_option_has_a_plain_label_and_hint(language: str) -> None:
    words = OPTION_WORDS[language]
    missing = [o.id for o in OPTIONS if not words.get(o.id, {}).get("label")]
    missing += [o.id for o in OPTIONS if not words.get(o.id, {}).get("hint")]
    assert missing == []
    for key, entry in words.items():
        assert entry["label"] != entry["hint"], key
        assert len(entry["label"]) <= LONGEST_LABEL[language], (key, entry["label"])
        assert _jargon_in(entry["label"] + " " + entry["hint"], language) == [], (key, entry)


@pytest.mark.parametrize("language", LANGUAGES)
def test_choices_and_section_titles_carry_no_jargon(language: str) -> None:
    texts = [*SECTIONS[language].values()]
    texts += [text for values in CHOICES[language].values() for text in values.values()]
    assert [t for t in texts if "§" in t or "=" in t] == []


def test_words_for_one_format_belong_to_a_field_of_that_format() -> None:
    for language in LANGUAGES:
        for key in OPTION_WORDS[language]:
            option, _, format_name = key.partition("@")
            assert option in {o.id for o in OPTIONS}, key
            if format_name:
                assert option in FORMATS[format_name].fields, key


def test_bundle_sends_the_option_words_in_the_pages_language() -> None:
    assert bundle("zh-CN")["option_words"] is OPTION_WORDS["zh-CN"]
    assert bundle("fr")["option_words"] is OPTION_WORDS["en"]
    assert bundle("en")["option_words"]["target@elim_tournament"]["label"].startswith("Players out")
