"""What an absent extra provides is skipped, with a reason that names the extra to install (pyproject.toml's
[project.optional-dependencies]): the suite runs green on `pip install '.[test]'` alone, and whole on '.[all]'."""
from __future__ import annotations

from types import ModuleType

import pytest

# the optional modules the tests import, and the extra that brings each
EXTRA = {"pygls": "lsp", "lsprotocol": "lsp", "starlette": "play", "uvicorn": "play", "playwright": "browser",
         "pettingzoo": "rl", "gymnasium": "rl", "matplotlib": "plot", "ray": "ray", "mahjong": "oracles",
         "MahjongGB": "oracles", "riichienv": "bench", "mkdocs": "docs", "material": "docs",
         "mkdocstrings": "docs", "mkdocstrings_handlers": "docs", "sb3_contrib": "train",
         "stable_baselines3": "train", "torch": "train"}


def reason(module: str) -> str:
    extra = EXTRA[module.split(".")[0]]
    return f"needs the '{extra}' extra ({module.split('.')[0]} is not installed): pip install 'mjrules[{extra}]'"


def need(module: str) -> ModuleType:
    """Import `module`, or skip (the whole test module, when called at its top) naming the extra that brings it."""
    return pytest.importorskip(module, reason=reason(module))
