"""Situations for the hand diff (see mjrules.diff.hands): canonical families of winning hands for a variant,
and random candidates for the seeded search.

Families are built from the variant's own playable tiles at its own hand size, for every shape its patterns
can take: sets plus a pair (sequences, pungs, one suit, honours, terminals, four alike; with a chi, a pon or
a kong), all pairs, thirteen-rotten style distinct hands, terminal-and-honour hands and three-wild hands;
each with 0 to 3 wilds (absent kind, in the pair, in a set, at face value) and each way of winning the
variant's expressions care about. Every candidate carries a family label and a cost (smaller is simpler).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..model.tiles import format_tiles, parse_tile, tile_name

N = 34

def K(text: str) -> list[int]:
    """'123m' -> kinds."""
    out, digits = [], ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out += [parse_tile(d + ch).kind for d in digits]
            digits = ""
    return out


@dataclass
class Cand:
    sit: dict[str, Any]
    family: str
    cost: tuple
    origin: str = ""


def fmt_concealed(concealed: list[int], wild: int | None) -> str:
    """Concealed tiles in notation, the wilds last: '123m55z9s*9s*'."""
    real = sorted(k for k in concealed if k != wild)
    return format_tiles(real) + "".join(tile_name(wild) + "*" for k in concealed if k == wild)


def hand_exprs(v: Any, cap: bool = False) -> list[Any]:
    """The expressions a single hand's verdict, value and win payments read (with `cap`, the loss cap's too)."""
    exprs: list[Any] = [p.cond for p in v.patterns] + [m.cond for m in v.modifiers] + [e.cond for e in v.events]
    exprs += [s.cond for s in v.statuses] + [d.expr for d in v.defines] + [v.score.value]
    exprs += [m.cond for m in v.score.minimum] + [f.cond for f in v.score.forbids] + [v.claims.win_on_discard]
    exprs += [x for p in v.settlement.win for x in (p.amount, p.cond)]
    if cap:
        exprs += [v.settlement.cap_loss, v.settlement.cap_cond]
    return exprs


def names_in(exprs: list[Any], op: str) -> set[str]:
    """The names the expressions (None skipped) read by `op` (var: builtins, opt: options)."""
    return {n for e in exprs if e is not None for n in e.names(op)}


def _used_vars(v: Any) -> set[str]:
    return names_in(hand_exprs(v), "var")


def contexts(v: Any) -> list[tuple[str, dict[str, Any], int]]:
    """The ways of winning worth trying in `v`: (name, situation keys, cost)."""
    used = _used_vars(v)
    out = [("self-draw", {"seat": 1}, 0),
           ("discard", {"seat": 1, "win_by": "discard", "discarder": 2}, 1),
           ("dealer self-draw", {"seat": 0}, 1),
           ("first discard (地胡 window)", {"seat": 1, "win_by": "discard", "discarder": 0, "first_turn": True,
                                           "first_discard": True}, 2),
           ("robbing a kong", {"seat": 1, "win_by": "rob_kong", "discarder": 2}, 2),
           ("dealt (天胡)", {"seat": 0, "win_by": "dealt"}, 2)]
    if v.wild is not None or "wild_discards" in used:
        out += [("self-draw after discarding a wild", {"seat": 1, "wild_discards": 1}, 3),
                ("discard after discarding a wild", {"seat": 1, "win_by": "discard", "discarder": 2,
                                                      "wild_discards": 1}, 3)]
    if v.ready_declaration is not None or "declared_ready" in used:
        out.append(("declared ready, first discard", {"seat": 1, "win_by": "discard", "discarder": 0,
                                                      "first_turn": True, "declared_ready": True}, 3))
    if v.tiles.scored_flowers and "flowers" in used:
        out.append(("self-draw with a flower", {"seat": 1, "flowers": [tile_name(v.tiles.scored_flowers[-1])]}, 3))
    if "dealer_streak" in used:
        out.append(("dealer self-draw, streak 1", {"seat": 0, "dealer_streak": 1}, 3))
    return out


def _wild_kinds(v: Any) -> list[int]:
    """Kinds that can be the wild kind in `v`, most useful first."""
    w = v.wild
    if w is None:
        return []
    play = set(v.tiles.playable)
    if w.mode == "fixed":
        return [w.fixed] if w.fixed in play else []
    if w.mode == "successor":
        ks = {c[(i + 1) % len(c)] for c in w.cycles for i in range(len(c))}
    else:
        ks = set(play)
    pref = K("9s7p2m6p8m") + list(range(N))
    return [k for k in dict.fromkeys(pref) if k in ks and k in play]


@dataclass
class Shape:
    """A hand before wilds: concealed groups (kinds), melds (notation), the pair's and first set's positions."""

    family: str
    groups: list[list[int]]
    melds: list[str] = field(default_factory=list)
    pair: int | None = None       # index of the pair group in `groups`
    first_set: int | None = None  # index of a set group a wild may replace a tile of
    melded: int = 0
    kong: bool = False


def _std_shapes(v: Any) -> list[Shape]:
    S = v.win_size
    n = (S - 2) // 3
    if n < 1 or (S - 2) % 3:
        return []
    fams = [
        ("sequences", ["123m", "456m", "789p", "234s", "567s"], "55z"),
        ("sequences, suited pair", ["123m", "456m", "789p", "234s", "567s"], "88s"),
        ("pungs", ["111m", "999p", "555s", "111z", "777z"], "22z"),
        ("suited pungs", ["111m", "999p", "555s", "333p", "777s"], "22s"),
        ("sequences and pungs", ["123m", "999p", "456s", "777z", "789m"], "11z"),
        ("one suit", ["123m", "456m", "789m", "234m", "567m"], "99m"),
        ("one-suit pungs", ["111m", "333m", "555m", "777m", "222m"], "99m"),
        ("honour pungs", ["111z", "222z", "333z", "444z", "555z"], "66z"),
        ("terminal and honour pungs", ["111m", "999p", "111s", "777z", "999s"], "99m"),
        ("four alike", ["111m", "123m", "456p", "789s", "345s"], "55z"),
        ("four alike, suited", ["111m", "123m", "456p", "789s", "345s"], "55p"),
    ]
    out = []
    for name, sets, pair in fams:
        groups = [K(s) for s in sets[:n]] + [K(pair)]
        if len(sets) < n:
            continue
        out.append(Shape(name, groups, pair=n, first_set=0))
        # melded variants: a chi of the first sequence, a pon / kong of the first pung
        seq_i = next((i for i, g in enumerate(groups[:n]) if g[0] != g[1]), None)
        pung_i = next((i for i, g in enumerate(groups[:n]) if g[0] == g[1]), None)
        if seq_i is not None and name in ("sequences", "sequences and pungs", "one suit"):
            g = groups[seq_i]
            rest = [x for i, x in enumerate(groups) if i != seq_i]
            out.append(Shape(name + ", chi", rest, ["[" + format_tiles(g) + "]"], pair=len(rest) - 1,
                             first_set=0, melded=1))
        if pung_i is not None and name in ("pungs", "suited pungs", "sequences and pungs", "four alike",
                                           "four alike, suited", "terminal and honour pungs"):
            g = groups[pung_i]
            rest = [x for i, x in enumerate(groups) if i != pung_i]
            t = format_tiles(g)
            out.append(Shape(name + ", pon", rest, [f"[{t}]"], pair=len(rest) - 1, first_set=0, melded=1))
            if not name.startswith("four alike"):
                t4 = format_tiles(g + g[:1])
                out.append(Shape(name + ", exposed kong", rest, [f"[{t4}]"], pair=len(rest) - 1, first_set=0,
                                 melded=1, kong=True))
                out.append(Shape(name + ", concealed kong", rest, [f"{{{t4}}}"], pair=len(rest) - 1, first_set=0,
                                 melded=1, kong=True))
    return out


def _pair_shapes(v: Any) -> list[Shape]:
    S = v.win_size
    if S % 2 or not any(p.shape == "pairs" for p in v.patterns) and S != 14:
        return []
    n = S // 2
    fams = [("pairs", "13m57p9s1z8s"), ("pairs, suited", "13m57p9s28s"), ("pairs, four alike", "11m56p8s34z"),
            ("pairs, one suit", "1234579m"), ("pairs, honours", "1234567z"), ("pairs, terminals and honours", "19m19p1s12z")]
    out = []
    for name, kinds in fams:
        ks = K(kinds)
        if len(ks) < n:
            continue
        groups = [[k, k] for k in ks[:n]]
        out.append(Shape(name, groups, pair=n - 1, first_set=0))
    return out


def _free_shapes(v: Any) -> list[Shape]:
    S = v.win_size
    out = []
    fams = [("thirteen rotten", "147m258p369s12345z"), ("thirteen rotten, six honours", "147m258p36s123456z"),
            ("thirteen rotten, seven honours", "147m25p36s1234567z"), ("thirteen rotten, four honours", "147m258p369s1234z"),
            ("distinct but gap 2", "137m258p369s12345z"),
            ("terminals and honours", "119m19p19s1234567z"), ("terminals and honours, pairs", "11m99p119s1234567z")]
    for name, kinds in fams:
        ks = K(kinds)
        if len(ks) == S:
            out.append(Shape(name, [[k] for k in ks], pair=len(ks) - 1, first_set=len(ks) - 2))
    junk = K("123456789m125p19s4p7s3s6p")
    if v.wild is not None and v.wild.live >= 3 and S - 3 <= len(junk):
        out.append(Shape("three wilds", [[k] for k in junk[:S - 3]] + [[-1], [-1], [-1]]))
    return out


def _wild_variants(v: Any, sh: Shape) -> list[tuple[str, int | None, list[list[int]]]]:
    """(label, wild kind, groups with -1 for a wild) for the shape's wild placements."""
    flat = [k for g in sh.groups for k in g]
    if any(k == -1 for k in flat):  # three wilds: wilds of an absent kind
        kinds = [k for k in _wild_kinds(v) if k not in flat]
        return [("3 wilds", kinds[0], sh.groups)] if kinds else []
    base: list[tuple[str, int | None, list[list[int]]]] = [("no wild in the hand", None, sh.groups)]
    kinds = _wild_kinds(v)
    if not kinds:
        return base
    live = v.wild.live
    present = set(flat) | {k for m in sh.melds for k in K(m.strip("[]{}"))}
    absent = next((k for k in kinds if k not in present), None)
    out = base
    if absent is not None:
        out = [("no wild in the hand", absent, sh.groups)]

    def put(label: str, where: list[tuple[int, int]]) -> None:
        if len(where) > live or absent is None:
            return
        gs = [list(g) for g in sh.groups]
        for gi, ti in where:
            if gi is None or gi >= len(gs) or ti >= len(gs[gi]):
                return
            gs[gi][ti] = -1
        out.append((label, absent, gs))

    p, s = sh.pair, sh.first_set
    if p is not None:
        put("1 wild in the pair", [(p, len(sh.groups[p]) - 1)])
        put("2 wilds as the pair", [(p, 0), (p, 1)] if len(sh.groups[p]) > 1 else [(p, 0), (s, 0)])
    if s is not None:
        put("1 wild in a set", [(s, 0)])
        if p is not None:
            put("2 wilds, pair and set", [(p, len(sh.groups[p]) - 1), (s, 0)])
            if sh.family in ("sequences", "sequences, suited pair", "pairs", "pairs, suited", "thirteen rotten",
                             "terminals and honours"):
                put("3 wilds", [(p, 0), (p, len(sh.groups[p]) - 1), (s, 0)] if len(sh.groups[p]) > 1
                    else [(p, 0), (s, 0), (0, 0)])
    # face value: the wild kind is a kind already in the hand, as few times as possible
    melded = {k for m in sh.melds for k in K(m.strip("[]{}"))}
    face = sorted((flat.count(k), i, k) for i, k in enumerate(dict.fromkeys(flat)) if k in kinds and k not in melded)
    if face and face[0][0] <= min(2, live):
        out.append(("wild kind in the hand (face value)", face[0][2], sh.groups))
    return out


def family_candidates(v: Any, origin: str = "") -> list[Cand]:
    """Canonical situations of every shape of `v`, at its hand size and with its playable tiles."""
    ctxs = contexts(v)
    out: list[Cand] = []
    play = set(v.tiles.playable)
    shapes = [sh for sh in _std_shapes(v) + _pair_shapes(v) + _free_shapes(v)
              if all(k == -1 or k in play for g in sh.groups for k in g)
              and all(k in play for m in sh.melds for k in K(m.strip("[]{}")))]
    for fi, sh in enumerate(shapes):
        for wi, (wlabel, wk, groups) in enumerate(_wild_variants(v, sh)):
            concealed = [wk if k == -1 else k for g in groups for k in g]
            nw = sum(1 for k in concealed if k == wk) if wk is not None else 0
            # winning tiles: the pair's (or last group's) kind, a tile of the last set, a wild
            last = groups[sh.pair] if sh.pair is not None and sh.pair < len(groups) else groups[-1]
            wins = []
            for k in ([x for x in last if x != -1][-1:] + [groups[-2][1] if len(groups) > 1 and len(groups[-2]) > 2
                                                          else groups[-2][0] if len(groups) > 1 else concealed[0]]
                      + ([wk] if nw else [])):
                k = wk if k == -1 else k
                if k not in wins and k in concealed:
                    wins.append(k)
            wins = wins[:2]
            # every context for the basic placements; the costly many-wild readings only where they matter
            full = wlabel in ("no wild in the hand", "1 wild in the pair")
            n_ctx = len(ctxs) if full else 2 if wlabel in ("1 wild in a set", "2 wilds as the pair") or \
                "face" in wlabel or sh.family == "three wilds" else 1
            if not full:
                wins = wins[:1]
            for ci, (cname, ctx, ccost) in enumerate(ctxs):
                if ci >= n_ctx:
                    continue
                if ctx.get("win_by") == "dealt" and sh.melds:
                    continue
                for ti, wt in enumerate(wins):
                    if ctx.get("win_by") == "dealt" and ti:
                        break
                    sit: dict[str, Any] = dict(ctx)
                    sit["concealed"] = fmt_concealed(concealed, wk)
                    if sh.melds:
                        sit["melds"] = list(sh.melds)
                    if ctx.get("win_by") != "dealt":
                        sit["win_tile"] = tile_name(wt)
                    if wk is not None:
                        sit["wild"] = tile_name(wk)
                    fam = f"{sh.family}; {wlabel}; win on {tile_name(wt) if 'win_tile' in sit else '-'}; {cname}"
                    cost = (nw, sh.melded, len(ctx.get("flowers", [])), ccost, ti, fi, wi)
                    out.append(Cand(sit, fam, cost, origin))
            if sh.kong:  # a win on the kong's replacement tile
                sit = {"seat": 1, "win_by": "kong_replacement", "concealed": fmt_concealed(concealed, wk),
                       "melds": list(sh.melds), "win_tile": tile_name(wins[0])}
                if wk is not None:
                    sit["wild"] = tile_name(wk)
                out.append(Cand(sit, f"{sh.family}; {wlabel}; win on the kong replacement", (nw, 1, 0, 2, 0, fi, wi),
                                origin))
            if nw == 1 and v.rob_wild is not None and not sh.melds:  # robbing the indicator: it is one of the wilds
                sit = {"seat": 1, "win_by": "rob_gold", "concealed": fmt_concealed(concealed, wk), "win_tile": tile_name(wk),
                       "wild": tile_name(wk)}
                out.append(Cand(sit, f"{sh.family}; {wlabel}; robbing the wild indicator", (nw, 0, 0, 2, 0, fi, wi),
                                origin))
    return out


# ---- random search ---------------------------------------------------------------------------------------------

def random_candidate(v: Any, rng: random.Random, origin: str = "") -> Cand | None:
    S = v.win_size
    n = (S - 2) // 3
    play = [k for k in v.tiles.playable if k < N]
    suited = [k for k in play if k < 27 and k % 9 <= 6 and k + 2 in play]
    copies = v.tiles.copies
    shape = rng.random()
    groups: list[list[int]] = []
    if shape < 0.1 and S % 2 == 0:
        ks = rng.sample(play, S // 2)
        groups = [[k, k] for k in ks]
        n_sets = 0
    else:
        for _ in range(n):
            if suited and rng.random() < 0.6:
                k = rng.choice(suited)
                groups.append([k, k + 1, k + 2])
            else:
                groups.append([rng.choice(play)] * 3)
        groups.append([rng.choice(play)] * 2)
        n_sets = n
    c = [0] * N
    for g in groups:
        for k in g:
            c[k] += 1
    if any(c[k] > copies[k] for k in range(N)):
        return None
    melds = []
    if n_sets and rng.random() < 0.3:
        i = rng.randrange(n_sets)
        g = groups.pop(i)
        if g[0] != g[1]:
            melds.append("[" + format_tiles(g) + "]")
        else:
            r = rng.random()
            if r < 0.6:
                melds.append("[" + format_tiles(g) + "]")
            elif c[g[0]] < copies[g[0]]:
                melds.append(("[" if r < 0.8 else "{") + format_tiles(g + g[:1]) + ("]" if r < 0.8 else "}"))
            else:
                melds.append("[" + format_tiles(g) + "]")
    concealed = [k for g in groups for k in g]
    wk = None
    kinds = _wild_kinds(v)
    if kinds and rng.random() < 0.7:
        wk = rng.choice(kinds)
        if any(wk in K(m.strip("[]{}")) for m in melds):
            return None
        r = rng.choice([0, 1, 1, 2, 2])
        for i in rng.sample(range(len(concealed)), r):
            concealed[i] = wk
        if concealed.count(wk) > min(2, v.wild.live):  # more wilds: slow readings, and families cover them
            return None
    wt = rng.choice(concealed)
    name, ctx, ccost = rng.choice(contexts(v))
    sit: dict[str, Any] = dict(ctx)
    sit["concealed"] = fmt_concealed(concealed, wk)
    if melds:
        sit["melds"] = melds
    if ctx.get("win_by") == "dealt":
        if melds:
            return None
    else:
        sit["win_tile"] = tile_name(wt)
    if wk is not None:
        sit["wild"] = tile_name(wk)
    nw = concealed.count(wk) if wk is not None else 0
    return Cand(sit, f"random search; {name}", (nw, len(melds), len(ctx.get("flowers", [])), ccost, 9, 0, 0), origin)
