"""Simulation: many seeded hands, in parallel processes, summarised; the same seed gives the same numbers
whatever the number of jobs (hand i always has seed (seed, i) and dealer i mod players)."""
from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from .play import log_lines, play_hand

_ENGINE: Any = None


def hand_seed(seed: int, i: int) -> int:
    return (seed * 1_000_003 + i * 7919) % (2**63)


def _init(spec: str, backend: str | None) -> None:
    global _ENGINE
    from .engine import load

    _ENGINE = load(spec, backend=backend)


def _play(args: tuple[int, int, list[str], dict, bool]) -> dict[str, Any]:
    i, seed, agents, options, keep_log = args
    eng = _ENGINE
    n = eng.variant.players
    g = play_hand(eng, agents, seed=hand_seed(seed, i), dealer=i % n, options=options)
    o = g.outcome
    rec = {"i": i, "dealer": g.dealer, "winners": o["winners"], "payments": o["payments"],
           "next_dealer": o["next_dealer"], "decisions": g.decision_count()}
    if keep_log:
        rec["log"] = log_lines(g)
    return rec


def simulate(spec: str, games: int, *, seed: int = 0, agents: list[str] | None = None, jobs: int = 1,
             out: str | Path | None = None, backend: str | None = None, options: dict | None = None,
             progress: bool = False) -> dict[str, Any]:
    """Play `games` hands of a variant and summarise them; with `out`, write logs.jsonl and summary.json."""
    _init(spec, backend)
    n = _ENGINE.variant.players
    agents = agents or ["random"] * n
    if len(agents) != n:
        raise ValueError(f"give {n} agents, one per seat (got {len(agents)})")
    work = [(i, seed, agents, options or {}, out is not None) for i in range(games)]
    records: list[dict] = []
    t0 = time.perf_counter()
    bar = _Progress(games, progress)
    if jobs > 1 and games > 1:
        import multiprocessing as mp

        ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
        with ctx.Pool(jobs, initializer=_init, initargs=(spec, backend)) as pool:
            for rec in pool.imap_unordered(_play, work, chunksize=max(1, games // (jobs * 8))):
                records.append(rec)
                bar.tick()
    else:
        for w in work:
            records.append(_play(w))
            bar.tick()
    bar.done()
    records.sort(key=lambda r: r["i"])
    elapsed = time.perf_counter() - t0
    summary = summarise(_ENGINE.variant, records, agents, seed)
    summary["seconds"] = round(elapsed, 3)
    summary["hands_per_second"] = round(games / elapsed, 1) if elapsed else None
    summary["backend"] = _ENGINE.backend
    if out is not None:
        write_outputs(Path(out), records, summary)
    return summary


def summarise(v: Any, records: list[dict], agents: list[str], seed: int) -> dict[str, Any]:
    n = len(records)
    by_way: Counter = Counter()
    by_pattern: Counter = Counter()
    values: list[float] = []
    net = [0] * v.players
    draws = kept = 0
    for r in records:
        if not r["winners"]:
            draws += 1
        for w in r["winners"]:
            by_way[w["win_by"]] += 1
            for p in w["patterns"]:
                by_pattern[p] += 1
            values.append(w["value"])
        for p, a in r["payments"].items():
            net[int(p)] += a
        kept += r["next_dealer"] == r["dealer"]
    values.sort()

    def pct(q: float) -> Any:
        return values[min(len(values) - 1, int(q * len(values)))] if values else None

    return {
        "variant": v.name, "hands": n, "seed": seed, "agents": agents,
        "win_rate": round((n - draws) / n, 4) if n else 0, "draw_rate": round(draws / n, 4) if n else 0,
        "wins_by_way": dict(sorted(by_way.items())),
        "win_rate_by_way": {k: round(c / n, 4) for k, c in sorted(by_way.items())},
        "wins_by_pattern": dict(sorted(by_pattern.items())),
        "value": {"mean": round(statistics.fmean(values), 3) if values else None, "p50": pct(0.5),
                  "p90": pct(0.9), "p99": pct(0.99), "max": values[-1] if values else None},
        "dealer_keep_rate": round(kept / n, 4) if n else 0,
        "net_per_seat": net,
        "mean_decisions": round(statistics.fmean(r["decisions"] for r in records), 1) if records else 0,
    }


def write_outputs(out: Path, records: list[dict], summary: dict) -> None:
    """logs.jsonl (every hand's log, one after another) and summary.json, each written atomically."""
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(out / "logs.jsonl", "".join(line + "\n" for r in records for line in r.get("log", [])))
    atomic_write(out / "summary.json", json.dumps(summary, ensure_ascii=False, indent=1) + "\n")


def atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class _Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, enabled: bool):
        self.total, self.enabled, self.count = total, enabled, 0
        self.t0 = time.perf_counter()
        self.last = 0.0

    def tick(self) -> None:
        self.count += 1
        now = time.perf_counter()
        if self.enabled and (now - self.last > 0.1 or self.count == self.total):
            self.last = now
            width = 30
            filled = int(width * self.count / max(1, self.total))
            rate = self.count / max(1e-9, now - self.t0)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.count}/{self.total} "
                             f"{rate:.1f} hands/s")
            sys.stderr.flush()

    def done(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()
