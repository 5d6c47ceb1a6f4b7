"""The bare win check, shared by both back ends: count vectors in, verdicts out.

A hand here is 34 kind counts (0-8 1m..9m, 9-17 1p..9p, 18-26 1s..9s, 27-33 1z..7z) plus a number of wild
tiles. The verdict is `evaluate`'s `win` for that hand held concealed without melds, self-drawn by the
dealer, with the spec's default options and no winning tile named (so nothing that depends on which
tile completed the hand holds). Tiles of the wild kind in the counts are wilds, as in a situation. `wild` is
one kind (an index or a tile name), or a tuple (or list) of as many kinds as the variant's hands may have, two
at most (a pair for a wild mode of two kinds: the `wilds` given besides are of the first; the tiles of
either kind in the counts are wilds of that kind); None is the wild the default options fix (if any).

    eng.is_win(counts, wilds=0, wild=None) -> bool          # one hand (bytes are fastest)
    eng.hand_value(counts, wilds=0, wild=None) -> (value, pattern) | None   # its best reading
    eng.wait_kinds(counts, wilds=0, wild=None) -> list[int]  # kinds completing a hand one tile short
    eng.check_batch(counts, wilds=None, wild=None, threads=1, values=False) -> ndarray[bool]
                                                            # n x 34 array; with values, (win, value, pattern)

check_batch's `wild` is is_win's for every row (a kind, a name, a tuple of kinds; -1: none), or an integer
array of each row's kinds: shape (n,) for one kind a row, (n, k) for up to k (-1 entries: none; a row's kinds
in order, the first taking the row's `wilds`). A tuple is the kinds of every row, a list or an array one entry
per row, as NumPy's indexing tells a tuple from a list.

The native back end decides in C (check_batch without the GIL, so threads scale); the reference back
end judges the same situation with its interpreter. Both read their arguments through this module's one
validation (validate, batch_arrays, batch_kinds, batch_threads): the same bad input gets the same ValueError
from both. A whole number may be an int or a NumPy integer (never a bool or a float).
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from ..compiler.ir import Variant
from .situation import Situation
from .tiles import N_PLAYABLE_STD, parse_tiles, tile_name
from .wildmode import hand_wild, most_kinds
from .wildmode import live as live_of

NK = N_PLAYABLE_STD


def whole(x: Any) -> int | None:
    """x as an int where it is a whole number (an int or a NumPy integer, not a bool), else None."""
    if type(x) is int:
        return x
    if isinstance(x, bool):
        return None
    try:
        return operator.index(x)
    except TypeError:
        return None


Wild = int | tuple[int, int] | None   # a check's wild kinds: none, one, or a pair


def wild_kind(variant: Variant, wild: Any) -> Wild:
    """The wild kind(s) of a check: an index, a tile name, a tuple or list of those (as many as the variant's
    hands may have), or None for the wild the default options fix (if any)."""
    if wild is None:
        hw = hand_wild(variant)
        return hw.fixed if hw is not None and hw.mode == "fixed" else None
    if isinstance(wild, (tuple, list)):
        kinds = tuple(_one_kind(k) for k in wild)
        _check_kinds(variant, kinds)
        return kinds if len(kinds) > 1 else kinds[0]   # type: ignore[return-value]
    return _one_kind(wild)


def _check_kinds(variant: Variant, kinds: tuple[int, ...], at: str = "") -> None:
    """Refuse a set of wild kinds no hand of the variant may have: none, more than its most, one twice."""
    most = most_kinds(variant)
    if not kinds:
        raise ValueError(f"{at}wild: an empty tuple names no kind")
    if not most:
        raise ValueError(at + _not_wild(variant, kinds[0]))
    if len(kinds) > most:
        raise ValueError(f"{at}wild: {len(kinds)} kinds, but a hand of this variant has at most {most}")
    if len(kinds) > 1 and kinds[0] == kinds[1]:
        raise ValueError(f"{at}wild: the pair names {_name(kinds[0])} twice")


def _one_kind(wild: Any) -> int:
    if isinstance(wild, str):
        tiles = parse_tiles(wild)
        if len(tiles) != 1:
            raise ValueError(f"wild: expected one tile such as '9s', got {wild!r}")
        return tiles[0].kind
    w = whole(wild)
    if w is None:
        raise ValueError(f"wild: expected a kind index or a tile name, got {wild!r}")
    return w


def as_counts(counts: Any) -> list[int]:
    """34 kind counts from bytes, a sequence of whole numbers or a NumPy row."""
    if hasattr(counts, "tolist"):
        counts = counts.tolist()
    try:
        c = [whole(v) for v in counts]
    except TypeError:
        raise ValueError("counts must be 34 integers from 0 to 4, one per kind") from None
    if len(c) != NK or not all(v is not None and v >= 0 for v in c):
        raise ValueError(f"counts must be {NK} non-negative integers, one per kind")
    return c  # type: ignore[return-value]


def validate(variant: Variant, counts: Any, wilds: int, wild: int | str | None, pre_draw: bool = False,
             row: int | None = None) -> tuple[list[int], int, int | None]:
    """(counts without the wild kind, wilds, wild kind) of a valid hand, else ValueError naming the fault."""
    at = "" if row is None else f"row {row}: "
    try:
        c = as_counts(counts)
        w = wild_kind(variant, wild)
    except ValueError as e:
        raise ValueError(at + str(e)) from None
    n = whole(wilds)
    if n is None or n < 0:
        raise ValueError(f"{at}wilds must be a non-negative integer, got {wilds!r}")
    wilds = n
    playable = set(variant.tiles.playable)
    copies = variant.tiles.copies
    kinds = kinds_of(w)
    if w is not None:
        for k in kinds:
            if variant.wild is None or k not in playable or not 0 <= k < NK:
                raise ValueError(at + _not_wild(variant, k))
        wilds += c[kinds[0]]
        c[kinds[0]] = 0
    elif wilds:
        raise ValueError(f"{at}{wilds} wild(s) given, but " + (
            "this variant has no wilds" if variant.wild is None else "no wild kind: pass wild=KIND"))
    for k, v in enumerate(c):
        if v and k not in playable:
            why = "a scored flower: it never stays in a hand" if k in variant.tiles.scored_flowers else \
                "not in this variant's tile set"
            raise ValueError(f"{at}{tile_name(k)} is {why}")
        if v > copies[k]:
            raise ValueError(f"{at}{v} tiles of {tile_name(k)}, but this variant has {copies[k]}"
                             + ("" if copies[k] else " (it does not play that kind)"))
    held = wilds + sum(c[k] for k in kinds[1:])
    if w is not None and held > live_of(variant, kinds):
        raise ValueError(f"{at}{held} wilds, but this variant has {live_of(variant, kinds)} wild tiles of "
                         f"{' and '.join(tile_name(k) for k in kinds)}")
    size = variant.win_size - (1 if pre_draw else 0)
    if sum(c) + wilds != size:
        raise ValueError(f"{at}{sum(c)} tiles and {wilds} wild(s) make {sum(c) + wilds}; "
                         f"a{' pre-draw' if pre_draw else ' complete'} concealed hand here has {size}")
    return c, wilds, w


def _not_wild(variant: Variant, w: Any) -> str:
    return f"{_name(w)} cannot be the wild kind: " + (
        "this variant has no wilds" if variant.wild is None else "it is not one of its kinds")


def kinds_of(w: Wild) -> tuple[int, ...]:
    """A check's wild kinds as a tuple (none, one or two)."""
    return () if w is None else w if isinstance(w, tuple) else (w,)


def _name(k: Any) -> str:
    try:
        return tile_name(k)
    except Exception:  # noqa: BLE001 - an out-of-range index names itself
        return f"kind {k!r}"


def situation_of(variant: Variant, c: Sequence[int], wilds: int, w: Wild) -> Situation:
    """The situation a check judges (see the module docstring); c and wilds as validate returns them."""
    kinds = kinds_of(w)
    tiles = [k for k in range(NK) for _ in range(c[k])]
    if wilds:
        tiles += [kinds[0]] * wilds
    return Situation(concealed=tuple(sorted(tiles)), wild=kinds[0] if kinds else None,
                     wild2=kinds[1] if len(kinds) > 1 else None)


class Checks:
    """is_win, wait_kinds and check_batch through an engine's `judge` (the reference back end's way)."""

    variant: Variant

    def judge(self, s: Situation) -> dict[str, Any]:  # pragma: no cover - provided by the engine
        raise NotImplementedError

    def is_win(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> bool:
        """Does this complete concealed hand win? (see mjrules.model.check)"""
        c, n, w = validate(self.variant, counts, wilds, wild)
        return bool(self.judge(situation_of(self.variant, c, n, w))["win"])

    def hand_value(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> tuple[Any, str] | None:
        """(value, pattern) of this complete concealed hand's best reading, or None when it does not win."""
        c, n, w = validate(self.variant, counts, wilds, wild)
        r = self.judge(situation_of(self.variant, c, n, w))
        return (r["value"], r["pattern"]) if r["win"] else None

    def wait_kinds(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> list[int]:
        """The kinds that complete this concealed hand one tile short (drawing the wild kind adds a wild)."""
        c, n, w = validate(self.variant, counts, wilds, wild, pre_draw=True)
        return [k for k in self.variant.tiles.playable if 0 <= k < NK and _room(self.variant, c, n, w, k)
                and self.is_win(_plus(c, k, w), n + (k in kinds_of(w)[:1]), w)]

    def check_batch(self, counts: Any, wilds: Any = None, wild: Any = None, threads: int = 1,
                    values: bool = False) -> Any:
        """is_win for each row of an n x 34 array (wilds: one count per row, default none; wild: is_win's for
        every row, or an integer array of each row's kinds, n or n x k, -1: none; see mjrules.model.check); with values,
        also each row's value (NaN where it does not win) and pattern index (-1)."""
        import numpy as np

        cnt, wl = batch_arrays(counts, wilds)
        one, kinds = batch_kinds(self.variant, wild, len(cnt))
        batch_threads(threads)
        win = np.zeros(len(cnt), dtype=bool)
        val = np.full(len(cnt), np.nan)
        pat = np.full(len(cnt), -1, dtype=np.int32)
        names = {p.name: i for i, p in enumerate(self.variant.patterns)}
        every = None if one == -1 else one
        for i in range(len(cnt)):
            c, n, w = validate(self.variant, cnt[i], int(wl[i]), every if kinds is None else _row_wild(kinds[i]),
                               row=i)
            r = self.judge(situation_of(self.variant, c, n, w))
            win[i] = r["win"]
            if r["win"] and values:
                val[i], pat[i] = float(r["value"]), names[r["pattern"]]
        return (win, val, pat) if values else win


def _room(variant: Variant, c: list[int], n: int, w: Wild, k: int) -> bool:
    kinds = kinds_of(w)
    if k in kinds:
        return n + sum(c[x] for x in kinds[1:]) < live_of(variant, kinds)
    return c[k] < variant.tiles.copies[k]


def _plus(c: list[int], k: int, w: Wild) -> list[int]:
    out = list(c)
    if k not in kinds_of(w)[:1]:
        out[k] += 1
    return out


def batch_kinds(variant: Variant, wild: Any, n: int) -> tuple[Wild, Any]:
    """check_batch's `wild` (see the module docstring) -> (the kinds of every row: -1, a kind or a pair; None),
    or (-1, each row's kinds: an int32 array n x 1, or n x 2 with -1 in the second column where a row has one
    kind or none, its first column -1 only where it has none)."""
    import numpy as np

    if isinstance(wild, np.ndarray) and wild.ndim == 0:
        wild = wild[()]   # (a NumPy scalar)
    if wild is None or isinstance(wild, (str, int, np.integer, tuple)):
        w = wild_kind(variant, wild)
        for k in kinds_of(w):
            if not -1 <= k < NK or isinstance(w, tuple) and k < 0:
                raise ValueError(_not_wild(variant, k))
        return (-1 if w is None else w), None
    shape = f"an integer array of one kind per row, shape ({n},), or of a row's kinds, shape ({n}, k) (-1: none)"
    try:
        kinds = np.asarray(wild)
    except ValueError:   # (ragged rows)
        raise ValueError(f"wild: one kind or a tuple of kinds for all rows, or {shape}") from None
    if kinds.ndim == 1:
        kinds = kinds.reshape(-1, 1)
    misshapen = kinds.ndim != 2 or len(kinds) != n or not kinds.shape[1]
    if misshapen or kinds.dtype.kind not in "iu" and kinds.size:
        got = f"shape {np.shape(wild)}" if misshapen else f"{kinds.dtype} array"
        raise ValueError(f"wild: one kind or a tuple of kinds for all rows, or {shape}; got {got}")
    if n and (kinds.min() < -1 or kinds.max() >= NK):   # (before the int32 copy: none wraps round)
        i, j = (int(x[0]) for x in np.nonzero((kinds < -1) | (kinds >= NK)))
        raise ValueError(f"row {i}: " + _not_wild(variant, int(kinds[i, j])))
    kinds = np.ascontiguousarray(kinds, dtype=np.int32)
    if kinds.shape[1] > 1:
        kinds = _kinds_first(kinds)
    m, most = kinds.shape[1], most_kinds(variant)
    bad = kinds[:, most] >= 0 if m > most else np.zeros(n, dtype=bool)   # more kinds than a hand may have
    if m > 1:
        bad |= (kinds[:, 0] == kinds[:, 1]) & (kinds[:, 1] >= 0)          # a kind twice
    if bad.any():
        i = int(np.argmax(bad))
        _check_kinds(variant, tuple(int(k) for k in kinds[i] if k >= 0), f"row {i}: ")
    keep = 2 if m > 1 and most > 1 and (kinds[:, 1] >= 0).any() else 1   # (n x 1 where no row has two kinds)
    return -1, (kinds if keep == m else np.ascontiguousarray(kinds[:, :keep]))


def _kinds_first(kinds: Any) -> Any:
    """Each row's kinds (>= 0) first, in their order, then its -1s (a new array where any row changes)."""
    import numpy as np

    if kinds.shape[1] == 2:
        swap = (kinds[:, 0] < 0) & (kinds[:, 1] >= 0)
        return np.where(swap[:, None], kinds[:, ::-1], kinds) if swap.any() else kinds
    return np.take_along_axis(kinds, np.argsort(kinds < 0, axis=1, kind="stable"), 1)


def _row_wild(kinds: Any) -> Wild:
    """One row of batch_kinds' array as a check's wild kinds: None, a kind, or a pair."""
    ks = tuple(int(k) for k in kinds if k >= 0)
    return None if not ks else ks[0] if len(ks) == 1 else ks   # type: ignore[return-value]


def batch_threads(threads: Any) -> int:
    """check_batch's `threads`: a whole number, at least 1."""
    t = whole(threads)
    if t is None or t < 1:
        raise ValueError(f"threads must be a whole number of at least 1, got {threads!r}")
    return t


def batch_arrays(counts: Any, wilds: Any) -> tuple[Any, Any]:
    """C-contiguous uint8 arrays (n x 34 counts, n wilds) from array-likes, refusing bad shapes and values."""
    import numpy as np

    a = np.asarray(counts)
    if a.ndim != 2 or a.shape[1] != NK:
        raise ValueError(f"counts must be an n x {NK} array, got shape {a.shape}")
    if a.dtype.kind not in "iu":   # (a float's fraction or a bool would be cast away)
        raise ValueError(f"counts must be an array of integers, not {a.dtype}")
    if a.dtype != np.uint8 and a.size and (a.min() < 0 or a.max() > 255):   # uint8 needs no range check
        raise ValueError("counts must be small non-negative integers")
    wl = np.zeros(len(a), dtype=np.uint8) if wilds is None else np.asarray(wilds)
    if wl.shape != (len(a),):
        raise ValueError(f"wilds must have one entry per row ({len(a)}), got shape {wl.shape}")
    if wl.dtype.kind not in "iu":
        raise ValueError(f"wilds must be an array of integers, not {wl.dtype}")
    if wl.dtype != np.uint8 and wl.size and (wl.min() < 0 or wl.max() > 255):
        raise ValueError("wilds must be small non-negative integers")
    return np.ascontiguousarray(a, dtype=np.uint8), np.ascontiguousarray(wl, dtype=np.uint8)
