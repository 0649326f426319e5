"""The launcher benchmarks' own bookkeeping, at a tiny size (no timing is judged): a run of
ejects on the physical motor is tallied as charged, and the CPU hogs are gone afterwards."""

from __future__ import annotations

from benchmarks import bench_launcher


def test_bench_ejects_on_the_n20_are_tallied_as_charged() -> None:
    tally = bench_launcher._eject_worker([1, 3, 2], noise=0.0, seed=5)
    assert tally["ejects"] == 3 and tally["ok"] == 3
    assert tally["cards_out"] >= 6
    assert not any(tally[kind] for kind in bench_launcher.FAILURES)


def test_bench_cpu_hogs_are_killed_after_the_block() -> None:
    with bench_launcher.cpu_hogs(True) as hogs:
        assert hogs and all(hog.poll() is None for hog in hogs)
    assert all(hog.poll() is not None for hog in hogs)
    with bench_launcher.cpu_hogs(False) as none:
        assert none == []
