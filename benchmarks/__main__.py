"""Run every benchmark module and print one JSON object per line.

A benchmark module is `benchmarks/bench_<area>.py` with a function `run()` that yields dicts
`{"name", "value", "unit", ...}`; a line compared with a peer also carries `peer`,
`peer_value` and `ratio`. `python -m benchmarks engine` runs only modules whose name contains
"engine".
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import traceback

import benchmarks


def main(argv: list[str]) -> int:
    wanted = argv[1:]
    failed = 0
    for info in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda m: m.name):
        if not info.name.startswith("bench_"):
            continue
        if wanted and not any(word in info.name for word in wanted):
            continue
        module = importlib.import_module(f"benchmarks.{info.name}")
        try:
            for line in module.run():
                print(json.dumps(line, ensure_ascii=False), flush=True)
        except Exception:
            failed += 1
            traceback.print_exc()
            print(json.dumps({"name": info.name, "error": "benchmark failed"}), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
