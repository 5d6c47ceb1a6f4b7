"""`simulate --ray`: seeded hands split across the workers of a local Ray (started here) give exactly the numbers
and the logs of a local run; without Ray, the option says in one line how to install it."""
from __future__ import annotations

import contextlib
import io
import json
import sys

import pytest
from mjrules.cli import main
from mjrules.game.simulate import simulate

TIMING = ("seconds", "hands_per_second")


def _numbers(summary):
    return {k: x for k, x in summary.items() if k not in TIMING}


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.parametrize(("variant", "agents", "games"), [
    ("shangrao", ["greedy", "random", "random", "random"], 150),
    ("sichuan_xuezhan", ["random"] * 4, 100),
])
def test_ray_gives_the_numbers_and_logs_of_a_local_run(local_ray, tmp_path, variant, agents, games):
    here = simulate(variant, games, seed=7, agents=agents, out=tmp_path / "local")
    there = simulate(variant, games, seed=7, agents=agents, out=tmp_path / "ray", ray=True)
    assert _numbers(there) == _numbers(here)
    assert (tmp_path / "ray" / "logs.jsonl").read_bytes() == (tmp_path / "local" / "logs.jsonl").read_bytes()
    two = simulate(variant, games, seed=7, agents=agents, jobs=2)
    assert _numbers(two) == _numbers(here)


def test_the_command_line_runs_on_ray(local_ray):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["simulate", "fuzhou_fujian", "--games", "40", "--seed", "3", "--ray", "--json"])
    assert code == 0
    got = json.loads(buf.getvalue())
    assert _numbers(got) == _numbers(simulate("fuzhou_fujian", 40, seed=3))


def test_without_ray_the_option_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)   # `import ray` fails, as where it is not installed
    assert main(["simulate", "shangrao", "--games", "5", "--ray", "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "pip install 'mjrules[ray]'" in err and err.startswith("mjrules: error:")
