"""`kernel.eject_exact`: the share of ejects counted exactly on the real Linux GPIO stack (the
kernel tier's gpio-sim guest, tests/kernel/README.md), idle and beside one CPU hog per host
core; its peer is the same ejects on the simulator in this process. Needs what
`tests/kernel/rig.sh check` checks; says why and skips where that is missing."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.kernel_guest import EJECTS
from controller.launcher import SimOptions, open_launcher
from tests.kernel.conftest import PROFILE

ROOT = Path(__file__).resolve().parents[1]
RIG = ROOT / "tests" / "kernel" / "rig.sh"


def in_guest(busy: bool) -> dict[str, Any]:
    hogs = [subprocess.Popen(["sh", "-c", "while :; do :; done"])
            for _ in range(os.cpu_count() or 1) if busy]  # fmt: skip
    try:
        done = subprocess.run(
            [str(RIG), "run", "--", sys.executable, "-m", "benchmarks.kernel_guest"],
            capture_output=True, text=True, cwd=ROOT, timeout=3600,
            env={**os.environ, "KGPIO_PYTHON": sys.executable},
        )  # fmt: skip
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    found = [line[line.index('{"ejects"') :] for line in done.stdout.splitlines()
             if '{"ejects"' in line]  # fmt: skip  # the console's escapes may come first
    if done.returncode != 0 or not found:
        raise RuntimeError(f"the guest failed ({done.returncode}): {done.stdout[-2000:]}")
    return dict(json.loads(found[-1].strip()))


def on_simulator() -> float:
    """The share of the same ejects counted exactly on the simulator."""
    rng = random.Random(20)
    launcher = open_launcher(str(PROFILE), backend="sim", sim=SimOptions(cards=10**6))
    exact = 0
    try:
        for _ in range(EJECTS):
            asked = rng.randint(1, 12)
            before = launcher.simulator.cards_out
            result = launcher.eject(asked)
            exact += result.ejected == launcher.simulator.cards_out - before
    finally:
        launcher.close()
    return exact / EJECTS


def run() -> Iterator[dict[str, Any]]:
    check = subprocess.run([str(RIG), "check"], capture_output=True, text=True)
    if check.returncode != 0:
        yield {"name": "kernel.eject_exact", "skipped": check.stderr.strip()}
        return
    peer = on_simulator()
    for busy in (False, True):
        measured = in_guest(busy)
        value = measured["exact"] / measured["ejects"]
        yield {
            "name": "kernel.eject_exact_busy" if busy else "kernel.eject_exact",
            "value": round(value, 3), "unit": "share", "peer": "the same ejects on the simulator",
            "peer_value": round(peer, 3), "ratio": round(value / peer, 3) if peer else None,
            **measured,
        }  # fmt: skip
