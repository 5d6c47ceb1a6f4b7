"""Reinforcement learning with a standard library: sb3-contrib's MaskablePPO learns to play one seat of a variant
through mjrules.env's Gymnasium environment (the other seats played by built-in agents), and is compared with the
random agent, and the greedy one, on the same held-out seeded hands at every point of its learning curve. Writes
the curve to a PNG.

    python docs/examples/train_maskable_ppo.py        # guangdong_tuidaohu against random agents: about 7 minutes
    python docs/examples/train_maskable_ppo.py --timesteps 200000 --eval-hands 300 --out curve.png   # about a minute

Needs `pip install 'mjrules[train]'`: the environments, sb3-contrib (which brings stable-baselines3 and PyTorch;
PyTorch's CPU build is enough, nothing here uses a GPU) and matplotlib for the curve.
"""
from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from mjrules.env import gym_env
from mjrules.game import GreedyAgent

VARIANT = "guangdong_tuidaohu"
OPPONENTS = "random"
EVAL_SEED = 100_000   # evaluation hand h is dealt by reset(seed=EVAL_SEED + h); training never seeds a hand itself

# MaskablePPO's settings: many small tables stepped together, short rollouts, one CPU thread.
PPO = {"n_steps": 64, "batch_size": 512, "n_epochs": 4, "learning_rate": 3e-4, "gamma": 1.0, "ent_coef": 0.01,
       "policy_kwargs": {"net_arch": [128, 128]}}

Choose = Callable[[Any, np.ndarray, np.ndarray, np.random.Generator], int]


class FlatObservation(gymnasium.ObservationWrapper):
    """The environment's dict observation as one float vector, what an MLP policy takes: the observation scaled by
    its bounds to -1..1, then the action mask (what is legal now: a win on offer, a claim). `action_masks()` is
    the environment's, which MaskablePPO asks for at every step."""

    def __init__(self, env: Any):
        super().__init__(env)
        enc = env.encoding
        self.scale = np.maximum(np.maximum(np.abs(enc.low), np.abs(enc.high)), 1).astype(np.float32)
        self.observation_space = gymnasium.spaces.Box(-1.0, 1.0, (enc.size + enc.n_actions,), np.float32)

    def observation(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        return np.concatenate([obs["observation"] / self.scale, obs["action_mask"].astype(np.float32)])

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()


def make_env(variant: str = VARIANT, opponents: Any = OPPONENTS, seed: int | None = None, **kw: Any) -> FlatObservation:
    """Seat 0 of the variant against the opponents, its observation flattened."""
    return FlatObservation(gym_env(variant, seat=0, opponents=opponents, seed=seed, **kw))


def evaluate(variant: str, opponents: Any, choose: Choose, hands: int, seed: int = EVAL_SEED) -> dict[str, Any]:
    """Seat 0 played by `choose(env, obs, mask, rng) -> action` on the held-out hands reset(seed=seed + h),
    h < hands: the mean net payment a hand, its standard error, and the share of hands seat 0 won."""
    env = make_env(variant, opponents, illegal="raise")
    rng = np.random.default_rng(seed)
    pay, won = [], 0
    for h in range(hands):
        obs, _ = env.reset(seed=seed + h)
        done, total = False, 0.0
        while not done:
            obs, reward, done, _, _ = env.step(choose(env, obs, env.action_masks(), rng))
            total += reward
        pay.append(total)
        won += any(w["seat"] == 0 for w in env.unwrapped.game.outcome["winners"])
    mean = float(np.mean(pay)) if pay else 0.0
    sem = float(np.std(pay, ddof=1) / math.sqrt(hands)) if hands > 1 else 0.0
    return {"mean": mean, "sem": sem, "win_rate": won / hands if hands else 0.0, "hands": hands, "seed": seed}


def random_choice(env: Any, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
    """The random agent: uniform among the legal actions."""
    return int(rng.choice(np.flatnonzero(mask)))


def greedy_choice(variant: str, seed: int = 0) -> Choose:
    """The built-in greedy agent at seat 0, for reference (it reads the game, as built-in agents do)."""
    agent = None

    def choose(env: Any, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        nonlocal agent
        inner = env.unwrapped
        agent = agent or GreedyAgent(inner.engine.variant, seed)
        return int(inner.encoding.index_of[agent.act(inner.game, 0)])

    return choose


def policy_choice(model: Any) -> Choose:
    """The trained policy: its most likely legal action."""
    def choose(env: Any, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    return choose


def make_model(variant: str = VARIANT, opponents: Any = OPPONENTS, envs: int = 32, seed: int = 0,
               **ppo: Any) -> Any:
    """MaskablePPO with an MLP policy on `envs` tables of the variant (table i seeded with seed + i)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)   # small networks: one thread is the fastest, and leaves the other cores alone
    tables = DummyVecEnv([lambda i=i: make_env(variant, opponents, seed + i) for i in range(envs)])
    return MaskablePPO("MlpPolicy", tables, seed=seed, verbose=0, **{**PPO, **ppo})


def main(variant: str = VARIANT, opponents: Any = OPPONENTS, timesteps: int = 1_000_000, points: int = 10,
         eval_hands: int = 1000, envs: int = 32, out: str | None = "learning-curve.png", seed: int = 0,
         quiet: bool = False, **ppo: Any) -> dict[str, Any]:
    """Train for `timesteps` learner decisions, evaluating the policy on `eval_hands` held-out hands before training
    and after each of `points` equal stretches; returns the curve, the baselines and the model."""
    say = (lambda *a: None) if quiet else print
    t0 = time.perf_counter()
    baselines = {"random": evaluate(variant, opponents, random_choice, eval_hands),
                 "greedy": evaluate(variant, opponents, greedy_choice(variant, seed), eval_hands)}
    say(f"{variant}, seat 0 against {opponents} agents, {eval_hands} held-out hands (seeds {EVAL_SEED}.."
        f"{EVAL_SEED + eval_hands - 1}): random agent {_fmt(baselines['random'])}; greedy agent "
        f"{_fmt(baselines['greedy'])}")
    model = make_model(variant, opponents, envs, seed, **ppo)
    curve = [{"timesteps": 0, **evaluate(variant, opponents, policy_choice(model), eval_hands)}]
    say(f"{0:>9,} steps: {_fmt(curve[-1])}")
    for k in range(1, points + 1):
        model.learn(timesteps * k // points - model.num_timesteps, reset_num_timesteps=False)
        curve.append({"timesteps": model.num_timesteps,
                      **evaluate(variant, opponents, policy_choice(model), eval_hands)})
        say(f"{model.num_timesteps:>9,} steps: {_fmt(curve[-1])} ({time.perf_counter() - t0:.0f} s)")
    last, rnd = curve[-1], baselines["random"]
    say(f"after {last['timesteps']:,} steps: {last['mean']:+.2f} a hand, wins {last['win_rate']:.1%}; the random "
        f"agent {rnd['mean']:+.2f}, wins {rnd['win_rate']:.1%}, on the same {eval_hands} hands")
    result = {"variant": variant, "opponents": opponents, "eval_hands": eval_hands, "eval_seed": EVAL_SEED,
              "curve": curve, **baselines, "seconds": round(time.perf_counter() - t0, 1), "model": model}
    if out:
        plot(result, out)
        say(f"learning curve written to {out}")
    return result


def _fmt(e: dict[str, Any]) -> str:
    return f"{e['mean']:+.2f} a hand (±{e['sem']:.2f}), wins {e['win_rate']:.1%}"


def plot(result: dict[str, Any], out: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    steps = [p["timesteps"] for p in result["curve"]]
    mean = np.array([p["mean"] for p in result["curve"]])
    sem = np.array([p["sem"] for p in result["curve"]])
    ax.plot(steps, mean, marker="o", label="MaskablePPO (sb3-contrib)")
    ax.fill_between(steps, mean - 2 * sem, mean + 2 * sem, alpha=0.2, label="± 2 standard errors")
    ax.axhline(result["random"]["mean"], color="tab:red", linestyle="--", label="random agent")
    ax.axhline(result["greedy"]["mean"], color="tab:green", linestyle=":", label="greedy agent (for reference)")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x / 1000:,.0f}k" if x else "0"))
    ax.set_xlabel("training steps (the learner's decisions)")
    ax.set_ylabel(f"mean net payment, seat 0\n({result['eval_hands']} held-out hands)")
    ax.set_title(f"{result['variant']}: seat 0 against 3 {result['opponents']} agents")
    ax.legend(loc="center right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default=VARIANT)
    ap.add_argument("--opponents", default=OPPONENTS, help="the other seats' built-in agent: random, greedy or seeker")
    ap.add_argument("--timesteps", type=int, default=1_000_000, help="learner decisions to train on")
    ap.add_argument("--points", type=int, default=10, help="evaluations along the way (besides the one before)")
    ap.add_argument("--eval-hands", type=int, default=1000, help="held-out seeded hands per evaluation")
    ap.add_argument("--envs", type=int, default=32, help="tables stepped together")
    ap.add_argument("--out", default="learning-curve.png", help="the PNG to write")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    main(a.variant, a.opponents, a.timesteps, a.points, a.eval_hands, a.envs, a.out, a.seed)
