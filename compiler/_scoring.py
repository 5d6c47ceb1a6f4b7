"""Checker part: patterns, modifiers, events, statuses, tables, the score, settlement and rotation."""
from __future__ import annotations

from . import builtins as B
from . import ir
from .errors import one_of
from .exprs import STAGE, STAGE_VALUE
from .limits import MAX_ITEMS
from .nodes import Clause
from .reader import ANY_STAGE, PAY_BLOCK, PAY_SETS, SECTIONS, Reader

SHAPES = ("standard", "pairs", "free", "knitted")
ROTATE_TARGETS = ("dealer", "next", "winner", "discarder", "last_drawer")
NO_WINNER_TARGETS = ("winner", "discarder")   # targets a drawn hand has no seat for


def _head(self, c: Clause, usage: str) -> tuple[Reader, str, str]:
    r = Reader(c, self.col, usage)
    name = r.name("a name")
    label = r.opt_string() or name
    return r, name, label


def check_pattern(self, c: Clause) -> ir.Pattern:
    r, name, label = _head(self, c, 'pattern NAME ["label"] shape standard|pairs|free|knitted [when ...]')
    r.lit("shape")
    shape = r.choice("a shape: standard (sets + a pair), pairs, free (no structure), or knitted (a knitted "
                     "straight, sets and a pair)", SHAPES)
    r.end()
    self.no_value(c)
    cond = self.x.cond(c.cond, c.cond_kind, B.HAND, STAGE["pattern"])
    return ir.Pattern(name, label, shape, cond, self.src(c))


def check_modifier(self, c: Clause) -> ir.Modifier:
    r, name, label = _head(self, c, 'modifier NAME ["label"] [for PATTERN...] when ...')
    applies: list[str] = []
    if r.flag("for"):
        applies = self.pattern_names(c, r.rest())
    r.end()
    self.no_value(c)
    if c.cond is None:
        self.col.error("E034", f"modifier '{name}' needs 'when CONDITION'", c.span)
        cond = ir.Expr("const", (False,))
    else:
        cond = self.x.cond(c.cond, c.cond_kind, B.HAND, STAGE["modifier"])
    return ir.Modifier(name, label, tuple(applies), cond, self.src(c))


def check_event(self, c: Clause) -> ir.Event:
    r, name, label = _head(self, c, 'event NAME ["label"] when ...')
    r.end()
    self.no_value(c)
    if c.cond is None:
        self.col.error("E034", f"event '{name}' needs 'when CONDITION'", c.span)
        return ir.Event(name, label, ir.Expr("const", (False,)), self.src(c))
    return ir.Event(name, label, self.x.cond(c.cond, c.cond_kind, B.HAND, STAGE["event"]), self.src(c))


COMBO_SUITS = ("same_suit", "different_suits")


def check_fans(self, clauses: list[Clause], excl: list[Clause]) -> tuple[ir.Fan, ...]:
    """The `fan` clauses, with the `excludes` clauses that name what each one implies (不计)."""
    implied: dict[str, list[str]] = {}
    for c in excl:
        r = Reader(c, self.col, "excludes FAN : FAN...")
        w = r.take(("name",), "the fan that implies the others")
        r.end()
        self.no_value(c)
        if c.cond is not None:
            self.col.error("E014", "'excludes' takes no condition: a fan that counts always implies the others",
                           c.cond.span)
        if w is not None and w.value not in self.names.fans:
            self.col.error("E015", f"unknown fan '{w.text()}'", w.span,
                           self.col.suggest(w.text(), self.names.fans) or one_of(self.names.fans))
            continue
        if not c.cells:
            self.col.error("E013", "'excludes' expects ': FAN...', the fans not counted with it", c.key_span)
            continue
        for x in c.cells:
            if x.kind != "name" or x.value not in self.names.fans:
                self.col.error("E015", f"unknown fan '{x.text()}'", x.span,
                               self.col.suggest(x.text(), self.names.fans) or one_of(self.names.fans))
            elif w is not None and x.value == w.value:
                self.col.error("E027", f"fan '{x.value}' excludes itself", x.span, "drop it from the list")
            elif w is not None and x.value not in implied.setdefault(w.value, []):
                implied[w.value].append(x.value)
    out = []
    for c in clauses:
        usage = 'fan NAME ["label"] POINTS [open POINTS] [bonus] [limit] [otherwise] [: COMBINATION] [= COUNT] [when ...]'
        r, name, label = _head(self, c, usage)
        w = r.take(("number",), "the fan's points, a number")
        points = w.value if w is not None else 0
        open_points = None
        if r.flag("open"):
            ow = r.take(("number",), "the fan's points while the hand is open, a number")
            open_points = ow.value if ow is not None else None
        flags = r.flags(("bonus", "limit", "otherwise"))
        r.end()
        if "bonus" in flags and "limit" in flags:
            self.col.error("E018", f"fan '{name}' is both a bonus and a limit", c.key_span,
                           "a limit fan is the hand's own: drop one of them")
        combo = _combo(self, c) if c.cells is not None else None
        count = None
        if c.value is not None:
            if combo is not None or "otherwise" in flags:
                self.col.error("E014", f"fan '{name}' is counted by its {'combination' if combo else 'otherwise'}: "
                               "it takes no '= COUNT'", c.value.span)
            else:
                count, t = self.x._lower(c.value, B.HAND, STAGE_VALUE)
                if t == "bool":
                    count = ir.Expr("if", (count, ir.Expr("const", (1,)), ir.Expr("const", (0,))))
                elif t not in ("num", "error"):
                    self.col.error("E017", f"type error: a fan's count is a number or a condition", c.value.span)
        cond = self.x.cond(c.cond, c.cond_kind, B.HAND, STAGE_VALUE)
        if "otherwise" in flags and cond is not None:
            self.col.error("E033", f"fan '{name}' says 'otherwise': it takes no condition", c.cond.span)
            cond = None
        if count is None and combo is None and "otherwise" not in flags:
            if cond is None:
                self.col.error("E034", f"fan '{name}' needs '= COUNT', 'when CONDITION', ': COMBINATION' or "
                               "'otherwise'", c.span)
            count = cond if cond is not None else ir.Expr("const", (0,))
            count = ir.Expr("if", (count, ir.Expr("const", (1,)), ir.Expr("const", (0,))))
        elif cond is not None and count is not None:
            count = ir.Expr("if", (cond, count, ir.Expr("const", (0,))))
        elif cond is not None:
            self.col.error("E014", f"fan '{name}' is counted by its combination: it takes no condition",
                           c.cond.span)
        out.append(ir.Fan(name, label, points, count, combo, "otherwise" in flags, "bonus" in flags,
                          tuple(implied.get(name, ())), self.src(c), open_points, "limit" in flags))
    _fan_cycles(self, out, clauses)
    return tuple(out)


def _combo(self, c: Clause) -> ir.Combo | None:
    usage = "seq|pung N same_suit|different_suits step D... | ranks R..."
    words = [w for w in c.cells if w.kind != "comma"]
    i = 0

    def bad(what: str, w=None) -> None:
        at = w.span if w is not None else c.key_span
        self.col.error("E013", f"a combination expects {what}" + (f", found '{w.text()}'" if w else ""), at,
                       f"usage: fan NAME \"label\" POINTS : {usage}")

    if len(words) < 4:
        bad("a kind of set, a size, a suit relation and a rank relation")
        return None
    kind, size, suits, rel = words[0], words[1], words[2], words[3]
    if kind.kind != "name" or kind.value not in ("seq", "pung"):
        bad("seq or pung", kind)
        return None
    if size.kind != "number" or not isinstance(size.value, int) or not 2 <= size.value <= 4:
        bad("a size from 2 to 4", size)
        return None
    if suits.kind != "name" or suits.value not in COMBO_SUITS:
        bad("same_suit or different_suits", suits)
        return None
    if rel.kind != "name" or rel.value not in ("step", "ranks"):
        bad("step D... or ranks R...", rel)
        return None
    nums = []
    for w in words[4:]:
        if w.kind != "number" or not isinstance(w.value, int) or not 0 <= w.value <= 9:
            bad("whole numbers from 0 to 9", w)
            return None
        nums.append(w.value)
    if not nums:
        bad(f"at least one number after '{rel.value}'")
        return None
    if rel.value == "ranks" and (len(nums) != size.value or any(not 1 <= n <= 9 for n in nums)):
        bad(f"{size.value} ranks from 1 to 9 after 'ranks'", words[4])
        return None
    if suits.value == "different_suits" and size.value > 3:
        bad("at most 3 sets in different suits (there are three suits)", size)
        return None
    return ir.Combo(kind.value, size.value, suits.value, tuple(nums) if rel.value == "step" else (),
                    tuple(sorted(nums)) if rel.value == "ranks" else ())


def _fan_cycles(self, fans: list[ir.Fan], clauses: list[Clause]) -> None:
    """E027 for fans that depend on themselves: through their counts (a fan's count may read other fans, and
    defines) or through what excludes them (a fan counts only when no fan that excludes it holds)."""
    deps = ir.fan_reads(fans, self.x.define_ir)
    state: dict[str, int] = {}
    where = {f.name: c for f, c in zip(fans, clauses)}
    for start in deps:
        stack = [(start, iter(sorted(deps[start])))]
        path = [start]
        state[start] = state.get(start, 0) or 1
        if state[start] == 2:
            continue
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
                path.pop()
                continue
            st = state.get(nxt, 0)
            if st == 1:
                cyc = " -> ".join(path[path.index(nxt):] + [nxt])
                self.col.error("E027", f"fan cycle: {cyc}", where[nxt].span,
                               "a fan's count may not depend on itself, nor on a fan it excludes")
                return
            if st == 0:
                state[nxt] = 1
                stack.append((nxt, iter(sorted(deps.get(nxt, ())))))
                path.append(nxt)


def check_statuses(self, clauses: list[Clause]) -> tuple[ir.Status, ...]:
    out = []
    for i, c in enumerate(clauses):
        r, name, label = _head(self, c, 'status NAME ["label"] when ... | status NAME ["label"] otherwise')
        other = r.flag("otherwise")
        r.end()
        if other == (c.cond is not None):
            self.col.error("E033", f"status '{name}' needs exactly one of 'when CONDITION' or 'otherwise'", c.span)
        if other and i != len(clauses) - 1:
            self.col.error("E033", f"status '{name}' says 'otherwise' but is not the last status", c.span,
                           "statuses are tried in order; move the 'otherwise' one last")
        cond = None if other else self.x.cond(c.cond, c.cond_kind, B.HAND, STAGE["status"])
        out.append(ir.Status(name, label, cond, self.src(c)))
    if out and out[-1].cond is not None:
        self.col.error("E033", "the last status must be 'otherwise'", clauses[-1].span,
                       "every winning hand needs a status")
    return tuple(out)


def check_table(self, c: Clause) -> ir.Table:
    r, name, label = _head(self, c, 'table NAME ["label"] by pattern [, status] { columns ...; ROW : CELLS }')
    r.lit("by")
    r.lit("pattern")
    column_var = None
    if r.peek() is not None:
        column_var = r.choice("status (the column variable)", ("status",))
    r.end()
    self.no_value(c)
    columns: tuple[str, ...] = ()
    rows: list[ir.TableRow] = []
    seen: dict[tuple, int] = {}
    body = self.body_of(c)
    if len(body) > MAX_ITEMS:
        self.col.error("E040", f"too many rows in table '{name}': {len(body)}, the limit is {MAX_ITEMS}",
                       body[MAX_ITEMS].key_span, "no rule book needs this many; merge some of them")
    for row in body:
        if row.keyword == "columns":
            cols = Reader(row, self.col, "columns STATUS...").names_rest("status names", None)
            for w in row.words:
                if w.kind == "name" and w.value not in self.names.statuses:
                    self.col.error("E028", f"unknown status '{w.value}' in columns", w.span,
                                   self.col.suggest(w.value, self.names.statuses) or one_of(self.names.statuses))
            if column_var is None:
                self.col.error("E028", "a table by pattern alone has one column; remove 'columns'", row.span,
                               "or write `by pattern, status`")
            columns = tuple(cols)
            continue
        if row.cells is None:
            self.col.error("E028", f"table row '{row.keyword}' needs ': CELLS'", row.span,
                           f"usage: PATTERN [MODIFIER...] : VALUE...   (in table '{name}')")
            continue
        if row.keyword not in self.names.patterns:
            self.col.error("E028", f"unknown pattern '{row.keyword}' in table '{name}'", row.key_span,
                           self.col.suggest(row.keyword, self.names.patterns) or one_of(self.names.patterns))
            continue
        mods = []
        for w in row.words:
            if w.kind != "name" or w.value not in self.names.modifiers:
                self.col.error("E028", f"unknown modifier '{w.text()}' in table '{name}'", w.span,
                               self.col.suggest(w.text(), self.names.modifiers) or one_of(self.names.modifiers))
            else:
                mods.append(w.value)
        key = (row.keyword, frozenset(mods))
        if key in seen:
            self.col.error("E018", f"duplicate row '{' '.join([row.keyword, *mods])}' in table '{name}'", row.span,
                           f"the first is on line {seen[key]}")
        seen[key] = row.span.line
        cells = []
        for w in row.cells:
            if w.kind != "number":
                self.col.error("E028", f"table cells are numbers, found '{w.text()}'", w.span)
            else:
                cells.append(w.value)
        want = len(columns) if column_var else 1
        if len(cells) != want and len(cells) == len(row.cells) and (columns or not column_var):
            self.col.error("E028", f"row '{row.keyword}' has {len(cells)} cells, the table has {want} column(s)",
                           row.span)
        rows.append(ir.TableRow(row.keyword, tuple(sorted(mods)), tuple(cells), self.src(row)))
    if column_var and not columns:
        self.col.error("E028", f"table '{name}' is by status but has no 'columns' row", c.span,
                       "add e.g. `columns 有宝 宝调 无宝`")
    if column_var and columns and set(columns) != set(self.names.statuses):
        missing = sorted(set(self.names.statuses) - set(columns))
        if missing:
            self.col.error("E028", f"table '{name}' has no column for status {', '.join(missing)}", c.span)
    base = {r.pattern for r in rows if not r.modifiers}
    for p in sorted(self.names.patterns - base):
        self.col.error("E028", f"table '{name}' has no row for pattern '{p}'", c.span,
                       f"add a row `{p} : ...`")
    return ir.Table(name, label, column_var, columns, tuple(rows), self.src(c))


def check_score(self, sec) -> ir.Score:
    vc = self.single(sec, "value", "score", required=True)
    value, vsrc = ir.Expr("const", (0,)), ir.Src((), "", 0)
    if vc is not None:
        Reader(vc, self.col, "value = EXPRESSION").end()
        if self.need_value(vc, "an expression"):
            value = self.x.check(vc.value, B.HAND, STAGE_VALUE, "num")
        vsrc = self.src(vc)
    mins = []
    for mc in sec.get("minimum", []):
        r = Reader(mc, self.col, "minimum N [when|unless ...]")
        w = r.take(("number",), "the minimum value")
        r.end()
        mins.append(ir.Minimum(w.value if w else 0, self.x.cond(mc.cond, mc.cond_kind, B.HAND, STAGE_VALUE),
                               self.src(mc)))
    forbids = []
    for fc in sec.get("forbid", []):
        r = Reader(fc, self.col, 'forbid "reason" when ...')
        reason = r.string("the reason, as a string")
        r.end()
        if fc.cond is None:
            self.col.error("E034", "'forbid' needs 'when CONDITION'", fc.span)
            continue
        forbids.append(ir.Forbid(reason, self.x.cond(fc.cond, fc.cond_kind, B.HAND, STAGE_VALUE), self.src(fc)))
    prefer: list[str] = []
    for pc in sec.get("prefer", []):
        r = Reader(pc, self.col, "prefer FAN...")
        for w in r.rest():
            if w.kind != "name" or w.value not in self.names.fans:
                self.col.error("E015", f"unknown fan '{w.text()}'", w.span,
                               self.col.suggest(w.text(), self.names.fans) or one_of(self.names.fans))
            elif w.value not in prefer:
                prefer.append(w.value)
        self.no_value(pc)
    ties = []
    for tc in sec.get("tiebreak", []):
        Reader(tc, self.col, "tiebreak = EXPRESSION").end()
        if self.need_value(tc, "an expression, the larger first among readings of equal value"):
            ties.append(self.x.check(tc.value, B.HAND, STAGE_VALUE, "num"))
    return ir.Score(value, vsrc, tuple(mins), tuple(forbids), tuple(prefer), tuple(ties))


def define_label(self, c: Clause) -> str:
    """A define's label (`define G "四規一" = ...`), or ""."""
    words = [w for w in c.words if w.kind != "comma"]
    return str(words[1].value) if len(words) > 1 and words[1].kind == "string" else ""


def check_define(self, c: Clause) -> None:
    r = Reader(c, self.col, 'define NAME ["label"] = EXPRESSION')
    r.name("a name")
    r.opt_string()
    r.end()
    name = c.words[0].value if c.words and c.words[0].kind == "name" else None
    if name is None or name not in self.names.defines:
        return
    if name in self.x.define_ir:
        return
    # a define nobody used yet: check it where it is most likely meant, the hand; else where the game settles
    # (it may read payer, hits, a seat function), else the wall; where none accepts it, the hand's errors stand
    sub_errors = len(self.col.diagnostics)
    from .nodes import Expr as AstExpr
    ref = AstExpr("name", [], name, c.words[0].span)
    self.x.check(ref, B.HAND, STAGE_VALUE)
    hand_errors = self.col.diagnostics[sub_errors:]
    if hand_errors and name not in self.x.define_ir and all(d.code == "E026" for d in hand_errors):
        # only a builtin of another context was in the way
        for ctx in (B.SETTLE, B.OPENING, B.GAME, B.WALL):
            del self.col.diagnostics[sub_errors:]
            self.x.check(ref, ctx, ANY_STAGE)
            if len(self.col.diagnostics) == sub_errors and name in self.x.define_ir:
                return
        del self.col.diagnostics[sub_errors:]
        self.col.diagnostics += hand_errors


def check_settlement(self, c: Clause | None) -> ir.Settlement:
    sec = self.section(self.body_of(c), SECTIONS["settlement"], "settlement")
    blocks: dict[str, list[ir.Payment]] = {"win": [], "draw": [], "hand_end": [], "kong_exposed": [], "kong_added": [],
                                           "kong_concealed": [], "wall_end": [], "on_win": [], "discard": [], "first_round": [],
                                           "opening": []}
    for kw in ("win", "draw", "hand_end", "wall_end", "on_win", "discard", "first_round", "opening"):
        for b in sec.get(kw, []):
            Reader(b, self.col, f"{kw} {{ pay ... }}").end()
            blocks[kw] += _payments(self, b, kw)
    at_once: list[str] = []
    for b in sec.get("kong", []):
        r = Reader(b, self.col, "kong exposed|added|concealed [at_once] { pay ... }")
        kind = r.choice("exposed, added or concealed", ("exposed", "added", "concealed"))
        if r.flag("at_once"):
            at_once.append(kind)
        r.end()
        blocks["kong_" + kind] += _payments(self, b, "kong")
    cap, cap_cond, cap_src = None, None, None
    cc = self.single(sec, "cap", "settlement")
    if cc:
        r = Reader(cc, self.col, "cap loss = EXPRESSION [when ...]")
        r.lit("loss")
        r.end()
        if self.need_value(cc, "the largest loss per payer"):
            cap = self.x.check(cc.value, B.GAME, ANY_STAGE, "num")
        cap_cond = self.x.cond(cc.cond, cc.cond_kind, B.GAME, ANY_STAGE)
        cap_src = self.src(cc)
    table = {n: self.x.define_ir[n] for n in table_only_defines(self.x.define_ir)}
    if table:   # a payment reads a table define's expression, so that what it reads of payer and payee shows
        for k, block in blocks.items():
            blocks[k] = [_inline_payment(p, table) for p in block]
    play_only: list[tuple[str, str]] = []
    if blocks["on_win"]:
        if blocks["win"]:
            self.col.error("E041", "a settlement pays wins in 'win' (with the hand's score) or in 'on_win' (in play, "
                                   "as each win happens), not both", c.span if c else None)
        blocks["win"], play_only = _scored_on_win(blocks["on_win"])
    return ir.Settlement(*(tuple(blocks[k]) for k in ("win", "draw", "hand_end", "kong_exposed", "kong_added",
                                                       "kong_concealed")), cap, cap_cond, cap_src,
                         tuple(blocks["wall_end"]), tuple(blocks["on_win"]), tuple(sorted(set(at_once))),
                         tuple(blocks["discard"]), tuple(blocks["first_round"]), tuple(blocks["opening"]),
                         tuple(play_only))


# What the on_win context knows beyond the win context, as a hand scored alone has it: the first win of the hand,
# every player still in, no horses turned, no kong fed.
_AS_FIRST_WIN = {"horse_hits": ir.Expr("const", (0,)), "fed": ir.Expr("const", (False,)),
                 "first_winners": ir.Expr("const", (1,)), "wall_ended": ir.Expr("const", (False,)),
                 "win_place": ir.Expr("const", (1,)),
                 "winner": ir.Expr("var", ("seat",))}
_WIN_PAYERS = frozenset({"others", "discarder", "dealer", "non_dealers", "winner"})


def table_only_defines(defines: dict[str, ir.Expr]) -> set[str]:
    """The defines a hand cannot evaluate: those reading, directly or through another define, a builtin that only
    the table knows (payer, hits, a seat function): the game evaluates them where it settles, the hand never."""
    hand = (B.HAND,)   # what a hand reading can evaluate: a define reading a win fact (value, winners) is the table's
    out: set[str] = set()
    changed = True
    while changed:
        changed = False
        for n, e in defines.items():
            if n in out:
                continue
            vs = [B.VARIABLES.get(x) for x in e.names("var")]
            fs = [B.FUNCTIONS.get(x) for x in e.names("call")]
            if any(b is not None and not set(b.contexts) & set(hand) for b in vs + fs) or \
                    any(r in out for r in _define_refs(e)):
                out.add(n)
                changed = True
    return out


def _define_refs(e: ir.Expr) -> set[str]:
    out = {e.args[1]} if e.op == "ref" and e.args[0] == "define" else set()
    for a in e.args:
        if isinstance(a, ir.Expr):
            out |= _define_refs(a)
    return out


def _inline(e: ir.Expr | None, table: dict[str, ir.Expr]) -> ir.Expr | None:
    """e with each reference to a define of `table` replaced by the define's expression."""
    if e is None:
        return None
    if e.op == "ref" and e.args[0] == "define" and e.args[1] in table:
        return _inline(table[e.args[1]], table)
    if not any(isinstance(a, ir.Expr) for a in e.args):
        return e
    return ir.Expr(e.op, tuple(_inline(a, table) if isinstance(a, ir.Expr) else a for a in e.args))


def _inline_payment(p: ir.Payment, table: dict[str, ir.Expr]) -> ir.Payment:
    return ir.Payment(p.payer, p.payee, _inline(p.amount, table), _inline(p.cond, table), p.src, p.action, p.what)


def _scored_on_win(on_win: list[ir.Payment]) -> tuple[list[ir.Payment], list[tuple[str, str]]]:
    """The win payments a hand scored alone shows, from a spec's on_win block: its pay clauses as at the hand's
    first win (every player in, no horses turned, no kong fed). A clause that reads the table (a seat function,
    payer or payee) or pays a set only play has (players, feeder), and refunds and transfers, are play's alone:
    each is listed, with why, as (rule id, why), for `mjrules score` to show. The clauses come with the table's
    defines read through already (check_settlement)."""
    out, alone = [], []
    for p in on_win:
        rule = p.src.rules[0] if p.src.rules else f"line {p.src.line}"
        if p.action != "pay":
            alone.append((rule, f"a {p.action} of earlier kong payments happens only in play"))
            continue
        if p.payer not in _WIN_PAYERS or p.payee not in _WIN_PAYERS:
            who = p.payer if p.payer not in _WIN_PAYERS else p.payee
            alone.append((rule, f"'{who}' is known only in play"))
            continue
        why: list[str] = []
        amount = _as_first_win(p.amount, why)
        cond = None if p.cond is None else _as_first_win(p.cond, why)
        if amount is not None and (p.cond is None or cond is not None):
            out.append(ir.Payment(p.payer, p.payee, amount, cond, p.src))
        else:
            alone.append((rule, f"it reads {why[0]}, which only play knows"))
    return out, alone


def _as_first_win(e: ir.Expr, why: list[str]) -> ir.Expr | None:
    """e in the win context (_AS_FIRST_WIN's facts put in), or None where it reads what only play knows (named in
    `why`)."""
    if e.op == "var":
        name = e.args[0]
        if name in _AS_FIRST_WIN:
            return _AS_FIRST_WIN[name]
        b = B.VARIABLES.get(name)
        if b is None or B.WIN in b.contexts:
            return e
        why.append(f"'{name}'")
        return None
    if e.op == "call":
        if e.args[0] == "hits":   # no horse is turned before the hand's first win is paid
            return ir.Expr("const", (0,))
        f = B.FUNCTIONS.get(e.args[0])
        if f is not None and B.WIN not in f.contexts:
            why.append(f"'{e.args[0]}(...)'")
            return None
    args = []
    for a in e.args:
        if isinstance(a, ir.Expr):
            a = _as_first_win(a, why)
            if a is None:
                return None
        args.append(a)
    return ir.Expr(e.op, tuple(args))


def _payments(self, block: Clause, where: str) -> list[ir.Payment]:
    """The pay, refund and transfer clauses of a settlement block (only pay in the win block, which the hand's
    evaluator settles)."""
    allowed = ("pay",) if where in ("win", "opening") else PAY_BLOCK
    what = " ".join([block.keyword] + [w.text() for w in block.words])
    sec = self.section(self.body_of(block), allowed, what)
    out = []
    for p in self.body_of(block):
        if p.keyword == "pay":
            out.append(_payment(self, p, where))
        elif p.keyword in ("refund", "transfer") and p.keyword in sec:
            out.append(_move(self, p, where))
    return out


def _move(self, c: Clause, where: str) -> ir.Payment:
    """refund kong|last_kong [when ...]  |  transfer kong|last_kong from PAYER to PAYEE [when ...]"""
    if c.keyword == "refund":
        r = Reader(c, self.col, "refund kong|last_kong [when ...]   (each such payment is paid back)")
        what = r.choice("what to pay back: kong (every kong payment) or last_kong", ("kong", "last_kong"))
        payer, payee = "players", "players"
    else:
        r = Reader(c, self.col, "transfer kong|last_kong from PAYER to PAYEE [when ...]")
        what = r.choice("what to hand on: kong or last_kong", ("kong", "last_kong"))
        r.lit("from")
        payer = r.choice("who hands on what he received", PAY_SETS)
        r.lit("to")
        payee = r.choice("who receives it", PAY_SETS)
    r.end()
    if c.value is not None:
        self.col.error("E014", f"'{c.keyword}' takes no '= ...': the amounts are those paid earlier", c.value.span)
    ctx = B.SETTLE if where == "on_win" else B.GAME
    return ir.Payment(payer, payee, ir.Expr("const", (0,)), self.x.cond(c.cond, c.cond_kind, ctx, ANY_STAGE),
                      self.src(c), c.keyword, what)


def _payment(self, c: Clause, where: str) -> ir.Payment:
    r = Reader(c, self.col, "pay PAYER [to PAYEE] = AMOUNT [when ...]   (players: " + ", ".join(PAY_SETS) + ")")
    payer = r.choice("who pays", PAY_SETS)
    payee = {"win": "winner", "on_win": "winner", "kong": "konger", "opening": "shower"}.get(where, "")
    if r.flag("to"):
        payee = r.choice("who is paid", PAY_SETS)
    r.end()
    if not payee:
        self.col.error("E013", f"a '{where}' payment must say who is paid: pay {payer} to PLAYERS = ...", c.span)
        payee = "dealer"
    ctx = B.WIN if where == "win" else B.SETTLE if where == "on_win" else B.OPENING if where == "opening" else B.GAME
    for who in (payer, payee):
        if who == "shower" and where != "opening":
            self.col.error("E026", "'shower' (the seat showing its dealt hand) exists only in the opening block",
                           c.span)
        if who in ("winner", "discarder", "konger", "feeder") and where == "opening":
            self.col.error("E026", f"there is no {who} at the deal: an 'opening' payment is made before play",
                           c.span)
        if who in ("winner", "discarder") and where in ("draw",):
            self.col.error("E026", f"there is no {who} after a draw", c.span)
        if who == "winner" and where in ("discard", "first_round"):
            self.col.error("E026", f"there is no winner at a discard: a '{where}' payment is made as play goes on",
                           c.span)
        if who == "konger" and where != "kong":
            self.col.error("E026", "'konger' exists only in kong settlements", c.span)
        if who == "feeder" and where != "on_win":
            self.col.error("E026", "'feeder' (who fed the kong a winning replacement followed) exists only in on_win",
                           c.span)
        if who == "players" and where == "win":
            self.col.error("E026", "a win is paid by its payers (others, discarder, dealer, non_dealers), not 'players'",
                           c.span)
    amount = ir.Expr("const", (0,))
    if self.need_value(c, "the amount"):
        amount = self.x.check(c.value, ctx, ANY_STAGE, "num")
    return ir.Payment(payer, payee, amount, self.x.cond(c.cond, c.cond_kind, ctx, ANY_STAGE), self.src(c))


def check_rotation(self, c: Clause | None) -> ir.Rotation:
    sec = self.section(self.body_of(c), SECTIONS["rotation"], "rotation")
    rules = []
    rot = sec.get("rotate", [])
    for i, rc in enumerate(rot):
        r = Reader(rc, self.col, "rotate dealer|next|winner|discarder|last_drawer when ... | rotate TARGET otherwise")
        target = r.choice("who deals next: " + ", ".join(ROTATE_TARGETS), ROTATE_TARGETS)
        other = r.flag("otherwise")
        r.end()
        if other == (rc.cond is not None):
            self.col.error("E033", "'rotate' needs exactly one of 'when CONDITION' or 'otherwise'", rc.span)
        if other and i != len(rot) - 1:
            self.col.error("E033", "'rotate ... otherwise' must be the last rotate rule", rc.span)
        if other and target in NO_WINNER_TARGETS:
            self.col.error("E033", f"'rotate {target} otherwise' also decides a drawn hand, which has no {target}",
                           rc.span, f"say when: `rotate {target} when someone_won`, then a last rule for a drawn hand "
                                    "(`rotate dealer otherwise`, `rotate next otherwise` or `rotate last_drawer "
                                    "otherwise`)")
        rules.append(ir.RotateRule(target, None if other else self.x.cond(rc.cond, rc.cond_kind, B.ROTATION, ANY_STAGE),
                                   self.src(rc)))
    if c is not None and (not rules or rules[-1].cond is not None):
        self.col.error("E033", "rotation needs a last rule `rotate TARGET otherwise`", c.span)
    streak, ssrc = None, None
    sc = self.single(sec, "streak", "rotation")
    if sc:
        Reader(sc, self.col, "streak = EXPRESSION").end()
        if self.need_value(sc, "the new dealer streak"):
            streak = self.x.check(sc.value, B.ROTATION, ANY_STAGE, "num")
        ssrc = self.src(sc)
    return ir.Rotation(tuple(rules), streak, ssrc)
