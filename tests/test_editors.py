"""The editor files: the TextMate grammar is the one the vocabulary generates, valid JSON whose scopes cover every
word of the language; the VS Code extension's manifest wires the grammar and the server."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from mjrules.compiler import builtins as B
from mjrules.compiler.reader import PAY_SETS
from mjrules.lsp.textmate import clause_keywords, render
from mjrules.cli.vocabulary import vocabulary

ROOT = Path(__file__).resolve().parents[1]
VSCODE = ROOT / "editors" / "vscode"
GRAMMAR = VSCODE / "syntaxes" / "mjrules.tmLanguage.json"


def test_the_committed_grammar_is_the_generated_one():
    assert GRAMMAR.read_text(encoding="utf-8") == render(), \
        "regenerate: python -m mjrules.lsp.textmate editors/vscode/syntaxes/mjrules.tmLanguage.json"


def _patterns() -> list[tuple[str, re.Pattern, dict]]:
    """Every match rule of the grammar as (scope, Python regex, captures); Oniguruma's \\p{L}\\p{N} is \\w here."""
    g = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    out = []

    def walk(rule: dict) -> None:
        if "match" in rule:
            rx = re.compile(rule["match"].replace(r"\p{L}\p{N}_", r"\w"))
            out.append((rule.get("name", ""), rx, rule.get("captures", {})))
        for sub in rule.get("patterns", []):
            walk(sub)
    for rule in g["repository"].values():
        walk(rule)
    return out


def _scopes_of(line: str, word: str) -> set[str]:
    """The scopes the grammar's rules give `word` where it stands in `line`."""
    start = line.rindex(word)   # the word stands last in each test line (`m` is also in `modifier`)
    got = set()
    for name, rx, captures in _patterns():
        for m in rx.finditer(line):
            if not captures and m.span() == (start, start + len(word)):
                got.add(name)
            for i, cap in captures.items():
                if m.span(int(i)) == (start, start + len(word)):
                    got.add(cap["name"])
    return got


def test_the_grammar_is_json_with_its_scope():
    g = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    assert g["scopeName"] == "source.mjrules" and g["fileTypes"] == ["mj"]
    includes = {p["include"][1:] for p in g["patterns"]}
    assert includes <= set(g["repository"])


VOCAB = vocabulary()
CLAUSES = sorted({c["keyword"] for s in VOCAB["sections"] for c in s["clauses"]})


@pytest.mark.parametrize("kw", CLAUSES)
def test_every_clause_keyword_is_a_keyword_at_a_clause_start(kw):
    assert kw in clause_keywords()
    for line in (f"  {kw} x", f"  {kw}", f"wall {{ {kw} head; x }}", f"a; {kw} 1"):
        assert "keyword.control.clause.mjrules" in _scopes_of(line, kw), line


@pytest.mark.parametrize(("words", "line", "scope"), [
    ([v["name"] for v in VOCAB["variables"]], "  value = 1 + {}", "support.variable.builtin.mjrules"),
    ([f["name"] for f in VOCAB["functions"]], "  value = {}(1)", "support.function.builtin.mjrules"),
    (list(PAY_SETS), "    pay {} = value", "variable.language.payer.mjrules"),
    (list(B.BUILTIN_GROUPS), "  modifier x when all_in({})", "support.constant.tile-group.mjrules"),
    (list(VOCAB["win_by"]), "  event x when win_by == {}", "constant.language.win-by.mjrules"),
    (["if", "then", "else", "and", "or", "not", "in", "when", "unless"], "  value = x {} y", "keyword.operator.word.mjrules"),
])
def test_every_builtin_word_has_its_scope(words, line, scope):
    missing = [w for w in words if scope not in _scopes_of(line.format(w), w)]
    assert not missing, f"no {scope} for {missing}"


def test_names_tiles_comments_and_rule_ids():
    assert "entity.name.function.mjrules" in _scopes_of("  pattern 平胡 \"Basic\" shape standard", "平胡")
    assert "entity.name.type.variant.mjrules" in _scopes_of("variant shangrao \"上饶\" {", "shangrao")
    assert "constant.other.tiles.mjrules" in _scopes_of("  fixed 7z when x", "7z")
    assert "constant.other.rule-id.mjrules" in _scopes_of("  pon   # SR-10 pon from anyone", "SR-10")


def test_the_vscode_extension_wires_the_grammar_and_the_server():
    pkg = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (lang,) = pkg["contributes"]["languages"]
    (gram,) = pkg["contributes"]["grammars"]
    assert lang["extensions"] == [".mj"] and gram["language"] == lang["id"] == "mjrules"
    assert (VSCODE / gram["path"]).resolve() == GRAMMAR and gram["scopeName"] == "source.mjrules"
    assert (VSCODE / lang["configuration"]).is_file() and json.loads((VSCODE / lang["configuration"]).read_text())
    assert (VSCODE / pkg["main"]).is_file()
    assert pkg["contributes"]["configuration"]["properties"]["mjrules.server.command"]["default"] == ["mjrules", "lsp"]
