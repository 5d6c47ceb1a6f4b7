"""Hostile and malformed specs: each is checked in a forked child under a time limit and must end in a Variant or
in a SpecError with the expected codes, rendered without a traceback (never another exception, a crash or a hang).

The cases hold the limits of docs/limits.md: E002 input size, E036 nesting, E037 terms, E038 a constant zero
divisor, E039 a number outside +-10^300; and what once went wrong: a spec that checked but could not be built
(200 `and` terms, 250 `or` terms, 400 `in` values), constants that hung (9 ^ 9 ^ 9 ^ 9), `1 / 0` that scored 0,
`extends "/etc/passwd"` quoting that file, a duplicate name in an overlay, and 4,000 unknown names taking a minute.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from harness import ORACLE, bounded, expressions, spec_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mjrules.compiler import SpecError, compile_text
from strategies import SLOW, examples


def _compile(text: str, folder: str, file: str = "case.mj") -> dict:
    start = time.process_time()
    try:
        v = compile_text(text, file, base_dir=Path(folder))
        out = {"ok": True, "codes": [], "rendered": "", "name": v.name}
    except SpecError as e:
        out = {"ok": False, "codes": e.codes, "rendered": e.render(), "name": None}
    out["seconds"] = time.process_time() - start
    return out


def check(text: str, folder: Path, file: str = "case.mj") -> dict:
    kind, got = bounded(_compile, text, str(folder), file)
    assert kind == "ok", f"{got[0]} escaped the compiler: {got[1]}"   # not a SpecError: a bug
    assert "Traceback" not in got["rendered"]
    return got


def chain(op: str, term: str, n: int) -> str:
    return f" {op} ".join([term] * n)


MOD = '  modifier big "Big" when {}\n'
OK = ()
CASES: list[tuple[str, str, tuple[str, ...]]] = [
    # what failed to build or hung before: the checker now accepts what the back ends build, and bounds the rest
    ("and_200_terms", spec_text(extra=MOD.format(chain("and", "fours == 0", 200))), OK),
    ("or_250_terms", spec_text(extra=MOD.format(chain("or", "fours == 1", 250))), OK),
    ("in_400_values", spec_text(extra=MOD.format("fours in (" + ", ".join(map(str, range(400))) + ")")), OK),
    ("and_1000_terms", spec_text(extra=MOD.format(chain("and", "no_melds", 1000))), OK),
    ("and_5000_terms", spec_text(extra=MOD.format(chain("and", "fours == 0", 5000))), ("E037",)),
    ("or_1001_terms", spec_text(extra=MOD.format(chain("or", "no_melds", 1001))), ("E037",)),
    ("in_1001_values", spec_text(extra=MOD.format("fours in (" + ", ".join(["1"] * 1001) + ")")), ("E037",)),
    ("max_1001_arguments", spec_text("max(" + ", ".join(["1"] * 1001) + ")"), ("E037",)),
    ("sum_120_terms", spec_text(chain("+", "fours", 120)), OK),
    ("sum_121_terms", spec_text(chain("+", "fours", 121)), ("E036",)),
    ("sum_5000_terms", spec_text(chain("+", "fours", 5000)), ("E036",)),
    ("product_200_terms", spec_text(chain("*", "fours", 200)), ("E036",)),
    ("parentheses_38_deep", spec_text("(" * 38 + "fours" + ")" * 38), OK),
    ("parentheses_41_deep", spec_text("(" * 41 + "fours" + ")" * 41), ("E036",)),
    ("parentheses_20000_deep", spec_text("(" * 20000 + "fours" + ")" * 20000), ("E036",)),
    ("not_chain_5000", spec_text(extra=MOD.format("not " * 5000 + "no_melds")), ("E036",)),
    ("minus_chain_5000", spec_text("- " * 5000 + "1"), ("E036",)),
    ("power_chain_5000", spec_text(chain("^", "2", 5000)), ("E036",)),
    ("if_chain_1000", spec_text("if no_melds then 1 else " * 1000 + "2"), ("E036",)),
    ("blocks_41_deep", ORACLE.read_text(encoding="utf-8").replace("  score {", "  x {\n" * 41 + "}\n" * 41
                                                                   + "  score {"), ("E036",)),
    ("define_chain_500", spec_text("d0", options="").replace(
        "  score {\n", "  score {\n" + "".join(f"    define d{i} = d{i + 1} + 1\n" for i in range(500))
        + "    define d500 = 1\n"), ("E036",)),
    ("define_cycle", spec_text("a").replace("  score {\n", "  score {\n    define a = b + 1\n    define b = a\n"),
     ("E027",)),
    # constants: evaluated when the spec is checked
    ("power_tower", spec_text("9 ^ 9 ^ 9 ^ 9"), ("E039",)),
    ("power_huge_exponent", spec_text("2 ^ 99999999"), ("E039",)),
    ("power_negative_fraction", spec_text("(0 - 8) ^ 0.5"), ("E039",)),
    ("zero_to_negative_power", spec_text("0 ^ (0 - 1)"), ("E039",)),
    ("product_out_of_range", spec_text("10 ^ 200 * 10 ^ 200"), ("E039",)),
    ("power_at_the_limit", spec_text("10 ^ 300"), OK),
    ("division_by_zero", spec_text("1 / 0"), ("E038",)),
    ("division_by_constant_zero", spec_text("fours / (3 - 3)"), ("E038",)),
    ("division_by_zero_point_zero", spec_text("fours / 0.0"), ("E038",)),
    ("division_by_a_variable", spec_text("1 / fours"), OK),
    ("number_301_digits", spec_text("9" * 301), ("E039",)),
    ("number_100000_digits", spec_text("9" * 100_000), ("E039",)),
    ("decimal_100000_digits", spec_text("0." + "1" * 100_000), OK),
    ("option_default_out_of_range", spec_text("big", options='  option big "B" = 2' + "0" * 300 + "\n"), ("E039",)),
    # names and errors
    ("unknown_names_2000", spec_text("1").replace("  score {\n", "  score {\n" + "".join(
        f"    define d{i} = max(u{i}a, u{i}b) + 1\n" for i in range(1000))), ("E015",) * 2000),
    ("patterns_998", spec_text(extra="".join(f'  pattern p{i} "P" shape free when fours == {i}\n'
                                             for i in range(998))), OK),
    ("patterns_1001", spec_text(extra="".join(f'  pattern p{i} "P" shape free when fours == {i}\n'
                                              for i in range(999))), ("E040",)),
    ("clauses_10000_with_citations", spec_text(extra="".join(f'  no_effect "n{i}"  # OR-1\n' for i in range(10_000))),
     OK),
    # input
    ("empty", "", ("E007",)),
    ("only_comments", "# nothing\n" * 10, ("E007",)),
    ("nul", spec_text().replace("players 4", "players\x004"), ("E001",)),
    ("lone_surrogate", spec_text() + "# \ud800\n", ("E001",)),
    ("too_large", spec_text() + "#" * 1_000_001 + "\n", ("E002",)),
    ("one_long_line", spec_text("1 +" + " fours +" * 30 + " 1" + " " * 500_000), OK),
    ("crlf_and_form_feed", spec_text().replace("\n", "\r\n").replace("  ", "\f "), OK),
    ("unterminated_string", spec_text().replace('"Oracle"', '"Oracle'), ("E005",)),
    ("stray_brace", spec_text() + "}\n", ("E004",)),
    ("control_characters", spec_text().replace("players 4", "players \x1b[31m4"), ("E001",)),
]


if SLOW:   # the lexer takes seconds over 200,000 tokens
    CASES.append(("too_many_tokens", spec_text(extra="  no_effect " + "x " * 200_001 + "\n"), ("E002",)))


@pytest.mark.parametrize("name,text,codes", CASES, ids=[c[0] for c in CASES])
def test_spec_case(name: str, text: str, codes: tuple[str, ...], tmp_path: Path) -> None:
    got = check(text, tmp_path)
    if not codes:
        assert got["ok"], got["rendered"][:3000]
    else:
        assert not got["ok"] and tuple(got["codes"]) == codes, got["rendered"][:3000]
    assert got["seconds"] < 10, f"{name}: {got['seconds']:.1f} s of CPU"
    for line in got["rendered"].splitlines():
        assert len(line) < 400, line[:200]      # a long source line is shown clipped around its caret
    if len(codes) > 50:
        assert got["rendered"].count("error[") == 50 and f"and {len(codes) - 50} more errors" in got["rendered"]


# ---- extends and overlays ------------------------------------------------------------------------------------
EXTENDS: list[tuple[str, str, tuple[str, ...], dict[str, str]]] = [
    ("etc_passwd", '"/etc/passwd"', ("E024",), {}),
    ("a_text_file", '"notes.txt"', ("E024",), {"notes.txt": "root:SECRET\n"}),
    ("a_folder", '"sub"', ("E024",), {"sub/.keep": ""}),
    ("dev_zero", '"/dev/zero"', ("E024",), {}),
    ("itself", "case", ("E025",), {}),
    ("a_binary_spec", '"bin.mj"', ("E024",), {"bin.mj": "\x00\x01\x02"}),
    ("a_spec_with_errors", '"bad.mj"', ("E019",) * 8, {"bad.mj": "variant bad {\n  rules B 1..1\n}\n"}),
]


@pytest.mark.parametrize("name,base,codes,files", EXTENDS, ids=[c[0] for c in EXTENDS])
def test_extends_case(name: str, base: str, codes: tuple[str, ...], files: dict[str, str], tmp_path: Path) -> None:
    for rel, body in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(body, encoding="utf-8")
    text = f"variant case extends {base} {{\n}}\n"
    (tmp_path / "case.mj").write_text(text, encoding="utf-8")
    got = check(text, tmp_path, str(tmp_path / "case.mj"))
    assert not got["ok"] and tuple(got["codes"])[:len(codes)] == codes, got["rendered"]
    assert "root:" not in got["rendered"] and "SECRET" not in got["rendered"]


def test_extends_chain_too_deep(tmp_path: Path) -> None:
    (tmp_path / "v0.mj").write_text(ORACLE.read_text(encoding="utf-8"), encoding="utf-8")
    for i in range(1, 20):
        (tmp_path / f"v{i}.mj").write_text(f'variant v{i} extends "v{i - 1}.mj" {{\n}}\n', encoding="utf-8")
    got = check((tmp_path / "v19.mj").read_text(encoding="utf-8"), tmp_path, str(tmp_path / "v19.mj"))
    assert got["codes"] == ["E025"], got["rendered"]


OVERLAY_DUPLICATES = {
    "pattern": "  pattern x shape pairs\n  pattern x shape standard\n",
    "modifier": '  modifier m "M" when no_melds\n  modifier m "N" when no_melds\n',
    "option": '  option o "O" = 1\n  option o "O" = 2\n',
    "define": "  score {\n    define d = 1\n    define d = 2\n  }\n",
    "status": "  status s when no_melds\n  status s otherwise\n",
    "single clause": "  players 4\n  players 3\n",
}


def test_a_long_overlay_over_a_long_base(tmp_path: Path) -> None:
    """Merging once compared every overlay clause with every base clause."""
    groups = "".join(f"    group g{i} = 1m\n" for i in range(3000))
    (tmp_path / "base.mj").write_text(ORACLE.read_text(encoding="utf-8").replace(
        "    copies 4\n", "    copies 4\n" + groups), encoding="utf-8")
    got = check("variant o extends base {\n  tiles {\n" + groups.replace("1m", "2m") + "  }\n}\n", tmp_path)
    assert got["ok"] and got["seconds"] < 10, got


@pytest.mark.parametrize("what", list(OVERLAY_DUPLICATES))
def test_overlay_duplicate_is_an_error(what: str, tmp_path: Path) -> None:
    (tmp_path / "base.mj").write_text(ORACLE.read_text(encoding="utf-8"), encoding="utf-8")
    got = check(f"variant o extends base {{\n{OVERLAY_DUPLICATES[what]}}}\n", tmp_path)
    assert "E018" in got["codes"], got["rendered"]


# ---- generated -----------------------------------------------------------------------------------------------
@settings(max_examples=examples(15, 400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=expressions(), cond=expressions())
def test_generated_expressions_check_or_refuse(value: str, cond: str, tmp_path_factory) -> None:
    """Any expression as the value and as a modifier's condition: a Variant, or a SpecError, within the limit."""
    got = check(spec_text(value, extra=MOD.format(cond)), tmp_path_factory.getbasetemp())
    assert got["seconds"] < 10
    assert got["ok"] or got["codes"], got


@settings(max_examples=examples(15, 400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expr=st.recursive(st.sampled_from(["0", "1", "2", "7", "10", "0.5", "999", "123456789"]),
                         lambda inner: st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "^"]), inner).map(
                             lambda t: f"({t[0]} {t[1]} {t[2]})"), max_leaves=12))
def test_constant_values_are_checked_then_scored_alike(expr: str, tmp_path_factory) -> None:
    """A constant value is refused when checked (E038, E039), or scored by the reference to what Python's checked
    arithmetic (mjrules.model.arith) makes of it: never a hang, never an error at scoring time."""
    kind, got = bounded(_constant_case, expr)
    assert kind == "ok", got
    verdict, detail = got
    assert verdict in ("refused", "scored"), got
    if verdict == "refused":
        assert set(detail) <= {"E038", "E039"}, got


def _constant_case(expr: str) -> tuple[str, object]:
    import ast
    import operator

    import mjrules
    from mjrules.model import arith

    try:
        v = compile_text(spec_text(expr), "case.mj")
    except SpecError as e:
        return "refused", e.codes
    ops = {ast.Add: arith.add, ast.Sub: arith.sub, ast.Mult: arith.mul, ast.Div: arith.div, ast.BitXor: arith.power}

    def ev(node: ast.AST) -> object:
        if isinstance(node, ast.Constant):
            return node.value
        assert isinstance(node, ast.BinOp)
        return ops[type(node.op)](ev(node.left), ev(node.right))

    expected = ev(ast.parse(expr, mode="eval").body)
    r = mjrules.load(v, backend="reference").evaluate({"concealed": "123m456m789p234s77z", "win_tile": "7z"})
    assert operator.eq(r["value"], expected) or r["value"] == expected, (r["value"], expected)
    return "scored", r["value"]
