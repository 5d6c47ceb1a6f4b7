"""Both back ends read the API's arguments through one validation: the same bad argument gets the same error
(type and message) from each, a NumPy integer is read wherever an int is, and nothing is cast silently."""
from __future__ import annotations

import numpy as np
import pytest

import mjrules
from mjrules import SituationError

FJ = "fuzhou_fujian"   # 17 tiles, a gold (wild) per hand: wild kind 26 is 9s
# 123456777m 789p 2345s: 16 tiles, a complete hand with one gold
HAND = bytes([1, 1, 1, 1, 1, 1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
ROW = np.frombuffer(HAND, np.uint8)
SIT = {"concealed": "123m456m789m234p567s99s", "win_tile": "9s", "wild": "7p"}
_ENGINES: dict[str, object] = {}


def engine(backend: str):
    if backend not in _ENGINES:
        _ENGINES[backend] = mjrules.load(FJ, backend=backend)
    return _ENGINES[backend]


def outcome(call):
    try:
        got = call()
    except Exception as e:  # noqa: BLE001 - the outcome is the error
        return "raises", type(e).__name__, str(e)
    return "ok", got.tolist() if isinstance(got, np.ndarray) else got


# (what, call, expected outcome: ("ok", value) or (exception type name, a part of the message))
CASES = [
    ("plain", lambda e: e.is_win(HAND, 1, 26), ("ok", True)),
    ("wild by name", lambda e: e.is_win(HAND, 1, "9s"), ("ok", True)),
    ("a pair where a hand has one wild kind", lambda e: e.is_win(HAND, 1, ("8s", "9s")),
     ("ValueError", "wild: 2 kinds, but a hand of this variant has at most 1")),
    ("NumPy wilds and wild", lambda e: e.is_win(HAND, np.int64(1), np.uint8(26)), ("ok", True)),
    ("NumPy row", lambda e: e.is_win(ROW, 1, 26), ("ok", True)),
    ("NumPy int64 row", lambda e: e.is_win(ROW.astype(np.int64), 1, 26), ("ok", True)),
    ("list of ints", lambda e: e.is_win(list(HAND), 1, 26), ("ok", True)),
    ("list of NumPy ints", lambda e: e.is_win([np.int32(x) for x in HAND], 1, 26), ("ok", True)),
    ("float wilds", lambda e: e.is_win(HAND, 1.5, 26), ("ValueError", "wilds must be a non-negative integer")),
    ("whole float wilds", lambda e: e.is_win(HAND, 1.0, 26), ("ValueError", "wilds must be a non-negative integer")),
    ("bool wilds", lambda e: e.is_win(HAND, True, 26), ("ValueError", "wilds must be a non-negative integer")),
    ("float wild", lambda e: e.is_win(HAND, 1, 26.0), ("ValueError", "wild: expected a kind index")),
    ("huge wilds", lambda e: e.is_win(HAND, 2 ** 64, 26), ("ValueError", "wilds, but this variant has 3")),
    ("negative wilds", lambda e: e.is_win(HAND, -1, 26), ("ValueError", "wilds must be a non-negative integer")),
    ("huge wild", lambda e: e.is_win(HAND, 1, 2 ** 64), ("ValueError", "cannot be the wild kind")),
    ("negative wild", lambda e: e.is_win(HAND, 1, -3), ("ValueError", "kind -3 cannot be the wild kind")),
    ("bad wild name", lambda e: e.is_win(HAND, 1, "9x"), ("ValueError", "unexpected character 'x'")),
    ("bool counts", lambda e: e.is_win([bool(x) for x in HAND], 1, 26), ("ValueError", "non-negative integers")),
    ("float counts", lambda e: e.is_win([float(x) for x in HAND], 1, 26), ("ValueError", "non-negative integers")),
    ("short counts", lambda e: e.is_win(HAND[:30], 1, 26), ("ValueError", "34 non-negative integers")),
    ("a count too many", lambda e: e.is_win(b"\x05" + HAND[1:], 1, 26), ("ValueError", "5 tiles of 1m")),
    ("hand_value, NumPy", lambda e: e.hand_value(ROW, np.int8(1), np.int16(26)), ("ok", (32, "平胡"))),
    ("hand_value, float wilds", lambda e: e.hand_value(HAND, 0.5, 26), ("ValueError", "wilds must be")),
    ("wait_kinds, list", lambda e: e.wait_kinds(list(HAND), 0, 26), ("ok", [19, 22, 26])),   # (16 tiles, no gold)
    ("wait_kinds, float wilds", lambda e: e.wait_kinds(HAND, 0.0, 26), ("ValueError", "wilds must be")),
    ("wait_kinds, complete hand", lambda e: e.wait_kinds(HAND, 1, 26), ("ValueError", "pre-draw")),
    ("batch", lambda e: e.check_batch(np.array([ROW]), [1], 26), ("ok", [True])),
    ("batch, NumPy wild", lambda e: e.check_batch(np.array([ROW]), [1], np.int64(26)), ("ok", [True])),
    ("batch, float counts", lambda e: e.check_batch(np.array([ROW], dtype=float) + 0.9, [1], 26),
     ("ValueError", "counts must be an array of integers, not float64")),
    ("batch, bool counts", lambda e: e.check_batch(np.array([ROW]).astype(bool), [1], 26),
     ("ValueError", "counts must be an array of integers, not bool")),
    ("batch, float wilds", lambda e: e.check_batch(np.array([ROW]), [1.0], 26),
     ("ValueError", "wilds must be an array of integers")),
    ("batch, a row's wild beyond int32", lambda e: e.check_batch(np.array([ROW, ROW]), [1, 1], np.array([26, 2 ** 32 + 26])),
     ("ValueError", "row 1: kind 4294967322 cannot be the wild kind")),
    ("batch, a row's wild below -1", lambda e: e.check_batch(np.array([ROW]), [1], np.array([-2])),
     ("ValueError", "row 0: kind -2 cannot be the wild kind")),
    ("batch, a row's kinds padded with -1", lambda e: e.check_batch(np.array([ROW, ROW]), [1, 1], np.array([[26, -1], [-1, 26]])),
     ("ok", [True, True])),
    ("batch, two kinds where a hand has one", lambda e: e.check_batch(np.array([ROW, ROW]), [1, 1], np.array([[26, -1], [25, 26]])),
     ("ValueError", "row 1: wild: 2 kinds, but a hand of this variant has at most 1")),
    ("batch, a pair for every row where a hand has one kind", lambda e: e.check_batch(np.array([ROW]), [1], (25, 26)),
     ("ValueError", "wild: 2 kinds, but a hand of this variant has at most 1")),
    ("batch, a tuple of one kind", lambda e: e.check_batch(np.array([ROW]), [1], ("9s",)), ("ok", [True])),
    ("batch on two threads names the row", lambda e: e.check_batch(
        np.array([ROW] * 3999 + [[5] * 34]), np.ones(4000, np.uint8), 26, threads=2),
     ("ValueError", "row 3999: 5 tiles of 1m")),
    ("batch, threads not a number", lambda e: e.check_batch(np.array([ROW]), [1], 26, threads="2"),
     ("ValueError", "threads must be a whole number of at least 1")),
    ("batch, no threads", lambda e: e.check_batch(np.array([ROW]), [1], 26, threads=0),
     ("ValueError", "threads must be a whole number of at least 1")),
    ("batch, NumPy threads", lambda e: e.check_batch(np.array([ROW]), [1], 26, threads=np.int64(2)), ("ok", [True])),
    ("waits of None", lambda e: e.waits(None), ("SituationError", "a situation is a JSON object")),
    ("ready of a list", lambda e: e.ready([]), ("SituationError", "a situation is a JSON object")),
    ("distance of None", lambda e: e.distance(None), ("SituationError", "a situation is a JSON object")),
    ("evaluate of None", lambda e: e.evaluate(None), ("SituationError", "a situation is a JSON object")),
    ("a NumPy seat", lambda e: e.evaluate(dict(SIT, seat=np.int64(1), win_by="discard", discarder=np.int8(2)))["win"],
     ("ok", True)),
    ("a NumPy bool is no flag", lambda e: e.evaluate(dict(SIT, first_turn=np.bool_(True))),
     ("SituationError", "'first_turn' must be true or false")),
    ("a float seat", lambda e: e.evaluate(dict(SIT, seat=1.0)), ("SituationError", "'seat' must be a whole number")),
    ("a NumPy number option", lambda e: e.evaluate(dict(SIT, options={"loss_cap_per_hand": np.int64(5)}))["win"],
     ("ok", True)),
]


@pytest.mark.parametrize("what,call,want", CASES, ids=[c[0] for c in CASES])
def test_both_back_ends_read_arguments_alike(what, call, want):
    nat, ref = outcome(lambda: call(engine("native"))), outcome(lambda: call(engine("reference")))
    assert nat == ref
    if want[0] == "ok":
        assert nat == want
    else:
        assert nat[:2] == ("raises", want[0]) and want[1] in nat[2], nat
    if nat[0] == "raises" and nat[1] == "SituationError":
        assert issubclass(SituationError, ValueError)
