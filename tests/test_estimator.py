"""The shape estimator's free-pattern estimates: a condition that reads only the counts is tested once per partial
counts (remembered across hands), and that gives what testing it afresh gives, hand by hand."""
from __future__ import annotations

import random

import pytest
from conftest import engine_for
from mjrules.model.distance import Estimator, free_estimate
from mjrules.model.situation import Situation


@pytest.mark.parametrize("variant,remembered", [
    ("guobiao", {"十三幺形", "全不靠形"}),
    ("shangrao", {"十三烂", "九幺"}),
    ("guangdong_tuidaohu", {"十三幺", "四鬼胡牌"}),
])
def test_remembered_free_tests_agree_with_fresh_ones(variant, remembered):
    ref = engine_for(variant, "reference")
    v = ref.variant
    est = Estimator(v, None, None, ref.partial_test)
    assert set(est._oks) == remembered
    rng = random.Random(7)
    kinds = [k for k in range(34) if v.tiles.copies[k]]
    for _ in range(150):
        tiles = [k for k in kinds for _ in range(v.tiles.copies[k])]
        rng.shuffle(tiles)
        c = [0] * 34
        for k in tiles[:13]:
            c[k] += 1
        held = Situation(concealed=tuple(sorted(tiles[:13])), options={})
        for p in est.free:
            assert free_estimate(v, p, c, held, ref.partial_test, est._oks.get(p.name)) == \
                free_estimate(v, p, c, held, ref.partial_test), (p.name, c)
