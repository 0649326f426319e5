"""History across matches, read from the event log: every match with its rounds (for its
chart), a leaderboard (wins, average points per round, best comeback) and a CSV export.

A match is the run of records from one set-up to the next. Undone records do not count: the
scores are those the scoreboard showed when the match ended (or shows now). Only the table's
last match can still be in progress: one that a new set-up replaced before it ended was
abandoned.

The pages read the table's match summaries (`controller/table/summaries.py`: a few rows, on a
read-only connection, never the log's records nor the lock commands need), and build the
answer once per change of them: a tablet that asks again and again gets the same bytes, and
askers at once wait for the one building it, not the table. A client that asks more often than
`Pace` allows (a few at once, then RATE a second) waits its turn, asleep; when HELD requests
are waiting already, or its turn is more than MAX_WAIT away, it is answered 429 at once.
"""

from __future__ import annotations

import csv
import io
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, abort, current_app, request
from flask.typing import ResponseReturnValue

from controller.store import Record
from controller.table import MatchSummary, Published, TableService, summarize

from .pages import page, page_data
from .table_access import table_service

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

    @classmethod
    def of(cls, number: int, summary: MatchSummary) -> PastMatch:
        return cls(
            number, summary.started, list(summary.players), summary.mode, summary.target,
            low_wins=summary.low_wins, deals=list(summary.deals), winners=list(summary.winners),
            over=summary.over, replaced=summary.replaced,
        )  # fmt: skip

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
    """Every match in these records (a table's whole log), oldest first."""
    return [PastMatch.of(number, s) for number, s in enumerate(summarize(records), 1)]


def leaderboard(matches: list[PastMatch]) -> list[dict[str, Any]]:
    """Per player (by name): matches played and won, average points per round, and the best
    comeback: the most points they were ever behind the leader, at the end of a round, in a
    match they went on to win."""
    return _board(_standings(matches))


Standings = dict[str, dict[str, Any]]
"""The leaderboard's sums so far, per player (by the lower-case name)."""


def _standings(matches: list[PastMatch], before: Standings | None = None) -> Standings:
    """The sums of `before` (left as it is) with these matches added."""
    rows = {key: dict(row) for key, row in (before or {}).items()}
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
    return rows


def _board(rows: Standings) -> list[dict[str, Any]]:
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


class Built:
    """The history as of one state of the table's matches: the matches and the JSON answer.
    The finished matches' part (their JSON, their leaderboard sums) is kept until a match is
    finished, so a round of the current match costs that match only."""

    def __init__(self, table: TableService) -> None:
        self._lock = threading.Lock()
        self.table = table
        self._mark: Published | None = None
        self._finished_key: object = None
        self._finished: list[PastMatch] = []
        self._finished_json = b""  # their dicts, newest first, without the brackets
        self._finished_sums: Standings = {}
        self.matches: list[PastMatch] = []
        self.body = b""

    def now(self) -> Built:
        """Brought up to date if the table's matches changed (one builder at a time: the
        others wait for it and share what it built)."""
        with self._lock:
            mark = self.table.history_mark()
            if mark is not self._mark:
                self._build(mark)
            return self

    def _build(self, mark: Published) -> None:
        dumps = current_app.json.dumps
        if (mark.saved, mark.unsaved) != self._finished_key:
            summaries = self.table.match_summaries(mark)
            if mark.current is not None:
                summaries.pop()
            self._finished = [PastMatch.of(n, s) for n, s in enumerate(summaries, 1)]
            texts = [dumps(m.to_dict()) for m in reversed(self._finished)]
            self._finished_json = ",".join(texts).encode("utf-8")
            self._finished_sums = _standings(self._finished)
            self._finished_key = (mark.saved, mark.unsaved)
        matches, sums = list(self._finished), self._finished_sums
        parts: list[bytes] = []
        if mark.current is not None:
            current = PastMatch.of(len(matches) + 1, mark.current)
            matches.append(current)
            parts.append(dumps(current.to_dict()).encode("utf-8"))
            sums = _standings([current], sums)
        if self._finished_json:
            parts.append(self._finished_json)
        board = dumps(_board(sums)).encode("utf-8")
        self.body = b'{"leaderboard":%s,"matches":[%s]}' % (board, b",".join(parts))
        self._mark, self.matches = mark, matches


def _built() -> Built:
    table = table_service()
    built = current_app.extensions.get("history")
    if not isinstance(built, Built) or built.table is not table:
        built = current_app.extensions["history"] = Built(table)
    return built.now()


RATE = 4.0  # history answers a second per client address, after...
BURST = 4  # ...this many at once (a page and its downloads never wait)
MAX_WAIT = 5.0  # seconds a request may be held for its turn
HELD = 8  # requests held at once, at most: each holds a server thread (32 by default)
ADDRESSES = 1024  # addresses remembered (the least recently seen is forgotten)


class TooOften(Exception):
    """A client's turn is too far away, or too many are waiting already (HTTP 429)."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"too many requests: ask again in {retry_after:.1f} s")
        self.retry_after = retry_after


class Pace:
    """Per client address, a bucket of BURST answers refilled at RATE a second. A request
    without one waits (asleep, holding no lock) for its turn."""

    def __init__(
        self,
        *,
        rate: float = RATE,
        burst: int = BURST,
        max_wait: float = MAX_WAIT,
        held: int = HELD,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.rate, self.burst, self.max_wait, self.held = rate, burst, max_wait, held
        self._clock, self._sleep = clock, sleep
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when
        self.waiting = 0

    def wait_turn(self, address: str) -> None:
        """Return when `address` may be answered; TooOften if it would wait too long."""
        wait = self._reserve(address)
        if wait <= 0:
            return
        try:
            self._sleep(wait)
        finally:
            with self._lock:
                self.waiting -= 1

    def _reserve(self, address: str) -> float:
        with self._lock:
            now = self._clock()
            tokens, then = self._buckets.pop(address, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            wait = max(0.0, (1 - tokens) / self.rate)
            if wait > 0 and (wait > self.max_wait or self.waiting >= self.held):
                self._buckets[address] = (tokens, now)
                raise TooOften(max(wait, 1 / self.rate))
            self._buckets[address] = (tokens - 1, now)  # below 0: turns already promised
            while len(self._buckets) > ADDRESSES:
                self._buckets.popitem(last=False)
            if wait > 0:
                self.waiting += 1
            return wait


def _paced() -> ResponseReturnValue | None:
    """None when this client may be answered (after waiting its turn), else the 429."""
    pace = current_app.extensions.get("history_pace")
    if not isinstance(pace, Pace):
        pace = current_app.extensions["history_pace"] = Pace()
    try:
        pace.wait_turn(request.remote_addr or "")
    except TooOften as refused:
        answer = current_app.json.response(error=str(refused))
        answer.status_code = 429
        answer.headers["Retry-After"] = str(math.ceil(refused.retry_after))
        return answer
    return None


@bp.get("/history")
def history_page() -> ResponseReturnValue:
    return page("history.html", data=page_data(), script="history")


@bp.get("/api/matches")
def matches_json() -> ResponseReturnValue:
    refused = _paced()
    if refused is not None:
        return refused
    return Response(_built().body, content_type="application/json")


@bp.get("/api/matches/<int:number>.csv")
def match_csv_file(number: int) -> ResponseReturnValue:
    refused = _paced()
    if refused is not None:
        return refused
    matches = _built().matches
    if not 1 <= number <= len(matches):
        abort(404)
    body = match_csv(matches[number - 1]).encode("utf-8")
    response = Response(body, content_type="text/csv; charset=utf-8")
    filename = f"uno-attack-match-{number}.csv"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
