"""The command line against bad input, in a subprocess each: one clear line, the documented exit code (1 a spec,
2 input, 3 the native back end cannot be built, 130 interrupted), no traceback, no hang.

Once tracebacks or wrong exits: a deeply nested JSON situation (RecursionError, exit 1), a non-UTF-8 file,
`bench --out` at a folder or an impossible path (after the whole run), `simulate --games -1` (exit 0 with a
negative speed), `--jobs 0` (accepted), an unknown MJRULES_BACKEND.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from harness import ORACLE, cli, one_error_line, spec_text

SPEC, INPUT, BUILD, INTERRUPT = 1, 2, 3, 130
HAND = ["--hand", "123m456m789p234s9s*7z", "--win-tile", "7z", "--wild", "9s"]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    """Hostile input files, made once."""
    d = tmp_path_factory.mktemp("hostile")
    deep = "[" * 100_000 + "]" * 100_000
    texts = {
        "deep.json": deep, "deep_object.json": '{"a":' * 50_000 + "1" + "}" * 50_000,
        "deep_in_key.json": '{"melds": ' + "[" * 5000 + "]" * 5000 + "}",
        "bigint.json": '{"seat": ' + "9" * 5000 + "}", "list.json": "[1, 2]", "empty.json": "",
        "garbage.json": "{not json", "nan.json": '{"concealed": "123m", "seat": NaN}',
        "unknown_key.json": '{"concealed": "123m456m789p234s77z", "win_tile": "7z", "x": 1}',
        "bad_tiles.json": '{"concealed": "123x", "win_tile": "7z"}',
        "spec_with_errors.mj": "variant bad {\n  pattrn x shape standard\n}\n",
        "overflow.mj": spec_text("big * 10 ^ 280", options='  option big "B" = 1\n'),
        "empty.mj": "", "not_a_spec.mj": "root:x:0:0\n",
        "log_garbage.jsonl": "not json at all\n",
        "log_deep.jsonl": '{"log": "mjrules-hand", "variant": "shangrao"}\n' + deep + "\n",
    }
    for name, text in texts.items():
        (d / name).write_text(text, encoding="utf-8")
    (d / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    (d / "binary.mj").write_bytes(b"\xff\xfe\x00garbage")
    (d / "afile").write_text("x", encoding="utf-8")
    (d / "afolder").mkdir()
    return d


# (name, argv with {d} for the files folder, stdin, expected exit, fragments of the one error line)
CASES: list[tuple[str, list[str], str | None, int, tuple[str, ...]]] = [
    # ---- situations
    ("situation_deep_list", ["score", "shangrao", "{d}/deep.json"], None, INPUT, ("nests too deeply",)),
    ("situation_deep_object", ["score", "shangrao", "{d}/deep_object.json"], None, INPUT, ("nests too deeply",)),
    ("situation_deep_value", ["score", "shangrao", "{d}/deep_in_key.json"], None, INPUT, ()),
    ("situation_deep_stdin", ["score", "shangrao", "-"], "[" * 100_000, INPUT, ("nests too deeply",)),
    ("situation_big_integer", ["score", "shangrao", "{d}/bigint.json"], None, INPUT, ("too many digits",)),
    ("situation_not_an_object", ["score", "shangrao", "{d}/list.json"], None, INPUT, ("one JSON object",)),
    ("situation_empty", ["score", "shangrao", "{d}/empty.json"], None, INPUT, ("not valid JSON",)),
    ("situation_garbage", ["score", "shangrao", "{d}/garbage.json"], None, INPUT, ("not valid JSON",)),
    ("situation_not_utf8", ["score", "shangrao", "{d}/binary.json"], None, INPUT, ("not UTF-8",)),
    ("situation_nan", ["score", "shangrao", "{d}/nan.json"], None, INPUT, ()),
    ("situation_unknown_key", ["score", "fuzhou_jiangxi", "{d}/unknown_key.json"], None, INPUT, ("unknown key",)),
    ("situation_bad_tiles", ["score", "shangrao", "{d}/bad_tiles.json"], None, INPUT, ()),
    ("situation_missing", ["score", "shangrao", "{d}/nowhere.json"], None, INPUT, ("cannot read",)),
    ("situation_a_folder", ["score", "shangrao", "{d}/afolder"], None, INPUT, ("cannot read",)),
    ("situation_json_flag", ["score", "shangrao", "{d}/deep.json", "--json"], None, INPUT, ()),
    ("no_hand", ["score", "shangrao"], None, INPUT, ("--hand",)),
    ("bad_hand", ["waits", "shangrao", "--hand", "12x"], None, INPUT, ()),
    ("bad_option", ["score", "shangrao", *HAND, "--option", "novalue"], None, INPUT, ("NAME=VALUE",)),
    ("unknown_option", ["score", "shangrao", *HAND, "--option", "nope=1"], None, INPUT, ()),
    ("seat_out_of_range", ["score", "shangrao", *HAND, "--seat", "99"], None, INPUT, ("seat",)),
    ("seat_not_a_number", ["score", "shangrao", *HAND, "--seat", "x"], None, INPUT, ("--seat",)),
    ("key_with_a_newline", ["score", "shangrao", "-"], '{"a\\nb": 1}', INPUT, ("a\\nb",)),
    ("many_extra_arguments", ["score", "shangrao", "--hand", "1m", "--flowers", "f1", *["f1"] * 5000], None, INPUT,
     ("unrecognized arguments",)),
    # ---- specs
    ("spec_with_errors", ["check", "{d}/spec_with_errors.mj"], None, SPEC, ()),
    ("spec_not_utf8", ["check", "{d}/binary.mj"], None, SPEC, ()),
    ("spec_empty", ["check", "{d}/empty.mj"], None, SPEC, ()),
    ("spec_missing", ["show", "{d}/nowhere.mj"], None, SPEC, ()),
    ("spec_a_folder", ["check", "{d}/afolder"], None, SPEC, ()),
    ("spec_dev_zero", ["check", "/dev/zero"], None, SPEC, ()),
    ("score_spec_errors", ["score", "{d}/spec_with_errors.mj", *HAND], None, SPEC, ()),
    ("value_out_of_range", ["score", "{d}/overflow.mj", "--hand", "123m456m789p234s77z", "--win-tile", "7z",
                            "--backend", "reference", "--option", "big=" + "1" + "0" * 30], None, INPUT, ("range of values",)),
    # ---- simulate, diff, replay, bench: arguments checked before anything runs
    ("simulate_negative_games", ["simulate", "shangrao", "--games", "-1"], None, INPUT, ("--games",)),
    ("simulate_zero_games", ["simulate", "shangrao", "--games", "0"], None, INPUT, ("--games",)),
    ("simulate_zero_jobs", ["simulate", "shangrao", "--jobs", "0"], None, INPUT, ("--jobs",)),
    ("simulate_many_jobs", ["simulate", "shangrao", "--jobs", "100000"], None, INPUT, ("--jobs",)),
    ("simulate_out_a_file", ["simulate", "shangrao", "--games", "1", "--out", "{d}/afile"], None, INPUT,
     ("not a folder",)),
    ("simulate_out_impossible", ["simulate", "shangrao", "--games", "1", "--out", "{d}/afile/sub"], None, INPUT,
     ("cannot write",)),
    ("simulate_bad_agents", ["simulate", "shangrao", "--games", "1", "--agents", "x,y"], None, INPUT, ()),
    ("diff_zero_jobs", ["diff", "shangrao", "shangrao", "--jobs", "0"], None, INPUT, ("--jobs",)),
    ("diff_negative_games", ["diff", "shangrao", "shangrao", "--games", "-3"], None, INPUT, ("--games",)),
    ("diff_spec_errors", ["diff", "{d}/spec_with_errors.mj", "shangrao"], None, SPEC, ()),
    ("replay_missing", ["replay", "{d}/nowhere.jsonl"], None, INPUT, ("cannot read",)),
    ("replay_not_utf8", ["replay", "{d}/binary.json"], None, INPUT, ("not UTF-8",)),
    ("replay_garbage", ["replay", "{d}/log_garbage.jsonl"], None, INPUT, ()),
    ("replay_deep", ["replay", "{d}/log_deep.jsonl"], None, INPUT, ()),
    ("bench_out_a_folder", ["bench", "shangrao", "--out", "{d}/afolder"], None, INPUT, ("is a folder",)),
    ("bench_out_impossible", ["bench", "shangrao", "--out", "{d}/afile/x.json"], None, INPUT, ("not a folder",)),
    ("bench_zero_repeats", ["bench", "--repeats", "0"], None, INPUT, ("--repeats",)),
    # ---- the command line itself
    ("no_command", [], None, INPUT, ("COMMAND",)),
    ("unknown_command", ["frobnicate"], None, INPUT, ("frobnicate",)),
    ("unknown_flag", ["check", "shangrao", "--frob"], None, INPUT, ("--frob",)),
]


@pytest.mark.parametrize("name,argv,stdin,code,fragments", CASES, ids=[c[0] for c in CASES])
def test_cli_case(name, argv, stdin, code, fragments, files):
    ran = cli(*[a.replace("{d}", str(files)) for a in argv], code=code, stdin=stdin, limit=30)
    if "--json" in argv:
        assert json.loads(ran.out)["ok"] is False and not ran.err
    elif code == INPUT:
        assert len(one_error_line(ran, *fragments)) < 1500
    assert ran.seconds < 30


@pytest.mark.parametrize("argv", [["check", "/etc/passwd"], ["show", "{d}/secret"], ["replay", "{d}/scenario.json"],
                                  ["replay", "{d}/log.jsonl"]])
def test_a_file_that_is_not_a_spec_is_never_quoted(argv, files):
    """Named on the command line, in a scenario or in a log header: a file that does not begin with `variant`
    (and is not a .mj file) is refused without a line of it."""
    (files / "secret").write_text("root:TOP-SECRET\n", encoding="utf-8")
    (files / "scenario.json").write_text(json.dumps({"variant": str(files / "secret"), "hands": []}),
                                         encoding="utf-8")
    (files / "log.jsonl").write_text(json.dumps({"log": "mjrules-hand", "variant": str(files / "secret")}) + "\n",
                                     encoding="utf-8")
    ran = cli(*[a.replace("{d}", str(files)) for a in argv], code=SPEC)
    assert "error[E007]" in ran.text and "root:" not in ran.text and "SECRET" not in ran.text


def test_unknown_backend_variable():
    ran = cli("score", "shangrao", *HAND, code=INPUT, env={"MJRULES_BACKEND": "fast"})
    one_error_line(ran, "MJRULES_BACKEND")


def test_many_spec_errors_are_capped_and_fast(tmp_path):
    """4,000 unknown names: each error with its caret once took a 'did you mean' over every name (64 s)."""
    text = spec_text("1").replace("  score {\n", "  score {\n" + "".join(
        f"    define d{i} = max(u{i}a, u{i}b, u{i}c, u{i}d) + 1\n" for i in range(1000)))
    p = tmp_path / "many.mj"
    p.write_text(text, encoding="utf-8")
    ran = cli("check", str(p), code=SPEC, limit=30)
    assert ran.err.count("error[E015]") == 50 and "3950 more errors not shown (4000 in all" in ran.err
    ran = cli("check", str(p), "--json", code=SPEC, limit=30)
    assert len(json.loads(ran.out)[0]["errors"]) == 4000


def test_hostile_constants_are_refused_when_checked(tmp_path):
    """`9 ^ 9 ^ 9 ^ 9` checked and built, then `score` never returned; `1 / 0` checked and scored 0."""
    for value, code in (("9 ^ 9 ^ 9 ^ 9", "E039"), ("2 ^ 99999999", "E039"), ("1 / 0", "E038")):
        p = tmp_path / "c.mj"
        p.write_text(spec_text(value), encoding="utf-8")
        for cmd in (["check", str(p)], ["score", str(p), "--hand", "123m456m789p234s77z", "--win-tile", "7z"]):
            ran = cli(*cmd, code=SPEC, limit=30)
            assert f"error[{code}]" in ran.err and "4300" not in ran.err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_interrupt_exits_130_without_a_traceback(jobs):
    """Ctrl-C: one line and exit 130, also with worker processes (they leave the interrupt to the parent)."""
    p = subprocess.Popen([sys.executable, "-m", "mjrules.cli.main", "simulate", "shangrao", "--games", "10000000",
                          "--quiet", "--jobs", jobs], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={k: v for k, v in os.environ.items() if k != "MJRULES_BACKEND"})
    time.sleep(3)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == INTERRUPT, err[-2000:]
    assert b"Traceback" not in out + err and err.decode().strip() == "mjrules: interrupted"


def test_oracle_is_fine():
    """The spec the hostile variants start from checks."""
    cli("check", str(ORACLE), code=0)
