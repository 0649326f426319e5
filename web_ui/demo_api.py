"""The demo table (`uno-attack run --demo`): a visitor takes a seat from the bots, or gives it
back. The virtual launcher button is `POST /api/launcher/press`."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue

from controller.engine import IllegalAction
from controller.table.codec import BadRequest
from controller.table.demo import DemoTable

from . import security
from .api import body

bp = Blueprint("demo_api", __name__, url_prefix="/api/demo")


def demo() -> DemoTable:
    table = current_app.extensions.get("demo")
    if table is None:
        raise IllegalAction("this is not a demo table")
    return table  # type: ignore[no-any-return]


@bp.get("")
def info() -> ResponseReturnValue:
    table = current_app.extensions.get("demo")
    playing = table is not None and table.playing()
    return jsonify(
        demo=table is not None, humans=sorted(table.humans) if table else [], playing=playing
    )


def _seat() -> int:
    seat = body().get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest("seat must be a whole number")
    return seat


@bp.post("/seat")
@security.needs_pin
def take_seat() -> ResponseReturnValue:
    table = demo()
    table.take_seat(_seat())
    return jsonify(humans=sorted(table.humans))


@bp.post("/leave")
@security.needs_pin
def leave_seat() -> ResponseReturnValue:
    table = demo()
    table.leave_seat(_seat())
    return jsonify(humans=sorted(table.humans))
