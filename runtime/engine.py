"""Loading a variant with a backend: `mjrules.load(VARIANT, backend=...)` and the engine interface."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol

from .compiler.ir import Variant
from .result import Result

BACKENDS = ("native", "reference")


class Engine(Protocol):
    """What every backend implements; the runtime cannot tell them apart except by speed."""

    variant: Variant
    backend: str

    def evaluate(self, situation: dict[str, Any], explain: bool = True) -> Result:
        """Judge and score a complete hand: a Result (mjrules.result) of win, reason, pattern, patterns, status,
        value, payments, reading, explain. With explain=False it has the same decided values without the two
        explanatory keys, reading and explain (mjrules.result.EXPLANATORY)."""

    def waits(self, situation: dict[str, Any]) -> list[dict[str, Any]]:
        """Each kind completing a pre-draw hand, with the value it would give."""

    def ready(self, situation: dict[str, Any]) -> bool:
        """Does some kind complete a pre-draw hand? (waits without the values, stopping at the first)"""

    def distance(self, situation: dict[str, Any]) -> int:
        """Distance to ready: -1 wins, 0 ready, n about n exchanges away (see mjrules.distance)."""

    def judge(self, situation: Any) -> Result:
        """evaluate() for a Situation the runtime built itself (trusted: not parsed or checked)."""

    # ---- the bare win check on kind counts (mjrules.check) ------------------------------------------------
    def is_win(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> bool:
        """Does this complete concealed hand (34 kind counts plus wilds) win, self-drawn, no tile named?"""

    def hand_value(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> tuple[Any, str] | None:
        """(value, pattern) of that hand's best reading, or None when it does not win."""

    def wait_kinds(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> list[int]:
        """The kinds completing such a hand one tile short (drawing the wild kind adds a wild)."""

    def check_batch(self, counts: Any, wilds: Any = None, wild: int | str | None = None, threads: int = 1,
                    values: bool = False) -> Any:
        """is_win for each row of an n x 34 array; with values, also each row's value and pattern index."""


def choose_backend(backend: str | None) -> str:
    """The backend argument, else MJRULES_BACKEND, else native."""
    b = backend or os.environ.get("MJRULES_BACKEND") or "native"
    if b not in BACKENDS:
        raise ValueError(f"unknown backend {b!r}; choose one of: {', '.join(BACKENDS)}")
    return b


def load_ir(variant: str | Path) -> Variant:
    """A shipped variant's name or a .mj path -> its checked IR (raises SpecError on a bad spec).

    When the load index (mjrules.fastload) knows the spec and nothing it was compiled from has changed, the
    IR comes from the variant's native module, without the front end (lark); else the spec is compiled."""
    from .fastload import cached

    ir = cached(str(variant))
    if ir is not None:
        return ir
    from .compiler import compile_variant

    return compile_variant(str(variant))


def _engine(ir: Variant, backend: str) -> Engine:
    if backend == "reference":
        from .reference import ReferenceEngine

        return ReferenceEngine(ir)
    from .native import NativeEngine

    return NativeEngine(ir)


def load(variant: str | Path | Variant, backend: str | None = None) -> Engine:
    """Load a variant (a shipped name, a .mj path, or an IR) with a backend ("native" or "reference").

    A spec loaded with the native backend is recorded in the load index once its module is built, so the
    next load, in any process, skips compiling it while the spec and the files it extends are unchanged."""
    b = choose_backend(backend)
    if isinstance(variant, Variant):
        return _engine(variant, b)
    from . import fastload

    name = str(variant)
    ir = fastload.cached(name)
    if ir is not None:
        return _engine(ir, b)
    links = fastload.chain(name) if b == "native" else None  # the spec's files as they are before compiling
    from .compiler import compile_variant

    ir = compile_variant(name)
    engine = _engine(ir, b)
    fastload.record(links, ir)
    return engine
