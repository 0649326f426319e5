"""A QR code that opens this table's scoreboard on a phone: `GET /qr.svg`.

The address is the one the tablet used, unless that only works on this machine (localhost):
then the machine's LAN address. segno draws the code (pure Python, no dependencies, SVG out).
"""

from __future__ import annotations

import io
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, request
from flask.typing import ResponseReturnValue

from .addresses import lan_addresses

bp = Blueprint("qr", __name__)

LOCAL = ("localhost", "127.0.0.1", "::1", "[::1]")


def table_url() -> str:
    """The scoreboard's address as a phone on the same Wi-Fi can open it (a table of several
    with its `/t/<id>/`)."""
    url = urlsplit(request.host_url)
    path = f"{request.script_root}/"
    if url.hostname not in LOCAL:
        return request.host_url + path[1:]
    lan = lan_addresses()
    port = f":{url.port}" if url.port else ""
    host = f"{url.scheme}://{lan[0]}{port}/" if lan else request.host_url
    return host + path[1:]


def qr_svg(text: str) -> bytes:
    out = io.BytesIO()
    code = segno.make(text, error="m")
    code.save(out, kind="svg", scale=6, border=2, dark="#000", light="#fff", xmldecl=False)
    return out.getvalue()


@bp.get("/qr.svg")
def qr() -> ResponseReturnValue:
    url = table_url()
    response = Response(qr_svg(url), mimetype="image/svg+xml")
    response.headers["X-Table-URL"] = url
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/table-url")
def address() -> ResponseReturnValue:
    return {"url": table_url()}
