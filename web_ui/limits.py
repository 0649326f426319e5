"""Limits on what a request may send: the body's size (413, also enforced by the server before
the app sees it) and how deeply its JSON nests (400): a parser asked to descend 100,000
levels would otherwise fail deep inside."""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask.json.provider import DefaultJSONProvider

MAX_BODY = 64 * 1024
MAX_DEPTH = 32


class TooDeep(Exception):
    """The JSON nests deeper than MAX_DEPTH (HTTP 400). Not a ValueError: a lenient
    `get_json(silent=True)` must not turn it into "no JSON"."""


def depth(text: str | bytes) -> int:
    """How deeply arrays and objects nest in `text` (brackets inside strings do not count)."""
    data = text.encode() if isinstance(text, str) else text
    deepest = level = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            level += 1
            deepest = max(deepest, level)
        elif byte in (0x5D, 0x7D):
            level -= 1
    return deepest


class LimitedJSON(DefaultJSONProvider):
    """Flask's JSON, refusing documents nested deeper than MAX_DEPTH before parsing them."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        if depth(s) > MAX_DEPTH:
            raise TooDeep(f"JSON nested deeper than {MAX_DEPTH} levels")
        return super().loads(s, **kwargs)


def install(app: Flask) -> None:
    """Every request: a body over MAX_BODY is a 413, JSON nested too deeply a 400, whatever
    the endpoint does with it (or before it refuses for another reason)."""
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.json = LimitedJSON(app)

    @app.before_request
    def check_body() -> None:
        if request.content_length or request.headers.get("Transfer-Encoding"):
            data = request.get_data(cache=True)  # 413 past MAX_CONTENT_LENGTH
            if request.is_json and depth(data) > MAX_DEPTH:
                raise TooDeep(f"JSON nested deeper than {MAX_DEPTH} levels")
