"""Card and colour names for the scoreboard, from the word files' `cards` and `colours` tables
(as the rule texts name them).

`i18n` hands them to the pages by language; the page's script (`cardName` in api.js) puts a
colour's name before a coloured card's face: "Red Hit 2", "红 罚按牌 2". Every card of a deck
reads differently from every other (tests/web/test_i18n.py).
"""

from __future__ import annotations

from typing import Final

from .words import by_language

CARD_NAMES: Final[dict[str, dict[str, str]]] = by_language("cards")
"""`CARD_NAMES[language][face]`: a card's name without its colour ("?": a card nobody saw)."""

COLOUR_NAMES: Final[dict[str, dict[str, str]]] = by_language("colours")
"""`COLOUR_NAMES[language][colour]`: R, Y, G, B by name."""
