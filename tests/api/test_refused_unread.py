"""A POST without this session's CSRF token, or without the rights its endpoint needs, is
refused before anything reads its body: a flood of 64 KB anonymous bodies costs no reading, no
depth scan and no parsing, and every refusal keeps its status and its words."""

from __future__ import annotations

import io
from typing import Any

import pytest
from flask import Flask

import web_ui.limits
from controller.store import Store
from web_ui.limits import MAX_BODY

from .conftest import Tablet
from .test_limits import post_routes

BIG = b'{"pad": [' + b"[1]," * (MAX_BODY // 4 - 4) + b"1]}"  # just under 64 KB, many brackets


class Watched(io.BytesIO):
    """A request body that tells whether anyone read it."""


def post_unread(tablet: Tablet, route: str, **headers: str) -> tuple[Any, Watched]:
    stream = Watched(BIG)
    answer = tablet.client.post(
        route, input_stream=stream, content_type="application/json",
        headers={"Content-Length": str(len(BIG)), **headers},
    )  # fmt: skip
    return answer, stream


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The depth scans made of a big body (`limits.depth`), by the length scanned (the test's
    own reading of the small answers is scanned too: not counted)."""
    made: list[int] = []
    depth = web_ui.limits.depth

    def counted(text: str | bytes) -> int:
        if len(text) >= len(BIG):
            made.append(len(text))
        return depth(text)

    monkeypatch.setattr(web_ui.limits, "depth", counted)
    return made


def test_refused_unread_without_a_csrf_token_on_every_endpoint(
    app: Flask, tablet: Tablet, store: Store, scans: list[int]
) -> None:
    assert len(BIG) <= MAX_BODY
    before = store.records("main")
    for route in post_routes(app):
        answer, stream = post_unread(tablet, route)
        assert answer.status_code == 403, (route, answer.status_code)
        assert answer.get_json()["error"] == "missing or stale CSRF token: reload the page", route
        assert stream.tell() == 0, f"{route}: the body was read before the CSRF check"
        answer, stream = post_unread(tablet, route, **{"X-CSRF-Token": "not-the-token"})
        assert answer.status_code == 403 and stream.tell() == 0, route
    assert scans == [] and store.records("main") == before


def test_refused_unread_without_the_pin(tablet: Tablet, store: Store, scans: list[int]) -> None:
    for route in ("/api/actions", "/api/setup", "/api/deal", "/api/undo", "/api/presets"):
        answer, stream = post_unread(tablet, route, **{"X-CSRF-Token": tablet.csrf})
        assert answer.status_code == 403, (route, answer.status_code)
        assert answer.get_json()["error"] == "enter the table PIN first", route
        assert stream.tell() == 0, f"{route}: the body was read before the rights were checked"
    assert scans == [] and store.records("main") == []
    # with the token and the rights, the body is read, scanned and parsed as before
    assert tablet.unlock().status_code == 200  # (no rights needed: its body is read)
    answer, stream = post_unread(tablet, "/api/actions", **{"X-CSRF-Token": tablet.csrf})
    assert stream.tell() == len(BIG) and scans == [len(BIG)]
    assert answer.status_code in (400, 409)  # refused by what it says: no action, no match


def test_refused_unread_without_the_admin_login(tablet: Tablet, scans: list[int]) -> None:
    assert tablet.unlock().status_code == 200
    scans.clear()
    for route in ("/api/settings/pin", "/api/settings/language"):
        answer, stream = post_unread(tablet, route, **{"X-CSRF-Token": tablet.csrf})
        assert answer.status_code == 403, (route, answer.status_code)
        assert "only the admin may do this" in answer.get_json()["error"], route
        assert stream.tell() == 0, route
    assert scans == []
