"""The game's cheap shape test (mjrules.model.shape: each back end's `fit_test`) never rules out a hand the engine
finds winning, on both back ends and every shipped variant; and where the native back end decides free patterns
itself (every free pattern's condition reads only the tiles, the melds and the options), it does rule hands out.

The game asks the test before it judges a hand in full (after every draw, and for every seat on every discard): a
hand it wrongly rules out is a win the game never offers. The hands: hypothesis' situations of any variant, and the
oracles' winning hands of 国标 (every fan: 十三幺, 全不靠, 组合龙, 七星不靠 ...) and riichi (every yaku).
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mjrules
from mjrules.model.situation import Situation, SituationError, situation_from_dict
from mjrules.compiler import shipped_names
from strategies import examples, situations

N_KINDS = 42


def fit_args(s: Situation) -> tuple:
    """may_fit's arguments for a complete hand, as the game gives them: concealed counts (the winning tile among
    them), the melds' counts, how many melds, whether one is a chi, the wild kinds (-1: none)."""
    counts = bytearray(N_KINDS)
    for k in s.concealed:
        counts[k] += 1
    mc = bytearray(N_KINDS)
    for m in s.melds:
        for k in m.tiles[:3]:   # (a kong counts as three tiles)
            mc[k] += 1
    wild = -1 if s.wild is None else s.wild
    wild2 = -1 if s.wild2 is None else s.wild2
    return counts, mc, len(s.melds), any(m.kind == "chi" for m in s.melds), wild, -1, wild2


def _engines(name: str) -> dict[str, object]:
    return {b: mjrules.load(name, backend=b) for b in ("native", "reference")}


SHIPPED = shipped_names()
ENGINES = {name: _engines(name) for name in SHIPPED}


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("backend", ["native", "reference"])
@settings(max_examples=examples(150, 3000), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_shape_test_never_rules_out_a_win(name, backend, data):
    eng = ENGINES[name][backend]
    v = eng.variant
    d = data.draw(situations(v))
    try:
        s = situation_from_dict(v, d)
        r = eng.evaluate(s, explain=False)
    except (SituationError, ValueError):
        assume(False)
        return
    if r.win:
        assert eng.fit_test(s.options)(*fit_args(s)), d


def _oracle_hands(kind: str, n: int) -> list[Situation]:
    if kind == "guobiao":
        from oracles import mcr
        cases = list(mcr.generate(random.Random(20261207), n))
    else:
        from oracles import riichi
        cases = riichi.generate(n, 20261207)
    v = ENGINES[kind]["native"].variant
    return [situation_from_dict(v, c.situation()) for c in cases]


@pytest.mark.parametrize("name, n", [("guobiao", 3000), ("riichi", 2000)])
def test_the_shape_test_takes_every_winning_hand_of_the_oracles(name, n):
    """Every fan's and yaku's hands, the irregular shapes among them, pass the native and the reference test."""
    hands = _oracle_hands(name, n)
    wins = 0
    for backend in ("native", "reference"):
        eng = ENGINES[name][backend]
        for s in hands:
            if eng.evaluate(s, explain=False).win:
                wins += 1
                assert eng.fit_test(s.options)(*fit_args(s)), (backend, s)
    assert wins > n   # (most of the oracles' hands win: the test was asked)


@pytest.mark.parametrize("name", SHIPPED)
def test_the_native_test_rules_out_random_hands(name):
    """Where every free pattern reads only the tiles, the melds and the options, the native test decides free
    patterns itself (the kernel's, not one that takes every hand): most random concealed hands are ruled out."""
    from mjrules.model.shape import always_fits, free_tests_read_tiles_only

    eng = ENGINES[name]["native"]
    v = eng.variant
    fit = eng.fit_test()
    assert free_tests_read_tiles_only(v, True), f"{name}: a free pattern reads more than the tiles"
    assert fit is not always_fits
    rng = random.Random(7)
    playable = [k for k in v.tiles.playable if k < 34]
    wall = [k for k in playable for _ in range(v.tiles.copies[k])]
    out = 0
    for _ in range(500):
        counts = bytearray(N_KINDS)
        for k in rng.sample(wall, v.win_size):
            counts[k] += 1
        out += not fit(counts, bytearray(N_KINDS), 0, False, -1)
    assert out > 400, out


KNIT = """
variant knit "A knitted straight, no free pattern" {
  rules KN 1..2
  tiles {
    use suited honours    # KN-01
    copies 4              # KN-01
  }
  players 4               # KN-01
  hand 13 dealer 14       # KN-01
  deal 4 4 4 1 then dealer 1  # KN-01
  wall {
    draw head             # KN-01
    replacement tail      # KN-01
    retain = 0            # KN-01
  }
  claims {
    pon                   # KN-01
    win_on_discard        # KN-01
  }
  pattern 和 "Four Sets and a Pair" shape standard                    # KN-02
  pattern 组合龙 "Knitted Straight, a Set and a Pair" shape knitted   # KN-02
  score {
    value = 1   # KN-02
  }
  settlement {
    win {
      pay others = value      # KN-02
    }
  }
  rotation {
    rotate next otherwise     # KN-01
  }
}
"""


@pytest.mark.parametrize("backend", ["reference", "native"])
def test_a_knitted_shape_alone_is_not_ruled_out(backend, tmp_path):
    """A knitted straight with a set and a pair, in a variant with no free pattern: no standard reading, and still
    the test takes it (the reference's, which tests standard and pairs shapes only, takes every hand here)."""
    path = tmp_path / "knit.mj"
    path.write_text(KNIT, encoding="utf-8")
    eng = mjrules.load(str(path), backend=backend)
    s = situation_from_dict(eng.variant, {"concealed": "147m258p369s123s55z", "win_tile": "5z"})
    assert eng.evaluate(s, explain=False).win
    assert eng.fit_test()(*fit_args(s))


def _near_hand(rng: random.Random, v, playable: list[int]) -> tuple:
    """A hand one tile short, mostly of sets and pairs (so many are one tile from a shape), with 0-3 melds."""
    nmelds = rng.choice([0, 0, 1, 2, 3])
    size = v.win_size - 3 * nmelds - 1
    counts, mc = bytearray(N_KINDS), bytearray(N_KINDS)
    suited = [k for k in playable if k < 27 and k % 9 < 7]
    while sum(counts) < size:
        k, r = rng.choice(playable), rng.random()
        group = [k, k + 1, k + 2] if r < 0.4 and k in suited else [k] * (3 if r < 0.6 else 2 if r < 0.75 else 1)
        for x in group:
            if sum(counts) < size and counts[x] < v.tiles.copies[x]:
                counts[x] += 1
    seq = False
    for _ in range(nmelds):
        k = rng.choice(suited)
        if rng.random() < 0.5:
            seq = True
            for x in (k, k + 1, k + 2):
                mc[x] += 1
        else:
            mc[k] += 3
    wild = rng.choice([-1, -1, rng.choice(playable)]) if v.wild is not None else -1
    return counts, mc, nmelds, seq, wild


@pytest.mark.parametrize("name", SHIPPED)
def test_fit_mask_is_may_fit_of_each_kind(name):
    """ShapeTest.fit_mask (every kind's answer at once, the pre-draw hand loaded once and ruled out as a whole where
    one more wild cannot complete it, remembered by hand) is may_fit asked of each kind added, on near-ready hands
    with melds and wilds, and with `less`: a complete hand asked less one of its tiles."""
    eng = ENGINES[name]["native"]
    v = eng.variant
    fit = eng.fit_test()
    rng = random.Random(11)
    playable = [k for k in v.tiles.playable if k < 34]
    every = (1 << N_KINDS) - 1
    kept = 0
    for _ in range(3000):
        counts, mc, nmelds, seq, wild = _near_hand(rng, v, playable)
        try:
            got = fit.fit_mask(counts, mc, nmelds, seq, wild, -1, every)
        except ValueError:
            continue
        want = sum(1 << k for k in range(N_KINDS) if fit.may_fit(counts, mc, nmelds, seq, wild, k, -1))
        assert got == want, (name, list(counts), nmelds, seq, wild)
        kept += bool(got & sum(1 << k for k in playable if counts[k] < v.tiles.copies[k]))
        k = rng.choice([x for x in range(N_KINDS) if counts[x] < 4])
        counts[k] += 1   # the complete hand, asked less one of its tiles
        less = rng.choice([x for x in range(N_KINDS) if counts[x]])
        got = fit.fit_mask(counts, mc, nmelds, seq, wild, -1, every, less)
        counts[less] -= 1
        assert got == sum(1 << x for x in range(N_KINDS) if fit.may_fit(counts, mc, nmelds, seq, wild, x, -1))
    assert kept > 100, kept   # (hands that some real kind completes were asked, not only ruled-out ones)
    with pytest.raises(ValueError):
        fit.fit_mask(bytearray(N_KINDS), bytearray(N_KINDS), 0, False, -1, -1, every, 5)   # no tile of kind 5
