"""Riichi's honba (RI-73, RI-76) as the spec specs/riichi.mj says it with general constructs: the count is the
rotation's streak (one more after a dealer win or a drawn hand, 0 after another's win), and each win pays 300 per
honba (100 from each payer on a self-draw; on a discard won by several, to the nearest winner only, or to each
with `double_ron_honba = "each"`). Both back ends; whole matches through play_match."""
from __future__ import annotations

import mjrules
import pytest
from mjrules.game import play_match

SPEC = "riichi"
RON = {"concealed": "234m456m789p234s66p", "win_tile": "2m", "win_by": "discard", "discarder": 0, "seat": 1,
       "declared_ready": True}


@pytest.fixture(scope="module", params=["reference", "native"])
def engine(request):
    return mjrules.load(SPEC, backend=request.param)


@pytest.mark.parametrize(("honba", "paid"), [(0, 2000), (1, 2300), (3, 2900)])
def test_a_discard_win_pays_300_a_honba(engine, honba, paid):
    r = engine.evaluate({**RON, "dealer_streak": honba})
    assert r["payments"][0] == -paid and r["payments"][1] == paid


def test_a_self_draw_pays_100_a_honba_from_each(engine):
    sit = {k: v for k, v in RON.items() if k != "discarder"}
    r = engine.evaluate({**sit, "win_by": "self_draw", "dealer_streak": 2})
    # riichi, menzen tsumo, pinfu: 3 han 20 fu, a base of 640; the dealer pays 1300 + 200, the others 700 + 200
    assert r["payments"] == {0: -1500, 1: 3300, 2: -900, 3: -900}


def test_a_hand_scored_alone_is_the_nearest_winner(engine):
    """`win_place` (the nearest winner after the discarder is 1) is play's; a hand scored alone is its first win."""
    r = engine.evaluate({**RON, "dealer_streak": 2, "winners": 2})
    assert r["payments"][1] == 2600


DOUBLE_RON = ["1p9m9m1s1s3s3s7m7m2z2z3z3z4z", "5z5z5z123m456m789s1p", "6z6z6z234s567s789p1p",
              "1z1z8m8m8p8p8s8s9p9p4z4z2m"]


@pytest.mark.parametrize("each", [False, True])
def test_of_two_winners_the_nearest_gets_the_honba_unless_each(engine, each):
    """The dealer's first discard, 1p, is won by seats 1 (中) and 2 (發) with two honba: the nearest after the
    discarder, seat 1, gets the 600; seat 2 gets it too with double_ron_honba = "each" (RI-73)."""
    from collections import Counter

    from mjrules.game import Game
    from mjrules.game.actions import DISCARD, WIN
    from mjrules.model.tiles import parse_tiles

    hands = [[t.kind for t in parse_tiles(h)] for h in DOUBLE_RON]
    pool = Counter({k: 4 for k in range(34)})
    for h in hands:
        pool.subtract(h)
    g = Game(engine, hands=hands, wall=[k for k in sorted(pool) for _ in range(pool[k])], dealer_streak=2,
             options={"double_ron_honba": "each" if each else "nearest"})
    g.step(DISCARD + hands[0][0])
    for p in (1, 2):
        g.act(p, WIN)
    won = {w["seat"]: w["value"] for w in g.outcome["winners"]}
    ron = {p: -(-4 * v // 100) * 100 for p, v in won.items()}   # a non-dealer's ron: 4 x base, rounded up to 100
    assert sorted(won) == [1, 2]
    assert g.outcome["payments"][1] == ron[1] + 600
    assert g.outcome["payments"][2] == ron[2] + (600 if each else 0)
    assert g.outcome["payments"][0] == -sum(g.outcome["payments"][p] for p in (1, 2, 3))


def test_the_count_follows_the_rotation():
    eng = mjrules.load(SPEC, backend="native")
    m = play_match(eng, 12, ["greedy"], seed=3)
    hands = m["hands"]
    assert any(not g.outcome["winners"] for g in hands) and any(g.outcome["winners"] for g in hands)
    for before, after in zip(hands, hands[1:]):
        won = before.outcome["winners"]
        dealer_won = any(w["seat"] == before.dealer for w in won)
        want = 0 if won and not dealer_won else before.dealer_streak + 1
        assert after.dealer_streak == want
        assert after.dealer == before.outcome["next_dealer"]
        if won:   # (after a draw, a tenpai dealer keeps the deal: tests/test_riichi_play.py)
            assert after.dealer == (before.dealer if dealer_won else (before.dealer + 1) % 4)
