"""Single-hand verdicts and values, on both backends: the rules' worked examples and our own table.

Each row: variant, situation, expected win, pattern, value and payments (None: not checked). The
expected numbers are worked out by hand from ../shared/rules, never copied from the engine.
"""
from __future__ import annotations

import pytest

SR, JX, FJ = "shangrao", "fuzhou_jiangxi", "fuzhou_fujian"


def pay(*amounts: int) -> dict[int, int]:
    return dict(enumerate(amounts))


# (id, variant, situation, win, pattern, extra patterns that must hold, value, payments)
CASES = [
    # ---- worked examples in ../shared/rules ----
    ("SR-T04", SR, {"concealed": "123m456m789p2s9s*55s3s", "win_tile": "3s", "wild": "9s"},
     False, None, [], 0, {}),
    ("SR-T04-indicator", SR, {"concealed": "123m456m789p2s9s*55s3s", "win_tile": "3s", "indicator": "8s"},
     False, None, [], 0, {}),
    ("SR-T06", SR, {"concealed": "123m456m789p234s9s*7z", "win_tile": "7z", "wild": "9s"},
     True, "平胡", ["宝调"], 4, pay(12, -4, -4, -4)),
    ("SR-T06-draws-bao", SR, {"concealed": "123m456m789p234s9s*9s*", "win_tile": "9s", "wild": "9s"},
     True, "平胡", ["宝调"], 4, pay(12, -4, -4, -4)),
    ("SR-T13", SR, {"concealed": "11223344556677z", "win_tile": "7z", "wild": "2m"},
     True, "七对", ["清一色", "幺九", "无宝"], 64, pay(192, -64, -64, -64)),
    ("SR-T18", SR, {"concealed": "147m258p36s123456z", "win_tile": "6z", "wild": "9p"},
     True, "十三烂", ["无宝"], 4, pay(12, -4, -4, -4)),
    ("SR-T28", SR, {"seat": 1, "concealed": "123m456m789m12p3p99s", "win_tile": "3p", "win_by": "discard",
                    "discarder": 0, "first_turn": True, "first_discard": True},
     True, "平胡", ["地胡"], 16, pay(-16, 16, 0, 0)),
    ("JX-T03", JX, {"seat": 2, "concealed": "123m456p789s234s55z", "win_tile": "5z", "win_by": "discard",
                    "discarder": 1},
     True, "平胡", [], 1, pay(0, -1, 1, 0)),
    ("JX-T07", JX, {"seat": 1, "concealed": "1111m55p66p88s33z44z", "win_tile": "4z", "win_by": "discard",
                    "discarder": 0},
     True, "七对", [], 8, pay(-8, 8, 0, 0)),
    ("JX-T11", JX, {"seat": 1, "concealed": "147m258p369s12345z", "win_tile": "5z", "win_by": "discard",
                    "discarder": 0},
     True, "十三烂", [], 2, pay(-2, 2, 0, 0)),
    ("JX-T12", JX, {"seat": 1, "concealed": "137m258p369s12345z", "win_tile": "5z", "win_by": "discard",
                    "discarder": 0},
     False, None, [], 0, {}),
    ("JX-T27-dealer", JX, {"seat": 0, "concealed": "123m456m789p234s88s", "win_tile": "8s", "win_by": "discard",
                           "discarder": 3},
     True, "平胡", [], 1, pay(1, 0, 0, -1)),
    ("JX-T27-seat1", JX, {"seat": 1, "concealed": "1133m5577p99s11z88s", "win_tile": "8s", "win_by": "discard",
                          "discarder": 3},
     True, "七对", [], 4, pay(0, 4, 0, -4)),
    ("FJ-T04", FJ, {"seat": 2, "concealed": "123m456m789m234p567s99s", "win_tile": "9s", "win_by": "discard",
                    "discarder": 1, "flowers": ["1z", "5z", "f1"], "wild": "7p"},
     True, "基本", [], 4, pay(0, -8, 8, 0)),
    ("FJ-T06", FJ, {"seat": 2, "concealed": "123m456m234p6s7p*8s99m", "melds": ["[5555s]"], "win_tile": "9m",
                    "win_by": "discard", "discarder": 3, "flowers": ["2z", "f5"], "wild": "7p"},
     True, "基本", [], 5, pay(0, 0, 10, -10)),
    ("FJ-T12", FJ, {"seat": 1, "concealed": "123m456m789m234p567s9s7p*", "win_tile": "7p", "win_by": "rob_gold",
                    "flowers": ["3z", "f3"], "wild": "7p"},
     True, "基本", ["抢金"], 36, pay(-36, 108, -36, -36)),
    ("FJ-T20", FJ, {"seat": 3, "concealed": "123m456m789m234p57s7p*7p*6s", "win_tile": "6s", "win_by": "discard",
                    "discarder": 0, "flowers": ["f8"], "wild": "7p"},
     True, "金雀", [], 66, pay(-132, 0, 0, 132)),

    # ---- 上饶: every pattern, modifier, status and restriction ----
    ("SR-pengpeng", SR, {"concealed": "111m999p555s11z777z", "win_tile": "5s", "wild": "2m"},
     True, "碰碰胡", ["无宝"], 16, pay(48, -16, -16, -16)),
    ("SR-pengpeng-yaojiu", SR, {"concealed": "111m999p111s11z777z", "win_tile": "1s", "wild": "2m"},
     True, "碰碰胡", ["幺九", "无宝"], 32, None),
    ("SR-qingyise-pinghu", SR, {"concealed": "123456789m11m234m", "win_tile": "4m", "wild": "5z"},
     True, "平胡", ["清一色", "无宝"], 16, None),
    ("SR-qidui", SR, {"concealed": "1133m5577p99s11z88s", "win_tile": "8s", "wild": "5z"},
     True, "七对", ["无宝"], 16, None),
    ("SR-shisanlan-qixing", SR, {"concealed": "147m25p36s1234567z", "win_tile": "7z", "wild": "9p"},
     True, "十三烂", ["七星", "无宝"], 8, None),
    ("SR-jiuyao-qixing", SR, {"concealed": "119m19p19s1234567z", "win_tile": "1m", "wild": "5p"},
     True, "九幺", ["七星", "无宝"], 8, None),
    ("SR-feibao", SR, {"concealed": "123m456m789p234s9s*7z", "win_tile": "7z", "wild": "9s", "wild_discards": 2},
     True, "平胡", ["宝调"], 16, pay(48, -16, -16, -16)),
    ("SR-youbao-qingyise", SR, {"concealed": "123456789m11m23m9s*", "win_tile": "2m", "wild": "9s"},
     True, "平胡", ["清一色", "有宝"], 8, None),
    ("SR-discard-not-first", SR, {"seat": 1, "concealed": "123m456m789m12p3p99s", "win_tile": "3p",
                                  "win_by": "discard", "discarder": 0},
     False, None, [], 0, {}),
    ("SR-tianhu", SR, {"concealed": "123m456m789p234s55z", "win_by": "dealt", "wild": "9s"},
     True, "平胡", ["天胡"], 16, pay(48, -16, -16, -16)),
    ("SR-tianhu-table", SR, {"concealed": "123m456m789p234s55z", "win_by": "dealt", "wild": "9s",
                             "options": {"tianhu_dihu_use_table": True}},
     True, "平胡", ["天胡", "无宝"], 4, pay(12, -4, -4, -4)),
    ("SR-gangkai", SR, {"concealed": "456m789p234s55z", "melds": ["{1111m}"], "win_tile": "5z",
                        "win_by": "kong_replacement", "wild": "9s"},
     True, "平胡", ["杠上开花"], 4, None),
    ("SR-gangkai-double", SR, {"concealed": "456m789p234s55z", "melds": ["{1111m}"], "win_tile": "5z",
                               "win_by": "kong_replacement", "wild": "9s", "options": {"gangkai_double": True}},
     True, "平胡", ["杠上开花"], 8, None),
    ("SR-no-robbing", SR, {"seat": 1, "concealed": "123m456m789m12p3p99s", "win_tile": "3p", "win_by": "rob_kong",
                           "discarder": 0},
     False, None, [], 0, {}),
    ("SR-bao-huanyuan-default", SR, {"concealed": "123m456m789p78s9s*5z5z", "win_tile": "5z", "wild": "9s"},
     False, None, [], 0, {}),
    ("SR-bao-huanyuan-option", SR, {"concealed": "123m456m789p78s9s*5z5z", "win_tile": "5z", "wild": "9s",
                                    "options": {"bao_huanyuan_counts_as_wubao": True}},
     True, "平胡", ["无宝"], 4, None),

    # ---- 撫州 ----
    ("JX-pengpeng", JX, {"seat": 1, "concealed": "111m999p555s11z777z", "win_tile": "5s", "win_by": "discard",
                         "discarder": 0},
     True, "碰碰胡", [], 3, pay(-3, 3, 0, 0)),
    ("JX-qingyise", JX, {"seat": 1, "concealed": "123456789m11m234m", "win_tile": "4m"},
     True, "平胡", ["清一色"], 5, pay(-5, 15, -5, -5)),
    ("JX-ziyise-pengpeng", JX, {"seat": 1, "concealed": "111222333444z55z", "win_tile": "5z"},
     True, "碰碰胡", ["清一色"], 15, pay(-15, 45, -15, -15)),
    ("JX-siguiyi-pon", JX, {"seat": 2, "concealed": "123m456p789s55z", "melds": ["[111m]"], "win_tile": "5z",
                            "win_by": "discard", "discarder": 3},
     True, "平胡", [], 2, pay(0, 0, 2, -2)),
    ("JX-kong-not-siguiyi", JX, {"seat": 2, "concealed": "123p456p789s55z", "melds": ["[1111m]"], "win_tile": "5z",
                                 "win_by": "discard", "discarder": 3},
     True, "平胡", [], 1, pay(0, 0, 1, -1)),
    ("JX-tianhu", JX, {"concealed": "123m456m789p234s55z", "win_by": "dealt"},
     True, "平胡", ["天胡"], 12, pay(36, -12, -12, -12)),
    ("JX-ting-dihu", JX, {"seat": 1, "concealed": "123m456m789p234s55z", "win_tile": "5z", "win_by": "discard",
                          "discarder": 0, "first_turn": True, "declared_ready": True},
     True, "平胡", ["地胡", "报听"], 24, pay(-24, 24, 0, 0)),
    ("JX-gangkai", JX, {"seat": 2, "concealed": "123p456p789s55z", "melds": ["{1111m}"], "win_tile": "5z",
                        "win_by": "kong_replacement"},
     True, "平胡", ["杠上开花"], 2, pay(-2, -2, 6, -2)),
    ("JX-qiangkong", JX, {"seat": 2, "concealed": "123m456m789p234s55z", "win_tile": "5z", "win_by": "rob_kong",
                          "discarder": 3},
     True, "平胡", ["抢杠"], 2, pay(0, 0, 2, -2)),
    ("JX-shisanlan-qixing-default", JX, {"seat": 1, "concealed": "147m25p36s1234567z", "win_tile": "7z",
                                         "win_by": "discard", "discarder": 0},
     True, "十三烂", [], 2, None),
    ("JX-shisanlan-qixing-option", JX, {"seat": 1, "concealed": "147m25p36s1234567z", "win_tile": "7z",
                                        "win_by": "discard", "discarder": 0, "options": {"qixing_bonus": True}},
     True, "十三烂", ["七星"], 3, None),
    ("JX-qidui-qingyise", JX, {"seat": 1, "concealed": "11223344557799m", "win_tile": "9m", "win_by": "discard",
                               "discarder": 0},
     True, "七对", ["清一色"], 20, pay(-20, 20, 0, 0)),

    # ---- 福州 ----
    ("FJ-pinghu-special", FJ, {"seat": 1, "concealed": "123m456m789m234p567s99s", "win_tile": "9s", "wild": "7p"},
     True, "平胡", [], 30, pay(-30, 90, -30, -30)),
    ("FJ-pinghu-discard", FJ, {"seat": 1, "concealed": "123m456m789m234p567s99s", "win_tile": "9s", "wild": "7p",
                               "win_by": "discard", "discarder": 2},
     True, "平胡", [], 30, pay(0, 60, -60, 0)),
    ("FJ-sanjindao", FJ, {"seat": 1, "concealed": "123m456m789m125p19s7p*7p*7p*", "win_tile": "5p", "wild": "7p"},
     True, "三金倒", [], 46, pay(-46, 138, -46, -46)),
    ("FJ-sanjindao-discard", FJ, {"seat": 1, "concealed": "123m456m789m125p19s7p*7p*7p*", "win_tile": "5p",
                                  "wild": "7p", "win_by": "discard", "discarder": 2},
     False, None, [], 0, {}),
    ("FJ-gold-discard-penalty", FJ, {"seat": 2, "concealed": "123m456m789m234p567s99s", "win_tile": "9s",
                                     "win_by": "discard", "discarder": 1, "flowers": ["1z", "5z", "f1"],
                                     "wild": "7p", "wild_discards": 1},
     False, None, [], 0, {}),
    ("FJ-gold-discard-penalty-off", FJ, {"seat": 2, "concealed": "123m456m789m234p567s99s", "win_tile": "9s",
                                         "win_by": "discard", "discarder": 1, "flowers": ["1z", "5z", "f1"],
                                         "wild": "7p", "wild_discards": 1,
                                         "options": {"gold_discard_tsumo_only": False}},
     True, "基本", [], 4, pay(0, -8, 8, 0)),
    ("FJ-dealer-streak", FJ, {"seat": 0, "concealed": "123m456m789m234p567s99s", "win_tile": "9s", "wild": "7p",
                              "flowers": ["f1"], "dealer_streak": 2},
     True, "基本", [], 8, pay(24, -8, -8, -8)),
    ("FJ-zhuazhuang", FJ, {"seat": 1, "concealed": "123m456m789m234p567s99s", "win_tile": "9s", "wild": "7p",
                           "flowers": ["f1"], "dealer_streak": 2},
     True, "基本", [], 4, pay(-6, 14, -4, -4)),
    ("FJ-honour-quartet", FJ, {"seat": 1, "concealed": "123m456m789m234p567s99s", "win_tile": "9s", "wild": "7p",
                               "flowers": ["1z", "1z", "1z", "1z"], "win_by": "discard", "discarder": 2},
     True, "基本", [], 7, pay(0, 14, -14, 0)),
    ("FJ-seasons", FJ, {"seat": 1, "concealed": "123m456m789m234p567s99s", "win_tile": "9s", "wild": "7p",
                        "flowers": ["f1", "f2", "f3", "f4"], "win_by": "discard", "discarder": 2},
     True, "基本", [], 7, pay(0, 14, -14, 0)),
    ("FJ-concealed-kong", FJ, {"seat": 1, "concealed": "123m456m789m234p99s", "melds": ["{1111s}"],
                               "win_tile": "9s", "wild": "7p"},
     True, "基本", [], 6, pay(-6, 18, -6, -6)),
    ("FJ-rob-kong", FJ, {"seat": 1, "concealed": "123m456m789m234p567s99s", "win_tile": "9s", "wild": "7p",
                         "flowers": ["f1"], "win_by": "rob_kong", "discarder": 3},
     True, "基本", [], 2, pay(0, 4, 0, -4)),
    ("FJ-cap", FJ, {"seat": 1, "concealed": "123m456m789m234p567s99s", "win_tile": "9s", "wild": "7p",
                    "options": {"loss_cap_per_hand": 10}},
     True, "平胡", [], 30, pay(-10, 30, -10, -10)),
    ("FJ-discarded-gold", FJ, {"seat": 1, "concealed": "123m456m789m234p567s9s7p*", "win_tile": "7p",
                               "win_by": "discard", "discarder": 2, "wild": "7p"},
     False, None, [], 0, {}),
    ("FJ-tianhu", FJ, {"seat": 0, "concealed": "123m456m789m234p567s99s", "win_by": "dealt", "wild": "7p",
                       "flowers": ["f2"]},
     True, "基本", ["天胡"], 32, pay(96, -32, -32, -32)),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_hand(load, case):
    _, variant, situation, win, pattern, extra, value, payments = case
    r = load(variant).evaluate(situation)
    assert r["win"] is win, r["reason"]
    assert r["pattern"] == pattern
    held = set(r["patterns"]) | {r["status"]}
    assert set(extra) <= held, (extra, held)
    assert r["value"] == value
    if payments is not None:
        assert r["payments"] == payments
    if r["payments"]:
        assert sum(r["payments"].values()) == 0
    assert r["explain"], "every verdict explains itself"
    if win:
        assert any(line["rule"] for line in r["explain"])


@pytest.mark.parametrize("variant,reason_part", [
    (SR, "below the minimum 4"), (JX, "no pattern fits"),
])
def test_losing_reasons(load, variant, reason_part):
    sit = {SR: {"concealed": "123m456m789p2s9s*55s3s", "win_tile": "3s", "wild": "9s"},
           JX: {"seat": 1, "concealed": "137m258p369s12345z", "win_tile": "5z", "win_by": "discard",
                "discarder": 0}}[variant]
    assert reason_part in load(variant).evaluate(sit)["reason"]


@pytest.mark.parametrize("indicator,wild", [("9m", "1m"), ("4z", "1z"), ("7z", "5z"), ("5p", "6p"), ("3z", "4z")])
def test_sr_t01_successor_cycles(load, indicator, wild):
    """SR-T01: each suit cycles 9 -> 1; winds 北 -> 東; dragons 白 -> 中."""
    from mjrules.model.tiles import parse_tile

    v = load(SR).variant
    assert v.wild.wild_kind(parse_tile(indicator).kind) == parse_tile(wild).kind


def test_fresh_hand_counts(load):
    """JX-T01 and FJ-T01: tiles, hand sizes and the wall left after the deal."""
    for name, total, hand, dealer, wall in ((JX, 136, 13, 14, 83), (FJ, 144, 16, 17, 79), (SR, 136, 13, 14, 83)):
        v = load(name).variant
        assert v.tiles.total == total
        assert (v.deal.hand, v.deal.dealer_hand) == (hand, dealer)
        assert total - (hand * (v.players - 1) + dealer) == wall
