"""Engine actions and events to and from JSON-ready dicts: what the API takes, the store keeps
and the scoreboard shows. Bad input raises `InvalidInput` with a reason a person can read."""

from __future__ import annotations

import dataclasses
import types
import typing
import unicodedata
from collections.abc import Callable
from typing import Any

from controller.engine import Action, Card, Colour, Event, parse_card, parse_colour, to_dict
from controller.store import Record

ACTIONS: dict[str, type] = {cls.__name__: cls for cls in typing.get_args(Action)}
"""Every engine action by its name, as the API and the log spell it."""


class InvalidInput(ValueError):
    """The input is malformed (HTTP 400, CLI exit 2); the reason says what to fix. Named apart
    from werkzeug's `BadRequest`, an HTTP exception the table knows nothing of."""


def action_from_dict(data: object) -> Action:
    """`{"type": "Play", "seat": 0, "card": "R5"}` → Play(0, R5)."""
    if not isinstance(data, dict):
        raise InvalidInput("an action must be a JSON object")
    kind = data.get("type")
    cls = ACTIONS.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        raise InvalidInput(f"unknown action type {kind!r}; one of {', '.join(ACTIONS)}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(data) - set(fields) - {"type"}
    if unknown:
        raise InvalidInput(f"{kind} has no field {sorted(unknown)[0]!r}")
    hints = _HINTS[kind]
    values = {name: _field(kind, name, hints[name], data[name]) for name in fields if name in data}
    try:
        return cls(**values)  # type: ignore[no-any-return]
    except TypeError:
        missing = [n for n, f in fields.items() if n not in data and _required(f)]
        raise InvalidInput(f"{kind} needs {', '.join(missing)}") from None


def _required(field: dataclasses.Field[Any]) -> bool:
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


def _field(kind: str, name: str, hint: object, value: object) -> object:
    """Convert one JSON value by the field's type (`X | None` also takes null)."""
    union = typing.get_origin(hint) in (typing.Union, types.UnionType)
    choices = typing.get_args(hint) if union else (hint,)
    if value is None and type(None) in choices:
        return None
    parsers = [_PARSERS[c] for c in choices if c in _PARSERS]
    try:
        if len(parsers) != 1:
            raise InvalidInput("not understood")
        return parsers[0](value)
    except ValueError as error:
        raise InvalidInput(f"{kind}.{name}: {error}") from None


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput("true or false")
    return value


def _cards(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InvalidInput("a list of cards")
    return tuple(parse_card(_str(v)) for v in value)


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput("a whole number")
    return value


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise InvalidInput("text")
    return value


_PARSERS: dict[object, Callable[[object], object]] = {
    int: _int,
    bool: _bool,
    Card: lambda value: parse_card(_str(value)),
    Colour: lambda value: parse_colour(_str(value)),
    tuple[Card, ...]: _cards,
}
"""How a JSON value becomes each type an action's field may have, keyed by the type itself."""

_HINTS: dict[str, dict[str, Any]] = {
    name: typing.get_type_hints(cls) for name, cls in ACTIONS.items()
}
"""Every action's field types, resolved once from its annotations."""


def action_to_dict(action: Action) -> dict[str, Any]:
    return to_dict(action)


def events_to_dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [to_dict(event) for event in events]


def record_to_dict(record: Record) -> dict[str, Any]:
    """A logged record as every reader sees it (history, event streams, command answers): the
    same fields everywhere. The command and the key that made it stay in the log."""
    return {
        "seq": record.seq,
        "kind": record.kind,
        "actor": record.actor,
        "at": record.at,
        "events": record.events,
    }


# ---------------------------------------------------------------- names and numbers from people

NAME_LENGTH = 24
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories no name may hold: controls, format characters (bidi overrides, zero-width
spaces and joiners), lone surrogates, private-use and unassigned code points, line breaks."""
_BLANK = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
"""Characters that print nothing though Unicode files them as letters or marks: the combining
grapheme joiner, the Hangul fillers, Khmer's inherent vowels, the blank Braille pattern."""


def clean_name(text: object, what: str = "a name", length: int = NAME_LENGTH) -> str:
    """A name a person typed, as it will be kept and shown: NFC, trimmed, 1 to 24 characters,
    every character visible (no controls, bidi overrides, zero-width or unpaired characters),
    and something to see: not only spaces and marks (a name that renders blank is refused)."""
    if not isinstance(text, str):
        raise InvalidInput(f"{what} must be text")
    name = unicodedata.normalize("NFC", text).strip()
    if name and not any(_shows(char) for char in name):
        raise InvalidInput(f"{what} must show a letter, digit or sign: it would look blank")
    if any(unicodedata.category(char) in _HIDDEN or char in _BLANK for char in name):
        raise InvalidInput(f"{what} may not hold control, invisible or direction characters")
    if not 1 <= len(name) <= length:
        raise InvalidInput(f"{what} must be 1 to {length} characters")
    return name


def _shows(char: str) -> bool:
    """Whether `char` prints something of its own (a space, a mark alone or an invisible
    character shows nothing)."""
    category = unicodedata.category(char)
    return not (char.isspace() or category[0] == "M" or category in _HIDDEN or char in _BLANK)


def name_key(name: str) -> str:
    """What two names must not share: `Ann`, `ANN` and full-width `Ａｎｎ` are the same name."""
    return unicodedata.normalize("NFKC", name).casefold()


def clean_names(names: object) -> list[str]:
    """The players' names of a set-up: each cleaned, no two the same after normalisation."""
    if not isinstance(names, list):
        raise InvalidInput("players must be a list of names")
    if len(names) > 10:
        raise InvalidInput(f"a table has 2 to 10 players, not {len(names)}")
    cleaned = [clean_name(name, f"player {seat + 1}'s name") for seat, name in enumerate(names)]
    if len({name_key(name) for name in cleaned}) != len(cleaned):
        raise InvalidInput("two players have the same name")
    return cleaned


def whole_number(raw: str, what: str, maximum: int) -> int:
    """A query parameter or header that must be a whole number from 0 to `maximum`, written in
    ASCII digits (`²` and full-width digits are refused, and so are numbers too long to be a
    sequence number)."""
    if not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(maximum)):
        raise InvalidInput(f"{what} must be a whole number from 0 to {maximum}")
    value = int(raw)
    if value > maximum:
        raise InvalidInput(f"{what} must be a whole number from 0 to {maximum}")
    return value
