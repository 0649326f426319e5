"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.store import Store
from controller.table.service import TableService


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
