"""The JSON API: the table's state, and one endpoint per kind of control action.

Every POST takes a JSON object; an optional `key` (or `Idempotency-Key` header) makes a retry
or a double tap apply once. Answers are `{"seq", "events", "state"}`; refusals are 400 (bad
input) or 409 (the rules say no), with `{"error": reason}`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request, session
from flask.typing import ResponseReturnValue

from controller.engine import DECKS, OPTIONS
from controller.launcher.policy import PROFILES
from controller.preset_store import presets, save_preset
from controller.sections import ConfigError
from controller.store import Record
from controller.table.codec import BadRequest
from controller.table.service import TableService

from . import security
from .i18n import LANGUAGES

bp = Blueprint("api", __name__, url_prefix="/api")


def service() -> TableService:
    return current_app.extensions["table"]  # type: ignore[no-any-return]


def body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadRequest("send a JSON object")
    return data


def run(command: dict[str, Any], data: dict[str, Any]) -> ResponseReturnValue:
    key = data.get("key") or request.headers.get("Idempotency-Key")
    if key is not None and (not isinstance(key, str) or not 8 <= len(key) <= 80):
        raise BadRequest("key must be 8 to 80 characters")
    actor = f"tablet:{session.get('device', '?')}"
    record: Record = service().submit(command, actor=actor, idem_key=key)
    return jsonify(seq=record.seq, events=record.events, state=service().snapshot())


@bp.get("/state")
def state() -> ResponseReturnValue:
    return jsonify(service().snapshot())


@bp.get("/history")
def history() -> ResponseReturnValue:
    """The current match's latest records: `?limit=` (1-200, default 50)."""
    raw = request.args.get("limit", "50")
    if not raw.isdigit() or not 1 <= int(raw) <= 200:
        raise BadRequest("limit must be a whole number from 1 to 200")
    return jsonify(records=service().history(int(raw)))


@bp.get("/session")
def session_info() -> ResponseReturnValue:
    return jsonify(
        unlocked=security.unlocked(),
        admin=security.is_admin(),
        csrf=security.csrf_token(),
        language=session.get("language", security.settings().language),
    )


@bp.post("/session/pin")
def enter_pin() -> ResponseReturnValue:
    pin = body().get("pin")
    if not isinstance(pin, str):
        raise BadRequest("send the PIN as text")
    security.try_pin(pin)
    return jsonify(unlocked=True)


@bp.post("/session/admin")
def admin_login() -> ResponseReturnValue:
    password = body().get("password")
    if not isinstance(password, str):
        raise BadRequest("send the password as text")
    security.try_admin(password)
    return jsonify(admin=True)


@bp.post("/session/language")
def set_language() -> ResponseReturnValue:
    language = body().get("language")
    if language not in LANGUAGES:
        raise BadRequest(f"language must be one of {', '.join(LANGUAGES)}")
    session["language"] = language
    return jsonify(language=language)


@bp.post("/settings/pin")
@security.needs_pin
def change_pin() -> ResponseReturnValue:
    """A new table PIN; every other tablet must enter it again."""
    security.change_pin(body().get("pin"))
    return jsonify(changed=True)


@bp.post("/settings/language")
@security.needs_pin
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
             "min": o.minimum, "max": o.maximum, "kind": o.kind.__name__}
            for o in OPTIONS
        ],
        decks={name: deck.game.value for name, deck in DECKS.items()},
        profiles=list(PROFILES),
    )  # fmt: skip


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
        raise BadRequest("send a name, a game and an object of options")
    try:
        preset = save_preset(current_app.config["PRESETS_DIR"], name, game, options)
    except ConfigError as error:
        raise BadRequest(str(error)) from None
    return jsonify(preset=preset.to_dict())


@bp.post("/setup")
@security.needs_pin
def setup() -> ResponseReturnValue:
    data = body()
    return run({"type": "setup", "setup": data.get("setup")}, data)


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
