"""A result's read-only parts (mjrules.model.frozen): they behave as the plain lists and dicts they stand for, in
every way but changing; thaw gives plain, independent copies."""
from __future__ import annotations

import copy
import json
import pickle

import mjrules
import pytest
from mjrules import FrozenDict, FrozenList, thaw
from mjrules.model.frozen import freeze

HANDS = [
    ("shangrao", {"concealed": "123m456m789p234s7z9s*", "win_tile": "7z", "wild": "9s"}),
    ("fuzhou_jiangxi", {"concealed": "11122233345699m", "win_tile": "9m"}),
    ("fuzhou_fujian", {"concealed": "123m456m789m234p57s7p*7p*6s", "win_tile": "6s", "wild": "7p", "flowers": "f8"}),
    ("shangrao", {"concealed": "1m4m7m2p5p8p3s6s1z2z3z4z5z9m", "win_tile": "9m", "wild": "9s"}),   # loses
]


def _kinds(x):
    """x's structure with each container's type name: two values with the same _kinds have the same types."""
    if isinstance(x, dict):
        return type(x).__name__, {k: _kinds(y) for k, y in x.items()}
    if isinstance(x, list):
        return type(x).__name__, [_kinds(y) for y in x]
    return x


@pytest.mark.parametrize("backend", ["native", "reference"])
@pytest.mark.parametrize("variant,situation", HANDS)
def test_frozen_parts_behave_as_plain(variant, situation, backend):
    r = mjrules.load(variant, backend=backend).evaluate(situation)
    parts = {k: r[k] for k in ("reading", "explain") if r[k] is not None}
    assert "explain" in parts and (("reading" in parts) == r["win"])
    for x in parts.values():
        plain = thaw(x)
        assert type(plain) in (list, dict) and x == plain and plain == x and repr(x) == repr(plain)
        assert json.loads(json.dumps(x)) == json.loads(json.dumps(plain))
        for back in (pickle.loads(pickle.dumps(x)), copy.deepcopy(x), copy.copy(x)):
            assert _kinds(back) == _kinds(x), "a copy keeps the frozen types"
        assert _kinds(freeze(plain)) == _kinds(x), "freeze undoes thaw"
        assert not any(type(y) in (FrozenList, FrozenDict) for y in _walk(plain))
        (plain.append if isinstance(plain, list) else plain.update)(*([1] if isinstance(plain, list) else [{"k": 1}]))
        assert plain != x, "a thawed copy changes on its own"


def _walk(x):
    yield x
    for y in (x.values() if isinstance(x, dict) else x if isinstance(x, list) else ()):
        yield from _walk(y)


LIST_CHANGES = ["x.append(1)", "x.extend([1])", "x.insert(0, 1)", "x.pop()", "x.remove(1)", "x.clear()", "x.sort()",
                "x.reverse()", "x[0] = 5", "del x[0]", "x[0:1] = []", "x += [1]", "x *= 2"]
DICT_CHANGES = ["x['a'] = 2", "x.update(a=2)", "x.setdefault('b', 1)", "x.pop('a')", "x.popitem()", "del x['a']",
                "x |= {'b': 1}", "x.clear()"]


@pytest.mark.parametrize("make,change", [(lambda: FrozenList([1, [2]]), c) for c in LIST_CHANGES]
                         + [(lambda: FrozenDict({"a": 1}), c) for c in DICT_CHANGES])
def test_every_change_is_refused(make, change):
    x = make()
    before = repr(x)
    with pytest.raises(TypeError, match="read-only"):
        exec(change, {"x": x})
    assert repr(x) == before
