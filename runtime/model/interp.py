# cython: annotation_typing=False
"""A tree-walking interpreter of IR expressions, with three-valued evaluation for pruning.

Arithmetic is mjrules.model.arith': a value outside +-10^300 raises ValueRangeError (a ValueError).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..compiler.ir import Expr
from .arith import ARITHMETIC, neg, round_up

UNKNOWN = None  # the third truth value of partial evaluation


class Env:
    """What an expression can see. Subclasses answer variables, functions and references."""

    def var(self, name: str) -> Any:
        raise KeyError(name)

    def call(self, name: str, args: tuple) -> Any:
        raise KeyError(name)

    def ref(self, kind: str, name: str) -> Any:
        raise KeyError(f"{kind} {name}")

    def opt(self, name: str) -> Any:
        raise KeyError(name)


def flower_fours(flowers: list[int], group: tuple[int, ...], copies: tuple[int, ...]) -> int:
    """Builtin flower_fours for one player: kinds of the group of which every copy was collected."""
    return sum(1 for k in group if copies[k] and flowers[k] >= copies[k])


def flower_complete(flowers: list[int], group: tuple[int, ...]) -> int:
    """Builtin flower_complete for one player: 1 if every kind of the group was collected."""
    return int(all(flowers[k] > 0 for k in group))


def flower_call(name: str, args: tuple, players: list[list[int]], copies: tuple[int, ...]) -> Any:
    """The flower builtins and max/min, summed over `players` (flower counts per kind, one list each)."""
    if name == "flower_fours":
        return sum(flower_fours(f, args[0], copies) for f in players)
    if name == "flower_complete":
        return sum(flower_complete(f, args[0]) for f in players)
    if name == "max":
        return max(args)
    if name == "min":
        return min(args)
    raise KeyError(name)


def _cmp_op(op: str) -> Callable[[Any, Any], Any]:
    return {
        "eq": lambda a, b: a == b,
        "ne": lambda a, b: a != b,
        "lt": lambda a, b: a < b,
        "le": lambda a, b: a <= b,
        "gt": lambda a, b: a > b,
        "ge": lambda a, b: a >= b,
    }[op]


# arithmetic is checked (mjrules.model.arith): a result outside +-10^300 raises ValueRangeError, never hangs
_BIN = {**ARITHMETIC, **{op: _cmp_op(op) for op in ("eq", "ne", "lt", "le", "gt", "ge")}}


def nth(i: Any, values: tuple) -> Any:
    """Builtin nth: the i-th of the values counted from 1 (a fractional place: its whole part); 0 past the end."""
    k = int(i)
    return values[k - 1] if 1 <= k <= len(values) else 0


def evaluate(e: Expr, env: Env) -> Any:
    """Evaluate an expression. In a partial environment, any value may be UNKNOWN, and the result is
    UNKNOWN unless it is decided whatever the unknowns are (Kleene logic for and, or, not, if)."""
    op, a = e.op, e.args
    if op == "const":
        return a[0]
    if op == "enum":
        return a[0]
    if op == "var":
        return env.var(a[0])
    if op == "opt":
        return env.opt(a[0])
    if op == "ref":
        return env.ref(a[0], a[1])
    if op == "group":
        return a[1]
    if op == "call":
        args = tuple(evaluate(x, env) for x in a[1:])
        if a[0] == "round_up":   # the functions of numbers alone: round_up (every context has it), nth
            return UNKNOWN if UNKNOWN in args else round_up(args[0], args[1])
        if a[0] == "nth":
            return UNKNOWN if UNKNOWN in args else nth(args[0], args[1:])
        return env.call(a[0], args)
    if op in _BIN:
        x, y = evaluate(a[0], env), evaluate(a[1], env)
        if x is UNKNOWN or y is UNKNOWN:
            return UNKNOWN
        return _BIN[op](x, y)
    if op == "neg":
        x = evaluate(a[0], env)
        return UNKNOWN if x is UNKNOWN else neg(x)
    if op == "not":
        x = evaluate(a[0], env)
        return UNKNOWN if x is UNKNOWN else not x
    if op == "and":
        out: Any = True
        for x in a:
            v = evaluate(x, env)
            if v is False:
                return False
            if v is UNKNOWN:
                out = UNKNOWN
        return out
    if op == "or":
        out = False
        for x in a:
            v = evaluate(x, env)
            if v is True:
                return True
            if v is UNKNOWN:
                out = UNKNOWN
        return out
    if op == "if":
        c = evaluate(a[0], env)
        if c is UNKNOWN:
            t, f = evaluate(a[1], env), evaluate(a[2], env)
            return t if t == f and t is not UNKNOWN else UNKNOWN
        return evaluate(a[1] if c else a[2], env)
    if op == "in":
        x = evaluate(a[0], env)
        opts = [evaluate(o, env) for o in a[1:]]
        if x is UNKNOWN:
            return UNKNOWN
        if x in opts:
            return True
        return UNKNOWN if UNKNOWN in opts else False
    if op in ("max", "min"):
        vals = [evaluate(x, env) for x in a]
        if UNKNOWN in vals:
            return UNKNOWN
        return max(vals) if op == "max" else min(vals)
    raise ValueError(f"unknown IR op {op!r}")
