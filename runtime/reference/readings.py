"""Readings of a hand for the reference backend: every decomposition and wild assignment, by brute force.

A reading is one way to see the concealed tiles: as sets plus a pair, as pairs, or as a bare multiset
(free shape), with every wild standing for one kind. Wilds ("jokers" here) may stand for any kind in
`cand`. Enumeration is exhaustive and deduplicated; it is written to be obviously right, not fast.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..model.distance import KNITS   # the six knitted straights, one definition for every back end

N = 34


@dataclass(frozen=True)
class Group:
    """One group of a reading: kind is seq | pung | pair; kinds are what the tiles stand for;
    wild marks which of them are wild tiles."""

    kind: str
    kinds: tuple[int, ...]
    wild: tuple[bool, ...]


def _suited(k: int) -> bool:
    return k < 27


def _rank(k: int) -> int:
    return k % 9


def standard(c: list[int], j: int, sets: int, cand: frozenset[int]) -> Iterator[tuple[Group, ...]]:
    """Every way to read counts `c` plus `j` jokers as `sets` sets and one pair."""
    seen: set[tuple] = set()
    for groups in _std(list(c), j, sets, 1, cand):
        key = tuple(sorted((g.kind, g.kinds, g.wild) for g in groups))
        if key not in seen:
            seen.add(key)
            yield tuple(sorted(groups, key=lambda g: (g.kinds, g.kind, g.wild)))


def _std(c: list[int], j: int, sets: int, pairs: int, cand: frozenset[int]) -> Iterator[list[Group]]:
    k = next((i for i in range(N) if c[i] > 0), None)
    if k is None:
        if j == 3 * sets + 2 * pairs:
            yield from _all_jokers(sets, pairs, cand, 0)
        return
    if pairs:
        for real in (2, 1):
            if c[k] >= real and j >= 2 - real and (real == 2 or k in cand):
                c[k] -= real
                for rest in _std(c, j - (2 - real), sets, pairs - 1, cand):
                    yield [Group("pair", (k, k), (False,) * real + (True,) * (2 - real))] + rest
                c[k] += real
    if not sets:
        return
    for real in (3, 2, 1):
        if c[k] >= real and j >= 3 - real and (real == 3 or k in cand):
            c[k] -= real
            for rest in _std(c, j - (3 - real), sets - 1, pairs, cand):
                yield [Group("pung", (k, k, k), (False,) * real + (True,) * (3 - real))] + rest
            c[k] += real
    if not _suited(k):
        return
    r = _rank(k)
    # k as first, middle or last tile of a sequence; tiles below k are necessarily jokers
    for offset in (0, 1, 2):
        start = k - offset
        if r - offset < 0 or r - offset > 6:
            continue
        kinds = (start, start + 1, start + 2)
        yield from _seq(c, j, sets, pairs, cand, kinds, k)


def _seq(c, j, sets, pairs, cand, kinds, k) -> Iterator[list[Group]]:
    # choose, for each tile of the sequence other than the real k, real or joker
    options = []
    for t in kinds:
        if t == k:
            options.append((False,))
        elif t < k:
            options.append((True,))
        else:
            opts = []
            if c[t] > 0:
                opts.append(False)
            opts.append(True)
            options.append(tuple(opts))
    for a in options[0]:
        for b in options[1]:
            for d in options[2]:
                wild = (a, b, d)
                need = sum(wild)
                if need > j or any(w and t not in cand for t, w in zip(kinds, wild)):
                    continue
                used = [t for t, w in zip(kinds, wild) if not w]
                for t in used:
                    c[t] -= 1
                if all(c[t] >= 0 for t in used):
                    for rest in _std(c, j - need, sets - 1, pairs, cand):
                        yield [Group("seq", kinds, wild)] + rest
                for t in used:
                    c[t] += 1


def _all_jokers(sets: int, pairs: int, cand: frozenset[int], lo: int) -> Iterator[list[Group]]:
    """Groups made of jokers only, in non-decreasing order so each combination appears once."""
    if pairs:
        for k in sorted(cand):
            for rest in _all_jokers(sets, 0, cand, 0):
                yield [Group("pair", (k, k), (True, True))] + rest
        return
    if not sets:
        yield []
        return
    options = [("pung", (k, k, k)) for k in sorted(cand)]
    options += [("seq", (k, k + 1, k + 2)) for k in range(27) if _rank(k) <= 6 and {k, k + 1, k + 2} <= cand]
    options.sort(key=lambda o: (o[1], o[0]))
    for i, (kind, kinds) in enumerate(options):
        if i < lo:
            continue
        for rest in _all_jokers(sets - 1, 0, cand, i):
            yield [Group(kind, kinds, (True, True, True))] + rest




def knitted(c: list[int], j: int, sets: int, cand: frozenset[int]) -> Iterator[tuple[Group, ...]]:
    """Every way to read counts `c` plus `j` jokers as a knitted straight (a group of kind knit, nine kinds)
    with `sets` sets and one pair."""
    for knit in KNITS:
        missing = [k for k in knit if c[k] == 0]
        if len(missing) > j or any(k not in cand for k in missing):
            continue
        rest = list(c)
        for k in knit:
            if rest[k]:
                rest[k] -= 1
        g = Group("knit", knit, tuple(k in missing for k in knit))
        for groups in standard(rest, j - len(missing), sets, cand):
            yield (g,) + groups


def pairs(c: list[int], j: int, n: int, cand: frozenset[int]) -> Iterator[tuple[Group, ...]]:
    """Every way to read counts `c` plus `j` jokers as `n` pairs (four alike are two pairs)."""
    groups: list[Group] = []
    jokers = j
    for k in range(N):
        if c[k] == 0:
            continue
        full, odd = divmod(c[k], 2)
        groups += [Group("pair", (k, k), (False, False))] * full
        if odd:
            if jokers == 0 or k not in cand:
                return
            jokers -= 1
            groups.append(Group("pair", (k, k), (False, True)))
    if len(groups) + jokers // 2 != n or jokers % 2:
        return
    for extra in _multisets(sorted(cand), jokers // 2):
        yield tuple(sorted(groups + [Group("pair", (k, k), (True, True)) for k in extra],
                           key=lambda g: (g.kinds, g.wild)))


def _multisets(items: list[int], r: int, lo: int = 0) -> Iterator[list[int]]:
    if r == 0:
        yield []
        return
    for i in range(lo, len(items)):
        for rest in _multisets(items, r - 1, i):
            yield [items[i]] + rest


def free(c: list[int], j: int, cand: frozenset[int],
         viable: Callable[[list[int], bool], bool]) -> Iterator[tuple[int, ...]]:
    """Every multiset of `j` kinds the jokers may stand for, pruned where `viable(counts, complete)` is
    False; `viable` must only return False when no completion can succeed (antimonotone tests)."""
    items = sorted(cand)
    counts = list(c)

    def rec(r: int, lo: int, chosen: list[int]) -> Iterator[tuple[int, ...]]:
        if not viable(counts, r == 0):
            return
        if r == 0:
            yield tuple(chosen)
            return
        for i in range(lo, len(items)):
            k = items[i]
            counts[k] += 1
            chosen.append(k)
            yield from rec(r - 1, i, chosen)
            chosen.pop()
            counts[k] -= 1

    yield from rec(j, 0, [])
