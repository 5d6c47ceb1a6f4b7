"""`extends` overlays: an overlay states only what it changes, and is checked like any spec."""
from __future__ import annotations

import pytest

from mjrules.compiler import SpecError, compile_file, compile_variant


def overlay(tmp_path, body: str, base: str = "shangrao"):
    f = tmp_path / "house.mj"
    f.write_text(f'variant house "House rules" extends {base} {{\n{body}\n}}\n', encoding="utf-8")
    return compile_file(f)


def test_option_default_changes_and_rest_is_inherited(tmp_path):
    base = compile_variant("shangrao")
    v = overlay(tmp_path, '  option bao_huanyuan_counts_as_wubao "婺源 reading" = true   # SR-13')
    assert v.name == "house" and v.extends == "shangrao"
    assert v.option_defaults()["bao_huanyuan_counts_as_wubao"] is True
    assert v.patterns == base.patterns and v.tables == base.tables and v.rule_ids == base.rule_ids
    assert v.spec_sha256 != base.spec_sha256


def test_table_row_merges(tmp_path):
    v = overlay(tmp_path, '  table T "牌型分" by pattern, status {\n    平胡 : 4 4 4\n  }')
    rows = {(r.pattern, r.modifiers): r.cells for r in v.tables[0].rows}
    assert rows[("平胡", ())] == (4, 4, 4)
    assert rows[("七对", ())] == (8, 12, 16)
    assert len(rows) == 14


def test_remove_pattern_and_its_rows(tmp_path):
    body = ("  remove pattern 九幺\n  remove modifier 七星\n  table T \"牌型分\" by pattern, status {\n"
            "    remove 九幺\n    remove 九幺 七星\n    remove 十三烂 七星\n  }")
    v = overlay(tmp_path, body)
    assert [p.name for p in v.patterns] == ["平胡", "七对", "碰碰胡", "十三烂"]
    assert all(r.pattern != "九幺" for r in v.tables[0].rows)


def test_list_clauses_are_restated(tmp_path):
    v = overlay(tmp_path, '  score {\n    forbid "no robbing" when win_by == rob_kong   # SR-11\n  }')
    assert [f.reason for f in v.score.forbids] == ["no robbing"]
    assert v.score.minimum == compile_variant("shangrao").score.minimum


def test_overlay_errors_name_the_overlay_file(tmp_path):
    with pytest.raises(SpecError) as e:
        overlay(tmp_path, "  pattern 平胡 \"x\" shape standrd")
    assert "house.mj:2" in e.value.render() and "did you mean 'standard'?" in e.value.render()


def test_remove_nothing_is_an_error(tmp_path):
    with pytest.raises(SpecError) as e:
        overlay(tmp_path, "  remove pattern 不存在")
    assert e.value.codes == ["E035"]


def test_overlay_of_an_overlay(tmp_path):
    overlay(tmp_path, '  option gangkai_double "x" = true')
    (tmp_path / "house2.mj").write_text('variant house2 extends house {\n  option kong_points "y" = true\n}\n',
                                        encoding="utf-8")
    v = compile_file(tmp_path / "house2.mj")
    d = v.option_defaults()
    assert d["gangkai_double"] is True and d["kong_points"] is True


@pytest.mark.parametrize(("body", "line", "base_names"), [
    ('  option max_fan "cap" = "three"', 2, "max_fan"),       # a type the base's expressions cannot take
    ("  remove pattern 平胡", 2, "平胡"),                       # a pattern the base's modifiers name
])
def test_an_error_the_overlay_causes_in_the_base_is_at_the_overlay_line(tmp_path, body, line, base_names):
    """Every error is at the overlay's own line; the base clause it breaks is a note (#62)."""
    with pytest.raises(SpecError) as e:
        overlay(tmp_path, body, base="sichuan_xuezhan")
    for d in e.value.diagnostics:
        assert d.span.file.endswith("house.mj") and d.span.line == line, d.render()
        assert d.note and "sichuan_xuezhan.mj:" in d.note and base_names in d.note, d.render()
    assert "note: the base variant's clause it breaks" in e.value.render()
