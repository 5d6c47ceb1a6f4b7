"""The steps every player takes at once before play: exchanges of tiles (换三张), declarations (定缺) and hands
shown at the deal (起手胡).

An exchange asks every seat to pick its tiles one at a time (action SELECT + kind; with same_suit, all of one
suit), and passes them all at once when every seat has picked; a declaration asks every seat to name one of
its choices (action CHOOSE + index) and binds what the spec says for the rest of the hand: the chosen group's
tiles are discarded first, never claimed, never held in a win. The seats answer in any order; what one picks
is hidden from the others until the step ends.

Hands shown at the deal ask each seat whose dealt hand qualifies for one of the spec's `opening`s: it shows them
one at a time (CHOOSE + the opening's index, among those it qualifies for and has not shown) until it passes
(PASS) or has none left. Each show is logged with the hand shown. When every seat has done, the settlement's
`opening` block pays each seat that showed, in play order from the dealer, and play begins.
"""
from __future__ import annotations

from typing import Any

from ..model.interp import evaluate
from .actions import CHOOSE, DECLARE, EXCHANGE, N_KINDS, PASS, SELECT

_OFFSET = {"next": 1, "previous": -1, "opposite": 2}


def open_exchange(g: Any, x: Any) -> None:
    """Ask every seat for the first tile it passes in exchange `x`."""
    g.phase = EXCHANGE
    order = [(g.dealer + i) % g.n for i in range(g.n)]
    for p in order:
        g.seats[p].picks = []
    g.ask_seats(order, {p: _selectable(g, p, x) for p in order})


def _selectable(g: Any, seat: int, x: Any) -> list[int]:
    """The tiles the seat may pick next: any it holds, or with same_suit those of the suit of its first pick (at
    the first pick, of a suit it holds enough of)."""
    s = g.seats[seat]
    if x.same_suit:
        if s.picks:
            lo = s.picks[0] // 9 * 9
            return [SELECT + k for k in range(lo, lo + 9) if s.counts[k]]
        out = []
        for lo in (0, 9, 18):
            if sum(s.counts[lo:lo + 9]) >= x.count:
                out += [SELECT + k for k in range(lo, lo + 9) if s.counts[k]]
        if out:
            return out
    return [SELECT + k for k in range(N_KINDS) if s.counts[k]]


def open_declaration(g: Any, d: Any) -> None:
    """Ask every seat for its choice in declaration `d`."""
    g.phase = DECLARE
    order = [(g.dealer + i) % g.n for i in range(g.n)]
    g.ask_seats(order, {p: [CHOOSE + i for i in range(len(d.choices))] for p in order})


class OpeningStep:
    """The hands shown at the deal: the spec's openings (the step's `choices`, in CHOOSE order) and the settlement
    block that pays each seat that showed."""

    def __init__(self, openings: Any, block: Any):
        self.choices = tuple(openings)
        self.block = tuple(block)


def _qualifies(g: Any, seat: int, step: OpeningStep) -> list[tuple[int, int]]:
    """(index, count) of each opening the seat's dealt hand qualifies for, its count above zero."""
    from .settle import GameEnv

    env = GameEnv(g)
    env.shower = seat
    out = []
    for i, o in enumerate(step.choices):
        if evaluate(o.cond, env):
            n = int(evaluate(o.count, env))
            if n > 0:
                out.append((i, n))
    return out


def open_opening(g: Any, step: OpeningStep) -> None:
    """Ask each seat whose dealt hand qualifies for an opening whether it shows it; with none, go on to play."""
    legal = {}
    g.opening_counts = []
    for i in range(g.n):
        p = (g.dealer + i) % g.n
        got = _qualifies(g, p, step)
        if got:
            g.opening_counts += [(p, j, n) for j, n in got]
            legal[p] = [CHOOSE + j for j, _ in got] + [PASS]
    if not legal:
        g.start_play()
        return
    g.phase = DECLARE
    g.ask_seats(list(legal), legal)


def _opening_answered(g: Any, seat: int, a: int, step: OpeningStep) -> None:
    if a != PASS:
        j = a - CHOOSE
        g.shown.append((seat, j))
        hand = tuple(k for k in range(N_KINDS) for _ in range(g.seats[seat].counts[k]))
        g.log.append(("show", seat, step.choices[j].name, _count(g, seat, j), hand))
        left = [x for x in g.legal[seat] if x != a]
        if len(left) > 1:   # more it may show: it answers again
            del g.answers[seat]
            g.legal[seat] = left
            return
    if len(g.answers) < len(g.asking):
        return
    g.asking, g.legal, g.answers = [], {}, {}
    _pay_openings(g, step)
    g.start_play()


def _count(g: Any, seat: int, j: int) -> int:
    return next(n for p, i, n in g.opening_counts if p == seat and i == j)


def _pay_openings(g: Any, step: OpeningStep) -> None:
    from .settle import GameEnv, _record, payments

    env = GameEnv(g)
    for i in range(g.n):
        p = (g.dealer + i) % g.n
        shown = [j for s, j in g.shown if s == p]
        if not shown:
            continue
        env.shower = p
        env.shown = sum(_count(g, p, j) for j in shown)
        names = " ".join(step.choices[j].name for j in shown)
        _record(g, payments(g, env, step.block, f"opening {names} shown by seat {p}", winner=-1, discarder=-1,
                            konger=-1, kind="opening"))
    env.shower = -1


def answered(g: Any, seat: int, a: int) -> None:
    """A seat's answer in an exchange, a declaration or the hands shown at the deal (the game has checked it is
    legal and logged it)."""
    step = g.r.pre[g.pre_step - 1][1]
    if isinstance(step, OpeningStep):
        _opening_answered(g, seat, a, step)
        return
    if g.phase == EXCHANGE:
        s = g.seats[seat]
        k = a - SELECT
        s.counts[k] -= 1
        s.size -= 1
        s.picks.append(k)
        if len(s.picks) < step.count:
            del g.answers[seat]  # it picks again
            g.legal[seat] = _selectable(g, seat, step)
            return
    if len(g.answers) < len(g.asking):
        return
    answers = g.answers
    g.asking, g.legal, g.answers = [], {}, {}
    if g.phase == EXCHANGE:
        _pass_tiles(g, step)
    else:
        _bind(g, step, answers)
    g.start_play()  # the next step before play, or play


def _pass_tiles(g: Any, x: Any) -> None:
    moves = []
    for p in range(g.n):
        s = g.seats[p]
        to = (p + _OFFSET[x.to]) % g.n
        moves.append((p, to, list(s.picks)))
        s.picks = []
    for p, to, tiles in moves:
        t = g.seats[to]
        for k in tiles:
            t.counts[k] += 1
            t.size += 1
        g.log.append(("exchange", p, to, tuple(sorted(tiles))))


def _bind(g: Any, d: Any, answers: dict[int, int]) -> None:
    for p in range(g.n):
        choice = d.choices[answers[p] - CHOOSE]
        s = g.seats[p]
        s.choices.append(choice.name)
        mask = 0
        for k in choice.kinds:
            mask |= 1 << k
        if d.discard_first:
            s.df_mask |= mask
        if d.no_claim:
            s.nc_mask |= mask
        if d.no_win_holding:
            s.nw_mask |= mask
        g.log.append(("declare", p, d.name, choice.name))
