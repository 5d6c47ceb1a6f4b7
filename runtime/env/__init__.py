"""Reinforcement-learning environments for any variant, on the game's step API (needs `pip install 'mjrules[rl]'`).

    from mjrules.env import env, gym_env, parallel_env, vector_env

    e = env(spec, seed=0)                                    # PettingZoo AEC: every seat an agent
    p = parallel_env(spec, seed=0)                           # PettingZoo Parallel: every seat acts every step
    g = gym_env(spec, seat=0, opponents="greedy", seed=0)    # Gymnasium: one seat against agents
    v = vector_env(spec, 64, opponents="random", seed=0)     # 64 tables at once, NumPy batches
    g = gymnasium.make("mjrules.env:mjrules/Mahjong-v0", variant=spec)   # the same through Gymnasium's registry

A variant (`spec`) is a shipped name, a .mj path or a loaded engine; keyword arguments beyond the environment's own
are the spec's options (`env(spec, some_option=True)`); docs/rl.md has examples. Observations and action spaces are derived
from the variant (mjrules.env.encoding); rewards are the settlement's net payments at the end of the hand (the
parallel environment's: the payments made in each step, the rest of the settlement at the hand's end).

An action is an integer of the action space Discrete(A) (a Python int, not a bool, or a NumPy integer scalar or
0-d array, in 0..A-1; the vector environment's, an integer array): anything else raises
mjrules.game.IllegalAction (a ValueError) and changes nothing. reset(options=...) takes "dealer" (a seat) and
"dealer_streak" (0..99), integers; another key or value raises ValueError, before anything changes.
"""
from __future__ import annotations

from typing import Any

from ..extras import require

require("gymnasium", "rl", "mjrules.env")
require("pettingzoo", "rl", "mjrules.env")

from .aec import MahjongEnv
from .encoding import Encoding
from .parallel import MahjongParallelEnv
from .single import MahjongGymEnv
from .vector import MahjongVectorEnv


def raw_env(variant: Any, *, seed: int | None = None, render_mode: str | None = None, backend: str | None = None,
            **options: Any) -> MahjongEnv:
    """The AEC environment of a variant, without PettingZoo's wrappers (the fastest to step)."""
    return MahjongEnv(variant, seed=seed, render_mode=render_mode, backend=backend, **options)


def env(variant: Any, *, seed: int | None = None, render_mode: str | None = None, backend: str | None = None,
        **options: Any) -> Any:
    """The AEC environment of a variant, wrapped the PettingZoo way (order enforced: reset before step)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(variant, seed=seed, render_mode=render_mode, backend=backend,
                                                  **options))


def parallel_env(variant: Any, *, seed: int | None = None, render_mode: str | None = None,
                 backend: str | None = None, **options: Any) -> MahjongParallelEnv:
    """The PettingZoo Parallel environment of a variant: every live agent gives an action at every step.

    The seats that decide now (the seat whose turn it is, or every seat that may claim a discard, and the like)
    play theirs; every other seat's only legal action is the no-op, the index of PASS (`.noop`), which its
    action mask holds alone. Rewards are the payments made during each step (the rest of the settlement at the
    hand's last step: a seat's sum is its net payment, as in the AEC environment); all agents terminate when
    the hand ends. Observations and infos: {"observation", "action_mask"} as in the AEC environment, and
    {"deciding": bool}. One seed deals the same hand as `env`/`raw_env` with that seed, and reset(options=...)
    takes the same "dealer" and "dealer_streak". An action outside its agent's mask, or not an action,
    raises mjrules.game.IllegalAction (a ValueError) and changes nothing; so (ValueError) does a step that
    lacks a live agent's action."""
    return MahjongParallelEnv(variant, seed=seed, render_mode=render_mode, backend=backend, **options)


def gym_env(variant: Any, seat: int = 0, opponents: Any = "greedy", *, seed: int | None = None,
            render_mode: str | None = None, illegal: str = "random", backend: str | None = None,
            **options: Any) -> MahjongGymEnv:
    """A Gymnasium environment: `seat` played by the learner, the others by `opponents` (a built-in agent's name,
    an agent object, or one per other seat)."""
    return MahjongGymEnv(variant, seat=seat, opponents=opponents, seed=seed, render_mode=render_mode,
                         illegal=illegal, backend=backend, **options)


def vector_env(variant: Any, num_envs: int, seat: int = 0, opponents: Any = "greedy", *, seed: int | None = None,
               illegal: str = "random", backend: str | None = None, **options: Any) -> MahjongVectorEnv:
    """`num_envs` single-seat tables stepped at once (a Gymnasium VectorEnv, same-step autoreset)."""
    return MahjongVectorEnv(variant, num_envs, seat=seat, opponents=opponents, seed=seed, illegal=illegal,
                            backend=backend, **options)


# Gymnasium's registry: gymnasium.make(ENV_ID, variant=...) and gymnasium.make_vec(ENV_ID, num_envs, variant=...)
# (the vector entry point by default); "mjrules.env:mjrules/Mahjong-v0" imports this module first.
ENV_ID = "mjrules/Mahjong-v0"


def _register() -> None:
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(ENV_ID, entry_point="mjrules.env:gym_env", vector_entry_point="mjrules.env:vector_env")


_register()

__all__ = ["ENV_ID", "Encoding", "MahjongEnv", "MahjongGymEnv", "MahjongParallelEnv", "MahjongVectorEnv", "env",
           "gym_env", "parallel_env", "raw_env", "vector_env"]
