"""Riichi's exhaustive draw (RI-75, RI-76) as tests/data/riichi.mj says it with general constructs: a player is
tenpai when he declared riichi or his hand would be ready were it declared (`ready_as_declared`: no yaku needed,
waits on kinds he holds all four of not counted); the noten players pay 3000 in all to the tenpai ones, and the
dealer keeps the deal when he is tenpai. Checked on greedy games against the `mahjong` package's agari test (an
independent shape test), where it is installed."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import mjrules
import pytest
from mjrules.game import play_hand

SPEC = str(Path(__file__).parent / "data" / "riichi.mj")
mahjong_agari = pytest.importorskip("mahjong.agari", reason="the `mahjong` package (extra `oracles`) is not installed")


@pytest.fixture(scope="module")
def native():
    return mjrules.load(SPEC, backend="native")


def tenpai(g, seat: int) -> bool:
    """The oracle's tenpai: declared, or some kind the player does not hold all four of completes his concealed
    tiles into a winning shape (four sets and a pair less the melds, seven different pairs, thirteen orphans)."""
    s = g.seats[seat]
    if s.declared_ready:
        return True
    c = Counter(g.hand(seat))
    held = Counter(c)
    for m in s.melds:
        held.update(m.tiles)
    agari = mahjong_agari.Agari()
    for k in range(34):
        if held[k] >= 4:
            continue
        t = [c[i] for i in range(34)]
        t[k] += 1
        if agari.is_agari(t):
            if sum(t) == 14 and not _standard(t) and any(x == 4 for x in t):
                continue   # seven "pairs" with four alike: not a winning shape (RI-12)
            return True
    return False


def _standard(t: list[int]) -> bool:
    """Four sets and a pair (or fewer sets, for a hand with melds) in the counts t."""
    t = list(t)
    for p in range(34):
        if t[p] >= 2:
            t[p] -= 2
            if _sets(t, 0):
                return True
            t[p] += 2
    return False


def _sets(t: list[int], i: int) -> bool:
    while i < 34 and t[i] == 0:
        i += 1
    if i == 34:
        return True
    if t[i] >= 3:
        t[i] -= 3
        ok = _sets(t, i)
        t[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and t[i + 1] and t[i + 2]:
        t[i] -= 1
        t[i + 1] -= 1
        t[i + 2] -= 1
        ok = _sets(t, i)
        t[i] += 1
        t[i + 1] += 1
        t[i + 2] += 1
        return ok
    return False


def test_the_exhaustive_draw_pays_noten_to_tenpai_and_keeps_a_tenpai_dealer(native):
    draws = shapes = 0
    for seed in range(120):
        g = play_hand(native, ["greedy"], seed=seed)
        o = g.outcome
        if o["winners"] or not g.wall_ended:
            continue
        draws += 1
        ready = [tenpai(g, p) for p in range(4)]
        t = sum(ready)
        want: dict[tuple[int, int], int] = {}
        if 0 < t < 4:
            for a in range(4):
                for b in range(4):
                    if not ready[a] and ready[b]:
                        want[(a, b)] = 3000 // (t * (4 - t))
        got = {(e["from"], e["to"]): e["amount"] for e in o["ledger"] if e["rule"] == "RI-75"}
        assert got == want, (seed, ready, [g.hand(p) for p in range(4)])
        shapes += t
        assert (o["next_dealer"] == g.dealer) == ready[g.dealer], seed   # RI-76
        assert o["next_streak"] == g.dealer_streak + 1                    # RI-76: every drawn hand adds a honba
    assert draws >= 10 and shapes >= 5   # the greedy games reach draws with tenpai players
