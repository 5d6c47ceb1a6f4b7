"""Installs by need (#62): `pip install .` is the compiler, the engine, games and the command line, on lark, jinja2,
Cython and NumPy alone; what needs an extra says which, in one line. Each test hides the optional packages (as if
they were not installed), so it holds whatever is installed here."""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from optional import EXTRA

ROOT = Path(__file__).resolve().parents[1]
# every optional package a module of mjrules might import, hidden from the child process
HIDDEN = sorted({*EXTRA, "attrs", "cattrs"})
PRELUDE = f"""
import sys
for name in {HIDDEN!r}:
    sys.modules[name] = None   # import name raises ModuleNotFoundError, as when it is not installed
"""


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PRELUDE + code], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, check=False)


def test_the_light_install_compiles_scores_plays_and_diffs():
    p = _run("""
import json
import mjrules
from mjrules.cli.main import main
from mjrules.compiler import compile_file
from mjrules.game import play_hand, make_agent

codes = [main(["check", "shangrao", "docs/examples/pinghu.mj"]),
         main(["score", "shangrao", "--hand", "123m456m789p234s9s*7z", "--win-tile", "7z", "--wild", "9s", "--brief"]),
         main(["simulate", "fuzhou_jiangxi", "--games", "3", "--quiet"]),
         main(["diff", "shangrao", "shangrao_wuyuan", "--limit", "1", "--quiet"]),
         main(["show", "shangrao"])]
eng = mjrules.load("shangrao")
g = play_hand(eng, [make_agent("random", eng.variant, s) for s in range(4)], seed=1)
compile_file("docs/examples/pinghu.mj")
print(json.dumps({"codes": codes, "over": g.over}))
""")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout.strip().splitlines()[-1]) == {"codes": [0, 0, 0, 0, 0], "over": True}


def test_commands_that_need_an_extra_say_which_in_one_line():
    p = _run("""
import json
from mjrules.cli.main import main
codes = [main(["lsp"]), main(["play", "shangrao", "--no-browser"]),
         main(["simulate", "shangrao", "--games", "2", "--ray", "--quiet"])]
print(json.dumps(codes))
""")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout.strip().splitlines()[-1]) == [2, 2, 2]
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 3 and "Traceback" not in p.stderr, p.stderr
    for line, extra in zip(lines, ("lsp", "play", "ray"), strict=True):
        assert f"pip install 'mjrules[{extra}]'" in line, line


def test_the_environments_without_the_rl_extra_name_it():
    p = _run("import mjrules.env")
    assert p.returncode == 1
    assert p.stderr.strip().splitlines()[-1] == ("mjrules.extras.MissingExtra: mjrules.env needs the package gymnasium, "
                                                 "which is not installed: pip install 'mjrules[rl]'")


def test_the_extras_name_what_they_add():
    """`test` is the test runner alone; `all` is every other extra, and nothing torch-based (CI installs it)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    base = {d.split(">")[0].split("[")[0].lower() for d in project["dependencies"]}
    assert base == {"lark", "jinja2", "cython", "numpy"}
    assert {d.split(">")[0] for d in extras["test"]} == {"pytest", "pytest-xdist", "hypothesis"}
    (everything,) = extras["all"]
    named = set(everything.removeprefix("mjrules[").removesuffix("]").split(","))
    heavy = {name for name, deps in extras.items() if any(d.lower().startswith(("torch", "stable-baselines3", "sb3"))
                                                          for d in deps)}
    assert named == set(extras) - {"all"} - heavy, "`all` names every extra but the torch-based ones"
    for module, extra in EXTRA.items():
        assert extra in extras, f"tests/optional.py names the extra {extra!r} (for {module}), pyproject.toml has none"
