"""Game-flow rules as scenarios (tests/scenarios/*.json): dealt hands, wall order and actions, played on
both backends; each file's "expect" holds the outcome worked out by hand from ../shared/rules."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from mjrules.game.scenario import ScenarioError, load_scenario, play_scenario

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(load, path):
    sc = load_scenario(path.read_text(encoding="utf-8"))
    g = play_scenario(load(sc["variant"]), sc)
    exp = sc["expect"]
    o = g.outcome
    assert [[w["seat"], w["pattern"], w["value"]] for w in o["winners"]] == exp["winners"]
    assert {str(p): x for p, x in o["payments"].items()} == exp["payments"]   # (JSON keys: strings)
    assert sum(o["payments"].values()) == 0
    assert o["next_dealer"] == exp["next_dealer"]
    if "next_streak" in exp:
        assert o["next_streak"] == exp["next_streak"]
    for e in exp.get("events", []):
        assert e in g.events
    assert all(p["rule"] for p in o["ledger"] if p.get("from") is not None), "every payment names its rule"


BASE = json.loads((Path(__file__).parent / "scenarios" / "jx_qianggang.json").read_text(encoding="utf-8"))


def variant_of(d: dict) -> dict:
    return {k: v for k, v in BASE.items() | d.items()}


@pytest.mark.parametrize("change,message", [
    ({"hands": ["123m"]}, "'hands' lists 4 hands"),
    ({"hands": ["147m8m369s1234z77z", "2589m147p258s566z", "123m456m789s55p35z", "234m678m34p111s99s"]},
     "hands[0] has 13 tiles; seat 0 is dealt 14"),
    ({"wall": "9p2s3s5p6s5p"}, "5 copies of 5p"),
    ({"wall": "9x"}, "wall: "),
    ({"actions": [{"seat": 1, "type": "discard", "tile": "5p"}]}, "action 1 (seat 1 discard 5p): seat 1: discard 5p is not legal now"),
    ({"actions": [{"seat": 0, "type": "discard", "tile": "9p"}]}, "action 1 (seat 0 discard 9p): seat 0: discard 9p is not legal"),
    ({"actions": [{"seat": 0, "type": "discard", "tile": "5p"}, {"seat": 2, "type": "chi", "tiles": ["4p", "6p"]}]},
     "action 2"),
    ({"actions": ["discard"]}, "action 1: an action is"),
    ({"options": {"nope": True}}, "unknown option 'nope'"),
    ({"then": "none", "actions": []}, "the actions ran out"),
])
def test_bad_scenarios(load, change, message):
    sc = dict(BASE)
    sc.update(change)
    with pytest.raises(ScenarioError) as e:
        play_scenario(load(sc["variant"]), sc)
    assert message in str(e.value)


def test_malformed_json():
    with pytest.raises(ScenarioError, match="line 1: not valid JSON"):
        load_scenario("{nope")
    with pytest.raises(ScenarioError, match="unknown scenario key"):
        load_scenario('{"hands": [], "colour": 1}')
