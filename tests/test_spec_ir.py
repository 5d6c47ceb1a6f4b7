"""The IR of the shipped specs: golden JSON, determinism, JSON round trip, and the documented Expr ops.

To (re)write tests/golden/ir/<name>.json after an intended change of a spec or of the IR:

    MJRULES_UPDATE_GOLDENS=1 python -m pytest tests/test_spec_ir.py

and read the diff before committing it.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mjrules.compiler import SpecError, compile_file, compile_text, compile_variant, ir, locate, shipped_names
from mjrules.compiler import builtins as B

GOLDEN_DIR = Path(__file__).parent / "golden" / "ir"
UPDATE = os.environ.get("MJRULES_UPDATE_GOLDENS") == "1"
# The golden IR covers the three base variants; the other checks run on every shipped spec, overlays too.
VARIANTS = ["fuzhou_fujian", "fuzhou_jiangxi", "guangdong_tuidaohu", "guobiao", "riichi", "shangrao", "sichuan_xuezhan",
            "zhuanzhuan"]
ALL = shipped_names()

# The ops listed in the docstring of mjrules.compiler.ir.Expr (checked against it below).
DOCUMENTED_OPS = frozenset({
    "const", "enum", "var", "call", "group", "opt", "ref",
    "add", "sub", "mul", "div", "pow", "neg",
    "eq", "ne", "lt", "le", "gt", "ge", "in",
    "and", "or", "not", "if", "max", "min",
})
REF_KINDS = ("pattern", "modifier", "event", "status", "table", "define", "fan")


def spec_path(name: str) -> Path:
    path = locate(name)
    assert path is not None, name
    return Path(path)


@functools.cache
def chain(name: str) -> tuple[str, ...]:
    """The variant and the variants it extends, nearest first."""
    out = [name]
    while (base := compile_variant(out[-1]).extends) is not None:
        out.append(Path(base).stem)
    return tuple(out)


def test_golden_variants_are_shipped() -> None:
    assert set(VARIANTS) <= set(ALL)


# ---- golden JSON ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANTS)
def test_ir_golden(name: str) -> None:
    got = compile_variant(name).to_json()
    path = GOLDEN_DIR / f"{name}.json"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got, encoding="utf-8")
        return
    assert path.exists(), f"missing golden {path}; run with MJRULES_UPDATE_GOLDENS=1 to write it"
    want = path.read_text(encoding="utf-8")
    if got != want:
        # point at the first differing top-level field rather than dumping 25 kB
        g, w = json.loads(got)["variant"], json.loads(want)["variant"]
        fields = sorted(k for k in set(g) | set(w) if g.get(k) != w.get(k))
        pytest.fail(f"IR of {name} differs from {path} in: {', '.join(fields) or 'formatting'}")


# ---- determinism ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_compiling_twice_is_byte_identical(name: str) -> None:
    assert compile_variant(name).to_json() == compile_variant(name).to_json()


@pytest.mark.parametrize("name", ALL)
def test_same_ir_from_a_copy_in_another_directory(name: str, tmp_path: Path) -> None:
    original = compile_variant(name)
    copy = tmp_path / "elsewhere" / f"{name}.mj"
    copy.parent.mkdir()
    shutil.copyfile(spec_path(name), copy)
    moved = compile_file(copy)
    assert moved.spec_sha256 == original.spec_sha256
    assert moved.to_json() == original.to_json()
    # compile_text under any path with the same base name gives the same IR too
    text = spec_path(name).read_text(encoding="utf-8")
    assert compile_text(text, f"some/other/dir/{name}.mj").to_json() == original.to_json()


@pytest.mark.parametrize("name", ALL)
def test_src_files_are_base_names(name: str) -> None:
    files = {s.file for s in _walk(compile_variant(name), ir.Src)}
    assert files <= {f"{n}.mj" for n in chain(name)} | {""}, files
    assert f"{chain(name)[-1]}.mj" in files


@pytest.mark.parametrize("name", ALL)
def test_spec_sha256_is_the_text_hash(name: str) -> None:
    """A base's hash is its text's sha256; an overlay's hashes its base's hash and its own text's."""
    import hashlib

    sha = ""
    for n in reversed(chain(name)):
        own = hashlib.sha256(spec_path(n).read_bytes()).hexdigest()
        sha = hashlib.sha256((sha + own).encode()).hexdigest() if sha else own
    assert compile_variant(name).spec_sha256 == sha


def test_same_ir_under_other_hash_seeds() -> None:
    """Nothing in the IR depends on set or dict iteration order: other processes, other PYTHONHASHSEEDs."""
    code = ("import sys, json\nfrom mjrules.compiler import compile_variant\n"
            "print(json.dumps({n: compile_variant(n).to_json() for n in sys.argv[1:]}))")
    here = {n: compile_variant(n).to_json() for n in ALL}
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code, *ALL], env=env, capture_output=True, text=True,
                             check=True, timeout=120)
        assert json.loads(out.stdout) == here, f"IR differs under PYTHONHASHSEED={seed}"


# ---- JSON round trip --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_ir_round_trips_through_json(name: str) -> None:
    v = compile_variant(name)
    text = v.to_json()
    data = json.loads(text)
    assert data["ir_version"] == ir.IR_VERSION
    assert data["variant"]["name"] == name
    assert json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n" == text
    assert data["variant"] == ir.to_data(v)


@pytest.mark.parametrize("name", ALL)
def test_ir_load_json_inverts_dump(name: str) -> None:
    load_json = getattr(ir, "load_json", None)
    if load_json is None:
        pytest.skip("mjrules.compiler.ir has no load_json")
    v = compile_variant(name)
    back = load_json(v.to_json())
    assert back == v
    assert back.to_json() == v.to_json()


# ---- expressions --------------------------------------------------------------------------------------

def _walk(obj, kind: type):
    """Every instance of `kind` reachable from obj through dataclass fields, tuples and Expr args."""
    if isinstance(obj, kind):
        yield obj
    if isinstance(obj, ir.Expr):
        for a in obj.args:
            yield from _walk(a, kind)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _walk(getattr(obj, f.name), kind)
    elif isinstance(obj, (tuple, list)):
        for x in obj:
            yield from _walk(x, kind)


def test_documented_ops_match_the_docstring() -> None:
    doc = ir.Expr.__doc__ or ""
    for op in DOCUMENTED_OPS:
        assert re.search(rf"(?<![\w]){op}(?![\w])", doc), f"{op} is not documented in ir.Expr"


@pytest.mark.parametrize("name", ALL)
def test_exprs_use_only_documented_ops(name: str) -> None:
    v = compile_variant(name)
    exprs = list(_walk(v, ir.Expr))
    assert exprs
    ops = {e.op for e in exprs}
    assert ops <= DOCUMENTED_OPS, ops - DOCUMENTED_OPS


@pytest.mark.parametrize("name", ALL)
def test_expr_leaves_name_known_things(name: str) -> None:
    """Each leaf names something the variant or the language defines, with the documented argument shapes."""
    v = compile_variant(name)
    declared = {
        "pattern": {p.name for p in v.patterns}, "modifier": {m.name for m in v.modifiers},
        "event": {e.name for e in v.events}, "status": {s.name for s in v.statuses},
        "table": {t.name for t in v.tables}, "define": {d.name for d in v.defines},
        "fan": {f.name for f in v.fans},
    }
    options = {o.name for o in v.options}
    for e in _walk(v, ir.Expr):
        if e.op == "const":
            assert len(e.args) == 1 and isinstance(e.args[0], (bool, int, float, str)), e
        elif e.op == "enum":
            assert e.args[0] in B.WIN_BY, e
        elif e.op == "var":
            assert e.args[0] in B.VARIABLES, e
        elif e.op == "opt":
            assert e.args[0] in options, e
        elif e.op == "ref":
            kind, ref = e.args
            assert kind in REF_KINDS and ref in declared[kind], e
        elif e.op == "call":
            assert e.args[0] in B.FUNCTIONS, e
        elif e.op == "group":
            label, kinds = e.args
            assert isinstance(label, str) and all(isinstance(k, int) and 0 <= k < 42 for k in kinds), e
        elif e.op in ("neg", "not"):
            assert len(e.args) == 1, e
        elif e.op in ("add", "sub", "mul", "div", "pow", "eq", "ne", "lt", "le", "gt", "ge"):
            assert len(e.args) == 2, e
        elif e.op == "if":
            assert len(e.args) == 3, e


# ---- a bug these tests found, now fixed ------------------------------------------------------------------

def test_long_sum_can_be_dumped() -> None:
    text = spec_path("fuzhou_jiangxi").read_text(encoding="utf-8")
    old = "value = S * Q * G * E"
    assert text.count(old) == 1
    try:
        v = compile_text(text.replace(old, "value = S" + " + 1" * 600), "fuzhou_jiangxi.mj")
    except SpecError:  # a length limit instead of a crash would be a fine fix too
        return
    json.loads(v.to_json())
