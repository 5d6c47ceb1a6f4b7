"""Fans: counted scoring elements, their combinations of sets, and what a fan that counts implies (不计).

A spec's `fan` clauses (mjrules.compiler.ir.Fan) are counted per reading by `FanCounter`, which the back ends
share. The pieces:

- The sets of a reading (`SetView`): its sequences, pungs, kongs and pairs, the melds included, each with its
  lowest tile and whether it was never shown (concealed).
- Combination fans (`Combo`): n sets of one kind related by suit and rank (一般高, 三色三步高, 清龙 ...). They are
  counted together by the account-once rule (`account`): the largest combination the sets make counts; when it
  leaves one set over, that set may join one set of the combination once more (the first two-set combination
  it makes, in the spec's order); with no combination of three or more sets, each pair of sets that makes a
  two-set combination counts, but no more pairs than the sets can account for: each set joins once, so at most
  (the sets in some pair) less (the groups of sets linked by pairs). When there are more, repeats are dropped
  first, the fan declared last first; then single ones, in the same order.
- A fan's count: its `= COUNT` expression (which may read other fans' counts), 1 for a combination's, or for an
  `otherwise` fan 1 when no other fan (bonus fans aside) counts.
- Exclusion (不计): a fan is not counted when a fan that excludes it counts (itself not excluded): a fan
  implied by one that does not count comes back (四暗刻 excludes 不求人, which excluded 自摸: 自摸 counts).
- Limits (役満): while a `limit` fan counts, no other fan does.
- Open points (食い下がり): a fan with `open N` is worth N in a hand with an exposed meld.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

SEQ, PUNG, KONG, PAIR, KNIT = "seq", "pung", "kong", "pair", "knit"


class SetView:
    """One set of a reading: kind seq | pung | kong | pair | knit, its lowest kind, concealed (never shown)."""

    __slots__ = ("kind", "low", "concealed", "meld")

    def __init__(self, kind: str, low: int, concealed: bool, meld: bool) -> None:
        self.kind, self.low, self.concealed, self.meld = kind, low, concealed, meld

    def __repr__(self) -> str:
        return f"SetView({self.kind}, {self.low}, concealed={self.concealed}, meld={self.meld})"


def set_views(groups: Sequence[Any], melds: Sequence[Any], win_tile: int | None, claimed: bool,
              placed: int | None = None) -> list[SetView]:
    """The sets of a reading: its groups (kind seq | pung | pair | knit, with .kinds) and the melds (kind chi | pon
    | kong, .tiles, .concealed). A concealed pung of the winning tile's kind, when that tile was claimed, is shown,
    unless a concealed sequence of the reading holds that kind (the tile is read into the sequence). Where the
    reading places its winning tile (placed: the index of its group, -1 none), the pung it is placed in is the one
    shown, when it was claimed."""
    out = []
    in_seq = win_tile is not None and any(g.kind == SEQ and win_tile in g.kinds for g in groups)
    for i, g in enumerate(groups):
        k0 = min(g.kinds)
        if g.kind == PUNG:
            shown = claimed and (i == placed if placed is not None else k0 == win_tile and not in_seq)
            out.append(SetView(PUNG, k0, not shown, False))
        else:
            out.append(SetView(g.kind, k0, True, False))
    for m in melds:
        kind = {"chi": SEQ, "pon": PUNG, "kong": KONG}[m.kind]
        out.append(SetView(kind, min(m.tiles), bool(m.concealed), True))
    return out


SET_TESTS: dict[str, Callable[[SetView], bool]] = {
    "seq": lambda s: s.kind == SEQ,
    "pung": lambda s: s.kind in (PUNG, KONG),
    "kong": lambda s: s.kind == KONG,
    "pair": lambda s: s.kind == PAIR,
    "concealed_pung": lambda s: s.kind in (PUNG, KONG) and s.concealed,
    "concealed_kong": lambda s: s.kind == KONG and s.concealed,
    "exposed_kong": lambda s: s.kind == KONG and not s.concealed,
}


def placed_as(group: Any, win_tile: int, where: str) -> bool:
    """Builtin win_in: does the winning tile, placed in this group of the reading, complete it so? (pair, pung,
    seq_middle, seq_edge: 12 waiting on 3 or 89 on 7, seq_sides: a sequence either end completes)."""
    if group is None:
        return False
    if where in (PAIR, PUNG):
        return group.kind == where
    if group.kind != SEQ:
        return False
    k0 = min(group.kinds)
    edge = (k0 % 9 == 0 and win_tile == k0 + 2) or (k0 % 9 == 6 and win_tile == k0)
    if where == "seq_middle":
        return win_tile == k0 + 1
    if where == "seq_edge":
        return edge
    return win_tile in (k0, k0 + 2) and not edge


def placements(groups: Sequence[Any], win_tile: int | None) -> list[int]:
    """The groups a reading may place its winning tile in (one of each shape: identical groups place alike): the
    indices of the groups that hold its kind as a tile that is not a wild; [-1] where there is none."""
    if win_tile is None:
        return [-1]
    out, seen = [], set()
    for i, g in enumerate(groups):
        if any(k == win_tile and not w for k, w in zip(g.kinds, g.wild)):
            key = (g.kind, tuple(g.kinds), tuple(g.wild))
            if key not in seen:
                seen.add(key)
                out.append(i)
    return out or [-1]


def alike(views: Sequence[SetView], kind: str) -> int:
    """Builtin alike: pairs of identical sets of the kind (the same kind of set on the same tiles), each set in one
    pair at most."""
    test = SET_TESTS[kind]
    seen: dict[tuple[str, int], int] = {}
    for s in views:
        if test(s):
            seen[(s.kind, s.low)] = seen.get((s.kind, s.low), 0) + 1
    return sum(n // 2 for n in seen.values())


def count_sets(views: Sequence[SetView], kind: str, group: Any) -> int:
    """Builtin sets(kind, group): the sets of that kind whose lowest tile is in the group."""
    test = SET_TESTS[kind]
    g = group if isinstance(group, (set, frozenset)) else frozenset(group)
    return sum(1 for s in views if test(s) and s.low in g)


def combo_holds(combo: Any, lows: Sequence[int]) -> bool:
    """Do sets with these lowest kinds (suited, one per set) make the combination?"""
    if any(k >= 27 for k in lows):
        return False
    suits = [k // 9 for k in lows]
    if combo.suits == "same_suit":
        if len(set(suits)) != 1:
            return False
    elif len(set(suits)) != len(suits):
        return False
    ranks = sorted(k % 9 + 1 for k in lows)
    if combo.ranks:
        return tuple(ranks) == tuple(combo.ranks)
    steps = {b - a for a, b in zip(ranks, ranks[1:])}
    return len(steps) == 1 and next(iter(steps)) in combo.steps


def account(fans: Sequence[Any], lows: Sequence[int]) -> dict[int, int]:
    """The account-once rule over sets of one kind (see the module docstring): fans are (index, fan) pairs of
    combination fans of that kind in the spec's order; lows the sets' lowest kinds. Returns index -> count."""
    n = len(lows)
    out: dict[int, int] = {}
    pairs = [(i, f) for i, f in fans if f.combo.size == 2]
    for size in sorted({f.combo.size for _, f in fans if f.combo.size > 2}, reverse=True):
        if size > n:
            continue
        best = None
        for sub in combinations(range(n), size):
            ls = [lows[j] for j in sub]
            for i, f in fans:
                if f.combo.size == size and combo_holds(f.combo, ls):
                    if best is None or f.points > best[1].points:
                        best = (i, f, sub)
                    break
        if best is None:
            continue
        out[best[0]] = 1
        joined = [j for j in range(n) if j not in best[2]]
        used = set(best[2])
        for j in joined:   # each set left over joins one other set once
            hit = next(((i, f) for i, f in pairs for m in sorted(used | set(joined)) if m != j
                        and combo_holds(f.combo, [lows[j], lows[m]])), None)
            if hit is not None:
                out[hit[0]] = out.get(hit[0], 0) + 1
        return out
    edges = []
    for a, b in combinations(range(n), 2):
        hit = next((i for i, f in pairs if combo_holds(f.combo, [lows[a], lows[b]])), None)
        if hit is not None:
            edges.append((a, b, hit))
    if not edges:
        return out
    parent = list(range(n))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    linked = set()
    for a, b, _ in edges:
        linked |= {a, b}
        parent[root(a)] = root(b)
    limit = len(linked) - len({root(x) for x in linked})
    for _, _, i in edges:
        out[i] = out.get(i, 0) + 1
    total = len(edges)
    order = [i for i, _ in reversed(pairs)]   # the fan declared last is dropped first
    for keep in (1, 0):
        for i in order:
            while total > limit and out.get(i, 0) > keep:
                out[i] -= 1
                total -= 1
    return {i: c for i, c in out.items() if c}


class FanCounter:
    """Counts one variant's fans on one reading. `count_of(fan)` evaluates a fan's `= COUNT` expression
    (through the back end's expression evaluator, which asks `final` for the fans it names); `views` are the
    reading's sets. `final(name)` is the count after exclusions, `points()` and `bonus()` the sums."""

    def __init__(self, fans: Sequence[Any], views: Sequence[SetView], count_of: Callable[[Any], Any],
                 exposed: bool = False) -> None:
        self.fans = fans
        self.exposed = exposed   # the hand has an exposed meld: fans count their open points
        self.limits = [i for i, f in enumerate(fans) if getattr(f, "limit", False)]
        self.index = {f.name: i for i, f in enumerate(fans)}
        self.views = views
        self.count_of = count_of
        self.raw_memo: dict[int, Any] = {}
        self.final_memo: dict[int, Any] = {}
        self.combos: dict[int, int] | None = None
        self.excluders: dict[int, list[int]] = {}
        for i, f in enumerate(fans):
            for x in f.excludes:
                self.excluders.setdefault(self.index[x], []).append(i)

    def _combos(self) -> dict[int, int]:
        if self.combos is None:
            got: dict[int, int] = {}
            for kind, test in (("seq", SET_TESTS["seq"]), ("pung", SET_TESTS["pung"])):
                fans = [(i, f) for i, f in enumerate(self.fans) if f.combo is not None and f.combo.kind == kind]
                if fans:
                    got.update(account(fans, sorted(s.low for s in self.views if test(s))))
            self.combos = got
        return self.combos

    def raw(self, i: int) -> Any:
        if i not in self.raw_memo:
            f = self.fans[i]
            if f.combo is not None:
                v: Any = self._combos().get(i, 0)
            elif f.otherwise:
                v = int(not any(self.final(j) for j, g in enumerate(self.fans)
                                if j != i and not g.bonus and not g.otherwise))
            else:
                v = self.count_of(f)
                if isinstance(v, float) and v.is_integer():
                    v = int(v)
            self.raw_memo[i] = v
        return self.raw_memo[i]

    def final(self, name_or_index: Any) -> Any:
        i = name_or_index if isinstance(name_or_index, int) else self.index[name_or_index]
        if i not in self.final_memo:
            v = self.raw(i)
            if v and any(self.final(j) > 0 for j in self.excluders.get(i, ())):
                v = 0
            if v and self.limits and not self.fans[i].limit and any(self.final(j) > 0 for j in self.limits):
                v = 0   # a limit fan counts: only limit fans do
            self.final_memo[i] = v
        return self.final_memo[i]

    def counted(self) -> list[tuple[int, Any]]:
        """(index, count) of every fan that counts, in the spec's order."""
        return [(i, c) for i in range(len(self.fans)) if (c := self.final(i))]

    def points(self) -> Any:
        return sum(f.points_for(self.exposed) * self.final(i) for i, f in enumerate(self.fans))

    def bonus(self) -> Any:
        return sum(f.points_for(self.exposed) * self.final(i) for i, f in enumerate(self.fans) if f.bonus)
