"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A fresh event log in the test's temporary folder."""
    with Store(tmp_path / "uno-attack.db") as opened:
        yield opened
