"""The hall's wall board over HTTP: its page (`/`, `templates/hall.html` with
`static/js/hall.js` and `static/css/hall.css`) and `GET /api/hall`.

It serves what a `Board` tells (`controller.hall.Hall` is one; `uno-attack hall` hands it
in) and reads nothing else: no table, no store. `GET /api/hall?after=<version>` waits (up to
`WAIT` seconds) for a newer version than the one the page has, so the wall follows the tables
without polling.
"""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any, Protocol

from flask import Blueprint, Flask, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from web_ui.i18n import LANGUAGES, bundle
from web_ui.words import ENGLISH

WAIT = 25.0  # seconds a page's `?after=` waits for news (under a proxy's usual 30 s)

HALL_WORDS: dict[str, dict[str, str]] = tomllib.loads(
    files(__name__).joinpath("words.toml").read_text(encoding="utf-8")
)

bp = Blueprint("hall", __name__)


class Board(Protocol):
    def view(self, after: int | None = None, wait: float = 0.0) -> dict[str, Any]: ...


def create_hall_app(board: Board, title: str = "UNO Attack") -> Flask:
    """The hall's app for `board`, with the scoreboard's templates and static files."""
    app = Flask(__name__, root_path=str(Path(__file__).resolve().parents[1]))
    app.config.update(HALL_TITLE=title)
    app.extensions["hall_board"] = board
    app.register_blueprint(bp)
    return app


def _board() -> Board:
    board: Board = current_app.extensions["hall_board"]
    return board


def language() -> str:
    """`?lang=` when it names a language there are words for, else the browser's choice."""
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        return asked
    return request.accept_languages.best_match(LANGUAGES) or ENGLISH


@bp.get("/")
def wall() -> ResponseReturnValue:
    lang = language()
    words = bundle(lang)
    words["words"] = words["words"] | HALL_WORDS.get(lang, HALL_WORDS[ENGLISH])
    title = current_app.config["HALL_TITLE"]
    data = words | {"language": lang, "title": title, "wait": WAIT}
    return render_template("hall.html", title=title, language=lang, data=data)


@bp.get("/api/hall")
def hall_view() -> ResponseReturnValue:
    raw = request.args.get("after")
    if raw is not None and not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
        return jsonify(error="after must be a version number from an earlier answer"), 400
    after = None if raw is None else int(raw)
    answer = jsonify(_board().view(after, WAIT if after is not None else 0.0))
    answer.headers["Cache-Control"] = "no-store"
    return answer
