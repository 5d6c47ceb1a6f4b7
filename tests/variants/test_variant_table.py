"""One situation per row, and its expected verdict and value in every shipped variant (sqlglot's validate_all).

Every expected value was worked out by hand from ../shared/rules/*.md and the specs, never copied from the
engine; the derivation is in each row's `why`. A column is one of:

- ``None``: the situation is not legal in that variant (SituationError: another hand size, a tile that is a
  scored flower there, a wild marked in a variant without wilds, a way of winning it lacks);
- ``NO`` or ``no("part of the reason")``: legal, and not a win (value 0);
- ``(True, PATTERN, VALUE)`` or ``(True, PATTERN, VALUE, {NAMES})``: a win by that pattern and value, with
  every NAME among the result's patterns, modifiers, events and status.

An overlay's column may be left out when the overlay does not change the verdict: it then expects what
its base expects (each overlay changes one option; the rows where that option matters give both columns).
Rows default to seat 1 (not the dealer; the dealer is seat 0) winning by self-draw.
"""
from __future__ import annotations

import functools
from typing import Any

import mjrules
import pytest
from mjrules.compiler import compile_variant, shipped_names

SR, WY, JX, FJ, FN = ("shangrao", "shangrao_wuyuan", "fuzhou_jiangxi", "fuzhou_fujian",
                      "fuzhou_fujian_no_gold_penalty")
NO = (False, None, 0)


def no(reason: str) -> tuple:
    return (False, None, 0, reason)


_ROW_KEYS = {"id", "situation", "expect", "why", "xfail"}


def row(rid: str, concealed: str, win_tile: str | None = None, *, why: str, discard_from: int | None = None,
        xfail: dict[str, str] | None = None, **kw: Any) -> dict[str, Any]:
    expect = {k: kw.pop(k) for k in list(kw) if k in (SR, WY, JX, FJ, FN)}
    sit: dict[str, Any] = {"seat": 1, "concealed": concealed}
    if win_tile is not None:
        sit["win_tile"] = win_tile
    if discard_from is not None:
        sit["win_by"], sit["discarder"] = "discard", discard_from
    sit.update(kw)
    return {"id": rid, "situation": sit, "expect": expect, "why": why, "xfail": xfail or {}}


ROWS = [
    # ---- 十三烂: 撫州 and 上饶 (JX-11, SR-12); not a pattern in 福州 --------------------------------------------
    row("rotten-5-honours", "147m258p369s12345z", "5z", wild="2s",
        shangrao=(True, "十三烂", 4, {"无宝"}), fuzhou_jiangxi=(True, "十三烂", 2), fuzhou_fujian=None,
        why="gaps of 3 in every suit, 5 distinct honours. SR: T[十三烂, 无宝] = 4 (SR-14). JX: S = 2 (JX-21). "
            "FJ: 14 tiles, and honours are flowers there"),
    row("rotten-5-honours-on-discard", "147m258p369s12345z", "5z", discard_from=0,
        shangrao=no("does not allow a win on this discard"), fuzhou_jiangxi=(True, "十三烂", 2), fuzhou_fujian=None,
        why="JX-T11: the discarder pays 2. SR-11: no win on an ordinary discard (not the first discard)"),
    row("distinct-but-gap-2", "137m258p369s12345z", "5z", discard_from=0,
        shangrao=no("does not allow"), fuzhou_jiangxi=no("no pattern fits"), fuzhou_fujian=None,
        why="JX-T12: 1m and 3m differ by 2 < 3, and no other pattern fits; SR refuses the discard first"),
    row("distinct-but-gap-2-self-draw", "137m258p369s12345z", "5z", wild="9p",
        shangrao=no("no pattern fits"), fuzhou_jiangxi=no("no pattern fits"), fuzhou_fujian=None,
        why="1m-3m breaks the spacing of 十三烂 in both; not 九幺 (3m, 7m are simples)"),
    row("rotten-6-honours", "147m258p36s123456z", "6z", wild="9p",
        shangrao=(True, "十三烂", 4, {"无宝"}), fuzhou_jiangxi=(True, "十三烂", 2), fuzhou_fujian=None,
        why="SR-T18: no 7z, so not 七星: 十三烂 无宝 = 4; JX: 2"),
    row("rotten-7-stars", "147m25p36s1234567z", "7z", wild="9p",
        shangrao=(True, "十三烂", 8, {"七星", "无宝"}), fuzhou_jiangxi=(True, "十三烂", 2), fuzhou_fujian=None,
        why="all seven honours: SR T[十三烂 七星, 无宝] = 8; JX 七星 only with qixing_bonus (off, JX-12): 2"),
    row("rotten-7-stars-on-discard", "147m25p36s1234567z", "7z", discard_from=0,
        shangrao=no("does not allow"), fuzhou_jiangxi=(True, "十三烂", 2), fuzhou_fujian=None,
        why="JX-shisanlan-qixing-default on a discard: 2; SR no win on a discard"),
    row("rotten-one-bao", "147m258p369s1234z2m*", "4z", wild="2m",
        shangrao=no("below the minimum 4"), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="the 宝 can only be 5z, 6z or 7z (2m at face breaks 1m-2m spacing): 5 honours, no 七星; the pre-draw "
            "hand does not win on 1m, so 有宝 (SR-13): T = 2 < 4 (SR-14) in 上饶 and 婺源 alike. JX has no wilds"),
    row("rotten-two-bao-seven-stars", "147m258p3s12345z9s*9s*", "1z", wild="9s",
        shangrao=(True, "十三烂", 4, {"七星", "有宝"}), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="the two 宝 as 6z and 7z make 七星; not 宝调 (no win on a second 4m); T[十三烂 七星, 有宝] = 4 >= 4. "
            "Both 宝 at face would repeat 9s, so 婺源 agrees"),
    row("rotten-bao-at-face", "47m258p369s12345z1m*", "5z", wild="1m",
        shangrao=no("below the minimum 4"), shangrao_wuyuan=(True, "十三烂", 4, {"无宝"}),
        fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="the 宝 1m* stands for itself (1m 4m 7m): 上饶 counts the 宝 (SR-13 literal): 有宝 2 < 4; 婺源 "
            "(bao_huanyuan_counts_as_wubao): 宝还原 is 无宝: 4"),

    # ---- 九幺: 上饶 only -------------------------------------------------------------------------------------
    row("jiuyao-seven-stars", "119m19p19s1234567z", "1m", wild="5p",
        shangrao=(True, "九幺", 8, {"七星", "无宝"}), fuzhou_jiangxi=no("no pattern fits"), fuzhou_fujian=None,
        why="SR-12 九幺 with all seven honours, 无宝: 8. JX-10: no 九幺 and 1m repeats (not 十三烂)"),
    row("jiuyao-plain", "111m999p11s99s1234z", "4z", wild="5p",
        shangrao=(True, "九幺", 4, {"无宝"}), fuzhou_jiangxi=no("no pattern fits"), fuzhou_fujian=None,
        why="all terminals and honours, no sequence, four honours only: T[九幺, 无宝] = 4; no standard reading"),
    row("jiuyao-bao-seven-stars", "119m19p19s123456z5m*", "1m", wild="5m",
        shangrao=(True, "九幺", 4, {"七星", "有宝"}), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="the 宝 is 7z: 七星; the pre-draw hand does not win on 2m, so 有宝: T = 4; 5m at face is not 九幺"),

    # ---- 七对: 撫州 and 上饶; 福州 has no 七对 and 14 tiles are not a hand there ------------------------------
    row("seven-pairs", "1133m5577p99s11z88s", "8s", wild="2m",
        shangrao=(True, "七对", 16, {"无宝"}), fuzhou_jiangxi=(True, "七对", 4), fuzhou_fujian=None,
        why="SR 七对 无宝 16 (SR-14); JX S = 4 (JX-21); FJ-02: no 七对, and a hand has 17 tiles"),
    row("seven-pairs-on-discard", "1133m5577p99s11z88s", "8s", discard_from=3, seat=0,
        shangrao=no("does not allow"), fuzhou_jiangxi=(True, "七对", 4), fuzhou_fujian=None,
        why="JX-T27 seat 1's hand, won by the dealer here: the discarder pays 4; SR refuses the discard"),
    row("seven-pairs-four-alike-discard", "1111m55p66p88s33z44z", "4z", discard_from=0,
        shangrao=no("does not allow"), fuzhou_jiangxi=(True, "七对", 8), fuzhou_fujian=None,
        why="JX-T07: four 1m are two pairs and one 四規一: 4 x 2 = 8"),
    row("seven-pairs-four-alike", "1111m55p66p88s33z44z", "4z", wild="9p",
        shangrao=(True, "七对", 16, {"无宝"}), fuzhou_jiangxi=(True, "七对", 8), fuzhou_fujian=None,
        why="SR: four alike count as two pairs, no 四歸一 bonus (SR-12): 16; JX: 4 x 2^1 = 8"),
    row("seven-pairs-two-fours", "11112222m5566p77s", "7s", wild="9p",
        shangrao=(True, "七对", 16), fuzhou_jiangxi=(True, "七对", 16), fuzhou_fujian=None,
        why="JX: 4 x 2^2 (1m and 2m) = 16; SR: 无宝 七对 = 16: the variants agree here"),
    row("seven-pairs-pure", "11223344557799m", "9m", wild="9s",
        shangrao=(True, "七对", 32, {"清一色", "无宝"}), fuzhou_jiangxi=(True, "七对", 20, {"清一色"}),
        fuzhou_fujian=None,
        why="no standard reading; SR T[七对 清一色, 无宝] = 32; JX 4 x Q 5 = 20"),
    row("seven-pairs-honours", "11223344556677z", "7z", wild="2m",
        shangrao=(True, "七对", 64, {"清一色", "幺九", "无宝"}), fuzhou_jiangxi=(True, "七对", 20, {"清一色"}),
        fuzhou_fujian=None,
        why="SR-T13: 字一色 七对 (清一色 and 幺九) 无宝 = 64; JX: 字一色 counts as 清一色: 4 x 5 = 20"),
    row("seven-pairs-bao-pair-wait", "1133m5577p99s11z8s9m*", "8s", wild="9m",
        shangrao=(True, "七对", 12, {"宝调"}), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="six pairs and a lone 宝 before the draw win on every kind: 宝调 (SR-13): T[七对, 宝调] = 12"),
    row("seven-pairs-bao-at-face", "1133m5577p11z88s9s*9s*", "8s", wild="9s",
        shangrao=(True, "七对", 12, {"宝调"}), shangrao_wuyuan=(True, "七对", 16, {"无宝"}),
        fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="pre-draw: five pairs, 8s and two 宝: any draw pairs with a 宝, so 宝调 12; 婺源 reads 9s 9s at face: "
            "无宝 16"),

    # ---- 平胡 and its relatives ---------------------------------------------------------------------------------
    row("pinghu-discard", "123m456p789s234s55z", "5z", discard_from=1, seat=2,
        shangrao=no("does not allow"), fuzhou_jiangxi=(True, "平胡", 1), fuzhou_fujian=None,
        why="JX-T03: S = 1, the discarder pays 1; SR self-draw only"),
    row("pinghu-self-draw", "123m456p789s234s55z", "5z", wild="9p",
        shangrao=(True, "平胡", 4, {"无宝"}), fuzhou_jiangxi=(True, "平胡", 1), fuzhou_fujian=None,
        why="SR T[平胡, 无宝] = 4; JX 1, each of the others pays 1"),
    row("pinghu-dealer-self-draw", "123m456p789s234s55z", "5z", wild="9p", seat=0,
        shangrao=(True, "平胡", 4), fuzhou_jiangxi=(True, "平胡", 1), fuzhou_fujian=None,
        why="no dealer multiplier in either (SR-16, JX-21)"),
    row("sr-t04-youbao-too-small", "123m456m789p2s9s*55s3s", "3s", wild="9s",
        shangrao=no("below the minimum 4"), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="SR-T04: the 宝 must be 1s or 4s; not 宝调 (no win on 7z): 有宝 平胡 = 2 < 4; never at face"),
    row("sr-t06-bao-pair-wait", "123m456m789p234s9s*7z", "7z", wild="9s",
        shangrao=(True, "平胡", 4, {"宝调"}), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="SR-T06: four sets and a lone 宝 win on every kind: 宝调 4"),
    row("bao-pair-wait-draws-bao", "123m456m789p234s9s*9s*", "9s", wild="9s",
        shangrao=(True, "平胡", 4, {"宝调"}), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="drawing the second 宝 onto a lone 宝: still 宝调 (not 无宝: 9s 9s at face is a pair in 婺源 too, but "
            "4 sets + a face pair is 平胡 无宝 = 4 as well): 4 everywhere"),
    row("bao-at-face-pinghu", "123m456m789p78s9s*5z5z", "5z", wild="9s",
        shangrao=no("below the minimum 4"), shangrao_wuyuan=(True, "平胡", 4, {"无宝"}),
        fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="SR-bao-huanyuan: 9s* completes 789s at face. SR-13 literal: a 宝 in hand is 有宝: 2 < 4; 婺源: 无宝 4"),
    row("feibao-doubles-twice", "123m456m789p234s9s*7z", "7z", wild="9s", wild_discards=2,
        shangrao=(True, "平胡", 16, {"宝调"}), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="SR-14: 4 x 2^2 for two 飞宝"),
    row("feibao-wubao", "123m456p789s234s55z", "5z", wild="9p", wild_discards=1,
        shangrao=(True, "平胡", 8, {"无宝"}), fuzhou_jiangxi=(True, "平胡", 1), fuzhou_fujian=None,
        why="SR: 4 x 2 for one 飞宝; JX has no wilds and ignores the count: 1"),
    row("pure-pinghu", "123456789m11m234m", "4m", wild="9s",
        shangrao=(True, "平胡", 16, {"清一色", "无宝"}), fuzhou_jiangxi=(True, "平胡", 5, {"清一色"}),
        fuzhou_fujian=None,
        why="SR T[平胡 清一色, 无宝] = 16; JX 1 x 5 (only three 1m: no 四規一)"),
    row("pure-pinghu-youbao", "123456789m11m23m9s*", "2m", wild="9s",
        shangrao=(True, "平胡", 8, {"清一色", "有宝"}), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="the 宝 is 1m or 4m and takes the suit (SR-09); pre-draw does not win on 1z: 有宝: 8"),
    row("pengpeng", "111m999p555s11z777z", "5s", wild="2m",
        shangrao=(True, "碰碰胡", 16, {"无宝"}), fuzhou_jiangxi=(True, "碰碰胡", 3), fuzhou_fujian=None,
        why="SR 碰碰胡 无宝 16 beats 平胡 4; JX S = 3"),
    row("pengpeng-discard", "111m999p555s11z777z", "5s", discard_from=0,
        shangrao=no("does not allow"), fuzhou_jiangxi=(True, "碰碰胡", 3), fuzhou_fujian=None,
        why="JX-pengpeng: the discarder pays 3; SR self-draw only"),
    row("pengpeng-yaojiu", "111m999p111s11z777z", "1s", wild="2m",
        shangrao=(True, "碰碰胡", 32, {"幺九", "无宝"}), fuzhou_jiangxi=(True, "碰碰胡", 3), fuzhou_fujian=None,
        why="SR: 碰碰胡 幺九 无宝 32 beats structure-free 九幺 (4); JX has no 九幺: 3"),
    row("pengpeng-honours", "111222333444z55z", "5z", wild="2m",
        shangrao=(True, "碰碰胡", 64, {"清一色", "幺九"}), fuzhou_jiangxi=(True, "碰碰胡", 15, {"清一色"}),
        fuzhou_fujian=None,
        why="字一色 碰碰胡: SR row 碰碰胡 幺九 清一色 无宝 = 64; JX-ziyise-pengpeng: 3 x 5 = 15"),
    row("pengpeng-pure", "111333555777m99m", "9m", wild="9s",
        shangrao=(True, "碰碰胡", 32, {"清一色"}), fuzhou_jiangxi=(True, "碰碰胡", 15, {"清一色"}),
        fuzhou_fujian=None,
        why="SR 碰碰胡 清一色 无宝 32 (over 平胡 清一色 16); JX 3 x 5"),
    row("pengpeng-youbao", "111m999p555s11z77z9s*", "7z", wild="9s",
        shangrao=(True, "碰碰胡", 8, {"有宝"}), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="the 宝 is 1z or 7z; pre-draw does not win on 2m: 有宝. SR-15 literal table: 碰碰胡 有宝 = 8"),
    row("pengpeng-bao-pair-wait", "111m999p555s777z3z9s*", "3z", wild="9s",
        shangrao=(True, "碰碰胡", 12, {"宝调"}), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="four pungs and a lone 宝 win on every kind: 碰碰胡 宝调 12"),
    row("pengpeng-two-bao-at-face", "111m999p555s111z9s*9s*", "1z", wild="9s",
        shangrao=(True, "碰碰胡", 12, {"宝调"}), shangrao_wuyuan=(True, "碰碰胡", 16, {"无宝"}),
        fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="pre-draw 111m 999p 555s 11z + two 宝 wins on every kind (宝调 12); 婺源: the 宝 pair at face, 无宝 16"),

    # ---- 四規一 (JX-13): 撫州 only -------------------------------------------------------------------------------
    row("four-alike-in-hand", "111123m456p789s55z", "5z", wild="9p",
        shangrao=(True, "平胡", 4), fuzhou_jiangxi=(True, "平胡", 2), fuzhou_fujian=None,
        why="JX: all four 1m in the hand, not a kong: x2; SR has no 四歸一: 4"),
    row("four-alike-with-pon", "123m456p789s55z", "5z", melds=["[111m]"], discard_from=3, seat=2,
        shangrao=no("does not allow"), fuzhou_jiangxi=(True, "平胡", 2), fuzhou_fujian=None,
        why="JX-13(b): a pon plus the fourth in hand counts: 1 x 2"),
    row("four-alike-with-pon-self-draw", "123m456p789s55z", "5z", melds=["[111m]"], wild="2s",
        shangrao=(True, "平胡", 4), fuzhou_jiangxi=(True, "平胡", 2), fuzhou_fujian=None,
        why="JX 2 as above; SR 平胡 无宝 4"),
    row("kong-is-not-four-alike", "123p456p789s55z", "5z", melds=["[1111m]"], discard_from=3, seat=2,
        shangrao=no("does not allow"), fuzhou_jiangxi=(True, "平胡", 1), fuzhou_fujian=None,
        why="JX-13: a declared kong is not 四規一: 1"),

    # ---- events ---------------------------------------------------------------------------------------------------
    row("dihu", "123m456m789m12p3p99s", "3p", discard_from=0, first_turn=True, first_discard=True,
        shangrao=(True, "平胡", 16, {"地胡"}), fuzhou_jiangxi=(True, "平胡", 12, {"地胡"}), fuzhou_fujian=None,
        why="SR-T28: 地胡 16 flat (SR-17); JX-15: 地胡 x12 on 平胡 1 = 12"),
    row("dihu-declared-ready", "123m456m789p234s55z", "5z", discard_from=0, first_turn=True, first_discard=True,
        declared_ready=True,
        shangrao=(True, "平胡", 16, {"地胡"}), fuzhou_jiangxi=(True, "平胡", 24, {"地胡", "报听"}), fuzhou_fujian=None,
        why="JX-16: 聽-地胡 = 12 x 2 = 24; SR has no 报听: 地胡 16"),
    row("declared-ready-later-discard", "123m456m789p234s55z", "5z", discard_from=0, first_turn=True,
        declared_ready=True,
        shangrao=no("does not allow"), fuzhou_jiangxi=(True, "平胡", 24, {"地胡", "报听"}), fuzhou_fujian=None,
        why="JX-15: any discard before one's first draw is 地胡 (x12, x2 报听); SR-11: only on the first discard"),
    row("tianhu", "123m456m789p234s55z", win_by="dealt", seat=0, wild="9s",
        shangrao=(True, "平胡", 16, {"天胡"}), fuzhou_jiangxi=(True, "平胡", 12, {"天胡"}), fuzhou_fujian=None,
        why="SR-17 天胡 16; JX-14 x12"),
    row("rob-kong", "123m456m789p234s55z", "5z", win_by="rob_kong", discarder=3, seat=2,
        shangrao=no("robbing a kong"), fuzhou_jiangxi=(True, "平胡", 2, {"抢杠"}), fuzhou_fujian=None,
        why="SR-11: no 抢杠; JX-18: x2"),
    row("rob-kong-first-turn", "123m456m789p234s55z", "5z", win_by="rob_kong", discarder=0, first_turn=True,
        shangrao=no("robbing a kong"), fuzhou_jiangxi=(True, "平胡", 24, {"抢杠", "地胡"}), fuzhou_fujian=None,
        why="JX-15: a robbed 加杠 before one's first draw is 地胡 too: 1 x 2 x 12"),
    row("kong-replacement", "456m789p234s55z", "5z", melds=["{1111m}"], win_by="kong_replacement", wild="9s",
        shangrao=(True, "平胡", 4, {"杠上开花"}), fuzhou_jiangxi=(True, "平胡", 2, {"杠上开花"}), fuzhou_fujian=None,
        why="SR-18: no multiplier by default: 4; JX-17: x2"),
    row("discarded-bao", "123m456m789p234s7z9s*", "9s", discard_from=0, first_turn=True, first_discard=True,
        wild="9s",
        shangrao=no("cannot be claimed"), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="SR-10: a discarded 宝 is 飞宝, nobody may claim it, not even for 地胡"),

    # ---- 福州: 17-tile hands, the 金, flowers; none of them exists in the 14-tile variants -------------------------
    row("fj-t04", "123m456m789m234p567s99s", "9s", discard_from=1, seat=2, flowers=["1z", "5z", "f1"], wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "基本", 4),
        why="FJ-T04: F = 3, U = 1 + 3 = 4 (the discarder pays 8); 17 tiles and flowers exist only in 福州"),
    row("fj-t06", "123m456m234p6s7p*8s99m", "9m", melds=["[5555s]"], discard_from=3, seat=2, flowers=["2z", "f5"],
        wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "基本", 5),
        why="FJ-T06: F = 2 flowers + 1 gold + 1 明杠 = 4, U = 5"),
    row("fj-t12-rob-gold", "123m456m789m234p567s9s7p*", "7p", win_by="rob_gold", flowers=["3z", "f3"], wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "基本", 36, {"抢金"}),
        why="FJ-T12: k = 30, F = 2 + 1 robbed gold = 3: 30 + 6 = 36"),
    row("fj-t20-golden-sparrow", "123m456m789m234p57s7p*7p*6s", "6s", discard_from=0, seat=3, flowers=["f8"],
        wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "金雀", 66),
        why="FJ-T20: k = 60, F = 1 flower + 2 golds = 3: 66; the dealer pays 132"),
    row("fj-golden-sparrow-third-gold", "123m456m789m234p56s7p*7p*7p*", "6s", wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "金雀", 66),
        why="FJ-17: only the largest k: 金雀 60 (not 60 + 40 for 三金倒); F = 3 golds: 60 + 6"),
    row("fj-pinghu-self-draw", "123m456m789m234p567s99s", "9s", wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "平胡", 30),
        why="FJ-13: no flower, no kong: k = 30, F = 0"),
    row("fj-pinghu-discard", "123m456m789m234p567s99s", "9s", discard_from=2, wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "平胡", 30),
        why="FJ-13 needs no self-draw; U = 30 (the discarder pays 60)"),
    row("fj-pinghu-gold-at-face", "123m456m789m234p56p99s7p*", "9s", wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "平胡", 32),
        why="the gold is 7p (or 4p) in 567p; golds do not spoil 平胡 and count in F: 30 + 2 x 1"),
    row("fj-three-golds", "123m456m789m125p19s7p*7p*7p*", "5p", wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "三金倒", 46),
        why="FJ-14: k = 40, F = 3 golds: 46; no basic reading (1s, 9s)"),
    row("fj-three-golds-on-discard", "123m456m789m125p19s7p*7p*7p*", "5p", discard_from=2, wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=no("三金倒"),
        why="FJ-14: 三金倒 only on one's own turn; no basic reading either"),
    row("fj-three-golds-rob-gold", "123m456m789m125p19s7p*7p*7p*", "7p", win_by="rob_gold", wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=no("三金倒"),
        why="FJ-11: a 三金倒 shape does not qualify for 抢金"),
    row("fj-gold-discard-penalty", "123m456m789m234p567s99s", "9s", discard_from=1, seat=2,
        flowers=["1z", "5z", "f1"], wild="7p", wild_discards=1,
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=no("only self-draw"),
        fuzhou_fujian_no_gold_penalty=(True, "基本", 4),
        why="FJ-08 gold_discard_tsumo_only (default on): no discard win after discarding a gold; the overlay "
            "turns it off: FJ-T04's 4"),
    row("fj-gold-discard-penalty-pinghu", "123m456m789m234p567s99s", "9s", discard_from=2, wild="7p",
        wild_discards=1,
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=no("only self-draw"),
        fuzhou_fujian_no_gold_penalty=(True, "平胡", 30),
        why="as above, for 平胡 (30)"),
    row("fj-gold-discard-penalty-rob-kong", "123m456m789m234p567s99s", "9s", win_by="rob_kong", discarder=3,
        flowers=["f1"], wild="7p", wild_discards=1,
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=no("only self-draw"),
        fuzhou_fujian_no_gold_penalty=(True, "基本", 2),
        why="FJ-08 forbids 抢杠 too; without the penalty: F = 1, U = 2 (the konger pays 4)"),
    row("fj-gold-discard-self-draw", "123m456m789m234p567s99s", "9s", flowers=["1z", "5z", "f1"], wild="7p",
        wild_discards=1,
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "基本", 8),
        why="self-draw stays allowed: (1 + 3) x 2 = 8 in both"),
    row("fj-dealer-streak", "123m456m789m234p567s99s", "9s", seat=0, flowers=["f1"], dealer_streak=2, wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "基本", 8),
        why="FJ-19/20: L_d = 2: (1 + 1 + 2) x 2 = 8"),
    row("fj-zhuazhuang", "123m456m789m234p567s99s", "9s", flowers=["f1"], dealer_streak=2, wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "基本", 4),
        why="FJ-20: a non-dealer winner has L_d = 0: (1 + 1) x 2 = 4 (the dealer pays 2 more, flat)"),
    row("fj-honour-quartet", "123m456m789m234p567s99s", "9s", discard_from=2, flowers=["1z", "1z", "1z", "1z"],
        wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "基本", 7),
        why="FJ-18: four 東 count 6: U = 1 + 6 = 7"),
    row("fj-seasons", "123m456m789m234p567s99s", "9s", discard_from=2, flowers=["f1", "f2", "f3", "f4"], wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "基本", 7),
        why="FJ-18: 春夏秋冬 complete counts 6: 7"),
    row("fj-concealed-kong", "123m456m789m234p99s", "9s", melds=["{1111s}"], wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "基本", 6),
        why="a kong rules out 平胡; 暗杠 = 2 flowers: (1 + 2) x 2 = 6"),
    row("fj-kong-replacement", "123m456m789m234p99s", "9s", melds=["[5555s]"], win_by="kong_replacement",
        wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "基本", 4),
        why="no 杠上开花 bonus in 福州: a self-draw with F = 1 明杠: (1 + 1) x 2 = 4"),
    row("fj-discarded-gold", "123m456m789m234p567s9s7p*", "7p", discard_from=2, wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=no("cannot be claimed"),
        why="FJ-08: a discarded gold cannot be won on"),
    row("fj-tianhu", "123m456m789m234p567s99s", win_by="dealt", seat=0, flowers=["f2"], wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "基本", 32, {"天胡"}),
        why="FJ-12: 天胡 scores as 抢金, k = 30; F = 1: 32"),
    row("fj-pairs-are-no-pattern", "11335577m11335599p9s", "9s", wild="7s",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=no("no pattern fits"),
        why="FJ-02: no 七对 in 福州; eight pairs and a single are no basic win"),
    row("bao-pair-vs-gold-pair-sr", "123m456m789p234s9s*9s*", "9s", wild="9s", seat=2,
        shangrao=(True, "平胡", 4, {"宝调"}), fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="上饶: two 宝 as the pair score only 宝调 平胡 4 (SR-13)"),
    row("bao-pair-vs-gold-pair-fj", "123m456m789m234p567s7p*7p*", "7p", wild="7p", seat=2,
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=(True, "金雀", 64),
        why="福州: two golds as the pair are 金雀 (FJ-15): k = 60, F = 2: 64"),
    row("honour-in-a-fujian-hand", "123m456m789m234p567s11z", "1z", wild="7p",
        shangrao=None, fuzhou_jiangxi=None, fuzhou_fujian=None,
        why="17 tiles are not a hand in the 14-tile variants; in 福州 東 is a scored flower and never in a hand"),
]


# The variants this table has a column for. A variant shipped later gets its own table of hands worked out from
# its rules until its column here is worked out row by row (四川血战到底, 广东推倒胡: OWN_TABLES); the test below
# keeps that list honest.
OWN_TABLES = {"sichuan_xuezhan": "tests/test_sichuan.py", "guangdong_tuidaohu": "tests/test_guangdong.py"}


def _variants() -> list[str]:
    return sorted(n for n in shipped_names() if n not in OWN_TABLES)


def test_every_shipped_variant_has_a_table_of_hands():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for name in shipped_names():
        assert name in _variants() or (root / OWN_TABLES[name].removeprefix("tests/")).is_file(), name


@functools.cache
def _base_of(name: str) -> str | None:
    return compile_variant(name).extends


def expected(r: dict[str, Any], variant: str) -> Any:
    """The row's column for a variant, or its base's column for an overlay that leaves it out."""
    name = variant
    while name not in r["expect"]:
        base = _base_of(name)
        if base is None:
            raise KeyError(f"row {r['id']} has no column for {variant}")
        name = base
    return r["expect"][name]


_ENGINES: dict[str, Any] = {}


def _engine(variant: str) -> Any:
    if variant not in _ENGINES:
        _ENGINES[variant] = mjrules.load(variant, backend="reference")
    return _ENGINES[variant]


def test_the_table_is_large_and_covers_every_pattern():
    assert len(ROWS) >= 60
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    for v in _variants():
        won = {expected(r, v)[1] for r in ROWS if expected(r, v) is not None and expected(r, v)[0]}
        patterns = {p.name for p in compile_variant(v).patterns}
        assert patterns <= won, f"{v}: no row wins by {sorted(patterns - won)}"
        assert any(expected(r, v) is None for r in ROWS), v
        assert any(expected(r, v) is not None and not expected(r, v)[0] for r in ROWS), v


@pytest.mark.parametrize("variant", _variants())
def test_every_row_has_every_shipped_variant(variant):
    for r in ROWS:
        expected(r, variant)


CASES = [pytest.param(r, v, id=f"{r['id']}-{v}",
                      marks=[pytest.mark.xfail(reason=r["xfail"][v], strict=True)] if v in r["xfail"] else [])
         for r in ROWS for v in sorted([SR, WY, JX, FJ, FN])]


@pytest.mark.parametrize(("r", "variant"), CASES)
def test_row(r, variant):
    exp = expected(r, variant)
    eng = _engine(variant)
    if exp is None:
        with pytest.raises(mjrules.SituationError):
            eng.evaluate(r["situation"])
        return
    res = eng.evaluate(r["situation"])
    win, pattern, value = exp[:3]
    got = (res["win"], res["pattern"], res["value"])
    assert got == (win, pattern, value), f"{r['id']} in {variant}: expected {exp}, got {got}: {res['reason']}\n" \
                                         f"  why: {r['why']}"
    if len(exp) > 3:
        if win:
            held = set(res["patterns"]) | {res["status"]}
            assert set(exp[3]) <= held, (exp[3], held)
        else:
            assert exp[3] in res["reason"], (exp[3], res["reason"])
    if res["payments"]:
        assert sum(res["payments"].values()) == 0
