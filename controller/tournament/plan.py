"""What the organiser entered, once: a tournament's kind, players and tables, and from that its
schedule (RULES.md §9.6) and each of its matches' set-up.

Kinds:

- `rotation_8p`: eight players on two tables at once; seven rounds, in each of which every
  player partners another (the engine's schedule, `rotation_schedule(8)`: pairs (7, r) and
  ((r+k) mod 7, (r-k) mod 7) for k = 1, 2, 3; pairs 1 and 2 at the first table, 3 and 4 at the
  second), partners opposite, four deals a round at each table.
- `rotation_4p`: four players a table (4 × the tables' count), each table's four their own
  rotation: three rounds (every player partners each of the other three), four deals each.
- `open`: the tables play whatever their players set up; only the leaderboard is combined.

Each round's match at a table is a `rotation_4p` match of four deals among its four players
(`players` in the order pair one, pair two: the engine seats them pair one opposite each other),
tracked or score-only as the organiser chose for that table; every player is credited with
their team's score (§9.6). Its set-up is logged with the tournament's own actor
(`tournament:<id>`): the logs alone say which matches are the tournament's.
"""

from __future__ import annotations

import secrets
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from controller.engine import DEALS_PER_PARTNERSHIP, rotation_schedule
from controller.table import InvalidInput, check_setup, clean_names

KINDS = ("rotation_8p", "rotation_4p", "open")
MODES = ("tracked", "score_only")
TEAM_SCORING = ("winner_team_collects", "team_penalty")

Round = tuple[tuple[str, ...], ...]  # a round: each table's match's players, pair one first


@dataclass(frozen=True)
class Plan:
    """A tournament: its `kind`, `players` (by name), the `tables` it is played at (their ids)
    and how each plays (`modes`: tracked or score-only), the game and team scoring of its
    matches, when it `started` (Unix seconds) and its `id`."""

    id: str
    kind: str
    players: tuple[str, ...]
    tables: tuple[str, ...]
    modes: tuple[str, ...]
    game: str = "attack"
    team_scoring: str = "winner_team_collects"
    started: float = 0.0

    @property
    def actor(self) -> str:
        """Who the log says set its matches up."""
        return f"tournament:{self.id}"

    @property
    def low_wins(self) -> bool:
        """Whether the lowest total leads (team penalty scoring)."""
        return self.team_scoring == "team_penalty"

    def rounds(self) -> list[Round]:
        """Every round's matches, one for each table (none for an `open` tournament)."""
        if self.kind == "rotation_8p":
            by_round: dict[int, dict[int, tuple[int, ...]]] = {}
            for round_, seats, table in rotation_schedule(8):
                by_round.setdefault(round_, {})[table] = seats
            return [
                tuple(self._names(tables[t]) for t in sorted(tables))
                for _, tables in sorted(by_round.items())
            ]
        if self.kind == "rotation_4p":
            groups = [self.players[4 * g : 4 * g + 4] for g in range(len(self.tables))]
            return [
                tuple(self._names(seats, group) for group in groups)
                for _, seats, _ in rotation_schedule(4)
            ]
        return []

    def _names(self, seats: tuple[int, ...], group: Sequence[str] | None = None) -> tuple[str, ...]:
        """A schedule's seats (pair one, pair two, pair one, pair two) as the match's players
        (pair one, then pair two)."""
        names = self.players if group is None else group
        return tuple(names[seats[i]] for i in (0, 2, 1, 3))

    def setup(self, round_: int, table: int) -> dict[str, Any]:
        """The set-up of round `round_`'s match at the `table`-th table."""
        return {
            "players": list(self.rounds()[round_][table]),
            "game": self.game,
            "mode": self.modes[table],
            "first_dealer": 0,
            "seed": zlib.crc32(f"{self.id}:{round_}:{table}".encode()) & 0x3FFFFFFF,
            "options": {
                "format": "rotation_4p",
                "num_deals": DEALS_PER_PARTNERSHIP,
                "team_scoring": self.team_scoring,
            },
        }

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Plan:
        return cls(
            str(data["id"]),
            str(data["kind"]),
            tuple(data["players"]),
            tuple(data["tables"]),
            tuple(data["modes"]),
            str(data["game"]),
            str(data["team_scoring"]),
            float(data["started"]),
        )

    @classmethod
    def entered(cls, data: Mapping[str, Any], served: Sequence[str]) -> Plan:
        """The plan the organiser's form describes (`served`: the service's tables, in order);
        InvalidInput saying what is wrong."""
        kind = data.get("kind")
        if kind not in KINDS:
            raise InvalidInput(f"kind must be one of {', '.join(KINDS)}")
        players = clean_names(data.get("players", []))
        tables = _tables(data.get("tables"), kind, len(players), served)
        plan = cls(
            id=secrets.token_hex(4),
            kind=kind,
            players=tuple(players),
            tables=tables,
            modes=_modes(data.get("modes", "tracked"), tables),
            game=_choice(data, "game", "attack", ("attack", "classic")),
            team_scoring=_choice(data, "team_scoring", "winner_team_collects", TEAM_SCORING),
            started=time.time(),
        )
        plan.check()
        return plan

    def check(self) -> None:
        """The players its kind needs (`clean_names` refused two of one name), and set-ups its
        tables accept."""
        needed = {"rotation_8p": 8, "rotation_4p": 4 * len(self.tables)}.get(self.kind)
        if needed is not None and len(self.players) != needed:
            raise InvalidInput(f"{self.kind} at {len(self.tables)} tables needs {needed} players")
        if self.kind != "open":
            for table in range(len(self.tables)):
                check_setup(self.setup(0, table))


def _tables(given: object, kind: str, players: int, served: Sequence[str]) -> tuple[str, ...]:
    """The tables it is played at: those given, else as many of the service's as it needs."""
    wanted = {"rotation_8p": 2, "rotation_4p": max(1, players // 4)}.get(kind, len(served))
    if given is None:
        if wanted > len(served):
            raise InvalidInput(f"{kind} needs {wanted} tables; this service has {len(served)}")
        return tuple(served[:wanted])
    if not isinstance(given, list) or not all(isinstance(t, str) for t in given):
        raise InvalidInput("tables must be a list of the service's table ids")
    unknown = [t for t in given if t not in served]
    if unknown or len(set(given)) != len(given) or not given:
        raise InvalidInput(f"tables must be some of this service's: {', '.join(served)}")
    if kind == "rotation_8p" and len(given) != 2:
        raise InvalidInput("rotation_8p is played at two tables")
    return tuple(given)


def _modes(given: object, tables: tuple[str, ...]) -> tuple[str, ...]:
    """Each table's mode: one for all ("tracked"), or by table id ({"b": "score_only"})."""
    if isinstance(given, str):
        given = dict.fromkeys(tables, given)
    if not isinstance(given, dict) or set(given) - set(tables):
        raise InvalidInput("modes must be tracked or score_only, or one of them by table id")
    modes = tuple(given.get(table, "tracked") for table in tables)
    if any(mode not in MODES for mode in modes):
        raise InvalidInput(f"a table's mode must be one of {', '.join(MODES)}")
    return modes


def _choice(data: Mapping[str, Any], key: str, default: str, choices: tuple[str, ...]) -> str:
    value = data.get(key, default)
    if value not in choices:
        raise InvalidInput(f"{key} must be one of {', '.join(choices)}")
    return str(value)


def seat_order(players: Sequence[str]) -> list[str]:
    """A round's match players (pair one, pair two) in the order they sit: partners opposite."""
    return [players[i] for i in (0, 2, 1, 3)]
