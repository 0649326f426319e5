"""``uno-attack safe-off`` for the launcher boards, and for a service of several tables
(``[[tables]]``): every table's motor stopped, each reported under its table id.

The table on the Pi's own pins (``launcher = "gpio"``, one at most) gets its motor lines driven
low with its own pin profile, by the same per-line code as a one-table service
(`controller.launcher.safeoff`, handed in as `PinsOff`). Each Pico board (``launcher =
"board"``) is told SAFE on the port of the board with its USB serial number, found as
`uno-attack run` finds it; a board that is not plugged in drives no motor, which is not a
failure. Simulated launchers, fake boards (both live inside the stopped service) and tables
without a launcher have no motor to stop. Each table is handled whatever happened at the others:
a busy line, a board that cannot be looked for or did not acknowledge is that table's error,
and the command exits 1 if any table had one.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.cli.tables import TablePlan

PinsOff = Callable[[str], tuple[list[str], list[str], str]]
"""Drive a pin profile's motor lines off: (lines done, error lines, where: "GPIO" or "mock
pins"). May raise (a pin profile that cannot be loaded, pins that cannot be opened)."""

PortLookup = Callable[[str | None], str | None]
"""The port of the board with a USB serial number (None: the one board where `find_port`
looks), or None when it is not plugged in. Raises LookupError (several boards) or OSError."""

SafeCommand = Callable[[str], bool]
"""Tell the board on a port SAFE: True once it acknowledged. Raises OSError if the port cannot
be opened."""

NO_MOTOR = {
    "sim": "the simulated launcher has no motor to stop",
    "fake-board": "a fake board has no motor to stop",
    "none": "no launcher, no motor to stop",
}


@dataclass(frozen=True)
class TableOutcome:
    """What safe-off did at one table: where (`GPIO`, `mock pins`, `board`, or the launcher's
    kind), the lines it reports and the errors."""

    where: str
    done: list[str]
    errors: list[str]


def board_port(serial_number: str | None) -> str | None:
    """The board's port as `uno-attack run` finds it (`controller.launcher.board.find_port`)."""
    from controller.launcher.board.ports import find_port

    return find_port(serial_number=serial_number)


def tell_safe(port: str) -> bool:
    """SAFE to the board on `port`, one command without a session (`oneshot.safe`)."""
    from controller.launcher.board.oneshot import safe

    return safe(port)


def board_safe_off(
    serial_number: str | None,
    find: PortLookup | None = None,
    safe: SafeCommand | None = None,
) -> tuple[list[str], list[str]]:
    """Tell the board with `serial_number` (None: the only board) SAFE: motor off, driver
    asleep. Returns (lines done, error lines); a board not plugged in is a line done."""
    find, safe = find or board_port, safe or tell_safe  # looked up now: tests replace them
    try:
        port = find(serial_number)
        acked = port is not None and safe(port)
    except (LookupError, OSError) as error:  # serial errors are OSErrors
        return [], [f"launcher board: {error}"]
    if port is None:
        which = f" with serial number {serial_number}" if serial_number else ""
        return [f"no launcher board{which} found; nothing is driving a motor"], []
    if not acked:
        return [], [
            f"the launcher board on {port} did not acknowledge SAFE; "
            "it stops its motor by itself after 3 s without the Pi"
        ]
    return [f"the launcher board on {port} stopped its motor and driver"], []


def table_safe_off(
    plan: TablePlan,
    pins_off: PinsOff,
    find: PortLookup | None = None,
    safe: SafeCommand | None = None,
) -> TableOutcome:
    """Stop one table's motor, by its launcher's kind. Never raises: whatever goes wrong is the
    table's error, so the next table is still handled."""
    try:
        if plan.kind == "gpio":
            done, errors, where = pins_off(plan.pin_profile)
            return TableOutcome(where, done, errors)
        if plan.kind == "board":
            return TableOutcome("board", *board_safe_off(plan.serial_number, find, safe))
        return TableOutcome(plan.kind, [NO_MOTOR[plan.kind]], [])
    except Exception as error:  # one table's trouble must never leave the others' motors on
        return TableOutcome(plan.kind, [], [str(error) or type(error).__name__])


def report(table_id: str, outcome: TableOutcome) -> None:
    """One table's lines, each naming the table: what was done on stdout, errors on stderr."""
    for line in outcome.done:
        print(f"safe-off (table {table_id}, {outcome.where}): {line}", flush=True)
    for line in outcome.errors:
        print(f"safe-off: error: table {table_id}: {line}", file=sys.stderr, flush=True)


def safe_off_tables(
    plans: Sequence[TablePlan],
    pins_off: PinsOff,
    find: PortLookup | None = None,
    safe: SafeCommand | None = None,
) -> int:
    """Stop every table's motor, in the configuration's order, and report each as it is done.
    Exit code 1 if any table failed, else 0."""
    failed = False
    for plan in plans:
        outcome = table_safe_off(plan, pins_off, find, safe)
        report(plan.table_id, outcome)
        failed = failed or bool(outcome.errors)
    return 1 if failed else 0
