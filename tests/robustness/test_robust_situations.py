"""Malformed and hostile situations on both back ends: a result or a ValueError (SituationError, ValueRangeError)
with one line, the same from both back ends; never another exception, and quickly.
"""
from __future__ import annotations

import time

import mjrules
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mjrules.model.situation import KEYS
from strategies import examples

ENGINES = {b: mjrules.load("shangrao", backend=b) for b in ("native", "reference")}
BASE = {"concealed": "123m456m789p234s9s*7z", "win_tile": "7z", "wild": "9s"}


def _deep(n: int) -> list:
    out: list = []
    for _ in range(n):
        out = [out]
    return out


def outcome(eng, d: object) -> tuple:
    start = time.process_time()
    try:
        r = eng.evaluate(d)
        got: tuple = ("ok", r["win"], r["value"], r["payments"])
    except ValueError as e:
        msg = str(e)
        assert "\n" not in msg and msg, msg
        got = (type(e).__name__, msg)
    assert time.process_time() - start < 5
    return got


CASES = {
    "a list": [1, 2], "None": None, "a string": "123m", "empty": {}, "bytes": b"{}",
    "unknown key": dict(BASE, foo=1), "an int key": {1: 2}, "a tuple key": {(1,): 2},
    "concealed an int": dict(BASE, concealed=123), "concealed bytes": dict(BASE, concealed=b"123m"),
    "concealed huge": dict(BASE, concealed="1m" * 500_000), "concealed NUL": dict(BASE, concealed="123m\x00"),
    "melds a string": dict(BASE, melds="[555p]"), "melds nested": dict(BASE, melds=_deep(50)),
    "melds garbage": dict(BASE, melds=["[5p]"]),
    "seat NaN": dict(BASE, seat=float("nan")), "seat inf": dict(BASE, seat=float("inf")),
    "seat -1": dict(BASE, seat=-1), "seat 1.5": dict(BASE, seat=1.5), "seat True": dict(BASE, seat=True),
    "seat a string": dict(BASE, seat="1"), "seat 2**64": dict(BASE, seat=2 ** 64),
    "dealer 99": dict(BASE, dealer=99), "discarder itself": dict(BASE, win_by="discard", discarder=0),
    "win_by unknown": dict(BASE, win_by="magic"), "win_by an int": dict(BASE, win_by=3),
    "win_tile two tiles": dict(BASE, win_tile="7z7z"), "win_tile absent from the hand": dict(BASE, win_tile="1z"),
    "wild bad": dict(BASE, wild="0m"), "wild and indicator": dict(BASE, indicator="8s"),
    "options a list": dict(BASE, options=[1]), "options unknown": dict(BASE, options={"nope": 1}),
    "options huge": dict(BASE, options={"bao_huanyuan_counts_as_wubao": 10 ** 400}),
    "options NaN": dict(BASE, options={"bao_huanyuan_counts_as_wubao": float("nan")}),
    "flowers bad": dict(BASE, flowers=["x"]), "wild_discards huge": dict(BASE, wild_discards=10 ** 30),
    "dealer_streak negative": dict(BASE, dealer_streak=-5), "five copies": dict(BASE, concealed="11111m456m789p2s9s*7z"),
}
# Faults the situation reader (mjrules/situation.py) once had, each with what it raised then.
READER_FAULTS = {
    "concealed nested 100000 deep": (dict(BASE, concealed=_deep(100_000)), "RecursionError"),
    "flowers nested 100000 deep": (dict(BASE, flowers=_deep(100_000)), "RecursionError"),
    "seat of 5000 digits": (dict(BASE, seat=10 ** 5000), "Python's 4300-digit message"),
    "melds a dict": (dict(BASE, melds={"a": 1}), "KeyError from tiles.parse_melds"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_situation_case(name):
    got = {b: outcome(e, CASES[name]) for b, e in ENGINES.items()}
    assert got["native"] == got["reference"], got


@pytest.mark.parametrize("name", list(READER_FAULTS))
def test_situation_reader_fault(name):
    """Once a RecursionError, a KeyError or Python's 4300-digit message (the second item of each case): now one
    clear line, the same from both backends."""
    d, _ = READER_FAULTS[name]
    got = {b: outcome(eng, d) for b, eng in ENGINES.items()}
    assert got["native"] == got["reference"], got
    kind, msg = got["native"][:2]
    assert kind == "SituationError" and "4300" not in msg and len(msg) < 300, msg


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats() | st.text(max_size=30)
    | st.sampled_from(["123m", "9s*", "[555p]", "{1111m}", "7z", "self_draw", "discard", "1z1z"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8)


@settings(max_examples=examples(60, 1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=st.dictionaries(st.sampled_from(list(KEYS) + ["extra"]), _VALUES, max_size=4))
def test_generated_situations_agree(changes):
    if isinstance(changes.get("melds"), dict):   # READER_FAULTS["melds a dict"]
        changes["melds"] = list(changes["melds"])
    d = dict(BASE, **changes)
    got = {b: outcome(e, d) for b, e in ENGINES.items()}
    assert got["native"] == got["reference"], got
