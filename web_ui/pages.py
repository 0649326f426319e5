"""The server-rendered pages: the scoreboard, set-up, the API reference."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, session
from flask.typing import ResponseReturnValue

from .i18n import bundle, t

bp = Blueprint("pages", __name__)


def _language() -> str:
    return str(session.get("language", current_app.config["LANGUAGE"]))


@bp.get("/")
def scoreboard() -> ResponseReturnValue:
    language = _language()
    return render_template(
        "scoreboard.html",
        language=language,
        t=lambda key: t(key, language),
        words=bundle(language),
        table_name=current_app.config["TABLE_NAME"],
    )
