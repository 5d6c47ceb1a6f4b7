"""The load index (mjrules.native.fastload): a variant whose native module is built loads without the front end,
and any change to what its IR was compiled from (the spec, a base it extends, which file an `extends`
finds) makes the next load compile again. A corrupt index is only ignored.

Every test uses its own cache folder (MJRULES_CACHE), seeded with the modules of shipped variants that the
user's cache already holds (or builds once), so that at most two modules are built here: the edited spec's.
Loads that must record an index entry, or must be fresh, run in subprocesses.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import mjrules
import mjrules.specs
import mjrules.compiler
import pytest
from mjrules.native import cache as native
from mjrules.native import fastload
from mjrules.compiler import compile_file, compile_variant
from mjrules.compiler.resolve import locate as front_locate

SPECS = Path(mjrules.specs.__file__).resolve().parent  # the shipped specs, installed or in the source tree
HAND = {"concealed": "123m456m789p234s9s*7z", "win_tile": "7z", "wild": "9s"}

LOAD = """
import json, sys
import mjrules
e = mjrules.load(sys.argv[1], backend=sys.argv[2])
r = e.evaluate(json.loads(sys.argv[3])).to_dict() if len(sys.argv) > 3 else None
print(json.dumps({"lark": "lark" in sys.modules, "parser": "mjrules.compiler.parser" in sys.modules,
                  "ir": e.variant.to_json(), "result": r}))
"""


def load(cache: Path, spec: str | Path, backend: str = "native", cwd: Path | None = None,
         hand: dict | None = None) -> dict:
    """mjrules.load in a fresh process with this cache: whether it imported lark, its IR's JSON, a result."""
    env = {k: v for k, v in os.environ.items() if k != "MJRULES_BACKEND"}
    env["MJRULES_CACHE"] = str(cache)
    args = [sys.executable, "-c", LOAD, str(spec), backend] + ([json.dumps(hand)] if hand else [])
    p = subprocess.run(args, env=env, cwd=cwd or cache, capture_output=True, text=True, timeout=900,
                       check=False)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def seed(folder: Path, *names: str) -> None:
    """Copy the built modules of shipped variants into a cache folder (building them in the user's cache
    first if they are missing there): the same IR has the same key wherever its spec lies."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        v = compile_variant(name)
        lib = native.build(v)
        mod = native.module_name(native.cache_key(v))
        for f in (lib, lib.with_name(f"{mod}.json")):
            shutil.copyfile(f, folder / f.name)


@pytest.fixture(scope="module")
def seeded(tmp_path_factory) -> Path:
    """A folder holding copies of shangrao's and shangrao_wuyuan's modules (no index)."""
    folder = tmp_path_factory.mktemp("seed")
    seed(folder, "shangrao", "shangrao_wuyuan")
    return folder


@pytest.fixture
def cache(seeded: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "cache"
    shutil.copytree(seeded, folder)
    return folder


def entries(cache: Path) -> dict:
    return json.loads((cache / fastload.INDEX).read_text(encoding="utf-8"))["entries"]


# ---- finding specs without the front end ------------------------------------------------------------------
def test_locate_is_the_front_ends_rule(tmp_path, monkeypatch):
    """The load index finds a spec by the front end's own (lark-free) rule, not a copy of it: a file in the working
    folder, or beside the spec that extends it, shadows a shipped name."""
    assert fastload.locate is front_locate
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "mine.mj").write_text("x", encoding="utf-8")
    (tmp_path / "d" / "bare").write_text("x", encoding="utf-8")
    (tmp_path / "shangrao").write_text("x", encoding="utf-8")  # a file in the working folder shadows a name
    d = tmp_path / "d"
    cases = [("shangrao", None, Path("shangrao")), ("fuzhou_fujian", None, SPECS / "fuzhou_fujian.mj"),
             ("no_such_variant", None, None), ("d/mine.mj", None, Path("d/mine.mj")),
             ("mine", d, d / "mine.mj"), ("mine.mj", d, d / "mine.mj"), ("bare", d, d / "bare"),
             ("shangrao", d, Path("shangrao")), ("fuzhou_jiangxi", d, SPECS / "fuzhou_jiangxi.mj"),
             (str(SPECS / "shangrao.mj"), None, SPECS / "shangrao.mj"), ("specs/shangrao", None, None),
             ("fuzhou_jiangxi.mj", None, None)]
    for name, rel, expected in cases:
        assert fastload.locate(name, rel) == expected, (name, rel)


def test_the_front_end_digest_covers_what_the_compiler_imports():
    """The IR depends on the compiler package, the grammar, and the runtime modules the compiler imports."""
    compiler = Path(mjrules.compiler.__file__).parent
    found = set()
    for f in compiler.glob("*.py"):
        text = f.read_text(encoding="utf-8")
        found |= {m for m in re.findall(r"(?:from|import)\s+mjrules\.([\w.]+)", text)
                  if m.split(".")[0] not in ("compiler", "grammar", "specs")}
        found |= set(re.findall(r"from\s+\.\.([\w.]+)", text))
    assert found   # (the compiler does read the tile model)
    assert found <= {"model." + name.removesuffix(".py") for name in fastload.FRONTEND_RUNTIME}


def test_not_indexed_means_none(tmp_path, monkeypatch):
    monkeypatch.setenv("MJRULES_CACHE", str(tmp_path / "cache"))
    assert fastload.cached("no_such_variant") is None
    assert fastload.cached(str(tmp_path / "missing.mj")) is None
    assert fastload.cached("shangrao") is None  # no index in this cache


# ---- a shipped variant ------------------------------------------------------------------------------------
def test_second_load_skips_the_front_end(cache):
    first = load(cache, "shangrao", hand=HAND)
    assert first["lark"]  # compiled: nothing was indexed yet
    assert list(entries(cache)) == [str(SPECS / "shangrao.mj")]
    again = load(cache, "shangrao", hand=HAND)
    assert not again["lark"] and not again["parser"]
    assert again["ir"] == first["ir"] == compile_variant("shangrao").to_json()
    assert again["result"] == first["result"] and again["result"]["win"]
    ref = load(cache, "shangrao", backend="reference")  # the reference backend reads the index too
    assert not ref["lark"] and ref["ir"] == first["ir"]
    assert len(list(cache.glob("mjv_*.so"))) == 2  # nothing was built


def test_fast_ir_equals_the_compiled_ir(cache, monkeypatch):
    load(cache, "shangrao_wuyuan")
    monkeypatch.setenv("MJRULES_CACHE", str(cache))
    monkeypatch.setattr(fastload, "_frontend", None)  # this process's view of the compiler: as it is now
    for name in ("shangrao_wuyuan", str(SPECS / "shangrao_wuyuan.mj")):
        v = fastload.cached(name)
        assert v is not None and v == compile_variant(name)
        assert mjrules.load(name).evaluate(HAND) == mjrules.load(name, backend="reference").evaluate(HAND)


# ---- changes --------------------------------------------------------------------------------------------
def test_an_edited_spec_is_compiled_again(cache, tmp_path):
    spec = tmp_path / "specs" / "shangrao.mj"
    spec.parent.mkdir()
    shutil.copyfile(SPECS / "shangrao.mj", spec)  # the shipped IR (same text, same file name): no build
    load(cache, spec)
    assert not load(cache, spec)["lark"]
    text = spec.read_text(encoding="utf-8")
    assert '"杠上开花 doubles the value ([WY])" = false' in text
    spec.write_text(text.replace('"杠上开花 doubles the value ([WY])" = false',
                                 '"杠上开花 doubles the value ([WY])" = true'), encoding="utf-8")
    edited = compile_file(spec)
    assert edited.option_defaults()["gangkai_double"] is True
    got = load(cache, spec, backend="reference")
    assert got["lark"] and got["ir"] == edited.to_json()
    got = load(cache, spec)  # builds the edited module (the first build here) and indexes it
    assert got["lark"] and got["ir"] == edited.to_json()
    got = load(cache, spec)
    assert not got["lark"] and got["ir"] == edited.to_json()
    spec.write_text(text, encoding="utf-8")  # back to the shipped text: its module is still there
    got = load(cache, spec)
    assert got["lark"] and got["ir"] == compile_variant("shangrao").to_json()


def test_an_overlay_follows_its_base(cache, tmp_path):
    d = tmp_path / "specs"
    d.mkdir()
    for name in ("shangrao", "shangrao_wuyuan"):  # the shipped IR of the overlay: no build
        shutil.copyfile(SPECS / f"{name}.mj", d / f"{name}.mj")
    overlay, base = d / "shangrao_wuyuan.mj", d / "shangrao.mj"
    load(cache, overlay)
    chain = entries(cache)[str(overlay)]["chain"]
    assert [(c["path"], c["extends"]) for c in chain] == [(str(overlay), "shangrao"), (str(base), None)]
    assert not load(cache, overlay)["lark"]

    text = base.read_text(encoding="utf-8")
    base.write_text(text.replace("hand 13 dealer 14", "hand 13 dealer 14  # edited"), encoding="utf-8")
    got = load(cache, overlay, backend="reference")
    assert got["lark"] and got["ir"] == compile_file(overlay).to_json()
    assert got["ir"] != compile_variant("shangrao_wuyuan").to_json()
    base.write_text(text, encoding="utf-8")
    assert not load(cache, overlay, backend="reference")["lark"]

    shadow = d / "shangrao"  # `extends shangrao` now finds this file first
    shadow.write_text(text.replace('"杠上开花 doubles the value ([WY])" = false',
                                   '"杠上开花 doubles the value ([WY])" = true'), encoding="utf-8")
    got = load(cache, overlay, backend="reference")
    assert got["lark"] and got["ir"] == compile_file(overlay).to_json()
    options = json.loads(got["ir"])["variant"]["options"]
    assert {o["name"]: o["default"] for o in options}["gangkai_double"] is True
    shadow.unlink()
    assert not load(cache, overlay, backend="reference")["lark"]


def test_a_changed_front_end_or_module_is_not_trusted(cache):
    load(cache, "shangrao")
    index = cache / fastload.INDEX
    good = index.read_text(encoding="utf-8")
    data = json.loads(good)
    spec = str(SPECS / "shangrao.mj")
    entry = data["entries"][spec]
    for field, value in [("frontend", "0" * 64), ("ir_sha256", "0" * 64), ("key", "0" * 64)]:
        index.write_text(json.dumps({**data, "entries": {spec: {**entry, field: value}}}), encoding="utf-8")
        assert load(cache, "shangrao", backend="reference")["lark"], field
    other = load(cache, "shangrao_wuyuan")  # a valid module of another IR under this spec's entry
    wuyuan = entries(cache)[str(SPECS / "shangrao_wuyuan.mj")]
    swapped = {**data, "entries": {spec: {**entry, "key": wuyuan["key"]}}}
    index.write_text(json.dumps(swapped), encoding="utf-8")
    got = load(cache, "shangrao", backend="reference")
    assert got["lark"] and got["ir"] != other["ir"]


# ---- a damaged index --------------------------------------------------------------------------------------
CORRUPT = [b"", b"{not json", b"\xff\xfe\x00", b"[]", b"null", b'{"version": 1}',
           b'{"version": 99, "entries": {}}', b'{"version": 1, "entries": []}',
           b'{"version": 1, "entries": {"SPEC": 7}}',
           b'{"version": 1, "entries": {"SPEC": {"chain": [{"path": 1}]}}}',
           b'{"version": 1, "entries": {"SPEC": {"chain": [{}], "key": null}}}',
           b'{"version": 1, "entries": {"SPEC": {"chain": "x", "key": 3, "frontend": []}}}']


def test_a_corrupt_index_is_ignored(cache, monkeypatch):
    load(cache, "shangrao")
    index = cache / fastload.INDEX
    good = index.read_bytes()
    monkeypatch.setenv("MJRULES_CACHE", str(cache))
    monkeypatch.setattr(fastload, "_frontend", None)  # this process's view of the compiler: as it is now
    assert fastload.cached("shangrao") == compile_variant("shangrao")
    spec = json.dumps(str(SPECS / "shangrao.mj"))[1:-1].encode()
    for content in CORRUPT + [good[: len(good) // 2]]:
        index.write_bytes(content.replace(b"SPEC", spec))
        assert fastload.cached("shangrao") is None, content
    got = load(cache, "shangrao", hand=HAND)  # compiles, loads the module, and writes a good index
    assert got["lark"] and got["result"]["win"]
    assert json.loads(index.read_bytes()) == json.loads(good)
    assert not load(cache, "shangrao")["lark"]


def test_the_index_is_replaced_atomically(cache):
    load(cache, "shangrao")
    load(cache, "shangrao_wuyuan")
    assert sorted(entries(cache)) == [str(SPECS / "shangrao.mj"), str(SPECS / "shangrao_wuyuan.mj")]
    assert not [p for p in cache.iterdir() if p.name.endswith(".part")]
