"""The environments' speed (mjrules.env) and Ray's, for `mjrules bench`:

- AEC steps per second: one table of mjrules.env.raw_env, each step an observation of the selected agent
  (`last()`) and a random legal action from its mask, hands dealt again as they end;
- riichienv's environment in the same run: decisions per second of RiichiEnv("4p-red-single") stepped by its
  Python RandomAgent (each decision one agent's action), the peer of the AEC row: as it comes (its observations
  are objects read lazily) and with each observation encoded as features (`encode()`), as the AEC row's are;
- vectorised: mjrules.env.vector_env of 64 tables, the learner's random legal actions at seat 0 against random
  agents: learner steps per second (a step is a decision at every table) and all seats' decisions per second;
- Ray against --jobs: hands per second of simulate() on a local Ray of 2 CPUs and with jobs=2, the same
  seeded hands (Ray's start-up timed apart).

Each is skipped with a note where its package is not installed.
"""
from __future__ import annotations

import random
import time
from typing import Any


def _available(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def aec_steps(variant: str, steps: int) -> Any:
    """A function timing `steps` AEC steps with random legal actions (None without the rl extra)."""
    if not (_available("pettingzoo") and _available("gymnasium")):
        return None
    import numpy as np
    from mjrules.env import raw_env

    e = raw_env(variant, seed=0)
    rng = random.Random(0)

    def run() -> float:
        e.reset(seed=rng.getrandbits(30))
        start = time.perf_counter()
        done = 0
        # a random legal action, picked as riichienv's RandomAgent picks its own (Python's random.choice; numpy's
        # Generator.choice costs more than a step of either environment)
        flat, choice = np.flatnonzero, rng.choice
        while done < steps:
            if not e.agents:
                e.reset()
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(choice(flat(obs["action_mask"]))))
            done += 1
        return steps / (time.perf_counter() - start)

    return run


def vector_steps(variant: str, steps: int, tables: int = 64) -> Any:
    """A function timing `steps` steps of `tables` tables: (learner steps/s, all seats' decisions/s)."""
    if not (_available("pettingzoo") and _available("gymnasium")):
        return None
    import numpy as np
    from mjrules.env import vector_env

    v = vector_env(variant, tables, opponents="random", seed=0)
    rng = np.random.default_rng(0)

    def run() -> tuple[float, float]:
        obs, _ = v.reset()
        before = sum(e.game.decision_count() for e in v.envs)
        ended = 0
        start = time.perf_counter()
        for _ in range(steps):
            m = obs["action_mask"].astype(np.float64)
            # a random legal action per table: the argmax of uniform noise on the legal ones
            acts = (rng.random(m.shape) * m).argmax(axis=1)
            games = [e.game for e in v.envs]
            obs, _, term, _, _ = v.step(acts)
            ended += sum(g.decision_count() for g, t in zip(games, term) if t)
        took = time.perf_counter() - start
        decisions = ended + sum(e.game.decision_count() for e in v.envs) - before
        return steps * tables / took, decisions / took

    return run


def riichienv_steps(steps: int, encode: bool = False) -> tuple[Any, str] | None:
    """A function timing about `steps` decisions (one agent's action each) of riichienv's RiichiEnv("4p-red-single") with its RandomAgent, and its
    version; None when riichienv is not installed. With `encode`, each deciding agent's observation is also
    encoded as features (`Observation.encode()`), as mjrules' environment encodes its observation at every step."""
    try:
        from importlib.metadata import version

        from riichienv import RiichiEnv
        from riichienv.agents import RandomAgent
    except ImportError:
        return None
    env = RiichiEnv(game_mode="4p-red-single", seed=1)
    agents = [RandomAgent(seed=i) for i in range(4)]
    seeds = iter(range(10**9))

    def run() -> float:
        obs = env.reset(seed=next(seeds))
        done = 0
        start = time.perf_counter()
        while done < steps:
            if env.done():
                obs = env.reset(seed=next(seeds))
                continue
            actions = {pid: agents[pid].act(o) for pid, o in obs.items()}
            if encode:
                for o in obs.values():
                    o.encode()
            obs = env.step(actions)
            done += len(actions)
        return steps / (time.perf_counter() - start)

    return run, version("riichienv")


def ray_against_jobs(variant: str, hands: int, repeats: int) -> dict[str, Any]:
    """simulate() of the same seeded hands on a local Ray of 2 CPUs and with jobs=2: hands per second of each
    repeat (lists), and Ray's start-up in seconds."""
    if not _available("ray"):
        return {"available": False}
    import logging

    import ray
    from mjrules.game.simulate import simulate

    # --jobs first: its processes are forked, and a process running Ray is not one to fork
    with_jobs = [simulate(variant, hands, seed=r, jobs=2)["hands_per_second"] for r in range(repeats)]
    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    started = time.perf_counter() - start
    try:
        simulate(variant, 8, seed=1, ray=True)   # the workers load the variant once
        on_ray = [simulate(variant, hands, seed=r, ray=True)["hands_per_second"] for r in range(repeats)]
    finally:
        ray.shutdown()
    return {"available": True, "version": ray.__version__, "variant": variant, "hands": hands, "cpus": 2,
            "start_s": round(started, 2), "ray_hands_per_s": on_ray, "jobs_hands_per_s": with_jobs}

