"""Riichi's exhaustive draw (RI-75, RI-76) as specs/riichi.mj says it with general constructs: a player is
tenpai when he declared riichi or his hand would be ready were it declared (`ready_as_declared`: no yaku needed,
waits on kinds he holds all four of not counted); the noten players pay 3000 in all to the tenpai ones, and the
dealer keeps the deal when he is tenpai. Checked on greedy games against the `mahjong` package's agari test (an
independent shape test), where it is installed."""
from __future__ import annotations

from collections import Counter

import mjrules
import pytest
from mjrules.compiler import locate
from mjrules.game import Game, play_hand
from mjrules.game.actions import PASS

SPEC = "riichi"
mahjong_agari = pytest.importorskip("mahjong.agari", reason="the `mahjong` package (extra `oracles`) is not installed")


@pytest.fixture(scope="module")
def native():
    return mjrules.load(SPEC, backend="native")


def tenpai(g, seat: int) -> bool:
    """The oracle's tenpai: declared, or some kind the player does not hold all four of completes his concealed
    tiles into a winning shape (four sets and a pair less the melds, seven different pairs, thirteen orphans)."""
    s = g.seats[seat]
    if s.declared_ready:
        return True
    c = Counter(g.hand(seat))
    held = Counter(c)
    for m in s.melds:
        held.update(m.tiles)
    agari = mahjong_agari.Agari()
    for k in range(34):
        if held[k] >= 4:
            continue
        t = [c[i] for i in range(34)]
        t[k] += 1
        if agari.is_agari(t):
            if sum(t) == 14 and not _standard(t) and any(x == 4 for x in t):
                continue   # seven "pairs" with four alike: not a winning shape (RI-12)
            return True
    return False


def _standard(t: list[int]) -> bool:
    """Four sets and a pair (or fewer sets, for a hand with melds) in the counts t."""
    t = list(t)
    for p in range(34):
        if t[p] >= 2:
            t[p] -= 2
            if _sets(t, 0):
                return True
            t[p] += 2
    return False


def _sets(t: list[int], i: int) -> bool:
    while i < 34 and t[i] == 0:
        i += 1
    if i == 34:
        return True
    if t[i] >= 3:
        t[i] -= 3
        ok = _sets(t, i)
        t[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and t[i + 1] and t[i + 2]:
        t[i] -= 1
        t[i + 1] -= 1
        t[i + 2] -= 1
        ok = _sets(t, i)
        t[i] += 1
        t[i + 1] += 1
        t[i + 2] += 1
        return ok
    return False


def test_the_exhaustive_draw_pays_noten_to_tenpai_and_keeps_a_tenpai_dealer(native):
    draws = shapes = 0
    for seed in range(120):
        g = play_hand(native, ["greedy"], seed=seed)
        o = g.outcome
        if o["winners"] or not g.wall_ended:
            continue
        draws += 1
        ready = [tenpai(g, p) for p in range(4)]
        t = sum(ready)
        want: dict[tuple[int, int], int] = {}
        if 0 < t < 4:
            for a in range(4):
                for b in range(4):
                    if not ready[a] and ready[b]:
                        want[(a, b)] = 3000 // (t * (4 - t))
        got = {(e["from"], e["to"]): e["amount"] for e in o["ledger"] if e["rule"] == "RI-75"}
        assert got == want, (seed, ready, [g.hand(p) for p in range(4)])
        shapes += t
        assert (o["next_dealer"] == g.dealer) == ready[g.dealer], seed   # RI-76
        assert o["next_streak"] == g.dealer_streak + 1                    # RI-76: every drawn hand adds a honba
    assert draws >= 10 and shapes >= 5   # the greedy games reach draws with tenpai players


def _shape_waits(g, seat: int) -> set[int]:
    """The oracle's waits of a seat now: the kinds that complete its concealed tiles into a winning shape (kinds of
    which it holds all four, melds included, are no tile it could get)."""
    s = g.seats[seat]
    c = Counter(g.hand(seat))
    held = Counter(c)
    for m in s.melds:
        held.update(m.tiles)
    agari = mahjong_agari.Agari()
    out = set()
    for k in range(34):
        if held[k] >= 4:
            continue
        t = [c[i] for i in range(34)]
        t[k] += 1
        if agari.is_agari(t) and not (sum(t) == 14 and not _standard(t) and any(x == 4 for x in t)):
            out.add(k)
    return out


def _bar_after(e: dict) -> set[int]:
    """The kinds swap-calling bars right after a pon or chi event (RI-08)."""
    from mjrules.model.tiles import parse_tiles

    k = parse_tiles(e["tile"])[0].kind
    if e["type"] == "pon":
        return {k}
    a, b = sorted(parse_tiles(t)[0].kind for t in e["tiles"])
    bar = {k}
    if k < a and b + 1 < 27 and (b + 1) // 9 == k // 9:   # k a b: the kind after b completes a b too
        bar.add(b + 1)
    if k > b and a - 1 >= 0 and (a - 1) // 9 == k // 9:   # a b k: the kind before a completes a b too
        bar.add(a - 1)
    return bar


@pytest.mark.parametrize("seed", range(12))
def test_furiten_and_swap_calling_on_played_hands(native, seed):
    """Step greedy and random agents through a hand, keeping the oracle's own account of furiten (RI-11) from the
    events: a win on a discard or an added kong is offered exactly when the hand wins with it and the seat is not
    furiten (a wait among all its discards; a wait it let go since its last discard; a wait let go after its riichi),
    and right after a pon or chi the discards are the held kinds but the barred ones (RI-08)."""
    from mjrules.game import make_agent
    from mjrules.game.actions import DISCARD, WIN
    from mjrules.game.agents import decide
    from mjrules.model.tiles import parse_tiles

    def kind(name: str) -> int:
        return parse_tiles(name)[0].kind

    g = Game(native, seed=seed)
    agents = [make_agent("greedy" if p < 2 else "random", native.variant, seed * 7 + p) for p in range(4)]
    discarded = [set() for _ in range(4)]
    temporary = [False] * 4
    riichi_furiten = [False] * 4
    seen = 0
    checked_bars = 0
    pending: tuple[int, int] | None = None   # (tile, offering seat) of the tile on offer, until it is let go
    waits_at_offer: list[set[int]] = [set()] * 4
    while not g.over:
        for e in g.events[seen:]:
            t = e["type"]
            if t == "discard":
                p = e["seat"]
                discarded[p].add(kind(e["tile"]))
                temporary[p] = False
                pending = (kind(e["tile"]), p)
                waits_at_offer = [_shape_waits(g, q) for q in range(4)]
            elif t == "kong_declared":
                pending = (kind(e["tile"]), e["seat"])
                waits_at_offer = [_shape_waits(g, q) for q in range(4)]
            elif t in ("draw", "pon", "chi", "kong") and pending is not None:
                tile, by = pending   # the tile went by: those it completed let it go
                for q in range(4):
                    if q != by and tile in waits_at_offer[q]:
                        temporary[q] = True
                        if g.seats[q].declared_ready:
                            riichi_furiten[q] = True
                pending = None
            if t in ("pon", "chi"):
                bar = _bar_after(e)
                ids = g.legal_ids()
                held = {k for k in set(g.hand(e["seat"])) if k not in bar}
                assert g.to_act == e["seat"] and {a - DISCARD for a in ids} == held, (seed, e, ids)
                checked_bars += 1
        seen = len(g.events)
        if g.phase_name in ("claims", "rob_kong"):
            tile = g.claim_tile
            for p in range(4):
                if p == g.current or (g.phase_name == "claims" and p == g.ld_seat) or p in g.answers:
                    continue
                ids = g.legal_ids(p)
                how = "discard" if g.phase_name == "claims" else "rob_kong"
                conc = tuple(sorted(g.hand(p) + [tile]))
                sit = g.situation_of(p, conc, tuple(g.seats[p].melds), tile, how, g.current if how == "rob_kong"
                                     else g.ld_seat, how == "discard" and g.ld_first)
                wins = native.evaluate(sit, explain=False)["win"]
                furiten = bool(_shape_waits(g, p) & discarded[p]) or temporary[p] or riichi_furiten[p]
                assert (WIN in ids) == (wins and not furiten), (seed, p, g.hand(p), tile, discarded[p],
                                                                  temporary[p], riichi_furiten[p])
        p = g.to_act
        g.act(p, decide(agents[p], g, p))
    assert checked_bars >= 1


# ---- furiten (RI-11), scripted -------------------------------------------------------------------------------------
# Seat 1 waits on 1p and 4p (123m456m789m23p55s: 一気通貫 on a ron); the others hold single tiles that call nothing
# the scripts discard.
F_HANDS = ["2468m2468p2468s1z3z", "123m456m789m23p55s", "1p3p9p1s3s9s5z6z7z2z9m5m7s", "1m3m7m5p7p9p2s7s9s1z2z4z6z"]


def f_game(engine, draws: str) -> Game:
    from mjrules.model.tiles import parse_tiles

    hands = [[t.kind for t in parse_tiles(h)] for h in F_HANDS]
    head = [t.kind for t in parse_tiles(draws)]
    pool = Counter({k: 4 for k in range(34)})
    for h in hands + [head]:
        pool.subtract(h)
    assert min(pool.values()) >= 0
    return Game(engine, hands=hands, wall=head + [k for k in sorted(pool) for _ in range(pool[k])])


def discard(g: Game, seat: int, tile: str, declare: bool = False) -> None:
    """Pass every open claim, then seat discards tile on its turn (declaring riichi with it, if asked)."""
    from mjrules.game.actions import DECLARE_READY, DISCARD, PASS
    from mjrules.model.tiles import parse_tiles

    while g.phase_name in ("claims", "rob_kong"):
        g.act(g.to_act, PASS)
    assert g.to_act == seat and g.phase_name == "turn", (g.to_act, g.phase_name)
    if declare:
        g.step(DECLARE_READY)
    g.step(DISCARD + parse_tiles(tile)[0].kind)


def offered(g: Game, seat: int) -> bool:
    from mjrules.game.actions import WIN

    return g.phase_name == "claims" and WIN in g.legal_ids(seat)


@pytest.fixture(scope="module")
def no_furiten(tmp_path_factory):
    text = locate(SPEC).read_text(encoding="utf-8")
    assert "    furiten own_discards passed declared_passed" in text
    path = tmp_path_factory.mktemp("spec") / "riichi_no_furiten.mj"
    path.write_text(text.replace("    furiten own_discards passed declared_passed", "    # (no furiten)"),
                    encoding="utf-8")
    return mjrules.load(str(path), backend="native")


def test_a_wait_among_ones_own_discards_bars_a_ron(native, no_furiten):
    for engine, barred in ((native, True), (no_furiten, False)):
        g = f_game(engine, "4p1p")
        discard(g, 0, "3z")
        discard(g, 1, "4p")           # seat 1 lets its own winning draw go: 4p is among its discards
        discard(g, 2, "1p")
        assert offered(g, 1) != barred


def test_a_wait_let_go_bars_a_ron_until_ones_own_discard(native, no_furiten):
    for engine, barred in ((native, True), (no_furiten, False)):
        g = f_game(engine, "8m2m4p1p9p1p")
        discard(g, 0, "3z")
        discard(g, 1, "8m")
        discard(g, 2, "2m")
        discard(g, 3, "4p")
        assert offered(g, 1)          # seat 1 lets the 4p go
        discard(g, 0, "1p")
        assert offered(g, 1) != barred
        discard(g, 1, "9p")           # its own discard ends it
        discard(g, 2, "1p")
        assert offered(g, 1)


def test_a_wait_let_go_after_riichi_bars_a_ron_to_the_end(native, no_furiten):
    for engine, barred in ((native, True), (no_furiten, False)):
        g = f_game(engine, "8m4p8p9s9p1p")
        discard(g, 0, "3z")
        discard(g, 1, "8m", declare=True)
        discard(g, 2, "4p")
        assert offered(g, 1)          # seat 1, in riichi, lets the 4p go
        discard(g, 3, "8p")
        discard(g, 0, "9s")
        discard(g, 1, "9p")
        discard(g, 2, "1p")
        assert offered(g, 1) != barred


# ---- indicators (RI-03, RI-04) ---------------------------------------------------------------------------------------
I_HANDS = ["1111m234p567s99s1z2z", "777p456m789m8s3z4z5z", "2m3m4m6m7m8m2p3p4p9p1s2s3s", "5m6m5p6p2s3s4s6s7s8s6z7z7z"]


def i_game(engine, dead: str, options: dict | None = None, head: str = "") -> Game:
    """A scripted deal whose dead wall, from the tail back, is `dead` (4 replacements, then the stacks: an
    indicator, its ura, the next indicator, ...); the live wall begins with `head`."""
    from mjrules.model.tiles import parse_tiles

    hands = [[t.kind for t in parse_tiles(h)] for h in I_HANDS]
    tail = [t.kind for t in parse_tiles(dead)]
    first = [t.kind for t in parse_tiles(head)] if head else []
    pool = Counter({k: 4 for k in range(34)})
    for h in hands + [tail, first]:
        pool.subtract(h)
    assert min(pool.values()) >= 0
    live = first + [k for k in sorted(pool, reverse=True) for _ in range(pool[k])]
    return Game(engine, hands=hands, wall=live + tail[::-1], options=options)


def kinds_of(names: list[str]) -> list[int]:
    from mjrules.model.tiles import parse_tiles

    return [parse_tiles(n)[0].kind for n in names]


@pytest.mark.parametrize("backend", ["reference", "native"])
def test_the_first_indicator_is_turned_at_the_deal_and_a_concealed_kong_turns_the_next_at_once(backend):
    from mjrules.game.actions import KONG
    from mjrules.model.tiles import parse_tiles

    eng = mjrules.load(SPEC, backend=backend)
    g = i_game(eng, "9s8s8p9p" "4s2s" "5s3s")   # replacements 9s 8s 8p 9p; stacks (4s over 2s), (5s over 3s)
    assert [e["tile"] for e in g.events if e["type"] == "indicator"] == ["4s"] and g.view(1)["indicators"] == ["4s"]
    g.step(KONG + parse_tiles("1m")[0].kind)
    ev = g.events
    assert [e["tile"] for e in ev if e["type"] == "indicator"] == ["4s", "5s"]
    assert [e["type"] for e in ev][-3:] == ["indicator", "kong", "draw"] or [e["type"] for e in ev][-3:] == [
        "kong", "indicator", "draw"]
    assert ev[-1]["tile"] == "9s" and ev[-1]["tail"]
    sit = g.situation_of(0, tuple(g.hand(0)), tuple(g.seats[0].melds), -1, "self_draw", -1, False)
    assert list(sit.indicators) == kinds_of(["4s", "5s"]) and list(sit.hidden_indicators) == kinds_of(["2s", "3s"])


@pytest.mark.parametrize(("timing", "turned_before_discard"), [("after_discard", False), ("immediate", True)])
def test_an_open_kong_turns_its_indicator_with_its_makers_discard(native, timing, turned_before_discard):
    from mjrules.game.actions import DISCARD, KONG, PASS
    from mjrules.model.tiles import parse_tiles

    g = i_game(native, "9s8s8p9p" "4s2s" "5s3s", {"open_kan_dora": timing}, head="1p7p")
    seven = parse_tiles("7p")[0].kind
    discard(g, 0, "2z")
    discard(g, 1, "1p")
    discard(g, 2, "7p")                            # seat 2 draws the fourth 7p and lets it go: seat 1 may kong it
    assert g.phase_name == "claims" and KONG + seven in g.legal_ids(1)
    g.act(1, KONG + seven)
    while g.phase_name == "claims":
        g.act(g.to_act, PASS)
    assert g.to_act == 1 and g.phase_name == "turn" and g.events[-1]["type"] == "draw" and g.events[-1]["tail"]
    n_before = sum(1 for e in g.events if e["type"] == "indicator")
    assert (n_before == 2) == turned_before_discard
    held = g.hand(1)
    at = len(g.events)
    g.step(DISCARD + held[-1])
    types = [e["type"] for e in g.events]
    assert sum(1 for t in types if t == "indicator") == 2
    if not turned_before_discard:   # turned with the discard, before anyone may claim it
        assert types[at:at + 3] == ["action", "discard", "indicator"]


# ---- red fives (RI-01, RI-05) ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_marked_copies_are_dealt_kept_and_let_go_plain_first(native, seed):
    """One copy of each of 5m 5p 5s is marked in every shuffled wall; at every step the marked copies are in the
    wall, in the seats' hands and melds, or in the discard piles, three in all; and a player lets a plain copy go
    while he holds one."""
    from mjrules.game import make_agent
    from mjrules.game.actions import DISCARD
    from mjrules.game.agents import decide

    g = Game(native, seed=seed)
    marked_kinds = sorted(native.variant.tiles.marked)
    assert len(marked_kinds) == 3
    assert sorted(g.wall[i] for i, m in enumerate(g.wall_marked) if m) == marked_kinds
    agents = [make_agent("greedy" if p % 2 else "random", native.variant, seed + p) for p in range(4)]
    pile = 0            # marked copies in the discard piles
    last_marked = False
    seen = 0
    while not g.over:
        for e in g.events[seen:]:
            if e["type"] == "discard":
                last_marked = bool(e.get("marked"))
                pile += last_marked
            elif e["type"] in ("pon", "chi", "kong") and e.get("discarder") is not None and last_marked:
                pile -= 1   # the claimed copy went into the claimer's meld
                last_marked = False
        seen = len(g.events)
        held = sum(sum(s.marked_hand) + sum(s.marked_meld) for s in g.seats)
        wall = sum(g.wall_marked[i] for i in range(g.head, g.tail))
        assert held + wall + pile == 3, (seed, held, wall, pile)
        for s in g.seats:
            assert all(s.marked_hand[k] <= s.counts[k] and s.marked_meld[k] <= s.meld_counts[k] for k in range(34))
        p = g.to_act
        a = decide(agents[p], g, p)
        if g.phase_name == "turn" and isinstance(a, int) and 0 <= a - DISCARD < 34:
            k = a - DISCARD
            s = g.seats[p]
            only_marked = s.marked_hand[k] >= s.counts[k]
            n = len(g.events)
            g.act(p, a)
            mine = [e for e in g.events[n:] if e["type"] == "discard"]
            assert mine and bool(mine[0].get("marked")) == only_marked
            continue
        g.act(p, a)


def test_a_win_counts_the_marked_copies_it_holds(native):
    """Over greedy hands, the 赤ドラ of each win are the marked copies of its hand, its melds and the tile won on."""
    reds = 0
    for seed in range(40):
        g = play_hand(native, ["greedy"], seed=seed)
        for w in g.winners:
            s = g.seats[w.seat]
            held = sum(s.marked_hand) + sum(s.marked_meld)
            won_on = w.win_by in ("discard", "rob_kong") and g.ld_marked
            assert dict(w.result["fans"]).get("赤ドラ", 0) == held + won_on
            reds += held + won_on
    assert reds >= 5


# ---- abortive draws (RI-85..RI-90) ------------------------------------------------------------------------------------
def scripted(engine, hands: list[str], options: dict | None = None, first: str = "") -> Game:
    """A game dealt these hands, its wall the tiles `first` drawn first, then the rest of the set by kind."""
    from mjrules.model.tiles import parse_tiles

    hs = [[t.kind for t in parse_tiles(h)] for h in hands]
    drawn = [t.kind for t in parse_tiles(first)] if first else []
    pool = Counter({k: 4 for k in range(34)})
    for h in hs + [drawn]:
        pool.subtract(h)
    assert min(pool.values()) >= 0
    return Game(engine, hands=hs, wall=drawn + [k for k in sorted(pool) for _ in range(pool[k])], options=options)


W_HANDS = ["2468m2468p2468s1z3z", "13579m13579p1z5z6z", "13579s1z2z4z7z6p9p3p7m", "1z2s4s6s8s2m4m6m8m2p4p8p5z"]
T_HANDS = ["1m9m1p9p1s9s1z2z3z4z5z6z7z5p", "234m678m345s66s46p", "345m456s777s88p34p", "567m234s88s777p67p"]


@pytest.mark.parametrize("abort", [True, False])
def test_four_first_discards_of_one_wind_abort_the_hand(native, abort):
    g = scripted(native, W_HANDS, {"four_winds_abort": abort})
    for seat in range(4):
        discard(g, seat, "1z")
    while g.phase_name == "claims":
        g.act(g.to_act, PASS)
    if abort:
        o = g.outcome
        assert g.over and o["aborted"] == "四風連打" and not o["winners"] and not any(o["payments"].values())
        assert [e for e in g.events if e["type"] == "abort"] == [{"type": "abort", "name": "四風連打",
                                                                  "label": "Four winds"}]
        assert (o["next_dealer"], o["next_streak"]) == (0, 1)   # RI-90: the dealer deals again, one more honba
    else:
        assert not g.over and g.to_act == 0


@pytest.mark.parametrize("abort", [True, False])
def test_three_rons_on_one_discard_abort_the_hand(native, abort):
    from mjrules.game.actions import WIN

    g = scripted(native, T_HANDS, {"triple_ron_abort": abort})
    discard(g, 0, "5p")
    assert all(WIN in g.legal_ids(p) for p in (1, 2, 3))
    for p in (1, 2, 3):
        g.act(p, WIN)
    o = g.outcome
    if abort:
        assert o["aborted"] == "三家和了" and not o["winners"] and not any(o["payments"].values())
        assert o["next_dealer"] == 0
    else:
        assert "aborted" not in o and [w["seat"] for w in o["winners"]] == [1, 2, 3]


R_HANDS = ["123m456m789m23p55s1z", "123s456s789s23m66p", "456p789p345m7z7z89m", "2z2z2z6z6z6z3p4p5p9s9s7s8s"]


@pytest.mark.parametrize("abort", [True, False])
def test_a_fourth_riichi_that_stands_aborts_the_hand_with_the_four_sticks_placed(native, abort):
    from mjrules.model.tiles import parse_tiles

    hs = [[t.kind for t in parse_tiles(h)] for h in R_HANDS]
    first = [t.kind for t in parse_tiles("9m3z4z")]
    pool = Counter({k: 4 for k in range(34)})
    for h in hs + [first]:
        pool.subtract(h)
    g = Game(native, hands=hs, wall=first + [k for k in sorted(pool) for _ in range(pool[k])],
             options={"four_riichi_abort": abort})
    for seat, tile in ((0, "1z"), (1, "9m"), (2, "3z"), (3, "4z")):
        discard(g, seat, tile, declare=True)
    while g.phase_name == "claims":
        g.act(g.to_act, PASS)
    assert all(s.declared_ready for s in g.seats)
    if abort:
        o = g.outcome
        assert o["aborted"] == "四家立直" and o["pot"] == 4000 and o["payments"] == {0: -1000, 1: -1000, 2: -1000,
                                                                                     3: -1000}
        assert o["next_dealer"] == 0
    else:
        assert not g.over and g.pot == 4000


# ---- nagashi mangan (RI-46) -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("nagashi", [True, False])
def test_discarding_only_terminals_and_honours_uncalled_is_paid_a_mangan_at_the_draw(native, nagashi):
    """Every player lets each drawn tile go and nobody calls; the dealer draws only terminals and honours (the
    wall is built so), so at the exhaustive draw he is paid a mangan as a tsumo, 4000 from each, and no tenpai
    payment is made."""
    from mjrules.game.actions import DISCARD, PASS
    from mjrules.model.tiles import parse_tiles

    yaojiu = {k for k in range(34) if k >= 27 or k % 9 in (0, 8)}
    hands = ["2m3m4m2p3p4p2s3s4s6m7m8m5p1z", "2m3m4m2p3p4p2s3s4s6p7p8p5s", "5m6m7m5p6p7p5s6s7s3m3p3s6s",
             "4m5m6m4p5p6p4s5s6s7m7p7s8s"]
    hs = [[t.kind for t in parse_tiles(h)] for h in hands]
    pool = Counter({k: 4 for k in range(34)})
    for h in hs:
        pool.subtract(h)
    assert min(pool.values()) >= 0
    ends = [k for k in sorted(pool) if k in yaojiu for _ in range(pool[k])]
    middles = [k for k in sorted(pool) if k not in yaojiu for _ in range(pool[k])]
    wall = []
    for i in range(sum(pool.values())):   # the dealer draws every fourth tile, from the fourth on
        wall.append((ends if i % 4 == 3 and ends else middles if middles else ends).pop())
    g = Game(native, hands=hs, wall=wall, options={"nagashi_mangan": nagashi})
    g.step(DISCARD + parse_tiles("1z")[0].kind)
    while not g.over:
        g.act(g.to_act, PASS if g.phase_name != "turn" else DISCARD + g.drawn)
    o = g.outcome
    assert g.wall_ended and not o["winners"]
    dealer_draws = [e["tile"] for e in g.events if e["type"] == "draw" and e["seat"] == 0]
    assert all(parse_tiles(t)[0].kind in yaojiu for t in dealer_draws)
    nag = {(e["from"], e["to"]): e["amount"] for e in o["ledger"] if e["rule"] == "RI-46"}
    tenpai = [e for e in o["ledger"] if e["rule"] == "RI-75"]
    if nagashi:
        assert nag == {(1, 0): 4000, (2, 0): 4000, (3, 0): 4000} and not tenpai
        assert o["payments"] == {0: 12000, 1: -4000, 2: -4000, 3: -4000}
    else:
        assert not nag


N_HANDS = ["1m9m1p9p1s9s1z2z3z4z5z6z7z5p"] + W_HANDS[1:]


@pytest.mark.parametrize("allowed", [True, False])
def test_nine_kinds_of_terminals_and_honours_may_abort_on_the_first_turn_only(native, allowed):
    from mjrules.game.actions import ABORT, DISCARD
    from mjrules.model.tiles import parse_tiles

    g = scripted(native, N_HANDS, {"nine_terminals": allowed})
    assert (ABORT in g.legal_ids(0)) == allowed
    if allowed:
        again = Game.from_state(native, g.to_state())
        again.step(ABORT)
        o = again.outcome
        assert o["aborted"] == "九種九牌" and not any(o["payments"].values()) and o["next_dealer"] == 0
        assert again.events[-2]["type"] == "abort" and again.events[-3] == {"type": "action", "seat": 0,
                                                                            "action": {"type": "abort"}}
    g.step(DISCARD + parse_tiles("7z")[0].kind)   # it plays on instead: on its next turn it may not call it
    for seat in (1, 2, 3):
        while g.phase_name == "claims":
            g.act(g.to_act, PASS)
        g.step(DISCARD + g.drawn)
    while g.phase_name == "claims":
        g.act(g.to_act, PASS)
    assert g.to_act == 0 and g.phase_name == "turn" and ABORT not in g.legal_ids(0)


# ---- liability (RI-91) ----------------------------------------------------------------------------------------------
P_HANDS = ["5z1m2m3m4m5m6m7m8m9m1p2p3p4p", "5z5z6z6z7z7z2m3m4m8s1m9p9s", "6z7z2s3s4s5s6s7s2p3p4p5p",
           "1s1s2s3s4s6p7p8p9p6m7m8m9m"]


@pytest.mark.parametrize("pao", [True, False])
def test_the_discarder_of_the_third_dragon_pays_for_daisangen(native, pao):
    from mjrules.game.actions import DISCARD, PON, WIN
    from mjrules.model.tiles import parse_tiles

    def kind(t: str) -> int:
        return parse_tiles(t)[0].kind

    g = scripted(native, P_HANDS, {"pao": pao}, first="1p2p3p4p1s8s")
    discard(g, 0, "5z")
    g.act(1, PON)
    while g.phase_name == "claims":
        g.act(g.to_act, PASS)
    discard(g, 1, "1m")
    discard(g, 2, "6z")
    g.act(1, PON)
    while g.phase_name == "claims":
        g.act(g.to_act, PASS)
    discard(g, 1, "9p")
    discard(g, 2, "7z")
    g.act(1, PON)                                  # the third dragon set, on seat 2's discard: seat 2 is liable
    while g.phase_name == "claims":
        g.act(g.to_act, PASS)
    assert ([e for e in g.events if e["type"] == "liable"] ==
            ([{"type": "liable", "seat": 2, "for": 1, "name": "大三元"}] if pao else []))
    discard(g, 1, "9s")
    for seat in (2, 3, 0):                         # each lets his draw go
        while g.phase_name == "claims":
            g.act(g.to_act, PASS)
        assert g.to_act == seat
        g.step(DISCARD + g.drawn)
    while g.phase_name == "claims":
        g.act(g.to_act, PASS)
    assert g.to_act == 1 and g.drawn == kind("8s") and WIN in g.legal_ids()
    g.step(WIN)
    o = g.outcome
    assert "大三元" in dict(o["winners"][0]["fans"])
    if pao:   # a non-dealer's yakuman by tsumo, 32000, all from the liable seat
        assert o["payments"] == {0: 0, 1: 32000, 2: -32000, 3: 0}
    else:
        assert o["payments"] == {0: -16000, 1: 32000, 2: -8000, 3: -8000}


# Seat 1 holds three dragon pairs and 1z1z2z2z: its pons of 5z, 6z and 7z (the last on seat 2's discard: seat 2 is
# liable) leave it waiting on 1z or 2z for daisangen with tsuuiisou, two yakuman (base points 16000, a non-dealer's
# 64000). Seat 3's draw (and discard) is a 2z.
PAO2_HANDS = [P_HANDS[0], "5z5z6z6z7z7z1z1z2z2z1m9p9s", P_HANDS[2], P_HANDS[3]]


@pytest.mark.parametrize("liability_only, by, payments", [
    # RI-91: the liable player answers for the whole hand (Tenhou's rule) ...
    (False, "tsumo", {0: 0, 1: 64000, 2: -64000, 3: 0}),
    (False, "ron", {0: 0, 1: 64000, 2: -32000, 3: -32000}),        # half of the whole to the discarder
    # ... or, with pao_liability_only (Mahjong Soul's), for daisangen alone: on a tsumo he pays its 32000 and the
    # other yakuman is shared as a tsumo is (dealer 16000, each other 8000, the liable player too)
    (True, "tsumo", {0: -16000, 1: 64000, 2: -40000, 3: -8000}),
    (True, "ron", {0: 0, 1: 64000, 2: -16000, 3: -48000}),         # half of daisangen's 32000; the discarder the rest
])
def test_the_liable_player_of_a_hand_with_two_yakuman_pays_as_the_option_says(native, liability_only, by, payments):
    from mjrules.game.actions import PON, WIN
    from mjrules.model.tiles import parse_tiles

    g = scripted(native, PAO2_HANDS, {"pao_liability_only": liability_only},
                 first="1p2p3p" + ("4p1s2z" if by == "tsumo" else "2z1s8s"))
    discard(g, 0, "5z")
    g.act(1, PON)
    discard(g, 1, "1m")
    discard(g, 2, "6z")
    g.act(1, PON)
    discard(g, 1, "9p")
    discard(g, 2, "7z")
    g.act(1, PON)                                  # the third dragon set, on seat 2's discard: seat 2 is liable
    discard(g, 1, "9s")
    discard(g, 2, "1p")
    if by == "ron":
        discard(g, 3, "2z")
        assert g.phase_name == "claims" and g.to_act == 1
        g.act(1, WIN)
    else:
        discard(g, 3, "4p")
        discard(g, 0, "1s")
        while g.phase_name == "claims":
            g.act(g.to_act, PASS)
        assert g.to_act == 1 and g.drawn == parse_tiles("2z")[0].kind
        g.step(WIN)
    o = g.outcome
    assert {"大三元", "字一色"} <= set(dict(o["winners"][0]["fans"]))
    assert [e["seat"] for e in g.events if e["type"] == "liable"] == [2]
    assert o["payments"] == payments


# ---- robbing a concealed kong (RI-14) ---------------------------------------------------------------------------------
K_HANDS = ["1111m234p567p789s3z", "9m9m1p9p1s9s1z2z3z4z5z6z7z", "23m456p789s1z1z1z2z2z", "4455m6677p3344s5s"]


@pytest.mark.parametrize("backend", ["reference", "native"])
@pytest.mark.parametrize("allowed", [True, False])
def test_thirteen_orphans_alone_robs_a_concealed_kong(backend, allowed):
    """The dealer declares a concealed kong of 1m. Seat 1's thirteen orphans wait on 1m: with
    kokushi_robs_concealed_kong it may rob the kong (RI-14, RI-50); seat 2 also waits on 1m, by a standard hand, and
    may not. Robbed, the kong is never made and no indicator turns; otherwise the kong stands."""
    from mjrules.game.actions import KONG, WIN

    g = scripted(mjrules.load(SPEC, backend=backend), K_HANDS, {"kokushi_robs_concealed_kong": allowed})
    m1 = kinds_of(["1m"])[0]
    assert KONG + m1 in g.legal_ids(0)
    turned = sum(e["type"] == "indicator" for e in g.events)
    g.step(KONG + m1)
    if allowed:
        assert g.phase_name == "rob_kong" and list(g.pending()) == [1] and g.legal_ids(1) == [WIN, PASS]
        g.act(1, WIN)
        o = g.outcome
        assert [(w["seat"], w["win_by"], w["discarder"]) for w in o["winners"]] == [(1, "rob_kong", 0)]
        assert o["winners"][0]["value"] == 8000 and o["payments"][0] == -32000   # a yakuman the kong's maker pays
        assert sum(e["type"] == "indicator" for e in g.events) == turned and not g.seats[0].melds
    else:
        assert g.phase_name != "rob_kong" and g.to_act == 0
        assert [m.kind for m in g.seats[0].melds] == ["kong"]


def test_a_kong_robbed_by_and_when_are_checked():
    from mjrules.compiler import SpecError, compile_text

    text = locate(SPEC).read_text(encoding="utf-8")
    line = "    rob_kong concealed by 国士無双形 when kokushi_robs_concealed_kong"
    assert line in text
    for bad, code, message in [
        ("    rob_kong exposed", "E013", "kinds of kong that may be robbed: added, concealed"),
        ("    rob_kong concealed by 国士", "E015", "unknown pattern '国士'"),
        ("    rob_kong added by 和了形", "E018", "robbed by two rob_kong clauses"),
        ("    rob_kong concealed when score(0) > 0", "E026", "not available"),
    ]:
        with pytest.raises(SpecError) as e:
            compile_text(text.replace(line, bad), "riichi.mj")
        assert any(d.code == code and message in d.message for d in e.value.diagnostics), \
            [str(d) for d in e.value.diagnostics]
