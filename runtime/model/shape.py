"""The game's cheap test before it judges a hand in full: can any pattern's shape take these tiles?

A game asks, after every draw and for every seat on every discard, whether a hand wins. Nearly always it does
not, and nearly always no pattern's shape can even take the tiles. Each back end offers `fit_test(options)`: a
function `may_fit(counts, meld_counts, nmelds, meld_seq, wild, plus=-1, wild2=-1) -> bool` that is False only when no
pattern's shape can take the complete hand (the concealed counts, one more tile of kind `plus`, and the melds),
whatever its other facts; the game judges the hand in full only where it says True.

Standard and pairs shapes depend on the tiles alone. A free pattern's shape is its condition, which may read
any fact: the test may use it only when it reads nothing but the tiles, the melds and the options the test was
made for (`free_tests_read_tiles_only`); otherwise a free pattern may always fit.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..compiler.ir import Expr, Variant

MayFit = Callable[..., bool]

# facts a free pattern's condition may read for the test to decide on the tiles and melds alone
_TILE_VARS = frozenset({"no_sequences", "distinct", "knitted", "one_suit", "pair_wilds", "wilds_at_face", "wilds",
                        "melds", "no_melds"})
_TILE_CALLS = frozenset({"all_in", "contains", "count_in", "spacing", "max", "min"})


def free_tests_read_tiles_only(v: Variant, options_are_defaults: bool) -> bool:
    """Does every free pattern's condition read only the tiles, the melds and (when the options are the spec's
    defaults, which the native check context holds) the options?"""

    def ok(e: Any) -> bool:
        if not isinstance(e, Expr):
            return True
        op, a = e.op, e.args
        if op == "var":
            return a[0] in _TILE_VARS
        if op == "opt":
            return options_are_defaults
        if op == "ref":
            return False
        if op == "call":
            return a[0] in _TILE_CALLS and all(ok(x) for x in a[1:])
        return all(ok(x) for x in a)

    return all(p.cond is None or ok(p.cond) for p in v.patterns if p.shape == "free")


def always_fits(counts: Any, meld_counts: Any, nmelds: int, meld_seq: bool, wild: int, plus: int = -1,
                wild2: int = -1) -> bool:
    """The test that never rules a hand out (the full judge decides every one)."""
    return plus < 34


def options_are_defaults(v: Variant, options: dict[str, Any] | None) -> bool:
    """Are these option values the spec's defaults?"""
    defaults = v.option_defaults()
    return all(defaults.get(k) == x for k, x in (options or {}).items())
