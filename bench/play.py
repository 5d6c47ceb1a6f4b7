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

    return play, getattr(riichienv, "__version__", "?")
