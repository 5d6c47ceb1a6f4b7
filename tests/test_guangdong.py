"""广东推倒胡 (specs/guangdong_tuidaohu.mj) against its rules, ../shared/rules/guangdong-tuidaohu.md: hands worked out
by hand from GD-04..GD-09 in every 鬼 mode on both backends, and whole hands played by the step API whose payments
are checked against GD-08..GD-14, horses included (tests/scenarios/gd_*.json are hands worked out whole)."""
from __future__ import annotations

import pytest
from mjrules.game import Game, GreedyAgent, RandomAgent, log_lines, replay_lines

GD = "guangdong_tuidaohu"
W = {"wild": "9s"}          # fangui (the default) with 9s the 鬼
D3 = {"win_by": "discard", "discarder": 3}

# (situation, patterns, value, what each other seat pays): value = 2 × the multipliers (GD-07, GD-08); a self-draw
# is paid by each of the three others, a discard win (jiepao) by the discarder, a robbed kong by its owner for all
HANDS = [
    ({"concealed": "123m456m789p234s1z9s*", "win_tile": "1z", **W}, ["鸡胡"], 2, {0: 2, 2: 2, 3: 2}),
    ({"concealed": "123m456m789p234s11z", "win_tile": "1z", **W}, ["鸡胡", "无鬼"], 4, {0: 4, 2: 4, 3: 4}),
    ({"concealed": "123m456m789p234s11z", "win_tile": "1z", "options": {"gui": "none"}}, ["鸡胡"], 2,
     {0: 2, 2: 2, 3: 2}),                                                                  # no 鬼: no 无鬼
    ({"concealed": "111m333m555p777p11z", "win_tile": "1z", **W}, ["鸡胡", "碰碰胡", "无鬼"], 8, {0: 8, 2: 8, 3: 8}),
    ({"concealed": "123m123m456m789m99m", "win_tile": "9m", **W}, ["鸡胡", "清一色", "无鬼"], 8, {0: 8, 2: 8, 3: 8}),
    ({"concealed": "11m22m33p44p55s66s77z", "win_tile": "7z", **W}, ["七对", "无鬼"], 8, {0: 8, 2: 8, 3: 8}),
    ({"concealed": "19m19p19s1234567z1z", "win_tile": "1z", "wild": "5s"}, ["十三幺", "无鬼"], 32,
     {0: 32, 2: 32, 3: 32}),
    ({"concealed": "19m19p19s123456z5s*1z", "win_tile": "1z", "wild": "5s"}, ["十三幺"], 16, {0: 16, 2: 16, 3: 16}),
    ({"concealed": "147m258p369s1z5s*5s*5s*5s*", "win_tile": "1z", "wild": "5s"}, ["四鬼胡牌"], 4,
     {0: 4, 2: 4, 3: 4}),
    # events (GD-07) and who pays (GD-08, GD-09)
    ({"concealed": "123m456m789p234s1z9s*", "win_tile": "1z", "win_by": "kong_replacement", **W},
     ["鸡胡", "杠上开花"], 4, {0: 4, 2: 4, 3: 4}),
    ({"concealed": "123m456m789p234s1z9s*", "win_tile": "1z", "last_tile": True, **W}, ["鸡胡", "海底捞月"], 4,
     {0: 4, 2: 4, 3: 4}),
    ({"concealed": "123m456m789p234s1z9s*", "win_tile": "1z", "win_by": "rob_kong", "discarder": 3, **W},
     ["鸡胡", "抢杠胡"], 4, {3: 12}),                                                       # 抢杠全包
    ({"concealed": "123m456m789p234s1z9s*", "win_tile": "1z", **D3, **W, "options": {"jiepao": True}},
     ["鸡胡"], 2, {3: 2}),
    # the other 鬼 modes (GD-05): 白板 fixed, and two kinds after the indicator
    ({"concealed": "123m456m789p234s1z7z*", "win_tile": "1z", "options": {"gui": "baiban"}}, ["鸡胡"], 2,
     {0: 2, 2: 2, 3: 2}),
    ({"concealed": "123m456m789p23s1z5s*6s*", "win_tile": "1z", "wild": ["5s", "6s"],
      "options": {"gui": "shuanggui"}}, ["鸡胡"], 2, {0: 2, 2: 2, 3: 2}),
    ({"concealed": "123m456m789p23s1z5s*6s*", "win_tile": "1z", "indicator": "4s",
      "options": {"gui": "shuanggui"}}, ["鸡胡"], 2, {0: 2, 2: 2, 3: 2}),
]


@pytest.mark.parametrize("case", range(len(HANDS)))
def test_hands(load, case):
    sit, patterns, value, paid = HANDS[case]
    sit = {"seat": 1, **sit}
    r = load(GD).evaluate(sit)
    assert r["win"], r.get("reason")
    assert (list(r["patterns"]), r["value"]) == (patterns, value)
    assert {int(p): -x for p, x in r["payments"].items() if x < 0} == paid
    assert sum(r["payments"].values()) == 0


@pytest.mark.parametrize("sit,why", [
    # 推倒胡: no win on a discard without jiepao (GD-04)
    ({"concealed": "123m456m789p234s1z9s*", "win_tile": "1z", **D3, **W}, "discard"),
    # 四鬼胡牌 is declared on one's own turn (GD-07)
    ({"concealed": "147m258p369s1z5s*5s*5s*5s*", "win_tile": "1z", "wild": "5s", **D3, "options": {"jiepao": True}},
     "own turn"),
])
def test_losing_hands(load, sit, why):
    r = load(GD).evaluate({"seat": 1, **sit})
    assert not r["win"] and why in r["reason"], r["reason"]


HORSE_SEAT = {**{k: 0 for k in "1m 5m 9m 1p 5p 9p 1s 5s 9s 1z 5z".split()},
              **{k: 1 for k in "2m 6m 2p 6p 2s 6s 2z 6z".split()},
              **{k: 2 for k in "3m 7m 3p 7p 3s 7s 3z 7z".split()},
              **{k: 3 for k in "4m 8m 4p 8p 4s 8s 4z".split()}}   # GD-13, counted from the dealer


def _play(eng, seed: int, options: dict | None) -> Game:
    g = Game(eng, seed=seed, dealer=seed % 4, options=options)
    agents = [GreedyAgent(eng.variant, seed + i) if i % 2 == 0 else RandomAgent(seed + i) for i in range(4)]
    while not g.over:
        g.act(g.to_act, agents[g.to_act].act(g, g.to_act))
    return g


MODES = ["fangui", "none", "baiban", "shuanggui"]
GAMES = {"native": 60, "reference": 4}


@pytest.mark.parametrize("gui", MODES)
def test_games_follow_the_rules(load, backend, gui):
    eng = load(GD)
    hits_seen = 0
    for seed in range(GAMES[backend]):
        opts = {"gui": gui, "jiepao": seed % 3 == 0, "horses": [4, 0, 2][seed % 3]}
        g = _play(eng, seed, opts)
        o, events = g.outcome, g.events
        assert sum(o["payments"].values()) == 0
        wild = next((e for e in events if e["type"] == "wild"), None)
        if gui == "none":                                                           # GD-05
            assert wild is None
        elif gui == "baiban":
            assert wild is not None and wild["wild"] == "7z" and wild.get("indicator") is None, wild
        else:
            assert wild is not None and wild["indicator"], wild
        assert len(o["winners"]) <= 1                                               # GD-03 one winner
        horses = next((e["tiles"] for e in events if e["type"] == "horses"), [])
        assert len(horses) == (opts["horses"] if o["winners"] else 0)
        for w in o["winners"]:
            hits = sum(1 for t in horses if (g.dealer + HORSE_SEAT[t]) % 4 == w["seat"])
            hits_seen += hits
            share = w["value"] * (1 + hits)                                          # GD-08 GD-13
            wins = [x for x in o["ledger"] if x["why"] == f"win by seat {w['seat']}"]
            fed = w["win_by"] == "kong_replacement" and any(
                x["type"] == "kong" and x["kind"] == "exposed" and x["seat"] == w["seat"] for x in events[-8:])
            if w["win_by"] in ("self_draw", "dealt") or (w["win_by"] == "kong_replacement" and not fed):
                assert sorted(x["from"] for x in wins) == sorted(p for p in range(4) if p != w["seat"])
                assert all(x["amount"] == share for x in wins), (seed, w, wins)
            elif w["win_by"] == "discard":
                assert opts["jiepao"] and [(x["from"], x["amount"]) for x in wins] == [(w["discarder"], share)]
            else:                                                                    # 抢杠全包, 杠爆全包
                assert len(wins) == 1 and wins[0]["amount"] == 3 * share, (seed, w, wins)
        kongs = [x for x in o["ledger"] if "kong by" in x["why"]]
        assert not kongs or o["winners"], "GD-11: kong money only when someone won"
        nxt = g.dealer if not o["winners"] or o["winners"][0]["seat"] == g.dealer else (g.dealer + 1) % 4
        assert o["next_dealer"] == nxt                                               # GD-14
        if seed % 10 == 0:
            assert replay_lines(eng, log_lines(g))["identical"]
    if backend == "native" and gui == "fangui":
        assert hits_seen, "no horse ever pointed at a winner"



# GD-12 跟庄 is paid at once: the dealer pays each other player 1 the moment the fourth matching first discard is
# made (before anyone could claim it or draw), and only then. (dealt hands, dealer seat 0, 8s flipped: 9s is the 鬼)
_GZ_HANDS = ["9m1m2m4m5m7m1p2p4p5p7p1s2s4s", "9m1m2m4m5m7m1p2p4p5p7p1s2s", "9m3m6m8m3p6p8p9p3s5s6s7s1z",
             "9m3m6m8m3p6p8p9p3s5s6s7s2z"]
_GZ_PONG = ["9m1m2m4m5m7m1p2p4p5p7p1s2s4s", "9m1m2m4m5m7m1p2p4p5p7p1s2s", "9m3m6m8m3p6p8p4s4s5s6s7s1z",
            "9m3m6m8m3p6p8p9p3s5s6s7s2z"]


def _d(seat: int, tile: str) -> dict:
    return {"seat": seat, "type": "discard", "tile": tile}


@pytest.mark.parametrize("hands,actions,paid_after", [
    (_GZ_HANDS, [_d(0, "9m"), _d(1, "9m"), _d(2, "9m"), _d(3, "9m")], 4),           # all four alike: paid at the 4th
    (_GZ_HANDS, [_d(0, "9m"), _d(1, "9m"), _d(2, "9m"), _d(3, "2z")], None),        # the last differs
    (_GZ_HANDS, [_d(0, "1m"), _d(1, "1m"), _d(2, "1z"), _d(3, "2z")], None),        # the third differs
    (_GZ_PONG, [_d(0, "4s"), {"seat": 2, "type": "pon"}, _d(2, "9m"), _d(3, "9m"), _d(0, "9m"), _d(1, "9m")],
     None),                                                                          # a claim between: no 跟庄
], ids=["four-alike", "last-differs", "third-differs", "claim-between"])
def test_genzhuang_paid_at_once(load, backend, hands, actions, paid_after):
    from mjrules.game.scenario import play_scenario

    g = play_scenario(load(GD), {"variant": GD, "dealer": 0, "indicator": "8s", "hands": hands,
                                 "wall": "1z2z3z4z5z6z7z", "actions": actions})
    ev = g.events
    pays = [i for i, e in enumerate(ev) if e["type"] == "pay"]
    gz = [e for e in g.outcome["ledger"] if e["rule"] == "GD-12"]
    if paid_after is None:
        assert not pays and not gz and set(g.outcome["payments"].values()) == {0}
        return
    discards = [i for i, e in enumerate(ev) if e["type"] == "discard"]
    at = discards[paid_after - 1]
    assert pays == [at + 1, at + 2, at + 3], "paid right after the discard, before anything else happens"
    assert [(ev[i]["from"], ev[i]["to"], ev[i]["amount"]) for i in pays] == [(0, 1, 1), (0, 2, 1), (0, 3, 1)]
    assert [e["why"] for e in gz] == ["first round: discard by seat 3"] * 3
    assert g.outcome["payments"] == {0: -3, 1: 1, 2: 1, 3: 1}


# the greedy agent knows every wild kind in force (GD-05 双鬼: 4s flipped, 5s and 6s are wild): with two kinds it
# keeps a 6s it would throw away where 6s is a plain tile (番鬼: 5s alone is wild)
@pytest.mark.parametrize("hand,fangui,shuanggui", [
    ("1m4m6m7m9m1p2p3p6p8p2s6s1z1z", "6s", "1m"),
    ("1m1m3m6m7m1p3p4p5p7p6s9s5z5z", "6s", "9s"),
    ("1m2m3m4m6m8m9m2p4p6p6p9p2s6s", "6s", "9p"),
])
def test_greedy_agent_keeps_either_wild(load, backend, hand, fangui, shuanggui):
    from mjrules.model.tiles import parse_tiles

    def kinds(text: str) -> list[int]:
        return [t.kind for t in parse_tiles(text)]

    eng = load(GD)
    others = ["1m2m3m4m5m6m7m8m9m1p2p3p4p", "1s2s3s4s7s8s9s2z3z4z5z6z7z", "1s2s3s4s7s8s9s2z3z4z5z6z7z"]
    for gui, want in (("fangui", fangui), ("shuanggui", shuanggui)):
        g = Game(eng, seed=0, dealer=0, options={"gui": gui}, hands=[kinds(hand)] + [kinds(h) for h in others],
                 wall=[], indicator=kinds("4s")[0])
        assert g.action_dict(GreedyAgent(eng.variant).act(g, 0), 0) == {"type": "discard", "tile": want}, gui
