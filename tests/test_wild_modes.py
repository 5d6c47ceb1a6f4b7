"""Wild modes chosen by an option, and two wild kinds, on tests/data/wild_modes.mj and on both back ends: the
situation reader (one shared validation), the hand evaluator (two kinds as jokers, face value, wild_in_force and
无鬼), the bare check with a pair of kinds, the game's reveal per mode, and the spec errors of the wild block."""
from __future__ import annotations

import json
import re
from pathlib import Path

import mjrules
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mjrules import SituationError
from mjrules.model.situation import situation_from_dict
from mjrules.model.tiles import parse_tiles, tile_kind, tile_name
from strategies import examples, situations

SPEC = str(Path(__file__).parent / "data" / "wild_modes.mj")
BASE = Path(SPEC).read_text(encoding="utf-8")
MODES = ("none", "fixed", "one", "two")


def _hand(d: dict) -> dict:
    out = {"seat": 0, "dealer": 0, "win_by": "self_draw", **d}
    if "win_tile" not in out and out.get("concealed"):
        out["win_tile"] = out["concealed"].split()[-1].rstrip("*")[-2:]
    return out


def _counts(text: str) -> bytes:
    c = [0] * 34
    for t in parse_tiles(text):
        c[t.kind] += 1
    return bytes(c)


# ---- situations: the kinds each mode gives ----------------------------------------------------------------
@pytest.mark.parametrize("gui, given_, want", [
    ("one", {"indicator": "1m"}, ("2m", None)),
    ("one", {"indicator": "9m"}, ("1m", None)),
    ("two", {"indicator": "1m"}, ("2m", "3m")),
    ("two", {"indicator": "9p"}, ("1p", "2p")),
    ("two", {"indicator": "中"}, ("發", "白")),
    ("two", {"indicator": "北"}, ("東", "南")),
    ("two", {"wild": ["5s", "6s"]}, ("5s", "6s")),
    ("fixed", {}, ("白", None)),
    ("none", {}, (None, None)),
    ("none", {"wild": None}, (None, None)),
    ("one", {}, (None, None)),   # a flipping mode with no indicator named: no wild kind known
])
def test_the_mode_gives_the_wild_kinds(gui, given_, want):
    import mjrules

    v = mjrules.load(SPEC, backend="reference").variant
    s = situation_from_dict(v, _hand({"concealed": "123p 456p 789p 123s 55s", "options": {"gui": gui}, **given_}))
    got = tuple(None if k is None else tile_name(k) for k in (s.wild, s.wild2))
    assert got == tuple(None if k is None else tile_name(tile_kind(k)) for k in want)


BAD = [
    ("two", {"concealed": "2m 2m 2m 2m 2m 123p 456p 789p", "indicator": "1m"}, "5 copies of 2m"),
    ("two", {"concealed": "3m 3m 3m 3m 3m 123p 456p 789p", "wild": ["2m", "3m"]}, "5 copies of 3m"),
    ("two", {"concealed": "123p 456p 789p 123s 55s", "wild": "2m"}, "2 wild kind(s), but 'wild' names 1"),
    ("one", {"concealed": "123p 456p 789p 123s 55s", "wild": ["2m", "3m"]}, "1 wild kind(s), but 'wild' names 2"),
    ("two", {"concealed": "123p 456p 789p 123s 55s", "wild": ["2m", "2m"]}, "names 2m twice"),
    ("two", {"concealed": "123p 456p 789p 123s 55s", "wild": ["2m", "3m", "4m"]}, "a list of 1 to 2 tiles"),
    ("none", {"concealed": "123p 456p 789p 123s 55s", "indicator": "1m"}, "no wild is in force"),
    ("none", {"concealed": "123p 456p 789p 123s 55s", "wild": "2m"}, "no wild is in force"),
    ("none", {"concealed": "2m* 3m 4m 456p 789p 123s 55s"}, "no wild is in force"),
    ("fixed", {"concealed": "123p 456p 789p 123s 55s", "indicator": "1m"}, "wild is fixed; it has no indicator"),
    ("two", {"concealed": "4m* 3m 4m 456p 789p 123s 55s", "indicator": "1m"}, "the wild kind is 2m or 3m"),
    ("two", {"concealed": "123p 456p 789p 55s", "melds": ["[333m]"], "indicator": "1m"}, "uses the wild kind 3m"),
]


@pytest.mark.parametrize("gui, d, message", BAD)
def test_bad_situations_get_one_error_on_both_back_ends(gui, d, message):
    import mjrules

    errors = []
    for backend in ("reference", "native"):
        with pytest.raises(SituationError) as e:
            mjrules.load(SPEC, backend=backend).evaluate(_hand({**d, "options": {"gui": gui}}))
        errors.append(str(e.value))
    assert errors[0] == errors[1] and message in errors[0], errors


# ---- evaluation in each mode, both back ends --------------------------------------------------------------
NO_GHOST = "123p 456p 789p 123s 55s"
CASES = [
    # (gui, situation fields, win, value, events)
    ("two", {"concealed": "123p 456p 789p 11s 5z 2m* 3m*", "indicator": "1m"}, True, 1, []),
    ("one", {"concealed": "123p 456p 789p 11s 5z 2m* 3m", "indicator": "1m"}, False, None, []),
    ("two", {"concealed": "123p 456p 789p 11s 5z 2m* 3m*", "wild": ["2m", "3m"]}, True, 1, []),
    # the second kind at its own face: 1m 2m* 3m* as 123m
    ("two", {"concealed": "1m 2m* 3m* 456p 789p 123s 55s", "indicator": "1m"}, True, 3, []),
    ("two", {"concealed": "1m 3m* 3m* 456p 789p 123s 55s", "indicator": "1m"}, True, 1, []),
    ("one", {"concealed": "1m 2m* 3m 456p 789p 123s 55s", "indicator": "1m"}, True, 3, []),
    # 无鬼: a wild in force, none held
    ("one", {"concealed": NO_GHOST, "indicator": "1m"}, True, 5, ["no_ghost"]),
    ("two", {"concealed": NO_GHOST, "indicator": "1m"}, True, 5, ["no_ghost"]),
    ("fixed", {"concealed": NO_GHOST}, True, 5, ["no_ghost"]),
    ("none", {"concealed": NO_GHOST}, True, 1, []),
    ("one", {"concealed": NO_GHOST}, True, 1, []),   # no kind named: none in force
    ("fixed", {"concealed": "123p 456p 789p 123s 5s 7z"}, True, 1, []),
    ("fixed", {"concealed": "123p 456p 789p 123s 5s 7z*"}, True, 1, []),
    ("none", {"concealed": "123p 456p 789p 123s 5s 7z"}, False, None, []),
    # seven pairs with a wild of each kind
    ("two", {"concealed": "2m* 3m* 11p 22p 33p 44s 55s 6s 7s", "indicator": "1m"}, True, 2, []),
]


@pytest.mark.parametrize("gui, d, win, value, events", CASES)
def test_hands_in_each_mode(load, gui, d, win, value, events):
    r = load(SPEC).evaluate(_hand({**d, "options": {"gui": gui}}))
    assert r["win"] == win, r
    if win:
        assert r["value"] == value and [x for x in r["patterns"] if x == "no_ghost"] == events, r


def test_a_discarded_wild_of_either_kind_is_dead(load):
    eng = load(SPEC)
    for concealed, tile in (("123p 456p 789p 11s 5z 2m* 3m*", "2m"), ("123p 456p 789p 11s 5z 2m* 3m*", "3m")):
        d = _hand({"concealed": concealed, "indicator": "1m", "options": {"gui": "two"}, "win_by": "discard",
                   "discarder": 1, "win_tile": tile})
        r = eng.evaluate(d)
        assert not r["win"] and "cannot be claimed" in str(r["reason"]), r
        assert eng.evaluate({**d, "win_by": "self_draw", "discarder": -1})["win"]


# ---- the bare check with a pair of kinds ------------------------------------------------------------------
def test_bare_check_takes_a_pair_of_kinds(load):
    import numpy as np

    eng = load(SPEC)
    two = (tile_kind("2m"), tile_kind("3m"))
    hand = _counts("123p 456p 789p 11s 5z 2m 3m")
    assert eng.is_win(hand, 0, two)
    assert not eng.is_win(hand, 0, two[0])
    assert eng.is_win(_counts("123p 456p 789p 11s 5z 3m"), 1, two)       # one free wild (of the first kind)
    assert eng.hand_value(_counts("1m 2m 3m 456p 789p 123s 55s"), 0, two) == (3, "basic")
    waits = eng.wait_kinds(_counts("123p 456p 789p 11s 5z 3m"), 0, two)
    assert {tile_kind("2m"), tile_kind("3m"), tile_kind("5z")} <= set(waits)
    rows = np.array([list(hand), list(_counts("123p 456p 789p 11s 5z 5z 3m")), list(_counts("123p 456p 789p 11s 5z 4m 3m"))],
                    dtype=np.uint8)
    assert list(eng.check_batch(rows, wild=two)) == [True, True, False]
    assert list(eng.check_batch(rows, wild="2m")) == [False, False, False]
    with pytest.raises(ValueError, match="wilds, but this variant has 8 wild tiles of 2m and 3m"):
        eng.is_win(_counts("4m 4m 123p 456p 789p"), 9, two)
    with pytest.raises(ValueError, match="names 2m twice"):
        eng.is_win(hand, 0, (two[0], two[0]))


# ---- both back ends agree with two wild kinds -------------------------------------------------------------
@st.composite
def two_kind_situations(draw, v):
    d = draw(situations(v))
    d.pop("wild", None)
    gui = draw(st.sampled_from(MODES))
    d["options"] = {**d.get("options", {}), "gui": gui}
    tiles = [t.rstrip("*") for t in d["concealed"].split()]
    ind = d.pop("indicator", None)
    kinds: list[str] = []
    if gui in ("one", "two") and ind is not None:
        d["indicator"] = ind
        ks = v.wild.wild_kinds(tile_kind(ind), 2 if gui == "two" else 1)
        kinds = [tile_name(k) for k in ks]
        for _ in range(draw(st.integers(0, 4))):
            tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.sampled_from(kinds))
    elif gui == "fixed":
        kinds = ["7z"]
    d["concealed"] = " ".join(t + ("*" if t in kinds else "") for t in tiles)
    if d.get("win_tile") is not None and d["win_tile"] not in tiles:
        d["win_tile"] = tiles[0]
    if d.get("win_by") == "rob_gold":
        d["win_by"] = "self_draw"
    return d


def test_back_ends_agree_with_two_wild_kinds():
    import mjrules

    ref = mjrules.load(SPEC, backend="reference")
    nat = mjrules.load(SPEC, backend="native")

    def outcome(fn, d):
        try:
            return ("ok", fn(d))
        except SituationError as e:
            return ("error", str(e), e.key)

    @settings(max_examples=examples(300, 3000), deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(two_kind_situations(ref.variant))
    def check(d):
        assert outcome(nat.evaluate, d) == outcome(ref.evaluate, d)

    check()


# ---- the game: the reveal per mode ------------------------------------------------------------------------
@pytest.mark.parametrize("gui", MODES)
def test_games_reveal_the_wild_as_the_mode_says(load, backend, gui):
    from mjrules.game import GreedyAgent, RandomAgent
    from mjrules.game.events import event_dict
    from mjrules.game.observe import observe

    eng = load(SPEC)
    copies = list(eng.variant.tiles.copies)
    for seed in range(3 if backend == "reference" else 12):
        g = eng.new_game(seed=seed, options={"gui": gui})
        kinds = [k for k in (g.wild, g.wild2) if k >= 0]
        if gui == "none":
            assert kinds == [] and g.indicator < 0
        elif gui == "fixed":
            assert kinds == [tile_kind("7z")] and g.indicator < 0
        else:
            want = eng.variant.wild.wild_kinds(g.indicator, 2 if gui == "two" else 1)
            assert g.indicator >= 0 and tuple(kinds) == want
        assert g.view(0)["wild_kinds"] == [tile_name(k) for k in kinds]
        shown = [event_dict(g, e) for e in g.log if e[0] == "wild"]
        assert len(shown) == (0 if gui == "none" else 1)
        if gui == "two":
            assert shown[0]["wild_kinds"] == [tile_name(k) for k in kinds]
        agents = [GreedyAgent(eng.variant, seed + i) if i % 2 else RandomAgent(seed + i) for i in range(4)]
        while not g.over:
            seat = g.to_act
            g.act(seat, agents[seat].act(g, seat))
            assert not g.invariant_errors(), (seed, g.invariant_errors())
            assert g.tile_census() == copies
        for s in g.seats:
            for m in s.melds:
                assert not set(m.tiles) & set(kinds), (seed, m)   # no_calls, for both kinds
        assert sorted(int(i) for i in observe(g, 0)["wild"].nonzero()[0]) == sorted(kinds)


def test_simulate_with_the_option(tmp_path):
    from mjrules.cli.main import main

    out = tmp_path / "sim.json"
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["simulate", SPEC, "--option", "gui=two", "--games", "20", "--json"]) == 0
    data = json.loads(buf.getvalue())
    assert data["hands"] == 20 and data["options"] == {"gui": "two"}, data
    del out


# ---- spec errors of the wild block ------------------------------------------------------------------------
@pytest.mark.parametrize("change, code, needle", [
    (('東..北, 中..白', '東..北, 中..發'), "E023", "the shortest successor cycle has 2"),
    (('kinds 2 when gui == "two"', 'kinds 3 when gui == "two"'), "E013", "how many wild kinds"),
    (('none when gui == "none"', 'none when wilds == 0'), "E026", "'wilds' is not available"),
    (('none when gui == "none"', 'none'), "E019", "'none' needs a condition"),
    (('fixed 7z when gui == "fixed"', 'fixed 7z'), "E018", "exactly one of"),
    (('fixed 7z when gui == "fixed"', 'fixed 7z 6z when gui == "fixed"'), "E014", "unexpected '6z'"),
    (('successor 1m..9m, 1p..9p, 1s..9s, 東..北, 中..白', 'same_as_indicator'), "E023", "'kinds' needs a successor"),
    (('none when gui == "none"', 'none when gui == 3'), "E017", None),
    (('kinds 2 when gui == "two"', 'kinds 2'), None, None),
])
def test_wild_block_spec_errors(change, code, needle):
    from mjrules.compiler import SpecError, compile_text

    old, new = change
    assert old in BASE
    text = BASE.replace(old, new, 1)
    if code is None:
        v = compile_text(text, "wild_modes.mj")
        assert v.wild.kinds == 2
        return
    with pytest.raises(SpecError) as e:
        compile_text(text, "wild_modes.mj")
    assert code in str(e.value) and (needle is None or needle in str(e.value)), str(e.value)


def test_live_follows_from_the_mode():
    from mjrules.compiler import compile_text
    from mjrules.model.wildmode import hand_wild, live

    v = compile_text(BASE, "wild_modes.mj")
    assert [hand_wild(v, {"gui": g}).mode for g in MODES] == ["none", "fixed", "successor", "successor"]
    assert [hand_wild(v, {"gui": g}).kinds for g in MODES] == [0, 1, 1, 2]
    assert live(v, (tile_kind("2m"),)) == 4 and live(v, (tile_kind("2m"), tile_kind("3m"))) == 8
    gold = compile_text(re.sub(r"successor [^#]*#", "same_as_indicator #", BASE).replace(
        '    kinds 2 when gui == "two"', ""), "wild_modes.mj")
    assert live(gold, (tile_kind("2m"),)) == 3   # the face-up indicator is a copy of the gold kind


def test_an_overlays_wild_cases_keep_the_blocks_order(tmp_path):
    """Wild cases are tried in the block's order as merged: an overlay's `fixed ... when` takes the place of the
    base's, after the base's `none when` (line 2 of the overlay comes before line 23 of the base by number)."""
    from mjrules.compiler import compile_file
    from mjrules.model.wildmode import hand_wild

    (tmp_path / "wild_modes.mj").write_text(BASE, encoding="utf-8")
    (tmp_path / "house.mj").write_text('variant house extends wild_modes {\n  wild 鬼 {\n    fixed 7z when gui != "one"'
                                       '   # WM-02\n  }\n}\n', encoding="utf-8")
    v = compile_file(str(tmp_path / "house.mj"))
    assert [c.mode for c in v.wild.cases] == ["none", "fixed", "kinds"]
    assert [hand_wild(v, {"gui": g}).mode for g in MODES] == ["none", "fixed", "successor", "fixed"]


@pytest.mark.parametrize("backend", ["native", "reference"])
def test_live_wilds_follow_each_kinds_copies(backend):
    """The face-up indicator takes one copy of the gold kind out of play (same_as_indicator, stays), whatever that
    kind's copies: 中 has 2 here, so one 中 is a live wild and two are one too many; a 4-copy kind has 3."""
    from mjrules.compiler import compile_text

    text = re.sub(r"successor [^#]*#", "same_as_indicator #", BASE).replace('    kinds 2 when gui == "two"', "")
    text = text.replace("    copies 4                       # WM-01",
                        "    copies 4                       # WM-01\n    copies 2 for 7z                # WM-01")
    eng = mjrules.load(compile_text(text, "wild_modes.mj"), backend=backend)
    cases = [("7z", "123p 456p 789p 11s 5z 5z", 1, True), ("7z", "123p 456p 789p 11s 5z 7z", 1, "has 1 wild tile"),
             ("2m", "123p 456p 789p 11s 2m 2m", 1, True), ("2m", "123p 456p 789p 1s 2m 2m 2m", 1, "has 3 wild tiles")]
    for wild, hand, free, want in cases:
        if want is True:
            assert eng.is_win(_counts(hand), free, tile_kind(wild))
        else:
            with pytest.raises(ValueError, match=want):
                eng.is_win(_counts(hand), free, tile_kind(wild))
