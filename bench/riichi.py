"""Riichi hand scoring side by side with riichienv's scorer and the `mahjong` package's, in one process, on the same
hands and the same rules.

    python -m mjrules.bench.riichi [--hands 2000] [--repeat 5] [--kyoku 500] [--json]

The hands are tests/oracles/riichi.py's seeded, stratified riichi winning cases (every yaku and yakuman, open and
closed, riichi, ippatsu, haitei, rinshan, chankan, dora, ura dora, red fives); each engine's arguments are made
before any timing, so only the calls are timed. The rules are the book's defaults (docs/rules/riichi.md), which
both peers are set to (open tanyao, red fives, double yakuman, no kiriage). Each row gives µs a hand, median
(min..max) over the repeats, and each peer's time over ours (above 1: mjrules is faster):

* evaluate, seen: `engine.evaluate(situation, explain=False)` of the shipped variant riichi (native back end),
  looped over the hands (the engine remembers results: hands it has seen), against riichienv's Rust
  `HandEvaluator(tiles, melds).calc(...)` and `HandCalculator.estimate_hand_value` on the same hands;
* evaluate, new hands: each hand new to the engine (a fresh engine each repeat, warmed on the looped hands:
  bench.suite.first_sight) against the peers on the same new hands.

* kyoku: whole hands of the spec played by four random agents, built in (`play_hand`) and stepped from a Python
  loop over the step API, against riichienv's `RiichiEnv("4p-red-single")` stepped by its `RandomAgent`
  (bench.play.side_by_side: the three timed in turn within each repeat), in hands a second. The spec plays the
  riichi declaration and its stick, furiten, swap-calling, dora and red fives, tenpai payments, nagashi and the
  abortive draws (nine terminals included) and pao; a player lets his plain fives go before a red one: nearly
  riichienv's work.

Before timing, every hand is scored by all three and the payments compared (not timed; the count is printed).
Nothing here asserts. Exits 2 with a message where a peer is not installed, or the generator is not found (it
lives in the repository's tests/, not in an installed package).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from .machine import GATE
from .suite import _timed, first_sight, machine_speed, spread

ROOT = Path(__file__).resolve().parents[1]
ORACLE = ROOT / "tests" / "oracles" / "riichi.py"
SPEC = "riichi"   # the shipped variant
SEED = 20261207


def load_oracle() -> ModuleType | None:
    """tests/oracles/riichi.py of the repository this package runs from, as a module; None where it is missing."""
    if not ORACLE.is_file():
        return None
    spec = importlib.util.spec_from_file_location("mjrules_bench_riichi_oracle", ORACLE)
    if spec is None or spec.loader is None:
        return None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod            # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def _loop(fn: Any, items: list[Any]) -> Any:
    def once(fn: Any = fn, items: list[Any] = items) -> None:
        for a in items:
            fn(a)
    return once


def _calls(items: list[tuple]) -> Any:
    """once(): f(*args) for each (f, args)."""
    def once(items: list[tuple] = items) -> None:
        for f, a in items:
            f(*a)
    return once


def _once_timed(once: Any, n: int) -> float:
    t = time.perf_counter()
    once()
    return (time.perf_counter() - t) / n


def peer_calls(R: ModuleType, cases: list[Any]) -> tuple[list[tuple], list[tuple]]:
    """Per case, riichienv's and `mahjong`'s call as (function, arguments), made before any timing."""
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig
    from riichienv import _riichienv as C

    calc = HandCalculator()
    wind = [C.Wind.East, C.Wind.South, C.Wind.West, C.Wind.North]
    kinds = {"chi": C.MeldType.Chi, "pon": C.MeldType.Pon, "added": C.MeldType.Kakan}
    renv, mj = [], []
    for case in cases:
        tiles, win, melds, dora, ura = R._ids(case)
        tsumo = case.tsumo or case.tenhou or case.rinshan
        rmelds, in_melds = [], 0
        for (kind, _lo, open_), m in zip(case.melds, melds):
            t = kinds.get(kind) or (C.MeldType.Daiminkan if open_ else C.MeldType.Ankan)
            rmelds.append(C.Meld(t, list(m.tiles), kind == "added" or open_))
            in_melds += len(m.tiles)
        cond = C.Conditions(
            tsumo=tsumo, riichi=case.riichi, double_riichi=case.double_riichi, ippatsu=case.ippatsu,
            haitei=case.last_tile and case.tsumo and not case.rinshan, houtei=case.last_tile and not case.tsumo,
            rinshan=case.rinshan, chankan=case.chankan, tsumo_first_turn=case.tenhou or case.chiihou,
            player_wind=wind[(case.seat - case.dealer) % 4], round_wind=wind[case.prevalent], honba=case.honba)
        concealed = sorted(tiles[in_melds:])

        def riichienv_score(concealed=concealed, rmelds=rmelds, win=win, dora=dora, ura=ura, cond=cond) -> Any:
            return C.HandEvaluator(concealed, rmelds).calc(win, dora, ura, cond)
        renv.append((riichienv_score, ()))
        cfg = HandConfig(
            is_tsumo=tsumo, is_riichi=case.riichi or case.double_riichi, is_ippatsu=case.ippatsu,
            is_rinshan=case.rinshan, is_chankan=case.chankan,
            is_haitei=case.last_tile and case.tsumo and not case.rinshan, is_houtei=case.last_tile and not case.tsumo,
            is_daburu_riichi=case.double_riichi, is_tenhou=case.tenhou, is_chiihou=case.chiihou,
            player_wind=EAST + (case.seat - case.dealer) % 4, round_wind=EAST + case.prevalent, options=R.options(),
            tsumi_number=case.honba)
        def mahjong_score(tiles=tiles, win=win, melds=melds or None, dora=dora or None, ura=ura or None,
                          cfg=cfg) -> Any:
            return calc.estimate_hand_value(tiles, win, melds=melds, dora_indicators=dora, config=cfg,
                                            ura_dora_indicators=ura)
        mj.append((mahjong_score, ()))
    return renv, mj


def _row(label: str, n: int, ours: list[float], renv: list[float], mj: list[float]) -> dict[str, Any]:
    return {"measure": label, "hands": n, "ours_us": spread([x * 1e6 for x in ours]),
            "riichienv_us": spread([x * 1e6 for x in renv]), "mahjong_us": spread([x * 1e6 for x in mj]),
            "vs_riichienv": spread([t / o for o, t in zip(ours, renv)]),
            "vs_mahjong": spread([t / o for o, t in zip(ours, mj)])}


def measure(R: ModuleType, hands: int, repeats: int, budget: float = 0.2, note: Any = lambda m: None,
            kyoku: int = 0) -> dict:
    import mjrules

    eng = mjrules.load(SPEC, backend="native")
    note(f"generating {hands} winning hands")
    cases = R.generate(hands, SEED)
    sits = [c.situation() for c in cases]
    agree = {"mahjong": 0, "riichienv": 0}
    for c, s in zip(cases, sits):   # not timed
        r = eng.evaluate(s)
        agree["mahjong"] += R.compare(eng.variant, r, c) is None
        agree["riichienv"] += R.compare_riichienv(eng.variant, r, c) is None
    renv, mj = peer_calls(R, cases)
    ev = eng.evaluate

    def lean(s: dict, ev: Any = ev) -> Any:
        return ev(s, explain=False)

    note("evaluate, hands seen before")
    ours = _timed(_loop(lean, sits), len(sits), repeats, budget)
    t_renv = _timed(_calls(renv), len(renv), repeats, budget)
    t_mj = _timed(_calls(mj), len(mj), repeats, budget)
    rows = [_row("evaluate(explain=False), seen", len(sits), ours, t_renv, t_mj)]

    note("evaluate, hands new to the engine")
    new_cases = [R.generate(max(50, hands // 4), SEED + 1 + r) for r in range(repeats)]
    new_sits = [[c.situation() for c in cs] for cs in new_cases]
    ours_new = first_sight(lambda: mjrules.load(SPEC, backend="native"), sits, new_sits)
    new_renv, new_mj = [], []
    for cs in new_cases:
        a, b = peer_calls(R, cs)
        new_renv.append(GATE.repeat(lambda a=a, n=len(cs): _once_timed(_calls(a), n)))
        new_mj.append(GATE.repeat(lambda b=b, n=len(cs): _once_timed(_calls(b), n)))
    rows.append(_row("evaluate, new hands", len(new_sits[0]), ours_new, new_renv, new_mj))
    out = {"spec": SPEC, "seed": SEED, "repeats": repeats, "hands": len(cases),
           "agree": agree, "rows": rows}
    if kyoku:
        from .play import side_by_side

        note(f"kyoku: {kyoku} hands of four random agents, built in, a Python loop, riichienv")
        k = side_by_side(eng, kyoku, repeats)
        if k is not None:
            out["kyoku"] = {"hands": kyoku, "builtin_per_s": spread(k["builtin_per_s"]),
                            "python_per_s": spread(k["python_per_s"]), "riichienv_per_s": spread(k["riichienv_per_s"]),
                            "builtin_vs_riichienv": spread(k["vs_riichienv"]),
                            "python_vs_riichienv": spread([a / b for a, b in zip(k["python_per_s"],
                                                                                 k["riichienv_per_s"])]),
                            "builtin_vs_python": spread(k["vs_python"])}
    return out


def _num(x: float) -> str:
    return f"{x:,.0f}" if x >= 1000 else f"{x:.3g}"


def _fmt(s: dict[str, Any] | None, unit: str = "") -> str:
    if not s:
        return "-"
    return f"{_num(s['median'])}{unit} ({_num(s['min'])}..{_num(s['max'])})"


def render(r: dict[str, Any]) -> str:
    v = r.get("versions", {})
    lines = [f"riichi ({r['spec']}, native) against riichienv {v.get('riichienv', '?')} and mahjong "
             f"{v.get('mahjong', '?')}: {r['hands']} winning hands, seed {r['seed']}, {r['repeats']} repeats; "
             "median (min..max)",
             f"payments, han, fu and yaku agree on {r['agree']['mahjong']} of {r['hands']} hands with mahjong, "
             f"{r['agree']['riichienv']} with riichienv (not timed)"]
    m = r.get("machine_python_add_ns")
    if m:
        lines.append(f"machine speed (a pure-Python addition, ns): {_fmt(m['start'])} at the start, "
                     f"{_fmt(m['end'])} at the end")
    w, c = 34, 24
    lines += ["", f"  {'µs a hand':<{w}}{'hands':>6}{'mjrules':>{c}}{'riichienv':>{c}}{'mahjong':>{c}}"
                  f"{'vs riichienv':>{c}}{'vs mahjong':>{c}}"]
    for row in r["rows"]:
        lines.append(f"  {row['measure']:<{w}}{row['hands']:>6}{_fmt(row['ours_us']):>{c}}"
                     f"{_fmt(row['riichienv_us']):>{c}}{_fmt(row['mahjong_us']):>{c}}"
                     f"{_fmt(row['vs_riichienv'], 'x'):>{c}}{_fmt(row['vs_mahjong'], 'x'):>{c}}")
    lines += ["", "vs = the peer's time / ours (above 1: mjrules is faster)"]
    k = r.get("kyoku")
    if k:
        lines += ["", f"  {'kyoku a second (four random agents)':<{w}}{'hands':>6}{'mjrules':>{c}}{'riichienv':>{c}}"
                      f"{'vs riichienv':>{c}}",
                  f"  {'built-in agents (play_hand)':<{w}}{k['hands']:>6}{_fmt(k['builtin_per_s']):>{c}}"
                  f"{_fmt(k['riichienv_per_s']):>{c}}{_fmt(k['builtin_vs_riichienv'], 'x'):>{c}}",
                  f"  {'Python loop over the step API':<{w}}{k['hands']:>6}{_fmt(k['python_per_s']):>{c}}"
                  f"{_fmt(k['riichienv_per_s']):>{c}}{_fmt(k['python_vs_riichienv'], 'x'):>{c}}",
                  f"  built-in over the Python loop: {_fmt(k['builtin_vs_python'], 'x')}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000, help="winning hands (default 2000)")
    ap.add_argument("--repeat", type=int, default=5, help="repeats of each timing (default 5)")
    ap.add_argument("--kyoku", type=int, default=500, help="whole hands of random play (default 500; 0: none)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    args = ap.parse_args(argv)
    for module, dist in (("riichienv", "riichienv"), ("mahjong", "mahjong")):
        if importlib.util.find_spec(module) is None:
            print(f"mjrules.bench.riichi: {dist} is not installed: pip install {dist} (or the [bench] extra)",
                  file=sys.stderr)
            return 2
    R = load_oracle()
    if R is None:
        print(f"mjrules.bench.riichi: {ORACLE} is not there: run this from a checkout of the repository "
              "(pip install -e .)", file=sys.stderr)
        return 2
    note = (lambda m: print(f"  {m} ...", file=sys.stderr, flush=True)) if not args.json else (lambda m: None)
    started = time.perf_counter()
    machine = {"start": machine_speed(3)}
    GATE.start(patience=5.0, budget=60.0)
    try:
        r = measure(R, max(1, args.hands), max(1, args.repeat), note=note, kyoku=max(0, args.kyoku))
    finally:
        machine["gate"] = GATE.stop()
    machine["end"] = machine_speed(3)
    r["machine_python_add_ns"] = machine
    from importlib.metadata import PackageNotFoundError, version
    r["versions"] = {}
    for dist in ("riichienv", "mahjong"):
        try:
            r["versions"][dist] = version(dist)
        except PackageNotFoundError:
            r["versions"][dist] = None
    r["seconds"] = round(time.perf_counter() - started, 2)
    print(json.dumps(r, ensure_ascii=False, indent=1) if args.json else render(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
