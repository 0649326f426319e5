"""The standings worked out from the tables' own event logs (SQLite, read-only), apart from the
hall: what its standings must equal once it has caught up."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path
from typing import Any


def logged_totals(paths: Iterable[Path], table_id: str = "main") -> dict[str, int]:
    """Per player name, the points of every deal scored in these logs (each deal's `deltas`,
    by the players of the match it belongs to), undone records left out."""
    totals: Counter[str] = Counter()
    for path in paths:
        players: list[str] = []
        rows = _records(path, table_id)
        undone = {json.loads(command).get("seq") for _, kind, command, _ in rows if kind == "undo"}
        for seq, kind, command, events in rows:
            if kind == "setup":
                players = json.loads(command)["setup"]["players"]
            elif kind != "undo" and seq not in undone:
                for event in json.loads(events):
                    if event["type"] == "DealScored":
                        for player, points in enumerate(event["deltas"]):
                            totals[players[player]] += points
    return dict(totals)


def last_seq(path: Path, table_id: str = "main") -> int:
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        row = db.execute("SELECT MAX(seq) FROM log WHERE table_id = ?", (table_id,)).fetchone()
    return int(row[0] or 0)


def logged_deals(path: Path, table_id: str = "main") -> int:
    """How many deals the log scored (undone ones too)."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        query = "SELECT COUNT(*) FROM log WHERE table_id = ? AND events LIKE '%\"DealScored\"%'"
        return int(db.execute(query, (table_id,)).fetchone()[0])


def logged_matches(path: Path, table_id: str = "main") -> int:
    """How many matches the log holds (its set-ups)."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        query = "SELECT COUNT(*) FROM log WHERE table_id = ? AND kind = 'setup'"
        return int(db.execute(query, (table_id,)).fetchone()[0])


def hall_totals(view: dict[str, Any]) -> dict[str, int]:
    """The hall's standings as name → total."""
    return {row["name"]: row["total"] for row in view["standings"]}


def _records(path: Path, table_id: str) -> list[tuple[int, str, str, str]]:
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return db.execute(
            "SELECT seq, kind, command, events FROM log WHERE table_id = ? ORDER BY seq",
            (table_id,),
        ).fetchall()
