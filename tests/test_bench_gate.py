"""bench/machine.py's gate: each timed repeat runs while a probe of the machine finds it at its usual speed, runs
again when a spell began during it, and gives up within its patience and the run's budget, saying so. The probe
and the clock are scripted here: no timing is asserted."""
from __future__ import annotations

import pytest
from mjrules.bench import machine


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def sleep(self, s):
        self.now += s


@pytest.fixture
def scripted(monkeypatch):
    """A gate whose probes are read from a list (5 at start, then one per probe) and whose clock moves only by
    its sleeps and the timed repeats."""
    clock = Clock()
    monkeypatch.setattr(machine, "perf_counter", clock)
    monkeypatch.setattr(machine, "sleep", clock.sleep)

    def make(probes, patience=10.0, budget=120.0):
        it = iter(probes)
        monkeypatch.setattr(machine, "probe", lambda n=100_000: next(it))
        g = machine.Gate()
        g.start(patience=patience, budget=budget)
        return g, it

    return make, clock


def _once(clock, took=0.1):
    """A timed repeat that takes `took` seconds and returns the how-many-th call it was."""
    calls = []

    def once():
        clock.now += took
        calls.append(1)
        return len(calls)

    return once, calls


QUIET, SLOW = 30.0, 45.0
START = [30.0] * 5


# (probes after the 5 at start, patience, how long once takes) -> (calls of once, waited, timed again, slow)
CASES = [
    ([QUIET, QUIET], 10.0, 0.1, (1, 0, 0, 0)),                      # quiet before and after
    ([SLOW, SLOW, QUIET, QUIET], 10.0, 0.1, (1, 1, 0, 0)),           # a spell before: waits it out
    ([QUIET, SLOW, QUIET, QUIET], 10.0, 0.1, (2, 0, 1, 0)),          # a spell began during it: timed again
    ([QUIET, SLOW, SLOW, QUIET, QUIET], 10.0, 0.1, (2, 1, 1, 0)),    # ... and waited before the second
    ([QUIET, SLOW], 0.0, 0.1, (1, 0, 0, 1)),                        # no patience: kept, counted slow
    ([SLOW, SLOW], 0.0, 0.1, (1, 0, 0, 1)),                         # no patience: never waits
    ([QUIET], 10.0, 3.0, (1, 0, 0, 0)),                             # a long timing spans spells: kept, unprobed
    ([SLOW] * 100, 1.0, 0.1, None),                                 # a spell longer than the patience
]


@pytest.mark.parametrize("probes, patience, took, expected", CASES)
def test_gate_cases(scripted, probes, patience, took, expected):
    make, clock = scripted
    g, rest = make(START + probes, patience=patience)
    once, calls = _once(clock, took)
    x = g.repeat(once)
    assert x == len(calls)                    # the figure kept is the last repeat's
    r = g.stop()
    assert r["timings"] == 1
    if expected is None:                      # waited its patience out, then timed and kept it, counted slow
        assert len(calls) == 1 and r["waited"] == 1 and r["timed_slow"] == 1
        assert 1.0 <= clock.now <= 1.0 + 0.25 + 0.1 + 1e-9
        return
    assert (len(calls), r["waited"], r["timed_again"], r["timed_slow"]) == expected
    assert next(rest, None) is None           # every scripted probe was asked


def test_gate_budget_is_for_the_whole_run(scripted):
    """Once the run's budget of waiting is spent, timings go ahead at once (and say they were slow)."""
    make, clock = scripted
    g, _ = make(START + [SLOW] * 1000, patience=10.0, budget=2.0)
    once, calls = _once(clock)
    for _ in range(3):
        g.repeat(once)
    r = g.stop()
    assert len(calls) == 3 and r["timed_slow"] == 3
    assert 2.0 <= r["seconds_waited"] <= 2.0 + 0.25 + 3 * 0.1 + 1e-9


def test_gate_best_follows_the_run(scripted):
    """The reference is the best probe of the run so far: a run that starts in a spell learns the usual speed."""
    make, clock = scripted
    g, _ = make([45.0] * 5 + [30.0, 30.0, 30.0, 44.0, 30.0, 30.0])
    once, calls = _once(clock)
    g.repeat(once)                            # 30 is quiet (and the new best)
    g.repeat(once)                            # 44 after 30 is a spell now: timed again
    r = g.stop()
    assert r["best_ns"] == 30.0 and len(calls) == 3 and r["timed_again"] == 1


def test_gate_off_only_times(monkeypatch):
    monkeypatch.setattr(machine, "probe", lambda n=100_000: pytest.fail("probed outside a run"))
    assert machine.Gate().repeat(lambda: 7) == 7
