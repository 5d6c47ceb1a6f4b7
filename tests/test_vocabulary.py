"""The language's vocabulary: every word the compiler knows has a meaning in compiler/glossary.py (and nothing
else does), and the committed reference pages (docs/reference/) are what the code generates now."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import mjrules
import mjrules.compiler
import mjrules.grammar
import pytest
from mjrules.cli import vocabulary
from mjrules.compiler import builtins as B
from mjrules.compiler import glossary as G
from mjrules.compiler.reader import PAY_SETS

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "reference"
REGENERATE = "python -m mjrules.cli.vocabulary docs/reference"


def _emitted_codes() -> dict[str, list[str]]:
    """Every error code a literal of the compiler or the runtime names ("E0xx"), with the files naming it."""
    found: dict[str, list[str]] = {}
    for folder in (Path(mjrules.compiler.__file__).parent, Path(mjrules.__file__).parent):
        for path in sorted(folder.rglob("*.py")):
            if path.name == "glossary.py":
                continue
            for code in re.findall(r"""["'](E\d{3})["']""", path.read_text(encoding="utf-8")):
                found.setdefault(code, []).append(path.name)
    return found


def test_every_error_code_the_compiler_emits_has_one_meaning():
    emitted = _emitted_codes()
    missing = sorted(set(emitted) - set(G.ERRORS))
    assert not missing, f"codes without a meaning in compiler/glossary.py ERRORS: {missing} (then run {REGENERATE})"
    stale = sorted(set(G.ERRORS) - set(emitted))
    assert not stale, f"compiler/glossary.py ERRORS lists codes nothing emits: {stale}"
    assert len(emitted) >= 35


def test_every_clause_keyword_has_a_usage_and_a_meaning():
    known = {(section, kw) for section, kws in vocabulary.sections() for kw in kws}
    missing = sorted(known - set(G.CLAUSES))
    assert not missing, f"clauses without a line in compiler/glossary.py CLAUSES: {missing} (then run {REGENERATE})"
    stale = sorted(set(G.CLAUSES) - known)
    assert not stale, f"compiler/glossary.py CLAUSES describes clauses the compiler does not have: {stale}"
    for (section, kw), (usage, meaning) in G.CLAUSES.items():
        assert usage.split()[0] == kw, f"{section}.{kw}: the usage starts with the keyword"
        assert meaning and not meaning.endswith("."), f"{section}.{kw}: one line, no final full stop"


@pytest.mark.parametrize(("table", "words"), [
    ("PAYERS", PAY_SETS),
    ("CONTEXTS", B.ALL_CONTEXTS),
])
def test_every_payer_and_context_has_a_meaning(table, words):
    assert list(getattr(G, table)) == list(words)


def test_operators_are_the_grammars():
    grammar = (Path(mjrules.grammar.__file__).parent / "mjspec.lark").read_text(encoding="utf-8")
    for syntax, _ in G.OPERATORS:
        for tok in re.findall(r"[a-z]{2,}|[^\w\s(),.]+", syntax):
            assert f'"{tok}"' in grammar, f"operator {tok!r} of {syntax!r} is not in the grammar"
    for tok in G.OPERATOR_WORDS.replace(",", " ").split():
        assert tok in {"...", "(...)"} or f'"{tok}"' in grammar, tok


def test_builtins_are_all_listed():
    v = vocabulary.vocabulary()
    assert [b["name"] for b in v["variables"]] == list(B.VARIABLES)
    assert [f["name"] for f in v["functions"]] == list(B.FUNCTIONS)
    assert [g["name"] for g in v["groups"]] == list(B.BUILTIN_GROUPS)
    assert v["win_by"] == list(B.WIN_BY)
    assert all(c["meaning"] != vocabulary.NO_MEANING for s in v["sections"] for c in s["clauses"])


@pytest.mark.parametrize("page", vocabulary.PAGES)
def test_committed_reference_is_what_the_code_generates(page):
    path = REFERENCE / page
    assert path.is_file(), f"{path} is missing: run {REGENERATE}"
    assert path.read_text(encoding="utf-8") == vocabulary.pages()[page], \
        f"{path} differs from the code's vocabulary: run {REGENERATE}"


def test_check_mode_finds_a_stale_page(tmp_path):
    assert vocabulary.main([str(tmp_path)]) == 0
    assert vocabulary.main([str(tmp_path), "--check"]) == 0
    (tmp_path / "errors.md").write_text("old\n", encoding="utf-8")
    assert vocabulary.main([str(tmp_path), "--check"]) == 1
    assert (tmp_path / "errors.md").read_text(encoding="utf-8") == "old\n"   # --check writes nothing


def test_show_vocabulary_on_the_command_line():
    run = lambda *a: subprocess.run([sys.executable, "-m", "mjrules.cli.main", "show", *a], check=False, capture_output=True,
                                    text=True, encoding="utf-8", timeout=60)
    p = run("--vocabulary")
    assert p.returncode == 0 and p.stdout == vocabulary.render_markdown()
    assert "`pattern NAME" in p.stdout and "| `waits_all` |" in p.stdout and "| E035 |" in p.stdout
    p = run("--vocabulary", "--json")
    assert p.returncode == 0 and json.loads(p.stdout) == vocabulary.vocabulary()
    p = run()
    assert p.returncode == 2 and "--vocabulary" in p.stderr and p.stdout == ""
