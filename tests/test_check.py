"""The bare win check (mjrules.model.check): is_win, wait_kinds and check_batch on both backends.

Verdicts come from a table worked out from the rules, agree with `evaluate` where the winning tile does
not matter, and agree between the backends on generated hands (hypothesis). Bad input is refused alike.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import engine_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import mjrules.specs
from mjrules.model.check import situation_of, validate
from mjrules.model.tiles import parse_tiles, tile_name
from strategies import examples

SPECS = Path(mjrules.specs.__file__).resolve().parent  # the shipped specs, installed or in the source tree
VARIANTS = ("shangrao", "fuzhou_jiangxi", "fuzhou_fujian")


def form(text: str) -> tuple[list[int], int]:
    """'123m...9s*' -> (34 counts of the unmarked tiles, number of tiles marked wild)."""
    c, nw = [0] * 34, 0
    for t in parse_tiles(text):
        if t.wild:
            nw += 1
        else:
            c[t.kind] += 1
    return c, nw


# (variant, hand with wilds marked *, wild kind, verdict, why)
CASES = [
    ("fuzhou_jiangxi", "123m456m789p234s77z", None, True, "JX-10 平胡: four sets and a pair"),
    ("fuzhou_jiangxi", "111m222p333s44455z", None, True, "JX-10 碰碰胡"),
    ("fuzhou_jiangxi", "1122m3344p5566s77z", None, True, "JX-10 七对"),
    ("fuzhou_jiangxi", "11112233m4455p66s", None, True, "JX-10 七对: four alike count as two pairs"),
    ("fuzhou_jiangxi", "147m258p369s12345z", None, True, "JX-11 十三烂: gaps of 3 or more, honours distinct"),
    ("fuzhou_jiangxi", "147m258p368s12345z", None, False, "JX-11 a gap of 2 in 368s"),
    ("fuzhou_jiangxi", "123m456m789p234s71z", None, False, "no pattern fits"),
    ("shangrao", "123m456m789p234s77z", "9s", True, "SR-12 平胡 self-drawn without wilds reaches SR-14's minimum"),
    ("shangrao", "123m456m789p234s7z9s*", "9s", False, "SR-14 worth 2 below the minimum 4 (no 宝调 without a winning tile)"),
    ("shangrao", "123m456m789p22s9s*9s*9s*", "9s", False,
     "SR-09 three wilds make a set, but with no winning tile no 宝调 (SR-13): 2 is below SR-14's minimum"),
    ("shangrao", "1122m3344p5566s77z", "9s", True, "SR-12 七对"),
    ("shangrao", "111m999p111s11z22z9s*", "9s", True, "SR-12 碰碰胡 and 幺九 with a wild"),
    ("shangrao", "147m258p369s12345z", "9s", False, "SR-14 十三烂 worth 2, below the minimum"),
    ("fuzhou_fujian", "123m456m789p234s55s777m", "9s", True, "FJ-02 basic win: five sets and a pair"),
    ("fuzhou_fujian", "123m456m789p234s5s777m9s*", "9s", True, "FJ-08 a gold completes the pair"),
    ("fuzhou_fujian", "123m456m789p234s5s777m1p", "9s", False, "no pattern fits"),
    ("fuzhou_fujian", "1m4m7p2s5s8s1p3p5p7p2m5m8m4s9s*9s*9s*", "9s", True, "FJ-14 三金倒: three golds win"),
    ("fuzhou_fujian", "1m4m7p2s5s8s1p3p5p7p2m5m8m4s6s9s*9s*", "9s", False, "two golds are not 三金倒"),
]


@pytest.mark.parametrize("variant,hand,wild,verdict,why", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_table(load, variant, hand, wild, verdict, why):
    eng = load(variant)
    c, nw = form(hand)
    assert eng.is_win(c, nw, wild) is verdict, why
    assert eng.is_win(bytes(c), nw, wild) is verdict
    hv = eng.hand_value(c, nw, wild)
    assert (hv is not None) is verdict
    if verdict:
        r = engine_for(variant, "reference").judge(situation_of(eng.variant, *validate(eng.variant, c, nw, wild)))
        assert hv == (r["value"], r["pattern"]) and hv[1] in r["patterns"]
    win = eng.check_batch(np.array([c, c]), np.array([nw, nw]), wild=wild)
    assert win.tolist() == [verdict, verdict]


@pytest.mark.parametrize("variant,hand,wild,verdict,why", [c for c in CASES if "*" not in c[1]],
                         ids=[f"{c[0]}-{c[1]}" for c in CASES if "*" not in c[1]])
def test_agrees_with_evaluate_without_wilds(variant, hand, wild, verdict, why):
    """Without wilds nothing in these variants depends on the winning tile: evaluate agrees whichever it is."""
    eng = engine_for(variant, "native")
    for k in sorted({t.kind for t in parse_tiles(hand)}):
        d = {"concealed": hand, "win_tile": tile_name(k), "win_by": "self_draw"}
        if wild:
            d["wild"] = wild
        assert eng.evaluate(d)["win"] is verdict, (hand, tile_name(k))


WAITS = [
    ("fuzhou_jiangxi", "123m456m789p234s7z", None, ["7z"]),
    ("fuzhou_jiangxi", "123m456m789p2345s", None, ["2s", "5s"]),
    ("fuzhou_jiangxi", "1112345678999m", None, [f"{r}m" for r in range(1, 10)]),
    ("fuzhou_jiangxi", "147m258p369s1234z", None, ["5z", "6z", "7z"]),
    # two pairs waiting on either: a drawn 1s leaves the other units a wild short of sets, but the 5z pair covers it
    ("fuzhou_jiangxi", "123m456m789p11s55z", None, ["1s", "5z"]),
    ("shangrao", "123m456m789p11s55z", "9s", ["1s", "5z"]),
    ("fuzhou_fujian", "123m456m789p234s5s777m", "9s", ["2s", "5s", "9s"]),
    # only the third gold completes it (三金倒): the free pattern's test, false on the pre-draw counts, which rules
    # it out for every real tile drawn, holds once the wild's kind is drawn
    ("fuzhou_fujian", "147m147p147s258m25p9s*9s*", "9s", ["9s"]),
    ("shangrao", "123m456m789p234s7z", "9s", ["7z"]),
    # 上饶 with a 宝: only 碰碰胡 reaches the minimum (a 平胡 with 宝 is worth 2), so each draw's verdict rests on
    # the pung test of the hand with the drawn tile added, in a suit and in the honours
    ("shangrao", "111z222z333z44m5m9s*", "9s", ["4m", "5m", "9s"]),
    ("shangrao", "111m222p333s44z5z9s*", "9s", ["9s", "4z", "5z"]),
    ("shangrao", "111m222p333s4z5z9s*9s*", "9s", ["9s", "4z", "5z"]),
]


@pytest.mark.parametrize("variant,hand,wild,waits", WAITS, ids=[f"{w[0]}-{w[1]}" for w in WAITS])
def test_wait_kinds(load, variant, hand, wild, waits):
    """Drawing the wild kind adds a wild (a gold completes the 福州 hand's pair)."""
    c, nw = form(hand)
    assert [tile_name(k) for k in load(variant).wait_kinds(c, nw, wild)] == waits


BAD = [
    ("fuzhou_jiangxi", [0] * 34, 0, None, "make 0; a complete concealed hand here has 14"),
    ("fuzhou_jiangxi", form("11111m456m789p234s")[0], 0, None, "5 tiles of 1m, but this variant has 4"),
    ("fuzhou_jiangxi", form("123m456m789p234s7z")[0], 1, None, "this variant has no wilds"),
    ("fuzhou_jiangxi", form("123m456m789p234s7z")[0], 0, "9s", "cannot be the wild kind: this variant has no wilds"),
    ("shangrao", form("123m456m789p234s7z")[0], 1, None, "no wild kind: pass wild=KIND"),
    ("shangrao", form("123m456m789p234s7z")[0], 5, "9s", "5 wilds, but this variant has 4 wild tiles of 9s"),
    ("fuzhou_fujian", form("123m456m789p234s5s")[0], 4, "9s", "4 wilds, but this variant has 3 wild tiles of 9s"),
    ("shangrao", [1] * 33, 0, None, "counts must be 34 non-negative integers"),
    ("fuzhou_jiangxi", form("123m456m789p234s777z")[0], -1, None, "wilds must be a non-negative integer"),
    ("shangrao", [-1] + [1] * 33, 0, None, "counts must be 34 non-negative integers"),
    ("shangrao", form("123m456m789p234s77z")[0], 0, "9x", "9x"),
    ("fuzhou_fujian", form("123m456m789p234s55s777z")[0], 0, "9s", "7z is a scored flower: it never stays in a hand"),
]


@pytest.mark.parametrize("variant,counts,wilds,wild,message", BAD, ids=[b[4][:30] for b in BAD])
def test_bad_input_is_refused_alike(variant, counts, wilds, wild, message):
    errors = []
    for b in ("reference", "native"):
        with pytest.raises(ValueError) as e:
            engine_for(variant, b).is_win(counts, wilds, wild)
        errors.append(str(e.value))
    assert message in errors[0] and errors[0] == errors[1]


def test_batch_names_the_bad_row(load):
    eng = load("fuzhou_jiangxi")
    good = form("123m456m789p234s77z")[0]
    bad = form("11111m456m789p234s")[0]
    with pytest.raises(ValueError, match="row 2: 5 tiles of 1m"):
        eng.check_batch(np.array([good, good, bad, good]))
    with pytest.raises(ValueError, match="n x 34"):
        eng.check_batch(np.zeros((3, 33)))
    with pytest.raises(ValueError, match="one entry per row"):
        eng.check_batch(np.array([good]), np.zeros(2))


def _random_counts(rng: np.random.Generator, eng, n: int, nw: int, wild: int | None) -> np.ndarray:
    v = eng.variant
    wall = np.array([k for k in v.tiles.playable if k < 34 and k != wild for _ in range(v.tiles.copies[k])])
    rows = np.zeros((n, 34), dtype=np.uint8)
    for i in range(n):
        np.add.at(rows[i], rng.choice(wall, v.win_size - nw, replace=False), 1)
    return rows


@pytest.mark.parametrize("variant", VARIANTS)
def test_batch_threads_and_per_hand_agree(variant):
    """The nogil batch split over threads gives the per-hand verdicts, row for row."""
    eng = engine_for(variant, "native")
    rng = np.random.default_rng(5)
    nw = 2 if eng.variant.wild else 0
    wild = 18 + 8 if eng.variant.wild else None
    rows = _random_counts(rng, eng, 3000, nw, wild)
    wl = np.full(len(rows), nw)
    one = eng.check_batch(rows, wl, wild=wild)
    assert (eng.check_batch(rows, wl, wild=wild, threads=2) == one).all()
    assert one.tolist() == [eng.is_win(r, nw, wild) for r in rows]
    win, val, pat = eng.check_batch(rows, wl, wild=wild, values=True)
    assert (win == one).all() and np.isnan(val[~win]).all() and (pat[~win] == -1).all() and (val[win] > 0).all()


@st.composite
def hands(draw, variant: str):
    """Counts and wilds of a complete concealed hand: sets and a pair with noise, or random tiles."""
    v = engine_for(variant, "native").variant
    playable = [k for k in v.tiles.playable if k < 34]
    nw = draw(st.integers(0, min(3, v.wild.live) if v.wild else 0))
    wild = draw(st.sampled_from(playable)) if v.wild else None
    pool = [k for k in playable if k != wild]
    tiles: list[int] = []
    if draw(st.booleans()):
        while len(tiles) < v.win_size - nw - 2:
            k = draw(st.sampled_from(pool))
            tiles += [k, k + 1, k + 2] if k < 27 and k % 9 < 7 and k + 2 != wild and k + 1 != wild and \
                draw(st.booleans()) else [k, k, k]
        k = draw(st.sampled_from(pool))
        tiles = tiles[:v.win_size - nw - 2] + [k, k]
        for _ in range(draw(st.integers(0, 2))):
            tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.sampled_from(pool))
    else:
        tiles = draw(st.lists(st.sampled_from(pool), min_size=v.win_size - nw, max_size=v.win_size - nw))
    c = [0] * 34
    for k in tiles:
        c[k] += 1
    if max(c) > 4:
        c = [min(x, 4) for x in c]
        nw += v.win_size - nw - sum(c)
        if not v.wild or nw > min(4, v.wild.live):
            return None
    return c, nw, wild


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=examples(150, 2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_backends_agree_on_generated_hands(variant, data):
    h = data.draw(hands(variant))
    if h is None:
        return
    c, nw, wild = h
    nat, ref = engine_for(variant, "native"), engine_for(variant, "reference")
    assert nat.is_win(c, nw, wild) == ref.is_win(c, nw, wild)
    assert nat.hand_value(c, nw, wild) == ref.hand_value(c, nw, wild)
    a = nat.check_batch(np.array([c]), np.array([nw]), wild=wild, values=True)
    b = ref.check_batch(np.array([c]), np.array([nw]), wild=wild, values=True)
    assert a[0][0] == b[0][0] and a[2][0] == b[2][0] and (a[1][0] == b[1][0] or np.isnan(a[1][0]) and np.isnan(b[1][0]))
    if nw <= 1:   # the reference's waits judge ~34 hands; wilds make each slow
        k = next(k for k in range(34) if c[k])
        pre = list(c)
        pre[k] -= 1
        assert nat.wait_kinds(pre, nw, wild) == ref.wait_kinds(pre, nw, wild)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if engine_for(v, "native").variant.wild])
@settings(max_examples=examples(40, 400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_wild_kind_changing_from_hand_to_hand(variant, data):
    """Hands whose wild kinds differ, one after another (the per-hand call and wait_kinds re-aim the prepared
    facts at each hand's wild, the batch at each row's): the reference's verdicts, hand by hand."""
    got = [h for h in data.draw(st.lists(hands(variant), min_size=2, max_size=8)) if h is not None]
    nat, ref = engine_for(variant, "native"), engine_for(variant, "reference")
    want = [ref.is_win(c, nw, wild) for c, nw, wild in got]
    assert [nat.is_win(c, nw, wild) for c, nw, wild in got] == want
    if got:
        kinds = np.array([-1 if w is None else w for _, _, w in got])
        assert nat.check_batch(np.array([c for c, _, _ in got]), np.array([nw for _, nw, _ in got]),
                               wild=kinds).tolist() == want
    for c, nw, wild in got[:2]:
        if nw <= 1:
            k = next(k for k in range(34) if c[k])
            pre = list(c)
            pre[k] -= 1
            assert nat.wait_kinds(pre, nw, wild) == ref.wait_kinds(pre, nw, wild)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if engine_for(v, "native").variant.wild])
def test_the_old_wild_kind_gets_its_limit_back(variant):
    """After a hand whose wild kind is 1m, a hand holding five 1m under another wild kind is refused, per hand and
    in a batch whose rows change the wild kind (the prepared facts keep no trace of the old wild)."""
    eng = engine_for(variant, "native")
    size = eng.variant.win_size
    ok = [0] * 34
    ok[1:1 + size] = [1] * size
    five = [5] + [1] * (size - 5) + [0] * (34 - size + 4)
    assert sum(ok) == sum(five) == size
    eng.is_win(ok, 0, 0)
    with pytest.raises(ValueError, match="5 tiles of 1m"):
        eng.is_win(five, 0, 18)
    with pytest.raises(ValueError, match="row 1"):
        eng.check_batch(np.array([ok, five]), np.array([0, 0]), wild=np.array([0, 18]))


def test_undecided_hands_go_to_the_reference(tmp_path, monkeypatch):
    """A value beyond exact doubles makes the kernel give up; the answer still comes, from the reference."""
    from mjrules.compiler import compile_file
    from mjrules.native.engine import NativeEngine
    from mjrules.reference.engine import ReferenceEngine

    monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
    p = tmp_path / "huge.mj"
    text = (SPECS / "fuzhou_jiangxi.mj").read_text(encoding="utf-8")
    assert "value = S * Q" in text
    p.write_text(text.replace("value = S * Q", "value = 10 ^ 30 * S * Q"), encoding="utf-8")
    ir = compile_file(str(p))
    nat, ref = NativeEngine(ir), ReferenceEngine(ir)
    hands = [form(h)[0] for h in ("123m456m789p234s77z", "123m456m789p234s71z", "1122m3344p5566s77z")]
    assert [nat.is_win(h) for h in hands] == [ref.is_win(h) for h in hands] == [True, False, True]
    assert nat.hand_value(hands[0]) == ref.hand_value(hands[0]) == (10 ** 30, "平胡")
    win, val, _ = nat.check_batch(np.array(hands), values=True)
    assert win.tolist() == [True, False, True] and val[0] == 1e30
    assert nat.wait_kinds(form("123m456m789p234s7z")[0]) == [33]


_TABLES_PROBE = """
import mjrules, numpy as np
e = mjrules.load("fuzhou_jiangxi")
rows = np.array([[3, 1, 1, 1, 2, 1, 1, 1, 3] + [0] * 25, [1] * 14 + [0] * 20])
print(e.check_batch(rows).tolist(), e.wait_kinds([3, 1, 1, 1, 1, 1, 1, 1, 3] + [0] * 25))
"""


def test_shape_tables_cache_file_is_checked(tmp_path):
    """The kernel's tables come from a cache file when it is sound; a corrupt one is rebuilt, never used."""
    import os
    import shutil
    import subprocess
    import sys

    from mjrules.native.cache import cache_dir

    cache = tmp_path / "cache"
    cache.mkdir()
    for so in cache_dir().glob("mjv_*"):      # the built variant modules, so nothing compiles here
        shutil.copy(so, cache / so.name)
    env = dict(os.environ, MJRULES_CACHE=str(cache))
    run = lambda: subprocess.run([sys.executable, "-c", _TABLES_PROBE], env=env, capture_output=True, text=True,
                                 check=True).stdout
    expect = "[True, False] [0, 1, 2, 3, 4, 5, 6, 7, 8]\n"
    assert run() == expect
    (table,) = cache.glob("tables-*.bin")
    good = table.read_bytes()
    assert run() == expect and table.read_bytes() == good             # read back, unchanged
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 0xFF                                          # one flipped byte of the suit table
    table.write_bytes(bytes(bad))
    assert run() == expect and table.read_bytes() == good             # refused by its crc32 and rewritten
    table.write_bytes(good[:1000])
    assert run() == expect and table.read_bytes() == good             # truncated: likewise
    assert not list(cache.glob("*.part"))
    # other kernels' tables files: a rewrite keeps the KEEP_TABLES newest of them and deletes the rest
    from mjrules.native.cache import KEEP_TABLES

    stale = [cache / f"tables-{i:016x}-{sys.byteorder}.bin" for i in range(KEEP_TABLES + 2)]
    for age, p in enumerate(stale):
        p.write_bytes(b"old")
        os.utime(p, (1_000_000 - age, 1_000_000 - age))              # stale[0] the newest
    run()
    assert all(p.exists() for p in stale) and table.read_bytes() == good  # only read: nothing deleted
    table.write_bytes(good[:1000])
    assert run() == expect and table.read_bytes() == good
    assert [p.exists() for p in stale] == [True] * KEEP_TABLES + [False] * 2


READY = [
    ("fuzhou_jiangxi", {"concealed": "123m456m789p2345s"}, True),
    ("fuzhou_jiangxi", {"concealed": "123m456m789p2458s"}, False),
    ("fuzhou_jiangxi", {"concealed": "456m789p2345s", "melds": ["[111z]"]}, True),
    ("fuzhou_jiangxi", {"concealed": "147m258p369s1234z"}, True),
    ("shangrao", {"concealed": "123m456m789p234s9s*", "wild": "9s"}, True),
    ("shangrao", {"concealed": "13m5m7m9m2p4p6p8p1s3s5s7s", "wild": "9s"}, False),
    ("fuzhou_fujian", {"concealed": "123m456m789p234s5s777m", "wild": "9s"}, True),
    ("fuzhou_fujian", {"concealed": "13m5m7m9m2p4p6p8p1s3s5s7s", "melds": ["[111p]"], "wild": "9s"}, False),
]


@pytest.mark.parametrize("variant,situation,ready", READY, ids=[f"{r[0]}-{r[1]['concealed']}" for r in READY])
def test_ready_is_waits_non_empty(load, variant, situation, ready):
    """ready() is waits() without the values: the engine skips kinds no shape can take, then stops early."""
    eng = load(variant)
    assert eng.ready(situation) is ready
    assert bool(eng.waits(situation)) is ready


def test_a_forbid_that_can_hold_is_honoured(tmp_path, monkeypatch):
    """The shape-only answer is taken only when every forbid is false on the check's facts; this forbid can
    hold on a self-draw, so a 平胡 hand loses while a 七对 hand still wins."""
    from mjrules.compiler import compile_file
    from mjrules.native.engine import NativeEngine
    from mjrules.reference.engine import ReferenceEngine

    monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
    p = tmp_path / "no_tsumo_pinghu.mj"
    text = (SPECS / "fuzhou_jiangxi.mj").read_text(encoding="utf-8")
    anchor = "    value = S * Q"
    assert anchor in text
    p.write_text(text.replace(anchor, '    forbid "no self-drawn 平胡" when 平胡 and win_by == self_draw\n' + anchor),
                 encoding="utf-8")
    ir = compile_file(str(p))
    nat, ref = NativeEngine(ir), ReferenceEngine(ir)
    hands = [form(h)[0] for h in ("123m456m789p234s77z", "1122m3344p5566s77z", "111m222p333s44455z")]
    expect = [False, True, True]     # 平胡 only; 七对; 碰碰胡 (also read as 平胡, but 碰碰胡 is not forbidden)
    assert [nat.is_win(h) for h in hands] == [ref.is_win(h) for h in hands] == expect
    assert nat.check_batch(np.array(hands)).tolist() == expect


# (variant, the line before which the forbid goes, the forbid): forbids on the facts alone, on the counts, and on
# both with the pattern -- the check asks each once with the counts unknown and keeps the answer per wilds held
# (_core._forbids), so one that reads the tiles must still be asked on each hand's own
_COUNT_FORBIDS = [
    ("fuzhou_jiangxi", "    value = S * Q", 'forbid "no self-draw" when win_by == self_draw'),
    ("fuzhou_jiangxi", "    value = S * Q", 'forbid "one suit only" when not one_suit'),
    ("shangrao", "    minimum 4 unless special", 'forbid "one suit only" when not one_suit'),
    ("shangrao", "    minimum 4 unless special", 'forbid "no honours" when count_in(honours) > 0'),
    ("shangrao", "    minimum 4 unless special", 'forbid "碰碰胡 in one suit" when 碰碰胡 and not one_suit'),
    ("shangrao", "    minimum 4 unless special", 'forbid "no self-draw with 宝" when wilds > 1 and win_by == self_draw'),
]


@pytest.mark.parametrize("variant,anchor,line", _COUNT_FORBIDS, ids=[f"{v}-{f.split(chr(34))[1]}"
                                                                     for v, _, f in _COUNT_FORBIDS])
def test_forbids_on_the_counts_in_the_check(tmp_path, monkeypatch, variant, anchor, line):
    """is_win, check_batch and wait_kinds under a forbid that reads the facts, the tiles, or both with the
    pattern: the reference's verdicts on the bench's winning and near-winning hands and ready hands, with
    every number of wilds; and the forbid changes some verdicts (the test would not see a forbid ignored)."""
    from mjrules.bench.suite import HandMaker, check_form
    from mjrules.compiler import compile_file
    from mjrules.native.engine import NativeEngine
    from mjrules.reference.engine import ReferenceEngine

    monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
    plain = NativeEngine(compile_file(str(SPECS / f"{variant}.mj")))
    maker = HandMaker(plain, 5)
    hands = [maker.make(8, nw) for nw in maker.wild_counts()]
    p = tmp_path / f"{variant}_forbid.mj"
    text = (SPECS / f"{variant}.mj").read_text(encoding="utf-8")
    assert anchor in text
    p.write_text(text.replace(anchor, f"    {line}\n{anchor}", 1), encoding="utf-8")
    ir = compile_file(str(p))
    nat, ref = NativeEngine(ir), ReferenceEngine(ir)
    changed = 0
    for by in hands:
        forms = [check_form(d) for d in by["winning"] + by["near"]]
        want = [ref.is_win(*f) for f in forms]
        assert [nat.is_win(*f) for f in forms] == want
        changed += sum(plain.is_win(*f) != w for f, w in zip(forms, want))
        if forms:
            rows = np.array([list(f[0]) for f in forms], dtype=np.uint8)
            assert nat.check_batch(rows, np.array([f[1] for f in forms]), wild=forms[0][2]).tolist() == want
        for d in by["ready"]:
            f = check_form(d)
            assert nat.wait_kinds(*f) == ref.wait_kinds(*f), d
    assert changed > 0


def test_batch_with_a_wild_kind_per_row(load):
    """wild may give each row its own kind: the same verdicts as checking each kind's rows on their own."""
    eng = load("shangrao")
    rng = np.random.default_rng(11)
    n = 60 if eng.backend == "reference" else 2000
    kinds = rng.choice([-1, 8, 26, 33], n).astype(np.int32)
    wl = np.where(kinds >= 0, rng.integers(0, 3, n), 0)
    rows = np.zeros((n, 34), dtype=np.uint8)
    for i in range(n):
        w = kinds[i]
        wall = [k for k in range(34) if k != w for _ in range(4)]
        if i % 2:   # sets and a pair, so that some rows win
            tiles = [k for k in rng.choice([0, 3, 9, 12, 18, 21], 4, replace=False) for k in (k, k + 1, k + 2)]
            tiles = [k for k in tiles if k != w][: 12 - wl[i]] + [27, 27]
            tiles += [t for t in rng.choice(wall, 14, replace=False) if t != 27][: 14 - wl[i] - len(tiles)]
        else:
            tiles = list(rng.choice(wall, 14 - wl[i], replace=False))
        np.add.at(rows[i], tiles, 1)
    ok = (rows.max(axis=1) <= 4) & (rows.sum(axis=1) + wl == 14)
    rows, wl, kinds = rows[ok], wl[ok], kinds[ok]
    win, val, pat = eng.check_batch(rows, wl, wild=kinds, values=True)
    for k in (-1, 8, 26, 33):
        sel = kinds == k
        w2, v2, p2 = eng.check_batch(rows[sel], wl[sel], wild=None if k < 0 else k, values=True)
        assert (win[sel] == w2).all() and (pat[sel] == p2).all() and np.array_equal(val[sel], v2, equal_nan=True)
    assert 0 < win.sum() < len(win)
    if eng.backend == "native":
        assert (eng.check_batch(rows, wl, wild=kinds, threads=2) == win).all()
    bad = kinds.copy()
    bad[3] = 40
    with pytest.raises(ValueError, match="row 3: "):
        eng.check_batch(rows, wl, wild=bad)
    with pytest.raises(ValueError, match="one kind per row"):
        eng.check_batch(rows, wl, wild=kinds[:-1])


@pytest.fixture(scope="module")
def suited_wilds(tmp_path_factory):
    """上饶 with wilds standing for suited kinds only, and 七对 only with two honours: the pungs and pairs shapes then
    meet kinds no wild may stand for, and a pairs condition that reads the counts (the win check's shortcut for
    them must answer as the enumeration does)."""
    from mjrules.compiler import compile_file
    from mjrules.native.engine import NativeEngine
    from mjrules.reference.engine import ReferenceEngine

    tmp = tmp_path_factory.mktemp("suited")
    p = tmp / "suited.mj"
    text = (SPECS / "shangrao.mj").read_text(encoding="utf-8")
    assert "stands_for all " in text
    old = 'pattern 七对 "Seven Pairs" shape pairs when no_melds '
    assert old in text   # a condition on the counts, which only a hand without wilds reads from the facts
    p.write_text(text.replace("stands_for all ", "stands_for suited ").replace(
        old, 'pattern 七对 "Seven Pairs" shape pairs when no_melds and count_in(honours) >= 2 '), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MJRULES_CACHE", str(tmp / "cache"))
        ir = compile_file(str(p))
        yield NativeEngine(ir), ReferenceEngine(ir)


@pytest.fixture(scope="module")
def counted_golds(tmp_path_factory):
    """福州 with a 三金倒 whose condition reads the counts: `count_in(suited) <= 16` holds on the tiles without the
    golds (14 suited) and on no reading (the golds stand for suited kinds: 17). The win check's shortcut for a
    free pattern must not take it from the tiles alone, as it does for the real 三金倒 (`wilds >= 3`)."""
    from mjrules.compiler import compile_file
    from mjrules.native.engine import NativeEngine
    from mjrules.reference.engine import ReferenceEngine

    tmp = tmp_path_factory.mktemp("golds")
    p = tmp / "golds.mj"
    text = (SPECS / "fuzhou_fujian.mj").read_text(encoding="utf-8")
    old = 'pattern 三金倒 "Three Golds Down" shape free when wilds >= 3 '
    assert old in text
    p.write_text(text.replace(old, old.rstrip() + " and count_in(suited) <= 16 "), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MJRULES_CACHE", str(tmp / "cache"))
        ir = compile_file(str(p))
        yield NativeEngine(ir), ReferenceEngine(ir)


@pytest.mark.parametrize("seed", range(3))
def test_free_pattern_reading_the_counts(counted_golds, seed):
    """Random 福州 hands with three golds: with the real 三金倒 every one wins (tests/test_hands.py); here none wins
    by it, and the native verdicts are the reference's (wait_kinds on every fourth hand: the reference judges
    each of ~34 kinds with three golds, 1-2 s a hand)."""
    import random

    nat, ref = counted_golds
    rng = random.Random(seed)
    wild = 17  # 9s
    kinds = [k for k in range(27) if k != wild]
    verdicts = []
    for i in range(40):
        c = [0] * 34
        while sum(c) < 14:
            k = rng.choice(kinds)
            if c[k] < 4:
                c[k] += 1
        verdicts.append(ref.is_win(c, 3, wild))
        assert nat.is_win(c, 3, wild) == verdicts[-1], c
        if i % 4 == 0:
            short = c[:]
            short[next(k for k in range(34) if short[k])] -= 1  # one tile short: the kinds that complete it
            assert nat.wait_kinds(short, 3, wild) == ref.wait_kinds(short, 3, wild), short
    assert not all(verdicts)


SUITED_WILDS = [  # 碰碰胡 and 七对 where a wild would have to stand for an honour, or for a suited kind
    "111m999p111s11z22z9s*", "111m999p111s11z2s2s9s*", "1122m3344p5566s7z9s*", "1122m3344p556s77z9s*",
    "11m22m33m44p55p6z9s*9s*9s*", "111m999p11z222z9s*9s*9s*", "11m22p33s44z5z6z9s*9s*9s*9s*",
    "11z22z33z44z55z66z7z9s*", "1122m3344p5566s88s", "1122m3344p5566s77z",
]


def test_wilds_only_for_their_kinds(suited_wilds):
    nat, ref = suited_wilds
    verdicts = []
    for hand in SUITED_WILDS:
        c, nw = form(hand)
        verdicts.append(ref.is_win(c, nw, "9s"))
        assert nat.is_win(c, nw, "9s") == verdicts[-1], hand
    assert verdicts == [False, True, False, True, False, True, False, True, False, True]


@settings(max_examples=examples(150, 1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([0, 8, 9, 17, 18, 27, 28, 29, 30, 31]), min_size=10, max_size=13),
       st.integers(1, 4))
def test_wilds_only_for_their_kinds_generated(suited_wilds, tiles, nw):
    """Honour-heavy hands, paired up mostly, with 1-4 wilds of 9s."""
    nat, ref = suited_wilds
    c = [0] * 34
    for k in sorted(tiles) * 2:
        if sum(c) + nw < 14 and c[k] < 4:
            c[k] += 1
    if sum(c) + nw != 14:
        return
    assert nat.is_win(c, nw, "9s") == ref.is_win(c, nw, "9s")


@st.composite
def alike_hands(draw, variant: str):
    """Pungs and a pair, or pairs, with up to 4 tiles (fewer where the wall has fewer wilds) swapped for wilds,
    and sometimes a tile changed: the hands the native check settles from the counts' bytes alone where a wild
    stands for every kind (the pung and pair terms summed), next to those that need the units looked up."""
    v = engine_for(variant, "native").variant
    playable = [k for k in v.tiles.playable if k < 34]
    wild = draw(st.sampled_from(playable))
    pool = [k for k in playable if k != wild]
    if draw(st.booleans()):
        kinds = draw(st.lists(st.sampled_from(pool), min_size=(v.win_size + 1) // 3, max_size=(v.win_size + 1) // 3))
        tiles = [k for k in kinds[:-1] for _ in range(3)][: v.win_size - 2] + [kinds[-1]] * 2
    else:
        kinds = draw(st.lists(st.sampled_from(pool), min_size=v.win_size // 2, max_size=v.win_size // 2))
        tiles = [k for k in kinds for _ in range(2)]
    if draw(st.booleans()):
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.sampled_from(pool))
    nw = draw(st.integers(0, min(4, v.wild.live)))
    for i in sorted(draw(st.lists(st.integers(0, len(tiles) - 1), min_size=nw, max_size=nw, unique=True)),
                    reverse=True):
        del tiles[i]
    c = [0] * 34
    for k in tiles:
        c[k] += 1
    if max(c) > 4 or len(tiles) + nw != v.win_size:
        return None
    return c, nw, wild


@pytest.mark.parametrize("variant", [v for v in VARIANTS if engine_for(v, "native").variant.wild])
@settings(max_examples=examples(150, 1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_backends_agree_on_pungs_and_pairs_with_wilds(variant, data):
    got = [h for h in data.draw(st.lists(alike_hands(variant), min_size=1, max_size=4)) if h is not None]
    if not got:
        return
    nat, ref = engine_for(variant, "native"), engine_for(variant, "reference")
    rows, wl = np.array([c for c, _, _ in got]), np.array([nw for _, nw, _ in got])
    kinds = np.array([w for _, _, w in got])
    a = nat.check_batch(rows, wl, wild=kinds, values=True)
    b = ref.check_batch(rows, wl, wild=kinds, values=True)
    assert a[0].tolist() == b[0].tolist() and a[2].tolist() == b[2].tolist()
    assert np.array_equal(a[1], b[1], equal_nan=True)
    assert [nat.is_win(c, nw, w) for c, nw, w in got] == a[0].tolist()


# ---- several wild kinds a row: 广东推倒胡's shuanggui (GD-05), the two kinds after the flipped tile ------------
GD = "guangdong_tuidaohu"

# (hand, free wilds besides, the row's wild kinds, verdict, value, pattern, why): value = 2 x the multipliers (GD-08)
GD_ROWS = [
    ("123p456p789p11s5z2m3m", 0, ("2m", "3m"), True, 2, "鸡胡", "GD-05 shuanggui: a 2m and a 3m make the 5z pung"),
    ("123p456p789p11s5z2m3m", 0, ("3m", "2m"), True, 2, "鸡胡", "the kinds in either order"),
    ("123p456p789p11s5z2m3m", 0, ("2m",), False, None, None, "fangui: the 3m is itself, 5z 3m and one 鬼 no set"),
    ("123p456p789p11s5z2m3m", 0, (), False, None, None, "no 鬼: 5z 2m 3m"),
    ("123p456p789p11s5z5z3m", 0, ("2m", "3m"), True, 2, "鸡胡", "one 3m completes the 5z pung"),
    ("123p456p789p11s5z3m", 1, ("2m", "3m"), True, 2, "鸡胡", "a free 鬼 (of the first kind) and a 3m"),
    ("123p456p789p11s5z4m3m", 0, ("2m", "3m"), False, None, None, "the 4m is itself: 5z 4m and one 鬼 no set"),
    ("147m258p369s1z2m2m3m3m", 0, ("2m", "3m"), True, 4, "四鬼胡牌", "GD-07 four 鬼, two of each kind"),
    ("147m258p369s1z2m2m3m3m", 0, ("2m",), False, None, None, "two 鬼 are not four"),
    ("11m22m33p44p77s88s5s6s", 0, ("5s", "6s"), True, 4, "七对", "GD-07 七对: a 5s and a 6s make a pair"),
    ("11m22m33p44p77s88s5s6s", 0, ("5s",), True, 4, "七对", "the 5s pairs the 6s"),
    ("11m22m33p44p77s88s5s6s", 0, (), False, None, None, "5s and 6s are two singles"),
    ("19m19p19s12345z1z5s6s", 0, ("5s", "6s"), True, 16, "十三幺", "GD-07 十三幺 with two 鬼 for 6z and 7z"),
    ("19m19p19s12345z1z5s6s", 0, ("5s",), False, None, None, "the 6s is no orphan"),
    ("123m456m789p234s11z", 0, ("5s", "6s"), True, 4, "鸡胡", "GD-07 无鬼: a 鬼 in force, none held"),
    ("123m456m789p234s11z", 0, ("5s",), True, 4, "鸡胡", "无鬼 with one kind"),
    ("123m456m789p234s11z", 0, (), True, 2, "鸡胡", "no 鬼 in force: no 无鬼"),
]


def _gd_row(hand: str, kinds: tuple[str, ...]) -> tuple[list[int], list[int]]:
    """(34 counts, the row's wild kinds padded with -1 to two)."""
    c = form(hand)[0]
    ks = [parse_tiles(k)[0].kind for k in kinds]
    return c, ks + [-1] * (2 - len(ks))


def _gd_situation(counts, wilds: int, kinds: list[int]) -> dict:
    """The situation the check judges, for evaluate: the dealer self-draws a concealed hand, its wilds marked, the
    winning tile one that is not wild, the options' 鬼 mode the one with that many kinds."""
    kinds = [int(k) for k in kinds if k >= 0]
    tiles = [tile_name(k) + ("*" if k in kinds else "") for k in range(34) for _ in range(int(counts[k]))]
    if wilds:
        tiles += [tile_name(kinds[0]) + "*"] * wilds
    d = {"concealed": " ".join(tiles), "win_tile": next(t for t in tiles if "*" not in t), "win_by": "self_draw",
         "options": {"gui": ("none", "fangui", "shuanggui")[len(kinds)]}}
    if kinds:
        d["wild"] = [tile_name(k) for k in kinds]
    return d


def test_batch_with_two_wild_kinds_a_row(load):
    """GD_ROWS in one batch, each row with its own kinds (none, one or two; an n x 2 array): the table's verdicts,
    values and patterns, is_win's, hand_value's and evaluate's, row by row; the same with the kinds of all rows
    given once (a tuple), and with the kinds' columns swapped or padded."""
    eng = load(GD)
    pats = [p.name for p in eng.variant.patterns]
    got = [_gd_row(r[0], r[2]) for r in GD_ROWS]
    rows = np.array([c for c, _ in got], dtype=np.uint8)
    wl = np.array([r[1] for r in GD_ROWS], dtype=np.uint8)
    kinds = np.array([k for _, k in got])
    win, val, pat = eng.check_batch(rows, wl, wild=kinds, values=True)
    # (the reference's enumeration of four wilds of two kinds takes seconds: it judges such a row twice only)
    again = np.array([eng.backend == "native" or r[1] + sum(rows[i][k] for k in kinds[i] if k >= 0) < 4
                      for i, r in enumerate(GD_ROWS)])
    for i, (hand, nw, ks, verdict, value, pattern, why) in enumerate(GD_ROWS):
        assert (win[i], None if np.isnan(val[i]) else val[i], pats[pat[i]] if pat[i] >= 0 else None) == \
            (verdict, value, pattern), why
        r = eng.evaluate(_gd_situation(rows[i], nw, list(kinds[i])))
        assert (r["win"], r["value"] if r["win"] else None, r["pattern"] if r["win"] else None) == \
            (verdict, value, pattern), why
        if again[i]:
            w = None if not ks else ks[0] if len(ks) == 1 else ks
            assert eng.is_win(rows[i], nw, w) is verdict, why
            assert eng.hand_value(rows[i], nw, w) == (None if not verdict else (value, pattern)), why
    rows, wl, kinds, win, val, pat = rows[again], wl[again], kinds[again], win[again], val[again], pat[again]
    assert (eng.check_batch(rows, wl, wild=kinds) == win).all()
    swapped = np.where((kinds[:, 1] >= 0)[:, None], kinds, kinds[:, ::-1])   # (-1, k) rows: still kind k
    assert (eng.check_batch(rows, wl, wild=swapped) == win).all()
    padded = np.concatenate([np.full((len(kinds), 1), -1), kinds, np.full((len(kinds), 2), -1)], axis=1)
    assert (eng.check_batch(rows, wl, wild=padded.astype(np.int64)) == win).all()
    for ks in {r[2] for r in GD_ROWS if r[2]}:
        sel = np.array([r[2] == ks for r, a in zip(GD_ROWS, again) if a])
        for w in (ks, tuple(parse_tiles(k)[0].kind for k in ks)):   # names or indices, once for every row
            w2, v2, p2 = eng.check_batch(rows[sel], wl[sel], wild=w, values=True)
            assert (w2 == win[sel]).all() and (p2 == pat[sel]).all() and np.array_equal(v2, val[sel], equal_nan=True)
    if eng.backend == "native":
        reps = 400   # a few thousand rows, the kinds changing every row, on two threads
        big = eng.check_batch(np.tile(rows, (reps, 1)), np.tile(wl, reps), wild=np.tile(kinds, (reps, 1)),
                              threads=2, values=True)
        assert (big[0] == np.tile(win, reps)).all() and (big[2] == np.tile(pat, reps)).all()
        assert np.array_equal(big[1], np.tile(val, reps), equal_nan=True)


@st.composite
def gd_rows(draw):
    """A 广东推倒胡 row: counts, free wilds and its wild kinds (none, one, or two: the kinds after an indicator, or
    any two), sets and a pair with noise or random tiles, the kinds' tiles among them."""
    v = engine_for(GD, "native").variant
    n = draw(st.integers(0, 2))
    if n == 2 and draw(st.booleans()):
        kinds = list(v.wild.wild_kinds(draw(st.integers(0, 33)), 2))
    else:
        kinds = draw(st.lists(st.integers(0, 33), min_size=n, max_size=n, unique=True))
    nw = draw(st.integers(0, 2)) if kinds else 0
    tiles: list[int] = []
    if draw(st.booleans()):
        while len(tiles) < 12:
            k = draw(st.integers(0, 33))
            tiles += [k, k + 1, k + 2] if k < 27 and k % 9 < 7 and draw(st.booleans()) else [k] * 3
        k = draw(st.integers(0, 33))
        tiles = tiles[:12] + [k, k]
    else:
        tiles = draw(st.lists(st.integers(0, 33), min_size=14, max_size=14))
    for _ in range(draw(st.integers(0, 3))):   # noise, or the kinds' tiles (wilds)
        tiles[draw(st.integers(0, 13))] = draw(st.sampled_from(kinds)) if kinds and draw(st.booleans()) else \
            draw(st.integers(0, 33))
    tiles = tiles[nw:]
    c = [tiles.count(k) for k in range(34)]
    if max(c) > 4 or kinds and nw + c[kinds[0]] > 4 or nw + sum(c[k] for k in kinds) > 3:
        return None   # (more than three wilds: the reference's enumeration is slow)
    return c, nw, kinds


@settings(max_examples=examples(100, 1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(gd_rows(), min_size=1, max_size=5))
def test_backends_agree_with_two_wild_kinds_a_row(got):
    """Generated rows with none, one or two wild kinds each, in one batch: both back ends give the same verdicts,
    values and patterns, and those of is_win, hand_value and evaluate, row by row (native on two threads too)."""
    got = [g for g in got if g is not None]
    if not got:
        return
    nat, ref = engine_for(GD, "native"), engine_for(GD, "reference")
    pats = [p.name for p in nat.variant.patterns]
    rows, wl = np.array([c for c, _, _ in got]), np.array([nw for _, nw, _ in got])
    kinds = np.array([ks + [-1] * (2 - len(ks)) for _, _, ks in got])
    a = nat.check_batch(rows, wl, wild=kinds, values=True)
    b = ref.check_batch(rows, wl, wild=kinds, values=True)
    assert a[0].tolist() == b[0].tolist() and a[2].tolist() == b[2].tolist()
    assert np.array_equal(a[1], b[1], equal_nan=True)
    t = nat.check_batch(np.tile(rows, (4, 1)), np.tile(wl, 4), wild=np.tile(kinds, (4, 1)), threads=2, values=True)
    assert t[0].tolist() == a[0].tolist() * 4 and t[2].tolist() == a[2].tolist() * 4
    for i, (c, nw, ks) in enumerate(got):
        w = None if not ks else ks[0] if len(ks) == 1 else tuple(ks)
        hv = nat.hand_value(c, nw, w)
        assert hv == (None if not a[0][i] else (a[1][i], pats[a[2][i]]))
        assert nat.is_win(c, nw, w) is bool(a[0][i])
        r = nat.evaluate(_gd_situation(c, nw, ks))
        assert (r["win"], r["value"] if r["win"] else None) == (bool(a[0][i]), hv[0] if hv else None)


def _gd_two() -> tuple[np.ndarray, np.ndarray]:
    rows = np.array([_gd_row("123p456p789p11s5z2m3m", ())[0]] * 3, dtype=np.uint8)
    return rows, np.zeros(3, dtype=np.uint8)


# (variant, wild for 3 rows, the message): both back ends refuse alike, in one line
GD_BAD = [
    (GD, np.array([[1, 2], [1, 1], [1, 2]]), "row 1: wild: the pair names 2m twice"),
    (GD, np.array([[2, 1], [3, -1], [-1, -1]]), None),   # (fine: kinds in either order, and none)
    (GD, np.array([[1, 2, -1], [1, 2, 5], [-1, -1, -1]]), "row 1: wild: 3 kinds, but a hand of this variant has at most 2"),
    (GD, np.array([[1, 2], [1, 34], [1, 2]]), "row 1: f1 cannot be the wild kind: it is not one of its kinds"),
    (GD, np.array([[1, 2], [1, -2], [1, 2]]), "row 1: kind -2 cannot be the wild kind"),
    (GD, np.array([[1, 2]] * 2), ("wild: one kind or a tuple of kinds for all rows, or an integer array of one kind per "
                                  "row, shape (3,), or of a row's kinds, shape (3, k) (-1: none); got shape (2, 2)")),
    (GD, np.zeros((3, 0), dtype=int), "got shape (3, 0)"),
    (GD, np.zeros((3, 2, 1), dtype=int), "got shape (3, 2, 1)"),
    (GD, np.array([["2m", "3m"]] * 3), "got <U2 array"),
    (GD, np.array([[1.0, 2.0]] * 3), "got float64 array"),
    (GD, [[1, 2], [1], [2]], "wild: one kind or a tuple of kinds for all rows, or an integer array"),
    (GD, (1, 2, 3), "wild: 3 kinds, but a hand of this variant has at most 2"),
    (GD, ("2m", "2m"), "wild: the pair names 2m twice"),
    (GD, (), "wild: an empty tuple names no kind"),
    (GD, (1, -1), "kind -1 cannot be the wild kind"),
    (GD, (1, 40), "f7 cannot be the wild kind"),
    ("shangrao", (1, 2), "wild: 2 kinds, but a hand of this variant has at most 1"),
    ("shangrao", np.array([[1, -1], [-1, 2], [2, 1]]), "row 2: wild: 2 kinds, but a hand of this variant has at most 1"),
    ("fuzhou_jiangxi", np.array([[-1, -1], [-1, 2], [-1, -1]]), "row 1: 3m cannot be the wild kind: this variant has no wilds"),
]


@pytest.mark.parametrize("variant,wild,message", GD_BAD, ids=[str(b[2])[:40] for b in GD_BAD])
def test_bad_wild_kinds_in_a_batch(variant, wild, message):
    rows, wl = _gd_two()
    if variant != GD:   # (a hand of their size: 14 tiles)
        rows = np.array([form("123m456m789p234s77z")[0]] * 3, dtype=np.uint8)
    out = []
    for b in ("reference", "native"):
        try:
            out.append(("ok", engine_for(variant, b).check_batch(rows, wl, wild=wild).tolist()))
        except ValueError as e:
            assert "\n" not in str(e)
            out.append(("error", str(e)))
    assert out[0] == out[1]
    if message is None:
        assert out[0][0] == "ok"
    else:
        assert out[0][0] == "error" and message in out[0][1], out[0]
