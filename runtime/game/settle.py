"""What a game knows when the spec asks: the wall's retention, the settlement of a hand, and the next dealer.

The spec's game expressions (the retention, the settlement's payments and caps, the rotation) are evaluated by
the IR interpreter (mjrules.interp) against the table: `GameEnv` answers their builtins from a game's state.
A hand's outcome: the winners' own payments (their evaluate results), kong payments, hand-end and draw
payments, the cap, then the next dealer. Draws and retentions repeat, so both are remembered by what they read.
"""
from __future__ import annotations

import re
from typing import Any

from ..compiler.ir import Expr, Variant
from ..interp import Env, evaluate, flower_call, flower_complete, flower_fours
from ..settle import apply_payments, cap_losses

_PAY_LINE = re.compile(r"^seat (\d+) pays seat (\d+) (-?[\d.]+)$")


class GameEnv(Env):
    """Expressions evaluated against the whole table: `g` is a Game (or a TableEnv's stand-in)."""

    def __init__(self, g: Any):
        self.g = g
        self.extra_kongs = (0, 0)
        self.kong: dict[str, Any] | None = None
        self.defines = {d.name: d for d in g.v.defines}

    def opt(self, name: str) -> Any:
        return self.g.r.options[name]

    def var(self, name: str) -> Any:
        g = self.g
        melds = [m for s in g.seats for m in s.melds if m.kind == "kong"]
        if name == "kongs_exposed":
            return sum(not m.concealed for m in melds) + self.extra_kongs[0]
        if name == "kongs_concealed":
            return sum(m.concealed for m in melds) + self.extra_kongs[1]
        if name == "kongs":
            return len(melds) + sum(self.extra_kongs)
        if name == "dealer":
            return g.dealer
        if name == "dealer_streak":
            return g.dealer_streak
        if name == "someone_won":
            return bool(g.winners)
        if name == "winners":
            return len(g.winners)
        if name == "dealer_won":
            return any(w.seat == g.dealer for w in g.winners)
        if name == "robbed":
            return bool(self.kong and self.kong["robbed"])
        if name == "first_discards_match":
            fr = g.first_round
            return len(fr) == g.n and len(set(fr)) == 1
        if name == "win_by":
            return g.winners[0].win_by if g.winners else "none"
        raise KeyError(f"'{name}' is not known to the game")

    def call(self, name: str, args: tuple) -> Any:
        counts = []
        for s in self.g.seats:
            c = [0] * 42
            for k in s.flowers:
                c[k] += 1
            counts.append(c)
        return flower_call(name, args, counts, self.g.v.tiles.copies)

    def ref(self, kind: str, name: str) -> Any:
        if kind == "define":
            return evaluate(self.defines[name].expr, self)
        raise KeyError(f"{kind} {name} exists only while scoring a hand")


class _Seat:
    def __init__(self, flowers: Any = (), kongs: tuple[int, int] = (0, 0)):
        from ..tiles import Meld

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
        t.winners, t.first_round = [], []
        t.seats = [_Seat(f) for f in flowers] if flowers else [_Seat() for _ in range(rules.n)]
        t.seats[0].melds = _Seat((), kongs).melds
        super().__init__(t)


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
    defines = {d.name: d.expr for d in v.defines}
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
        self.reads = flower_reads(v, exprs)
        self.copies = v.tiles.copies
        self.memo: dict[tuple, tuple] = {}
        self.seat_values: dict[tuple, tuple[int, ...]] = {}

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
            net, ledger = settle_hand(g)
            hit = (net, ledger, *rotation(g))
            if len(self.memo) > 10_000:
                self.memo.clear()
            self.memo[key] = hit
        net, ledger, nxt, streak = hit
        return dict(net), [{**e, "rules": list(e["rules"])} if "rules" in e else dict(e) for e in ledger], nxt, streak


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
    """The outcome of a finished hand: winners, net payments, the ledger, the next dealer and his streak."""
    if g.winners:
        net, ledger = settle_hand(g)
        nxt, streak = rotation(g)
    else:
        net, ledger, nxt, streak = g.r.draws.settle(g)
    return {"winners": [{"seat": w.seat, "win_by": w.win_by, "discarder": w.discarder,
                         "pattern": w.result["pattern"], "patterns": list(w.result["patterns"]),
                         "value": w.result["value"]} for w in g.winners],
            "payments": {str(p): v for p, v in sorted(net.items())}, "ledger": ledger,
            "next_dealer": nxt, "next_streak": streak}


def settle_hand(g: Any) -> tuple[dict[int, Any], list[dict[str, Any]]]:
    """Every payment of the hand: wins, kongs, hand-end events and draws, then the cap; sums to zero."""
    v = g.v
    env = GameEnv(g)
    net = {p: 0 for p in range(g.n)}
    ledger: list[dict[str, Any]] = []
    for w in g.winners:
        for line in w.result["explain"]:
            m = _PAY_LINE.match(line["text"])
            if m:
                ledger.append({"from": int(m.group(1)), "to": int(m.group(2)), "amount": _num(m.group(3)),
                               "rule": line["rule"], "rules": list(line["rules"]), "why": f"win by seat {w.seat}"})
        for p, amount in w.result["payments"].items():
            net[int(p)] += amount

    def ev(e: Expr) -> Any:
        return evaluate(e, env)

    winner = g.winners[0].seat if g.winners else None
    blocks = {"exposed": v.settlement.kong_exposed, "added": v.settlement.kong_added,
              "concealed": v.settlement.kong_concealed}
    for s_i, s in enumerate(g.seats):
        for kong in s.kongs:
            env.kong = kong
            part: list[dict[str, Any]] = []
            add = apply_payments(blocks[kong["kind"]], ev, players=g.n, winner=winner, discarder=kong["from"],
                                 dealer=g.dealer, konger=s_i, ledger=part)
            env.kong = None
            _merge(net, add, ledger, part, f"{kong['kind']} kong by seat {s_i}")
    part = []
    add = apply_payments(v.settlement.hand_end, ev, players=g.n, winner=winner, discarder=-1, dealer=g.dealer,
                         ledger=part)
    _merge(net, add, ledger, part, "hand end")
    if not g.winners:
        part = []
        add = apply_payments(v.settlement.draw, ev, players=g.n, winner=None, discarder=-1, dealer=g.dealer,
                             ledger=part)
        _merge(net, add, ledger, part, "draw")
    st = v.settlement
    if st.cap_loss is not None and (st.cap_cond is None or ev(st.cap_cond)):
        capped = cap_losses(net, ev(st.cap_loss))
        if capped != net:
            ledger.append({"from": None, "to": None, "amount": 0, "rule": st.cap_src.rules[0] if st.cap_src and
                           st.cap_src.rules else "", "why": f"losses capped at {ev(st.cap_loss)}"})
        net = capped
    return net, ledger


def _merge(net: dict[int, Any], add: dict[int, Any], ledger: list, part: list, why: str) -> None:
    for p, a in add.items():
        net[p] += a
    for e in part:
        e["why"] = why
    ledger.extend(part)


def rotation(g: Any) -> tuple[int, int]:
    """The next dealer and his streak, from the spec's ordered rotation rules."""
    rot = g.v.rotation
    env = GameEnv(g)
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
    if rot.streak is not None:
        streak = int(evaluate(rot.streak, env))
    else:
        streak = g.dealer_streak + 1 if nxt == g.dealer and g.winners else 0
    return nxt, streak


def _num(s: str) -> Any:
    f = float(s)
    return int(f) if f.is_integer() else f
