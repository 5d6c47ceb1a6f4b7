"""The native backend reads plain situation dicts in C (runtime/_situation.pxi): whatever it accepts must be
exactly what situation_from_dict builds, and it must accept nothing situation_from_dict refuses."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjrules
from mjrules import SituationError
from mjrules.native import _import_core
from mjrules.situation import KEYS, situation_from_dict
from mjrules.tiles import TileError, parse_tiles

from strategies import examples, situations
from test_situations import BAD

VARIANTS = ("shangrao", "fuzhou_jiangxi", "fuzhou_fujian")
core = _import_core()
ODD = [None, True, False, 0, 1, 2, -1, 3, 99, 10_001, 1.0, "", "9s", "9s*", "9*s", "f1", "1z", " 3s", "x", "一萬",
       [], ["9s"], ["[555p]"], ["[555p] [666p]"], ["{1111m}"], "[555p]", {}, {"x": 1}, (1,), "self_draw",
       "discard", "rob_kong", "dealt", "rob_gold", 2 ** 70]


def engine(name: str) -> mjrules.engine.Engine:
    return mjrules.load(name, backend="native")


def python_path(v, d, pre_draw=False):
    try:
        return situation_from_dict(v, d, pre_draw=pre_draw)
    except SituationError:
        return None


def agree(e, d, pre_draw=False) -> bool:
    """The reader's answer stands: None, or the Situation situation_from_dict builds, field by field in order."""
    got = e._reader.read(d, pre_draw)
    if got is None:
        return False
    want = python_path(e.variant, d, pre_draw)
    assert want is not None, d
    assert got == want and list(got.__dict__.items()) == list(want.__dict__.items()), d
    assert type(got) is type(want)
    return True


@st.composite
def mutated(draw, v, d):
    d = dict(d)
    for _ in range(draw(st.integers(0, 3))):
        what = draw(st.integers(0, 4))
        key = draw(st.sampled_from(KEYS))
        if what == 0:
            d.pop(key, None)
        elif what == 1:
            d[key] = draw(st.sampled_from(ODD))
        elif what == 2:
            d["colour"] = 1
        elif what == 3 and isinstance(d.get("concealed"), str):
            d["concealed"] = draw(st.sampled_from(["", " ", "\t", "*", "0", "8z", "f9", "m", "1", "9s*"])).join(
                d["concealed"].split(" ", 1))
        elif what == 4 and type(d.get("flowers")) is list and all(type(x) is str for x in d["flowers"]):
            d["flowers"] = "".join(d["flowers"])
    return d


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=examples(400, 5000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_reader_is_situation_from_dict(name, data):
    e = engine(name)
    plain = data.draw(situations(e.variant))
    if "options" not in plain and python_path(e.variant, plain) is not None:
        assert agree(e, plain), plain  # not a reader that refuses everything: plain legal dicts are read in C
    d = data.draw(mutated(e.variant, plain))
    agree(e, d)
    pre = {k: x for k, x in d.items() if k != "win_tile"}
    agree(e, pre, pre_draw=True)


@pytest.mark.parametrize("case", BAD, ids=[b[0] for b in BAD])
def test_reader_refuses_the_bad_situations(case):
    _, name, d, _, _ = case
    e = engine(name)
    if python_path(e.variant, d) is None:  # (a missing win_tile is evaluate's to refuse)
        assert e._reader.read(d) is None


ALPHABET = "1234567890mpszf* \t"


@settings(max_examples=examples(3000, 30000), deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=30) | st.lists(st.sampled_from(
    ["1m", "99p", "123s", "7z", "8z", "0m", "9s*", "9*s", "*", "f1", "f9", " ", "12", "m", "3p", "5z*", "**",
     "1p*", "9z"]), max_size=40).map("".join))
def test_scan_is_the_tile_parser(text):
    got = core.scan_ascii(text)
    try:
        want = [(t.kind, t.wild) for t in parse_tiles(text)]
    except TileError:
        want = None
    if got is not None:
        assert got == want
    elif want is not None:
        assert "\t" in text or len(want) > 64  # the only texts the C scanner leaves to Python


@pytest.mark.parametrize("field", ["wild", "win_tile"])
def test_one_tile_kind(field):
    """A one-tile field read in C ('7p' straight off its characters, other spellings from the tile table) is
    what situation_from_dict reads, for every spelling of every tile and for texts that are none."""
    from mjrules.tiles import _ONE_TILE

    e = engine("shangrao")
    base = {"concealed": "123m456m789p234s77z", "win_tile": "7z"} if field == "wild" else \
        {"concealed": "123m456m789p234s77z"}
    odd = ["0m", "0z", "8z", "9z", "1x", "m1", "10m", "1mm", "1M", " 1m", "1m ", "f0", "f9", "１m", "1ｍ", "", "z"]
    accepted = 0
    for text in [*_ONE_TILE, *odd]:
        d = dict(base, **{field: text})
        if field == "win_tile":
            d["concealed"] = "123m456m789p234s7z" + (text if text in _ONE_TILE and not text.startswith("f") else "")
        want = python_path(e.variant, d)
        got = e._reader.read(d)
        if got is not None:
            assert want is not None and list(got.__dict__.items()) == list(want.__dict__.items()), d
            accepted += 1
        elif want is not None and len(text) == 2 and text[1] in "mpsz":
            pytest.fail(f"the reader declined {d}, which situation_from_dict reads")
    assert accepted >= 34
