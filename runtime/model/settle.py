"""Settlement, the one source: the seats a payment names, and the payments a block of pay clauses makes.

A single hand's `evaluate` (both back ends, through `settle_win`) and the game (mjrules.game.settle, for every
block: wins, kongs, discards, the hand's end) both build their payments here:

- `seats` is the one player-set resolver (`players`, `others`, `winner`, `discarder`, `dealer`, `non_dealers`,
  `konger`, `feeder`);
- `transfers` is the one payment builder: for each pay clause whose condition holds, every payer pays every payee
  (never himself) the clause's amount; a clause whose condition or amount reads `payer` or `payee` is asked of
  each pair, any other once;
- `cap_losses` clamps each payer's loss to a cap.

Every amount sums to zero over the seats. This module is compiled by setup.py in Cython's pure-Python mode.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import cython

from ..compiler.ir import Expr, Payment, Src
from .frozen import FrozenDict, FrozenList
from .result import explain_line

NO_SEAT = -1   # a role nobody holds (no winner yet, a self-draw's discarder, no kong)


def seats(name: str, players: int, dealer: int, winner: int = NO_SEAT, discarder: int = NO_SEAT,
          konger: int = NO_SEAT, feeder: int = NO_SEAT, out: Sequence[bool] | None = None) -> list[int]:
    """The seats a payment's player set names. `out`, where winners leave the hand and play goes on, says who has left: then
    `others` and `non_dealers` are the players still in (`players` is always every seat)."""
    if name == "players":
        return list(range(players))
    if name == "others":
        return [p for p in range(players) if not out[p]] if out is not None else list(range(players))
    if name == "winner":
        return [winner] if winner >= 0 else []
    if name == "discarder":
        return [discarder] if discarder >= 0 else []
    if name == "dealer":
        return [dealer]
    if name == "non_dealers":
        return [p for p in range(players) if p != dealer and not (out is not None and out[p])]
    if name == "konger":
        return [konger] if konger >= 0 else []
    if name == "feeder":
        return [feeder] if feeder >= 0 else []
    raise ValueError(name)


Ask = Callable[[Expr, int, int], Any]          # (expression, payer, payee) -> its value for that pair
SeatsOf = Callable[[str, bool], list[int]]     # (player set, as payers?) -> its seats


def transfers(block: Iterable[Payment], ask: Ask, seats_of: SeatsOf) -> Iterator[tuple[Payment, int, int, Any]]:
    """(clause, payer, payee, amount) for each pay clause of `block` whose condition holds and whose amount is not
    zero, for each payer and payee (never the same seat). A clause that reads neither `payer` nor `payee` is asked
    once (its condition first: when it fails, its amount is not asked); one that reads them is asked of each pair,
    its condition's `and` terms in order, a term that reads only the payer (only the payee) asked once a seat, and
    its amount asked of each pair only where the amount itself reads them (else once, at the first pair paying)."""
    for pay in block:
        pair = reads_pair(pay)
        if not pair and pay.cond is not None and not ask(pay.cond, NO_SEAT, NO_SEAT):
            continue
        payers = seats_of(pay.payer, True)
        if not payers:
            continue
        payees = seats_of(pay.payee, False)
        terms = conjuncts(pay) if pair and pay.cond is not None else None
        each = pair and amount_reads_pair(pay)   # (an amount that reads neither is the same for every pair)
        known: dict[int, Any] = {}
        amount = None
        for a in payers:
            for b in payees:
                if a == b:
                    continue
                if terms is not None and not _holds(terms, ask, known, a, b):
                    continue
                if each or amount is None:
                    amount = number(ask(pay.amount, a, b))
                if amount:
                    yield pay, a, b, amount


def cap_losses(net: dict[int, Any], cap: Any) -> dict[int, Any]:
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
    return {p: v if type(v) is int else number(v) for p, v in out.items()}


def number(v: Any) -> Any:
    """An amount as the results show it: a whole float as an int, a bool as 0 or 1."""
    if type(v) is int:
        return v
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def rule_of(src: Src | None) -> str:
    """The first rule id a clause cites ("" when it cites none)."""
    return src.rules[0] if src is not None and src.rules else ""


def settle_win(v: Any, s: Any, ev: Callable[[Expr], Any], explain: list[dict[str, Any]]) -> dict[str, Any]:
    """The win settlement of one winner (a single hand's evaluate): the spec's win payments, then the cap; each
    payment explained (its line read-only already: results share it). `ev` evaluates an expression of the win;
    a clause that reads `payer` or `payee` is the game's to settle (a hand alone names no other seat's state) and
    the checker refuses it in a win block, so ev is asked without them."""
    st, players, winner, discarder, dealer = v.settlement, v.players, s.seat, s.discarder, s.dealer
    net = dict.fromkeys(range(players), 0)
    paid: list[dict[str, Any]] = []
    named: dict[str, list[int]] = {}

    def seats_of(name: str, paying: bool) -> list[int]:
        got = named.get(name)
        if got is None:
            got = named[name] = seats(name, players, dealer, winner, discarder)
        return got

    for pay, a, b, amount in transfers(st.win, lambda e, a, b: ev(e), seats_of):
        net[a] -= amount
        net[b] += amount
        src = pay.src
        paid.append(FrozenDict(rule=rule_of(src), rules=FrozenList(src.rules), text=f"seat {a} pays seat {b} {amount}"))
    if st.cap_loss is not None and (st.cap_cond is None or ev(st.cap_cond)):
        cap = ev(st.cap_loss)
        for x in net.values():
            if x < -cap:  # cap_losses changes nothing (but number) unless someone loses more than the cap
                capped = cap_losses(net, cap)
                if capped != net:
                    explain.append(explain_line(st.cap_src, f"losses capped at {cap}"))
                net = capped
                break
    explain += paid
    # net's keys are the seats, range(players) in order already
    return {p: x if type(x) is int else number(x) for p, x in net.items()}


# ---- what a clause reads of the pair ------------------------------------------------------------------------
_PAIR_MEMO: dict[int, tuple[Any, bool]] = {}
_TERMS_MEMO: dict[int, tuple[Any, list[tuple[Expr, int]]]] = {}
_AMOUNT_MEMO: dict[int, tuple[Any, bool]] = {}
_NONE = object()


def _reads(e: Any) -> int:
    """Which of payer (1) and payee (2) the expression reads."""
    names = e.names("var") if isinstance(e, Expr) else ()
    return ("payer" in names) | ("payee" in names) << 1


def reads_pair(pay: Any) -> bool:
    """Does the clause's condition or amount read payer or payee (then they are asked of each pair)?"""
    hit = _PAIR_MEMO.get(id(pay))
    if hit is not None and hit[0] is pay:
        return hit[1]
    got = bool(_reads(pay.cond) or _reads(pay.amount))
    _PAIR_MEMO[id(pay)] = (pay, got)
    return got


def amount_reads_pair(pay: Any) -> bool:
    """Does the clause's amount read payer or payee (then it is asked of each pair; else once a clause)?"""
    hit = _AMOUNT_MEMO.get(id(pay))
    if hit is not None and hit[0] is pay:
        return hit[1]
    got = bool(_reads(pay.amount))
    _AMOUNT_MEMO[id(pay)] = (pay, got)
    return got


def conjuncts(pay: Any) -> list[tuple[Expr, int]]:
    """The clause's condition as its `and` terms in order, each with what of payer and payee it reads."""
    hit = _TERMS_MEMO.get(id(pay))
    if hit is not None and hit[0] is pay:
        return hit[1]
    c = pay.cond
    got = [(x, _reads(x)) for x in (c.args if c.op == "and" else (c,))]
    _TERMS_MEMO[id(pay)] = (pay, got)
    return got


@cython.locals(i=cython.Py_ssize_t, reads=cython.long, key=cython.long, seat=cython.long)
def _holds(terms: list[tuple[Expr, int]], ask: Ask, known: dict[int, Any], a: int, b: int) -> bool:
    """The condition for the pair (a, b), its terms asked in order as `and` asks them; a term that reads only the
    payer (only the payee, or neither) is asked once a seat (once) and remembered in `known`, by term and seat
    (term * 1024 + the seat + 1: a plain int key)."""
    for i in range(len(terms)):
        term, reads = terms[i]
        if reads == 3:
            ok = ask(term, a, b)
        else:
            seat = a if reads == 1 else b if reads == 2 else -1
            key = i * 1024 + seat + 1
            ok = known.get(key, _NONE)
            if ok is _NONE:
                ok = known[key] = ask(term, a, b)
        if not ok:
            return False
    return True
