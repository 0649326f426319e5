"""The firmware's modules made importable under CPython (the beam's agreement with the Pi's
pulse counter, the compile check), and a summary line saying how many firmware tests ran on
MicroPython's own VM (tests/firmware/test_on_micropython.py)."""

from __future__ import annotations

from typing import Any

from controller.launcher.board.firmware import make_importable

make_importable()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    stats = terminalreporter.stats
    ran = {
        outcome: sum(
            1 for r in stats.get(outcome, []) if "micropython" in getattr(r, "keywords", {})
        )
        for outcome in ("passed", "failed", "error", "skipped")
    }
    if any(ran.values()):
        terminalreporter.write_sep(
            "-",
            "firmware on the MicroPython VM: {passed} passed, {failed} failed, {error} errors, "
            "{skipped} skipped".format(**ran),
        )
