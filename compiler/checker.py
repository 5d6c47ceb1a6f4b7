"""Checker: validates every clause of a resolved spec, collects all errors, and lowers it to the IR."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

from mjrules.model.arith import MAX_VALUE, MAX_VALUE_TEXT
from mjrules.model.tiles import tile_name

from . import builtins as B
from . import ir
from ._scoring import table_only_defines
from .errors import Collector, article, one_of
from .exprs import STAGE, STAGE_VALUE, ExprChecker, Names, _plural
from .glossary import LINE_BREAK_HINT
from .ir import asks_placement, reads_vars
from .limits import MAX_ITEMS
from .nodes import Citation, Clause, Word
from .reader import ANY_STAGE, CONDITIONAL, PAY_BLOCKS, SECTIONS, TOP, Reader
from .resolve import Resolved

_CONTINUATIONS = ("and", "or", "then", "else", "in")  # a clause starting so is an expression's broken-off end


class Checker:
    def __init__(self, resolved: Resolved):
        self.r = resolved
        self.col = Collector(dict(resolved.sources))
        self.names = Names()
        self.x = ExprChecker(self.names, self.col)
        self.prefix = ""
        self.rule_ids: tuple[str, ...] = ()
        self.citations: dict[str, list[str]] = {}

    # ---- helpers ----------------------------------------------------------------------------------------
    def src(self, c: Clause, *more: Clause | None) -> ir.Src:
        """Provenance: the clause's rule ids, those of every clause in its block, and those of `more`."""
        ids: list[str] = []
        for cl in (c, *more):
            for sub in (cl.walk() if cl is not None else ()):
                ids += [i for i in sub.rule_ids if i not in ids]
        return ir.Src(tuple(ids), c.span.file.replace("\\", "/").rsplit("/", 1)[-1], c.span.line)

    def section(self, clauses: list[Clause], allowed: tuple[str, ...], where: str) -> dict[str, list[Clause]]:
        out: dict[str, list[Clause]] = {}
        for c in clauses:
            if c.keyword not in allowed:
                hint = (f"'{c.keyword}' continues the expression of the line before, but {LINE_BREAK_HINT}"
                        if c.keyword in _CONTINUATIONS else self.col.suggest(c.keyword, allowed) or one_of(allowed))
                self.col.error("E012", f"unknown clause '{c.keyword}' in {where}", c.key_span, hint)
                continue
            if c.cond is not None and c.keyword not in CONDITIONAL:
                self.col.error("E032", f"'{c.keyword}' cannot be conditional", c.cond.span,
                               "only switches such as chi, winners, pay, rotate, forbid and minimum take when/unless")
            if c.body is not None and c.keyword not in SECTIONS and c.keyword not in PAY_BLOCKS:
                self.col.error("E031", f"'{c.keyword}' takes no block", c.span, "remove the { ... }")
            out.setdefault(c.keyword, []).append(c)
        return out

    def single(self, sec: dict[str, list[Clause]], kw: str, where: str, required: bool = False) -> Clause | None:
        cs = sec.get(kw, [])
        for dup in cs[1:]:
            self.col.error("E018", f"duplicate '{kw}' in {where}", dup.key_span, f"the first is on line {cs[0].span.line}")
        if not cs and required:
            self.col.error("E019", f"{where} has no '{kw}' clause", self.r.spec.span if where == "the variant" else None,
                           f"add a '{kw}' clause")
        return cs[0] if cs else None

    def body_of(self, c: Clause | None) -> list[Clause]:
        if c is None:
            return []
        if c.body is None:
            self.col.error("E031", f"'{c.keyword}' needs a block {{ ... }}", c.span)
            return []
        return c.body

    def need_value(self, c: Clause, what: str) -> bool:
        if c.value is None:
            self.col.error("E034", f"'{c.keyword}' needs '= {what}'", c.span)
            return False
        return True

    def no_value(self, c: Clause) -> None:
        if c.value is not None:
            self.col.error("E014", f"'{c.keyword}' takes no '= ...'", c.value.span)

    def no_cells(self, c: Clause) -> None:
        if c.cells is not None:
            self.col.error("E014", f"'{c.keyword}' takes no ': ...' cells", c.span)

    # ---- the run ---------------------------------------------------------------------------------------
    def run(self) -> ir.Variant:
        spec = self.r.spec
        top = self.section(self.r.body, TOP, "the variant")
        self.check_rules(top)
        self.check_citations()
        for kw in ("players", "hand", "deal", "tiles", "wall", "claims", "score", "settlement", "rotation"):
            if not top.get(kw):
                self.col.error("E019", f"the variant has no '{kw}' clause", self.r.spec.span, f"add a '{kw}' clause")
        self.collect_names(top)
        tiles = self.check_tiles(self.single(top, "tiles", "the variant"))
        players, deal = self.check_deal(top, tiles)
        wild = self.check_wild(self.single(top, "wild", "the variant"), tiles)
        maps = self.check_maps(top.get("map", []))
        patterns = tuple(self.check_pattern(c) for c in top.get("pattern", []))
        modifiers = tuple(self.check_modifier(c) for c in top.get("modifier", []))
        events = tuple(self.check_event(c) for c in top.get("event", []))
        statuses = self.check_statuses(top.get("status", []))
        tables = tuple(self.check_table(c) for c in top.get("table", []))
        score_sec = self.section(self.body_of(self.single(top, "score", "the variant")), SECTIONS["score"], "score")
        score = self.check_score(score_sec)
        fans = self.check_fans(top.get("fan", []), top.get("excludes", []))
        for c in top.get("define", []) + score_sec.get("define", []):
            self.check_define(c)
        settlement = self.check_settlement(self.single(top, "settlement", "the variant"))
        rotation = self.check_rotation(self.single(top, "rotation", "the variant"))
        table_only = table_only_defines(self.x.define_ir)
        variant = ir.Variant(
            name=spec.name,
            title=spec.labels[0] if spec.labels else spec.name,
            labels=tuple(spec.labels),
            source=self.opt_string_clause(top, "source"),
            extends=spec.extends,
            rule_prefix=self.prefix,
            rule_ids=self.rule_ids,
            spec_sha256=self.r.sha256,
            players=players,
            tiles=tiles,
            deal=deal,
            seating=tuple(self.check_procedure(c, ("random", "highest_roll", "thrower_counts_one"), ())
                          for c in top.get("seating", [])),
            wall_break=tuple(self.check_procedure(c, ("own_wall", "count_players", "dice_start"),
                                                  ("smaller_die", "reroll")) for c in top.get("wall_break", [])),
            wall=self.check_wall(self.single(top, "wall", "the variant")),
            flowers=self.check_flowers(self.single(top, "flowers", "the variant"), tiles),
            wild=wild,
            rob_wild=self.check_rob_wild(self.single(top, "rob_wild", "the variant"), wild),
            claims=self.check_claims(self.single(top, "claims", "the variant")),
            ready_declaration=self.check_ready(self.single(top, "ready_declaration", "the variant")),
            patterns=patterns, modifiers=modifiers, events=events, statuses=statuses, fans=fans,
            defines=tuple(ir.Define(n, self.x.define_ir[n], self.src(self.define_clause[n]),
                                    self.define_label(self.define_clause[n]))
                          for n in sorted(self.x.define_ir) if n not in table_only),
            table_defines=tuple(ir.Define(n, self.x.define_ir[n], self.src(self.define_clause[n]),
                                          self.define_label(self.define_clause[n]))
                                for n in sorted(table_only)),
            tables=tables, score=score,
            settlement=settlement,
            rotation=rotation,
            options=tuple(self.options),
            no_effect=tuple(sorted((i, self.str_of(c)) for c in top.get("no_effect", []) for i in c.rule_ids)),
            citations=tuple(sorted((k, tuple(v)) for k, v in self.citations.items())),
            play=self.check_play(self.single(top, "play", "the variant")),
            declarations=self.check_declarations(top.get("declare", [])),
            exchanges=self.check_exchanges(top.get("exchange", [])),
            maps=maps,
            horses=self.check_horses(self.single(top, "horses", "the variant"), maps),
            openings=self.check_openings(top.get("opening", [])),
            aborts=self.check_aborts(top.get("abort", [])),
            match=self.check_match(self.single(top, "match", "the variant")),
            indicator_cycles=self.check_indicators(self.single(top, "indicators", "the variant")),
        )
        variant = dataclasses.replace(variant, places_win=asks_placement(variant))
        if not variant.indicator_cycles and reads_vars(variant, ("indicated", "hidden_indicated")):
            self.col.error("E019", "'indicated' counts what indicators point at, but the variant has no "
                           "'indicators' clause", self.r.spec.span, "add `indicators successor CYCLE, ...`")
        if not patterns:
            self.col.error("E019", "the variant defines no pattern", spec.span, "add e.g. `pattern 平胡 shape standard`")
        self.col.raise_if_any()
        return variant

    def opt_string_clause(self, top, kw: str) -> str:
        c = self.single(top, kw, "the variant")
        return self.str_of(c) if c else ""

    def str_of(self, c: Clause) -> str:
        r = Reader(c, self.col, f'{c.keyword} "text"')
        s = r.string("a string")
        r.end()
        return s

    # ---- rules and citations ----------------------------------------------------------------------------
    def check_rules(self, top) -> None:
        c = self.single(top, "rules", "the variant", required=False)
        if c is None:
            self.col.error("E019", "the variant has no 'rules' clause", self.r.spec.span,
                           "state the rule ids it implements, e.g. `rules SR 1..20`")
            return
        r = Reader(c, self.col, "rules PREFIX FIRST..LAST [, FIRST..LAST ...]")
        self.prefix = r.name("a rule-id prefix such as SR")
        spans = []
        w = r.take(("range",), "a range of rule numbers such as 1..20")
        while w is not None:
            spans.append(w)
            w = r.take(("range",), "a range of rule numbers such as 30..40") if r.peek() is not None else None
        r.end()
        numbers: list[int] = []
        for w in spans:
            lo, hi = w.lo.value, w.hi.value
            if not (isinstance(lo, int) and isinstance(hi, int) and 0 <= lo <= hi <= 999):
                self.col.error("E013", "rule numbers must be a range of whole numbers such as 1..20", w.span)
                return
            if numbers and lo <= numbers[-1]:
                self.col.error("E013", "rule ranges go up and do not overlap", w.span, "e.g. rules RI 1..14, 20..46")
                return
            numbers += range(lo, hi + 1)
        if numbers:
            width = 2 if numbers[-1] < 100 else len(str(numbers[-1]))
            self.rule_ids = tuple(f"{self.prefix}-{n:0{width}d}" for n in numbers)

    def canonical(self, rid: str) -> str:
        """SR-1, SR-01 and SR-001 are one id; the rules clause fixes how it is written."""
        prefix, _, num = rid.rpartition("-")
        if prefix == self.prefix and self.rule_ids and num.isdigit():
            width = len(self.rule_ids[0].rpartition("-")[2])
            return f"{prefix}-{int(num):0{width}d}"
        return rid

    def check_citations(self) -> None:
        known = set(self.rule_ids)
        listed: set[tuple[str, str]] = set()   # (rule id, clause description) already in self.citations
        for top in self.r.body:
            for c in top.walk():
                seen: dict[str, Citation] = {}
                for cite in c.cites:
                    for rid in (self.canonical(i) for i in cite.ids):
                        if rid in seen:
                            self.cited_twice(c, rid, seen[rid], cite)
                        seen.setdefault(rid, cite)
                        if known and rid not in known:
                            self.col.error("E021", f"unknown rule id {rid}", cite.span,
                                           self.col.suggest(rid, known) or f"this variant's rules are {self.rule_ids[0]}..{self.rule_ids[-1]}")
                        self.citations.setdefault(rid, [])
                        desc = f"{c.span.file.rsplit('/', 1)[-1]}:{c.span.line} {c.keyword}"
                        if c.words and c.words[0].kind in ("name", "number", "string"):
                            desc += f" {c.words[0].value}"
                        if (rid, desc) not in listed:
                            listed.add((rid, desc))
                            self.citations[rid].append(desc)

    def cited_twice(self, c: Clause, rid: str, first: Citation, again: Citation) -> None:
        """E020, naming the comment line that cites for the clause below it, where that is the surprise."""
        above = [x for x in (first, again) if not c.span.line <= x.span.line <= c.span.end_line]
        if not above:
            self.col.error("E020", f"clause cites {rid} twice", again.span, "cite each rule id once per clause")
            return
        line = above[0].span.line
        self.col.error("E020", f"clause cites {rid} twice: the comment on line {line} begins with rule ids, so it "
                       "cites them for the clause below it, this one", above[0].span,
                       f"drop {rid} from one of them, or begin that comment with a word ('# see {rid} ...') so "
                       "that it cites nothing")

    # ---- names ---------------------------------------------------------------------------------------
    def collect_names(self, top) -> None:
        self.options: list[ir.Option] = []
        self.define_clause: dict[str, Clause] = {}
        seen: dict[str, Clause] = {}
        score = next((c for c in top.get("score", []) if c.body), None)
        defines = top.get("define", []) + [c for c in (score.body if score else []) if c.keyword == "define"]
        for kind, clauses in [(k, top.get(k, [])) for k in ("option", "pattern", "modifier", "event", "status",
                                                             "table", "fan")] + [("define", defines)]:
            if len(clauses) > MAX_ITEMS:
                self.col.error("E040", f"too many {_plural(kind)}: {len(clauses)}, the limit is {MAX_ITEMS}",
                               clauses[MAX_ITEMS].key_span, "no rule book needs this many; merge some of them")

        def declare(c: Clause, kind: str) -> str | None:
            if not c.words or c.words[0].kind != "name":
                self.col.error("E013", f"'{c.keyword}' expects a name", c.key_span, f"usage: {c.keyword} NAME ...")
                return None
            name = c.words[0].value
            if name in seen:
                self.col.error("E018", f"duplicate name '{name}'", c.words[0].span,
                               f"'{name}' is already {article(seen[name].keyword)} on line {seen[name].span.line}")
                return None
            if name in B.VARIABLES or name in B.FUNCTIONS or name in B.WIN_BY or name in B.BUILTIN_GROUPS:
                self.col.error("E018", f"'{name}' is a builtin name", c.words[0].span, "choose another name")
                return None
            seen[name] = c
            return name

        for c in top.get("option", []):
            name = declare(c, "option")
            if name is None:
                continue
            r = Reader(c, self.col, 'option NAME "description" = DEFAULT')
            r.name("a name")
            desc = r.opt_string() or ""
            r.end()
            self.no_cells(c)
            if c.value is None:
                self.col.error("E022", f"option '{name}' has no default", c.span,
                               f'give it one: option {name} "{desc}" = false')
                self.names.options[name] = "bool"
                continue
            v = c.value
            if v.op == "bool":
                t, default = "bool", v.value
            elif v.op == "number":
                t, default = "num", v.value
                if not -MAX_VALUE <= default <= MAX_VALUE:
                    self.col.error("E039", f"option '{name}': its default is outside the range of values "
                                           f"(+-{MAX_VALUE_TEXT})", v.span, "numbers in a spec have at most a few digits")
                    default = 0
            elif v.op == "string":
                t, default = "str", v.value
            else:
                self.col.error("E017", f"option '{name}' needs a literal default (true, false, a number or a string)", v.span)
                t, default = "bool", False
            self.names.options[name] = t
            self.options.append(ir.Option(name, desc, default, t, self.src(c)))
        for kind in ("pattern", "modifier", "event", "status", "table", "fan"):
            for c in top.get(kind, []):
                name = declare(c, kind)
                if name:
                    getattr(self.names, _plural(kind)).add(name)
        for kind in ("declare", "exchange", "map"):
            for c in top.get(kind, []):
                declare(c, kind)
        for c in defines:
            name = declare(c, "define")
            if name and self.need_value(c, "an expression"):
                self.names.defines[name] = c.value
                self.define_clause[name] = c
        self.options.sort(key=lambda o: o.name)

    # ---- tiles, players, deal ---------------------------------------------------------------------------
    def check_tiles(self, c: Clause | None) -> ir.Tiles:
        sec = self.section(self.body_of(c), SECTIONS["tiles"], "tiles")
        self.names.groups.update(B.BUILTIN_GROUPS)
        kinds: set[int] = set()
        use = self.single(sec, "use", "tiles", required=c is not None)
        if use:
            for w in Reader(use, self.col, "use GROUP...").rest():
                kinds |= set(self.word_group(w))
        copies = [0] * 42
        for cc in sec.get("copies", []):
            r = Reader(cc, self.col, "copies N [for GROUP...]")
            n = r.int("a number of copies", 1, 8)
            target = set(kinds)
            if r.flag("for"):
                target = set()
                for w in r.rest():
                    target |= set(self.word_group(w))
            for k in target:
                copies[k] = n
        if not sec.get("copies"):
            for k in kinds:
                copies[k] = 4
        scored: set[int] = set()
        for sc in sec.get("scored_flowers", []):
            for w in Reader(sc, self.col, "scored_flowers GROUP...").rest():
                scored |= set(self.word_group(w))
        for g in sec.get("group", []):
            r = Reader(g, self.col, "group NAME = GROUP + GROUP ...")
            name = r.name("a group name")
            r.end()
            if name in B.BUILTIN_GROUPS or name in B.VARIABLES:
                self.col.error("E018", f"'{name}' is a builtin name", g.words[0].span, "choose another group name")
            elif self.need_value(g, "a tile group"):
                self.names.groups[name] = self.x.group(g.value)
        marked: list[int] = []
        for mc in sec.get("marked", []):
            for w in Reader(mc, self.col, "marked TILES...").rest():
                for k in self.word_group(w):
                    if k not in kinds:
                        self.col.error("E023", f"marked kind {tile_name(k)} is not in the tile set", w.span)
                    elif k not in marked:
                        marked.append(k)
        if c is not None and not kinds:
            self.col.error("E023", "the tile set is empty", c.span, "add `use suited honours`")
        playable = tuple(sorted(k for k in kinds if k not in scored and k < 34))
        groups = tuple(ir.Group(n, k) for n, k in sorted(self.names.groups.items()))
        return ir.Tiles(tuple(sorted(kinds)), tuple(copies), playable, tuple(sorted(scored & kinds)), groups,
                        self.src(c) if c else ir.Src((), "", 0), tuple(sorted(marked)))

    def word_cycle(self, w: Word) -> tuple[int, ...]:
        """A cycle's kinds in the order written: a range either way (東..北, 白..中), tiles as written (765z), or a
        group's kinds."""
        if w.kind in ("tiles", "range"):
            from mjrules.model.tiles import TileError, parse_tiles
            try:
                if w.kind == "range":
                    lo, hi = parse_tiles(str(w.lo.value))[0].kind, parse_tiles(str(w.hi.value))[0].kind
                    return tuple(range(lo, hi + 1)) if lo <= hi else tuple(range(lo, hi - 1, -1))
                out: list[int] = []
                for t in parse_tiles(w.value):
                    if t.kind not in out:
                        out.append(t.kind)
                return tuple(out)
            except (TileError, IndexError) as e:
                self.col.error("E029", str(e), w.span)
                return ()
        return self.word_group(w)

    def check_indicators(self, c: Clause | None) -> tuple[tuple[int, ...], ...]:
        """`indicators successor CYCLE, CYCLE...`: each face-up indicator points at the next kind of its cycle (the
        builtins indicated and hidden_indicated count the tiles it points at)."""
        if c is None:
            return ()
        r = Reader(c, self.col, "indicators successor CYCLE, CYCLE, ...")
        r.lit("successor")
        cycles = [cy for w in r.rest() if (cy := self.word_cycle(w))]
        self.no_value(c)
        self.no_cells(c)
        flat = [k for cy in cycles for k in cy]
        if len(flat) != len(set(flat)):
            self.col.error("E023", "indicator cycles overlap", c.span, "each kind belongs to one cycle")
        if not cycles and not r.failed:
            self.col.error("E013", "'indicators' expects successor cycles", c.key_span,
                           "usage: indicators successor 1m..9m, 1p..9p, 1s..9s, 東..北, 白..中")
        return tuple(cycles)

    def word_group(self, w: Word) -> tuple[int, ...]:
        if w.kind == "name":
            g = self.names.groups.get(w.value)
            if g is None:
                self.col.error("E016", f"unknown tile group '{w.value}'", w.span,
                               self.col.suggest(w.value, self.names.groups) or one_of(self.names.groups))
                return ()
            return g
        if w.kind in ("tiles", "range"):
            from mjrules.model.tiles import TileError, parse_tiles
            try:
                if w.kind == "range":
                    lo, hi = parse_tiles(str(w.lo.value))[0].kind, parse_tiles(str(w.hi.value))[0].kind
                    return tuple(range(lo, hi + 1))
                return tuple(sorted({t.kind for t in parse_tiles(w.value)}))
            except (TileError, IndexError) as e:
                self.col.error("E029", str(e), w.span)
                return ()
        self.col.error("E016", f"expected a tile group, found '{w.text()}'", w.span)
        return ()

    def check_deal(self, top, tiles: ir.Tiles) -> tuple[int, ir.Deal]:
        players = 4
        pc = self.single(top, "players", "the variant")
        if pc:
            r = Reader(pc, self.col, "players N")
            players = r.int("a number of players", 2, 8)
            r.end()
        hand, dealer_hand = 13, 14
        hc = self.single(top, "hand", "the variant")
        if hc:
            r = Reader(hc, self.col, "hand N dealer M")
            hand = r.int("a hand size", 1, 40)
            r.lit("dealer")
            dealer_hand = r.int("the dealer's hand size", 1, 41)
            r.end()
            if hand % 3 != 1:
                self.col.error("E023", f"a hand of {hand} tiles cannot wait on sets and a pair", hc.words[0].span,
                               "hand sizes are 3n+1: 7, 10, 13, 16, ...")
            if dealer_hand != hand + 1:
                self.col.error("E023", f"the dealer holds {dealer_hand} tiles, not hand + 1 = {hand + 1}",
                               hc.words[-1].span if hc.words else hc.span, "the dealer starts with one extra tile")
        rounds: tuple[int, ...] = ()
        extra = 1
        dc = self.single(top, "deal", "the variant")
        if dc:
            r = Reader(dc, self.col, "deal N N ... then dealer M")
            rs = []
            while (w := r.peek()) is not None and w.kind == "number":
                rs.append(r.int("a round size", 1, 40))
            r.lit("then")
            r.lit("dealer")
            extra = r.int("the dealer's extra tiles", 0, 4)
            r.end()
            rounds = tuple(rs)
            if hc and not r.failed and (sum(rounds) != hand or extra != dealer_hand - hand):
                self.col.error("E023", f"the deal gives {sum(rounds)} tiles (+{extra} to the dealer), "
                                       f"but hands hold {hand} (dealer {dealer_hand})", dc.span,
                               "make the rounds add up to the hand size")
        dealt = players * hand + (dealer_hand - hand)
        live = sum(tiles.copies[k] for k in tiles.playable)
        if tiles.kinds and dealt > live:
            self.col.error("E023", f"{players} hands of {hand} need {dealt} tiles, but the set has {live} playable",
                           hc.span if hc else None, "add tiles or shrink the hands")
        return players, ir.Deal(hand, dealer_hand, rounds, extra, self.src(dc, hc, pc) if dc else ir.Src((), "", 0))

    def check_procedure(self, c: Clause, names: tuple[str, ...], params: tuple[str, ...]) -> ir.Procedure:
        r = Reader(c, self.col, f"{c.keyword} PROCEDURE [PARAMS]")
        name = r.choice("a procedure", names)
        ps = r.names_rest("parameters", params) if params else []
        r.end()
        return ir.Procedure(name, tuple(ps), self.x.cond(c.cond, c.cond_kind, B.CONFIG, ANY_STAGE), self.src(c))

    # ---- the wall, flowers, wilds ---------------------------------------------------------------------
    def check_wall(self, c: Clause | None) -> ir.Wall:
        sec = self.section(self.body_of(c), SECTIONS["wall"], "wall")
        vals = {}
        for kw in SECTIONS["wall"]:
            if kw != "kong_indicator":   # (several: one per kind of kong and condition)
                vals[kw] = self.single(sec, kw, "wall")
        draw = self.one_word(vals["draw"], ("head", "tail"), "head")
        repl = self.one_word(vals["replacement"], ("tail", "head"), "tail")
        retain = ir.Expr("const", (0,))
        if vals["retain"] and self.need_value(vals["retain"], "the number of tiles retained"):
            retain = self.x.check(vals["retain"].value, B.WALL, ANY_STAGE, "num")
        final, auto = 0, False
        if vals["final_round"]:
            r = Reader(vals["final_round"], self.col, "final_round N [auto_win]")
            final = r.int("the number of final draws", 1, 8)
            auto = r.flag("auto_win")
            r.end()
        last = False
        if vals["last_discard"]:
            last = self.one_word(vals["last_discard"], ("win_only",), "win_only") == "win_only"
        knr = vals["kong_needs_replacement"] is not None
        if knr:
            Reader(vals["kong_needs_replacement"], self.col, "kong_needs_replacement").end()
        empty = self.one_word(vals["empty_in_replacement"], ("draw",), "draw")
        stacks, after = 0, 0
        if vals["indicator_stacks"]:
            r = Reader(vals["indicator_stacks"], self.col, "indicator_stacks N after M")
            stacks = r.int("the number of indicator stacks", 1, 16)
            r.lit("after")
            after = r.int("the tiles from the tail before the first stack", 0, 64)
            r.end()
        kis = []
        for kc in sec.get("kong_indicator", []):
            r = Reader(kc, self.col, "kong_indicator immediate|after_discard exposed|added|concealed... [when ...]")
            timing = r.choice("immediate or after_discard", ("immediate", "after_discard"))
            kinds = r.names_rest("kong kinds: exposed, added, concealed", ("exposed", "added", "concealed"))
            r.end()
            if not stacks:
                self.col.error("E031", "kong_indicator needs indicator_stacks in the wall", kc.key_span,
                               "add 'indicator_stacks N after M'")
            kis.append(ir.KongIndicator(timing, tuple(kinds), self.x.cond(kc.cond, kc.cond_kind, B.CONFIG, ANY_STAGE),
                                        self.src(kc)))
        return ir.Wall(draw, repl, retain, final, auto, last, knr, empty, self.src(c) if c else ir.Src((), "", 0),
                       stacks, after, tuple(kis))

    def one_word(self, c: Clause | None, choices: tuple[str, ...], default: str) -> str:
        if c is None:
            return default
        r = Reader(c, self.col, f"{c.keyword} {'|'.join(choices)}")
        v = r.choice("one of: " + ", ".join(choices), choices)
        r.end()
        return v

    def check_flowers(self, c: Clause | None, tiles: ir.Tiles) -> ir.Flowers | None:
        if c is None:
            if tiles.scored_flowers:
                self.col.error("E019", "the tile set has scored flowers but no 'flowers' section", tiles.src and None,
                               "add flowers { replace tail; initial rounds from_dealer; in_play immediately }")
            return None
        sec = self.section(self.body_of(c), SECTIONS["flowers"], "flowers")
        replace = self.one_word(self.single(sec, "replace", "flowers"), ("tail", "head"), "tail")
        init = "rounds_from_dealer"
        ic = self.single(sec, "initial", "flowers")
        if ic:
            r = Reader(ic, self.col, "initial rounds from_dealer")
            r.lit("rounds")
            r.lit("from_dealer")
            r.end()
        inplay = self.one_word(self.single(sec, "in_play", "flowers"), ("immediately",), "immediately")
        if not tiles.scored_flowers:
            self.col.error("E023", "a 'flowers' section without scored flowers in the tile set", c.span,
                           "add `scored_flowers GROUP` to tiles")
        return ir.Flowers(replace, init, inplay, self.src(c))

    def check_wild(self, c: Clause | None, tiles: ir.Tiles) -> ir.Wild | None:
        if c is None:
            return None
        r = Reader(c, self.col, 'wild NAME ["label"] { ... }')
        name = r.name("the wild's name")
        label = r.opt_string() or name
        r.end()
        sec = self.section(self.body_of(c), SECTIONS["wild"], "wild")
        ind_end, dice, stays, after_flowers, to_dealer = "none", False, False, False, False
        ic = self.single(sec, "indicator", "wild")
        if ic:
            rr = Reader(ic, self.col, "indicator head|tail [dice_stack] [stays] [after_flowers] [flowers_to_dealer]")
            ind_end = rr.choice("head or tail", ("head", "tail"))
            fl = rr.flags(("dice_stack", "stays", "after_flowers", "flowers_to_dealer"))
            dice, stays, after_flowers, to_dealer = ("dice_stack" in fl, "stays" in fl, "after_flowers" in fl,
                                                     "flowers_to_dealer" in fl)
        cases: list[ir.WildCase] = []
        at: list[int] = []   # each case's place in the block
        place = {id(x): i for i, x in enumerate(self.body_of(c))}
        for cc in sec.get("none", []):
            Reader(cc, self.col, "none when CONDITION").end()
        fixed_default = [cc for cc in sec.get("fixed", []) if cc.cond is None]
        modes = [kw for kw in ("successor", "same_as_indicator") if kw in sec] + (["fixed"] if fixed_default else [])
        for kw in ("successor", "same_as_indicator"):
            self.single(sec, kw, "wild")
        for dup in fixed_default[1:]:
            self.col.error("E018", "duplicate 'fixed' in wild", dup.key_span,
                           f"the first is on line {fixed_default[0].span.line}; give the others a condition")
        mode, cycles, fixed = "fixed", (), None
        if len(modes) != 1:
            self.col.error("E019" if not modes else "E018", "a wild needs exactly one of: successor CYCLES, "
                           "same_as_indicator, fixed TILE (other modes are chosen by options: none when ..., "
                           "fixed TILE when ...)", c.span)
        elif modes[0] == "successor":
            mode = "successor"
            sc = sec["successor"][0]
            cyc = []
            for w in Reader(sc, self.col, "successor RANGE, RANGE, ...").rest():
                g = self.word_group(w)
                if g:
                    cyc.append(tuple(g))
            flat = [k for cy in cyc for k in cy]
            if len(flat) != len(set(flat)):
                self.col.error("E023", "successor cycles overlap", sc.span, "each kind belongs to one cycle")
            cycles = tuple(cyc)
            if not ic:
                self.col.error("E019", "a successor wild needs an 'indicator' clause", sc.span)
        elif modes[0] == "same_as_indicator":
            mode = "indicator"
            if not ic:
                self.col.error("E019", "same_as_indicator needs an 'indicator' clause", c.span)
        else:
            fixed = self.fixed_tile(fixed_default[0])
        for cc in sec.get("none", []) + [x for x in sec.get("fixed", []) if x.cond is not None]:
            if cc.cond is None:
                self.col.error("E019", "'none' needs a condition: a wild that is never in force is no wild",
                               cc.span, "none when OPTION == VALUE, or remove the wild block")
                continue
            cond = self.x.cond(cc.cond, cc.cond_kind, B.CONFIG, ANY_STAGE)
            kt = self.fixed_tile(cc) if cc.keyword == "fixed" else None
            cases.append(ir.WildCase(cc.keyword, kt, 0 if cc.keyword == "none" else 1, cond, self.src(cc)))
            at.append(place[id(cc)])
        kinds = 1
        for kc in sec.get("kinds", []):
            rr = Reader(kc, self.col, "kinds N [when CONDITION]")
            n = rr.int("how many wild kinds the indicator gives", 1, ir.MAX_WILD_KINDS)
            rr.end()
            shortest = min((len(cy) for cy in cycles), default=0)
            if mode != "successor":
                self.col.error("E023", "'kinds' needs a successor wild: the kinds after the indicator's",
                               kc.span, "add `successor CYCLES`, or remove 'kinds'")
            elif n >= shortest and not rr.failed:
                self.col.error("E023", f"{n} wild kinds after the indicator, but the shortest successor cycle has "
                               f"{shortest} kinds: the indicator's own kind would be wild", kc.span,
                               f"at most {shortest - 1} here")
            if kc.cond is None:
                if kinds != 1:
                    self.col.error("E018", "duplicate unconditional 'kinds' in wild", kc.key_span)
                kinds = n
            else:
                cases.append(ir.WildCase("kinds", None, n, self.x.cond(kc.cond, kc.cond_kind, B.CONFIG, ANY_STAGE),
                                         self.src(kc)))
                at.append(place[id(kc)])
        # tried in the block's order as merged (an overlay's clause takes the place of the base's it replaces), not
        # by line: an overlay's lines and its base's are of different files
        cases = [cases[i] for i in sorted(range(len(cases)), key=at.__getitem__)]
        live = 0
        lc = self.single(sec, "live", "wild")
        if lc:
            rr = Reader(lc, self.col, "live N")
            live = rr.int("how many copies are live wilds", 1, 8)
            rr.end()
        stands = tiles.playable
        sf = self.single(sec, "stands_for", "wild")
        if sf:
            ks: set[int] = set()
            for w in Reader(sf, self.col, "stands_for GROUP...").rest():
                ks |= set(self.word_group(w))
            stands = tuple(sorted(ks & set(tiles.playable)))
        disc = False
        dc = self.single(sec, "discard", "wild")
        if dc:
            disc = self.one_word(dc, ("unclaimable",), "unclaimable") == "unclaimable"
        for kw in ("face_value", "no_calls"):
            if self.single(sec, kw, "wild"):
                Reader(sec[kw][0], self.col, kw).end()
        return ir.Wild(name, label, ind_end, dice, stays, after_flowers, to_dealer, mode, cycles, fixed, live,
                       stands, "face_value" in sec, "no_calls" in sec, disc, self.src(c), kinds, tuple(cases))

    def fixed_tile(self, c: Clause) -> int | None:
        """The one tile of a `fixed TILE` clause."""
        rr = Reader(c, self.col, "fixed TILE [when CONDITION]")
        w = rr.take(("tiles",), "one tile such as 5z")
        rr.end()
        g = self.word_group(w) if w else ()
        return g[0] if len(g) == 1 else None

    def check_rob_wild(self, c: Clause | None, wild: ir.Wild | None) -> ir.RobWild | None:
        if c is None:
            return None
        if wild is None:
            self.col.error("E023", "rob_wild needs a wild", c.span)
        sec = self.section(self.body_of(c), SECTIONS["rob_wild"], "rob_wild")
        ac = self.single(sec, "after", "rob_wild", required=True)
        if ac:
            r = Reader(ac, self.col, "after first_discard before_claims")
            r.lit("first_discard")
            r.lit("before_claims")
            r.end()
        order: list[str] = ["non_dealers", "dealer"]
        oc = self.single(sec, "order", "rob_wild")
        if oc:
            order = Reader(oc, self.col, "order non_dealers dealer").names_rest("non_dealers or dealer", ("non_dealers", "dealer"))
        req: list[str] = []
        rc = self.single(sec, "requires", "rob_wild")
        if rc:
            req = self.pattern_names(rc, Reader(rc, self.col, "requires PATTERN...").rest())
        return ir.RobWild(tuple(order), tuple(req), self.src(c))

    def pattern_names(self, c: Clause, words: list[Word]) -> list[str]:
        out = []
        for w in words:
            if w.kind != "name" or w.value not in self.names.patterns:
                self.col.error("E015", f"unknown pattern '{w.text()}'", w.span,
                               self.col.suggest(w.text(), self.names.patterns) or one_of(self.names.patterns))
            else:
                out.append(w.value)
        return out

    from ._claims import check_claims, check_ready
    from ._flow import (
        check_aborts,
        check_declarations,
        check_exchanges,
        check_horses,
        check_maps,
        check_match,
        check_openings,
        check_play,
    )
    from ._scoring import (
        check_define,
        check_event,
        check_fans,
        check_modifier,
        check_pattern,
        check_rotation,
        check_score,
        check_settlement,
        check_statuses,
        check_table,
        define_label,
    )


def check(resolved: Resolved) -> ir.Variant:
    """Check a resolved spec and lower it to the IR; raises SpecError with every error found."""
    return Checker(resolved).run()


Handler = Callable[..., object]
__all__ = ["ANY_STAGE", "STAGE", "STAGE_VALUE", "Checker", "Reader", "check"]
