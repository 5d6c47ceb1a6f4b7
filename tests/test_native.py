"""The native backend: the same answers as the reference, its kernel, its cache, and hostile specs."""
from __future__ import annotations

import math
import multiprocessing
import os
import random
import re
from pathlib import Path

import mjrules
import mjrules.specs
import pytest
from mjrules.reference import readings as R
from mjrules.compiler import shipped_names
from mjrules.model.result import Result
from mjrules.model.situation import SituationError

SPECS = Path(mjrules.specs.__file__).resolve().parent  # the shipped specs, installed or in the source tree
SR, JX, FJ = "shangrao", "fuzhou_jiangxi", "fuzhou_fujian"
_ENGINES: dict[tuple[str, str], object] = {}


def engine(variant: str, backend: str):
    if (variant, backend) not in _ENGINES:
        _ENGINES[variant, backend] = mjrules.load(variant, backend=backend)
    return _ENGINES[variant, backend]


def outcome(fn, arg):
    try:
        return ("ok", fn(arg))
    except SituationError as e:
        return ("error", str(e), e.key)


def same(variant: str, situation: dict, method: str = "evaluate"):
    """Both backends' outcomes, asserted equal; the native one is returned."""
    nat = outcome(getattr(engine(variant, "native"), method), situation)
    ref = outcome(getattr(engine(variant, "reference"), method), situation)
    assert nat == ref, situation
    return nat


# ---- the rules' worked examples ---------------------------------------------------------------------------
def sr(concealed, win_tile, wild="9s", **kw):
    return {"concealed": concealed, "win_tile": win_tile, "wild": wild, **kw}


def fj(concealed, win_tile, **kw):
    return {"concealed": concealed, "win_tile": win_tile, "wild": "7p", **kw}


WORKED = [
    (SR, sr("123m456m789p2s9s*55s3s", "3s"), False, 0),                                           # SR-T04
    (SR, sr("123m456m789p234s9s*7z", "7z"), True, 4),                                             # SR-T06
    (SR, sr("123m456m789p234s9s*9s*", "9s"), True, 4),                                            # SR-T06
    (SR, sr("11z22z33z44z55z66z77z", "7z", wild="2m"), True, 64),                                  # SR-T13
    (SR, sr("1m4m7m2p5p8p3s6s1z2z3z4z5z6z", "6z", wild="9p"), True, 4),                            # SR-T18
    (SR, sr("123m456m789m12p99s3p", "3p", wild="5z", seat=1, win_by="discard", discarder=0,
            first_turn=True, first_discard=True), True, 16),                                       # SR-T28
    (JX, {"seat": 2, "concealed": "123m456p789s234s55z", "win_tile": "5z", "win_by": "discard",
          "discarder": 1}, True, 1),                                                               # JX-T03
    (JX, {"concealed": "11m11m55p66p88s33z44z", "win_tile": "4z", "win_by": "discard", "discarder": 3,
          "seat": 1}, True, 8),                                                                    # JX-T07
    (JX, {"concealed": "1m4m7m2p5p8p3s6s9s1z2z3z4z5z", "win_tile": "5z", "win_by": "discard",
          "discarder": 2, "seat": 1}, True, 2),                                                    # JX-T11
    (JX, {"concealed": "1m3m7m2p5p8p3s6s9s1z2z3z4z5z", "win_tile": "5z"}, False, 0),               # JX-T12
    (FJ, fj("123m456m789m234p567s99s", "9s", seat=2, win_by="discard", discarder=1,
            flowers="1z5zf1"), True, 4),                                                           # FJ-T04
    (FJ, fj("123m456m234p6s7p*8s99m", "9m", seat=2, win_by="discard", discarder=3, melds=["[5555s]"],
            flowers="2zf5"), True, 5),                                                             # FJ-T06
    (FJ, fj("123m456m789m234p567s9s7p*", "7p", seat=1, win_by="rob_gold", indicator="7p",
            flowers="3zf3"), True, 36),                                                            # FJ-T12
    (FJ, fj("123m456m789m234p57s7p*7p*6s", "6s", seat=3, win_by="discard", discarder=0,
            flowers="f8"), True, 66),                                                              # FJ-T20
]


@pytest.mark.parametrize("variant,situation,win,value", WORKED)
def test_worked_examples(variant, situation, win, value):
    if "indicator" in situation:
        situation = {k: v for k, v in situation.items() if k != "wild"}
    kind, r = same(variant, situation)[:2]
    assert kind == "ok" and (r["win"], r["value"]) == (win, value)


# ---- a table of hands per variant: wilds, melds, flowers, every win_by, losing and bad situations ---------
HANDS = {
    SR: [
        sr("123m456m789p234s77z", "7z"), sr("123m456m789p234s7z9s*", "7z"), sr("123m456m789p23s7z9s*9s*", "7z"),
        sr("123m456m789p1z9s*9s*9s*9s*", "1z"), sr("123m456m789p2s5s9s*9s*9s*", "2s"),
        sr("112233m4455p9s*9s*9s*9s*", "1m"), sr("19m19p19s123457z9s*9s*", "1z"),
        sr("1199m19p19s1234z9s*9s*", "1z"), sr("19m19p19s1234567z9s*", "1z"), sr("11223344556677m", "7m"),
        sr("112233445566m9s*9s*", "6m"), sr("111999m111p999p1z9s*", "1z"), sr("111999m111p11z9s*9s*9s*", "1z"), sr("111999m111999p11z", "1z"),
        sr("123456789m1234s9s*", "1m", options={"bao_huanyuan_counts_as_wubao": True}),
        sr("123m456m789p234s9s*9s*", "9s", options={"bao_huanyuan_counts_as_wubao": True}),
        sr("123m789p234s9s*7z", "7z", melds=["[555p]"]), sr("789p234s9s*7z", "7z", melds=["[123m]", "[555p]"]),
        sr("11z22z33z44z55z9s*9s*66z", "6z"), sr("11m99m11p99p11s1z2z9s*9s*", "2z"), sr("123m789p23s9s*7z7z", "7z", melds=["{1111m}"]),
        sr("123m789p234s77z", "7z", melds=["[5555p]"], win_by="kong_replacement"),
        sr("123m789p234s77z", "7z", melds=["[5555p]"], win_by="kong_replacement", options={"gangkai_double": True}),
        sr("123m456m789p234s77z", "7z", win_by="dealt"), sr("123m456m789p234s77z", "7z", win_by="dealt", seat=1),
        sr("123m456m789p234s77z", "7z", win_by="dealt", options={"tianhu_dihu_use_table": True}),
        sr("123m456m789p234s77z", "7z", win_by="discard", seat=1, discarder=0),
        sr("123m456m789p234s7z9s*", "9s", win_by="discard", seat=1, discarder=0, first_turn=True,
           first_discard=True),
        sr("123m456m789p234s77z", "7z", win_by="rob_kong", seat=1, discarder=2),
        sr("123m456m789p234s77z", "7z", wild_discards=2), sr("123m456m789p234s77z", "7z", wild_discards=60),
        sr("123m456m789p234s77z", "7z", wild_discards=200), sr("123m456m789p234s67z", "7z"),
        sr("135m456m789p234s77z", "7z"), sr("123m456m789p234s77z", "7z", win_by="rob_gold"),
        sr("123m456m789p234s7z", "7z"), sr("123m456m789p234s77z", "8z"), sr("123m456m789p234s77z", "1m"),
        sr("1111m456m789p234s7z", "7z"), sr("123m456m789p234s77z", "7z", options={"nope": 1}),
        sr("123m456m789p234s77z", "7z", options={"gangkai_double": 3}), {"concealed": "123m456m789p234s77z"},
        sr("123m456m789p234s77z", "7z", melds=["[9s9s9s]"]), sr("123m456m789p234s77z*", "7z"),
    ],
    JX: [
        {"concealed": "123m456p789s234s55z", "win_tile": "5z"},
        {"concealed": "111m222p333s444s55z", "win_tile": "5z"},
        {"concealed": "11122233345699m", "win_tile": "9m"},
        {"concealed": "11z22z33z44z55z66z77z", "win_tile": "7z"},
        {"concealed": "1m4m7m2p5p8p3s6s9s1z2z3z4z5z", "win_tile": "5z", "options": {"qixing_bonus": True}},
        {"concealed": "1m4m7m2p5p8p3s6s1z2z3z4z5z6z", "win_tile": "6z", "options": {"qixing_bonus": True}},
        {"concealed": "1111m2223m", "win_tile": "3m", "melds": ["[456p]", "[999s]"]},
        {"concealed": "123m55z", "win_tile": "5z", "melds": ["[4444p]", "{7777s}", "[123s]"],
         "win_by": "kong_replacement"},
        {"concealed": "123m456p789s234s55z", "win_tile": "5z", "win_by": "dealt"},
        {"concealed": "123m456p789s234s55z", "win_tile": "5z", "win_by": "discard", "seat": 1, "discarder": 3,
         "first_turn": True},
        {"concealed": "123m456p789s234s55z", "win_tile": "5z", "win_by": "rob_kong", "seat": 1, "discarder": 2},
        {"concealed": "123m456p789s234s55z", "win_tile": "5z", "declared_ready": True, "seat": 2},
        {"concealed": "123m456p789s234s56z", "win_tile": "6z"},
        {"concealed": "123m456p789s234s55z", "win_tile": "5z", "wild": "1m"},
        {"concealed": "123m456p789s234s5z5z*", "win_tile": "5z"},
        {"concealed": "123m456p789s234s55z", "win_tile": "5z", "win_by": "discard"},
    ],
    FJ: [
        fj("123m456m789m234p567s99s", "9s"), fj("123m456m789m234p567s9s7p*", "9s"),
        fj("123m456m789m234p567s8s7p*", "8s"), fj("123m456m789m234p55s7p*7p*7p*", "5s"),
        fj("123m456m789m234p55s7p*7p*7p*", "5s", win_by="discard", seat=1, discarder=0),
        fj("123m456m789m234p567s7p*7p*", "2p", flowers="1z1z1z1zf1f2f3f4", dealer_streak=3),
        fj("123m456m789m234p567s7p*7p*", "2p", seat=1, dealer_streak=2),
        fj("123m456m789m234p567s99s", "9s", win_by="discard", seat=1, discarder=2, wild_discards=1),
        fj("123m456m789m234p567s99s", "9s", win_by="discard", seat=1, discarder=2, wild_discards=1,
           options={"gold_discard_tsumo_only": False}),
        fj("123m456m789m234p567s99s", "9s", win_by="discard", seat=1, discarder=2,
           options={"loss_cap_per_hand": 3}),
        fj("123m456m789m234p567s99s", "9s", options={"loss_cap_per_hand": 5}, flowers="f1f2f3"),
        fj("123m456m234p99s", "9s", melds=["[789m]", "{5555s}"]),
        fj("123m456m234p567s9s7p*", "9s", melds=["[789m]"], win_by="discard", seat=2, discarder=1),
        fj("123m456m789m234p567s99s", "9s", win_by="dealt"),
        fj("123m456m789m234p567s99s", "9s", win_by="rob_kong", seat=3, discarder=1),
        fj("123m456m789m234p567s19s", "9s"), fj("123m456m789m234p567s99s", "9s", flowers="1z5zf1f1"),
        fj("123m456m789m234p99s", "9s", melds=["[7p7p7p]"]),
        fj("123m456m789m234p99s", "9s", melds=["[567s]"], flowers="1z1z1z1z2z3z4zf1f2f3f4"),
    ],
}


@pytest.mark.parametrize("variant,situation", [(v, s) for v, hs in HANDS.items() for s in hs])
def test_hand_table(variant, situation):
    same(variant, situation)


_LEAN: dict[tuple[str, str], object] = {}  # engines asked only with explain=False: nothing remembered from a full one
DECIDED = {"win", "reason", "pattern", "patterns", "status", "value", "payments"}


@pytest.mark.parametrize("backend", ["native", "reference"])
@pytest.mark.parametrize("variant,situation", [(v, s) for v, hs in HANDS.items() for s in hs])
def test_evaluate_without_explain(variant, situation, backend):
    """evaluate(..., explain=False) is the full result without its reading and explain lines, or the same error:
    as a dict and as a Situation (the Python path), on an engine that has built no full result."""
    from mjrules.model.situation import situation_from_dict

    if (variant, backend) not in _LEAN:
        _LEAN[variant, backend] = mjrules.load(variant, backend=backend)
    lean_eng = _LEAN[variant, backend]
    full = outcome(engine(variant, backend).evaluate, situation)
    want = full if full[0] == "error" else ("ok", {k: x for k, x in full[1].items() if k in DECIDED})
    assert outcome(lambda d: lean_eng.evaluate(d, explain=False), situation) == want
    if want[0] == "ok":
        assert set(want[1]) == DECIDED and full[1]["explain"]
        s = situation_from_dict(lean_eng.variant, situation)
        assert lean_eng.evaluate(s, False) == want[1]


def _containers(x, frozen=False):
    """(container, frozen) for every list and dict in a result: frozen says it lies in the reading or explain."""
    if isinstance(x, Result):
        for k, y in x.items():
            yield from _containers(y, k in ("reading", "explain"))
    elif isinstance(x, (list, dict)):
        yield x, frozen
        for y in (x.values() if isinstance(x, dict) else x):
            yield from _containers(y, frozen)


_REFUSED = [lambda x: x.append(1), lambda x: x.extend([1]), lambda x: x.insert(0, 1), lambda x: x.pop(),
            lambda x: x.clear(), lambda x: x.sort(), lambda x: x.reverse(), lambda x: x.__setitem__(0, 1),
            lambda x: x.__delitem__(0), lambda x: x.__iadd__([1]), lambda x: x.remove(x[0])]
_REFUSED_D = [lambda x: x.__setitem__("k", 1), lambda x: x.update(k=1), lambda x: x.setdefault("k", 1),
              lambda x: x.pop(next(iter(x))), lambda x: x.popitem(), lambda x: x.clear(),
              lambda x: x.__delitem__(next(iter(x))), lambda x: x.__ior__({"k": 1})]


@pytest.mark.parametrize("backend", ["native", "reference"])
@pytest.mark.parametrize("explain", [True, False])
@pytest.mark.parametrize("variant", [SR, JX, FJ])
def test_results_are_the_callers_own(variant, explain, backend):
    """Both back ends return a Result (mjrules.model.result), read-only at the top: its patterns and payments are the
    caller's own (changing them changes nothing of the next result for the same situation, however it was
    made); its reading and explain are frozen all the way down, on every path (a dict, a Situation): every
    way of changing them raises TypeError and leaves them as they were."""
    from mjrules.model.frozen import FrozenDict, FrozenList
    from mjrules.model.situation import situation_from_dict

    eng = mjrules.load(variant, backend=backend)
    wins = loses = 0
    for d in HANDS[variant]:
        try:
            results = [eng.evaluate(d, explain), eng.evaluate(situation_from_dict(eng.variant, d), explain)]
        except SituationError:   # (the table's illegal situations)
            continue
        for first in results:
            assert type(first) is Result
            wins += first["win"]
            loses += not first["win"]
            want = repr(first)
            assert ("explain" in first) == explain and ("reading" in first) == explain
            for change in (lambda r: r.__setitem__("win", False), lambda r: r.__delitem__("win"),
                           lambda r: setattr(r, "value", 99)):
                with pytest.raises((TypeError, AttributeError)):
                    change(first)
            seen = list(_containers(first))
            assert sum(not frozen for _, frozen in seen) == 2   # its patterns and payments
            for x, frozen in seen:
                if frozen:
                    assert type(x) in (FrozenList, FrozenDict), (d, x)
                    for change in (_REFUSED if isinstance(x, list) else _REFUSED_D):
                        if x:
                            with pytest.raises(TypeError, match="read-only"):
                                change(x)
                else:
                    assert type(x) in (list, dict), (d, x)
            assert repr(first) == want, "a refused change left no trace"
            for x, frozen in seen:   # every container of the caller's own, changed in place
                if not frozen:
                    if isinstance(x, dict):
                        x["changed"] = True
                    else:
                        x.append("changed")
            assert repr(first) != want and first["patterns"][-1] == "changed"
            assert repr(eng.evaluate(d, explain)) == want, d
    assert wins >= 3 and (loses >= 1 or variant == JX)


@pytest.mark.parametrize("explain", [True, False])
@pytest.mark.parametrize("variant", [SR, JX, FJ])
def test_a_cycle_through_a_result_is_collected(variant, explain):
    """A Result and its own patterns list are tracked by the cycle collector: a cycle made through them (here
    an object holding the result, put in its patterns) is freed. Each winning hand three times: a result whose
    pieces are made, then ones whose pieces the engine remembers."""
    import gc
    import weakref

    class Anchor:
        pass

    eng = mjrules.load(variant, backend="native")
    checked = 0
    for d in HANDS[variant]:
        for _ in range(3):
            try:
                r = eng.evaluate(d, explain)
            except SituationError:
                break
            if not r["win"]:
                break
            assert gc.is_tracked(r) and gc.is_tracked(r["patterns"])
            a = Anchor()
            a.result = r
            r["patterns"].append(a)
            ref = weakref.ref(a)
            del a, r
            gc.collect()
            assert ref() is None, d
            checked += 1
    assert checked >= 9


@pytest.mark.parametrize("backend", ["native", "reference"])
@pytest.mark.parametrize("variant", [SR, JX, FJ])
def test_an_explanation_is_made_when_first_read(variant, backend):
    """A result's reading and explanation are made when first read, from what it holds of its own hand: read
    after many other hands were evaluated (in any order), they are what the other back end gives, made at
    once. A result made with explain=False has no reading and no explain lines: as keys, as attributes."""
    eng = mjrules.load(variant, backend=backend)
    other = engine(variant, "reference" if backend == "native" else "native")
    kept = []
    for d in HANDS[variant]:
        try:
            kept.append((d, eng.evaluate(d), eng.evaluate(d, explain=False)))
        except SituationError:
            continue
    for d, full, lean in reversed(kept):
        want = other.evaluate(d)
        assert full.explain == want["explain"] and full["reading"] == want["reading"], d
        assert full.to_dict() == want.to_dict() == dict(want.items())
        assert lean == {k: x for k, x in want.items() if k not in ("reading", "explain")}
        assert "explain" not in lean and lean.get("reading", 0) == 0 and len(lean) == 7
        with pytest.raises(KeyError):
            _ = lean["explain"]
        with pytest.raises(AttributeError, match="explain=False"):
            lean.reading
    assert len(kept) >= 10


XZ_SAME_HEAD = [   # 血战: the same pattern, modifiers and events, so one signature head, but other defines' values
    {"concealed": "123m456m789m234p55p", "win_tile": "5p"},                        # 根 0
    {"concealed": "1111m23m567m789p55p", "win_tile": "5p"},                        # 根 1
    {"concealed": "1111m23m567m789p55p", "win_tile": "5p", "win_by": "discard", "discarder": 2},
    {"concealed": "1111m2222m3m789p55p", "win_tile": "5p"},                        # 根 2
]


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (3, 2, 1, 0), (1, 3, 0, 2)])
def test_lines_made_when_read_are_the_signatures_own(order, monkeypatch):
    """A result's lines are made when first read (LazyLines, shared by every result of that signature), and
    evaluate asks only for the names of a signature's head (modifiers, events, status), once per head: each
    result's lines are the reference's, read in any order, and the same when read again from another result of
    that signature."""
    from mjrules.native.engine import NativeEngine
    from mjrules.model.result import Explainer

    asked, heads = [], []
    middle_of, head = NativeEngine._middle_of, Explainer.head
    monkeypatch.setattr(NativeEngine, "_middle_of", lambda self, sig, value: asked.append(sig) or middle_of(
        self, sig, value))
    monkeypatch.setattr(Explainer, "head", lambda self, *a: heads.append(a) or head(self, *a))
    eng = mjrules.load("sichuan_xuezhan", backend="native")
    ref = engine("sichuan_xuezhan", "reference")
    got = [(i, eng.evaluate(XZ_SAME_HEAD[i])) for i in order]
    again = [(i, eng.evaluate(XZ_SAME_HEAD[i])) for i in order]
    assert not asked, "no signature is explained before its lines are read"
    assert len(heads) == 1, "the names of one head are asked once"
    assert len({tuple(r["patterns"]) for _, r in got}) == 1
    assert len({r["value"] for _, r in got}) >= 3
    for i, r in reversed(got + again):
        want = ref.evaluate(XZ_SAME_HEAD[i])
        assert r.to_dict() == want.to_dict(), XZ_SAME_HEAD[i]
        assert any(line["text"].startswith("根 = ") for line in r["explain"])
    assert len(asked) == len(set(asked)) == 4, "each signature's lines are made once, on first read"


def test_a_result_is_a_mapping_that_serialises():
    """A Result reads as the dict of its items (a Mapping: keys, items, get, in, len, ==, dict(), **), gives
    json its plain dict (to_dict, thaw), pickles and copies as itself, and is not hashable (as a dict)."""
    import copy
    import json
    import pickle
    from collections.abc import Mapping

    eng = engine(SR, "native")
    r = eng.evaluate({"concealed": "123m456m789p234s9s*7z", "win_tile": "7z", "wild": "9s"})
    d = r.to_dict()
    assert isinstance(r, Mapping) and not isinstance(r, dict)
    assert list(r) == list(d) == list(r.keys()) and dict(r) == d == {**r} and len(r) == len(d)
    assert r == d and d == r and not (r != d) and r.get("nope", 5) == 5  # noqa: SIM202 - (!= itself) and "win" in r and "nope" not in r
    assert (r.win, r.reason, r.pattern, r.status, r.value) == (d["win"], d["reason"], d["pattern"], d["status"],
                                                               d["value"])
    j = json.loads(json.dumps(d))   # JSON writes the payments' seats as strings
    assert j == json.loads(json.dumps(mjrules.thaw(r)))
    assert {**j, "payments": {int(k): x for k, x in j["payments"].items()}} == r
    for back in (pickle.loads(pickle.dumps(r)), copy.copy(r), copy.deepcopy(r)):
        assert type(back) is Result and back == r and back.explain == r.explain
    with pytest.raises(TypeError):
        hash(r)
    with pytest.raises(TypeError):
        json.dumps(r)
    lean = eng.evaluate({"concealed": "123m456m789p234s9s*7z", "win_tile": "7z", "wild": "9s"}, explain=False)
    assert pickle.loads(pickle.dumps(lean)) == lean and "explain" not in pickle.loads(pickle.dumps(lean))


@pytest.mark.parametrize("d", [
    {"concealed": "1m1m2m2m2m4m6m3p3p6p7p8p8p8p6s*6s*6s*", "win_tile": "6m", "wild": "6s"},   # wilds as 1m 1m 1m
    {"concealed": "1m9m2p5p7p1s4s5s6s9s3m5m7m8m2m*2m*2m*", "win_tile": "5s", "wild": "2m"},
    {"concealed": "2m2m2m3p4p5p6p7p8p1s1s4s4s5s9s*9s*9s*", "win_tile": "9s", "wild": "9s"},   # the third drawn
    {"concealed": "1m9m2p5p7p1s4s5s6s9s3m5m7m8m2m*2m*2m*", "win_tile": "5s", "wild": "2m", "flowers": "f1 f5",
     "seat": 1, "dealer": 3},
])
def test_a_reading_without_groups_is_described_as_the_reference_does(d):
    """福州's 三金倒 (a free shape: no groups) lists every tile and what each gold stands for."""
    nat, ref = mjrules.load(FJ, backend="native"), mjrules.load(FJ, backend="reference")
    a, b = nat.evaluate(d), ref.evaluate(d)
    assert a == b
    assert a["win"] and a["reading"]["groups"] == [] and "; wilds as " in a["explain"][0]["text"]


@pytest.mark.parametrize("variant", [SR, FJ])
def test_a_signature_someone_holds_is_never_written_again(variant):
    """The kernel keeps the chosen reading's signature in its own buffer, written again at every evaluate; the
    signature its evaluate() hands out is a copy: one a caller keeps stays as it was, each its own object."""
    from mjrules.model.situation import situation_from_dict
    import mjrules.native.kernel as core

    eng = mjrules.load(variant, backend="native")
    kern = eng._kernel
    kept = []
    for d in HANDS[variant]:
        try:
            s = situation_from_dict(eng.variant, d)
        except SituationError:
            continue
        r = kern.evaluate(s, eng._defaults, float(eng._strings[s.win_by]))
        if r[0] == core.WIN:
            kept.append((r[3], r[3].hex()))
            eng._build(s)   # (the settlement's signature: made by the build)
    assert len(kept) >= 10
    assert all(sig.hex() == was for sig, was in kept)
    assert len({id(sig) for sig, _ in kept}) == len(kept)


def test_evaluate_answers_alike_however_it_is_called():
    """The engine's evaluate (FastEvaluate.evaluate, a method of a C type) gives each call form the same result,
    and a wrong call the same error."""
    eng = mjrules.load(SR, backend="native")
    ev = eng.evaluate
    d = {"concealed": "3m3m3m9p9p9p1s1s5s5s7s7s7s4s*", "win_tile": "1s", "wild": "4s"}
    want = eng._evaluate_dict(d)
    assert want["win"]
    for got in (ev(d), ev(d, True), ev(d, 1), ev(situation=d), ev(d, explain=True), ev(d, explain="yes"),
                type(ev).__call__(ev, d), ev(*[d]), ev(**{"situation": d})):
        assert got == want
    lean = {k: v for k, v in want.items() if k not in ("reading", "explain")}
    assert ev(d, False) == ev(d, 0) == ev(d, explain=False) == ev(d, explain=[]) == type(ev).__call__(ev, d, False) \
        == lean
    for args, kwargs, message in [((), {}, "at least 1 positional|missing"), ((d, True, 3), {}, "at most 2 positional"),
                                  ((d,), {"foo": 1}, "unexpected keyword argument 'foo'")]:
        with pytest.raises(TypeError, match=message):
            ev(*args, **kwargs)
    with pytest.raises(SituationError, match="unexpected character"):
        ev({"concealed": "xx"})

    class NoTruth:
        def __bool__(self):
            raise ValueError("no truth")

    for args, kwargs in [((d, NoTruth()), {}), ((d,), {"explain": NoTruth()})]:
        with pytest.raises(ValueError, match="no truth"):
            ev(*args, **kwargs)


@pytest.mark.parametrize("variant", [SR, JX, FJ])
def test_a_situation_is_read_alike_whatever_its_key_objects(variant):
    """The situation reader matches a key by identity with its own interned names first, and by value after:
    keys made at run time (as json.loads makes them) and win_by values that are new string objects read as
    the literals do, hand after hand (FastEvaluate remembers the last win_by's id by identity)."""
    import json

    eng = mjrules.load(variant, backend="native")
    checked = 0
    for d in HANDS[variant]:
        fresh = json.loads(json.dumps(d))   # new key and value objects, equal to d's
        fresh = {"".join(list(k)): ("".join(list(v)) if k == "win_by" else v) for k, v in fresh.items()}
        try:
            want = eng.evaluate(d)
        except SituationError as e:
            with pytest.raises(SituationError, match=re.escape(str(e))):
                eng.evaluate(fresh)
            continue
        assert eng.evaluate(fresh) == want == eng.evaluate(d), d
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("variant,situation", [
    (SR, {"concealed": "123m456m789p234s9s*", "wild": "9s"}), (SR, {"concealed": "123m456m789p2s9s*55s", "wild": "9s"}),
    (SR, {"concealed": "1m4m7m2p5p8p3s6s1z2z3z4z9s*", "wild": "9s"}),
    (SR, {"concealed": "1122334455667m", "wild": "9s"}), (SR, {"concealed": "123m456m789p234s", "wild": "9s"}),
    (JX, {"concealed": "1112345678999m"}), (JX, {"concealed": "123m456p789s234s5z", "win_by": "dealt"}),
    (FJ, {"concealed": "123m456m789m234p56s7p*", "wild": "7p"}),
    (FJ, {"concealed": "123m456m789m234p7p*7p*7p*", "wild": "7p"}),
])
def test_waits(variant, situation):
    same(variant, situation, "waits")


@pytest.mark.parametrize("variant", shipped_names())
def test_random_hands_agree(variant):
    """Near-winning random hands with 0-4 wilds, in every shipped variant (overlays included)."""
    rng = random.Random(11)
    v = engine(variant, "reference").variant
    playable = list(v.tiles.playable)
    for _ in range(150):
        tiles = []
        while len(tiles) < v.win_size - 2:
            k = rng.choice(playable)
            run = [k, k + 1, k + 2] if k < 27 and k % 9 <= 6 and rng.random() < 0.6 else [k] * 3
            tiles += [t for t in run if t in playable]
        k = rng.choice(playable)
        tiles = tiles[:v.win_size - 2] + [k, k]
        if rng.random() < 0.3:
            tiles[rng.randrange(len(tiles))] = rng.choice(playable)
        d = {"win_tile": None}
        if v.wild is not None:
            w = rng.choice(playable)
            d["wild"] = R_name(w)
            for _ in range(rng.randint(0, 4)):
                tiles[rng.randrange(len(tiles))] = w
        d["concealed"] = " ".join(R_name(t) + ("*" if R_name(t) == d.get("wild") else "") for t in sorted(tiles))
        d["win_tile"] = R_name(rng.choice(tiles))
        same(variant, d)


def R_name(k: int) -> str:
    from mjrules.model.tiles import tile_name

    return tile_name(k)


# ---- the kernel ---------------------------------------------------------------------------------------------
def test_min_wilds_table_matches_brute_force():
    from mjrules.native import kernel as _core

    rng = random.Random(5)
    everything = frozenset(range(34))
    for _ in range(400):
        c = [0] * 34
        for _ in range(rng.randint(2, 14)):
            k = rng.randrange(34)
            if c[k] < 4:
                c[k] += 1
        for pair in (True, False):
            n = sum(c)
            want = next((j for j in range(30) if (n + j - 2 * pair) % 3 == 0 and next(
                (R._std(list(c), j, (n + j - 2 * pair) // 3, int(pair), everything)), None) is not None), -1)
            assert _core.min_wilds(c, pair) == want, (c, pair)


@pytest.mark.parametrize("seed", range(4))
def test_suit_sums_table(seed):
    """The pung-only and pairs shortcuts' suit table against its definition, on random suits and the extremes:
    per kind, the wilds to make its tiles pungs ((3 - c % 3) % 3, two for four alike), whether its pair is a wild
    cheaper (held once, twice or four times), its pairs, whether it is held an odd number of times."""
    from mjrules.native import kernel as _core

    rng = random.Random(seed)
    suits = [[rng.randint(0, 4) for _ in range(9)] for _ in range(500)] + [[0] * 9, [4] * 9, [1] * 9, [3] * 9]
    for c in suits:
        pung = [0, 2, 1, 0, 2]
        want = (sum(pung[v] for v in c), any(v in (1, 2, 4) for v in c), sum(v // 2 for v in c),
                sum(v % 2 for v in c))
        assert _core.suit_sums(c) == want, c


@pytest.mark.parametrize("seed", range(3))
def test_one_tile_more_feasibility(seed):
    """wait_kinds and 宝调's test (every kind completes the pre-draw hand) take the standard shape's verdict on a
    hand with one tile more from the hand's units, looking up only the drawn tile's unit again (and the second
    least g - f where the drawn tile's unit held the least): it must be _feasible's on the whole hand, for every
    kind drawn and for a wild drawn, whatever the wilds stand for (all kinds, the suited, none, a few)."""
    from mjrules.native import kernel as _core

    rng = random.Random(seed)
    agree = feasible = 0
    for _ in range(2500):
        c = [0] * 34
        for _ in range(rng.randrange(15)):
            k = rng.randrange(34) if rng.random() < 0.3 else 9 * rng.randrange(3) + rng.randrange(9)
            if c[k] < 4:
                c[k] += 1
        j = rng.randrange(5)
        cand = rng.choice([range(34), range(27), (), rng.sample(range(34), 5), range(9, 18)])
        sets = (sum(c) + 1 + j - 2) // 3
        for k, (plus, whole) in enumerate(_core.feasible_plus(c, j, sets, cand)):
            assert plus == whole, (c, j, list(cand), k - (k == 34) * 35)
            agree += 1
            feasible += whole
    assert feasible > 1000, (feasible, agree)


def test_standard_readings_in_reference_order():
    from mjrules.native import kernel as _core

    rng = random.Random(9)
    for _ in range(600):
        j = rng.choice([0, 1, 2, 3, 4])
        cand = frozenset(range(34)) if rng.random() < 0.5 else frozenset(rng.sample(range(34), rng.randint(0, 34)))
        tiles = [rng.randrange(34) for _ in range(3)]
        for _ in range(3):
            k = rng.randrange(27)
            tiles += [k, k + 1, k + 2] if k % 9 <= 6 else [k] * 3
        tiles = sorted(tiles + [tiles[0]])[:14 - j]
        c = [tiles.count(k) for k in range(34)]
        if max(c) > 4:
            continue
        ref = [tuple(sorted(({"seq": 0, "pung": 1, "pair": 2}[g.kind], g.kinds[0],
                             sum(1 << i for i, w in enumerate(g.wild) if w)) for g in rd))
               for rd in R.standard(c, j, 4, cand)]
        assert [tuple(sorted(g)) for g in _core.standard_readings(c, j, 4, cand)] == ref


# ---- patterns settled by their first reading (codegen.reading_blind) -----------------------------------------
@pytest.mark.parametrize("variant,flags", [
    # 1: the condition, 2: the scoring read nothing of the reading; 4, 8: the same without wilds
    (SR, {"平胡": 13, "七对": 13, "碰碰胡": 8, "十三烂": 12, "九幺": 8}),   # 清一色 and the 宝 statuses read the wilds
    (JX, {"平胡": 13, "七对": 13, "碰碰胡": 8, "十三烂": 12}),
    (FJ, {"基本": 15, "平胡": 15, "金雀": 14, "三金倒": 15}),               # 金雀 reads pair_wilds, nothing else does
])
def test_reading_blind_flags(variant, flags):
    from mjrules.compiler import compile_variant
    from mjrules.compiler.codegen import reading_blind

    v = compile_variant(variant)
    assert dict(zip([p.name for p in v.patterns], reading_blind(v))) == flags


# 福州 with a define of its value (L) made to read the reading: the kernel must then score every reading
_FJ_READING_VALUES = [
    ("pair_wilds + ", {"基本": 13, "平胡": 13, "金雀": 12, "三金倒": 13}),               # blind without wilds
    ("(if no_sequences then 7 else 0) + ", {"基本": 5, "平胡": 5, "金雀": 4, "三金倒": 5}),  # the decomposition
    ("count_in(m) + ", {"基本": 13, "平胡": 13, "金雀": 12, "三金倒": 13}),
]
_FJ_L = "define L = if is_dealer then dealer_streak else 0"


def _gold_hands(rng: random.Random, n: int, golds: int) -> list[dict]:
    """福州 hands of 17 tiles with `golds` golds (7p), near a standard shape, won every way."""
    out = []
    while len(out) < n:
        tiles: list[int] = []
        while len(tiles) < 15:
            k = rng.randrange(27)
            tiles += [k, k + 1, k + 2] if k % 9 <= 6 and rng.random() < 0.6 else [k] * 3
        k = rng.randrange(27)
        tiles = tiles[:15] + [k, k]
        at = rng.sample(range(15), golds - 2) + [15, 16] if rng.random() < 0.5 else rng.sample(range(17), golds)
        for i in at:  # half of them with two golds as the pair (金雀 needs such a reading)
            tiles[i] = 15
        if any(tiles.count(t) > 4 for t in tiles) or tiles.count(15) != golds:
            continue
        names = [R_name(t) + ("*" if t == 15 else "") for t in sorted(tiles)]
        win_by = rng.choice(["self_draw", "discard", "kong_replacement"])
        d = {"concealed": " ".join(names), "win_tile": R_name(rng.choice(tiles)), "wild": "7p", "seat": 1,
             "win_by": win_by, "flowers": rng.choice(["", "1z", "f1 f2"])}
        if win_by == "discard":
            d["discarder"] = 0
        out.append(d)
    return out


# the generated functions a check context asks with the counts unknown and remembers (_core's count-free
# memos): the forbids on the facts (fc), the statuses (sts), the tables' bounds (tb<i>), the minimum-sure test (ms)
# and the events they read (e<i>)
_COUNT_FREE_FN = re.compile(r"^cdef [^\n]*? (fc|sts|tb\d+|ms|e\d+|p\d+)\(Ctx\* x[^\n]*\n(.*?)(?=^cdef |^def |^SPEC|\Z)",
                            re.S | re.M)


@pytest.mark.parametrize("variant", shipped_names())
def test_count_free_code_reads_no_wild_kind(variant):
    """The count-free tests (and the pattern conditions, which _core._sure_shapes remembers where they read
    nothing of the reading) never read which kind is the wild (x.f.w) nor its candidates: _core._set_wild keeps
    their memos when a hand's wild kind changes but the candidates do not, so a term reading either would
    be remembered stale. Where this fails, make _set_wild forget them on every new wild kind again."""
    from mjrules.compiler import compile_variant
    from mjrules.compiler.codegen import render

    v = compile_variant(variant)
    code = render(v)
    found = {m.group(1): m.group(2) for m in _COUNT_FREE_FN.finditer(code)}
    assert {"fc", "sts", "ms", "p0"} <= set(found) and (any(n.startswith("tb") for n in found) or not v.tables)
    for name, body in found.items():
        # (`x.f.w >= 0` is wild_in_force, which _set_wild forgets the memos on when it changes)
        assert not re.search(r"x\.f\.(w\b(?! >= 0)|w2\b|cand|ncand)", body), (variant, name)


def _bao_hands(rng: random.Random, n: int) -> list[dict]:
    """上饶 hands whose pre-draw hand (13 tiles, 1-4 宝 of 9s) is sets and a lone 宝, pairs and 宝, or near
    either, with a winning tile of any kind: 宝调 by the standard shape, by 七对, or not 宝调."""
    out = []
    while len(out) < n:
        j = rng.randint(1, 4)
        tiles: list[int] = []
        if rng.random() < 0.5:   # sets
            while len(tiles) < 13 - j:
                k = rng.randrange(34)
                tiles += [k, k + 1, k + 2] if k < 27 and k % 9 <= 6 and rng.random() < 0.6 else [k] * 3
        else:                    # pairs
            while len(tiles) < 13 - j:
                k = rng.randrange(34)
                tiles += [k, k] if rng.random() < 0.8 else [k]
        tiles = tiles[:13 - j]
        if rng.random() < 0.3:   # near: a tile swapped
            tiles[rng.randrange(len(tiles))] = rng.randrange(34)
        win = rng.randrange(34)
        tiles.append(win)
        if 26 in tiles or any(tiles.count(t) > 4 for t in tiles):
            continue
        names = [R_name(t) for t in sorted(tiles)] + ["9s*"] * j
        out.append({"concealed": " ".join(names), "win_tile": R_name(win), "wild": "9s"})
    return out


@pytest.mark.parametrize("change", ["", "stands_for suited", "stands_for 1m..9m", "七对 when count_in(m) >= 0"])
def test_bao_pair_wait_agrees(change, tmp_path, monkeypatch):
    """宝调's test (waits_all) takes three shortcuts before judging a kind in full: the pre-draw hand but one
    宝 makes the sets (every kind a 宝 stands for pairs with it), the tables' standard verdict, and a pairs
    reading where 七对's condition reads nothing of the reading. On 上饶 and on 上饶 with the 宝 standing for
    fewer kinds (the shortcuts need whole suits) or 七对 reading the reading (no pairs shortcut), every hand
    gets the reference's result, and each of 宝调, 有宝 and a loss occurs."""
    path = str(SPECS / "shangrao.mj")
    if change:
        monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
        text = (SPECS / "shangrao.mj").read_text(encoding="utf-8")
        old = "stands_for all" if change.startswith("stands_for") else "七对 \"Seven Pairs\" shape pairs when no_melds"
        new = change if change.startswith("stands_for") else old + " and count_in(m) >= 0"
        assert old in text
        path = str(tmp_path / "shangrao.mj")
        Path(path).write_text(text.replace(old, new, 1), encoding="utf-8")
    nat, ref = mjrules.load(path, backend="native"), mjrules.load(path, backend="reference")
    seen: set = set()
    for d in _bao_hands(random.Random(change), 150):
        a, b = nat.evaluate(d), ref.evaluate(d)
        assert a == b, d
        seen.add(a["status"] if a["win"] else "lose")
    assert {"有宝", "lose"} | ({"宝调"} if change != "stands_for 1m..9m" else set()) <= seen, seen  # (no 宝调
    # when the 宝 stands for one suit: no wild pairs an honour drawn)


@pytest.mark.parametrize("case", range(len(_FJ_READING_VALUES) + 1))
def test_first_reading_settles_only_blind_patterns(case, tmp_path, monkeypatch):
    """Hands with 2-3 golds: the shipped 福州 (three patterns settled by their first reading) and 福州 with a
    value that reads the reading (no pattern settled) give the reference's answer, reading and all."""
    from mjrules.compiler import compile_file
    from mjrules.compiler.codegen import reading_blind

    if case == len(_FJ_READING_VALUES):
        path = str(SPECS / "fuzhou_fujian.mj")
    else:
        term, flags = _FJ_READING_VALUES[case]
        monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
        text = (SPECS / "fuzhou_fujian.mj").read_text(encoding="utf-8")
        assert _FJ_L in text
        path = str(tmp_path / "fuzhou_fujian.mj")
        Path(path).write_text(text.replace(_FJ_L, f"define L = {term}(if is_dealer then dealer_streak else 0)", 1),
                              encoding="utf-8")
        v = compile_file(path)
        assert dict(zip([p.name for p in v.patterns], reading_blind(v))) == flags
    nat, ref = mjrules.load(path, backend="native"), mjrules.load(path, backend="reference")
    rng = random.Random(40 + case)
    wins = 0
    # the first reading found pairs 11m (基本); a later one pairs the golds (金雀, worth more)
    crafted = [{"concealed": "111m234m567m234p567p7p*7p*", "win_tile": "5p", "wild": "7p", "seat": 1,
                "win_by": "self_draw", "flowers": "1z"},
               {"concealed": "111m234m567m234p567p7p*7p*", "win_tile": "5p", "wild": "7p", "seat": 1,
                "win_by": "discard", "discarder": 2}]
    for golds in (2, 3):
        for d in _gold_hands(rng, 6, golds) + (crafted if golds == 2 else []):
            a, b = nat.evaluate(d), ref.evaluate(d)
            assert a == b, d
            wins += a["win"]
    assert wins >= 6


@pytest.mark.parametrize("gap", ["0", "1", "2.5", "4", "-1"])
def test_spacing_and_constant_groups_agree(gap, tmp_path, monkeypatch):
    """十三烂 of 撫州 with other gaps, and its 七星 over a constant group: spacing(d) and all_in, contains,
    count_in of constant groups (written out kind by kind in the native module) agree with the reference."""
    monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
    text = (SPECS / "fuzhou_jiangxi.mj").read_text(encoding="utf-8")
    assert "spacing(3)" in text and "when contains(honours) and qixing_bonus" in text
    text = text.replace("spacing(3)", f"spacing({gap})").replace(
        "when contains(honours) and qixing_bonus", "when contains(honours) and count_in(winds) >= 3")
    path = tmp_path / "fuzhou_jiangxi.mj"
    path.write_text(text, encoding="utf-8")
    nat, ref = mjrules.load(str(path), backend="native"), mjrules.load(str(path), backend="reference")
    rng = random.Random(gap)  # a str seed is hashed by sha512: the same hands in every process
    wins = 0
    step = max(1, math.ceil(float(gap)))
    for _ in range(120):
        if rng.random() < 0.5:  # the 7 honours and suited ranks `step` apart: 十三烂 when 7 of them fit
            spaced = [9 * suit + r for suit in range(3) for r in range(rng.randrange(3), 9, step)]
            kinds = list(range(27, 34)) + rng.sample(spaced, min(7, len(spaced)))
            kinds += rng.sample(range(34), 14 - len(kinds))
            if rng.random() < 0.3:
                kinds[rng.randrange(14)] = rng.randrange(34)
        else:
            kinds = rng.sample(range(34), 14)
        if max(kinds.count(k) for k in kinds) > 4:
            continue
        d = {"concealed": " ".join(R_name(k) for k in sorted(kinds)), "win_tile": R_name(kinds[0])}
        a, b = outcome(nat.evaluate, d), outcome(ref.evaluate, d)
        assert a == b, d
        wins += a[0] == "ok" and a[1]["win"]
    assert wins > 0


@pytest.mark.parametrize("variant,flags", [
    ("shangrao", {"碰碰胡": 2}), ("fuzhou_jiangxi", {"碰碰胡": 2}), ("fuzhou_fujian", {}),
])
def test_pung_only_flags(variant, flags):
    """Patterns whose condition requires no_sequences (1; 2 when that is the whole condition): with only those
    left open, the standard shape is enumerated without sequences."""
    from mjrules.compiler.codegen import pung_only
    from mjrules.engine import load_ir

    v = load_ir(variant)
    assert {p.name: f for p, f in zip(v.patterns, pung_only(v)) if f} == flags


_FJ_SPARROW = "when pair_wilds == 2 "   # 福州's 金雀: the pair is two golds


@pytest.mark.parametrize("cond,needs", [
    ("pair_wilds == 2", 4 | 8), ("2 == pair_wilds", 4 | 8), ("pair_wilds == 1", 2 | 8), ("pair_wilds < 1", 1 | 8),
    ("pair_wilds >= 1", 6 | 8), ("1 < pair_wilds", 4 | 8), ("pair_wilds != 1", 5 | 8), ("pair_wilds <= -1", 8),
    ("pair_wilds in (0, 2)", 5 | 8), ("pair_wilds == 2 and no_sequences", 4), ("no_sequences and wilds > 0", 7),
    ("pair_wilds == 2 or no_sequences", 15), ("not pair_wilds == 2", 15), ("pair_wilds + 0 == 2", 15),
    ("pair_wilds > 0 and pair_wilds < 2", 2 | 8), ("wilds == 2", 15),
])
def test_std_needs_flags(cond, needs, tmp_path):
    """What a standard reading must have to hold a pattern, read off the conjuncts of its condition: the wild
    counts of its pair (bits 0-2) and whether it may have a sequence (bit 3); anything else is no constraint.
    With 金雀's condition replaced in 福州's spec; the other patterns have none."""
    from mjrules.compiler.codegen import std_needs
    from mjrules.engine import load_ir

    text = (SPECS / "fuzhou_fujian.mj").read_text(encoding="utf-8")
    assert _FJ_SPARROW in text
    path = tmp_path / "fuzhou_fujian.mj"
    path.write_text(text.replace(_FJ_SPARROW, f"when {cond} ", 1), encoding="utf-8")
    v = load_ir(path)
    assert dict(zip((p.name for p in v.patterns), std_needs(v))) == {"基本": 15, "平胡": 15, "金雀": needs,
                                                                      "三金倒": 15}


@pytest.mark.parametrize("cond", [None, "pair_wilds < 1", "1 == pair_wilds and no_sequences"])
def test_pair_needs_skip_no_reading(cond, tmp_path, monkeypatch):
    """The standard enumeration skips readings whose pair (or sequences) no open pattern allows, and with only
    a pair of two wilds allowed it keeps two wilds for the pair and puts it where the reference does, after
    every real tile: nothing it skips could hold an open pattern, so the result -- reading and explanation
    included -- is the reference's. On 福州 with 1-3 golds (金雀's condition as shipped, and two others on the
    pair's wilds), and the test requires hands won as 金雀 and hands where 金雀 was open and did not hold."""
    from mjrules.bench.suite import HandMaker, check_form
    from mjrules.model.tiles import parse_tiles

    path = "fuzhou_fujian"
    if cond is not None:
        monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
        text = (SPECS / "fuzhou_fujian.mj").read_text(encoding="utf-8")
        path = str(tmp_path / "fuzhou_fujian.mj")
        Path(path).write_text(text.replace(_FJ_SPARROW, f"when {cond} ", 1), encoding="utf-8")
    nat, ref = mjrules.load(path, backend="native"), mjrules.load(path, backend="reference")
    maker = HandMaker(nat, 5)
    sparrow = other = 0
    for nw in (1, 2, 3):
        hands = maker.make(14, nw)
        wild = parse_tiles(hands["winning"][0]["wild"])[0].kind
        for _ in range(12 if nw > 1 else 0):   # the pair two golds, and a third gold in a set
            tiles = maker._winning_tiles(wild)[:-2]
            maker.rng.shuffle(tiles)
            d = maker._situation(tiles[nw - 2:], wild, nw, tiles[-1])
            if maker._legal(d):
                hands["winning"].append(d)
        for d in hands["winning"]:
            r = nat.evaluate(d)
            assert r == ref.evaluate(d), d
            sparrow += r["pattern"] == "金雀"
            other += r["pattern"] != "金雀"
            c, w, wild = check_form(d)
            assert nat.hand_value(c, w, wild) == ref.hand_value(c, w, wild), d
        for d in hands["near"] + hands["random"]:
            c, w, wild = check_form(d)
            assert nat.is_win(c, w, wild) == ref.is_win(c, w, wild), d
    assert sparrow >= 5 and other >= 5, (sparrow, other)


_SR_VALUE = "value = if special then 16 else T * 2 ^ wild_discards * (if 杠上开花 and gangkai_double then 2 else 1)"
_SR_VALUES = [  # 上饶's value, and others that read more of the reading (pattern 平胡 is p0, its 无宝 cell 4)
    None,
    "value = T - 3 + wild_discards",                       # 平胡 无宝: 1 (a reading may fail), 七对 无宝: 13
    "value = max(T, fours * 4)",                            # max: a known lower bound stands alone
    "value = min(T, 6 - count_in(honours))",               # unbounded below: never sure
    "value = -(0 - T) * (if one_suit then 1 else 2)",      # a condition the facts do not decide: both branches
    "value = T ^ 1 + (if 清一色 then 10 else 0) - (if special then 2 else 0)",
    "value = T * (5 - wild_discards) - 2 ^ 2 * 1",         # exact operands folded: sub, pow, mul; exact x T
    "value = -(1 - wild_discards) * T + 10",                # neg of an exact bound (negative) times a table
]


def _winning_counts(rng: random.Random, wilds: int, wild: int) -> tuple[list[int], int]:
    """A winning 14-tile 上饶 hand (four sets and a pair, or seven pairs) with `wilds` of its tiles made wilds."""
    for _ in range(1000):
        tiles: list[int] = []
        if rng.random() < 0.25:
            for k in rng.sample(range(34), 7):
                tiles += [k, k]
        else:
            for _ in range(4):
                if rng.random() < 0.5:
                    s, r = rng.randrange(3), rng.randrange(7)
                    tiles += [9 * s + r, 9 * s + r + 1, 9 * s + r + 2]
                else:
                    tiles += [rng.randrange(34)] * 3
            tiles += [rng.randrange(34)] * 2
        if any(tiles.count(k) > 4 for k in tiles) or wild in tiles:
            continue
        for i in rng.sample(range(14), wilds):
            tiles[i] = -1
        c = [0] * 34
        for k in tiles:
            if k >= 0:
                c[k] += 1
        return c, wilds
    raise AssertionError("no hand")


@pytest.mark.parametrize("case", range(len(_SR_VALUES)))
def test_minimum_sure_is_sound(case, tmp_path, monkeypatch):
    """Where the generated minimum-sure test says every reading of a pattern meets the minimum (so is_win
    answers without enumerating readings), the reference finds no reading of that pattern below it; where it
    says every reading fails one (so the pattern is not tried), the reference finds none that meets them; and
    is_win agrees with the reference. The same test with the counts unknown (which a check context asks first,
    once per wilds held) says sure only where the test on the counts does. 上饶's value, and values with sub,
    neg, max, min, pow, if, modifiers, defines."""
    from mjrules.model.check import situation_of
    from mjrules.model.interp import evaluate

    path = str(SPECS / "shangrao.mj")
    if _SR_VALUES[case] is not None:
        monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
        text = (SPECS / "shangrao.mj").read_text(encoding="utf-8")
        assert _SR_VALUE in text
        path = str(tmp_path / "shangrao.mj")
        Path(path).write_text(text.replace(_SR_VALUE, _SR_VALUES[case], 1), encoding="utf-8")
    nat, ref = mjrules.load(path, backend="native"), mjrules.load(path, backend="reference")
    v = ref.variant
    kernel = nat._kernel
    wild = 26  # 9s
    rng = random.Random(case)
    sure = fails = free = 0
    free_wild = set()   # the wild counts on which some pattern is sure whatever the counts
    for n in range(120):
        if n < 90:
            c, nw = _winning_counts(rng, n % 4, wild)
        else:  # one suit and 3 or 4 wilds: 清一色 not decided by the counts, so the table's bounds differ
            nw = 3 + n % 2
            c = _one_suit_counts(rng, nw)
            if c[wild]:
                continue
        s = situation_of(v, c, nw, wild)
        readings = ref.readings(s)
        for p, pat in enumerate(v.patterns):
            meets, fail = kernel.minimum_sure(bytes(c), nw, wild, p), kernel.minimum_sure(bytes(c), nw, wild, p, True)
            anyway = kernel.minimum_sure(bytes(c), nw, wild, p, any_counts=True)
            assert not (meets and fail)
            assert meets or not anyway, (c, nw, pat.name)   # unknown counts decide nothing the counts leave open
            sure, fails, free = sure + meets, fails + fail, free + anyway
            if anyway:
                free_wild.add(min(nw, 1))
            for rd, env in readings:
                if rd.pattern != pat.name or not (meets or fail):
                    continue
                value = evaluate(v.score.value, env)
                below = any((mn.cond is None or evaluate(mn.cond, env)) and value < mn.amount for mn in v.score.minimum)
                assert below == fail, (c, nw, pat.name, value)
        assert nat.is_win(bytes(c), nw, wild) == ref.is_win(bytes(c), nw, wild), (c, nw)
        if n % 6 == 0 and 0 < nw < 3:   # wait_kinds takes a real tile drawn whose hand has a sure pattern's shape as won
            pre = list(c)
            pre[random.Random(n).choice([k for k in range(34) if c[k]])] -= 1
            assert nat.wait_kinds(bytes(pre), nw, wild) == ref.wait_kinds(bytes(pre), nw, wild), (pre, nw)
    if case in (0, 1, 2, 4, 5, 6, 7):
        assert sure > 20, "the test finds sure patterns on hands without wilds"
    if case in (0, 1):
        assert fails > 20, "and patterns that cannot reach the minimum (平胡 有宝 across suits)"
    if case == 3:
        assert sure == free == 0
    if case == 0:   # 平胡 无宝 (4) and 碰碰胡 有宝 (8) reach 4 whatever the tiles; 平胡 有宝 (2) only with 清一色
        assert free > 20 and free_wild == {0, 1}
        assert kernel.minimum_sure(bytes(_winning_counts(rng, 1, wild)[0]), 1, wild, 0, any_counts=True) == 0


@pytest.mark.parametrize("hand,wilds,bounds", [
    # 上饶's table (SR-14): per pattern (平胡 七对 碰碰胡 十三烂 九幺) the bounds of its readings'
    # value on the counts alone; a modifier the counts leave open (清一色 on one suit, 幺九 on
    # terminals and honours, 七星 not excluded) lifts the upper bound to its row's cell, one the
    # counts rule out leaves the row out, and a row of two modifiers (七对 幺九 清一色, 64) needs both
    ("1199m1199p1199s11z", 0, [(4, 4), (16, 32), (16, 32), (4, 8), (4, 8)]),     # 幺九 open, 清一色 out
    ("22334455667788p", 0, [(4, 16), (16, 32), (16, 32), (4, 8), (4, 8)]),      # 清一色 open, 幺九 out
    ("2233m4455p6677s88s", 0, [(4, 4), (16, 16), (16, 16), (4, 8), (4, 8)]),    # both out
    ("11199m111p999s11z", 1, [(2, 2), (8, 8), (8, 8), (2, 4), (2, 4)]),         # 有宝: 64's row is 16 there
])
def test_table_bounds_are_tight(hand, wilds, bounds):
    """The bounds the search prunes with are the table's rows the counts leave possible, not looser (a test of
    soundness alone passes on bounds that know nothing)."""
    from mjrules.model.tiles import parse_tiles

    nat = mjrules.load("shangrao")
    c = [0] * 34
    for t in parse_tiles(hand):
        c[t.kind] += 1
    got = [tuple(nat._kernel.value_bounds(c, wilds, 33, p)[:2]) for p in range(len(nat.variant.patterns))]
    assert got == [(float(lo), float(hi)) for lo, hi in bounds]


@pytest.mark.parametrize("case", [*shipped_names(), *(f"sr{i}" for i in range(1, len(_SR_VALUES)))])
def test_value_bounds_are_sound(case, tmp_path, monkeypatch):
    """The best-reading search (evaluate, hand_value) drops a pattern once the best reading found beats every
    reading it could have: the generated bounds must hold every reading of the pattern's value, and the modifier
    bound every count of its modifiers, on hands with 0-4 wilds (上饶's other values as in the minimum-sure
    test); hand_value then agrees with the reference's. And the bounds know something where there are wilds:
    a test of NaNs only would pass vacuously."""
    from mjrules.bench.suite import HandMaker, check_form
    from mjrules.model.check import situation_of
    from mjrules.model.interp import evaluate

    path = case
    if case.startswith("sr"):
        monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
        text = (SPECS / "shangrao.mj").read_text(encoding="utf-8")
        path = str(tmp_path / "shangrao.mj")
        Path(path).write_text(text.replace(_SR_VALUE, _SR_VALUES[int(case[2:])], 1), encoding="utf-8")
    nat, ref = mjrules.load(path, backend="native"), mjrules.load(path, backend="reference")
    v = ref.variant
    maker = HandMaker(nat, 11)
    known = checked = 0
    counts = maker.wild_counts()
    for nw in counts:
        for d in maker.make(40 // len(counts), nw)["winning"]:
            c, w, wild = check_form(d)
            readings = ref.readings(situation_of(v, c, w, wild))
            for p, pat in enumerate(v.patterns):
                lo, hi, mods = nat._kernel.value_bounds(c, w, wild, p)
                known += not math.isnan(hi)
                for rd, env in readings:
                    if rd.pattern == pat.name:
                        value = evaluate(v.score.value, env)
                        assert not (value > hi or value < lo), (c, w, pat.name, value, lo, hi)
                        assert len(env.modifiers()) <= mods, (c, w, pat.name, env.modifiers(), mods)
                        checked += 1
            assert nat.hand_value(c, w, wild) == ref.hand_value(c, w, wild), (c, w)
            assert nat.evaluate(d) == ref.evaluate(d), d   # the same reading: ties go to more modifiers
    assert checked > 30
    if max(counts) > 0 and not case.startswith("sr"):   # (the search bounds only with wilds, and 撫州 has
        assert known > 20                                  # none; some of 上饶's other values have no bound)


def _one_suit_counts(rng: random.Random, wilds: int) -> list[int]:
    """Three sets of dots or bamboos and a pair of them (3 wilds to come) or a single one (4 wilds): the wilds
    may make a pung of their own, of characters first (no 清一色) and of the hand's suit later (清一色)."""
    for _ in range(1000):
        base, tiles = rng.choice((9, 18)), []
        for _ in range(3):
            r = base + rng.randrange(7)
            tiles += [r, r + 1, r + 2] if rng.random() < 0.6 else [r] * 3
        tiles += [base + rng.randrange(9)] * (2 if wilds == 3 else 1)
        if all(tiles.count(k) <= 4 for k in tiles):
            return [tiles.count(k) for k in range(34)]
    raise AssertionError("no hand")


def test_ties_go_to_more_modifiers(tmp_path, monkeypatch):
    """Among a pattern's readings of the best value the result is the one with more modifiers (the first of
    them in the reference's order), so the bounded search may drop a pattern for the best's own only once the
    best holds as many modifiers as any of its readings may. With 上饶's value made one per pattern (七对 above
    the rest), the readings of a pattern tie on their value; on these hands (one suit and 3 or 4 wilds) the
    first reading of 七对 often has fewer modifiers than another (its wilds a pair of characters, no 清一色),
    and the test requires many such hands."""
    from mjrules.model.check import situation_of

    monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
    text = (SPECS / "shangrao.mj").read_text(encoding="utf-8")
    path = str(tmp_path / "shangrao.mj")
    Path(path).write_text(text.replace(_SR_VALUE, "value = if 七对 then 9 else 8", 1), encoding="utf-8")
    nat, ref = mjrules.load(path, backend="native"), mjrules.load(path, backend="reference")
    v = ref.variant
    rng = random.Random(3)
    matters = 0
    for n in range(60):
        nw = 3 + n % 2
        c = _one_suit_counts(rng, nw)
        s = situation_of(v, c, nw, 33)
        readings = ref.readings(s)
        if not readings:
            continue
        best = "七对" if any(rd.pattern == "七对" for rd, _ in readings) else next(
            p.name for p in v.patterns if any(rd.pattern == p.name for rd, _ in readings))
        mods = [len(env.modifiers()) for rd, env in readings if rd.pattern == best]
        matters += mods[0] < max(mods)
        r = nat.judge(s)
        assert r == ref.judge(s), (c, nw)
        assert r["pattern"] == best and len(r["explain"]) > 1
    assert matters > 10, matters


# ---- generated source, the cache, hostile specs ---------------------------------------------------------------
def test_generated_source_is_deterministic():
    from mjrules.compiler import compile_variant
    from mjrules.compiler.codegen import render

    v = compile_variant(SR)
    a, b = render(v, "0" * 64), render(compile_variant(SR), "0" * 64)
    assert a == b
    assert "DO NOT EDIT" in a and v.spec_sha256 in a and "line map" in a
    assert "平胡" not in a and "Basic Win" not in a and a.isascii()


def _fresh_spec(folder: Path, tweak: str = "") -> Path:
    """A copy of a shipped spec that no cache has seen (its text, and so its IR, differ)."""
    p = folder / "fuzhou_jiangxi.mj"
    text = (SPECS / "fuzhou_jiangxi.mj").read_text(encoding="utf-8")
    p.write_text(text.replace("七对 : 4", f"七对 : {4 + len(tweak)}") + f"\n# {tweak} {os.getpid()}\n",
                 encoding="utf-8")
    return p


HAND = {"concealed": "11m11m55p66p88s33z44z", "win_tile": "4z"}


def _reference_value(path: str) -> int:
    from mjrules.compiler import compile_file
    from mjrules.reference.engine import ReferenceEngine

    return ReferenceEngine(compile_file(path)).evaluate(HAND)["value"]


def _build_and_score(path: str) -> tuple[dict, str, int]:
    from mjrules.compiler import compile_file
    from mjrules.native import NativeEngine, build_variant

    info = build_variant(path)
    eng = NativeEngine(compile_file(path))
    return info, eng.module.__file__, eng.evaluate(HAND)["value"]


def test_two_processes_build_one_module(tmp_path, monkeypatch):
    monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
    spec = str(_fresh_spec(tmp_path, "race"))
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ctx.Pool(2) as pool:
        results = pool.map(_build_and_score, [spec, spec])
    (a, fa, va), (b, fb, vb) = results
    assert a["key"] == b["key"] and a["path"] == b["path"] == fa == fb
    assert sorted([a["built"], b["built"]]) == [False, True]
    assert va == vb == _reference_value(spec)
    assert len(list((tmp_path / "cache").glob("mjv_*.so"))) == 1


def test_corrupt_stale_and_changed_entries_are_rebuilt(tmp_path, monkeypatch):
    from mjrules.native.cache import build_variant

    monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
    spec = _fresh_spec(tmp_path, "x")
    first = build_variant(str(spec))
    assert first["built"] and not build_variant(str(spec))["built"]
    lib = Path(first["path"])
    lib.write_bytes(lib.read_bytes()[:1000])  # truncated
    again = build_variant(str(spec))
    assert again["built"] and again["key"] == first["key"] and lib.stat().st_size > 1000
    sidecar = lib.with_name(lib.name.split(".")[0] + ".json")
    sidecar.write_text(sidecar.read_text().replace('"magic": 1', '"magic": 0'))  # an older cache layout
    assert build_variant(str(spec))["built"]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:  # a fresh process loads the rebuilt module
        info, _, value = pool.apply(_build_and_score, (str(spec),))
    assert not info["built"] and value == _reference_value(str(spec))
    changed = _fresh_spec(tmp_path, "changed")
    other = build_variant(str(changed))
    assert other["built"] and other["key"] != first["key"]


def test_a_build_prunes_other_generations_modules(tmp_path, monkeypatch):
    """A build keeps its own generation's modules and the KEEP_GENERATIONS newest others'; older generations'
    library, sidecar and lock go, and one whose lock another process holds stays."""
    import fcntl
    import json

    from mjrules.native.cache import EXT, KEEP_GENERATIONS, build_variant, compiler_version, platform_tag

    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("MJRULES_CACHE", str(cache))

    def entry(i: int, compiler: str, age: int) -> list[Path]:
        name = f"mjv_{i:032x}"
        files = [cache / f"{name}{EXT}", cache / f"{name}.json", cache / f"{name}.lock"]
        files[0].write_bytes(b"old")
        files[1].write_text(json.dumps({"compiler": compiler, "platform": platform_tag()}))
        files[2].write_bytes(b"")
        for f in files:
            os.utime(f, (1_000_000 - age, 1_000_000 - age))
        return files

    gens = [entry(i, f"old compiler {i}", age=i) for i in range(KEEP_GENERATIONS + 3)]  # gens[0] the newest
    same_gen = entry(90, f"old compiler {KEEP_GENERATIONS + 2}", age=0)  # an oldest generation's newer entry
    mine = entry(91, compiler_version(), age=99)                          # the current generation, however old
    held = entry(92, "old compiler held", age=99)
    (cache / "mjv_notours.json").write_text("not json")
    with open(held[2], "a+b") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        info = build_variant(str(_fresh_spec(tmp_path, "prune")))
    assert info["built"] and Path(info["path"]).exists()
    # the generations by their newest entry: KEEP_GENERATIONS + 2 has an entry of age 0, so it is kept
    kept = {KEEP_GENERATIONS + 2, 0, 1}
    assert [all(f.exists() for f in g) for g in gens] == [i in kept for i in range(len(gens))]
    assert all(f.exists() for f in same_gen + mine + held) and (cache / "mjv_notours.json").exists()
    assert not build_variant(str(_fresh_spec(tmp_path, "prune")))["built"]  # a load deletes nothing
    assert [g[0].exists() for g in gens] == [i in kept for i in range(len(gens))]


def test_hostile_spec_is_harmless(tmp_path, monkeypatch):
    from mjrules.compiler import compile_file
    from mjrules.compiler.codegen import render
    from mjrules.native.engine import NativeEngine
    from mjrules.reference.engine import ReferenceEngine

    monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    marker = tmp_path / "MARKER"
    payloads = ['\\"\\"\\" {{ 7*7 }} {% for x in y %}{% endfor %} # */ \\\\ \\n# cython: boundscheck=True',
                f"__import__('os').system('touch {marker}')", f'\\"); system(\\"touch {marker}',
                "\\n# distutils: libraries = m\\n__import__('os').system('touch MARKER')"]
    hostile = " ".join(payloads)
    text = (SPECS / "fuzhou_jiangxi.mj").read_text(encoding="utf-8")
    text = text.replace("平胡", "__import__").replace("清一色", "system").replace("qixing_bonus", "exec")
    for old, new in zip(['"Basic Win"', '"Seven Pairs"', '"Pure Suit"', '"Shape"'], payloads):
        text = text.replace(old, f'"{new}"')
    text = text.replace("define Q ", "define __builtins__ ").replace("S * Q *", "S * __builtins__ *")
    text = text.replace("  # ---- tiles, seats, deal", f'  option eval "{hostile}" = "{payloads[2]}"  # JX-12\n'
                                                      "  # ---- tiles, seats, deal")
    text = text.replace("    value = S", f'    forbid "{hostile}" when eval == "{payloads[1]}"  # JX-21\n'
                                        "    value = S")
    spec = tmp_path / "fuzhou_jiangxi.mj"
    spec.write_text(text, encoding="utf-8")
    v = compile_file(spec)
    assert v.patterns[0].name == "__import__" and "system(" in v.patterns[1].label
    source = render(v, "0" * 64)
    code = source[:source.index("IR_B64")] + source[source.index("\n)\n", source.index("IR_B64")):]
    assert source.isascii() and "touch" not in code and "{{" not in code and "__import__" not in code
    nat, ref = NativeEngine(v), ReferenceEngine(v)
    for d in [HAND, {"concealed": "123m456p789s234s55z", "win_tile": "5z"},
              {**HAND, "options": {"eval": payloads[1].replace("\\", "")}},
              {**HAND, "options": {"eval": hostile}}]:
        assert nat.evaluate(d) == ref.evaluate(d)
    assert nat.evaluate({**HAND, "options": {"eval": payloads[1].replace("\\", "")}})["win"] is False
    assert not marker.exists() and not (tmp_path / "MARKER").exists()


def test_kernel_lock_is_a_lock():
    """The engine's kernel lock (_core.KernelLock, which FastEvaluate takes from C) behaves as threading.Lock:
    acquire, release, locked, the with-statement, an error for a release of a free lock, and a second thread
    waits until the first gives it back."""
    import threading
    from mjrules.native import kernel as _core

    lock = _core.KernelLock()
    assert not lock.locked() and lock.acquire() is True and lock.locked()
    order: list[str] = []
    t = threading.Thread(target=lambda: (lock.acquire(), order.append("second"), lock.release()))
    t.start()
    t.join(0.05)
    order.append("first")
    lock.release()
    t.join()
    assert order == ["first", "second"] and not lock.locked()
    with pytest.raises(RuntimeError):
        lock.release()
    with lock:
        assert lock.locked()
    assert not lock.locked()
    assert isinstance(mjrules.load(SR)._lock, _core.KernelLock)


@pytest.mark.parametrize("variant", [SR, JX, FJ])
def test_evaluate_from_many_threads(variant, monkeypatch):
    """One native engine called from four threads at once gives each situation its own result: the engine's
    lock keeps the kernel's chosen reading until the result made from it is done (the C fast path and the
    Python path take the same lock), with the interpreter switching threads as often as it can; each result's
    explanation, made when it is read, is its own hand's."""
    import sys
    from concurrent.futures import ThreadPoolExecutor

    from mjrules.bench.suite import SEED, HandMaker
    from mjrules.native.engine import NativeEngine

    import time

    for name in ("_middle_of", "_settle"):  # the result's pieces made in Python give the other threads their turn
        made = getattr(NativeEngine, name)
        monkeypatch.setattr(NativeEngine, name, lambda *a, _made=made: (time.sleep(0.001), _made(*a))[1])
    eng = mjrules.load(variant)  # a fresh engine: nothing remembered yet, so the slow paths run too
    maker = HandMaker(eng, SEED)
    sits = [d for nw in maker.wild_counts() for c in ("winning", "near") for d in maker.make(6, nw)[c]]
    # seats and ways of winning vary, so that results differ in their payments too
    sits = [dict(d, seat=i % 4, win_by="discard", discarder=(i + 1) % 4) if i % 3 else dict(d, seat=i % 4)
            for i, d in enumerate(sits)]
    sits += [dict(d, win_tile=d["concealed"][:2]) for d in sits[:5]]  # some losing or refused ones
    expect = [outcome(engine(variant, "native").evaluate, d) for d in sits]
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(4) as pool:
            got = list(pool.map(lambda d: outcome(eng.evaluate, d), sits * 4))
    finally:
        sys.setswitchinterval(old)
    assert got == expect * 4


_SR_PAIRS = '七对 "Seven Pairs" shape pairs when no_melds '
_SR_ROTTEN = '十三烂 "Thirteen Rotten" shape free when no_melds and distinct and spacing(3)'
_FJ_THREE = '三金倒 "Three Golds Down" shape free when wilds >= 3'
_SURE_CASES = [  # (variant, clause, its replacement, most wilds): conditions that read nothing of the reading
    (SR, None, None, 4),
    (SR, _SR_PAIRS, '七对 "Seven Pairs" shape pairs when no_melds and wilds == 0 ', 4),   # false with wilds
    (SR, _SR_PAIRS, '七对 "Seven Pairs" shape pairs when wilds <= 1 ', 4),                 # true with one only
    # holds, but is worth 2 < 4 without 七星 (every multiset of 34 kinds the wilds may be is a reading: 2 at most)
    (SR, _SR_ROTTEN, '十三烂 "Thirteen Rotten" shape free when wilds >= 2', 2),
    (FJ, None, None, 3),                                                          # 三金倒: wilds >= 3
    (FJ, _FJ_THREE, '三金倒 "Three Golds Down" shape free when wilds >= 2', 3),
    (FJ, _FJ_THREE, '三金倒 "Three Golds Down" shape free when wilds >= 2 and flowers > 0', 3),  # never in a check
]


def _pairs_counts(rng: random.Random, size: int, wilds: int, wild: int, kinds: list[int]) -> list[int]:
    """size - wilds real tiles of `kinds` (not the wild's) as pairs and a few singles: 七对-shaped hands."""
    c = [0] * 34
    free = [k for k in kinds if k != wild]
    real = size - wilds
    singles = real % 2 + 2 * rng.randrange(0, min(wilds, 2) // 2 + 1) if wilds else real % 2
    for k in rng.sample(free, (real - singles) // 2 + singles):
        c[k] = 1 if singles and rng.random() < 0.5 else 2
        singles -= c[k] == 1
    while sum(c) > real:
        c[max(range(34), key=lambda k: c[k])] -= 1
    while sum(c) < real:
        c[rng.choice([k for k in free if c[k] < 2])] += 1
    return c


@pytest.mark.parametrize("case", range(len(_SURE_CASES)))
def test_sure_patterns_hold_their_condition(case, tmp_path, monkeypatch):
    """A check context settles a hand with wilds before the tables where a pattern is sure whatever the counts
    (_core._sure_shapes: a pairs or free pattern whose condition reads nothing of the reading, a standard one
    needing no_sequences only), so that condition must hold on the facts and the wilds held, and the minimums
    must be met. With conditions false with wilds, true with one only, a free pattern that holds but scores
    under the minimum, and 福州's 三金倒 made to hold with two golds or never: is_win, check_batch and
    wait_kinds give the reference's verdicts on standard-shaped, pairs-shaped, near and random hands."""
    import numpy as np
    from mjrules.bench.suite import HandMaker, check_form

    spec, old, new, top = _SURE_CASES[case]
    path = str(SPECS / f"{spec}.mj")
    if old:
        monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
        text = (SPECS / f"{spec}.mj").read_text(encoding="utf-8")
        assert old in text
        path = str(tmp_path / f"{spec}.mj")
        Path(path).write_text(text.replace(old, new, 1), encoding="utf-8")
    nat, ref = mjrules.load(path, backend="native"), mjrules.load(path, backend="reference")
    size, wild = nat.variant.win_size, 26   # 9s: a wild kind of both
    kinds = sorted(nat.variant.tiles.playable)
    rng = random.Random(case)
    maker = HandMaker(nat, case)
    hands, ready = [], []
    for nw in range(1, min(top, nat.variant.wild.live) + 1):
        few = 2 if spec == FJ and nw == 3 else 5   # (the reference takes ~0.1 s a hand of 福州 with 3 golds)
        by = maker.make(few, nw)
        forms = [check_form(d) for cls in ("winning", "near", "random") for d in by[cls]]
        hands += [(list(c), nw, w) for c, nw, w in forms]
        hands += [(_pairs_counts(rng, size, nw, wild, kinds), nw, wild) for _ in range(few)]
        if spec == SR:   # (the reference's wait_kinds on 福州 takes seconds a hand)
            ready += [(list(c), nw, w) for c, nw, w in map(check_form, by["ready"][:2])]
            ready += [(c[:k] + [c[k] - 1] + c[k + 1:], nw, wild) for c, nw, _ in hands[-2:]
                      for k in [next(k for k in range(34) if c[k])]]
    wins = set()
    for c, nw, w in hands:
        got = nat.is_win(bytes(c), nw, w)
        assert got == ref.is_win(bytes(c), nw, w), (c, nw, w)
        wins.add(got)
    assert wins == {True, False}
    for w in {w for _, _, w in hands}:   # check_batch takes one wild kind a call
        rows = [(c, nw) for c, nw, ww in hands if ww == w]
        out = nat.check_batch(np.array([c for c, _ in rows], dtype=np.uint8), np.array([nw for _, nw in rows],
                              dtype=np.uint8), wild=w)
        assert [bool(x) for x in out] == [nat.is_win(bytes(c), nw, w) for c, nw in rows]
    for c, nw, w in ready:
        assert nat.wait_kinds(bytes(c), nw, w) == ref.wait_kinds(bytes(c), nw, w), (c, nw, w)


def _pungs_ready(rng: random.Random, wild: int) -> tuple[list[int], int]:
    """A pre-draw 上饶 hand (13 tiles) of pungs, pairs and 1-3 wilds: drawing a paired kind makes it a pung, which
    a hand can need to have a pungs-and-pair reading at all."""
    while True:
        nw = rng.randint(1, 3)
        c = [0] * 34
        kinds = rng.sample([k for k in range(34) if k != wild], 6)
        left = 13 - nw
        for k in kinds:
            n = min(left, rng.choice([3, 2, 2, 1]))
            c[k], left = n, left - n
        if left == 0:
            return c, nw


@pytest.mark.parametrize("case", [0, 3])
def test_wait_kinds_of_pungs_hands(case, tmp_path, monkeypatch):
    """wait_kinds judges each kind drawn on units it updates from the pre-draw hand's (_core._units_plus), never
    from the pre-draw bytes the tile drawn is missing from: on pungs-and-pairs hands with wilds, whose pungs
    shortcut counts the kinds held 1, 2 or 4 times, it gives the reference's kinds, with 上饶's value (the
    pungs sure for the check) and one that reads the counts (the pungs then asked of _decide). The first hand
    is one the counts on the stale bytes got wrong: 1m x3 2p x3 3s 3s 5s 5s 東 東 and a 宝 waits on 3s and 5s."""
    path = str(SPECS / "shangrao.mj")
    if _SR_VALUES[case] is not None:
        monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
        text = (SPECS / "shangrao.mj").read_text(encoding="utf-8")
        path = str(tmp_path / "shangrao.mj")
        Path(path).write_text(text.replace(_SR_VALUE, _SR_VALUES[case], 1), encoding="utf-8")
    nat, ref = mjrules.load(path, backend="native"), mjrules.load(path, backend="reference")
    wild = 26
    first = [0] * 34
    first[0] = first[10] = 3
    first[20] = first[22] = first[27] = 2
    rng = random.Random(case)
    hands = [(first, 1)] + [_pungs_ready(rng, wild) for _ in range(24)]
    found = 0
    for c, nw in hands:
        got = nat.wait_kinds(bytes(c), nw, wild)
        assert got == ref.wait_kinds(bytes(c), nw, wild), (c, nw)
        found += len(got)
    assert {20, 22} <= set(nat.wait_kinds(bytes(first), 1, wild)) and found > 50


def test_evaluate_runs_one_way():
    """The C side decides and enters Python only to explain what it has not seen: a hand seen before and a hand new to
    the engine (same head, same settlement) enter no Python function; a new settlement enters the engine's _settle,
    which never calls back into the kernel (the win expressions' values come with it)."""
    from mjrules.bench.hops import CASES, entered

    e = mjrules.load("sichuan_xuezhan", backend="native")
    e.evaluate(CASES[0][1])
    assert entered(lambda: e.evaluate(CASES[0][1])) == []
    assert entered(lambda: e.evaluate(CASES[1][1])) == []
    got = entered(lambda: e.evaluate(CASES[2][1]))
    assert got and got[0] == "native/engine.py:_settle"

    class Spy:   # the engine's kernel, as its Python code sees it: every name asked of it is noted
        def __init__(self, kernel):
            self.kernel, self.asked = kernel, []

        def __getattr__(self, name):
            self.asked.append(name)
            return getattr(self.kernel, name)

    spy = Spy(e._kernel)
    e._kernel = spy
    try:
        r = e.evaluate({"concealed": "222m456m789m234p66p", "win_tile": "6p", "win_by": "discard", "discarder": 3})
    finally:
        e._kernel = spy.kernel
    assert r["payments"][3] < 0 and spy.asked == []


_FAN_HANDS = [   # (concealed, win_tile, extra): hands of a variant with fans, each of its shapes and set facts
    ("123m456m789m123p55p", "5p", {"win_by": "self_draw"}),
    ("147m258p369s12345z", "5z", {}),                                    # 全不靠形 with honours
    ("147m258p369s234m55z", "5z", {"win_by": "discard", "discarder": 1}),  # 组合龙形
    ("258m369p11147s", "1s", {"melds": ["[789s]"]}),                      # 组合龙形 with a meld, single wait
    ("19m19p19s1234567z1z", "1z", {}),                                    # 十三幺形
    ("11223344556677m", "7m", {}),                                        # 七对形 (连七对)
    ("111m222m333m444p55p", "5p", {"win_by": "discard", "discarder": 2}),  # claimed pair, concealed pungs
    ("111m234m333p55s", "3p", {"melds": ["[5555z]"], "win_by": "discard", "discarder": 1,   # a claimed pung
                               "options": {"min_fan": 0}}),
    ("123m123m123m44p", "4p", {"melds": ["[222s]"]}),                     # 一色三同顺: preferred
    ("234m234m234m44p", "4p", {"melds": ["[444s]"]}),
    ("1112345678999m5m", "5m", {}),                                       # 九莲宝灯 (waiting_hand)
    ("345555678m555p22s", "4m", {}),                                      # a kind held four times (wait_kinds)
    ("11122233344455z", "5z", {"seat": 1, "prevalent_wind": 1}),          # winds: seat and prevalent
    ("123m456m11p", "1p", {"melds": ["[1111z]", "{2222s}"], "flowers": ["f1", "f2"]}),
    ("234m345m456m678p22s", "2s", {"options": {"min_fan": 0}}),
    ("123m567p345s678s99m", "9m", {"win_by": "discard", "discarder": 1}),  # fewer fans than the minimum
    ("123m456m789m12445p", "4p", {}),                                     # not a winning hand
]


@pytest.mark.parametrize("i", range(len(_FAN_HANDS)))
def test_fans_are_counted_natively(i):
    """A variant with fans (counted per reading: sets, combinations, exclusions, the wait, the knitted shape) is
    decided by the kernel itself, with the reference's results, fans and explanations, and no fallback."""
    nat, ref = engine("guobiao", "native"), engine("guobiao", "reference")
    conc, win, extra = _FAN_HANDS[i]
    s = {"concealed": conc, "win_tile": win, **extra}
    before = nat.fallbacks
    for explain in (True, False):
        a, b = nat.evaluate(s, explain=explain), ref.evaluate(s, explain=explain)
        assert a == b and a.fans == b.fans, (s, a, b)
    assert nat.fallbacks == before


@pytest.mark.parametrize("name", [n for n in shipped_names() if mjrules.load(n).variant.fans])
def test_fans_are_worked_out_after_what_they_read(name):
    """The generated fans_all works the fans out in one pass, reading the others' final counts from memory: each
    fan comes after every fan it reads (its count, what excludes it, the limit fans, an `otherwise` fan's others),
    and the order is not simply the spec's where the spec's is not such an order."""
    from mjrules.compiler.codegen import fan_order
    from mjrules.compiler.ir import fan_reads

    v = mjrules.load(name).variant
    order = fan_order(v)
    assert sorted(order) == list(range(len(v.fans)))
    at = {v.fans[i].name: k for k, i in enumerate(order)}
    reads = fan_reads(v.fans, {d.name: d.expr for d in v.defines})
    for f in v.fans:
        assert all(at[n] < at[f.name] for n in reads[f.name] - {f.name}), f.name
    if name in ("guobiao", "riichi"):   # (their limit fans, otherwise fans and exclusions come out of order)
        assert order != sorted(order)


def test_fans_match_the_reference_on_generated_hands():
    """Seeded MCR winning hands (tests/oracles/mcr.py): the native results equal the reference's, none falls back."""
    from optional import need

    need("MahjongGB")   # the MCR hand generator's
    from oracles import mcr

    nat, ref = engine("guobiao", "native"), engine("guobiao", "reference")
    before = nat.fallbacks
    for case in mcr.generate(random.Random(17), 300):
        s = case.situation()
        a, b = nat.evaluate(s), ref.evaluate(s)
        assert a == b and a.fans == b.fans, s
    assert nat.fallbacks == before
