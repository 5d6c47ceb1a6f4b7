"""Checker part: the claims section and the ready declaration (报听)."""
from __future__ import annotations

from . import builtins as B
from . import ir
from .nodes import Clause
from .reader import ANY_STAGE, SECTIONS, Reader

CLAIM_KINDS = ("win", "kong", "pon", "chi")
KONG_KINDS = ("exposed", "added", "concealed")
ROB_KINDS = ("added", "concealed")   # (an exposed kong's tile was a discard: any player could have won on it)


def check_claims(self, c: Clause | None) -> ir.Claims:
    sec = self.section(self.body_of(c), SECTIONS["claims"], "claims")
    chi_from, chi_honours = "none", None
    for cc in sec.get("chi", []):
        r = Reader(cc, self.col, "chi from previous|any  |  chi honours [when ...]")
        if r.flag("honours"):
            r.end()
            chi_honours = self.x.cond(cc.cond, cc.cond_kind, B.CONFIG, ANY_STAGE) or ir.TRUE
            continue
        r.lit("from")
        chi_from = r.choice("previous or any", ("previous", "any"))
        r.end()
        if cc.cond is not None:
            self.col.error("E032", "'chi from' cannot be conditional; use an option in an overlay instead",
                           cc.cond.span)
    pon = False
    pc = self.single(sec, "pon", "claims")
    if pc:
        r = Reader(pc, self.col, "pon [from any]")
        if r.flag("from"):
            r.lit("any")
        r.end()
        pon = True
    kongs: list[str] = []
    kc = self.single(sec, "kong", "claims")
    if kc:
        kongs = Reader(kc, self.col, "kong exposed added concealed").names_rest(
            "kong kinds: exposed, added, concealed", KONG_KINDS)
    priority: list[tuple[str, ...]] = [("win",), ("kong", "pon"), ("chi",)]
    prc = self.single(sec, "priority", "claims")
    if prc:
        levels: list[list[str]] = [[]]
        for w in prc.words:
            if w.kind == "gt":
                levels.append([])
            elif w.kind == "name" and w.value in CLAIM_KINDS:
                levels[-1].append(w.value)
            else:
                self.col.error("E013", f"'priority' expects claim kinds separated by '>', found '{w.text()}'", w.span,
                               "usage: priority win > kong pon > chi")
        flat = [k for lv in levels for k in lv]
        if any(not lv for lv in levels) or len(flat) != len(set(flat)):
            self.col.error("E013", "'priority' lists each claim kind once, levels separated by '>'", prc.span,
                           "usage: priority win > kong pon > chi")
        priority = [tuple(lv) for lv in levels if lv]
    rob: list[str] = []
    robs: list[ir.RobRule] = []
    for rc in sec.get("rob_kong", []):
        usage = "rob_kong none | rob_kong added|concealed... [by PATTERN...] [when CONDITION]"
        r = Reader(rc, self.col, usage)
        kinds: list[str] = []
        pats: list[str] = []
        if not r.flag("none"):
            what = "kinds of kong that may be robbed: added, concealed"
            while (w := r.peek()) is not None and w.value != "by" and not r.failed:
                k = r.choice(what, ROB_KINDS)
                if k not in kinds:
                    kinds.append(k)
            if not kinds and not r.failed:
                r.choice(what, ROB_KINDS)
            if r.flag("by"):
                pats = self.pattern_names(rc, r.rest())
        r.end()
        for k in kinds:
            if k not in kongs:
                self.col.error("E023", f"rob_kong names '{k}' kongs, which the claims do not allow", rc.span)
            if k in rob:
                self.col.error("E018", f"'{k}' kongs are robbed by two rob_kong clauses", rc.span)
            rob.append(k)
        if kinds:
            robs.append(ir.RobRule(tuple(kinds), tuple(pats),
                                   self.x.cond(rc.cond, rc.cond_kind, B.CONFIG, ANY_STAGE) if rc.cond else None,
                                   self.src(rc)))
    wod, wod_src = None, None
    wc = self.single(sec, "win_on_discard", "claims")
    if wc:
        wod_src = self.src(wc)
        Reader(wc, self.col, "win_on_discard [when ...]").end()
        wod = self.x.cond(wc.cond, wc.cond_kind, B.CLAIM, ANY_STAGE) or ir.TRUE
    winners = []
    for wr in sec.get("winners", []):
        r = Reader(wr, self.col, "winners first|all [prefer PATTERN...] [when ...]")
        mode = r.choice("first or all", ("first", "all"))
        prefer: list[str] = []
        if r.flag("prefer"):
            prefer = self.pattern_names(wr, r.rest())
        r.end()
        winners.append(ir.WinnerRule(mode, tuple(prefer), self.x.cond(wr.cond, wr.cond_kind, B.CONFIG, ANY_STAGE),
                                     self.src(wr)))
    if not winners:
        winners.append(ir.WinnerRule("first", (), None, self.src(c) if c else ir.Src((), "", 0)))
    pbr = None
    pb = self.single(sec, "pass_blocks_ron", "claims")
    if pb:
        Reader(pb, self.col, "pass_blocks_ron [when ...]").end()
        pbr = self.x.cond(pb.cond, pb.cond_kind, B.CONFIG, ANY_STAGE) or ir.TRUE
    furiten: tuple[str, ...] = ()
    fcond = None
    fc = self.single(sec, "furiten", "claims")
    if fc:
        r = Reader(fc, self.col, "furiten own_discards|passed|declared_passed ... [when ...]")
        furiten = tuple(r.names_rest("furiten kinds: own_discards, passed, declared_passed", FURITEN_KINDS))
        r.end()
        fcond = self.x.cond(fc.cond, fc.cond_kind, B.CONFIG, ANY_STAGE) or ir.TRUE
    nsc = None
    sc = self.single(sec, "no_swap_calling", "claims")
    if sc:
        Reader(sc, self.col, "no_swap_calling [when ...]").end()
        nsc = self.x.cond(sc.cond, sc.cond_kind, B.CONFIG, ANY_STAGE) or ir.TRUE
    liab = []
    for lc in sec.get("liability", []):
        r = Reader(lc, self.col, "liability NAME when CONDITION   (`claimer` is the seat that claimed)")
        name = r.name("the fan, pattern or event it is liable for")
        r.end()
        if lc.cond is None or lc.cond_kind != "when":
            self.col.error("E034", f"liability {name} needs 'when CONDITION': which claims make the discarder liable",
                           lc.span, "e.g. `liability 大三元 when melds_in(claimer, dragons) == 3`")
            continue
        liab.append(ir.Liability(name, self.x.cond(lc.cond, lc.cond_kind, B.GAME, ANY_STAGE), self.src(lc)))
    return ir.Claims(chi_from, chi_honours, pon, tuple(kongs), tuple(priority), tuple(rob), wod, wod_src,
                     tuple(winners), pbr, self.src(c) if c else ir.Src((), "", 0), furiten, fcond, nsc, tuple(liab),
                     tuple(robs))


FURITEN_KINDS = ("own_discards", "passed", "declared_passed")


def check_ready(self, c: Clause | None) -> ir.ReadyDeclaration | None:
    if c is None:
        return None
    sec = self.section(self.body_of(c), SECTIONS["ready_declaration"], "ready_declaration")
    by, window = "non_dealers", "before_first_discard"
    bc = self.single(sec, "by", "ready_declaration", required=True)
    if bc:
        r = Reader(bc, self.col, "by non_dealers|all before first_discard|with_discard")
        by = r.choice("non_dealers or all", ("non_dealers", "all"))
        if r.choice("before first_discard or with_discard", ("before", "with_discard")) == "before":
            r.lit("first_discard")
        else:
            window = "with_discard"
        r.end()
    req, concealed, drawable = False, False, 0
    rq = self.single(sec, "requires", "ready_declaration")
    if rq:
        r = Reader(rq, self.col, "requires [ready] [concealed] [drawable N]")
        while r.peek() is not None:
            w = r.choice("ready, concealed or drawable", ("ready", "concealed", "drawable"))
            if w == "ready":
                req = True
            elif w == "concealed":
                concealed = True
            else:
                drawable = r.int("the tiles that must be left to draw", 0, 200)
        r.end()
    locks = self.single(sec, "locks_hand", "ready_declaration") is not None
    ck = None
    kc = self.single(sec, "concealed_kong_keeping_waits", "ready_declaration")
    if kc:
        ck = self.x.cond(kc.cond, kc.cond_kind, B.CONFIG, ANY_STAGE) or ir.TRUE
    stake = None
    sc = self.single(sec, "stake", "ready_declaration")
    if sc and self.need_value(sc, "the points staked"):
        stake = self.x.check(sc.value, B.CONFIG, ANY_STAGE, "num")
        if window != "with_discard":
            self.col.error("E042", "a stake is put in when the declaration's discard is not won on: it needs "
                           "'by ... with_discard'", sc.key_span, "declare with the discard, or drop the stake")
    return ir.ReadyDeclaration(by, window, req, locks, ck, self.src(c), concealed, drawable, stake)
