"""Benchmarks: `mjrules bench` (bench.suite) and scripts such as `python -m bench.bench_evaluate`.

Never timing assertions in tests: tests only check the structure of the output.
"""
from .suite import base_variants, render, run, write_json

__all__ = ["base_variants", "render", "run", "write_json"]
