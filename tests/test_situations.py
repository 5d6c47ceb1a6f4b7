"""Impossible or malformed situations get a clear error naming what is wrong, never a verdict."""
from __future__ import annotations

import pytest

from mjrules import SituationError

SR, JX, FJ = "shangrao", "fuzhou_jiangxi", "fuzhou_fujian"
OK_SR = {"concealed": "123m456m789p234s9s*7z", "win_tile": "7z", "wild": "9s"}
OK_JX = {"seat": 2, "concealed": "123m456p789s234s55z", "win_tile": "5z", "win_by": "discard", "discarder": 1}


class _RaisingKey:
    """A key that hashes like 'seat' and raises on comparison: refused before any lookup asks it."""

    def __hash__(self) -> int:
        return hash("seat")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("compared")


def with_(base: dict, **kw) -> dict:
    d = dict(base)
    for k, v in kw.items():
        if v is None:
            d.pop(k, None)
        else:
            d[k] = v
    return d


BAD = [
    ("17 tiles in a 14-tile variant", SR, with_(OK_SR, concealed="123m456m789p234s9s*7z123m"), "17 tiles", "concealed"),
    ("too few tiles", JX, with_(OK_JX, concealed="123m456p789s55z"), "11 tiles", "concealed"),
    ("five copies", JX, with_(OK_JX, concealed="11111m456p789s555z"), "5 copies of 1m", "concealed"),
    ("copies across melds", JX, with_(OK_JX, concealed="11m456p789s555z", melds=["[111m]"], win_tile="5z"),
     "5 copies of 1m", "concealed"),
    ("wild in a variant without wilds", JX, with_(OK_JX, concealed="123m456p789s234s5z5z*"), "no wilds",
     "concealed"),
    ("marked tile of the wrong kind", SR, with_(OK_SR, concealed="123m456m789p234s8s*7z"), "wild kind is 9s",
     "concealed"),
    ("marked without a wild kind", SR, with_(OK_SR, wild=None), "which kind is wild", "wild"),
    ("meld that is not a set", JX, with_(OK_JX, concealed="123p789s234s55z", melds=["[135m]"]), "135", "melds"),
    ("wild in a meld", SR, with_(OK_SR, concealed="123m456m789p7z7z", melds=["[999s]"]), "never used in calls",
     "melds"),
    ("winning tile not in the hand", JX, with_(OK_JX, win_tile="6z"), "not among the concealed", "win_tile"),
    ("seat out of range", JX, with_(OK_JX, seat=4), "outside 0..3", "seat"),
    ("dealer out of range", JX, with_(OK_JX, dealer=-1), "outside 0..3", "dealer"),
    ("discarder on a self-draw", JX, with_(OK_JX, win_by="self_draw"), "only for discard", "discarder"),
    ("discard without discarder", JX, with_(OK_JX, discarder=None), "needs 'discarder'", "discarder"),
    ("own discard", JX, with_(OK_JX, discarder=2), "own discard", "discarder"),
    ("unknown key", JX, with_(OK_JX, colour="red"), "unknown key", "colour"),
    ("a key that is not a string", JX, {**OK_JX, 1: 2}, "keys are strings, not int", None),
    ("a key object whose == raises", SR, {**OK_SR, _RaisingKey(): 1}, "keys are strings, not _RaisingKey", None),
    ("bad win_by", JX, with_(OK_JX, win_by="ron"), "'win_by'", "win_by"),
    ("bad tile notation", JX, with_(OK_JX, concealed="123m456p789s234s5x"), "position", "concealed"),
    ("honour out of range", JX, with_(OK_JX, concealed="123m456p789s234s58z"), "8z", "concealed"),
    ("flower in a flowerless variant", JX, with_(OK_JX, flowers=["f1"]), "not a scored flower", "flowers"),
    ("flower kept in hand", FJ, {"seat": 1, "concealed": "123m456m789m234p567s9s1z", "win_tile": "1z"},
     "scored flower", "concealed"),
    ("honour in a suited-only variant meld", FJ, {"seat": 1, "concealed": "123m456m789m234p99s", "melds": ["[111z]"],
                                                  "win_tile": "9s"}, "not playable", "melds"),
    ("unknown option", SR, with_(OK_SR, options={"gangkai_dbl": True}), "did you mean 'gangkai_double'", "options"),
    ("option of the wrong type", SR, with_(OK_SR, options={"gangkai_double": 3}), "takes a bool", "options"),
    ("wild and indicator both", SR, with_(OK_SR, indicator="8s"), "not both", "indicator"),
    ("dealt hand with melds", JX, {"concealed": "123m456p789s55z", "melds": ["[111m]"], "win_by": "dealt"},
     "no melds", "melds"),
    ("missing win tile", JX, with_(OK_JX, win_tile=None), "'win_tile' is required", "win_tile"),
    ("seat not a number", JX, with_(OK_JX, seat="2"), "whole number", "seat"),
    ("first discard not the dealer's", SR, {"seat": 1, "concealed": "123m456m789m12p3p99s", "win_tile": "3p",
                                             "win_by": "discard", "discarder": 2, "first_discard": True},
     "dealer's", "first_discard"),
    ("rob_gold without a robbable wild", SR, with_(OK_SR, win_by="rob_gold"), "rob_gold", "win_by"),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_situation(load, case):
    _, variant, situation, message, key = case
    with pytest.raises(SituationError) as e:
        load(variant).evaluate(situation)
    assert message in str(e.value)
    assert e.value.key == key


@pytest.mark.parametrize("first", [{"gangkai_double": True}, {"gangkai_double": False}])
def test_options_read_again_are_checked_again(load, first):
    """The reader remembers the last options it read and checked; options equal to them as Python compares values
    but of another type (1 == True, 0.0 == False), or with another key, are checked again, and refused."""
    e = load(SR)
    assert e.evaluate(with_(OK_SR, options=first))["win"]
    for bad, message in (({"gangkai_double": int(first["gangkai_double"])}, "takes a bool"),
                         ({"gangkai_double": float(first["gangkai_double"])}, "takes a bool"),
                         ({**first, "gangkai_dbl": True}, "did you mean 'gangkai_double'")):
        with pytest.raises(SituationError, match=message):
            e.evaluate(with_(OK_SR, options=bad))
        assert e.evaluate(with_(OK_SR, options=first))["win"]
    with_flag = e.evaluate(with_(OK_SR, options=first))
    assert with_flag == e.evaluate(with_(OK_SR, options=dict(first)))


def test_pre_draw_hand_for_waits(load):
    waits = load(SR).waits({"concealed": "123m456m789p234s9s*", "wild": "9s"})
    assert len(waits) == 34 and all(w["value"] == 4 for w in waits)
    with pytest.raises(SituationError, match="pre-draw hand"):
        load(SR).waits({"concealed": "123m456m789p234s9s*7z", "wild": "9s"})


@pytest.mark.parametrize("variant,situation,tiles", [
    (JX, {"concealed": "123m456p789s234s5z"}, ["5z"]),
    (JX, {"concealed": "1112345678999m"}, ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"]),
    (JX, {"concealed": "147m258p369s1234z"}, ["5z", "6z", "7z"]),
    (JX, {"concealed": "1133m5577p99s11z8s"}, ["8s"]),
    (JX, {"concealed": "123m456p789s234s1z", "melds": []}, ["1z"]),
    (SR, {"concealed": "123m456m789p2s9s*55s", "wild": "9s"}, []),  # 有宝 平胡 is worth 2 < 4
    (JX, {"concealed": "1111234567899m"}, ["3m", "6m", "9m"]),      # no fifth 1m
    # the face-up indicator is the fourth 8s: every kind but 8s completes the hand with its 宝
    (SR, {"concealed": "123m456m789p888s9s*", "indicator": "8s"}, [
        f"{r}{s}" for s in "mps" for r in range(1, 10) if f"{r}{s}" != "8s"] + [f"{r}z" for r in range(1, 8)]),
    (SR, {"concealed": "123m456m789p555s8s", "indicator": "8s"}, ["8s"]),  # the third 8s, the indicator the fourth
])
def test_waits(load, variant, situation, tiles):
    assert [w["tile"] for w in load(variant).waits(situation)] == tiles


@pytest.mark.parametrize("variant", [SR, JX, FJ])
def test_drawable_kinds_is_check_situation_on_each_completion(variant):
    """drawable_kinds (what the native waits asks once per pre-draw hand) keeps exactly the kinds whose completed
    situation check_situation accepts, on generated pre-draw hands (test_waits has hands at a kind's last copy)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    from strategies import examples, situations

    import mjrules
    from mjrules.model.situation import check_situation, drawable_kinds, situation_from_dict

    v = mjrules.load(variant, backend="reference").variant

    @settings(max_examples=examples(300, 3000), deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(situations(v), st.data())
    def check(d, data):
        try:
            s = situation_from_dict(v, d)
        except SituationError:
            return
        i = data.draw(st.integers(0, len(s.concealed) - 1))
        pre = s.replace(concealed=s.concealed[:i] + s.concealed[i + 1:], win_tile=None)
        try:
            check_situation(v, pre, pre_draw=True)
        except SituationError:
            return
        want = set()
        for k in range(42):
            try:
                check_situation(v, pre.replace(concealed=tuple(sorted(pre.concealed + (k,))), win_tile=k))
            except SituationError:
                continue
            want.add(k)
        assert drawable_kinds(v, pre) == want
        assert s.concealed[i] in want   # the tile taken out can always come back

    check()
