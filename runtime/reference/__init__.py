"""The reference back end: a plain-Python interpreter of the IR that enumerates every reading of a hand by brute
force (slow, obviously right); the native back end must agree with it on every hand.

    engine      ReferenceEngine, the back end's engine
    readings    every decomposition and wild assignment of a hand
"""
from __future__ import annotations

from .engine import ReferenceEngine

__all__ = ["ReferenceEngine"]
