"""Chinese and English for the scoreboard: UI words, card names (as in the rule texts), colours.

`t(key, language)` looks a word up; the templates get `t` and the page's language. The same
tables are sent to the page's script as JSON, so there is one source for both.
"""

from __future__ import annotations

from typing import Final

LANGUAGES: Final = ("en", "zh-CN")

CARD_NAMES: Final[dict[str, dict[str, str]]] = {
    "en": {
        "S": "Skip", "R": "Reverse", "+2": "Draw Two", "H2": "Hit 2", "TH": "Trade Hands",
        "DA": "Discard All", "W": "Wild", "W4": "Wild Draw Four", "WAH": "Wild All Hit",
        "WHF": "Wild Hit-Fire", "?": "a card",
    },
    "zh-CN": {
        "S": "跳过", "R": "反转", "+2": "罚两张", "H2": "罚按牌", "TH": "交换牌",
        "DA": "负载牌", "W": "万用牌", "W4": "王牌+4", "WAH": "万用罚按牌", "WHF": "王牌",
        "?": "一张牌",
    },
}  # fmt: skip

COLOUR_NAMES: Final[dict[str, dict[str, str]]] = {
    "en": {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Blue"},
    "zh-CN": {"R": "红", "Y": "黄", "G": "绿", "B": "蓝"},
}

WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "title": "UNO Attack", "turn": "Turn", "direction": "Direction", "top": "Top card",
        "colour": "Colour", "hand": "Cards", "score": "Score", "owes": "Owes",
        "launcher": "Launcher", "setup": "Set up", "play": "Play", "history": "History",
        "pin": "Table PIN", "unlock": "Unlock", "language": "中文", "deal": "Deal",
        "undo": "Undo", "press": "Press", "draw": "Draw", "pass": "Keep it", "uno": "UNO!",
        "catch": "Catch!", "challenge": "Challenge", "accept": "Accept", "winner": "Winner",
        "round": "Round", "standings": "Standings", "ready": "Ready", "suspense": "Suspense…",
        "firing": "Firing!", "jam": "Jam", "empty": "Empty", "fault": "Fault", "none": "Manual",
        "closed": "Off",
    },
    "zh-CN": {
        "title": "UNO 冲击", "turn": "轮到", "direction": "方向", "top": "顶牌",
        "colour": "颜色", "hand": "手牌", "score": "得分", "owes": "需按",
        "launcher": "发牌机", "setup": "设置", "play": "出牌", "history": "记录",
        "pin": "牌桌密码", "unlock": "解锁", "language": "English", "deal": "发牌",
        "undo": "撤销", "press": "按键", "draw": "摸牌", "pass": "保留", "uno": "UNO!",
        "catch": "抓！", "challenge": "质疑", "accept": "接受", "winner": "赢家",
        "round": "局", "standings": "排名", "ready": "就绪", "suspense": "悬念…",
        "firing": "发射！", "jam": "卡牌", "empty": "空了", "fault": "故障", "none": "手动",
        "closed": "关闭",
    },
}  # fmt: skip


def t(key: str, language: str) -> str:
    return WORDS.get(language, WORDS["en"]).get(key, WORDS["en"].get(key, key))


def card_name(text: str, language: str) -> str:
    """`RH2` → "Red Hit 2" / "红 罚按牌"; numbers keep their digit."""
    colour, face = (text[0], text[1:]) if text[:1] in "RYGB" and len(text) > 1 else ("", text)
    names = CARD_NAMES.get(language, CARD_NAMES["en"])
    colours = COLOUR_NAMES.get(language, COLOUR_NAMES["en"])
    parts = [colours[colour]] if colour else []
    parts.append(names.get(face, face))
    return " ".join(parts)


def bundle(language: str) -> dict[str, dict[str, str]]:
    """The tables a page's script needs."""
    return {
        "words": WORDS.get(language, WORDS["en"]),
        "cards": CARD_NAMES.get(language, CARD_NAMES["en"]),
        "colours": COLOUR_NAMES.get(language, COLOUR_NAMES["en"]),
    }
