"""Loading a variant with a backend: `mjrules.load(VARIANT, backend=...)` and the engine interface."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol

from .compiler.ir import Variant
from .model.result import Result

BACKENDS = ("native", "reference")


class Engine(Protocol):
    """What every backend implements; the runtime cannot tell them apart except by speed."""

    variant: Variant
    backend: str
    spec: str

    def evaluate(self, situation: dict[str, Any], explain: bool = True) -> Result:
        """Judge and score a complete hand: a Result (mjrules.model.result) of win, reason, pattern, patterns, status,
        value, payments, reading, explain. With explain=False it has the same decided values without the two
        explanatory keys, reading and explain (mjrules.model.result.EXPLANATORY)."""

    def waits(self, situation: dict[str, Any]) -> list[dict[str, Any]]:
        """Each kind completing a pre-draw hand, with the value it would give."""

    def ready(self, situation: dict[str, Any]) -> bool:
        """Does some kind complete a pre-draw hand? (waits without the values, stopping at the first)"""

    def distance(self, situation: dict[str, Any]) -> int:
        """Distance to ready: -1 wins, 0 ready, n about n exchanges away (see mjrules.model.distance)."""

    def judge(self, situation: Any) -> Result:
        """evaluate() for a Situation the runtime built itself (trusted: not parsed or checked)."""

    def wins(self, situation: Any) -> bool:
        """judge(situation)["win"], without building the result (the game's test before it offers a win)."""

    def fit_test(self, options: dict[str, Any] | None = None) -> Any:
        """The game's cheap shape test for these options (mjrules.model.shape)."""

    def estimator(self, options: dict[str, Any] | None = None) -> Any:
        """The shape distance of hands (mjrules.model.distance.Estimator's interface), for agents."""

    def new_game(self, *, seed: int = 0, dealer: int = 0, dealer_streak: int = 0,
                 options: dict[str, Any] | None = None, prevalent_wind: int = 0) -> Any:
        """A new hand of this variant (mjrules.game.Game)."""

    # ---- the bare win check on kind counts (mjrules.model.check) ------------------------------------------------
    def is_win(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> bool:
        """Does this complete concealed hand (34 kind counts plus wilds) win, self-drawn, no tile named?"""

    def hand_value(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> tuple[Any, str] | None:
        """(value, pattern) of that hand's best reading, or None when it does not win."""

    def wait_kinds(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> list[int]:
        """The kinds completing such a hand one tile short (drawing the wild kind adds a wild)."""

    def check_batch(self, counts: Any, wilds: Any = None, wild: Any = None, threads: int = 1,
                    values: bool = False) -> Any:
        """is_win for each row of an n x 34 array (wild: is_win's for every row, or an integer array of each
        row's kinds, n or n x k, -1: none); with values, also each row's value and pattern index."""


def choose_backend(backend: str | None) -> str:
    """The backend argument, else MJRULES_BACKEND, else native."""
    b = backend or os.environ.get("MJRULES_BACKEND") or "native"
    if b not in BACKENDS:
        raise ValueError(f"unknown backend {b!r}; choose one of: {', '.join(BACKENDS)}")
    return b


def load_ir(variant: str | Path) -> Variant:
    """A shipped variant's name or a .mj path -> its checked IR (raises SpecError on a bad spec).

    When the load index (mjrules.native.fastload) knows the spec and nothing it was compiled from has changed, the
    IR comes from the variant's native module, without the front end (lark); else the spec is compiled."""
    from .native.fastload import cached

    ir = cached(str(variant))
    if ir is not None:
        return ir
    from .compiler import compile_variant

    return compile_variant(str(variant))


class BackendWarning(UserWarning):
    """The native back end was not chosen explicitly and cannot be built here: the reference back end is used."""


def _engine(ir: Variant, backend: str, chosen: bool = True) -> Engine:
    """The engine; when the native back end was only the default (`chosen` False) and cannot be built here (no C
    compiler, no usable cache: native.BuildError), the reference back end, with one BackendWarning."""
    if backend == "native":
        from .native import BuildError, NativeEngine

        try:
            return NativeEngine(ir)
        except BuildError as e:
            if chosen:
                raise
            import warnings

            warnings.warn(BackendWarning(f"{e}; using the reference back end (the same results, slower)"),
                          stacklevel=3)
    from .reference.engine import ReferenceEngine

    return ReferenceEngine(ir)


def load(variant: str | Path | Variant, backend: str | None = None) -> Engine:
    """Load a variant (a shipped name, a .mj path, or an IR) with a backend ("native" or "reference").

    Without a backend (and without MJRULES_BACKEND), a machine where the native back end cannot be built (no C
    compiler) gets the reference back end and one BackendWarning; a backend asked for raises native.BuildError.

    A spec loaded with the native backend is recorded in the load index once its module is built, so the
    next load, in any process, skips compiling it while the spec and the files it extends are unchanged."""
    b = choose_backend(backend)
    chosen = bool(backend or os.environ.get("MJRULES_BACKEND"))
    if isinstance(variant, Variant):
        return _engine(variant, b, chosen)
    from .native import fastload

    name = str(variant)
    ir = fastload.cached(name)
    if ir is not None:
        return _named(_engine(ir, b, chosen), name)
    links = fastload.chain(name) if b == "native" else None  # the spec's files as they are before compiling
    from .compiler import compile_variant

    ir = compile_variant(name)
    engine = _engine(ir, b, chosen)
    if engine.backend == "native":
        fastload.record(links, ir)
    return _named(engine, name)


def _named(engine: Engine, name: str) -> Engine:
    """The engine, knowing the spec it was loaded from (`spec`: a shipped name, or an absolute path): game logs
    name it, so that `mjrules replay LOG` finds the spec."""
    p = Path(name)
    engine.spec = str(p.resolve()) if p.suffix == ".mj" or p.is_file() else name  # type: ignore[attr-defined]
    return engine
