"""Engine actions and events to and from JSON-ready dicts: what the API takes, the store keeps
and the scoreboard shows. Bad input raises `BadRequest` with a reason a person can read."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from typing import Any

from controller.engine import Action, Card, parse_card, parse_colour
from controller.engine.events import Event, to_dict

ACTIONS: dict[str, type] = {cls.__name__: cls for cls in typing.get_args(Action)}
"""Every engine action by its name, as the API and the log spell it."""


class BadRequest(ValueError):
    """The request is malformed (HTTP 400); the reason says what to fix."""


def action_from_dict(data: object) -> Action:
    """`{"type": "Play", "seat": 0, "card": "R5"}` → Play(0, R5)."""
    if not isinstance(data, dict):
        raise BadRequest("an action must be a JSON object")
    kind = data.get("type")
    cls = ACTIONS.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        raise BadRequest(f"unknown action type {kind!r}; one of {', '.join(ACTIONS)}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(data) - set(fields) - {"type"}
    if unknown:
        raise BadRequest(f"{kind} has no field {sorted(unknown)[0]!r}")
    values = {name: _field(kind, f, data[name]) for name, f in fields.items() if name in data}
    try:
        return cls(**values)  # type: ignore[no-any-return]
    except TypeError:
        missing = [n for n, f in fields.items() if n not in data and _required(f)]
        raise BadRequest(f"{kind} needs {', '.join(missing)}") from None


def _required(field: dataclasses.Field[Any]) -> bool:
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


def _field(kind: str, field: dataclasses.Field[Any], value: object) -> object:
    """Convert one JSON value by the field's declared type."""
    declared = str(field.type)
    if value is None and declared.endswith("| None"):
        return None
    parse = _PARSERS.get(declared.removesuffix(" | None"))
    try:
        if parse is None:
            raise BadRequest("not understood")
        return parse(value)
    except ValueError as error:
        raise BadRequest(f"{kind}.{field.name}: {error}") from None


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise BadRequest("true or false")
    return value


def _cards(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise BadRequest("a list of cards")
    return tuple(parse_card(_str(v)) for v in value)


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest("a whole number")
    return value


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise BadRequest("text")
    return value


_PARSERS: dict[str, Callable[[object], object]] = {
    "int": _int,
    "bool": _bool,
    "Card": lambda value: parse_card(_str(value)),
    "Colour": lambda value: parse_colour(_str(value)),
    "tuple[Card, ...]": _cards,
}


def action_to_dict(action: Action) -> dict[str, Any]:
    return to_dict(action)


def events_to_dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [to_dict(event) for event in events]
