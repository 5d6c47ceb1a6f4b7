"""国标麻将 (`guobiao`) side by side with PyMahjongGB, the reference MCR calculator, in one process.

    python -m mjrules.bench.guobiao [--hands 2000] [--repeat 5] [--sim 200] [--json]

On the SAME hands (tests/oracles/mcr.py's seeded, stratified MCR winning cases; their arguments converted before
any timing, so only the calls are timed), each row gives µs a hand and hands a second, median (min..max) over the
repeats, and the ratio (PyMahjongGB's time / ours):

* evaluate: `engine.evaluate(situation, explain=False)` (native back end) against `MahjongFanCalculator`, looped
  over the hands (the engine remembers results: these are hands it has seen), and on hands new to the engine (a
  fresh engine each repeat, warmed on the looped hands, each new hand evaluated once: bench.suite.first_sight)
  against the calculator on the same new hands;
* waits: `engine.waits` of ready hands (each wait with its value) against the shanten functions' useful tiles
  (RegularShanten, SevenPairsShanten, ThirteenOrphansShanten, HonorsAndKnittedTilesShanten,
  KnittedStraightShanten: each that applies to the hand's size, as `useful_waits` calls them);
* distance: `engine.distance` of hands one tile short against `MahjongShanten` on the same hands, looped (the
  engine remembers a situation's distance) and on hands new to the engine (a fresh engine each repeat, warmed on
  the looped hands, each new hand once);
* simulate: whole hands a second of `mjrules.game.simulate.simulate("guobiao", n, seed=1)` with four built-in
  random agents, and four greedy ones (PyMahjongGB has no game: no peer).

Timings are gated on the machine's speed as `mjrules bench` gates them (bench/machine.py). Nothing here asserts.
Exits 2 with a message where PyMahjongGB (module MahjongGB) is not installed, or the generator is not found (it
lives in the repository's tests/, not in an installed package).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from .machine import GATE
from .suite import _timed, first_sight, machine_speed, spread

VARIANT = "guobiao"
SEED = 20250901
ORACLE = Path(__file__).resolve().parents[1] / "tests" / "oracles" / "mcr.py"


def load_oracle() -> ModuleType | None:
    """tests/oracles/mcr.py of the repository this package runs from, as a module; None where it is missing."""
    if not ORACLE.is_file():
        return None
    spec = importlib.util.spec_from_file_location("mjrules_bench_mcr_oracle", ORACLE)
    if spec is None or spec.loader is None:
        return None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod            # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def _loop(fn: Any, items: list[Any]) -> Any:
    """once(): fn(item) for each item (no wrapper per call)."""
    def once(fn: Any = fn, items: list[Any] = items) -> None:
        for a in items:
            fn(a)
    return once


def _star_loop(fn: Any, items: list[tuple]) -> Any:
    """once(): fn(*args) for each args tuple."""
    def once(fn: Any = fn, items: list[tuple] = items) -> None:
        for a in items:
            fn(*a)
    return once


def _row(label: str, n: int, ours: list[float], theirs: list[float] | None) -> dict[str, Any]:
    """A table row from seconds per hand (per repeat) of ours and of PyMahjongGB's."""
    row: dict[str, Any] = {"measure": label, "hands": n,
                           "ours_us": spread([x * 1e6 for x in ours]),
                           "ours_hands_per_s": spread([1 / x for x in ours])}
    if theirs:
        row["theirs_us"] = spread([x * 1e6 for x in theirs])
        row["theirs_hands_per_s"] = spread([1 / x for x in theirs])
        row["ratio"] = spread([t / o for o, t in zip(ours, theirs)])   # > 1: ours is faster
    return row


def measure(mcr: ModuleType, hands: int, repeats: int, sim: int, budget: float = 0.2,
            note: Any = lambda m: None) -> dict[str, Any]:
    """Every figure, JSON-ready."""
    import mjrules
    from MahjongGB import MahjongFanCalculator, MahjongShanten

    eng = mjrules.load(VARIANT, backend="native")
    rng = random.Random(SEED)
    note(f"generating {hands} winning hands")
    cases = list(mcr.generate(rng, hands))
    sits = [c.situation() for c in cases]
    args = [c.args() for c in cases]
    ev = eng.evaluate

    agree = 0
    for c, s in zip(cases, sits):   # not timed: how many of the hands the two score alike
        r = ev(s, explain=False)
        fans = getattr(r, "fans", None)
        if r.win and fans is not None:
            ours_fans: Counter = Counter()
            for name, k in fans:
                ours_fans[name] += k
            agree += ours_fans == mcr.oracle_fans(c) and r.value == mcr.oracle_total(c)
    rows = []

    note("evaluate, hands seen before")
    def lean(s: dict, ev: Any = ev) -> Any:
        return ev(s, explain=False)
    ours = _timed(_loop(lean, sits), len(sits), repeats, budget)
    theirs = _timed(_star_loop(MahjongFanCalculator, args), len(args), repeats, budget)
    rows.append(_row("evaluate(explain=False), seen / MahjongFanCalculator", len(sits), ours, theirs))

    note("evaluate, hands new to the engine")
    new_cases = [list(mcr.generate(random.Random(SEED + 1 + r), max(50, hands // 4))) for r in range(repeats)]
    new_sits = [[c.situation() for c in cs] for cs in new_cases]
    make = lambda: mjrules.load(VARIANT, backend="native")
    ours_new = first_sight(make, sits, new_sits)
    theirs_new = [GATE.repeat(lambda cs=cs: _once_timed(_star_loop(MahjongFanCalculator, [c.args() for c in cs]),
                                                        len(cs))) for cs in new_cases]
    rows.append(_row("evaluate, new hands / MahjongFanCalculator", len(new_sits[0]), ours_new,
                     theirs_new))

    note("waits of ready hands")
    short = list(mcr.short_hands(random.Random(SEED + 99), max(hands, 100)))
    ready = [(p, h) for p, h in short if MahjongShanten(p, h) == 0][:max(1, hands // 2)]
    ready_sits = [mcr.pre_draw_situation(p, h) for p, h in ready]
    calls = [_useful_calls(mcr, h) for _p, h in ready]
    ours = _timed(_loop(eng.waits, ready_sits), len(ready_sits), repeats, budget)

    def useful_once(calls: list[list[tuple]] = calls) -> None:
        for cs in calls:
            for fn, h in cs:
                fn(h)
    theirs = _timed(useful_once, len(calls), repeats, budget)
    rows.append(_row("waits (with values) / each shape's useful tiles", len(ready_sits), ours, theirs))

    note("distance of hands one tile short")
    short = short[:hands]
    short_sits = [mcr.pre_draw_situation(p, h) for p, h in short]
    ours = _timed(_loop(eng.distance, short_sits), len(short_sits), repeats, budget)
    theirs = _timed(_star_loop(MahjongShanten, short), len(short), repeats, budget)
    rows.append(_row("distance / MahjongShanten", len(short_sits), ours, theirs))

    note("distance of hands new to the engine")
    new_short = [list(mcr.short_hands(random.Random(SEED + 199 + r), max(50, hands // 4))) for r in range(repeats)]
    ours_new = first_sight(make, short_sits, [[mcr.pre_draw_situation(p, h) for p, h in hs] for hs in new_short],
                           "distance")
    theirs_new = [GATE.repeat(lambda hs=hs: _once_timed(_star_loop(MahjongShanten, hs), len(hs))) for hs in new_short]
    rows.append(_row("distance, new hands / MahjongShanten", len(new_short[0]), ours_new, theirs_new))

    sims = []
    if sim > 0:
        from mjrules.game.simulate import simulate

        for agent in ("random", "greedy"):
            n = sim if agent == "random" else max(1, sim // 4)
            note(f"simulate, {n} hands of four {agent} agents")
            simulate(VARIANT, min(n, 10), seed=1, agents=[agent] * 4)   # warm: load, build
            per_s = [GATE.repeat(lambda n=n, agent=agent: _sim_rate(simulate, n, agent)) for _ in range(repeats)]
            sims.append({"agents": agent, "hands": n, "hands_per_s": spread(per_s)})
    return {"variant": VARIANT, "seed": SEED, "repeats": repeats, "hands": len(cases), "agree": agree,
            "rows": rows, "simulate": sims}


def _once_timed(once: Any, n: int) -> float:
    t = time.perf_counter()
    once()
    return (time.perf_counter() - t) / n


def _sim_rate(simulate: Any, n: int, agent: str) -> float:
    t = time.perf_counter()
    simulate(VARIANT, n, seed=1, agents=[agent] * 4)
    return n / (time.perf_counter() - t)


def _useful_calls(mcr: ModuleType, hand: tuple) -> list[tuple]:
    """(shape function, hand) for each shanten function that takes a hand of this size."""
    fns = [mcr.RegularShanten]
    if len(hand) == 13:
        fns += [mcr.SevenPairsShanten, mcr.ThirteenOrphansShanten, mcr.HonorsAndKnittedTilesShanten,
                mcr.KnittedStraightShanten]
    elif len(hand) == 10:
        fns.append(mcr.KnittedStraightShanten)
    return [(fn, hand) for fn in fns]


def _num(x: float) -> str:
    """Three significant digits, thousands separated: 0.00312, 4.68, 1,554, 213,800."""
    if x >= 1000:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def _fmt(s: dict[str, Any] | None, unit: str = "") -> str:
    if not s:
        return "-"
    return f"{_num(s['median'])}{unit} ({_num(s['min'])}..{_num(s['max'])})"


def render(r: dict[str, Any]) -> str:
    """The table: per row µs a hand and hands a second of ours and of PyMahjongGB's, and the ratio."""
    head = (f"guobiao (native) against PyMahjongGB {r.get('pymahjonggb') or ''}: {r['hands']} winning hands, seed "
            f"{r['seed']}, {r['repeats']} repeats; median (min..max)")
    lines = [head, f"fans and value agree on {r['agree']} of {r['hands']} hands (not timed)"]
    m = r.get("machine_python_add_ns")
    if m:
        lines.append(f"machine speed (a pure-Python addition, ns): {_fmt(m['start'])} at the start, "
                     f"{_fmt(m['end'])} at the end")
    w, c = 58, 30
    lines.append("")
    lines.append(f"  {'µs a hand':<{w}}{'hands':>6}{'mjrules':>{c}}{'PyMahjongGB':>{c}}{'ratio':>{c}}")
    for row in r["rows"]:
        lines.append(f"  {row['measure']:<{w}}{row['hands']:>6}{_fmt(row['ours_us']):>{c}}"
                     f"{_fmt(row.get('theirs_us')):>{c}}{_fmt(row.get('ratio'), 'x'):>{c}}")
    lines.append("")
    lines.append(f"  {'hands a second':<{w}}{'':>6}{'mjrules':>{c}}{'PyMahjongGB':>{c}}")
    for row in r["rows"]:
        lines.append(f"  {row['measure']:<{w}}{'':>6}{_fmt(row['ours_hands_per_s']):>{c}}"
                     f"{_fmt(row.get('theirs_hands_per_s')):>{c}}")
    for s in r["simulate"]:
        label = f"simulate, four {s['agents']} agents ({s['hands']} hands)"
        lines.append(f"  {label:<{w}}{'':>6}{_fmt(s['hands_per_s']):>{c}}{'(no game)':>{c}}")
    lines.append("")
    lines.append("ratio = PyMahjongGB's time / ours (above 1: mjrules is faster)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000, help="winning hands (default 2000)")
    ap.add_argument("--repeat", type=int, default=5, help="repeats of each timing (default 5)")
    ap.add_argument("--sim", type=int, default=200, help="simulated hands of random agents (greedy: a quarter;"
                                                         " 0: none)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    args = ap.parse_args(argv)
    try:
        import MahjongGB  # noqa: F401
    except ImportError:
        print("mjrules.bench.guobiao: PyMahjongGB (module MahjongGB), the reference MCR calculator, is not "
              "installed: pip install PyMahjongGB", file=sys.stderr)
        return 2
    mcr = load_oracle()
    if mcr is None:
        print(f"mjrules.bench.guobiao: the MCR hand generator {ORACLE} is not there: run this from a checkout of "
              "the repository (pip install -e .)", file=sys.stderr)
        return 2
    note = (lambda m: print(f"  {m} ...", file=sys.stderr, flush=True)) if not args.json else (lambda m: None)
    started = time.perf_counter()
    machine = {"start": machine_speed(3)}
    GATE.start(patience=5.0, budget=60.0)
    try:
        r = measure(mcr, max(1, args.hands), max(1, args.repeat), max(0, args.sim), note=note)
    finally:
        machine["gate"] = GATE.stop()
    machine["end"] = machine_speed(3)
    r["machine_python_add_ns"] = machine
    try:
        from importlib.metadata import version
        r["pymahjonggb"] = version("PyMahjongGB")
    except Exception:  # noqa: BLE001 - not installed as a distribution
        r["pymahjonggb"] = None
    r["seconds"] = round(time.perf_counter() - started, 2)
    print(json.dumps(r, ensure_ascii=False, indent=1) if args.json else render(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
