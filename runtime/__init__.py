"""mjrules: a declarative rule-spec compiler for regional Chinese mahjong, and its generic runtime."""
from __future__ import annotations

from .engine import BACKENDS, Engine, choose_backend, load
from .frozen import FrozenDict, FrozenList, thaw
from .situation import Situation, SituationError
from .tiles import Meld, Tile, TileError, format_tiles, parse_meld, parse_tiles
from .version import __version__

__all__ = [
           "BACKENDS",
           "Engine",
           "FrozenDict",
           "FrozenList",
           "Meld",
           "Situation",
           "SituationError",
           "Tile",
           "TileError",
           "__version__",
           "choose_backend",
           "format_tiles",
           "load",
           "parse_meld",
           "parse_tiles",
           "thaw",
]
