"""The command line against bad input, in a subprocess each: one clear line, the documented exit code (1 a spec,
2 input, 3 the native back end cannot be built, 130 interrupted), no traceback, no hang.

Once tracebacks or wrong exits: a deeply nested JSON situation (RecursionError, exit 1), a non-UTF-8 file,
`bench --out` at a folder or an impossible path (after the whole run), `simulate --games -1` (exit 0 with a
negative speed), `--jobs 0` (accepted), an unknown MJRULES_BACKEND. Once wrong (issue #61): a spec with CR-only
line ends (old Mac) was "error[E007]: the spec is empty"; a killed `simulate --out` left its hidden
`.logs.jsonl.*.tmp` behind for good (one reached 7.1 GB), and so did a SIGTERM.
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from harness import ORACLE, cli, one_error_line, spec_text
from mjrules.compiler import SpecError, compile_text

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
    oracle = ORACLE.read_text(encoding="utf-8")
    for name, nl in (("cr_only", "\r"), ("crlf", "\r\n"), ("lf", "\n")):
        (d / f"{name}.mj").write_bytes(oracle.replace("\n", nl).encode("utf-8"))
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
    ("spec_cr_only_line_ends", ["check", "{d}/cr_only.mj"], None, 0, ()),
    ("spec_crlf_line_ends", ["check", "{d}/crlf.mj"], None, 0, ()),
    ("score_spec_cr_only", ["score", "{d}/cr_only.mj", "--hand", "123m456m789p234s77z", "--win-tile", "7z"], None, 0,
     ()),
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


# ---- line ends: LF, CRLF, the old Mac's lone CR, and a mix are the same spec -------------------------------------
LINE_ENDS = {"lf": "\n", "crlf": "\r\n", "cr_only": "\r", "mixed": None}


def _with_line_ends(text: str, nl: str | None) -> str:
    if nl is not None:
        return text.replace("\n", nl)
    ends = ["\n", "\r", "\r\n"]
    return "".join(line + ends[i % 3] for i, line in enumerate(text.split("\n")))


# (name, the spec's value expression, clauses before its score block, the error code; the error is on the line
# that holds `nope`, or `(1 +`)
ERRORS_AT = [("unknown_name", "nope", "", "E015"), ("unknown_name_in_a_clause", "1", "    define d = nope\n", None),
             ("syntax", "(1 +", "", None)]


@pytest.mark.parametrize("name,value,extra,code", ERRORS_AT, ids=[c[0] for c in ERRORS_AT])
def test_line_ends_give_the_same_errors_on_the_same_lines(name, value, extra, code, tmp_path):
    """`check` of a spec with an error says the same, on the same line and column, whatever its line ends."""
    text = spec_text(value, extra)
    line = next(i for i, ln in enumerate(text.split("\n"), 1) if "nope" in ln or "(1 +" in ln)
    said = {}
    for style, nl in LINE_ENDS.items():
        p = tmp_path / f"{style}.mj"
        p.write_bytes(_with_line_ends(text, nl).encode("utf-8"))
        said[style] = cli("check", str(p), code=SPEC).err.replace(str(p), "SPEC")
    assert len(set(said.values())) == 1, said
    first = said["lf"].splitlines()[0]
    assert first.startswith(f"SPEC:{line}:") and (code is None or f"error[{code}]" in first), said["lf"]


def test_line_ends_are_one_spec_in_memory_too():
    """compile_text (and the language server's resolve_text and parse, which it goes through) on text in memory:
    a CR-only spec is its LF copy, hash and all; a lone CR in a mixed one is read as LF, and CRLF is kept as it
    is (so a CRLF spec keeps the hash it always had, and the logs written with it still replay)."""
    text = ORACLE.read_text(encoding="utf-8")
    lf = compile_text(text, "o.mj")
    cr = compile_text(text.replace("\n", "\r"), "o.mj")
    assert cr.spec_sha256 == lf.spec_sha256 and cr.name == lf.name
    mixed = _with_line_ends(text, None)
    lone_cr_read_as_lf = mixed.replace("\r\n", "\0").replace("\r", "\n").replace("\0", "\r\n")
    assert compile_text(mixed, "o.mj").spec_sha256 == sha256(lone_cr_read_as_lf)
    crlf = text.replace("\n", "\r\n")
    assert compile_text(crlf, "o.mj").spec_sha256 == sha256(crlf) and lf.spec_sha256 == sha256(text)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
    bad = spec_text("nope").replace("\n", "\r")
    with pytest.raises(SpecError) as info:
        compile_text(bad, "o.mj")
    d = info.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == ("E015", 21, 13)


def test_not_utf8_is_reported_on_its_line_whatever_the_line_ends(tmp_path):
    text = spec_text("1").replace("    value = 1\n", "    value = \udcff\n")
    for style, nl in LINE_ENDS.items():
        p = tmp_path / f"{style}.mj"
        p.write_bytes(_with_line_ends(text, nl).encode("utf-8", "surrogateescape"))
        ran = cli("check", str(p), code=SPEC)
        assert f"{p}:21:1: error[E001]" in ran.err, (style, ran.err)


# ---- simulate --out: temporary files of a run that was killed or terminated ------------------------------------
def _start_simulate(out: Path, jobs: str = "1") -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mjrules.cli.main", "simulate", "shangrao", "--games", "10000000",
                             "--quiet", "--jobs", jobs, "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={k: v for k, v in os.environ.items() if k != "MJRULES_BACKEND"})


def _temporary_files(out: Path) -> list[Path]:
    return sorted(out.glob(".*.tmp"))


def _wait_for_writing(p: subprocess.Popen, out: Path) -> Path:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        tmp = _temporary_files(out)
        if tmp and tmp[0].stat().st_size > 0:
            return tmp[0]
        assert p.poll() is None, p.communicate()
        time.sleep(0.05)
    p.kill()
    raise AssertionError("simulate --out wrote nothing in 30 s")


def test_a_killed_simulate_leaves_a_temporary_file_the_next_run_removes(tmp_path):
    out = tmp_path / "runs"
    p = _start_simulate(out)
    tmp = _wait_for_writing(p, out)
    assert tmp.name.startswith(".logs.jsonl.")
    p.kill()
    p.communicate(timeout=30)
    assert _temporary_files(out) == [tmp]   # SIGKILL: nothing can remove it then
    cli("simulate", "shangrao", "--games", "2", "--quiet", "--out", str(out), code=0)
    assert _temporary_files(out) == [] and sorted(f.name for f in out.iterdir()) == ["logs.jsonl", "summary.json"]


@pytest.mark.parametrize("sig,code,jobs", [(signal.SIGTERM, 143, "1"), (signal.SIGTERM, 143, "2"),
                                           (signal.SIGINT, INTERRUPT, "1")])
def test_a_terminated_or_interrupted_simulate_removes_its_temporary_file(sig, code, jobs, tmp_path):
    out = tmp_path / "runs"
    p = _start_simulate(out, jobs)
    _wait_for_writing(p, out)
    p.send_signal(sig)
    _, err = p.communicate(timeout=30)
    assert p.returncode == code and b"Traceback" not in err, err[-2000:]
    assert list(out.iterdir()) == []


# (name, the leftover's name, whether a live writer holds it locked, whether the next run removes it)
LEFTOVERS = [
    ("dead_writer", ".logs.jsonl.abc123.tmp", False, True),
    ("dead_writer_gzip", ".logs.jsonl.gz.abc123.tmp", False, True),
    ("dead_summary_writer", ".summary.json.abc123.tmp", False, True),
    ("live_writer", ".logs.jsonl.live01.tmp", True, False),
    ("another_output", ".notes.txt.abc123.tmp", False, False),
    ("not_a_temporary_name", "logs.jsonl.abc123.tmp", False, False),
]


@pytest.mark.parametrize("name,leftover,locked,removed", LEFTOVERS, ids=[c[0] for c in LEFTOVERS])
def test_the_next_run_removes_only_leftovers_whose_writer_is_gone(name, leftover, locked, removed, tmp_path):
    fcntl = pytest.importorskip("fcntl")
    out = tmp_path / "runs"
    out.mkdir()
    path = out / leftover
    path.write_bytes(b"x" * 1000)
    with open(path, "rb") as f:
        if locked:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)   # as a writer still running holds its file
        cli("simulate", "shangrao", "--games", "1", "--quiet", "--out", str(out), code=0)
        assert path.exists() != removed
    assert (out / "logs.jsonl").exists() and (out / "summary.json").exists()


def test_a_leftover_that_is_a_link_is_not_followed(tmp_path):
    out, target = tmp_path / "runs", tmp_path / "precious.txt"
    out.mkdir()
    target.write_text("keep me", encoding="utf-8")
    (out / ".logs.jsonl.link01.tmp").symlink_to(target)
    cli("simulate", "shangrao", "--games", "1", "--quiet", "--out", str(out), code=0)
    assert target.read_text(encoding="utf-8") == "keep me"
