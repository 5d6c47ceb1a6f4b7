"""What a simulation's summary says about who played (#62): `mjrules simulate` and `mjrules diff --games` default
to agents that play to win (greedy on every seat), take one agent's name for every seat or one per seat, name the
agents of every seat in the human summary and in --json, and say plainly, when random agents play every seat, that
random agents rarely win and how to get ones that play to win."""
from __future__ import annotations

import json
import re

import pytest
from mjrules.cli.main import DEFAULT_AGENT, main
from mjrules.game.simulate import RANDOM_NOTE, agents_note, simulate

VARIANT = "guangdong_tuidaohu"   # four random agents win 0.5% of its hands, four greedy ones 99%


def _run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def _header_agents(out: str) -> list[str]:
    """The agents the human summary's first line names, one per seat."""
    m = re.match(r"^\S+: \d+ hands, seed \d+, agents (\S+), ", out)
    assert m, out
    return m.group(1).split(",")


def _win_rate(out: str) -> float:
    return float(re.search(r"win rate ([\d.]+)%", out).group(1)) / 100


def test_the_default_agents_play_to_win_and_are_named(capsys):
    code, out = _run(capsys, "simulate", VARIANT, "--games", "30", "--quiet")
    assert code == 0 and DEFAULT_AGENT == "greedy"
    assert _header_agents(out) == ["greedy"] * 4
    assert _win_rate(out) > 0.5, "the default agents make a first summary with wins in it"
    assert "note:" not in out
    code, out = _run(capsys, "simulate", VARIANT, "--games", "30", "--json")
    s = json.loads(out)
    assert s["agents"] == ["greedy"] * 4 and s["win_rate"] > 0.5


def test_random_agents_are_named_and_the_summary_says_they_rarely_win(capsys):
    code, out = _run(capsys, "simulate", VARIANT, "--games", "30", "--quiet", "--agents", "random")
    assert code == 0 and _header_agents(out) == ["random"] * 4
    lines = out.splitlines()
    notes = [ln for ln in lines if ln.strip().startswith("note:")]
    assert len(notes) == 1 and "random agents" in notes[0] and "rarely win" in notes[0]
    assert "--agents greedy" in notes[0]
    assert lines.index(notes[0]) == 2, "the note stands under the win rate it explains"
    code, out = _run(capsys, "simulate", VARIANT, "--games", "30", "--json", "--agents", "random")
    assert json.loads(out)["agents"] == ["random"] * 4


@pytest.mark.parametrize("given", ["seeker", "greedy,random,seeker,random", "random,random,random,greedy"])
def test_one_name_for_every_seat_or_one_per_seat(capsys, given):
    names = given.split(",")
    per_seat = names * 4 if len(names) == 1 else names
    code, out = _run(capsys, "simulate", VARIANT, "--games", "12", "--quiet", "--agents", given)
    assert code == 0 and _header_agents(out) == per_seat
    assert "note:" not in out, "the note is for random agents on every seat only"
    code, out = _run(capsys, "simulate", VARIANT, "--games", "12", "--json", "--agents", given)
    assert json.loads(out)["agents"] == per_seat


def test_the_summary_file_names_the_agents(capsys, tmp_path):
    code, _ = _run(capsys, "simulate", VARIANT, "--games", "5", "--quiet", "--agents", "seeker,greedy,greedy,random",
                   "--out", str(tmp_path))
    assert code == 0
    saved = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert saved["agents"] == ["seeker", "greedy", "greedy", "random"]


def test_a_wrong_number_of_agents_says_what_to_give(capsys):
    code, out = _run(capsys, "simulate", VARIANT, "--games", "2", "--json", "--agents", "greedy,random")
    assert code == 2 and "one agent for every seat, or 4, one per seat (got 2)" in json.loads(out)["error"]


def test_the_python_default_stays_random_and_is_named():
    """simulate() keeps the fastest agents by default (benchmarks and scripts rely on it); its summary names them."""
    s = simulate(VARIANT, 10, seed=1)
    assert s["agents"] == ["random"] * 4
    assert agents_note(s["agents"]) == RANDOM_NOTE
    assert agents_note(["random", "random", "random", "greedy"]) is None and agents_note([]) is None


def test_diff_games_take_one_name_and_name_the_agents(capsys):
    code, out = _run(capsys, "diff", "fuzhou_jiangxi", "fuzhou_jiangxi", "--no-hands", "--games", "6", "--quiet",
                     "--agents", "random")
    assert code == 0
    games = out[out.index("Games: "):].splitlines()
    assert "agents random,random,random,random," in games[0]
    assert games[1].strip() == f"note: {RANDOM_NOTE}"
    code, out = _run(capsys, "diff", "fuzhou_jiangxi", "fuzhou_jiangxi", "--no-hands", "--games", "6", "--json")
    g = json.loads(out)["games"]
    assert code == 0 and g["agents"] == ["greedy"] * 4, "diff --games defaults to the agents simulate does"
    assert g["a"]["win_rate"] > 0.5


# ---- whole matches (simulate --matches) --------------------------------------------------------------------------
def test_matches_are_summarised_by_seat_and_do_not_depend_on_jobs(capsys):
    """`simulate --matches N` plays N of the spec's matches (riichi: hanchan) and summarises them per seat; the same
    numbers in one process and in two, and the same as play_match's."""
    from mjrules.game.simulate import hand_seed, simulate_matches

    code, out = _run(capsys, "simulate", "riichi", "--matches", "6", "--seed", "2", "--json")
    s = json.loads(out)
    assert code == 0 and s["matches"] == 6 and s["agents"] == ["greedy"] * 4
    assert sum(s["ended_by"].values()) == 6 and set(s["ended_by"]) <= {"length", "飛び", "和了り止め"}
    assert sum(x["mean_rank"] for x in s["seats"]) == pytest.approx(10)   # ranks 1..4 in every match
    assert sum(x["first_rate"] for x in s["seats"]) == pytest.approx(1)
    assert sum(x["mean_score"] for x in s["seats"]) <= 100_000   # (sticks left on the table go to first place)
    two = simulate_matches("riichi", 6, seed=2, agents=["greedy"], jobs=2)
    assert {k: v for k, v in two.items() if k not in ("seconds", "matches_per_second")} == \
        {k: v for k, v in s.items() if k not in ("seconds", "matches_per_second")}
    import mjrules
    from mjrules.game import play_match

    m = play_match(mjrules.load("riichi"), agents=["greedy"], seed=hand_seed(2, 0))
    first = simulate_matches("riichi", 1, seed=2, agents=["greedy"])
    assert first["hands"] == len(m["hands"]) and [x["mean_score"] for x in first["seats"]] == m["scores"]
    code, out = _run(capsys, "simulate", "riichi", "--matches", "2", "--quiet", "--option", 'match="tonpuu"')
    assert code == 0 and out.startswith("riichi: 2 matches (") and "seat 3: mean rank" in out


@pytest.mark.parametrize("extra", [["--games", "5"], ["--out", "x"], ["--compress"]])
def test_matches_refuse_what_belongs_to_hands(capsys, extra):
    code = main(["simulate", "riichi", "--matches", "2", *extra])
    err = capsys.readouterr().err
    assert code == 2 and "is for simulating hands" in err and len(err.strip().splitlines()) == 1
