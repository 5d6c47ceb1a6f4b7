"""The README's performance table, made from `mjrules bench --json` output: one row per measure, one column per
variant, each figure the median over the repeats with PASS or MISS against its target (native back end).

    mjrules bench --out bench/last-run.json
    python -m mjrules.bench.table bench/last-run.json --readme README.md

rewrites the table between the README's `<!-- bench-table -->` and `<!-- /bench-table -->` markers (without
--readme it prints the table). The JSON the table was made from is kept beside the bench (bench/last-run.json),
and a test holds the README's table to it.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .suite import TARGET_OF, TARGETS

__all__ = ["BEGIN", "END", "main", "markdown", "replace_table"]

BEGIN, END = "<!-- bench-table -->", "<!-- /bench-table -->"


def _num(x: float) -> str:
    """A figure to three significant digits, with its unit's multiple: 13.8 M, 5,890, 2.38, 0.073."""
    if x >= 1e6:
        return f"{x / 1e6:.3g} M"
    if x >= 1000:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def _mark(p: bool | None) -> str:
    return "" if p is None else " PASS" if p else " MISS"


def _marks(ps: list[bool | None]) -> str:
    """PASS when every figure passes, else how many miss."""
    ps = [p for p in ps if p is not None]
    if not ps:
        return ""
    miss = sum(1 for p in ps if not p)
    return " PASS" if not miss else f" MISS ({miss} of {len(ps)})"


def _target(name: str) -> str:
    t = TARGETS[name]
    sign = ">=" if t["kind"] == "min" else "<"
    v, unit = t["value"], {"us": " µs", "x": "x"}.get(t["unit"], " " + t["unit"])
    if t["unit"] == "hands/s" and v >= 1e6:
        return f"{sign} {v / 1e6:g} M/s"
    return f"{sign} {v:,}{unit}" if isinstance(v, int) else f"{sign} {v:g}{unit}"


def _span(values: list[float]) -> str:
    """The range of some figures: 6.0-15.2 M, or one figure where they round alike."""
    lo, hi = min(values), max(values)
    if hi >= 1e6:
        a, b = f"{lo / 1e6:.1f}", f"{hi / 1e6:.1f}"
        return (a if a == b else f"{a}-{b}") + " M"
    return _num(lo) if _num(lo) == _num(hi) else f"{_num(lo)}-{_num(hi)}"


def _rows(r: dict[str, Any]) -> list[tuple[str, str, Callable[[dict[str, Any]], str]]]:
    """(measure, target, the cell of one variant's results)."""
    nat = lambda v: v["backends"]["native"]
    checks = lambda v: nat(v)["win_check"]

    def per_hand(key: str) -> Callable[[dict[str, Any]], str]:
        return lambda v: f"{_num(nat(v)[key]['per_hand_us']['median'])} µs{_mark(nat(v)[key].get('pass'))}"

    def sim(agent: str) -> Callable[[dict[str, Any]], str]:
        return lambda v: f"{_num(nat(v)['simulate'][agent]['hands_per_s']['median'])}" \
                         f"{_mark(nat(v)['simulate'][agent]['pass'])}"

    def threads(v: dict[str, Any]) -> str:
        rows = [x for x in checks(v) if "batch_1_thread_200k_hands_per_s" in x]
        one = [x["batch_1_thread_200k_hands_per_s"]["median"] for x in rows]
        two = [x["batch_2_threads_200k_hands_per_s"]["median"] for x in rows]
        return f"{_span(one)} / {_span(two)}" if rows else "-"

    def agari(v: dict[str, Any]) -> str:
        m = v.get("mahjong") or {}
        near = (m.get("classes") or {}).get("near")
        if not m.get("available") or not near or near.get("speedup_vs_is_agari") is None:
            return "not measured"
        return f"{near['speedup_vs_is_agari']:.1f}x{_mark(near.get('pass'))}"

    side_measured = any((v.get("agents_side_by_side") or {}).get("available") for v in r["variants"].values())

    def side(key: str) -> Callable[[dict[str, Any]], str]:
        def cell(v: dict[str, Any]) -> str:
            s = v.get("agents_side_by_side") or {}
            if not s.get("available"):
                return "not measured"
            return f"{_num(s[key]['ratio']['median'])}x{_mark(s[key]['pass'])}"
        return cell

    def ratio(v: dict[str, Any]) -> str:
        e = v["evaluate_vs_reference"]
        return f"{_num(e['ratio']['median'])}x{_mark(e['pass'])}"

    rows: list[tuple[str, str, Callable[[dict[str, Any]], str]]] = [
        ("`is_win`, one call a hand (random, near and winning hands, each number of wilds)", _target("win_check"),
         lambda v: _span([x["hands_per_s"]["median"] for x in checks(v)]) + "/s"
         + _marks([x["pass"] for x in checks(v)])),
        ("`check_batch`, the same hands", _target("batch_check"),
         lambda v: _span([x["batch_hands_per_s"]["median"] for x in checks(v)]) + "/s"
         + _marks([x["batch_pass"] for x in checks(v)])),
        ("`check_batch` of 200,000 random rows, 1 / 2 threads", "", threads),
        ("near hands against the `mahjong` package's `is_agari`", _target("vs_is_agari"), agari),
        ("`wait_kinds` of a ready hand", _target("waits"), per_hand("waits")),
        ("`waits`, each wait with its value", "", per_hand("waits_values")),
        ("`evaluate` of a winning hand", _target("evaluate"), per_hand("evaluate")),
        ("`evaluate(..., explain=False)`", _target(TARGET_OF["evaluate_lean"]), per_hand("evaluate_lean")),
        ("`evaluate` of a hand new to the engine", _target(TARGET_OF["evaluate_new"]), per_hand("evaluate_new")),
        ("`evaluate`, native against the reference", _target("evaluate_vs_reference"), ratio),
        ("hands/s, four built-in random agents", _target("simulate_random"), sim("random")),
        ("hands/s, four built-in greedy agents", _target("simulate_greedy"), sim("greedy")),
        ("hands/s, four Python agents through the step API", _target("simulate_python"), sim("python")),
        *([("built-in random agents against riichienv's kyoku/s, timed in turn", _target("builtin_vs_riichienv"),
            side("vs_riichienv")),
           ("built-in random agents against four Python agents, timed in turn", _target("builtin_vs_python"),
            side("vs_python"))] if side_measured else []),   # (where riichienv was installed)
        ("`import mjrules` + `load`, in a new process", _target("import_load"),
         lambda v: f"{v['import_load']['seconds']['median']:.3f} s{_mark(v['import_load']['pass'])}"),
    ]
    return rows


def markdown(r: dict[str, Any]) -> str:
    """The table and its caption, from one `mjrules bench --json` result."""
    names = list(r["variants"])
    out = ["| measure (native back end) | target | " + " | ".join(f"`{n}`" for n in names) + " |",
           "|---|---|" + "---|" * len(names)]
    for label, target, cell in _rows(r):
        out.append(f"| {label} | {target} | " + " | ".join(cell(r["variants"][n]) for n in names) + " |")
    t = r["tables"]
    out.append(f"| the kernel's lookup tables, in memory | {_target('tables')} | {t['total_mb']:.2f} MB"
               f"{_mark(t['pass'])} |" + " |" * (len(names) - 1))
    peer = r.get("riichienv") or {}
    if peer.get("available"):
        mine = {n: r["variants"][n]["backends"]["native"]["simulate"]["python"]["hands_per_s"]["median"]
                for n in names}
        theirs = peer["kyoku_per_s"]["median"]
        out.append('| riichienv `RiichiEnv("4p-red-single")` stepped by its Python `RandomAgent`, kyoku/s | | '
                   + " | ".join(f"{_num(theirs)} (mjrules {mine[n] / theirs:.1f}x)" for n in names) + " |")
    envs = {n: r["variants"][n].get("env") or {} for n in names}
    if any(e.get("available") for e in envs.values()):   # the rl extra's rows (runs since mjrules.env)
        cell = lambda key: " | ".join(f"{_num(e[key]['median'])}" if e.get("available") else "-"
                                      for e in envs.values())
        out.append("| `mjrules.env` AEC steps/s, one table, random legal actions | | " + cell("aec_steps_per_s") + " |")
        out.append("| `mjrules.env` vector of 64 tables, learner steps/s | | " + cell("vector_steps_per_s") + " |")
        peer = r.get("riichienv_env") or {}
        if peer.get("available"):
            out.append('| riichienv `RiichiEnv("4p-red-single")` decisions/s (with `encode()`) | | '
                       + " | ".join(f"{_num(peer['steps_per_s']['median'])} "
                                    f"({_num(peer['encoded_steps_per_s']['median'])})" for _ in names) + " |")
    ray = r.get("ray") or {}
    if ray.get("available"):
        out.append(f"| `simulate --ray` on a local Ray of {ray['cpus']} CPUs / `--jobs {ray['cpus']}`, hands/s | | "
                   + " | ".join(f"{_num(ray['ray_hands_per_s']['median'])} / {_num(ray['jobs_hands_per_s']['median'])}"
                                if n == ray["variant"] else "" for n in names) + " |")
    m = r.get("machine_python_add_ns") or {}
    speed = (f"; a pure-Python addition took {m['start']['median']:.1f} ns at the start and "
             f"{m['end']['median']:.1f} at the end" if m.get("start") and m.get("end") else "")
    g = m.get("gate") or {}
    if g.get("timings"):
        speed += (f"; of its {g['timings']} timed repeats, {g['waited']} waited for the machine's usual speed, "
                  f"{g['timed_again']} were timed again and {g['timed_slow']} were still timed in a slow spell")
    kind = ("a **quick** run (`mjrules bench --quick --json`: a few hands, "
            f"{r['repeats']} repeats; indicative only, not figures to quote)" if r.get("quick")
            else f"`mjrules bench --json` ({r['repeats']} repeats)")
    out += ["", (f"Medians of {kind}, Python {r['python']} on {r['platform']}{speed}; the run took "
                 f"{r['seconds']:.0f} s. M = million. How to read each row: [docs/benchmarks.md](docs/benchmarks.md).")]
    return "\n".join(out) + "\n"


def replace_table(text: str, table: str) -> str:
    """`text` with the part between the markers replaced by `table`."""
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise ValueError(f"the file needs one {BEGIN} ... {END} pair around the table")
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    return f"{head}{BEGIN}\n{table}{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    """python -m mjrules.bench.table RESULT.json [--readme README.md]"""
    ap = argparse.ArgumentParser(prog="python -m mjrules.bench.table",
                                 description="The README's performance table from `mjrules bench --json` output.")
    ap.add_argument("result", help="a file `mjrules bench --json` or `--out` wrote")
    ap.add_argument("--readme", help="rewrite the table between the markers of this file instead of printing it")
    args = ap.parse_args(argv)
    try:
        table = markdown(json.loads(Path(args.result).read_text(encoding="utf-8")))
        if args.readme:
            path = Path(args.readme)
            path.write_text(replace_table(path.read_text(encoding="utf-8"), table), encoding="utf-8")
        else:
            sys.stdout.write(table)
    except (OSError, ValueError, KeyError) as e:
        print(f"mjrules.bench.table: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
