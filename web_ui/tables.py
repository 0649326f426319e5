"""Several tables in one service: each table's scoreboard app (`create_app`) at `/t/<id>/`, the
first one also at `/`, so a service of one table keeps its addresses.

`Tables` is the WSGI app `uno-attack run` serves: werkzeug's `DispatcherMiddleware` sends
`/t/<id>/…` to that table's app (with `/t/<id>` as its script root, so its pages' links and
scripts stay within the table) and every other path to the first table's. Each table's app keeps
its own session cookie (the first's `session`, as a service of one table names it; another's
`session_<id>`), signed with its own key: unlocking one table never unlocks another. The event
streams are served per table too (`server.py` routes `/t/<id>/api/events` to that table's loop).

`GET /api/tables`, on every table's app, lists them all; the tournament across them (its desk,
`tournament_api.py`) answers at every table's `/api/tournament`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify
from flask.typing import ResponseReturnValue
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from controller.tournament import TournamentDesk

from . import tournament_api
from .table_access import table_service

bp = Blueprint("tables", __name__)


@dataclass(frozen=True)
class Mount:
    """One table's scoreboard app, its id, name and the kind of its launcher (`gpio`, `board`,
    `sim`, `fake-board`, `none`)."""

    table_id: str
    name: str
    launcher_kind: str
    app: Flask

    @property
    def prefix(self) -> str:
        return f"/t/{self.table_id}"


class Tables:
    """The WSGI app of a service's tables (`mounts`, the first one also at `/`) and the desk of
    the tournament across them."""

    def __init__(self, mounts: Iterable[Mount], desk: TournamentDesk) -> None:
        self.mounts = tuple(mounts)
        if not self.mounts:
            raise ValueError("a service serves at least one table")
        first = self.mounts[0].app
        for index, mount in enumerate(self.mounts):
            if index:
                mount.app.config["SESSION_COOKIE_NAME"] = f"session_{mount.table_id}"
            mount.app.extensions["tables"] = self
            mount.app.extensions["tournament"] = desk
            mount.app.register_blueprint(bp)
            mount.app.register_blueprint(tournament_api.bp)
        self._dispatch = DispatcherMiddleware(first, {m.prefix: m.app for m in self.mounts})

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        return self._dispatch(environ, start_response)

    def routes(self) -> list[tuple[str, Flask]]:
        """(the path prefix, the app served under it): the first table at "" too."""
        return [("", self.mounts[0].app)] + [(m.prefix, m.app) for m in self.mounts]

    def listing(self) -> list[dict[str, Any]]:
        """Every table: id, name, its scoreboard's path, its launcher's kind and status, and
        its match (players, deals scored, over) or None (any thread: the tables' snapshots)."""
        return [_entry(mount, index == 0) for index, mount in enumerate(self.mounts)]


def _entry(mount: Mount, first: bool) -> dict[str, Any]:
    state = table_service(mount.app).snapshot()
    setup = state.get("setup")
    match = None
    if setup:
        match = {
            "players": setup["players"],
            "deals": state.get("deal_count", 0),
            "over": bool(state.get("match_over")),
        }
    return {
        "id": mount.table_id,
        "name": mount.name,
        "url": f"{mount.prefix}/",
        "first": first,  # also served at /
        "launcher": mount.launcher_kind,
        "status": state.get("launcher", {}).get("status", "none"),
        "match": match,
    }


@bp.get("/api/tables")
def tables() -> ResponseReturnValue:
    """Every table of this service."""
    served: Tables = current_app.extensions["tables"]
    return jsonify(tables=served.listing())
