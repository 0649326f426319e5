"""Domain errors to HTTP, in one place: bad input → 400, a refused action → 409, a missing
right → 403, too many wrong guesses → 429 (with `Retry-After`), all with the reason as JSON
(`{"error": "..."}`), so a tablet can show it."""

from __future__ import annotations

from flask import Flask, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from controller.engine import EngineError, IllegalAction
from controller.table.codec import BadRequest


class Forbidden(Exception):
    """The request needs the table PIN or the admin password (HTTP 403)."""


class TooMany(Exception):
    """Too many wrong PINs or passwords lately (HTTP 429): wait `retry_after` seconds."""

    def __init__(self, reason: str, retry_after: int = 1) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


def register(app: Flask) -> None:
    statuses: dict[type[Exception], int] = {
        BadRequest: 400,
        IllegalAction: 409,
        EngineError: 400,
        Forbidden: 403,
        TooMany: 429,
        TimeoutError: 503,
    }

    def reply(error: Exception) -> ResponseReturnValue:
        status = next(code for kind, code in statuses.items() if isinstance(error, kind))
        headers = {"Retry-After": str(error.retry_after)} if isinstance(error, TooMany) else {}
        return jsonify(error=str(error)), status, headers

    for kind in statuses:
        app.register_error_handler(kind, reply)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        if request.path.startswith("/api/"):
            return jsonify(error=error.description), error.code or 500
        return error
