"""Tests for mjrules.cli.show: expressions back to spec syntax, the Markdown rule book and the summary line."""
from __future__ import annotations

import dataclasses
import re
import subprocess
import sys

import pytest
from mjrules.compiler import compile_variant, locate
from mjrules.compiler.builtins import BUILTIN_GROUPS
from mjrules.compiler.ir import Expr
from mjrules.cli.show import _BUILTIN_GROUP_NAMES, format_expr, render_markdown, render_summary_line

VARIANTS = ("shangrao", "fuzhou_jiangxi", "fuzhou_fujian")


@pytest.fixture(scope="module", params=VARIANTS)
def variant(request):
    return compile_variant(request.param)


@pytest.fixture(scope="module")
def markdown(variant):
    return render_markdown(variant)


# ---- format_expr -----------------------------------------------------------------------------------------
def c(x):
    return Expr("const", (x,))


def var(name):
    return Expr("var", (name,))


def op(name, *args):
    return Expr(name, tuple(args))


a, b, x, n = var("a"), var("b"), var("x"), var("n")

EXPR_CASES = [
    (op("mul", op("add", a, b), c(2)), "(a + b) * 2"),  # add inside mul: parenthesised
    (op("add", a, op("mul", b, c(2))), "a + b * 2"),  # mul inside add: not
    (op("sub", a, op("sub", b, c(1))), "a - (b - 1)"),  # left-associative: the right operand keeps them
    (op("sub", op("sub", a, b), c(1)), "a - b - 1"),
    (op("div", a, op("mul", b, c(2))), "a / (b * 2)"),
    (op("not", op("and", a, b)), "not (a and b)"),
    (op("and", op("not", a), b), "not a and b"),
    (op("or", a, op("and", b, x)), "a or (b and x)"),  # clearer than minimal: as the specs write it
    (op("or", op("not", a), op("gt", b, c(0))), "not a or b > 0"),
    (op("or", a, op("or", b, x)), "a or (b or x)"),  # nested and/or keep their structure
    (op("and", a, op("or", b, x)), "a and (b or x)"),
    (op("if", a, c(1), op("if", b, c(2), c(3))), "if a then 1 else if b then 2 else 3"),
    (op("if", op("if", a, b, x), c(1), c(2)), "if (if a then b else x) then 1 else 2"),
    (op("mul", c(3), op("if", a, c(2), c(1))), "3 * (if a then 2 else 1)"),
    (op("in", var("win_by"), Expr("enum", ("discard",)), Expr("enum", ("rob_kong",))),
     "win_by in (discard, rob_kong)"),
    (op("not", op("in", x, c(1), c(2))), "not x in (1, 2)"),
    (op("pow", c(2), n), "2 ^ n"),
    (op("pow", c(2), op("pow", n, c(2))), "2 ^ n ^ 2"),  # right-associative
    (op("pow", op("pow", c(2), n), c(2)), "(2 ^ n) ^ 2"),
    (op("mul", var("T"), op("pow", c(2), n)), "T * 2 ^ n"),
    (op("neg", a), "-a"),
    (op("neg", op("add", a, b)), "-(a + b)"),
    (op("pow", op("neg", a), c(2)), "(-a) ^ 2"),
    (op("neg", op("pow", a, c(2))), "-a ^ 2"),
    (op("sub", a, op("neg", b)), "a - -b"),
    (op("gt", op("add", a, b), c(0)), "a + b > 0"),
    (op("eq", op("gt", a, b), c(True)), "(a > b) == true"),
    (op("and", c(False), Expr("const", ("x|y",))), 'false and "x|y"'),
    (op("and", Expr("opt", ("kong_points",)), Expr("ref", ("event", "地胡"))), "kong_points and 地胡"),
    (Expr("call", ("all_in", Expr("group", ("yaojiu", (0, 8))))), "all_in(yaojiu)"),
    (Expr("call", ("all_in", Expr("group", ("group", (0, 8, 27))))), "all_in(19m1z)"),
    (op("max", Expr("ref", ("table", "K")), op("if", a, c(30), c(0))), "max(K, if a then 30 else 0)"),
    (op("min", a, op("add", b, c(1))), "min(a, b + 1)"),
]


@pytest.mark.parametrize("expr, text", EXPR_CASES, ids=[t for _, t in EXPR_CASES])
def test_format_expr(expr, text):
    assert format_expr(expr) == text


def test_format_expr_rejects_an_unknown_op():
    with pytest.raises(ValueError, match="unknown expression op 'xor'"):
        format_expr(op("xor", a, b))


def _when_exprs(v):
    """Expressions the shipped specs write after `when` or `=` (never `unless`, which becomes `not`)."""
    yield from (p.cond for p in v.patterns if p.cond is not None)
    yield from (m.cond for m in v.modifiers)
    yield from (e.cond for e in v.events)
    yield from (s.cond for s in v.statuses if s.cond is not None)
    yield from (d.expr for d in v.defines)
    yield v.score.value
    st = v.settlement
    for p in st.win + st.draw + st.hand_end + st.kong_exposed + st.kong_added + st.kong_concealed:
        yield p.amount


def test_format_expr_reproduces_the_spec_text(variant):
    """Every condition and formula prints as the spec wrote it: the specs use minimal parentheses too."""
    source = " ".join(locate(variant.name).read_text(encoding="utf-8").split())
    for e in _when_exprs(variant):
        assert format_expr(e) in source


# ---- render_markdown -------------------------------------------------------------------------------------
def test_every_name_appears(variant, markdown):
    names = [p.name for p in variant.patterns] + [m.name for m in variant.modifiers]
    names += [o.name for o in variant.options] + [t.name for t in variant.tables] + [t.label for t in variant.tables]
    names += [e.name for e in variant.events] + [s.name for s in variant.statuses] + [d.name for d in variant.defines]
    assert names
    for name in names:
        assert name in markdown


def _rows(markdown: str) -> list[list[str]]:
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
            for line in markdown.splitlines() if line.startswith("| ")]


def test_every_rule_id_has_a_row(variant, markdown):
    rows = {r[0]: r for r in _rows(markdown) if r[0] in variant.rule_ids}
    assert set(rows) == set(variant.rule_ids)
    for rid in variant.rule_ids:
        assert rows[rid][1] != "NOT COVERED"
    for rid, reason in variant.no_effect:
        assert "no effect" in rows[rid][1] and reason in rows[rid][2]


def test_items_show_their_rule_ids(variant, markdown):
    rows = _rows(markdown)
    for item in variant.patterns + variant.modifiers + variant.options:
        assert any(r[0] == item.name and r[-1] == ", ".join(item.src.rules) for r in rows), item.name
    for d in variant.defines:
        assert f"- `{d.name}` = `{format_expr(d.expr)}` [{', '.join(d.src.rules)}]" in markdown
    for p in variant.settlement.win:
        assert f"`{p.payer}` pays `{p.payee}` `{format_expr(p.amount)}`" in markdown
        assert f"[{', '.join(p.src.rules)}]" in markdown


def test_shangrao_table_row():
    md = render_markdown(compile_variant("shangrao"))
    rows = _rows(md)
    assert ["Pattern + modifiers", "有宝", "宝调", "无宝"] in rows
    assert ["七对 幺九 清一色", "16", "48", "64"] in rows
    assert "### Table `T`: 牌型分 [SR-14, SR-15]" in md


def test_shangrao_sections():
    md = render_markdown(compile_variant("shangrao"))
    assert md.startswith("# 上饶麻将 (`shangrao`)\n")
    assert "`1m→2m→…→9m→1m`" in md and "`1z→2z→3z→4z→1z`" in md and "`5z→6z→7z→5z`" in md
    assert "- Priority: `win > kong = pon > chi`" in md
    assert "- Win on a discard: when `first_turn and first_discard`" in md
    assert "- Rob kong: never" in md
    assert "- Total: 136 tiles" in md
    assert "- Group `yaojiu` = `19m19p19s1234567z`" in md
    assert "`others` pays `winner` `value` when `win_by != discard` [SR-16]" in md
    assert "3. **有宝** (With Bao) otherwise [SR-13]" in md
    assert "- Minimum to declare a win: 4 when `not special` [SR-14, SR-17]" in md
    assert "## Flowers" not in md and "## Ready declaration" not in md


def test_fujian_sections():
    md = render_markdown(compile_variant("fuzhou_fujian"))
    assert "- Wild kind: the indicator's kind" in md
    assert "- Total: 144 tiles" in md and "1 of each of `f1f2f3f4f5f6f7f8`" in md
    assert "- Scored flowers (set aside when drawn and replaced): `1234567zf1f2f3f4f5f6f7f8`" in md
    assert "## Flowers" in md and "## Rob-wild window [FJ-11]" in md
    assert "- Each payer loses at most `loss_cap_per_hand` per hand when `loss_cap_per_hand > 0` [FJ-21]" in md
    assert "Dealer streak: `if dealer_won then dealer_streak + 1 else 0` [FJ-03, FJ-20]" in md


def test_jiangxi_sections():
    md = render_markdown(compile_variant("fuzhou_jiangxi"))
    assert "## Wild" not in md and "## Ready declaration [JX-16]" in md
    assert "- Wall break: `own_wall` when `wall_break_method == 1` [JX-06]" in md
    assert "- `non_dealers` pays `dealer` `1` [JX-24]" in md


def test_never_and_not_covered():
    v = compile_variant("shangrao")
    v = dataclasses.replace(v, claims=dataclasses.replace(v.claims, win_on_discard=None),
                            citations=tuple(cit for cit in v.citations if cit[0] not in ("SR-05", "SR-07")))
    md = render_markdown(v)
    assert "- Win on a discard: never" in md
    assert ["SR-05", "NOT COVERED", "NOT COVERED"] in _rows(md)
    assert render_summary_line(v).endswith("rule ids 18/20 covered; not covered: SR-05, SR-07")


def test_table_cells_escape_pipes():
    v = compile_variant("shangrao")
    opt = dataclasses.replace(v.options[0], description="either | or")
    md = render_markdown(dataclasses.replace(v, options=(opt, *v.options[1:])))
    assert "either \\| or" in md
    row = next(r for r in _rows(md) if r[0] == opt.name)
    assert len(row) == 5 and row[3] == "either \\| or"


def test_render_is_deterministic(variant):
    assert render_markdown(variant) == render_markdown(variant)
    assert render_markdown(compile_variant(variant.name)) == render_markdown(variant)


# ---- render_summary_line ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name, line", [
    ("shangrao", "shangrao (上饶麻将): 5 patterns, 3 modifiers, 7 options, rule ids 20/20 covered"),
    ("fuzhou_jiangxi", "fuzhou_jiangxi (撫州麻將): 4 patterns, 2 modifiers, 6 options, rule ids 25/25 covered"),
    ("fuzhou_fujian", "fuzhou_fujian (福州麻將): 4 patterns, 1 modifiers, 4 options, rule ids 23/23 covered"),
])
def test_summary_line(name, line):
    assert render_summary_line(compile_variant(name)) == line


# ---- the module itself -----------------------------------------------------------------------------------
def test_builtin_group_names_match_the_compiler():
    assert _BUILTIN_GROUP_NAMES == set(BUILTIN_GROUPS)


def test_show_does_not_load_the_compiler():
    code = "import sys, mjrules.cli.show; print(sorted(m for m in sys.modules if m.split('.')[0] in ('lark', 'jinja2')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
