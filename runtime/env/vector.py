"""Many tables stepped at once: a Gymnasium VectorEnv of `num_envs` single-seat tables (mjrules.env.single), with
observations, masks, rewards and flags as NumPy arrays and each table dealt again as soon as its hand ends.

Autoreset is Gymnasium's "same step" mode: a table whose hand ended in a step returns the first observation of
its next hand in that step, with the last observation of the ended hand in `infos["final_obs"]` (and
`infos["_final_obs"]` marking which tables ended). Table i is seeded with seed + i.

The actions of a step are an integer array of shape (num_envs,), checked before any table moves: another shape
raises ValueError; another dtype (floats, bools, objects, strings) or an entry outside 0..A-1 raises
mjrules.game.IllegalAction (a ValueError), and so, with illegal="raise", does an entry outside its table's mask.
"""
from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..game.state import IllegalAction
from .single import MahjongGymEnv


class MahjongVectorEnv(VectorEnv):
    """`num_envs` tables of one variant, the learner at `seat` of each (made by mjrules.env.vector_env)."""

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, variant: Any, num_envs: int, *, seat: int = 0, opponents: Any = "greedy",
                 seed: int | None = None, illegal: str = "random", backend: str | None = None, **options: Any):
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number 1 or more, not {num_envs!r}")
        first = MahjongGymEnv(variant, seat=seat, opponents=opponents, illegal=illegal, backend=backend, **options)
        self.envs = [first] + [MahjongGymEnv(first.engine, seat=seat, opponents=opponents, illegal=illegal,
                                             **options) for _ in range(num_envs - 1)]
        self.num_envs = num_envs
        self.first_seed = seed
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        enc = self.encoding = first.encoding
        self.obs = np.zeros((num_envs, enc.size), dtype=np.float32)
        self.masks = np.zeros((num_envs, enc.n_actions), dtype=np.int8)
        self.render_mode = None
        self.seeded = False

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a hand at every table (table i seeded with seed + i, or with seed[i] from a list); options as
        the single-table environment's reset takes them, checked first."""
        self.encoding.reset_options(options)   # a bad option raises ValueError before any table is dealt
        if isinstance(seed, list) and len(seed) != self.num_envs:
            raise ValueError(f"give one seed per table ({self.num_envs}), or one seed, not a list of {len(seed)}")
        if seed is None and not self.seeded:
            seed = self.first_seed
        self.seeded = True
        seeds = seed if isinstance(seed, list) else [None if seed is None else seed + i for i in range(self.num_envs)]
        for i, (e, s) in enumerate(zip(self.envs, seeds)):
            e.deal(seed=s, options=options)
            self._write(i, e)
        return self._batch(), {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One decision at every table; a table whose hand ended is dealt again in the same step."""
        acts = self._check(actions)
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        illegal = np.zeros(n, dtype=bool)
        final: list[Any] = [None] * n
        for i, e in enumerate(self.envs):
            r, done, info = e.take(int(acts[i]))
            rewards[i] = r
            illegal[i] = info.get("illegal", False)
            if done:
                terminated[i] = True
                final[i] = e.observation()
                e.deal()
            self._write(i, e)
        infos: dict[str, Any] = {}
        if illegal.any():
            infos["illegal"], infos["_illegal"] = illegal, illegal.copy()
        if terminated.any():
            infos["final_obs"] = np.array(final, dtype=object)
            infos["_final_obs"] = terminated.copy()
        return self._batch(), rewards, terminated, np.zeros(n, dtype=bool), infos

    def _check(self, actions: Any) -> np.ndarray:
        """The step's actions, checked before any table moves: ValueError for another shape, IllegalAction for an
        array that is not of integers or holds one outside 0..A-1 (and, with illegal="raise", one outside its
        table's mask)."""
        try:
            acts = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        except (ValueError, TypeError, OverflowError):   # ragged nesting and the like: no array at all
            raise ValueError(f"give one action per table: an array of shape ({self.num_envs},), not "
                             f"a {type(actions).__name__} that makes no array") from None
        if acts.shape != (self.num_envs,):
            raise ValueError(f"give one action per table: an array of shape ({self.num_envs},), not {acts.shape}")
        if acts.dtype.kind not in "iu":
            raise IllegalAction(f"actions are integers 0..{self.encoding.n_actions - 1}: an integer array, not "
                                f"one of dtype {acts.dtype}")
        bad = np.flatnonzero((acts < 0) | (acts >= self.encoding.n_actions))
        if bad.size:
            i = int(bad[0])
            raise IllegalAction(f"table {i}: an action is an integer 0..{self.encoding.n_actions - 1}, "
                                f"not {int(acts[i])}")
        if self.envs[0].illegal == "raise":
            off = np.flatnonzero(self.masks[np.arange(self.num_envs), acts] == 0)
            if off.size:
                i = int(off[0])
                legal = np.flatnonzero(self.masks[i]).tolist()
                raise IllegalAction(f"table {i}: action {int(acts[i])} is not legal now (legal: {legal})")
        return acts

    def action_masks(self) -> np.ndarray:
        """Every table's legal actions now, as bool[num_envs, A]."""
        return self.masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        for e in self.envs:
            e.close()

    def _write(self, i: int, e: MahjongGymEnv) -> None:
        enc = self.encoding
        enc.observation(e.game, e.seat, self.obs[i])
        enc.mask(e.game, e.seat, self.masks[i])

    def _batch(self) -> dict[str, np.ndarray]:
        return {"observation": self.obs.copy(), "action_mask": self.masks.copy()}
