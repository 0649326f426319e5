"""The scoreboard's words by language, from the word files (`web_ui/words/<language>.toml`): UI
words, card and colour names (`card_words`), the rule options' words (`option_words`).

`t(key, language)` looks a word up; the templates get `t` and the page's language. The same
tables are sent to the page's script as JSON (`bundle`), so there is one source for both.
Words may hold `{placeholders}` that the script fills in (`{name}`, `{count}`, ...).
"""

from __future__ import annotations

from typing import Any, Final

from .card_words import CARD_NAMES, COLOUR_NAMES
from .option_words import CHOICES, OPTION_WORDS
from .words import ENGLISH, by_language, files_by_language

LANGUAGES: Final = tuple(files_by_language())
"""Every language there is a word file for."""

WORDS: Final[dict[str, dict[str, str]]] = by_language("words")
"""`WORDS[language][key]`: every word of the pages (their templates and scripts)."""

_OPERATOR_WORDS: Final[dict[str, dict[str, str]]] = by_language("operator")
"""What the operator must fix, rendered by the server above the set-up and admin pages for the
tablets that may act on it (and logged in English); never in a page's bundle."""

_SERVER_WORDS: Final = {language: WORDS[language] | _OPERATOR_WORDS[language] for language in WORDS}


def t(key: str, language: str) -> str:
    words = _SERVER_WORDS.get(language, _SERVER_WORDS[ENGLISH])
    return words.get(key, _SERVER_WORDS[ENGLISH].get(key, key))


def bundle(language: str) -> dict[str, Any]:
    """The tables a page's script needs."""
    return {
        "words": WORDS.get(language, WORDS[ENGLISH]),
        "cards": CARD_NAMES.get(language, CARD_NAMES[ENGLISH]),
        "colours": COLOUR_NAMES.get(language, COLOUR_NAMES[ENGLISH]),
        "choices": CHOICES.get(language, CHOICES[ENGLISH]),
        "option_words": OPTION_WORDS.get(language, OPTION_WORDS[ENGLISH]),
    }
