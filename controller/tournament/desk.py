"""The tournament desk: the service's one tournament across its tables, followed on a thread of
its own (`tournament`).

The organiser enters the tournament once (`begin`); the desk keeps it in the log's settings, so a
restart carries on with it. Whenever a table logs something that may change where the tournament
stands (a set-up, a deal scored, a match ended, an undo) its hub wakes the desk, which reads every
table's match summaries (`standings.progress`), sets up the next round's match at each table once
every table has finished the round (as the tournament's actor, through the table's own inbox:
`submit`), and shows each table the tournament (`TableService.show_tournament`: its state's
`tournament`, and an `event: tournament` to its scoreboards). The desk only ever waits on one
table at a time, on its own thread: a table that is slow or jammed holds no other table. A set-up
a table refuses or is too busy for is tried again at the next look (every `LOOK_EVERY` seconds at
the latest).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping
from typing import Any

from controller.engine import EngineError, IllegalAction
from controller.store import Store, StoreError
from controller.table import InvalidInput, Message, TableService

from .plan import Plan, seat_order
from .standings import Progress, progress

log = logging.getLogger(__name__)

SETTING = "tournament"  # the log's setting that keeps the tournament under way
LOOK_EVERY = 5.0  # seconds: the desk looks at the tables at least this often
SET_UP_TIMEOUT = 15.0  # seconds a table may take to set a round's match up
STANDING_EVENTS = frozenset({"MatchStarted", "DealScored", "MatchEnded", "Undone"})


class TournamentDesk:
    """The tournament played at `tables` (by id, the service's order; `names`: what their
    scoreboards call them), kept in `store`."""

    def __init__(
        self,
        store: Store,
        tables: Mapping[str, TableService],
        names: Mapping[str, str] | None = None,
    ) -> None:
        self.store = store
        self.tables = dict(tables)
        self.names = {table_id: (names or {}).get(table_id, table_id) for table_id in tables}
        self._plan = self._load()
        self._view: dict[str, Any] | None = None
        self._shown: dict[str, dict[str, Any] | None] = {}
        self._lock = threading.Lock()  # one look at a time
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tournament", daemon=True)

    # ------------------------------------------------------------------ any thread

    def start(self) -> TournamentDesk:
        for table in self.tables.values():
            table.listen(self._heard)
        self._thread.start()
        self._wake.set()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        for table in self.tables.values():
            table.unlisten(self._heard)
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(SET_UP_TIMEOUT + 5)

    def view(self) -> dict[str, Any] | None:
        """The tournament as a whole (the first table's view, without its own `table` and
        `next`), or None when there is none."""
        return self._view

    def begin(self, entered: Mapping[str, Any]) -> dict[str, Any]:
        """Start the tournament the organiser entered (InvalidInput saying what is wrong;
        IllegalAction while another is under way): every table gets its first round's match
        now. Returns its view."""
        plan = Plan.entered(entered, list(self.tables))
        with self._lock:
            if self._plan is not None and not self._look().over:
                raise IllegalAction("a tournament is under way: end it first")
            self.store.set_setting(SETTING, json.dumps(plan.to_json()))
            self._plan = plan
            self._look()
        view = self._view
        assert view is not None
        return view

    def resume(self) -> dict[str, Any]:
        """Set up again the round's match at each table where a person replaced it before it
        ended (a table set up for something else meanwhile). Returns the view."""
        with self._lock:
            if self._plan is None:
                raise IllegalAction("there is no tournament under way")
            found = self._look()
            for table in found.stalled:
                self._set_up(found, table)
            self._look()
        view = self._view
        assert view is not None
        return view

    def end(self) -> None:
        """The organiser ends the tournament: the tables show it no more (their matches stay in
        their logs, as they are)."""
        with self._lock:
            self.store.set_setting(SETTING, "")
            self._plan = None
            self._view = None
            for table_id in self.tables:
                self._show(table_id, None)

    def _heard(self, message: Message) -> None:
        """A table's owner thread published: wake the desk if it may change the standings."""
        if message.event == "record" and any(
            event.get("type") in STANDING_EVENTS for event in message.data.get("events", ())
        ):
            self._wake.set()

    # ------------------------------------------------------------------ the desk's thread

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(LOOK_EVERY)
            self._wake.clear()
            if self._stopping.is_set():
                return
            try:
                with self._lock:
                    if self._plan is not None:
                        self._look()
            except Exception:  # the next look tries again
                log.exception("the tournament desk could not look at the tables")

    def _look(self) -> Progress:
        """Where the tournament stands; the round's missing matches set up; every table shown
        the result. (Holding the lock.)"""
        plan = self._plan
        assert plan is not None
        found = self._progress(plan)
        if found.to_set_up:
            for table in found.to_set_up:
                self._set_up(found, table)
            found = self._progress(plan)
        views = {
            table_id: table_view(found, index, self.names)
            for index, table_id in enumerate(plan.tables)
        }
        self._view = overall_view(found, self.names)
        for table_id, view in views.items():
            self._show(table_id, view)
        return found

    def _progress(self, plan: Plan) -> Progress:
        return progress(plan, {t: self.tables[t].match_summaries() for t in plan.tables})

    def _set_up(self, found: Progress, table: int) -> None:
        plan = found.plan
        table_id = plan.tables[table]
        command = {"type": "setup", "setup": plan.setup(found.round, table)}
        try:
            self.tables[table_id].submit(command, actor=plan.actor, timeout=SET_UP_TIMEOUT)
        except (InvalidInput, EngineError, StoreError, TimeoutError) as error:
            log.warning("tournament: table %s's round %d not set up yet: %s",
                        table_id, found.round + 1, error)  # fmt: skip
        else:
            log.info("tournament: round %d set up at table %s", found.round + 1, table_id)

    def _show(self, table_id: str, view: dict[str, Any] | None) -> None:
        if self._shown.get(table_id, "never") != view:
            self._shown[table_id] = view
            self.tables[table_id].show_tournament(view)

    def _load(self) -> Plan | None:
        raw = self.store.setting(SETTING)
        if not raw:
            return None
        try:
            plan = Plan.from_json(json.loads(raw))
        except (ValueError, KeyError, TypeError) as error:
            log.warning("the tournament kept in the log is unreadable, and left: %s", error)
            return None
        if not set(plan.tables) <= set(self.tables):
            log.warning("the tournament kept in the log is played at tables this service no "
                        "longer has (%s): it is left", ", ".join(plan.tables))  # fmt: skip
            return None
        return plan


def overall_view(found: Progress, names: Mapping[str, str]) -> dict[str, Any]:
    """The tournament as every table and the hall show it: its kind, the round being played
    (0-based; `rounds` once all are over), each table (its id, name and mode) with its match of
    that round (its players in seat order, partners opposite, the deals scored, whether it is
    over) and the standings."""
    plan = found.plan
    rounds = plan.rounds()
    tables = []
    for index, table_id in enumerate(plan.tables):
        entry: dict[str, Any] = {
            "id": table_id,
            "name": names.get(table_id, table_id),
            "mode": plan.modes[index],
        }
        if plan.kind != "open" and not found.over:
            match = found.matches.get((found.round, index))
            entry |= {
                "seating": seat_order(rounds[found.round][index]),
                "deals": len(match.deals) if match else 0,
                "over": bool(match and match.over),
            }
        tables.append(entry)
    return {
        "id": plan.id,
        "kind": plan.kind,
        "players": list(plan.players),
        "round": found.round,
        "rounds": len(rounds),
        "deals_per_round": 4 if plan.kind != "open" else None,
        "over": found.over,
        "low_wins": plan.low_wins,
        "tables": tables,
        "standings": [dict(line) for line in found.standings],
    }


def table_view(found: Progress, index: int, names: Mapping[str, str]) -> dict[str, Any]:
    """What one table's state says of the tournament: the whole (`overall_view`), which of its
    tables this is (`table`, 0-based), and its seating in the next round (`next`: `{round,
    table, seating}`, names in seat order), None in the last round or an open tournament."""
    plan = found.plan
    rounds = plan.rounds()
    upcoming = found.round + 1
    following = None
    if plan.kind != "open" and upcoming < len(rounds):
        following = {
            "round": upcoming,
            "table": index,
            "seating": seat_order(rounds[upcoming][index]),
        }
    return overall_view(found, names) | {"table": index, "next": following}
