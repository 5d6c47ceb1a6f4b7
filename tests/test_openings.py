"""Hands shown at the deal (起手胡): `opening` clauses, the hand builtins asked of any seat (held_fours, held_pungs,
held_pairs, held_in, suits_held) and the settlement's `opening` block, paid at the deal before the first discard
while play goes on. The spec is an overlay of 转转麻将 with the four openings of the issue: four alike in hand,
no 2, 5 or 8, a suit missing, two concealed pungs; several shown add up."""
from __future__ import annotations

import json

import pytest
from mjrules.compiler.errors import SpecError
from mjrules.game import Game, IllegalAction, play_hand
from mjrules.model.tiles import parse_tiles

OVERLAY = """
variant zz_openings "转转 with opening hands" extends zhuanzhuan {
  opening 四喜 "Four alike in hand" = held_fours(shower) when held_fours(shower) >= 1      # ZZ-05
  opening 板板胡 "No 2, 5 or 8" when held_in(shower, 2m5m8m2p5p8p2s5s8s) == 0             # ZZ-05
  opening 缺一色 "A suit missing" when suits_held(shower) < 3                             # ZZ-05
  opening 六六顺 "Two concealed pungs" when held_pungs(shower) >= 2                       # ZZ-05
  settlement {
    opening {
      pay others = 2 * shown                                                            # ZZ-05
    }
  }
}
"""

HANDS = ["1111m2222p333s4s6s7s",           # seat 0 (dealer): 四喜 ×2 (1m, 2p) and 六六顺 (three pungs held)
         "1m3m4m6m7m9m1p3p4p6p7p9p1s",     # seat 1: 板板胡
         "5m5m5m6p6p6p8s8s9s9s3s4s7m",     # seat 2: 六六顺
         "2m5m8m2s5s8s7p8p9p3m4m6m7m"]     # seat 3: none


def _k(s: str) -> list[int]:
    return [t.kind for t in parse_tiles(s)]


@pytest.fixture
def spec(tmp_path):
    p = tmp_path / "openings.mj"
    p.write_text(OVERLAY, encoding="utf-8")
    return p


@pytest.fixture
def engine(spec, backend):
    import mjrules

    return mjrules.load(str(spec), backend=backend)


def _game(engine) -> Game:
    return Game(engine, hands=[_k(h) for h in HANDS], wall=_k("9m9s1s1p2m3p4p"))


def test_each_seat_is_offered_what_its_dealt_hand_qualifies_for(engine):
    g = _game(engine)
    assert g.phase_name == "declare"
    offered = {p: [a.get("choice", a["type"]) for a in acts] for p, acts in g.pending().items()}
    assert offered == {0: ["四喜", "六六顺", "pass"], 1: ["板板胡", "pass"], 2: ["六六顺", "pass"]}
    assert [c["name"] for c in g.choices()] == ["四喜", "板板胡", "缺一色", "六六顺"]


def test_shown_hands_are_paid_at_the_deal_and_add_up(engine):
    g = _game(engine)
    g.act(0, {"type": "choose", "choice": "四喜"})
    assert g.pending()[0] == [{"type": "choose", "choice": "六六顺"}, {"type": "pass"}]   # it may show more
    g.act(0, {"type": "choose", "choice": "六六顺"})
    g.act(1, {"type": "choose", "choice": "板板胡"})
    g.act(2, {"type": "pass"})
    assert g.phase_name == "turn" and g.to_act == 0                  # play goes on: the dealer's first discard
    pays = [(e["from"], e["to"], e["amount"]) for e in g.ledger]
    assert sorted(pays) == sorted([(1, 0, 6), (2, 0, 6), (3, 0, 6), (0, 1, 2), (2, 1, 2), (3, 1, 2)])
    assert all(e["rule"] == "ZZ-05" for e in g.ledger)
    shows = [e for e in g.events if e["type"] == "show"]
    assert [(e["seat"], e["opening"], e["count"]) for e in shows] == [(0, "四喜", 2), (0, "六六顺", 1), (1, "板板胡", 1)]
    from mjrules.model.tiles import tile_name

    assert shows[0]["hand"] == [tile_name(k) for k in sorted(_k(HANDS[0]))]   # the dealt hand, shown whole
    assert [s["opening"] for s in g.view(3)["shown"]] == ["四喜", "六六顺", "板板胡"]   # every seat sees them
    while not g.over:
        g.act(g.to_act, g.legal_ids()[-1])
    net = g.outcome["payments"]
    assert sum(net.values()) == 0
    at_deal = [(e["from"], e["to"], e["amount"]) for e in g.outcome["ledger"] if e["why"].startswith("opening")]
    assert sorted(at_deal) == sorted(pays)                            # the hand's settlement keeps them


def test_an_opening_not_qualified_for_is_refused_and_changes_nothing(engine):
    g = _game(engine)
    before = json.dumps(g.to_state(), sort_keys=True)
    with pytest.raises(IllegalAction):
        g.act(3, {"type": "choose", "choice": "四喜"})
    with pytest.raises(IllegalAction):
        g.act(1, {"type": "choose", "choice": "四喜"})
    assert json.dumps(g.to_state(), sort_keys=True) == before


def test_a_game_between_shows_restores_from_its_state(engine):
    g = _game(engine)
    g.act(0, {"type": "choose", "choice": "四喜"})
    h = Game.from_state(engine, json.loads(json.dumps(g.to_state())))
    for x in (g, h):
        x.act(0, {"type": "pass"})
        x.act(1, {"type": "pass"})
        x.act(2, {"type": "choose", "choice": "六六顺"})
    assert h.events == g.events and h.ledger == g.ledger


def test_greedy_agents_show_and_random_ones_may_not(engine):
    shown = 0
    for seed in range(40):
        g = play_hand(engine, ["greedy"], seed=seed)
        shown += sum(1 for e in g.events if e["type"] == "show")
        assert sum(g.outcome["payments"].values()) == 0
        for e in g.events:
            if e["type"] == "show":   # what was shown qualifies
                counts = {t: e["hand"].count(t) for t in e["hand"]}
                if e["opening"] == "六六顺":
                    assert sum(1 for c in counts.values() if c >= 3) >= 2
                if e["opening"] == "四喜":
                    assert sum(1 for c in counts.values() if c == 4) == e["count"]
    assert shown > 0


@pytest.mark.parametrize("text,message", [
    ("opening X", "needs 'when CONDITION'"),
    ("opening X when held_fours(winner) > 0", "winner"),
    ("settlement {\n opening {\n pay others to winner = 1\n }\n }", "no winner at the deal"),
    ("settlement {\n hand_end {\n pay others to shower = 1\n }\n }", "'shower'"),
    ("opening X when shown > 0 and held_pairs(payer) > 0 and hits(dealer) > 9", ""),
])
def test_what_the_checker_says(tmp_path, text, message):
    from mjrules.compiler import compile_file

    p = tmp_path / "bad.mj"
    p.write_text('variant bad "bad" extends zhuanzhuan {\n' + text + "\n}\n", encoding="utf-8")
    if not message:
        compile_file(p)   # accepted
        return
    with pytest.raises(SpecError) as e:
        compile_file(p)
    assert message in str(e.value)
