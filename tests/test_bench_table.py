"""The README's performance table, made from `mjrules bench --json` output (mjrules.bench.table): every measure
with a target is a row, every variant a column, and the table is written between the README's markers only."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from mjrules.bench.suite import TARGETS
from mjrules.bench.table import BEGIN, END, main, markdown, replace_table

RESULT = json.loads((Path(__file__).resolve().parents[1] / "bench" / "last-run.json").read_text(encoding="utf-8"))


def test_every_variant_is_a_column_and_every_target_a_row():
    table = markdown(RESULT)
    head = table.splitlines()[0]
    assert all(f"`{name}`" in head for name in RESULT["variants"])
    rows = [ln for ln in table.splitlines() if ln.startswith("| ") and not ln.startswith("| measure")]
    width = 2 + len(RESULT["variants"])
    assert all(ln.count("|") == width + 1 for ln in rows), "every row has a cell per variant"
    targets = {ln.split("|")[2].strip() for ln in rows}
    peers = 0 if any(v.get("agents_side_by_side", {}).get("available") for v in RESULT["variants"].values()) else 2
    assert len([t for t in targets if t]) >= len(TARGETS) - 1 - peers   # the two evaluate rows share one target;
    # the side-by-side rows are there where riichienv was installed


def test_pass_and_miss_follow_the_result():
    r = copy.deepcopy(RESULT)
    name = next(iter(r["variants"]))
    ev = r["variants"][name]["backends"]["native"]["evaluate"]
    ev["per_hand_us"]["median"], ev["pass"] = 9.5, False
    row = next(ln for ln in markdown(r).splitlines() if ln.startswith("| `evaluate` of a winning hand"))
    assert row.split("|")[3].strip() == "9.5 µs MISS"
    ev["pass"] = True
    row = next(ln for ln in markdown(r).splitlines() if ln.startswith("| `evaluate` of a winning hand"))
    assert row.split("|")[3].strip() == "9.5 µs PASS"


def test_the_caption_says_what_kind_of_run():
    assert "**quick** run" in markdown(dict(RESULT, quick=True))
    full = markdown(dict(RESULT, quick=False))
    assert "quick" not in full and "`mjrules bench --json`" in full
    r = copy.deepcopy(RESULT)
    r["riichienv"] = r["riichienv_env"] = {"available": False}   # a run without riichienv has no peer row
    for v in r["variants"].values():
        v["agents_side_by_side"] = {"available": False}
    assert "riichienv" not in markdown(r)
    r = copy.deepcopy(RESULT)             # what the gate on the machine's speed did is in the caption
    r.setdefault("machine_python_add_ns", {})["gate"] = {"timings": 120, "waited": 7, "timed_again": 5,
                                                         "timed_slow": 2}
    assert "of its 120 timed repeats, 7 waited for the machine's usual speed, 5 were timed again and 2 were " \
           "still timed in a slow spell" in markdown(r)
    del r["machine_python_add_ns"]["gate"]    # a run from before the gate: no such words
    assert "timed repeats" not in markdown(r)


def test_replace_table_rewrites_only_between_the_markers():
    text = f"# title\n\nbefore\n{BEGIN}\nold table\n{END}\nafter\n"
    out = replace_table(text, "| new |\n")
    assert out == f"# title\n\nbefore\n{BEGIN}\n| new |\n{END}\nafter\n"
    assert replace_table(out, "| new |\n") == out
    for bad in ("no markers", f"{END}\n{BEGIN}\n", f"{BEGIN}\n{BEGIN}\n{END}\n"):
        with pytest.raises(ValueError, match="needs one"):
            replace_table(bad, "x")


def test_the_command_writes_the_readme(tmp_path, capsys):
    result = tmp_path / "run.json"
    result.write_text(json.dumps(RESULT), encoding="utf-8")
    readme = tmp_path / "README.md"
    readme.write_text(f"x\n{BEGIN}\n{END}\ny\n", encoding="utf-8")
    assert main([str(result), "--readme", str(readme)]) == 0
    assert readme.read_text(encoding="utf-8") == replace_table(f"x\n{BEGIN}\n{END}\ny\n", markdown(RESULT))
    assert main([str(result)]) == 0 and capsys.readouterr().out == markdown(RESULT)
    assert main([str(tmp_path / "missing.json")]) == 2
    assert "error" in capsys.readouterr().err
