"""A Flask test client on a real table service with its store in a temporary directory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from controller.config import Config, ServiceConfig, TableConfig
from controller.table.service import TableService
from web_ui.app import create_app

ADMIN_PASSWORD = "correct horse"

SETUP: dict[str, Any] = {
    "players": ["Ann", "Bob", "Cy", "Di"],
    "game": "attack",
    "first_dealer": 3,
    "seed": 1,
}


class Tablet:
    """A test client that knows its CSRF token."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.csrf = client.get("/api/session").get_json()["csrf"]

    def post(self, path: str, body: Any = None, **kw: Any) -> Any:
        headers = {"X-CSRF-Token": self.csrf} | kw.pop("headers", {})
        return self.client.post(path, json={} if body is None else body, headers=headers, **kw)

    def get(self, path: str) -> Any:
        return self.client.get(path)

    def unlock(self, pin: str = "1234") -> Any:
        return self.post("/api/session/pin", {"pin": pin})

    def admin(self, password: str = ADMIN_PASSWORD) -> Any:
        return self.post("/api/session/admin", {"password": password})

    def act(self, action: dict[str, Any], **body: Any) -> Any:
        return self.post("/api/actions", {"action": action, **body})


@pytest.fixture
def app(service: TableService, tmp_path: Path) -> Flask:
    settings = ServiceConfig(data_dir=str(tmp_path), admin_password=ADMIN_PASSWORD)
    config = Config(table=TableConfig(pin="1234"), service=settings)
    flask_app = create_app(service, config, secret_key="test-secret")
    flask_app.config["TESTING"] = True
    return flask_app


@pytest.fixture
def tablet(app: Flask) -> Tablet:
    return Tablet(app.test_client())


@pytest.fixture
def playing(tablet: Tablet) -> Tablet:
    """Unlocked, a match set up, dealt, R5 turned up: P0 to move."""
    assert tablet.unlock().status_code == 200
    assert tablet.post("/api/setup", {"setup": SETUP}).status_code == 200
    assert tablet.post("/api/deal").status_code == 200
    assert tablet.act({"type": "TurnUp", "card": "R5"}).status_code == 200
    return tablet
