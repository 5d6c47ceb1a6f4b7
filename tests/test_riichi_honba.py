"""Riichi's honba (RI-73, RI-76) as the spec tests/data/riichi.mj says it with general constructs: the count is the
rotation's streak (one more after a dealer win or a drawn hand, 0 after another's win), and each win pays 300 per
honba (100 from each payer on a self-draw; on a discard won by several, to the nearest winner only, or to each
with `double_ron_honba = "each"`). Both back ends; whole matches through play_match."""
from __future__ import annotations

from pathlib import Path

import mjrules
import pytest
from mjrules.game import play_match

SPEC = str(Path(__file__).parent / "data" / "riichi.mj")
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


def test_the_second_winner_gets_no_honba_unless_each(engine):
    nearest = engine.evaluate({**RON, "dealer_streak": 2, "winners": 2})
    each = engine.evaluate({**RON, "dealer_streak": 2, "winners": 2, "options": {"double_ron_honba": "each"}})
    assert nearest["payments"][1] == 2000 and each["payments"][1] == 2600


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
