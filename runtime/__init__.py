"""mjrules: a declarative rule-spec compiler for regional Chinese mahjong, and its generic runtime."""
from __future__ import annotations

__version__ = "0.1.0"
