"""Timing on a shared machine: time each repeat while the machine runs at its usual speed, and say what it took.

A shared virtual machine's speed swings, in spells from a fraction of a second to many seconds (its neighbours'
load, the host reclaiming memory): in a spell every figure is 1.3-1.9 times slower, mjrules' code or not. A
pure-Python loop of additions slows by the same factor as the engine does (a spell measured beside `evaluate`:
45-49 ns an addition against 26-32, and 3.4-3.8 us a new hand against 2.3), so the bench probes that loop
around each timing.

`GATE.repeat(once)` runs one timed repeat, `once()`, and returns its figure. Outside a run it only calls it.
Within a run (`GATE.start` ... `GATE.stop`) it first probes the interpreter (`probe`: 100,000 additions, a few
milliseconds) until a probe is within `tolerance` times the run's best probe, sleeping between probes; it then
runs `once()` and probes again: if a spell began meanwhile, the repeat is run again (unless it took over
LONG seconds: a timing that long spans spells, and a spell would only make it again). It waits and repeats
for at most `patience` seconds a timing and `budget` seconds a run; past those the figure is kept as it is,
and counted as timed on a slow machine. `GATE.stop()` returns what happened, for the run's result (the table prints it):
the timings, how many waited, how many were run again, the seconds spent so, and how many were still timed in
a spell. Every figure the bench prints is still a median of its repeats, none left out.
"""
from __future__ import annotations

import statistics
from collections.abc import Callable
from time import perf_counter, sleep
from typing import Any, TypeVar

T = TypeVar("T")

TOLERANCE = 1.35   # a probe within this many times the run's best is the machine's usual speed
PATIENCE = 10.0    # seconds a timing may wait and be timed again, by default
BUDGET = 120.0     # seconds a run may spend so, by default
LONG = 2.0         # seconds: a timing this long spans spells, and is not timed again


def probe(n: int = 100_000) -> float:
    """Nanoseconds per addition of a pure-Python loop of n additions (`total += i`)."""
    t = perf_counter()
    total = 0
    for i in range(n):
        total += i
    return (perf_counter() - t) / n * 1e9


class Gate:
    """Time each repeat while the machine runs at its usual speed, within bounds; see the module's doc."""

    def __init__(self) -> None:
        self.on = False
        self._reset(TOLERANCE, PATIENCE, BUDGET)

    def _reset(self, tolerance: float, patience: float, budget: float) -> None:
        self.tolerance, self.patience, self.budget = tolerance, max(0.0, patience), max(0.0, budget)
        self.best = 0.0
        self.timings = self.waits = self.retries = self.slow = 0
        self.waited = 0.0
        self.probes: list[float] = []

    def start(self, tolerance: float = TOLERANCE, patience: float = PATIENCE, budget: float = BUDGET) -> None:
        """Gate the timings from now on (patience 0: probe and record, never wait or time again)."""
        self._reset(tolerance, patience, budget)
        self.on = True
        self.best = min(probe() for _ in range(5))

    def _quiet(self) -> bool:
        p = probe()
        self.probes.append(p)
        self.best = min(self.best, p)
        return p <= self.best * self.tolerance

    def _left(self, began: float) -> float:
        """Seconds this timing may still wait."""
        spent = perf_counter() - began
        return min(self.patience - spent, self.budget - self.waited - spent)

    def repeat(self, once: Callable[[], T]) -> T:
        """once() (one timed repeat, returning its figure), run when a probe finds the machine quiet, and run
        again when the probe after it does not (a spell began during it), while this timing's patience and the
        run's budget last. Outside a run: once()."""
        if not self.on:
            return once()
        self.timings += 1
        began = perf_counter()
        waited = False
        while True:
            while not self._quiet() and self._left(began) > 0:
                waited = True
                sleep(0.25)
            t = perf_counter()
            x = once()
            took = perf_counter() - t
            if took > LONG or self._quiet():   # a long timing spans spells: no timing it again
                break
            if self._left(began) <= 0:
                self.slow += 1
                break
            self.retries += 1
        self.waits += waited
        self.waited += perf_counter() - began - took   # beyond the one timing kept (probes included)
        return x

    def stop(self) -> dict[str, Any]:
        """Stop gating; what the run's timings waited for (JSON-ready)."""
        self.on = False
        ps = self.probes or [self.best]
        return {"tolerance": self.tolerance, "patience_s": self.patience, "budget_s": self.budget,
                "best_ns": round(self.best, 2), "timings": self.timings, "waited": self.waits,
                "timed_again": self.retries, "seconds_waited": round(self.waited, 1), "timed_slow": self.slow,
                "probe_ns": {"median": round(statistics.median(ps), 2), "min": round(min(ps), 2),
                             "max": round(max(ps), 2), "n": len(ps)}}


GATE = Gate()
