"""mjrules: a declarative rule-spec compiler for regional Chinese mahjong, and its generic runtime.

The package's rooms (docs/architecture.md draws them, and one hand's path through them):

    engine.py    the front door: `load(VARIANT, backend=...)` and the interface both back ends implement
    model/       the hand model: tiles, situations, results, settlement, distance to ready, wild modes, and the
                 IR's expression interpreter, shared by both back ends and the game
    reference/   the reference back end: a plain-Python interpreter of the IR, every reading by brute force
    native/      the native back end: the kernel (C, via Cython), the build cache of generated variant
                 modules, the engine that drives them, and the load index that skips the front end
    game/        the game: the state machine of one hand, agents, play, logs, simulation, scenarios
    cli/ diff/ env/ lsp/ play/
                 the tools: the command line, variant diffs, the RL environments, the language server, the
                 browser table
    compiler/ grammar/ specs/
                 the front end (spec text to checked IR and generated Cython), its Lark grammar, the shipped specs

Playing a compiled variant imports neither lark nor jinja2.
"""
from __future__ import annotations

from .engine import BACKENDS, Engine, choose_backend, load
from .model.frozen import FrozenDict, FrozenList, thaw
from .model.situation import Situation, SituationError
from .model.tiles import Meld, Tile, TileError, format_tiles, parse_meld, parse_tiles
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
