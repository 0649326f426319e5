"""Fixtures shared by every test folder, and the property tests' hypothesis profile."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from controller.store import Store
from controller.table.service import TableService
from tests.exploring import PROFILE
from tests.serving import serve

settings.load_profile(PROFILE)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A fresh event log in the test's temporary folder."""
    with Store(tmp_path / "uno-attack.db") as opened:
        yield opened


@pytest.fixture
def service(store: Store) -> Iterator[TableService]:
    """A running table service on that event log, stopped after the test."""
    table = TableService(store).start()
    yield table
    table.stop()


@pytest.fixture
def port(app: Any) -> Iterator[int]:
    """The folder's `app` served by a real waitress on a free port (its number)."""
    url, stop = serve(app)
    yield int(url.rsplit(":", 1)[1])
    stop()
