"""Where a tournament stands, from its tables' match summaries alone: which of their matches
are its own (their set-up's actor), the round being played, the matches still to set up, and
every player's total across every table.

A round's match at a table is the latest the tournament set up there with that round's players
(a match set up again, after a person replaced it, counts once: the latest). Every deal scored
counts for its players, a match left unfinished too; the round is over at a table once its match
is over, and the next round begins when it is over at every table. An `open` tournament counts
every match played at its tables since it started, by the players' names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.table import MatchSummary

from .plan import Plan


@dataclass(frozen=True)
class Progress:
    """`round`: the round being played, 0-based (the number of rounds once every one is over);
    `matches`: each (round, table index) the tournament set up, its latest match; `to_set_up`:
    the table indexes whose match of `round` is not set up yet; `stalled`: those whose match of
    `round` a person replaced before it ended; `standings`: every player's line, best first."""

    plan: Plan
    round: int
    matches: dict[tuple[int, int], MatchSummary] = field(default_factory=dict)
    to_set_up: tuple[int, ...] = ()
    stalled: tuple[int, ...] = ()
    standings: tuple[dict[str, Any], ...] = ()

    @property
    def rounds(self) -> int:
        return len(self.plan.rounds())

    @property
    def over(self) -> bool:
        return self.plan.kind != "open" and self.round >= self.rounds


def progress(plan: Plan, summaries: Mapping[str, Sequence[MatchSummary]]) -> Progress:
    """Where `plan` stands, from each of its tables' match summaries (by table id)."""
    if plan.kind == "open":
        played = [s for t in plan.tables for s in summaries.get(t, ()) if s.started >= plan.started]
        return Progress(plan, 0, standings=open_standings(plan, played))
    rounds = plan.rounds()
    matches: dict[tuple[int, int], MatchSummary] = {}
    for index, table in enumerate(plan.tables):
        for summary in summaries.get(table, ()):
            if summary.set_up_by != plan.actor:
                continue
            for number, seated in enumerate(rounds):
                if summary.players == seated[index]:
                    matches[(number, index)] = summary  # the latest of the round's
    tables = range(len(plan.tables))
    current = next(
        (r for r in range(len(rounds)) if not all(_over(matches, r, t) for t in tables)),
        len(rounds),
    )
    missing = tuple(t for t in tables if current < len(rounds) and (current, t) not in matches)
    stalled = tuple(
        t for t in tables
        if (m := matches.get((current, t))) is not None and m.replaced and not m.over
    )  # fmt: skip
    return Progress(
        plan, current, matches, missing, stalled, rotation_standings(plan, matches.values())
    )


def _over(matches: Mapping[tuple[int, int], MatchSummary], round_: int, table: int) -> bool:
    match = matches.get((round_, table))
    return match is not None and match.over


def rotation_standings(plan: Plan, matches: Iterable[MatchSummary]) -> tuple[dict[str, Any], ...]:
    """Every player's total (each deal credits a player their team's score, §9.6) and the
    deals they played, ranked: highest total first, lowest under team penalty scoring."""
    totals = dict.fromkeys(plan.players, 0)
    deals = dict.fromkeys(plan.players, 0)
    for match in matches:
        for deal in match.deals:
            for player, delta in enumerate(deal["deltas"]):
                name = match.players[player]
                totals[name] = totals.get(name, 0) + delta
                deals[name] = deals.get(name, 0) + 1
    lines = [{"name": name, "total": totals[name], "deals": deals[name]} for name in totals]
    sign = 1 if plan.low_wins else -1
    return _ranked(lines, lambda line: sign * line["total"])


def open_standings(plan: Plan, matches: Sequence[MatchSummary]) -> tuple[dict[str, Any], ...]:
    """Every player who played at the tables since the tournament began: matches played and
    won, and the points they scored (a penalty match's count against them), ranked by wins,
    then points."""
    lines: dict[str, dict[str, Any]] = {}
    for match in matches:
        sign = -1 if match.low_wins else 1
        for player, name in enumerate(match.players):
            line = lines.setdefault(name, {"name": name, "played": 0, "wins": 0, "total": 0})
            line["played"] += 1
            line["wins"] += int(match.over and player in match.winners)
            line["total"] += sign * sum(deal["deltas"][player] for deal in match.deals)
    return _ranked(list(lines.values()), lambda line: (-line["wins"], -line["total"]))


def _ranked(lines: list[dict[str, Any]], key: Any) -> tuple[dict[str, Any], ...]:
    """The lines best first, each with its `rank` (equal lines share one)."""
    lines.sort(key=lambda line: (key(line), line["name"]))
    ranked: list[dict[str, Any]] = []
    for index, line in enumerate(lines):
        tied = index and key(lines[index - 1]) == key(line)
        rank = ranked[-1]["rank"] if tied else index + 1
        ranked.append(line | {"rank": rank})
    return tuple(ranked)
