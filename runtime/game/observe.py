"""A seat's observation as NumPy arrays: what it may see, in fixed shapes for learning agents.

    hand        int8[42]        the seat's concealed tiles by kind (1m..9m 1p..9p 1s..9s 1z..7z f1..f8)
    melds       int8[P, 42]     each seat's melded tiles by kind (a kong's four), seats counted from this one
    discards    int8[P, 42]     each seat's discards still on the table, likewise
    flowers     int8[P, 42]     each seat's scored flowers, likewise
    wild        int8[42]        1 at each wild kind, if any
    indicator   int8[42]        1 at the flipped indicator's kind, if any
    claim_tile  int8[42]        1 at the tile on offer (a discard to claim, a kong to rob), if any
    facts       int32[F]        seat, dealer (relative), to_act (relative, -1), phase, drawable, dealer_streak,
                                declared_ready of each seat (P), concealed count of each seat (P)
    legal       bool[N_ACTIONS] the seat's legal actions now (all False when it is not to decide)

P is the number of players. Relative seats count in play order from the observing seat (0 = itself).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .actions import N_ACTIONS, N_KINDS

FACT_NAMES = ("seat", "dealer", "to_act", "phase", "drawable", "dealer_streak")


def observe(g: Any, seat: int) -> dict[str, Any]:
    """The observation of `seat` in game g."""
    n = g.n
    order = [(seat + i) % n for i in range(n)]
    hand = np.frombuffer(bytearray(g.seats[seat].counts), dtype=np.int8)
    # every plane is filled as bytes, then viewed as NumPy arrays (element-wise NumPy writes cost more than the
    # bytes' worth of work)
    melds = bytearray()
    discards = bytearray(n * N_KINDS)
    flowers = bytearray(n * N_KINDS)
    for i, p in enumerate(order):
        s = g.seats[p]
        melds += s.meld_counts
        at = i * N_KINDS
        for k in s.discards:
            discards[at + k] += 1
        for k in s.flowers:
            flowers[at + k] += 1
    wild = bytearray(N_KINDS)
    if g.wild >= 0:
        wild[g.wild] = 1
    if g.wild2 >= 0:
        wild[g.wild2] = 1
    indicator = bytearray(N_KINDS)
    if g.indicator >= 0 and not g.indicator_taken:
        indicator[g.indicator] = 1
    claim = bytearray(N_KINDS)
    k = g.claim_tile
    if k >= 0:
        claim[k] = 1
    to_act = g.to_act
    facts = [0, (g.dealer - seat) % n, (to_act - seat) % n if to_act >= 0 else -1, g.phase, g.drawable,
             g.dealer_streak]
    facts += [int(g.seats[p].declared_ready) for p in order]
    facts += [g.seats[p].size for p in order]
    legal = np.zeros(N_ACTIONS, dtype=bool)
    ids = g.legal_ids(seat)
    if ids:
        legal[ids] = True
    i8 = np.int8
    return {"hand": hand, "melds": np.frombuffer(melds, dtype=i8).reshape(n, N_KINDS),
            "discards": np.frombuffer(discards, dtype=i8).reshape(n, N_KINDS),
            "flowers": np.frombuffer(flowers, dtype=i8).reshape(n, N_KINDS),
            "wild": np.frombuffer(wild, dtype=i8), "indicator": np.frombuffer(indicator, dtype=i8),
            "claim_tile": np.frombuffer(claim, dtype=i8), "facts": np.array(facts, dtype=np.int32), "legal": legal}
