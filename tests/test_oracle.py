"""An independent oracle: for hands without wilds, the standard shape (and distinct seven pairs) agree with
the `mahjong` package's Agari.is_agari, and ready hands' waits agree with its Shanten."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from mjrules.model.situation import Situation
from optional import need

mahjong_agari = need("mahjong.agari")
mahjong_shanten = need("mahjong.shanten")

ORACLE = str(Path(__file__).parent / "data" / "oracle.mj")
# our kinds 27..33 are 東南西北中發白; Tenhou's are 東南西北白發中
TO_TENHOU = list(range(27)) + [27, 28, 29, 30, 33, 32, 31]
KOKUSHI = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33}
# hands checked per backend: the reference is a plain interpreter, so it gets fewer
COUNTS = {"native": 100_000, "reference": 30_000}


def tenhou34(hand: list[int]) -> list[int]:
    out = [0] * 34
    for k in hand:
        out[TO_TENHOU[k]] += 1
    return out


def complete_hand(rng: random.Random) -> list[int]:
    """A random 4 sets + pair within the four-copy limit."""
    while True:
        counts = [0] * 34
        hand: list[int] = []
        for _ in range(4):
            if rng.random() < 0.35:
                k = rng.randrange(34)
                group = [k, k, k]
            else:
                suit, r = rng.randrange(3), rng.randrange(7)
                group = [suit * 9 + r + i for i in range(3)]
            hand += group
        k = rng.randrange(34)
        hand += [k, k]
        for t in hand:
            counts[t] += 1
        if max(counts) <= 4:
            return sorted(hand)


def sample(rng: random.Random, n: int) -> list[list[int]]:
    """Random hands, complete hands, complete hands with one or two tiles changed, and seven-pairs shapes."""
    wall = [k for k in range(34) for _ in range(4)]
    out = []
    while len(out) < n:
        kind = rng.randrange(5)
        if kind == 0:
            h = sorted(rng.sample(wall, 14))
        elif kind == 4:
            ks = rng.sample(range(34), 7)
            h = sorted(ks + ks)
            if rng.random() < 0.5:
                h[rng.randrange(14)] = rng.randrange(34)
        else:
            h = complete_hand(rng)
            for _ in range(kind - 1):
                h[rng.randrange(14)] = rng.randrange(34)
        h = sorted(h)
        if max(h.count(k) for k in set(h)) > 4 or set(h) <= KOKUSHI and len(set(h)) == 13:
            continue
        out.append(h)
    return out


def test_verdicts_agree_with_agari(backend, load):
    eng = load(ORACLE)
    agari = mahjong_agari.Agari()
    rng = random.Random(20261130)
    hands = sample(rng, COUNTS[backend])
    wins = 0
    for h in hands:
        s = Situation(concealed=tuple(h), win_tile=h[0])
        ours = eng.evaluate(s)["win"]
        theirs = agari.is_agari(tenhou34(h))
        assert ours == theirs, h
        wins += ours
    assert wins > len(hands) // 10, "the sample must hold plenty of winning hands"


def test_waits_agree_with_shanten(backend, load):
    eng = load(ORACLE)
    sh = mahjong_shanten.Shanten()
    rng = random.Random(7)
    checked = 0
    for _ in range(COUNTS[backend] // 40):
        h = complete_hand(rng) if rng.random() < 0.8 else sorted(rng.sample(range(34), 7) * 2)
        h.pop(rng.randrange(14))
        if sh.calculate_shanten(tenhou34(h), use_kokushi=False) != 0:
            continue
        theirs = [k for k in range(34) if h.count(k) < 4
                  and sh.calculate_shanten(tenhou34(h + [k]), use_kokushi=False) == -1]
        ours = [w["tile"] for w in eng.waits(Situation(concealed=tuple(h)))]
        from mjrules.model.tiles import tile_name

        assert ours == [tile_name(k) for k in theirs], h
        checked += 1
    assert checked > COUNTS[backend] // 80


def test_standard_shanten_agrees():
    """The shape estimate behind `distance` is the classic shanten, checked against the mahjong package."""
    from mjrules.model.distance import standard_shanten

    sh = mahjong_shanten.Shanten()
    rng = random.Random(3)
    wall = [k for k in range(34) for _ in range(4)]
    for i in range(4000):
        h = complete_hand(rng) if i % 2 else sorted(rng.sample(wall, 14))
        if i % 3 == 0:
            h.pop(rng.randrange(14))
        c = [h.count(k) for k in range(34)]
        theirs = sh.calculate_shanten(tenhou34(h), use_chiitoitsu=False, use_kokushi=False)
        assert standard_shanten(c, 4) == theirs, h


@pytest.mark.parametrize("variant,situation,expected", [
    ("fuzhou_jiangxi", {"concealed": "123m456p789s234s55z"}, -1),
    ("fuzhou_jiangxi", {"concealed": "123m456p789s234s5z"}, 0),
    ("fuzhou_jiangxi", {"concealed": "123m456p789s234s5z7z"}, 0),
    ("fuzhou_jiangxi", {"concealed": "123m456p789s23s5z7z"}, 1),
    ("shangrao", {"concealed": "123m456m789p234s9s*", "wild": "9s"}, 0),
    ("shangrao", {"concealed": "123m456m789p2s9s*55s", "wild": "9s"}, 1),
])
def test_distance(load, variant, situation, expected):
    assert load(variant).distance(situation) == expected
