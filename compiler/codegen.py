"""Native code generation: a visitor turns IR expressions into Cython, and Jinja2 templates lay out the module.

Nothing from a spec's text reaches the generated source. Patterns, modifiers, events, statuses, tables,
defines, options and strings are referred to by compiler-made identifiers and numbers (p0, m1, e0, o2,
string ids); the banner shows the variant's name JSON-escaped inside a comment; the IR travels as a base64
literal. So a hostile spec cannot run code when its module is compiled or used.

Expressions compile twice: exactly (`bint` conditions and `double` values, evaluating the same
subexpressions Python's `interp.evaluate` does) and three-valued for free-shape pruning (like `evaluate`
with UNKNOWN: -1 for an unknown condition, NaN for an unknown number).
"""
from __future__ import annotations

import base64
import hashlib
import json
import math
import operator
from pathlib import Path
from typing import Any

from . import builtins as B
from .ir import Expr, Variant, dump_json, fan_reads, hand_exprs

CODEGEN_VERSION = "17"
TEMPLATE_DIR = Path(__file__).parent / "templates"
MODULE_TEMPLATE = "module.pyx.j2"
_EXACT = 2 ** 53
_SHAPES = {"standard": 0, "pairs": 1, "free": 2, "knitted": 3}

_SITUATION_VARS = {
    "win_by": ("x.f.win_by", "n"), "is_dealer": ("x.f.is_dealer", "b"), "seat": ("(<double>x.f.seat)", "n"),
    "dealer": ("(<double>x.f.dealer)", "n"), "discarder": ("(<double>x.f.discarder)", "n"),
    "first_turn": ("x.f.first_turn", "b"), "first_discard": ("x.f.first_discard", "b"),
    "declared_ready": ("x.f.declared_ready", "b"), "wild_discards": ("(<double>x.f.wild_discards)", "n"),
    "dealer_streak": ("(<double>x.f.dealer_streak)", "n"), "flowers": ("(<double>x.f.nflowers)", "n"),
    "melds": ("(<double>x.f.nmelds)", "n"), "no_melds": ("x.f.no_melds", "b"),
    "kongs": ("(<double>x.f.kongs)", "n"), "kongs_exposed": ("(<double>x.f.kongs_exposed)", "n"),
    "kongs_concealed": ("(<double>x.f.kongs_concealed)", "n"), "wilds": ("(<double>x.f.jokers)", "n"),
    "last_tile": ("x.f.last_tile", "b"), "after_kong": ("x.f.after_kong", "b"), "first_draw": ("x.f.first_draw", "b"),
    "exposed_melds": ("(<double>x.f.exposed)", "n"),
    "wild_in_force": ("x.f.wild_on", "b"), "waits_all": ("var_waits_all(x)", "b"),
    "seat_wind": ("(<double>x.f.seat_wind)", "n"), "prevalent_wind": ("(<double>x.f.prevalent_wind)", "n"),
    "last_of_kind": ("x.f.last_of_kind", "b"), "wait_kinds": ("var_wait_kinds(x)", "n"),
    "indicated": ("(<double>x.f.indicated)", "n"), "hidden_indicated": ("(<double>x.f.hidden_indicated)", "n"),
    "marked": ("(<double>x.f.marked)", "n"), "ready_first_turn": ("x.f.ready_first_turn", "b"),
    "ready_uninterrupted": ("x.f.ready_uninterrupted", "b"),
}
_READING_VARS = {
    "no_sequences": ("rf_no_sequences(x, rd)", "b"), "distinct": ("rf_distinct(rd.counts)", "b"),
    "one_suit": ("rf_one_suit(rd.counts, 0)", "b"), "fours": ("rf_fours(x, rd)", "n"),
    "pair_wilds": ("rf_pair_wilds(x, rd)", "n"), "wilds_at_face": ("rf_wilds_at_face(x, rd)", "b"),
    "win_at_seq_end": ("rf_win_at(x, rd, 0)", "b"), "win_at_seq_middle": ("rf_win_at(x, rd, 1)", "b"),
    "win_at_pair": ("rf_win_at(x, rd, 2)", "b"), "knitted": ("rf_knitted(rd.counts)", "b"),
    "fan_points": ("fan_sum(x, rd, 0)", "n"), "bonus_points": ("fan_sum(x, rd, 1)", "n"),
}
# The three-valued (partial) code reads the facts and the counts so far `c`; c may be NULL, the counts unknown
# (the kernel's count-free minimum test, _core._minimum_bound): every test of the counts is then unknown (-1),
# and so is waits_all wherever the counts could decide it (t_waits_all).
_PARTIAL_VARS = {
    "no_sequences": ("(not x.f.meld_seq)", "t"), "distinct": ("(-1 if c == NULL else pv_anti(rf_distinct(c)))", "t"),
    "one_suit": ("(-1 if c == NULL else pv_anti(rf_one_suit(c, 1)))", "t"), "fours": ("NAN", "n"),
    "pair_wilds": ("NAN", "n"), "wilds_at_face": ("-1", "t"),
    "win_at_seq_end": ("-1", "t"), "win_at_seq_middle": ("-1", "t"), "win_at_pair": ("-1", "t"),
    "knitted": ("(-1 if c == NULL else pv_anti(rf_knitted(c)))", "t"),
    "fan_points": ("NAN", "n"), "bonus_points": ("NAN", "n"),
}
# the facts bounds read exactly, counts aside (waits_all and wait_kinds read the pre-draw hand)
_COUNT_FREE_FACTS = frozenset(_SITUATION_VARS) - {"waits_all", "wait_kinds"}
# what of a reading varies between the readings of a hand without wilds (its decomposition: the counts do not)
_DECOMPOSITION_VARS = frozenset({"no_sequences", "win_at_seq_end", "win_at_seq_middle", "win_at_pair", "fan_points",
                                 "bonus_points"})
_DECOMPOSITION_CALLS = frozenset({"every_group", "sets", "wind_sets", "win_in", "alike"})
_WIN_VARS = {"value": ("x.value", "n"), "someone_won": ("1", "b"), "winners": ("(<double>x.f.winners)", "n"),
             "dealer_won": ("x.f.dealer_won", "b")}
_ARITH = {"add": "+", "sub": "-", "mul": "*"}
_CMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_COUNTS = {"all_in": "rf_all_in", "contains": "rf_contains", "count_in": "rf_count_in"}
_NK = 34  # the tile kinds a reading counts (flowers are never in a hand)


FAN = 8  # terms per parenthesised group of a long `and`, `or` or `|` in the generated code


def joined(parts: list[str], sep: str, empty: str) -> str:
    """parts joined by the operator `sep` (and, or, |), in parenthesised groups of at most FAN, the groups
    grouped likewise: a chain of n terms nests log_FAN(n) deep in the generated source, not n (Cython's
    parser recurses once per term of a chain, its code generator once per operand)."""
    if not parts:
        return empty
    while len(parts) > 1:
        parts = ["(" + f" {sep} ".join(parts[i:i + FAN]) + ")" for i in range(0, len(parts), FAN)]
    return parts[0]


def folded(parts: list[str], fn: str) -> str:
    """fn(a, b) over parts as a balanced tree of calls: for an associative fn (t_and, n_max, ...) the value of
    the left fold, nested log2(n) deep instead of n."""
    while len(parts) > 1:
        parts = [f"{fn}({parts[i]}, {parts[i + 1]})" if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    return parts[0]


def template_digest() -> str:
    """sha256 over every template file (names and bytes), part of the cache key."""
    h = hashlib.sha256()
    for p in sorted(TEMPLATE_DIR.glob("*.j2")):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def walk(v: Variant) -> list[Expr]:
    """Every expression the native module evaluates, in a fixed order."""
    out: list[Expr | None] = [v.claims.win_on_discard] + [w[0] for w in win_exprs(v)]
    return hand_exprs(v) + [e for e in out if e is not None]


_READING_CALLS = frozenset(_COUNTS) | {"spacing", "every_group", "sets", "wind_sets", "win_in", "alike"}
MAX_TIES = 8   # the kernel's MAXTIE


def reading_blind(v: Variant) -> list[int]:
    """Per pattern, what of choosing its best reading does not depend on the reading (the decomposition and the
    wilds' assignment): bit 1, its condition; bit 2, everything its readings are compared and reported by once
    it holds -- the modifiers that apply to it, the statuses, the defines, the value, the forbids and minimums.
    Bits 4 and 8: the same for a hand without wilds, where only the decomposition varies (the counts do not):
    its sequences, its groups (every_group), its sets, where the winning tile sits, and the fans.
    A fan's count reads the reading (its sets), and a score that prefers fans compares readings of equal value
    by them: then no pattern's scoring is blind.

    With bit 2, every reading of the pattern scores alike, and the first one found is the one the reference
    keeps (ties keep the first), so the kernel stops scoring the pattern after its first reading; with bits 1
    and 2, after its first reading either way. Pattern references are constant here (the pattern is fixed),
    events and `wilds` read the situation only.
    """
    return [a | (b << 2) for a, b in zip(_blind(v, frozenset(_READING_VARS), _READING_CALLS),
                                         _blind(v, _DECOMPOSITION_VARS, _DECOMPOSITION_CALLS))]


def _blind(v: Variant, reading_vars: frozenset[str], reading_calls: frozenset[str]) -> list[int]:
    """reading_blind's bits 1 and 2, where the reading shows through these variables and functions only."""
    defines = {d.name: d.expr for d in v.defines}
    mods = {m.name: m for m in v.modifiers}
    tables = {t.name: t for t in v.tables}
    memo: dict[tuple[str, str, str], bool] = {}

    def status_dep(p: str) -> bool:
        return any(dep(s.cond, p) for s in v.statuses)

    def named(kind: str, name: str, p: str) -> bool:
        key = (kind, name, p)
        if key not in memo:
            memo[key] = True  # a cycle (the checker forbids them) counts as dependent
            if kind == "modifier":
                m = mods.get(name)
                memo[key] = m is not None and (not m.applies_to or p in m.applies_to) and dep(m.cond, p)
            elif kind == "define":
                memo[key] = name not in defines or dep(defines[name], p)
            elif kind == "status":
                memo[key] = status_dep(p)
            elif kind == "table":
                t = tables.get(name)
                memo[key] = t is None or bool(t.column_var and status_dep(p)) or any(
                    named("modifier", m, p) for row in t.rows if row.pattern == p for m in row.modifiers)
            elif kind == "fan":   # a fan's count reads the reading's sets
                memo[key] = True
            else:  # pattern, event: fixed for the pattern's readings, or the situation's
                memo[key] = False
        return memo[key]

    def dep(e: Expr | None, p: str) -> bool:
        if e is None:
            return False
        op, a = e.op, e.args
        if op == "var":
            return a[0] in reading_vars
        if op == "call" and a[0] in reading_calls:
            return True
        if op == "ref":
            return named(a[0], a[1], p)
        return any(dep(x, p) for x in a if isinstance(x, Expr))

    scored = [d.expr for d in v.defines] + [v.score.value] + [f.cond for f in v.score.forbids]
    scored += [m.cond for m in v.score.minimum] + list(v.score.tiebreak)
    out = []
    for pat in v.patterns:
        p = pat.name
        blind_rest = not any(named("modifier", m.name, p) for m in v.modifiers) and not status_dep(p) and not any(
            dep(x, p) for x in scored) and not v.score.prefer   # (preferred fans compare readings of equal value)
        out.append((0 if dep(pat.cond, p) else 1) | (2 if blind_rest else 0))
    return out


def string_ids(v: Variant) -> dict[str, int]:
    """Strings (win_by names, string constants, string option defaults) -> ids; equal strings, equal ids."""
    ids: dict[str, int] = {}

    def add(s: str) -> None:
        ids.setdefault(s, len(ids) + 1)

    def visit(e: Any) -> None:
        if isinstance(e, Expr):
            if e.op in ("const", "enum") and isinstance(e.args[0], str):
                add(e.args[0])
            elif e.op != "group":
                for a in e.args:
                    visit(a)

    for w in B.WIN_BY:
        add(w)
    for e in walk(v):
        visit(e)
    for o in v.options:
        if isinstance(o.default, str):
            add(o.default)
    return ids


def win_exprs(v: Variant) -> list[tuple[Expr, str, Any]]:
    """The win settlement's expressions (payment conditions and amounts, the loss cap): (expr, 'b' or 'n', src)."""
    out: list[tuple[Expr, str, Any]] = []
    for p in v.settlement.win:
        if p.cond is not None:
            out.append((p.cond, "b", p.src))
        out.append((p.amount, "n", p.src))
    st = v.settlement
    if st.cap_cond is not None:
        out.append((st.cap_cond, "b", st.cap_src))
    if st.cap_loss is not None:
        out.append((st.cap_loss, "n", st.cap_src))
    return out


def uses(e: Expr, kind: str, name: str) -> bool:
    """Whether e refers directly to (kind, name)."""
    if e.op == "ref" and e.args == (kind, name):
        return True
    return any(isinstance(a, Expr) and uses(a, kind, name) for a in e.args)


def used_tables(v: Variant) -> list[int]:
    """Tables an explanation shows: those the value or a define refers to, in order."""
    return [i for i, t in enumerate(v.tables)
            if uses(v.score.value, "table", t.name) or any(uses(d.expr, "table", t.name) for d in v.defines)]


class Types:
    """Static types of IR expressions: bool, num, str or group."""

    def __init__(self, v: Variant):
        self.options = {o.name: o.type for o in v.options}
        self.defines = {d.name: d.expr for d in v.defines}
        self._seen: dict[str, str] = {}

    def of(self, e: Expr) -> str:
        op, a = e.op, e.args
        if op == "const":
            return "bool" if isinstance(a[0], bool) else "str" if isinstance(a[0], str) else "num"
        if op == "enum":
            return "str"
        if op == "group":
            return "group"
        if op == "var":
            b = B.VARIABLES.get(a[0])
            return {"bool": "bool", "winby": "str"}.get(b.type, "num") if b else "num"
        if op == "opt":
            return self.options.get(a[0], "num")
        if op == "ref":
            if a[0] in ("table", "fan"):
                return "num"
            if a[0] == "define":
                if a[1] not in self._seen:
                    self._seen[a[1]] = "num"  # a cycle (the checker refuses them) reads as num
                    self._seen[a[1]] = self.of(self.defines[a[1]]) if a[1] in self.defines else "num"
                return self._seen[a[1]]
            return "bool"
        if op == "call":
            f = B.FUNCTIONS.get(a[0])
            return f.type if f else "num"
        if op in ("eq", "ne", "lt", "le", "gt", "ge", "in", "and", "or", "not"):
            return "bool"
        if op == "if":
            return self.of(a[1])
        return "num"

    def letter(self, e: Expr) -> str:
        return {"bool": "b", "str": "s"}.get(self.of(e), "n")


def number(v: Any) -> str | None:
    """A C double literal equal to the Python number, or None when a double cannot be trusted with it."""
    if isinstance(v, bool):
        return "1.0" if v else "0.0"
    if isinstance(v, int):
        return f"{v}.0" if abs(v) < _EXACT else None
    if isinstance(v, float) and math.isfinite(v) and abs(v) < _EXACT:
        return repr(v)
    return None


def mask(kinds: Any) -> int:
    return sum(1 << k for k in set(kinds) if isinstance(k, int) and 0 <= k < 64)


class ExprCompiler:
    """The visitor: IR expression -> Cython expression text, exact or three-valued."""

    def __init__(self, v: Variant):
        self.v = v
        self.types = Types(v)
        self.strings = string_ids(v)
        self.index = {
            "pattern": {p.name: i for i, p in enumerate(v.patterns)},
            "modifier": {m.name: i for i, m in enumerate(v.modifiers)},
            "event": {e.name: i for i, e in enumerate(v.events)},
            "status": {s.name: i for i, s in enumerate(v.statuses)},
            "table": {t.name: i for i, t in enumerate(v.tables)},
            "define": {d.name: i for i, d in enumerate(v.defines)},
            "fan": {f.name: i for i, f in enumerate(v.fans)},
        }
        self.waiting: dict[str, int] = {}   # waiting_hand's tile texts -> their table's number (WH<i>)
        self.options = {o.name: i for i, o in enumerate(v.options)}
        self.reading = True   # a reading (rd) is in scope
        self.pattern_var: str | None = None  # three-valued code: what names the reading's pattern (-1 unknown)
        self.win = False      # the win settlement's names are in scope
        self.follow_defines = 0  # three-valued code: > 0 reads a define through its expression (that many levels)

    # ---- exact ------------------------------------------------------------------------------------------
    def cond(self, e: Expr) -> str:
        code, k = self.exact(e)
        return code if k == "b" else f"({code} != 0.0)"

    def num(self, e: Expr) -> str:
        code, k = self.exact(e)
        return code if k == "n" else f"(<double>{code})"

    def exact(self, e: Expr) -> tuple[str, str]:
        op, a = e.op, e.args
        if op == "const":
            if isinstance(a[0], bool):
                return ("1" if a[0] else "0"), "b"
            return self._literal(a[0]), "n"
        if op == "enum":
            return self._literal(a[0]), "n"
        if op == "group":
            return f"{mask(a[1])}.0", "n"
        if op == "var":
            return self._var(a[0], _READING_VARS)
        if op == "opt":
            i = self.options.get(a[0])
            if i is None:
                return "n_err(x)", "n"
            return (f"(x.opts[{i}] != 0.0)", "b") if self.types.of(e) == "bool" else (f"x.opts[{i}]", "n")
        if op == "ref":
            return self._ref(a[0], a[1])
        if op == "call":
            return self._call(a[0], a[1:])
        if op in _ARITH:
            return f"n_chk(x, {self.num(a[0])} {_ARITH[op]} {self.num(a[1])})", "n"
        if op in ("div", "pow"):
            return f"n_{op}(x, {self.num(a[0])}, {self.num(a[1])})", "n"
        if op == "neg":
            return f"(-{self.num(a[0])})", "n"
        if op in _CMP:
            if op not in ("eq", "ne") and self.types.of(a[0]) in ("str", "group"):
                return "(n_err(x) != 0.0)", "b"
            if self.types.of(a[0]) == "bool" and self.types.of(a[1]) == "bool":
                return f"({self.cond(a[0])} {_CMP[op]} {self.cond(a[1])})", "b"
            return f"({self.num(a[0])} {_CMP[op]} {self.num(a[1])})", "b"
        if op == "in":
            x0 = self.num(a[0])
            parts = [f"({x0} == {self.num(o)})" for o in a[1:]]  # `|`: every option is evaluated, as in Python
            return joined(parts, "|", "0"), "b"
        if op in ("and", "or"):
            return joined([self.cond(x) for x in a], op, "1" if op == "and" else "0"), "b"
        if op == "not":
            return f"(not {self.cond(a[0])})", "b"
        if op == "if":
            if self.types.of(e) == "bool":
                # each branch a bint: `x.f.no_melds if c else 1` (a bint and an int) is a Python object to Cython
                return f"(<bint>{self.cond(a[1])} if {self.cond(a[0])} else <bint>{self.cond(a[2])})", "b"
            return f"({self.num(a[1])} if {self.cond(a[0])} else {self.num(a[2])})", "n"
        if op in ("max", "min"):
            return folded([self.num(x) for x in a], f"n_{op}"), "n"
        return "n_err(x)", "n"

    def _literal(self, value: Any) -> str:
        if isinstance(value, str):
            i = self.strings.get(value)
            return f"{i}.0" if i is not None else "n_bad(x)"
        lit = number(value)
        return lit if lit is not None else "n_bad(x)"

    def _var(self, name: str, reading_vars: dict[str, tuple[str, str]]) -> tuple[str, str]:
        if self.win and name in _WIN_VARS:
            return _WIN_VARS[name]
        if name in _SITUATION_VARS:
            return _SITUATION_VARS[name]
        if name in reading_vars and self.reading:
            return reading_vars[name]
        return "n_err(x)", "n"

    def _ref(self, kind: str, name: str) -> tuple[str, str]:
        i = self.index.get(kind, {}).get(name)
        if i is None or (kind != "event" and not self.reading):
            return "n_err(x)", "n"
        if kind == "pattern":
            return f"(rd.pattern == {i})", "b"
        if kind == "modifier":
            return f"ref_mod(x, rd, {i})", "b"
        if kind == "status":
            return f"(ref_status(x, rd) == {i})", "b"
        if kind == "event":
            return f"ref_event(x, {i})", "b"
        if kind == "table":
            return f"ref_table(x, rd, {i})", "n"
        if kind == "fan":
            return f"ref_fan(x, rd, {i})", "n"
        if self.types.of(Expr("ref", (kind, name))) == "bool":
            return f"(ref_define(x, rd, {i}) != 0.0)", "b"
        return f"ref_define(x, rd, {i})", "n"

    def _group(self, g: Expr) -> str:
        if g.op == "group":
            return f"{mask(g.args[1])}ULL"
        return f"(<unsigned long long>{self.num(g)})"

    def _set_kind(self, e: Expr) -> int | None:
        """A sets() kind argument's index in builtins.SET_KINDS (a constant), else None."""
        if e.op == "const" and isinstance(e.args[0], str) and e.args[0] in B.SET_KINDS:
            return B.SET_KINDS.index(e.args[0])
        return None

    def waiting_table(self, e: Expr) -> str | None:
        """waiting_hand's argument (constant tiles) as the number of its table of alternatives (WH<i>), else None."""
        if e.op != "const" or not isinstance(e.args[0], str):
            return None
        return str(self.waiting.setdefault(e.args[0], len(self.waiting)))

    def _call(self, name: str, args: tuple) -> tuple[str, str]:
        if name == "round_up" and len(args) == 2:
            return f"n_round_up(x, {self.num(args[0])}, {self.num(args[1])})", "n"
        if name in ("flower_fours", "flower_complete") and len(args) == 1:
            return f"{name}(x, {self._group(args[0])})", "n"
        if name == "waiting_hand" and len(args) == 1:
            t = self.waiting_table(args[0])
            return (f"rf_waiting_hand(x, WH{t}, NWH{t})", "b") if t is not None else ("n_err(x)", "n")
        if name == "win_in" and len(args) == 1 and self.reading and args[0].op == "const" \
                and args[0].args[0] in B.PLACEMENTS:
            return f"rf_win_in(x, rd, {B.PLACEMENTS.index(args[0].args[0])})", "b"
        if name == "alike" and len(args) == 1 and self.reading:
            kind = self._set_kind(args[0])
            return (f"rf_alike(x, rd, {kind})", "n") if kind is not None else ("n_err(x)", "n")
        if name in ("sets", "wind_sets") and len(args) == 2 and self.reading:
            kind = self._set_kind(args[0])
            if kind is None:
                return "n_err(x)", "n"
            if name == "sets":
                return f"rf_sets(x, rd, {kind}, {self._group(args[1])})", "n"
            return f"rf_wind_sets(x, rd, {kind}, {self.num(args[1])})", "n"
        if not self.reading or len(args) != 1:
            return "n_err(x)", "n"
        if name in _COUNTS:
            code = _counts_code(name, "rd.counts", args[0])
            return code or f"{_COUNTS[name]}(rd.counts, {self._group(args[0])})", "n" if name == "count_in" else "b"
        if name == "spacing":
            return f"rf_spacing(rd.counts, {self.num(args[0])})", "b"
        if name == "every_group":
            return f"rf_every_group(x, rd, {self._group(args[0])})", "b"
        return "n_err(x)", "n"

    # ---- three-valued (free-shape pruning; the counts so far are `c`) -----------------------------------
    def tri(self, e: Expr) -> str:
        code, k = self.partial(e)
        return code if k == "t" else "-1"

    def pnum(self, e: Expr) -> str:
        code, k = self.partial(e)
        return code if k == "n" else f"t_num({code})"

    def partial(self, e: Expr) -> tuple[str, str]:
        op, a = e.op, e.args
        if op in ("const", "enum", "group"):
            code, k = self.exact(e)
            return code, "t" if k == "b" else "n"
        if op == "var":
            if a[0] == "waits_all":
                return "t_waits_all(x, c)", "t"
            if a[0] == "wait_kinds":
                return "p_wait_kinds(x, c)", "n"
            code, k = self._var(a[0], _PARTIAL_VARS)
            return code, "t" if k in ("b", "t") else "n"
        if op == "opt":
            code, k = self.exact(e)
            return code, "t" if k == "b" else "n"
        if op == "ref":
            if a[0] == "event":
                return self.exact(e)[0], "t"
            if a[0] == "pattern" and self.pattern_var is not None and a[1] in self.index["pattern"]:
                return f"t_pat({self.pattern_var}, {self.index['pattern'][a[1]]})", "t"
            if a[0] == "define" and self.follow_defines > 0 and a[1] in self.index["define"]:
                self.follow_defines -= 1
                try:
                    code, k = self.partial(self.v.defines[self.index["define"][a[1]]].expr)
                finally:
                    self.follow_defines += 1
                return code, k
            return ("-1", "t") if self.types.of(e) == "bool" else ("NAN", "n")
        if op == "call":
            return self._pcall(a[0], a[1:])
        if op in _ARITH or op in ("div", "pow"):
            return f"p_{op}(x, {self.pnum(a[0])}, {self.pnum(a[1])})", "n"
        if op == "neg":
            return f"(-{self.pnum(a[0])})", "n"
        if op in _CMP:
            if op not in ("eq", "ne") and self.types.of(a[0]) in ("str", "group"):
                return "(n_err(x) != 0.0)", "t"
            return f"t_{op}({self.pnum(a[0])}, {self.pnum(a[1])})", "t"
        if op == "in":   # unknown when x is; else true on a match, unknown on an unknown option, else false
            x0 = self.pnum(a[0])
            if len(a) == 1:
                return f"t_in_end(0, {x0})", "t"
            return folded([f"t_eq({x0}, {self.pnum(o)})" for o in a[1:]], "t_or"), "t"
        if op in ("and", "or"):
            unit = "1" if op == "and" else "0"
            return folded([unit] + [self.tri(x) for x in a] if len(a) < 2 else [self.tri(x) for x in a],
                          f"t_{op}"), "t"
        if op == "not":
            return f"t_not({self.tri(a[0])})", "t"
        if op == "if":
            if self.types.of(e) == "bool":
                return f"t_if_t({self.tri(a[0])}, {self.tri(a[1])}, {self.tri(a[2])})", "t"
            return f"t_if_n({self.tri(a[0])}, {self.pnum(a[1])}, {self.pnum(a[2])})", "n"
        if op in ("max", "min"):
            return folded([self.pnum(x) for x in a], f"p_{op}"), "n"
        return "n_err(x)", "n"

    def _pcall(self, name: str, args: tuple) -> tuple[str, str]:
        if name == "round_up" and len(args) == 2:
            return f"p_round_up(x, {self.pnum(args[0])}, {self.pnum(args[1])})", "n"
        if name in ("flower_fours", "flower_complete"):
            return self.exact(Expr("call", (name, *args)))[0], "n"
        if name in ("sets", "wind_sets", "alike"):   # the reading's sets: unknown while it is
            return "NAN", "n"
        if name == "win_in":
            return "-1", "t"
        if name == "waiting_hand" and len(args) == 1:
            t = self.waiting_table(args[0])
            return (f"p_waiting_hand(x, c, WH{t}, NWH{t})", "t") if t is not None else ("n_err(x)", "n")
        if len(args) != 1 or (name != "spacing" and args[0].op != "group"):
            return "n_err(x)", "n"
        if name == "spacing":
            return f"(-1 if c == NULL else pv_spacing(c, {self.pnum(args[0])}))", "t"
        g = self._group(args[0])
        if name == "every_group":
            return f"pv_every_group(x, {g})", "t"
        if name == "all_in":
            return f"(-1 if c == NULL else pv_anti({_counts_code(name, 'c', args[0]) or f'rf_all_in(c, {g})'}))", "t"
        if name == "contains":
            code = _counts_code(name, "c", args[0])
            return f"(-1 if c == NULL else {f'(1 if {code} else -1)' if code else f'pv_contains(c, {g})'})", "t"
        if name == "count_in":   # unknown while counts may grow; exact where they are every reading's (c_exact)
            code = _counts_code(name, "c", args[0]) or f"rf_count_in(c, {g})"
            return f"(NAN if c == NULL or not x.c_exact else <double>({code}))", "n"
        return "n_err(x)", "n"


class BoundsCompiler:
    """Statements bounding a numeric expression over every reading of a pattern on the facts alone: the
    minimum-sure test (`ms`). Each bound is a double, NAN when none is known; the code sets variables v0, v1, ...
    and never reads a reading (rd): only the facts, the options, the pattern `p` and the counts so far `c`, as the
    three-valued code does. Sound, not tight: whatever is not understood is unbounded."""

    def __init__(self, cx: ExprCompiler):
        self.cx = cx
        self.lines: list[str] = []
        self.n = 0
        self.depth = 0
        self.exact: set[str] = set()   # lower bounds whose upper bound is the same value (or both NAN)

    def _pair(self, lo: str, hi: str | None = None) -> tuple[str, str]:
        """A new pair of bound variables; without hi the pair is exact (its upper bound is its lower one)."""
        a, b = f"v{self.n}", f"v{self.n + 1}"
        self.n += 2
        self.lines.append(f"{a} = {lo}")
        self.lines.append(f"{b} = {a}" if hi is None else f"{b} = {hi}")
        if hi is None:
            self.exact.add(a)
        return a, b

    def bounds(self, e: Expr) -> tuple[str, str]:
        """(lower, upper) variable names for numeric e."""
        cx, op, a = self.cx, e.op, e.args
        self.depth += 1
        try:
            if self.depth > 64:  # a define chain this deep is not worth following
                return self._pair("NAN")
            if op in ("const", "enum") or op == "opt" or (op == "var" and a[0] in _COUNT_FREE_FACTS):
                return self._pair(cx.num(e))
            if op == "call" and a and a[0] in ("flower_fours", "flower_complete"):
                return self._pair(cx.num(e))
            if op == "ref" and a[0] == "define" and a[1] in cx.index["define"]:
                d = self.cx.v.defines[cx.index["define"][a[1]]]
                if cx.types.of(d.expr) == "bool":
                    return self._bool(e)
                return self.bounds(d.expr)
            if op == "ref" and a[0] == "table" and a[1] in cx.index["table"] and cx.pattern_var is not None:
                i = cx.index["table"][a[1]]
                lo, hi = f"v{self.n}", f"v{self.n + 1}"
                self.n += 2
                self.lines.append(f"tb{i}(x, c, {cx.pattern_var}, st, &{lo}, &{hi})")
                return lo, hi
            # exact operands (a constant, an option, a fact) give simpler code with the same values:
            # b_min2(u, u) is u, NAN included, and b_pow of exact operands has its lower bound as its upper
            if op in _ARITH:
                (al, ah), (bl, bh) = self.bounds(a[0]), self.bounds(a[1])
                ea, eb = al in self.exact, bl in self.exact
                if op == "add":
                    if ea and eb:
                        return self._pair(f"{al} + {bl}")
                    return self._pair(f"{al} + {bl}", f"{ah} + {bh}")
                if op == "sub":
                    if ea and eb:
                        return self._pair(f"{al} - {bl}")
                    return self._pair(f"{al} - {bh}", f"{ah} - {bl}")
                if ea and eb:
                    return self._pair(f"{al} * {bl}")
                if ea or eb:
                    u, (wl, wh) = (al, (bl, bh)) if ea else (bl, (al, ah))
                    return self._pair(f"b_min2({wl} * {u}, {wh} * {u})", f"b_max2({wl} * {u}, {wh} * {u})")
                return self._pair(f"b_min4({al} * {bl}, {al} * {bh}, {ah} * {bl}, {ah} * {bh})",
                                  f"b_max4({al} * {bl}, {al} * {bh}, {ah} * {bl}, {ah} * {bh})")
            if op == "pow":
                (al, ah), (bl, bh) = self.bounds(a[0]), self.bounds(a[1])
                if al in self.exact and bl in self.exact:
                    return self._pair(f"b_pow(x, {al}, {al}, {bl}, {bl}, 0)")
                return self._pair(f"b_pow(x, {al}, {ah}, {bl}, {bh}, 0)", f"b_pow(x, {al}, {ah}, {bl}, {bh}, 1)")
            if op == "neg":
                lo, hi = self.bounds(a[0])
                return self._pair(f"-{lo}") if lo in self.exact else self._pair(f"-{hi}", f"-{lo}")
            if op == "if" and cx.types.of(e) != "bool":
                t = f"v{self.n}"
                self.n += 1
                self.lines.append(f"{t} = t_num({cx.tri(a[0])})")
                (pl, ph), (ql, qh) = self.bounds(a[1]), self.bounds(a[2])
                return self._pair(f"{pl} if {t} == 1.0 else {ql} if {t} == 0.0 else b_min2({pl}, {ql})",
                                  f"{ph} if {t} == 1.0 else {qh} if {t} == 0.0 else b_max2({ph}, {qh})")
            if op in ("max", "min") and a:
                lo, hi = self.bounds(a[0])
                for x in a[1:]:
                    xl, xh = self.bounds(x)
                    if op == "max":  # max >= each argument: a known lower bound stands even if another is not
                        lo, hi = self._pair(f"b_max_known({lo}, {xl})", f"b_max2({hi}, {xh})")
                    else:
                        lo, hi = self._pair(f"b_min2({lo}, {xl})", f"b_min_known({hi}, {xh})")
                return lo, hi
            if cx.types.of(e) == "bool":
                return self._bool(e)
            return self._pair("NAN")
        finally:
            self.depth -= 1

    def _bool(self, e: Expr) -> tuple[str, str]:
        """A truth value used as a number: 0 or 1, exactly when the three-valued test knows it."""
        t = self._pair(f"t_num({self.cx.tri(e)})")[0]
        return self._pair(f"0.0 if isnan({t}) else {t}", f"1.0 if isnan({t}) else {t}")


def _table_bounds(cx: ExprCompiler, v: Variant, i: int) -> dict[str, Any]:
    """For table i, per pattern and column, its rows as (cell, the three-valued test that the row matches a
    reading of that pattern on the facts: its modifiers'; each modifier's test is worked out once a call,
    when a row first needs it, and a row's tests stop at the first false one). The lower bound of a lookup is
    the best row that surely matches, the upper one the best row that may; the status (column) is worked out
    on the facts by `sts`. Rows with a cell that is not a number leave the pattern's bounds unknown."""
    t = v.tables[i]
    cols = [(si, t.columns.index(s.name)) for si, s in enumerate(v.statuses) if s.name in t.columns] \
        if t.column_var else None
    ncols = len(t.columns) if t.column_var else 1
    pats = []
    used: set[int] = set()   # the modifiers some row tests: each has a memo variable u<i> in tb<i>
    for pi, pat in enumerate(v.patterns):
        saved, cx.pattern_var = cx.pattern_var, str(pi)
        cells = []
        for ci in range(ncols):
            rows: list[dict[str, Any]] | None = []
            for row in t.rows:
                mods = [cx.index["modifier"].get(m) for m in row.modifiers]
                if row.pattern != pat.name or ci >= len(row.cells) or None in mods:
                    continue
                x = row.cells[ci]
                if isinstance(x, bool) or not isinstance(x, (int, float)) or number(x) is None:
                    rows = None
                    break
                rows.append({"mods": [{"i": m, "tri": _modifier_tri(cx, v, m, pi)} for m in mods],
                             "v": number(x), "x": x})
                used.update(mods)
            if rows:
                rows.sort(key=lambda r: -r["x"])  # the best first: the first row that qualifies is the bound
                cells.append({"col": ci, "rows": rows})
        cx.pattern_var = saved
        if cells:
            pats.append({"p": pi, "cells": cells})
    return {"i": i, "cols": cols, "pats": pats, "memo": [f"u{m} = 2" for m in sorted(used)]}


def _modifier_tri(cx: ExprCompiler, v: Variant, m: int, p: int) -> str:
    """Three-valued: does modifier m hold for a reading of pattern p, on the facts alone?"""
    mod = v.modifiers[m]
    if mod.applies_to and v.patterns[p].name not in mod.applies_to:
        return "0"
    return cx.tri(mod.cond) if mod.cond is not None else "1"


def pung_only(v: Variant) -> list[int]:
    """Per pattern: 1 when its condition requires no_sequences (one of its conjuncts), so a reading with a
    sequence never holds it; 2 when no_sequences is its whole condition, so it holds on every reading of the
    standard shape without a sequence (the win check then asks only whether such a reading exists)."""
    def flag(p: Any) -> int:
        if p.shape != "standard" or p.cond is None:
            return 0
        terms = _conjuncts(p.cond)
        if not any(c.op == "var" and c.args == ("no_sequences",) for c in terms):
            return 0
        return 2 if len(terms) == 1 else 1
    return [flag(p) for p in v.patterns]


_PAIR_TESTS = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
               "ge": operator.ge}
_MIRROR = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


def std_needs(v: Variant) -> list[int]:
    """Per pattern, what a standard reading must have for its condition to hold, read off the condition's
    conjuncts: bits 0-2, the wild counts (0, 1, 2) its pair may have, narrowed by each comparison of
    pair_wilds with a number (or `pair_wilds in (...)` of numbers); bit 3, it may have a sequence (clear when
    no_sequences is a conjunct). 15 for a pattern of another shape or without a condition. The enumeration
    of the standard shape skips what no open pattern may hold on (an open pattern's condition would be false
    there), as the open patterns change."""
    def needs(p: Any, pung: int) -> int:
        if p.shape != "standard" or p.cond is None:
            return 15
        pair = 7
        for c in _conjuncts(p.cond):
            if c.op in _PAIR_TESTS and len(c.args) == 2:
                a, b = c.args
                op = c.op
                if b == Expr("var", ("pair_wilds",)):
                    a, b, op = b, a, _MIRROR[op]
                x = _number_const(b)
                if a == Expr("var", ("pair_wilds",)) and x is not None:
                    pair &= sum(1 << w for w in range(3) if _PAIR_TESTS[op](w, x))
            elif c.op == "in" and c.args and c.args[0] == Expr("var", ("pair_wilds",)):
                xs = [_number_const(e) for e in c.args[1:]]
                if None not in xs:
                    pair &= sum(1 << w for w in range(3) if w in xs)
        return pair | (0 if pung else 8)
    return [needs(p, pung) for p, pung in zip(v.patterns, pung_only(v))]


def _number_const(e: Expr) -> float | None:
    """The value of a numeric constant expression (a number, not a bool), else None."""
    if e.op == "const" and isinstance(e.args[0], (int, float)) and not isinstance(e.args[0], bool):
        return float(e.args[0])
    if e.op == "neg" and len(e.args) == 1:
        x = _number_const(e.args[0])
        return None if x is None else -x
    return None


def _counts_code(name: str, counts: str, g: Expr) -> str | None:
    """all_in, contains or count_in of a constant group, written out kind by kind over the counts array (no loop
    over every kind, no branch for all_in and count_in); None when the group is not a constant. The same answers
    as rf_all_in, rf_contains and rf_count_in, which read only the 34 tile kinds."""
    if g.op != "group":
        return None
    kinds = {k for k in g.args[1] if isinstance(k, int) and 0 <= k < _NK}
    if name == "all_in":
        outside = [f"{counts}[{k}]" for k in range(_NK) if k not in kinds]
        return f"(({' | '.join(outside)}) == 0)" if outside else "1"
    if name == "contains":
        return "(" + " and ".join(f"{counts}[{k}] > 0" for k in sorted(kinds)) + ")" if kinds else "1"
    return f"(<double>({' + '.join(f'{counts}[{k}]' for k in sorted(kinds))}))" if kinds else "0.0"


# ---- the module -------------------------------------------------------------------------------------------
def _line(src: Any) -> int:
    return int(src.line) if src is not None and isinstance(src.line, int) else 0


def _table(cx: ExprCompiler, v: Variant, i: int) -> dict[str, Any]:
    t = v.tables[i]
    cols = None
    if t.column_var:
        cols = [(si, t.columns.index(s.name)) for si, s in enumerate(v.statuses) if s.name in t.columns]
    rows = []
    for ri, row in enumerate(t.rows):
        p = cx.index["pattern"].get(row.pattern)
        mods = [cx.index["modifier"].get(m) for m in row.modifiers]
        if p is None or None in mods or not row.cells:
            continue
        test = joined([f"rd.pattern == {p}"] + [f"ref_mod(x, rd, {m})" for m in mods], "and", "1")
        cells = [cx._literal(c) for c in row.cells]
        pick = cells[-1]
        for ci in range(len(cells) - 2, -1, -1):
            pick = f"({cells[ci]} if col == {ci} else {pick})"
        rows.append({"i": ri, "test": test, "ncells": len(cells), "cell": pick})
    return {"i": i, "cols": cols, "rows": rows, "line": _line(t.src)}


def render(v: Variant, key: str = "") -> str:
    """The generated .pyx text for a variant (deterministic: the same IR and key give the same text)."""
    import jinja2

    cx = ExprCompiler(v)
    blocks: dict[str, Any] = {"patterns": [], "viable": [], "modifiers": [], "events": [], "statuses": [],
                              "defines": [], "forbids": [], "minimums": [], "wins": [], "ties": []}
    # more tiebreaks than the kernel compares: every reading goes to the reference
    by_reference = len(v.score.tiebreak) > MAX_TIES
    for i, p in enumerate(v.patterns):
        if by_reference or p.shape not in _SHAPES:   # a shape the kernel does not read: free, and every reading of it goes to the
            blocks["patterns"].append({"i": i, "code": "(n_err(x) != 0.0)", "line": _line(p.src)})   # reference
            blocks["viable"].append({"i": i, "terms": ["-1"], "line": _line(p.src)})
            continue
        blocks["patterns"].append({"i": i, "code": cx.cond(p.cond) if p.cond else "1", "line": _line(p.src)})
        if p.shape == "free":  # a conjunction is tested term by term, stopping at the first false one
            cx.pattern_var = str(i)
            terms = [cx.tri(c) for c in _conjuncts(p.cond)] if p.cond is not None else []
            cx.pattern_var = None
            blocks["viable"].append({"i": i, "terms": terms, "line": _line(p.src)})
    for i, m in enumerate(v.modifiers):
        pats = [cx.index["pattern"][n] for n in m.applies_to if n in cx.index["pattern"]]
        if m.applies_to and not pats:
            code = "0"  # it names no pattern of this variant, so it never applies
        elif m.applies_to:
            code = f"{joined([f'rd.pattern == {p}' for p in pats], 'or', '0')} and {cx.cond(m.cond)}"
        else:
            code = cx.cond(m.cond)
        blocks["modifiers"].append({"i": i, "code": code, "line": _line(m.src)})
    for i, s in enumerate(v.statuses):
        blocks["statuses"].append({"i": i, "code": cx.cond(s.cond) if s.cond else "1", "line": _line(s.src)})
    for i, d in enumerate(v.defines):
        blocks["defines"].append({"i": i, "code": cx.num(d.expr), "line": _line(d.src)})
    for i, t in enumerate(v.score.tiebreak if not by_reference else ()):
        blocks["ties"].append({"i": i, "code": cx.num(t), "line": _line(v.score.value_src)})
    for i, f in enumerate(v.score.forbids):
        cx.pattern_var = "p"
        ctx = cx.tri(f.cond)
        cx.pattern_var = None
        blocks["forbids"].append({"i": i, "code": cx.cond(f.cond), "ctx": ctx, "line": _line(f.src)})
    for i, mn in enumerate(v.score.minimum):
        amount = number(mn.amount) or "n_bad(x)"
        test = f"{cx.cond(mn.cond)} and " if mn.cond is not None else ""
        blocks["minimums"].append({"i": i, "code": f"{test}value < {amount}", "line": _line(mn.src)})
    # the minimum-sure test: every reading of pattern p meets every minimum, on the facts alone
    cx.pattern_var, cx.follow_defines = "p", 32
    bc = BoundsCompiler(cx)
    vlo, vhi = bc.bounds(v.score.value) if v.score.minimum else ("NAN", "NAN")
    sure = []
    for mn in v.score.minimum:
        amount = number(mn.amount)
        sure.append({"cond": cx.tri(mn.cond) if mn.cond is not None else "1",
                     "amount": amount if amount is not None else "NAN"})
    statuses = [cx.tri(x.cond) if x.cond is not None else "1" for x in v.statuses]
    cx.pattern_var, cx.follow_defines = None, 0
    cx.pattern_var, cx.follow_defines = None, 32
    tables = [_table_bounds(cx, v, i) for i in range(len(v.tables))]
    cx.follow_defines = 0
    blocks["min_sure"] = {"lines": bc.lines, "vars": [f"v{i}" for i in range(bc.n)], "lo": vlo, "hi": vhi,
                          "clauses": sure, "statuses": statuses, "tables": tables}
    # the value's bounds alone (`vb`): the best-reading search drops a pattern none of whose readings can beat
    # the best found so far
    cx.pattern_var, cx.follow_defines = "p", 32
    vbc = BoundsCompiler(cx)
    blo, bhi = vbc.bounds(v.score.value)
    cx.pattern_var, cx.follow_defines = None, 0
    # and how many modifiers may hold on a reading of the pattern (a tie on value and pattern goes to more)
    mods = []
    cx.pattern_var = "p"
    for m in v.modifiers:
        pats = [cx.index["pattern"][n] for n in m.applies_to if n in cx.index["pattern"]]
        if m.applies_to and not pats:
            continue  # it names no pattern of this variant, so it never applies
        mods.append({"pats": joined([f"p == {q}" for q in pats], "or", "1"), "tri": cx.tri(m.cond)
                     if m.cond is not None else "1"})
    cx.pattern_var = None
    blocks["value_bounds"] = {"lines": vbc.lines, "vars": [f"v{i}" for i in range(vbc.n)], "lo": blo, "hi": bhi,
                              "tables": len(tables), "mods": mods}
    value = cx.num(v.score.value)
    fans = _fans(cx, v)
    cx.win = True
    for i, (e, _, src) in enumerate(win_exprs(v)):
        blocks["wins"].append({"i": i, "code": cx.num(e), "line": _line(src)})
    cx.win, cx.reading = False, False
    for i, e in enumerate(v.events):
        blocks["events"].append({"i": i, "code": cx.cond(e.cond), "line": _line(e.src)})
    claim = cx.cond(v.claims.win_on_discard) if v.claims.win_on_discard is not None else "0"
    cx.reading = True
    tables = [_table(cx, v, i) for i in range(len(v.tables))]
    waiting = [_waiting_alternatives(text) for text, _ in sorted(cx.waiting.items(), key=lambda kv: kv[1])]
    ir_text = dump_json(v)
    b64 = base64.b64encode(ir_text.encode("utf-8")).decode("ascii")
    w = v.wild
    ctx = {
        "name": json.dumps(v.name, ensure_ascii=True), "spec_sha256": _hex(v.spec_sha256),
        "codegen_version": CODEGEN_VERSION, "key": _hex(key),
        "ir_sha256": hashlib.sha256(ir_text.encode("utf-8")).hexdigest(),
        "ir_b64": [b64[i:i + 96] for i in range(0, len(b64), 96)],
        "define_types": "".join(cx.types.letter(d.expr) for d in v.defines),
        "blocks": blocks, "tables": tables, "value": value, "claim": claim,
        "value_line": _line(v.score.value_src),
        "claim_line": _line(v.claims.win_on_discard_src or v.claims.src),
        "counts": {"npat": len(v.patterns), "nmod": len(v.modifiers), "nev": len(v.events),
                   "nst": len(v.statuses), "ntab": len(v.tables), "ndef": len(v.defines),
                   "nwin": len(win_exprs(v)), "nopt": len(v.options), "nforbid": len(v.score.forbids),
                   "nminimum": len(v.score.minimum)},
        "plain_standard": next((i for i, p in enumerate(v.patterns) if p.shape == "standard" and p.cond is None), -1),
        "win_size": int(v.win_size), "players": int(v.players),
        "has_wild": int(w is not None), "face_value": int(bool(w and w.face_value)),
        "discard_unclaimable": int(bool(w and w.discard_unclaimable)),
        "has_win_on_discard": int(v.claims.win_on_discard is not None), "rob_kong": int(bool(v.claims.rob_kong)),
        "stands": mask(k for k in (w.stands_for if w else ()) if k in set(v.tiles.playable)),
        "playable": [int(k) for k in v.tiles.playable], "copies": [int(n) for n in v.tiles.copies],
        "shapes": [_SHAPES.get(p.shape, 2) for p in v.patterns],
        "blind": reading_blind(v),
        "pung_only": pung_only(v),
        "std_needs": std_needs(v),
        "fans": fans, "waiting": waiting, "places_win": int(v.places_win),
        "points_at": points_at(v),
    }
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)), autoescape=False,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True, trim_blocks=True,
                             lstrip_blocks=True)
    text = env.get_template(MODULE_TEMPLATE).render(**ctx)
    return _with_line_map(text)


COMBO_W = 16   # the kernel's ints per fan in Spec.combo (kernel.pxd)


def _fans(cx: ExprCompiler, v: Variant) -> dict[str, Any]:
    """The fans' tables and count functions (mjrules.model.fans, counted by the kernel): per fan its kind (0 counted
    by its expression, 1 a combination, 2 otherwise), bonus flag and points; each combination's shape (COMBO_W
    ints: kind, size, suits, the steps as a bit mask, the ranks; kind -1 for one the kernel does not take); the
    steps of fans_all, which applies the exclusions (`excludes`) and the limit fans; the preferred fans."""
    index = cx.index["fan"]
    kinds, bonus, points, combo, counts, opens, limits = [], [], [], [], [], [], []
    excluders: list[list[int]] = [[] for _ in v.fans]
    ok = True
    for i, f in enumerate(v.fans):
        for name in f.excludes:
            if name in index:
                excluders[index[name]].append(i)
            else:
                ok = False
    for i, f in enumerate(v.fans):
        lit = number(f.points)
        ok = ok and lit is not None and (f.open_points is None or number(f.open_points) is not None)
        opens.append((number(f.open_points) if f.open_points is not None else lit) or "0.0")
        limits.append(int(bool(f.limit)))
        points.append(lit or "0.0")
        bonus.append(int(bool(f.bonus)))
        row = [0] * COMBO_W
        if f.combo is not None:
            kinds.append(1)
            c = f.combo
            steps = sum(1 << s for s in c.steps if isinstance(s, int) and 0 <= s < 31)
            ranks = list(c.ranks)
            fits = c.kind in ("seq", "pung") and c.suits in ("same_suit", "different_suits") and \
                isinstance(c.size, int) and 0 < c.size <= 36 and len(ranks) <= COMBO_W - 5 and \
                all(isinstance(r, int) and -2 ** 31 < r < 2 ** 31 for r in ranks)
            if fits:
                row[:5] = [0 if c.kind == "seq" else 1, c.size, 0 if c.suits == "same_suit" else 1, steps, len(ranks)]
                row[5:5 + len(ranks)] = ranks
            else:
                row[0] = -1
        elif f.otherwise:
            kinds.append(2)
        else:
            kinds.append(0)
            counts.append({"i": i, "code": cx.num(f.count) if f.count is not None else "n_err(x)",
                           "line": _line(f.src)})
        combo.extend(row)
    prefer = [index[n] for n in v.score.prefer if n in index]
    if len(prefer) != len(v.score.prefer):
        ok = False
    if not ok:   # points a double cannot hold, or a name the IR does not resolve: every fan to the reference
        kinds = [0] * len(v.fans)
        counts = [{"i": i, "code": "n_err(x)", "line": _line(f.src)} for i, f in enumerate(v.fans)]
    return {"n": len(v.fans), "kinds": kinds, "bonus": bonus, "points": points, "open": opens,
            "combo": combo, "counts": counts,
            "steps": _fan_steps(fan_order(v), kinds, bonus, combo, excluders, limits), "prefer": prefer, "ok": ok}


def fan_order(v: Variant) -> list[int]:
    """The order fans_all works out a reading's fans in: each fan after every fan its count after exclusions
    reads (ir.fan_reads, which the checker keeps free of cycles), the lowest index first among the ready."""
    index = {f.name: i for i, f in enumerate(v.fans)}
    reads = fan_reads(v.fans, {d.name: d.expr for d in v.defines})
    deps = [{index[n] for n in reads[f.name] if n in index} - {i} for i, f in enumerate(v.fans)]
    order: list[int] = []
    done = [False] * len(v.fans)
    while len(order) < len(v.fans):
        i = next((i for i, d in enumerate(deps) if not done[i] and all(done[j] for j in d)), -1)
        if i < 0:
            raise AssertionError(f"{v.name}: fans read each other in a cycle (the checker's E027 refuses it)")
        done[i] = True
        order.append(i)
    return order


def _fan_steps(order: list[int], kinds: list[int], bonus: list[int], combo: list[int],
               excluders: list[list[int]], limits: list[int]) -> list[dict[str, Any]]:
    """fans_all's straight-line steps, one a fan in fan_order (so what a step reads of the other fans is final
    already): its count before exclusions (`raw`), the test of the fans that exclude it
    (`exc`), whether a counting limit fan stops it (`capped`), and after the last limit fan, whether one counts
    (`lim`)."""
    last_limit = max((k for k, i in enumerate(order) if limits[i]), default=-1)
    lim = " or ".join(f"fv[{i}] > 0.0" for i in order if limits[i])
    steps = []
    for k, i in enumerate(order):
        if kinds[i] == 1:
            raw = "n_err(x)" if combo[i * COMBO_W] < 0 else f"rf_combo(x, rd, {i})"
        elif kinds[i] == 2:   # (1 when no other fan counts: every one it reads is final before it)
            others = [f"fv[{j}] != 0.0" for j in range(len(kinds)) if j != i and not bonus[j] and kinds[j] != 2]
            raw = f"(0.0 if ({' or '.join(others)}) else 1.0)" if others else "1.0"
        else:
            raw = f"c{i}(x, rd)"
        steps.append({"i": i, "raw": raw, "exc": " or ".join(f"fv[{j}] > 0.0" for j in excluders[i]),
                      "capped": bool(lim) and not limits[i], "lim": lim if k == last_limit else ""})
    return steps


def points_at(v: Variant) -> list[int]:
    """What each of the 34 kinds points at as an indicator (`indicators successor ...`), -1 where nothing."""
    out = [-1] * _NK
    for cy in v.indicator_cycles:
        for i, k in enumerate(cy):
            if 0 <= k < _NK and 0 <= cy[(i + 1) % len(cy)] < _NK:
                out[k] = cy[(i + 1) % len(cy)]
    return out


def _waiting_alternatives(text: str) -> list[list[int]]:
    """waiting_hand(TILES)'s pre-draw hands as 34 counts each: the tiles, and where they are all of one suit the same
    ranks in each suit (ReferenceEngine._waiting_hand). A text that is not tiles has none."""
    from ..model.tiles import TileError, parse_tiles

    try:
        kinds = sorted(t.kind for t in parse_tiles(text))
    except (TileError, ValueError):   # (the checker refuses such a text first)
        return []
    alts = {tuple(kinds)}
    if len({k // 9 for k in kinds}) == 1 and all(k < 27 for k in kinds):
        for suit in range(3):
            alts.add(tuple(sorted(suit * 9 + k % 9 for k in kinds)))
    out = []
    for alt in sorted(alts):
        if all(0 <= k < _NK for k in alt):
            counts = [0] * _NK
            for k in alt:
                counts[k] += 1
            if max(counts, default=0) < 256:
                out.append(counts)
    return out


def _conjuncts(e: Expr) -> list[Expr]:
    """The terms of a (nested) `and`, left to right; any other expression is one term."""
    if e.op != "and":
        return [e]
    return [c for a in e.args for c in _conjuncts(a)]


def _hex(s: Any) -> str:
    s = str(s or "")
    return s if all(ch in "0123456789abcdef" for ch in s) else hashlib.sha256(s.encode()).hexdigest()


def _with_line_map(text: str) -> str:
    """Append the map from generated lines to spec lines, read off the `# @@ kind id spec-line` markers."""
    lines = text.splitlines()
    marks = [(n + 1, ln.split()) for n, ln in enumerate(lines) if ln.startswith("# @@ ")]
    out = ["", "# ---- line map: generated lines -> spec lines (0: not from one spec line) ----",
           "#   lines       item           spec line"]
    for i, (start, parts) in enumerate(marks):
        end = marks[i + 1][0] - 1 if i + 1 < len(marks) else len(lines)
        while end > start and not lines[end - 1].strip():
            end -= 1
        out.append(f"#   {start:>5}-{end:<5} {parts[2]:<8} {parts[3]:<5} {parts[4]}")
    return text.rstrip("\n") + "\n" + "\n".join(out) + "\n"
