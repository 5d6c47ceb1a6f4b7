"""A match (`match { ... }`, mjrules.game.Match): its length in rounds with dealer repeats not counted, the prevalent
wind by round, the starting score, `end` rules, an extension while a condition holds, stakes left at the end to
first place, ranks and each seat's result. Riichi (RI-80..RI-82) says its match with them; played matches are
checked against the rule text hand by hand, on both back ends."""
from __future__ import annotations

import mjrules
import pytest
from mjrules.compiler import SpecError, compile_text, locate
from mjrules.game import Game, play_hand, play_match
from mjrules.game.match import Match
from mjrules.game.play import log_header

UMA = {"uma_1": 15, "uma_2": 5, "uma_3": -5, "uma_4": -15}


@pytest.fixture(scope="module", params=["reference", "native"])
def riichi(request):
    return mjrules.load("riichi", backend=request.param)


def rounds_of(m: dict) -> list[tuple[int, int]]:
    """(round, dealer) of each hand: the prevalent wind is the round; the dealer's place in it."""
    return [(g.prevalent_wind, g.dealer) for g in m["hands"]]


def check_match(m: dict, start: int, *, rounds: int, extension: bool = False, tobi: bool = True) -> None:
    """What RI-80..RI-82 say of any riichi match, asked of a played one."""
    hands = m["hands"]
    first = m["seating"]["dealer"]
    assert hands[0].dealer == first and hands[0].prevalent_wind == 0 and hands[0].dealer_streak == 0
    scores = [start] * 4
    for i, g in enumerate(hands):
        for p, x in g.outcome["payments"].items():
            scores[int(p)] += x
        if i + 1 < len(hands):   # the next hand: the rotation's dealer, a new round when the deal passed seat `first`
            nxt = hands[i + 1]
            assert (nxt.dealer, nxt.dealer_streak) == (g.outcome["next_dealer"], g.outcome["next_streak"])
            passed = nxt.dealer != g.dealer and (nxt.dealer - first) % 4 == 0
            assert nxt.prevalent_wind == g.prevalent_wind + passed
            assert log_header(nxt).get("pot", 0) == g.outcome.get("pot", 0)   # riichi sticks carried on
            if tobi:
                assert min(scores) >= 0                       # RI-81 nobody fell below 0 before the end
    last = hands[-1]
    pot = last.outcome.get("pot", 0)
    if m.get("pot_to") is not None:                           # RI-81 sticks left go to first place
        scores[m["pot_to"]] += pot
        assert m["ranks"][m["pot_to"]] == 1 and m["pot"] == 0
    assert m["scores"] == scores and sum(scores) + m["pot"] == 4 * start
    order = sorted(range(4), key=lambda p: (-scores[p], (p - first) % 4))
    assert [m["ranks"][p] for p in order] == [1, 2, 3, 4]    # RI-82 ties in seat order from the first dealer
    why = m["ended_by"]
    last_dealer_of_round = (last.dealer - first) % 4 == 3
    repeat = last.outcome["next_dealer"] == last.dealer
    if why == "飛び":
        assert tobi and min(scores) < 0
    elif why == "和了り止め":                                   # RI-81 the dealer won the last hand and stands first
        assert last_dealer_of_round and last.prevalent_wind >= rounds - 1
        assert any(w["seat"] == last.dealer for w in last.outcome["winners"]) and m["ranks"][last.dealer] == 1
    elif why == "extension":                                  # RI-81 West: the first hand that ends with 30000+
        assert extension and last.prevalent_wind >= rounds and max(scores) >= 30000
    else:
        assert why == "length" and last_dealer_of_round and not repeat
        if extension and max(scores) < 30000:
            assert last.prevalent_wind == rounds              # West 4 ended it
        else:
            assert last.prevalent_wind == rounds - 1 or extension
    assert {g.prevalent_wind for g in hands} <= set(range(rounds + extension))


@pytest.mark.parametrize(("options", "rounds", "extension"), [
    ({}, 2, False),
    ({"match": "tonpuu"}, 1, False),
    ({"west_extension": True, "starting_points": 20000}, 2, True),   # (20000: West is reached often)
    ({"tobi": False, "agari_yame": False}, 2, False),
])
def test_riichi_matches_follow_ri80_to_ri82(riichi, options, rounds, extension):
    start = options.get("starting_points", 25000)
    seen = set()
    for seed in range(6 if riichi.backend == "reference" else 30):
        m = play_match(riichi, agents=["random" if seed % 2 else "greedy"], seed=seed, options=options)
        check_match(m, start, rounds=rounds, extension=extension, tobi=options.get("tobi", True))
        seen.add(m["ended_by"])
        if not options.get("agari_yame", True):
            assert m["ended_by"] != "和了り止め"
    assert "length" in seen


def test_tobi_ends_the_match_at_once(riichi):
    m = play_match(riichi, agents=["greedy"], seed=1, options={"starting_points": 1000})
    assert m["ended_by"] == "飛び" and min(m["scores"]) < 0 and len(m["hands"]) < 8
    m = play_match(riichi, agents=["greedy"], seed=1, options={"starting_points": 1000, "tobi": False})
    assert m["ended_by"] == "length" and min(m["scores"]) < 0


def test_results_are_uma_and_oka(riichi):
    """RI-82: (score - return) / 1000 + uma of the rank, first place also the oka; they sum to 0."""
    m = play_match(riichi, agents=["greedy"], seed=4, options={**UMA, "oka": 20000})
    for p in range(4):
        want = (m["scores"][p] - 30000) / 1000 + [15, 5, -5, -15][m["ranks"][p] - 1] + (20 if m["ranks"][p] == 1 else 0)
        assert m["results"][p] == pytest.approx(want, abs=1e-9)
        assert round(m["results"][p], 1) == m["results"][p]   # shown to the point (no float tail)
    assert sum(m["results"]) == pytest.approx(0, abs=1e-9)
    plain = play_match(riichi, agents=["greedy"], seed=4)
    assert plain["results"] == [(s - 25000) / 1000 for s in plain["scores"]]


def test_both_back_ends_play_one_match():
    a = play_match(mjrules.load("riichi", backend="reference"), agents=["greedy"], seed=7, options=UMA)
    b = play_match(mjrules.load("riichi", backend="native"), agents=["greedy"], seed=7, options=UMA)
    assert [g.events for g in a["hands"]] == [g.events for g in b["hands"]]
    assert {k: v for k, v in a.items() if k != "hands"} == {k: v for k, v in b.items() if k != "hands"}


def test_hands_plays_that_many_and_end_rules_still_end_it(riichi):
    m = play_match(riichi, 3, ["greedy"], seed=2)
    assert len(m["hands"]) == 3 and m["ended_by"] == "length"
    m = play_match(riichi, 30, ["greedy"], seed=1, options={"starting_points": 1000})
    assert m["ended_by"] == "飛び"


def test_a_match_of_hands_is_as_before():
    """`match hands = N` (the one-line form): that many hands, the wind moving on each time the deal comes back."""
    eng = mjrules.load("guobiao", backend="native")
    m = play_match(eng, agents=["greedy"], seed=3)
    assert len(m["hands"]) == 16 and m["ended_by"] == "length" and m["scores"] == m["totals"]
    assert [g.prevalent_wind for g in m["hands"]] == [i // 4 for i in range(16)]   # GB-98: the deal always passes


def test_the_match_refuses_a_hand_not_over_and_a_match_over(riichi):
    m = Match(riichi, seating={"dealer": 0}, hands=1)
    g = Game(riichi, seed=1, **m.deal())
    with pytest.raises(ValueError, match="not over"):
        m.record(g)
    m.record(play_hand(riichi, ["greedy"], seed=1, **m.deal()))
    assert m.over
    with pytest.raises(ValueError, match="over"):
        m.deal()


SPEC = locate("riichi").read_text(encoding="utf-8")
BLOCK = SPEC[SPEC.index("  match {"):SPEC.index("\n  }\n", SPEC.index("  match {")) + 5]


@pytest.mark.parametrize(("block", "code", "text"), [
    ("  match {\n    start = 1\n  }\n", "E019", "match has no length"),
    ("  match {\n    hands = 4\n    rounds = 2\n  }\n", "E018", "'hands' or 'rounds', not both"),
    ("  match {\n    hands = 4\n    extend = 1 when highest_score < 3\n  }\n", "E033", "a match of rounds"),
    ("  match {\n    rounds = 2\n    end \"x\"\n  }\n", "E034", "'end' needs 'when CONDITION'"),
    ("  match {\n    rounds = 2\n    extend = 1\n  }\n", "E034", "'extend' needs 'when CONDITION'"),
    ("  match {\n    rounds = 2\n    pot to last\n  }\n", "E013", "who takes the stakes"),
    ("  match {\n    rounds = highest_score\n  }\n", "E026", "not available in switch conditions"),
    ("  match {\n    rounds = 2\n    result = nth(1)\n  }\n", "E030", "at least 2 arguments"),
    ("  match {\n    rounds = 2\n    tobi = 1\n  }\n", "E012", "unknown clause 'tobi' in match"),
])
def test_mistakes_in_a_match_block_are_named(block, code, text):
    with pytest.raises(SpecError) as e:
        compile_text(SPEC.replace(BLOCK, block), "riichi.mj")
    assert any(d.code == code and text in d.message for d in e.value.diagnostics), [str(d) for d in e.value.diagnostics]


def test_score_and_rank_belong_to_the_match():
    bad = SPEC.replace("    rotate next otherwise", "    rotate next when rank(dealer) == 1\n    rotate next otherwise")
    with pytest.raises(SpecError) as e:
        compile_text(bad, "riichi.mj")
    assert any(d.code == "E026" and "'rank' is not available in rotation rules" in d.message
               for d in e.value.diagnostics)
