"""Benchmarks (run as scripts, e.g. `python -m bench.bench_evaluate`); never timing assertions in tests."""
