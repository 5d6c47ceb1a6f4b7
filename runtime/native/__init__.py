"""The native back end: the variant's IR generated as Cython, compiled to C, cached by content, and decided by the
kernel exactly as the reference back end decides it.

    kernel      the C kernel every generated module cimports (shape tables, reading enumeration, the best
                reading's choice, batches, distance), split into included .pxi files along those seams
    cache       the build cache: keys, building a generated module in a child process (build.py), loading it
    engine      NativeEngine: the back end's engine, driving the kernel and the variant's module
    fastload    the load index: a built variant's IR read back from its module, without the front end
"""
from __future__ import annotations

from .cache import BuildError, build_variant, cache_dir
from .engine import NativeEngine

__all__ = ["BuildError", "NativeEngine", "build_variant", "cache_dir"]
