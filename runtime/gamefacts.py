"""What a game knows when the spec asks: the wall, claim and settlement contexts, settlement and rotation."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .compiler.ir import Expr
from .interp import Env, evaluate, flower_call, flower_complete, flower_fours
from .settle import apply_payments, cap_losses

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

_PAY_LINE = re.compile(r"^seat (\d+) pays seat (\d+) (-?[\d.]+)$")


class GameEnv(Env):
    """Expressions evaluated against the whole table (wall retention, switches, settlement, rotation)."""

    def __init__(self, game: Game):
        self.g = game
        self.extra_kongs = (0, 0)
        self.kong: dict[str, Any] | None = None
        self.defines = _defines(game.v)
        self._flowers_key: tuple | None = None
        self._flower_counts: list[list[int]] = []

    def eval(self, e: Expr, ctx: str) -> Any:
        return evaluate(e, self)

    def opt(self, name: str) -> Any:
        return self.g.options[name]

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
        key = tuple([tuple(s.flowers) for s in self.g.seats])
        if key != self._flowers_key:  # every seat's flower counts, counted again only when the flowers change
            counts = []
            for fl in key:
                c = [0] * 42
                for k in fl:
                    c[k] += 1
                counts.append(c)
            self._flowers_key, self._flower_counts = key, counts
        return flower_call(name, args, self._flower_counts, self.g.v.tiles.copies)

    def ref(self, kind: str, name: str) -> Any:
        if kind == "define":
            return evaluate(self.defines[name].expr, self)
        raise KeyError(f"{kind} {name} exists only while scoring a hand")


_DEFINES: dict[int, tuple[Any, dict[str, Any]]] = {}


def _defines(v: Any) -> dict[str, Any]:
    """The variant's defines by name (made once per variant)."""
    hit = _DEFINES.get(id(v))
    if hit is None or hit[0] is not v:
        hit = _DEFINES[id(v)] = (v, {d.name: d for d in v.defines})
    return hit[1]


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
    kinds), when they read the flowers through nothing else and each group is fixed (a literal of distinct
    kinds); else None. Their values (GameEnv.call sums them over the seats) then stand for the flowers."""
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


def flower_values(reads: list[tuple[int, tuple[int, ...]]], flowers: Any, copies: tuple[int, ...]) -> tuple[int, ...]:
    """The values of flower_reads' builtins for the seats' flowers (one sequence of kinds per seat), as
    GameEnv.call computes them."""
    counts = []
    for fl in flowers:
        c = [0] * 42
        for k in fl:
            c[k] += 1
        counts.append(c)
    return tuple([sum(flower_fours(c, kinds, copies) if code == 0 else flower_complete(c, kinds) for c in counts)
                  for code, kinds in reads])


class DrawMemo:
    """settle_hand and rotation of hands nobody won, remembered by all they can read: the dealer and his streak,
    the first discards, every kong (kind, from whom, robbed), and the flowers (or the values of the flower
    builtins the settlement calls, when it reads them through nothing else). One per variant and options."""

    def __init__(self, v: Any):
        st, rot = v.settlement, v.rotation
        exprs: list[Expr | None] = [st.cap_loss, st.cap_cond, rot.streak, *[r.cond for r in rot.rules]]
        for block in (st.draw, st.hand_end, st.kong_exposed, st.kong_added, st.kong_concealed):
            for pay in block:
                exprs += [pay.amount, pay.cond]
        self.reads = flower_reads(v, exprs)
        self.copies = v.tiles.copies
        self.memo: dict[tuple, tuple] = {}

    def key(self, g: Game) -> tuple:
        kongs = [s.kongs for s in g.seats]
        return self.key_of(g.dealer, g.dealer_streak, g.n, g.first_round,
                           [[(k["kind"], k["from"], k["robbed"]) for k in ks] for ks in kongs] if any(kongs) else (),
                           [s.flowers for s in g.seats])

    def key_of(self, dealer: int, streak: int, n: int, first_round: Any, kongs: Any, flowers: Any) -> tuple:
        """key() from the pieces it reads: kongs is one sequence of (kind, from, robbed) per seat, or empty when
        nobody has a kong; flowers one sequence of kinds per seat."""
        fl = (tuple([tuple(f) for f in flowers]) if self.reads is None else
              flower_values(self.reads, flowers, self.copies) if self.reads else ())
        return (dealer, streak, len(first_round) == n and len(set(first_round)) == 1,
                tuple([tuple(ks) for ks in kongs]) if kongs else n, fl)

    def lookup(self, key: tuple) -> tuple[dict[int, Any], list[dict[str, Any]], int, int] | None:
        """settle()'s answer for a key already settled, else None."""
        hit = self.memo.get(key)
        if hit is None:
            return None
        net, ledger, nxt, streak = hit
        return dict(net), [{**e, "rules": list(e["rules"])} if "rules" in e else dict(e) for e in ledger], nxt, streak

    def settle(self, g: Game) -> tuple[dict[int, Any], list[dict[str, Any]], int, int]:
        """(net, ledger, next dealer, streak) of a hand nobody won; the ledger is the caller's to keep."""
        key = self.key(g)
        got = self.lookup(key)
        if got is None:
            net, ledger = settle_hand(g)
            nxt, streak = rotation(g)
            if len(self.memo) > 10_000:
                self.memo.clear()
            self.memo[key] = (net, ledger, nxt, streak)
            got = self.lookup(key)
        return got


def settle_hand(g: Game) -> tuple[dict[int, Any], list[dict[str, Any]]]:
    """Every payment of the hand: wins, kongs, hand-end events and draws, then the cap; sums to zero."""
    v, env = g.v, g.env
    net = {p: 0 for p in range(g.n)}
    ledger: list[dict[str, Any]] = []
    for w in g.winners:
        for line in w.result["explain"]:
            m = _PAY_LINE.match(line["text"])
            if m:
                ledger.append({"from": int(m.group(1)), "to": int(m.group(2)), "amount": _num(m.group(3)),
                               "rule": line["rule"], "rules": line["rules"], "why": f"win by seat {w.seat}"})
        for p, amount in w.result["payments"].items():
            net[int(p)] += amount
    ev = lambda e: env.eval(e, "game")
    winner = g.winners[0].seat if g.winners else None
    for s_i, s in enumerate(g.seats):
        for kong in s.kongs:
            block = {"exposed": v.settlement.kong_exposed, "added": v.settlement.kong_added,
                     "concealed": v.settlement.kong_concealed}[kong["kind"]]
            env.kong = kong
            part: list[dict[str, Any]] = []
            add = apply_payments(block, ev, players=g.n, winner=winner, discarder=kong["from"], dealer=g.dealer,
                                 konger=s_i, ledger=part)
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


def rotation(g: Game) -> tuple[int, int]:
    """The next dealer and his streak, from the spec's ordered rotation rules."""
    rot, env = g.v.rotation, g.env
    target = "next"
    for r in rot.rules:
        if r.cond is None or env.eval(r.cond, "rotation"):
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
        streak = int(env.eval(rot.streak, "rotation"))
    else:
        streak = g.dealer_streak + 1 if nxt == g.dealer and g.winners else 0
    return nxt, streak


def _num(s: str) -> Any:
    f = float(s)
    return int(f) if f.is_integer() else f
