"""The robustness suite's harness: run a case under a time limit and hold its output to one clear line.

`cli(...)` runs `python -m mjrules.cli.main` in a subprocess, `bounded(fn, ...)` calls a function in a forked child;
both kill what runs past its limit and fail the test as a hang. A failure of either is a Python traceback, a
crash (a signal), an exit code other than the documented one, or a wrong message.
"""
from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

HERE = Path(__file__).resolve().parent
ORACLE = HERE.parent / "data" / "oracle.mj"   # a small valid spec, no wilds
CLI_LIMIT = 60.0    # seconds a command may take (a build included) before it counts as a hang
CALL_LIMIT = 20.0   # seconds an in-process case may take


@dataclass
class Ran:
    code: int
    out: str
    err: str
    seconds: float

    @property
    def text(self) -> str:
        return self.out + self.err


def cli(*args: str, code: int, stdin: str | bytes | None = None, env: dict[str, str] | None = None,
        limit: float = CLI_LIMIT, cwd: Path | None = None) -> Ran:
    """Run `mjrules ARGS`; assert no traceback, no crash, no hang, and the exit code."""
    full_env = {k: v for k, v in os.environ.items() if k != "MJRULES_BACKEND"}
    full_env.update(env or {})
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    start = time.monotonic()
    try:
        p = subprocess.run([sys.executable, "-m", "mjrules.cli.main", *args], input=data, capture_output=True,
                           env=full_env, timeout=limit, cwd=cwd, check=False)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"hang: mjrules {' '.join(args)[:200]} ran past {limit} s") from None
    ran = Ran(p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"),
              time.monotonic() - start)
    assert ran.code >= 0, f"crash: signal {-ran.code}: {ran.err[-2000:]}"
    assert "Traceback (most recent call last)" not in ran.text, ran.text[-3000:]
    assert ran.code == code, f"exit {ran.code}, not {code}: {ran.text[-2000:]}"
    return ran


def one_error_line(ran: Ran, *fragments: str) -> str:
    """The single `mjrules...: error: ...` line on stderr (warnings aside), containing each fragment."""
    lines = [ln for ln in ran.err.splitlines() if ln.strip() and not ln.startswith("mjrules: warning:")]
    assert len(lines) == 1, ran.err
    assert ": error" in lines[0], lines[0]
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


def bounded(fn: Callable[..., Any], *args: Any, limit: float = CALL_LIMIT) -> tuple[str, Any]:
    """fn(*args) in a forked child: ("ok", its result) or ("raised", (exception type name, message)), both
    pickled back; a hang past `limit` seconds fails the test, and so does a crash of the child."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        os.close(r)
        try:
            try:
                out: tuple[str, Any] = ("ok", fn(*args))
            except BaseException as e:  # noqa: BLE001 - reported to the parent as data
                out = ("raised", (type(e).__name__, str(e)[:5000]))
            try:
                data = pickle.dumps(out)
            except Exception:  # noqa: BLE001 - an unpicklable result
                data = pickle.dumps(("ok", repr(out[1])[:5000]))
            with os.fdopen(w, "wb") as f:
                f.write(data)
        finally:
            os._exit(0)
    os.close(w)
    deadline = time.monotonic() + limit
    chunks = []
    os.set_blocking(r, False)
    try:
        while True:
            try:
                chunk = os.read(r, 1 << 16)
            except BlockingIOError:
                chunk = None
            if chunk:
                chunks.append(chunk)
            elif chunk == b"":
                break
            else:
                if time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    raise AssertionError(f"hang: {getattr(fn, '__name__', fn)} ran past {limit} s")
                time.sleep(0.002)
    finally:
        os.close(r)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status), f"crash: the child ended with status {status}"
    assert chunks, "the child returned nothing"
    return pickle.loads(b"".join(chunks))


def spec_text(value: str = "1", extra: str = "", options: str = "") -> str:
    """The oracle spec with its value expression, clauses before its score block, and option lines."""
    text = ORACLE.read_text(encoding="utf-8")
    text = text.replace("    value = 1\n", f"    value = {value}\n")
    text = text.replace("  score {\n", extra + "  score {\n")
    return text.replace("  tiles {", options + "  tiles {") if options else text


_ATOMS = st.sampled_from(["0", "1", "2", "3", "9", "10", "0.5", "300", "99999", "fours", "flowers", "melds",
                          "no_melds", "true"])
_BIN = st.sampled_from(["+", "-", "*", "/", "^", "and", "or", "==", "<", "in"])


@st.composite
def expressions(draw, depth: int = 0) -> str:
    """Random expressions of numbers, names and operators, well or ill typed, some deep or long."""
    kind = draw(st.integers(0, 9 if depth < 5 else 0))
    if kind == 0:
        return draw(_ATOMS)
    if kind == 1:
        n = draw(st.sampled_from([2, 3, 50, 119, 121, 999, 1001, 1500]))
        op = draw(st.sampled_from(["+", "*", "and", "or"]))
        return f" {op} ".join([draw(_ATOMS)] * n)
    if kind == 2:
        n = draw(st.sampled_from([1, 30, 39, 41, 200]))
        return "(" * n + draw(expressions(depth + 1)) + ")" * n
    if kind == 3:
        return f"{draw(st.sampled_from(['-', 'not ']))}{draw(expressions(depth + 1))}"
    if kind == 4:
        return f"if {draw(expressions(depth + 1))} then {draw(expressions(depth + 1))} else {draw(expressions(depth + 1))}"
    if kind == 5:
        args = draw(st.lists(expressions(depth + 1), min_size=1, max_size=3))
        return f"{draw(st.sampled_from(['max', 'min']))}({', '.join(args)})"
    op = draw(_BIN)
    a, b = draw(expressions(depth + 1)), draw(expressions(depth + 1))
    return f"{a} in ({b}, {a})" if op == "in" else f"({a}) {op} ({b})"


# well-typed expressions of the oracle spec's names, for the back ends to agree on
_NUM_ATOMS = st.sampled_from(["0", "1", "2", "3", "7", "10", "0.5", "2.25", "99999", "fours", "flowers", "melds",
                              "kongs", "seat", "dealer_streak", "count_in(honours)", "count_in(m + 19p)", "wilds"])
_BOOL_ATOMS = st.sampled_from(["no_melds", "true", "false", "one_suit", "distinct", "no_sequences", "waits_all",
                               "all_in(suited)", "contains(19m)", "spacing(3)", "is_dealer", "first_turn",
                               "win_by == discard", "win_by in (self_draw, rob_kong)"])


@st.composite
def numbers(draw, depth: int = 0) -> str:
    kind = draw(st.integers(0, 7 if depth < 4 else 0))
    if kind == 0:
        return draw(_NUM_ATOMS)
    if kind == 1:
        n = draw(st.sampled_from([2, 3, 30, 119]))
        return f" {draw(st.sampled_from(['+', '-', '*']))} ".join(draw(_NUM_ATOMS) for _ in range(n))
    if kind == 2:
        return f"-({draw(numbers(depth + 1))})"
    if kind == 3:
        return f"if {draw(conditions(depth + 1))} then {draw(numbers(depth + 1))} else {draw(numbers(depth + 1))}"
    if kind == 4:
        args = draw(st.lists(numbers(depth + 1), min_size=1, max_size=draw(st.sampled_from([3, 40]))))
        return f"{draw(st.sampled_from(['max', 'min']))}({', '.join(args)})"
    op = draw(st.sampled_from(["+", "-", "*", "/", "^"]))
    right = draw(st.sampled_from(["0", "1", "2", "3", "fours", "0.5"])) if op == "^" else draw(numbers(depth + 1))
    return f"({draw(numbers(depth + 1))}) {op} ({right})"


@st.composite
def conditions(draw, depth: int = 0) -> str:
    kind = draw(st.integers(0, 6 if depth < 4 else 1))
    if kind == 0:
        return draw(_BOOL_ATOMS)
    if kind == 1:
        return f"({draw(numbers(depth + 1))}) {draw(st.sampled_from(['==', '!=', '<', '<=', '>', '>=']))} " \
               f"({draw(numbers(depth + 1))})"
    if kind == 2:
        vals = draw(st.lists(_NUM_ATOMS, min_size=1, max_size=draw(st.sampled_from([3, 300]))))
        return f"({draw(numbers(depth + 1))}) in ({', '.join(vals)})"
    if kind == 3:
        n = draw(st.sampled_from([2, 3, 9, 65, 300]))
        return f" {draw(st.sampled_from(['and', 'or']))} ".join(f"({draw(conditions(depth + 1))})" for _ in range(n)) \
            if n < 10 else f" {draw(st.sampled_from(['and', 'or']))} ".join(
                f"fours {draw(st.sampled_from(['==', '<', '>']))} {i % 5}" for i in range(n))
    if kind == 4:
        return f"not ({draw(conditions(depth + 1))})"
    if kind == 5:
        return f"if {draw(conditions(depth + 1))} then {draw(conditions(depth + 1))} else {draw(conditions(depth + 1))}"
    return f"({draw(conditions(depth + 1))})"
