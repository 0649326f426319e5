"""History across matches, read from the event log: every match with its rounds (for its
chart), a leaderboard (wins, average points per round, best comeback) and a CSV export.

A match is the run of records from one set-up to the next. Undone records do not count: the
scores are those the scoreboard showed when the match ended (or shows now).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, abort, jsonify
from flask.typing import ResponseReturnValue

from controller.store import Record

from .api import service
from .pages import page, page_data

bp = Blueprint("history", __name__)


@dataclass
class PastMatch:
    number: int
    started: float
    players: list[str]
    mode: str
    target: int | None
    deals: list[dict[str, Any]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    over: bool = False

    @property
    def totals(self) -> list[int]:
        totals = [0] * len(self.players)
        for deal in self.deals:
            totals = [t + d for t, d in zip(totals, deal["deltas"], strict=False)]
        return totals

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "started": self.started,
            "players": self.players,
            "mode": self.mode,
            "target": self.target,
            "deals": self.deals,
            "totals": self.totals,
            "winners": self.winners,
            "over": self.over,
        }


def past_matches(records: Iterable[Record]) -> list[PastMatch]:
    """Every match in the log, oldest first."""
    records = list(records)
    undone = {r.command.get("seq") for r in records if r.kind == "undo"}
    matches: list[PastMatch] = []
    for record in records:
        if record.kind == "setup":
            setup = record.command["setup"]
            target = setup.get("options", {}).get("target")
            matches.append(
                PastMatch(len(matches) + 1, record.at, setup["players"], setup["mode"], target)
            )
        elif matches and record.kind != "undo" and record.seq not in undone:
            _count(matches[-1], record.events)
    return matches


def _count(match: PastMatch, events: list[dict[str, Any]]) -> None:
    for event in events:
        if event["type"] == "DealScored":
            match.deals.append({k: event[k] for k in ("number", "winner", "deltas", "seating")})
        elif event["type"] == "MatchEnded":
            match.winners, match.over = list(event["winners"]), True


def leaderboard(matches: list[PastMatch]) -> list[dict[str, Any]]:
    """Per player (by name): matches played and won, average points per round, and the
    biggest deficit they came back from to win a match."""
    rows: dict[str, dict[str, Any]] = {}
    for match in matches:
        if not match.deals:
            continue
        comebacks = _deficits(match)
        for player, name in enumerate(match.players):
            row = rows.setdefault(
                name.lower(),
                {"name": name, "played": 0, "wins": 0, "points": 0, "rounds": 0, "comeback": 0},
            )
            row["played"] += 1
            row["points"] += sum(deal["deltas"][player] for deal in match.deals)
            row["rounds"] += len(match.deals)
            if player in match.winners:
                row["wins"] += 1
                row["comeback"] = max(row["comeback"], comebacks[player])
    board = [
        {**row, "average": round(row["points"] / row["rounds"], 1) if row["rounds"] else 0}
        for row in rows.values()
    ]
    return sorted(board, key=lambda r: (-r["wins"], -r["average"], r["name"]))


def _deficits(match: PastMatch) -> list[int]:
    """Each player's largest gap behind the leader at the end of any round."""
    totals = [0] * len(match.players)
    worst = [0] * len(match.players)
    for deal in match.deals:
        totals = [t + d for t, d in zip(totals, deal["deltas"], strict=False)]
        leader = max(totals)
        worst = [max(w, leader - t) for w, t in zip(worst, totals, strict=False)]
    return worst


def match_csv(match: PastMatch) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["round", "winner", *match.players, *(f"{p} total" for p in match.players)])
    totals = [0] * len(match.players)
    for deal in match.deals:
        totals = [t + d for t, d in zip(totals, deal["deltas"], strict=False)]
        seating = deal.get("seating") or list(range(len(match.players)))
        winner = match.players[seating[deal["winner"]]]
        writer.writerow([deal["number"], winner, *deal["deltas"], *totals])
    return out.getvalue()


def _matches() -> list[PastMatch]:
    table = service()
    return past_matches(table.all_records())


@bp.get("/history")
def history_page() -> ResponseReturnValue:
    return page("history.html", data=page_data(), script="history")


@bp.get("/api/matches")
def matches_json() -> ResponseReturnValue:
    matches = _matches()
    return jsonify(
        matches=[m.to_dict() for m in reversed(matches)], leaderboard=leaderboard(matches)
    )


@bp.get("/api/matches/<int:number>.csv")
def match_csv_file(number: int) -> ResponseReturnValue:
    matches = _matches()
    if not 1 <= number <= len(matches):
        abort(404)
    response = Response(match_csv(matches[number - 1]), mimetype="text/csv")
    filename = f"uno-attack-match-{number}.csv"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
