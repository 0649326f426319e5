"""Side-by-side benchmarks, run by `make bench` (`python -m benchmarks`)."""
