"""`mjrules bench`: a quick run's JSON has every figure the report promises (no timing assertions)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

STAT = {"median", "min", "max", "n"}


def _stat(s):
    assert set(s) == STAT and s["n"] >= 1
    assert s["min"] <= s["median"] <= s["max"]


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "bench.json"
    p = subprocess.run([sys.executable, "-m", "mjrules.cli.main", "bench", "shangrao", "--quick", "--json", "--out",
                        str(out)], check=False, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert json.loads(out.read_text(encoding="utf-8")) == data        # --out writes the same result
    assert not list(out.parent.glob("*.part"))                          # ... atomically, no leftovers
    return data


def test_top_level(quick):
    assert quick["schema"] == "mjrules-bench/1" and quick["quick"] is True
    assert list(quick["variants"]) == ["shangrao"]
    assert set(quick["targets"]) == {"win_check", "batch_check", "vs_is_agari", "waits", "evaluate",
                                     "evaluate_vs_reference", "simulate_random", "simulate_greedy", "simulate_python",
                                     "builtin_vs_riichienv", "builtin_vs_python", "import_load", "tables"}
    for when in ("start", "end"):                  # the machine's speed, to read the timings against
        _stat(quick["machine_python_add_ns"][when])
        assert quick["machine_python_add_ns"][when]["min"] > 0
    g = quick["machine_python_add_ns"]["gate"]   # every repeat was gated; a quick run never waits
    assert g["timings"] > 0 and g["probe_ns"]["n"] >= g["timings"]
    assert g["patience_s"] == 0 and g["waited"] == 0 and g["timed_again"] == 0
    assert 0 <= g["timed_slow"] <= g["timings"]
    t = quick["tables"]
    assert t["suit_tables_bytes"] == 4 * 5 ** 9 and isinstance(t["pass"], bool)
    assert t["derived_tables_bytes"] >= 2 * 8 * 5 ** 7   # the honour kinds' table: counted, not left out
    assert t["total_bytes"] == t["suit_tables_bytes"] + t["other_tables_bytes"] + t["derived_tables_bytes"]


def test_backends(quick):
    v = quick["variants"]["shangrao"]
    assert v["win_size"] == 14 and v["wild_counts"] == [0, 1, 2, 3, 4]
    for b in ("native", "reference"):
        r = v["backends"][b]
        seen = {(row["class"], row["wilds"]) for row in r["win_check"]}
        assert seen == {(c, w) for c in ("random", "near", "winning") for w in range(5)}
        for row in r["win_check"]:
            _stat(row["per_hand_us"])
            _stat(row["hands_per_s"])
            _stat(row["batch_hands_per_s"])
            assert (row["pass"] is None) == (row["batch_pass"] is None) == (b == "reference")
            if b == "native" and row["class"] == "random":
                _stat(row["batch_1_thread_200k_hands_per_s"])
                _stat(row["batch_2_threads_200k_hands_per_s"])
            if row["class"] == "winning":
                assert row["wins"] == row["hands"] > 0              # generated winning hands do win
        for key in ("waits", "waits_values", "evaluate", "evaluate_lean", "evaluate_new", "hand_value"):
            _stat(r[key]["per_hand_us"])
            assert r[key]["hands"] > 0
        for agent in ("random", "greedy", "python"):
            _stat(r["simulate"][agent]["hands_per_s"])


def test_mahjong_and_import(quick):
    v = quick["variants"]["shangrao"]
    e = v["evaluate_vs_reference"]
    for key in ("native_us", "reference_us", "ratio"):
        _stat(e[key])
    assert e["hands"] > 0 and isinstance(e["pass"], bool)
    m = v["mahjong"]
    if not _installed("mahjong"):   # the bench extra's peer: the row is skipped, saying so
        assert m == {"available": False}
    else:
        assert m["available"]
        assert set(m["classes"]) == {"random", "near", "winning"}
        for row in m["classes"].values():
            _stat(row["is_agari_us"])
            _stat(row["shanten_us"])
            assert row["speedup_vs_is_agari"] > 0 and 0 <= row["agree"] <= row["hands"]
        assert isinstance(m["classes"]["near"]["pass"], bool)
    il = v["import_load"]
    _stat(il["seconds"])
    assert il["variant"] == "shangrao" and isinstance(il["pass"], bool)


def test_render_table(quick):
    from mjrules.bench import render

    text = render(quick)
    assert "win check" in text and "lookup tables" in text
    assert ("is_agari" in text) == _installed("mahjong"), "the mahjong row, where the package is installed"
    assert ("mahjong package not installed" in text) != _installed("mahjong")
    assert "PASS" in text or "MISS" in text
    assert "machine speed (a pure-Python addition, ns)" in text
    assert "gated on the machine's speed" in text
    assert "four Python agents, step API" in text


def test_riichienv_peer(quick):
    """riichienv's RiichiEnv stepped by its RandomAgent, in the same run, where it is installed."""
    peer = quick["riichienv"]
    try:
        import riichienv  # noqa: F401
    except ImportError:
        assert peer == {"available": False}
        return
    assert peer["available"] and peer["kyoku"] > 0
    _stat(peer["kyoku_per_s"])


def test_built_in_agents_side_by_side(quick):
    """Built-in random agents, Python agents and riichienv's kyoku timed in turn: each one's rate and the built-in
    agents' two ratios, held to their targets (where riichienv is installed)."""
    s = quick["variants"]["shangrao"]["agents_side_by_side"]
    if not _installed("riichienv"):
        assert s == {"available": False}
        return
    assert s["available"] and s["hands"] > 0
    for key in ("builtin_per_s", "python_per_s", "riichienv_per_s"):
        _stat(s[key])
    for key in ("vs_riichienv", "vs_python"):
        _stat(s[key]["ratio"])
        assert isinstance(s[key]["pass"], bool)


def _installed(module):
    import importlib.util

    return importlib.util.find_spec(module) is not None


def test_environment_rows(quick):
    """The AEC and vector environments' steps per second, riichienv's environment beside them, and Ray against
    --jobs, where their packages are installed (each row skipped with {"available": False} where not)."""
    from mjrules.bench import render

    env = quick["variants"]["shangrao"]["env"]
    if not (_installed("pettingzoo") and _installed("gymnasium")):
        assert env == {"available": False}
    else:
        for key in ("aec_steps_per_s", "vector_steps_per_s", "vector_decisions_per_s"):
            _stat(env[key])
        assert env["vector_decisions_per_s"]["median"] > env["vector_steps_per_s"]["median"]   # 4 seats decide
        assert "env steps/s, AEC, one table" in render(quick)
    peer = quick["riichienv_env"]
    if _installed("riichienv"):
        _stat(peer["steps_per_s"])
        _stat(peer["encoded_steps_per_s"])
    else:
        assert peer == {"available": False}
    ray = quick["ray"]
    if _installed("ray"):
        _stat(ray["ray_hands_per_s"])
        _stat(ray["jobs_hands_per_s"])
        assert ray["hands"] > 0 and ray["start_s"] > 0 and "a local Ray" in render(quick)
    else:
        assert ray == {"available": False}
