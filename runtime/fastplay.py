"""Hands of built-in agents played by the C loop (`FastTable` in runtime/_fastgame.pxi), handed to game.py.

The C loop plays the generic game exactly as `Game` and `run` would with `RandomAgent` and `GreedyAgent`
seats: the same shuffle, decisions and events. It plays the deal, flowers, the wild's reveal, draws,
discards, passes, pon, chi and kongs, offers wins as game.py's judge would, and stops before any step it
leaves to game.py (a win an agent takes, a ready declaration, a robbed gold, a win in the final round, a
check the kernel cannot decide, the end of the hand). `fast_hand` then builds the `Game` that game.py would
hold at that point and plays on from there with Python agents whose generators continue where the C ones
stopped. Everything the loop needs from the spec is read here from the IR, as numbers; the loop knows no
variant.

Used by `play_hand` when every agent is the built-in "random" or "greedy" one (by name) and the engine is
native; anything else plays through game.py alone. The event dicts are built only when `Game.events` is read.
"""
from __future__ import annotations

import math
import random
import threading
from typing import Any

from .agents import GreedyAgent, RandomAgent, _counts_only
from .game import Game, Seat, game_constants
from .gamefacts import GameEnv, flower_reads
from .tiles import TILE_NAMES, Meld

_NAMES = TILE_NAMES
_CLAIM_BITS = {"win": 1, "kong": 2, "pon": 4, "chi": 8}
EVW = 6  # ints per compact event (_fastgame.pxi)
_KONGS = ("exposed", "added", "concealed")
# the C loop's hand-off steps after which the agents decide again (the others end the hand: a draw, a win)
_AGENTS_PLAY_ON = frozenset({"start", "turn", "after_discard", "open_claims", "final", "declare_kong"})


class FastPlan:
    """The C loop for one engine and one set of option values, with the numbers it reads from the IR."""

    def __init__(self, engine: Any, options: dict[str, Any] | None, core: Any, opts: tuple[float, ...]):
        v = self.variant = engine.variant
        self.engine = engine
        self.constants = game_constants(v, options)
        full, _, scored, retain_const, retain_memo, _ = self.constants
        self.options = options
        w = v.wild
        wild_of = []
        for k in range(42):
            try:
                wild_of.append(-1 if w is None or w.mode == "fixed" else int(w.wild_kind(k)))
            except Exception:  # noqa: BLE001 - a kind that is never an indicator
                wild_of.append(-1)
        c = v.claims
        rd, rw = v.ready_declaration, v.rob_wild
        strings = engine._strings

        def wb(name: str) -> float:
            i = strings.get(name)
            return math.nan if i is None else float(i)

        self._dealer = 0
        self._streak = 0
        self._retain: dict[tuple, int] = {}
        params = {
            "players": v.players, "win_size": v.win_size,
            "tiles": [k for k in v.tiles.kinds for _ in range(v.tiles.copies[k])],
            "copies": list(v.tiles.copies) + [0] * (42 - len(v.tiles.copies)), "wild_of": wild_of,
            "scored": sorted(scored),
            "rounds": list(v.deal.rounds), "dealer_extra": v.deal.dealer_extra,
            "wild_mode": 0 if w is None else 1 if w.mode == "fixed" else 2,
            "wild_fixed": -1 if w is None or w.fixed is None else w.fixed,
            "after_flowers": bool(w and w.after_flowers), "ind_tail": bool(w and w.indicator_end == "tail"),
            "flowers_to_dealer": bool(w and w.flowers_to_dealer), "dice_stack": bool(w and w.indicator_dice_stack),
            "has_wild": w is not None, "discard_unclaimable": bool(w and w.discard_unclaimable),
            "no_calls": bool(w and w.no_calls), "has_flowers": v.flowers is not None,
            "has_rd": rd is not None, "rd_all": bool(rd and rd.by == "all"),
            "has_rw": rw is not None,
            "rw_order": [1 if who == "non_dealers" else 2 for who in (rw.order if rw else ())
                         if who in ("non_dealers", "dealer")],
            "k_conc": "concealed" in c.kongs, "k_added": "added" in c.kongs, "k_exposed": "exposed" in c.kongs,
            "pon": bool(c.pon), "chi_from": {"previous": 1, "any": 2}.get(c.chi_from, 0),
            "chi_honours": bool(c.chi_honours is not None and GameEnv(_Table(v, full)).eval(c.chi_honours, "config")),
            "levels": [sum(_CLAIM_BITS.get(x, 0) for x in level) for level in c.priority],
            "retain_const": retain_const, "retain": self._retention,
            "final_round": v.wall.final_round or 0, "last_discard_win_only": bool(v.wall.last_discard_win_only),
            "wb_self": wb("self_draw"), "wb_discard": wb("discard"), "wb_dealt": wb("dealt"), "wb_rob": wb("rob_gold"),
            "wb_repl": wb("kong_replacement"), "wb_robk": wb("rob_kong"),
            "kong_needs_replacement": bool(v.wall.kong_needs_replacement), "rob_added": "added" in c.rob_kong,
            "flower_calls": flower_reads(v, [v.wall.retain]),
            "greedy": _greedy_params(v),
            "rw_allowed": _rob_patterns(v),
            "pass_blocks_ron": bool(c.pass_blocks_ron is not None
                                    and GameEnv(_Table(v, full)).eval(c.pass_blocks_ron, "config")),
        }
        self.table = core.FastTable(engine._kernel, opts, params)
        self.lock = threading.Lock()  # one hand at a time per table (its retention callback may switch threads)
        self.sources = core.FAST_SOURCES
        self.exhausted = core.FAST_EXHAUSTED
        self.kongs = core.FAST_KONGS

    def _retention(self, extra_exposed: int, extra_concealed: int, exposed: int, concealed: int,
                   flowers: tuple[tuple[int, ...], ...], calls: tuple[int, ...] | None) -> int:
        """Game.retained(extra_exposed, extra_concealed) for a table with these kongs and flowers and this hand's
        dealer and streak (the C loop asks). `calls`: the values of flower_calls(v), which then stand for the
        flowers in the memo's key."""
        key = (self._dealer, self._streak, extra_exposed, extra_concealed, exposed, concealed,
               flowers if calls is None else calls)
        r = self._retain.get(key)
        if r is None:
            t = _Table(self.variant, self.constants[0], self._dealer, self._streak, flowers, exposed, concealed)
            env = GameEnv(t)
            env.extra_kongs = (extra_exposed, extra_concealed)
            r = int(env.eval(self.variant.wall.retain, "wall"))
            if len(self._retain) > 100_000:
                self._retain.clear()
            self._retain[key] = r
        return r


def _rob_patterns(v: Any) -> list[int]:
    """The patterns a robbed gold may win with (Game._can_rob_wild: those the spec requires, or their shapes)."""
    req = v.rob_wild.requires if v.rob_wild is not None else ()
    shapes = {p.shape for p in v.patterns if p.name in req}
    return [i for i, p in enumerate(v.patterns) if not req or p.name in req or p.shape in shapes]


def _greedy_params(v: Any) -> dict[str, Any] | None:
    """What the C greedy agent needs: the shapes GreedyAgent estimates, and the free patterns, whose tests must
    read only the counts (as agents._free_estimate's memo requires); None when one does not."""
    shapes = {p.shape for p in v.patterns}
    free = [i for i, p in enumerate(v.patterns) if p.shape == "free"]
    if any(v.patterns[i].cond is not None and not _counts_only(v.patterns[i].cond) for i in free):
        return None
    return {"standard": "standard" in shapes, "pairs": "pairs" in shapes and v.win_size % 2 == 0, "free": free}


class _Table:
    """What GameEnv reads of a game, for the expressions the plan evaluates outside any game."""

    def __init__(self, v: Any, options: dict, dealer: int = 0, streak: int = 0,
                 flowers: tuple[tuple[int, ...], ...] = (), exposed: int = 0, concealed: int = 0):
        self.v, self.n, self.options, self.dealer, self.dealer_streak = v, v.players, options, dealer, streak
        self.seats = [Seat(flowers=list(f)) for f in flowers] or [Seat() for _ in range(v.players)]
        self.seats[0].melds = [Meld("kong", (0,) * 4, i < concealed) for i in range(exposed + concealed)]
        self.winners: list = []
        self.first_round: list = []


def plan_for(engine: Any, options: dict[str, Any] | None) -> FastPlan | None:
    """The engine's C loop for these options, made once; None when it cannot play them (a reference engine,
    option values a double cannot hold, a retention that reads more than the flowers and kongs)."""
    cache = engine.__dict__.setdefault("_fast_plans", {})
    key = tuple(sorted((options or {}).items()))
    try:
        return cache[key]
    except KeyError:
        pass
    except TypeError:
        return None
    plan = None
    core = getattr(engine, "_core", None)
    kernel = getattr(engine, "_kernel", None)
    if core is not None and kernel is not None and hasattr(core, "FastTable"):
        const = game_constants(engine.variant, options)
        opts = engine._encode(const[0])
        if opts is not None and (const[3] is not None or const[4] is not None) and engine.variant.players <= 8:
            try:
                plan = FastPlan(engine, options, core, opts)
            except ValueError:  # a table larger than the C loop's arrays: game.py plays it
                plan = None
    cache[key] = plan
    return plan


def fast_hand(plan: FastPlan, seed: int, dealer: int, dealer_streak: int, agent_seeds: list[int],
              agents: list[str] | None = None) -> Game:
    """One hand: the C loop, then game.py from where it stopped; agents: "random" or "greedy" per seat (default
    random), seeded with agent_seeds as make_agent seeds them."""
    table = plan.table
    greedy = [a == "greedy" for a in agents] if agents else []
    with plan.lock:
        plan._dealer, plan._streak = dealer, dealer_streak
        entry, args, st = table.play(seed, dealer, dealer_streak, agent_seeds, greedy)
        states = table.rng_states() if entry in _AGENTS_PLAY_ON else None
    if entry == "draw_game":  # nobody decides again
        why = plan.exhausted[args[0]]
        drawn = _drawn_hand(plan, seed, dealer, dealer_streak, st, why)
        if drawn is not None:
            return drawn
        g = adopt(plan, seed, dealer, dealer_streak, st, entry)
        g._draw_game(why)
        return g
    g = adopt(plan, seed, dealer, dealer_streak, st, entry)
    if entry == "turn_win":  # the seat chose to win: the hand ends with it
        g._turn(args[0], None if args[1] < 0 else args[1], plan.sources[args[2]])
        g.act(args[0], {"type": "win"})
    elif entry in ("claims", "rob_kong"):  # someone chose to win a discard or a kong tile: the claims as answered
        if entry == "claims":
            g._open_claims()
        else:
            g._declare_kong(args[0], {"type": "kong", "tile": _NAMES[args[1]], "kind": "added"})
        for p, code, a, b in st["answers"]:
            g.act(p, _answer(code, a, b, g.last_discard[1] if entry == "claims" else args[1]))
    elif entry == "rob_gold":  # someone robs the gold
        g._after_discard()
        for p, code, _, _ in st["answers"]:
            g.act(p, {"type": "rob_gold"} if code == 1 else {"type": "pass"})
    if entry not in _AGENTS_PLAY_ON:
        if not g.over:  # pragma: no cover - a win always ends the hand
            raise RuntimeError(f"the hand did not end after the C loop's step {entry}")
        return g
    from .play import run  # play imports this module

    game_state, agent_states = states
    g.rng = random.Random()
    g.rng.setstate(game_state)
    players: list[Any] = []
    for i, s in enumerate(agent_states):
        a = GreedyAgent(plan.variant) if i < len(greedy) and greedy[i] else RandomAgent.__new__(RandomAgent)
        a.rng = random.Random()
        a.rng.setstate(s)
        players.append(a)
    if entry == "start":
        g._start_play()
    elif entry == "turn":
        g._turn(args[0], None if args[1] < 0 else args[1], plan.sources[args[2]])
    elif entry == "after_discard":
        g._after_discard()
    elif entry == "open_claims":
        g._open_claims()
    elif entry == "final":
        g._final_resume(args[0], args[1], args[2])
    elif entry == "declare_kong":
        g._declare_kong(args[0], {"type": "kong", "tile": _NAMES[args[1]], "kind": "added"})
    else:  # pragma: no cover - the loop always stops at one of the entries above
        raise RuntimeError(f"the C game loop stopped at an unknown step {entry}")
    return run(g, players)


def _answer(code: int, a: int, b: int, tile: int) -> dict[str, Any]:
    """A claim answer of the C loop (C_WIN 1, C_KONG 2, C_PON 4, C_CHI 8 with its two tiles, 0 pass)."""
    if code == 1:
        return {"type": "win"}
    if code == 2:
        return {"type": "kong", "tile": _NAMES[tile], "kind": "exposed"}
    if code == 4:
        return {"type": "pon"}
    if code == 8:
        return {"type": "chi", "tiles": sorted([_NAMES[a], _NAMES[b]])}
    return {"type": "pass"}


class DrawnHand(Game):
    """A hand the C loop played to a draw whose settlement the draw memo already holds. `outcome`, `over`,
    `phase`, `seed`, `dealer`, `dealer_streak` and `decision_count()` are there at once; every other attribute
    is the Game game.py would hold (adopt, then `_draw_game`), built from the C loop's state the first time
    one is read. Most simulated hands end so, and a simulation reads nothing else of them."""

    def __getattr__(self, name: str) -> Any:  # only called for an attribute not (yet) set
        lazy = self.__dict__.pop("_lazy", None)
        if lazy is None or name.startswith("__"):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        plan, seed, dealer, dealer_streak, st, why = lazy
        outcome, agent_names = self.outcome, self.__dict__.get("agent_names")
        _adopt(self, plan, seed, dealer, dealer_streak, st, "draw_game")
        if agent_names is not None:
            self.agent_names = agent_names
        # _draw_game, with the outcome already settled: the same events, the same outcome object
        self.log("exhausted", reason=why)
        self.over, self.phase, self._pending, self._answers = True, "over", {}, {}
        self.outcome = outcome
        self.log("end", **{k: v for k, v in outcome.items() if k != "ledger"})
        return getattr(self, name)

    def decision_count(self) -> int:
        lazy = self.__dict__.get("_lazy")
        if lazy is None:
            return super().decision_count()
        return compact_actions((lazy[4]["events"],))  # a draw logs no action after the C loop's events


def _drawn_hand(plan: FastPlan, seed: int, dealer: int, dealer_streak: int, st: dict[str, Any],
                why: str) -> DrawnHand | None:
    """The DrawnHand of a draw whose settlement is remembered; None when it is not (game.py settles it)."""
    seats = st["seats"]
    memo = plan.constants[5]
    kongs = [[(kind, frm, False) for kind, _, frm in s[2]] for s in seats]
    key = memo.key_of(dealer, dealer_streak, len(seats), st["first_round"], kongs if any(kongs) else (),
                      [s[3] for s in seats])
    got = memo.lookup(key)
    if got is None:
        return None
    net, ledger, nxt, streak = got
    g = DrawnHand.__new__(DrawnHand)
    d = g.__dict__
    d["_lazy"] = (plan, seed, dealer, dealer_streak, st, why)
    d["over"], d["phase"] = True, "over"
    d["seed"], d["dealer"], d["dealer_streak"] = seed, dealer, dealer_streak
    d["outcome"] = {"winners": [], "payments": {str(p): v for p, v in sorted(net.items())}, "ledger": ledger,
                    "next_dealer": nxt, "next_streak": streak}
    return g


def adopt(plan: FastPlan, seed: int, dealer: int, dealer_streak: int, st: dict[str, Any], entry: str) -> Game:
    """The Game game.py would hold where the C loop stopped."""
    return _adopt(Game.__new__(Game), plan, seed, dealer, dealer_streak, st, entry)


def _adopt(g: Game, plan: FastPlan, seed: int, dealer: int, dealer_streak: int, st: dict[str, Any],
           entry: str) -> Game:
    """adopt(), building in g."""
    seats = [Seat(list(conc), [_meld(kind, k0, concealed) for kind, k0, concealed in melds] if melds else [],
                  list(flowers), list(discards), first_turn, False, wild_discards, ron_blocked,
                  [{"kind": kind, "tile": k, "robbed": False, "from": frm} for kind, k, frm in kongs] if kongs else [])
             for conc, melds, kongs, flowers, discards, first_turn, wild_discards, ron_blocked in st["seats"]]
    g._base(plan.engine, seed, dealer, dealer_streak, plan.constants, seats)
    g.rng = None
    g._full_wall = True
    g.wall, g.head, g.tail = list(st["wall"]), st["head"], st["tail"]
    w, ind = st["wild"], st["indicator"]
    g.wild = None if w < 0 else w
    g.indicator = None if ind < 0 else ind
    g.discard_count, g.claims_made, g.first_round = st["discard_count"], st["claims_made"], st["first_round"]
    g.current, g.source = st["current"], st["source"]
    g.drawn = None if st["drawn"] < 0 else st["drawn"]
    if st["last_discard"] is not None:
        g.last_discard = st["last_discard"]
    g.phase = "setup" if entry == "start" else "turn"
    g._compact = (st["events"], st["extra"], st["dice"], st["dealt"], st["deal_wall"])
    return g


_MELDS: dict[tuple[int, int, bool], Meld] = {}


def _meld(kind: int, k0: int, concealed: bool) -> Meld:
    """The Meld of the C loop's (C_KONG 2, C_PON 4 or C_CHI 8, smallest kind, concealed) (Melds are frozen)."""
    key = (kind, k0, concealed)
    m = _MELDS.get(key)
    if m is None:
        if kind == 8:
            m = Meld("chi", (k0, k0 + 1, k0 + 2))
        elif kind == 4:
            m = Meld("pon", (k0,) * 3)
        else:
            m = Meld("kong", (k0,) * 4, bool(concealed))
        m = _MELDS[key] = m
    return m


def _rows(flat: Any, width: int) -> list[Any]:
    return [flat[i:i + width] for i in range(0, len(flat), width)]


def compact_actions(compact: tuple) -> int:
    """The number of "action" events among the C loop's."""
    ev = memoryview(compact[0]).cast("i")
    return sum(1 for i in range(0, len(ev), EVW) if 3 <= ev[i] <= 6 or ev[i] == 12)


def materialise(g: Game, compact: tuple) -> list[dict[str, Any]]:
    """The C loop's events as the dicts game.py logs (the same keys in the same order)."""
    events, extra, dice, dealt, deal_wall = compact
    names = _NAMES
    out: list[dict[str, Any]] = [
        {"type": "start", "variant": g.v.name, "dealer": g.dealer, "dealer_streak": g.dealer_streak, "seed": g.seed,
         "dice": list(dice)},
        {"type": "deal", "hands": [sorted(names[k] for k in range(42) for _ in range(c[k]))
                                   for c in _rows(memoryview(dealt).cast("i"), 42)], "wall": deal_wall}]
    ev = memoryview(events).cast("i")
    for i in range(0, len(ev), EVW):
        code, seat, a, b, c, d = ev[i:i + EVW]
        if code == 8:
            out.append({"type": "draw", "seat": seat, "tile": names[a], "tail": bool(b)})
        elif code == 3:
            out.append({"type": "action", "seat": seat, "action": {"type": "discard", "tile": names[a]}})
        elif code == 7:
            out.append({"type": "discard", "seat": seat, "tile": names[a]})
        elif code == 4:
            out.append({"type": "action", "seat": seat, "action": {"type": "pass"}})
        elif code == 5:
            out.append({"type": "action", "seat": seat, "action": {"type": "pon"}})
        elif code == 6:
            out.append({"type": "action", "seat": seat, "action": {"type": "chi", "tiles": sorted([names[a], names[b]])}})
        elif code == 9:
            out.append({"type": "pon", "seat": seat, "tile": names[a], "discarder": b})
        elif code == 10:
            out.append({"type": "chi", "seat": seat, "tile": names[a], "discarder": b,
                        "tiles": sorted([names[c], names[d]])})
        elif code == 2:
            e = {"type": "flowers", "seat": seat, "tiles": [names[k] for k in extra[a:a + b]]}
            if c:
                e["flipped"] = True
            out.append(e)
        elif code == 1:
            out.append({"type": "wild", "wild": names[b]} if a < 0 else
                       {"type": "wild", "indicator": names[a], "wild": names[b]})
        elif code == 12:
            out.append({"type": "action", "seat": seat,
                        "action": {"type": "kong", "tile": names[a], "kind": _KONGS[b]}})
        elif code == 13:
            e = {"type": "kong", "seat": seat, "kind": _KONGS[b], "tile": names[a]}
            if b == 0:
                e["discarder"] = c
            out.append(e)
        elif code == 14:
            out.append({"type": "kong_declared", "seat": seat, "kind": "added", "tile": names[a]})
        elif code == 11:
            out.append({"type": "final_round", "draws": a})
        else:  # pragma: no cover
            raise ValueError(f"unknown compact event {code}")
    return out
