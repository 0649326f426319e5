"""Limits on what a request may send, on every endpoint: JSON nested too deeply is a 400 with
the reason, a body over 64 KB a 413, a malformed Last-Event-ID a 400; none of them changes
anything."""

from __future__ import annotations

import http.client

import pytest
from flask import Flask

from controller.store import Store
from web_ui.limits import MAX_BODY, MAX_DEPTH, depth

from .conftest import Tablet

DEEP = "[" * 1000 + "]" * 1000


def post_routes(app: Flask) -> list[str]:
    return sorted(
        rule.rule for rule in app.url_map.iter_rules()
        if "POST" in (rule.methods or ()) and "<" not in rule.rule
    )  # fmt: skip


def test_limits_deep_json_is_refused_on_every_endpoint(
    app: Flask, playing: Tablet, store: Store
) -> None:
    assert playing.admin().status_code == 200  # past every endpoint's rights: the body is read
    before = store.records("main")
    routes = post_routes(app)
    assert "/api/actions" in routes and len(routes) > 8
    for route in routes:
        answer = playing.client.post(
            route, data=DEEP, content_type="application/json",
            headers={"X-CSRF-Token": playing.csrf},
        )  # fmt: skip
        assert answer.status_code == 400, (route, answer.status_code)
        assert f"deeper than {MAX_DEPTH}" in answer.get_json()["error"], route
    assert store.records("main") == before


def test_limits_json_as_deep_as_allowed_is_parsed(playing: Tablet) -> None:
    nested = {"action": {"type": "Pass", "seat": 0}}
    for _ in range(MAX_DEPTH - 2):
        nested = {"x": nested}
    answer = playing.post("/api/actions", nested)
    assert answer.status_code == 400 and "deeper" not in answer.get_json()["error"]


def test_limits_depth_ignores_brackets_in_strings() -> None:
    assert depth('{"name": "[[[[{{{{\\"[[["}') == 1
    assert depth(b"[[1], [[2]]]") == 3


def test_limits_a_big_body_is_413(playing: Tablet, store: Store) -> None:
    before = store.records("main")
    answer = playing.post("/api/actions", {"action": {"type": "Pass"}, "pad": "x" * MAX_BODY})
    assert answer.status_code == 413 and answer.get_json()["error"]
    assert store.records("main") == before


@pytest.mark.parametrize("raw", ["²", "1" * 40, "-1", "1e3", "٣"])
def test_limits_bad_last_event_id_is_400(tablet: Tablet, raw: str) -> None:
    answer = tablet.client.get("/api/events", headers={"Last-Event-ID": raw})
    assert answer.status_code == 400 and "Last-Event-ID" in answer.get_json()["error"]
    answer = tablet.client.get(f"/api/events?last={raw}")
    assert answer.status_code == 400


@pytest.mark.parametrize("raw", ["%C2%B2", "1" * 40])
def test_limits_bad_last_event_id_through_the_server(port: int, raw: str) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", f"/api/events?last={raw}")
    answer = connection.getresponse()
    assert answer.status == 400 and b"Last-Event-ID" in answer.read()
    connection.close()
