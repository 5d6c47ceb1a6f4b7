"""Read-only lists and dicts: a result's explanatory parts (its reading and its explanation lines).

A result's `reading` and `explain` (mjrules.model.result) are FrozenList and FrozenDict all the way down. They are
list and dict subclasses, so they compare equal to plain lists and dicts, print and serialise (json, pickle,
copy) like them, and read at the same speed; changing one in place raises TypeError. Being read-only, the
parts one variant's results have in common (a group, a line) are made once and shared. `thaw` makes a plain
(changeable) deep copy, of a whole result too; a result's `patterns` and `payments` are its own already.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

__all__ = ["FrozenDict", "FrozenList", "freeze", "thaw"]


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"this {type(self).__name__} is read-only: a result's reading and explanation are shared "
                    f"between results; mjrules.thaw() makes a copy that can be changed")


class FrozenList(list):  # type: ignore[type-arg]
    """A list that refuses to change: see mjrules.model.frozen."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return FrozenList, (list(self),)


class FrozenDict(dict):  # type: ignore[type-arg]
    """A dict that refuses to change: see mjrules.model.frozen."""

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
    """A deep copy of x whose lists and mappings (frozen or not, a Result too) are plain lists and dicts."""
    if isinstance(x, list):
        return [thaw(y) for y in x]
    if isinstance(x, (dict, Mapping)):
        return {k: thaw(y) for k, y in x.items()}
    return x
