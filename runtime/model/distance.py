"""Distance to ready (shanten-like, counting wilds): exact at -1 (wins) and 0 (ready), an estimate above.

    -1  the hand (win_size tiles) wins as it stands
     0  the hand is ready: some tile completes it (a pre-draw hand), or one discard makes it ready
    n>0 about n exchanges (discard one, draw one) from ready: the least, over the spec's pattern shapes,
        of the classic shanten of that shape, less one per wild

Used by agents and by rules that need readiness (报听, 抢金). Both backends share this code and call their
own `evaluate` and `waits` for the exact cases.
"""
from __future__ import annotations

import math
from array import array
from functools import cache
from itertools import permutations
from typing import Any

from ..compiler.ir import Expr
from .situation import Situation, situation_from_dict

N = 34


def standard_shanten(c: list[int], n_sets: int) -> int:
    """Classic shanten of counts `c` for n_sets sets plus a pair (no wilds): 8 - 2 sets - partials - pair
    for four sets. Each suit's options are found once (cached) and then combined."""
    combos = {(0, 0, 0)}
    for lo, hi, honours in ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True)):
        opts = group_options(tuple(c[lo:hi]), honours)
        combos = _pareto({(m + m2, t + t2, min(1, p + p2)) for m, t, p in combos for m2, t2, p2 in opts})
    best = 2 * n_sets
    for m, t, p in combos:
        m = min(m, n_sets)
        best = min(best, 2 * (n_sets - m) - min(t, n_sets - m) - p)
    return best


@cache
def group_options(counts: tuple[int, ...], honours: bool) -> frozenset[tuple[int, int, int]]:
    """Pareto-best (sets, partial sets, pair) readings of one suit (or of the honours)."""
    c = list(counts)
    n = len(c)
    out: set[tuple[int, int, int]] = set()

    def dfs(i: int, m: int, t: int, p: int) -> None:
        while i < n and c[i] == 0:
            i += 1
        if i == n:
            out.add((m, t, p))
            return
        if c[i] >= 3:
            c[i] -= 3
            dfs(i, m + 1, t, p)
            c[i] += 3
        if not honours and i + 2 < n and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            dfs(i, m + 1, t, p)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if c[i] >= 2:
            c[i] -= 2
            if not p:
                dfs(i, m, t, 1)
            dfs(i, m, t + 1, p)
            c[i] += 2
        if not honours:
            for d in (1, 2):
                if i + d < n and c[i + d]:
                    c[i] -= 1
                    c[i + d] -= 1
                    dfs(i, m, t + 1, p)
                    c[i] += 1
                    c[i + d] += 1
        keep = c[i]
        c[i] = 0
        dfs(i + 1, m, t, p)
        c[i] = keep

    dfs(0, 0, 0, 0)
    return frozenset(_pareto(out))


def _pareto(options: set[tuple[int, int, int]]) -> set[tuple[int, int, int]]:
    return {o for o in options if not any(x != o and x[0] >= o[0] and x[1] >= o[1] and x[2] >= o[2]
                                          for x in options)}


# the knitted straights (1-4-7, 2-5-8, 3-6-9 each in its own suit), the knitted shape's three sets: the one
# definition, read by the reference readings, the native engine (their order is the kernel's index) and estimates
KNITS = tuple(tuple(sorted(suit * 9 + r for suit, start in zip(perm, range(3)) for r in (start, start + 3, start + 6)))
              for perm in permutations(range(3)))


def knitted_shanten(c: list[int], n_sets: int) -> int:
    """The knitted shape's distance: the least, over the six knitted straights, of its tiles missing plus the
    standard shanten of the rest for the other n_sets - 3 sets and the pair."""
    if n_sets < 3:
        return 99
    best = 99
    for knit in KNITS:
        rest = list(c)
        held = 0
        for k in knit:
            if rest[k]:
                rest[k] -= 1
                held += 1
        best = min(best, 9 - held + standard_shanten(rest, n_sets - 3))
    return best


def pairs_shanten(c: list[int], n_pairs: int) -> int:
    """The pairs shape's distance: pairs missing, less one (four alike are two pairs, as readings count them)."""
    pairs = sum(x // 2 for x in c)
    return n_pairs - 1 - min(pairs, n_pairs)


def distance(engine: Any, situation: dict | Situation, partial_test: Any, pre_draw: Any = None) -> int:
    """The distance to ready of a pre-draw hand (win_size - 1 tiles) or of a hand after a draw; `partial_test` is
    the reference interpreter's (ReferenceEngine.partial_test), which free patterns' estimates ask. `pre_draw`, if
    given, answers for a pre-draw Situation what the rest of this function would (the native back end's, in C), or
    None to leave it to this function."""
    v = engine.variant
    held = situation if isinstance(situation, Situation) else None
    if held is None:
        if not isinstance(situation, dict):
            situation_from_dict(v, situation)   # (raises: a situation is a JSON object)
        d = dict(situation)
        size = _size(v, d)
        held = situation_from_dict(v, d, pre_draw=size == v.win_size - 1) if size in (v.win_size - 1, v.win_size) \
            else situation_from_dict(v, d)  # raises the size error
    n = len(held.concealed) + 3 * len(held.melds)
    if n == v.win_size:
        t = held.replace(win_tile=held.win_tile if held.win_tile is not None else held.concealed[-1])
        if engine.wins(t):   # held is checked already, and t only names its winning tile
            return -1
        best = None
        for k in sorted(set(held.concealed)):
            rest = list(held.concealed)
            rest.remove(k)
            dist = distance(engine, held.replace(concealed=tuple(rest), win_tile=None), partial_test, pre_draw)
            best = dist if best is None else min(best, dist)
            if best == 0:
                break
        return best if best is not None else 0
    if pre_draw is not None:
        got = pre_draw(held)
        if got is not None:
            return got
    if engine.ready(held):
        return 0
    w = held.wild if v.wild is not None else None
    c = [0] * N
    jokers = 0
    for k in held.concealed:
        if k == w:
            jokers += 1
        else:
            c[k] += 1
    est = []
    shapes = {p.shape for p in v.patterns}
    if "standard" in shapes:
        est.append(standard_shanten(c, (v.win_size - 2) // 3 - len(held.melds)))
    if "pairs" in shapes and not held.melds and v.win_size % 2 == 0:
        est.append(pairs_shanten(c, v.win_size // 2))
    if "knitted" in shapes:
        est.append(knitted_shanten(c, (v.win_size - 2) // 3 - len(held.melds)))
    for p in v.patterns:
        if p.shape == "free":
            est.append(free_estimate(v, p, c, held, partial_test))
    return max(1, min(est) - jokers) if est else 1


def free_estimate(v: Any, pattern: Any, c: list[int], held: Situation, partial_test: Any) -> int:
    """For a free-shape pattern: tiles to exchange = what is missing from the largest part of the hand that
    the pattern's condition does not already rule out (its antimonotone tests: distinct, spacing, all_in...)."""
    ok = partial_test(pattern, held.replace(win_tile=None))
    meld = [0] * N
    for m in held.melds:
        for k in m.tiles:
            meld[k] += 1
    return (v.win_size - 1) - 3 * len(held.melds) - first_fit(c, meld, ok)


def first_fit(c: list[int], start: list[int], ok: Any) -> int:
    """The most tiles of counts c that, added one by one to `start` in a few orders (by kind, reversed, by
    (count, kind), and each knitted straight's tiles first), keep ok(counts) true: a maximal part a free
    pattern's condition allows (an estimate, cheap)."""
    tiles = [k for k in range(len(c)) for _ in range(c[k])]
    best = 0
    orders = [tiles, tiles[::-1], sorted(tiles, key=lambda k: (c[k], k))]
    orders += [sorted(tiles, key=lambda k, knit=frozenset(knit): (k not in knit, k)) for knit in KNITS]
    for order in orders:
        counts, size = list(start), 0
        for k in order:
            counts[k] += 1
            if ok(counts):
                size += 1
            else:
                counts[k] -= 1
        best = max(best, size)
    return best


class Estimator:
    """The shape distance of concealed hands of one variant: the least, over the spec's pattern shapes (or those
    of the patterns named), of the standard shanten, the pairs shanten and each free pattern's first-fit
    estimate (on a default situation: no melds, self-drawn, the spec's options unless given), less one per wild. The reference back end's; the
    native back end's (`_core.ShapeEstimator`) computes the same in C. `counts` are bytes of 34 or more kind
    counts, the wild kinds' tiles among them (one or two wild kinds: each tile of either is one wild)."""

    def __init__(self, v: Any, options: dict[str, Any] | None, patterns: Any, partial_test: Any):
        self.v = v
        self.partial_test = partial_test   # the reference interpreter's, for free patterns
        pats = [p for p in v.patterns if patterns is None or p.name in patterns]
        shapes = {p.shape for p in pats}
        self.standard = "standard" in shapes
        self.pairs = "pairs" in shapes and v.win_size % 2 == 0
        self.knitted = "knitted" in shapes
        self.free = [p for p in pats if p.shape == "free"]
        self.options = dict(options or {})
        self._memo: dict[tuple, int] = {}

    def estimate(self, counts: Any, melds: int, wild: int, wild2: int = -1) -> int:
        """The shape distance of this hand; `wild` and `wild2` the wild kinds in force (-1: none)."""
        c = list(counts[:N])
        key = (tuple(c), melds, wild, wild2)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        jokers = 0
        if 0 <= wild < N:
            jokers, c[wild] = c[wild], 0
        if 0 <= wild2 < N and wild2 != wild:
            jokers, c[wild2] = jokers + c[wild2], 0
        v = self.v
        est = []
        if self.standard:
            est.append(standard_shanten(c, max(0, (v.win_size - 2) // 3 - melds)))
        if self.pairs and melds == 0:
            est.append(pairs_shanten(c, v.win_size // 2))
        if self.knitted:
            est.append(knitted_shanten(c, (v.win_size - 2) // 3 - melds))
        if self.free and melds == 0:
            held = Situation(concealed=tuple(k for k in range(N) for _ in range(c[k])), options=self.options)
            est += [free_estimate(v, p, c, held, self.partial_test) for p in self.free]
        got = (min(est) if est else 8) - jokers
        if len(self._memo) > 100_000:
            self._memo.clear()
        self._memo[key] = got
        return got

    def after_discards(self, counts: Any, melds: int, wild: int, wild2: int = -1) -> list[int | None]:
        """estimate() after discarding one tile of each kind (None where none is held), for the 34 kinds."""
        c = bytearray(counts[:N])
        out: list[int | None] = [None] * N
        for k in range(N):
            if c[k]:
                c[k] -= 1
                out[k] = self.estimate(c, melds, wild, wild2)
                c[k] += 1
        return out


# ---- the free patterns' partial tests as programs (the native back end's distance runs them in C) ------------
# A program is the reference's partial evaluation of a free pattern's condition (ReferenceEngine.partial_test:
# mjrules.model.interp.evaluate, Kleene logic, on _ReadingEnv(partial=True)) with every part that reads no counts
# already evaluated on the hand's facts: what is left are and, or, not, if and the tests of the counts (distinct,
# knitted, one_suit, all_in, contains, spacing), as runtime/native/_distance.pxi's DP_* nodes (ints, prefix order).
# A condition with anything else that reads the counts, or whose fact-parts read what the program's key does not
# hold (waits_all, an event, ...), has no program: distance() then runs in Python.

_P_CONST, _P_AND, _P_OR, _P_NOT, _P_IF, _P_DISTINCT, _P_KNITTED, _P_ONE_SUIT, _P_ALL_IN, _P_CONTAINS, _P_SPACING = \
    range(11)
_COUNT_VARS_TESTS = {"distinct": _P_DISTINCT, "knitted": _P_KNITTED, "one_suit": _P_ONE_SUIT}
_COUNT_CALLS_TESTS = frozenset({"all_in", "contains", "spacing"})
# in a partial test these are unknown whatever the facts (they read a reading, which a partial test has not)
_UNKNOWN_VARS = frozenset({"fours", "pair_wilds", "wilds_at_face", "win_at_seq_end", "win_at_seq_middle",
                           "win_at_pair", "fan_points", "bonus_points"})
_FACT_CALLS = {"flower_fours": "flowers", "flower_complete": "flowers", "every_group": "melds_all",
               "count_in": None, "sets": None, "wind_sets": None, "win_in": None, "alike": None, "round_up": None,
               "max": None, "min": None}
_BOOL_OPS = frozenset({"and", "or", "not", "eq", "ne", "lt", "le", "gt", "ge", "in"})
_BOOL_VARS = frozenset({"no_melds", "wild_in_force", "no_sequences"})   # (bools the reference computes itself)


def _kongs(s: Any) -> int:
    return sum(1 for m in s.melds if m.kind == "kong")


def _fact_getters(v: Any) -> dict[str, Any]:
    """What each fact a program's fact-parts may read is a function of, as a function of the situation (a
    Situation or its Fields): equal keys, equal facts."""
    wilds = v.wild is not None

    def jokers(s: Any) -> int:
        ws = {k for k in (s.wild, s.wild2) if k is not None and k >= 0} if wilds else set()
        return sum(1 for k in s.concealed if k in ws)

    same = {n: (lambda s, n=n: _typed(getattr(s, n))) for n in (
        "win_by", "discarder", "first_turn", "first_discard", "declared_ready", "wild_discards", "dealer_streak",
        "last_tile", "after_kong", "first_draw", "prevalent_wind", "last_of_kind", "ready_first_turn",
        "ready_uninterrupted", "flowers")}
    seats = lambda s: (_typed(s.seat), _typed(s.dealer))
    melds_all = lambda s: s.melds
    return same | {
        "is_dealer": seats, "seat": seats, "dealer": seats, "seat_wind": seats,
        "melds": lambda s: len(s.melds), "no_melds": lambda s: not s.melds, "kongs": _kongs,
        "kongs_exposed": melds_all, "kongs_concealed": melds_all, "exposed_melds": melds_all,
        "no_sequences": melds_all, "melds_all": melds_all, "marked": lambda s: len(s.marked), "wilds": jokers,
        "wild_in_force": lambda s: (s.wild, s.wild2),
    }


class _NoProgram(Exception):
    pass


def _reads_counts(e: Any) -> bool:
    if e.op == "var" and e.args[0] in _COUNT_VARS_TESTS:
        return True
    if e.op == "call" and e.args[0] in _COUNT_CALLS_TESTS:
        return True
    return any(_reads_counts(x) for x in e.args if isinstance(x, Expr))


def _fact_names(e: Any, names: set, getters: dict) -> None:
    """The facts (getters' names, ("opt", name)) a part that reads no counts reads; _NoProgram where one is not
    a function of the key (waits_all, an event, waiting_hand, ...)."""
    op, a = e.op, e.args
    if op == "var":
        if a[0] in getters:
            names.add(a[0])
        elif a[0] not in _UNKNOWN_VARS:
            raise _NoProgram(a[0])
    elif op == "opt":
        names.add(("opt", a[0]))
    elif op == "ref":
        if a[0] == "event":
            raise _NoProgram("event")
    elif op == "call":
        if a[0] not in _FACT_CALLS:
            raise _NoProgram(a[0])
        if _FACT_CALLS[a[0]]:
            names.add(_FACT_CALLS[a[0]])
    for x in a:
        if isinstance(x, Expr):
            _fact_names(x, names, getters)


def _plan(e: Any, names: set, getters: dict) -> tuple:
    """A condition as a tree of program nodes, its parts that read no counts as ("facts", e)."""
    if not _reads_counts(e):
        if not (e.op in _BOOL_OPS or (e.op == "var" and e.args[0] in _BOOL_VARS)
                or (e.op == "const" and type(e.args[0]) is bool) or (e.op == "ref" and e.args[0] != "event")):
            raise _NoProgram("not a bool")
        _fact_names(e, names, getters)
        return ("facts", e)
    op, a = e.op, e.args
    if op in ("and", "or"):
        return (op, tuple(_plan(x, names, getters) for x in a))
    if op == "not":
        return ("not", _plan(a[0], names, getters))
    if op == "if":
        return ("if", _plan(a[0], names, getters), _plan(a[1], names, getters), _plan(a[2], names, getters))
    if op == "var":
        return ("test", _COUNT_VARS_TESTS[a[0]])
    if op == "call" and len(a) == 2:
        arg = a[1]
        if a[0] in ("all_in", "contains") and arg.op == "group":
            kinds = arg.args[1]
            if not all(type(k) is int and k >= 0 for k in kinds) or len(set(kinds)) != len(kinds):
                raise _NoProgram("group")
            m0 = sum(1 << k for k in kinds if k < 17)
            m1 = sum(1 << (k - 17) for k in kinds if 17 <= k < N)
            if a[0] == "all_in":
                return ("test", _P_ALL_IN, m0, m1)
            return ("contains", m0, m1)   # (its room: win_size, the kongs and the tiles; the kernel has those)
        if a[0] == "spacing" and arg.op == "const" and type(arg.args[0]) in (int, float, bool):
            d = arg.args[0]
            n = -100 if math.isnan(d) or d < -100 else 100 if d > 100 else math.ceil(d)
            return ("test", _P_SPACING, n)
    raise _NoProgram(op)


def _typed(x: Any) -> tuple:
    """A value and its type, as a key: the reference's `and` and `or` tell False from 0 (`is False`)."""
    return type(x), x


def _option_getter(name: str, default: Any) -> Any:
    """An option's value in a situation (its default where the situation does not set it), typed."""
    return lambda s: _typed(s.options.get(name, default))


class _Probe:
    """A pattern as ReferenceEngine.partial_test reads one: its condition (and no name it remembers)."""

    def __init__(self, cond: Any):
        self.name, self.cond = None, cond


class FreePrograms:
    """The free patterns' partial tests of a variant (or of the patterns named) as programs, made per the facts
    they read (remembered by them): programs(s) -> (bytes of int32, how many) for the native distance and
    estimator, or None where Python decides (a condition with no program, facts that cannot be a key, a part that
    raises)."""

    def __init__(self, v: Any, partial_test: Any, patterns: Any = None):
        self.v, self.partial_test = v, partial_test
        self.free = [p for p in v.patterns if p.shape == "free" and (patterns is None or p.name in patterns)]
        getters = _fact_getters(v)
        names: set = set()
        try:
            self.plans = [None if p.cond is None else _plan(p.cond, names, getters) for p in self.free]
        except _NoProgram:
            self.plans = None
        defaults = v.option_defaults()
        self.getters = [_option_getter(n[1], defaults.get(n[1])) if isinstance(n, tuple) else getters[n]
                        for n in sorted(names, key=str)]
        self.memo: dict[tuple, Any] = {}
        self.none = (b"", 0)

    def programs(self, s: Any) -> tuple[bytes, int] | None:
        """The programs for the hand s (a pre-draw Situation or its Fields), or None."""
        if self.plans is None:
            return None
        if not self.free:
            return self.none
        try:
            key = tuple([g(s) for g in self.getters])
            got = self.memo.get(key, self)
        except TypeError:   # an option's value that cannot be a key
            return None
        if got is self:
            if len(self.memo) >= 4096:
                self.memo.clear()
            got = self.memo[key] = self._make(s)
        return got

    def _make(self, s: Any) -> tuple[bytes, int] | None:
        held = s if isinstance(s, Situation) else s.situation()
        held = held.replace(win_tile=None)
        zeros = [0] * N
        memo: dict[int, int] = {}

        def tri(e: Any) -> int:
            if id(e) not in memo:
                if not self.partial_test(_Probe(e), held)(zeros):
                    memo[id(e)] = _P_FALSE
                else:
                    memo[id(e)] = _P_UNKNOWN if self.partial_test(_Probe(Expr("not", (e,))), held)(zeros) \
                        else _P_TRUE
            return memo[id(e)]

        def emit(node: Any, out: list[int]) -> None:
            kind = node[0]
            if kind == "facts":
                out += (_P_CONST, tri(node[1]))
            elif kind in ("and", "or"):
                out += (_P_AND if kind == "and" else _P_OR, len(node[1]))
                for x in node[1]:
                    emit(x, out)
            elif kind == "not":
                out.append(_P_NOT)
                emit(node[1], out)
            elif kind == "if":
                out.append(_P_IF)
                for x in node[1:]:
                    emit(x, out)
            elif kind == "contains":
                out += (_P_CONTAINS, node[1], node[2], self.v.win_size)
            else:
                out += node[1:]

        words: list[int] = []
        try:
            for plan in self.plans:
                prog: list[int] = []
                emit(plan if plan is not None else ("facts", Expr("const", (True,))), prog)
                words += [len(prog), *prog]
        except Exception:   # noqa: BLE001 - distance() in Python meets it, or not, as it evaluates
            return None
        return array("i", words).tobytes(), len(self.plans)


_P_FALSE, _P_TRUE, _P_UNKNOWN = 0, 1, 2


# The facts a free pattern's condition may read for an estimate to be a function of the counts alone (a default
# situation's constants, or functions of the counts): then the native back end estimates in C.
_COUNT_VARS = frozenset({"no_sequences", "distinct", "one_suit", "fours", "pair_wilds", "wilds_at_face"})
_CONST_VARS = frozenset({"win_by", "is_dealer", "seat", "dealer", "discarder", "first_turn", "first_discard",
                         "declared_ready", "wild_discards", "dealer_streak", "flowers", "melds", "no_melds", "kongs",
                         "kongs_exposed", "kongs_concealed", "wilds"})
_CALLS = frozenset({"all_in", "contains", "count_in", "spacing", "flower_fours", "flower_complete", "max", "min"})
_OPS = frozenset({"const", "enum", "group", "add", "sub", "mul", "div", "pow", "eq", "ne", "lt", "le", "gt", "ge",
                  "neg", "not", "and", "or", "if", "in", "max", "min"})


# the facts of a reading that are functions of its counts alone, for a test of partial counts (the reference's)
COUNT_FACTS = _COUNT_VARS | {"knitted"}


def remembered(ok: Any) -> Any:
    """ok(counts), remembered by the counts (at most 200,000 of them at once)."""
    memo: dict[tuple, bool] = {}

    def test(counts: list[int]) -> bool:
        key = tuple(counts)
        got = memo.get(key)
        if got is None:
            if len(memo) >= 200_000:
                memo.clear()
            got = memo[key] = ok(counts)
        return got

    return test


def reads_counts_only(e: Any, count_vars: frozenset[str] = _COUNT_VARS) -> bool:
    """Does the free-shape condition `e`, on partial counts of a default situation, read only the counts (the
    facts `count_vars` names being functions of them)?"""
    op, a = e.op, e.args
    if op == "var":
        return a[0] in count_vars or a[0] in _CONST_VARS
    if op == "opt":
        return True
    if op == "ref":
        return a[0] != "event"  # partial: UNKNOWN without reading anything
    if op == "call":
        return a[0] in _CALLS and all(reads_counts_only(x, count_vars) for x in a[1:])
    if op in ("const", "enum", "group"):
        return True
    return op in _OPS and all(reads_counts_only(x, count_vars) for x in a)


def _size(v, d: dict) -> int:
    from .tiles import TileError, parse_melds, parse_tiles

    try:
        conc = parse_tiles(d.get("concealed", "")) if isinstance(d.get("concealed", ""), str) else []
        melds = d.get("melds", [])
        m = parse_melds(" ".join(melds)) if isinstance(melds, list) else []
    except TileError:
        return -1
    return len(conc) + 3 * len(m)
