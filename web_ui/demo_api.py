"""The demo table (`uno-attack run --demo`): a visitor takes a seat from the bots or gives it
back, hands the table to the bots ("Let the bots play") or takes it back. Each answers the demo's
view, `{demo, playing, humans, table}`, which every tablet also hears as a `demo` event. The
virtual launcher button is `POST /api/launcher/press`."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue

from controller.engine import IllegalAction
from controller.table import DemoTable, InvalidInput

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
        return jsonify(demo=False, humans=[], playing=False, table=False)
    return on_owner(table, lambda: None)


def on_owner(table: DemoTable, change: Callable[[], None]) -> ResponseReturnValue:
    """Make the change on the table's owner thread; answer the demo's view afterwards."""
    return jsonify(demo=True, **table.seats_after(change))


def _seat() -> int:
    seat = body().get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise InvalidInput("seat must be a whole number")
    return seat


@bp.post("/seat")
@security.needs_pin
def take_seat() -> ResponseReturnValue:
    table, seat = demo(), _seat()
    return on_owner(table, lambda: table.take_seat(seat))


@bp.post("/leave")
@security.needs_pin
def leave_seat() -> ResponseReturnValue:
    table, seat = demo(), _seat()
    return on_owner(table, lambda: table.leave_seat(seat))


@bp.post("/bots")
@security.needs_pin
def hand_over() -> ResponseReturnValue:
    """Let the bots play the table (every seat)."""
    table = demo()
    return on_owner(table, table.hand_over)


@bp.post("/mine")
@security.needs_pin
def take_back() -> ResponseReturnValue:
    """The bots leave the table to the people."""
    table = demo()
    return on_owner(table, table.take_back)
