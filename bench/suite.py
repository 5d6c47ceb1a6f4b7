"""`mjrules bench`: one run measuring every performance target, for each variant and backend.

For each variant (default: the shipped base variants, base_variants(): those that extend no other) and backend (native, reference; the reference
on fewer hands and loops) it measures, on deterministic hands generated legal for the variant:

1. the win check (mjrules.model.check) on random, near-winning and winning hands with 0..4 wilds (only 0 where the
   variant has no wilds; at most the variant's live copies): the per-hand call `engine.is_win(counts, wilds,
   wild)` and the batch call `engine.check_batch(array, wilds, wild=...)` (one call for all the hands of a
   class, looped; the native batch also with 2 threads, to show the scaling);
2. the wait kinds `engine.wait_kinds` on ready hands (a winning hand without its winning tile), and the
   full `engine.waits` (each wait with its value) on the same hands;
3. the full `engine.evaluate` on winning hands, the same with `explain=False` (no reading, no explanation
   lines; held to the same target), and `engine.hand_value` (value and pattern only) on them. These loop
   over the same hands, so they time the engine's remembered results; `evaluate` is also timed on hands
   the engine has never evaluated (`evaluate_new`: a fresh engine per repeat, warmed on the looped hands,
   then each new hand evaluated once), held to the same target: what a game server mostly sees;
4. complete hands per second of `mjrules.game.play_hand` with four built-in random and four greedy agents, and
   of a hand stepped through the game's step API by four trivial Python agents (uniform over the legal ids),
   beside riichienv's RiichiEnv("4p-red-single") stepped by its own Python RandomAgent in the same run (a peer;
   the row is skipped where riichienv is not installed);

5. the environments of mjrules.env (where the rl extra is installed; bench/rl.py): AEC steps per second on one
   table with random legal actions, beside riichienv's environment stepped by its RandomAgent (decisions per
   second), and a vector of 64 tables (learner steps and all seats' decisions per second); and, for the first
   variant, simulate's hands per second on a local Ray of 2 CPUs against --jobs 2 (where Ray is installed);

and, in the same run, on the same hands without wilds, the `mahjong` package's `Agari().is_agari` and
`Shanten().calculate_shanten` (Tenhou 34-order), reported as speed-ups (is_agari time / native time).
Also: `import mjrules` plus loading a compiled variant (in a fresh subprocess) and the memory of the
kernel's lookup tables. Every figure is the median of the repeats with its spread (min..max). Targets are
printed next to the figures as PASS or MISS; nothing here asserts on timings.

The machine's own speed is measured too, at the start and at the end of the run (a pure-Python loop of
additions, `machine_speed`): on a shared machine whose speed swings between runs, it says which spell a run
was in, so runs hours apart can be compared. Within the run, each timed repeat is gated on the same probe
(bench/machine.py): it waits, within bounds, for the machine's usual speed, and is timed again when a slow
spell began during it; the result says how many repeats did so.
"""
from __future__ import annotations

import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import play, rl
from .machine import GATE, probe

SCHEMA = "mjrules-bench/1"


def base_variants() -> list[str]:
    """The shipped variants that extend no other (an overlay is measured with its base), by name."""
    import mjrules
    from mjrules.compiler import shipped_names

    return [n for n in shipped_names() if mjrules.load(n, backend="reference").variant.extends is None]
BACKENDS = ("native", "reference")
CLASSES = ("random", "near", "winning")
SEED = 20240601

# Targets (native backend). "min" targets: figure >= target; "max" targets: figure <= target.
TARGETS: dict[str, dict[str, Any]] = {
    "win_check": {"value": 4_000_000, "unit": "hands/s", "kind": "min"},
    "batch_check": {"value": 20_000_000, "unit": "hands/s", "kind": "min"},
    "vs_is_agari": {"value": 10.0, "unit": "x", "kind": "min"},          # on near-winning hands, no wilds
    "waits": {"value": 1.0, "unit": "us", "kind": "max"},
    "evaluate": {"value": 3.0, "unit": "us", "kind": "max"},
    "evaluate_vs_reference": {"value": 50.0, "unit": "x", "kind": "min"},  # the back-ends issue, same hands
    "simulate_random": {"value": 5_000, "unit": "hands/s", "kind": "min"},
    "simulate_greedy": {"value": 1_000, "unit": "hands/s", "kind": "min"},
    "simulate_python": {"value": 2_000, "unit": "hands/s", "kind": "min"},   # four Python agents, step API
    # built-in random agents against riichienv's kyoku and four Python agents, timed in turn (play.side_by_side)
    "builtin_vs_riichienv": {"value": 10.0, "unit": "x", "kind": "min"},
    "builtin_vs_python": {"value": 3.0, "unit": "x", "kind": "min"},
    "import_load": {"value": 0.3, "unit": "s", "kind": "max"},
    "tables": {"value": 50.0, "unit": "MB", "kind": "max"},
}

TARGET_OF = {"evaluate_lean": "evaluate", "evaluate_new": "evaluate"}  # a measure held to another's target

# our honour kinds 27..33 (1z..7z = 東南西北中發白) -> Tenhou 34-order (東南西北 白發中 = 27..33)
TENHOU = list(range(27)) + [27, 28, 29, 30, 33, 32, 31]

# The kernel's lookup tables (runtime/native/kernel.pyx, _build_tables): two 16-bit tables over the 5**9 suit count
# vectors (_tfg: fewest wilds to sets / sets and a pair; _tpp: the pung-only and pairs shortcuts' sums), two
# int tables over NH = 24 honour counts (_hf, _hg) and the powers of five (_p5[10]); table_memory measures
# them as the kernel's own tables_blob() holds them, plus the tables derived from them at load
# (_core.derived_tables_bytes: the honour kinds' 5**7 table).
N5, NH, INT = 5 ** 9, 24, 4


# ---- settings ----------------------------------------------------------------------------------------------
def settings(quick: bool, repeats: int | None) -> dict[str, Any]:
    """How much to measure: hands per class and wild count, loop budgets and simulated hands per backend."""
    if quick:   # a smoke run: every figure once over, a few seconds a variant (the reference on one or two hands)
        s = {"repeats": 2, "hands": {"native": 8, "reference": 2}, "budget": {"native": 0.01, "reference": 0.0},
             "waits_hands": {"native": 6, "reference": 1}, "new_hands": {"native": 6, "reference": 1},
             "sim": {"native": {"random": 20, "greedy": 2, "python": 10},
                     "reference": {"random": 1, "greedy": 1, "python": 1}},
             "import_runs": 1, "scaling_rows": 20_000, "env_steps": 300, "vector_steps": 5, "ray_hands": 40}
    else:
        s = {"repeats": 5, "hands": {"native": 40, "reference": 10}, "budget": {"native": 0.1, "reference": 0.0},
             "waits_hands": {"native": 100, "reference": 10}, "new_hands": {"native": 200, "reference": 2},
             "sim": {"native": {"random": 1000, "greedy": 200, "python": 500},
                     "reference": {"random": 3, "greedy": 1, "python": 2}},
             "import_runs": 5, "scaling_rows": 200_000, "env_steps": 5000, "vector_steps": 100, "ray_hands": 2000}
    if repeats is not None:
        s["repeats"] = max(1, repeats)
    return s


# ---- statistics and timing ---------------------------------------------------------------------------------
def spread(values: Sequence[float], digits: int = 4) -> dict[str, Any]:
    """Median with min..max over the repeats."""
    r = lambda x: float(f"{x:.{digits}g}")  # significant digits, not decimals
    return {"median": r(statistics.median(values)), "min": r(min(values)), "max": r(max(values)), "n": len(values)}


def machine_speed(repeats: int = 5, n: int = 1_000_000) -> dict[str, Any]:
    """Nanoseconds per addition of a pure-Python loop of n additions (`total += i`), over the repeats: the
    interpreter's speed on this machine now, to read the run's timings against (no mjrules code runs)."""
    return spread([probe(n) for _ in range(repeats)])


def _timed(once: Callable[[], Any], n: int, repeats: int, budget: float) -> list[float]:
    """Seconds per item for each repeat of once() (one pass over n items), looped until `budget` seconds (0: one
    pass, without a warm-up; below 0: one pass, after a warm-up round)."""
    loops = 1
    if budget != 0:                     # a warm-up round, which also calibrates the loop count (< 0: one loop)
        start = time.perf_counter()
        once()
        if budget > 0:
            loops = max(1, int(budget / max(time.perf_counter() - start, 1e-9)))
    def timing() -> float:
        t = time.perf_counter()
        for _ in range(loops):
            once()
        return (time.perf_counter() - t) / (loops * n)

    return [GATE.repeat(timing) for _ in range(repeats)]


def per_item(fn: Callable[[Any], Any], items: Sequence[Any], repeats: int, budget: float) -> list[float]:
    """Seconds per item of fn(item) for each repeat (see _timed for the budget)."""
    def once(fn: Callable[[Any], Any] = fn, items: Sequence[Any] = items) -> None:  # locals: no cell lookups
        for a in items:
            fn(a)
    return _timed(once, len(items), repeats, budget)


def first_sight(make: Callable[[], Any], warm: Sequence[dict], new: Sequence[Sequence[dict]],
                method: str = "evaluate") -> list[float]:
    """Seconds per hand of evaluate (or another engine `method`: distance) on hands the engine has not seen, one
    figure per set of new: a fresh engine from make() is warmed on `warm` (as a server's engine is warm), then
    evaluates each hand of the set once, so nothing it remembers of a result can serve (the hands differ from warm's and each
    other's: HandMaker's seeds). The collector runs first, so that no garbage of the warming is swept inside
    the timing, and the engine is then warmed again on a few of `warm`: a full collection walks the whole
    heap and leaves the CPU's caches cold, which a server's engine between two hands is not (with 40 new
    hands a set, that alone added ~1.4 us a hand to 撫州's figure). The heap the bench held before is frozen
    (gc.freeze, as a server freezes what it loaded at start) for the measurement, so that collection walks only
    what the set's engine made: otherwise what else the bench imported decides the figure (numpy alone, or the
    environments' packages, took 血战's from 2.0 to 2.5-2.9 us a hand, every other row unchanged)."""
    def timing(hands: Sequence[dict]) -> float:
        ev = getattr(make(), method)
        for d in warm:
            ev(d)
        gc.collect()
        for d in warm[:50]:
            ev(d)
        t = time.perf_counter()
        for d in hands:
            ev(d)
        return (time.perf_counter() - t) / len(hands)

    gc.collect()
    gc.freeze()
    try:
        return [GATE.repeat(lambda hands=hands: timing(hands)) for hands in new]
    finally:
        gc.unfreeze()


def check_target(name: str, figure: float | None) -> bool | None:
    if figure is None:
        return None
    t = TARGETS[name]
    return figure >= t["value"] if t["kind"] == "min" else figure <= t["value"]


def bench_evaluate_ratio(engines: dict[str, Any], hands: dict[int, dict[str, list]], cfg: dict[str, Any]
                         ) -> dict[str, Any]:
    """evaluate on the reference's winning hands (a prefix of each wild count's), both back ends timed in each
    repeat one after the other, so that the ratio of a repeat is taken while the machine runs at one speed, and
    each for the same time budget (looped where one pass is shorter: a single pass of a few milliseconds is at
    the mercy of a shared machine's hiccups)."""
    same = [d for by in hands.values() for d in by["winning"][:cfg["hands"]["reference"]]]
    nat, ref, ratio = [], [], []
    budget = cfg["budget"]["native"]
    for _ in range(cfg["repeats"]):
        n = per_item(engines["native"].evaluate, same, 1, budget)[0]
        r = per_item(engines["reference"].evaluate, same, 1, budget)[0]
        nat.append(n * 1e6)
        ref.append(r * 1e6)
        ratio.append(r / n)
    x = spread(ratio)
    return {"hands": len(same), "native_us": spread(nat), "reference_us": spread(ref), "ratio": x,
            "pass": check_target("evaluate_vs_reference", x["median"])}


# ---- hands ----------------------------------------------------------------------------------------------------
def _name(k: int) -> str:
    from mjrules.model.tiles import tile_name

    return tile_name(k)


class HandMaker:
    """Deterministic, legal hands of one variant: winning, near-winning, random and ready."""

    def __init__(self, eng: Any, seed: int):
        from mjrules.model.situation import check_situation, situation_from_dict

        self.eng, v = eng, eng.variant
        self.v, self.size = v, v.win_size
        self.rng = random.Random(seed ^ zlib.crc32(v.name.encode()))
        self.playable = list(v.tiles.playable)
        self.copies = v.tiles.copies
        w = v.wild
        self.max_wilds = 0 if w is None else min(4, w.live)
        self._check = lambda d: check_situation(v, situation_from_dict(v, d))

    def wild_counts(self) -> list[int]:
        return list(range(self.max_wilds + 1))

    def _wild_kind(self) -> int | None:
        w = self.v.wild
        if w is None:
            return None
        if w.mode == "fixed":
            return w.fixed
        return self.rng.choice([k for k in self.playable if k in w.stands_for] or self.playable)

    def _situation(self, natural: list[int], wild: int | None, nw: int, win_tile: int | None) -> dict[str, Any]:
        tiles = sorted(natural)
        text = "".join(_name(k) for k in tiles) + (_name(wild) + "*") * nw if nw else "".join(map(_name, tiles))
        d: dict[str, Any] = {"concealed": text}
        if win_tile is not None:
            d["win_tile"] = _name(win_tile)
        if wild is not None:
            d["wild"] = _name(wild)
        return d

    def _room(self, used: dict[int, int], k: int, n: int = 1) -> bool:
        return used.get(k, 0) + n <= self.copies[k]

    def _winning_tiles(self, wild: int | None) -> list[int]:
        kinds = [k for k in self.playable if k != wild]
        used: dict[int, int] = {}
        out: list[int] = []
        sets = (self.size - 2) // 3
        while len(out) < 3 * sets:
            k = self.rng.choice(kinds)
            if k < 27 and k % 9 <= 6 and self.rng.random() < 0.6 and all(
                    k + i in kinds and self._room(used, k + i) for i in range(3)):
                group = [k, k + 1, k + 2]
            elif self._room(used, k, 3):
                group = [k, k, k]
            else:
                continue
            for t in group:
                used[t] = used.get(t, 0) + 1
            out += group
        while True:
            k = self.rng.choice(kinds)
            if self._room(used, k, 2):
                return out + [k, k]

    def _legal(self, d: dict[str, Any]) -> bool:
        from mjrules.model.situation import SituationError

        try:
            self._check(d)
        except SituationError:
            return False
        return True

    def make(self, n: int, nw: int) -> dict[str, list[dict[str, Any]]]:
        """n hands of each class with nw wilds, one wild kind for them all (as in one hand of a game);
        winning hands are checked to win, all are checked legal."""
        out: dict[str, list[dict[str, Any]]] = {c: [] for c in (*CLASSES, "ready")}
        tries = 0
        wild = self._wild_kind() if self.v.wild is not None else None
        while len(out["winning"]) < n and tries < 200 * n:
            tries += 1
            tiles = self._winning_tiles(wild)                # the sets, then the pair
            if nw and tries % 2:                             # a wild pairs the winning tile (e.g. 宝调), others
                sets = tiles[:-2]                            # replace random set tiles
                self.rng.shuffle(sets)
                natural = sets[nw - 1:] + [tiles[-1]]
            else:                                            # nw random tiles become wilds
                self.rng.shuffle(tiles)
                natural = tiles[nw:]
            win_tile = natural[-1]
            win = self._situation(natural, wild, nw, win_tile)
            if not self._legal(win) or not self.eng.evaluate(win)["win"] or not self.eng.is_win(*check_form(win)):
                continue                                     # wins with its winning tile and by the bare check
            ready = self._situation(natural[:-1], wild, nw, None)
            if not self.eng.waits(ready):                    # legal, since the winning hand is
                continue
            kinds = [k for k in self.playable if k != wild and k != win_tile]   # near: the winning tile swapped
            swapped = natural[:-1] + [self.rng.choice(kinds)]
            near = self._situation(swapped, wild, nw, swapped[-1])
            wall = [k for k in self.playable if k != wild for _ in range(self.copies[k])]
            self.rng.shuffle(wall)
            rnd_tiles = wall[:self.size - nw]
            rnd = self._situation(rnd_tiles, wild, nw, rnd_tiles[-1])
            if not (self._legal(near) and self._legal(rnd)):
                continue
            out["winning"].append(win)
            out["ready"].append(ready)
            out["near"].append(near)
            out["random"].append(rnd)
        return out


def check_form(d: dict[str, Any]) -> tuple[bytes, int, int | None]:
    """A situation dict as the win check takes it: (34 counts as bytes, wilds, wild kind)."""
    from mjrules.model.tiles import parse_tiles

    wild = parse_tiles(d["wild"])[0].kind if "wild" in d else None
    c = [0] * 34
    nw = 0
    for t in parse_tiles(d["concealed"]):
        if t.kind == wild:
            nw += 1
        else:
            c[t.kind] += 1
    return bytes(c), nw, wild


def per_call(fn: Callable[..., Any], args: Sequence[tuple], repeats: int, budget: float) -> list[float]:
    """per_item for a function of two or three arguments (tuples of one length), without a wrapper in the timed
    loop."""
    if args and len(args[0]) == 2:
        def once(fn: Callable[..., Any] = fn, args: Sequence[tuple] = args) -> None:
            for a, b in args:
                fn(a, b)
    else:
        def once(fn: Callable[..., Any] = fn, args: Sequence[tuple] = args) -> None:
            for a, b, c in args:
                fn(a, b, c)
    return _timed(once, len(args), repeats, budget)


def per_batch(eng: Any, forms: Sequence[tuple], repeats: int, budget: float, threads: int = 1,
              rows: int = 20_000) -> list[float]:
    """Seconds per hand of check_batch over all the forms at once (one wild kind), looped to `budget`; the
    forms are tiled up to `rows` rows (a batch is meant to be large)."""
    import numpy as np

    arr = np.frombuffer(b"".join(f[0] for f in forms), dtype=np.uint8).reshape(len(forms), 34).copy()
    wl = np.array([f[1] for f in forms], dtype=np.uint8)
    wild = forms[0][2]
    if budget > 0 and len(arr) < rows:
        reps = -(-rows // len(arr))
        arr, wl = np.tile(arr, (reps, 1)), np.tile(wl, reps)
    return _timed(lambda: eng.check_batch(arr, wl, wild=wild, threads=threads), len(arr), repeats, max(budget, 0.0))


def tenhou34(d: dict[str, Any]) -> list[int]:
    from mjrules.model.tiles import parse_tiles

    c = [0] * 34
    for t in parse_tiles(d["concealed"]):
        c[TENHOU[t.kind]] += 1
    return c


# ---- the measurements -------------------------------------------------------------------------------------------
def bench_backend(eng: Any, hands: dict[int, dict[str, list]], cfg: dict[str, Any], note: Callable[[str], None],
                  maker: Any = None) -> dict[str, Any]:
    """Every per-backend figure of one variant; `maker` (default eng) is the engine that makes the new hands
    (the native one: making hands evaluates and asks for waits many times, and both back ends agree)."""
    import mjrules

    b = eng.backend
    n, reps, budget = cfg["hands"][b], cfg["repeats"], cfg["budget"][b]
    native = b == "native"
    res: dict[str, Any] = {"win_check": [], "hands_per_class": n}
    for nw, by_class in hands.items():
        for cls in CLASSES:
            items = by_class[cls][:n]
            if not items:
                continue
            forms = [check_form(d) for d in items]
            note(f"{eng.variant.name} {b}: win check, {cls}, {nw} wilds")
            t = per_call(eng.is_win, forms, reps, budget)
            hps = spread([1 / x for x in t])
            tb = per_batch(eng, forms, reps, budget)
            bps = spread([1 / x for x in tb])
            row = {"class": cls, "wilds": nw, "hands": len(items), "per_hand_us": spread([x * 1e6 for x in t]),
                   "hands_per_s": hps, "batch_hands_per_s": bps, "wins": sum(1 for f in forms if eng.is_win(*f)),
                   "pass": check_target("win_check", hps["median"]) if native else None,
                   "batch_pass": check_target("batch_check", bps["median"]) if native else None}
            if native and cls == "random":   # thread scaling, on batches large enough to split
                rows = row["scaling_rows"] = cfg["scaling_rows"]
                row["batch_1_thread_200k_hands_per_s"] = spread(
                    [1 / x for x in per_batch(eng, forms, reps, budget, 1, rows)])
                row["batch_2_threads_200k_hands_per_s"] = spread(
                    [1 / x for x in per_batch(eng, forms, reps, budget, 2, rows)])
            res["win_check"].append(row)
    # waits: ready hands of every wild count, taken in turn (waits is ~34 evaluations, hence fewer hands)
    ready = [d for group in zip(*(by["ready"] for by in hands.values())) for d in group][:cfg["waits_hands"][b]]
    winning = [d for by in hands.values() for d in by["winning"][:n]]
    note(f"{eng.variant.name} {b}: wait kinds and waits")
    t = spread([x * 1e6 for x in per_call(eng.wait_kinds, [check_form(d) for d in ready], reps, budget)])
    res["waits"] = {"hands": len(ready), "per_hand_us": t,
                    "pass": check_target("waits", t["median"]) if native else None}
    t = spread([x * 1e6 for x in per_item(eng.waits, ready, reps, budget)])
    res["waits_values"] = {"hands": len(ready), "per_hand_us": t}
    note(f"{eng.variant.name} {b}: evaluate")
    t = spread([x * 1e6 for x in per_item(eng.evaluate, winning, reps, budget)])
    res["evaluate"] = {"hands": len(winning), "per_hand_us": t,
                       "pass": check_target("evaluate", t["median"]) if native else None}
    # the same without the explanatory parts (reading, explain lines), which the native back end then never builds
    t = spread([x * 1e6 for x in per_call(eng.evaluate, [(d, False) for d in winning], reps, budget)])
    res["evaluate_lean"] = {"hands": len(winning), "per_hand_us": t,
                            "pass": check_target("evaluate", t["median"]) if native else None}
    t = spread([x * 1e6 for x in per_call(eng.hand_value, [check_form(d) for d in winning], reps, budget)])
    res["hand_value"] = {"hands": len(winning), "per_hand_us": t}
    note(f"{eng.variant.name} {b}: evaluate on hands not seen before")
    k = cfg["new_hands"][b]   # per wild count and repeat; the reference warms on a few hands only (it is slow)
    new = [[d for nw in hands for d in HandMaker(maker or eng, SEED + 1 + r).make(k, nw)["winning"]]
           for r in range(reps)]
    warm = winning if native else winning[:k]
    t = spread([x * 1e6 for x in first_sight(lambda: mjrules.load(eng.variant, backend=b), warm, new)])
    res["evaluate_new"] = {"hands": len(new[0]), "per_hand_us": t,
                           "pass": check_target("evaluate", t["median"]) if native else None}
    res["simulate"] = {}
    for agent in ("random", "greedy", "python"):
        k = cfg["sim"][b][agent]
        note(f"{eng.variant.name} {b}: {k} hands with {agent} agents")
        fn = play.python_hand(eng) if agent == "python" else play.builtin_hand(eng, agent)
        s = spread(play.rates(fn, k, reps))
        res["simulate"][agent] = {"hands": k, "hands_per_s": s,
                                  "pass": check_target(f"simulate_{agent}", s["median"]) if native else None}
    return res


def bench_riichienv(cfg: dict[str, Any], note: Callable[[str], None]) -> dict[str, Any]:
    """riichienv's RiichiEnv("4p-red-single") stepped by its Python RandomAgent: kyoku per second (a peer of the
    "python" agents row); {"available": False} where riichienv is not installed."""
    got = play.riichienv_kyoku()
    if got is None:
        return {"available": False}
    fn, version = got
    k = cfg["sim"]["native"]["python"]
    note(f"riichienv {version}: {k} kyoku with its RandomAgent")
    return {"available": True, "version": version, "kyoku": k,
            "kyoku_per_s": spread(play.rates(fn, k, cfg["repeats"]))}


def bench_side_by_side(eng: Any, cfg: dict[str, Any], note: Callable[[str], None]) -> dict[str, Any]:
    """Built-in random agents against riichienv's kyoku and against four Python agents, timed in turn in each
    repeat; {"available": False} where riichienv is not installed."""
    k = cfg["sim"]["native"]["python"]
    note(f"{eng.variant.name}: {k} hands of built-in random agents, of Python agents and riichienv kyoku, in turn")
    got = play.side_by_side(eng, k, cfg["repeats"])
    if got is None:
        return {"available": False}
    out = {"available": True, "version": got["version"], "hands": k}
    for key in ("builtin_per_s", "python_per_s", "riichienv_per_s"):
        out[key] = spread(got[key])
    for key in ("vs_riichienv", "vs_python"):
        s = spread(got[key])
        out[key] = {"ratio": s, "pass": check_target(f"builtin_{key}", s["median"])}
    return out


def bench_envs(variant: str, cfg: dict[str, Any], note: Callable[[str], None]) -> dict[str, Any]:
    """The AEC and vector environment rows of one variant; {"available": False} without the rl extra."""
    aec = rl.aec_steps(variant, cfg["env_steps"])
    vec = rl.vector_steps(variant, cfg["vector_steps"])
    if aec is None or vec is None:
        return {"available": False}
    reps = cfg["repeats"]
    note(f"{variant}: AEC environment, {cfg['env_steps']} steps")
    a = [GATE.repeat(aec) for _ in range(reps)]
    note(f"{variant}: vector environment, 64 tables x {cfg['vector_steps']} steps")
    v = [GATE.repeat(vec) for _ in range(reps)]
    return {"available": True, "aec_steps": cfg["env_steps"], "aec_steps_per_s": spread(a), "vector_tables": 64,
            "vector_steps": cfg["vector_steps"], "vector_steps_per_s": spread([x for x, _ in v]),
            "vector_decisions_per_s": spread([y for _, y in v])}


def bench_riichienv_env(cfg: dict[str, Any], note: Callable[[str], None]) -> dict[str, Any]:
    """riichienv's environment, decisions per second; {"available": False} where it is not installed."""
    got = rl.riichienv_steps(cfg["env_steps"])
    if got is None:
        return {"available": False}
    run, ver = got
    encoded, _ = rl.riichienv_steps(cfg["env_steps"], encode=True)
    note(f"riichienv {ver}: its environment, {cfg['env_steps']} decisions")
    return {"available": True, "version": ver, "steps": cfg["env_steps"],
            "steps_per_s": spread([GATE.repeat(run) for _ in range(cfg["repeats"])]),
            "encoded_steps_per_s": spread([GATE.repeat(encoded) for _ in range(cfg["repeats"])])}


def bench_ray(variant: str, cfg: dict[str, Any], note: Callable[[str], None]) -> dict[str, Any]:
    """simulate on a local Ray of 2 CPUs against --jobs 2; {"available": False} where Ray is not installed."""
    note(f"{variant}: simulate on a local Ray of 2 CPUs and with --jobs 2, {cfg['ray_hands']} hands")
    got = rl.ray_against_jobs(variant, cfg["ray_hands"], cfg["repeats"])
    if got.get("available"):
        got["ray_hands_per_s"] = spread(got["ray_hands_per_s"])
        got["jobs_hands_per_s"] = spread(got["jobs_hands_per_s"])
    return got


def bench_mahjong(eng: Any, by_class: dict[str, list], native_us: dict[str, float], cfg: dict[str, Any],
                  note: Callable[[str], None]) -> dict[str, Any]:
    """The `mahjong` package on the same hands without wilds; speed-up = its time / our native time."""
    try:
        import mahjong
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten
    except ImportError:
        return {"available": False}
    agari, shanten = Agari(), Shanten()
    size = eng.variant.win_size
    try:
        from importlib.metadata import version
        ver = version("mahjong")
    except ImportError:  # pragma: no cover - not installed as a distribution
        ver = getattr(mahjong, "__version__", None)
    out: dict[str, Any] = {"available": True, "version": ver, "classes": {}}
    n, reps, budget = cfg["hands"]["native"], cfg["repeats"], cfg["budget"]["native"]
    for cls in CLASSES:
        hands = by_class[cls][:n]
        arrays = [tenhou34(d) for d in hands]
        note(f"{eng.variant.name}: mahjong is_agari / calculate_shanten, {cls}")
        ag = spread([x * 1e6 for x in per_item(agari.is_agari, arrays, reps, budget)])
        row: dict[str, Any] = {"hands": len(arrays), "is_agari_us": ag,
                               "agree": sum(agari.is_agari(a) == eng.is_win(*check_form(d))
                                            for a, d in zip(arrays, hands))}
        if size == 14:
            row["shanten_us"] = spread([x * 1e6 for x in per_item(shanten.calculate_shanten, arrays, reps, budget)])
        else:
            row["shanten_us"] = None
            row["shanten_note"] = f"calculate_shanten takes at most 14 tiles; this variant's hands have {size}"
        nat = native_us.get(cls)
        row["native_us"] = nat
        row["speedup_vs_is_agari"] = round(ag["median"] / nat, 4) if nat else None
        if cls == "near":
            row["pass"] = check_target("vs_is_agari", row["speedup_vs_is_agari"])
        out["classes"][cls] = row
    return out


def bench_import_load(variant: str, runs: int) -> dict[str, Any]:
    """Seconds for `import mjrules` plus `mjrules.load(variant)` in a fresh interpreter (native backend)."""
    code = f"import time;t=time.perf_counter();import mjrules;mjrules.load({variant!r});print(time.perf_counter()-t)"
    env = dict(os.environ, MJRULES_BACKEND="native")
    def timing() -> float:
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        return float(p.stdout.strip().splitlines()[-1])

    # the first run warms the OS file cache (and builds a missing native module)
    times = [timing()] + [GATE.repeat(timing) for _ in range(runs)]
    s = spread(times[1:])
    return {"variant": variant, "seconds": s, "first_run_s": round(times[0], 4),
            "pass": check_target("import_load", s["median"])}


def table_memory() -> dict[str, Any]:
    from mjrules.native import kernel as _core

    other = 2 * NH * INT + 10 * INT
    stored = len(_core.tables_blob())
    suit = stored - other   # unsigned short _tfg[5**9], _tpp[5**9]
    derived = _core.derived_tables_bytes()
    total = stored + derived
    return {"suit_tables_bytes": suit, "other_tables_bytes": other, "derived_tables_bytes": derived,
            "total_bytes": total,
            "total_mb": round(total / 1e6, 3), "pass": check_target("tables", total / 1e6)}


def run(variants: Sequence[str] | None = None, *, repeats: int | None = None, quick: bool = False,
        progress: bool = False, patience: float = 10.0) -> dict[str, Any]:
    """Measure everything; returns the JSON-ready result (see render for the table). Before each timing the
    run waits up to `patience` seconds for the machine to run at its usual speed (bench/machine.py; 0: never
    waits; a --quick run never waits)."""
    import mjrules

    cfg = settings(quick, repeats)
    note = (lambda m: print(f"  {m} ...", file=sys.stderr, flush=True)) if progress else (lambda m: None)
    variants = list(variants or base_variants())
    started = time.perf_counter()
    result: dict[str, Any] = {
        "schema": SCHEMA, "quick": quick, "repeats": cfg["repeats"], "seed": SEED,
        "python": platform.python_version(), "platform": platform.platform(), "mjrules": mjrules.__version__,
        "targets": TARGETS, "variants": {}}
    machine = {"start": machine_speed(1 if quick else 5)}
    # waits at most 6 patiences a variant in all (a minute by default)
    GATE.start(patience=0.0 if quick else patience, budget=6 * patience * len(variants))
    for name in variants:
        engines = {b: mjrules.load(name, backend=b) for b in BACKENDS}
        maker = HandMaker(engines["native"], SEED)
        note(f"{name}: generating hands")
        hands = {nw: maker.make(cfg["hands"]["native"], nw) for nw in maker.wild_counts()}
        vres: dict[str, Any] = {"win_size": maker.size, "wild_counts": maker.wild_counts(),
                                "hands": {str(nw): {c: len(h[c]) for c in h} for nw, h in hands.items()},
                                "backends": {}}
        for b in BACKENDS:
            vres["backends"][b] = bench_backend(engines[b], hands, cfg, note, engines["native"])
        native_us = {r["class"]: r["per_hand_us"]["median"] for r in vres["backends"]["native"]["win_check"]
                     if r["wilds"] == 0}
        note(f"{name}: evaluate, native against reference on the same hands")
        vres["evaluate_vs_reference"] = bench_evaluate_ratio(engines, hands, cfg)
        vres["mahjong"] = bench_mahjong(engines["native"], hands[0], native_us, cfg, note)
        note(f"{name}: import + load in a subprocess")
        vres["import_load"] = bench_import_load(name, cfg["import_runs"])
        vres["env"] = bench_envs(name, cfg, note)
        vres["agents_side_by_side"] = bench_side_by_side(engines["native"], cfg, note)
        result["variants"][name] = vres
    result["riichienv"] = bench_riichienv(cfg, note)
    result["riichienv_env"] = bench_riichienv_env(cfg, note)
    result["ray"] = bench_ray(variants[0], cfg, note)
    result["tables"] = table_memory()
    machine["gate"] = GATE.stop()
    machine["end"] = machine_speed(1 if quick else 5)
    result["machine_python_add_ns"] = machine
    result["seconds"] = round(time.perf_counter() - started, 2)
    return result


# ---- output ---------------------------------------------------------------------------------------------------
def _mark(p: bool | None) -> str:
    return "" if p is None else ("PASS" if p else "MISS")


def _fmt(s: dict[str, Any] | None, scale: float = 1.0, digits: int = 1) -> str:
    if not s:
        return "-"
    f = lambda x: f"{x * scale:,.{digits}f}"
    return f"{f(s['median'])} ({f(s['min'])}..{f(s['max'])})"


def _target(name: str) -> str:
    t = TARGETS[name]
    v = t["value"]
    v = f"{v:,}" if isinstance(v, int) else f"{v:g}"
    return f"{'>=' if t['kind'] == 'min' else '<'} {v} {t['unit']}"


def render(r: dict[str, Any]) -> str:
    """The human-readable table: median (min..max) over the repeats, with the target and PASS/MISS."""
    lines = [(f"mjrules bench: {'quick, ' if r['quick'] else ''}{r['repeats']} repeats, seed {r['seed']}, "
              f"Python {r['python']}; median (min..max)")]
    m = r.get("machine_python_add_ns")
    if m:
        lines.append(f"machine speed (a pure-Python addition, ns): {_fmt(m['start'])} at the start, "
                     f"{_fmt(m['end'])} at the end")
        g = m.get("gate")
        if g and g["timings"]:
            lines.append(f"timings (repeats) gated on the machine's speed (bench/machine.py): {g['timings']}; "
                         f"{g['waited']} waited for a quiet machine and {g['timed_again']} were timed again "
                         f"({g['seconds_waited']} s); {g['timed_slow']} still timed in a slow spell (a probe over "
                         f"{g['tolerance']}x the best, {g['best_ns']} ns)")
    w = 50
    for name, v in r["variants"].items():
        lines.append("")
        lines.append(f"== {name}  ({v['win_size']}-tile hands, wilds {v['wild_counts']})")
        lines.append(f"  {'measure':<{w}}{'native':>36}{'reference':>36}  target")
        nat, ref = v["backends"]["native"], v["backends"]["reference"]
        refrows = {(x["class"], x["wilds"]): x for x in ref["win_check"]}
        for row in nat["win_check"]:
            rr = refrows.get((row["class"], row["wilds"]))
            label = f"win check hands/s, {row['class']}, {row['wilds']} wilds ({row['wins']}/{row['hands']} win)"
            lines.append(f"  {label:<{w}}{_fmt(row['hands_per_s'], digits=0):>36}"
                         f"{_fmt(rr['hands_per_s'] if rr else None, digits=0):>36}  "
                         f"{_target('win_check')} {_mark(row['pass'])}")
            label = f"  batch hands/s, {row['class']}, {row['wilds']} wilds"
            lines.append(f"  {label:<{w}}{_fmt(row['batch_hands_per_s'], digits=0):>36}"
                         f"{_fmt(rr['batch_hands_per_s'] if rr else None, digits=0):>36}  "
                         f"{_target('batch_check')} {_mark(row['batch_pass'])}")
            k = f"{row.get('scaling_rows', 200_000) // 1000}k"   # the key names say 200k: --quick batches 20k rows
            for key, label in (("batch_1_thread_200k_hands_per_s", f"  batch of {k} rows, 1 thread"),
                               ("batch_2_threads_200k_hands_per_s", f"  batch of {k} rows, 2 threads")):
                if key in row:
                    lines.append(f"  {label:<{w}}{_fmt(row[key], digits=0):>36}")
        for key, label, tgt in (("waits", "wait kinds us/hand, ready hands", True),
                                ("waits_values", "  waits with values us/hand", False),
                                ("evaluate", "evaluate us/hand, winning hands", True),
                                ("evaluate_lean", "  evaluate(..., explain=False) us/hand", True),
                                ("evaluate_new", "  evaluate, each hand new to the engine, us/hand", True),
                                ("hand_value", "  hand_value (value, pattern) us/hand", False)):
            lines.append(f"  {label:<{w}}{_fmt(nat[key]['per_hand_us']):>36}{_fmt(ref[key]['per_hand_us']):>36}  "
                         + (f"{_target(TARGET_OF.get(key, key))} {_mark(nat[key]['pass'])}" if tgt else ""))
        e = v["evaluate_vs_reference"]
        label = f"  evaluate, the reference's {e['hands']} hands, us"
        lines.append(f"  {label:<{w}}{_fmt(e['native_us']):>36}{_fmt(e['reference_us']):>36}  "
                     f"ratio {_fmt(e['ratio'])} {_target('evaluate_vs_reference')} {_mark(e['pass'])}")
        peer = r.get("riichienv") or {}
        for agent in ("random", "greedy", "python"):
            a, b = nat["simulate"][agent], ref["simulate"][agent]
            what = "four Python agents, step API" if agent == "python" else f"built-in {agent} agents"
            label = f"hands/s, {what} ({a['hands']}/{b['hands']})"
            lines.append(f"  {label:<{w}}{_fmt(a['hands_per_s']):>36}{_fmt(b['hands_per_s']):>36}  "
                         f"{_target('simulate_' + agent)} {_mark(a['pass'])}")
            if agent == "python" and peer.get("available"):
                ratio = a["hands_per_s"]["median"] / peer["kyoku_per_s"]["median"]
                lines.append(f"    riichienv {peer['version']} RiichiEnv('4p-red-single'), its RandomAgent: "
                             f"{_fmt(peer['kyoku_per_s'])} kyoku/s; mjrules/riichienv {ratio:.2f}x")
            elif agent == "python":
                lines.append("    riichienv not installed: peer row skipped (pip install 'mjrules[bench]')")
        s = v.get("agents_side_by_side") or {}
        if s.get("available"):
            lines.append(f"  built-in random agents, four Python agents and riichienv {s['version']}, timed in turn "
                         f"({s['hands']} hands): {_fmt(s['builtin_per_s'], digits=0)}, "
                         f"{_fmt(s['python_per_s'], digits=0)}, {_fmt(s['riichienv_per_s'], digits=0)} /s")
            for key, name in (("vs_riichienv", "builtin_vs_riichienv"), ("vs_python", "builtin_vs_python")):
                lines.append(f"    built-in random {key.replace('_', ' ')}: {_fmt(s[key]['ratio'], digits=2)}x "
                             f"{_target(name)} {_mark(s[key]['pass'])}")
        m = v["mahjong"]
        if m.get("available"):
            lines.append(f"  mahjong {m['version']} on the same hands without wilds "
                         f"(speed-up = is_agari time / native is_win time):")
            for cls, row in m["classes"].items():
                sh = _fmt(row["shanten_us"]) if row["shanten_us"] else "n/a (>14 tiles)"
                tgt = f"  {_target('vs_is_agari')} {_mark(row['pass'])}" if "pass" in row else ""
                lines.append(f"    {cls:<8} is_agari {_fmt(row['is_agari_us'])} us  shanten {sh} us  native "
                             f"{row['native_us']:,.1f} us  speed-up {row['speedup_vs_is_agari']:.3f}x  "
                             f"agree {row['agree']}/{row['hands']}{tgt}")
        else:
            lines.append("  mahjong package not installed: comparison skipped (pip install 'mjrules[bench]')")
        env = v.get("env") or {}
        if env.get("available"):
            lines.append(f"  {'env steps/s, AEC, one table, random legal actions':<{w}}"
                         f"{_fmt(env['aec_steps_per_s']):>36}")
            peer = r.get("riichienv_env") or {}
            if peer.get("available"):
                ours = env["aec_steps_per_s"]["median"]
                lines.append(f"    riichienv {peer['version']} RiichiEnv('4p-red-single'), its RandomAgent: "
                             f"{_fmt(peer['steps_per_s'])} decisions/s (mjrules/riichienv "
                             f"{ours / peer['steps_per_s']['median']:.2f}x); with encode(): "
                             f"{_fmt(peer['encoded_steps_per_s'])} ({ours / peer['encoded_steps_per_s']['median']:.2f}x)")
            else:
                lines.append("    riichienv not installed: peer row skipped (pip install 'mjrules[bench]')")
            label = f"env steps/s, vector of {env['vector_tables']} tables"
            lines.append(f"  {label:<{w}}{_fmt(env['vector_steps_per_s']):>36}  "
                         f"all seats' decisions/s {_fmt(env['vector_decisions_per_s'])}")
        elif "env" in v:
            lines.append("  environments not installed: env rows skipped (pip install 'mjrules[rl]')")
        il = v["import_load"]
        lines.append(f"  {'import mjrules + load (subprocess), s':<{w}}{_fmt(il['seconds'], digits=3):>36}"
                     f"{'':>36}  {_target('import_load')} {_mark(il['pass'])}")
    t = r["tables"]
    lines.append("")
    lines.append(f"lookup tables: suit tables {t['suit_tables_bytes']:,} B + honour/powers {t['other_tables_bytes']} B "
                 f"+ derived at load {t['derived_tables_bytes']:,} B "
                 f"= {t['total_mb']} MB  {_target('tables')} {_mark(t['pass'])}")
    ray = r.get("ray")
    if ray and ray.get("available"):
        lines.append(f"simulate {ray['variant']}, {ray['hands']} hands, random agents: a local Ray {ray['version']} of "
                     f"{ray['cpus']} CPUs {_fmt(ray['ray_hands_per_s'])} hands/s, --jobs {ray['cpus']} "
                     f"{_fmt(ray['jobs_hands_per_s'])} hands/s (Ray started in {ray['start_s']} s)")
    elif ray is not None:
        lines.append("ray not installed: the Ray row skipped (pip install 'mjrules[ray]')")
    lines.append(f"measured in {r['seconds']} s")
    return "\n".join(lines)


def write_json(path: str | Path, result: dict[str, Any]) -> None:
    """Write atomically: a temporary file in the same folder, then os.replace."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(result, f, ensure_ascii=False, indent=1)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
