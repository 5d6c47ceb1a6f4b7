"""Building native modules where things go wrong: long chains, a missing C compiler, an unusable cache folder,
the leftovers of a build that died; and values beyond the range on both back ends.

Once: a modifier of 200 `and` terms (250 `or` terms, `in` 400 values) checked but its build exited 1 with a
RecursionError inside Cython (5,000 terms: a segmentation fault); every failed build left an 860 KB
`.build-mjv_*` folder; no C compiler was a CompileError traceback; MJRULES_CACHE at a file, an impossible path or
a read-only folder was a traceback too.
"""
from __future__ import annotations

from collections.abc import Mapping
import warnings
from pathlib import Path

import mjrules
import pytest
from harness import ORACLE, cli, conditions, numbers, one_error_line, spec_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mjrules.native import cache as native
from mjrules.model.arith import ValueRangeError
from mjrules.compiler import SpecError, compile_text
from strategies import SLOW, examples

WIDE = spec_text(
    "boost * 10 ^ 280 + max(" + ", ".join(["fours", "melds", "1"] * 100) + ") + " + " + ".join(["fours"] * 100),
    extra=(
        '  modifier wide_and "A" when ' + " and ".join(["fours == 0"] * 200) + "\n"
        '  modifier wide_or "O" when ' + " or ".join(f"fours == {i % 5}" for i in range(250)) + "\n"
        '  modifier wide_in "I" when fours in (' + ", ".join(map(str, range(400))) + ")\n"
        '  modifier deep "D" when ' + "(" * 36 + "no_melds" + ")" * 36 + "\n"
        '  pattern loose "Loose" shape free when ' + " and ".join(["no_melds"] * 150) + " and ("
        + " or ".join(["fours == 1"] * 150) + ") and fours in (" + ", ".join(map(str, range(1, 300))) + ")\n"),
    options='  option boost "B" = 0\n')
HANDS = [{"concealed": "123m456m789p234s77z", "win_tile": "7z"}, {"concealed": "1122m3344p5566s77z", "win_tile": "7z"},
         {"concealed": "1111m3344p5566s77z", "win_tile": "7z"}, {"concealed": "123m456m789p222s77z", "win_tile": "7z",
                                                                  "win_by": "discard", "discarder": 2},
         {"concealed": "111m456m789p234s77z", "win_tile": "1m", "melds": []}]

MORE_HANDS = HANDS + [
    {"concealed": "123m456m234s77z", "melds": ["[123p]"], "win_tile": "7z"},
    {"concealed": "11m22m33m44p55p66s77z", "win_tile": "7z"},
    {"concealed": "111m222m333p444s77z", "win_tile": "7z", "win_by": "discard", "discarder": 1, "seat": 2},
]


@pytest.fixture(scope="module")
def wide() -> dict[str, object]:
    v = compile_text(WIDE, "wide.mj")
    return {b: mjrules.load(v, backend=b) for b in ("native", "reference")}


def _outcome(eng, d: dict) -> object:
    try:
        return eng.evaluate(d)
    except ValueError as e:
        return (type(e).__name__, str(e))


def test_long_chains_build_and_agree(wide):
    """Chains past what Cython once recursed through build, and both back ends judge hands alike."""
    for d in HANDS:
        a, b = _outcome(wide["native"], d), _outcome(wide["reference"], d)
        assert a == b, (d, a, b)
    assert any(isinstance(_outcome(wide["native"], d), Mapping) and _outcome(wide["native"], d)["win"] for d in HANDS)


MIXED = ["not (if no_melds then no_melds else true)", "true and no_melds", "no_melds or false",
         "if fours == 0 then no_melds else (fours > 1)", "not true", "true == no_melds", "(fours == 1) and true",
         "(if true then 1 else fours) == 1", "if (if no_melds then true else false) then (not false) else no_melds",
         "fours in (1, 2, if no_melds then 3 else 4)", "no_melds == (fours > 0)", "not not not true"]


def test_conditions_mixing_literals_and_facts_build():
    """`not (if no_melds then no_melds else true)` checked, and its build failed: a bint and an int literal as
    the branches of a conditional made a Python object inside a nogil function (found by the generated test)."""
    extra = "".join(f'  modifier mod{i} "M" when {c}\n' for i, c in enumerate(MIXED))
    extra += "".join(f'  pattern free{i} "F" shape free when {c}\n' for i, c in enumerate(MIXED))
    v = compile_text(spec_text("(if no_melds then 1 else 0) + max(if false then 1 else 2, fours)", extra=extra),
                     "mixed.mj")
    nat, ref = mjrules.load(v, backend="native"), mjrules.load(v, backend="reference")
    for d in MORE_HANDS:
        assert _outcome(nat, d) == _outcome(ref, d), d


# expressions as deep as E036 allows (120 levels), written without brackets (40 of those is their own limit)
DEEP_NUM = {"if": (119, lambda n: "if no_melds then " * n + "fours" + " else 1" * n), "neg": (119, lambda n: "- " * n + "fours"),
            "pow": (119, lambda n: "1 ^ " * n + "fours"), "sum": (120, lambda n: " + ".join(["fours"] * n)),
            "div": (120, lambda n: " / ".join(["fours"] * n))}
DEEP_BOOL = {"if": (119, lambda n: "if no_melds then " * n + "no_melds" + " else false" * n),
             "not": (119, lambda n: "not " * n + "no_melds"), "in": (118, lambda n: "- " * n + "fours in (1, 2, 3)")}


def test_expressions_at_the_depth_limit_build_and_agree():
    """The deepest expressions the checker accepts build (as values, modifiers and free patterns' pruning tests),
    one level more is E036, and a define chain as deep as allowed is followed by the minimum's bounds."""
    def checks(value: str = "1", extra: str = "") -> bool:
        return _checks(spec_text(value, extra=extra))

    for n, f in DEEP_NUM.values():
        assert checks(f(n)) and not checks(f(n + 1))
    for n, f in DEEP_BOOL.values():
        assert checks(extra=f'  modifier x "X" when {f(n)}\n') and not checks(extra=f'  modifier x "X" when {f(n + 1)}\n')
    extra = "".join(f'  modifier b{i} "B" when {f(n)}\n  pattern free{i} "F" shape free when {f(n)}\n'
                    for i, (n, f) in enumerate(DEEP_BOOL.values()))
    extra += "".join(f'  modifier n{i} "N" when ({f(n - 2)}) > 0\n' for i, (n, f) in enumerate(DEEP_NUM.values()))
    defines = "".join(f"    define d{i} = d{i + 1} + fours\n" for i in range(58)) + "    define d58 = fours\n"
    text = spec_text("d0 * 2 + (" + DEEP_NUM["if"][1](60) + ")", extra=extra).replace(
        "  score {\n", "  score {\n" + defines + "    minimum 1\n")
    v = compile_text(text, "deep.mj")
    nat, ref = mjrules.load(v, backend="native"), mjrules.load(v, backend="reference")
    for d in MORE_HANDS:
        assert _outcome(nat, d) == _outcome(ref, d), d


def test_values_beyond_the_range_raise_alike(wide):
    """boost * 10^280 passes +-10^300 for boost 10^21: both back ends raise the same ValueRangeError."""
    d = dict(HANDS[0], options={"boost": 10 ** 21})
    errors = []
    for b in ("native", "reference"):
        with pytest.raises(ValueRangeError) as info:
            wide[b].evaluate(d)
        errors.append(str(info.value))
    assert errors[0] == errors[1] and "outside the range of values" in errors[0]
    ok = dict(HANDS[0], options={"boost": 10 ** 19})
    assert wide["native"].evaluate(ok) == wide["reference"].evaluate(ok)


@pytest.mark.skipif(not SLOW, reason="a build of a minute: run with --slow")
def test_the_term_limit_builds(tmp_path, monkeypatch):
    """1,000 terms in each of `and`, `or`, `in` and `max`, the most E037 allows, build and agree."""
    monkeypatch.setenv("MJRULES_CACHE", str(tmp_path))
    text = spec_text("max(" + ", ".join(["fours"] * 1000) + ")", extra=(
        '  modifier a "A" when ' + " and ".join(["no_melds"] * 1000) + "\n"
        '  modifier o "O" when ' + " or ".join(["fours == 1"] * 1000) + "\n"
        '  modifier i "I" when fours in (' + ", ".join(map(str, range(1000))) + ")\n"))
    v = compile_text(text, "limit.mj")
    nat, ref = mjrules.load(v, backend="native"), mjrules.load(v, backend="reference")
    for d in HANDS:
        assert _outcome(nat, d) == _outcome(ref, d)


def _checks(text: str) -> bool:
    try:
        compile_text(text, "one.mj")
        return True
    except SpecError:
        return False


@settings(max_examples=examples(1, 30), deadline=None, suppress_health_check=list(HealthCheck))
@given(conds=st.lists(conditions(), min_size=12, max_size=12), values=st.lists(numbers(), min_size=4, max_size=4))
def test_generated_expressions_build_and_agree(conds, values, tmp_path_factory):
    """Random conditions as modifiers and free patterns, random numbers as the value: the ones that check go into
    one spec, built once; both back ends then judge hands alike (results, or the same ValueError)."""
    mods = [c for c in conds if _checks(spec_text(extra=f'  modifier x "X" when {c}\n'))]
    pats = [c for c in conds if _checks(spec_text(extra=f'  pattern x "X" shape free when {c}\n'))]
    vals = [v for v in values if _checks(spec_text(f"({v}) + fours"))]
    extra = "".join(f'  modifier mod{i} "M" when {c}\n' for i, c in enumerate(mods))
    extra += "".join(f'  pattern free{i} "F" shape free when {c}\n' for i, c in enumerate(pats))
    text = spec_text(" + ".join(f"({v})" for v in vals) or "1", extra=extra)
    try:
        v = compile_text(text, "generated.mj")
    except SpecError:   # together they may pass a limit (depth with defines, terms) that none passed alone
        return
    nat, ref = mjrules.load(v, backend="native"), mjrules.load(v, backend="reference")
    for d in MORE_HANDS:
        assert _outcome(nat, d) == _outcome(ref, d), (text, d)


# ---- a failed build, and no compiler ------------------------------------------------------------------------
def test_no_compiler_is_one_line_and_the_reference_still_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    v = compile_text(spec_text("2"), "nocc.mj")
    with pytest.raises(native.BuildError, match="no C compiler found .*apt install gcc"):
        mjrules.load(v, backend="native")
    with warnings.catch_warnings(record=True) as caught:   # the default back end falls back, with one warning
        warnings.simplefilter("always")
        eng = mjrules.load(v)
    assert eng.backend == "reference" and len(caught) == 1 and "no C compiler" in str(caught[0].message)
    assert eng.evaluate(HANDS[0])["value"] == 2
    assert not list((tmp_path / "cache").glob(".build-*"))


def test_no_compiler_on_the_command_line(tmp_path):
    p = tmp_path / "nocc.mj"
    p.write_text(spec_text("3"), encoding="utf-8")
    env = {"MJRULES_CACHE": str(tmp_path / "cache"), "CC": "no-such-cc-anywhere"}
    one_error_line(cli("build", str(p), code=3, env=env), "no C compiler found", "--backend reference")
    ran = cli("score", str(p), "--hand", "123m456m789p234s77z", "--win-tile", "7z", "--brief", code=0, env=env)
    assert "value 3" in ran.out and ran.err.count("mjrules: warning:") == 1
    ran = cli("score", str(p), "--hand", "123m456m789p234s77z", "--win-tile", "7z", "--backend", "reference",
              code=0, env=env)
    assert "value 3" in ran.out and not ran.err
    one_error_line(cli("score", str(p), "--hand", "123m", "--backend", "native", code=3, env=env), "no C compiler")


def test_leftovers_of_a_dead_build_are_swept(tmp_path, monkeypatch):
    """A build that was killed left `.build-<module>-*` and `.<module>.*.part`; the next build removes those
    whose lock nobody holds, and never another build's."""
    cache = tmp_path / "cache"
    cache.mkdir()
    dead, live = "mjv_" + "d" * 32, "mjv_" + "e" * 32
    for name in (dead, live):
        (cache / f".build-{name}-x1y2").mkdir()
        (cache / f".build-{name}-x1y2" / "big.c").write_bytes(b"0" * 1000)
        (cache / f".{name}.123.part").write_bytes(b"0")
        (cache / f"{name}.lock").touch()
    monkeypatch.setenv("MJRULES_CACHE", str(cache))
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))   # the build itself fails: its own leftovers go too
    with native.Lock(cache, live), pytest.raises(native.BuildError):   # a build of `live` is under way
        native.build(compile_text(spec_text("4"), "sweep.mj"))
    left = sorted(p.name for p in cache.iterdir() if p.name.startswith("."))
    assert left == [f".build-{live}-x1y2", f".{live}.123.part"]


@pytest.mark.parametrize("code,output,says", [
    (-11, "", "crashed (SIGSEGV)"),
    (1, "x.c:1:10: fatal error: Python.h: No such file or directory", "python3-dev"),
    (1, "warning: a\nError compiling Cython file:\nmore\n", "Error compiling Cython file"),
    (1, "", "exit code 1"),
])
def test_a_failed_build_is_one_line(code, output, says):
    msg = native._build_failure("mjv_x", code, output)
    assert says in msg and "\n" not in msg and "reference" in msg


# ---- the cache folder -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["a_file", "under_a_file", "/proc/no/such/folder", "/sys"])
def test_an_unusable_cache_falls_back_to_a_temporary_one(where, tmp_path, monkeypatch):
    (tmp_path / "a_file").write_text("x", encoding="utf-8")
    path = {"a_file": str(tmp_path / "a_file"), "under_a_file": str(tmp_path / "a_file" / "sub")}.get(where, where)
    monkeypatch.setenv("MJRULES_CACHE", path)
    monkeypatch.setattr(native, "_WRITABLE", {})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        folder = native.writable_cache()
        assert native.writable_cache() == folder                  # decided once a process
    assert folder != Path(path) and folder.is_dir() and len(caught) == 1
    assert issubclass(caught[0].category, native.CacheWarning) and path in str(caught[0].message)


def test_a_cache_at_a_file_builds_with_one_warning(tmp_path):
    (tmp_path / "a_file").write_text("x", encoding="utf-8")
    ran = cli("build", str(ORACLE), code=0, env={"MJRULES_CACHE": str(tmp_path / "a_file")})
    assert ran.err.count("mjrules: warning: cannot write the cache folder") == 1 and "oracle: built" in ran.out
    assert (tmp_path / "a_file").read_text(encoding="utf-8") == "x"
