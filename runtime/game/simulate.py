"""Simulation: many seeded hands, in parallel processes or on a Ray cluster, summarised; the same seed gives the
same numbers whatever the number of jobs or workers (hand i always has seed hand_seed(seed, i) and dealer i mod
players, and hands are summarised in hand order whoever played them).

With `out`, every hand's log is streamed to `logs.jsonl` (or `logs.jsonl.gz`) as hands finish, in hand order,
through a temporary file renamed at the end; the summary is accumulated hand by hand, so memory stays flat in
the number of hands. The temporary file (`.logs.jsonl.<random>.tmp`) is removed when the run fails, is
interrupted (Ctrl-C) or is terminated (SIGTERM, which then exits 143); one left by a run killed outright is
removed by the next run that writes to the same folder (it is held under a lock while written, so only a
leftover, whose writer is gone, is removed).
"""
from __future__ import annotations

import contextlib
import errno
import glob
import gzip
import json
import os
import stat
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: temporary files are not locked, and not swept
    fcntl = None  # type: ignore[assignment]

from .play import log_lines, play_hand, play_match

_ENGINE: Any = None
_ENGINE_KEY: Any = None


def hand_seed(seed: int, i: int) -> int:
    """The seed of hand i of a simulation seeded with `seed`."""
    return (seed * 1_000_003 + i * 7919) % (2**63)


RANDOM_NOTE = ("random agents pick uniformly among the legal actions and rarely win: "
               "--agents greedy plays to win")


def agents_note(agents: list[str]) -> str | None:
    """What a summary should add about its agents: random agents on every seat make a hand with a winner rare
    (a fraction of a percent in some variants), which is the agents' doing, not the rules'."""
    return RANDOM_NOTE if agents and all(a == "random" for a in agents) else None


def _init(spec: str, backend: str | None, ir: Any = None) -> None:
    """This process's engine of the spec; from its IR when given (a Ray worker: the spec's files need not be
    there), knowing the spec's name all the same (logs name it)."""
    global _ENGINE, _ENGINE_KEY
    from ..engine import load

    if ir is None:
        _ENGINE = load(spec, backend=backend)
    else:
        _ENGINE = load(ir, backend=backend)
        _ENGINE.spec = spec
    _ENGINE_KEY = (spec, backend)


def _play(args: tuple[int, int, list[str], dict, bool]) -> dict[str, Any]:
    i, seed, agents, options, keep_log = args
    eng = _ENGINE
    n = eng.variant.players
    g = play_hand(eng, agents, seed=hand_seed(seed, i), dealer=i % n, options=options or None)
    o = g.outcome
    rec = {"i": i, "dealer": g.dealer, "winners": o["winners"], "payments": o["payments"],
           "next_dealer": o["next_dealer"], "decisions": g.decision_count()}
    if keep_log:
        rec["log"] = "".join(line + "\n" for line in log_lines(g))
    return rec


def _play_match(args: tuple[int, int, list[str], dict]) -> dict[str, Any]:
    i, seed, agents, options = args
    m = play_match(_ENGINE, agents=agents, seed=hand_seed(seed, i), options=options or None)
    return {"i": i, "hands": len(m["hands"]), "ended_by": m["ended_by"], "scores": m["scores"], "ranks": m["ranks"],
            "results": m["results"]}


def _prepare(spec: str, backend: str | None, what: str, count: Any, jobs: Any, agents: list[str] | None,
             options: dict | None) -> tuple[Any, list[str], dict]:
    """A simulation's arguments checked before anything is played, and this process's engine loaded: the variant,
    the agent of every seat (one name: every seat; default random) and the options."""
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise ValueError(f"{what} must be a whole number 0 or more, not {count!r}")
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"jobs must be a whole number 1 or more, not {jobs!r}")
    _init(spec, backend)
    v = _ENGINE.variant
    n = v.players
    agents = list(agents or ["random"])
    if len(agents) == 1:
        agents *= n   # one name: every seat
    if len(agents) != n:
        raise ValueError(f"give one agent for every seat, or {n}, one per seat (got {len(agents)})")
    from .agents import make_agent

    for a in agents:
        make_agent(a, v, 0)  # an unknown name fails here, before any hand
    return v, agents, check_options(v, options)


def simulate_matches(spec: str, matches: int, *, seed: int = 0, agents: list[str] | None = None, jobs: int = 1,
                     backend: str | None = None, options: dict | None = None,
                     progress: bool = False) -> dict[str, Any]:
    """Play `matches` whole matches of a variant (its `match` block: mjrules.game.play_match; match i from the seed
    hand_seed(seed, i)) and summarise them: the hands they took, why they ended, and per seat the mean rank, the
    share of first places, the mean final result and score. `agents` as in `simulate`; `jobs` processes (the
    numbers do not depend on it)."""
    v, agents, opts = _prepare(spec, backend, "matches", matches, jobs, agents, options)
    n = v.players
    work = [(i, seed, agents, opts) for i in range(matches)]
    recs: list[dict[str, Any]] = []
    bar = _Progress(matches, progress)
    t0 = time.perf_counter()
    try:
        if jobs > 1 and matches > 1:
            import multiprocessing as mp

            ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
            with ctx.Pool(jobs, initializer=_worker_init, initargs=(spec, backend)) as pool:
                for rec in pool.imap(_play_match, work):
                    recs.append(rec)
                    bar.tick()
        else:
            for w in work:
                recs.append(_play_match(w))
                bar.tick()
    finally:
        bar.done()
    elapsed = time.perf_counter() - t0
    m = len(recs)

    def mean(xs: list[Any]) -> Any:
        return round(statistics.fmean(xs), 3) if xs else None

    out: dict[str, Any] = {
        "variant": v.name, "matches": m, "seed": seed, "agents": agents, "backend": _ENGINE.backend,
        "hands": sum(r["hands"] for r in recs), "hands_per_match": mean([r["hands"] for r in recs]),
        "ended_by": dict(sorted(Counter(r["ended_by"] for r in recs).items())),
        "seats": [{"mean_rank": mean([r["ranks"][p] for r in recs]),
                   "first_rate": round(sum(r["ranks"][p] == 1 for r in recs) / m, 4) if m else 0,
                   "mean_result": mean([r["results"][p] for r in recs]),
                   "mean_score": mean([r["scores"][p] for r in recs])} for p in range(n)],
        "seconds": round(elapsed, 3),
        "matches_per_second": round(m / elapsed, 2) if elapsed and m else None,
    }
    if opts:
        out["options"] = opts
    return out


def _worker_init(spec: str, backend: str | None) -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent alone answers Ctrl-C
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # and SIGTERM (the pool's terminate()) ends a worker at once
    for fd in _HELD:   # the parent's locked temporary files: its lock, not the workers', says the file is in use
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()
    _init(spec, backend)


@contextlib.contextmanager
def _terminate_as_exit(active: bool) -> Iterator[None]:
    """While a run writes its output: SIGTERM raises SystemExit(143) in this process, so the output's temporary
    file is removed on the way out as on Ctrl-C (and worker processes are ended), instead of a death that leaves
    it. Only in the main thread, and only where SIGTERM has its default handling (a program's own handler is
    left alone; a stale temporary file is removed by the next run that writes the same output anyway)."""
    import signal
    import threading

    if (not active or threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL):
        yield
        return
    owner = os.getpid()

    def on_term(signum: int, frame: Any) -> None:
        if os.getpid() != owner:   # a forked child that kept the handler: ends as it would have
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def simulate(spec: str, games: int, *, seed: int = 0, agents: list[str] | None = None, jobs: int = 1,
             out: str | Path | None = None, backend: str | None = None, options: dict | None = None,
             progress: bool = False, compress: bool = False, ray: str | bool | None = None) -> dict[str, Any]:
    """Play `games` hands of a variant and summarise them; with `out` (a folder), write logs.jsonl (gzipped
    with compress) and summary.json there. `ray` plays the hands on a Ray cluster: True (or "") for the one
    already initialised in this process, else a new local one (of `jobs` CPUs when jobs > 1), or an address
    ("auto", "ray://host:10001"); the numbers are the same as a local run's. `agents`: one built-in agent's name
    for every seat, or one per seat (default: random on every seat, the fastest, which rarely wins; `mjrules
    simulate` defaults to greedy); the summary's "agents" lists them per seat."""
    v, agents, opts = _prepare(spec, backend, "games", games, jobs, agents, options)
    folder = Path(out) if out is not None else None
    with _terminate_as_exit(folder is not None):   # SIGTERM removes the temporary file too
        writer = _LogWriter(folder, compress) if folder is not None else None
        work = ((i, seed, agents, opts, writer is not None) for i in range(games))
        acc = Summary(v, agents, seed)
        t0 = time.perf_counter()
        bar = _Progress(games, progress)
        cluster = None
        try:
            if ray is not None and ray is not False:
                cluster = _RayCluster(ray, jobs)
                for rec in cluster.records(_ENGINE.spec, _ENGINE.variant, backend, list(work), games):
                    _take(rec, acc, writer, bar)
            elif jobs > 1 and games > 1:
                import multiprocessing as mp

                ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
                with ctx.Pool(jobs, initializer=_worker_init, initargs=(spec, backend)) as pool:
                    for rec in pool.imap(_play, work, chunksize=max(1, min(64, games // (jobs * 8)))):
                        _take(rec, acc, writer, bar)
            else:
                for w in work:
                    _take(_play(w), acc, writer, bar)
        except BaseException:
            if writer is not None:
                writer.abandon()
            raise
        finally:
            bar.done()
            if cluster is not None:
                cluster.close()
        elapsed = time.perf_counter() - t0
        summary = acc.result()
        summary["seconds"] = round(elapsed, 3)
        summary["hands_per_second"] = round(games / elapsed, 1) if elapsed and games else None
        summary["backend"] = _ENGINE.backend
        if opts:
            summary["options"] = opts
        if writer is not None:
            try:
                writer.finish(summary)
            except BaseException:
                writer.abandon()
                raise
        return summary


def play_chunk(spec: Any, backend: str | None, items: list[tuple]) -> list[dict[str, Any]]:
    """Play some hands of a simulation (a Ray task: the worker loads the variant once and keeps it). `spec`: a
    spec's name, or (its name, its IR)."""
    name, ir = spec if isinstance(spec, tuple) else (spec, None)
    if _ENGINE_KEY != (name, backend):
        _init(name, backend, ir)
    return [_play(w) for w in items]


class _RayCluster:
    """Hands played as Ray tasks, in chunks, a bounded number in flight; records come back in hand order."""

    def __init__(self, address: str | bool, jobs: int):
        from ..extras import require

        self.ray = ray = require("ray", "ray", "simulate --ray")
        self.started = False
        if address is True or address == "":
            if ray.is_initialized():
                return
            address = None
        if not ray.is_initialized():
            import logging

            ray.init(address=address or None, num_cpus=jobs if jobs > 1 and not address else None,
                     include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
            self.started = True

    def records(self, spec: str, ir: Any, backend: str | None, work: list[tuple], games: int) -> Any:
        """The records of the hands `work` lists, in order; the workers get the spec's IR (stored once in the
        cluster), so a spec's files need to be on this machine only."""
        ray = self.ray
        spec = ray.put((spec, ir))
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = max(1, min(256, games // (workers * 8)))
        chunks = [work[i:i + size] for i in range(0, len(work), size)]
        task = ray.remote(play_chunk)
        ahead = 4 * workers
        refs = [task.remote(spec, backend, c) for c in chunks[:ahead]]
        for i in range(len(chunks)):
            recs = ray.get(refs[i])
            refs[i] = None
            if i + ahead < len(chunks):
                refs.append(task.remote(spec, backend, chunks[i + ahead]))
            yield from recs

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def _take(rec: dict[str, Any], acc: Summary, writer: _LogWriter | None, bar: _Progress) -> None:
    acc.add(rec)
    if writer is not None:
        writer.write(rec["log"])
    bar.tick()


def check_options(v: Any, options: dict | None) -> dict:
    """The option values given, checked against the spec's options (names and types)."""
    opts = dict(options or {})
    known = {o.name: o for o in v.options}
    for k, x in opts.items():
        o = known.get(k)
        if o is None:
            raise ValueError(f"unknown option '{k}'; {v.name} has: {', '.join(sorted(known)) or 'none'}")
        ok = (isinstance(x, bool) if o.type == "bool" else isinstance(x, str) if o.type == "str" else
              isinstance(x, (int, float)) and not isinstance(x, bool))
        if not ok:
            raise ValueError(f"option '{k}' takes a {o.type} value, not {x!r}")
    return opts


class Summary:
    """The summary of a simulation, accumulated one hand at a time."""

    def __init__(self, v: Any, agents: list[str], seed: int):
        self.v, self.agents, self.seed = v, agents, seed
        self.n = self.draws = self.kept = 0
        self.by_way: Counter = Counter()
        self.by_pattern: Counter = Counter()
        self.values: list[float] = []
        self.net = [0] * v.players
        self.decisions = 0

    def add(self, r: dict[str, Any]) -> None:
        self.n += 1
        if not r["winners"]:
            self.draws += 1
        for w in r["winners"]:
            self.by_way[w["win_by"]] += 1
            for p in w["patterns"]:
                self.by_pattern[p] += 1
            self.values.append(w["value"])
        for p, a in r["payments"].items():
            self.net[int(p)] += a
        self.kept += r["next_dealer"] == r["dealer"]
        self.decisions += r["decisions"]

    def result(self) -> dict[str, Any]:
        n, values = self.n, sorted(self.values)

        def pct(q: float) -> Any:
            return values[min(len(values) - 1, int(q * len(values)))] if values else None

        return {
            "variant": self.v.name, "hands": n, "seed": self.seed, "agents": self.agents,
            "win_rate": round((n - self.draws) / n, 4) if n else 0, "draw_rate": round(self.draws / n, 4) if n else 0,
            "wins_by_way": dict(sorted(self.by_way.items())),
            "win_rate_by_way": {k: round(c / n, 4) for k, c in sorted(self.by_way.items())},
            "wins_by_pattern": dict(sorted(self.by_pattern.items())),
            "value": {"mean": round(statistics.fmean(values), 3) if values else None, "p50": pct(0.5),
                      "p90": pct(0.9), "p99": pct(0.99), "max": values[-1] if values else None},
            "dealer_keep_rate": round(self.kept / n, 4) if n else 0,
            "net_per_seat": self.net,
            "mean_decisions": round(self.decisions / n, 1) if n else 0,
        }


class _LogWriter:
    """logs.jsonl[.gz] written as hands finish into a temporary file in `out`, renamed at the end. The temporary
    file is held under a lock while it is written (mjrules.game.simulate._locked_temp), so a later run that writes
    to the same folder removes it if this one was killed before it could."""

    def __init__(self, out: Path, compress: bool):
        out.mkdir(parents=True, exist_ok=True)
        self.out = out
        self.name = "logs.jsonl.gz" if compress else "logs.jsonl"
        sweep_stale(out, "logs.jsonl")   # .logs.jsonl.*.tmp: the plain and the gzipped log's leftovers
        fd, self.tmp = _locked_temp(out, self.name)
        raw = os.fdopen(fd, "wb")
        self.raw = raw
        self.f: IO[bytes] = gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) if compress else raw

    def write(self, text: str) -> None:
        self.f.write(text.encode("utf-8"))

    def finish(self, summary: dict[str, Any]) -> None:
        if self.f is not self.raw:
            self.f.close()
        self.raw.flush()
        os.fsync(self.raw.fileno())
        _publish(self.tmp, self.out / self.name)   # renamed while still open and locked
        self.tmp = None
        self._close()
        atomic_write(self.out / "summary.json", json.dumps(summary, ensure_ascii=False, indent=1) + "\n")

    def abandon(self) -> None:
        try:
            if self.tmp is not None and os.path.exists(self.tmp):
                os.unlink(self.tmp)   # before the file is closed (and unlocked)
            self.tmp = None
        finally:
            self._close()

    def _close(self) -> None:
        fd = None if self.raw.closed else self.raw.fileno()
        self.raw.close()
        if fd in _HELD:
            _HELD.remove(fd)


# The descriptors of the temporary files this process holds locked (a forked worker closes its copies).
_HELD: list[int] = []


def _locked_temp(folder: Path, name: str) -> tuple[int, str]:
    """A new temporary file for `name` in `folder`, `.NAME.<random>.tmp`, after removing the stale ones
    (sweep_stale): open, and under an exclusive flock for as long as it is (where fcntl exists and the file
    system has locks), which tells a later run that its writer is alive."""
    sweep_stale(folder, name)
    while True:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
        if fcntl is None:  # pragma: no cover - no flock here (Windows): nothing is swept either
            return fd, tmp
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
                return fd, tmp   # a file system without locks: unlocked (and never swept: see sweep_stale)
            os.close(fd)   # a sweeper holds it this instant, to remove it: make another
            continue
        try:
            here, mine = os.lstat(tmp), os.fstat(fd)
        except FileNotFoundError:   # a sweeper removed it before the lock was taken: make another
            here = mine = None
        if here is not None and (here.st_ino, here.st_dev) == (mine.st_ino, mine.st_dev):
            _HELD.append(fd)
            return fd, tmp
        os.close(fd)


def sweep_stale(folder: Path, name: str) -> list[str]:
    """Remove the stale temporary files of output `name` in `folder` (`.NAME.*.tmp`, this process's own files
    only) whose writer is gone: those no process holds locked. A writer killed outright (SIGKILL, a power cut)
    leaves one behind; the next run writing the same output removes it. The paths removed."""
    if fcntl is None:  # pragma: no cover - no flock here: a leftover cannot be told from a file being written
        return []
    removed = []
    try:
        paths = sorted(folder.glob(f".{glob.escape(name)}.*.tmp"))
    except OSError:
        return []
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    for p in paths:
        try:
            fd = os.open(p, flags)
        except OSError:
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue   # in use by a live writer (or no locks on this file system)
            st, here = os.fstat(fd), os.lstat(p)
            if (stat.S_ISREG(st.st_mode) and (st.st_ino, st.st_dev) == (here.st_ino, here.st_dev)
                    and st.st_uid == os.getuid()):
                os.unlink(p)
                removed.append(str(p))
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def _publish(tmp: str, path: Path) -> None:
    """Rename a finished temporary file into place, with the permissions a new file gets (umask)."""
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(tmp, 0o666 & ~mask)
    os.replace(tmp, path)


def atomic_write(path: Path, text: str) -> None:
    """Write a whole file through a temporary name in the same folder (locked while written: _locked_temp)."""
    fd, tmp = _locked_temp(path.parent, path.name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
            _publish(tmp, path)   # renamed while still open and locked
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    finally:
        if fd in _HELD:
            _HELD.remove(fd)


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
        if self.enabled and self.count:
            sys.stderr.write("\n")
            sys.stderr.flush()
