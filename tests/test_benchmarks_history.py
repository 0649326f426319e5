"""The history and undo benchmarks still build their logs and tap only what the table accepts:
a rules or API change that refuses their taps must fail here, not first in `make bench`. Small
sizes; no timing is judged."""

from __future__ import annotations

import pytest

from benchmarks import bench_history


def test_the_history_pollers_benchmark_runs_on_a_small_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench_history, "LOG_RECORDS", 2_000)
    monkeypatch.setattr(bench_history, "COMMANDS", 30)
    monkeypatch.setattr(bench_history, "POLLERS", 2)
    line = bench_history.history_pollers()
    assert line["name"] == "service.command_p99_history_pollers"
    assert line["records"] == 2_000 and line["pollers"] == 2 and line["ratio"] > 0


def test_the_undo_benchmark_undoes_plays_in_a_long_match(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_history, "MATCH_RECORDS", 400)
    monkeypatch.setattr(bench_history, "UNDOS", 5)
    line = bench_history.undo_in_a_long_match()
    assert line["name"] == "service.undo_p99_10k" and line["undos"] == 5
