"""One native evaluate's path, measured: which Python functions it enters, in order, for a hand the engine has
seen, a hand new to it, a new settlement, and then reading the explanation.

    python -m mjrules.bench.hops [VARIANT]

The native engine decides in C (the situation reader, the kernel, the generated module, the result, the
settlement, all compiled); Python runs only to explain, once per new head or settlement, or when an explanation is
read. docs/architecture.md lists the path this prints.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

import mjrules

CASES = [  # (what, situation); the first is evaluated once before, so it is "seen"
    ("a hand seen before", {"concealed": "123m456m789m234p55p", "win_tile": "5p"}),
    ("a hand new to the engine", {"concealed": "111m456m789m234p55p", "win_tile": "5p"}),
    ("a new settlement (a discard)", {"concealed": "222m456m789m234p66p", "win_tile": "6p", "win_by": "discard",
                                      "discarder": 2}),
]


def entered(call: Callable[[], Any]) -> list[str]:
    """The Python functions `call` enters (file:function, in order; C functions are not listed)."""
    seen: list[str] = []

    def prof(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code is not getattr(call, "__code__", None):
            f = frame.f_code.co_filename.replace("\\", "/")
            f = f.rsplit("/runtime/", 1)[-1].rsplit("/mjrules/", 1)[-1]
            seen.append(f"{'(a named tuple)' if f == '<string>' else f}:{frame.f_code.co_name}")

    sys.setprofile(prof)
    try:
        call()
    finally:
        sys.setprofile(None)
    return seen


def collapse(names: list[str]) -> list[tuple[str, int]]:
    """Consecutive repeats of a file counted: [(file, functions entered there in a row)]."""
    out: list[tuple[str, int]] = []
    for n in names:
        f = n.split(":")[0]
        if out and out[-1][0] == f:
            out[-1] = (f, out[-1][1] + 1)
        else:
            out.append((f, 1))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mjrules.bench.hops", description=__doc__.split("\n\n")[0])
    ap.add_argument("variant", nargs="?", default="sichuan_xuezhan")
    args = ap.parse_args(argv)
    e = mjrules.load(args.variant, backend="native")
    e.evaluate(CASES[0][1])
    for what, sit in CASES:
        got = entered(lambda: e.evaluate(sit))
        print(f"{what}: {len(got)} Python functions entered" + (":" if got else ""))
        for f, n in collapse(got):
            print(f"    {f} ({n})")
    r = e.evaluate({"concealed": "333m456m789m234p77p", "win_tile": "7p"})
    got = entered(lambda: r["explain"])
    print(f"reading a new result's explanation: {len(got)} Python functions entered:")
    for f, n in collapse(got):
        print(f"    {f} ({n})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
