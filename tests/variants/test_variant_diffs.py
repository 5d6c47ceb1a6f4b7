"""`mjrules diff` on every pair of shipped variants and on each overlay against its base: the differences
it must find, and none where there are none. Reference backend; one diff per pair, shared by the tests."""
from __future__ import annotations

import itertools
from typing import Any

import pytest
from mjrules.compiler import compile_variant, shipped_names
from mjrules.diff import diff

SR, WY, JX, FJ, FN = ("shangrao", "shangrao_wuyuan", "fuzhou_jiangxi", "fuzhou_fujian",
                      "fuzhou_fujian_no_gold_penalty")
OVERLAYS = {WY: (SR, "bao_huanyuan_counts_as_wubao"), FN: (FJ, "gold_discard_tsumo_only")}
SEARCH = 120  # random situations per pair (the CLI default is 300)

_CACHE: dict[tuple[str, str], dict[str, Any]] = {}


def report(a: str, b: str) -> dict[str, Any]:
    if (a, b) not in _CACHE:
        _CACHE[(a, b)] = diff(a, b, search=SEARCH, seed=1)
    return _CACHE[(a, b)]


PAIRS = list(itertools.combinations(sorted(shipped_names()), 2))


def rule(rep: dict[str, Any], section: str, key: str) -> dict[str, Any]:
    hit = [e for e in rep["rules"] if e["section"] == section and e["key"] == key]
    assert hit, f"no rule difference {section} {key}: {[(e['section'], e['key']) for e in rep['rules']]}"
    return hit[0]


def differences(rep: dict[str, Any], *, a: tuple | None = None, b: tuple | None = None, kind: str | None = None):
    """The hand differences whose A and B results match the given (win, pattern or reason part) and kind."""
    def fits(r: dict[str, Any], want: tuple | None) -> bool:
        if want is None:
            return True
        win, what = want
        return r["win"] is win and (what in (r["pattern"] or "") if win else what in r["reason"])

    return [d for d in rep["hands"]["differences"]
            if fits(d["a"], a) and fits(d["b"], b) and (kind is None or d["kind"] == kind)]


def test_the_overlays_are_shipped_and_check():
    names = shipped_names()
    for overlay, (base, _) in OVERLAYS.items():
        assert overlay in names
        assert compile_variant(overlay).extends == base


@pytest.mark.parametrize("variant", sorted(shipped_names()))
def test_a_variant_diffed_with_itself_has_no_difference(variant):
    rep = diff(variant, variant, search=40, seed=3)
    assert rep["same"] is True
    assert rep["rules"] == []
    h = rep["hands"]
    assert h["differences"] == [] and h["only_in_one"] == [] and h["analogues"] == []
    assert h["situations"]["compared"] > 100


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_every_pair_differs_and_explains_itself(a, b):
    rep = report(a, b)
    assert rep["same"] is False
    assert rep["rules"], "two shipped variants differ in at least one rule"
    for e in rep["rules"]:
        assert e["a"] is not None or e["b"] is not None
        assert e["a"] != e["b"]
    h = rep["hands"]
    assert h["situations"]["engine_errors"] == 0
    assert h["differences"] or h["analogues"], "a hand-level difference is found"
    for d in h["differences"]:
        for side in ("a", "b"):
            r = d[side]
            assert r["legal"] and r["explain"], "both results carry their explanation"
            assert (r["value"] > 0) is r["win"]
        assert d["kind"] in ("verdict", "value", "payments", "reading")
        if d["kind"] == "verdict":
            assert d["a"]["win"] != d["b"]["win"]
        if d["kind"] == "value":
            assert d["a"]["value"] != d["b"]["value"]


def test_overlay_wuyuan_against_shangrao():
    rep = report(SR, WY)
    assert [(e["section"], e["key"], e["change"]) for e in rep["rules"]] == \
        [("options", "bao_huanyuan_counts_as_wubao", "changed")]
    e = rep["rules"][0]
    assert e["a"].endswith("= false") and e["b"].endswith("= true")
    assert e["a_rules"] == ["SR-13"] and e["b_rules"] == ["SR-13"]
    h = rep["hands"]
    assert h["situations"]["only_a"] == h["situations"]["only_b"] == 0
    # a hand whose 宝 stands for itself: too small in 上饶, a 无宝 win in 婺源
    found = differences(rep, a=(False, "below the minimum 4"), b=(True, "平胡"), kind="verdict")
    assert found and found[0]["b"]["status"] == "无宝"
    assert any(d["kind"] == "value" and d["b"]["status"] == "无宝" and d["a"]["status"] in ("有宝", "宝调")
               for d in h["differences"])
    # every finding is tied to the one changed option
    assert all(d["rules"] == [e["id"]] for d in h["differences"])
    assert h["by_rule"][e["id"]]
    # and never the other way: 婺源 wins at least as often and scores at least as much
    for d in h["differences"]:
        assert d["b"]["value"] >= d["a"]["value"]


def test_overlay_no_gold_penalty_against_fuzhou_fujian():
    rep = report(FJ, FN)
    assert [(e["section"], e["key"]) for e in rep["rules"]] == [("options", "gold_discard_tsumo_only")]
    assert rep["rules"][0]["a_rules"] == ["FJ-08"]
    h = rep["hands"]
    assert h["differences"], "a situation whose verdict differs"
    for d in h["differences"]:
        sit = d["situation"]
        assert d["kind"] == "verdict" and not d["a"]["win"] and d["b"]["win"]
        assert sit.get("wild_discards", 0) > 0 and sit["win_by"] in ("discard", "rob_kong")
    assert differences(rep, a=(False, "only self-draw"), b=(True, "平胡"))


def test_shangrao_against_fuzhou_jiangxi():
    rep = report(JX, SR)  # A = 撫州, B = 上饶
    assert rule(rep, "patterns", "九幺")["change"] == "only_b"
    assert rule(rep, "wild", "kind")["change"] == "only_b"
    assert rule(rep, "claims", "win_on_discard")["b_rules"] == ["SR-11"]
    assert rule(rep, "score", "value")["a_rules"][:1] == ["JX-21"]
    assert rule(rep, "settlement.draw", "#1")["level"] == "game"
    h = rep["hands"]
    assert h["situations"]["compared"] > 500  # same hand size and tiles: most situations exist in both
    # self-draw-only 上饶: a discard win in 撫州 is refused in 上饶
    assert differences(rep, a=(True, "平胡"), b=(False, "does not allow a win on this discard"))
    assert differences(rep, a=(True, "十三烂"), b=(False, "does not allow"))
    # 十三烂 is worth 2 in 撫州 and 4 in 上饶
    rotten = differences(rep, a=(True, "十三烂"), b=(True, "十三烂"), kind="value")
    assert any(d["a"]["value"] == 2 and d["b"]["value"] in (4, 8) for d in rotten)
    # 九幺 exists in 上饶 only
    assert differences(rep, a=(False, "no pattern fits"), b=(True, "九幺"))
    # 四規一 doubles in 撫州 only
    assert any(d["a"]["value"] == 2 and d["a"]["pattern"] == "平胡" and d["b"]["value"] == 4
               for d in h["differences"])
    # the 宝 exists in 上饶 only: the same tiles with a 宝 win there and not in 撫州
    assert any(not d["a"]["win"] and d["b"]["win"] and d["a"].get("note") for d in h["differences"])


@pytest.mark.parametrize("other", [SR, JX])
def test_sixteen_tile_against_thirteen_tile(other):
    first, second = sorted((FJ, other))
    rep = report(first, second)
    fj = "a" if first == FJ else "b"
    hand = rule(rep, "deal", "hand")
    assert hand[fj].startswith("hand 16 dealer 17")
    assert rule(rep, "tiles", "playable")["change"] == "changed"
    h = rep["hands"]
    assert h["situations"]["compared"] == 0, "no situation is legal in both"
    assert h["situations"]["only_a"] > 100 and h["situations"]["only_b"] > 100
    assert h["differences"] == []
    whys = " ".join(o["why"] for o in h["only_in_one"])
    assert "has 17" in whys and "has 14" in whys
    # seven pairs exist where the hand has 14 tiles, and not in 福州
    assert any(o["result"].get("pattern") == "七对" for o in h["only_in_one"] if o["side"] != fj)
    # the same family of hands at each variant's own size is compared instead
    ana = h["analogues"]
    assert ana
    assert any(x[fj]["win"] and x[fj]["pattern"] in ("平胡", "金雀", "三金倒") for x in ana)


def test_diff_is_symmetric():
    ab, ba = report(SR, WY), diff(WY, SR, search=SEARCH, seed=1)
    assert [(e["section"], e["key"]) for e in ab["rules"]] == [(e["section"], e["key"]) for e in ba["rules"]]
    assert [(e["a"], e["b"]) for e in ab["rules"]] == [(e["b"], e["a"]) for e in ba["rules"]]
    assert len(ab["hands"]["differences"]) == len(ba["hands"]["differences"])
