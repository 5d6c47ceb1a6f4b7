"""The documentation cannot rot: every Python block of README.md and docs/ runs, every `mjrules` command shown
with its output gives that output, every spec shown compiles, the site builds with `mkdocs build --strict`, and
the README stays short, with CI's own set-up commands and a performance table made from a bench run."""
from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from mjrules.compiler import SpecError, compile_file, compile_text
from mjrules.extras import MissingExtra
from optional import EXTRA, need

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
EXAMPLES = DOCS / "examples"
RUN = {"check", "score", "waits", "show", "replay", "simulate", "diff"}  # the commands cheap enough to run here
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", re.DOTALL | re.MULTILINE)


def _blocks(page: Path, lang: str) -> list[str]:
    return [body for kind, body in FENCE.findall(page.read_text(encoding="utf-8")) if kind == lang]


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


# ---- Python ---------------------------------------------------------------------------------------------------
PY_PAGES = [p for p in PAGES if _blocks(p, "python")]


def test_the_pages_have_python_to_run():
    assert {"README.md", "docs/python.md", "docs/games.md", "docs/tutorial.md"} <= {_name(p) for p in PY_PAGES}


PY_BLOCKS = [(p, i, code) for p in PY_PAGES for i, code in enumerate(_blocks(p, "python"))]


@pytest.mark.parametrize(("page", "i", "code"), PY_BLOCKS, ids=[f"{_name(p)} block {i + 1}" for p, i, _ in PY_BLOCKS])
def test_python_blocks_run(page, i, code, monkeypatch):
    """Each of a page's Python blocks runs on its own, in a fresh namespace, from the repository's root: a reader
    may copy any one of them (#62). A block that needs an extra which is not installed (an import of one of its
    modules fails, or mjrules says which extra it needs) is skipped, naming the extra."""
    monkeypatch.chdir(ROOT)
    ns: dict = {"__name__": "__docs__"}
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, f"{_name(page)} python block {i + 1}", "exec"), ns)  # noqa: S102
    except MissingExtra as e:
        pytest.skip(str(e))
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] not in EXTRA:
            raise
        need(e.name)   # skips, naming the extra (it raised: it is not installed)
        raise


# ---- the command line -----------------------------------------------------------------------------------------
def _sessions(page: Path) -> list[tuple[str, list[str]]]:
    """Each `$ mjrules ...` command of the page's console blocks, with the output shown under it."""
    out = []
    for body in _blocks(page, "console"):
        for chunk in re.split(r"^(?=\$ )", body, flags=re.MULTILINE):
            if chunk.startswith("$ "):
                cmd, _, shown = chunk[2:].partition("\n")
                out.append((cmd, shown.rstrip("\n").split("\n") if shown.strip() else []))
    return out


def _matches(shown: list[str], got: list[str]) -> bool:
    """Does the output match what the page shows? A line `...` stands for any lines, `...` in a line for any text."""
    if not shown:
        return not got
    head, rest = shown[0].rstrip(), shown[1:]
    if head == "...":
        return any(_matches(rest, got[i:]) for i in range(len(got) + 1))
    if not got:
        return False
    pattern = ".*".join(re.escape(part) for part in head.split("..."))
    return re.fullmatch(pattern, got[0].rstrip()) is not None and _matches(rest, got[1:])


CLI = [(p, cmd, shown) for p in PAGES for cmd, shown in _sessions(p)
       if cmd.startswith("mjrules ") and shlex.split(cmd)[1] in RUN]


def test_the_pages_have_commands_to_run():
    pages = {_name(p) for p, _, _ in CLI}
    assert {"README.md", "docs/tutorial.md", "docs/cli.md"} <= pages
    assert len(CLI) >= 20


@pytest.mark.parametrize(("page", "cmd", "shown"), CLI, ids=[f"{_name(p)}: {c}" for p, c, _ in CLI])
def test_commands_give_the_output_shown(page, cmd, shown, monkeypatch):
    from mjrules.cli.main import main

    monkeypatch.chdir(ROOT)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        main(shlex.split(cmd)[1:])
    got = buf.getvalue().rstrip("\n").split("\n") if buf.getvalue().strip() else []
    assert _matches(shown, got), f"{_name(page)}: `{cmd}` printed:\n" + "\n".join(got)


def test_the_matcher():
    assert _matches(["a", "...", "d"], ["a", "b", "c", "d"]) and _matches(["a ... c"], ["a b c"])
    assert not _matches(["a", "d"], ["a", "b", "d"]) and not _matches(["a"], ["a", "b"])
    assert _matches(["..."], []) and not _matches([], ["x"])


# ---- specs ----------------------------------------------------------------------------------------------------
SPECS = [(p, i, body) for p in PAGES for i, body in enumerate(_blocks(p, "mj")) if body.lstrip().startswith("variant")]


@pytest.mark.parametrize(("page", "i", "body"), SPECS, ids=[f"{_name(p)} spec {i + 1}" for p, i, _ in SPECS])
def test_whole_specs_shown_compile(page, i, body):
    compile_text(body, f"{_name(page)} spec {i + 1}", EXAMPLES)


def test_the_tutorials_first_spec_is_its_step1_file():
    first = _blocks(DOCS / "tutorial.md", "mj")[0]
    assert first == (EXAMPLES / "tutorial_step1.mj").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.mj")), ids=lambda p: p.name)
def test_example_specs_compile(path):
    if path.read_text(encoding="utf-8").startswith("# broken on purpose"):
        with pytest.raises(SpecError):
            compile_file(path)
    else:
        compile_file(path)


# ---- the site -------------------------------------------------------------------------------------------------
def test_the_site_builds_strict(tmp_path):
    """`mkdocs build --strict`: no broken link or anchor, no page left out of the navigation."""
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python"):   # MkDocs, its theme, the API reference
        need(module)
    p = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "site" / "reference" / "clauses" / "index.html").is_file()
    api = (tmp_path / "site" / "api" / "mjrules" / "index.html").read_text(encoding="utf-8")
    assert "mjrules.load" in api and "evaluate" in api, "the API reference is made from the docstrings"


def test_one_images_folder():
    """Every image of the site is in docs/images/ (#62)."""
    images = {p for p in DOCS.rglob("*") if p.suffix.lower() in {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"}}
    assert images and {p.parent for p in images} == {DOCS / "images"}, sorted(map(str, images))


# ---- the README ----------------------------------------------------------------------------------------------
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_short():
    assert len(README.splitlines()) <= 250


def test_the_readme_sets_up_as_ci_does():
    """The README's contributor set-up and test commands are .ci/run's, word for word; the light install comes
    first (#62)."""
    ci = [ln for ln in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if ln.strip() and not ln.startswith(("#", "set ", "cd ", "export "))]
    assert ci, ".ci/run runs nothing"
    installs = [b for b in _blocks(ROOT / "README.md", "sh") if "pip install" in b]
    block = next(b for b in installs if "pytest" in b)
    assert block.strip().splitlines() == ci
    assert installs.index(block) > 0 and "[all]" not in installs[0], "the light install is the README's first"


def test_the_readme_table_is_made_from_the_bench_run_beside_it():
    from mjrules.bench.table import BEGIN, END, markdown

    result = json.loads((ROOT / "bench" / "last-run.json").read_text(encoding="utf-8"))
    assert result["schema"] == "mjrules-bench/1"
    table = README.split(BEGIN)[1].split(END)[0]
    assert table.strip() == markdown(result).strip(), "regenerate: python -m mjrules.bench.table " \
                                                      "bench/last-run.json --readme README.md"


def test_the_readme_has_no_measurement_diary():
    assert not re.search(r"20\d\d-\d\d-\d\d", README), "dated runs belong in git and issue notes"
    assert "The run before" not in README and "callgrind" not in README


# ---- what the pages must name ---------------------------------------------------------------------------------
def _named(page: str) -> set[str]:
    return set(re.findall(r"`([\w.]+)`", (DOCS / page).read_text(encoding="utf-8")))


def test_the_formats_page_names_every_key_and_event():
    from mjrules.game import events
    from mjrules.game.scenario import KEYS as SCENARIO_KEYS
    from mjrules.model.situation import KEYS as SITUATION_KEYS

    event_types = {t for pair in re.findall(r"^    (\w+)(?: / (\w+))? ", events.__doc__, re.MULTILINE)
                   for t in pair if t}
    assert len(event_types) >= 16
    named = _named("formats.md")
    for what, keys in (("situation", SITUATION_KEYS), ("scenario", SCENARIO_KEYS), ("event", event_types)):
        missing = sorted(set(keys) - named)
        assert not missing, f"docs/formats.md does not name the {what} key(s) {missing}"


def test_the_games_page_names_every_agent_and_observation():
    from mjrules.game import AGENTS, observe

    named = _named("games.md")
    assert set(AGENTS) <= named
    fields = set(re.findall(r"^    (\w+)\s+\w+\[", observe.__doc__, re.MULTILINE))
    assert len(fields) == 9 and fields <= named


def test_the_readme_tour_has_every_step():
    for step in ("Score a hand", "Play and simulate", "Write and check a spec", "Add an option",
                 "Overlay a variant", "Diff two variants", "Drive a game from Python"):
        assert f"**{step}.**" in README, step
