"""The C game loop (runtime/_fastgame.pxi, runtime/fastplay.py) plays exactly the hands game.py plays.

`play_hand` with agent names ("random") goes through the C loop; with RandomAgent objects it goes through
game.py alone. Both must give the same events and the same outcome for every seed, dealer, streak and option
set, whatever step the C loop hands the game over at.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from conftest import engine_for

SHIPPED = ["shangrao", "fuzhou_jiangxi", "fuzhou_fujian"]
# option sets that change what the loop decides: claims, blocked wins after a pass, retention, winners
OPTIONS = {
    "shangrao": [None, {"single_dihu_winner": False, "kong_points": True}],
    "fuzhou_jiangxi": [None, {"honour_chows": True, "no_ron_after_pass_in_round": True,
                              "baoting_allow_concealed_kong_keeping_waits": True}],
    "fuzhou_fujian": [None, {"retention_includes_indicator": True, "gold_discard_tsumo_only": False}],
}


def _pair(engine, seed: int, dealer: int, streak: int, options, kinds=None):
    from mjrules.agents import make_agent
    from mjrules.play import play_hand

    n = engine.variant.players
    kinds = kinds or ["random"] * n
    fast = play_hand(engine, kinds, seed=seed, dealer=dealer, dealer_streak=streak, options=options)
    slow = play_hand(engine, [make_agent(a, engine.variant, seed * 31 + i) for i, a in enumerate(kinds)], seed=seed,
                     dealer=dealer, dealer_streak=streak, options=options)
    return fast, slow


@pytest.mark.parametrize("seed", [0, 1, 7, 2**32 + 5, 2**70 + 3, -12345, 10**30])
def test_twister_matches_random(seed):
    from mjrules import _core

    seed_words = _core.seed_words
    a, words = abs(seed), []
    while a:
        words.append(a & 0xFFFFFFFF)
        a >>= 32
    assert seed_words(seed) == (tuple(words) or (0,))
    r = random.Random(seed)
    assert _core.mt_sample(seed_words(seed), 1500) == [r.getrandbits(32) for _ in range(1500)]
    r = random.Random(seed)
    for n in (1, 2, 6, 37, 136, 1 << 20):
        assert _core.mt_sample(seed_words(seed), 50, n) == [r._randbelow(n) for _ in range(50)], n
        r = random.Random(seed)


@pytest.mark.parametrize("seeds", [[0, 1, 2, 3, 4], [9] * 9, [2**32 + 5, 2**40, 2**63 - 1], [10**30, 10**30 + 7]])
def test_twisters_seeded_together_match_random(seeds):
    """The C loop seeds the game's and the seats' generators in lockstep (keys of one length)."""
    from mjrules import _core

    got = _core.mt_sample_many([list(_core.seed_words(s)) for s in seeds], 700)
    assert got == [[r.getrandbits(32) for _ in range(700)] for r in map(random.Random, seeds)]


@pytest.mark.parametrize("variant", SHIPPED)
@pytest.mark.parametrize("opt", [0, 1])
def test_fast_hands_equal_python_hands(variant, opt, slow):
    from mjrules import fastplay

    eng = engine_for(variant, "native")
    options = OPTIONS[variant][opt]
    assert fastplay.plan_for(eng, options) is not None, "the shipped variants all play in the C loop"
    entries: Counter[int] = Counter()
    adopt = fastplay._adopt  # a draw the memo settles is adopted when its events are read

    def spy(g, plan, seed, dealer, streak, st, entry):
        entries[entry] += 1
        return adopt(g, plan, seed, dealer, streak, st, entry)

    fastplay._adopt = spy
    try:
        for seed in range(400 if slow else 120):
            fast, py = _pair(eng, seed, seed % 4, seed % 3, options)
            assert fast.events == py.events, f"seed {seed}: the events differ"
            assert fast.outcome == py.outcome, f"seed {seed}: the outcome differs"
            assert fast.invariant_errors() == []
    finally:
        fastplay._adopt = adopt
    # the end of the wall and wins chosen in the loop are handed over in every variant
    assert entries["draw_game"] > 0 and entries["turn_win"] + entries["claims"] > 0, dict(entries)


def test_kept_facts_match_rebuilt_facts():
    """Each seat's facts are kept up to date tile by tile; rebuilt from scratch they must be identical."""
    from mjrules.fastplay import plan_for

    for variant in SHIPPED:
        table = plan_for(engine_for(variant, "native"), None).table
        table.verify, table.stale = True, 0
        try:
            for seed in range(60):
                table.play(seed, seed % 4, 0, [seed * 31 + i for i in range(4)])
        finally:
            table.verify = False
        assert table.stale == 0, variant


def test_events_are_built_when_read():
    from mjrules.play import log_lines, play_hand

    eng = engine_for("shangrao", "native")
    g = play_hand(eng, seed=3)
    assert g._compact is not None  # nothing built yet
    n = g.decision_count()
    events = g.events
    assert g._compact is None and n == sum(1 for e in events if e["type"] == "action") > 0
    assert events[0]["type"] == "start" and events[-1]["type"] == "end"
    assert g.events is events and len(log_lines(g)) == len(events) + 1


@pytest.mark.parametrize("variant", SHIPPED)
def test_fast_hands_replay(variant):
    from mjrules.play import log_lines, play_hand, replay_lines

    eng = engine_for(variant, "native")
    for seed in range(5):
        g = play_hand(eng, seed=seed, dealer=seed % 4)
        assert replay_lines(eng, log_lines(g))["identical"]


def test_other_agents_and_reference_use_game_py():
    from mjrules import fastplay

    assert fastplay.plan_for(engine_for("shangrao", "reference"), None) is None
    assert fastplay.plan_for(engine_for("shangrao", "native"), {"kong_points": [1]}) is None  # unhashable


@pytest.mark.parametrize("variant", SHIPPED)
def test_remembered_draw_settlement_is_the_settlement(variant):
    """Draws are settled from a memo keyed by all the settlement can read; recomputing gives the same."""
    from mjrules.gamefacts import rotation, settle_hand
    from mjrules.play import play_hand

    eng = engine_for(variant, "native")
    draws = 0
    for seed in range(80):
        g = play_hand(eng, seed=seed, dealer=seed % 4, dealer_streak=seed % 2)
        if g.winners:
            continue
        draws += 1
        net, ledger = settle_hand(g)
        nxt, streak = rotation(g)
        o = g.outcome
        assert o["payments"] == {str(p): v for p, v in sorted(net.items())} and o["ledger"] == ledger
        assert (o["next_dealer"], o["next_streak"]) == (nxt, streak)
    assert draws > 20


@pytest.mark.parametrize("variant", SHIPPED)
def test_fast_greedy_hands_equal_python_hands(variant, slow):
    """Greedy seats decide in C exactly as GreedyAgent does (estimates, ties, its random tie-break)."""
    from mjrules import fastplay

    eng = engine_for(variant, "native")
    assert fastplay.plan_for(eng, None).table.greedy_ok
    for seed in range(40 if slow else 12):
        kinds = ["greedy", "greedy", "random", "random"] if seed % 2 else ["greedy"] * 4
        fast, py = _pair(eng, seed, seed % 4, 0, None, kinds)
        assert fast.events == py.events, f"seed {seed}: the events differ"
        assert fast.outcome == py.outcome, f"seed {seed}: the outcome differs"


@pytest.mark.parametrize("variant", SHIPPED)
def test_greedy_estimate_matches_python(variant):
    """The C estimate is GreedyAgent.estimate on random hands, with and without melds and wilds."""
    from mjrules.agents import GreedyAgent
    from mjrules.fastplay import plan_for

    eng = engine_for(variant, "native")
    v = eng.variant
    table = plan_for(eng, None).table
    agent = GreedyAgent(v, 0)
    rng = random.Random(5)
    kinds = [k for k in v.tiles.playable if k < 34]
    for i in range(1500):
        melds = rng.choice([0, 0, 0, 1, 2])
        hand = rng.sample([k for k in kinds for _ in range(4)], v.win_size - 1 - 3 * melds + rng.randint(0, 1))
        wild = rng.choice(kinds) if v.wild is not None and i % 2 else -1
        counts = [hand.count(k) for k in range(42)]
        assert table.greedy_estimate(counts, melds, wild) == agent._estimate(hand, melds, None if wild < 0 else wild), \
            (hand, melds, wild)
    assert table.greedy_errors == 0


def test_threads_share_a_table_safely():
    """Hands played from several threads at once on one engine are the hands played one after another."""
    from concurrent.futures import ThreadPoolExecutor

    from mjrules.play import play_hand

    eng = engine_for("fuzhou_fujian", "native")  # its retention calls back into Python mid-hand
    seeds = list(range(60))
    alone = [play_hand(eng, seed=s).outcome for s in seeds]
    with ThreadPoolExecutor(4) as ex:
        together = list(ex.map(lambda s: play_hand(eng, seed=s).outcome, seeds))
    assert together == alone


def test_robbed_golds_equal_python_hands():
    """抢金 is offered and answered in C; the hands where a gold is robbed (found by the C loop's hand-over
    step) and the hands around them are game.py's hands."""
    from mjrules.fastplay import plan_for

    eng = engine_for("fuzhou_fujian", "native")
    table = plan_for(eng, None).table
    robbed = [s for s in range(600) if table.play(s, s % 4, 0, [s * 31 + i for i in range(4)])[0] == "rob_gold"]
    assert robbed, "some of these hands rob the gold"
    for seed in robbed[:6]:
        for s in (seed, seed + 1):
            fast, py = _pair(eng, s, s % 4, 0, None)
            assert fast.events == py.events and fast.outcome == py.outcome, s


@pytest.mark.parametrize("variant", SHIPPED)
@pytest.mark.parametrize("first", ["outcome", "events", "seats", "view", "decisions"])
def test_draw_built_lazily_is_the_eager_game(variant, first):
    """A draw the memo settles comes back as a DrawnHand; whatever is read first, it is the Game that
    adopt + _draw_game builds (state, events, outcome, views), and it fails on a missing attribute as a Game."""
    from mjrules import fastplay
    from mjrules.play import log_lines, play_hand

    eng = engine_for(variant, "native")
    plan = fastplay.plan_for(eng, None)
    lazy_seen = 0
    for seed in range(40):
        g = play_hand(eng, ["random"] * 4, seed=seed, dealer=seed % 4, dealer_streak=seed % 2)
        with plan.lock:
            entry, args, st = plan.table.play(seed, seed % 4, seed % 2, [seed * 31 + i for i in range(4)], [])
        if entry != "draw_game":
            assert not isinstance(g, fastplay.DrawnHand)
            continue
        eager = fastplay.adopt(plan, seed, seed % 4, seed % 2, st, entry)
        eager._draw_game(plan.exhausted[args[0]])
        eager.agent_names = ["random"] * 4
        lazy_seen += type(g) is fastplay.DrawnHand
        if first == "outcome":
            assert g.outcome == eager.outcome
        elif first == "events":
            assert g.events == eager.events
        elif first == "seats":
            assert g.seats == eager.seats
        elif first == "view":
            assert [g.view(p) for p in range(4)] == [eager.view(p) for p in range(4)]
        else:
            assert g.decision_count() == eager.decision_count()
        assert g.outcome == eager.outcome and g.events == eager.events and log_lines(g) == log_lines(eager)
        assert g.decision_count() == eager.decision_count() and g.invariant_errors() == []
        assert {k: x for k, x in vars(g).items() if k != "env"} == {k: x for k, x in vars(eager).items() if k != "env"}
        with pytest.raises(AttributeError):
            g.no_such_attribute  # noqa: B018
    assert lazy_seen > 10, "most random hands end in a draw the memo settles"
