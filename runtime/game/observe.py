# cython: annotation_typing=False
"""A seat's observation as NumPy arrays: what it may see, in fixed shapes for learning agents.

    hand        int8[42]        the seat's concealed tiles by kind (1m..9m 1p..9p 1s..9s 1z..7z f1..f8)
    melds       int8[P, 42]     each seat's melded tiles by kind (a kong's four), seats counted from this one
    discards    int8[P, 42]     each seat's discards still on the table, likewise
    flowers     int8[P, 42]     each seat's scored flowers, likewise
    wild        int8[42]        1 at each wild kind, if any
    indicator   int8[42]        1 at the flipped indicator's kind, if any
    claim_tile  int8[42]        1 at the tile on offer (a discard to claim, a kong to rob), if any
    facts       int32[F]        seat, dealer (relative), to_act (relative, -1), phase, drawable, dealer_streak,
                                prevalent_wind (0 East .. 3 North),
                                declared_ready of each seat (P), concealed count of each seat (P)
    legal       bool[N_ACTIONS] the seat's legal actions now (all False when it is not to decide)

P is the number of players. Relative seats count in play order from the observing seat (0 = itself). Compiled by
setup.py in Cython's pure-Python mode (typed by observe.pxd): the learning environments build an observation a step.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .actions import N_ACTIONS, N_KINDS

FACT_NAMES = ("seat", "dealer", "to_act", "phase", "drawable", "dealer_streak", "prevalent_wind")


def planes(g: Any, seat: int) -> tuple[bytearray, list[int]]:
    """The seat's tile planes laid end to end as int8 bytes: hand, melds, discards and flowers of each seat (in
    play order from this one), wild, indicator, claim_tile, each of N_KINDS ((4 + 3P) x N_KINDS in all); and its
    facts (FACT_NAMES, then declared_ready and the concealed count of each seat). observe() and the learning
    environments' encoding (mjrules.env.encoding) both read them."""
    n = g.n
    order = [(seat + i) % n for i in range(n)]
    out = bytearray((4 + 3 * n) * N_KINDS)
    out[0:N_KINDS] = g.seats[seat].counts[:N_KINDS]
    disc = N_KINDS * (1 + n)
    flow = N_KINDS * (1 + 2 * n)
    for i, p in enumerate(order):
        s = g.seats[p]
        at = N_KINDS * (1 + i)
        out[at:at + N_KINDS] = s.meld_counts[:N_KINDS]
        at = disc + i * N_KINDS
        for k in s.discards:
            out[at + k] += 1
        at = flow + i * N_KINDS
        for k in s.flowers:
            out[at + k] += 1
    at = N_KINDS * (1 + 3 * n)
    if g.wild >= 0:
        out[at + g.wild] = 1
    if g.wild2 >= 0:
        out[at + g.wild2] = 1
    if g.indicator >= 0 and not g.indicator_taken:
        out[at + N_KINDS + g.indicator] = 1
    k = g.claim_tile
    if k >= 0:
        out[at + 2 * N_KINDS + k] = 1
    to_act = g.to_act
    facts = [0, (g.dealer - seat) % n, (to_act - seat) % n if to_act >= 0 else -1, g.phase, g.drawable,
             g.dealer_streak, g.prevalent_wind]
    facts += [int(g.seats[p].declared_ready) for p in order]
    facts += [g.seats[p].size for p in order]
    return out, facts


def observe(g: Any, seat: int) -> dict[str, Any]:
    """The observation of `seat` in game g."""
    n = g.n
    b, facts = planes(g, seat)
    a = np.frombuffer(b, dtype=np.int8)
    legal = np.zeros(N_ACTIONS, dtype=bool)
    ids = g.legal_ids(seat)
    if ids:
        legal[ids] = True
    k, p = N_KINDS, n * N_KINDS
    return {"hand": a[:k], "melds": a[k:k + p].reshape(n, k), "discards": a[k + p:k + 2 * p].reshape(n, k),
            "flowers": a[k + 2 * p:k + 3 * p].reshape(n, k), "wild": a[k + 3 * p:2 * k + 3 * p],
            "indicator": a[2 * k + 3 * p:3 * k + 3 * p], "claim_tile": a[3 * k + 3 * p:],
            "facts": np.array(facts, dtype=np.int32), "legal": legal}
