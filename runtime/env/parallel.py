"""The PettingZoo Parallel environment of one variant: one hand a episode, every seat an agent, every agent acting
at every step (what RLlib's PettingZoo wrapper and many PettingZoo users expect), on the game's step API.

Agents are "player_0".."player_{P-1}" (seat i), all of them live until the hand ends. A step takes one action
from every live agent: the seats that decide now (the seat whose turn it is; or every seat that may claim a
discard, rob a kong, declare ready; or every seat in an exchange or a declaration before play) play theirs,
applied in play order and none seeing another's, so that the game settles the decision at once; every other
seat's only legal action is the no-op. The no-op is the action of the game's PASS (`noop`, the index
`encoding.index_of[PASS]`, in every variant's action space): the observation's mask of a seat that does not
decide holds it alone, and it is not sent to the game. A deciding seat's PASS is its real pass (declining a
claim, say). A seat's one decision in a step is one action: a seat picking three tiles to exchange picks one a
step, three steps running.

The reward of a step is each seat's net of the payments made during it (a kong paid at once, a win paid as it
happens, where the variant pays so), and at the hand's last step the rest of the settlement: each seat's sum
over the hand is its net payment in the settlement, what the AEC environment gives it at the hand's end.

Observations are the AEC environment's: {"observation": float32[size], "action_mask": int8[A]}; every mask
holds at least one action (the no-op when the seat does not decide, and at the hand's end). infos say whether
the seat decides now: {"deciding": bool}.

`step(actions)` checks all of them before any is played: a mapping that lacks a live agent or names another
raises ValueError; an action that is not an integer of the action space (see mjrules.env.aec) or is outside
its agent's mask raises mjrules.game.IllegalAction (a ValueError) naming the agent. Either way nothing
changes. Stepping before reset() or after the hand's end raises IllegalAction.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from pettingzoo import ParallelEnv

from ..game.actions import PASS
from ..game.state import Game, IllegalAction
from .aec import check_render_mode, deal, load_engine
from .encoding import Encoding, _shown
from .render import render


class MahjongParallelEnv(ParallelEnv):
    """A PettingZoo Parallel environment of one variant (made by mjrules.env.parallel_env)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "mjrules_v0", "render_fps": 1}

    def __init__(self, variant: Any, *, seed: int | None = None, render_mode: str | None = None,
                 backend: str | None = None, **options: Any):
        self.engine = load_engine(variant, backend)
        from ..game.simulate import check_options

        self.options = check_options(self.engine.variant, options) or None
        self.encoding = enc = Encoding(self.engine, self.options)
        n = enc.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = []
        self.seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: enc.observation_space() for a in self.possible_agents}
        self.action_spaces = {a: enc.action_space() for a in self.possible_agents}
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.noop = int(enc.index_of[PASS])   # the no-op: the index of PASS
        self._noop_mask = np.zeros(enc.n_actions, dtype=np.int8)
        self._noop_mask[self.noop] = 1
        self.first_seed = seed
        self.rng: np.random.Generator | None = None
        self.game: Game | None = None
        self._ledger_seen = 0              # the game's ledger entries already rewarded
        self._rewarded: list[Any] = [0] * n   # each seat's rewards so far this hand, exactly

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Deal a new hand, as the AEC environment deals it: its seed and dealer from the environment's generator
        (seeded by `seed`, else by the constructor's seed on the first reset), so that one seed deals one hand
        in both; options may fix "dealer" (a seat 0..P-1) and "dealer_streak" (0..99), integers both; another
        key (but "options", which PettingZoo's parallel_api_test passes and is ignored) or value raises
        ValueError and changes nothing. Returns (observations, infos)."""
        fixed_dealer, streak = self.encoding.reset_options(options, ignored=("options",))
        if seed is not None or self.rng is None:
            self.rng = np.random.default_rng(self.first_seed if seed is None else seed)
        g = self.game = deal(self.engine, self.rng, len(self.possible_agents), fixed_dealer, streak, self.options)
        self.agents = self.possible_agents[:]
        self._ledger_seen = len(g.ledger)   # (a payment made in the deal is paid at the hand's end)
        self._rewarded = [0] * len(self.possible_agents)
        obs, infos = self._observe(self.agents)
        if self.render_mode == "human":
            self.render()
        return obs, infos

    def deciding(self) -> list[str]:
        """The agents that decide now, in play order (empty once the hand is over)."""
        g = self.game
        if g is None or g.over:
            return []
        return [self.possible_agents[p] for p in g.asking if p not in g.answers]

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                          dict[str, bool], dict[str, dict[str, Any]]]:
        """One action from every live agent: the deciding seats' are played, the others' are the no-op.
        Returns (observations, rewards, terminations, truncations, infos), keyed by the agents live before it."""
        moves = self._check(actions)   # everything checked before anything is played
        g = self.game
        for seat, a in moves:
            g.act(seat, a)
        n = len(self.possible_agents)
        paid: list[Any] = [0] * n
        ledger = g.ledger
        for e in ledger[self._ledger_seen:]:
            paid[e["from"]] -= e["amount"]
            paid[e["to"]] += e["amount"]
        self._ledger_seen = len(ledger)
        if g.over:   # the rest of the settlement: the hand's sum is the seat's net payment
            pay = g.outcome["payments"]
            paid = [pay.get(p, pay.get(str(p), 0)) - self._rewarded[p] for p in range(n)]
        for p in range(n):
            self._rewarded[p] += paid[p]
        live = self.agents
        rewards = {a: float(paid[self.seat_of[a]]) for a in live}
        terminations = {a: g.over for a in live}
        truncations = {a: False for a in live}
        obs, infos = self._observe(live)
        if g.over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos

    def _check(self, actions: Any) -> list[tuple[int, int]]:
        """The game's (seat, action id) of every deciding seat, in play order, once every action is checked:
        ValueError for a mapping that is not one action per live agent; IllegalAction for an action that is not
        of the action space or is outside its agent's mask."""
        g = self.game
        if g is None:
            raise IllegalAction("no hand is dealt: call reset()")
        if g.over:
            raise IllegalAction("the hand is over: call reset()")
        if not isinstance(actions, Mapping):
            # ValueError, as for a mapping of the wrong agents (one documented exception to catch)
            raise ValueError(  # noqa: TRY004
                f"actions are a dict of one action per live agent ({', '.join(self.agents)}), not {_shown(actions)}")
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ValueError(f"give one action per live agent: none for {', '.join(missing)} (an agent that does "
                             f"not decide now plays the no-op, {self.noop})")
        extra = [k for k in actions if k not in self.agents]
        if extra:
            raise ValueError(f"give one action per live agent ({', '.join(self.agents)}), not one for "
                             f"{_shown(extra[0])}")
        enc = self.encoding
        deciding = [p for p in g.asking if p not in g.answers]
        moves = []
        for agent in self.agents:
            seat = self.seat_of[agent]
            try:
                i = enc.action_index(actions[agent])
            except IllegalAction as e:
                raise IllegalAction(f"{agent}: {e}") from None
            if seat not in deciding:
                if i != self.noop:
                    raise IllegalAction(f"{agent} does not decide now: its one legal action is the no-op "
                                        f"{self.noop} (pass), not {i}")
                continue
            a = int(enc.action_ids[i])
            legal = g.legal_ids(seat)
            if a not in legal:
                shown = sorted(int(enc.index_of[x]) for x in legal)
                raise IllegalAction(f"{agent}: action {i} is not legal now (legal: {shown})")
        for seat in deciding:   # in play order, as the game asks
            moves.append((seat, int(enc.action_ids[enc.action_index(actions[self.possible_agents[seat]])])))
        return moves

    def _observe(self, agents: list[str]) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        g, enc = self.game, self.encoding
        deciding = set() if g.over else {p for p in g.asking if p not in g.answers}
        obs, infos = {}, {}
        for a in agents:
            seat = self.seat_of[a]
            decides = seat in deciding
            obs[a] = {"observation": enc.observation(g, seat),
                      "action_mask": enc.mask(g, seat) if decides else self._noop_mask.copy()}
            infos[a] = {"deciding": decides}
        return obs, infos

    def render(self, mode: str | None = None) -> str | None:
        """The table as text ("ansi": returned; "human": printed), in the environment's render_mode, or in `mode`
        when one is given (RLlib's ParallelPettingZooEnv passes its own, None unless set)."""
        mode = self.render_mode if mode is None else check_render_mode(mode, self.metadata["render_modes"])
        return render(mode, self.game)

    def close(self) -> None:
        self.game = None
