"""The peak memory of some Python code, in a process of its own.

`ru_maxrss` is no measure of a child's own peak: Linux keeps the largest resident set the
process had before `exec` too, and a child forked from a benchmark that has already played
thousands of games starts as big as its parent (the old `engine.memory` read 90 MB of the
parent's). `VmHWM` in /proc/self/status is the high-water mark of the memory the process
maps now: that of the fresh interpreter running the code, and nothing else.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_REPORT = """
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        print("VmHWM", line.split()[1])
"""


def peak_mb(code: str) -> tuple[float, str]:
    """Run `code` in a new interpreter; its own peak resident memory in MB, and what it printed
    before (without the peak's line)."""
    out = subprocess.run(
        [sys.executable, "-c", code + "\n" + _REPORT],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    lines = out.stdout.splitlines()
    kilobytes = next(int(line.split()[1]) for line in lines if line.startswith("VmHWM "))
    said = "\n".join(line for line in lines if not line.startswith("VmHWM "))
    return round(kilobytes / 1024, 1), said
