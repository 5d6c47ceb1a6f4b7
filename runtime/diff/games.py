"""Game-level diff of two variants (see mjrules.diff): simulation statistics side by side, with 95% intervals.

Both variants play the same number of seeded hands with the same seed and agents (mjrules.simulate). The
per-hand outcomes are read back from the simulation's own log (its `end` events), so every number here is
computed from the hands `mjrules simulate --out` would write. Rates get Wilson score intervals and their
differences Newcombe's hybrid score interval; the mean value (over wins) gets a normal interval and its
difference Welch's. A difference is flagged significant when its 95% interval excludes 0. With many
metrics some flags are expected by chance (about 1 in 20 for metrics that do not really differ).
"""
from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

Z = 1.959963984540054


def wilson(k: float, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = min(1.0, k / n)
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def newcombe(k1: float, n1: int, k2: float, n2: int) -> tuple[float, float]:
    """95% interval of p2 - p1."""
    p1, p2 = min(1.0, k1 / n1) if n1 else 0.0, min(1.0, k2 / n2) if n2 else 0.0
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    return (d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2))


def _mean_sd(xs: list[float]) -> tuple[float | None, float | None]:
    if not xs:
        return None, None
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, None
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def hands_from_log(path: Path) -> list[dict[str, Any]]:
    """One record per hand (dealer, winners, next dealer) from a simulation's logs.jsonl."""
    out: list[dict[str, Any]] = []
    dealer = None
    with path.open(encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            e = json.loads(line)
            if e.get("log") == "mjrules-hand":
                dealer = e["dealer"]
            elif e.get("type") == "end":
                out.append({"dealer": dealer, "winners": e["winners"], "next_dealer": e["next_dealer"]})
    return out


def run(spec: Any, games: int, *, seed: int, agents: list[str] | None, backend: str, jobs: int,
        progress: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from ..game.simulate import simulate

    with tempfile.TemporaryDirectory(prefix="mjrules-diff-") as d:
        summary = simulate(spec, games, seed=seed, agents=agents, jobs=jobs, out=d, backend=backend,
                           progress=progress)
        hands = hands_from_log(Path(d) / "logs.jsonl")
    return summary, hands


def _stats(hands: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(hands)
    counts: dict[str, float] = {"win rate": 0, "draw rate": 0, "dealer keep rate": 0}
    values: list[float] = []
    for h in hands:
        counts["win rate"] += bool(h["winners"])
        counts["draw rate"] += not h["winners"]
        counts["dealer keep rate"] += h["next_dealer"] == h["dealer"]
        for w in h["winners"]:
            values.append(w["value"])
            for p in w["patterns"]:
                counts[f"wins by pattern: {p}"] = counts.get(f"wins by pattern: {p}", 0) + 1
            counts[f"wins by way: {w['win_by']}"] = counts.get(f"wins by way: {w['win_by']}", 0) + 1
    return {"n": n, "counts": counts, "values": values}


def compare(sa: dict[str, Any], sb: dict[str, Any]) -> list[dict[str, Any]]:
    """Every metric of both, with intervals, the difference B - A, its interval and significance."""
    names = ["win rate", "draw rate", "dealer keep rate"]
    extra = sorted(set(sa["counts"]) | set(sb["counts"]))
    names += [k for k in extra if k.startswith("wins by pattern")] + [k for k in extra if k.startswith("wins by way")]
    out = []
    na, nb = sa["n"], sb["n"]
    for name in names:
        ka, kb = sa["counts"].get(name, 0), sb["counts"].get(name, 0)
        pa, pb = (ka / na if na else 0.0), (kb / nb if nb else 0.0)
        lo, hi = newcombe(ka, na, kb, nb) if na and nb else (None, None)
        out.append({"metric": name, "type": "rate", "a": {"count": ka, "value": round(pa, 4),
                                                          "ci": [round(x, 4) for x in wilson(ka, na)]},
                    "b": {"count": kb, "value": round(pb, 4), "ci": [round(x, 4) for x in wilson(kb, nb)]},
                    "difference": round(pb - pa, 4),
                    "difference_ci": None if lo is None else [round(lo, 4), round(hi, 4)],
                    "significant": lo is not None and (lo > 0 or hi < 0)})
    ma, da = _mean_sd(sa["values"])
    mb, db = _mean_sd(sb["values"])

    def ci(m: float | None, s: float | None, n: int) -> list[float] | None:
        return None if m is None or s is None else [round(m - Z * s / math.sqrt(n), 3), round(m + Z * s / math.sqrt(n), 3)]

    diff = dci = None
    sig = False
    if ma is not None and mb is not None:
        diff = round(mb - ma, 3)
        if da is not None and db is not None:
            half = Z * math.sqrt(da * da / len(sa["values"]) + db * db / len(sb["values"]))
            dci = [round(mb - ma - half, 3), round(mb - ma + half, 3)]
            sig = dci[0] > 0 or dci[1] < 0
    out.insert(3, {"metric": "mean value (per win)", "type": "mean",
                   "a": {"count": len(sa["values"]), "value": None if ma is None else round(ma, 3),
                         "ci": ci(ma, da, len(sa["values"]))},
                   "b": {"count": len(sb["values"]), "value": None if mb is None else round(mb, 3),
                         "ci": ci(mb, db, len(sb["values"]))},
                   "difference": diff, "difference_ci": dci, "significant": sig})
    return out


def diff_games(a: Any, b: Any, games: int, *, seed: int = 0, agents: list[str] | None = None,
               backend: str = "reference", jobs: int = 1, progress: bool = False) -> dict[str, Any]:
    """Simulate both variants and compare their statistics."""
    sum_a, hands_a = run(a, games, seed=seed, agents=agents, backend=backend, jobs=jobs, progress=progress)
    sum_b, hands_b = run(b, games, seed=seed, agents=agents, backend=backend, jobs=jobs, progress=progress)
    metrics = compare(_stats(hands_a), _stats(hands_b))
    keep = ("hands", "seed", "agents", "backend", "seconds", "win_rate", "draw_rate", "dealer_keep_rate", "value",
            "wins_by_pattern", "wins_by_way")
    return {"games": games, "seed": seed, "agents": sum_a["agents"], "backend": sum_a["backend"],
            "a": {k: sum_a.get(k) for k in keep}, "b": {k: sum_b.get(k) for k in keep},
            "metrics": metrics, "significant": [m["metric"] for m in metrics if m["significant"]]}
