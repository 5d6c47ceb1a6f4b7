"""The one situation reader (runtime/model/situation.py) and tile scanner (runtime/model/tiles.py) are compiled by setup.py
in Cython's pure-Python mode: the compiled modules must behave exactly as their source run as plain Python
(the same Situation, or the same error, message and key), as CPython's accelerators must pass the pure-Python
module's tests (PEP 399)."""
from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjrules
import mjrules.model.situation as compiled_situation
import mjrules.model.tiles as compiled_tiles
from strategies import examples, situations
from test_situations import BAD

VARIANTS = ("shangrao", "fuzhou_jiangxi", "fuzhou_fujian")
ODD = [None, True, False, 0, 1, 2, -1, 3, 99, 10_001, 1.0, "", "9s", "9s*", "9*s", "f1", "1z", " 3s", "x", "一萬",
       [], ["9s"], ["[555p]"], ["[555p] [666p]"], ["{1111m}"], "[555p]", {}, {"x": 1}, (1,), "self_draw",
       "discard", "rob_kong", "dealt", "rob_gold", 2 ** 70, {"gangkai_double": True}, {"qixing_bonus": 1}]


def _source(name: str):
    """runtime/model/<name>.py run as plain Python, as a module of the mjrules.model package (its relative imports
    find the installed, compiled modules)."""
    path = Path(mjrules.__file__).resolve().parent / "model" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"mjrules.model._source_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "mjrules.model"
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


pure_tiles = _source("tiles")
pure_situation = _source("situation")


def test_the_modules_are_compiled():
    """The speed of the native back end and of play rests on these modules being the compiled ones (setup.py's
    COMPILED builds them)."""
    import ast

    setup = ast.parse((Path(__file__).resolve().parents[1] / "setup.py").read_text(encoding="utf-8"))
    compiled = next(ast.literal_eval(n.value) for n in setup.body if isinstance(n, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in n.targets))
    assert {"mjrules.native.kernel", "mjrules.model.situation", "mjrules.model.settle", "mjrules.game.state"} <= set(compiled)
    for name in compiled:
        mod = importlib.import_module(name)
        assert mod.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), mod.__file__
    assert not pure_situation.cython.compiled


def outcome(mod, variant, d, pre_draw=False):
    try:
        s = mod.situation_from_dict(variant, d, pre_draw=pre_draw)
    except ValueError as e:   # SituationError (each module has its own class)
        return ("error", type(e).__name__, str(e), getattr(e, "key", None))
    return ("ok", list(s.__dict__.items()))


def agree(variant, d):
    for pre_draw in (False, True):
        if pre_draw:
            d = {k: x for k, x in d.items() if k != "win_tile"} if isinstance(d, dict) else d
        got, want = outcome(compiled_situation, variant, d, pre_draw), outcome(pure_situation, variant, d, pre_draw)
        assert got == want, d


@st.composite
def mutated(draw, d):
    d = dict(d)
    for _ in range(draw(st.integers(0, 3))):
        what = draw(st.integers(0, 4))
        key = draw(st.sampled_from(compiled_situation.KEYS))
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
@settings(max_examples=examples(300, 5000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_compiled_reader_is_its_source(name, data):
    v = mjrules.load(name, backend="reference").variant
    plain = data.draw(situations(v))
    agree(v, plain)
    agree(v, data.draw(mutated(plain)))


@pytest.mark.parametrize("case", BAD, ids=[b[0] for b in BAD])
def test_compiled_reader_refuses_as_its_source(case):
    _, name, d, message, key = case
    v = mjrules.load(name, backend="reference").variant
    got = outcome(compiled_situation, v, d)
    assert got == outcome(pure_situation, v, d)
    if got[0] == "error":   # (a missing win_tile is evaluate's to refuse)
        assert message in got[2] and got[3] == key


ALPHABET = "1234567890mpszf* \t\u3000一二九萬万筒條東中春"


@settings(max_examples=examples(3000, 30000), deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=30) | st.lists(st.sampled_from(
    ["1m", "99p", "123s", "7z", "8z", "0m", "9s*", "9*s", "*", "f1", "f9", " ", "12", "m", "3p", "5z*", "**",
     "1p*", "9z", "一萬", "東*", "九"]), max_size=40).map("".join))
def test_compiled_scanner_is_its_source(text):
    """Every reader of tiles goes through scan_into: the tiles, their positions and tokens, or the error, its
    position and token, are the source's."""
    def scanned(mod, fn):
        try:
            got = getattr(mod, fn)(text)
        except ValueError as e:
            return ("error", str(e), getattr(e, "pos", None), getattr(e, "token", None))
        if fn == "_scan":
            return [(tuple(item.tile), item.pos, item.token) for item in got]
        return [tuple(t) for t in got] if isinstance(got, list) else tuple(got)

    for fn in ("parse_tiles", "_scan", "parse_tile", "parse_melds"):
        assert scanned(compiled_tiles, fn) == scanned(pure_tiles, fn), (fn, text)


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=examples(100, 1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_situation_fields_round_trip(name, data):
    """Reader.read's Fields make the Situation situation_from_dict returns; fields() of that Situation are the
    same Fields (what the kernel reads of a dict and of a Situation)."""
    v = mjrules.load(name, backend="reference").variant
    d = data.draw(situations(v))
    try:
        f = compiled_situation.reader(v).read(d)
    except compiled_situation.SituationError:
        return
    s = f.situation()
    assert s == compiled_situation.situation_from_dict(v, d)
    g = compiled_situation.fields(s)
    attrs = ("seat", "dealer", "discarder", "wild_discards", "dealer_streak", "winners", "win_tile", "wild",
             "indicator", "by", "dealer_won", "first_turn", "first_discard", "declared_ready", "concealed",
             "flowers", "melds", "win_by", "options")
    assert [getattr(f, a) for a in attrs] == [getattr(g, a) for a in attrs]
