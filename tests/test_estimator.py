"""The free patterns' tests on partial counts (ReferenceEngine.partial_test): a condition that reads only the
counts and the situation's facts is tested once per partial counts and kept for every situation with the same
facts; the estimates and distances it gives are those of tests made afresh, hand by hand."""
from __future__ import annotations

import random

import pytest
from conftest import engine_for
from mjrules.model.distance import Estimator, distance
from mjrules.model.tiles import tile_name
from mjrules.reference.engine import ReferenceEngine


@pytest.mark.parametrize("variant,remembered", [
    ("guobiao", {"十三幺形", "全不靠形"}),
    ("shangrao", {"十三烂", "九幺"}),
    ("guangdong_tuidaohu", {"十三幺", "四鬼胡牌"}),
])
def test_remembered_partial_tests_agree_with_fresh_ones(variant, remembered):
    ref = engine_for(variant, "reference")
    v = ref.variant
    assert {p.name for p in v.patterns if p.shape == "free" and ref._counts_only[p.name]} == remembered
    fresh = ReferenceEngine(v)
    fresh._counts_only = {}    # every test made afresh
    kept, anew = Estimator(v, None, None, ref.partial_test), Estimator(v, None, None, fresh.partial_test)
    rng = random.Random(7)
    kinds = [k for k in range(34) if v.tiles.copies[k]]
    for i in range(120):
        tiles = [k for k in kinds for _ in range(v.tiles.copies[k])]
        rng.shuffle(tiles)
        hand = bytearray(34)
        for k in tiles[:13]:
            hand[k] += 1
        assert kept.estimate(hand, 0, -1) == anew.estimate(hand, 0, -1), list(hand)
        if i % 4 == 0:   # the distance of a situation, flowers and a seat of its own
            sit = {"concealed": "".join(tile_name(k) for k in sorted(tiles[:13])), "seat": i % 4}
            assert distance(ref, sit, ref.partial_test) == distance(ref, sit, fresh.partial_test), sit
    assert ref._partial   # something was kept
