"""国标麻将 (guobiao) beyond the calculator's comparison (tests/test_guobiao_oracle.py): the account-once rule on the
rule book's own examples, the explanation of each fan, the 8-fan minimum in play, and the winds of a match.
"""
from __future__ import annotations

from collections import Counter

import mjrules
import pytest
from mjrules.compiler import compile_variant
from mjrules.game import Game
from mjrules.game.actions import WIN
from mjrules.game.play import play_match
from mjrules.model.fans import account
from mjrules.model.tiles import parse_tiles

BACKENDS = ("reference", "native")
V = compile_variant("guobiao")


def combos(kind: str) -> list:
    return [(i, f) for i, f in enumerate(V.fans) if f.combo is not None and f.combo.kind == kind]


def lows(text: str) -> list[int]:
    """The lowest tiles of sequences written as their lowest tiles ("2s5s2p5p": 234s 567s 234p 567p)."""
    return sorted(t.kind for t in parse_tiles(text)) if text else []


def names(got: dict[int, int]) -> Counter:
    return Counter({V.fans[i].name: c for i, c in got.items()})


# (sequences by lowest tile, the fans the account-once rule gives): GB-91 and its worked examples
CHOW_CASES = [
    ("2s5s2p5p", {"喜相逢": 2, "连六": 1}),              # 234567s 234567p: not 喜相逢 x2 + 连六 x2
    ("2s2p3p4p", {"一色三步高": 1, "喜相逢": 1}),          # 234s 234p 345p 456p: a three-set fan, then 234s joins once
    ("2s2p2p5p", {"一般高": 1, "喜相逢": 1, "连六": 1}),  # 234s 234p 234p 567p: each set joins once
    ("1m4m7m1p", {"清龙": 1, "喜相逢": 1}),               # a straight, the fourth joins once
    ("1m1m7m7m", {"一般高": 2, "老少副": 1}),             # no three-set fan: at most three pairs, repeats last
    ("2m3m4m5m", {"一色四步高": 1}),                      # a four-set fan takes every set
    ("1m3m5m7m", {"一色四步高": 1}),
    ("3m3p3s", {"三色三同顺": 1}),                        # three sets, one fan: no pairs among them
    ("3m3p", {"喜相逢": 1}),
    ("1m9m", {}),
]
PUNG_CASES = [
    ("2m2p2s5m", {"三同刻": 1}),                          # 5m joins no set of the 三同刻
    ("2m3p4s4m", {"三色三节高": 1, "双同刻": 1}),          # the fourth pung joins one of the three once
    ("2m2p5m5p", {"双同刻": 2}),
    ("2m3m4m5m", {"一色四节高": 1}),
]


@pytest.mark.parametrize(("sets", "want"), CHOW_CASES)
def test_account_once_over_chows(sets, want):
    assert names(account(combos("seq"), lows(sets))) == Counter({k: v for k, v in want.items() if v})


@pytest.mark.parametrize(("sets", "want"), PUNG_CASES)
def test_account_once_over_pungs(sets, want):
    assert names(account(combos("pung"), lows(sets))) == Counter(want)


# (situation, the fans that count): each from the rule book's text, checked on both back ends
HANDS = [
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", "win_by": "discard", "discarder": 2},
     {"清龙": 1, "门前清": 1, "幺九刻": 1, "缺一门": 1, "无字": 1}),   # a discard makes 999p shown: no 暗刻 fan
    ({"concealed": "1112345678999m5m", "win_tile": "5m", "win_by": "discard", "discarder": 1},
     {"九莲宝灯": 1, "双暗刻": 1, "幺九刻": 1}),                      # GB-04: 九莲 takes 清一色 门前清 无字, one 幺九刻
    ({"concealed": "222444666888m44s", "win_tile": "6m"},
     {"四暗刻": 1, "全双刻": 1, "自摸": 1, "缺一门": 1}),   # 四暗刻 takes 不求人: 自摸 counts again; 2 4 6 8 step by 2
    ({"concealed": "11m", "melds": ["[111z]", "[222z]", "[333z]", "[123p]"], "win_tile": "1m", "win_by": "discard",
      "discarder": 3, "seat": 1}, {"三风刻": 1, "圈风刻": 1, "门风刻": 1, "全求人": 1, "全带幺": 1, "缺一门": 1}),
    # (the three wind pungs leave no 幺九刻; 全求人 takes 单钓将)
    ({"concealed": "19m19p19s12345677z", "win_tile": "7z", "flowers": ["f1", "f5"]},
     {"十三幺": 1, "自摸": 1, "花牌": 2}),
    # 组合龙 and its wait (the kinds that complete the hand before its winning tile, knitted straight included), as
    # PyMahjongGB counts them: the straight's last tile is no 边张, a pair's is 单钓将, the other set's edge 边张
    ({"concealed": "147m258p369s11122z", "win_tile": "7m"}, {"组合龙": 1, "不求人": 1, "圈风刻": 1, "门风刻": 1}),
    ({"concealed": "147m258p369s11122z", "win_tile": "2z"},
     {"组合龙": 1, "不求人": 1, "圈风刻": 1, "门风刻": 1, "单钓将": 1}),
    ({"concealed": "147m258p369s12355s", "win_tile": "4m"}, {"组合龙": 1, "不求人": 1, "平和": 1}),
    ({"concealed": "147m258p369s12355s", "win_tile": "5s"}, {"组合龙": 1, "不求人": 1, "平和": 1, "单钓将": 1}),
    ({"concealed": "147m258p369s12355s", "win_tile": "3s"}, {"组合龙": 1, "不求人": 1, "平和": 1, "边张": 1}),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("situation", "want"), HANDS, ids=[h[0]["concealed"] for h in HANDS])
def test_fans_and_their_explanation(backend, situation, want):
    eng = mjrules.load("guobiao", backend=backend)
    r = eng.evaluate(dict(situation, options={"min_fan": 0}))
    assert r.win
    assert dict(r.fans) == {k: v for k, v in want.items() if v}
    assert r.to_dict()["fans"] == [list(x) for x in r.fans]
    lines = {x["text"].split(" (")[0]: x["rule"] for x in r.explain if x["text"].startswith("fan ")}
    by_name = {f.name: f for f in V.fans}
    for name, count in r.fans:   # each fan on its own line, with its count and its rule id
        head = f"fan {name}" + (f" x{count}" if count != 1 else "")
        assert lines[head] == by_name[name].src.rules[0], (head, lines)
    assert r.value == sum(by_name[n].points * c for n, c in r.fans)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_minimum_refuses_a_win_in_play(backend):
    """GB-88: a hand that completes on a discard with fewer than 8 fans may not claim it (平和 2 + 门前清 2 + 断幺 2
    + 连六 1 = 7); with min_fan 0 it may."""
    eng = mjrules.load("guobiao", backend=backend)
    hands = [[t.kind for t in parse_tiles(h)] for h in ("8s4p2s3s5s9s1z2z3z4z5z6z7z4m", "234m456m88p345s67s",
                                      "11s2p3p4p5p6p7p8p2m3m4m5m", "66s99s6m7m8m9m3s4s5s22z")]
    for options, can in (({}, False), ({"min_fan": 0}, True)):
        g = Game(eng, hands=[list(h) for h in hands], wall=[t.kind for t in parse_tiles("1m2m3m4m5m6m7m8m")], options=options)
        g.act(0, {"type": "discard", "tile": "8s"})
        assert (WIN in g.legal_ids(1)) is can, options


def test_a_match_moves_the_prevalent_wind_when_the_deal_goes_round():
    """GB-97 GB-98 GB-99: the deal passes on every hand; East for the first four hands, then South."""
    eng = mjrules.load("guobiao")
    m = play_match(eng, 8, ["random"] * 4, seed=3)
    dealers = [g.dealer for g in m["hands"]]
    winds = [g.prevalent_wind for g in m["hands"]]
    first = dealers[0]
    assert dealers == [(first + i) % 4 for i in range(8)]
    assert winds == [0, 0, 0, 0, 1, 1, 1, 1]
    assert sum(m["totals"]) == 0


# Pre-draw hands near a knitted straight (147m 258p 369s, and 1-4-7 in another suit): the kinds that complete them,
# checked on both back ends' wait_kinds (the lists written here are PyMahjongGB's waits too). The native one tries
# the knitted shape only when the hand lacks at most one of a straight's kinds.
KNIT_WAITS = [
    ("14m258p369s111z22z", ["7m"]),          # lacks 7m: the straight's last tile
    ("147m258p369s1255s", ["3s"]),           # straight held: the other set's edge
    ("14m25p369s123s5s55z", []),             # lacks 7m and 8p: no knitted straight one tile away (nor anything)
    ("147p258s369m1m123z", []),              # a straight in other suits, honours in no set
    ("147p258s369m11m78m", ["6m", "9m"]),    # ... and a two-sided wait beside it
]


@pytest.mark.parametrize(("concealed", "want"), KNIT_WAITS)
def test_waits_beside_a_knitted_straight(concealed, want):
    from mjrules.model.tiles import tile_name

    counts = [0] * 34
    for t in parse_tiles(concealed):
        counts[t.kind] += 1
    got = {}
    for backend in BACKENDS:
        eng = mjrules.load("guobiao", backend=backend)
        got[backend] = [tile_name(k) for k in eng.wait_kinds(bytes(counts), 0, None)]
    assert got["native"] == got["reference"]
    assert sorted(got["native"]) == sorted(want)
