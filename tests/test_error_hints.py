"""Errors a new rule author meets, each saying what happened and what to write instead: a comment line that cites
the clause below it, a line break inside an expression, a character used as an operator, a log's spec not found."""
from __future__ import annotations

import json

import pytest
from mjrules.cli.main import main
from mjrules.compiler import SpecError, compile_text

HEAD = 'variant x "X" {\n  rules XX 1..3\n'


def _first(text: str, code: str):
    """The first diagnostic of `code` (E006/E010: either; which one depends on the parser's state)."""
    codes = ("E006", "E010") if code in ("E006", "E010") else (code,)
    with pytest.raises(SpecError) as e:
        compile_text(text, "x.mj")
    found = [d for d in e.value.diagnostics if d.code in codes]
    assert found, f"no {code} in {[d.code for d in e.value.diagnostics]}"
    return found[0]


PARENS = "wrap the expression in parentheses"


@pytest.mark.parametrize(("name", "body", "code", "says", "line"), [
    # a line break after an operator, or before one, or where `then`/`else` was due
    ("break after +", "  score { value = 1 +\n    2 }\n", "E006", PARENS, 3),
    ("break after *", "  score { value = 2 *\n    3 }\n", "E006", PARENS, 3),
    ("break after + and a comment", "  score { value = 1 +   # XX-01 \"+\"\n    2 }\n", "E006", PARENS, 3),
    ("break after ==", "  score { minimum 1 when wilds ==\n 2 }\n", "E010", PARENS, 3),
    ("break after in", "  score { minimum 1 when win_by in\n (discard) }\n", "E010", PARENS, 3),
    ("break before then", "  score { value = if no_melds\n then 1 else 2 }\n", "E010", PARENS, 3),
    ("break before else", "  score { value = if no_melds then 1\n else 2 }\n", "E010", PARENS, 3),
    ("line starts with +", "  score { value = 1\n    + 2 }\n", "E010", PARENS, 4),
    ("line starts with *", "  score { value = 1\n    * 2 }\n", "E010", PARENS, 4),
    ("line starts with ==", "  score { minimum 1 when wilds\n == 2 }\n", "E010", PARENS, 4),
    ("line starts with and", "  score { minimum 1 when no_melds\n    and one_suit }\n", "E012", PARENS, 4),
    ("line starts with or", "  score { minimum 1 when no_melds\n    or one_suit }\n", "E012", PARENS, 4),
    # characters that are not operators name the ones there are
    ("percent", "  score { value = 7 % 2 }\n", "E001", "the operators are + - * / ^", 3),
    ("ampersand", "  score { minimum 1 when no_melds && one_suit }\n", "E001", "write 'and' instead", 3),
    ("bar", "  score { minimum 1 when no_melds | one_suit }\n", "E001", "write 'or' instead", 3),
    ("bang", "  score { minimum 1 when !no_melds }\n", "E001", "write 'not' instead", 3),
    ("greater or equal sign", "  score { minimum 1 when wilds ≥ 2 }\n", "E001", "write '>=' instead", 3),
])
def test_the_hint_says_what_to_write(name, body, code, says, line):
    d = _first(HEAD + body + "}\n", code)
    assert says in (d.hint or ""), f"{name}: {d.render()}"
    assert d.span.line == line, f"{name}: {d.render()}"


@pytest.mark.parametrize(("name", "body"), [
    ("a stray character", "  players 4 @\n"),
    ("a line that is a number", "  players 4\n  4 players\n"),
    ("a missing expression", "  score { minimum 1 when\n  }\n"),
])
def test_other_syntax_errors_do_not_mention_parentheses(name, body):
    with pytest.raises(SpecError) as e:
        compile_text(HEAD + body + "}\n", "x.mj")
    assert all(PARENS not in (d.hint or "") for d in e.value.diagnostics), name


def test_a_comment_line_citing_the_next_clause_is_named():
    text = HEAD + ("  # XX-01 the basic win: four sets and a pair\n"
                   '  pattern a "A" shape standard   # XX-01\n')
    d = _first(text + "}\n", "E020")
    assert "the comment on line 3 begins with rule ids" in d.message and "clause below it" in d.message
    assert (d.span.line, d.span.column) == (3, 3), "the caret is on the comment that cites unexpectedly"
    assert "# see XX-01" in d.hint


def test_a_clause_citing_twice_on_its_own_line_keeps_the_plain_message():
    d = _first(HEAD + '  pattern a "A" shape standard   # XX-01 XX-01\n}\n', "E020")
    assert d.message == "clause cites XX-01 twice" and d.hint == "cite each rule id once per clause"


def _scenario(tmp_path, variant: str) -> str:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"variant": variant, "hands": ["1m"] * 4}), encoding="utf-8")
    return str(path)


def _log(tmp_path, spec: str) -> str:
    path = tmp_path / "hand.jsonl"
    head = {"log": "mjrules-hand", "version": 1, "variant": "mine", "spec": spec, "spec_sha256": "0", "seed": 1,
            "dealer": 0, "dealer_streak": 0}
    path.write_text(json.dumps(head) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("make", [lambda p: _scenario(p, "mine"), lambda p: _log(p, "/nowhere/mine.mj")])
def test_replay_of_a_spec_not_found_names_the_variant_flag(tmp_path, capsys, make):
    file = make(tmp_path)
    assert main(["replay", file]) == 1
    err = capsys.readouterr().err
    assert "E024" in err and f"mjrules replay {file} --variant PATH.mj" in err
    assert main(["replay", file, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["errors"][0]["code"] == "E024" and "--variant" in out["errors"][0]["hint"]
