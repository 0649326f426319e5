"""The demo table (`uno-attack run --demo`): a visitor takes a seat from the bots, or gives it
back. The virtual launcher button is `POST /api/launcher/press`."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue

from controller.engine import IllegalAction
from controller.table.codec import InvalidInput
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
    if table is None:
        return jsonify(demo=False, humans=[], playing=False)
    return jsonify(demo=True, humans=on_owner(table, lambda: None), playing=table.playing())


def on_owner(table: DemoTable, change: Callable[[], None]) -> list[int]:
    """Change the seats on the table's owner thread; the seats people play afterwards."""
    return table.seats_after(change)


def _seat() -> int:
    seat = body().get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise InvalidInput("seat must be a whole number")
    return seat


@bp.post("/seat")
@security.needs_pin
def take_seat() -> ResponseReturnValue:
    table, seat = demo(), _seat()
    return jsonify(humans=on_owner(table, lambda: table.take_seat(seat)))


@bp.post("/leave")
@security.needs_pin
def leave_seat() -> ResponseReturnValue:
    table, seat = demo(), _seat()
    return jsonify(humans=on_owner(table, lambda: table.leave_seat(seat)))
