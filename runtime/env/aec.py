"""The PettingZoo AEC environment of one variant: one hand a episode, every seat an agent, on the game's step API.

Agents are "player_0".."player_{P-1}" (seat i). The agent selected is the game's `to_act`: the seat deciding
now, and in a decision several seats take at once (the claims on a discard, an exchange or a declaration before
play) each of them in turn, in play order, none seeing another's answer; the game settles it once all have
answered. Rewards are zero until the hand ends, then each seat's net payment in the settlement.

An action is an integer of the action space, Discrete(A): a Python int (not a bool), a NumPy integer scalar or a
0-d NumPy integer array, in 0..A-1. Anything else (a float, even 33.0, a string, a bool, None, a list, an integer
out of range) and an action outside the mask raise mjrules.game.IllegalAction (a ValueError) and change nothing.
"""
from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

from ..game.state import Game
from .encoding import Encoding
from .render import render


def load_engine(variant: Any, backend: str | None = None) -> Any:
    """A loaded engine: a variant's name, a .mj path, or an engine already loaded."""
    if hasattr(variant, "variant") and hasattr(variant, "evaluate"):
        return variant
    from ..engine import load

    return load(variant, backend=backend)


def check_render_mode(mode: str | None, modes: list[str]) -> str | None:
    if mode is not None and mode not in modes:
        raise ValueError(f"render_mode must be one of {', '.join(modes)} or None, not {mode!r}")
    return mode


def deal(engine: Any, rng: np.random.Generator, players: int, fixed_dealer: int | None, streak: int,
         options: dict[str, Any] | None) -> Game:
    """A new hand: its seed, then its dealer, drawn from `rng` (the dealer drawn even when fixed, so that the
    generator moves the same way); the AEC and the parallel environment deal alike, so one seed, one hand."""
    hand_seed = int(rng.integers(2**63 - 1))
    dealer = int(rng.integers(players))
    return Game(engine, seed=hand_seed, dealer=dealer if fixed_dealer is None else fixed_dealer,
                dealer_streak=streak, options=options)


class MahjongEnv(AECEnv):
    """A PettingZoo AEC environment of one variant (made by mjrules.env.env or raw_env)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "mjrules_v0",
                                          "is_parallelizable": False, "render_fps": 1}

    def __init__(self, variant: Any, *, seed: int | None = None, render_mode: str | None = None,
                 backend: str | None = None, **options: Any):
        super().__init__()
        self.engine = load_engine(variant, backend)
        from ..game.simulate import check_options

        self.options = check_options(self.engine.variant, options) or None
        self.encoding = enc = Encoding(self.engine, self.options)
        n = enc.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: enc.observation_space() for a in self.possible_agents}
        self.action_spaces = {a: enc.action_space() for a in self.possible_agents}
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.first_seed = seed
        self.rng: np.random.Generator | None = None
        self.game: Game | None = None

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand. The hand's seed and dealer come from the environment's generator (seeded by `seed`,
        else by the constructor's seed on the first reset); options may fix "dealer" (a seat 0..P-1) and
        "dealer_streak" (0..99), integers both; another key (but "options", which PettingZoo's api_test passes
        and is ignored) or value raises ValueError and changes nothing."""
        # checked before anything changes; the key "options" is PettingZoo's api_test's probe that reset takes
        # options (it passes {"options": 1}), and is ignored
        fixed_dealer, streak = self.encoding.reset_options(options, ignored=("options",))
        if seed is not None or self.rng is None:
            self.rng = np.random.default_rng(self.first_seed if seed is None else seed)
        self.game = deal(self.engine, self.rng, len(self.possible_agents), fixed_dealer, streak, self.options)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_act]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat_of[agent]
        return {"observation": self.encoding.observation(self.game, seat),
                "action_mask": self.encoding.mask(self.game, seat)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        g.act(self.seat_of[agent], self.encoding.game_action(action))
        self._cumulative_rewards[agent] = 0.0
        if g.over:
            pay = g.outcome["payments"]
            for a in self.agents:
                self.rewards[a] = float(pay.get(self.seat_of[a], pay.get(str(self.seat_of[a]), 0)))
                self.terminations[a] = True
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[g.to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text ("ansi": returned; "human": printed)."""
        return render(self.render_mode, self.game)

    def close(self) -> None:
        self.game = None
