"""The command line: exit codes, readable and --json output, and no traceback for bad input."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from mjrules.cli.main import main

SHIPPED = ["shangrao", "fuzhou_jiangxi", "fuzhou_fujian"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_check_shipped(capsys):
    code, out, _ = run(capsys, "check", *SHIPPED)
    assert code == 0
    lines = out.strip().splitlines()
    assert len(lines) == 3
    assert "rule ids 20/20 covered" in lines[0] and "5 patterns" in lines[0]


def test_check_json(capsys):
    code, out, _ = run(capsys, "check", "shangrao", "--json")
    data = json.loads(out)
    assert code == 0 and data[0]["ok"] and data[0]["covered"] == 20 and data[0]["not_covered"] == []


def test_check_reports_errors_and_exits_1(capsys, tmp_path):
    bad = tmp_path / "bad.mj"
    bad.write_text('variant bad {\n  pattrn x shape standard\n}\n', encoding="utf-8")
    code, _, err = run(capsys, "check", str(bad))
    assert code == 1
    assert f"{bad}:2:3: error[E012]: unknown clause 'pattrn'" in err
    assert "did you mean 'pattern'?" in err
    assert "Traceback" not in err
    code, out, _ = run(capsys, "check", str(bad), "--json")
    assert code == 1 and "E012" in {e["code"] for e in json.loads(out)[0]["errors"]}


def test_show_markdown_and_ir(capsys):
    code, out, _ = run(capsys, "show", "shangrao")
    assert code == 0 and "十三烂" in out and "SR-12" in out
    code, out, _ = run(capsys, "show", "fuzhou_fujian", "--ir")
    assert code == 0 and json.loads(out)["variant"]["name"] == "fuzhou_fujian"


def test_show_unknown_variant(capsys):
    code, _, err = run(capsys, "show", "shangraoo")
    assert code == 1 and "did you mean 'shangrao'?" in err


@pytest.mark.parametrize("backend", ["reference", "native"])
def test_score_readable_and_json(capsys, backend):
    args = ["score", "shangrao", "--hand", "123m456m789p234s9s*7z", "--win-tile", "7z", "--wild", "9s",
            "--backend", backend]
    code, out, _ = run(capsys, *args)
    assert code == 0 and out.startswith("WIN  平胡  [宝调]  value 4")
    assert "seat 0: +12" in out
    code, out, _ = run(capsys, *args, "--json")
    r = json.loads(out)
    assert r["value"] == 4 and r["payments"] == {"0": 12, "1": -4, "2": -4, "3": -4}


@pytest.mark.parametrize("backend", ["reference", "native"])
def test_score_brief(capsys, backend):
    """--brief: the verdict and payments, no explanation lines; with --json the full result less reading and
    explain."""
    args = ["score", "shangrao", "--hand", "123m456m789p234s9s*7z", "--win-tile", "7z", "--wild", "9s",
            "--backend", backend]
    code, out, _ = run(capsys, *args, "--brief")
    assert code == 0 and out.startswith("WIN  平胡  [宝调]  value 4") and "seat 0: +12" in out
    assert "SR-" not in out and len(out.splitlines()) == 2
    full = json.loads(run(capsys, *args, "--json")[1])
    code, out, _ = run(capsys, *args, "--json", "--brief")
    assert code == 0 and json.loads(out) == {k: v for k, v in full.items() if k not in ("reading", "explain")}


def test_score_situation_file(capsys, tmp_path):
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"seat": 2, "concealed": "123m456p789s234s55z", "win_tile": "5z",
                             "win_by": "discard", "discarder": 1}), encoding="utf-8")
    code, out, _ = run(capsys, "score", "fuzhou_jiangxi", str(f), "--json", "--backend", "reference")
    assert code == 0 and json.loads(out)["payments"] == {"0": 0, "1": -1, "2": 1, "3": 0}


@pytest.mark.parametrize("argv,message", [
    (["score", "shangrao", "--hand", "123m456m789p234s9s*7z7z", "--win-tile", "7z", "--wild", "9s"], "15 tiles"),
    (["score", "fuzhou_jiangxi", "--hand", "11111m456p789s555z", "--win-tile", "5z"], "5 copies of 1m"),
    (["score", "fuzhou_jiangxi", "--hand", "123m456p789s234s55z"], "'win_tile' is required"),
    (["score", "fuzhou_jiangxi"], "give --hand"),
    (["score", "fuzhou_jiangxi", "/nonexistent/s.json"], "cannot read"),
    (["waits", "shangrao", "--hand", "123m456m789p234s9s*7z", "--wild", "9s"], "pre-draw hand"),
])
def test_bad_input_exits_2(capsys, argv, message):
    code, _, err = run(capsys, *argv, "--backend", "reference")
    assert code == 2 and message in err and "Traceback" not in err


def test_waits(capsys):
    code, out, _ = run(capsys, "waits", "fuzhou_jiangxi", "--hand", "1133m5577p99s11z8s", "--backend", "reference")
    assert code == 0 and out.split() == ["8s", "七对", "value", "4"]


def test_console_script_no_traceback(tmp_path):
    """The installed entry point: a malformed situation file exits 2 without a traceback."""
    f = tmp_path / "s.json"
    f.write_text("{not json", encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "mjrules.cli.main", "score", "shangrao", str(f), "--backend", "reference"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "not valid JSON" in p.stderr and "Traceback" not in p.stderr


def test_help():
    p = subprocess.run([sys.executable, "-m", "mjrules.cli.main", "--help"], capture_output=True, text=True)
    assert p.returncode == 0
    for cmd in ("check", "show", "build", "score", "waits"):
        assert cmd in p.stdout


@pytest.mark.parametrize("value,message", [
    ("x", "'x' is not a number of seconds"),
    ("-1", "-1 is outside 0..3600 seconds"),
    ("nan", "nan is outside 0..3600 seconds"),
    ("4000", "4000 is outside 0..3600 seconds"),
])
def test_bench_patience_is_checked(capsys, value, message):
    """`mjrules bench --patience` takes seconds in 0..3600: anything else is one line, exit 2, nothing measured."""
    with pytest.raises(SystemExit) as e:
        main(["bench", "--patience", value])
    err = capsys.readouterr().err
    assert e.value.code == 2 and f"argument --patience: {message}" in err and "Traceback" not in err


# ---- no payment dropped silently: a hand scored alone in a variant that pays its wins in play (#60) ---------
@pytest.mark.parametrize("variant,hand,tile,only_in_play", [
    # 广东: 杠爆全包 names `feeder`, which only play knows; the horses count as none turned
    ("guangdong_tuidaohu", "123m456m789p234s1z9s*", "1z", [("GD-10", "'feeder' is known only in play")]),
    # 转转: every on_win clause reads hits (no bird turned: 0) and the payer, through a define: all shown
    ("zhuanzhuan", "123m456m789m77p6s8s5z*", "8s", []),
])
def test_score_says_what_only_play_pays(capsys, variant, hand, tile, only_in_play):
    extra = ["--wild", "9s"] if variant == "guangdong_tuidaohu" else []
    code, out, _ = run(capsys, "score", variant, "--hand", hand, "--win-tile", tile, *extra)
    assert code == 0 and "as at the hand's first win" in out
    for rule, why in only_in_play:
        assert f"paid in play only: {rule}: {why}" in out
    assert out.count("paid in play only") == len(only_in_play)
    code, out, _ = run(capsys, "score", variant, "--hand", hand, "--win-tile", tile, *extra, "--json")
    d = json.loads(out)
    assert d["paid_in_play"]["only_in_play"] == [{"rule": r, "why": w} for r, w in only_in_play]
    assert sum(d["payments"].values()) == 0 and d["payments"]


def test_a_variant_paying_wins_with_the_hand_has_no_play_note(capsys):
    code, out, _ = run(capsys, "score", "shangrao", "--hand", "123m456m789p234s9s*7z", "--win-tile", "7z", "--wild",
                       "9s", "--json")
    assert code == 0 and "paid_in_play" not in json.loads(out)
    code, out, _ = run(capsys, "score", "shangrao", "--hand", "123m456m789p234s9s*7z", "--win-tile", "7z", "--wild",
                       "9s")
    assert "first win" not in out and "paid in play only" not in out


def test_a_transfer_is_listed_as_paid_in_play(capsys):
    code, out, _ = run(capsys, "score", "sichuan_xuezhan", "--hand", "123m456m789m234p55p", "--win-tile", "5p")
    assert code == 0 and out.startswith("WIN")
    assert "paid in play only: SC-14: a transfer of earlier kong payments happens only in play" in out


def test_score_takes_indicators_marked_copies_and_ready_facts(capsys):
    spec = "riichi"
    argv = ["score", spec, "--hand", "234m456m789p234s55p", "--win-tile", "2m", "--discard-from", "0", "--seat",
            "1", "--declared-ready", "--indicators", "4p", "--marked", "5p", "--json"]
    code, out, _ = run(capsys, *argv)
    data = json.loads(out)
    assert code == 0 and dict(data["fans"]) == {"立直": 1, "平和": 1, "ドラ": 2, "赤ドラ": 1}
    code, out, _ = run(capsys, *argv[:-1], "--ready-first-turn", "--ready-uninterrupted", "--hidden-indicators",
                       "1m", "--json")
    data = json.loads(out)
    assert dict(data["fans"]) == {"一発": 1, "平和": 1, "ダブル立直": 1, "ドラ": 2, "裏ドラ": 1, "赤ドラ": 1}
    code, _, err = run(capsys, *argv[:-1], "--marked", "5s")
    assert code != 0 and "'marked': the hand holds no 5s" in err and "Traceback" not in err
