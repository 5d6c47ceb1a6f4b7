"""Numbers in a spec: the value range, and the checked arithmetic both back ends and the checker share.

A value (a number a spec's expression computes: a hand's value, a payment, a define) is an int or a float
of magnitude at most MAX_VALUE = 10**300. An operation whose result would leave that range, or that has no
real result (0 to a negative power, a negative number to a fractional power), raises ValueRangeError; the
reference interpreter (`mjrules.model.interp`) computes with these functions, the native back end hands any
number beyond a double's exact range to it, and the checker evaluates a spec's constant subexpressions with
them (so `value = 9 ^ 9 ^ 9 ^ 9` is an error at `mjrules check`, not a hang at `score`). A power is refused
from its operands' sizes before it is computed, so no operation ever builds a huge integer.

Division by zero gives 0 at run time (a divisor that is a constant zero is a spec error, E038).
"""
from __future__ import annotations

import math
from typing import Any

MAX_VALUE = 10 ** 300
MAX_VALUE_TEXT = "10^300"
_MAX_BITS = math.log2(MAX_VALUE)   # 996.6: a power of more bits than this is out of range


class ValueRangeError(ValueError):
    """An expression's value left the range +-10^300, or has no real value."""


def _show(v: Any) -> str:
    if isinstance(v, int) and abs(v) >= 10 ** 15:
        return f"a {len(str(abs(v)))}-digit number"
    return repr(v)


def in_range(v: Any) -> Any:
    """v itself when it is a number within +-MAX_VALUE (booleans and other values pass as they are)."""
    if isinstance(v, float):
        if not abs(v) <= MAX_VALUE:   # also NaN and infinities
            raise ValueRangeError(f"the value {v!r} is outside the range of values (+-{MAX_VALUE_TEXT})")
    elif isinstance(v, int) and not isinstance(v, bool) and not -MAX_VALUE <= v <= MAX_VALUE:
        raise ValueRangeError(f"the value {_show(v)} is outside the range of values (+-{MAX_VALUE_TEXT})")
    return v


def _out(op: str, a: Any, b: Any) -> ValueRangeError:
    return ValueRangeError(f"{_show(a)} {op} {_show(b)} is outside the range of values (+-{MAX_VALUE_TEXT})")


def _ok(v: Any) -> bool:
    return -MAX_VALUE <= v <= MAX_VALUE   # False for NaN


def add(a: Any, b: Any) -> Any:
    v = a + b
    if _ok(v):
        return v
    raise _out("+", a, b)


def sub(a: Any, b: Any) -> Any:
    v = a - b
    if _ok(v):
        return v
    raise _out("-", a, b)


def mul(a: Any, b: Any) -> Any:
    v = a * b
    if _ok(v):
        return v
    raise _out("*", a, b)


def div(a: Any, b: Any) -> Any:
    """a / b (a float, as in Python), and 0 when b is zero."""
    if not b:
        return 0
    try:
        v = a / b
    except OverflowError:   # an int quotient beyond a float
        raise _out("/", a, b) from None
    if _ok(v):
        return v
    raise _out("/", a, b)


def power(a: Any, b: Any) -> Any:
    """a ^ b as Python's a ** b, refused before it is computed when its magnitude would pass MAX_VALUE."""
    if a == 0 and b < 0:
        raise ValueRangeError(f"{_show(a)} ^ {_show(b)} has no value (zero to a negative power)")
    if abs(a) > 1 and b > 0 and b * math.log2(abs(a)) > _MAX_BITS + 1:
        raise ValueRangeError(f"{_show(a)} ^ {_show(b)} is outside the range of values (+-{MAX_VALUE_TEXT})")
    try:
        v = a ** b
    except OverflowError:   # a float power beyond a double
        raise _out("^", a, b) from None
    if isinstance(v, complex):
        raise ValueRangeError(f"{_show(a)} ^ {_show(b)} has no real value")
    if _ok(v):
        return v
    raise _out("^", a, b)


def round_up(a: Any, b: Any) -> Any:
    """The first multiple of b at or above a (a itself when b <= 0): ceil(a / b) * b, as the native code computes
    it in doubles."""
    if not b > 0:
        return a
    v = math.ceil(a / b) * b
    if _ok(v):
        return v
    raise _out("round_up", a, b)


def neg(a: Any) -> Any:
    return -a   # the range is symmetric


ARITHMETIC = {"add": add, "sub": sub, "mul": mul, "div": div, "pow": power}
