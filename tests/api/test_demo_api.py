"""The demo's hand-over over HTTP: "Let the bots play" and "Play it yourselves" need the PIN,
answer the demo's view, and refuse what makes no sense with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from controller.config import Config, ServiceConfig, TableConfig
from controller.table.demo import DemoTable
from controller.table.service import TableService
from web_ui.app import create_app

from .conftest import SETUP, Tablet


@pytest.fixture
def demo_tablet(service: TableService, tmp_path: Path) -> Tablet:
    bots = DemoTable(service, pace=3600.0)  # the bots never move by themselves here
    config = Config(table=TableConfig(pin="1234"), service=ServiceConfig(data_dir=str(tmp_path)))
    app: Flask = create_app(service, config, secret_key="test-secret", demo=bots)
    return Tablet(app.test_client())


def test_hand_over_needs_the_pin_and_answers_the_view(demo_tablet: Tablet) -> None:
    assert demo_tablet.post("/api/demo/bots").status_code == 403
    assert demo_tablet.unlock().status_code == 200
    assert demo_tablet.post("/api/setup", {"setup": SETUP}).status_code == 200
    view = demo_tablet.get("/api/demo").get_json()
    assert view == {"demo": True, "playing": False, "humans": [], "table": True}

    refused = demo_tablet.post("/api/demo/seat", {"seat": 1})
    assert refused.status_code == 409 and "all yours" in refused.get_json()["error"]
    refused = demo_tablet.post("/api/demo/mine")
    assert refused.status_code == 409 and "not playing" in refused.get_json()["error"]

    assert demo_tablet.post("/api/demo/bots").get_json()["playing"] is True
    assert demo_tablet.post("/api/demo/seat", {"seat": 3}).get_json()["humans"] == [3]
    taken = demo_tablet.post("/api/demo/mine").get_json()
    assert taken == {"demo": True, "playing": False, "humans": [], "table": True}
