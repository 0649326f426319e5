"""Fixtures for the table service: a store in a temporary directory, a running service."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from controller.store import Store
from controller.table.service import TableService

SETUP: dict[str, Any] = {
    "players": ["Ann", "Bob", "Cy", "Di"],
    "game": "attack",
    "first_dealer": 3,
    "seed": 1,
}


def act(service: TableService, action: dict[str, Any], **kw: Any) -> Any:
    return service.submit({"type": "action", "action": action}, **kw)


def started(service: TableService, top: str = "R5", **setup: Any) -> TableService:
    """Set up a match, deal, and turn up `top`: P0 is to move."""
    service.submit({"type": "setup", "setup": SETUP | setup})
    service.submit({"type": "deal"})
    act(service, {"type": "TurnUp", "card": top})
    return service


@contextmanager
def table_on(path: Path) -> Iterator[tuple[Store, TableService]]:
    """The log at `path` opened and a table service started on it (it replays the log)."""
    with Store(path) as store:
        service = TableService(store).start()
        try:
            yield store, service
        finally:
            service.stop()
