"""The deal's dice: the seating procedure's throws that choose the first dealer (撫州's 叫莊, JX-04; 转转's ZZ-25),
set by a scenario or play_match and logged in the first hand's header; the wall break's two dice, set by
Game(dice=) or a scenario, in the start event, in every seat's view, and replayed from the log."""
from __future__ import annotations

import json

import pytest
from mjrules.game import Game, log_lines, play_hand, play_match, replay_lines, seating_throws
from mjrules.game.scenario import ScenarioError, play_scenario


@pytest.mark.parametrize("variant,dice,dealer", [
    ("zhuanzhuan", [[3, 4]], 2),        # thrower_counts_one: seat 0 counts 7 from itself: seat (7 - 1) mod 4
    ("zhuanzhuan", [[1, 1]], 1),
    ("zhuanzhuan", [[6, 6]], 3),
    ("fuzhou_jiangxi", [[2, 3]], 0),    # JX-04 叫莊, the same procedure: a 5 comes back to the thrower
])
def test_the_seating_throws_choose_the_dealer(load, variant, dice, dealer):
    v = load(variant).variant
    got = seating_throws(v, 0, dice)
    assert got["procedure"] == "thrower_counts_one"
    assert got["throws"] == [{"seat": 0, "dice": dice[0]}] and got["dealer"] == dealer


def test_highest_roll_throws_again_on_a_tie(load):
    v = load("shangrao").variant
    assert v.seating[0].name == "highest_roll"        # SR-03
    got = seating_throws(v, 0, [[6, 6], [6, 6], [1, 1], [2, 2], [3, 3], [4, 4]])
    assert [t["seat"] for t in got["throws"]][:4] == [0, 1, 2, 3]
    assert got["dealer"] == 1          # seats 0 and 1 tie at 12; then 3 + 3 against 4 + 4


def test_without_dice_the_seed_decides_as_before(load):
    v = load("zhuanzhuan").variant
    from mjrules.game import first_dealer

    for seed in range(20):
        got = seating_throws(v, seed)
        assert got["dealer"] == first_dealer(v, seed)
        (a, b), = [t["dice"] for t in got["throws"]]
        assert got["dealer"] == (a + b - 1) % 4


@pytest.mark.parametrize("dice", [[[0, 3]], [[7, 1]], [[1]], [["1", 2]]])
def test_bad_seating_dice_are_refused(load, dice):
    with pytest.raises(ValueError, match="pairs of numbers 1..6"):
        seating_throws(load("zhuanzhuan").variant, 0, dice)


def test_a_match_logs_its_seating(load):
    eng = load("zhuanzhuan")
    m = play_match(eng, hands=2, agents=["greedy"], seed=3, seating_dice=[[3, 4]])
    assert m["seating"] == {"procedure": "thrower_counts_one", "throws": [{"seat": 0, "dice": [3, 4]}], "dealer": 2}
    first = m["hands"][0]
    assert first.dealer == 2
    header = json.loads(log_lines(first)[0])
    assert header["seating"] == m["seating"]
    assert "seating" not in json.loads(log_lines(m["hands"][1])[0])
    assert replay_lines(eng, log_lines(first))["identical"]


def test_the_wall_break_dice_are_seen_and_replayed(load):
    eng = load("zhuanzhuan")
    g = Game(eng, seed=5, dice=[2, 5])
    assert g.dice == [2, 5]
    assert g.events[0]["dice"] == [2, 5]
    assert all(g.view(p)["dice"] == [2, 5] for p in range(4))
    plain = Game(eng, seed=5)
    assert plain.wall == g.wall                         # the dice change where the wall is opened, nothing else
    h = play_hand(eng, ["greedy"], seed=5, dice=[6, 6])
    lines = log_lines(h)
    assert json.loads(lines[0])["dice"] == [6, 6]
    assert replay_lines(eng, lines)["identical"]


@pytest.mark.parametrize("dice", [[0, 1], [1, 2, 3], "12", [1.0, 2]])
def test_bad_wall_dice_are_refused_and_nothing_is_made(load, dice):
    with pytest.raises(ValueError, match="dice are two numbers 1..6"):
        Game(load("zhuanzhuan"), dice=dice)


SC = {"variant": "zhuanzhuan", "hands": ["1m1m4p4p7s7s2m9p3s6m8p1s5s9m", "3m6m9m3p6p2s5s9s1p1p2p4m8m",
                                         "123m456m789m77p6s5z", "2m5m8m1s4s7s9s5p7p3m6m2s8p"],
      "wall": "2p8s5p4s6p", "then": "pass"}


def test_a_scenario_sets_the_dice(load):
    eng = load("zhuanzhuan")
    hands = [SC["hands"][1], SC["hands"][2], SC["hands"][0], SC["hands"][3]]   # seat 2 deals: its 14 tiles
    sc = {**SC, "hands": hands, "seating_dice": [[3, 4]], "dice": [1, 6]}
    g = play_scenario(eng, sc)
    assert g.dealer == 2 and g.seating["dealer"] == 2
    assert g.events[0]["dice"] == [1, 6]
    assert json.loads(log_lines(g)[0])["seating"]["throws"] == [{"seat": 0, "dice": [3, 4]}]


@pytest.mark.parametrize("change,message", [
    ({"seating_dice": [[3, 4]], "dealer": 0}, "seating dice make seat 2 the dealer"),
    ({"seating_dice": [3, 4]}, "'seating_dice' is a list of throws"),
    ({"seating_dice": [[3, 9]]}, "seating_dice"),
    ({"dice": [9, 9]}, "dice are two numbers"),
])
def test_bad_scenario_dice(load, change, message):
    with pytest.raises(ScenarioError, match=message):
        play_scenario(load("zhuanzhuan"), {**SC, **change})
