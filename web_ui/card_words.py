"""Card and colour names for the scoreboard, English and Chinese (as in the rule texts).

`i18n` hands them to the pages by language; the page's script (`cardName` in api.js) puts a
colour's name before a coloured card's face: "Red Hit 2", "红 罚按牌 2".

The Chinese names are the rule texts' words (the UNO Attack leaflet's 罚按牌, 交换牌, 负载牌,
万用牌, 万用罚按牌, 王牌; the classic text's 跳过, 王牌 with its +4), and a name keeps the
number its card carries, as the English does: 罚按牌 alone would lose the 2 of Hit 2. Every
card of a deck reads differently from every other (tests/web/test_i18n.py).
"""

from __future__ import annotations

from typing import Final

CARD_NAMES: Final[dict[str, dict[str, str]]] = {
    "en": {
        "S": "Skip", "R": "Reverse", "+2": "Draw Two", "H2": "Hit 2", "TH": "Trade Hands",
        "DA": "Discard All", "W": "Wild", "W4": "Wild Draw Four", "WAH": "Wild All Hit",
        "WHF": "Wild Hit-Fire", "?": "a card",
    },
    "zh-CN": {
        "S": "跳过", "R": "反转", "+2": "罚两张", "H2": "罚按牌 2", "TH": "交换牌",
        "DA": "负载牌", "W": "万用牌", "W4": "王牌+4", "WAH": "万用罚按牌", "WHF": "王牌",
        "?": "一张牌",
    },
}  # fmt: skip

COLOUR_NAMES: Final[dict[str, dict[str, str]]] = {
    "en": {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Blue"},
    "zh-CN": {"R": "红", "Y": "黄", "G": "绿", "B": "蓝"},
}
