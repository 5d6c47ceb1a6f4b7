"""Rule-level diff of two compiled variants (see mjrules.diff): the IR compared section by section.

Every comparable unit of a variant is a *clause*: a key (section, name), the clause rendered in spec-like
syntax, and the rule ids its source cites. Two variants differ where a key is present in one only, or where
the rendered clauses differ. Provenance (files, line numbers), the variant's name, title and labels, item
labels, option descriptions and rule-id bookkeeping (`rules`, `no_effect`, citations) are not rules and are
ignored. Ordered lists (statuses, minimums, forbids, payments, rotation rules, winners, dice procedures) are
aligned with difflib, so an inserted clause shows as one insertion, not as a cascade of changes.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from ..cli.show import format_expr
from ..model.tiles import format_tiles, tile_name
from .cases import hand_exprs, names_in

# Sections whose differences a single hand can show (the rest show only in whole games).
HAND_SECTIONS = frozenset({"tiles", "deal", "wild", "rob_wild", "claims", "patterns", "modifiers", "events",
                           "statuses", "tables", "defines", "score", "settlement.win", "settlement.cap", "options"})
_GAME_ONLY_KEYS = frozenset({("claims", "chi"), ("claims", "pon"), ("claims", "kongs"), ("claims", "priority"),
                             ("claims", "winners"), ("claims", "pass_blocks_ron"), ("claims", "furiten"),
                             ("claims", "no_swap_calling"), ("wild", "indicator"),
                             ("wild", "live"), ("wild", "no_calls"), ("deal", "deal")})
_BUILTIN_GROUPS = frozenset({"m", "p", "s", "suited", "honours", "winds", "dragons", "terminals", "simples",
                             "flowers", "seasons", "plants", "all"})


@dataclass(frozen=True)
class Clause:
    """One comparable unit: where it lives, what it says, and the rule ids it cites."""

    section: str
    key: str
    text: str
    rules: tuple[str, ...]


def _r(src: Any) -> tuple[str, ...]:
    return tuple(src.rules) if src is not None else ()


def _x(e: Any) -> str:
    return format_expr(e)


def _cond(e: Any, word: str = "when") -> str:
    if e is None or (e.op == "const" and e.args[0] is True):
        return ""
    return f" {word} {_x(e)}"


def _val(x: Any) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, str):
        return '"' + x + '"'
    return str(x)


def _kinds(kinds: Any) -> str:
    return format_tiles(tuple(kinds)) if kinds else "none"


# ---- one variant -> its clauses --------------------------------------------------------------------------

def clauses(v: Any) -> tuple[dict[tuple[str, str], Clause], dict[str, list[Clause]]]:
    """A variant's keyed clauses, and its ordered lists (section -> clauses in order)."""
    keyed: dict[tuple[str, str], Clause] = {}
    lists: dict[str, list[Clause]] = {}

    def put(section: str, key: str, text: str, rules: tuple[str, ...] = ()) -> None:
        keyed[(section, key)] = Clause(section, key, text, rules)

    def seq(section: str, items: list[tuple[str, tuple[str, ...]]]) -> None:
        lists[section] = [Clause(section, str(i + 1), t, r) for i, (t, r) in enumerate(items)]

    t = v.tiles
    tr = _r(t.src)
    put("tiles", "kinds", f"use {_kinds(t.kinds)} ({len(t.kinds)} kinds)", tr)
    by: dict[int, list[int]] = {}
    for k in t.kinds:
        by.setdefault(t.copies[k], []).append(k)
    put("tiles", "copies", "; ".join(f"copies {n} for {_kinds(ks)}" for n, ks in sorted(by.items(), reverse=True))
        + f" ({t.total} tiles)", tr)
    put("tiles", "playable", f"playable {_kinds(t.playable)}", tr)
    put("tiles", "scored_flowers", f"scored_flowers {_kinds(t.scored_flowers)}", tr)
    for g in t.groups:
        if g.name not in _BUILTIN_GROUPS:
            put("tiles", f"group {g.name}", f"group {g.name} = {_kinds(g.kinds)}", tr)

    put("players", "players", f"players {v.players}")
    d = v.deal
    put("deal", "hand", f"hand {d.hand} dealer {d.dealer_hand}", _r(d.src))
    put("deal", "deal", f"deal {' '.join(map(str, d.rounds))} then dealer {d.dealer_extra}", _r(d.src))
    seq("seating", [(" ".join(("seating", p.name, *p.params)) + _cond(p.cond), _r(p.src)) for p in v.seating])
    seq("wall_break", [(" ".join(("wall_break", p.name, *p.params)) + _cond(p.cond), _r(p.src))
                       for p in v.wall_break])

    w = v.wall
    wr = _r(w.src)
    put("wall", "draw", f"draw {w.draw}; replacement {w.replacement}", wr)
    put("wall", "retain", f"retain = {_x(w.retain)}", wr)
    put("wall", "final_round", f"final_round {w.final_round}" + (" auto_win" if w.final_round_auto_win else "")
        if w.final_round else "no final round", wr)
    put("wall", "last_discard", "last_discard win_only" if w.last_discard_win_only else "last discard claimed as usual", wr)
    put("wall", "kong_needs_replacement", "kong_needs_replacement" if w.kong_needs_replacement
        else "kongs need no replacement guard", wr)
    put("wall", "empty_in_replacement", f"empty_in_replacement {w.empty_in_replacement}", wr)

    f = v.flowers
    if f is not None:
        fr = _r(f.src)
        put("flowers", "replace", f"replace {f.replace}", fr)
        put("flowers", "initial", f"initial {f.initial}", fr)
        put("flowers", "in_play", f"in_play {f.in_play}", fr)

    wi = v.wild
    if wi is not None:
        r = _r(wi.src)
        ind = "no indicator" if wi.indicator_end == "none" else " ".join(
            ["indicator", wi.indicator_end] + [w for w, on in (("dice_stack", wi.indicator_dice_stack),
                                                             ("stays", wi.indicator_stays),
                                                             ("after_flowers", wi.after_flowers),
                                                             ("flowers_to_dealer", wi.flowers_to_dealer)) if on])
        put("wild", "indicator", f"wild {wi.name}: {ind}", r)
        if wi.mode == "successor":
            kind = "successor " + ", ".join(f"{tile_name(c[0])}..{tile_name(c[-1])}" for c in wi.cycles)
        elif wi.mode == "indicator":
            kind = "same_as_indicator"
        else:
            kind = f"fixed {tile_name(wi.fixed) if wi.fixed is not None else '?'}"
        put("wild", "kind", f"wild {wi.name}: {kind}", r)
        put("wild", "live", f"wild {wi.name}: live {wi.live if wi.live else 'every copy of each wild kind'}", r)
        if wi.kinds > 1:
            put("wild", "kinds", f"wild {wi.name}: kinds {wi.kinds}", r)
        for c in wi.cases:
            what = {"none": "none", "fixed": f"fixed {tile_name(c.fixed) if c.fixed is not None else '?'}",
                    "kinds": f"kinds {c.kinds}"}[c.mode]
            put("wild", f"case {what}", f"wild {wi.name}: {what} when {format_expr(c.cond)}", r)
        put("wild", "stands_for", f"wild {wi.name}: stands_for {_kinds(wi.stands_for)}", r)
        put("wild", "face_value", f"wild {wi.name}: " + ("face_value" if wi.face_value else "never at face value"), r)
        put("wild", "no_calls", f"wild {wi.name}: " + ("no_calls" if wi.no_calls else "may be used in calls"), r)
        put("wild", "discard", f"wild {wi.name}: " + ("discard unclaimable" if wi.discard_unclaimable
                                                     else "discard claimable"), r)
    rw = v.rob_wild
    if rw is not None:
        put("rob_wild", "order", f"order {' '.join(rw.order)}", _r(rw.src))
        put("rob_wild", "requires", f"requires {' '.join(rw.requires) or 'any pattern'}", _r(rw.src))

    c = v.claims
    cr = _r(c.src)
    put("claims", "chi", f"chi from {c.chi_from}" + ("; chi honours" + _cond(c.chi_honours)
                                                      if c.chi_honours is not None else ""), cr)
    put("claims", "pon", "pon" if c.pon else "no pon", cr)
    put("claims", "kongs", f"kong {' '.join(c.kongs) or 'none'}", cr)
    put("claims", "priority", "priority " + " > ".join(" ".join(lv) for lv in c.priority), cr)
    put("claims", "rob_kong", "; ".join(f"rob_kong {' '.join(rr.kinds)}" + (f" by {' '.join(rr.patterns)}" if rr.patterns
                                                                          else "") + _cond(rr.cond) for rr in c.robs)
        or "rob_kong none", cr)
    put("claims", "win_on_discard", "no win on a discard" if c.win_on_discard is None
        else "win_on_discard" + _cond(c.win_on_discard), _r(c.win_on_discard_src) or cr)
    seq("claims.winners", [(f"winners {wr_.mode}" + (f" prefer {' '.join(wr_.prefer)}" if wr_.prefer else "")
                            + _cond(wr_.cond), _r(wr_.src)) for wr_ in c.winners])
    if c.pass_blocks_ron is not None:
        put("claims", "pass_blocks_ron", "pass_blocks_ron" + _cond(c.pass_blocks_ron), cr)
    if c.furiten:
        put("claims", "furiten", "furiten " + " ".join(c.furiten) + _cond(c.furiten_when), cr)
    if c.no_swap_calling is not None:
        put("claims", "no_swap_calling", "no_swap_calling" + _cond(c.no_swap_calling), cr)

    rd = v.ready_declaration
    if rd is not None:
        rr = _r(rd.src)
        put("ready_declaration", "by", f"by {rd.by} {rd.window}", rr)
        req = " ".join(w for w, on in (("ready", rd.requires_ready), ("concealed", rd.requires_concealed),
                                       (f"drawable {rd.requires_drawable}", rd.requires_drawable > 0)) if on)
        put("ready_declaration", "requires", f"requires {req}" if req else "no requirement", rr)
        put("ready_declaration", "stake", "no stake" if rd.stake is None else f"stake = {format_expr(rd.stake)}", rr)
        put("ready_declaration", "locks_hand", "locks_hand" if rd.locks_hand else "hand not locked", rr)
        put("ready_declaration", "concealed_kong", "concealed_kong_keeping_waits" + _cond(rd.concealed_kong_keeping_waits)
            if rd.concealed_kong_keeping_waits is not None else "no concealed kong after declaring", rr)

    for p in v.patterns:
        put("patterns", p.name, f"pattern {p.name} shape {p.shape}" + _cond(p.cond), _r(p.src))
    for m in v.modifiers:
        put("modifiers", m.name, f"modifier {m.name}" + (f" for {' '.join(m.applies_to)}" if m.applies_to else "")
            + _cond(m.cond), _r(m.src))
    for e in v.events:
        put("events", e.name, f"event {e.name}" + _cond(e.cond), _r(e.src))
    seq("statuses", [(f"status {s.name}" + (" otherwise" if s.cond is None else _cond(s.cond)), _r(s.src))
                     for s in v.statuses])
    for tb in v.tables:
        put("tables", tb.name, f"table {tb.name} by pattern" + (f", {tb.column_var}" if tb.column_var else "")
            + (f"; columns {' '.join(tb.columns)}" if tb.column_var else ""), _r(tb.src))
        for row in tb.rows:
            head = " ".join((row.pattern, *row.modifiers))
            put("tables", f"{tb.name}[{head}]", f"{tb.name}: {head} : {' '.join(_val(x) for x in row.cells)}",
                _r(row.src) or _r(tb.src))
    for df in (*v.defines, *v.table_defines):
        put("defines", df.name, f"define {df.name} = {_x(df.expr)}", _r(df.src))
    s = v.score
    put("score", "value", f"value = {_x(s.value)}", _r(s.value_src))
    seq("score.minimum", [(f"minimum {_val(m.amount)}" + _cond(m.cond), _r(m.src)) for m in s.minimum])
    seq("score.forbid", [(f"forbid {_val(fb.reason)} when {_x(fb.cond)}", _r(fb.src)) for fb in s.forbids])

    pl = v.play
    if pl is not None:
        put("play", "after_win", f"after_win {pl.after_win}" + (f"; ends when {_x(pl.ends)}" if pl.ends else ""),
            _r(pl.src))
    for x in v.exchanges:
        put("play", f"exchange {x.name}", f"exchange {x.name}: tiles {x.count}"
            + (" same_suit" if x.same_suit else "") + f" to {x.to}" + _cond(x.cond), _r(x.src))
    for d in v.declarations:
        flags = " ".join(f for f, on in (("discard_first", d.discard_first), ("no_claim", d.no_claim),
                                         ("no_win_holding", d.no_win_holding)) if on)
        put("play", f"declare {d.name}", f"declare {d.name}: choose {' '.join(c.name for c in d.choices)}"
            + (f"; {flags}" if flags else "") + _cond(d.cond), _r(d.src))
    if v.horses is not None:
        put("play", "horses", f"horses = {_x(v.horses.count)} point_by {v.horses.map} count_from "
                              f"{v.horses.count_from} taken {v.horses.taken}", _r(v.horses.src))
    for o in v.openings:
        put("openings", o.name, f"opening {o.name} = {_x(o.count)} when {_x(o.cond)}", _r(o.src))
    for m in v.maps:
        put("play", f"map {m.name}", f"map {m.name}: " + "; ".join(f"{n}: {_kinds(k)}" for n, k in m.entries),
            _r(m.src))
    m = v.match
    if m is not None:
        put("match", "length", f"hands = {_x(m.hands)}" if m.hands is not None else f"rounds = {_x(m.rounds)}",
            _r(m.src))
        if m.start is not None:
            put("match", "start", f"start = {_x(m.start)}")
        for e in m.ends:
            put("match", f"end {e.label}", f"end when {_x(e.cond)}", _r(e.src))
        if m.extend_cond is not None:
            put("match", "extend", f"extend = {_x(m.extend_rounds)} when {_x(m.extend_cond)}")
        if m.pot_to:
            put("match", "pot", f"pot to {m.pot_to}")
        if m.result is not None:
            put("match", "result", f"result = {_x(m.result)}")

    st = v.settlement
    for name in ("win", "on_win", "draw", "hand_end", "wall_end", "discard", "first_round", "opening", "kong_exposed",
                 "kong_added", "kong_concealed"):
        seq(f"settlement.{name}", [(_pay_text(p) + _cond(p.cond), _r(p.src)) for p in getattr(st, name)])
    if st.at_once:
        put("settlement.kong_at_once", "at_once", "kongs paid when made: " + " ".join(st.at_once))
    if st.cap_loss is not None:
        put("settlement.cap", "cap", f"cap loss = {_x(st.cap_loss)}" + _cond(st.cap_cond), _r(st.cap_src))
    ro = v.rotation
    seq("rotation", [(f"rotate {r.target}" + (" otherwise" if r.cond is None else _cond(r.cond)), _r(r.src))
                     for r in ro.rules])
    if ro.streak is not None:
        put("rotation", "streak", f"streak = {_x(ro.streak)}", _r(ro.streak_src))
    for o in v.options:
        put("options", o.name, f"option {o.name} ({o.type}) = {_val(o.default)}", _r(o.src))
    return keyed, lists


def _pay_text(p: Any) -> str:
    if p.action == "refund":
        return f"refund {p.what}"
    if p.action == "transfer":
        return f"transfer {p.what} from {p.payer} to {p.payee}"
    return f"pay {p.payer} to {p.payee} = {_x(p.amount)}"


# ---- two variants -> differences -------------------------------------------------------------------------

_ORDER = ["tiles", "players", "deal", "seating", "wall_break", "wall", "flowers", "wild", "rob_wild", "claims",
          "claims.winners", "ready_declaration", "patterns", "modifiers", "events", "statuses", "tables", "defines",
          "play", "score", "score.minimum", "score.forbid", "settlement.win", "settlement.on_win", "settlement.draw",
          "settlement.hand_end", "settlement.wall_end", "settlement.discard", "settlement.first_round",
          "settlement.opening", "openings",
          "settlement.kong_exposed", "settlement.kong_added",
          "settlement.kong_concealed", "settlement.kong_at_once", "settlement.cap", "rotation", "match", "options"]


def _entry(section: str, key: str, a: Clause | None, b: Clause | None,
           hand_options: frozenset[str] = frozenset()) -> dict[str, Any]:
    change = "changed" if a and b else "only_a" if a else "only_b"
    hand = section in HAND_SECTIONS and (section, key) not in _GAME_ONLY_KEYS
    if section == "options":
        hand = key in hand_options
    name = key.split("[")[0] if section in ("patterns", "modifiers", "events", "defines", "tables", "options") else None
    return {"section": section, "key": key, "change": change,
            "a": a.text if a else None, "b": b.text if b else None,
            "a_rules": list(a.rules) if a else [], "b_rules": list(b.rules) if b else [],
            "level": "hand" if hand else "game", "name": name}


def hand_options(v: Any) -> frozenset[str]:
    """Options that a single hand's verdict, value or payments can depend on (the rest act in games only)."""
    return frozenset(names_in(hand_exprs(v, cap=True), "opt"))


def diff_rules(va: Any, vb: Any) -> list[dict[str, Any]]:
    """Every clause that differs between two variants, in section order, with the rule ids on each side."""
    ka, la = clauses(va)
    kb, lb = clauses(vb)
    ho = hand_options(va) | hand_options(vb)
    out: list[dict[str, Any]] = []
    for section in _ORDER:
        if section in la or section in lb:
            out += _diff_list(section, la.get(section, []), lb.get(section, []))
            # a keyed clause may live in a list section too (rotation streak)
        keys = [k for k in ka if k[0] == section] + [k for k in kb if k[0] == section and k not in ka]
        for k in keys:
            a, b = ka.get(k), kb.get(k)
            if a is None or b is None or a.text != b.text:
                out.append(_entry(section, k[1], a, b, ho))
    for i, e in enumerate(out, 1):
        e["id"] = f"R{i}"
    return out


def _diff_list(section: str, a: list[Clause], b: list[Clause]) -> list[dict[str, Any]]:
    ta, tb = [c.text for c in a], [c.text for c in b]
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=ta, b=tb, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        n = max(i2 - i1, j2 - j1)
        for d in range(n):
            ca = a[i1 + d] if i1 + d < i2 else None
            cb = b[j1 + d] if j1 + d < j2 else None
            key = f"#{i1 + d + 1}" if ca else f"#{j1 + d + 1}"
            if ca and cb and i1 + d != j1 + d:
                key = f"#{i1 + d + 1}/#{j1 + d + 1}"
            out.append(_entry(section, key, ca, cb))
    return out
