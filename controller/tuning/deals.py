"""Playing a tuning's deals and tallying them: in this process, or in worker processes.

A task is a profile, a seed and a number of deals: the deals `simulate` plays from that seed,
on the fast path when it covers the rules, else on the validated engine. Its `Tally` keeps the
counts the minutes are made of (so a mean is exactly `simulate`'s) and the sum of squares of
each deal's minutes (a deal's minutes vary about as much as their mean: the spread decides
how many deals a figure needs). A `Runner` plays tasks in this process or in forked workers;
results are keyed by the task, so they never depend on how many workers there are.
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from controller.engine import Rules
from controller.policy import Profile
from controller.simulation import Pace, choose_path, fast_deals, validated_deals

Z = 1.96  # intervals are 95 % (normal approximation of a mean over many deals)


@dataclass(frozen=True)
class Tally:
    """What some deals of one profile came to: the counts the minutes are made of, and the
    sum of squares of each deal's minutes for the spread."""

    pace: Pace = Pace()  # noqa: RUF009 - frozen
    deals: int = 0
    turns: int = 0
    presses: int = 0
    squares: float = 0.0
    longest_drought: int = 0

    def add(self, turns: int, presses: int, drought: int) -> Tally:
        minutes = self.pace.minutes(turns, presses)
        return dataclasses.replace(
            self, deals=self.deals + 1, turns=self.turns + turns,
            presses=self.presses + presses, squares=self.squares + minutes * minutes,
            longest_drought=max(self.longest_drought, drought),
        )  # fmt: skip

    def merged(self, other: Tally) -> Tally:
        return dataclasses.replace(
            self, deals=self.deals + other.deals, turns=self.turns + other.turns,
            presses=self.presses + other.presses, squares=self.squares + other.squares,
            longest_drought=max(self.longest_drought, other.longest_drought),
        )  # fmt: skip

    @property
    def mean(self) -> float:
        """Minutes per deal (as `simulate` reckons them from the same deals)."""
        deals = max(self.deals, 1)
        return self.pace.minutes(self.turns / deals, self.presses / deals)

    @property
    def mean_presses(self) -> float:
        return self.presses / max(self.deals, 1)

    @property
    def spread(self) -> float:
        """The standard deviation of a deal's minutes."""
        if self.deals < 2:
            return math.inf
        mean = self.mean
        variance = (self.squares - self.deals * mean * mean) / (self.deals - 1)
        return math.sqrt(max(variance, 0.0))

    @property
    def half_width(self) -> float:
        """Half the 95 % interval of the mean."""
        return Z * self.spread / math.sqrt(self.deals) if self.deals else math.inf


@dataclass(frozen=True)
class Table:
    """What the simulated deals are played at: the rules, the players, the bots, the pace,
    and the path that plays them (`simulation.choose_path`)."""

    rules: Rules
    players: int
    bot: str = "heuristic"
    pace: Pace = Pace()  # noqa: RUF009 - frozen

    @property
    def path(self) -> str:
        return choose_path(self.rules, self.players, self.bot, "auto")


def play(table: Table, profile: Profile, seed: int, games: int) -> Tally:
    """`games` deals of `seed` (those `simulate` plays from it) under `profile`, tallied."""
    tally = Tally(table.pace)
    rules, players, bot = table.rules, table.players, table.bot
    if table.path == "fast":
        for outcome in fast_deals(rules, players, games, seed, profile, bot):
            tally = tally.add(outcome.turns, outcome.presses, outcome.longest_drought)
        return tally
    for _, stats, _ in validated_deals(rules, players, games, seed, profile, bot):
        tally = tally.add(stats.turns, stats.presses, stats.longest_drought)
    return tally


Task = tuple[Profile, int, int]
"""A profile, a seed and how many of its deals to play."""

_TABLE: Table | None = None  # a worker process's table (set once as it starts)


def _adopt(table: Table) -> None:
    global _TABLE
    _TABLE = table


def _play_here(profile: Profile, seed: int, games: int) -> Tally:
    assert _TABLE is not None, "a worker plays only after _adopt"
    return play(_TABLE, profile, seed, games)


class Runner:
    """Plays tasks at one table: in this process (`jobs` 1) or in `jobs` worker processes.
    Results are keyed by the task's index, so they do not depend on which finishes first."""

    def __init__(self, table: Table, jobs: int = 1) -> None:
        self.table, self.jobs = table, max(1, jobs)
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *_: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def run(self, tasks: Sequence[Task]) -> Iterator[tuple[int, Tally]]:
        """(index, tally) of every task, as each finishes."""
        if self.jobs == 1 or len(tasks) == 1:
            for index, task in enumerate(tasks):
                yield index, play(self.table, *task)
            return
        pool = self._workers()
        futures: dict[Future[Tally], int] = {
            pool.submit(_play_here, *task): index for index, task in enumerate(tasks)
        }
        for future in as_completed(futures):
            yield futures[future], future.result()

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # forked: a worker starts with the rules and tables already imported, and never
            # runs the main module again (a script's, or the command line's)
            context = multiprocessing.get_context("fork")
            self._pool = ProcessPoolExecutor(
                self.jobs, mp_context=context, initializer=_adopt, initargs=(self.table,)
            )
        return self._pool
