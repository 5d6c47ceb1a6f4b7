"""What a game knows when the spec asks: the wall, claim and settlement contexts, settlement and rotation."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .compiler.ir import Expr
from .interp import Env, evaluate, flower_call
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
        self.defines = {d.name: d for d in game.v.defines}
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
