"""Read-only lists and dicts: a result's explanatory parts (its reading and its explanation lines).

Both back ends return a winning result's `reading` and every result's `explain` as FrozenList and FrozenDict
all the way down. They are list and dict subclasses, so they compare equal to plain lists and dicts, print
and serialise (json, pickle, copy) like them, and read at the same speed; changing one in place raises
TypeError. Being read-only, the native back end can share them between results with the same answer instead
of building a new tree of some 35 containers per call. `thaw` makes a plain (changeable) deep copy; the
top level of a result, its `patterns` and its `payments` are the caller's own already.
"""
from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["FrozenDict", "FrozenList", "freeze", "thaw"]


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"this {type(self).__name__} is read-only: a result's reading and explanation are shared "
                    f"between results; mjrules.thaw() makes a copy that can be changed")


class FrozenList(list):  # type: ignore[type-arg]
    """A list that refuses to change: see mjrules.frozen."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return FrozenList, (list(self),)


class FrozenDict(dict):  # type: ignore[type-arg]
    """A dict that refuses to change: see mjrules.frozen."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return FrozenDict, (dict(self),)


def freeze(x: Any) -> Any:
    """x with every list and dict in it, itself included, made FrozenList and FrozenDict (others kept)."""
    if type(x) is FrozenList or type(x) is FrozenDict:
        return x
    if isinstance(x, list):
        return FrozenList([freeze(y) for y in x])
    if isinstance(x, dict):
        return FrozenDict({k: freeze(y) for k, y in x.items()})
    return x


def thaw(x: Any) -> Any:
    """A deep copy of x whose lists and dicts (frozen or not) are plain, changeable ones."""
    if isinstance(x, list):
        return [thaw(y) for y in x]
    if isinstance(x, dict):
        return {k: thaw(y) for k, y in x.items()}
    return x
