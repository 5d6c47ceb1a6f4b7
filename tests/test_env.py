"""mjrules.env: the PettingZoo AEC, Gymnasium and vector environments of every shipped variant, on the game's step
API. PettingZoo's and Gymnasium's own checkers, then what they cannot know: the action space holds every legal
action, the observation is the seat's view, rewards are the settlement, an illegal action changes nothing."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from optional import need

need("pettingzoo")
need("gymnasium")

import mjrules
import mjrules.env as menv
from mjrules.compiler import SpecError
from mjrules.game import IllegalAction

BASE = ("shangrao", "fuzhou_jiangxi", "fuzhou_fujian", "sichuan_xuezhan", "guangdong_tuidaohu")
# every base variant, and option values that change what a seat may do (an exchange, honour chows, wilds)
SETTINGS = [(v, {}) for v in BASE] + [("sichuan_xuezhan", {"huan_san_zhang": True}),
                                      ("fuzhou_jiangxi", {"honour_chows": True}),
                                      ("guangdong_tuidaohu", {"gui": "none"}),
                                      ("guangdong_tuidaohu", {"gui": "shuanggui"})]
IDS = [f"{v}{''.join(f'-{k}={x}' for k, x in o.items())}" for v, o in SETTINGS]


@pytest.mark.parametrize("variant", BASE)
def test_pettingzoo_api_and_seed_tests(variant):
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # its advice for plain Box observations (ours are Dicts with a mask)
        api_test(menv.env(variant, seed=0), num_cycles=300)
        seed_test(lambda: menv.env(variant, seed=0), num_cycles=300)


@pytest.mark.parametrize("variant", BASE)
def test_gymnasium_check_env(variant):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # "no spec to test other render modes": made directly, not by make()
        check_env(menv.gym_env(variant, seed=0, render_mode="ansi"), skip_render_check=False)


def _random_hands(e, hands, seed):
    """Play hands of the AEC environment with random legal actions; yield (env, agent, observation) at every
    decision, and the environment at every hand's end."""
    rng = np.random.default_rng(seed)
    for h in range(hands):
        e.reset(seed=seed + h)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            yield agent, obs
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize(("variant", "options"), SETTINGS, ids=IDS)
def test_the_mask_is_the_legal_actions_and_the_observation_the_seats_view(variant, options):
    e = menv.raw_env(variant, **options)
    enc, space = e.encoding, e.observation_space("player_0")
    seen = set()
    for agent, obs in _random_hands(e, 6, 100):
        g, seat = e.game, e.seat_of[agent]
        assert seat == g.to_act
        legal = sorted(g.legal_ids(seat))
        assert sorted(enc.action_ids[obs["action_mask"] == 1].tolist()) == legal
        seen.update(legal)
        assert space.contains(obs), (variant, dict(zip(enc.feature_names, obs["observation"])))
        view = g.observe(seat)
        assert obs["observation"][:len(enc.kinds)].tolist() == view["hand"][enc.kinds].tolist()
    assert seen <= set(enc.action_ids.tolist())
    if options.get("huan_san_zhang"):
        assert any(a >= mjrules.game.ACTION_IDS["select"] for a in seen)


def test_the_spaces_follow_the_variant():
    sizes = {v: menv.raw_env(v).encoding for v in BASE}
    assert len(sizes["sichuan_xuezhan"].kinds) == 27 and len(sizes["shangrao"].kinds) == 34
    assert len(sizes["fuzhou_fujian"].kinds) == 27 and len(sizes["fuzhou_fujian"].flower_kinds) == 15
    assert not sizes["fuzhou_jiangxi"].has_wild and sizes["shangrao"].has_wild
    ids = {v: set(e.action_ids.tolist()) for v, e in sizes.items()}
    A = mjrules.game.ACTION_IDS
    assert A["chi_low"] not in ids["sichuan_xuezhan"] and A["chi_low"] in ids["shangrao"]
    assert A["declare_ready"] in ids["fuzhou_jiangxi"] and A["declare_ready"] not in ids["shangrao"]
    assert A["rob_gold"] in ids["fuzhou_fujian"] and A["choose"] in ids["sichuan_xuezhan"]
    assert A["discard"] + 27 not in ids["sichuan_xuezhan"]     # no honours to discard
    assert not menv.raw_env("guangdong_tuidaohu", gui="none").encoding.has_wild


@pytest.mark.parametrize("variant", BASE)
def test_an_aec_hand_is_the_games_hand_and_rewards_are_its_payments(variant):
    e = menv.raw_env(variant, seed=5)
    e.reset()
    g0 = e.game
    replay = mjrules.load(variant).new_game(seed=g0.seed, dealer=g0.dealer)
    rng = np.random.default_rng(1)
    rewards = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, r, term, _, _ = e.last()
        rewards[agent] += r
        if term:
            e.step(None)
            continue
        i = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        replay.act(e.seat_of[agent], int(e.encoding.action_ids[i]))
        e.step(i)
    assert g0.over and replay.over and replay.to_state() == g0.to_state()
    pay = g0.outcome["payments"]
    assert rewards == {f"player_{int(p)}": float(x) for p, x in pay.items()}
    assert sum(rewards.values()) == 0 and not e.agents


def test_simultaneous_decisions_are_taken_in_play_order():
    e = menv.raw_env("shangrao", seed=0)
    for agent, obs in _random_hands(e, 30, 7):
        pending = list(e.game.pending())
        if len(pending) > 1:   # a discard several seats may claim: each in turn, the first in play order first
            assert agent == f"player_{pending[0]}"
            others = [e.observe(f"player_{p}") for p in pending[1:]]
            assert all(o["action_mask"].any() for o in others)   # they see their own choices, not the answer
            return
    pytest.fail("no decision of several seats in 30 hands")


def test_an_illegal_action_raises_and_changes_nothing():
    e = menv.env("fuzhou_fujian", seed=3)
    e.reset()
    agent = e.agent_selection
    obs = e.observe(agent)
    before = e.unwrapped.game.to_state()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for action in (bad, -1, e.action_space(agent).n, "x"):
        with pytest.raises(IllegalAction):
            e.step(action)
    assert e.unwrapped.game.to_state() == before and e.agent_selection == agent


def test_bad_input_is_one_clear_error():
    with pytest.raises(SpecError, match="unknown variant 'nonexistent'"):
        menv.env("nonexistent")
    with pytest.raises(ValueError, match="unknown option 'bogus'"):
        menv.env("shangrao", bogus=1)
    with pytest.raises(ValueError, match="seat must be a seat 0..3"):
        menv.gym_env("shangrao", seat=4)
    with pytest.raises(ValueError, match="unknown agent 'smart'"):
        menv.gym_env("shangrao", opponents="smart")
    with pytest.raises(ValueError, match="render_mode"):
        menv.env("shangrao", render_mode="rgb_array")
    with pytest.raises(ValueError, match="num_envs"):
        menv.vector_env("shangrao", 0)


def test_a_missing_extra_names_its_pip_command():
    from mjrules.extras import MissingExtra, require

    with pytest.raises(MissingExtra, match=r"pip install 'mjrules\[rl\]'"):
        require("no_such_module_for_mjrules", "rl", "mjrules.env")


def test_render_is_text():
    e = menv.env("shangrao", seed=1, render_mode="ansi")
    e.reset()
    text = e.render()
    assert text.splitlines()[0].startswith("shangrao: turn,") and "> seat " in text and "may: discard" in text


@pytest.mark.parametrize("variant", ["shangrao", "sichuan_xuezhan"])
def test_gym_env_plays_its_seat_against_agents(variant):
    g = menv.gym_env(variant, seat=2, opponents=["greedy", "random", "seeker"], seed=4, illegal="raise")
    obs, _ = g.reset()
    total, steps = 0.0, 0
    rng = np.random.default_rng(0)
    while True:
        assert g.game.to_act == 2 and obs["action_mask"].any()
        assert g.action_masks().tolist() == (obs["action_mask"] == 1).tolist()
        obs, r, term, _, _ = g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += r
        steps += 1
        if term:
            break
    pay = g.game.outcome["payments"]
    assert total == float(pay.get(2, pay.get("2", 0)))
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0]) if not g.game.over else 0
    with pytest.raises(IllegalAction):
        g.step(bad)


def test_gym_env_replaces_an_illegal_action_and_says_so():
    g = menv.gym_env("shangrao", seed=2, opponents="random")
    obs, _ = g.reset()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, _, _, _, info = g.step(bad)
    assert info == {"illegal": True}


def test_vector_env_steps_tables_at_once_and_deals_again():
    v = menv.vector_env("guangdong_tuidaohu", 8, opponents="random", seed=11)
    w = menv.vector_env("guangdong_tuidaohu", 8, opponents="random", seed=11)
    obs, _ = v.reset()
    assert obs["observation"].shape == (8, v.encoding.size) and obs["action_mask"].shape == (8, v.encoding.n_actions)
    assert v.observation_space.contains(obs)
    np.testing.assert_array_equal(w.reset()[0]["observation"], obs["observation"])
    rng = np.random.default_rng(0)
    ended, payments = 0, 0.0
    for _ in range(300):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, r, term, trunc, info = v.step(acts)
        obs2, r2, *_ = w.step(acts)
        np.testing.assert_array_equal(obs2["observation"], obs["observation"])   # seeded: the same tables
        np.testing.assert_array_equal(r2, r)
        assert not trunc.any() and (obs["action_mask"].sum(axis=1) > 0).all()   # every table has a decision
        if term.any():
            assert info["_final_obs"].tolist() == term.tolist()
            ended += int(term.sum())
        payments += float(r.sum())
    assert ended >= 8
    with pytest.raises(ValueError, match="one action per table"):
        v.step(np.zeros(3, dtype=int))


def test_the_training_example_runs_small_and_learns(tmp_path):
    """docs/examples/train_bc.py, tiny: it imitates the teacher better after training, and writes its plot."""
    import importlib.util
    from pathlib import Path

    need("matplotlib")
    path = Path(__file__).resolve().parents[1] / "docs" / "examples" / "train_bc.py"
    spec = importlib.util.spec_from_file_location("train_bc", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "curve.png"
    got = mod.main(hands=30, epochs=2, eval_hands=5, out=str(out), quiet=True)
    assert len(got["curve"]) == len(got["accuracy"]) == 3 and got["decisions"] > 100
    assert got["accuracy"][2] > got["accuracy"][0] + 0.2
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_gymnasium_registry_makes_the_environments():
    """gymnasium.make and make_vec know the environments (ENV_ID; "mjrules.env:" imports the module): the same
    hand, step by step, as gym_env's with the same seed; make_vec gives the vector environment itself."""
    import gymnasium

    with warnings.catch_warnings():
        warnings.simplefilter("error")   # Gymnasium's passive checker finds nothing to say
        made = gymnasium.make("mjrules.env:" + menv.ENV_ID, variant="guangdong_tuidaohu", opponents="random")
        direct = menv.gym_env("guangdong_tuidaohu", opponents="random")
        assert isinstance(made.unwrapped, menv.MahjongGymEnv)
        (a, _), (b, _) = made.reset(seed=3), direct.reset(seed=3)
        done = False
        steps = 0
        while not done:
            assert all(np.array_equal(a[k], b[k]) for k in b), steps
            action = int(np.flatnonzero(b["action_mask"])[-1])
            a, ra, done, _, _ = made.step(action)
            b, rb, done_b, _, _ = direct.step(action)
            assert (ra, done) == (rb, done_b)
            steps += 1
        assert steps > 5
    v = gymnasium.make_vec(menv.ENV_ID, num_envs=3, variant="sichuan_xuezhan", opponents="random", seed=0)
    assert isinstance(v, menv.MahjongVectorEnv) and v.num_envs == 3
    obs, _ = v.reset(seed=0)
    assert obs["action_mask"].shape[0] == 3
