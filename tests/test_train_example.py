"""The MaskablePPO example (docs/examples/train_maskable_ppo.py, docs/rl.md) runs end to end in a tiny version: a
few hundred steps of sb3-contrib's MaskablePPO on the Gymnasium environment, a policy with finite weights, and an
evaluation API that gives sensible, reproducible numbers on held-out seeded hands."""
from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

pytest.importorskip("gymnasium", reason="needs the 'rl' extra (gymnasium is not installed): pip install 'mjrules[rl]'")
pytest.importorskip("sb3_contrib", reason="the train extra (sb3-contrib, with stable-baselines3 and torch) is not "
                                          "installed: pip install 'mjrules[train]'")

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "train_maskable_ppo.py"


@pytest.fixture(scope="module")
def ppo():
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _sensible(e, hands):
    assert e["hands"] == hands and math.isfinite(e["mean"]) and math.isfinite(e["sem"]) and e["sem"] >= 0
    assert 0 <= e["win_rate"] <= 1


def test_a_tiny_training_run(ppo, tmp_path):
    import torch

    out = tmp_path / "curve.png" if importlib.util.find_spec("matplotlib") else None
    r = ppo.main(timesteps=256, points=2, eval_hands=6, envs=4, out=str(out) if out else None, quiet=True,
                 n_steps=32, batch_size=64)
    assert [p["timesteps"] for p in r["curve"]] == [0, 128, 256]
    for e in (*r["curve"], r["random"], r["greedy"]):
        _sensible(e, 6)
    model = r["model"]
    assert model.num_timesteps == 256
    assert all(torch.isfinite(p).all() for p in model.policy.parameters()), "the policy's weights are finite"
    if out:
        assert out.stat().st_size > 1000 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_evaluation_is_seeded_and_held_out(ppo):
    a = ppo.evaluate(ppo.VARIANT, "random", ppo.random_choice, 8)
    b = ppo.evaluate(ppo.VARIANT, "random", ppo.random_choice, 8)
    assert a == b and a["seed"] == ppo.EVAL_SEED, "the same held-out hands give the same numbers"
    _sensible(a, 8)
    greedy = ppo.evaluate(ppo.VARIANT, "random", ppo.greedy_choice(ppo.VARIANT), 20)
    _sensible(greedy, 20)
    assert greedy["win_rate"] > a["win_rate"], "the reference agent wins where random play does not"


def test_the_flat_observation_is_what_the_policy_sees(ppo):
    import numpy as np

    env = ppo.make_env(seed=3)
    obs, _ = env.reset()
    assert env.observation_space.contains(obs) and obs.dtype == np.float32
    mask = env.action_masks()
    assert mask.dtype == bool and mask.any()
    assert np.array_equal(obs[-len(mask):].astype(bool), mask), "the mask is the observation's last part"
