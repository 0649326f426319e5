"""How long the test suite takes: wall time, CPU time, the slowest tests.

`python tools/suite_times.py` (`make suite-times`) runs `make pytest`, the suite's two passes (or
the command given after `--`, e.g. `-- make pytest-one` for the one-process run), with this module
loaded into every pytest it starts (`-p tools.suite_times` in PYTEST_ADDOPTS), which writes each
test's setup, call and teardown times to a file; then it prints the wall time, the CPU time of every
process the command started (with pytest-xdist's workers and the browser), the load average at the
start and the end (other work on the machine stretches the wall time, not the CPU time), the
outcomes, the time spent per test folder and the slowest tests. `--json FILE` also writes those
figures, and every test's time, to FILE.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

LOG_VARIABLE = "SUITE_TIMES_LOG"
DEFAULT_COMMAND = ["make", "--no-print-directory", "pytest"]

# --- the pytest plugin (loaded by -p tools.suite_times) ---

_log: Path | None = None


def pytest_configure(config: Any) -> None:
    """Record in the main pytest process only: xdist's workers hand their reports to it."""
    global _log
    path = os.environ.get(LOG_VARIABLE)
    if path and not hasattr(config, "workerinput"):
        _log = Path(path)


def pytest_runtest_logreport(report: Any) -> None:
    if _log is None:
        return
    line = {
        "test": report.nodeid,
        "when": report.when,
        "seconds": report.duration,
        "outcome": report.outcome,
    }
    with _log.open("a", encoding="utf-8") as log:
        log.write(json.dumps(line) + "\n")


# --- the runner ---


def run(command: list[str], log: Path) -> dict[str, Any]:
    """Run `command` with the plugin on; its wall and CPU times and the load around it."""
    env = os.environ | {
        LOG_VARIABLE: str(log),
        "PYTEST_ADDOPTS": f"{os.environ.get('PYTEST_ADDOPTS', '')} -p tools.suite_times".strip(),
    }
    load_start = os.getloadavg()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    code = subprocess.run(command, env=env, check=False).returncode
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    user = after.ru_utime - before.ru_utime
    system = after.ru_stime - before.ru_stime
    return {
        "command": shlex.join(command),
        "exit_code": code,
        "wall_s": round(wall, 1),
        "cpu_s": round(user + system, 1),
        "user_s": round(user, 1),
        "system_s": round(system, 1),
        "load_start": [round(x, 2) for x in load_start],
        "load_end": [round(x, 2) for x in os.getloadavg()],
    }


def tests_of(log: Path) -> dict[str, dict[str, Any]]:
    """Each test's total seconds (setup + call + teardown) and its outcome."""
    tests: dict[str, dict[str, Any]] = defaultdict(lambda: {"seconds": 0.0, "outcome": "passed"})
    if not log.exists():
        return {}
    for line in log.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        test = tests[record["test"]]
        test["seconds"] += record["seconds"]
        if record["outcome"] == "failed":
            test["outcome"] = "error" if record["when"] != "call" else "failed"
        elif record["outcome"] == "skipped" and test["outcome"] == "passed":
            test["outcome"] = "skipped"
    return dict(tests)


def summary(figures: dict[str, Any], tests: dict[str, dict[str, Any]], top: int) -> dict[str, Any]:
    outcomes: dict[str, int] = defaultdict(int)
    folders: dict[str, float] = defaultdict(float)
    for name, test in tests.items():
        outcomes[test["outcome"]] += 1
        folders["/".join(name.split("::")[0].split("/")[:2])] += test["seconds"]
    slowest = sorted(tests.items(), key=lambda item: -item[1]["seconds"])[:top]
    return figures | {
        "outcomes": dict(sorted(outcomes.items())),
        "test_seconds": round(sum(t["seconds"] for t in tests.values()), 1),
        "folders": {k: round(v, 1) for k, v in sorted(folders.items(), key=lambda i: -i[1])},
        "slowest": [[name, round(test["seconds"], 1)] for name, test in slowest],
        "tests": {name: round(test["seconds"], 3) for name, test in sorted(tests.items())},
    }


def show(result: dict[str, Any]) -> None:
    def loads(values: list[float]) -> str:
        return " ".join(f"{v:.2f}" for v in values)

    ratio = result["cpu_s"] / result["wall_s"] if result["wall_s"] else 0.0
    print(f"\nsuite: {result['command']} (exit code {result['exit_code']})")
    print(f"load average (1, 5, 15 min): {loads(result['load_start'])} at the start, "
          f"{loads(result['load_end'])} at the end")  # fmt: skip
    print(f"wall {result['wall_s']:.1f} s, CPU {result['cpu_s']:.1f} s (user {result['user_s']:.1f}"
          f" + system {result['system_s']:.1f}), CPU/wall {ratio:.2f}")  # fmt: skip
    counts = ", ".join(f"{n} {outcome}" for outcome, n in result["outcomes"].items())
    print(f"tests: {counts}; their own times add up to {result['test_seconds']:.1f} s")
    print("per folder (s): " + ", ".join(f"{k} {v:.1f}" for k, v in result["folders"].items()))
    print(f"the {len(result['slowest'])} slowest (setup + call + teardown):")
    for name, seconds in result["slowest"]:
        print(f"  {seconds:7.1f} s  {name}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=10, help="how many slowest tests to list")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("command", nargs="*", help="the command to time (after --)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="suite-times-") as folder:
        log = Path(folder) / "tests.jsonl"
        figures = run(args.command or DEFAULT_COMMAND, log)
        result = summary(figures, tests_of(log), args.top)
    show(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return int(figures["exit_code"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
