"""The reference backend: a plain-Python interpreter of the IR that enumerates every reading of a hand."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from . import readings as R
from ..model.check import Checks
from ..model.distance import COUNT_FACTS, reads_counts_only, remembered
from ..compiler.ir import Src, Variant
from ..model.fans import FanCounter, alike, count_sets, placed_as, placements, set_views
from ..model.plays import Plays
from ..model.interp import UNKNOWN, Env, evaluate, flower_call
from ..model.result import Explainer, Result
from ..model.settle import settle_win
from ..model.shape import MayFit, always_fits
from ..model.situation import Situation, SituationError, check_situation, pre_draw_situation, situation_from_dict
from ..model.tiles import tile_name


@dataclass(frozen=True)
class Reading:
    """One reading: a pattern, the groups (empty for free shapes), and all tiles' kinds as counts."""

    pattern: str
    groups: tuple[R.Group, ...]
    counts: tuple[int, ...]  # 34 kinds: concealed (wilds as what they stand for) plus melds
    assignment: tuple[int, ...]  # what each wild stands for, sorted
    placed: int | None = None   # where the spec places the winning tile (win_in): its group's index, -1 none


def _clean(v: Any) -> Any:
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


class _Facts:
    """Situation-level facts shared by every reading."""

    def __init__(self, eng: ReferenceEngine, s: Situation):
        v = eng.variant
        self.s = s
        self.ws = frozenset(s.wild_kinds) if v.wild is not None else frozenset()   # the wild kinds
        self.w = s.wild if self.ws else None
        self.own = sorted(k for k in s.concealed if k in self.ws)   # the wilds' own kinds
        self.jokers = len(self.own)
        real = [0] * R.N
        for k in s.concealed:
            if k not in self.ws:
                real[k] += 1
        self.real = real
        meld_counts = [0] * R.N
        nonkong = [0] * R.N
        for m in s.melds:
            for k in m.tiles:
                meld_counts[k] += 1
                if m.kind != "kong":
                    nonkong[k] += 1
        self.meld_counts, self.nonkong = meld_counts, nonkong
        self.meld_seq = any(m.kind == "chi" for m in s.melds)
        cand = set(v.wild.stands_for) if v.wild else set()
        if v.wild and v.wild.face_value:
            cand |= self.ws
        self.cand = frozenset(k for k in cand if k in set(v.tiles.playable))
        self.flower_counts = [0] * 42
        for k in s.flowers:
            self.flower_counts[k] += 1
        self.options = v.option_defaults() | dict(s.options)
        self.waits_all: bool | None = None
        self.var = {
            "win_by": s.win_by, "is_dealer": s.is_dealer, "seat": s.seat, "dealer": s.dealer,
            "discarder": s.discarder, "first_turn": s.first_turn, "first_discard": s.first_discard,
            "declared_ready": s.declared_ready, "wild_discards": s.wild_discards, "dealer_streak": s.dealer_streak,
            "flowers": len(s.flowers), "melds": len(s.melds), "no_melds": not s.melds,
            "kongs": sum(m.kind == "kong" for m in s.melds),
            "kongs_exposed": sum(m.kind == "kong" and not m.concealed for m in s.melds),
            "kongs_concealed": sum(m.kind == "kong" and m.concealed for m in s.melds),
            "exposed_melds": sum(not (m.kind == "kong" and m.concealed) for m in s.melds),
            "last_tile": s.last_tile, "after_kong": s.after_kong, "first_draw": s.first_draw,
            "wilds": self.jokers, "wild_in_force": bool(self.ws),
            "seat_wind": (s.seat - s.dealer) % v.players, "prevalent_wind": s.prevalent_wind,
            "last_of_kind": s.last_of_kind, "ready_first_turn": s.ready_first_turn,
            "ready_uninterrupted": s.ready_uninterrupted, "marked": len(s.marked),
        }
        if v.indicator_cycles:
            held = [0] * R.N
            for k in s.concealed:
                held[k] += 1
            for m in s.melds:
                for k in m.tiles:
                    held[k] += 1
            at = eng.points_at
            self.var["indicated"] = sum(held[at[k]] for k in s.indicators if k in at)
            self.var["hidden_indicated"] = sum(held[at[k]] for k in s.hidden_indicators if k in at)
        self.exposed = any(not (m.kind == "kong" and m.concealed) for m in s.melds)
        self.wait_kinds: int | None = None
        self.claimed = s.win_by in ("discard", "rob_kong")

    def key(self) -> tuple | None:
        """What a test of partial counts reads of the situation besides its concealed tiles, as a key (None when an
        option's value cannot be one)."""
        try:
            opts = tuple(sorted(self.options.items()))
            hash(opts)
        except TypeError:
            return None
        return (tuple(sorted(self.var.items())), tuple(self.flower_counts), tuple(self.meld_counts),
                tuple(self.nonkong), self.meld_seq, opts)


class _SituationEnv(Env):
    def __init__(self, eng: ReferenceEngine, f: _Facts):
        self.eng, self.f = eng, f

    def var(self, name: str) -> Any:
        if name in self.f.var:
            return self.f.var[name]
        if name == "waits_all":
            if self.f.waits_all is None:
                self.f.waits_all = self.eng._waits_all(self.f.s)
            return self.f.waits_all
        if name == "wait_kinds":
            if self.f.wait_kinds is None:
                self.f.wait_kinds = self.eng._wait_kinds(self.f.s)
            return self.f.wait_kinds
        raise KeyError(name)

    def opt(self, name: str) -> Any:
        return self.f.options[name]

    def call(self, name: str, args: tuple) -> Any:
        if name == "waiting_hand":
            return self.eng._waiting_hand(self.f.s, args[0])
        return flower_call(name, args, [self.f.flower_counts], self.eng.variant.tiles.copies)

    def ref(self, kind: str, name: str) -> Any:
        if kind == "event":
            ev = self.eng.events[name]
            return bool(evaluate(ev.cond, self))
        raise KeyError(f"{kind} {name} needs a reading")


class _ReadingEnv(_SituationEnv):
    """Everything a reading can see. With `partial`, counts may still grow (free-shape search)."""

    def __init__(self, eng: ReferenceEngine, f: _Facts, rd: Reading | None, counts: list[int] | None = None,
                 partial: bool = False, pattern: str | None = None):
        super().__init__(eng, f)
        self.rd = rd
        self.counts = list(rd.counts) if rd is not None else counts
        self.partial = partial
        self.pattern = rd.pattern if rd is not None else pattern   # (a partial test may know its pattern)
        self.memo: dict[tuple[str, str], Any] = {}

    # reading facts
    def var(self, name: str) -> Any:
        c = self.counts
        if name == "no_sequences":
            return not self.f.meld_seq and not (self.rd and any(g.kind == "seq" for g in self.rd.groups))
        if name == "distinct":
            return self._anti(all(n <= 1 for n in c))
        if name == "one_suit":
            suits = {k // 9 for k in range(R.N) if c[k]}
            return self._anti(len(suits) <= 1 and all(k < 27 for k in range(R.N) if c[k]) and (bool(suits) or self.partial))
        if name == "fours":
            if self.partial:
                return UNKNOWN
            return sum(1 for k in range(R.N) if c[k] - self.f.meld_counts[k] + self.f.nonkong[k] >= 4)
        if name == "pair_wilds":
            if self.rd is None:
                return UNKNOWN if self.partial else 0
            return sum(sum(g.wild) for g in self.rd.groups if g.kind == "pair") if any(
                g.kind == "pair" for g in self.rd.groups) and self.eng.shape_of[self.rd.pattern] == "standard" else 0
        if name == "wilds_at_face":
            if self.partial:
                return UNKNOWN
            return sorted(self.rd.assignment) == self.f.own
        if name in ("win_at_seq_end", "win_at_seq_middle", "win_at_pair"):
            if self.partial:
                return UNKNOWN
            w = self.f.s.win_tile
            gs = self.rd.groups if self.rd is not None else ()
            if w is None:
                return False
            if name == "win_at_pair":
                return any(g.kind == "pair" and g.kinds[0] == w for g in gs)
            if name == "win_at_seq_middle":
                return any(g.kind == "seq" and g.kinds[1] == w for g in gs)
            return any(g.kind == "seq" and w in (g.kinds[0], g.kinds[2]) for g in gs)
        if name == "knitted":
            used: dict[int, int] = {}
            for k in range(27):
                if c[k]:
                    if used.setdefault(k // 9, k % 3) != k % 3:
                        return False
            return self._anti(len(set(used.values())) == len(used))
        if name in ("fan_points", "bonus_points"):
            if self.partial:
                return UNKNOWN
            fc = self.fans()
            return fc.points() if name == "fan_points" else fc.bonus()
        return super().var(name)

    def views(self) -> list:
        """The reading's sets, melds included (mjrules.model.fans.SetView)."""
        if "views" not in self.memo:
            self.memo["views"] = set_views(self.rd.groups if self.rd is not None else (), self.f.s.melds,
                                           self.f.s.win_tile, self.f.claimed,
                                           self.rd.placed if self.rd is not None else None)
        return self.memo["views"]

    def fans(self) -> FanCounter:
        """The counter of this reading's fans (mjrules.model.fans)."""
        if "fans" not in self.memo:
            self.memo["fans"] = FanCounter(self.eng.variant.fans, self.views(),
                                           lambda f: evaluate(f.count, self), self.f.exposed)
        return self.memo["fans"]

    def _anti(self, holds: bool) -> Any:
        """An antimonotone test: once false it stays false; while partial, true means 'not yet known'."""
        if not holds:
            return False
        return UNKNOWN if self.partial else True

    def call(self, name: str, args: tuple) -> Any:
        c = self.counts
        if name == "all_in":
            return self._anti(all(c[k] == 0 or k in set(args[0]) for k in range(R.N)))
        if name == "contains":
            missing = sum(1 for k in args[0] if k < R.N and c[k] == 0)
            if not missing:
                return True
            if not self.partial:
                return False
            # partial counts: the missing kinds must still fit in the hand (a complete reading holds win_size
            # tiles, one more per kong), or no completion can hold them all
            room = self.eng.variant.win_size + sum(1 for m in self.f.s.melds if m.kind == "kong") - sum(c)
            return False if missing > room else UNKNOWN
        if name == "count_in":
            return UNKNOWN if self.partial else sum(c[k] for k in args[0] if k < R.N)
        if name == "every_group":
            if self.rd is None:
                return UNKNOWN if self.partial else False
            g = set(args[0])
            if not all(g.intersection(m.tiles) for m in self.f.s.melds):
                return False
            if self.partial:
                return UNKNOWN
            return bool(self.rd.groups) and all(g.intersection(x.kinds) for x in self.rd.groups)
        if name in ("sets", "wind_sets"):
            if self.partial:
                return UNKNOWN
            group = args[1] if name == "sets" else (27 + int(args[1]),) if 0 <= args[1] < 4 else ()
            return count_sets(self.views(), args[0], group)
        if name == "win_in":
            if self.partial:
                return UNKNOWN
            rd = self.rd
            if rd is None or rd.placed is None or rd.placed < 0:
                return False
            return placed_as(rd.groups[rd.placed], self.f.s.win_tile, args[0])
        if name == "alike":
            return UNKNOWN if self.partial else alike(self.views(), args[0])
        if name == "spacing":
            d = args[0]
            ok = True
            for suit in range(3):
                ranks = [r for r in range(9) for _ in range(c[suit * 9 + r])]
                if any(b - a < d for a, b in pairwise(ranks)):
                    ok = False
            return self._anti(ok)
        return super().call(name, args)

    def ref(self, kind: str, name: str) -> Any:
        if kind == "event":
            return super().ref(kind, name)
        if self.partial:
            return (self.pattern == name) if kind == "pattern" and self.pattern is not None else UNKNOWN
        key = (kind, name)
        if key not in self.memo:
            self.memo[key] = self._ref(kind, name)
        return self.memo[key]

    def _ref(self, kind: str, name: str) -> Any:
        eng = self.eng
        if kind == "pattern":
            return self.rd.pattern == name
        if kind == "modifier":
            return name in self.modifiers()
        if kind == "status":
            return self.status() == name
        if kind == "table":
            return self.table(name)[0]
        if kind == "define":
            return evaluate(eng.defines[name].expr, self)
        if kind == "fan":
            return self.fans().final(name)
        raise KeyError(f"{kind} {name}")

    def modifiers(self) -> list[str]:
        if "mods" not in self.memo:
            out = []
            for m in self.eng.variant.modifiers:
                if m.applies_to and self.rd.pattern not in m.applies_to:
                    continue
                if evaluate(m.cond, self):
                    out.append(m.name)
            self.memo["mods"] = out
        return self.memo["mods"]

    def status(self) -> str | None:
        if "status" not in self.memo:
            st = None
            for s in self.eng.variant.statuses:
                if s.cond is None or evaluate(s.cond, self):
                    st = s.name
                    break
            self.memo["status"] = st
        return self.memo["status"]

    def table(self, name: str) -> tuple[Any, Any]:
        """The cell: the largest over rows of this pattern whose modifiers all hold (highest reading)."""
        t = self.eng.tables[name]
        col = t.columns.index(self.status()) if t.column_var else 0
        mods = set(self.modifiers())
        best, best_row = None, None
        for row in t.rows:
            fits = row.pattern == self.rd.pattern and set(row.modifiers) <= mods and col < len(row.cells)
            if fits and (best is None or row.cells[col] > best):
                best, best_row = row.cells[col], row
        if best is None:
            raise SituationError(f"table '{name}' has no cell for pattern {self.rd.pattern}")
        return best, best_row


class ReferenceEngine(Checks, Plays):
    """Decides and scores hands of one variant by enumerating every reading."""

    backend = "reference"

    def __init__(self, variant: Variant):
        self.variant = variant
        self.events = {e.name: e for e in variant.events}
        self.defines = {d.name: d for d in variant.defines}
        self.tables = {t.name: t for t in variant.tables}
        self.shape_of = {p.name: p.shape for p in variant.patterns}
        self._in_waits_all = False
        self._partial: dict[tuple, Any] = {}   # (pattern, the situation's key) -> its remembered partial test
        self._counts_only = {p.name: p.cond is None or reads_counts_only(p.cond, COUNT_FACTS)
                             for p in variant.patterns}
        self._tiles_memo: dict[str, frozenset] = {}
        self.explainer = Explainer(variant)   # (the one builder of a result's explanation, both back ends')
        self.points_at = {k: cy[(i + 1) % len(cy)] for cy in variant.indicator_cycles for i, k in enumerate(cy)}

    # ---- readings ------------------------------------------------------------------------------------
    def readings(self, s: Situation, f: _Facts | None = None) -> list[tuple[Reading, _ReadingEnv]]:
        """Every reading of the hand whose pattern condition holds."""
        return list(self.iter_readings(s, f))

    def iter_readings(self, s: Situation, f: _Facts | None = None, winnable: bool = False):
        """Readings one at a time (so a caller asking only whether one exists can stop early). With `winnable`,
        a pattern that one of the score's forbids rules out whatever its reading (the forbid holds of the pattern
        and the situation alone) yields none: a caller asking only whether the hand wins need not read it."""
        f = f or _Facts(self, s)
        v = self.variant
        sets = (v.win_size - 2) // 3 - len(s.melds)
        for p in v.patterns:
            if winnable and self._forbidden(p.name, f):
                continue
            if p.shape == "standard":
                cands = ((g, None) for g in R.standard(f.real, f.jokers, sets, f.cand)) if sets >= 0 else ()
            elif p.shape == "pairs":
                n = v.win_size // 2
                cands = ((g, None) for g in R.pairs(f.real, f.jokers, n, f.cand)) if not s.melds and v.win_size % 2 == 0 else ()
            elif p.shape == "knitted":
                cands = ((g, None) for g in R.knitted(f.real, f.jokers, sets - 3, f.cand)) if sets >= 3 else ()
            else:
                base = [f.real[k] + f.meld_counts[k] for k in range(R.N)]

                def viable(counts: list[int], complete: bool, p=p) -> bool:
                    if complete or p.cond is None:
                        return True
                    return evaluate(p.cond, _ReadingEnv(self, f, None, counts, partial=True)) is not False

                cands = (((), a) for a in R.free(base, f.jokers, f.cand, viable))
            for groups, assign in cands:
                counts = [0] * R.N
                if assign is None:
                    wilds = []
                    for g in groups:
                        for k, w in zip(g.kinds, g.wild):
                            counts[k] += 1
                            if w:
                                wilds.append(k)
                    for k in range(R.N):
                        counts[k] += f.meld_counts[k]
                    assign = tuple(sorted(wilds))
                else:
                    counts = [f.real[k] + f.meld_counts[k] for k in range(R.N)]
                    for k in assign:
                        counts[k] += 1
                for at in placements(groups, s.win_tile) if v.places_win else (None,):
                    rd = Reading(p.name, groups, tuple(counts), assign, at)
                    env = _ReadingEnv(self, f, rd)
                    if p.cond is None or evaluate(p.cond, env):
                        yield rd, env

    def _forbidden(self, pattern: str, f: _Facts) -> bool:
        """Some forbid holds of every reading of `pattern` (three-valued over counts that may still grow)."""
        forbids = self.variant.score.forbids
        if not forbids:
            return False
        env = _ReadingEnv(self, f, None, [f.real[k] + f.meld_counts[k] for k in range(R.N)], partial=True,
                          pattern=pattern)
        return any(evaluate(fb.cond, env) is True for fb in forbids)

    def _waits_all(self, s: Situation) -> bool:
        if self._in_waits_all or s.win_tile is None or s.win_by == "dealt":
            return False
        self._in_waits_all = True
        try:
            pre = list(s.concealed)
            pre.remove(s.win_tile)
            for k in self.variant.tiles.playable:
                t = s.replace(concealed=tuple(pre + [k]), win_tile=k)
                if next(self.iter_readings(t), None) is None:
                    return False
            return True
        finally:
            self._in_waits_all = False

    def _wait_kinds(self, s: Situation) -> int:
        """Builtin wait_kinds: the kinds that would have completed the hand before its winning tile by its shape
        (some pattern's reading holds), whether or not a copy of the kind is left."""
        if self._in_waits_all or s.win_tile is None or s.win_by == "dealt":
            return 0
        self._in_waits_all = True
        try:
            pre = list(s.concealed)
            pre.remove(s.win_tile)
            n = 0
            for k in self.variant.tiles.playable:
                t = s.replace(concealed=tuple(pre + [k]), win_tile=k)
                if next(self.iter_readings(t), None) is not None:
                    n += 1
            return n
        finally:
            self._in_waits_all = False

    def _waiting_hand(self, s: Situation, text: str) -> bool:
        """Builtin waiting_hand(TILES): before its winning tile the hand was these concealed tiles (or the same
        ranks in another suit when they are all of one suit), with no meld."""
        if s.melds or s.win_tile is None:
            return False
        want = self._tiles_memo.get(text)
        if want is None:
            from ..model.tiles import parse_tiles
            kinds = sorted(t.kind for t in parse_tiles(text))
            alts = {tuple(kinds)}
            suits = {k // 9 for k in kinds}
            if len(suits) == 1 and all(k < 27 for k in kinds):
                for suit in range(3):
                    alts.add(tuple(sorted(suit * 9 + k % 9 for k in kinds)))
            want = self._tiles_memo[text] = frozenset(alts)
        pre = list(s.concealed)
        pre.remove(s.win_tile)
        return tuple(sorted(pre)) in want

    # ---- for the game ---------------------------------------------------------------------------------
    def fit_test(self, options: dict[str, Any] | None = None) -> MayFit:
        """The game's cheap shape test (see mjrules.model.shape): a standard or pairs reading exists; where the variant
        has a free or a knitted pattern, a test that never rules a hand out."""
        v = self.variant
        if any(p.shape in ("free", "knitted") for p in v.patterns):
            return always_fits
        shapes = {p.shape for p in v.patterns}
        w = v.wild
        stands = frozenset(k for k in (w.stands_for if w else ()) if k in set(v.tiles.playable))

        def may_fit(counts: Any, meld_counts: Any, nmelds: int, meld_seq: bool, wild: int, plus: int = -1,
                    wild2: int = -1) -> bool:
            if plus >= R.N:
                return False
            c = list(counts[:R.N])
            if plus >= 0:
                c[plus] += 1
            jokers = 0
            cand = stands
            if wild >= 0 and w is not None:
                kinds = (wild,) if wild2 < 0 else (wild, wild2)
                for k in kinds:
                    jokers, c[k] = jokers + c[k], 0
                if w.face_value:
                    cand = stands | set(kinds)
            sets = (v.win_size - 2) // 3 - nmelds
            if "standard" in shapes and sets >= 0 and next(R.standard(c, jokers, sets, cand), None) is not None:
                return True
            return ("pairs" in shapes and not nmelds and v.win_size % 2 == 0
                    and next(R.pairs(c, jokers, v.win_size // 2, cand), None) is not None)

        return may_fit

    def partial_test(self, pattern: Any, s: Situation) -> Any:
        """The pattern condition's three-valued test on partial counts (a list of 34) with s's other facts: a
        function that is False only when no hand holding those counts can satisfy it."""
        f = _Facts(self, s)
        cond = pattern.cond

        def ok(counts: list[int]) -> bool:
            return cond is None or evaluate(cond, _ReadingEnv(self, f, None, counts, partial=True)) is not False

        key = f.key() if self._counts_only.get(pattern.name) else None
        if key is None:
            return ok
        # a condition that reads the counts and the situation's facts alone: one test per partial counts, kept for
        # every situation with the same facts (the estimates of neighbouring hands share most of their prefixes)
        key = (pattern.name, key)
        got = self._partial.get(key)
        if got is None:
            if len(self._partial) >= 256:
                self._partial.clear()
            got = self._partial[key] = remembered(ok)
        return got

    def estimator(self, options: dict[str, Any] | None = None, patterns: Any = None) -> Any:
        """The shape distance of hands by the shapes of all patterns, or of those named (mjrules.model.distance)."""
        from ..model.distance import Estimator

        return Estimator(self.variant, options, patterns, self.partial_test)

    def wins(self, s: Situation) -> bool:
        """judge(s)["win"]: the game's test before it offers a win. It stops at the first reading that no forbid
        and no minimum refuses, where judge reads them all for the best."""
        f = _Facts(self, s)
        if self._claim_refusal(s, _SituationEnv(self, f)):
            return False
        return any(self._refusal(env)[1] is None for _, env in self.iter_readings(s, f, winnable=True))

    # ---- evaluate ------------------------------------------------------------------------------------
    def evaluate(self, situation: dict | Situation, explain: bool = True) -> Result:
        """The Result of a situation; without explain, no reading and no explain lines (Engine.evaluate)."""
        s = situation_from_dict(self.variant, situation)
        if s.win_tile is None and s.win_by != "dealt":
            raise SituationError(f"'win_tile' is required for win_by {s.win_by}", "win_tile")
        return self._evaluate(s, bool(explain))

    def judge(self, s: Situation) -> Result:
        """evaluate() for a Situation the runtime built itself: trusted, so neither parsed nor checked."""
        return self._evaluate(s)

    def _evaluate(self, s: Situation, explain: bool = True) -> Result:
        v = self.variant
        f = _Facts(self, s)
        senv = _SituationEnv(self, f)
        refusal = self._claim_refusal(s, senv)
        if refusal:
            return self.explainer.losing(refusal[0], refusal[1], explain)
        best = None
        fail = None
        for rd, env in self.readings(s, f):
            value, why = self._refusal(env)
            key = (value, *[evaluate(t, env) for t in v.score.tiebreak], self._preferred(env),
                   -self._pattern_index(rd.pattern), len(env.modifiers()))
            if why is None:
                if best is None or key > best[0]:
                    best = (key, rd, env, value)
            elif fail is None or key > fail[0]:
                fail = (key, why)
        if best is None:
            if fail is None:
                return self.explainer.losing("not a winning hand: no pattern fits", None, explain,
                                             "no pattern fits the tiles")
            return self.explainer.losing(fail[1][0], fail[1][1], explain)
        _, rd, env, value = best
        return self._result(s, rd, env, value, explain)

    def _refusal(self, env: _ReadingEnv) -> tuple[Any, tuple[str, Src | None] | None]:
        """A reading's value, and the reason and source of the forbid or minimum that refuses it (None if none)."""
        score = self.variant.score
        value = _clean(evaluate(score.value, env))
        for fb in score.forbids:
            if evaluate(fb.cond, env):
                return value, (fb.reason, fb.src)
        for mn in score.minimum:
            if (mn.cond is None or evaluate(mn.cond, env)) and value < mn.amount:
                return value, (f"worth {value}, below the minimum {mn.amount}", mn.src)
        return value, None

    def _preferred(self, env: _ReadingEnv) -> bool:
        """The reading counts a fan the score prefers (ties between readings of equal value go to it)."""
        prefer = self.variant.score.prefer
        return bool(prefer) and any(env.fans().final(n) > 0 for n in prefer)

    def _pattern_index(self, name: str) -> int:
        return [p.name for p in self.variant.patterns].index(name)

    def _claim_refusal(self, s: Situation, senv: Env) -> tuple[str, Src | None] | None:
        v = self.variant
        c = v.claims
        if s.win_by == "discard":
            if v.wild and v.wild.discard_unclaimable and s.win_tile is not None and s.win_tile in s.wild_kinds:
                return (f"a discarded {v.wild.label} ({v.wild.name}) cannot be claimed", v.wild.src)
            if c.win_on_discard is None or not evaluate(c.win_on_discard, senv):
                return ("this variant does not allow a win on this discard", c.win_on_discard_src or c.src)
        if s.win_by == "rob_kong":
            if not c.rob_kong:
                return ("this variant does not allow robbing a kong", c.src)
            if s.win_tile is not None and s.win_tile in s.wild_kinds:
                return ("a wild is never used in a kong, so it cannot be robbed", v.wild.src if v.wild else None)
        return None

    def _result(self, s: Situation, rd: Reading, env: _ReadingEnv, value: Any, explain: bool) -> Result:
        """The Result of the chosen reading: its decided values, handed to the Explainer."""
        v = self.variant
        mods = set(env.modifiers())
        status = env.status()
        rows = []
        for ti in self.explainer.used:
            _, row = env.table(v.tables[ti].name)
            rows.append(next(i for i, r in enumerate(v.tables[ti].rows) if r is row))
        pay_lines: list[dict[str, Any]] = []
        payments = settle_win(v, s, lambda e: evaluate(e, _WinEnv(env, value, s)), pay_lines)
        return self.explainer.win(
            self._pattern_index(rd.pattern), rd, [i for i, m in enumerate(v.modifiers) if m.name in mods],
            [i for i, e in enumerate(v.events) if env.ref("event", e.name)],
            next((i for i, x in enumerate(v.statuses) if x.name == status), -1), rows,
            [env.ref("define", d.name) for d in v.defines], value, payments, pay_lines, explain,
            env.fans().counted() if v.fans else (), env.f.exposed)

    # ---- waits and distance -------------------------------------------------------------------------
    def waits(self, situation: dict | Situation) -> list[dict[str, Any]]:
        """Each kind that completes a pre-draw hand (win_size - 1 tiles), with the value it would give."""
        return [{"tile": tile_name(k), "value": r["value"], "pattern": r["pattern"], "patterns": r["patterns"]}
                for k, r in self._completions(pre_draw_situation(self.variant, situation))]

    def ready(self, situation: dict | Situation) -> bool:
        """Does some kind complete this pre-draw hand? (waits without the values, stopping at the first)"""
        return any(self.wins(t) for _, t in self._completed(pre_draw_situation(self.variant, situation)))

    def _completions(self, s: Situation) -> Iterator[tuple[int, dict[str, Any]]]:
        for k, t in self._completed(s):
            r = self._evaluate(t)
            if r["win"]:
                yield k, r

    def _completed(self, s: Situation) -> Iterator[tuple[int, Situation]]:
        """(kind, the hand with it drawn) for each kind a pre-draw hand may draw."""
        for k in self.variant.tiles.playable:
            t = s.replace(concealed=tuple(sorted(s.concealed + (k,))), win_tile=k)
            try:
                check_situation(self.variant, t)
            except SituationError:
                continue
            yield k, t


    def distance(self, situation: dict | Situation) -> int:
        """Distance to ready (see mjrules.model.distance): -1 wins, 0 ready, n about n exchanges away."""
        from ..model.distance import distance

        return distance(self, situation, self.partial_test)


class _WinEnv(Env):
    """The win-settlement context: a reading's names plus the game facts of a single win."""

    def __init__(self, env: _ReadingEnv, value: Any, s: Situation):
        self.env, self.value, self.s = env, value, s

    def var(self, name: str) -> Any:
        if name == "value":
            return self.value
        if name in ("someone_won",):
            return True
        if name == "winners":
            return self.s.winners
        if name == "dealer_won":
            return self.s.dealer_among_winners
        return self.env.var(name)

    def opt(self, name: str) -> Any:
        return self.env.opt(name)

    def call(self, name: str, args: tuple) -> Any:
        return self.env.call(name, args)

    def ref(self, kind: str, name: str) -> Any:
        return self.env.ref(kind, name)
