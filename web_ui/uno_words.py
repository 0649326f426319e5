"""The rules sheet's section on calling UNO and catching a player who forgot (RULES.md §5), in
the page's language (the word files' `uno` table): when to call, how to call at the table with
this scoreboard, and what a catch, a wrong call and a wrong catch cost in the game being played
with the options that are on (`uno_state` and the multi-card rules, `uno_after_trade_receiver`,
`uno_false_call_penalty`, `uno_false_accusation_penalty`, the jump-in rules).

`uno_sheet` picks the lines for a table's set-up; the page (`rules.html`) shows them. The
scoreboard's own words (the "Called UNO with it" tick, the catch buttons) are quoted from
`i18n`, so the sheet names what the players see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from controller.engine import EngineError, Rules

from .i18n import t
from .words import ENGLISH, by_language

WORDS: Final[dict[str, dict[str, str]]] = by_language("uno")
"""`WORDS[language][key]`: the section's titles and lines, from the word files' `uno` table."""


def word(key: str, language: str, **fill: str) -> str:
    text = WORDS.get(language, WORDS[ENGLISH])[key]
    for name, value in fill.items():
        text = text.replace(f"{{{name}}}", value)
    return text


def table_rules(setup: Mapping[str, Any]) -> Rules:
    """The rules a set-up plays by (the game's standard ones if its options no longer stand)."""
    game = setup.get("game", "attack")
    try:
        return Rules.create(game, **dict(setup.get("options") or {}))
    except (EngineError, TypeError):
        return Rules.create(game)


def uno_sheet(setup: Mapping[str, Any], language: str) -> dict[str, Any]:
    """The section for this set-up, in `language`: {title, parts: [{key, title, lines: [{key,
    text}]}]}."""
    rules = table_rules(setup)
    players = list(setup.get("players") or ["A", "B"])
    forgot, catcher = players[0], players[1 % len(players)]
    pays = word("uno_pays_attack" if rules.attack else "uno_pays_classic", language)

    when = ["uno_when_one_card"]
    if rules.uno_rule == "one_card_or_identical":
        when.append("uno_when_identical")
    elif rules.uno_rule == "one_card_or_same_face":
        when.append("uno_when_same_face")
    when.append("uno_when_again")
    if rules.attack:
        when.append(
            "uno_when_trade_receiver" if rules.uno_after_trade_receiver else "uno_when_trade"
        )

    scoreboard = {
        "toggle": t("call_uno", language),
        "exposed": t("exposed", language).replace("{name}", forgot),
        "late": t("uno_for", language).replace("{name}", forgot),
        "catch": t("catches", language).replace("{name}", catcher).replace("{target}", forgot),
    }
    tracked = setup.get("mode", "tracked") == "tracked"
    how = ["uno_how_tick", "uno_how_missed"] if tracked else ["uno_how_score_only"]

    catch = ["uno_catch_window"]
    if rules.jumpin:
        catch.append("uno_catch_jumpin")
    catch += ["uno_catch_penalty", "uno_catch_late_call"]
    catch.append("uno_false_call" if rules.uno_false_call_penalty else "uno_false_call_free")
    catch.append(
        "uno_false_catch" if rules.uno_false_accusation_penalty else "uno_false_catch_free"
    )

    fill = {**scoreboard, "pays": pays}
    parts = [
        {
            "key": part,
            "title": word(part, language),
            "lines": [{"key": key, "text": word(key, language, **fill)} for key in keys],
        }
        for part, keys in (("uno_when", when), ("uno_how", how), ("uno_catch", catch))
    ]
    return {"title": word("uno_title", language), "parts": parts}
