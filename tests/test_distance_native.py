"""The native back end decides `distance` in one kernel call (mjrules.native.kernel's Distance, with the free
patterns' partial tests as programs, mjrules.model.distance.FreePrograms); the reference back end, in Python, is
the definition. On random hands of several variants -- near wins (tests/strategies.py), a tile short of them,
and hands drawn from the wall -- both give the same distance, or refuse the situation alike."""
from __future__ import annotations

import random

import pytest
from conftest import engine_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mjrules.model.tiles import tile_name
from strategies import examples, situations

VARIANTS = ["guobiao", "fuzhou_jiangxi", "shangrao", "sichuan_xuezhan", "guangdong_tuidaohu", "fuzhou_fujian",
            "zhuanzhuan"]


def outcome(eng, situation):
    """The distance, or the refusal's type and message."""
    try:
        return eng.distance(situation)
    except Exception as e:   # noqa: BLE001 - the two back ends must refuse alike
        return type(e).__name__, str(e)


def pre_draw(sit: dict) -> dict:
    """The situation one tile short: its winning tile out of the concealed tiles (the first copy of it)."""
    d = {k: v for k, v in sit.items() if k != "win_tile"}
    if "win_tile" in sit and isinstance(sit.get("concealed"), str):
        tiles = sit["concealed"].split()
        for i, t in enumerate(tiles):
            if t.rstrip("*") == sit["win_tile"]:
                del tiles[i]
                break
        d["concealed"] = " ".join(tiles)
    return d


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=examples(40, 300), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                              HealthCheck.data_too_large])
@given(data=st.data())
def test_native_distance_is_the_reference_distance(variant, data):
    native, ref = engine_for(variant, "native"), engine_for(variant, "reference")
    sit = data.draw(situations(native.variant))
    for s in (sit, pre_draw(sit)):
        assert outcome(native, s) == outcome(ref, s), s


@pytest.mark.parametrize("variant", VARIANTS)
def test_hands_from_the_wall(variant):
    """Hands of win_size - 1 tiles drawn from a shuffled wall (most far from ready), some with melds or options."""
    native, ref = engine_for(variant, "native"), engine_for(variant, "reference")
    v = native.variant
    rng = random.Random(58)
    wall = [k for k in v.tiles.playable if k < 34 for _ in range(v.tiles.copies[k])]
    for i in range(60):
        rng.shuffle(wall)
        n = v.win_size - 1
        melds = []
        if i % 3 == 1:   # a pung of a kind left with three copies, from the rest of the wall
            k = wall[n]
            if wall[:n].count(k) <= v.tiles.copies[k] - 3:
                melds, n = [tile_name(k) * 3], n - 3
        sit = {"concealed": "".join(tile_name(k) for k in sorted(wall[:n])), "melds": melds, "seat": i % 4}
        if v.wild is not None and v.wild.mode != "successor" and i % 2:
            sit["wild"] = tile_name(wall[-1])
        assert outcome(native, sit) == outcome(ref, sit), sit


@pytest.mark.parametrize("variant,patterns,kind", [
    ("guobiao", None, "ProgramEstimator"),
    ("guobiao", ("十三幺形", "组合龙形"), "ProgramEstimator"),
    ("guobiao", ("全不靠形", "组合龙形"), "ProgramEstimator"),
    ("guobiao", ("十三幺形",), "ShapeEstimator"),   # contains: the kernel's test, and the program for its room
    ("riichi", None, "ShapeEstimator"),
    ("guangdong_tuidaohu", None, "ShapeEstimator"),
    ("shangrao", None, "ShapeEstimator"),
])
def test_native_estimator_is_the_reference_estimator(variant, patterns, kind):
    """The native estimator (in C) against distance.Estimator, on hands of 13 and 14 tiles, with melds and
    wilds."""
    from mjrules.model.distance import Estimator

    native, ref = engine_for(variant, "native"), engine_for(variant, "reference")
    v = native.variant
    ours = native.estimator(None, patterns)
    assert type(ours).__name__ == kind
    theirs = Estimator(v, None, patterns, ref.partial_test)
    rng = random.Random(59)
    wall = [k for k in v.tiles.playable if k < 34 for _ in range(v.tiles.copies[k])]
    for i in range(300):
        rng.shuffle(wall)
        if i % 4 == 3:   # terminals and honours first: hands near thirteen orphans, as wall hands seldom are
            wall.sort(key=lambda k: not (k >= 27 or k % 9 in (0, 8)))
        melds = i % 5 if i % 3 == 0 else 0
        hand = bytearray(34)
        for k in wall[:13 + i % 2 - 3 * melds]:
            hand[k] += 1
        wild = wall[-1] if i % 4 == 1 else -1
        wild2 = wall[-2] if i % 8 == 1 else -1
        assert ours.estimate(bytes(hand), melds, wild, wild2) == theirs.estimate(hand, melds, wild, wild2), \
            (list(hand), melds, wild, wild2)
        if i % 10 == 0:
            assert ours.after_discards(hand, melds, wild, wild2) == theirs.after_discards(hand, melds, wild, wild2)


def test_thirteen_orphans_needs_room_for_its_missing_kinds():
    """689m 89p 19s 224566z less 2m, 6m, 8m or 8p: eight terminal and honour kinds and a pair, 4 from ready (the
    `mahjong` package's shanten too), not 3 -- the pair's second copy leaves no room for the five kinds missing."""
    from mjrules.model.tiles import parse_tiles

    hand = bytearray(34)
    for t in parse_tiles("2m 6m 8m 9m 8p 9p 1s 9s 2z 2z 4z 5z 6z 6z"):
        hand[t.kind] += 1
    native, ref = engine_for("riichi", "native"), engine_for("riichi", "reference")
    ours, theirs = native.estimator(None).after_discards(hand, 0, -1), ref.estimator(None).after_discards(hand, 0, -1)
    assert ours == theirs
    assert [ours[t.kind] for t in parse_tiles("2m 6m 8m 8p")] == [4, 4, 4, 4]
