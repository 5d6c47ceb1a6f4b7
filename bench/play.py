"""Whole hands per second: the built-in agents, four trivial Python agents through the step API, and riichienv's
RiichiEnv stepped by its own Python RandomAgent in the same run (a peer; skipped where it is not installed)."""
from __future__ import annotations

import random
import time
from typing import Any

from .machine import GATE


def rates(fn: Any, hands: int, repeats: int) -> list[float]:
    """Hands per second of `fn(i)` over `hands` hands, per repeat."""
    def timing() -> float:
        start = time.perf_counter()
        for i in range(hands):
            fn(i)
        return hands / (time.perf_counter() - start)

    return [GATE.repeat(timing) for _ in range(repeats)]


def builtin_hand(eng: Any, agent: str) -> Any:
    """One hand of four built-in agents by name (mjrules.game.play_hand), by seed."""
    from mjrules.game import play_hand

    n = eng.variant.players
    return lambda i: play_hand(eng, [agent] * n, seed=i)


def python_hand(eng: Any) -> Any:
    """One hand stepped by four trivial Python agents, each uniform over the legal action ids (what a game
    server, a bot author or an RL loop runs)."""
    rng = random.Random(1)

    def play(i: int) -> None:
        g = eng.new_game(seed=i, dealer=i % eng.variant.players)
        choice = rng.choice
        while not g.over:
            g.step(choice(g.legal_ids()))

    return play


def riichienv_kyoku() -> tuple[Any, str] | None:
    """One kyoku of riichienv's RiichiEnv("4p-red-single") stepped by its Python RandomAgent, and riichienv's
    version; None when riichienv is not installed."""
    try:
        import riichienv
        from riichienv import RiichiEnv
        from riichienv.agents import RandomAgent
    except ImportError:
        return None
    env = RiichiEnv(game_mode="4p-red-single", seed=1)
    agents = [RandomAgent(seed=i) for i in range(4)]

    def play(i: int) -> None:
        obs = env.reset(seed=i)
        while not env.done():
            obs = env.step({pid: agents[pid].act(o) for pid, o in obs.items()})

    version = getattr(riichienv, "__version__", None)
    if version is None:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as dist_version

        try:
            version = dist_version("riichienv")
        except PackageNotFoundError:
            version = "?"
    return play, version


def side_by_side(eng: Any, hands: int, repeats: int) -> dict[str, Any] | None:
    """Built-in random agents (play_hand), four Python agents through the step API, and riichienv's kyoku, timed in
    turn within each repeat (so a slow spell of the machine falls on all three alike): per repeat, each one's hands
    per second and the built-in agents' ratios to the other two. None where riichienv is not installed."""
    peer = riichienv_kyoku()
    if peer is None:
        return None
    kyoku, version = peer
    runs = {"builtin": builtin_hand(eng, "random"), "python": python_hand(eng), "riichienv": kyoku}
    got: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(repeats):
        for k, fn in runs.items():
            got[k] += rates(fn, hands, 1)
    return {"version": version, "hands": hands, **{f"{k}_per_s": v for k, v in got.items()},
            "vs_riichienv": [a / b for a, b in zip(got["builtin"], got["riichienv"])],
            "vs_python": [a / b for a, b in zip(got["builtin"], got["python"])]}
