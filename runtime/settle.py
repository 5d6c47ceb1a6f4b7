"""Settlement: turns a spec's payment rules into per-seat amounts that sum to zero."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .compiler.ir import Expr, Payment, Src
from .frozen import FrozenDict, FrozenList
from .result import explain_line


def players_in(name: str, *, players: int, winner: int | None, discarder: int, dealer: int,
               konger: int | None = None) -> list[int]:
    """The seats a payment's player set names."""
    return _seats(name, players, winner, discarder, dealer, konger)


def _seats(name: str, players: int, winner: int | None, discarder: int, dealer: int,
           konger: int | None) -> list[int]:
    if name == "others":
        return list(range(players))
    if name == "winner":
        return [winner] if winner is not None else []
    if name == "discarder":
        return [discarder] if discarder >= 0 else []
    if name == "dealer":
        return [dealer]
    if name == "non_dealers":
        return [p for p in range(players) if p != dealer]
    if name == "konger":
        return [konger] if konger is not None else []
    raise ValueError(name)


def _transfers(payments: Iterable[Payment], ev: Callable[[Expr], Any], players: int, winner: int | None,
               discarder: int, dealer: int, konger: int | None) -> Iterator[tuple[Payment, int, int, Any]]:
    """(payment, payer, payee, amount) for each payment rule whose condition holds; every payer pays every
    payee (never himself)."""
    seats: dict[str, list[int]] = {}  # each player set named so far
    for pay in payments:
        if pay.cond is not None and not ev(pay.cond):
            continue
        amount = _num(ev(pay.amount))
        if not amount:
            continue
        payers = seats.get(pay.payer)
        if payers is None:
            payers = seats[pay.payer] = _seats(pay.payer, players, winner, discarder, dealer, konger)
        if not payers:
            continue
        payees = seats.get(pay.payee)
        if payees is None:
            payees = seats[pay.payee] = _seats(pay.payee, players, winner, discarder, dealer, konger)
        for a in payers:
            for b in payees:
                if a != b:
                    yield pay, a, b, amount


def apply_payments(payments: Iterable[Payment], ev: Callable[[Expr], Any], *, players: int, winner: int | None,
                   discarder: int, dealer: int, konger: int | None = None,
                   ledger: list[dict[str, Any]] | None = None) -> dict[int, float]:
    """Evaluate each payment rule whose condition holds; every payer pays every payee (never himself)."""
    net = dict.fromkeys(range(players), 0)
    for pay, a, b, amount in _transfers(payments, ev, players, winner, discarder, dealer, konger):
        net[a] -= amount
        net[b] += amount
        if ledger is not None:
            ledger.append({"from": a, "to": b, "amount": amount, "rule": _rule(pay.src),
                           "rules": list(pay.src.rules)})
    return net


def cap_losses(net: dict[int, float], cap: float) -> dict[int, float]:
    """Clamp each payer's loss to `cap`; receivers lose the excess in proportion to what they won."""
    out = dict(net)
    excess = 0.0
    for p, v in net.items():
        if v < -cap:
            excess += -cap - v
            out[p] = -cap
    gain = sum([v for v in net.values() if v > 0])
    if excess and gain:
        for p, v in net.items():
            if v > 0:
                out[p] = v - excess * v / gain
    return {p: v if type(v) is int else _num(v) for p, v in out.items()}


def _num(v: Any) -> Any:
    if type(v) is int:
        return v
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def _rule(src: Src) -> str:
    return src.rules[0] if src.rules else ""


def as_json_payments(net: dict[int, Any]) -> dict[str, Any]:
    return {str(p): v if type(v) is int else _num(v) for p, v in sorted(net.items())}


def settle_win(v: Any, s: Any, ev: Callable[[Expr], Any], explain: list[dict[str, Any]]) -> dict[str, Any]:
    """The win settlement of one winner: the spec's win payments, then the cap; each payment explained (its line
    read-only already: results share it)."""
    st, players, winner, discarder, dealer = v.settlement, v.players, s.seat, s.discarder, s.dealer
    # apply_payments(st.win, ...), each transfer written straight as its explanation line
    net = dict.fromkeys(range(players), 0)
    paid: list[dict[str, Any]] = []
    for pay, a, b, amount in _transfers(st.win, ev, players, winner, discarder, dealer, None):
        net[a] -= amount
        net[b] += amount
        src = pay.src
        paid.append(FrozenDict(rule=_rule(src), rules=FrozenList(src.rules), text=f"seat {a} pays seat {b} {amount}"))
    if st.cap_loss is not None and (st.cap_cond is None or ev(st.cap_cond)):
        cap = ev(st.cap_loss)
        for x in net.values():
            if x < -cap:  # cap_losses changes nothing (but _num) unless someone loses more than the cap
                capped = cap_losses(net, cap)
                if capped != net:
                    explain.append(explain_line(st.cap_src, f"losses capped at {cap}"))
                net = capped
                break
    explain += paid
    # as_json_payments(net): its keys are range(players) in order already
    return dict(zip(_SEAT_KEYS[:players] if players <= len(_SEAT_KEYS) else map(str, range(players)),
                    [x if type(x) is int else _num(x) for x in net.values()]))


_SEAT_KEYS = [str(p) for p in range(16)]
