"""Launcher controls for the tablets: its status, a virtual press (demo), clearing a fault,
reloading, dealing.

Players clear a jam, reload and deal; pressing the button of the simulated launcher is a
player's tap too, but a test press on a real launcher is a hardware test: the admin's.
A press carries the tap's key like every command: a double tap or a retry presses once, and a
retry after a restart finds the press the key made in the event log. A press is logged as the
tablet's (`tablet:<id>`), and so is a cleared fault (a `clear` record; the game is unchanged).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue

from controller.engine import IllegalAction
from controller.table import record_to_dict

from . import security
from .api import body, idempotency_key, run
from .errors import Forbidden
from .table_access import table_service

bp = Blueprint("launcher_api", __name__, url_prefix="/api/launcher")

REMEMBERED = 256  # press keys kept (a retry comes within seconds)


class PressKeys:
    """The keys of recent presses: a key seen before is a double tap or a retry (the press it
    made may not be logged yet; once it is, the table finds it by its key, after a restart too)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._keys: OrderedDict[str, None] = OrderedDict()

    def first(self, key: str) -> bool:
        with self._lock:
            if key in self._keys:
                return False
            self._keys[key] = None
            while len(self._keys) > REMEMBERED:
                self._keys.popitem(last=False)
            return True

    def forget(self, key: str) -> None:
        with self._lock:
            self._keys.pop(key, None)


@bp.get("")
def status() -> ResponseReturnValue:
    return jsonify(table_service().snapshot().get("launcher", {}))


@bp.post("/press")
@security.needs_pin
def press() -> ResponseReturnValue:
    table = table_service()
    can = table.capabilities()
    if not can.has_launcher:
        raise IllegalAction("this table has no launcher")
    if not can.simulated_launcher and not security.is_admin():
        raise Forbidden("a test press on a real launcher is the admin's: log in on the admin page")
    key = idempotency_key(body())
    keys: PressKeys = current_app.extensions.setdefault("press_keys", PressKeys())
    if key is not None and not keys.first(key):
        return jsonify(pressed=True, repeated=True)
    try:
        done = table.virtual_press(actor=security.actor(), key=key)
    except Exception:
        if key is not None:
            keys.forget(key)
        raise
    if done is not None:  # the key's press is in the log (a retry after a restart)
        return jsonify(record_to_dict(done) | {"pressed": True, "repeated": True})
    return jsonify(pressed=True)


@bp.post("/clear")
@security.needs_pin
def clear() -> ResponseReturnValue:
    """A person cleared the jam or refilled the launcher: logged, the game unchanged."""
    key = idempotency_key(body())
    record = table_service().clear_fault(actor=security.actor(), key=key)
    return jsonify(record_to_dict(record) | {"cleared": True, "state": table_service().snapshot()})


@bp.post("/reload")
@security.needs_pin
def reload() -> ResponseReturnValue:
    """The players reloaded the empty launcher from the discard pile (RULES.md §8)."""
    return run({"type": "reload"}, body())


@bp.post("/deal")
@security.needs_pin
def deal() -> ResponseReturnValue:
    table_service().deal_by_launcher()
    return jsonify(dealing=True)
