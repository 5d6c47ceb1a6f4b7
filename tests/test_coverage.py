"""Coverage: a simulation of each variant reaches every pattern its spec defines and the usual ways of
winning; the counts are reported, and the test fails on one that never occurs.

Seekers (each hand aiming at a pattern drawn at random) and random players make the rare shapes appear.
Ways of winning too rare for a simulation of this length are listed in RARE with the reason; the
scenario and hand tests cover each of them deterministically.
"""
from __future__ import annotations

import pytest
from strategies import SLOW

from mjrules.game.simulate import simulate

HANDS = {"shangrao": 160, "fuzhou_jiangxi": 400, "fuzhou_fujian": 600}
if SLOW:
    HANDS = {k: v * 10 for k, v in HANDS.items()}
RARE = {
    ("*", "dealt"): "天胡 needs the dealer's dealt hand to win as it stands (about 1 hand in 300,000 without "
                    "wilds); tests/test_hands.py and tests/scenarios/fj_dealer_streak.json cover it",
    ("*", "kong_replacement"): "a win on a kong's replacement tile is a few per thousand hands; "
                               "tests/test_hands.py covers 杠上开花 in every variant",
    ("shangrao", "discard"): "上饶's only discard win is 地胡 on the dealer's first discard; "
                             "tests/scenarios/sr_t28_dihu.json covers it",
    ("*", "rob_kong"): "robbing a kong needs a player waiting on exactly the added kong's tile; "
                       "tests/scenarios/jx_qianggang.json and tests/test_hands.py cover it",
    ("fuzhou_fujian", "平胡"): "福州's 平胡 needs a win without a single flower among 36 flower tiles; "
                              "tests/test_hands.py covers it",
    ("shangrao", "碰碰胡"): "上饶's 碰碰胡 needs four pungs and no chi: about 2 hands in 1,000 with seekers; "
                          "tests/test_hands.py covers it",
    ("fuzhou_fujian", "金雀"): "金雀 needs both golds held as the pair of a complete hand: about 1 hand in 3,000 "
                              "with seekers; tests/scenarios/fj_t20_jinque.json and tests/test_hands.py cover it",
}


def ways_of(v) -> set[str]:
    ways = {"self_draw", "kong_replacement", "dealt"}
    if v.claims.win_on_discard is not None:
        ways.add("discard")
    if v.claims.rob_kong:
        ways.add("rob_kong")
    if v.rob_wild is not None:
        ways.add("rob_gold")
    return ways


def rare(variant: str, what: str) -> bool:
    return (variant, what) in RARE or ("*", what) in RARE


@pytest.mark.parametrize("variant", sorted(HANDS))
def test_simulation_reaches_every_pattern_and_way(variant, capsys):
    s = simulate(variant, HANDS[variant], seed=1, agents=["seeker", "seeker", "random", "random"], jobs=2,
                 backend="native")
    import mjrules

    v = mjrules.load(variant).variant
    with capsys.disabled():
        print(f"\n{variant}: {s['hands']} hands; ways {s['wins_by_way']}; patterns {s['wins_by_pattern']}")
    missing = [p.name for p in v.patterns if not s["wins_by_pattern"].get(p.name) and not rare(variant, p.name)]
    missing += [w for w in sorted(ways_of(v)) if not s["wins_by_way"].get(w) and not rare(variant, w)]
    assert not missing, f"{variant}: never reached in {s['hands']} hands: {missing}; counts {s['wins_by_pattern']}"
