"""A constant that a compiled module takes from its .pxd (a C enum) and its interpreted twin from the .py's
`if not cython.compiled:` block is written twice; these tests hold every such pair equal, so the one source and its
compiled form cannot drift apart."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import mjrules

PACKAGE = Path(mjrules.__file__).resolve().parent


def _top_constants(py: Path) -> dict[str, int]:
    """The integer constants a module defines at its top level, or in its `if not cython.compiled:` blocks."""
    tree = ast.parse(py.read_text(encoding="utf-8"))
    out: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            out.update(_assigned(node))
    out.update(_interpreted_constants(py))
    return out


def _assigned(st: ast.Assign) -> dict[str, int]:
    if len(st.targets) != 1:
        return {}
    target, value = st.targets[0], st.value
    if isinstance(target, ast.Name) and isinstance(value, ast.Constant) and type(value.value) is int:
        return {target.id: value.value}
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Call) and ast.unparse(value.func) == "range":
        return dict(zip([t.id for t in target.elts], range(*[ast.literal_eval(a) for a in value.args])))
    return {}


def _interpreted_constants(py: Path) -> dict[str, int]:
    """The integer constants the .py defines when it is not compiled (its `if not cython.compiled:` blocks), those
    it imports there from a module beside it included."""
    tree = ast.parse(py.read_text(encoding="utf-8"))
    out: dict[str, int] = {}
    for node in tree.body:
        if not (isinstance(node, ast.If) and ast.unparse(node.test) == "not cython.compiled"):
            continue
        for st in node.body:
            if isinstance(st, ast.Assign):
                out.update(_assigned(st))
            elif isinstance(st, ast.ImportFrom) and st.level == 1 and st.module:
                there = _top_constants(py.with_name(st.module + ".py"))
                out.update({a.asname or a.name: there[a.name] for a in st.names if a.name in there})
    return out


def _enum_constants(pxd: Path) -> dict[str, int]:
    """The constants of the .pxd's enum blocks, and those it cimports from another of the package's .pxd files."""
    text = pxd.read_text(encoding="utf-8")
    out: dict[str, int] = {}
    for block in re.findall(r"^c(?:p)?def enum:\n((?:[ \t]+.*\n|\n)+)", text, re.MULTILINE):
        out.update((k, int(v)) for k, v in re.findall(r"^\s+([A-Z_0-9]+) = (\d+)", block, re.MULTILINE))
    for module, grouped, names in re.findall(r"^from mjrules\.([\w.]+) cimport (?:\(([^)]*)\)|(.*))$", text, re.MULTILINE):
        names = grouped or names
        there = _enum_constants(PACKAGE.joinpath(*module.split(".")).with_suffix(".pxd"))
        for name in re.split(r"[,\s]+", names.strip()):
            if name in there:
                out[name] = there[name]
    return out


PAIRS = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.pxd") if p.with_suffix(".py").is_file()
               and _interpreted_constants(p.with_suffix(".py")))


def test_the_pairs_are_found():
    """The modules known to keep constants in both places are among those checked."""
    assert {"model/situation.pxd", "game/state.pxd", "game/rules.pxd", "game/seat.pxd"} <= set(PAIRS)


@pytest.mark.parametrize("pxd", PAIRS)
def test_each_interpreted_constant_is_the_pxd_value(pxd):
    path = PACKAGE / pxd
    interpreted = _interpreted_constants(path.with_suffix(".py"))
    enum = _enum_constants(path)
    for name, value in interpreted.items():
        assert enum.get(name) == value, f"{pxd}: {name} is {enum.get(name)} compiled, {value} interpreted"


def test_situation_kinds_are_the_tile_models():
    from mjrules.model.tiles import N_KINDS

    assert _enum_constants(PACKAGE / "model" / "situation.pxd")["NKINDS"] == N_KINDS
