"""Checker part: the game flow around the hands: what a win does to the hand (play), choices and exchanges
before play (declare, exchange), named tile maps (map), horses, and the length of a match."""
from __future__ import annotations

from . import builtins as B
from . import ir
from .errors import one_of
from .nodes import Clause
from .reader import ANY_STAGE, SECTIONS, Reader

AFTER_WIN = ("end", "leave")
DIRECTIONS = ("next", "previous", "opposite")
SUITS = (tuple(range(9)), tuple(range(9, 18)), tuple(range(18, 27)))


def check_play(self, c: Clause | None) -> ir.Play | None:
    """play { after_win end|leave; ends when ... }"""
    if c is None:
        return None
    Reader(c, self.col, "play { after_win end|leave; ends when CONDITION }").end()
    sec = self.section(self.body_of(c), SECTIONS["play"], "play")
    after = "end"
    ac = self.single(sec, "after_win", "play")
    if ac:
        r = Reader(ac, self.col, "after_win end|leave")
        after = r.choice("end (a win ends the hand) or leave (the winners leave, play goes on)", AFTER_WIN)
        r.end()
    ends = None
    ec = self.single(sec, "ends", "play")
    if ec:
        Reader(ec, self.col, "ends when CONDITION").end()
        if ec.cond is None:
            self.col.error("E034", "'ends' needs 'when CONDITION'", ec.span, "e.g. `ends when winners == 3`")
        else:
            ends = self.x.cond(ec.cond, ec.cond_kind, B.GAME, ANY_STAGE)
        if after != "leave":
            self.col.error("E023", "'ends' says when a hand ends after wins, which only 'after_win leave' lets happen",
                           ec.span, "add `after_win leave`, or remove 'ends'")
    return ir.Play(after, ends, self.src(c))


def check_declarations(self, clauses: list[Clause]) -> tuple[ir.Declaration, ...]:
    out = []
    for c in clauses:
        r = Reader(c, self.col, 'declare NAME ["label"] [when ...] { choose GROUP...; discard_first; no_claim; '
                                'no_win_holding }')
        name = r.name("a name")
        label = r.opt_string() or name
        r.end()
        sec = self.section(self.body_of(c), SECTIONS["declare"], f"declare {name}")
        choices = []
        cc = self.single(sec, "choose", f"declare {name}", required=True)
        if cc:
            for w in Reader(cc, self.col, "choose GROUP GROUP ...").rest():
                kinds = self.word_group(w)
                if kinds:
                    choices.append(ir.Choice(w.text(), tuple(kinds)))
            if len(choices) < 2:
                self.col.error("E013", "'choose' names at least two tile groups to choose from", cc.span,
                               "e.g. `choose m p s`")
            if len(choices) > 8:
                self.col.error("E013", "'choose' names at most 8 tile groups", cc.span)
                choices = choices[:8]
        flags = {}
        for kw in ("discard_first", "no_claim", "no_win_holding"):
            fc = self.single(sec, kw, f"declare {name}")
            if fc:
                Reader(fc, self.col, kw).end()
            flags[kw] = fc is not None
        out.append(ir.Declaration(name, label, tuple(choices), flags["discard_first"], flags["no_claim"],
                                  flags["no_win_holding"], self.x.cond(c.cond, c.cond_kind, B.CONFIG, ANY_STAGE),
                                  self.src(c)))
    return tuple(out)


def check_exchanges(self, clauses: list[Clause]) -> tuple[ir.Exchange, ...]:
    out = []
    for c in clauses:
        r = Reader(c, self.col, 'exchange NAME ["label"] [when ...] { tiles N [same_suit]; to next|previous|opposite }')
        name = r.name("a name")
        label = r.opt_string() or name
        r.end()
        sec = self.section(self.body_of(c), SECTIONS["exchange"], f"exchange {name}")
        count, same = 3, False
        tc = self.single(sec, "tiles", f"exchange {name}", required=True)
        if tc:
            r = Reader(tc, self.col, "tiles N [same_suit]")
            count = r.int("how many tiles each player passes", 1, 8)
            same = r.flag("same_suit")
            r.end()
        to = "next"
        dc = self.single(sec, "to", f"exchange {name}", required=True)
        if dc:
            r = Reader(dc, self.col, "to next|previous|opposite")
            to = r.choice("next, previous or opposite", DIRECTIONS)
            r.end()
        out.append(ir.Exchange(name, label, count, same, to, self.x.cond(c.cond, c.cond_kind, B.CONFIG, ANY_STAGE),
                               self.src(c)))
    return tuple(out)


def check_maps(self, clauses: list[Clause]) -> tuple[ir.TileMap, ...]:
    out = []
    for c in clauses:
        r = Reader(c, self.col, "map NAME { value N : TILES... }")
        name = r.name("a name")
        r.end()
        entries: list[tuple[int, tuple[int, ...]]] = []
        seen: dict[int, str] = {}
        for row in self.section(self.body_of(c), SECTIONS["map"], f"map {name}").get("value", []):
            rr = Reader(row, self.col, "value N : TILES...")
            n = rr.int("the number these tiles map to", 0, 1000)
            rr.end()
            kinds: list[int] = []
            for w in row.cells or []:
                for k in self.word_group(w):
                    if k in seen:
                        self.col.error("E018", f"map {name}: a tile is mapped twice (also in '{seen[k]}')", w.span)
                    seen[k] = w.text()
                    kinds.append(k)
            if row.cells is None:
                self.col.error("E013", "'value N' needs ': TILES' after it", row.span, "e.g. `value 0 : 1m 5m 9m 東`")
            entries.append((n, tuple(sorted(kinds))))
        out.append(ir.TileMap(name, tuple(entries), self.src(c)))
    return tuple(out)


HORSE_FROM = ("dealer", "winner", "payer")
HORSE_TAKEN = ("before_play", "at_win")


def check_horses(self, c: Clause | None, maps: tuple[ir.TileMap, ...]) -> ir.Horses | None:
    """horses = COUNT { point_by MAP; count_from dealer|winner|payer; taken before_play|at_win }"""
    if c is None:
        return None
    Reader(c, self.col,
           "horses = COUNT { point_by MAP; count_from dealer|winner|payer; taken before_play|at_win }").end()
    count: ir.Expr = ir.Expr("const", (0,))
    if self.need_value(c, "how many tiles are turned as horses"):
        count = self.x.check(c.value, B.CONFIG, ANY_STAGE, "num")
    sec = self.section(self.body_of(c), SECTIONS["horses"], "horses")
    name = ""
    pc = self.single(sec, "point_by", "horses", required=True)
    if pc:
        r = Reader(pc, self.col, "point_by MAP   (a map from tiles to seats counted in play order from `count_from`)")
        w = r.take(("name",), "a map's name")
        r.end()
        names = [m.name for m in maps]
        if w is not None:
            if w.value not in names:
                self.col.error("E016", f"unknown map '{w.value}'", w.span, self.col.suggest(w.value, names) or one_of(names))
            else:
                name = w.value
    base, taken = "dealer", "before_play"
    fc = self.single(sec, "count_from", "horses")
    if fc:
        r = Reader(fc, self.col, "count_from dealer|winner|payer")
        base = r.choice("the seat a horse's number counts from: dealer, winner or payer", HORSE_FROM)
        r.end()
    tc = self.single(sec, "taken", "horses")
    if tc:
        r = Reader(tc, self.col, "taken before_play|at_win")
        taken = r.choice("before_play (set aside from the tail before the first draw) or at_win (turned from the "
                         "wall's head when the hand's first win is made)", HORSE_TAKEN)
        r.end()
    return ir.Horses(count, name, self.src(c), base, taken)


MAX_OPENINGS = 8  # each is offered as a CHOOSE action, of which there are 8


def check_openings(self, clauses: list[Clause]) -> tuple[ir.Opening, ...]:
    """opening NAME ["label"] [= COUNT] when CONDITION   (`shower` is the seat asked)"""
    out = []
    seen: set[str] = set()
    for c in clauses:
        r = Reader(c, self.col, 'opening NAME ["label"] [= COUNT] when CONDITION   (shown at the deal; `shower` is '
                                'the seat)')
        name = r.name("a name")
        label = r.opt_string() or name
        r.end()
        count: ir.Expr = ir.Expr("const", (1,))
        if c.value is not None:
            count = self.x.check(c.value, B.OPENING, ANY_STAGE, "num")
        cond = _named_when(self, c, "opening", name, seen, B.OPENING, "which dealt hands may show it",
                           "e.g. `opening 四喜 when held_fours(shower) >= 1`")
        out.append(ir.Opening(name, label, count, cond, self.src(c)))
    if len(out) > MAX_OPENINGS:
        self.col.error("E013", f"at most {MAX_OPENINGS} openings (found {len(out)})", clauses[MAX_OPENINGS].span)
        out = out[:MAX_OPENINGS]
    return tuple(out)


def check_aborts(self, clauses: list[Clause]) -> tuple[ir.Abort, ...]:
    """abort NAME ["label"] [at wins | on first_turn] when CONDITION"""
    out = []
    seen: set[str] = set()
    for c in clauses:
        r = Reader(c, self.col, 'abort NAME ["label"] [at wins | on first_turn] when CONDITION')
        name = r.name("a name")
        label = r.opt_string() or name
        moment = "passed"
        if r.flag("at"):
            r.lit("wins")
            moment = "wins"
        elif r.flag("on"):
            r.lit("first_turn")
            moment = "first_turn"
        r.end()
        cond = _named_when(self, c, "abort", name, seen, B.GAME, "when the hand is aborted",
                           "e.g. `abort 四家立直 when declared_players == 4`")
        out.append(ir.Abort(name, label, moment, cond, self.src(c)))
    return tuple(out)


def _named_when(self, c: Clause, kind: str, name: str, seen: set[str], context: str, what: str,
                example: str) -> ir.Expr:
    """A named clause of a kind (each name once) and its required `when CONDITION`, checked in `context`."""
    if name in seen:
        self.col.error("E018", f"{kind} '{name}' is defined twice", c.span)
    seen.add(name)
    if c.cond is None or c.cond_kind != "when":
        self.col.error("E034", f"{kind} {name} needs 'when CONDITION': {what}", c.span, example)
        return ir.Expr("const", (False,))
    return self.x.cond(c.cond, c.cond_kind, context, ANY_STAGE)


def check_match(self, c: Clause | None) -> ir.Match | None:
    """match hands = COUNT  |  match { hands|rounds = COUNT; start = SCORE; end ["label"] when CONDITION;
    extend = ROUNDS when CONDITION; pot to first; result = EXPRESSION }"""
    if c is None:
        return None
    if c.body is None:   # the one-line form
        r = Reader(c, self.col, "match hands = COUNT  |  match { ... }")
        r.lit("hands")
        r.end()
        if not self.need_value(c, "the number of hands in a match"):
            return None
        return ir.Match(hands=self.x.check(c.value, B.CONFIG, ANY_STAGE, "num"), src=self.src(c))
    Reader(c, self.col, "match { ... }").end()
    self.no_value(c)
    sec = self.section(c.body, SECTIONS["match"], "match")

    def count(kw: str, what: str) -> ir.Expr | None:
        k = self.single(sec, kw, "match")
        if k is None:
            return None
        Reader(k, self.col, f"{kw} = EXPRESSION").end()
        return self.x.check(k.value, B.CONFIG, ANY_STAGE, "num") if self.need_value(k, what) else None

    hands, rounds = count("hands", "the number of hands"), count("rounds", "the number of rounds")
    if sec.get("hands") and sec.get("rounds"):
        self.col.error("E018", "a match has 'hands' or 'rounds', not both", sec["rounds"][0].key_span,
                       "hands: a fixed number of hands; rounds: the deal goes round the table so many times")
    if not sec.get("hands") and not sec.get("rounds"):
        self.col.error("E019", "match has no length", c.key_span,
                       "add `rounds = 2` (the deal goes round the table twice) or `hands = 16`")
    start = count("start", "each player's starting score")
    ends = []
    for e in sec.get("end", []):
        r = Reader(e, self.col, 'end ["label"] when CONDITION')
        label = r.opt_string() or "end"
        r.end()
        self.no_value(e)
        if e.cond is None:
            self.col.error("E034", "'end' needs 'when CONDITION': when the match ends after a hand", e.span,
                           "e.g. `end \"a score below 0\" when lowest_score < 0`")
            continue
        ends.append(ir.MatchEnd(label, self.x.cond(e.cond, e.cond_kind, B.MATCH, ANY_STAGE), self.src(e)))
    ext_rounds = ext_cond = None
    x = self.single(sec, "extend", "match")
    if x is not None:
        Reader(x, self.col, "extend = ROUNDS when CONDITION").end()
        if self.need_value(x, "the most rounds the match is extended by"):
            ext_rounds = self.x.check(x.value, B.CONFIG, ANY_STAGE, "num")
        if x.cond is None:
            self.col.error("E034", "'extend' needs 'when CONDITION': the match plays on while it holds", x.span,
                           "e.g. `extend = 1 when highest_score < 30000`")
        else:
            ext_cond = self.x.cond(x.cond, x.cond_kind, B.MATCH, ANY_STAGE)
        if rounds is None:
            self.col.error("E033", "'extend' adds rounds to a match of rounds", x.key_span,
                           "give the match's length as `rounds = N`")
    pot_to = ""
    p = self.single(sec, "pot", "match")
    if p is not None:
        r = Reader(p, self.col, "pot to first")
        r.lit("to")
        pot_to = r.choice("who takes the stakes left on the table at the end", ("first",))
        r.end()
        self.no_value(p)
    result = None
    rc = self.single(sec, "result", "match")
    if rc is not None:
        Reader(rc, self.col, "result = EXPRESSION").end()
        if self.need_value(rc, "each seat's final result (`seat`, `score(seat)`, `rank(seat)`)"):
            result = self.x.check(rc.value, B.MATCH, ANY_STAGE, "num")
    return ir.Match(hands, rounds, start, tuple(ends), ext_rounds, ext_cond, pot_to, result, self.src(c))