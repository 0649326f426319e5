"""The set-up page's rule options in words, from the word files' `options`, `choices` and
`sections` tables: what each option does at the table (a short label and a hint with the
detail), its choices, and the titles of the parts of the rules the options are grouped under.
`i18n` hands them to the pages by language.

The engine's own meanings (`controller.engine.options`) are written for the rules and the
command line; these are for a family at the table. An option may also have words for one match
format (`target@elim_tournament`), shown when that format is chosen.
"""

from __future__ import annotations

from typing import Final

from .words import by_language

OPTION_WORDS: Final[dict[str, dict[str, dict[str, str]]]] = by_language("options")
"""`OPTION_WORDS[language][option]`: {"label", "hint"}, what the option does in plain words
(`option@format` for the words one match format needs)."""

CHOICES: Final[dict[str, dict[str, dict[str, str]]]] = by_language("choices")
"""`CHOICES[language][option][value]`: the words for each allowed value of each option."""

SECTIONS: Final[dict[str, dict[str, str]]] = by_language("sections")
"""`SECTIONS[language][section]`: the title of each RULES.md section that has options."""
