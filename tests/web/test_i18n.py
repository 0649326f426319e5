"""The words: both languages know every key, card names follow the rule texts."""

from __future__ import annotations

import re
import typing

import pytest

from controller.engine import DutyKind
from controller.engine.events import Event, Why
from web_ui.i18n import CARD_NAMES, COLOUR_NAMES, LANGUAGES, WORDS, bundle, card_name, t


def test_words_both_languages_have_the_same_keys() -> None:
    assert set(WORDS["en"]) == set(WORDS["zh-CN"])
    assert all(WORDS[language][key] for language in LANGUAGES for key in WORDS["en"])


def test_words_placeholders_agree_between_languages() -> None:
    for key, english in WORDS["en"].items():
        chinese = WORDS["zh-CN"][key]
        assert set(re.findall(r"\{\w+\}", english)) == set(re.findall(r"\{\w+\}", chinese)), key


@pytest.mark.parametrize(
    ("text", "language", "name"),
    [
        ("RH2", "en", "Red Hit 2"),
        ("RH2", "zh-CN", "红 罚按牌"),
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
    assert card_name(text, language) == name


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
