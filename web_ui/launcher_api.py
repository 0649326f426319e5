"""Launcher controls for the tablets: a virtual press (demo), clearing a fault, dealing."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from . import security
from .api import body, run, service

bp = Blueprint("launcher_api", __name__, url_prefix="/api/launcher")


@bp.get("")
def status() -> ResponseReturnValue:
    return jsonify(service().snapshot().get("launcher", {}))


@bp.post("/press")
@security.needs_pin
def press() -> ResponseReturnValue:
    service().virtual_press()
    return jsonify(pressed=True)


@bp.post("/clear")
@security.needs_pin
def clear() -> ResponseReturnValue:
    service().clear_fault()
    return jsonify(cleared=True)


@bp.post("/reload")
@security.needs_pin
def reload() -> ResponseReturnValue:
    """The players reloaded the empty launcher from the discard pile (RULES.md §8)."""
    return run({"type": "reload"}, body())


@bp.post("/deal")
@security.needs_pin
def deal() -> ResponseReturnValue:
    service().deal_by_launcher()
    return jsonify(dealing=True)
