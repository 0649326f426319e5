"""What the hall shows, worked out from what the tables said: a table's match at a glance, the
next round's seating, and the standings across tables. Functions of the tables' JSON only (no
I/O, no clock), so they are tested on plain data.

The standings (docs/HALL.md): per player, by name (names compared as the tables compare them:
Unicode NFKC, case folded, so `Ann`, `ANN` and `Ａｎｎ` are one player), the sum of their totals
in every counted match of every table. A table's matches and their totals are those its
`GET /api/matches` reports (every match in its event log, over, in progress or abandoned, its
totals the sum of its scored rounds, undone rounds left out); a match counts once it has scored
a round and, when the hall is given a `since` time, when it started at or after it. Rows are
ordered by total, highest first (then by matches won, then by name); equal totals and wins
share a rank. Totals of matches scored in different ways (points won, penalty points, deals
lost) are added as they are: a hall compares like with like when its tables play one format.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

SCORING_EVENTS = frozenset({"DealScored", "MatchEnded"})


def touches_totals(record: dict[str, Any]) -> bool:
    """Whether a logged record can change the table's matches or their totals: a set-up (a new
    match), an undo, or a record that scored a deal or ended the match (what the table's own
    history counts)."""
    if record.get("kind") in ("setup", "undo"):
        return True
    return any(event.get("type") in SCORING_EVENTS for event in record.get("events") or ())


@dataclass(frozen=True)
class PlayedMatch:
    """One match of a table, as its `GET /api/matches` reports it."""

    number: int
    started: float
    players: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int  # scored rounds (deals)
    status: str  # over, in_progress, abandoned

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayedMatch:
        """ValueError when the table's answer is not a match as the API describes it."""
        try:
            match = cls(
                int(data["number"]),
                float(data["started"]),
                tuple(str(name) for name in data["players"]),
                tuple(int(total) for total in data["totals"]),
                tuple(int(winner) for winner in data.get("winners") or ()),
                len(data.get("deals") or ()),
                str(data.get("status", "")),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"a match the hall cannot read: {error}") from None
        if len(match.totals) != len(match.players):
            raise ValueError(f"match {match.number}: not one total per player")
        return match


def read_matches(answer: object) -> tuple[PlayedMatch, ...]:
    """The matches of a `GET /api/matches` answer, oldest first."""
    if not isinstance(answer, dict) or not isinstance(answer.get("matches"), list):
        raise ValueError("not an answer of GET /api/matches")
    matches = [PlayedMatch.from_json(match) for match in answer["matches"]]
    return tuple(sorted(matches, key=lambda match: match.number))


def name_key(name: str) -> str:
    """The form in which two names are the same player."""
    return unicodedata.normalize("NFKC", name).casefold()


def standings(
    tables: Iterable[Sequence[PlayedMatch]], since: float | None = None
) -> list[dict[str, Any]]:
    """The combined leaderboard of these tables' matches: `{rank, name, total, matches, wins}`
    per player (`name` as first seen), in the order the module's docstring says."""
    rows: dict[str, dict[str, Any]] = {}
    for matches in tables:
        for match in matches:
            if not match.rounds or (since is not None and match.started < since):
                continue
            for player, name in enumerate(match.players):
                row = rows.setdefault(
                    name_key(name), {"name": name, "total": 0, "matches": 0, "wins": 0}
                )
                row["total"] += match.totals[player]
                row["matches"] += 1
                row["wins"] += player in match.winners
    ordered = sorted(rows.values(), key=lambda row: (-row["total"], -row["wins"], row["name"]))
    board: list[dict[str, Any]] = []
    for place, row in enumerate(ordered, 1):
        tied = board and (board[-1]["total"], board[-1]["wins"]) == (row["total"], row["wins"])
        board.append({"rank": board[-1]["rank"] if tied else place, **row})
    return board


def match_view(state: dict[str, Any]) -> dict[str, Any] | None:
    """A table's match at a glance, from its state (`GET /api/state`): the players in their
    seats with their totals and hand counts, the phase, whose turn it is and who is next, the
    card on top, the match's end and the next round's seating. None when no match is set up."""
    setup = state.get("setup")
    if not setup:
        return None
    players = [str(name) for name in setup.get("players") or ()]
    totals = list(state.get("totals") or [0] * len(players))
    seating = list(state.get("seating") or range(len(players)))
    deal = state.get("deal") or {}
    hands, active = deal.get("hands") or [], deal.get("active") or []
    uno = set(deal.get("uno") or ())

    def seated(seat: object) -> str | None:
        name: str | None = _item(players, _item(seating, seat))
        return name

    seats = [
        {
            "name": _item(players, player),
            "total": _item(totals, player),
            "hand": _item(hands, seat),
            "uno": seat in uno,
            "out": _item(active, seat) is False,
            "dealer": seat == deal.get("dealer"),
        }
        for seat, player in enumerate(seating)
    ]
    return {
        "players": seats,
        "phase": deal.get("phase"),
        "turn": seated(deal.get("to_move")),
        "next": seated(deal.get("next")),
        "top": deal.get("top"),
        "colour": deal.get("colour"),
        "format": (state.get("house") or {}).get("format", "standard"),
        "target": state.get("target"),
        "mode": setup.get("mode", "tracked"),
        "over": bool(state.get("match_over")),
        "winners": [_item(players, player) for player in state.get("winners") or ()],
        "next_seating": next_seating(state),
    }


def next_seating(state: dict[str, Any]) -> dict[str, Any] | None:
    """The next round's seating the table's state says: `{round, table, seating}` (round and
    table counted from 0; seating the names in seat order, partners opposite: seats 0 and 2, 1
    and 3), or None.

    The hook for a tournament across tables: its state's `tournament` key, when it has a
    `next` of that shape (its seating as player numbers or names), comes first. Else the
    rotation formats' own next pairing (`standings.next`) is used."""
    players = list((state.get("setup") or {}).get("players") or ())
    tournament = state.get("tournament")
    upcoming = tournament.get("next") if isinstance(tournament, dict) else None
    if not upcoming:
        upcoming = (state.get("standings") or {}).get("next")
    if not isinstance(upcoming, dict):
        return None
    seating = [
        who if isinstance(who, str) else _item(players, who)
        for who in upcoming.get("seating") or ()
    ]
    return {"round": upcoming.get("round"), "table": upcoming.get("table"), "seating": seating}


def launcher_view(state: dict[str, Any]) -> dict[str, Any] | None:
    """The launcher's status, fault and tension from the table's state (None: it said none)."""
    launcher = state.get("launcher")
    if not isinstance(launcher, dict):
        return None
    return {key: launcher.get(key) for key in ("status", "fault", "tension")}


def _item(values: Sequence[Any], index: object) -> Any:
    """`values[index]`, or None where a table's state has no such entry."""
    if isinstance(index, int) and 0 <= index < len(values):
        return values[index]
    return None
