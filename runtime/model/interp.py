# cython: annotation_typing=False
"""The interpreter of IR expressions, with three-valued evaluation for pruning: each expression made once into
nested functions of its environment.

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


Compiled = Callable[[Env], Any]   # an expression made a function of its environment
_COMPILED: dict[int, tuple[Expr, Compiled]] = {}   # id(expression) -> (the expression, kept alive; its function)
_MAX_COMPILED = 200_000   # (expressions made at run time must not grow it without end)


def evaluate(e: Expr, env: Env) -> Any:
    """Evaluate an expression. In a partial environment, any value may be UNKNOWN, and the result is
    UNKNOWN unless it is decided whatever the unknowns are (Kleene logic for and, or, not, if).

    An expression is made once into nested functions of the environment (`compiled`), each node's operator
    decided when it is made, not at every evaluation; this is the interpreter's one definition of the operators."""
    hit = _COMPILED.get(id(e))
    if hit is not None and hit[0] is e:
        return hit[1](env)
    return compiled(e)(env)


def compiled(e: Expr) -> Compiled:
    """The expression as a function of an environment (remembered per expression): evaluate's meaning."""
    hit = _COMPILED.get(id(e))
    if hit is not None and hit[0] is e:
        return hit[1]
    fn = _compile(e)
    if len(_COMPILED) >= _MAX_COMPILED:
        _COMPILED.clear()
    _COMPILED[id(e)] = (e, fn)
    return fn


def _compile(e: Expr) -> Compiled:
    op, a = e.op, e.args
    if op == "const" or op == "enum":
        value = a[0]
        return lambda env: value
    if op == "group":
        kinds = a[1]
        return lambda env: kinds
    if op == "var":
        name = a[0]
        return lambda env: env.var(name)
    if op == "opt":
        name = a[0]
        return lambda env: env.opt(name)
    if op == "ref":
        kind, name = a[0], a[1]
        return lambda env: env.ref(kind, name)
    if op == "call":
        return _compile_call(a[0], [compiled(x) for x in a[1:]])
    if op in _BIN:
        return _compile_binary(_BIN[op], compiled(a[0]), compiled(a[1]))
    if op == "neg":
        return _compile_neg(compiled(a[0]))
    if op == "not":
        return _compile_not(compiled(a[0]))
    if op == "and" or op == "or":
        return _compile_junction([compiled(x) for x in a], op == "or")
    if op == "if":
        return _compile_if(compiled(a[0]), compiled(a[1]), compiled(a[2]))
    if op == "in":
        return _compile_in(compiled(a[0]), [compiled(o) for o in a[1:]])
    if op in ("max", "min"):
        return _compile_extreme(max if op == "max" else min, [compiled(x) for x in a])

    def unknown_op(env: Env) -> Any:
        raise ValueError(f"unknown IR op {op!r}")
    return unknown_op


def _compile_call(name: str, parts: list[Compiled]) -> Compiled:
    if name == "round_up":   # the functions of numbers alone: round_up (every context has it), nth
        def call_round_up(env: Env) -> Any:
            args = tuple([p(env) for p in parts])
            return UNKNOWN if UNKNOWN in args else round_up(args[0], args[1])
        return call_round_up
    if name == "nth":
        def call_nth(env: Env) -> Any:
            args = tuple([p(env) for p in parts])
            return UNKNOWN if UNKNOWN in args else nth(args[0], args[1:])
        return call_nth
    if len(parts) == 1:
        p0 = parts[0]
        return lambda env: env.call(name, (p0(env),))
    if len(parts) == 2:
        p0, p1 = parts
        return lambda env: env.call(name, (p0(env), p1(env)))
    return lambda env: env.call(name, tuple([p(env) for p in parts]))


def _compile_binary(f: Callable[[Any, Any], Any], left: Compiled, right: Compiled) -> Compiled:
    def binary(env: Env) -> Any:
        x = left(env)
        y = right(env)
        if x is UNKNOWN or y is UNKNOWN:
            return UNKNOWN
        return f(x, y)
    return binary


def _compile_neg(part: Compiled) -> Compiled:
    def negative(env: Env) -> Any:
        x = part(env)
        return UNKNOWN if x is UNKNOWN else neg(x)
    return negative


def _compile_not(part: Compiled) -> Compiled:
    def negation(env: Env) -> Any:
        x = part(env)
        return UNKNOWN if x is UNKNOWN else not x
    return negation


def _compile_junction(parts: list[Compiled], decides: bool) -> Compiled:
    """`and` (decides False) or `or` (decides True): the first part whose value is `decides` is the answer; else
    UNKNOWN where a part was, else the other truth value."""
    def junction(env: Env) -> Any:
        out: Any = not decides
        for p in parts:
            v = p(env)
            if v is decides:
                return decides
            if v is UNKNOWN:
                out = UNKNOWN
        return out
    return junction


def _compile_if(cond: Compiled, then: Compiled, other: Compiled) -> Compiled:
    def choice(env: Env) -> Any:
        c = cond(env)
        if c is UNKNOWN:
            t, f = then(env), other(env)
            return t if t == f and t is not UNKNOWN else UNKNOWN
        return then(env) if c else other(env)
    return choice


def _compile_in(part: Compiled, options: list[Compiled]) -> Compiled:
    def member(env: Env) -> Any:
        x = part(env)
        opts = [o(env) for o in options]
        if x is UNKNOWN:
            return UNKNOWN
        if x in opts:
            return True
        return UNKNOWN if UNKNOWN in opts else False
    return member


def _compile_extreme(f: Callable[..., Any], parts: list[Compiled]) -> Compiled:
    def extreme(env: Env) -> Any:
        vals = [p(env) for p in parts]
        if UNKNOWN in vals:
            return UNKNOWN
        return f(vals)
    return extreme
