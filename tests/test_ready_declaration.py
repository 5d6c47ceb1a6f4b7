"""A ready declaration made on one's turn with a discard, with a stake (`ready_declaration { by all with_discard;
requires ready concealed drawable N; stake = X }`), as riichi's RI-10 and RI-74 use it (specs/riichi.mj):
who may declare, which discards declare, the stake put into the pot once the discard is not won on, the pot the
next winner takes and play_match carries, the locked hand, and the facts a win reads (ready_first_turn,
ready_uninterrupted). Both back ends where a game is short; the native one on many games."""
from __future__ import annotations

from collections import Counter

import mjrules
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mjrules.compiler import SpecError, compile_text, locate
from mjrules.game import Game, make_agent, play_hand, play_match
from mjrules.game.actions import DECLARE_READY, DISCARD, KONG, PASS, PON, WIN
from mjrules.game.agents import decide
from mjrules.model.tiles import TILE_NAMES, parse_tiles

SPEC = "riichi"
K = {n: i for i, n in enumerate(TILE_NAMES)}


@pytest.fixture(scope="module")
def native():
    return mjrules.load(SPEC, backend="native")


@pytest.fixture(scope="module", params=["reference", "native"])
def engine(request):
    return mjrules.load(SPEC, backend=request.param)


def kinds(text: str) -> list[int]:
    return [t.kind for t in parse_tiles(text)]


# Seat 0 (the dealer) is ready once it lets 1z go (waits 1p 4p); seat 1 wins on 1z (a pung of the round wind);
# seat 2 may pon 6z and is far from ready; seat 3 holds nothing that calls.
HANDS = ["123m456m789m23p55s1z", "234m567p345s88s1z1z", "147m258p468s57m6z6z", "222s333s777s999s7z"]
FIRST_DRAWS = ["6z", "7z", "6z", "1p"]   # seats 1, 2, 3 draw (and let go) honours; seat 0 then draws its win


def scripted_game(engine, first_draws=FIRST_DRAWS) -> Game:
    hands = [kinds(h) for h in HANDS]
    pool = Counter({k: 4 for k in range(34)})
    for h in hands:
        pool.subtract(h)
    head = kinds("".join(first_draws))
    pool.subtract(head)
    assert min(pool.values()) >= 0
    rest = [k for k in sorted(pool) for _ in range(pool[k])]
    return Game(engine, hands=hands, wall=head + rest, indicator=K["9s"])


def play_to(g: Game, seat: int) -> None:
    """Everyone else passes their claims and discards the tile he drew, until `seat` is to act on its turn."""
    while g.to_act != seat or g.phase_name != "turn":
        ids = g.legal_ids()
        if PASS in ids:
            g.step(PASS)
        else:
            g.step(DISCARD + g.drawn if g.drawn >= 0 else ids[0])


def test_the_declaration_is_offered_and_only_ready_discards_declare(engine):
    g = scripted_game(engine)
    assert g.to_act == 0 and DECLARE_READY in g.legal_ids()
    g.step(DECLARE_READY)
    assert g.legal_ids() == [DISCARD + K["1z"]]   # only letting 1z go leaves 123m456m789m23p55s ready
    assert not g.seats[0].declared_ready          # made with the discard, not before


def test_a_declaration_whose_discard_is_won_stakes_nothing(engine):
    g = scripted_game(engine)
    g.step(DECLARE_READY)
    g.step(DISCARD + K["1z"])
    assert g.to_act == 1 and WIN in g.legal_ids()
    g.step(WIN)
    assert g.over and [w["seat"] for w in g.outcome["winners"]] == [1]
    assert not any(e["type"] == "stake" for e in g.events)
    assert g.outcome["pot"] == 0 and sum(g.outcome["payments"].values()) == 0


def test_a_standing_declaration_stakes_and_its_winner_takes_the_pot(engine):
    g = scripted_game(engine)
    g.step(DECLARE_READY)
    g.step(DISCARD + K["1z"])
    g.step(PASS)                                   # seat 1 lets the declaration's discard go
    assert [e for e in g.events if e["type"] == "stake"] == [{"type": "stake", "seat": 0, "amount": 1000, "pot": 1000}]
    assert g.seats[0].declared_ready and g.pot == 1000
    play_to(g, 0)
    assert g.drawn == K["1p"] and g.legal_ids() == [WIN, DISCARD + K["1p"]]   # locked: win, or let the draw go
    g.step(WIN)
    w = g.outcome["winners"][0]
    fans = {name for name, _ in w["fans"]}
    # declared on the dealer's first discard before any call (double riichi), won before its next discard with no
    # call between (ippatsu)
    assert {"ダブル立直", "一発", "門前清自摸和"} <= fans and "立直" not in fans
    assert g.outcome["pot"] == 0
    stake = [e for e in g.outcome["ledger"] if e["to"] is None]
    take = [e for e in g.outcome["ledger"] if e["from"] is None]
    assert [(e["from"], e["amount"]) for e in stake] == [(0, 1000)] and [(e["to"], e["amount"]) for e in take] == [(0, 1000)]
    assert sum(g.outcome["payments"].values()) == 0   # the stake went in and came back out this hand


def test_a_call_breaks_the_uninterrupted_turn(engine):
    g = scripted_game(engine, ["6z", "7z", "1p"])
    g.step(DECLARE_READY)
    g.step(DISCARD + K["1z"])
    g.step(PASS)
    assert g.seats[0].unbroken
    g.step(DISCARD + g.drawn)                      # seat 1 lets 6z go: seat 2 pons it
    assert g.to_act == 2 and PON in g.legal_ids()
    g.step(PON)
    assert not g.seats[0].unbroken
    play_to(g, 0)
    assert g.drawn == K["1p"]
    g.step(WIN)
    fans = {name for name, _ in g.outcome["winners"][0]["fans"]}
    assert "ダブル立直" in fans and "一発" not in fans


def test_a_pot_nobody_wins_is_carried_to_the_next_hand(native):
    g = scripted_game(native)
    g.step(DECLARE_READY)
    g.step(DISCARD + K["1z"])
    g.step(PASS)
    state = g.to_state()
    again = Game.from_state(native, state)
    assert again.pot == 1000
    assert [list(x) for x in again.stakes] == [list(x) for x in g.stakes] == [[0, 1000]]
    nxt = Game(native, seed=5, pot=1000)
    assert nxt.pot == 1000 and nxt.stakes == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_the_offer_is_exactly_the_hands_a_discard_leaves_ready(native, seed):
    """Every turn of greedy play: DECLARE_READY is offered exactly when the seat is undeclared, concealed, has 4
    tiles left to draw and some discard leaves it ready as declared (asked of the engine for every held kind, no
    shape distance first); after it, the legal discards are exactly those."""
    g = Game(native, seed=seed)
    agents = [make_agent("greedy", native.variant, seed + i) for i in range(4)]
    turns = 0
    while not g.over and turns < 400:
        p = g.to_act
        ids = g.legal_ids()
        if g.phase_name == "turn" and not g.seats[p].declaring:
            s = g.seats[p]
            hand = g.hand(p)
            ready_after = []
            for k in sorted(set(hand)):
                rest = list(hand)
                rest.remove(k)
                sit = g.situation_of(p, tuple(rest), tuple(s.melds), -1, "self_draw", -1, False, declared=True)
                if native.ready(sit):
                    ready_after.append(k)
            may = (not s.declared_ready and all(m.concealed for m in s.melds) and g.drawable >= 4
                   and bool(ready_after))
            assert (DECLARE_READY in ids) == may, (seed, hand, ready_after)
            if may:
                g.step(DECLARE_READY)
                assert g.legal_ids() == [DISCARD + k for k in ready_after]
                continue
            if s.declared_ready and g.drawn >= 0:
                assert set(ids) <= {WIN, DISCARD + g.drawn} | {KONG + g.drawn}
        g.act(p, decide(agents[p], g, p))
        turns += 1


@pytest.mark.parametrize("seed", range(6))
def test_a_match_keeps_every_point_and_carries_the_pot(native, seed):
    m = play_match(native, 6, ["greedy"], seed=seed)
    assert sum(m["totals"]) + m["pot"] == 0
    pot = 0
    for g in m["hands"]:
        assert sum(g.outcome["payments"].values()) == pot - g.outcome["pot"]
        pot = g.outcome["pot"]


def test_both_back_ends_play_the_same_hands():
    ref = mjrules.load(SPEC, backend="reference")
    nat = mjrules.load(SPEC, backend="native")
    for seed in range(3):
        a = play_hand(ref, ["greedy"], seed=seed)
        b = play_hand(nat, ["greedy"], seed=seed)
        assert a.events == b.events


def with_declaration(body: str) -> str:
    """The riichi spec with its ready_declaration block's body replaced."""
    import re

    text = locate(SPEC).read_text(encoding="utf-8")
    return re.sub(r"(\n  ready_declaration \{[^\n]*\n).*?(\n  \}\n)", lambda m: m.group(1) + "    " + body + m.group(2),
                  text, count=1, flags=re.S)


@pytest.mark.parametrize(("body", "code"), [
    ("by all before first_discard\n    stake = 1000", "E042"),
    ("by all with_discard\n    stake", "E034"),
    ("by all with_discard\n    requires drawable", "E013"),
    ("by all with_discard\n    requires ready tidy", "E013"),
    ("by all during_play", "E013"),
])
def test_bad_declarations_say_where(body, code):
    with pytest.raises(SpecError) as e:
        compile_text(with_declaration(body), SPEC)
    assert code in str(e.value)


def test_a_good_declaration_compiles():
    v = compile_text(with_declaration("by all with_discard\n    requires ready concealed drawable 4\n    stake = 1000"), SPEC)
    rd = v.ready_declaration
    assert (rd.window, rd.requires_ready, rd.requires_concealed, rd.requires_drawable) == ("with_discard", True, True, 4)
