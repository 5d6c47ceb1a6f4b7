"""Spec mistakes: every one raises SpecError with a stable code and a golden rendered message.

Each case mutates MINI_SPEC, a small valid spec, in one place (or writes a few files for `extends`) and
checks the error codes and the exact text of `SpecError.render()` against tests/golden/errors/<case>.txt.

To (re)write the golden files after an intended change of a message:

    MJRULES_UPDATE_GOLDENS=1 python -m pytest tests/test_spec_errors.py

then read the diff of tests/golden/errors/ before committing it.

Cases whose expected codes list more than one diagnostic are cascades: the compiler reports follow-on
errors of the one mistake. They are kept as they are so that a change shows up in review.
The bugs these tests found (KNOWN_BUGS at the end) are fixed; each case now pins the fixed behaviour.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from mjrules.compiler import SpecError, compile_file, compile_text, compile_variant

GOLDEN_DIR = Path(__file__).parent / "golden" / "errors"
UPDATE = os.environ.get("MJRULES_UPDATE_GOLDENS") == "1"
SPEC_FILE = "mini.mj"

# A small spec that uses every section a variant needs, plus options, a group, a wall expression, a
# modifier, an event, statuses, a table, a define, a minimum and citations. Every case below changes it in
# one place.
MINI_SPEC = """\
variant mini "Mini" {
  rules MN 1..4
  option big "a big hand" = false  # MN-01
  tiles {
    use suited honours
    group yaojiu = terminals + honours
  }
  players 4
  hand 13 dealer 14
  deal 4 4 4 1 then dealer 1
  wall {
    draw head
    retain = kongs
  }
  claims {
    pon
    win_on_discard when big
  }
  pattern basic "Basic" shape standard  # MN-02
  pattern pairs7 shape pairs when no_melds
  modifier pure for basic when one_suit
  event heaven when win_by == dealt and is_dealer
  status clean when wilds == 0
  status dirty otherwise
  table T by pattern {
    basic : 1
    pairs7 : 4
  }
  score {
    define bonus = if heaven then 2 else 1
    value = T * bonus * (if pure then 2 else 1)
    minimum 1
  }
  settlement {
    win {
      pay others = value when win_by != discard
      pay discarder = value when win_by == discard
    }
  }
  rotation {
    rotate dealer when dealer_won
    rotate next otherwise  # MN-03
  }
  no_effect "nothing to implement"  # MN-04
}
"""

VALUE_LINE = "value = T * bonus * (if pure then 2 else 1)"


def mutate(old: str, new: str) -> str:
    """MINI_SPEC with its one occurrence of `old` replaced by `new`."""
    assert MINI_SPEC.count(old) == 1, f"{old!r} occurs {MINI_SPEC.count(old)} times in MINI_SPEC"
    return MINI_SPEC.replace(old, new)


def drop_last_brace(text: str) -> str:
    head, _, tail = text.rstrip("\n").rpartition("}")
    assert not tail.strip()
    return head


# ---- the case table ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    name: str
    codes: tuple[str, ...]
    text: str | None = None  # compiled with compile_text(text, "mini.mj", base_dir=<tmp dir>)
    files: dict[str, str] = field(default_factory=dict)  # written to the tmp dir first
    entry: str | None = None  # compile_file(entry) with the tmp dir as the working directory
    variant: str | None = None  # compile_variant(variant)
    file: str = SPEC_FILE  # the name `text` is compiled under

    def run(self, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        for name, body in self.files.items():
            (tmp / name).write_text(body, encoding="utf-8")
        monkeypatch.chdir(tmp)  # relative paths keep the rendered file names stable
        if self.variant is not None:
            compile_variant(self.variant)
        elif self.entry is not None:
            compile_file(self.entry)
        else:
            assert self.text is not None
            compile_text(self.text, self.file, base_dir=tmp)


def T(name: str, codes: str, text: str) -> Case:
    return Case(name, tuple(codes.split()), text=text)


CASES: list[Case] = [
    # ---- syntax --------------------------------------------------------------------------------------
    T("syntax_missing_close_brace", "E003", drop_last_brace(MINI_SPEC)),
    T("syntax_unmatched_close_brace_at_end", "E004", MINI_SPEC + "}\n"),
    # KNOWN BUG (see KNOWN_BUGS): a stray '}' inside the variant is reported as E010 on the next clause.
    T("syntax_unmatched_close_brace_inside", "E004", mutate("  players 4\n", "  players 4\n  }\n")),
    T("syntax_unterminated_string", "E005", mutate('"Basic"', '"Basic')),
    T("syntax_bad_character", "E001", mutate("  players 4\n", "  players 4 @\n")),
    T("syntax_bad_character_cjk_punctuation", "E001", mutate("when one_suit", "when one_suit。")),
    # The curated E006/E009/E011 fire only for the first clause at the top of a variant...
    T("syntax_missing_expr_after_eq_first_clause", "E006", "variant v {\n  a =\n}\n"),
    T("syntax_missing_expr_after_when_first_clause", "E006", "variant v {\n  a when\n}\n"),
    T("syntax_missing_operand_first_clause", "E006", "variant v {\n  a = 1 +\n}\n"),
    T("syntax_expr_followed_by_junk_first_clause", "E009", "variant v {\n  a = 1 2\n}\n"),
    T("syntax_unclosed_paren_first_clause", "E011", "variant v {\n  a = (1 + 2\n}\n"),
    # ...and anywhere else a generic E010 (KNOWN BUG, see KNOWN_BUGS).
    T("syntax_missing_expr_after_eq", "E006", mutate(VALUE_LINE, "value =")),
    T("syntax_missing_expr_after_when", "E010", mutate("shape pairs when no_melds", "shape pairs when")),
    T("syntax_expr_followed_by_junk", "E009", mutate("retain = kongs", "retain = kongs 3")),
    T("syntax_unclosed_paren", "E011", mutate("(if pure then 2 else 1)", "(if pure then 2 else 1")),
    T("syntax_not_starting_with_variant", "E007", "pattern x shape standard\n" + MINI_SPEC),
    T("syntax_variant_without_name", "E007", MINI_SPEC.replace('variant mini "Mini" {', "variant {", 1)),
    T("syntax_empty_file", "E007", ""),
    T("syntax_clause_starts_with_number_first_clause", "E008", "variant v {\n  1 x\n}\n"),
    T("syntax_clause_starts_with_number", "E010", mutate("  players 4\n", "  players 4\n  4 players\n")),
    T("syntax_operator_in_word_list", "E010", mutate("minimum 1", "minimum 1/0")),
    # ---- unknown words ---------------------------------------------------------------------------------
    T("unknown_clause_keyword", "E012", mutate("  no_effect", "  no_efect")),
    T("unknown_clause_keyword_in_section", "E012", mutate("    draw head", "    drow head")),
    # cascade: the misspelt pattern is not declared, so its table row is unknown as well
    T("unknown_clause_keyword_cascade", "E012 E028", mutate("  pattern pairs7", "  pattrn pairs7")),
    T("unknown_name", "E015", mutate("when one_suit", "when one_suite")),
    T("unknown_name_cjk", "E015", mutate("  event heaven", "  modifier 清一色 for basic when 平胡\n  event heaven")),
    T("unknown_pattern_in_modifier", "E015", mutate("for basic", "for basci")),
    T("unknown_tile_group", "E016", mutate("terminals + honours", "terminals + honors")),
    T("unknown_tile_group_in_use", "E016", mutate("use suited honours", "use suited honour")),
    T("bad_tiles", "E029", mutate("use suited honours", "use suited honours 8z")),
    T("unknown_function", "E030", mutate("and is_dealer", "and is_dealer and contain(yaojiu)")),
    T("unknown_function_no_suggestion", "E030", mutate("when one_suit", "when frobnicate(1)")),
    T("wrong_arity", "E030", mutate("when one_suit", "when all_in(yaojiu, honours)")),
    T("table_indexed", "E030", mutate("value = T * bonus", "value = T[1] * bonus")),
    T("wrong_word", "E013", mutate("    draw head", "    draw middle")),
    T("wrong_word_did_you_mean", "E013", mutate("shape standard", "shape standart")),
    T("unknown_payer", "E013", mutate("pay others = value", "pay other = value")),
    T("rules_without_range", "E013", mutate("rules MN 1..4", "rules MN 4")),
    T("extra_word", "E014", mutate("  players 4\n", "  players 4 5\n")),
    # ---- types ---------------------------------------------------------------------------------------
    T("type_number_as_condition", "E017", mutate("win_on_discard when big", "win_on_discard when 3")),
    T("type_compare_number_with_win_by", "E017", mutate("win_by == dealt and", "win_by == 2 and")),
    T("type_if_branches_differ", "E017", mutate("if heaven then 2 else 1", "if heaven then 2 else true")),
    T("type_in_mixed", "E017", mutate("win_by == dealt and", "win_by in (dealt, 1) and")),
    T("type_string_ordering", "E017", mutate("when one_suit", 'when "a" < "b"')),
    T("type_option_non_literal_default", "E017", mutate("= false  # MN-01", "= not true  # MN-01")),
    # ---- duplicates and missing clauses ------------------------------------------------------------------
    T("duplicate_name", "E018", mutate("  event heaven", "  modifier basic for basic when one_suit\n  event heaven")),
    # cascade: the pattern renamed into a duplicate leaves its table row unknown
    T("duplicate_name_cascade", "E018 E028", mutate("pattern pairs7 shape", "pattern basic shape")),
    # KNOWN BUG (see KNOWN_BUGS): the same duplicate is reported twice
    T("duplicate_singleton", "E018", mutate("  players 4\n", "  players 4\n  players 4\n")),
    T("duplicate_singleton_in_section", "E018", mutate("    draw head", "    draw head\n    draw tail")),
    T("missing_hand", "E019", mutate("  hand 13 dealer 14\n", "")),
    # KNOWN BUG (see KNOWN_BUGS): check_rules() and the required-clause loop both report it
    T("missing_rules", "E019", mutate("  rules MN 1..4\n", "")),
    T("missing_otherwise_status", "E033", mutate("status dirty otherwise", "status dirty when wilds > 0")),
    # two diagnostics, both true: 'otherwise' is not last, and the last status is not 'otherwise'
    T("status_otherwise_not_last", "E033 E033",
      mutate("  status clean when wilds == 0\n  status dirty otherwise\n",
             "  status dirty otherwise\n  status clean when wilds == 0\n")),
    T("rotation_without_otherwise", "E033", mutate("rotate next otherwise", "rotate next when someone_won")),
    T("modifier_without_when", "E034", mutate("for basic when one_suit", "for basic")),
    T("payment_without_amount", "E034", mutate("pay others = value when", "pay others when")),
    # ---- hands and the deal --------------------------------------------------------------------------
    T("hand_not_3n_plus_1", "E023", mutate("hand 13 dealer 14\n  deal 4 4 4 1", "hand 14 dealer 15\n  deal 4 4 4 2")),
    # cascade: the deal no longer adds up to the (wrong) hand size either
    T("hand_not_3n_plus_1_cascade", "E023 E023", mutate("hand 13 dealer 14", "hand 14 dealer 15")),
    T("dealer_hand_not_plus_one", "E023",
      mutate("hand 13 dealer 14\n  deal 4 4 4 1 then dealer 1", "hand 13 dealer 15\n  deal 4 4 4 1 then dealer 2")),
    T("more_tiles_dealt_than_exist", "E023",
      mutate("hand 13 dealer 14\n  deal 4 4 4 1", "hand 40 dealer 41\n  deal 10 10 10 10")),
    T("deal_rounds_do_not_add_up", "E023", mutate("deal 4 4 4 1", "deal 4 4 4 2")),
    # ---- options and citations -----------------------------------------------------------------------
    T("option_without_default", "E022", mutate('"a big hand" = false', '"a big hand"')),
    T("rule_cited_twice", "E020", mutate("# MN-02", "# MN-02 MN-02")),
    T("unknown_rule_id", "E021", mutate("# MN-02", "# MN-07")),
    # ---- contexts and stages -------------------------------------------------------------------------
    T("context_wilds_in_win_on_discard", "E026", mutate("win_on_discard when big", "win_on_discard when wilds > 0")),
    T("context_pattern_in_wall_retain", "E026", mutate("retain = kongs", "retain = if basic then 1 else 0")),
    T("stage_pattern_uses_pattern", "E026", mutate("when no_melds", "when no_melds and basic")),
    T("stage_event_uses_reading", "E026", mutate("win_by == dealt and is_dealer", "win_by == dealt and pair_wilds == 0")),
    T("define_cycle", "E027",
      mutate("define bonus = if heaven then 2 else 1", "define bonus = if heaven then extra else 1\n    define extra = bonus + 1")),
    # ---- tables --------------------------------------------------------------------------------------
    T("table_unknown_pattern", "E028", mutate("    pairs7 : 4\n", "    pairs7 : 4\n    pairs8 : 4\n")),
    T("table_wrong_cell_count", "E028", mutate("pairs7 : 4", "pairs7 : 4 5")),
    T("table_missing_row", "E028", mutate("    pairs7 : 4\n", "")),
    # ---- blocks and conditions -----------------------------------------------------------------------
    T("clause_takes_no_block", "E031", mutate("  players 4\n", "  players 4 {\n  }\n")),
    T("section_needs_block", "E031", mutate("  wall {\n    draw head\n    retain = kongs\n  }\n", "  wall\n")),
    T("clause_not_conditional", "E032", mutate("  players 4\n", "  players 4 when big\n")),
    # ---- limits --------------------------------------------------------------------------------------
    T("too_large", "E002", MINI_SPEC + "#" * 1_000_000 + "\n"),
    T("too_deep", "E036", mutate(VALUE_LINE, "value = " + "(" * 100 + "T" + ")" * 100)),
    T("too_deep_power_chain", "E036", mutate(VALUE_LINE, "value = " + "2 ^ " * 200 + "T")),
    T("too_deep_not_chain", "E036", mutate("when one_suit", "when " + "not " * 5000 + "one_suit")),
    T("too_deep_long_sum", "E036", mutate(VALUE_LINE, "value = " + " + ".join(["T"] * 121))),
    T("too_deep_define_chain", "E036", mutate("define bonus = if heaven then 2 else 1", "define bonus = d0\n"
      + "".join(f"    define d{i} = d{i + 1} + 1\n" for i in range(130)) + "    define d130 = 1")),
    T("too_many_and_terms", "E037", mutate("when one_suit", "when " + " and ".join(["one_suit"] * 1001))),
    T("too_many_in_values", "E037", mutate("when one_suit", "when wilds in (" + ", ".join(["1"] * 1001) + ")")),
    T("too_many_max_arguments", "E037", mutate(VALUE_LINE, "value = max(" + ", ".join(["T"] * 1001) + ")")),
    T("constant_division_by_zero", "E038", mutate(VALUE_LINE, "value = T / (2 - 2)")),
    T("constant_power_out_of_range", "E039", mutate(VALUE_LINE, "value = 9 ^ 9 ^ 9 ^ 9")),
    T("constant_power_huge_exponent", "E039", mutate(VALUE_LINE, "value = T * 2 ^ 99999999")),
    T("constant_define_out_of_range", "E039",
      mutate("define bonus = if heaven then 2 else 1", "define bonus = 10 ^ 200\n    define huge = bonus * bonus")),
    T("number_out_of_range", "E039", mutate(VALUE_LINE, "value = T * 2" + "0" * 300)),
    T("too_many_modifiers", "E040", mutate("  modifier pure for basic when one_suit\n", "".join(
      f"  modifier m{i} when one_suit\n" for i in range(1000)) + "  modifier pure for basic when one_suit\n")),
    T("too_many_table_rows", "E040" + " E018" * 999,
      mutate("    pairs7 : 4\n", "    pairs7 : 4\n" + "    basic pure : 2\n" * 1000)),
    T("number_too_long", "E039", mutate(VALUE_LINE, "value = T * " + "9" * 5000)),
    # ---- extends and variants ------------------------------------------------------------------------
    Case("extends_cycle", ("E025",), files={"a.mj": "variant a extends b {\n}\n", "b.mj": "variant b extends a {\n}\n"},
         entry="a.mj"),
    Case("extends_itself", ("E025",), files={"self.mj": "variant self extends self {\n}\n"}, entry="self.mj"),
    T("extends_unknown_base", "E024", "variant x extends shangroa {\n}\n"),
    T("extends_unknown_path", "E024", 'variant x extends "nowhere/base.mj" {\n}\n'),
    Case("extends_remove_unknown_clause", ("E035",), files={"mini.mj": MINI_SPEC},
         text="variant x extends mini {\n  remove pattern nothing\n}\n", file="x.mj"),
    Case("extends_error_in_overlay", ("E017",), files={"mini.mj": MINI_SPEC},
         text="variant x extends mini {\n  pattern pairs7 shape pairs when wilds\n}\n", file="x.mj"),
    Case("unknown_shipped_variant", ("E024",), variant="shangroa"),
    Case("extends_a_file_that_is_not_a_spec", ("E024",), files={"secret.txt": "TOP SECRET\n"},
         text='variant x extends "secret.txt" {\n}\n', file="x.mj"),
    *(Case(f"extends_duplicate_{name}", ("E018",), files={"mini.mj": MINI_SPEC},
           text="variant x extends mini {\n" + body + "}\n", file="x.mj") for name, body in (
        ("pattern", "  pattern p9 shape pairs\n  pattern p9 shape standard\n"),
        ("option", '  option big "x" = true\n  option big "y" = false\n'),
        ("modifier", "  modifier pure when one_suit\n  modifier pure when no_melds\n"),
        ("define", "  score {\n    define bonus = 1\n    define bonus = 2\n  }\n"),
        ("table_row", "  table T by pattern {\n    basic : 2\n    basic : 3\n  }\n"),
        ("singleton", "  players 4\n  players 3\n"))),
]

CASE_IDS = [c.name for c in CASES]


def test_case_names_are_unique() -> None:
    assert len(set(CASE_IDS)) == len(CASE_IDS)


def test_mini_spec_is_valid() -> None:
    v = compile_text(MINI_SPEC, SPEC_FILE)
    assert v.name == "mini"
    assert [p.name for p in v.patterns] == ["basic", "pairs7"]
    assert dict(v.no_effect) == {"MN-04": "nothing to implement"}


def _golden(name: str, got: str) -> None:
    path = GOLDEN_DIR / f"{name}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got, encoding="utf-8")
        return
    assert path.exists(), f"missing golden {path}; run with MJRULES_UPDATE_GOLDENS=1 to write it"
    assert got == path.read_text(encoding="utf-8"), f"rendered error differs from {path}"


def _raise(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SpecError:
    with pytest.raises(SpecError) as info:
        case.run(tmp_path, monkeypatch)
    return info.value


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_spec_error(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    err = _raise(case, tmp_path, monkeypatch)
    rendered = err.render()
    _golden(case.name, rendered + "\n")
    assert tuple(err.codes) == case.codes, rendered
    assert "Traceback" not in rendered
    assert str(err) == rendered
    for d in err.diagnostics:
        assert d.code.startswith("E") and d.message, d
        if case.text is not None and d.span is not None and d.span.file == case.file:
            # the span and the quoted line are the mutated text's own
            lines = case.text.splitlines()
            assert 1 <= d.span.line <= max(1, len(lines)), d
            line = lines[d.span.line - 1] if lines else ""
            assert d.source_line == (line if lines else None), d
            assert 1 <= d.span.column <= len(line) + 1, d


@pytest.mark.parametrize("case", [c for c in CASES if c.text is not None and not c.files], ids=lambda c: c.name)
def test_spec_error_same_under_another_file_name(case: Case, tmp_path: Path) -> None:
    """The file name only changes the `file:` prefix of each diagnostic."""
    with pytest.raises(SpecError) as a:
        compile_text(case.text, SPEC_FILE, base_dir=tmp_path)
    with pytest.raises(SpecError) as b:
        compile_text(case.text, "other/name.mj", base_dir=tmp_path)
    assert a.value.render().replace(SPEC_FILE + ":", "other/name.mj:") == b.value.render()


def test_goldens_have_no_orphans() -> None:
    if UPDATE or not GOLDEN_DIR.exists():
        pytest.skip("updating goldens")
    orphans = sorted(p.stem for p in GOLDEN_DIR.glob("*.txt") if p.stem not in CASE_IDS)
    assert not orphans, f"golden files without a case: {orphans}"


def test_nul_character() -> None:
    # not a golden: the rendered message would carry the NUL byte
    text = mutate("  players 4\n", "  players 4\x00\n")
    with pytest.raises(SpecError) as info:
        compile_text(text, SPEC_FILE)
    (d,) = info.value.diagnostics
    assert (d.code, d.span.line) == ("E001", 8)
    assert "NUL" in d.message


def test_did_you_mean_hints() -> None:
    """The suggestions the golden files show, stated plainly."""
    want = {
        "unknown_clause_keyword": "did you mean 'no_effect'?",
        "unknown_clause_keyword_in_section": "did you mean 'draw'?",
        "unknown_name": "did you mean 'one_suit'?",
        "unknown_tile_group": "did you mean 'honours'?",
        "unknown_function": "did you mean 'contains'?",
        "unknown_pattern_in_modifier": "did you mean 'basic'?",
        "wrong_word_did_you_mean": "did you mean 'standard'?",
        "unknown_payer": "did you mean 'others'?",
        "table_unknown_pattern": "did you mean 'pairs7'?",
        "unknown_rule_id": "did you mean 'MN-04'?",
    }
    by_name = {c.name: c for c in CASES}
    for name, hint in want.items():
        with pytest.raises(SpecError) as info:
            compile_text(by_name[name].text, SPEC_FILE)
        assert info.value.diagnostics[0].hint == hint, name


def test_extends_hint_names_shipped_variant(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as info:
        compile_text("variant x extends fuzhou_jiangsi {\n}\n", "x.mj", base_dir=tmp_path)
    assert info.value.diagnostics[0].hint == "did you mean 'fuzhou_jiangxi'?"


# ---- bugs found by these tests, now fixed: each case pins the behaviour the compiler should have ----------

def _codes(text: str) -> list[str]:
    with pytest.raises(SpecError) as info:
        compile_text(text, SPEC_FILE)
    return info.value.codes


@dataclass(frozen=True)
class Bug:
    name: str
    reason: str
    check: Callable[[], None]


def _codes_are(text: str, codes: list[str]) -> Callable[[], None]:
    def check() -> None:
        assert _codes(text) == codes

    return check


def _spec_error_only(text: str) -> Callable[[], None]:
    def check() -> None:
        with pytest.raises(SpecError):
            compile_text(text, SPEC_FILE)

    return check


KNOWN_BUGS = [
    Bug("unmatched_brace_inside_variant",
        "a stray '}' closes the variant early; parser._syntax_error only says E004 when the unexpected "
        "token itself is '}', so this is E010 'unexpected name' on the next clause",
        _codes_are(mutate("  players 4\n", "  players 4\n  }\n"), ["E004"])),
    Bug("missing_expr_in_nested_clause",
        "lark's match_examples compares the parser state including the stack depth, so the E006 examples "
        "only match the first clause of a variant",
        _codes_are(mutate(VALUE_LINE, "value ="), ["E006"])),
    Bug("junk_after_expr_in_nested_clause", "as above, for E009",
        _codes_are(mutate("retain = kongs", "retain = kongs 3"), ["E009"])),
    Bug("unclosed_paren_in_nested_clause", "as above, for E011",
        _codes_are(mutate("(if pure then 2 else 1)", "(if pure then 2 else 1"), ["E011"])),
    Bug("whitespace_only_file", "a file of blanks is E010 'unexpected end of file', an empty one E007",
        _codes_are("  \n\n", ["E007"])),
    Bug("duplicate_singleton_reported_twice",
        "Checker.run() calls single() for each top-level keyword, and check_deal/check_tiles/... call it again",
        _codes_are(mutate("  players 4\n", "  players 4\n  players 4\n"), ["E018"])),
    Bug("missing_rules_reported_twice",
        "check_rules() reports E019 and run()'s required-clause loop reports it again with another hint",
        _codes_are(mutate("  rules MN 1..4\n", ""), ["E019"])),
    Bug("deep_power_chain", "`2 ^ 2 ^ ... ` 500 deep: lark VisitError(RecursionError) escapes parse()",
        _spec_error_only(mutate(VALUE_LINE, "value = " + "2 ^ " * 500 + "T"))),
    Bug("deep_else_chain", "`if c then 1 else if c then 1 else ...` 500 deep: lark VisitError escapes parse()",
        _spec_error_only(mutate(VALUE_LINE, "value = " + "if pure then 1 else " * 500 + "T"))),
    Bug("huge_integer", "a 5000-digit number: int() ValueError wrapped in lark VisitError escapes parse()",
        _spec_error_only(mutate("minimum 1", "minimum " + "9" * 5000))),
    Bug("lone_surrogate", "a str with a lone surrogate: UnicodeEncodeError from the sha256 in resolve._resolve",
        _spec_error_only(MINI_SPEC + "# \ud800\n")),
    Bug("settlement_block_without_pay",
        "_scoring.check_settlement indexes section(...)['pay'] directly: a win/draw/hand_end block with clauses "
        "but no 'pay' raises KeyError('pay') (found by tests/test_spec_fuzz.py)",
        _spec_error_only(mutate("  settlement {\n", "  settlement {\n    draw {\n      foo\n    }\n"))),
    Bug("match_examples_type_error",
        "parser._syntax_error catches only (UnexpectedInput, ValueError, AssertionError) around lark's "
        "match_examples, whose debug line formats a ParserState with %d and raises TypeError whenever an "
        "example reaches the same state with other accepts (found by tests/test_spec_fuzz.py)",
        _spec_error_only("variant v {\n  a = x y\n}\n")),
]


def test_extends_never_quotes_a_file_that_is_not_a_spec(tmp_path: Path) -> None:
    """A base that does not begin with `variant` is refused unread (also through a link): `extends "/etc/passwd"`
    once printed its first line in the syntax error."""
    secret = tmp_path / "secret.txt"
    secret.write_text("root:TOP-SECRET\n", encoding="utf-8")
    (tmp_path / "link.mj").symlink_to(secret)
    for base in (str(secret), "secret.txt", "link.mj", "link"):
        with pytest.raises(SpecError) as info:
            compile_text(f'variant x extends "{base}" {{\n}}\n', "x.mj", base_dir=tmp_path)
        assert info.value.codes == ["E024"] and "TOP-SECRET" not in info.value.render()


@pytest.mark.parametrize("bug", KNOWN_BUGS, ids=[b.name for b in KNOWN_BUGS])
def test_fixed_bug(bug: Bug) -> None:
    """Bugs these tests once found (as strict xfails); each now pins the fixed behaviour."""
    bug.check()
