"""The wild of one hand: the mode its options choose among the wild block's (none, fixed, an indicator's kinds)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..compiler.ir import HandWild, Variant
from .interp import Env, evaluate


class _Options(Env):
    """An options-only context (a wild mode's condition): the hand's options over the spec's defaults."""

    def __init__(self, variant: Variant, options: Mapping[str, Any]):
        self.variant, self.options = variant, options

    def opt(self, name: str) -> Any:
        if name in self.options:
            return self.options[name]
        for o in self.variant.options:
            if o.name == name:
                return o.default
        raise KeyError(name)


def hand_wild(variant: Variant, options: Mapping[str, Any] | None = None) -> HandWild | None:
    """The hand's wild as its options (over the defaults) choose it; None where the variant has no wild block.
    Its mode is `none` where the options choose no wild."""
    w = variant.wild
    if w is None:
        return None
    env = _Options(variant, options or {})
    return w.hand(lambda e: bool(evaluate(e, env)))


def wild_kinds(variant: Variant, options: Mapping[str, Any] | None, indicator: int | None) -> tuple[int, ...]:
    """The hand's wild kinds: none, the fixed kind, or those an indicator gives (none without one)."""
    hw = hand_wild(variant, options)
    if hw is None or not hw.in_force:
        return ()
    if hw.mode == "fixed":
        return (hw.fixed,) if hw.fixed is not None else ()
    if indicator is None:
        return ()
    return variant.wild.wild_kinds(indicator, hw.kinds)  # type: ignore[union-attr]


def most_kinds(variant: Variant) -> int:
    """The most wild kinds one hand may have, under any options (0 without a wild block)."""
    w = variant.wild
    if w is None:
        return 0
    if w.mode == "fixed":
        return 1
    return max([w.kinds] + [c.kinds for c in w.cases if c.mode == "kinds"])


def live(variant: Variant, kinds: tuple[int, ...]) -> int:
    """The most wild tiles one hand may hold when these are its wild kinds (0 without)."""
    w = variant.wild
    return 0 if w is None or not kinds else w.live_count(kinds, variant.tiles.copies)


__all__ = ["hand_wild", "live", "most_kinds", "wild_kinds"]
