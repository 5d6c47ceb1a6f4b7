# cython: annotation_typing=False
"""What a game knows when the spec asks: the wall's retention, the settlement of a hand, and the next dealer.

The spec's game expressions (the retention, the settlement's payments and caps, the rotation) are evaluated by
the IR interpreter (mjrules.model.interp) against the table: `GameEnv` answers their builtins from a game's state.
A hand's outcome: the winners' own payments (their evaluate results), kong payments, hand-end and draw
payments, the cap, then the next dealer. Draws and retentions repeat, so both are remembered by what they read.
"""
from __future__ import annotations

import re
from typing import Any

from ..compiler.ir import Expr, Variant
from ..model.interp import Env, evaluate, flower_call, flower_complete, flower_fours
from ..model.settle import NO_SEAT, cap_losses, number, seats, transfers

_PAY_LINE = re.compile(r"^seat (\d+) pays seat (\d+) (-?[\d.]+)$")


class GameEnv(Env):
    """Expressions evaluated against the whole table: `g` is a Game (or a TableEnv's stand-in). In a payment,
    `payer` and `payee` are the pair asked; in on_win, `win` is the win being settled."""

    def __init__(self, g: Any):
        self.g = g
        self.extra_kongs = (0, 0)
        self.kong: dict[str, Any] | None = None
        self.win: Any = None
        self.payer = self.payee = -1
        self.shower = -1   # (an opening) the seat showing its dealt hand
        self.shown = 0     # ... and the counts of what it showed, summed
        self.win_claims = 0   # (an abort at wins) the players claiming a win on the tile on offer
        self.caller = -1      # (an abort on first_turn) the seat whose turn it is
        self.claimer = -1     # (a liability) the seat that claimed the discard
        self.win_place = 1    # (on_win) the place of the win being settled among the wins on its tile
        self.defines = _defines_of(g.v)
        self.seat_facts: dict[tuple[str, int], Any] = {}   # what a seat's hand says (ready, best value, ...), once

    def opt(self, name: str) -> Any:
        return self.g.r.options[name]

    def var(self, name: str) -> Any:
        got = _VARS.get(name)   # (one look-up: asked at every pair of a payment)
        if got is not None:
            where, fact = got
            if where == _TABLE:
                return fact(self, self.g)
            w = self.win
            if w is not None:   # the win being settled (on_win)
                return fact(self, self.g, w)
            if where == _WIN_OR_TABLE:
                return _TABLE_FACTS[name](self, self.g)
        raise KeyError(f"'{name}' is not known to the game")

    def call(self, name: str, args: tuple) -> Any:
        g = self.g
        got = _CALLS.get(name)   # (one look-up: asked at every pair of a payment)
        if got is not None:
            where, fn = got
            seat = int(args[0])
            if not 0 <= seat < g.n:
                raise ValueError(f"{name}({seat}): there is no seat {seat}")
            if where == _OF_GROUP:
                return fn(g.seats[seat], args[1])
            if where == _OF_HAND:   # the hands do not change while a settlement is asked: each once a seat
                key = (name, seat)
                got = self.seat_facts.get(key, _NONE)
                if got is _NONE:
                    got = self.seat_facts[key] = fn(g, seat)
                return got
            return fn(g, seat)
        if name == "first_discards_in":
            fr = g.first_round
            return len(fr) == g.n and len(set(fr)) == 1 and fr[0] in args[0]
        if name == "hits":
            seat = int(args[0])
            w = self.win if self.win is not None else g.winners[0] if g.winners else None
            return horse_hits(g, seat, w.seat if w is not None else -1, self.payer) if 0 <= seat < g.n else 0
        counts = []
        for s in g.seats:
            c = [0] * 42
            for k in s.flowers:
                c[k] += 1
            counts.append(c)
        return flower_call(name, args, counts, g.v.tiles.copies)

    def ref(self, kind: str, name: str) -> Any:
        if kind == "define":
            return evaluate(self.defines[name].expr, self)
        if self.win is not None and kind in ("pattern", "modifier", "event", "status"):
            r = self.win.result
            return name in r["patterns"] or r.get("status") == name
        if self.win is not None and kind == "fan":
            return dict(self.win.result.fans).get(name, 0)
        raise KeyError(f"{kind} {name} exists only while scoring a hand")


_DEFINES: dict[int, tuple[Any, dict[str, Any]]] = {}   # id(variant) -> (the variant, kept alive; its defines by name)


def _defines_of(v: Any) -> dict[str, Any]:
    """The variant's defines (the hand's and the table's) by name, made once a variant: a GameEnv is made for
    every settlement, rotation and liability, and reads them only by name."""
    hit = _DEFINES.get(id(v))
    if hit is None or hit[0] is not v:
        if len(_DEFINES) > 256:
            _DEFINES.clear()
        hit = _DEFINES[id(v)] = (v, {d.name: d for d in (*v.defines, *v.table_defines)})
    return hit[1]


def _clean_discards(s: Any, group: Any) -> bool:
    """Every discard of the seat is of the group, and none was claimed."""
    mask = s.discarded_mask
    if mask == 0 or s.called_away:
        return False
    for k in range(42):
        if (mask >> k) & 1 and k not in group:
            return False
    return True


# The table's functions of a seat and a tile group, each given the seat's holdings and the group's kinds.
def _held_in(counts: Any, group: Any) -> int:
    """The seat's concealed tiles of the group's kinds."""
    n = 0
    for k in group:
        n += counts[k]
    return n


def _kinds_in(counts: Any, group: Any) -> int:
    """The group's kinds of which the seat holds a concealed copy."""
    n = 0
    for k in group:
        if counts[k]:
            n += 1
    return n


def _melds_in(s: Any, group: Any) -> int:
    """The seat's pungs and kongs of a kind of the group."""
    n = 0
    for m in s.melds:
        if m.kind != "chi" and m.tiles[0] in group:
            n += 1
    return n


_SEAT_GROUP_FUNCTIONS = {
    "melds_in": _melds_in,
    "held_in": lambda s, group: _held_in(s.counts, group),
    "kinds_in": lambda s, group: _kinds_in(s.counts, group),
    "clean_discards": _clean_discards,
}



def _kongs(g: Any, extra: tuple[int, int], exposed: bool | None) -> int:
    """The kongs made at the table (exposed ones, concealed ones, or all: None), with the settlement's extra."""
    n = 0
    for s in g.seats:
        for m in s.melds:
            if m.kind == "kong" and (exposed is None or exposed != bool(m.concealed)):
                n += 1
    return n + (extra[0] if exposed else extra[1] if exposed is False else extra[0] + extra[1])


def _liable(env: Any, g: Any) -> int:
    """The seat liable for the win being settled, by a liability its result counts (-1: none)."""
    w = env.win
    if w is None:
        return -1
    r = w.result
    counted = set(r["patterns"]) | {f[0] for f in (r["fans"] if "fans" in r else ())}
    for seat, name_, who in g.liabilities:
        if seat == w.seat and name_ in counted:
            return who
    return -1


# the facts of the win being settled (on_win): (env, game, win) -> value
_WIN_FACTS: dict[str, Any] = {
    "value": lambda env, g, w: w.result["value"],
    "win_by": lambda env, g, w: w.win_by,
    "winner": lambda env, g, w: w.seat,
    "is_dealer": lambda env, g, w: w.seat == g.dealer,
    "horse_hits": lambda env, g, w: horse_hits(g, w.seat, w.seat, env.payer),
    "fed": lambda env, g, w: _feeder(g, w) >= 0,
    "win_place": lambda env, g, w: env.win_place,
}

# the facts of the table (and of the pair, the opening or the abort asked): (env, game) -> value
_TABLE_FACTS: dict[str, Any] = {
    "declared_players": lambda env, g: sum(1 for s in g.seats if s.declared_ready),
    "kong_players": lambda env, g: sum(1 for s in g.seats if s.kongs),
    "kongs_made": lambda env, g: g.kongs_made,
    "discards_made": lambda env, g: g.discard_count,
    "payer": lambda env, g: env.payer,
    "payee": lambda env, g: env.payee,
    "shower": lambda env, g: env.shower,
    "shown": lambda env, g: env.shown,
    "kongs_exposed": lambda env, g: _kongs(g, env.extra_kongs, True),
    "kongs_concealed": lambda env, g: _kongs(g, env.extra_kongs, False),
    "kongs": lambda env, g: _kongs(g, env.extra_kongs, None),
    "dealer": lambda env, g: g.dealer,
    "dealer_streak": lambda env, g: g.dealer_streak,
    "someone_won": lambda env, g: bool(g.winners),
    "winners": lambda env, g: len(g.winners),
    "dealer_won": lambda env, g: any(w.seat == g.dealer for w in g.winners),
    "robbed": lambda env, g: bool(env.kong and env.kong["robbed"]),
    "first_discards_match": lambda env, g: len(g.first_round) == g.n and len(set(g.first_round)) == 1,
    "win_claims": lambda env, g: env.win_claims,
    "caller": lambda env, g: env.caller,
    "claimer": lambda env, g: env.claimer,
    "liable": _liable,
    "aborted": lambda env, g: bool(g.aborted),
    "win_by": lambda env, g: g.winners[0].win_by if g.winners else "none",
    "player_count": lambda env, g: g.n,
    "first_winners": lambda env, g: getattr(g, "first_winners", 0),
    "players_in": lambda env, g: sum(1 for s in g.seats if not getattr(s, "out", False)),
    "wall_ended": lambda env, g: bool(getattr(g, "wall_ended", False)),
}


def _feeder(g: Any, w: Any) -> int:
    """Who fed the exposed kong whose replacement a win was drawn on (-1: none)."""
    return g.kong_feeder if w.win_by == "kong_replacement" else -1


def horse_hits(g: Any, seat: int, winner: int, payer: int = -1) -> int:
    """How many of the horses turned point at `seat`: each at the seat its map value counts, in play order, from
    the spec's `count_from` seat: the dealer, `winner` or `payer` (-1: none, so no hit)."""
    frm = g.r.horse_from
    base = winner if frm == "winner" else payer if frm == "payer" else g.dealer
    if base < 0 or not g.winners:   # horses set aside are turned only at a win
        return 0
    n = 0
    for k in g.horses:
        v = g.r.horse_seat[k]
        if v >= 0 and (base + v) % g.n == seat:
            n += 1
    return n


def _pre_draw(g: Any, seat: int, declared: bool = False) -> Any:
    """The seat's concealed hand as a pre-draw situation (its win_size - 1 tiles), for ready and best_value;
    `declared`: as if the seat had declared ready."""
    s = g.seats[seat]
    return g.situation_of(seat, tuple(g.hand(seat)), tuple(s.melds), -1, "discard", (seat + 1) % g.n, False,
                          declared=declared)


def _ready(g: Any, seat: int, declared: bool = False) -> bool:
    s = g.seats[seat]
    if s.nw_mask and g.holds(seat, s.nw_mask):  # it may not win holding these (a declaration): not ready
        return False
    if not g.may_be_ready(seat):   # no tile's shape fits: not ready, without building the situation
        return False
    try:
        return bool(g.engine.ready(_pre_draw(g, seat, declared)))
    except ValueError:  # a hand of another size (it won, say): not ready
        return False


def _ready_as_declared(g: Any, seat: int) -> bool:
    """The seat declared ready, or its hand would be ready were it declared."""
    return bool(g.seats[seat].declared_ready) or _ready(g, seat, True)


def _best_value(g: Any, seat: int) -> Any:
    s = g.seats[seat]
    if s.nw_mask and g.holds(seat, s.nw_mask):
        return 0
    try:
        return max((w["value"] for w in g.engine.waits(_pre_draw(g, seat))), default=0)
    except ValueError:
        return 0


def _suits_held(g: Any, seat: int) -> int:
    """The suits of which the seat holds a tile, concealed or in a meld (loops, not generators: compiled, a
    generator costs more than the test)."""
    s = g.seats[seat]
    counts, melded = s.counts, s.meld_counts
    n = 0
    for lo in (0, 9, 18):
        for k in range(lo, lo + 9):
            if counts[k] or melded[k]:
                n += 1
                break
    return n


def _held(g: Any, seat: int, least: int) -> int:
    counts = g.seats[seat].counts
    n = 0
    for k in range(len(counts)):
        if counts[k] >= least:
            n += 1
    return n


def _kong_money(g: Any, seat: int) -> Any:
    return number(sum(e["amount"] for e in g.ledger if e["kind"] == "kong" and e["to"] == seat))


_NONE = object()
# the seat functions that read only the seat's hand and whether it is still in (not the ledger, which payments grow)
_OF_THE_HAND = frozenset({"ready", "ready_as_declared", "best_value", "suits_held", "in_hand", "won", "held_fours", "held_pungs",
                          "held_pairs"})
_SEAT_FUNCTIONS = {
    "ready": _ready,
    "ready_as_declared": _ready_as_declared,
    "best_value": _best_value,
    "suits_held": _suits_held,
    "in_hand": lambda g, seat: not g.seats[seat].out,
    "won": lambda g, seat: any(w.seat == seat for w in g.winners),
    "kong_money": _kong_money,
    "held_fours": lambda g, seat: _held(g, seat, 4),
    "held_pungs": lambda g, seat: _held(g, seat, 3),
    "held_pairs": lambda g, seat: _held(g, seat, 2),
}


_TABLE, _WIN, _WIN_OR_TABLE = 0, 1, 2
# every variable of the table: name -> (where it is known, its function): a table fact (env, game); a fact of the
# win being settled (env, game, win), known only in on_win; or one of the win there and of the table elsewhere
_VARS: dict[str, tuple[int, Any]] = {
    **{name: (_TABLE, fn) for name, fn in _TABLE_FACTS.items()},
    **{name: (_WIN_OR_TABLE if name in _TABLE_FACTS else _WIN, fn) for name, fn in _WIN_FACTS.items()},
}
_OF_GROUP, _OF_HAND, _OF_SEAT = 0, 1, 2
# the table's functions of a seat: name -> (kind, function): of the seat and a group (seat, kinds), of the seat's
# hand (remembered once a seat in a settlement: game, seat), or of the seat (game, seat)
_CALLS: dict[str, tuple[int, Any]] = {
    **{name: (_OF_GROUP, fn) for name, fn in _SEAT_GROUP_FUNCTIONS.items()},
    **{name: (_OF_HAND if name in _OF_THE_HAND else _OF_SEAT, fn) for name, fn in _SEAT_FUNCTIONS.items()},
}


class _Seat:
    def __init__(self, flowers: Any = (), kongs: tuple[int, int] = (0, 0)):
        from ..model.tiles import Meld

        self.flowers = list(flowers)
        self.melds = [Meld("kong", (0,) * 4, i >= kongs[0]) for i in range(kongs[0] + kongs[1])]


class TableEnv(GameEnv):
    """GameEnv for a table outside any game (the options and what a key names): the rules' configuration and the
    memos' misses."""

    def __init__(self, rules: Any, dealer: int, streak: int, flowers: Any = None, kongs: tuple[int, int] = (0, 0)):
        class _Table:
            pass

        t = _Table()
        t.r, t.v, t.n, t.dealer, t.dealer_streak = rules, rules.v, rules.n, dealer, streak
        t.winners, t.first_round, t.discard_count = [], [], 0
        t.seats = [_Seat(f) for f in flowers] if flowers else [_Seat() for _ in range(rules.n)]
        t.seats[0].melds = _Seat((), kongs).melds
        super().__init__(t)


# the facts of a claimant the game knows before it looks at any tile: the bits of Rules.discard_win's index
DISCARD_WIN_FACTS = ("first_turn", "first_discard", "is_dealer", "declared_ready", "after_kong")


class _ClaimFacts(Env):
    def __init__(self, facts: dict[str, Any], options: dict[str, Any]):
        self.facts, self.options = facts, options

    def var(self, name: str) -> Any:
        return self.facts[name]

    def opt(self, name: str) -> Any:
        return self.options[name]


def discard_win_mask(v: Variant, options: dict[str, Any]) -> int:
    """The spec's `win_on_discard` condition as a mask over DISCARD_WIN_FACTS' combinations (bit i: the combination
    whose j-th fact is bit j of i): 0 when it never allows a win on a discard; every bit set where it reads anything
    else (the full judge decides). The game asks it before it tests a claimant's tiles: where a spec allows a
    discard win only in a window (the first discard, say), most discards can never be won on."""
    e = v.claims.win_on_discard
    if e is None:
        return 0
    full = (1 << (1 << len(DISCARD_WIN_FACTS))) - 1
    if not isinstance(e, Expr) or not e.names("var") <= set(DISCARD_WIN_FACTS) | {"win_by"} or e.names("call") \
            or e.names("ref"):
        return full
    mask = 0
    for i in range(1 << len(DISCARD_WIN_FACTS)):
        facts: dict[str, Any] = {n: bool(i >> j & 1) for j, n in enumerate(DISCARD_WIN_FACTS)}
        facts["win_by"] = "discard"
        try:
            ok = evaluate(e, _ClaimFacts(facts, options))
        except (KeyError, ValueError, TypeError, ArithmeticError):
            return full
        if ok:
            mask |= 1 << i
    return mask


_RETAIN_VARS = frozenset({"kongs_exposed", "kongs_concealed", "kongs", "dealer", "dealer_streak"})
_PURE_OPS = frozenset({"const", "enum", "group", "add", "sub", "mul", "div", "pow", "eq", "ne", "lt", "le", "gt",
                       "ge", "neg", "not", "and", "or", "if", "in", "max", "min"})


class RetentionPlan:
    """The wall's retention: `const` when it is a constant (else -1); otherwise remembered by what it reads (the
    kongs, the flowers, the dealer and his streak), where it reads nothing else."""

    def __init__(self, v: Variant):
        self.v = v
        e = v.wall.retain
        self.const = int(e.args[0]) if e.op == "const" else -1

        def pure(x: Expr) -> bool | None:
            if x.op == "var":
                return x.args[0] in _RETAIN_VARS
            if x.op in ("opt", "const", "enum", "group"):
                return True
            return None if x.op in _PURE_OPS or x.op in ("call", "ref") else False

        self.memo: dict | None = {} if self.const < 0 and every_node(v, [e], pure) else None
        self.reads = flower_reads(v, [e]) if self.memo is not None else None
        self.copies = v.tiles.copies
        self.seat_values: dict[tuple, tuple[int, ...]] = {}

    def retained(self, g: Any, extra_exposed: int, extra_concealed: int) -> int:
        if self.const >= 0:
            return self.const
        memo = self.memo
        key = None
        if memo is not None:
            exposed = concealed = 0
            for s in g.seats:
                for m in s.melds:
                    if m.kind == "kong":
                        if m.concealed:
                            concealed += 1
                        else:
                            exposed += 1
            if self.reads is None:
                flowers: Any = tuple([tuple(s.flowers) for s in g.seats])
            else:  # what the flower builtins it calls make of them (the same few values, hand after hand)
                flowers = _flower_values(self.reads, [s.flowers for s in g.seats], self.copies, self.seat_values) \
                    if self.reads else ()
            key = (id(g.r), g.dealer, g.dealer_streak, extra_exposed, extra_concealed, exposed, concealed, flowers)
            hit = memo.get(key)
            if hit is not None:
                return hit
        env = GameEnv(g)
        env.extra_kongs = (extra_exposed, extra_concealed)
        got = int(evaluate(self.v.wall.retain, env))
        if memo is not None:
            if len(memo) >= 100_000:
                memo.clear()
            memo[key] = got
        return got


def every_node(v: Any, exprs: list[Expr | None], check: Any) -> bool:
    """Walk game expressions, following each define they name once: check(e) says True (accept e without
    looking inside), False (reject: the answer is False) or None (look at e's sub-expressions)."""
    defines = {d.name: d.expr for d in (*v.defines, *v.table_defines)}
    seen: set[str] = set()

    def walk(e: Any) -> bool:
        verdict = check(e)
        if verdict is not None:
            return bool(verdict)
        if e.op == "ref":
            kind, name = e.args[0], e.args[1]
            if kind != "define" or name not in defines:
                return False
            if name in seen:
                return True
            seen.add(name)
            return walk(defines[name])
        return all(walk(y) for y in e.args if hasattr(y, "op"))

    return all(walk(e) for e in exprs if e is not None)


def flower_reads(v: Any, exprs: list[Expr | None]) -> list[tuple[int, tuple[int, ...]]] | None:
    """The flower builtins these game expressions call, as (0 flower_fours or 1 flower_complete, the group's
    kinds), when they read the flowers through nothing else and each group is fixed; else None."""
    out: list[tuple[int, tuple[int, ...]]] = []

    def check(e: Any) -> bool | None:
        a = e.args
        if e.op != "call" or a[0] in ("max", "min"):
            return None
        if a[0] not in ("flower_fours", "flower_complete") or len(a) != 2 or a[1].op != "group":
            return False
        kinds = tuple(a[1].args[1])
        out.append((0 if a[0] == "flower_fours" else 1, kinds))
        return len(set(kinds)) == len(kinds)

    return out if every_node(v, exprs, check) else None


class DrawMemo:
    """The settlement and rotation of hands nobody won, remembered by all they can read: the dealer and his
    streak, the first discards, every kong (kind, from whom, robbed), and the flowers (or the values of the
    flower builtins the settlement calls, when it reads them through nothing else)."""

    def __init__(self, v: Variant):
        st, rot = v.settlement, v.rotation
        exprs: list[Expr | None] = [st.cap_loss, st.cap_cond, rot.streak, *[r.cond for r in rot.rules]]
        for block in (st.draw, st.hand_end, st.kong_exposed, st.kong_added, st.kong_concealed):
            for pay in block:
                exprs += [pay.amount, pay.cond]
        for block in (st.wall_end,):
            for pay in block:
                exprs += [pay.amount, pay.cond]
        self.reads = flower_reads(v, exprs)
        self.copies = v.tiles.copies
        self.memo: dict[tuple, tuple] = {}
        self.seat_values: dict[tuple, tuple[int, ...]] = {}
        # remembered only where the settlement reads nothing of the hands (no seat functions, no pairs) and moves
        # no earlier payment
        self.usable = every_node(v, exprs, _draw_safe) and not any(
            p.action != "pay" for block in (st.draw, st.hand_end, st.wall_end, st.kong_exposed, st.kong_added,
                                           st.kong_concealed) for p in block)

    def key(self, g: Any) -> tuple:
        kongs = [[(k["kind"], k["from"], k["robbed"]) for k in s.kongs] for s in g.seats]
        if self.reads is None:
            fl: Any = tuple([tuple(s.flowers) for s in g.seats])
        elif self.reads:
            fl = _flower_values(self.reads, [s.flowers for s in g.seats], self.copies, self.seat_values)
        else:
            fl = ()
        fr = g.first_round
        return (id(g.r), g.dealer, g.dealer_streak, len(fr) == g.n and len(set(fr)) == 1,
                tuple([tuple(ks) for ks in kongs]) if any(kongs) else g.n, fl)

    def settle(self, g: Any) -> tuple[dict[int, Any], list[dict[str, Any]], int, int]:
        """(net, ledger, next dealer, streak) of a hand nobody won; the ledger is the caller's to keep."""
        key = self.key(g)
        hit = self.memo.get(key)
        if hit is None:
            env = GameEnv(g)
            net, ledger = settle_hand(g, env)
            hit = (net, ledger, *rotation(g, env))
            if len(self.memo) > 10_000:
                self.memo.clear()
            self.memo[key] = hit
        net, ledger, nxt, streak = hit
        return dict(net), [{**e, "rules": list(e["rules"])} if "rules" in e else dict(e) for e in ledger], nxt, streak


def _draw_safe(e: Any) -> bool | None:
    if e.op == "call":
        return False if e.args[0] in _SEAT_FUNCTIONS else None
    if e.op == "var":
        return e.args[0] not in ("payer", "payee", "players_in", "first_winners", "wall_ended", "discards_made")
    return None


def _flower_values(reads: list[tuple[int, tuple[int, ...]]], flowers: Any, copies: Any,
                   memo: dict[tuple, tuple[int, ...]]) -> tuple[int, ...]:
    """The values of the flower builtins `reads` for every seat's flowers (one sequence of kinds per seat),
    summed over the seats as GameEnv.call sums them; each seat's are remembered in `memo` by its flowers."""
    total = [0] * len(reads)
    for fl in flowers:
        key = tuple(fl)
        got = memo.get(key)
        if got is None:
            c = [0] * 42
            for k in fl:
                c[k] += 1
            got = tuple([flower_fours(c, kinds, copies) if code == 0 else flower_complete(c, kinds)
                         for code, kinds in reads])
            if len(memo) > 100_000:
                memo.clear()
            memo[key] = got
        for i in range(len(got)):
            total[i] += got[i]
    return tuple(total)


def settle(g: Any) -> dict[str, Any]:
    """The outcome of a finished hand: winners, net payments (the wins', those made during the hand, and the
    hand's end), the ledger, the next dealer and his streak (and the abortive draw that ended it, if one did)."""
    if g.winners or g.ledger or not g.r.draws.usable or g.aborted:
        env = GameEnv(g)   # (one for both: the seats' hand facts, ready say, are asked once)
        net, ledger = settle_hand(g, env)
        nxt, streak = rotation(g, env)
    else:
        net, ledger, nxt, streak = g.r.draws.settle(g)
    out = {"winners": [_winner(w) for w in g.winners],
           "payments": dict(sorted(net.items())), "ledger": ledger,
           "next_dealer": nxt, "next_streak": streak}
    if g.r.rd_stake:
        out["pot"] = _settle_pot(g, out["payments"], ledger)
    if g.aborted:
        out["aborted"] = g.aborted
    return out


def _settle_pot(g: Any, net: dict[int, Any], ledger: list[dict[str, Any]]) -> Any:
    """The ready declaration's stakes: each staker pays his stake into the pot, and the hand's first winner (the
    first in play order after the discarder, of several on one discard) takes the whole pot, the stakes carried in
    from earlier hands included. The pot left on the table for the next hand (0 when someone won)."""
    src = g.v.ready_declaration.src
    rule = src.rules[0] if src.rules else ""
    for seat, amount in g.stakes:
        net[seat] -= amount
        ledger.append({"from": seat, "to": None, "amount": amount, "rule": rule, "rules": list(src.rules),
                       "why": f"stake of seat {seat} into the pot"})
    if not g.winners or not g.pot:
        return g.pot
    w = g.winners[0].seat
    net[w] += g.pot
    ledger.append({"from": None, "to": w, "amount": g.pot, "rule": rule, "rules": list(src.rules),
                   "why": f"seat {w} takes the pot"})
    return 0


def _winner(w: Any) -> dict[str, Any]:
    """A winner in the outcome: seat, how, from whom, the pattern (and what follows it), the value; and the fans
    that counted, in a variant with fans."""
    r = w.result
    out = {"seat": w.seat, "win_by": w.win_by, "discarder": w.discarder, "pattern": r["pattern"],
           "patterns": list(r["patterns"]), "value": r["value"]}
    if "fans" in r:
        out["fans"] = [list(x) for x in r.fans]
    return out


def settle_hand(g: Any, env: GameEnv | None = None) -> tuple[dict[int, Any], list[dict[str, Any]]]:
    """Every payment of the hand: the wins' own (their evaluate results), those made during the hand (kongs paid
    at once, on_win), then kongs, hand-end, draw and wall-end payments, then the cap; sums to zero. `env`: the
    table's GameEnv to ask (its seats' hand facts shared with the rotation that follows), or a new one."""
    v = g.v
    net = {p: 0 for p in range(g.n)}
    ledger: list[dict[str, Any]] = []
    for w in g.winners if not v.settlement.on_win else ():   # (with on_win, play pays each win as it happens)
        for line in w.result["explain"]:
            m = _PAY_LINE.match(line["text"])
            if m:
                ledger.append({"from": int(m.group(1)), "to": int(m.group(2)), "amount": _amount(m.group(3)),
                               "rule": line["rule"], "rules": list(line["rules"]), "why": f"win by seat {w.seat}"})
        for p, amount in w.result["payments"].items():
            net[int(p)] += amount
    for e in g.ledger:
        _book(net, ledger, e)
    st = v.settlement
    if env is None:
        env = GameEnv(g)
    winner = g.winners[0].seat if g.winners else -1
    blocks = {"exposed": st.kong_exposed, "added": st.kong_added, "concealed": st.kong_concealed}
    for s_i, s in enumerate(g.seats):
        for kong in s.kongs:
            if g.r.at_once[_KONG_INDEX[kong["kind"]]]:
                continue  # paid when it was made
            env.kong = kong
            for e in payments(g, env, blocks[kong["kind"]], f"{kong['kind']} kong by seat {s_i}", winner=winner,
                              discarder=kong["from"], konger=s_i, kind="kong", kong_id=kong.get("id", 0)):
                _book(net, ledger, e)
            env.kong = None
    d = g.winners[0].discarder if g.winners else -1
    ends = [(st.hand_end, "hand end", True), (st.draw, "draw", not g.winners), (st.wall_end, "wall end", g.wall_ended)]
    for block, why, applies in ends:
        if applies and block:
            for e in payments(g, env, block, why, winner=winner, discarder=d, konger=-1, kind=why.replace(" ", "_")):
                _book(net, ledger, e)
    if st.cap_loss is not None and (st.cap_cond is None or evaluate(st.cap_cond, env)):
        cap = evaluate(st.cap_loss, env)
        capped = cap_losses(net, cap)
        if capped != net:
            ledger.append({"from": None, "to": None, "amount": 0, "rule": st.cap_src.rules[0] if st.cap_src and
                           st.cap_src.rules else "", "why": f"losses capped at {cap}"})
        net = capped
    return net, ledger


def _book(net: dict[int, Any], ledger: list[dict[str, Any]], e: dict[str, Any]) -> None:
    net[e["from"]] -= e["amount"]
    net[e["to"]] += e["amount"]
    ledger.append({k: x for k, x in e.items() if k not in ("kind", "kong", "kongs")})


_KONG_INDEX = {"exposed": 0, "added": 1, "concealed": 2}


def pay_kong_now(g: Any, seat: int, kong: dict[str, Any]) -> None:
    """A kong's payments when it is made (the spec's `kong KIND at_once`)."""
    st = g.v.settlement
    block = {"exposed": st.kong_exposed, "added": st.kong_added, "concealed": st.kong_concealed}[kong["kind"]]
    env = GameEnv(g)
    env.kong = kong
    entries = payments(g, env, block, f"{kong['kind']} kong by seat {seat}", winner=-1, discarder=kong["from"],
                       konger=seat, kind="kong", kong_id=kong["id"])
    _record(g, entries)


def pay_discard_now(g: Any, seat: int, block: Any, why: str) -> None:
    """A discard's payments the moment it is made, before anyone claims it (the spec's `discard` block at every
    discard, its `first_round` block at the one that makes one per player)."""
    _record(g, payments(g, GameEnv(g), block, f"{why}discard by seat {seat}", winner=-1, discarder=seat, konger=-1,
                        kind="discard"))


def pay_win_now(g: Any, winners: list[Any]) -> None:
    """The game's settlement of wins at the moment they happen (the spec's on_win block), each winner in turn."""
    block = g.v.settlement.on_win
    if not block:
        return
    env = GameEnv(g)
    order = sorted(winners, key=lambda w: (w.seat - w.discarder) % g.n)   # the nearest after the discarder first
    for w in winners:
        env.win = w
        env.win_place = order.index(w) + 1
        _record(g, payments(g, env, block, f"win by seat {w.seat}", winner=w.seat, discarder=w.discarder, konger=-1,
                            kind="win"))
    env.win = None


def _record(g: Any, entries: list[dict[str, Any]]) -> None:
    for e in entries:
        g.ledger.append(e)
        g.log.append(("pay", e["from"], e["to"], e["amount"], e["why"]))


def after_leaving(g: Any) -> int:
    """After a win where winners leave: 1 when play goes on (two or more still in, tiles to draw, `ends` false);
    0 when the hand ends with the win (fewer than two still in, or `ends` holds); -1 when it ends with the wall,
    which the win emptied (those still in are settled as at the wall's end)."""
    if sum(1 for s in g.seats if not s.out) < 2:
        return 0
    e = g.r.ends
    if e is not None and evaluate(e, GameEnv(g)):
        return 0
    return 1 if g.drawable > 0 else -1


def payments(g: Any, env: GameEnv, block: Any, why: str, *, winner: int, discarder: int, konger: int, kind: str,
             kong_id: int = 0) -> list[dict[str, Any]]:
    """The entries a settlement block makes now: each pay clause's transfers (mjrules.model.settle.transfers, its
    condition and amount asked of each pair where they name payer or payee), each refund and transfer of earlier
    kong payments, in the block's order."""
    out: list[dict[str, Any]] = []

    def ask(e: Expr, a: int, b: int) -> Any:
        env.payer, env.payee = a, b
        return evaluate(e, env)

    def seats_of(name: str, paying: bool) -> list[int]:
        if name == "shower":
            return [env.shower] if env.shower >= 0 else []
        if name == "liable":
            p = env.var("liable")
            return [p] if p >= 0 else []
        got = _seats(g, name, winner, discarder, konger)
        if paying and g.r.leave and name != "players":
            return [p for p in got if not g.seats[p].out]   # a player who left pays nothing more
        return got

    for pay in block:
        rules = list(pay.src.rules)
        rule = rules[0] if rules else ""
        if pay.action != "pay":
            out += _moves(g, env, pay, why, rule, rules, winner=winner, discarder=discarder, konger=konger,
                          earlier=out)
            continue
        for _, a, b, amount in transfers((pay,), ask, seats_of):
            out.append({"from": a, "to": b, "amount": amount, "rule": rule, "rules": rules, "why": why,
                        "kind": kind, "kong": kong_id})
        env.payer = env.payee = -1
    return out


def _moves(g: Any, env: GameEnv, pay: Any, why: str, rule: str, rules: list[str], *, winner: int, discarder: int,
           konger: int, earlier: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """refund: each earlier kong payment (of the latest kong, for last_kong) whose payer and payee meet the
    condition is paid back; transfer: what the payer received for those kongs goes on to the payee."""
    every = list(g.ledger) + earlier
    paid = [e for e in every if e["kind"] == "kong" and (pay.what == "kong" or e["kong"] == g.kongs_made)]
    kongs = {e["kong"] for e in paid}
    handed = [e for e in every if e["kind"] == "transfer" and kongs.intersection(e["kongs"])]  # already handed on
    out = []
    if pay.action == "refund":
        gone = {(e["from"], k) for e in every if e["kind"] == "transfer" for k in e["kongs"]}
        for e in paid:
            if (e["to"], e["kong"]) in gone:
                continue  # handed on already (呼叫转移): no longer the konger's to pay back
            env.payer, env.payee = e["to"], e["from"]
            if pay.cond is None or evaluate(pay.cond, env):
                out.append({"from": e["to"], "to": e["from"], "amount": e["amount"], "rule": rule, "rules": rules,
                            "why": f"{why}: {e['why']} paid back", "kind": "refund", "kong": e["kong"]})
    else:
        for a in _seats(g, pay.payer, winner, discarder, konger):
            for b in _seats(g, pay.payee, winner, discarder, konger):
                if a == b:
                    continue
                env.payer, env.payee = a, b
                got = sum(e["amount"] for e in paid if e["to"] == a) - sum(
                    e["amount"] for e in handed + out if e["from"] == a)
                if got > 0 and (pay.cond is None or evaluate(pay.cond, env)):
                    out.append({"from": a, "to": b, "amount": number(got), "rule": rule, "rules": rules,
                                "why": f"{why}: kong money handed on", "kind": "transfer",
                                "kong": max(kongs) if kongs else 0, "kongs": sorted(kongs)})
    env.payer = env.payee = -1
    return out


def _seats(g: Any, name: str, winner: int, discarder: int, konger: int) -> list[int]:
    """The seats a payment's player set names (mjrules.model.settle.seats): in a hand where winners leave, `others`
    and `non_dealers` are the players still in."""
    feeder = NO_SEAT
    if name == "feeder":
        w = next((x for x in g.winners if x.seat == winner), None)
        feeder = _feeder(g, w) if w is not None else NO_SEAT
    return seats(name, g.n, g.dealer, winner, discarder, konger, feeder,
                 [s.out for s in g.seats] if g.r.leave else None)


def rotation(g: Any, env: GameEnv | None = None) -> tuple[int, int]:
    """The next dealer and his streak, from the spec's ordered rotation rules (asked of `env`, or a new GameEnv)."""
    rot = g.v.rotation
    if env is None:
        env = GameEnv(g)
    env.payer = env.payee = -1
    target = "next"
    for r in rot.rules:
        if r.cond is None or evaluate(r.cond, env):
            target = r.target
            break
    nxt = (g.dealer + 1) % g.n
    if target == "dealer":
        nxt = g.dealer
    elif target == "winner" and g.winners:
        nxt = g.winners[0].seat
    elif target == "discarder" and g.winners and g.winners[0].discarder >= 0:
        nxt = g.winners[0].discarder
    elif target == "last_drawer":
        nxt = next((e[1] for e in reversed(g.log) if e[0] == "draw"), nxt)
    if rot.streak is not None:
        streak = int(evaluate(rot.streak, env))
    else:
        streak = g.dealer_streak + 1 if nxt == g.dealer and g.winners else 0
    return nxt, streak


def _amount(s: str) -> Any:
    """An amount written in a payment's explanation line, as a number."""
    return number(float(s))
