"""Agents: given what one seat may see and its legal actions, choose one action."""
from __future__ import annotations

import random
from typing import Any, Protocol

from .distance import _group_options, first_fit, free_estimate, pairs_shanten, standard_shanten
from .tiles import TILE_NAMES, parse_tile

Action = dict[str, Any]


class Agent(Protocol):
    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """One of `legal`."""


class RandomAgent:
    """Uniform over the legal actions."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return self.rng.choice(legal)


class GreedyAgent:
    """Wins whenever it may; otherwise discards and claims to get closer to ready (the shape distance)."""

    def __init__(self, variant: Any, seed: int = 0):
        self.v = variant
        self.rng = random.Random(seed)
        shapes = {p.shape for p in variant.patterns}
        self.standard = "standard" in shapes
        self.pairs = "pairs" in shapes and variant.win_size % 2 == 0
        self.free = [p for p in variant.patterns if p.shape == "free"]
        self._cache: dict[tuple, int] = {}

    def estimate(self, concealed: list[int], melds: int, wild: int | None) -> int:
        """The shape distance of a hand (cached: agents ask about the same hands again and again)."""
        key = (tuple(sorted(concealed)), melds, wild)
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) > 50_000:
                self._cache.clear()
            hit = self._cache[key] = self._estimate(concealed, melds, wild)
        return hit

    def _estimate(self, concealed: list[int], melds: int, wild: int | None) -> int:
        c = [0] * 34
        jokers = 0
        for k in concealed:
            if k == wild:
                jokers += 1
            else:
                c[k] += 1
        est = []
        if self.standard:
            est.append(_standard_shanten(c, max(0, (self.v.win_size - 2) // 3 - melds)))
        if self.pairs and melds == 0:
            est.append(pairs_shanten(c, self.v.win_size // 2))
        if self.free and melds == 0:
            from .situation import Situation

            held = Situation(concealed=tuple(k for k in concealed if k != wild))
            est += [_free_estimate(self.v, p, c, held) for p in self.free]
        return (min(est) if est else 8) - jokers

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        for t in ("win", "rob_gold", "declare_ready"):
            for a in legal:
                if a["type"] == t:
                    return a
        wild = parse_tile(view["wild"]).kind if view.get("wild") else None
        hand = [parse_tile(t).kind for t in view["concealed"]]
        melds = len(view["players"][view["seat"]]["melds"])
        tile = parse_tile(view["last_discard"]).kind if view.get("last_discard") else None
        return self._decide(hand, melds, wild, tile, legal)

    def choose_in(self, game: Any, seat: int, legal: list[Action]) -> Action:
        """choose(game.view(seat), legal), read from the game's state without building the view."""
        for t in ("win", "rob_gold", "declare_ready"):
            for a in legal:
                if a["type"] == t:
                    return a
        me = game.seats[seat]
        phase = game.phase
        tile = game.last_discard[1] if phase == "claims" else game._robk[1] if phase == "rob_kong" else None
        return self._decide(list(me.concealed), len(me.melds), game.wild, tile, legal)

    def _decide(self, hand: list[int], melds: int, wild: int | None, tile: int | None, legal: list[Action]) -> Action:
        discards = [a for a in legal if a["type"] == "discard"]
        if discards:
            kongs = [a for a in legal if a["type"] == "kong"]
            base = self.estimate(hand, melds, wild)
            for a in kongs:
                k = parse_tile(a["tile"]).kind
                if self.estimate([t for t in hand if t != k], melds + 1, wild) <= base:
                    return a
            return min(discards, key=lambda a: self._discard_key(hand, melds, wild, parse_tile(a["tile"]).kind))
        # a claim: take it only if it brings the hand closer (it must still discard afterwards)
        claims = [a for a in legal if a["type"] in ("kong", "pon", "chi")]
        if claims:
            base = self.estimate(hand, melds, wild)
            best, best_val = None, base
            for a in claims:
                used = self._used(a, tile)
                if used is None:
                    continue
                rest = list(hand)
                try:
                    for k in used:
                        rest.remove(k)
                except ValueError:
                    continue
                after = min((self.estimate([t for j, t in enumerate(rest) if j != i], melds + 1, wild)
                             for i in range(len(rest))), default=base) if a["type"] != "kong" else \
                    self.estimate(rest, melds + 1, wild)
                if after < best_val:
                    best, best_val = a, after
            if best is not None:
                return best
        return next(a for a in legal if a["type"] == "pass")

    def _used(self, a: Action, tile: int | None) -> list[int] | None:
        if tile is None:
            return None
        if a["type"] == "pon":
            return [tile, tile]
        if a["type"] == "kong":
            return [tile] * 3
        return [parse_tile(t).kind for t in a["tiles"]]

    def _discard_key(self, hand: list[int], melds: int, wild: int | None, k: int) -> tuple:
        rest = list(hand)
        rest.remove(k)
        isolated = sum(1 for d in (-2, -1, 1, 2) if k < 27 and 0 <= k % 9 + d <= 8 and (k + d) in rest)
        return (self.estimate(rest, melds, wild), k == wild, -(k >= 27), isolated, self.rng.random())


class SeekerAgent(GreedyAgent):
    """Like greedy, but each hand it aims at one pattern drawn at random (so rare shapes get played too)."""

    def __init__(self, variant: Any, seed: int = 0):
        super().__init__(variant, seed)
        self.target = self.rng.choice(list(variant.patterns))
        shape = self.target.shape
        self.standard = shape == "standard"
        self.pairs = shape == "pairs" and variant.win_size % 2 == 0
        self.free = [self.target] if shape == "free" else []


class ScriptedAgent:
    """Plays a fixed list of actions (a replay or a scenario), then defers to `fallback`."""

    def __init__(self, actions: list[Action], fallback: Agent | None = None):
        self.actions = list(actions)
        self.fallback = fallback

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if self.actions:
            return self.actions.pop(0)
        if self.fallback is None:
            raise LookupError(f"seat {view['seat']}: the script has no more actions")
        return self.fallback.choose(view, legal)


def make_agent(name: str, variant: Any, seed: int) -> Agent:
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(variant, seed)
    if name == "seeker":
        return SeekerAgent(variant, seed)
    raise ValueError(f"unknown agent '{name}'; choose random, greedy or seeker")


# ---- the free-shape estimate, remembered --------------------------------------------------------------------
# distance.free_estimate first-fits the tiles in three orders, testing the pattern's condition on each partial
# count vector (a few dozen tree-walked evaluations per hand). For the hand the greedy agent asks about (no
# melds, no wild, default facts: Situation(concealed=...)), every fact the condition can read on partial
# counts is either a function of the counts (distinct, one_suit, all_in, spacing, ...), a constant of such a
# default situation (melds, flowers, win_by, options, ...), or UNKNOWN (fours, references other than events)
# -- except waits_all and events, which read the whole hand. When the condition (checked below, by an allowlist)
# reads none of those, the test is a function of the counts alone and each distinct count vector is evaluated
# once per pattern. The answers are those of distance.free_estimate (tests/test_game_speed_equivalence.py).

_COUNT_VARS = frozenset({"no_sequences", "distinct", "one_suit", "fours", "pair_wilds", "wilds_at_face"})
_CONST_VARS = frozenset({"win_by", "is_dealer", "seat", "dealer", "discarder", "first_turn", "first_discard",
                         "declared_ready", "wild_discards", "dealer_streak", "flowers", "melds", "no_melds", "kongs",
                         "kongs_exposed", "kongs_concealed", "wilds"})
_CALLS = frozenset({"all_in", "contains", "count_in", "spacing", "flower_fours", "flower_complete", "max", "min"})
_OPS = frozenset({"const", "enum", "group", "add", "sub", "mul", "div", "pow", "eq", "ne", "lt", "le", "gt", "ge",
                  "neg", "not", "and", "or", "if", "in", "max", "min"})
_FREE_MEMO: dict[tuple[int, int], tuple[Any, Any, dict[tuple[int, ...], bool], list] | None] = {}
_FREE_MEMO_LIMIT = 200_000  # count vectors remembered per pattern (emptied when full)


def _counts_only(e: Any) -> bool:
    """Does the free-shape condition `e`, on partial counts of a default situation, read only the counts?"""
    op, a = e.op, e.args
    if op == "var":
        return a[0] in _COUNT_VARS or a[0] in _CONST_VARS
    if op == "opt":
        return True
    if op == "ref":
        return a[0] != "event"  # partial: UNKNOWN without reading anything
    if op == "call":
        return a[0] in _CALLS and all(_counts_only(x) for x in a[1:])
    if op in ("const", "enum", "group"):
        return True
    return op in _OPS and all(_counts_only(x) for x in a)


def _free_memo(v: Any, pattern: Any) -> tuple[Any, Any, dict[tuple[int, ...], bool], list] | None:
    key = (id(v), id(pattern))
    hit = _FREE_MEMO.get(key, False)
    if hit is False or hit is not None and (hit[0] is not v or hit[1] is not pattern):
        hit = _FREE_MEMO[key] = (v, pattern, {}, []) if pattern.cond is not None and _counts_only(pattern.cond) \
            else None
    return hit


def _free_estimate(v: Any, pattern: Any, c: list[int], held: Any) -> int:
    """distance.free_estimate(v, pattern, c, held) for held = Situation(concealed=...) (no melds, default facts)."""
    memo = _free_memo(v, pattern)
    if memo is None or held.melds or held.wild is not None or held.flowers or held.options:
        return free_estimate(v, pattern, c, held)
    seen = memo[2]
    if len(seen) > _FREE_MEMO_LIMIT:
        seen.clear()
    env = memo[3]

    def ok(counts: list[int]) -> bool:
        key = tuple(counts)
        r = seen.get(key)
        if r is None:
            if not env:  # any default situation's facts will do: the condition reads none that differ
                from .distance import _engine_for
                from .reference import _Facts, _ReadingEnv

                eng = _engine_for(v)
                env.append((eng, _Facts(eng, held.replace(win_tile=None)), _ReadingEnv))
            eng, f, reading_env = env[0]
            r = seen[key] = evaluate(pattern.cond, reading_env(eng, f, None, counts, partial=True)) is not False
        return r

    from .interp import evaluate

    return (v.win_size - 1) - first_fit(c, [0] * len(c), ok)


# distance.standard_shanten reads the counts only through each suit's option set (_group_options, cached, so
# equal counts give the very same frozenset): the distance is remembered per (four option sets, sets wanted),
# which repeat far more often than hands do.
_SHANTEN: dict[tuple, int] = {}


def _standard_shanten(c: list[int], n_sets: int) -> int:
    """distance.standard_shanten(c, n_sets), remembered."""
    key = (_group_options(tuple(c[0:9]), False), _group_options(tuple(c[9:18]), False),
           _group_options(tuple(c[18:27]), False), _group_options(tuple(c[27:34]), True), n_sets)
    hit = _SHANTEN.get(key)
    if hit is None:
        if len(_SHANTEN) > 200_000:
            _SHANTEN.clear()
        hit = _SHANTEN[key] = standard_shanten(c, n_sets)
    return hit
