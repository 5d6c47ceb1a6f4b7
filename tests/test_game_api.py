"""The game's step API on both backends: action ids and readable actions, observations, copies and
serialisation, agents of every kind; and the one source of the rules of play, compiled and interpreted."""
from __future__ import annotations

import importlib.util
import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
from mjrules.game import (
    N_ACTIONS,
    Game,
    IllegalAction,
    RandomAgent,
    describe_action,
    log_lines,
    play_hand,
    replay_lines,
    run,
    state,
)

SHIPPED = ["shangrao", "fuzhou_jiangxi", "fuzhou_fujian"]


def _play_some(g: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if g.over:
            return
        g.step(rng.choice(g.legal_ids()))


@pytest.mark.parametrize("variant", SHIPPED)
def test_ids_and_readable_actions_name_each_other(load, variant):
    eng = load(variant)
    for seed in range(6):
        g = eng.new_game(seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        while not g.over:
            seat = g.to_act
            ids = g.legal_ids()
            assert ids and all(0 <= a < N_ACTIONS for a in ids) and len(set(ids)) == len(ids)
            acts = g.legal_actions()
            assert [g.action_id(a, seat) for a in acts] == ids
            assert [g.action_dict(a, seat) for a in ids] == acts
            assert list(np.flatnonzero(g.action_mask())) == sorted(ids)
            pick = rng.randrange(len(ids))
            if rng.random() < 0.5:
                g.step(ids[pick])
            else:
                g.act(seat, acts[pick])
        assert sum(g.outcome["payments"].values()) == 0


@pytest.mark.parametrize("variant", SHIPPED)
def test_observation_is_what_the_seat_may_see(load, variant):
    eng = load(variant)
    g = eng.new_game(seed=3)
    rng = random.Random(3)
    while not g.over:
        for seat in range(eng.variant.players):
            o = g.observe(seat)
            assert o["hand"].dtype == np.int8 and o["hand"].shape == (42,)
            assert [k for k in range(42) for _ in range(o["hand"][k])] == g.hand(seat)
            assert o["melds"].shape == o["discards"].shape == o["flowers"].shape == (eng.variant.players, 42)
            assert o["melds"][0].sum() == sum(len(m.tiles) for m in g.seats[seat].melds)
            assert o["legal"].shape == (N_ACTIONS,) and list(np.flatnonzero(o["legal"])) == sorted(g.legal_ids(seat))
            assert o["facts"][0] == 0 and o["facts"][1] == (g.dealer - seat) % eng.variant.players
            assert (o["wild"].sum() == 1) == (g.wild >= 0)
            view = g.view(seat)
            assert len(view["concealed"]) == o["hand"].sum()
        g.step(rng.choice(g.legal_ids()))


@pytest.mark.parametrize("variant", SHIPPED)
def test_a_copy_is_independent_and_plays_the_same(load, variant):
    eng = load(variant)
    for seed in range(4):
        g = eng.new_game(seed=seed)
        rng = random.Random(seed)
        _play_some(g, rng, 25)
        c = g.copy()
        assert c.to_state() == g.to_state()
        before = g.to_state()
        _play_some(c, random.Random(99), 40)  # the copy moves on; the original does not
        assert g.to_state() == before
        c = g.copy()
        r1, r2 = random.Random(seed + 7), random.Random(seed + 7)
        while not g.over:
            g.step(r1.choice(g.legal_ids()))
            c.step(r2.choice(c.legal_ids()))
        assert c.events == g.events and c.outcome == g.outcome


@pytest.mark.parametrize("variant", SHIPPED)
def test_a_state_restores_to_an_identical_game(load, variant):
    eng = load(variant)
    for seed in range(4):
        g = eng.new_game(seed=seed, dealer=1, dealer_streak=2)
        rng = random.Random(seed)
        _play_some(g, rng, 15 + 10 * seed)
        data = json.loads(json.dumps(g.to_state()))
        h = Game.from_state(eng, data)
        assert h.to_state() == g.to_state()
        assert h.legal_ids() == g.legal_ids() and h.pending() == g.pending()
        r1, r2 = random.Random(seed), random.Random(seed)
        while not g.over:
            g.step(r1.choice(g.legal_ids()))
            h.step(r2.choice(h.legal_ids()))
        assert h.events == g.events and h.outcome == g.outcome


def test_a_state_of_another_spec_is_refused(load):
    g = load("shangrao").new_game(seed=1)
    with pytest.raises(ValueError, match="another spec"):
        Game.from_state(load("fuzhou_jiangxi"), g.to_state())
    with pytest.raises(ValueError, match="not a game state"):
        Game.from_state(load("shangrao"), {"state": "something"})
    bad = g.to_state()
    del bad["seats"]
    with pytest.raises(ValueError, match="malformed"):
        Game.from_state(load("shangrao"), bad)


class _Uniform:
    """A trivial agent written by a user: uniform over the legal ids, with its own generator."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def act(self, game, seat):
        return self.rng.choice(game.legal_ids(seat))


class _OldStyle:
    """An agent of the older interface: the view and the legal actions as dicts."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, view, legal):
        assert view["seat"] in range(4)
        return self.rng.choice(legal)


@pytest.mark.parametrize("variant", SHIPPED)
def test_any_agent_plays_through_the_step_api(load, variant):
    eng = load(variant)
    for seed in range(5):
        agents = [_Uniform(seed), _OldStyle(seed), RandomAgent(seed), "greedy"]
        g = play_hand(eng, agents, seed=seed)
        assert g.over and sum(g.outcome["payments"].values()) == 0
        assert g.agent_names == ["_Uniform", "_OldStyle", "RandomAgent", "greedy"]


def test_agents_must_answer_legally(load):
    class Cheat:
        def act(self, game, seat):
            return 10_000

    g = load("fuzhou_jiangxi").new_game(seed=2)
    with pytest.raises(IllegalAction, match="not legal"):
        run(g, [Cheat()] * 4)


def test_numpy_integers_are_action_ids(load):
    g = load("shangrao").new_game(seed=4)
    a = np.int64(g.legal_ids()[0])
    h = g.copy()
    g.step(a)
    h.step(int(a))
    assert g.to_state() == h.to_state()


def test_describe_action_covers_every_id():
    kinds = set()
    for a in range(N_ACTIONS):
        d = describe_action(a, 5 if 85 <= a <= 87 else 1 if 42 <= a < 84 else -1)
        kinds.add(d["type"])
    assert kinds == {"discard", "kong", "pon", "chi", "win", "pass", "declare_ready", "rob_gold", "select", "choose",
                     "abort"}
    with pytest.raises(IllegalAction):
        describe_action(N_ACTIONS, -1)


# The compiled modules of play, in the order they import one another; interpreted, they are loaded from their
# source into a package of their own beside mjrules.game (the other modules of mjrules.game, plain Python or taking
# the game as any object, are shared).
PLAY_SOURCES = ("rng", "seat", "rules", "state", "agents")


def _interpreted_play():
    """mjrules/game's compiled modules of play run by the interpreter, beside the compiled ones the package
    imports: a module named `mjrules._interpreted_game` whose `state`, `agents`, ... are their .py sources."""
    import sys
    import types

    import mjrules.game as game

    name = "mjrules._interpreted_game"
    if name in sys.modules:
        return sys.modules[name]
    folder = Path(game.__file__).parent
    pkg = types.ModuleType(name)
    pkg.__path__ = []   # (nothing found there but what is put in sys.modules below)
    sys.modules[name] = pkg
    for shared in ("actions", "events", "observe", "phases", "serial", "settle"):
        sys.modules[f"{name}.{shared}"] = importlib.import_module(f"mjrules.game.{shared}")
    for mod_name in PLAY_SOURCES:
        spec = importlib.util.spec_from_file_location(f"{name}.{mod_name}", folder / f"{mod_name}.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
        setattr(pkg, mod_name, mod)
    return pkg


def test_the_enums_of_the_pxd_are_the_source_values():
    """Compiled, the constants are state.pxd's C enums; interpreted, state.py's: they must agree."""
    here = Path(state.__file__)
    src = here.with_name("state.py").read_text(encoding="utf-8")
    block = src[src.index("if not cython.compiled:"):src.index("SOURCES =")]
    values = dict(re.findall(r"^\s+([A-Z_0-9]+) = (\d+)", block, re.MULTILINE))      # the state machine's own
    public = here.with_name("actions.py").read_text(encoding="utf-8")                  # the action ids and phases
    values.update(re.findall(r"^([A-Z_0-9]+) = (\d+)", public, re.MULTILINE))
    pxd = here.with_name("state.pxd").read_text(encoding="utf-8")
    enum = pxd[pxd.index("cpdef enum:"):pxd.index("\ncdef class")]
    assert dict(re.findall(r"^\s+([A-Z_0-9]+) = (\d+)", enum, re.MULTILINE)) == values
    assert len(values) == 31
    for name, value in values.items():
        assert getattr(state, name) == int(value), name


@pytest.mark.parametrize("variant", SHIPPED)
def test_compiled_and_interpreted_play_the_same_hands(variant):
    """The rules of play are one source: compiled (the package's) and interpreted, the same games."""
    import mjrules

    from mjrules.game import agents, seat

    py = _interpreted_play()
    assert not py.state.cython.compiled
    if not state.__file__.endswith(".py"):
        assert py.state.Game is not state.Game and py.seat.Seat is not seat.Seat
    eng = mjrules.load(variant)
    for seed in range(8):
        a = state.Game(eng, seed=seed, dealer=seed % 4)
        eng.__dict__.pop("_game_rules", None)   # (the engine keeps the Rules it made: these are the interpreted ones)
        b = py.state.Game(eng, seed=seed, dealer=seed % 4)
        eng.__dict__.pop("_game_rules", None)
        assert type(b.seats[0]) is py.seat.Seat and type(b.r) is py.rules.Rules
        ra, rb = agents.RandomAgent(seed), py.agents.RandomAgent(seed)
        agents.run(a, [ra] * 4)
        py.agents.run(b, [rb] * 4)
        assert a.events == b.events and a.outcome == b.outcome


def test_the_generator_is_splitmix64():
    """The game's numbers: SplitMix64 from a seed folded into 64 bits (the reference values of the algorithm for
    state 0 are 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, ...)."""
    from mjrules.game.rng import Rng

    r = Rng(0)
    r.state = 0
    assert [r.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    for seed in (0, 1, -1, 2**64, 10**30, -(10**30)):
        xs = [Rng(seed).below(1000) for _ in range(3)]
        assert xs == [Rng(seed).below(1000) for _ in range(3)]
    assert Rng(1).next64() != Rng(-1).next64() != Rng(2**64 + 1).next64()
    counts = [0] * 6
    r = Rng(5)
    for _ in range(60_000):
        counts[r.below(6)] += 1
    assert all(9_000 < c < 11_000 for c in counts)


def test_logs_name_their_spec(load, tmp_path):
    from mjrules.game.play import log_spec

    g = play_hand(load("shangrao"), seed=1)
    head = json.loads(log_lines(g)[0])
    assert head["variant"] == "shangrao" and log_spec(head) == "shangrao"
    assert log_spec({"variant": "mine", "spec": "/x/mine.mj"}) == "/x/mine.mj"


@pytest.mark.parametrize("key,value", [("agents", ["greedy"] * 4), ("seed", 6), ("dealer", 2), ("dealer_streak", 3)])
def test_replay_verifies_what_the_header_says(load, key, value):
    """A hand of built-in agents is played again by them: a header whose agents, seed, dealer or streak were
    changed is not the logged hand (options are played as the header says: an option that changes the hand shows
    as the first event that differs)."""
    eng = load("shangrao")
    lines = log_lines(play_hand(eng, ["random", "greedy", "random", "greedy"], seed=5))
    assert replay_lines(eng, lines)["identical"]
    head = json.loads(lines[0])
    head[key] = value
    rep = replay_lines(eng, [json.dumps(head)] + lines[1:])
    assert not rep["identical"] and isinstance(rep["line"], int) and rep["line"] >= 1, rep


def _public_fields(pxd: str, cls: str) -> set[str]:
    """The fields a class of a .pxd declares `cdef public`."""
    here = Path(state.__file__).with_name(pxd).read_text(encoding="utf-8")
    body = here[here.index(f"cdef class {cls}:"):]
    body = body[:body.index("\n\n")]
    out: set[str] = set()
    for line in body.splitlines():
        m = re.match(r"\s+cdef public [\w ]+? (\w+(?:, \w+)*)$", line)
        if m:
            out.update(m.group(1).split(", "))
    return out


def test_every_field_of_a_game_is_copied_and_saved():
    """Game.copy, to_state and from_state name a game's fields once (serial's lists, seat's SEAT_FIELDS): every
    field the state machine declares is in them, or is made by deal_hand from the rules and the seed."""
    from mjrules.game import seat, serial

    made_by_deal = {"r", "engine", "v", "n", "ret_cache", "_ev_cache", "abort_env", "abort_seen"}   # (caches)
    named = set(serial.SCALARS + serial.LISTS + serial.CONTAINERS)
    assert len(named) == len(serial.SCALARS + serial.LISTS + serial.CONTAINERS)
    assert _public_fields("state.pxd", "Game") == named | made_by_deal
    assert _public_fields("seat.pxd", "Seat") == set(seat.SEAT_FIELDS)


@pytest.mark.parametrize("variant", SHIPPED)
def test_a_copy_and_a_saved_state_play_on_alike(load, variant):
    """Mid-hand, a copy and a game restored from its saved state have the original's legal actions and future."""
    eng = load(variant)
    rng = random.Random(3)
    g = Game(eng, seed=5)
    _play_some(g, rng, 30)
    copies = [g.copy(), Game.from_state(eng, json.loads(json.dumps(g.to_state())))]
    for c in copies:
        assert c.to_state() == g.to_state()
    while not g.over:
        ids = g.legal_ids()
        assert all(c.legal_ids() == ids for c in copies)
        a = ids[rng.randrange(len(ids))]
        for x in [g] + copies:
            x.step(a)
    assert all(c.events == g.events and c.outcome == g.outcome for c in copies)


def _shipped() -> list[str]:
    from mjrules.compiler import shipped_names

    return list(shipped_names())


@pytest.mark.parametrize("variant", _shipped())
def test_a_finished_game_is_freed_without_the_garbage_collector(variant):
    """A game holds nothing that holds it once it is over (a cycle would leave every hand to the garbage collector,
    whose passes over a hand's lists and tuples cost a built-in riichi hand a tenth of its time)."""
    import gc

    import mjrules

    eng = mjrules.load(variant, backend="native")
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for seed in range(6):
            play_hand(eng, ["random"], seed=seed)
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if type(o).__name__ in ("Game", "Seat", "GameEnv")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []
