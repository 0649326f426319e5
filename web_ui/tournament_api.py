"""The tournament across the service's tables (`controller.tournament`): the organiser enters it
once, at any table (`POST /api/tournament`, with that table's PIN); every table's state then
carries its `tournament` view. `GET /api/tournament` reads it as a whole; `resume` sets up again
a round's match a person replaced at a table; `end` stops it."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue

from controller.tournament import TournamentDesk

from . import security
from .api import body

bp = Blueprint("tournament_api", __name__, url_prefix="/api/tournament")


def desk() -> TournamentDesk:
    found: TournamentDesk = current_app.extensions["tournament"]
    return found


@bp.get("")
def tournament() -> ResponseReturnValue:
    return jsonify(tournament=desk().view())


@bp.post("")
@security.needs_pin
def begin() -> ResponseReturnValue:
    return jsonify(tournament=desk().begin(body()))


@bp.post("/resume")
@security.needs_pin
def resume() -> ResponseReturnValue:
    return jsonify(tournament=desk().resume())


@bp.post("/end")
@security.needs_pin
def end() -> ResponseReturnValue:
    desk().end()
    return jsonify(tournament=None)
