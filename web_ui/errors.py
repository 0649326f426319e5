"""Domain errors to HTTP, in one place: bad input → 400, a refused action → 409, a missing
right → 403, too many wrong guesses → 429 (with `Retry-After`), a busy table or an event log that
cannot be written → 503 (with `Retry-After`), a full disk → 507 "disk full"; all with the reason
as JSON (`{"error": "..."}`), so a tablet can show it."""

from __future__ import annotations

from flask import Flask, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from controller.engine import EngineError, IllegalAction
from controller.store import StoreError, StoreFull
from controller.table import InvalidInput

from .limits import TooDeep

RETRY_AFTER = "2"  # seconds, on a 503


class Forbidden(Exception):
    """The request needs the table PIN or the admin password (HTTP 403)."""


class TooMany(Exception):
    """Too many wrong PINs or passwords lately (HTTP 429): wait `retry_after` seconds."""

    def __init__(self, reason: str, retry_after: int = 1) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


def register(app: Flask) -> None:
    statuses: dict[type[Exception], int] = {
        InvalidInput: 400,
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
        headers: dict[str, str] = {}
        if isinstance(error, TooMany):
            headers["Retry-After"] = str(error.retry_after)
        elif status == 503:
            headers["Retry-After"] = RETRY_AFTER
        return jsonify(error=str(error)), status, headers

    for kind in statuses:
        app.register_error_handler(kind, reply)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        if request.path.startswith("/api/"):
            return jsonify(error=error.description), error.code or 500
        return error
