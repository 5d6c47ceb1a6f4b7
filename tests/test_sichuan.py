"""四川血战到底 (specs/sichuan_xuezhan.mj) against its rules, ../shared/rules/sichuan-xuezhan.md: hands worked out by
hand from SC-06..SC-12 on both backends, and whole hands played by the step API whose every settlement is checked
against SC-07, SC-12..SC-17 (the scenarios in tests/scenarios/sc_*.json are the hands worked out whole)."""
from __future__ import annotations

import pytest
from mjrules.game import Game, GreedyAgent, RandomAgent, log_lines, replay_lines
from mjrules.game.play import play_match
from mjrules.model.situation import SituationError
from mjrules.model.tiles import tile_name

SC = "sichuan_xuezhan"

# (situation, patterns, value, payments to the winner from each other seat) -- fan from SC-08..SC-11; the value
# is 2^fan (capped at max_fan 4); a discard is paid by the discarder, a self-draw by each other player value + 1.
D2 = {"win_by": "discard", "discarder": 2}
HANDS = [
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", **D2}, ["平胡"], 1, {2: 1}),
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p"}, ["平胡"], 1, {1: 2, 2: 2, 3: 2}),          # 自摸加底
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", "options": {"zimo_jiafan": True}},
     ["平胡"], 2, {1: 2, 2: 2, 3: 2}),                                                                   # 自摸加番
    ({"concealed": "111m333m555p777p99p", "win_tile": "9p", **D2}, ["平胡", "对对胡"], 2, {2: 2}),
    ({"concealed": "123m123m456m789m99m", "win_tile": "9m", **D2}, ["平胡", "清一色"], 4, {2: 4}),
    ({"concealed": "11m22m33p44p55p66p77p", "win_tile": "7p", **D2}, ["七对"], 4, {2: 4}),
    # 龙七对: 七对 2 + 龙七对 1; its four adds no 根 (3 fan); a second four is a 根 (4 fan)
    ({"concealed": "1111m2233m4455p66p", "win_tile": "6p", **D2}, ["七对", "龙七对"], 8, {2: 8}),
    ({"concealed": "1111m2222m3344p55p", "win_tile": "5p", **D2, "options": {"max_fan": 8}},
     ["七对", "龙七对"], 16, {2: 16}),
    # 七对 2 + 清一色 2 + 龙七对 1 = 5 fan, capped at 4 (and at 6 with the option)
    ({"concealed": "1111m2233m4455m66m", "win_tile": "6m", **D2}, ["七对", "清一色", "龙七对"], 16, {2: 16}),
    ({"concealed": "1111m2233m4455m66m", "win_tile": "6m", **D2, "options": {"max_fan": 6}},
     ["七对", "清一色", "龙七对"], 32, {2: 32}),
    # 将对: 对对胡 1 + 将对 2; 根 from a kind held four times (2m: 222m + the pair? no: 22m is the pair of 2p)
    ({"concealed": "222m555m888m222p55p", "win_tile": "5p", **D2}, ["平胡", "对对胡", "将对"], 8, {2: 8}),
    # 带幺九: every set and the pair holds a 1 or a 9, melds included
    ({"concealed": "123m789m11p999p", "melds": ["[999m]"], "win_tile": "1p", **D2}, ["平胡", "带幺九"], 8,
     {2: 8}),                                                                      # 带幺九 2 + 根 1 (9m four times)
    ({"concealed": "123m789m11p999p", "melds": ["[555m]"], "win_tile": "1p", **D2}, ["平胡"], 1, {2: 1}),
    # 金钩钓: four sets exposed, won on the single pair tile: 对对胡 1 + 金钩钓 1; a concealed kong is not exposed
    ({"concealed": "99p", "melds": ["[111m]", "[333m]", "[555p]", "[777p]"], "win_tile": "9p", **D2},
     ["平胡", "对对胡", "金钩钓"], 4, {2: 4}),
    ({"concealed": "99p", "melds": ["{1111m}", "[333m]", "[555p]", "[777p]"], "win_tile": "9p", **D2},
     ["平胡", "对对胡"], 4, {2: 4}),                                                          # 对对胡 1 + 根 1
    # 根: each kind of which all four copies are in the hand, held or konged
    ({"concealed": "234m234m111p99p", "melds": ["[1111m]"], "win_tile": "9p", **D2}, ["平胡"], 2, {2: 2}),
    # events, +1 fan each (SC-09)
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", "win_by": "kong_replacement", "melds": []},
     ["平胡", "杠上开花"], 2, {1: 3, 2: 3, 3: 3}),
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", **D2, "after_kong": True}, ["平胡", "杠上炮"], 2, {2: 2}),
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", "win_by": "rob_kong", "discarder": 3},
     ["平胡", "抢杠胡"], 2, {3: 2}),
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", **D2, "last_tile": True}, ["平胡", "海底捞月"], 2, {2: 2}),
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", "last_tile": True}, ["平胡", "海底捞月"], 2,
     {1: 3, 2: 3, 3: 3}),
    # 天胡 and 地胡 score max_fan (SC-10)
    ({"concealed": "123m456m789m11p999p", "win_by": "dealt"}, ["平胡", "天胡"], 16, {1: 17, 2: 17, 3: 17}),
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", "seat": 1, "first_draw": True}, ["平胡", "地胡"], 16,
     {0: 17, 2: 17, 3: 17}),
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", "seat": 0, "first_draw": True}, ["平胡"], 1,
     {1: 2, 2: 2, 3: 2}),                                                                    # the dealer: no 地胡
]


def _paid(r: dict, seat: int) -> dict[int, int]:
    return {int(p): -x for p, x in r["payments"].items() if x < 0 and int(p) != seat}


@pytest.mark.parametrize("case", range(len(HANDS)))
def test_hands(load, case):
    sit, patterns, value, paid = HANDS[case]
    r = load(SC).evaluate(sit)
    assert r["win"], r.get("reason")
    assert (list(r["patterns"]), r["value"]) == (patterns, value)
    assert _paid(r, sit.get("seat", 0)) == paid
    assert sum(r["payments"].values()) == 0
    assert all(line["rule"].startswith("SC-") for line in r["explain"])


@pytest.mark.parametrize("sit,why", [
    ({"concealed": "123m789m11p999p", "melds": ["[111s]"], "win_tile": "1p"}, "two suits"),   # SC-04
])
def test_losing_hands(load, sit, why):
    r = load(SC).evaluate(sit)
    assert not r["win"] and why in r["reason"]


@pytest.mark.parametrize("sit,key", [
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", "after_kong": True}, "after_kong"),
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", **D2, "first_draw": True}, "first_draw"),
    ({"concealed": "123m456m789m11p", "melds": ["[999p]"], "win_tile": "1p", "first_draw": True}, "first_draw"),
    ({"concealed": "123m456m789m11p999p", "win_tile": "9p", "last_tile": 1}, "last_tile"),
])
def test_history_facts_are_checked(load, sit, key):
    with pytest.raises(SituationError) as e:
        load(SC).evaluate(sit)
    assert e.value.key == key


def _play(eng, seed: int, options: dict | None = None) -> Game:
    g = Game(eng, seed=seed, dealer=seed % 4, options=options)
    agents = [GreedyAgent(eng.variant, seed + i) if i % 2 == 0 else RandomAgent(seed + i) for i in range(4)]
    while not g.over:
        g.act(g.to_act, agents[g.to_act].act(g, g.to_act))
    return g


GAMES = {"native": 150, "reference": 8}


def test_games_follow_the_rules(load, backend):
    eng = load(SC)
    seen = {"winners": set(), "kong_at_once": 0, "transfer": 0, "wall_end": 0}
    for seed in range(GAMES[backend]):
        g = _play(eng, seed, {"huan_san_zhang": seed % 2 == 1})
        o = g.outcome
        ledger = o["ledger"]
        assert sum(o["payments"].values()) == 0
        order = [w["seat"] for w in o["winners"]]
        assert len(order) == len(set(order)) <= 3                                          # SC-07
        seen["winners"].add(len(order))
        out: set[int] = set()
        events = g.events
        for i, e in enumerate(events):
            if e["type"] == "win":
                out.add(e["seat"])
            elif e["type"] in ("draw", "discard") or (e["type"] == "action" and e["action"]["type"] != "choose"):
                assert e["seat"] not in out, ("a winner plays on", seed, e)                  # SC-07
            elif e["type"] == "kong":                                                       # SC-13 paid at once
                pays = [x for x in events[max(0, i - 4):i] if x["type"] == "pay" and "kong by" in x["why"]]
                amount = {"exposed": 2, "added": 1, "concealed": 2}[e["kind"]]
                assert pays and all(x["to"] == e["seat"] and x["amount"] == amount for x in pays), (seed, e)
                assert all(x["from"] not in out for x in pays)                             # only players still in
                seen["kong_at_once"] += 1
        for w in o["winners"]:                                                              # SC-12
            wins = [x for x in ledger if x["why"] == f"win by seat {w['seat']}"]
            bonus = 0 if w["win_by"] == "discard" or w["win_by"] == "rob_kong" else 1
            assert all(x["amount"] == w["value"] + bonus for x in wins), (seed, w, wins)
            if w["win_by"] in ("discard", "rob_kong"):
                assert [x["from"] for x in wins] == [w["discarder"]]
            if "杠上炮" in w["patterns"]:                                                  # SC-14 呼叫转移
                moved = [x for x in ledger if x["why"].endswith("kong money handed on") and x["to"] == w["seat"]]
                assert moved and moved[0]["from"] == w["discarder"], (seed, ledger)
                seen["transfer"] += 1
        ends = [x for x in ledger if x["why"].startswith("wall end")]
        if ends:
            seen["wall_end"] += 1
            assert any(e["type"] == "exhausted" for e in events)
        for x in ends:                                                                      # SC-16
            assert x["from"] not in out and x["to"] not in out or "paid back" in x["why"], (seed, x)
        if len(order) < 3 and not any(e["type"] == "exhausted" for e in events):
            pytest.fail(f"seed {seed}: the hand ended with {len(order)} winners before the wall's end")
        if len(order) and o["next_dealer"] != (order[0] if g.first_winners == 1 else o["winners"][0]["discarder"]):
            pytest.fail(f"seed {seed}: SC-17 next dealer {o['next_dealer']} after {o['winners']}")
        if seed % 10 == 0:
            assert replay_lines(eng, log_lines(g))["identical"]
    if backend == "native":
        assert {0, 1, 2, 3} <= seen["winners"], seen
        assert seen["kong_at_once"] and seen["transfer"] and seen["wall_end"], seen


def test_wall_end_settlement_reads_each_hand(load):
    """查花猪 and 查大叫 (SC-16) recomputed from the seats' final hands."""
    eng = load(SC)
    cap = 2 ** 4
    checked = 0
    for seed in range(60):
        g = _play(eng, seed)
        if not any(e["type"] == "exhausted" for e in g.events):
            continue
        inn = [p for p in range(4) if not g.seats[p].out]
        suits = {p: len({k // 9 for k in range(27) if g.seats[p].counts[k] or g.seats[p].meld_counts[k]}) for p in inn}
        pig = {p for p in inn if suits[p] == 3}
        ends = [(x["from"], x["to"], x["amount"]) for x in g.outcome["ledger"] if x["why"] == "wall end"]
        for p in pig:
            for q in inn:
                if q not in pig:
                    assert (p, q, cap) in ends, (seed, p, q, ends)
        ready = {p: p not in pig and _waits(eng, g, p) for p in inn}
        for a in inn:
            for b in inn:
                if a not in pig and not ready[a] and ready[b]:   # 查大叫: b's best win, without events or 自摸
                    assert (a, b, max(w["value"] for w in ready[b])) in ends, (seed, a, b, ends)
        for a, b, amount in ends:
            assert a in inn and b in inn and b not in pig
            assert a in pig or (not ready[a] and ready[b]), (seed, a, b, ends)
        checked += 1
    assert checked


def _waits(eng, g: Game, p: int) -> list:
    """The seat's waits as a discard win, from its tiles alone (none while it holds its void suit: SC-04)."""
    s = g.seats[p]
    void = {"m": range(9), "p": range(9, 18), "s": range(18, 27)}[s.choices[0]]
    if any(s.counts[k] for k in void):
        return []
    return eng.waits({"concealed": "".join(tile_name(k) for k in g.hand(p)), "melds": [str(m) for m in s.melds],
                      "win_by": "discard", "discarder": (p + 1) % 4, "seat": p, "dealer": g.dealer})


def test_a_match_is_hands_long(load):
    eng = load(SC)
    if eng.backend == "reference":
        pytest.skip("a match of eight hands: the native backend's")
    m = play_match(eng, seed=3)
    assert len(m["hands"]) == 8                                                              # SC-20
    assert sum(m["totals"]) == 0
    assert len(play_match(eng, seed=3, options={"hands": 3})["hands"]) == 3
