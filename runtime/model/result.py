# cython: annotation_typing=False
"""The result of evaluate: one type for both back ends, whose explanation is made when it is first read.

A `Result` is a read-only mapping (and has the same values as attributes) of the documented keys: win,
reason, pattern, patterns, status, value, payments, and, unless it was asked for with explain=False, reading
and explain. It compares equal to the dict of the same items, and `to_dict()` (or `mjrules.thaw`) gives a
plain dict, for `json.dumps` among others. Its `patterns` list and `payments` dict are the result's own (each
made when first read); its `reading` and `explain` are read-only (mjrules.model.frozen) and made when first read,
by the variant's `Explainer` from what the back end decided: neither back end builds an explanation nobody
reads.

The Explainer is the one builder of a result's text: the back ends hand it their decided values (the
pattern, the reading's groups, the modifiers, events, status, table rows, defines, value, the settlement's
lines) and it makes the lines and the reading. This module is compiled by setup.py in Cython's pure-Python
mode (typed by result.pxd): the native kernel makes a Result in C with `new_result`.
"""
from __future__ import annotations

from collections.abc import ItemsView, KeysView, Mapping, ValuesView
from typing import Any

from .frozen import FrozenDict, FrozenList, freeze
from .tiles import tile_name

KEYS = ("win", "reason", "pattern", "patterns", "status", "value", "payments", "reading", "explain")
DECIDED = KEYS[:7]          # what explain=False keeps
EXPLANATORY = KEYS[7:]      # what it leaves out: the reading's groups and the explanation lines
_NO_PAYMENTS: dict[str, Any] = {}   # a losing hand's (shared: a result hands out a copy)


class Result:
    """What evaluate decided about a hand: see the module docstring. Made by the back ends (new_result); a
    Result(...) of given values (pickling, copying) has its reading and explanation made already."""

    def __init__(self, win: bool, reason: str, pattern: str | None, patterns: Any, status: str | None,
                 value: Any, payments: dict[int, Any], reading: Any = None, explain: Any = None,
                 explained: bool = True, fans: Any = None) -> None:
        _fill(self, win, reason, pattern, tuple(patterns), status, value, dict(payments), explained, -1, None,
              None, (), (), None)
        if fans is not None:
            self._fans = tuple([(str(n), c) for n, c in fans])
        if explained:
            self._reading = freeze(reading)
            self._explain = freeze(list(explain or ()))

    # ---- the values, as attributes ---------------------------------------------------------------------
    @property
    def patterns(self) -> list[str]:
        """The pattern, then the modifiers and events that hold (the result's own list)."""
        if self._own_patterns is None:
            self._own_patterns = list(self._patterns)
        return self._own_patterns

    @property
    def payments(self) -> dict[int, Any]:
        """Seat -> amount won (+) or paid (-); sums to zero (the result's own dict). JSON writes the seats as
        strings, as JSON must."""
        if self._own_payments is None:
            self._own_payments = dict(self._payments)
        return self._own_payments

    @property
    def fans(self) -> tuple:
        """The fans that count, in the spec's order, as (name, count) pairs: () for a losing hand, and for a
        variant without fans (whose results have no "fans" key)."""
        return self._fans if self._fans is not None else ()

    @property
    def reading(self) -> Any:
        """The chosen reading's groups (and what the wilds stand for), read-only; None for a losing hand."""
        if not self.explained:
            raise AttributeError("this result was made with explain=False: it has no reading")
        if self._explain is None:
            self._tell()
        return self._reading

    @property
    def explain(self) -> Any:
        """The explanation lines ({rule, rules, text}), read-only, made when first read."""
        if not self.explained:
            raise AttributeError("this result was made with explain=False: it has no explain lines")
        if self._explain is None:
            self._tell()
        return self._explain

    def _tell(self) -> None:
        """Make the reading and the explanation (the Explainer's), then forget what they were made from."""
        if self._teller is None:
            self._reading, first = None, ()
        else:
            self._reading, line = self._teller.tell(self._pattern_index, self._facts)
            first = (line,)
        lines = self._lines
        if not isinstance(lines, tuple):   # a LazyLines: the native back end's, made when first read
            lines = lines.get()
        self._explain = FrozenList(first + lines + self._pay_lines)
        self._teller = self._facts = None

    # ---- the mapping ---------------------------------------------------------------------------------
    def __getitem__(self, key: Any) -> Any:
        if key == "win":
            return self.win
        if key == "reason":
            return self.reason
        if key == "pattern":
            return self.pattern
        if key == "patterns":
            return self.patterns
        if key == "status":
            return self.status
        if key == "value":
            return self.value
        if key == "payments":
            return self.payments
        if key == "fans" and self._fans is not None:
            return [list(x) for x in self._fans]
        if self.explained:
            if key == "reading":
                return self.reading
            if key == "explain":
                return self.explain
        raise KeyError(key)

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def _keys(self) -> tuple:
        keys = KEYS if self.explained else DECIDED
        return keys if self._fans is None else keys[:7] + ("fans",) + keys[7:]

    def __contains__(self, key: Any) -> bool:
        return key in self._keys()

    def __iter__(self) -> Any:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    def keys(self) -> KeysView:
        return KeysView(self)

    def items(self) -> ItemsView:
        return ItemsView(self)

    def values(self) -> ValuesView:
        return ValuesView(self)

    def to_dict(self) -> dict[str, Any]:
        """A plain dict of the items (its patterns and payments are copies; the reading and explanation are the
        read-only ones): what json.dumps takes."""
        d = {k: self[k] for k in self._keys()}
        d["patterns"] = list(d["patterns"])
        d["payments"] = dict(d["payments"])
        return d

    def __eq__(self, other: object) -> Any:
        if isinstance(other, Result):
            return self.to_dict() == other.to_dict()
        if isinstance(other, Mapping):
            return self.to_dict() == (other if isinstance(other, dict) else dict(other.items()))
        return NotImplemented

    def __ne__(self, other: object) -> Any:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]  # (it compares as a dict does)

    def __repr__(self) -> str:
        return f"Result({self.to_dict()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        d = self.to_dict()
        return _restore, (d, self.explained)


Mapping.register(Result)


def _restore(d: dict[str, Any], explained: bool) -> Result:
    """A Result of a dict of its items (pickling, copying)."""
    return Result(d["win"], d["reason"], d["pattern"], d["patterns"], d["status"], d["value"], d["payments"],
                  d.get("reading"), d.get("explain"), explained, d.get("fans"))


class LazyLines:
    """Explanation lines made when first read, once, and shared by every result that holds this: make(sig,
    value)[0] (the native engine's explanation of a reading's signature, whose lines a result may never show)."""

    def __init__(self, make: Any, sig: Any, value: Any) -> None:
        self.make, self.sig, self.value, self.lines = make, sig, value, None

    def get(self) -> tuple:
        if self.lines is None:
            self.lines = self.make(self.sig, self.value)[0]
            self.make = self.sig = self.value = None
        return self.lines


def new_result(win: bool, reason: Any, pattern: Any, patterns: tuple, status: Any, value: Any, payments: dict,
               explained: bool, pattern_index: int, teller: Any, facts: Any, lines: Any,
               pay_lines: tuple, fans: Any = None) -> Result:
    """A Result whose reading and explanation teller.tell(pattern_index, facts) makes when first read, with
    `lines` (a tuple, or a LazyLines) and then `pay_lines` after the pattern's (teller None: no reading, and the
    lines alone). patterns
    and payments are shared: the result hands out copies of its own."""
    r = Result.__new__(Result)
    _fill(r, win, reason, pattern, patterns, status, value, payments, explained, pattern_index, teller, facts,
          lines, pay_lines, fans)
    return r


def _fill(r: Result, win: bool, reason: Any, pattern: Any, patterns: tuple, status: Any, value: Any,
          payments: dict, explained: bool, pattern_index: int, teller: Any, facts: Any, lines: Any,
          pay_lines: tuple, fans: Any) -> None:
    r.win, r.reason, r.pattern, r.status, r.value = win, reason, pattern, status, value
    r._patterns, r._payments, r._own_patterns, r._own_payments = patterns, payments, None, None
    r.explained = explained
    r._reading = r._explain = None
    r._pattern_index, r._teller, r._facts = pattern_index, teller, facts
    r._lines, r._pay_lines = lines, pay_lines
    r._fans = fans


# ---- the explanation -------------------------------------------------------------------------------------
def explain_line(src: Any, text: str) -> dict[str, Any]:
    """One line of a result's explanation, naming the rule ids of the clause behind it."""
    rules = list(src.rules) if src else []
    return {"rule": rules[0] if rules else "", "rules": rules, "text": text}


def frozen_lines(lines: Any) -> tuple:
    """Explanation lines (dicts) as a tuple of read-only ones."""
    return tuple([freeze(x) for x in lines])


class Explainer:
    """The explanation of one variant's results (see the module docstring): built once per engine."""

    def __init__(self, variant: Any) -> None:
        from ..compiler.codegen import used_tables

        self.variant = v = variant
        self.wilds = v.wild is not None
        self.used = tuple(used_tables(v))
        self.prefix = [f"pattern {p.name} ({p.label}): " for p in v.patterns]
        self.reasons = tuple([(f"{p.name} ({p.label})", p.name) for p in v.patterns])
        self._pat = [_rules(p.src) for p in v.patterns]
        self._mod = [freeze(explain_line(m.src, f"modifier {m.name} ({m.label})")) for m in v.modifiers]
        self._ev = [freeze(explain_line(e.src, f"event {e.name} ({e.label})")) for e in v.events]
        self._st = [freeze(explain_line(x.src, f"status {x.name} ({x.label})")) for x in v.statuses]
        self.has_fans = bool(v.fans)
        self._fan_lines: dict[tuple[int, Any], Any] = {}
        self._tables: dict[tuple[int, int, int], Any] = {}
        self._groups: dict[tuple, Any] = {}

    # ---- decided values -> lines -------------------------------------------------------------------------
    def middle(self, mods: Any, events: Any, status: int, rows: Any, defines: Any,
               value: Any) -> tuple[tuple, tuple, str | None]:
        """The explanation lines between the pattern's and the settlement's (modifiers, events, status, the used
        tables' rows, the defines, the value) as read-only dicts, the names that follow the pattern in
        "patterns" (modifiers, then events) and the status name. mods, events: the indices that hold; status:
        its index (-1 none); rows: each used table's row index; defines: each define's value."""
        v = self.variant
        lines = [self._mod[m] for m in mods] + [self._ev[e] for e in events]
        if status >= 0:
            lines.append(self._st[status])
        lines += [self._table(ti, ri, status) for ti, ri in zip(self.used, rows)]
        lines += [freeze(explain_line(d.src, f"{d.name}{f' ({d.label})' if d.label else ''} = {_fmt(x)}"))
                  for d, x in zip(v.defines, defines)]
        lines.append(freeze(explain_line(v.score.value_src, f"value = {value}")))
        return (tuple(lines),) + self.head(mods, events, status)

    def head(self, mods: Any, events: Any, status: int) -> tuple[tuple, str | None]:
        """What a result shows of its modifiers, events and status besides the explanation: the names that follow
        the pattern in "patterns" (modifiers, then events) and the status name (None: no status)."""
        v = self.variant
        tail = tuple([v.modifiers[m].name for m in mods] + [v.events[e].name for e in events])
        return tail, v.statuses[status].name if status >= 0 else None

    def _table(self, ti: int, ri: int, status: int) -> Any:
        key = (ti, ri, status)
        line = self._tables.get(key)
        if line is None:
            v = self.variant
            t = v.tables[ti]
            row = t.rows[ri]
            st = v.statuses[status].name if status >= 0 else None
            cell = row.cells[t.columns.index(st) if t.column_var else 0]
            col = f", {st}" if t.column_var else ""
            line = self._tables[key] = freeze(explain_line(
                row.src if row.src.rules else t.src, f"table {t.name}[{' '.join((row.pattern,) + row.modifiers)}{col}] = {cell}"))
        return line

    def fan_line(self, i: int, count: Any, exposed: bool = False) -> Any:
        """The explanation line of fan i counted `count` times: its name, label, count and points (its open points
        in a hand with an exposed meld)."""
        key = (i, count, exposed)
        line = self._fan_lines.get(key)
        if line is None:
            f = self.variant.fans[i]
            times = f" x{_fmt(count)}" if count != 1 else ""
            total = f.points_for(exposed) * count
            line = self._fan_lines[key] = freeze(explain_line(
                f.src, f"fan {f.name}{times} ({f.label}) = {_fmt(total)}"))
        return line

    def fans(self, counted: Any, exposed: bool = False) -> tuple[tuple, tuple]:
        """(the lines, the (name, count) pairs) of the fans that count: (index, count) pairs in the spec's order;
        exposed: the hand has an exposed meld (a fan's open points)."""
        fans = self.variant.fans
        return (tuple([self.fan_line(i, c, exposed) for i, c in counted]),
                tuple([(fans[i].name, int(c) if isinstance(c, float) and c.is_integer() else c) for i, c in counted]))

    def win(self, pattern: int, facts: Any, mods: Any, events: Any, status: int, rows: Any, defines: Any,
            value: Any, payments: dict[int, Any], pay_lines: Any, explained: bool = True,
            counted: Any = (), exposed: bool = False) -> Result:
        """The Result of a winning reading (the reference back end's way: every piece decided here); counted:
        the (index, count) pairs of the fans that count."""
        lines, tail, status_name = self.middle(mods, events, status, rows, defines, value)
        reason, name = self.reasons[pattern]
        fans = None
        if self.has_fans:
            fan_lines, fans = self.fans(counted, exposed)
            lines = lines[:-1] + fan_lines + lines[-1:]
        return new_result(True, reason, name, (name,) + tail, status_name, value, payments, explained, pattern,
                          self, facts, lines, frozen_lines(pay_lines), fans)

    def losing(self, reason: str, src: Any, explained: bool = True, text: str | None = None) -> Result:
        """The Result of a hand that does not win: its reason, and the one line saying so (text, else the
        reason), naming the rule of src."""
        return new_result(False, reason, None, (), None, 0, _NO_PAYMENTS, explained, -1, None, None,
                          (freeze(explain_line(src, reason if text is None else text)),), (),
                          () if self.has_fans else None)

    # ---- the reading and its line, when first read ------------------------------------------------------------
    def tell(self, pattern: int, reading: Any) -> tuple[Any, Any]:
        """(the reading, the pattern's explanation line) of a reading with .groups (each with .kind, .kinds,
        .wild), .counts (34, the tiles as what they stand for, melds included) and .assignment (what each
        wild stands for, sorted). The groups are shown in their order by (kinds, kind, wild)."""
        groups = sorted(reading.groups, key=lambda g: (tuple(g.kinds), g.kind, tuple(g.wild)))
        if groups:
            text = " ".join(["".join(tile_name(k)[0] + ("*" if w else "") for k, w in zip(g.kinds, g.wild))
                             + tile_name(g.kinds[0])[1] for g in groups])
        else:
            text = " ".join([tile_name(k) for k in range(34) for _ in range(reading.counts[k])])
            if reading.assignment:
                text += f"; wilds as {' '.join(tile_name(k) for k in reading.assignment)}"
        shown = FrozenList([self._group(g) for g in groups])
        out = FrozenDict(groups=shown, wilds_as=FrozenList([tile_name(k) for k in reading.assignment])) \
            if self.wilds else FrozenDict(groups=shown)
        rules = self._pat[pattern]
        line = FrozenDict(rule=rules[0] if rules else "", rules=rules, text=self.prefix[pattern] + text)
        return out, line

    def _group(self, g: Any) -> Any:
        key = (g.kind, tuple(g.kinds), tuple(g.wild))
        got = self._groups.get(key)
        if got is None:
            tiles = FrozenList([tile_name(k) for k in g.kinds])
            got = self._groups[key] = FrozenDict(kind=g.kind, tiles=tiles, wild=FrozenList(bool(w) for w in g.wild)) \
                if self.wilds else FrozenDict(kind=g.kind, tiles=tiles)
        return got


def _rules(src: Any) -> Any:
    return FrozenList(src.rules if src else ())


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v)
