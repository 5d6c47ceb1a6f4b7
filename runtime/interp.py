"""A tree-walking interpreter of IR expressions, with three-valued evaluation for pruning."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .compiler.ir import Expr

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


def _num_op(op: str) -> Callable[[Any, Any], Any]:
    return {
        "add": lambda a, b: a + b,
        "sub": lambda a, b: a - b,
        "mul": lambda a, b: a * b,
        "div": lambda a, b: a / b if b else 0,
        "pow": lambda a, b: a ** b,
        "eq": lambda a, b: a == b,
        "ne": lambda a, b: a != b,
        "lt": lambda a, b: a < b,
        "le": lambda a, b: a <= b,
        "gt": lambda a, b: a > b,
        "ge": lambda a, b: a >= b,
    }[op]


_BIN = {op: _num_op(op) for op in ("add", "sub", "mul", "div", "pow", "eq", "ne", "lt", "le", "gt", "ge")}


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
        return env.call(a[0], tuple(evaluate(x, env) for x in a[1:]))
    if op in _BIN:
        x, y = evaluate(a[0], env), evaluate(a[1], env)
        if x is UNKNOWN or y is UNKNOWN:
            return UNKNOWN
        return _BIN[op](x, y)
    if op == "neg":
        x = evaluate(a[0], env)
        return UNKNOWN if x is UNKNOWN else -x
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
