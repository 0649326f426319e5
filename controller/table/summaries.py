"""Each match of a table in a few values, for the history (`web_ui/history.py`): who played,
the rounds (their number, winner, seating and each player's points), who won, whether it ended.

A match is the run of records from one set-up to the next. Undone records do not count: the
scores are those the scoreboard showed when the match ended (or shows now).

The table's owner thread keeps them (`MatchHistory`): the current match's summary in memory,
counted record by record as the match goes, and a finished match's in the log's
`match_summary` table once a new set-up replaced it. So the history reads a few rows, never
the whole log, and never the lock commands need. A log that has matches without a summary
(written before the table existed, or a crash between a set-up and its summary) is summarised
from its records when the table starts.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from controller.store import Record, Store, StoreError

log = logging.getLogger(__name__)

DEAL_KEYS = ("number", "winner", "deltas", "seating")


@dataclass(frozen=True)
class MatchSummary:
    """One match, as the history shows it. Immutable: readers on any thread share it."""

    setup_seq: int
    started: float
    players: tuple[str, ...]
    mode: str
    target: int | None
    low_wins: bool  # the lowest total wins (penalty points, elimination)
    deals: tuple[dict[str, Any], ...]  # per round: DEAL_KEYS
    winners: tuple[int, ...] = ()
    over: bool = False
    replaced: bool = False  # a later set-up replaced it
    set_up_by: str = ""  # who set it up (the set-up record's actor: a tablet, the bots, ...)

    def to_row(self) -> dict[str, Any]:
        """JSON-ready, as the log's `match_summary` table keeps it (all but `setup_seq`)."""
        return {
            "started": self.started,
            "players": list(self.players),
            "mode": self.mode,
            "target": self.target,
            "low_wins": self.low_wins,
            "deals": list(self.deals),
            "winners": list(self.winners),
            "over": self.over,
            "replaced": self.replaced,
            "set_up_by": self.set_up_by,
        }

    @classmethod
    def from_row(cls, setup_seq: int, row: dict[str, Any]) -> MatchSummary:
        return cls(
            setup_seq,
            float(row["started"]),
            tuple(row["players"]),
            str(row["mode"]),
            row["target"],
            bool(row["low_wins"]),
            tuple(row["deals"]),
            tuple(row["winners"]),
            bool(row["over"]),
            bool(row.get("replaced", True)),
            str(row.get("set_up_by", "")),
        )


MOST_POINTS = 10**9  # beyond any deal: 9 hands of a deck's every point, at chip rates


def plausible(deltas: object) -> bool:
    """Whether a deal's points could be real: whole numbers a deal can score. A record stored
    before the table bounded points (a round of 10**309) must not break the history."""
    return isinstance(deltas, list) and all(
        isinstance(d, int) and not isinstance(d, bool) and abs(d) <= MOST_POINTS for d in deltas
    )


def low_wins(options: dict[str, Any]) -> bool:
    """Whether the lowest total leads in a match of these options (RULES.md §9.2-§9.6): penalty
    and bust scoring, both eliminations, team penalty scoring."""
    match_format = options.get("format", "standard")
    if match_format in ("elim_within_deal", "elim_tournament"):
        return True
    if match_format in ("team_play", "rotation_4p", "rotation_8p"):
        return bool(options.get("team_scoring") == "team_penalty")
    return options.get("scoring", "winner_collects") in ("penalty", "bust")


class Tally:
    """One match being counted, record by record (the owner thread's, mutable)."""

    def __init__(self, setup: Record) -> None:
        data = setup.command["setup"]
        options = data.get("options", {})
        self.setup_seq, self.started, self.set_up_by = setup.seq, setup.at, setup.actor
        self.players = tuple(data["players"])
        self.mode = data.get("mode", "tracked")
        self.target = options.get("target")
        self.low_wins = low_wins(options)
        self.deals: list[dict[str, Any]] = []
        self.scored_by: list[int] = []  # the seq of the record that scored each deal
        self.winners: tuple[int, ...] = ()
        self.ended_by: int | None = None  # the seq of the record that ended the match

    def count(self, record: Record) -> bool:
        """Count one record of the match (not its set-up); whether the summary changed."""
        if record.kind == "undo":
            return self.uncount(record.command.get("seq"))
        changed = False
        for event in record.events:
            if event.get("type") == "DealScored":
                if not plausible(event.get("deltas")):
                    log.warning("record %s scores no deal a deck allows: left out", record.seq)
                    continue
                self.deals.append({key: event[key] for key in DEAL_KEYS})
                self.scored_by.append(record.seq)
                changed = True
            elif event.get("type") == "MatchEnded":
                self.winners, self.ended_by = tuple(event["winners"]), record.seq
                changed = True
        return changed

    def uncount(self, seq: object) -> bool:
        """Take back what record `seq` counted (it was undone: always the latest one counted)."""
        changed = False
        while self.scored_by and self.scored_by[-1] == seq:
            self.scored_by.pop()
            self.deals.pop()
            changed = True
        if self.ended_by is not None and self.ended_by == seq:
            self.winners, self.ended_by, changed = (), None, True
        return changed

    def summary(self, *, replaced: bool = False) -> MatchSummary:
        return MatchSummary(
            self.setup_seq, self.started, self.players, self.mode, self.target, self.low_wins,
            tuple(self.deals), self.winners, self.ended_by is not None, replaced, self.set_up_by,
        )  # fmt: skip


def summarize(records: Iterable[Record]) -> list[MatchSummary]:
    """Every match in these records (a table's, in order), oldest first; records before the
    first set-up belong to no match. Every match but the last was replaced."""
    records = list(records)
    undone = {r.command.get("seq") for r in records if r.kind == "undo"}
    tallies: list[Tally] = []
    for record in records:
        if record.kind == "setup":
            tallies.append(Tally(record))
        elif tallies and record.kind != "undo" and record.seq not in undone:
            tallies[-1].count(record)
    last = len(tallies) - 1
    return [tally.summary(replaced=index < last) for index, tally in enumerate(tallies)]


@dataclass(frozen=True)
class Published:
    """What the history may read, replaced as a whole by the owner thread: the number of
    summaries saved in the log (the oldest matches), any it could not save yet, the current
    match's. A new object whenever any of it changes (a reader's cache key)."""

    saved: int
    unsaved: tuple[MatchSummary, ...] = ()
    current: MatchSummary | None = None


class MatchHistory:
    """A table's match summaries, kept by its owner thread; read from any thread."""

    def __init__(self, store: Store, table_id: str) -> None:
        self.store, self.table_id = store, table_id
        self.published = Published(0)
        self._saved = 0
        self._tally: Tally | None = None
        self._unsaved: list[MatchSummary] = []

    # --- the owner thread ---

    def fill(self) -> int:
        """Make the log's summaries those of every match but the latest (the current one):
        summarise, from their records, the matches that have none. Return how many. When they
        cannot be saved (a full disk) they are shown from memory and saved with a later set-up:
        a start never fails for want of them."""
        setups = self.store.setups(self.table_id)
        finished = setups[:-1]
        ends = dict(zip(finished, setups[1:], strict=True))
        missing: list[int] = []
        try:
            have = self.store.keep_summaries(self.table_id, finished)
            missing = [seq for seq in finished if seq not in have]
            for seq in missing:
                self.store.save_summary(self.table_id, seq, self._summarize(seq, ends).to_row())
            self._saved, self._unsaved = len(finished), []
        except StoreError as error:
            log.warning("history: the matches' summaries are not saved yet: %s", error)
            rows = dict(self.store.summaries(self.table_id))
            self._saved = 0
            self._unsaved = [
                MatchSummary.from_row(seq, rows[seq]) if seq in rows else self._summarize(seq, ends)
                for seq in finished
            ]
        if missing:
            log.info("history: %d past matches summarised from the log", len(missing))
        self._publish()
        return len(missing)

    def _summarize(self, seq: int, ends: dict[int, int]) -> MatchSummary:
        """The finished match set-up `seq` began, from its records (a set-up replaced it)."""
        records = self.store.records(self.table_id, after=seq - 1, before=ends[seq])
        (summary,) = summarize(records)
        return replace(summary, replaced=True)

    def recount(self, match: list[Record]) -> None:
        """The current match counted again from its records (a rebuild or a full replay)."""
        if not match or match[0].kind != "setup":
            self._tally = None
        else:
            self._tally = Tally(match[0])
            undone = {r.command.get("seq") for r in match if r.kind == "undo"}
            for record in match[1:]:
                if record.kind != "undo" and record.seq not in undone:
                    self._tally.count(record)
        self._publish()

    def note(self, record: Record) -> None:
        """A record just committed: count it, or (a set-up) keep the match it replaced."""
        if record.kind == "setup":
            if self._tally is not None:
                self._unsaved.append(self._tally.summary(replaced=True))
            self._tally = Tally(record)
            self._save()
            self._publish()
        elif self._tally is not None and self._tally.count(record):
            self._publish()

    def _save(self) -> None:
        """Save the finished summaries not saved yet; one that cannot be (a full disk) is kept
        in memory, shown all the same, and saved with the next set-up or at the next start."""
        while self._unsaved:
            summary = self._unsaved[0]
            try:
                self.store.save_summary(self.table_id, summary.setup_seq, summary.to_row())
            except StoreError as error:
                log.warning("history: the summary of a match is not saved yet: %s", error)
                return
            self._unsaved.pop(0)
            self._saved += 1

    def _publish(self) -> None:
        """Readers see the saved count, the unsaved and the current match change together."""
        current = None if self._tally is None else self._tally.summary()
        self.published = Published(self._saved, tuple(self._unsaved), current)

    # --- any thread ---

    def summaries(self, published: Published | None = None) -> list[MatchSummary]:
        """Every match of the table as `published` (the latest if None) says, oldest first:
        the saved summaries (read-only connection), then the unsaved, then the current."""
        view = self.published if published is None else published
        rows = self.store.summaries(self.table_id, limit=view.saved) if view.saved else []
        matches = [MatchSummary.from_row(seq, row) for seq, row in rows]
        matches.extend(view.unsaved)
        if view.current is not None:
            matches.append(view.current)
        return matches
