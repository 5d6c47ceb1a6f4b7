"""mjrules.env.parallel_env: the PettingZoo Parallel environment. PettingZoo's parallel_api_test, then what it cannot
know: a seat that does not decide has the no-op alone in its mask, a hand played through it is the AEC
environment's hand with the same actions (same outcome, same reward sums), the rewards are the payments made in
each step, and an illegal action or a bad reset option raises and changes nothing."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from optional import need

need("pettingzoo")
need("gymnasium")

import mjrules
import mjrules.env as menv
from mjrules.compiler import SpecError
from mjrules.game import ACTION_IDS, IllegalAction

BASE = ("shangrao", "fuzhou_jiangxi", "fuzhou_fujian", "sichuan_xuezhan", "guangdong_tuidaohu")
SETTINGS = [(v, {}) for v in BASE] + [("sichuan_xuezhan", {"huan_san_zhang": True}),
                                      ("guangdong_tuidaohu", {"gui": "shuanggui"})]
IDS = [f"{v}{''.join(f'-{k}={x}' for k, x in o.items())}" for v, o in SETTINGS]


@pytest.mark.parametrize(("variant", "options"), SETTINGS, ids=IDS)
def test_pettingzoo_parallel_api_test(variant, options):
    from pettingzoo.test import parallel_api_test

    with warnings.catch_warnings():
        warnings.simplefilter("error")   # its warnings (a live agent given no observation, and the like) fail
        for seed in (0, 1, 2):
            parallel_api_test(menv.parallel_env(variant, seed=seed, **options), num_cycles=1000)


def _play(p: Any, rng: np.random.Generator, check: bool = True) -> tuple[dict[str, list[int]], dict[str, float]]:
    """Deal the parallel environment's next hand and play it to its end with random legal actions, checking each
    step's masks, infos and rewards; each seat's decisions in order, and each seat's reward sum."""
    obs, infos = p.reset()
    g, enc = p.game, p.encoding
    decisions: dict[str, list[int]] = {a: [] for a in p.possible_agents}
    sums = dict.fromkeys(p.possible_agents, 0.0)
    while p.agents:
        pending = g.pending()
        assert p.deciding() == [f"player_{s}" for s in pending] and pending
        for a, o in obs.items():
            seat = p.seat_of[a]
            legal = g.legal_ids(seat)
            if check:
                assert p.observation_space(a).contains(o)
                assert infos[a] == {"deciding": seat in pending}
            if seat in pending:
                assert sorted(enc.action_ids[o["action_mask"] == 1].tolist()) == sorted(legal)
            else:
                assert not legal and np.flatnonzero(o["action_mask"]).tolist() == [p.noop]
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        for a in p.deciding():
            decisions[a].append(actions[a])
        ledger = len(g.ledger)
        obs, rewards, term, trunc, infos = p.step(actions)
        assert set(obs) == set(rewards) == set(term) == set(trunc) == set(infos) == set(actions)
        assert sum(rewards.values()) == 0 and not any(trunc.values())
        if not g.over:   # the payments made in the step, seat by seat
            paid = dict.fromkeys(p.possible_agents, 0.0)
            for e in g.ledger[ledger:]:
                paid[f"player_{e['from']}"] -= e["amount"]
                paid[f"player_{e['to']}"] += e["amount"]
            assert rewards == paid and not any(term.values()) and p.agents == p.possible_agents
        else:
            assert all(term.values()) and not p.agents
            assert all(np.flatnonzero(o["action_mask"]).tolist() == [p.noop] for o in obs.values())
        for a, r in rewards.items():
            sums[a] += r
    return decisions, sums


def _without_log_order(state: dict) -> dict:
    """A game's state with its log as a multiset: the picks of an exchange are logged seat by seat in the AEC
    environment (each seat picks all its tiles in turn) and a pick a seat a step in the parallel one."""
    return {**state, "log": sorted(map(repr, state["log"]))}


@pytest.mark.parametrize(("variant", "options"), SETTINGS, ids=IDS)
def test_a_parallel_hand_is_the_aec_hand_with_the_same_actions(variant, options):
    for seed in (3, 4, 5):
        p = menv.parallel_env(variant, seed=seed, **options)
        e = menv.raw_env(variant, seed=seed, **options)
        e.reset()
        decisions, sums = _play(p, np.random.default_rng(seed))   # the hand the AEC environment dealt
        aec_sums = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            _, r, term, trunc, _ = e.last()
            aec_sums[agent] += r
            if term or trunc:
                e.step(None)
                continue
            e.step(decisions[agent].pop(0))
        assert not any(decisions.values())   # every decision of the parallel hand, and no other, was asked for
        assert p.game.outcome == e.game.outcome
        if options.get("huan_san_zhang"):
            assert _without_log_order(p.game.to_state()) == _without_log_order(e.game.to_state())
        else:
            assert p.game.to_state() == e.game.to_state()
        assert sums == aec_sums
        pay = p.game.outcome["payments"]
        assert sums == {f"player_{int(s)}": float(x) for s, x in pay.items()}


def test_payments_made_during_a_hand_are_rewarded_in_their_step():
    """sichuan_xuezhan pays a win as it happens (and play goes on): the reward comes in that step, and each seat's
    sum is still its net payment."""
    p = menv.parallel_env("sichuan_xuezhan", seed=0)
    early = 0
    for h in range(20):
        obs, _ = p.reset(seed=h)
        rng = np.random.default_rng(h)
        while p.agents:
            obs, rewards, term, _, _ = p.step({a: int(rng.choice(np.flatnonzero(o["action_mask"])))
                                               for a, o in obs.items()})
            early += any(rewards.values()) and not any(term.values())
    assert early > 0


def test_the_no_op_is_pass_in_every_variant():
    for v in BASE:
        p = menv.parallel_env(v)
        assert p.noop == int(p.encoding.index_of[ACTION_IDS["pass"]])
        assert int(p.encoding.action_ids[p.noop]) == ACTION_IDS["pass"]
        assert p.action_space("player_0") == menv.raw_env(v).action_space("player_0")   # the AEC's spaces
        assert p.observation_space("player_0") == menv.raw_env(v).observation_space("player_0")


def test_the_exchange_picks_one_tile_a_step():
    p = menv.parallel_env("sichuan_xuezhan", seed=1, huan_san_zhang=True)
    obs, infos = p.reset()
    for _ in range(3):   # the exchange: every seat picks three tiles, one a step
        assert p.game.phase_name == "exchange" and all(i["deciding"] for i in infos.values())
        obs, *_, infos = p.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()})
    assert p.game.phase_name != "exchange"


# ---- illegal actions -------------------------------------------------------------------------------------------
def snapshot(p: Any) -> tuple:
    """Everything a step may change: the game's whole state, the generator's, the live agents, the rewards."""
    return p.game.to_state(), p.rng.bit_generator.state, list(p.agents), list(p._rewarded), p._ledger_seen


def _at_a_claim(variant: str = "shangrao") -> tuple[Any, dict[str, Any]]:
    """A parallel environment at a decision of two seats or more (a discard several seats may claim), and its
    observations."""
    p = menv.parallel_env(variant, seed=0)
    rng = np.random.default_rng(0)
    for h in range(30):
        obs, _ = p.reset(seed=h)
        while p.agents:
            if len(p.deciding()) > 1:
                return p, obs
            obs, *_ = p.step({a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()})
    pytest.fail("no decision of several seats in 30 hands")


def _legal(obs: dict[str, Any]) -> dict[str, int]:
    return {a: int(np.flatnonzero(o["action_mask"])[-1]) for a, o in obs.items()}


def test_an_illegal_action_raises_and_changes_nothing():
    p, obs = _at_a_claim()
    deciding = p.deciding()
    idle = next(a for a in p.agents if a not in deciding)
    good = _legal(obs)
    n = p.encoding.n_actions
    off = int(np.flatnonzero(obs[deciding[-1]]["action_mask"] == 0)[0])
    before = snapshot(p)
    # (the actions, the exception, a fragment of its message): the first deciding seat's action is legal, so a
    # step that plays nothing leaves it unplayed too
    cases = [({**good, deciding[-1]: off}, IllegalAction, f"{deciding[-1]}: action {off} is not legal now"),
             ({**good, idle: 0 if p.noop else 1}, IllegalAction, f"{idle} does not decide now"),
             ({**good, idle: float(p.noop)}, IllegalAction, f"{idle}: an action is an integer 0..{n - 1}"),
             ({**good, deciding[-1]: str(good[deciding[-1]])}, IllegalAction, "an action is an integer"),
             ({**good, deciding[-1]: True}, IllegalAction, "an action is an integer"),
             ({**good, deciding[-1]: None}, IllegalAction, "an action is an integer"),
             ({**good, deciding[-1]: [good[deciding[-1]]]}, IllegalAction, "an action is an integer"),
             ({**good, deciding[-1]: n}, IllegalAction, f"0..{n - 1}, not {n}"),
             ({**good, deciding[-1]: 10 ** 30}, IllegalAction, "an integer of 31 digits"),
             ({**good, deciding[-1]: np.float32(1.5)}, IllegalAction, "numpy.float32"),
             ({a: x for a, x in good.items() if a != idle}, ValueError, f"none for {idle}"),
             ({**good, "player_9": p.noop}, ValueError, "not one for 'player_9'"),
             ({**good, 0: p.noop}, ValueError, "not one for 0"),
             (list(good.values()), ValueError, "actions are a dict of one action per live agent"),
             (None, ValueError, "actions are a dict")]
    for actions, exc, fragment in cases:
        with pytest.raises(exc) as info:
            p.step(actions)
        msg = str(info.value)
        assert type(info.value) is exc and fragment in msg and "\n" not in msg and len(msg) < 300, msg
        assert snapshot(p) == before
    p.step({**good, deciding[0]: np.int64(good[deciding[0]]), idle: np.array(p.noop)})   # NumPy integers are actions
    assert snapshot(p) != before


def test_stepping_before_reset_or_after_the_hand_raises():
    p = menv.parallel_env("guangdong_tuidaohu", seed=2)
    with pytest.raises(IllegalAction, match="call reset"):
        p.step({a: p.noop for a in p.possible_agents})
    _play(p, np.random.default_rng(0), check=False)
    with pytest.raises(IllegalAction, match="the hand is over: call reset"):
        p.step({})
    obs, _ = p.reset()
    assert p.agents == p.possible_agents and set(obs) == set(p.agents)


# ---- reset options and seeds --------------------------------------------------------------------------------
# (name, options, None when accepted else a fragment of the ValueError's message): as the AEC environment's
RESET_CASES: list[tuple[str, Any, str | None]] = [
    ("streak_huge", {"dealer_streak": 10 ** 30}, "'dealer_streak' must be a count 0..99"),
    ("streak_negative", {"dealer_streak": -5}, "not -5"),
    ("streak_past_cap", {"dealer_streak": 100}, "0..99"),
    ("streak_float", {"dealer_streak": 2.0}, "'dealer_streak'"),
    ("streak_str", {"dealer_streak": "3"}, "'dealer_streak'"),
    ("streak_bool", {"dealer_streak": True}, "'dealer_streak'"),
    ("dealer_str", {"dealer": "1"}, "'dealer' must be a seat 0..3"),
    ("dealer_float", {"dealer": 1.9}, "not 1.9"),
    ("dealer_past_seats", {"dealer": 4}, "'dealer'"),
    ("dealer_negative", {"dealer": -1}, "'dealer'"),
    ("dealer_array_1d", {"dealer": np.array([1])}, "'dealer'"),
    ("unknown_key", {"foo": 1}, "unknown reset option 'foo': the options are 'dealer', 'dealer_streak'"),
    ("unknown_beside_good", {"dealer": 1, "seed": 3}, "unknown reset option 'seed'"),
    ("options_a_list", [("dealer", 1)], "reset options are a dict"),
    ("options_a_string", "dealer=1", "reset options are a dict"),
    # accepted
    ("none", None, None), ("empty", {}, None), ("dealer", {"dealer": 2}, None),
    ("streak_cap", {"dealer_streak": 99}, None), ("dealer_none", {"dealer": None}, None),
    ("both_numpy", {"dealer": np.int8(3), "dealer_streak": np.uint16(4)}, None),
    ("pettingzoo_probe", {"options": 1}, None),   # parallel_api_test's probe that reset takes options: ignored
]


@pytest.mark.parametrize("name,options,refused", RESET_CASES, ids=[c[0] for c in RESET_CASES])
def test_reset_options_are_the_aec_envs(name, options, refused):
    p = menv.parallel_env("shangrao", seed=5)
    e = menv.raw_env("shangrao", seed=5)
    obs, _ = p.reset(seed=5)
    p.step(_legal(obs))
    before = snapshot(p)
    if refused is not None:
        with pytest.raises(ValueError) as info:
            p.reset(seed=9, options=options)
        msg = str(info.value)
        assert type(info.value) is ValueError and refused in msg and "\n" not in msg and len(msg) < 300, msg
        assert snapshot(p) == before
        with pytest.raises(ValueError) as aec:
            e.reset(seed=9, options=options)
        assert str(aec.value) == msg
        return
    obs, infos = p.reset(seed=9, options=options)
    e.reset(seed=9, options=options)
    assert p.game.to_state() == e.game.to_state()
    assert all(p.observation_space(a).contains(o) for a, o in obs.items()) and set(infos) == set(p.agents)
    want = {k: x for k, x in (options or {}).items() if k != "options"}
    if want.get("dealer") is not None:
        assert p.game.dealer == int(want["dealer"])
    assert p.game.dealer_streak == int(want.get("dealer_streak", 0))


def test_seeds_deal_the_same_hands_and_play_the_same():
    """The constructor's seed on the first reset, reset(seed=...) after; two environments with one seed and one
    policy play alike (PettingZoo's parallel_seed_test samples actions without their mask, which this
    environment refuses)."""
    a, b = menv.parallel_env("fuzhou_fujian", seed=7), menv.parallel_env("fuzhou_fujian", seed=7)
    for seed in (None, 8, None):
        (oa, ia), (ob, ib) = a.reset(seed=seed), b.reset(seed=seed)
        assert a.game.to_state() == b.game.to_state() and ia == ib
        ra, rb = np.random.default_rng(1), np.random.default_rng(1)
        while a.agents:
            assert all(np.array_equal(oa[x][k], ob[x][k]) for x in oa for k in oa[x])
            step_a = a.step({x: int(ra.choice(np.flatnonzero(o["action_mask"]))) for x, o in oa.items()})
            step_b = b.step({x: int(rb.choice(np.flatnonzero(o["action_mask"]))) for x, o in ob.items()})
            oa, ob = step_a[0], step_b[0]
            assert step_a[1:] == step_b[1:]
        assert not b.agents
    c = menv.raw_env("fuzhou_fujian", seed=7)
    c.reset()
    d = menv.parallel_env("fuzhou_fujian", seed=7)
    d.reset()
    assert c.game.to_state() == d.game.to_state()


# ---- the rest ----------------------------------------------------------------------------------------------------
def test_bad_input_is_one_clear_error():
    with pytest.raises(SpecError, match="unknown variant 'nonexistent'"):
        menv.parallel_env("nonexistent")
    with pytest.raises(ValueError, match="unknown option 'bogus'"):
        menv.parallel_env("shangrao", bogus=1)
    with pytest.raises(ValueError, match="render_mode"):
        menv.parallel_env("shangrao", render_mode="rgb_array")


def test_options_backend_and_engine_are_taken_as_the_aec_envs():
    p = menv.parallel_env("sichuan_xuezhan", huan_san_zhang=True, backend="reference")
    assert p.encoding.action_ids.tolist() == menv.raw_env("sichuan_xuezhan", huan_san_zhang=True).encoding \
        .action_ids.tolist()
    engine = mjrules.load("guangdong_tuidaohu")
    assert menv.parallel_env(engine).engine is engine


def test_render_is_text():
    p = menv.parallel_env("shangrao", seed=1, render_mode="ansi")
    p.reset()
    text = p.render()
    assert text.splitlines()[0].startswith("shangrao: turn,") and "> seat " in text and "may: discard" in text
    assert menv.parallel_env("shangrao").render("ansi") == "(no hand dealt: call reset())"
    with pytest.raises(ValueError, match="render_mode"):
        p.render("rgb_array")
