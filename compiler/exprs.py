"""Expression checker: resolves names, checks types, contexts and stages, and lowers to IR expressions."""
from __future__ import annotations

from dataclasses import dataclass, field

from mjrules.model.arith import ARITHMETIC, MAX_VALUE_TEXT, ValueRangeError, in_range

from . import builtins as B
from .errors import Collector
from .ir import Expr
from .limits import MAX_EXPR_DEPTH, MAX_TERMS
from .nodes import Expr as AstExpr

_BINOPS = {"+": "add", "-": "sub", "*": "mul", "/": "div"}
_CMP = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}

# stages: a clause at stage s may refer only to names of a smaller stage
STAGE = {"event": 1, "pattern": 2, "modifier": 3, "status": 3, "table": 4, "define": 5}
STAGE_VALUE = 6
_CTX_NAMES = {
    B.HAND: "hand scoring", B.WIN: "win settlements", B.GAME: "hand-end settlements",
    B.ROTATION: "rotation rules", B.WALL: "wall rules", B.CLAIM: "claim conditions",
    B.CONFIG: "switch conditions (options only)", B.SETTLE: "a win's settlement by the game (on_win)",
    B.OPENING: "hands shown at the deal (opening)", B.MATCH: "a match's end and results (the match block)",
}


@dataclass
class Names:
    """Every name a spec defines, by kind."""

    options: dict[str, str] = field(default_factory=dict)  # name -> type
    patterns: set[str] = field(default_factory=set)
    modifiers: set[str] = field(default_factory=set)
    events: set[str] = field(default_factory=set)
    statuses: set[str] = field(default_factory=set)
    tables: set[str] = field(default_factory=set)
    defines: dict[str, AstExpr] = field(default_factory=dict)
    fans: set[str] = field(default_factory=set)
    groups: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def kind_of(self, name: str) -> str | None:
        for kind in ("pattern", "modifier", "event", "status", "table"):
            if name in getattr(self, _plural(kind)):
                return kind
        if name in self.defines:
            return "define"
        if name in self.fans:
            return "fan"
        if name in self.options:
            return "option"
        return None

    def all(self) -> list[str]:
        return [*self.options, *self.patterns, *self.modifiers, *self.events, *self.statuses,
                *self.tables, *self.defines, *self.fans]


def _plural(kind: str) -> str:
    return "statuses" if kind == "status" else kind + "s"


class ExprChecker:
    """Checks and lowers expressions; errors go to the collector and yield a typed placeholder."""

    def __init__(self, names: Names, col: Collector):
        self.names = names
        self.col = col
        self.define_types: dict[str, str] = {}
        self.define_ir: dict[str, Expr] = {}
        self._define_ok: dict[tuple[str, str, int], bool] = {}
        self._stack: list[str] = []
        self._level = 0   # check() calls open: only the outermost measures the expression's depth
        self._define_depth: dict[str, int] = {}
        self._deep_said: dict[int, AstExpr] = {}   # expressions E036 has been said for
        self._folded: dict[int, tuple[Expr, int | float]] = {}  # id(IR) -> (IR, its constant value)

    # ---- entry points ------------------------------------------------------------------------------
    def check(self, e: AstExpr, ctx: str, stage: int, want: str | None = None) -> Expr:
        if not self._stack and not self._level and _depth(e, self.define_depth) > MAX_EXPR_DEPTH:
            self._too_deep(e)
            return Expr("const", (0,))
        self._level += 1
        try:
            ir, t = self._lower(e, ctx, stage)
        finally:
            self._level -= 1
        if want is not None and t not in (want, "error"):
            self._type_error(e, f"expected a {_tname(want)} here, found a {_tname(t)}")
        return ir

    def _too_deep(self, e: AstExpr) -> None:
        """E036 for an expression too deep, said once: where a define it uses is too deep itself, at the lowest
        such define of the chain instead."""
        while True:
            deeper = next((n for n in _names_in(e) if n in self.names.defines
                           and self.define_depth(n) > MAX_EXPR_DEPTH), None)
            if deeper is None:
                break
            e = self.names.defines[deeper]
        if id(e) in self._deep_said:
            return
        self._deep_said[id(e)] = e
        self.col.error("E036", f"expression nested too deeply: more than {MAX_EXPR_DEPTH} levels", e.span,
                       "a sum or product of n terms counts n levels, and each define it uses counts as written "
                       "out: split it")

    def cond(self, e: AstExpr | None, kind: str | None, ctx: str, stage: int) -> Expr | None:
        if e is None:
            return None
        ir = self.check(e, ctx, stage, "bool")
        return Expr("not", (ir,)) if kind == "unless" else ir

    def group(self, e: AstExpr) -> tuple[int, ...]:
        """A tile-group expression: group names and tiles joined with '+'."""
        if e.op == "sum":
            kinds: set[int] = set()
            for i, part in enumerate(e.args):
                if isinstance(part, str):
                    if part != "+":
                        self.col.error("E017", f"tile groups are joined with '+', not '{part}'", e.span)
                    continue
                kinds |= set(self.group(part))
            return tuple(sorted(kinds))
        if e.op == "name":
            g = self.names.groups.get(e.value)
            if g is None:
                self.col.error("E016", f"unknown tile group '{e.value}'", e.span,
                               self.col.suggest(e.value, self.names.groups) or "groups: " + ", ".join(sorted(self.names.groups)))
                return ()
            return g
        if e.op == "tiles":
            from mjrules.model.tiles import TileError, parse_tiles
            try:
                return tuple(sorted({t.kind for t in parse_tiles(e.value)}))
            except TileError as err:
                self.col.error("E029", str(err), e.span)
                return ()
        self.col.error("E017", "expected a tile group (a group name, tiles such as 19m, or a sum of them)", e.span)
        return ()

    # ---- the lowering --------------------------------------------------------------------------------
    def _lower(self, e: AstExpr, ctx: str, stage: int) -> tuple[Expr, str]:
        op = e.op
        terms = len(e.args) - (1 if op == "in" else 0)
        if op in ("and", "or", "in", "call") and terms > MAX_TERMS:
            what = {"and": "terms joined by 'and'", "or": "terms joined by 'or'", "in": "values in one 'in (...)'",
                    "call": f"arguments to '{e.value}'"}[op]
            self.col.error("E037", f"too many {what}: {terms}, the limit is {MAX_TERMS}", e.span,
                           "split the rule into shorter clauses, or into defines for a value")
            return Expr("const", (0,)), "error"
        if op == "number":
            try:
                in_range(e.value)
            except ValueRangeError:
                self.col.error("E039", f"number out of range: the range of values is +-{MAX_VALUE_TEXT}", e.span,
                               "numbers in a spec have at most a few digits")
                return Expr("const", (0,)), "error"
            return Expr("const", (e.value,)), "num"
        if op == "string":
            return Expr("const", (e.value,)), "str"
        if op == "bool":
            return Expr("const", (e.value,)), "bool"
        if op == "tiles":
            return Expr("group", (e.value, self.group(e))), "group"
        if op == "name":
            return self._name(e, ctx, stage)
        if op == "call":
            return self._call(e, ctx, stage)
        if op == "index":
            self.col.error("E030", f"'{e.value}[...]' is not an expression: tables are used by name", e.span,
                           f"write {e.value} alone; its row and column come from the reading")
            return Expr("const", (0,)), "error"
        if op == "if":
            c = self.check(e.args[0], ctx, stage, "bool")
            a, ta = self._lower(e.args[1], ctx, stage)
            b, tb = self._lower(e.args[2], ctx, stage)
            if "error" not in (ta, tb) and ta != tb:
                self._type_error(e, f"both branches of 'if' must have one type: {_tname(ta)} and {_tname(tb)}")
            return Expr("if", (c, a, b)), ta if ta != "error" else tb
        if op in ("and", "or"):
            return Expr(op, tuple(self.check(a, ctx, stage, "bool") for a in e.args)), "bool"
        if op == "not":
            return Expr("not", (self.check(e.args[0], ctx, stage, "bool"),)), "bool"
        if op == "neg":
            x = self.check(e.args[0], ctx, stage, "num")
            return self._fold(Expr("neg", (x,)), e), "num"
        if op == "pow":
            a, b = self.check(e.args[0], ctx, stage, "num"), self.check(e.args[1], ctx, stage, "num")
            return self._fold(Expr("pow", (a, b)), e), "num"
        if op in ("sum", "product"):
            items = e.args
            acc = self.check(items[0], ctx, stage, "num")
            for i in range(1, len(items), 2):
                acc = self._fold(Expr(_BINOPS[items[i]], (acc, self.check(items[i + 1], ctx, stage, "num"))), e)
            return acc, "num"
        if op == "cmp":
            a, ta = self._lower(e.args[0], ctx, stage)
            b, tb = self._lower(e.args[1], ctx, stage)
            rel = _CMP[e.value]
            if "error" not in (ta, tb):
                if ta != tb:
                    self._type_error(e, f"cannot compare a {_tname(ta)} with a {_tname(tb)}")
                elif ta != "num" and rel not in ("eq", "ne"):
                    self._type_error(e, f"'{e.value}' compares numbers, not {_tname(ta)}s")
            return Expr(rel, (a, b)), "bool"
        if op == "in":
            a, ta = self._lower(e.args[0], ctx, stage)
            opts = []
            for x in e.args[1:]:
                xi, tx = self._lower(x, ctx, stage)
                if "error" not in (ta, tx) and tx != ta:
                    self._type_error(x, f"'in' needs values of one type: {_tname(ta)} and {_tname(tx)}")
                opts.append(xi)
            return Expr("in", (a, *opts)), "bool"
        raise AssertionError(op)  # pragma: no cover

    # ---- constants -----------------------------------------------------------------------------------
    def constant(self, x: Expr) -> int | float | None:
        """The value of an IR number that is a constant (a literal, arithmetic of constants, a define of one)."""
        if x.op == "const":
            v = x.args[0]
            return v if type(v) in (int, float) else None
        if x.op == "ref" and x.args[0] == "define":
            d = self.define_ir.get(x.args[1])
            return None if d is None else self.constant(d)
        hit = self._folded.get(id(x))
        return hit[1] if hit is not None and hit[0] is x else None

    def _fold(self, x: Expr, e: AstExpr) -> Expr:
        """Evaluate arithmetic of constants now, with the interpreter's arithmetic (mjrules.model.arith): a constant
        divisor of zero is E038, a constant outside the range of values E039. The IR keeps the expression as
        written (the rule book shows it so); its value is remembered for the expressions around it."""
        args = [self.constant(a) for a in x.args]
        if x.op == "div" and args[1] == 0:
            self.col.error("E038", "division by zero: the divisor is a constant 0", e.span,
                           "a division by zero would give 0 for every hand; write the value you mean")
            return x
        if None in args:
            return x
        try:
            v = -args[0] if x.op == "neg" else ARITHMETIC[x.op](*args)
        except ValueRangeError as err:
            self.col.error("E039", f"constant out of range: {err}", e.span,
                           f"values stay within +-{MAX_VALUE_TEXT}")
            return Expr(x.op, x.args)   # a new node: not folded, so the error is said once
        self._folded[id(x)] = (x, v)
        return x

    def define_depth(self, name: str) -> int:
        """Levels of a define's expression with the defines it uses written out (0 for an unknown name or one in
        a cycle), without recursion: a chain of thousands of defines must not overflow the stack."""
        memo, todo, open_ = self._define_depth, [name], set()
        while todo:
            n = todo[-1]
            if n in memo or n not in self.names.defines:
                todo.pop()
                continue
            deps = [d for d in _names_in(self.names.defines[n]) if d in self.names.defines and d not in memo
                    and d not in open_]
            if deps and n not in open_:
                open_.add(n)
                todo += deps
                continue
            todo.pop()
            open_.discard(n)
            memo[n] = 0   # a cycle back to n counts 0 (E027 reports it)
            memo[n] = _depth(self.names.defines[n], lambda d: memo.get(d, 0))
        return memo.get(name, 0)

    def _name(self, e: AstExpr, ctx: str, stage: int) -> tuple[Expr, str]:
        name = e.value
        if name in B.WIN_BY:
            return Expr("enum", (name,)), "winby"
        kind = self.names.kind_of(name)
        if kind == "option":
            return Expr("opt", (name,)), self.names.options[name]
        if kind is None and name in B.VARIABLES:
            b = B.VARIABLES[name]
            if ctx not in b.contexts:
                where = ", ".join(_CTX_NAMES[c] for c in b.contexts)
                self.col.error("E026", f"'{name}' is not available in {_CTX_NAMES[ctx]}", e.span,
                               f"'{name}' ({b.doc}) is known in: {where}")
                return Expr("var", (name,)), "error"
            if b.reading and stage <= 1:
                self.col.error("E026", f"'{name}' depends on the reading; events see only the situation", e.span,
                               "test it in a pattern, modifier or status instead")
            return Expr("var", (name,)), b.type
        if kind is None:
            if name in self.names.groups or name in B.BUILTIN_GROUPS:
                return Expr("group", (name, self.names.groups.get(name, B.BUILTIN_GROUPS.get(name)))), "group"
            if name in B.SET_KINDS:
                self.col.error("E015", f"'{name}' is a kind of set, not a value", e.span,
                               f"count the reading's sets of that kind in a group: sets({name}, GROUP), e.g. "
                               f"sets({name}, simples) == 1")
                return Expr("const", (0,)), "error"
            choices = list(self.names.all()) + list(B.VARIABLES) + list(B.WIN_BY)
            self.col.error("E015", f"unknown name '{name}'", e.span,
                           self.col.suggest(name, choices) or "define it; `mjrules show --vocabulary` lists the builtin names")
            return Expr("const", (0,)), "error"
        if ctx == B.SETTLE and kind in ("pattern", "modifier", "event", "status"):
            return Expr("ref", (kind, name)), "bool"  # what the win's result names
        if ctx == B.SETTLE and kind == "fan":
            return Expr("ref", (kind, name)), "num"   # the win's result names its fans' counts
        if ctx not in (B.HAND, B.WIN) and kind != "define":
            self.col.error("E026", f"{kind} '{name}' is not available in {_CTX_NAMES[ctx]}", e.span,
                           "patterns, modifiers, events, statuses and tables exist only while scoring a hand")
            return Expr("ref", (kind, name)), "error"
        if kind not in ("define", "fan") and STAGE[kind] >= stage:
            self.col.error("E026", f"{kind} '{name}' cannot be used here", e.span,
                           _stage_hint(stage))
            return Expr("ref", (kind, name)), "error"
        if kind == "define":
            return self._define_ref(e, ctx, stage)
        if kind == "fan":
            if stage < STAGE_VALUE:
                self.col.error("E026", f"fan '{name}' cannot be used here", e.span, _stage_hint(stage))
                return Expr("ref", (kind, name)), "error"
            return Expr("ref", (kind, name)), "num"
        return Expr("ref", (kind, name)), "num" if kind == "table" else "bool"

    def _define_ref(self, e: AstExpr, ctx: str, stage: int) -> tuple[Expr, str]:
        name = e.value
        if stage < STAGE_VALUE:
            self.col.error("E026", f"define '{name}' cannot be used here", e.span, _stage_hint(stage))
            return Expr("ref", ("define", name)), "error"
        if name in self._stack:
            cycle = " -> ".join(self._stack[self._stack.index(name):] + [name])
            self.col.error("E027", f"define cycle: {cycle}", e.span, "a define may not depend on itself")
            return Expr("ref", ("define", name)), "error"
        key = (name, ctx, stage)
        if key not in self._define_ok:
            sub = self.col.sub()
            outer, self.col = self.col, sub
            self._stack.append(name)
            try:
                ir, t = self._lower(self.names.defines[name], ctx, STAGE_VALUE)
            finally:
                self._stack.pop()
                self.col = outer
            self._define_ok[key] = not sub.diagnostics
            if sub.diagnostics:
                cyc = [d for d in sub.diagnostics if d.code == "E027"]
                if cyc:
                    self.col.diagnostics.extend(cyc[:1])
                elif all(d.code == "E026" for d in sub.diagnostics):
                    self.col.error("E026", f"define '{name}' is not available in {_CTX_NAMES[ctx]}", e.span,
                                   sub.diagnostics[0].message)
                else:
                    self.col.diagnostics.extend(sub.diagnostics)
            self.define_types.setdefault(name, t)
            if not sub.diagnostics:
                self.define_ir.setdefault(name, ir)
        return Expr("ref", ("define", name)), self.define_types.get(name, "error") if self._define_ok[key] else "error"

    def _call(self, e: AstExpr, ctx: str, stage: int) -> tuple[Expr, str]:
        fn = B.FUNCTIONS.get(e.value)
        if fn is None:
            self.col.error("E030", f"unknown function '{e.value}'", e.span,
                           self.col.suggest(e.value, B.FUNCTIONS) or "functions: " + ", ".join(
                               sorted(f for f, x in B.FUNCTIONS.items() if ctx in x.contexts)))
            return Expr("const", (0,)), "error"
        if ctx not in fn.contexts:
            self.col.error("E026", f"'{fn.name}' is not available in {_CTX_NAMES[ctx]}", e.span, fn.doc)
            return Expr("const", (0,)), "error"
        if fn.reading and stage <= 1:
            self.col.error("E026", f"'{fn.name}' depends on the reading; events see only the situation", e.span)
        args = []
        if fn.params == ("num*",):
            if not e.args:
                self.col.error("E030", f"'{fn.name}' needs at least one argument", e.span)
            args = [self.check(a, ctx, stage, "num") for a in e.args]
            return Expr(fn.name, tuple(args)), fn.type
        if fn.params[-1:] == ("num*",):   # some numbers, then a list of them (nth)
            if len(e.args) < len(fn.params):
                self.col.error("E030", f"'{fn.name}' takes at least {len(fn.params)} arguments, found {len(e.args)}",
                               e.span, f"{fn.name}: {fn.doc}")
                return Expr("const", (0,)), "error"
            return Expr("call", (fn.name, *(self.check(a, ctx, stage, "num") for a in e.args))), fn.type
        if len(e.args) != len(fn.params):
            self.col.error("E030", f"'{fn.name}' takes {len(fn.params)} argument(s), found {len(e.args)}", e.span,
                           f"{fn.name}: {fn.doc}")
            return Expr("const", (0,)), "error"
        for a, p in zip(e.args, fn.params):
            if p == "group":
                args.append(Expr("group", (_group_label(a), self.group(a))))
            elif p == "setkind":
                if a.op != "name" or a.value not in B.SET_KINDS:
                    self.col.error("E017", f"'{fn.name}' expects a kind of set here", a.span,
                                   "one of: " + ", ".join(B.SET_KINDS))
                    return Expr("const", (0,)), "error"
                args.append(Expr("const", (a.value,)))
            elif p == "placement":
                if a.op != "name" or a.value not in B.PLACEMENTS:
                    self.col.error("E017", f"'{fn.name}' expects a placement of the winning tile here", a.span,
                                   "one of: " + ", ".join(B.PLACEMENTS))
                    return Expr("const", (0,)), "error"
                args.append(Expr("const", (a.value,)))
            elif p == "tiles":
                if a.op != "tiles":
                    self.col.error("E017", f"'{fn.name}' expects tiles here, such as 1112345678999m", a.span)
                    return Expr("const", (0,)), "error"
                from mjrules.model.tiles import TileError, parse_tiles
                try:
                    parse_tiles(a.value)
                except TileError as err:
                    self.col.error("E029", str(err), a.span)
                    return Expr("const", (0,)), "error"
                args.append(Expr("const", (a.value,)))   # the tiles as written (mjrules.model.tiles reads them)
            else:
                args.append(self.check(a, ctx, stage, p))
        return Expr("call", (fn.name, *args)), fn.type

    def _type_error(self, e: AstExpr, msg: str) -> None:
        self.col.error("E017", f"type error: {msg}", e.span)


def _depth(e: AstExpr, define_depth) -> int:
    """Depth of the IR an expression lowers to (a sum of n terms nests n deep), with each define it names
    written out below its name (define_depth(name): the define's depth, 0 for other names), iteratively; it
    stops counting past MAX_EXPR_DEPTH."""
    best, todo = 0, [(e, 1)]
    while todo:
        x, d = todo.pop()
        if x.op == "name" and isinstance(x.value, str):
            d += define_depth(x.value)   # the reference, then the define's own levels
        best = max(best, d)
        if best > MAX_EXPR_DEPTH:
            return best
        kids = [a for a in x.args if isinstance(a, AstExpr)]
        step = len(kids) - 1 if x.op in ("sum", "product") else 1   # n terms: n - 1 nested operations
        todo += [(k, d + step) for k in kids]
    return best


def _names_in(e: AstExpr) -> list[str]:
    """The names an expression mentions, iteratively."""
    out, todo = [], [e]
    while todo:
        x = todo.pop()
        if x.op == "name":
            out.append(x.value)
        todo += [a for a in x.args if isinstance(a, AstExpr)]
    return out


def _group_label(e: AstExpr) -> str:
    if e.op in ("name", "tiles"):
        return str(e.value)
    return "group"


def _tname(t: str) -> str:
    return {"num": "number", "bool": "condition", "winby": "win_by value", "str": "string",
            "group": "tile group", "error": "?"}.get(t, t)


def _stage_hint(stage: int) -> str:
    return {
        1: "an event sees only the situation and options",
        2: "a pattern sees the situation, events, options and reading facts, not other patterns",
        3: "a modifier or status sees patterns and events, not other modifiers, statuses or tables",
    }.get(stage, "not at this point")
