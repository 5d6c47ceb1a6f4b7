"""Every rule of a variant's rules file is implemented somewhere in its spec, or declared to have no effect.

The rule books ship in the package (mjrules.rules, docs/rules/ in the repository), with rules written as
`**SR-01 Title.** ...`, and are read from the installed package. Where the workspace's shared/rules/ folder is
beside the repository (the books the first five variants were written from), each packaged book keeps its ids
exactly. An overlay (a shipped spec that `extends` another) answers to its base's rules file.
"""
from __future__ import annotations

import functools
import re
from importlib import resources
from pathlib import Path

import pytest
from mjrules.compiler import compile_variant as _compile_variant
from mjrules.compiler import shipped_names

RULES_DIR = Path(__file__).resolve().parents[2] / "shared" / "rules"
RULE_RE = re.compile(r"^\*\*([A-Z][A-Z0-9]*-\d+)\b", re.MULTILINE)

# (variant name, rules file name) for the base variants
VARIANT_RULES = [
    ("shangrao", "shangrao.md"),
    ("fuzhou_jiangxi", "fuzhou-jiangxi.md"),
    ("fuzhou_fujian", "fuzhou-fujian.md"),
    ("sichuan_xuezhan", "sichuan-xuezhan.md"),
    ("guangdong_tuidaohu", "guangdong-tuidaohu.md"),
    ("guobiao", "guobiao.md"),
    ("zhuanzhuan", "zhuanzhuan.md"),
    ("riichi", "riichi.md"),
]

RULES_OF = dict(VARIANT_RULES)
# the books rewritten from the workspace's shared/rules/ (the others were written in the project, from public texts)
FROM_SHARED = [(v, f) for v, f in VARIANT_RULES if v not in ("guobiao", "zhuanzhuan", "riichi")]
ALL = shipped_names()
# compiled once per session: these tests read the IR, they do not test the compiler's determinism
compile_variant = functools.cache(_compile_variant)


def chain(name: str) -> list[str]:
    """The variant and the variants it extends, nearest first."""
    out = [name]
    while (base := compile_variant(out[-1]).extends) is not None:
        out.append(Path(base).stem)
    return out


def rules_file_of(variant: str) -> str:
    for name in chain(variant):
        if name in RULES_OF:
            return RULES_OF[name]
    pytest.fail(f"shipped variant {variant} has no rules file: add it to VARIANT_RULES")


def rule_ids(rules_file: str) -> list[str]:
    path = resources.files("mjrules.rules").joinpath(rules_file)
    assert path.is_file(), f"the rule book {rules_file} is not in the installed package mjrules.rules"
    ids = RULE_RE.findall(path.read_text(encoding="utf-8"))
    assert ids, f"no rule ids like **XX-01 ...** in {path}"
    return ids


@pytest.mark.parametrize(("variant", "rules_file"), FROM_SHARED, ids=[v for v, _ in FROM_SHARED])
def test_packaged_books_keep_the_shared_ids(variant: str, rules_file: str) -> None:
    """A book rewritten for the package has the ids of the one it was written from, in order."""
    shared = RULES_DIR / rules_file
    if not shared.is_file():
        pytest.skip(f"{shared} is not beside the repository: nothing to compare the packaged book with")
    assert rule_ids(rules_file) == RULE_RE.findall(shared.read_text(encoding="utf-8"))


def test_a_rule_prints_from_its_book() -> None:
    """`mjrules show VARIANT --rule ID` reads the packaged book (mjrules.rulebook)."""
    from mjrules.rulebook import rule_text

    for variant, rules_file in VARIANT_RULES:
        v = compile_variant(variant)
        first = rule_ids(rules_file)[0]
        assert rule_text(v, first).startswith(f"**{first} ")
    with pytest.raises(KeyError, match="no rule"):
        rule_text(compile_variant("guobiao"), "GB-999")


def test_table_variants_are_shipped() -> None:
    assert {v for v, _ in VARIANT_RULES} <= set(ALL)


@pytest.mark.parametrize("variant", ALL)
def test_every_shipped_variant_has_a_rules_file(variant: str) -> None:
    assert rules_file_of(variant) in {f for _, f in VARIANT_RULES}


@pytest.mark.parametrize(("variant", "rules_file"), VARIANT_RULES, ids=[v for v, _ in VARIANT_RULES])
def test_rules_file_ids_are_well_formed(variant: str, rules_file: str) -> None:
    ids = rule_ids(rules_file)
    assert len(ids) == len(set(ids)), f"a rule id is defined twice in {rules_file}"
    prefixes = {i.split("-")[0] for i in ids}
    assert prefixes == {compile_variant(variant).rule_prefix}


@pytest.mark.parametrize("variant", ALL)
def test_spec_rule_ids_equal_the_rules_file(variant: str) -> None:
    assert list(compile_variant(variant).rule_ids) == rule_ids(rules_file_of(variant))


@pytest.mark.parametrize("variant", ALL)
def test_every_rule_is_cited_or_has_no_effect(variant: str) -> None:
    rules_file = rules_file_of(variant)
    v = compile_variant(variant)
    cited = {rid: clauses for rid, clauses in v.citations}
    no_effect = dict(v.no_effect)
    uncovered = []
    for rid in rule_ids(rules_file):
        if rid in no_effect:
            assert no_effect[rid].strip(), f"{rid} is listed as no_effect without a reason"
        elif not cited.get(rid):
            uncovered.append(rid)
    assert not uncovered, f"rules of {rules_file} neither cited in {variant}.mj nor listed as no_effect: {uncovered}"


@pytest.mark.parametrize("variant", ALL)
def test_citations_name_only_rules_of_the_file(variant: str) -> None:
    v = compile_variant(variant)
    known = set(rule_ids(rules_file_of(variant)))
    assert {rid for rid, _ in v.citations} <= known
    assert {rid for rid, _ in v.no_effect} <= known
    files = tuple(f"{n}.mj:" for n in chain(variant))
    for rid, clauses in v.citations:
        assert clauses and all(c.startswith(files) for c in clauses), (rid, clauses)
