"""Every compiled module builds and imports against CPython's Limited API (`MJRULES_LIMITED_API=1`), and a variant
compiled the same way scores and plays: the claim docs/native.md makes is held by building it.

A module that calls a function outside the Limited API still builds (the C compiler only warns of an implicit
declaration); it fails when it is imported, so this test imports every module setup.py compiles."""
from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("setup.py", "pyproject.toml", "README.md", "runtime", "compiler", "grammar", "specs", "bench")

pytestmark = pytest.mark.skipif(not (ROOT / "setup.py").is_file() or shutil.which(
    (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]) is None,
    reason="needs the source tree (setup.py) and a C compiler")


def _compiled() -> dict[str, str]:
    setup = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    return next(ast.literal_eval(n.value) for n in setup.body if isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in n.targets))


CHECK = r"""
import importlib, json, sys
import mjrules
compiled = json.loads(sys.argv[1])
for name in compiled:
    mod = importlib.import_module(name)
    assert mod.__file__.endswith(".abi3.so"), mod.__file__
sr = mjrules.load("shangrao", backend="native")
r = sr.evaluate({"concealed": "123m456m789p234s9s*7z", "win_tile": "7z", "wild": "9s"})
assert (r["win"], r["status"], r["value"]) == (True, "宝调", 4), r
ref = mjrules.load("shangrao", backend="reference")
from mjrules.game import play_hand
for seed in range(3):
    assert play_hand(sr, seed=seed).outcome == play_hand(ref, seed=seed).outcome
print("ok", len(compiled))
"""


def test_every_compiled_module_builds_and_imports_under_the_limited_api(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:
        p = ROOT / name
        if p.is_dir():
            shutil.copytree(p, src / name, ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__", "_native"))
        else:
            shutil.copyfile(p, src / name)
    env = dict(os.environ, MJRULES_LIMITED_API="1", MJRULES_CACHE=str(tmp_path / "cache"))
    build = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace", "-j", "2"], cwd=src, env=env,
                           capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stderr[-3000:]
    # the package as setup.py maps it: runtime/ is mjrules, compiler/ grammar/ specs/ its subpackages
    view = tmp_path / "view"
    view.mkdir()
    (view / "mjrules").symlink_to(src / "runtime", target_is_directory=True)
    for sub in ("compiler", "grammar", "specs", "bench"):
        (src / "runtime" / sub).symlink_to(src / sub, target_is_directory=True)
    import json

    compiled = _compiled()
    run = subprocess.run([sys.executable, "-P", "-c", CHECK, json.dumps(list(compiled))], cwd=tmp_path,
                         env=dict(env, PYTHONPATH=str(view)), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == ["ok", str(len(compiled))]
