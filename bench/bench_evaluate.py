"""evaluate() on winning hands, native against reference: per variant, the median over repeats, and the ratio.

    python -m bench.bench_evaluate [--repeat 7] [--variants shangrao ...]

Three rows per variant: `dict` is the whole public call (parsing and checking the situation included, the
same shared code for both backends); `Situation` starts from a parsed situation (checking still included);
`decide` is the engine's own work on a checked situation (readings, scoring, explanation, payments).
"""
from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import mjrules
from mjrules.model.situation import situation_from_dict

HANDS: dict[str, list[dict[str, Any]]] = {
    "shangrao": [
        {"concealed": "123m456m789p234s77z", "win_tile": "7z", "wild": "9s"},
        {"concealed": "123m456m789p234s7z9s*", "win_tile": "7z", "wild": "9s"},
        {"concealed": "123m456m789p23s7z9s*9s*", "win_tile": "7z", "wild": "9s"},
        {"concealed": "123m456m789p2s5s9s*9s*9s*", "win_tile": "2s", "wild": "9s"},
        {"concealed": "123m456m789p1z9s*9s*9s*9s*", "win_tile": "1z", "wild": "9s"},
        {"concealed": "11z22z33z44z55z66z77z", "win_tile": "7z", "wild": "2m"},
        {"concealed": "1m4m7m2p5p8p3s6s1z2z3z4z5z6z", "win_tile": "6z", "wild": "9p"},
        {"concealed": "19m19p19s123457z9s*9s*", "win_tile": "1z", "wild": "9s"},
        {"concealed": "123m789p234s9s*7z", "win_tile": "7z", "wild": "9s", "melds": ["[555p]"]},
    ],
    "fuzhou_jiangxi": [
        {"concealed": "123m456p789s234s55z", "win_tile": "5z", "seat": 2, "win_by": "discard", "discarder": 1},
        {"concealed": "11m11m55p66p88s33z44z", "win_tile": "4z"},
        {"concealed": "1m4m7m2p5p8p3s6s9s1z2z3z4z5z", "win_tile": "5z"},
        {"concealed": "111m222p333s444s55z", "win_tile": "5z"},
        {"concealed": "11122233345699m", "win_tile": "9m"},
        {"concealed": "123m55z", "win_tile": "5z", "melds": ["[4444p]", "{7777s}", "[123s]"],
         "win_by": "kong_replacement"},
    ],
    "fuzhou_fujian": [
        {"concealed": "123m456m789m234p567s99s", "win_tile": "9s", "wild": "7p", "seat": 2, "win_by": "discard",
         "discarder": 1, "flowers": "1z5zf1"},
        {"concealed": "123m456m789m234p567s9s7p*", "win_tile": "9s", "wild": "7p"},
        {"concealed": "123m456m789m234p57s7p*7p*6s", "win_tile": "6s", "wild": "7p", "flowers": "f8"},
        {"concealed": "123m456m789m234p55s7p*7p*7p*", "win_tile": "5s", "wild": "7p"},
        {"concealed": "123m456m234p6s7p*8s99m", "win_tile": "9m", "wild": "7p", "melds": ["[5555s]"],
         "seat": 2, "win_by": "discard", "discarder": 3, "flowers": "2zf5"},
    ],
    "sichuan_xuezhan": [
        {"concealed": "123m456m789m11p999p", "win_tile": "9p", "win_by": "discard", "discarder": 2},
        {"concealed": "111m333m555p777p99p", "win_tile": "9p"},
        {"concealed": "1111m2233m4455m66m", "win_tile": "6m", "win_by": "discard", "discarder": 1},
        {"concealed": "123m789m11p999p", "melds": ["[999m]"], "win_tile": "1p", "win_by": "discard", "discarder": 3},
        {"concealed": "99p", "melds": ["[111m]", "[333m]", "[555p]", "[777p]"], "win_tile": "9p", "last_tile": True},
    ],
    "guangdong_tuidaohu": [
        {"concealed": "123m456m789p234s1z9s*", "win_tile": "1z", "wild": "9s"},
        {"concealed": "123m456m789p234s11z", "win_tile": "1z", "wild": "9s"},
        {"concealed": "111m333m555p777p1z9s*", "win_tile": "1z", "wild": "9s"},
        {"concealed": "19m19p19s123456z5s*1z", "win_tile": "1z", "wild": "5s"},
        {"concealed": "123m456m789p23s1z5s*6s*", "win_tile": "1z", "wild": ["5s", "6s"],
         "options": {"gui": "shuanggui"}},
    ],
}


def per_call(fn: Callable[[Any], Any], args: list[Any], repeat: int, budget: float = 0.2) -> float:
    """Median seconds per call over `repeat` rounds; each round calls fn on every arg, enough times to last."""
    start = time.perf_counter()
    for a in args:
        fn(a)
    once = max(time.perf_counter() - start, 1e-9)
    loops = max(1, int(budget / once))
    rounds = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(loops):
            for a in args:
                fn(a)
        rounds.append((time.perf_counter() - t) / (loops * len(args)))
    return statistics.median(rounds)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--variants", nargs="*", default=list(HANDS))
    args = ap.parse_args(argv)
    print(f"{'variant':<16}{'input':<11}{'hands':>6}{'reference µs':>15}{'native µs':>12}{'ratio':>9}")
    for name in args.variants:
        ref, nat = mjrules.load(name, backend="reference"), mjrules.load(name, backend="native")
        hands = HANDS[name]
        for h in hands:
            r = nat.evaluate(h)
            assert r == ref.evaluate(h) and r["win"], (name, h)
        parsed = [situation_from_dict(ref.variant, h) for h in hands]
        rows = [("dict", ref.evaluate, nat.evaluate, hands),
                ("Situation", ref.evaluate, nat.evaluate, parsed),
                ("decide", ref._evaluate, lambda s, nat=nat: nat._evaluate(s)[0], parsed)]
        for label, f_ref, f_nat, inputs in rows:
            t_ref = per_call(f_ref, inputs, args.repeat)
            t_nat = per_call(f_nat, inputs, args.repeat)
            print(f"{name:<16}{label:<11}{len(inputs):>6}{t_ref * 1e6:>15.1f}{t_nat * 1e6:>12.1f}"
                  f"{t_ref / t_nat:>8.1f}x")


if __name__ == "__main__":
    main()
