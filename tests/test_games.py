"""Properties of whole games, over many seeded hands of every variant, on both backends: every tile is in
exactly one place after every event, hand sizes stay legal, settlements sum to zero, logs replay
identically, no game stalls, and an illegal action is refused and changes nothing."""
from __future__ import annotations

import random

import pytest
from mjrules.game import Game, GreedyAgent, IllegalAction, RandomAgent, log_lines, play_hand, replay_lines
from mjrules.game.play import MAX_DECISIONS
from strategies import SLOW

SHIPPED = ["shangrao", "fuzhou_jiangxi", "fuzhou_fujian"]
GAMES = {"native": 150, "reference": 10}
if SLOW:
    GAMES = {"native": 5000, "reference": 200}


def snapshot(g: Game):
    """Everything a refused action must leave as it was."""
    return g.to_state()


@pytest.mark.parametrize("variant", SHIPPED)
def test_seeded_games(load, backend, variant):
    eng = load(variant)
    copies = list(eng.variant.tiles.copies)
    for seed in range(GAMES[backend]):
        rng = random.Random(seed)
        agents = [GreedyAgent(eng.variant, seed + i) if rng.random() < 0.5 else RandomAgent(seed + i)
                  for i in range(eng.variant.players)]
        g = Game(eng, seed=seed, dealer=seed % eng.variant.players, dealer_streak=seed % 3)
        steps = 0
        while not g.over:
            seat = g.to_act
            g.act(seat, agents[seat].act(g, seat))
            assert g.tile_census() == copies, f"seed {seed}: a tile is lost or doubled after {g.events[-1]}"
            assert not g.invariant_errors(), (seed, g.invariant_errors())
            steps += 1
            assert steps < MAX_DECISIONS, f"seed {seed} stalls"
        pay = g.outcome["payments"]
        assert sum(pay.values()) == 0, (seed, pay)
        assert 0 <= g.outcome["next_dealer"] < eng.variant.players
        if seed % 4 == 0:
            rep = replay_lines(eng, log_lines(g))
            assert rep["identical"], (seed, rep)


@pytest.mark.parametrize("variant", SHIPPED)
def test_illegal_actions_change_nothing(load, backend, variant):
    eng = load(variant)
    for seed in range(3):
        g = Game(eng, seed=seed)
        agent = RandomAgent(seed)
        bad = [{"type": "discard", "tile": "9z"}, {"type": "fly"}, {"type": "win"}, {"type": "pon"},
               {"type": "kong", "kind": "concealed", "tile": "1m"}, "discard", {"type": "chi", "tiles": ["1m", "2m"]},
               -1, 10_000, 3.5, None, {"type": "discard"}, {"type": "discard", "tile": ["1m"]}]
        while not g.over:
            seat = g.to_act
            legal = g.legal_ids(seat)
            for a in bad + [x for x in range(100) if x not in legal][:5]:
                if isinstance(a, dict) and a in g.legal_actions(seat):
                    continue
                before = snapshot(g)
                with pytest.raises(IllegalAction):
                    g.act(seat, a)
                assert snapshot(g) == before, a
            pending = g.pending()
            other = next(s for s in range(eng.variant.players) if s not in pending)
            before = snapshot(g)
            with pytest.raises(IllegalAction, match="not to act now"):
                g.act(other, legal[0])
            assert snapshot(g) == before
            g.act(seat, agent.act(g, seat))
        with pytest.raises(IllegalAction, match="over"):
            g.act(0, {"type": "pass"})
        with pytest.raises(IllegalAction, match="over"):
            g.step(0)


def test_same_seed_same_game(load):
    eng = load("fuzhou_fujian")
    a = play_hand(eng, ["random"] * 4, seed=11)
    b = play_hand(eng, ["random"] * 4, seed=11)
    assert a.events == b.events


@pytest.mark.parametrize("variant,wall_after_deal", [("fuzhou_jiangxi", 83), ("shangrao", 83), ("fuzhou_fujian", 79)])
def test_deal_counts(load, variant, wall_after_deal):
    """JX-T01, FJ-T01: dealer 14/17, others 13/16, and the wall left after the deal (before flowers)."""
    eng = load(variant)
    g = Game(eng, seed=5, dealer=2)
    deal = next(e for e in g.events if e["type"] == "deal")
    sizes = [len(h) for h in deal["hands"]]
    assert sizes[2] == eng.variant.deal.dealer_hand and sizes.count(eng.variant.deal.hand) == 3
    assert deal["wall"] == wall_after_deal
