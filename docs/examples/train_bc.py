"""Behaviour cloning, end to end: a linear softmax policy in NumPy learns to play one seat of a variant by
imitating the built-in greedy agent, through mjrules.env's Gymnasium environment, and is compared with the random
agent on the same seeded hands after every epoch. Writes the learning curve to a PNG.

    python docs/examples/train_bc.py                         # guangdong_tuidaohu, about a minute
    python docs/examples/train_bc.py --variant shangrao --out curve.png

Needs `pip install 'mjrules[rl]' matplotlib`.
"""
from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from mjrules.env import gym_env
from mjrules.game import GreedyAgent

OPPONENTS = "random"


def features(obs: np.ndarray, kinds: int, scale: np.ndarray) -> np.ndarray:
    """The observation scaled to 0..1, and for each kind in the hand how many tiles of its suit lie within one and
    within two ranks of it (what makes a tile worth keeping, which a linear function of counts cannot see)."""
    x = np.atleast_2d(obs) / scale
    hand = np.atleast_2d(obs)[:, :kinds]
    suited = min(kinds, 27)
    near1 = np.zeros_like(hand)
    near2 = np.zeros_like(hand)
    for k in range(suited):
        r = k % 9
        for d, near in ((1, near1), (2, near2)):
            for j in (k - d, k + d):
                if 0 <= j < suited and j // 9 == k // 9 and abs(j % 9 - r) == d:
                    near[:, k] += hand[:, j] > 0
    held = hand > 0
    return np.hstack([x, held * near1 / 2, held * near2 / 2, held * (near1 + near2 == 0)])


class LinearPolicy:
    """Masked softmax over the actions of a linear function of the (scaled) observation."""

    def __init__(self, encoding: Any, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.kinds, self.scale = len(encoding.kinds), np.maximum(encoding.high, 1)
        size = len(encoding.high) + 3 * self.kinds
        self.W = rng.normal(0, 0.01, (size, encoding.n_actions))
        self.b = np.zeros(encoding.n_actions)
        self.m = [np.zeros_like(self.W), np.zeros_like(self.b)]   # Adam's moments
        self.v = [np.zeros_like(self.W), np.zeros_like(self.b)]
        self.t = 0

    def logits(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        z = features(x, self.kinds, self.scale) @ self.W + self.b
        return np.where(np.atleast_2d(mask) > 0, z, -1e9)

    def act(self, obs: dict[str, np.ndarray]) -> int:
        return int(np.argmax(self.logits(obs["observation"], obs["action_mask"])[0]))

    def train_step(self, x: np.ndarray, mask: np.ndarray, y: np.ndarray, lr: float = 0.01) -> float:
        """One Adam step on the cross-entropy of the teacher's actions y; returns the loss."""
        z = self.logits(x, mask)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        n = len(y)
        loss = float(-np.log(p[np.arange(n), y] + 1e-12).mean())
        p[np.arange(n), y] -= 1
        grads = [features(x, self.kinds, self.scale).T @ p / n, p.mean(axis=0)]
        self.t += 1
        for i, (param, g) in enumerate(zip((self.W, self.b), grads)):
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            mh, vh = self.m[i] / (1 - 0.9 ** self.t), self.v[i] / (1 - 0.999 ** self.t)
            param -= lr * mh / (np.sqrt(vh) + 1e-8)
        return loss


def collect(variant: str, hands: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The greedy agent's decisions at seat 0 against the opponents: observations, masks, action indices."""
    env = gym_env(variant, seat=0, opponents=OPPONENTS, seed=seed, illegal="raise")
    teacher = GreedyAgent(env.engine.variant, seed)
    xs, masks, ys = [], [], []
    for h in range(hands):
        obs, _ = env.reset(seed=seed + h)
        done = False
        while not done:
            a = teacher.act(env.game, 0)                  # the teacher reads the game, as built-in agents do
            i = int(env.encoding.index_of[a])
            xs.append(obs["observation"])
            masks.append(obs["action_mask"])
            ys.append(i)
            obs, _, done, _, _ = env.step(i)
    return np.array(xs), np.array(masks), np.array(ys)


def evaluate(variant: str, choose: Any, hands: int, seed: int) -> float:
    """Mean net payment of seat 0 played by `choose(env, obs, rng)` against the opponents, on seeded hands."""
    env = gym_env(variant, seat=0, opponents=OPPONENTS, illegal="raise")
    rng = np.random.default_rng(seed)
    total = 0.0
    for h in range(hands):
        obs, _ = env.reset(seed=seed + h)
        done = False
        while not done:
            obs, r, done, _, _ = env.step(choose(env, obs, rng))
            total += r
    return total / hands


def main(variant: str = "guangdong_tuidaohu", hands: int = 1000, epochs: int = 8, eval_hands: int = 300,
         out: str | None = "learning-curve.png", seed: int = 0, quiet: bool = False) -> dict[str, Any]:
    """Collect, train, evaluate after every epoch, plot; returns the curve and the baselines."""
    say = (lambda *a: None) if quiet else print
    t0 = time.perf_counter()
    x, mask, y = collect(variant, hands, seed)
    say(f"{variant}: {len(y)} decisions of the greedy agent in {hands} hands ({time.perf_counter() - t0:.1f} s)")
    env = gym_env(variant)
    policy = LinearPolicy(env.encoding, seed)
    teacher = GreedyAgent(env.engine.variant, seed)
    held = 10_000 + seed   # evaluation hands: seeds no training hand used
    baselines = {
        "random": evaluate(variant, lambda e, obs, rng: int(rng.choice(np.flatnonzero(obs["action_mask"]))),
                           eval_hands, held),
        "greedy": evaluate(variant, lambda e, obs, rng: int(e.encoding.index_of[teacher.act(e.game, 0)]),
                           eval_hands, held)}

    def learned(e: Any, obs: dict[str, np.ndarray], rng: Any) -> int:
        return policy.act(obs)

    curve, accuracy = [], []
    rng = np.random.default_rng(seed)
    for epoch in range(epochs + 1):
        if epoch:
            order = rng.permutation(len(y))
            for start in range(0, len(y), 256):
                batch = order[start:start + 256]
                policy.train_step(x[batch], mask[batch], y[batch])
        curve.append(evaluate(variant, learned, eval_hands, held))
        accuracy.append(float((np.argmax(policy.logits(x, mask), axis=1) == y).mean()))
        say(f"epoch {epoch}: mean payment {curve[-1]:+.2f} (random agent {baselines['random']:+.2f}, greedy "
            f"{baselines['greedy']:+.2f}), imitation {accuracy[-1]:.1%}")
    result = {"variant": variant, "decisions": len(y), "curve": curve, "accuracy": accuracy, **baselines,
              "seconds": round(time.perf_counter() - t0, 1)}
    if out:
        plot(result, eval_hands, out)
        say(f"learning curve written to {out}")
    return result


def plot(result: dict[str, Any], eval_hands: int, out: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    epochs = range(len(result["curve"]))
    ax.plot(epochs, result["curve"], marker="o", label="linear policy (behaviour cloning)")
    ax.axhline(result["random"], color="tab:red", linestyle="--", label="random agent")
    ax.axhline(result["greedy"], color="tab:green", linestyle=":", label="greedy agent (the teacher)")
    ax.set_xlabel("epoch")
    ax.set_ylabel(f"mean net payment, seat 0\n({eval_hands} seeded hands vs 3 {OPPONENTS})")
    ax.set_title(f"{result['variant']}: imitating the greedy agent")
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="guangdong_tuidaohu")
    ap.add_argument("--hands", type=int, default=1000, help="hands of the teacher to learn from")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--eval-hands", type=int, default=300, help="seeded hands per evaluation")
    ap.add_argument("--out", default="learning-curve.png", help="the PNG to write")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    main(a.variant, a.hands, a.epochs, a.eval_hands, a.out, a.seed)
