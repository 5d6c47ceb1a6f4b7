"""湖南转转麻将 (specs/zhuanzhuan.mj) against its rule book, docs/rules/zhuanzhuan.md: hands scored alone (ZZ-03..
ZZ-14), and the book's worked examples ZZ-Ex1..ZZ-Ex6 played whole through scenarios on both back ends: birds
turned from the wall at a win and counted from the winner (ZZ-15..ZZ-17), 抢杠胡 包三家 (ZZ-19), kongs in a drawn
hand (ZZ-20, ZZ-21) and the last drawer dealing next (ZZ-24)."""
from __future__ import annotations

import pytest
from mjrules.game import play_hand
from mjrules.game.scenario import play_scenario

ZZ = "zhuanzhuan"

# (situation, patterns, value, what each other seat pays when the hand is scored alone: no bird is turned)
HANDS = [
    ({"concealed": "123m456m789m77p6s8s5z*", "win_tile": "8s"}, ["平胡"], 2, {0: 2, 2: 2, 3: 2}),       # ZZ-03
    ({"concealed": "234m678m456p99s888s", "win_tile": "6p"}, ["平胡"], 2, {0: 2, 2: 2, 3: 2}),        # ZZ-11
    ({"concealed": "11m55m3p5z*88p22s66s99s", "win_tile": "9s"}, ["七对"], 2, {0: 2, 2: 2, 3: 2}),    # ZZ-12
    ({"concealed": "11m55m3p5z*88p22s66s99s", "win_tile": "9s", "options": {"qi_dui_double": True}},
     ["七对"], 4, {0: 4, 2: 4, 3: 4}),                                                               # ZZ-13
    ({"concealed": "1111m22p33p44p55s66s", "win_tile": "6s"}, ["七对"], 2, {0: 2, 2: 2, 3: 2}),       # four alike: two pairs
    ({"concealed": "1147m258p369s5z*5z*5z*5z*", "win_tile": "1m"}, ["四红中"], 2, {0: 2, 2: 2, 3: 2}),  # ZZ-05
    ({"concealed": "456m123p789p234s99s", "win_tile": "6m", "win_by": "discard", "discarder": 3,
      "options": {"jiepao": True}}, ["平胡"], 1, {3: 1}),                                              # ZZ-14
    ({"concealed": "456m123p789p234s99s", "win_tile": "6m", "win_by": "rob_kong", "discarder": 3}, ["平胡"], 2,
     {3: 6}),                                                                                         # ZZ-19 包三家
    ({"concealed": "456m123p789p234s99s", "win_tile": "6m", "win_by": "rob_kong", "discarder": 3,
      "options": {"qiang_gang_bao_san_jia": False}}, ["平胡"], 1, {3: 1}),                            # ZZ-19 off
]


@pytest.mark.parametrize("case", range(len(HANDS)))
def test_hands(load, case):
    sit, patterns, value, paid = HANDS[case]
    r = load(ZZ).evaluate({"seat": 1, **sit})
    assert r["win"], r.get("reason")
    assert (list(r["patterns"]), r["value"]) == (patterns, value)
    assert {p: -x for p, x in r["payments"].items() if x < 0} == paid
    assert sum(r["payments"].values()) == 0


@pytest.mark.parametrize("sit,why", [
    ({"concealed": "456m123p789p234s99s", "win_tile": "6m", "win_by": "discard", "discarder": 3}, "discard"),   # ZZ-08
    ({"concealed": "456m123p789p234s9s5z*", "win_tile": "6m", "win_by": "discard", "discarder": 3,
      "options": {"jiepao": True, "you_hongzhong_bu_jiepao": True}}, "有红中不接炮"),                       # ZZ-08
    ({"concealed": "1147m258p369s5z*5z*5z*5z*", "win_tile": "1m", "win_by": "rob_kong", "discarder": 3},
     "own turn"),                                                                                               # ZZ-05
    ({"concealed": "456m123p789p234s99s", "win_tile": "6m", "win_by": "rob_kong", "discarder": 3,
      "options": {"qiang_gang_hu": False}}, "抢杠胡"),                                                       # ZZ-09
    ({"concealed": "11m55m3p5z*88p22s66s99s", "win_tile": "9s", "options": {"qi_dui": False}}, ""),         # ZZ-12
])
def test_not_a_win(load, sit, why):
    r = load(ZZ).evaluate({"seat": 1, **sit})
    assert not r["win"]
    assert why in str(r.get("reason"))


def _scenario(hands: list[str], wall: str, actions: list[tuple], **extra) -> dict:
    acts = []
    for a in actions:
        seat, kind, *rest = a
        d = {"seat": seat, "type": kind}
        if rest:
            d["tile"] = rest[0]
        acts.append(d)
    return {"variant": ZZ, "hands": hands, "wall": wall, "actions": acts, "then": "pass", **extra}


# The rule book's worked examples: (scenario, net per seat, next dealer, the birds turned and where they point)
EXAMPLES = {
    # ZZ-Ex1: a self-draw on the wall's last tile: no bird can be turned
    "Ex1": (_scenario(["1m1m4p4p7s7s2m9p3s6m8p1s5s9m", "234m678m45p99s888s", "3m6m9m3p6p2s5s8s1p1p2p4m7m",
                       "2m5m8m1s4s7s9s5p7p7p3m6m2s"],
                      "2p3p8m5m6p",
                      [(0, "discard", "9m"), (1, "discard", "2p"), (2, "discard", "3p"), (3, "discard", "8m"),
                       (0, "discard", "5m"), (1, "win")]),
            [-2, 6, -2, -2], 1, []),
    # ZZ-Ex2: a self-draw; the birds 5p (on the winner) and 4s (on the winner's 上家, seat 1)
    "Ex2": (_scenario(["1m1m4p4p7s7s2m9p3s6m8p1s5s9m", "3m6m9m3p6p2s5s9s1p1p2p4m8m", "123m456m789m77p6s5z",
                       "2m5m8m1s4s7s9s5p7p3m6m2s8p"],
                      "2p8s5p4s6p",
                      [(0, "discard", "9m"), (1, "discard", "2p"), (2, "win")]),
            [-4, -6, 14, -4], 2, ["5p", "4s"]),
    # ZZ-Ex3 (jiepao on): seat 1 kongs seat 0's 7p (明杠, 3), then wins on seat 3's 3s; birds 9m (the winner) and
    # 3p (seat 3, the discarder): seat 3 pays 1 × (1 + 1 + 1)
    "Ex3": (_scenario(["1m1m4p4p7s7s2m9p3s6m8p7p5s4s", "123m999m12s55p777p", "3m6m7m3p6p2s5s8s1p1p2p4m8m",
                       "2m5m8m1s4s7s9s5p2p3m6m2s8p"],
                      "6p3s9m3p5m9s",
                      [(0, "discard", "7p"), (1, "kong", "7p"), (1, "discard", "9s"), (2, "discard", "6p"),
                       (3, "discard", "3s"), (1, "win")], options={"jiepao": True}),
            [-3, 6, 0, -3], 1, ["9m", "3p"]),
    # ZZ-Ex4 (4 birds): the dealer's 七对 with a 红中, self-drawn; birds 1s and 红中 (the winner), 6m (seat 1), 8p (seat 3)
    "Ex4": (_scenario(["11m55m3p88p22s66s9s5z4m", "3m6m9m3p6p2s5s4s1p1p2p4m8m", "2m5m8m1s4s7s7s5p2p3m6m3s8p",
                       "1p2p3p4p5p6p7p7m7m8m8m9m9m"],
                      "2m3s4s9s1s5z6m8p",
                      [(0, "discard", "4m"), (1, "discard", "2m"), (2, "discard", "3s"), (3, "discard", "4s"),
                       (0, "win")], options={"birds": 4}),
            [22, -8, -6, -8], 0, ["1s", "5z", "6m", "8p"]),
    # ZZ-Ex5: seat 1 pons 6m, later adds the fourth; seat 3 robs it; birds 7s (seat 1, the robbed) and 1p (the
    # winner): seat 1 pays the three self-draw shares 4 + 6 + 4
    "Ex5": (_scenario(["1m1m4p4p7s7s2m9p3s6m8p1s5s9m", "6m6m9m3p6p2s5s9s1p2p2p4m8m", "3m3m8m1s4s7s9s5p7p3m8s2s8p",
                       "45m123p789p234s99s"],
                      "7m2m6s6m7s1p",
                      [(0, "discard", "6m"), (1, "pon"), (1, "discard", "9m"), (2, "discard", "7m"),
                       (3, "discard", "2m"), (0, "discard", "6s"), (1, "kong", "6m"), (3, "win")]),
            [0, -14, 0, 14], 3, ["7s", "1p"]),
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_worked_examples(load, name):
    sc, net, nxt, birds = EXAMPLES[name]
    g = play_scenario(load(ZZ), sc)
    o = g.outcome
    assert [o["payments"][p] for p in range(4)] == net, o["ledger"]
    assert o["next_dealer"] == nxt
    turned = [e for e in g.events if e["type"] == "horses"]
    assert [t for e in turned for t in e["tiles"]] == birds
    assert all(p["rule"].startswith("ZZ-") for p in o["ledger"] if p.get("from") is not None)


EX6 = _scenario(["3s3s3s3s1m4m7m1p4p7p2m5m8m9p", "2s5s8s3m6m9m3p6p9p1s4s7s5z", "1m4m7m1p4p7p2m5m8m2p5p8p6s",
                 "3m6m9m3p6p9p1s4s7s2s5s8s6s"],
                "2p5p8p9s",
                [(0, "kong", "3s"), (0, "discard", "9s"), (1, "discard", "2p"), (2, "discard", "5p"),
                 (3, "discard", "8p")])


@pytest.mark.parametrize("options,net,nxt", [
    ({}, [0, 0, 0, 0], 3),                                              # ZZ-21 荒庄荒杠; ZZ-24 the last drawer deals
    ({"huang_zhuang_huang_gang": False}, [6, -2, -2, -2], 3),           # ZZ-20 the 暗杠 paid all the same
    ({"draw_dealer": "dealer_stays"}, [0, 0, 0, 0], 0),                 # ZZ-24
])
def test_kongs_in_a_drawn_hand(load, options, net, nxt):
    g = play_scenario(load(ZZ), {**EX6, "options": options})
    o = g.outcome
    assert o["winners"] == []
    assert [o["payments"][p] for p in range(4)] == net
    assert o["next_dealer"] == nxt
    assert not any(e["type"] == "horses" for e in g.events)            # ZZ-15: no birds in a drawn hand


def test_birds_with_the_fixed_value(load):
    sc, _, _, _ = EXAMPLES["Ex2"]
    g = play_scenario(load(ZZ), {**sc, "options": {"bird_value": "fixed"}})
    assert [g.outcome["payments"][p] for p in range(4)] == [-3, -4, 10, -3]        # ZZ-17, ZZ-Ex2's variation


def test_birds_on_the_winner_only(load):
    sc, _, _, _ = EXAMPLES["Ex2"]
    g = play_scenario(load(ZZ), {**sc, "options": {"bird_seats": "winner_only"}})
    assert [g.outcome["payments"][p] for p in range(4)] == [-4, -4, 12, -4]        # ZZ-17 159中鸟


def test_the_horses_event_names_the_seats(load):
    g = play_scenario(load(ZZ), EXAMPLES["Ex2"][0])
    e = next(e for e in g.events if e["type"] == "horses")
    assert e["seats"] == [2, 1]                                                    # ZZ-16 from the winner, seat 2


def test_whole_hands_play_on_both_back_ends(load):
    eng = load(ZZ)
    wins = 0
    for seed in range(30):
        g = play_hand(eng, ["greedy"], seed=seed)
        o = g.outcome
        assert sum(o["payments"].values()) == 0
        wins += bool(o["winners"])
        for e in g.events:
            if e["type"] == "horses":
                assert len(e["tiles"]) <= 2
    assert wins >= 20


@pytest.mark.parametrize("sit,key", [
    ({"concealed": "123m456m789m77p6s8s9s*", "win_tile": "8s", "wild": "9s"}, "wild"),   # ZZ-03: only 红中 are wild
    ({"concealed": "123m456m789m77p6s8s5z*", "win_tile": "8s", "indicator": "4z"}, "indicator"),
    ({"concealed": "123m456m789m77p6s8s1z", "win_tile": "8s"}, "concealed"),            # ZZ-01: no 東
])
def test_situations_outside_the_rules_are_refused(load, sit, key):
    from mjrules.model.situation import SituationError

    with pytest.raises(SituationError) as e:
        load(ZZ).evaluate({"seat": 1, **sit})
    assert e.value.key == key


def test_birds_counted_from_each_payer(load, tmp_path):
    """count_from payer: each payment counts the birds from its payer (a 1-5-9 bird is on every payer; the 4s,
    counted from seat 3, lands on seat 2, the winner, for seat 3's payment alone)."""
    import mjrules

    p = tmp_path / "from_payer.mj"
    p.write_text('variant zz_payer "from the payer" extends zhuanzhuan {\n'
                 '  horses = birds {\n    count_from payer   # ZZ-16\n  }\n}\n', encoding="utf-8")
    eng = mjrules.load(str(p), backend=load(ZZ).backend)
    g = play_scenario(eng, EXAMPLES["Ex2"][0])
    assert [g.outcome["payments"][s] for s in range(4)] == [-4, -4, 14, -6]
    assert next(e for e in g.events if e["type"] == "horses")["seats"] == [None, None]   # a seat per payment


# ZZ-18's example: seats 1 and 3 win on seat 0's 3s (jiepao on); birds 5m and 2p, counted from each winner: for
# seat 1 the 2p is on seat 2, who does not pay; for seat 3 it is on seat 0, the discarder
MULTI = _scenario(["1m1m4p4p7s7s2m9p3s6m8p1s5s8m", "123m999m12s55p777p", "3m6m7m3p6p2s5s8s1p1p2p4m8m",
                   "456m123p789p45s99s"],
                  "5m2p6p",
                  [(0, "discard", "3s"), (1, "win"), (3, "win")])


@pytest.mark.parametrize("options,net,nxt", [
    ({"jiepao": True}, [-5, 2, 0, 3], 0),                               # ZZ-18; ZZ-24 the discarder deals
    ({"jiepao": True, "yi_pao_duo_xiang": False}, [-2, 2, 0, 0], 1),    # ZZ-08 the first after the discarder
])
def test_several_winners_on_one_discard(load, options, net, nxt):
    g = play_scenario(load(ZZ), {**MULTI, "options": options})
    o = g.outcome
    assert [o["payments"][p] for p in range(4)] == net, o["ledger"]
    assert o["next_dealer"] == nxt
