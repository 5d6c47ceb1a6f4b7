"""`simulate --ray`: seeded hands split across the workers of a local Ray (started here) give exactly the numbers
and the logs of a local run; without Ray, the option says in one line how to install it."""
from __future__ import annotations

import contextlib
import io
import json
import sys

import pytest
from mjrules.cli.main import main
from mjrules.game.simulate import simulate
from optional import need

TIMING = ("seconds", "hands_per_second")


def _numbers(summary):
    return {k: x for k, x in summary.items() if k not in TIMING}


@pytest.fixture(scope="module")
def local_ray():
    ray = need("ray")
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
    assert got["agents"] == ["greedy"] * 4   # the command line's default agents
    assert _numbers(got) == _numbers(simulate("fuzhou_fujian", 40, seed=3, agents=["greedy"]))


def test_without_ray_the_option_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)   # `import ray` fails, as where it is not installed
    assert main(["simulate", "shangrao", "--games", "5", "--ray", "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "pip install 'mjrules[ray]'" in err and err.startswith("mjrules: error:")


def test_the_workers_need_no_spec_file(local_ray, tmp_path, monkeypatch):
    """A spec by path is compiled here and its IR sent to the workers: the same numbers and logs as a local run
    while the file is gone by the time the hands are dealt (a remote node need not have it)."""
    from mjrules.game import simulate as sim

    f = tmp_path / "house.mj"
    f.write_text('variant house "House" extends sichuan_xuezhan {\n  option zimo_jiafan "自摸加番" = true   # SC-11\n}\n',
                 encoding="utf-8")
    here = simulate(str(f), 60, seed=3, out=tmp_path / "local")
    records = sim._RayCluster.records

    def records_without_the_file(self, *args):
        f.unlink()
        yield from records(self, *args)

    monkeypatch.setattr(sim._RayCluster, "records", records_without_the_file)
    there = simulate(str(f), 60, seed=3, out=tmp_path / "ray", ray=True)
    assert not f.exists()
    assert _numbers(there) == _numbers(here)
    assert (tmp_path / "ray" / "logs.jsonl").read_bytes() == (tmp_path / "local" / "logs.jsonl").read_bytes()
