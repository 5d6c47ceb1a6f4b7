"""A Gymnasium environment: one seat of a variant played by the learner, the others by built-in (or given) agents.

One hand a episode. The learner is asked only when its seat decides; the other seats' decisions are taken in
between, by their agents through the game's step API. The reward is zero until the hand ends, then the seat's
net payment. A hand that ends before the learner's seat ever decides (a dealer's win on the deal) is not an
episode: the next hand is dealt instead.

An action is an integer of the action space, Discrete(A): a Python int (not a bool), a NumPy integer scalar or a
0-d NumPy integer array, in 0..A-1; anything else (a float, even 33.0, a string, a bool, None, a list, an integer
out of range) raises mjrules.game.IllegalAction (a ValueError) in either mode and changes nothing. An action of
the space that is outside the mask is, by default (`illegal="random"`), replaced by a legal one drawn from the
environment's generator, and the step's info says `"illegal": True` (so a checker sampling unmasked actions, or
an agent still learning the mask, keeps playing); `illegal="raise"` raises IllegalAction instead, changing
nothing. `action_masks()` returns the mask (the name MaskablePPO looks for).
"""
from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np

from ..game.agents import decide, make_agent
from ..game.play import agent_seed
from ..game.state import Game, IllegalAction
from .aec import check_render_mode, load_engine
from .encoding import Encoding
from .render import render

MAX_REDEALS = 100


class MahjongGymEnv(gymnasium.Env):
    """One seat of a variant against agents (made by mjrules.env.gym_env)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, variant: Any, *, seat: int = 0, opponents: Any = "greedy", seed: int | None = None,
                 render_mode: str | None = None, illegal: str = "random", backend: str | None = None,
                 **options: Any):
        self.engine = load_engine(variant, backend)
        from ..game.simulate import check_options

        v = self.engine.variant
        self.options = check_options(v, options) or None
        self.encoding = enc = Encoding(self.engine, self.options)
        n = enc.players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise ValueError(f"seat must be a seat 0..{n - 1}, not {seat!r}")
        if illegal not in ("random", "raise"):
            raise ValueError(f"illegal must be 'random' or 'raise', not {illegal!r}")
        self.seat, self.illegal = seat, illegal
        self.opponents = _opponents(opponents, n, seat, v)
        self.observation_space = enc.observation_space()
        self.action_space = enc.action_space()
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.first_seed = seed
        self.seeded = False
        self.game: Game | None = None
        self.agents: list[Any] = []

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a hand (its seed and dealer from the environment's generator; options may fix "dealer", a seat
        0..P-1, and "dealer_streak", 0..99, integers both: another key or value raises ValueError and changes
        nothing) and play the other seats up to the learner's first decision."""
        info = self.deal(seed=seed, options=options)
        if self.render_mode == "human":
            self.render()
        return self.observation(), info

    def deal(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> dict[str, Any]:
        """reset() without making the observation: deal, play up to the learner's first decision; the info."""
        fixed_dealer, streak = self.encoding.reset_options(options)   # checked before anything changes
        if seed is None and not self.seeded:
            seed = self.first_seed
        super().reset(seed=seed)
        self.seeded = True
        n = self.encoding.players
        for _ in range(MAX_REDEALS):
            hand_seed = int(self.np_random.integers(2**63 - 1))
            dealer = int(self.np_random.integers(n)) if fixed_dealer is None else fixed_dealer
            self.game = Game(self.engine, seed=hand_seed, dealer=dealer, dealer_streak=streak, options=self.options)
            self.agents = [make_agent(a, self.engine.variant, agent_seed(hand_seed, p)) if isinstance(a, str) else a
                           for p, a in enumerate(self.opponents)]
            self._advance()
            if not self.game.over:
                break
        else:  # pragma: no cover - a variant whose hands all end before this seat decides
            raise RuntimeError(f"seat {self.seat} never decides in {MAX_REDEALS} hands")
        return {"hand_seed": hand_seed}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """The learner's decision, then the others' up to its next one (or the hand's end)."""
        reward, over, info = self.take(action)
        if self.render_mode == "human":
            self.render()
        return self.observation(), reward, over, False, info

    def take(self, action: Any) -> tuple[float, bool, dict[str, Any]]:
        """step() without making the observation: (reward, terminated, info)."""
        g = self.game
        if g is None or g.over:
            raise IllegalAction("the hand is over: call reset()")
        a = self.encoding.game_action(action)   # not in the action space: IllegalAction in either mode
        info: dict[str, Any] = {}
        legal = g.legal_ids(self.seat)
        if a not in legal:
            if self.illegal == "raise":
                g.act(self.seat, a)   # raises IllegalAction, saying what is legal
            a = legal[int(self.np_random.integers(len(legal)))]
            info["illegal"] = True
        g.act(self.seat, a)
        self._advance()
        reward = 0.0
        if g.over:
            pay = g.outcome["payments"]
            reward = float(pay.get(self.seat, pay.get(str(self.seat), 0)))
        return reward, g.over, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as a bool mask."""
        return self.encoding.mask(self.game, self.seat).astype(bool)

    def render(self) -> str | None:
        """The table as text ("ansi": returned; "human": printed)."""
        return render(self.render_mode, self.game)

    def _advance(self) -> None:
        """Let the other seats decide until the learner's seat is to act or the hand is over."""
        g, me, agents = self.game, self.seat, self.agents
        while not g.over:
            p = g.to_act
            if p == me:
                return
            g.act(p, decide(agents[p], g, p))

    def observation(self) -> dict[str, np.ndarray]:
        """The learner's observation now: {"observation": float32[size], "action_mask": int8[A]}."""
        return {"observation": self.encoding.observation(self.game, self.seat),
                "action_mask": self.encoding.mask(self.game, self.seat)}


def _opponents(opponents: Any, n: int, seat: int, v: Any) -> list[Any]:
    """One agent (a built-in's name, or an object) per seat; the learner's seat holds None."""
    if isinstance(opponents, str) or not isinstance(opponents, (list, tuple)):
        got = [opponents] * (n - 1)
    else:
        got = list(opponents)
        if len(got) == n:
            got = got[:seat] + got[seat + 1:]
        if len(got) != n - 1:
            raise ValueError(f"give one opponent, or {n - 1} (one per other seat), not {len(opponents)}")
    for a in got:
        if isinstance(a, str):
            make_agent(a, v, 0)   # an unknown name fails here
        elif not (hasattr(a, "act") or hasattr(a, "choose")):
            raise ValueError(f"an opponent is a built-in agent's name or an object with act(game, seat), not {a!r}")
    return got[:seat] + [None] + got[seat:]
