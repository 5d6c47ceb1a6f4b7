"""The RL environments (mjrules.env) against hostile actions and reset options: an action is an integer of the
action space (a Python int, not a bool, or a NumPy integer scalar or 0-d integer array, in 0..A-1) and is played;
anything else raises mjrules.game.IllegalAction and changes nothing, in every environment and either `illegal`
mode. Reset options are "dealer" (a seat) and "dealer_streak" (0..99), integers; anything else raises ValueError
naming the option, before anything changes.

Once played or the wrong exception (issue #61): `gym_env(illegal="raise").step(33.9)`, `step('33')`,
`step(' 33 \\n')` and `step(np.float32(33.5))` played action 33; the PettingZoo env took '33' and 33.99, and True
played action 1; `step(float('inf'))` raised OverflowError. `reset(options={"dealer_streak": 10**30})` raised
OverflowError; `{"dealer_streak": -5}` was accepted (and the observation then fell outside its space), and so
were `{"dealer": "1"}`, `{"dealer": 1.9}` and unknown keys.
"""
from __future__ import annotations

import decimal
import fractions
from typing import Any

import numpy as np
import pytest
from optional import need

need("pettingzoo")
need("gymnasium")

import mjrules
import mjrules.env as menv
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from mjrules.game import IllegalAction
from strategies import examples

ENGINE = mjrules.load("shangrao")
SEED = 5


# ---- the environments, each at a decision of a seeded hand -------------------------------------------------
def _aec(wrapped: bool) -> Any:
    e = (menv.env if wrapped else menv.raw_env)(ENGINE, seed=SEED)
    e.reset(seed=SEED)
    return e


def _gym(illegal: str) -> Any:
    g = menv.gym_env(ENGINE, seed=SEED, opponents="random", illegal=illegal)
    g.reset(seed=SEED)
    return g


MAKERS = {"aec": lambda: _aec(False), "aec_wrapped": lambda: _aec(True), "gym_raise": lambda: _gym("raise"),
          "gym_random": lambda: _gym("random")}


def snapshot(e: Any) -> tuple:
    """Everything a step may change: the game's whole state, the generator's, who is to act, the rewards."""
    u = e.unwrapped
    if isinstance(u, menv.MahjongEnv):
        return (u.game.to_state(), u.rng.bit_generator.state, u.agent_selection, dict(u._cumulative_rewards),
                dict(u.terminations))
    return u.game.to_state(), u.np_random.bit_generator.state


def legal(e: Any) -> list[int]:
    u = e.unwrapped
    if isinstance(u, menv.MahjongEnv):
        return np.flatnonzero(u.observe(u.agent_selection)["action_mask"]).tolist()
    return np.flatnonzero(u.action_masks()).tolist()


def step(e: Any, action: Any) -> None:
    e.step(action)


# ---- actions ------------------------------------------------------------------------------------------------
# (name, the action made from a legal index `a` and the space's size `n`): each is not an action of Discrete(n)
REFUSED: list[tuple[str, Any]] = [
    ("float_fraction", lambda a, n: a + 0.9), ("float_whole", lambda a, n: float(a)),
    ("float_just_below", lambda a, n: a + 0.99), ("str_digits", lambda a, n: str(a)),
    ("str_padded", lambda a, n: f" {a} \n"), ("np_float32", lambda a, n: np.float32(a + 0.5)),
    ("np_float64_whole", lambda a, n: np.float64(a)), ("np_float16", lambda a, n: np.float16(a)),
    ("inf", lambda a, n: float("inf")), ("minus_inf", lambda a, n: float("-inf")), ("nan", lambda a, n: float("nan")),
    ("np_inf", lambda a, n: np.float32("inf")), ("true", lambda a, n: True), ("false", lambda a, n: False),
    ("np_bool", lambda a, n: np.bool_(True)), ("none", lambda a, n: None), ("list", lambda a, n: [a]),
    ("tuple", lambda a, n: (a,)), ("dict", lambda a, n: {"action": a}), ("bytes", lambda a, n: str(a).encode()),
    ("complex", lambda a, n: complex(a, 0)), ("np_complex", lambda a, n: np.complex64(a)),
    ("decimal", lambda a, n: decimal.Decimal(a)), ("fraction", lambda a, n: fractions.Fraction(a)),
    ("np_str", lambda a, n: np.str_(str(a))), ("array_1d", lambda a, n: np.array([a])),
    ("array_2d", lambda a, n: np.array([[a]])), ("array_0d_float", lambda a, n: np.array(float(a))),
    ("array_0d_bool", lambda a, n: np.array(True)), ("array_0d_object", lambda a, n: np.array(a, dtype=object)),
    ("np_datetime", lambda a, n: np.datetime64(a, "s")), ("np_timedelta", lambda a, n: np.timedelta64(a, "s")),
    ("minus_one", lambda a, n: -1), ("n", lambda a, n: n), ("np_int_n", lambda a, n: np.int16(n)),
    ("huge", lambda a, n: 10 ** 30), ("huge_negative", lambda a, n: -10 ** 30),
    ("5000_digits", lambda a, n: 10 ** 5000),
    ("np_uint64_max", lambda a, n: np.uint64(2 ** 64 - 1)), ("np_int64_min", lambda a, n: np.int64(-2 ** 63)),
    ("object", lambda a, n: object()), ("a_type", lambda a, n: int),
]
# (name, the action made from a legal index `a`): each is `a`, an action of Discrete(n), and is played as `a`
ACCEPTED: list[tuple[str, Any]] = [
    ("int", lambda a: a), ("np_int8", lambda a: np.int8(a)), ("np_uint8", lambda a: np.uint8(a)),
    ("np_int16", lambda a: np.int16(a)), ("np_uint32", lambda a: np.uint32(a)), ("np_int64", lambda a: np.int64(a)),
    ("np_uint64", lambda a: np.uint64(a)), ("array_0d", lambda a: np.array(a)),
    ("array_0d_uint8", lambda a: np.array(a, dtype=np.uint8)), ("space_sample_type", lambda a: np.int64(a)),
]


@pytest.mark.parametrize("env_kind", list(MAKERS))
@pytest.mark.parametrize("name,make", REFUSED, ids=[c[0] for c in REFUSED])
def test_an_action_not_in_the_space_is_refused_and_changes_nothing(env_kind, name, make):
    e = MAKERS[env_kind]()
    n = e.unwrapped.encoding.n_actions
    a = legal(e)[-1]
    action = make(a, n)
    before = snapshot(e)
    with pytest.raises(IllegalAction) as info:
        step(e, action)
    msg = str(info.value)
    assert f"0..{n - 1}" in msg and "\n" not in msg and len(msg) < 300, msg
    assert snapshot(e) == before
    step(e, a)   # and the environment plays on
    assert snapshot(e) != before


@pytest.mark.parametrize("env_kind", list(MAKERS))
@pytest.mark.parametrize("name,make", ACCEPTED, ids=[c[0] for c in ACCEPTED])
def test_an_integer_of_the_space_is_played(env_kind, name, make):
    e, twin = MAKERS[env_kind](), MAKERS[env_kind]()
    a = legal(e)[-1]
    step(e, make(a))
    step(twin, a)
    assert snapshot(e) == snapshot(twin)
    space = e.action_space(e.agent_selection) if env_kind.startswith("aec") else e.action_space
    # Gymnasium's Discrete.contains agrees, but for uint64, which it refuses (no safe cast to int64): every NumPy
    # integer is taken here, as a whole number in range is plainly meant
    assert space.contains(make(a)) or name == "np_uint64"


@pytest.mark.parametrize("env_kind", ["aec", "gym_raise"])
def test_an_action_outside_the_mask_raises_and_changes_nothing(env_kind):
    e = MAKERS[env_kind]()
    n = e.unwrapped.encoding.n_actions
    off = min(set(range(n)) - set(legal(e)))
    before = snapshot(e)
    for action in (off, np.int32(off), np.array(off)):
        with pytest.raises(IllegalAction):
            step(e, action)
        assert snapshot(e) == before


def test_gym_random_mode_replaces_an_action_of_the_space_only():
    """illegal="random" replaces an action of the space outside the mask; an action not of the space raises."""
    g = _gym("random")
    n = g.encoding.n_actions
    off = min(set(range(n)) - set(legal(g)))
    _, _, _, _, info = g.step(np.int64(off))
    assert info == {"illegal": True}
    before = snapshot(g)
    for bad in (float(legal(g)[0]), str(legal(g)[0]), n, -1, True):
        with pytest.raises(IllegalAction):
            g.step(bad)
        assert snapshot(g) == before


# ---- the vector environment's action arrays -------------------------------------------------------------------
TABLES = 3


def _vector(illegal: str = "random") -> Any:
    v = menv.vector_env(ENGINE, TABLES, opponents="random", seed=SEED, illegal=illegal)
    v.reset(seed=SEED)
    return v


def vsnapshot(v: Any) -> list:
    return [snapshot(e) for e in v.envs]


def vlegal(v: Any) -> list[int]:
    return [int(np.flatnonzero(m)[-1]) for m in v.action_masks()]


# (name, actions made from the tables' legal indices, the exception, a fragment of its message)
VECTOR_REFUSED: list[tuple[str, Any, type, str]] = [
    ("float_array", lambda a: np.array(a, dtype=np.float64), IllegalAction, "dtype float64"),
    ("float32_fraction", lambda a: np.array(a, dtype=np.float32) + 0.5, IllegalAction, "dtype float32"),
    ("bool_array", lambda a: np.ones(TABLES, dtype=bool), IllegalAction, "dtype bool"),
    ("object_array", lambda a: np.array(a, dtype=object), IllegalAction, "dtype object"),
    ("str_list", lambda a: [str(x) for x in a], IllegalAction, "dtype <U"),
    ("mixed_list", lambda a: [a[0], str(a[1]), a[2]], IllegalAction, "dtype <U"),
    ("float_list", lambda a: [x + 0.9 for x in a], IllegalAction, "dtype float64"),
    ("none_list", lambda a: [None] * TABLES, IllegalAction, "dtype object"),
    ("out_of_range", lambda a: [a[0], a[1], 10 ** 6], IllegalAction, "table 2"),
    ("negative", lambda a: [a[0], -1, a[2]], IllegalAction, "table 1"),
    ("huge_list", lambda a: [a[0], a[1], 10 ** 30], IllegalAction, "dtype object"),
    ("uint64_max", lambda a: np.array([a[0], a[1], 2 ** 64 - 1], dtype=np.uint64), IllegalAction, "table 2"),
    ("short", lambda a: a[:2], ValueError, "shape (3,)"), ("long", lambda a: a + [a[0]], ValueError, "shape (3,)"),
    ("2d", lambda a: [a], ValueError, "shape (3,)"), ("scalar", lambda a: a[0], ValueError, "shape (3,)"),
    ("ragged", lambda a: [[a[0]], [a[1], a[2]], a[2]], ValueError, "shape (3,)"),
    ("none", lambda a: None, ValueError, "shape (3,)"),
]
VECTOR_ACCEPTED: list[tuple[str, Any]] = [
    ("int_list", lambda a: list(a)), ("int64_array", lambda a: np.array(a, dtype=np.int64)),
    ("uint8_array", lambda a: np.array(a, dtype=np.uint8)), ("int16_array", lambda a: np.array(a, dtype=np.int16)),
    ("tuple_of_numpy_ints", lambda a: tuple(np.int32(x) for x in a)),
]


@pytest.mark.parametrize("name,make,exc,fragment", VECTOR_REFUSED, ids=[c[0] for c in VECTOR_REFUSED])
def test_vector_actions_not_of_the_space_are_refused_before_any_table_moves(name, make, exc, fragment):
    v = _vector()
    before = vsnapshot(v)
    with pytest.raises(exc) as info:
        v.step(make(vlegal(v)))
    assert type(info.value) is exc and fragment in str(info.value), str(info.value)
    assert vsnapshot(v) == before


@pytest.mark.parametrize("name,make", VECTOR_ACCEPTED, ids=[c[0] for c in VECTOR_ACCEPTED])
def test_vector_integer_actions_are_played(name, make):
    v, twin = _vector(), _vector()
    a = vlegal(v)
    v.step(make(a))
    twin.step(np.array(a, dtype=np.int64))
    assert vsnapshot(v) == vsnapshot(twin)


def test_vector_raise_mode_checks_every_table_before_any_moves():
    v = _vector("raise")
    a = vlegal(v)
    off = min(set(range(v.encoding.n_actions)) - set(np.flatnonzero(v.action_masks()[2]).tolist()))
    before = vsnapshot(v)
    with pytest.raises(IllegalAction, match="table 2: action"):
        v.step([a[0], a[1], off])
    assert vsnapshot(v) == before


def test_vector_reset_takes_one_seed_per_table():
    """A list of seeds shorter or longer than the tables was cut to fit, silently (zip)."""
    v = _vector()
    before = vsnapshot(v)
    for seeds in ([1, 2], [1, 2, 3, 4], []):
        with pytest.raises(ValueError, match=r"one seed per table \(3\)"):
            v.reset(seed=seeds)
        assert vsnapshot(v) == before
    v.reset(seed=[1, 2, 3])


# ---- reset options --------------------------------------------------------------------------------------------
# (name, options, None when accepted else a fragment of the ValueError's message)
RESET_CASES: list[tuple[str, Any, str | None]] = [
    ("streak_huge", {"dealer_streak": 10 ** 30}, "'dealer_streak' must be a count 0..99"),
    ("streak_5000_digits", {"dealer_streak": 10 ** 5000}, "'dealer_streak'"),
    ("streak_negative", {"dealer_streak": -5}, "not -5"),
    ("streak_past_cap", {"dealer_streak": 100}, "0..99"),
    ("streak_float", {"dealer_streak": 2.0}, "'dealer_streak'"),
    ("streak_nan", {"dealer_streak": float("nan")}, "'dealer_streak'"),
    ("streak_inf", {"dealer_streak": float("inf")}, "'dealer_streak'"),
    ("streak_str", {"dealer_streak": "3"}, "'dealer_streak'"),
    ("streak_bool", {"dealer_streak": True}, "'dealer_streak'"),
    ("streak_none", {"dealer_streak": None}, "'dealer_streak'"),
    ("dealer_str", {"dealer": "1"}, "'dealer' must be a seat 0..3"),
    ("dealer_float", {"dealer": 1.9}, "not 1.9"),
    ("dealer_whole_float", {"dealer": 1.0}, "'dealer'"),
    ("dealer_np_float", {"dealer": np.float64(1)}, "'dealer'"),
    ("dealer_bool", {"dealer": True}, "not True"),
    ("dealer_past_seats", {"dealer": 4}, "'dealer'"),
    ("dealer_negative", {"dealer": -1}, "'dealer'"),
    ("dealer_huge", {"dealer": 2 ** 64}, "'dealer'"),
    ("dealer_list", {"dealer": [1]}, "'dealer'"),
    ("dealer_array_1d", {"dealer": np.array([1])}, "'dealer'"),
    ("unknown_key", {"foo": 1}, "unknown reset option 'foo': the options are 'dealer', 'dealer_streak'"),
    ("misspelt_key", {"Dealer": 1}, "unknown reset option 'Dealer'"),
    ("int_key", {1: 2}, "unknown reset option 1"),
    ("unknown_beside_good", {"dealer": 1, "seed": 3}, "unknown reset option 'seed'"),
    ("pettingzoo_probe", {"options": 1}, "unknown reset option 'options'"),   # but the AEC env: see below
    ("options_a_list", [("dealer", 1)], "reset options are a dict"),
    ("options_a_string", "dealer=1", "reset options are a dict"),
    ("options_an_int", 3, "reset options are a dict"),
    # accepted
    ("none", None, None), ("empty", {}, None), ("dealer", {"dealer": 2}, None),
    ("streak", {"dealer_streak": 7}, None), ("streak_cap", {"dealer_streak": 99}, None),
    ("both_numpy", {"dealer": np.int8(3), "dealer_streak": np.uint16(4)}, None),
    ("array_0d", {"dealer": np.array(1), "dealer_streak": np.array(0)}, None),
    ("dealer_none", {"dealer": None}, None),
]


def _reset(e: Any, options: Any) -> Any:
    u = e.unwrapped
    if isinstance(u, menv.MahjongEnv):
        e.reset(seed=9, options=options)
        return u.observe(u.agent_selection), u.observation_space(u.agent_selection)
    obs, _ = e.reset(seed=9, options=options)
    return obs, (e.single_observation_space if hasattr(e, "single_observation_space") else e.observation_space)


@pytest.mark.parametrize("env_kind", ["aec", "gym_raise", "vector"])
@pytest.mark.parametrize("name,options,refused", RESET_CASES, ids=[c[0] for c in RESET_CASES])
def test_reset_options(env_kind, name, options, refused):
    if name == "pettingzoo_probe" and env_kind == "aec":
        refused = None   # PettingZoo's api_test resets with options={"options": 1}: the AEC env ignores that key
    e = _vector() if env_kind == "vector" else MAKERS[env_kind]()
    games = e.envs if env_kind == "vector" else [e.unwrapped]
    before = vsnapshot(e) if env_kind == "vector" else snapshot(e)
    if refused is not None:
        with pytest.raises(ValueError) as info:
            _reset(e, options)
        msg = str(info.value)
        assert type(info.value) is ValueError and refused in msg and "\n" not in msg and len(msg) < 300, msg
        assert (vsnapshot(e) if env_kind == "vector" else snapshot(e)) == before
        return
    obs, space = _reset(e, options)
    rows = [{k: x[i] for k, x in obs.items()} for i in range(TABLES)] if env_kind == "vector" else [obs]
    assert all(space.contains(o) for o in rows)
    want = {k: x for k, x in (options or {}).items() if k != "options"}
    for u in games:
        if want.get("dealer") is not None:
            assert u.game.dealer == int(want["dealer"])
        assert u.game.dealer_streak == int(want.get("dealer_streak", 0))


# ---- a property: any value is either refused, changing nothing, or an integer of the space that is played -------
def _is_action(x: Any, n: int) -> bool:
    """The definition, restated: a Python int (not a bool), or a NumPy integer (by dtype, so not a timedelta64)
    scalar or 0-d array, in 0..n-1."""
    if isinstance(x, bool) or not isinstance(x, (int, np.generic, np.ndarray)):
        return False
    if not isinstance(x, int) and (x.shape != () or x.dtype.kind not in "iu"):
        return False
    return 0 <= int(x) < n


_SMALL = st.integers(-3, 80)
_NUMPY = (hnp.arrays(hnp.scalar_dtypes() | hnp.byte_string_dtypes() | hnp.unicode_string_dtypes(), ())
          | hnp.arrays(hnp.integer_dtypes() | hnp.unsigned_integer_dtypes(), (), elements=st.integers(0, 80)))
VALUES = st.one_of(
    _SMALL, st.integers(), st.integers(-2 ** 80, 2 ** 80), st.sampled_from([10 ** 30, -10 ** 30, 2 ** 63, 2 ** 64]),
    st.floats(), _SMALL.map(float), st.text(max_size=6), _SMALL.map(str), st.booleans(), st.none(),
    st.lists(_SMALL, max_size=3), st.tuples(_SMALL), st.binary(max_size=3), st.complex_numbers(),
    st.decimals(allow_nan=False, allow_infinity=False) | _SMALL.map(decimal.Decimal), st.fractions(),
    _NUMPY, _NUMPY.map(lambda arr: arr[()]),   # 0-d arrays and NumPy scalars of every dtype
    hnp.arrays(hnp.scalar_dtypes(), st.integers(1, 2)),
)


@settings(max_examples=examples(300, 5000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(env_kind=st.sampled_from(list(MAKERS)), value=VALUES)
def test_any_action_value_is_refused_unchanged_or_played(env_kind, value):
    e = MAKERS[env_kind]()
    n = e.unwrapped.encoding.n_actions
    before = snapshot(e)
    try:
        step(e, value)
    except IllegalAction as err:
        assert "\n" not in str(err) and len(str(err)) < 300, str(err)
        assert snapshot(e) == before
        assert not _is_action(value, n) or (int(value) not in legal(e) and env_kind != "gym_random")
        event("refused: not of the space" if not _is_action(value, n) else "refused: outside the mask")
        return
    assert _is_action(value, n), f"played {value!r} ({type(value).__name__})"
    event("played")
    twin = MAKERS[env_kind]()
    step(twin, int(value))
    assert snapshot(e) == snapshot(twin)


@settings(max_examples=examples(60, 1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.one_of(st.none(), st.dictionaries(st.sampled_from(["dealer", "dealer_streak", "seed", "x"]),
                                                    VALUES, max_size=3)))
def test_any_reset_options_are_refused_unchanged_or_in_the_observation_space(options):
    g = _gym("raise")
    before = snapshot(g)
    try:
        obs, _ = g.reset(seed=1, options=options)
    except ValueError as err:
        assert type(err) is ValueError and "\n" not in str(err) and len(str(err)) < 300, str(err)
        assert snapshot(g) == before
        event("refused")
        return
    event("accepted")
    opts = options or {}
    assert set(opts) <= {"dealer", "dealer_streak"}
    assert g.observation_space.contains(obs)
    if opts.get("dealer") is not None:
        assert _is_action(opts["dealer"], 4) and g.game.dealer == int(opts["dealer"])
    assert g.game.dealer_streak == int(opts.get("dealer_streak", 0))
