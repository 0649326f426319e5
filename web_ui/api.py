"""The JSON API: the table's state, and one endpoint per kind of control action.

Every POST takes a JSON object (at most 32 levels deep, valid Unicode); an optional `key` (or
`Idempotency-Key` header) makes a retry or a double tap apply once. A command's answer is its
record (`{"seq", "kind", "actor", "at", "events"}`) and the new `"state"`; refusals are 400 (bad
input), 403 (a missing right) or 409 (the rules say no, or a key reused for another command),
with `{"error": reason}` (every status: `errors.py`).

A POST without this session's CSRF token, or without the rights its endpoint needs, is refused
before its body is read (`refuse_early`, the app's first check): a flood of anonymous bodies
costs no reading, depth scan (`limits`) or parsing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, current_app, jsonify, request, session
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue

from controller.engine import DECKS, OPTIONS
from controller.preset_store import presets, save_preset
from controller.sections import ConfigError
from controller.store import Record
from controller.table import (
    InvalidInput,
    clean_name,
    clean_names,
    record_to_dict,
    whole_number,
)

from . import security
from .i18n import LANGUAGES
from .table_access import table_service

bp = Blueprint("api", __name__, url_prefix="/api")


def _nothing() -> None:
    return None


GATES: dict[object, Callable[..., Any]] = {
    getattr(gate(_nothing), "__code__", None): gate
    for gate in (security.needs_pin, security.needs_admin)
}
"""The rights decorators, by the code of the wrapper each makes: a view wrapped by one shares
that code (`functools.wraps` keeps the view under it as `__wrapped__`)."""


def _gates(view: object) -> Iterator[Callable[..., Any]]:
    """The rights decorators wrapped around `view`, outermost first."""
    while view is not None:
        gate = GATES.get(getattr(view, "__code__", None))
        if gate is not None:
            yield gate
        view = getattr(view, "__wrapped__", None)


def refuse_early() -> None:
    """Refuse a state-changing request without this session's CSRF token, or without the rights
    its endpoint needs, before anything reads its body (the same refusals, in the same order,
    as the CSRF hook and the view's decorators make later: they stay, and pass)."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    security.check_csrf()
    for gate in _gates(current_app.view_functions.get(request.endpoint or "")):
        gate(_nothing)()


@bp.record_once
def _check_first(state: BlueprintSetupState) -> None:
    """Put `refuse_early` before every other check of the app's (`limits` reads the body)."""
    state.app.before_request_funcs.setdefault(None, []).insert(0, refuse_early)


def body() -> dict[str, Any]:
    """The request's JSON object, checked: no unpaired surrogates (its size and depth were
    checked before any endpoint ran: `limits`)."""
    if not request.is_json:
        raise InvalidInput("send a JSON object (Content-Type: application/json)")
    try:
        data = json.loads(request.get_data(cache=True))
    except ValueError as error:  # not JSON, or not UTF-8
        raise InvalidInput(f"not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise InvalidInput("send a JSON object")
    _check_text(data)
    return data


def _check_text(data: object) -> None:
    """Walk the document without recursion: refuse text that is not valid Unicode (a lone
    surrogate would break every later answer that shows it)."""
    pending: list[object] = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, str) and not _valid_text(value):
            raise InvalidInput("text must be valid Unicode (no unpaired surrogates)")
        if isinstance(value, dict):
            pending += [*value, *value.values()]
        elif isinstance(value, list):
            pending += value


def _valid_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def idempotency_key(data: dict[str, Any]) -> str | None:
    """The tap's key: 8 to 80 printable ASCII characters, or None."""
    key = data.get("key", request.headers.get("Idempotency-Key"))
    if key is None:
        return None
    if not isinstance(key, str) or not (
        key.isascii() and key.isprintable() and 8 <= len(key) <= 80
    ):
        raise InvalidInput("key must be 8 to 80 printable ASCII characters")
    return key


def run(command: dict[str, Any], data: dict[str, Any]) -> ResponseReturnValue:
    key = idempotency_key(data)
    record: Record = table_service().submit(command, actor=security.actor(), idem_key=key)
    return jsonify(record_to_dict(record) | {"state": table_service().snapshot()})


@bp.get("/state")
def state() -> ResponseReturnValue:
    return jsonify(table_service().snapshot())


@bp.get("/history")
def history() -> ResponseReturnValue:
    """The current match's latest records: `?limit=` (1-200, default 50)."""
    limit = whole_number(request.args.get("limit", "50"), "limit", 200)
    if limit < 1:
        raise InvalidInput("limit must be a whole number from 1 to 200")
    return jsonify(records=table_service().history(limit))


@bp.get("/session")
def session_info() -> ResponseReturnValue:
    mine = security.grant()
    return jsonify(
        unlocked=security.unlocked(),
        admin=security.is_admin(),
        csrf=security.csrf_token(),
        language=session.get("language", security.settings().language),
        tablet={"id": mine.id, "name": mine.name} if mine else None,
    )


@bp.post("/session/pin")
def enter_pin() -> ResponseReturnValue:
    pin = body().get("pin")
    if not isinstance(pin, str) or len(pin) > 80:
        raise InvalidInput("send the PIN as text")
    security.try_pin(pin)
    return jsonify(unlocked=True)


@bp.post("/session/admin")
def admin_login() -> ResponseReturnValue:
    password = body().get("password")
    if not isinstance(password, str) or len(password) > 200:
        raise InvalidInput("send the password as text (at most 200 characters)")
    security.try_admin(password)
    return jsonify(admin=True)


@bp.post("/session/language")
def set_language() -> ResponseReturnValue:
    language = body().get("language")
    if language not in LANGUAGES:
        raise InvalidInput(f"language must be one of {', '.join(LANGUAGES)}")
    session["language"] = language
    return jsonify(language=language)


@bp.post("/session/name")
@security.needs_pin
def name_tablet() -> ResponseReturnValue:
    """Name this tablet ("Kitchen"): the event log names it beside its id."""
    name = clean_name(body().get("name"), "the tablet's name")
    security.name_tablet(name)
    mine = security.grant()
    assert mine is not None  # unlocked tablets have a grant
    return jsonify(tablet={"id": mine.id, "name": mine.name})


@bp.post("/settings/pin")
@security.needs_admin
def change_pin() -> ResponseReturnValue:
    """A new table PIN; every other tablet must enter it again."""
    security.change_pin(body().get("pin"))
    return jsonify(changed=True)


@bp.post("/settings/language")
@security.needs_admin
def table_language() -> ResponseReturnValue:
    """The language tablets start in (each tablet may still switch its own)."""
    security.settings().set_language(body().get("language"))
    return jsonify(language=security.settings().language)


@bp.get("/options")
def options() -> ResponseReturnValue:
    """What the setup page offers, from the engine's registry."""
    return jsonify(
        options=[
            {"id": o.id, "default": o.default, "choices": list(o.choices), "en": o.en,
             "zh": o.zh, "section": o.section, "games": sorted(o.games),
             "min": o.minimum, "max": o.maximum, "kind": o.kind.__name__,
             "choice_games": {c: sorted(g) for c, g in o.choice_games.items()}}
            for o in OPTIONS
        ],
        decks={name: deck.game.value for name, deck in DECKS.items()},
        **_eject_profiles(),
    )  # fmt: skip


def _eject_profiles() -> dict[str, Any]:
    """The eject profiles a set-up may choose; the custom ones with their one-line
    descriptions, and the custom files the table refuses with the reason."""
    can = table_service().capabilities()
    return {
        "eject_profiles": list(can.eject_profiles),
        "profiles": list(can.eject_profiles),  # deprecated: eject_profiles
        "custom_eject_profiles": [
            {"name": name, "description": text} for name, text in can.custom_eject_profiles
        ],
        "refused_eject_profiles": [
            {"name": name, "reason": why} for name, why in can.refused_eject_profiles
        ],
    }


@bp.get("/presets")
def list_presets() -> ResponseReturnValue:
    """House-rule presets: the shipped ones and this table's own."""
    saved = presets(current_app.config["PRESETS_DIR"])
    return jsonify(presets=[preset.to_dict() for preset in saved.values()])


@bp.post("/presets")
@security.needs_pin
def save_table_preset() -> ResponseReturnValue:
    """Save a set of options under a name, to load it again at a later set-up."""
    data = body()
    name, game, options = data.get("name"), data.get("game", "attack"), data.get("options", {})
    if not isinstance(name, str) or not isinstance(game, str) or not isinstance(options, dict):
        raise InvalidInput("send a name, a game and an object of options")
    name = clean_name(name, "the preset's name", 40)
    try:
        preset = save_preset(current_app.config["PRESETS_DIR"], name, game, options)
    except ConfigError as error:
        raise InvalidInput(str(error)) from None
    return jsonify(preset=preset.to_dict())


@bp.post("/setup")
@security.needs_pin
def setup() -> ResponseReturnValue:
    """Start a match. The set-up's `profile` is the deprecated name of `eject_profile`."""
    data = body()
    setup = data.get("setup")
    if isinstance(setup, dict):
        setup = setup | {"players": clean_names(setup.get("players"))}
    return run({"type": "setup", "setup": setup}, data)


@bp.post("/deal")
@security.needs_pin
def deal() -> ResponseReturnValue:
    return run({"type": "deal"}, body())


@bp.post("/actions")
@security.needs_pin
def action() -> ResponseReturnValue:
    data = body()
    return run({"type": "action", "action": data.get("action")}, data)


@bp.post("/rounds")
@security.needs_pin
def round_result() -> ResponseReturnValue:
    data = body()
    fields: dict[str, Any] = {k: data[k] for k in ("winner", "points", "cards") if k in data}
    return run({"type": "round", **fields}, data)


@bp.post("/undo")
@security.needs_pin
def undo() -> ResponseReturnValue:
    return run({"type": "undo"}, body())
