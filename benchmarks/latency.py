"""A latency benchmark line: p99 as the value, p50 and max beside it, all in milliseconds."""

from __future__ import annotations

import statistics
from typing import Any


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency_line(name: str, millis: list[float], **extra: Any) -> dict[str, Any]:
    """`{"name", "value": p99, "unit": "ms", "p50", "max", ...extra}` for `millis`."""
    return {
        "name": name,
        "value": round(percentile(millis, 0.99), 3),
        "unit": "ms",
        "p50": round(statistics.median(millis), 3),
        "max": round(max(millis), 3),
        **extra,
    }
