"""The Flask app factory: `create_app(table, ...)` wires the blueprints to one table service."""

from __future__ import annotations

import secrets
from datetime import timedelta

from flask import Flask

from controller.config import Config
from controller.table import DemoTable, TableService

from . import (
    api,
    demo_api,
    errors,
    history,
    launcher_api,
    limits,
    pages,
    qr,
    security,
    stream,
    table_access,
)
from .join import bp as join_bp
from .settings import TableSettings


def create_app(
    table: TableService,
    config: Config | None = None,
    *,
    secret_key: str | None = None,
    demo: DemoTable | None = None,
) -> Flask:
    """A scoreboard app for `table`. The secret key signs session cookies: pass a stable one
    (the service keeps one in its store) so tablets stay unlocked across restarts."""
    config = config or Config()
    app = Flask(__name__)
    key = secret_key or secrets.token_hex(32)
    app.config.update(
        SECRET_KEY=key,
        ADMIN_PASSWORD=config.service.admin_password,
        PRESETS_DIR=config.data_path / "presets",
        TABLE_NAME=config.table.name,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
        # Only a request that changes the session sends the cookie back: otherwise a slow read
        # that started earlier (the page's own fetches) could put back an older session, such as
        # the language the tablet just switched away from.
        SESSION_REFRESH_EACH_REQUEST=False,
    )
    limits.install(app)
    table_access.install(app, table)
    app.extensions["settings"] = TableSettings(table, config, key)
    app.extensions["demo"] = demo
    security.install(app)
    errors.register(app)
    for blueprint in (api.bp, launcher_api.bp, demo_api.bp, stream.bp, pages.bp, qr.bp, history.bp):
        app.register_blueprint(blueprint)
    app.register_blueprint(join_bp)  # letting a new tablet in without the PIN
    return app
