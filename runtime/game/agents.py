# cython: annotation_typing=False
"""Agents: each decides for one seat through the game's step API.

An agent is any object with `act(game, seat) -> action` (an action id from `game.legal_ids(seat)`, or a
readable action dict): it may read what the seat may see (`game.view(seat)`, `game.observe(seat)`,
`game.hand(seat)`, `game.claim_tile`, ...). An object with only the older `choose(view, legal) -> dict` (the
view and the legal actions as dicts) is an agent too. The built-in agents are ordinary agents:

    random   uniform over the legal actions (seeded)
    greedy   wins whenever it may; otherwise discards and claims to get closer to ready (the shape distance)
    seeker   like greedy, but aims each hand at one pattern drawn at random (so rare shapes get played)
"""
from __future__ import annotations

from typing import Any, Protocol

import cython

from .actions import IllegalAction
from .rng import Rng
from .state import Game, StalledGame

# Compiled (Cython's pure-Python mode, typed by agents.pxd), the action ids are state.pxd's C enums.
if not cython.compiled:
    from .actions import (
        ABORT,
        CHI_HIGH,
        CHI_LOW,
        CHI_MID,
        CHOOSE,
        DECLARE_READY,
        DISCARD,
        KONG,
        PASS,
        PON,
        ROB_WILD,
        SELECT,
        WIN,
    )

Action = dict[str, Any]


class RandomAgent:
    """The built-in random agent: uniform over the legal actions, from its own seeded numbers."""

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def act(self, game: Game, seat: int) -> int:
        """One of the seat's legal action ids, uniformly."""
        ids = game.legal.get(seat)
        if not ids or seat in game.answers:
            raise IllegalAction(f"seat {seat} is not to act now")
        return ids[self.rng.below(len(ids))]

    def choose(self, view: Any, legal: list) -> Any:
        """One of `legal` (the older agent interface: the view and the legal actions as dicts)."""
        return legal[self.rng.below(len(legal))]


def run(game: Game, agents: list, max_decisions: int = 5000) -> Game:
    """Ask the agents (one per seat: anything with act(game, seat), or choose(view, legal)) until the hand is
    over. The built-in random agent is asked without going through Python."""
    steps = 0
    while not game.over:
        seat = game._to_act()
        agent = agents[seat]
        if type(agent) is RandomAgent:   # a legal id by construction: no checks, no Python call
            ra = agent
            ids = game.legal[seat]
            game._apply(seat, ids[ra.rng.below(len(ids))])
        else:
            act = getattr(agent, "act", None)
            if act is not None:
                a = act(game, seat)
            else:
                a = agent.choose(game.view(seat), game.legal_actions(seat))
            game.act(seat, a)
        steps += 1
        if steps > max_decisions:
            raise StalledGame(f"no end after {max_decisions} decisions (seed {game.seed})")
    return game


class Agent(Protocol):
    def act(self, game: Any, seat: int) -> int | Action:
        """One of the seat's legal actions (an id from game.legal_ids(seat), or a readable dict)."""


class GreedyAgent:
    """Wins whenever it may; otherwise discards and claims to get closer to ready: the shape distance of the
    engine's estimator (mjrules.model.distance.Estimator), ties broken by keeping wilds and suited neighbours."""

    def __init__(self, variant: Any, seed: int = 0):
        self.v = variant
        self.rng = Rng(seed)
        self._est: Any = None
        self._est_rules: Any = None

    def estimator(self, game: Any) -> Any:
        """The engine's estimator for the game's options (asked once per set of rules)."""
        if self._est_rules is not game.r:
            self._est = self._make_estimator(game)
            self._est_rules = game.r
        return self._est

    def _make_estimator(self, game: Any) -> Any:
        return game.engine.estimator(game.r.overrides or None)

    def act(self, game: Any, seat: int) -> int:
        ids = game.legal_ids(seat)
        for want in (WIN, ROB_WILD, DECLARE_READY):
            if want in ids:
                return want
        s = game.seats[seat]
        if ids[0] >= CHOOSE:  # a declaration: the choice whose tiles it holds fewest of; a hand it may show: show it
            if PASS in ids:
                return ids[0]
            held = [sum(s.counts[k] for k in c["kinds"]) for c in game.choices()]
            return min(ids, key=lambda a: (held[a - CHOOSE], a))
        if ids[0] >= SELECT:  # an exchange: the tile it misses least, as a discard
            after = self.estimator(game).after_discards(s.counts, len(s.melds), game.wild, game.wild2)
            return min(ids, key=lambda a: (after[a - SELECT] if a - SELECT < len(after) and after[a - SELECT]
                                           is not None else 99, a))
        if ids[-1] == ABORT:   # (it plays on rather than call an abortive draw)
            ids = ids[:-1]
        return self._decide(self.estimator(game), s.counts, len(s.melds), game.wild, game.wild2, game.claim_tile,
                            ids)

    def _decide(self, est: Any, counts: Any, melds: int, wild: int, wild2: int, tile: int, ids: list) -> int:
        discards = [a for a in ids if DISCARD <= a < KONG]
        if discards:
            base = est.estimate(counts, melds, wild, wild2)
            for a in ids:
                if KONG <= a < PON:
                    rest = bytearray(counts)
                    rest[a - KONG] = 0
                    if est.estimate(rest, melds + 1, wild, wild2) <= base:
                        return a
            return self._discard(est.after_discards(counts, melds, wild, wild2), counts, wild, wild2, discards)
        # a claim: take it only if it brings the hand closer (it must still discard afterwards)
        best = -1
        best_val = est.estimate(counts, melds, wild, wild2)
        for a in ids:
            used = _used(a, tile)
            if used is None:
                continue
            rest = bytearray(counts)
            for k in used:
                rest[k] -= 1
            if KONG <= a < PON:
                after = est.estimate(rest, melds + 1, wild, wild2)
            else:
                after = best_val
                for x in est.after_discards(rest, melds + 1, wild, wild2):
                    if x is not None and x < after:
                        after = x
            if after < best_val:
                best = a
                best_val = after
        return best if best >= 0 else PASS

    def _discard(self, after: list, counts: Any, wild: int, wild2: int, discards: list) -> int:
        """The discard of least distance after it; among equals, not a wild, an honour first, fewest suited
        neighbours, then at random (a number drawn for each of the equals, in order)."""
        n = len(after)
        low = 99
        for a in discards:
            d = after[a] if a < n and after[a] is not None else 99
            if d < low:
                low = d
        pick = -1
        ties = 0
        for a in discards:
            d = after[a] if a < n and after[a] is not None else 99
            if d == low:
                ties += 1
                pick = a
        if ties == 1:
            return pick
        pick = -1
        best_key = 0
        best_draw = 0
        for a in discards:
            d = after[a] if a < n and after[a] is not None else 99
            if d != low:
                continue
            # the key (is a wild, not an honour, suited neighbours) in one number; then the draw
            key = (a == wild or a == wild2) * 16 + (a < 27) * 8 + _neighbours(counts, a)
            draw = self.rng.next64()
            if pick < 0 or key < best_key or (key == best_key and draw < best_draw):
                pick = a
                best_key = key
                best_draw = draw
        return pick


def _neighbours(counts: Any, k: int) -> int:
    """Suited tiles held within two ranks of k (a discard that keeps them is better)."""
    if k >= 27:
        return 0
    r = k % 9
    n = 0
    for d in (-2, -1, 1, 2):
        if 0 <= r + d <= 8 and counts[k + d]:
            n += 1
    return n


def _used(a: int, tile: int) -> list[int] | None:
    """The tiles from the hand a claim of `tile` uses."""
    if tile < 0:
        return None
    if a == PON:
        return [tile, tile]
    if KONG <= a < PON:
        return [tile] * 3
    if a == CHI_LOW:
        return [tile + 1, tile + 2]
    if a == CHI_MID:
        return [tile - 1, tile + 1]
    if a == CHI_HIGH:
        return [tile - 2, tile - 1]
    return None


class SeekerAgent(GreedyAgent):
    """Like greedy, but each hand it aims at one pattern drawn at random (so rare shapes get played too): its
    distance counts only that pattern's shape."""

    def __init__(self, variant: Any, seed: int = 0):
        super().__init__(variant, seed)
        pats = list(variant.patterns)
        self.target = pats[self.rng.below(len(pats))]

    def _make_estimator(self, game: Any) -> Any:
        return game.engine.estimator(game.r.overrides or None, (self.target.name,))


class ScriptedAgent:
    """Plays a fixed list of actions (a replay or a scenario), then defers to `fallback`."""

    def __init__(self, actions: list[Action], fallback: Any = None):
        self.actions = list(actions)
        self.fallback = fallback

    def act(self, game: Any, seat: int) -> int | Action:
        if self.actions:
            return self.actions.pop(0)
        if self.fallback is None:
            raise LookupError(f"seat {seat}: the script has no more actions")
        return decide(self.fallback, game, seat)


class PassAgent:
    """Declines whatever it may decline; on its turn discards the tile it drew (or its last tile)."""

    def act(self, game: Any, seat: int) -> int:
        ids = game.legal_ids(seat)
        if PASS in ids:
            return PASS
        discards = [a for a in ids if DISCARD <= a < KONG]
        if discards:
            drawn = game.drawn if seat == game.current else -1
            return DISCARD + drawn if DISCARD + drawn in discards else discards[-1]
        return ids[0]


AGENTS = ("random", "greedy", "seeker")


def make_agent(name: str, variant: Any, seed: int) -> Any:
    """A built-in agent by name: random, greedy or seeker."""
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(variant, seed)
    if name == "seeker":
        return SeekerAgent(variant, seed)
    raise ValueError(f"unknown agent '{name}'; choose {', '.join(AGENTS)}")


def decide(agent: Any, game: Any, seat: int) -> Any:
    """The agent's action for seat: act(game, seat), or choose(view, legal) for an agent of the older kind."""
    act = getattr(agent, "act", None)
    if act is not None:
        return act(game, seat)
    return agent.choose(game.view(seat), game.legal_actions(seat))


__all__ = ["AGENTS", "Agent", "GreedyAgent", "PassAgent", "RandomAgent", "ScriptedAgent", "SeekerAgent", "decide",
           "make_agent"]
