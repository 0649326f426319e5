"""How the web layer reaches its table: `table_service()`, the one accessor, for the
`TableService` the app was made with (`install`)."""

from __future__ import annotations

from flask import Flask, current_app

from controller.table import TableService

_KEY = "table"


def install(app: Flask, table: TableService) -> None:
    """`app` serves `table` (when the app is made)."""
    app.extensions[_KEY] = table


def table_service(app: Flask | None = None) -> TableService:
    """The table the current request's app serves, or `app`'s (while it is being set up)."""
    table: TableService = (current_app if app is None else app).extensions[_KEY]
    return table
