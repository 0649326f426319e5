"""The benchmarks that play a game through the API still play a legal one: a rules change that
refuses their taps must fail here, not first in `make bench`. Small sizes; no timing is judged."""

from __future__ import annotations

from benchmarks import bench_service, bench_tables


def test_the_action_benchmark_plays_only_cards_the_table_accepts() -> None:
    line = bench_service.action_latency(posts=60)
    assert line["posts"] == 60


def test_the_service_process_benchmark_plays_whole_deals() -> None:
    lines = {line["name"]: line for line in bench_service.service_process()}
    assert lines["service.rss_mb"]["deals"] == 10


def test_the_tables_benchmark_presses_one_table_while_the_bots_play_another() -> None:
    with bench_tables.service(2, demo=True) as table:
        millis = bench_tables.press_to_motor(table, presses=5)
    assert len(millis) == 5
