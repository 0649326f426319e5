"""History across matches, read from the event log: every match with its rounds (for its
chart), a leaderboard (wins, average points per round, best comeback) and a CSV export.

A match is the run of records from one set-up to the next. Undone records do not count: the
scores are those the scoreboard showed when the match ended (or shows now). Only the table's
last match can still be in progress: one that a new set-up replaced before it ended was
abandoned.
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
    low_wins: bool = False  # the lowest total wins (penalty points, elimination)
    deals: list[dict[str, Any]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    over: bool = False
    replaced: bool = False  # a later set-up replaced it

    @property
    def status(self) -> str:
        """The match's status: over, in_progress (the table's current match) or abandoned
        (a new set-up replaced it before it ended)."""
        if self.over:
            return "over"
        return "abandoned" if self.replaced else "in_progress"

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
            "status": self.status,
        }


def past_matches(records: Iterable[Record]) -> list[PastMatch]:
    """Every match in the log, oldest first."""
    records = list(records)
    undone = {r.command.get("seq") for r in records if r.kind == "undo"}
    matches: list[PastMatch] = []
    for record in records:
        if record.kind == "setup":
            setup = record.command["setup"]
            options = setup.get("options", {})
            if matches:
                matches[-1].replaced = True
            matches.append(
                PastMatch(
                    len(matches) + 1,
                    record.at,
                    setup["players"],
                    setup.get("mode", "tracked"),
                    options.get("target"),
                    low_wins=_low_wins(options),
                )
            )
        elif matches and record.kind != "undo" and record.seq not in undone:
            _count(matches[-1], record.events)
    return matches


def _low_wins(options: dict[str, Any]) -> bool:
    """Whether the lowest total leads in a match of these options (RULES.md §9.2-§9.6): penalty
    and bust scoring, both eliminations, team penalty scoring."""
    match_format = options.get("format", "standard")
    if match_format in ("elim_within_deal", "elim_tournament"):
        return True
    if match_format in ("team_play", "rotation_4p", "rotation_8p"):
        return bool(options.get("team_scoring") == "team_penalty")
    return options.get("scoring", "winner_collects") in ("penalty", "bust")


def _count(match: PastMatch, events: list[dict[str, Any]]) -> None:
    for event in events:
        if event["type"] == "DealScored":
            match.deals.append({k: event[k] for k in ("number", "winner", "deltas", "seating")})
        elif event["type"] == "MatchEnded":
            match.winners, match.over = list(event["winners"]), True


def leaderboard(matches: list[PastMatch]) -> list[dict[str, Any]]:
    """Per player (by name): matches played and won, average points per round, and the best
    comeback: the most points they were ever behind the leader, at the end of a round, in a
    match they went on to win."""
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
    """Each player's largest gap behind the leader at the end of any round (the leader has
    the lowest total where the lowest wins)."""
    totals = [0] * len(match.players)
    worst = [0] * len(match.players)
    for deal in match.deals:
        totals = [t + d for t, d in zip(totals, deal["deltas"], strict=False)]
        if match.low_wins:
            gaps = [t - min(totals) for t in totals]
        else:
            gaps = [max(totals) - t for t in totals]
        worst = [max(w, gap) for w, gap in zip(worst, gaps, strict=False)]
    return worst


CSV_BOM = "\ufeff"
"""Starts the CSV file, so a spreadsheet reads it as UTF-8 (Chinese names stay readable)."""


def match_csv(match: PastMatch) -> str:
    """One row per round: its number, its winner, every player's points in that round, then
    every player's running total; a byte-order mark first."""
    out = io.StringIO()
    out.write(CSV_BOM)
    writer = csv.writer(out)
    names = [_cell(name) for name in match.players]
    writer.writerow(["round", "winner", *names, *(f"{name} total" for name in names)])
    totals = [0] * len(match.players)
    for deal in match.deals:
        totals = [t + d for t, d in zip(totals, deal["deltas"], strict=False)]
        seating = deal.get("seating") or list(range(len(match.players)))
        winner = names[seating[deal["winner"]]]
        writer.writerow([deal["number"], winner, *deal["deltas"], *totals])
    return out.getvalue()


def _cell(text: str) -> str:
    """A name a spreadsheet would take for a formula ("=1+1", "@SUM(...)") kept as text."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


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
    body = match_csv(matches[number - 1]).encode("utf-8")
    response = Response(body, content_type="text/csv; charset=utf-8")
    filename = f"uno-attack-match-{number}.csv"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
