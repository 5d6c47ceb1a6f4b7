"""mjrules.diff and `mjrules diff`: rule clauses compared on the IR, hands that show a change, games side by
side, the command line's outputs and exit codes. Reference backend throughout."""
from __future__ import annotations

import json
import math
import re
import shlex
from pathlib import Path

import pytest
from mjrules.diff.games import compare, newcombe, wilson
from mjrules.diff.rules import diff_rules
from mjrules.cli.main import main
from mjrules.compiler import compile_file, compile_variant, locate
from mjrules.diff import diff, render_text, score_command


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def edited(tmp_path: Path, base: str, old: str, new: str, name: str = "edited") -> Path:
    """A copy of a shipped spec with one text replacement (and its own name)."""
    text = locate(base).read_text(encoding="utf-8")
    assert old in text, old
    text = text.replace(old, new, 1)
    text = re.sub(r"^variant \w+", f"variant {name}", text, count=1, flags=re.MULTILINE)
    f = tmp_path / f"{name}.mj"
    f.write_text(text, encoding="utf-8")
    return f


# ---- rules ----------------------------------------------------------------------------------------------------

def test_provenance_names_and_labels_are_ignored(tmp_path):
    text = locate("shangrao").read_text(encoding="utf-8")
    text = text.replace('variant shangrao "上饶麻将" "Shangrao Mahjong"', 'variant copy "另一个名字" "Another label"')
    text = "# a comment that moves every line down\n\n\n" + text
    text = text.replace('pattern 平胡 "Basic Win"', 'pattern 平胡 "Plain Hand"')
    f = tmp_path / "copy.mj"
    f.write_text(text, encoding="utf-8")
    v = compile_file(f)
    assert diff_rules(compile_variant("shangrao"), v) == []


def test_a_table_cell_is_one_difference_with_its_rule_ids(tmp_path):
    f = edited(tmp_path, "shangrao", "十三烂         : 2  2  4", "十三烂         : 2  2  6")
    rules = diff_rules(compile_variant("shangrao"), compile_file(f))
    assert [(e["section"], e["key"], e["change"]) for e in rules] == [("tables", "T[十三烂]", "changed")]
    assert rules[0]["a"].endswith(": 2 2 4") and rules[0]["b"].endswith(": 2 2 6")
    assert "SR-14" in rules[0]["a_rules"] and "SR-14" in rules[0]["b_rules"]


def test_a_changed_table_cell_is_shown_by_a_hand(tmp_path):
    f = edited(tmp_path, "shangrao", "十三烂         : 2  2  4", "十三烂         : 2  2  6")
    rep = diff("shangrao", str(f), search=0)
    rid = rep["rules"][0]["id"]
    assert rep["hands"]["by_rule"][rid]
    d = rep["hands"]["differences"][0]
    assert d["kind"] == "value" and d["a"]["pattern"] == d["b"]["pattern"] == "十三烂"
    assert (d["a"]["value"], d["b"]["value"]) == (4, 6) and d["b"]["status"] == "无宝"
    assert "*" not in d["situation"]["concealed"], "the smallest situation has no wild"


def test_a_changed_pattern_condition_is_shown_by_a_hand(tmp_path):
    f = edited(tmp_path, "fuzhou_jiangxi",
               "pattern 十三烂 \"Thirteen Rotten\" shape free when no_melds and distinct and spacing(3) # JX-11 gap >= 3, honours distinct",
               "pattern 十三烂 \"Thirteen Rotten\" shape free when no_melds and distinct and spacing(2) # JX-11")
    rep = diff("fuzhou_jiangxi", str(f), search=0)
    e = [x for x in rep["rules"] if x["section"] == "patterns"]
    assert len(e) == 1 and "spacing(3)" in e[0]["a"] and "spacing(2)" in e[0]["b"]
    # JX-T12's hand: 1m3m has a gap of 2: no win with spacing 3, 十三烂 with spacing 2
    hit = [d for d in rep["hands"]["differences"] if d["kind"] == "verdict" and d["b"]["pattern"] == "十三烂"]
    assert hit and not hit[0]["a"]["win"]
    assert e[0]["id"] in hit[0]["rules"]


def test_ordered_lists_are_aligned(tmp_path):
    f = edited(tmp_path, "shangrao", '    forbid "no 抢杠 in 上饶" when win_by == rob_kong   ',
               '    forbid "no 抢杠 in 上饶" when win_by == rob_kong\n    forbid "no 杠开" when win_by == kong_replacement  ')
    rules = diff_rules(compile_variant("shangrao"), compile_file(f))
    assert [(e["section"], e["change"]) for e in rules] == [("score.forbid", "only_b")]
    assert rules[0]["b"] == 'forbid "no 杠开" when win_by == kong_replacement'


def test_option_level_depends_on_its_use():
    rules = diff_rules(compile_variant("shangrao"), compile_variant("fuzhou_jiangxi"))
    level = {e["key"]: e["level"] for e in rules if e["section"] == "options"}
    assert level["bao_huanyuan_counts_as_wubao"] == "hand"   # a status condition
    assert level["kong_points"] == "game"                    # kong payments only
    assert level["wall_break_method"] == "game"


# ---- hands ------------------------------------------------------------------------------------------------------

def test_different_tile_sets_and_hand_sizes_work():
    rep = diff("fuzhou_jiangxi", "fuzhou_fujian", search=20)
    h = rep["hands"]
    assert h["situations"]["compared"] == 0 and h["situations"]["only_a"] and h["situations"]["only_b"]
    text = render_text(rep)
    assert "exist in one variant only" in text and "Analogous hands" in text


def test_the_printed_command_reproduces_side_a(capsys):
    rep = diff("shangrao", "shangrao_wuyuan", search=0)
    d = rep["hands"]["differences"][0]
    argv = shlex.split(score_command("shangrao", d["situation"]))[1:] + ["--json", "--backend", "reference"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    r = json.loads(out)
    assert (r["win"], r["value"]) == (d["a"]["win"], d["a"]["value"])


# ---- games ------------------------------------------------------------------------------------------------------

def test_intervals():
    lo, hi = wilson(0, 10)
    assert lo == 0 and 0.27 < hi < 0.28          # the rule of three, roughly
    lo, hi = wilson(5, 10)
    assert math.isclose(lo + hi, 1.0, abs_tol=1e-9) and 0.23 < lo < 0.24
    lo, hi = newcombe(5, 10, 5, 10)
    assert lo < 0 < hi and math.isclose(-lo, hi, abs_tol=1e-9)
    lo, hi = newcombe(10, 100, 60, 100)
    assert 0.37 < lo < 0.5 < hi < 0.62


def test_compare_flags_only_real_differences():
    same = {"n": 50, "counts": {"win rate": 20, "draw rate": 30, "dealer keep rate": 10}, "values": [2, 4, 8] * 7}
    ms = compare(same, same)
    assert not any(m["significant"] for m in ms)
    other = {"n": 50, "counts": {"win rate": 45, "draw rate": 5, "dealer keep rate": 10}, "values": [16, 32] * 20}
    sig = {m["metric"] for m in compare(same, other) if m["significant"]}
    assert {"win rate", "draw rate", "mean value (per win)"} <= sig and "dealer keep rate" not in sig


def test_games_side_by_side():
    rep = diff("fuzhou_jiangxi", "shangrao", hands=False, games=12, seed=5)
    g = rep["games"]
    assert g["games"] == 12 and g["a"]["hands"] == g["b"]["hands"] == 12
    names = [m["metric"] for m in g["metrics"]]
    assert names[:4] == ["win rate", "draw rate", "dealer keep rate", "mean value (per win)"]
    for m in g["metrics"]:
        if m["type"] == "rate":
            lo, hi = m["a"]["ci"]
            assert lo <= m["a"]["value"] <= hi
    # the rates agree with mjrules.simulate's own summary
    assert g["metrics"][0]["a"]["value"] == g["a"]["win_rate"]
    assert g["metrics"][2]["b"]["value"] == g["b"]["dealer_keep_rate"]
    assert "Games: 12 hands each" in render_text(rep)


def test_a_variant_against_itself_in_games_is_the_same():
    rep = diff("fuzhou_jiangxi", "fuzhou_jiangxi", hands=False, games=8, seed=2)
    assert rep["same"] and rep["games"]["significant"] == []
    assert all(m["difference"] in (0, 0.0, None) for m in rep["games"]["metrics"])


# ---- command line -----------------------------------------------------------------------------------------------

def test_cli_text_and_json(capsys):
    code, out, err = run(capsys, "diff", "fuzhou_fujian", "fuzhou_fujian_no_gold_penalty", "--search", "0")
    assert code == 0 and not err
    assert "Rules: 1 clause differs" in out and "gold_discard_tsumo_only" in out and "[FJ-08]" in out
    assert "only self-draw" in out and "$ mjrules score fuzhou_fujian" in out
    code, out, _ = run(capsys, "diff", "fuzhou_fujian", "fuzhou_fujian_no_gold_penalty", "--search", "0", "--json")
    data = json.loads(out)
    assert code == 0 and data["same"] is False and data["counts"]["rules"] == 1
    assert data["a"]["spec"] == "fuzhou_fujian" and data["hands"]["differences"]


def test_cli_exit_code(capsys):
    assert run(capsys, "diff", "shangrao", "shangrao", "--no-hands", "--exit-code")[0] == 0
    code, out, _ = run(capsys, "diff", "shangrao", "shangrao_wuyuan", "--no-hands", "--exit-code")
    assert code == 1 and "bao_huanyuan_counts_as_wubao" in out
    assert run(capsys, "diff", "shangrao", "shangrao_wuyuan", "--no-hands")[0] == 0


def test_cli_same_spec(capsys):
    code, out, _ = run(capsys, "diff", "fuzhou_jiangxi", "fuzhou_jiangxi", "--search", "10")
    assert code == 0 and "Rules: no difference" in out and "Summary: no difference" in out
    assert "no situation legal in both is judged differently" in out


def test_cli_bad_spec_gets_its_errors_not_a_traceback(capsys, tmp_path):
    bad = tmp_path / "bad.mj"
    bad.write_text("variant bad {\n  pattrn x shape standard\n}\n", encoding="utf-8")
    code, out, err = run(capsys, "diff", str(bad), "shangrao")
    assert code == 1 and "Traceback" not in err
    assert f"{bad}:2:3: error[E012]: unknown clause 'pattrn'" in err
    code, out, err = run(capsys, "diff", "shangrao", "shangrau", "--json")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False and data["errors"][0]["code"] == "E024"
    assert "did you mean 'shangrao'" in data["errors"][0]["hint"]
    code, _, err = run(capsys, "diff", str(bad), "nonesuch")
    assert code == 1 and "E012" in err and "E024" in err, "both specs' errors are reported"


def test_cli_bad_input_exits_2(capsys):
    with pytest.raises(SystemExit) as e:   # a usage error: argparse's exit, one line
        main(["diff", "shangrao", "fuzhou_jiangxi", "--games", "-1"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err and "--games: -1 is below 0" in err
    code, out, _ = run(capsys, "diff", "shangrao", "fuzhou_jiangxi", "--games", "2", "--agents", "greedy,random",
                       "--json")
    assert code == 2 and "one agent for every seat, or 4, one per seat (got 2)" in json.loads(out)["error"]
    with pytest.raises(SystemExit) as e:
        main(["diff", "shangrao"])
    assert e.value.code == 2
