"""The rules sheet's section on calling UNO and catching a player who forgot (RULES.md §5), in
English beside Chinese: when to call, how to call at the table with this scoreboard, and what a
catch, a wrong call and a wrong catch cost in the game being played with the options that are
on (`uno_state` and the multi-card rules, `uno_after_trade_receiver`, `uno_false_call_penalty`,
`uno_false_accusation_penalty`, the jump-in rules).

`uno_sheet` picks the lines for a table's set-up; the page (`rules.html`) shows them. The
scoreboard's own words (the "Called UNO with it" tick, the catch buttons) are quoted from
`i18n`, so the sheet names what the players see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from controller.engine import EngineError, Rules

from .i18n import LANGUAGES, t

UNO_PAIRS: Final[dict[str, tuple[str, str]]] = {
    "uno_title": ("Calling UNO", "喊 UNO"),
    # when
    "uno_when": ("When to call", "什么时候喊"),
    "uno_when_one_card": (
        "When a play leaves you with one card, call “UNO!” as that card goes down: saying it "
        "as you play your second-to-last card is in time.",
        "出牌后手里只剩一张牌时，要在出牌的同时喊“UNO!”：打出倒数第二张牌时喊就算及时。",
    ),
    "uno_when_identical": (
        "At this table also when every card you hold is the very same card (two green 4s, "
        "say): they could all go down at once.",
        "本桌规则：手里的牌全都完全相同（比如两张绿 4）时也要喊，因为它们可以一起打出。",
    ),
    "uno_when_same_face": (
        "At this table also when every card you hold shows the same number or symbol, in any "
        "colours: they could all go down at once.",
        "本桌规则：手里的牌全是同一个数字或同一种功能（颜色不限）时也要喊，因为它们可以一起打出。",
    ),
    "uno_when_again": (
        "Call again every time you come back down to one card.",
        "每次重新只剩一张牌时，都要再喊一次。",
    ),
    "uno_when_trade": (
        "Trade Hands: the player who plays it calls if the swap leaves them one card; the "
        "player handed a one-card hand need not call.",
        "交换牌：出交换牌的人换完只剩一张牌时要喊；换到一张牌的人不用喊。",
    ),
    "uno_when_trade_receiver": (
        "Trade Hands: the player who plays it calls if the swap leaves them one card, and at "
        "this table so does a player handed a one-card hand.",
        "交换牌：出交换牌的人换完只剩一张牌时要喊；本桌规则：换到一张牌的人也要喊。",
    ),
    # how, with this scoreboard
    "uno_how": ("At the table, with this scoreboard", "在牌桌上用本记分板"),
    "uno_how_tick": (
        "Say it out loud, and tick “{toggle}” on the tablet before you tap the card.",
        "大声喊出来，并在平板上点这张牌之前勾选“{toggle}”。",
    ),
    "uno_how_missed": (
        "Not ticked? The scoreboard says so (“{exposed}”) and offers “{late}”, a late call, "
        "and “{catch}” to each other player: the first tap counts.",
        "没有勾选时，记分板会提示（“{exposed}”），并显示补喊按钮“{late}”，其他每位玩家有"
        "“{catch}”按钮：谁先点算谁的。",
    ),
    "uno_how_score_only": (
        "This tablet only keeps the score: call, catch and pay with the cards at the table, "
        "as below.",
        "本平板只记分：喊 UNO、抓人和受罚都在牌桌上进行，规则如下。",
    ),
    # catching
    "uno_catch": ("Catching a player who forgot", "抓漏喊 UNO 的人"),
    "uno_catch_window": (
        "Anyone may catch them from the moment their card lands until the next player begins "
        "(plays, draws or presses). After that it is too late: nobody pays.",
        "从那张牌落下起，到下一位玩家开始行动（出牌、摸牌或按发牌机）之前，谁都可以抓。"
        "过了这个时机就太晚了：谁也不罚。",
    ),
    "uno_catch_jumpin": (
        "A jump-in by another player ends that moment too.",
        "别人抢牌也会结束这个时机。",
    ),
    "uno_catch_penalty": ("Caught: the player who forgot {pays}.", "被抓到：漏喊的人{pays}。"),
    "uno_catch_late_call": (
        "Calling UNO before anyone catches you is still in time: no penalty.",
        "在被抓之前补喊也算数：不罚。",
    ),
    "uno_false_call": (
        "Calling UNO without being down to one card: the caller {pays}.",
        "还没到一张牌就喊 UNO：喊的人{pays}。",
    ),
    "uno_false_call_free": (
        "A wrong UNO call costs nothing at this table.",
        "本桌规则：喊错 UNO 不罚。",
    ),
    "uno_false_catch": (
        "Catching a player who called UNO, or who did not have to: the catcher {pays}.",
        "抓了已经喊过或本来不用喊的人：抓人的人{pays}。",
    ),
    "uno_false_catch_free": (
        "A wrong catch costs nothing at this table.",
        "本桌规则：抓错人不罚。",
    ),
    "uno_pays_classic": ("draws 2 cards", "摸 2 张牌"),
    "uno_pays_attack": ("presses the launcher twice", "按发牌机 2 次"),
}

WORDS: Final = {
    language: {key: pair[index] for key, pair in UNO_PAIRS.items()}
    for index, language in enumerate(LANGUAGES)
}


def word(key: str, language: str, **fill: str) -> str:
    text = WORDS.get(language, WORDS["en"])[key]
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
