"""`wins(s)` is `judge(s)["win"]` without the result: the game's test before it offers a win, and distance's test of a
complete hand. The reference back end stops at the first reading no forbid or minimum refuses and skips a pattern a
forbid rules out whatever its reading (a free pattern's readings of four wilds number C(37, 4) = 66,045), so it must
agree with the full search on every hand, and on both back ends."""
from __future__ import annotations

import pytest
from conftest import engine_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mjrules.model.situation import SituationError, situation_from_dict
from strategies import examples, situations

VARIANTS = ["guobiao", "riichi", "fuzhou_jiangxi", "shangrao", "sichuan_xuezhan", "guangdong_tuidaohu",
            "fuzhou_fujian", "zhuanzhuan"]


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=examples(40, 400), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                              HealthCheck.data_too_large])
@given(data=st.data())
def test_wins_is_the_judgement_of_a_win(variant, data):
    ref, native = engine_for(variant, "reference"), engine_for(variant, "native")
    for _ in range(5):   # (the strategy's situations include illegal ones, which the reader refuses: skip those)
        d = data.draw(situations(ref.variant))
        try:
            s = situation_from_dict(ref.variant, d)
        except SituationError:
            continue
        win = bool(ref.judge(s)["win"])
        assert ref.wins(s) is win and native.wins(s) is win, d


# Four 鬼 of 广东推倒胡 make 四鬼胡牌 (a free pattern: the wilds may stand for any of 37 multisets of four kinds),
# which its forbid refuses on a discard; the one-wild hands are 鸡胡 either way.
FOUR = "1m* 1m* 1m* 1m* 2p 3p 5s 7s 9s 1z 3z 4z 6z 7z"
CASES = [
    ("self_draw", FOUR, True, -1),
    ("discard", FOUR, False, 1),
    ("rob_kong", FOUR, False, 1),
    ("self_draw", "1m* 2p 3p 4p 5s 5s 5s 7s 8s 9s 1z 1z 1z 7z", True, -1),
    ("discard", "1m* 2p 3p 4p 5s 5s 5s 7s 8s 9s 1z 1z 1z 7z", True, -1),
]


@pytest.mark.parametrize("backend", ["reference", "native"])
@pytest.mark.parametrize("win_by,concealed,wins,distance", CASES)
def test_a_pattern_its_forbid_rules_out_is_not_searched(backend, win_by, concealed, wins, distance):
    eng = engine_for("guangdong_tuidaohu", backend)
    d = {"concealed": concealed, "wild": "1m", "seat": 0, "win_tile": "7z", "win_by": win_by,
         "options": {"jiepao": True}}
    if win_by != "self_draw":
        d["discarder"] = 1
    s = situation_from_dict(eng.variant, d)
    assert eng.wins(s) is wins and bool(eng.judge(s)["win"]) is wins
    assert eng.distance(d) == distance
