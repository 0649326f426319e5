"""Fixtures for the pages: an app on a running table service with its store in a temporary
directory, a test client, and an unlocked test client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from controller.config import Config
from controller.table.service import TableService
from web_ui.app import create_app

PIN = "1234"
SETUP: dict[str, Any] = {"players": ["Ann", "Bob", "Cy"], "game": "attack", "seed": 1}


@pytest.fixture
def app(service: TableService, tmp_path: Path) -> Flask:
    app = create_app(service, Config(), secret_key="test-secret")
    app.config["PRESETS_DIR"] = tmp_path / "presets"
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def csrf(client: FlaskClient) -> dict[str, str]:
    """The headers a state-changing request needs."""
    return {"X-CSRF-Token": client.get("/api/session").get_json()["csrf"]}


@pytest.fixture
def unlocked(client: FlaskClient) -> FlaskClient:
    answer = client.post("/api/session/pin", json={"pin": PIN}, headers=csrf(client))
    assert answer.status_code == 200
    return client
