"""Domain errors to HTTP, in one place: bad input → 400, a refused action → 409, both with the
reason as JSON (`{"error": "..."}`), so a tablet can show it. A busy table or an event log that
cannot be written → 503 (with `Retry-After`), a full disk → 507 "disk full"."""

from __future__ import annotations

from flask import Flask, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from controller.engine import EngineError, IllegalAction
from controller.store import StoreError, StoreFull
from controller.table.codec import BadRequest

from .limits import TooDeep

RETRY_AFTER = "2"  # seconds, on a 503


class Forbidden(Exception):
    """The request needs the table PIN or the admin password (HTTP 403)."""


class TooMany(Exception):
    """Too many wrong PINs from this device (HTTP 429)."""


def register(app: Flask) -> None:
    statuses: dict[type[Exception], int] = {
        BadRequest: 400,
        IllegalAction: 409,
        EngineError: 400,
        Forbidden: 403,
        TooMany: 429,
        TooDeep: 400,
        TimeoutError: 503,
        StoreFull: 507,
        StoreError: 503,
    }

    def reply(error: Exception) -> ResponseReturnValue:
        status = next(code for kind, code in statuses.items() if isinstance(error, kind))
        headers = {"Retry-After": RETRY_AFTER} if status == 503 else {}
        return jsonify(error=str(error)), status, headers

    for kind in statuses:
        app.register_error_handler(kind, reply)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        if request.path.startswith("/api/"):
            return jsonify(error=error.description), error.code or 500
        return error
