# cython: annotation_typing=False
"""The rules a hand is played by: what every hand of one variant with one set of option values shares, read from
the IR once (`Rules`, made once per engine and options by `rules_for`). Compiled (Cython's pure-Python mode, typed
by rules.pxd), the state machine reads its fields in C."""
from __future__ import annotations

from typing import Any

import cython

from ..native.kernel import ShapeTest
from ..compiler.ir import expr_nodes
from .actions import KONG_KINDS

# the claim kinds of the spec's priority levels, as bits (compiled: rules.pxd's C enum, held equal by a test)
if not cython.compiled:
    from .actions import N_KINDS

    C_WIN = 1
    C_KONG = 2
    C_PON = 4
    C_CHI = 8

_CLAIM_BITS = {"win": C_WIN, "kong": C_KONG, "pon": C_PON, "chi": C_CHI}


class Rules:
    """What every hand of one variant with one set of option values shares, read from the IR once."""

    def __init__(self, engine: Any, options: dict[str, Any] | None):
        from . import settle

        v = engine.variant
        self.engine = engine
        self.v = v
        defaults = v.option_defaults()
        opts = defaults | dict(options or {})
        self.options = opts
        self.overrides = {k: x for k, x in opts.items() if defaults.get(k, x) != x}
        self.n = v.players
        self.win_size = v.win_size
        self.hand = v.deal.hand
        self.dealer_hand = v.deal.dealer_hand
        self.tiles = [k for k in v.tiles.kinds for _ in range(v.tiles.copies[k])]
        self.copies = list(v.tiles.copies)
        self.scored = bytearray(N_KINDS)
        for k in v.tiles.scored_flowers:
            self.scored[k] = 1
        self.playable = [k for k in v.tiles.playable if k < 34]
        self.rounds = list(v.deal.rounds)
        self.dealer_extra = v.deal.dealer_extra
        env = settle.TableEnv(self, 0, 0)
        cfg = lambda e, default: default if e is None else bool(settle.evaluate(e, env))
        w = v.wild
        hw = None if w is None else w.hand(lambda e: bool(settle.evaluate(e, env)))   # the mode these options choose
        self.has_wild = hw is not None and hw.in_force
        self.wild_mode = "" if hw is None else hw.mode
        self.wild_fixed = -1 if hw is None or hw.fixed is None else hw.fixed
        self.wild_kinds = 0 if not self.has_wild else hw.kinds
        self.wild_after_flowers = w is not None and w.after_flowers
        self.indicator_tail = w is not None and w.indicator_end == "tail"
        self.flowers_to_dealer = w is not None and w.flowers_to_dealer
        self.dice_stack = w is not None and w.indicator_dice_stack
        self.no_calls = w is not None and w.no_calls
        self.discard_unclaimable = w is not None and w.discard_unclaimable
        self.wild_of = [-1] * N_KINDS
        self.wild2_of = [-1] * N_KINDS   # the second wild kind an indicator gives (a mode of two kinds)
        if self.has_wild and hw.flips:
            for k in range(N_KINDS):
                try:
                    kinds = w.wild_kinds(k, hw.kinds)
                except ValueError:  # a kind that is no indicator
                    continue
                self.wild_of[k] = kinds[0]
                if len(kinds) > 1:
                    self.wild2_of[k] = kinds[1]
        self.has_flowers = v.flowers is not None
        c = v.claims
        self.chi_from = {"previous": 1, "any": 2}.get(c.chi_from, 0)
        self.chi_honours = cfg(c.chi_honours, False) if c.chi_honours is not None else False
        self.pon = c.pon
        self.kong_exposed = "exposed" in c.kongs
        self.kong_added = "added" in c.kongs
        self.kong_concealed = "concealed" in c.kongs
        self.priority = [sum(_CLAIM_BITS.get(t, 0) for t in level) for level in c.priority]
        robs = [rr for rr in c.robs if rr.cond is None or cfg(rr.cond, False)]
        self.rob_kong_added = any("added" in rr.kinds for rr in robs)
        self.rob_kong_concealed = any("concealed" in rr.kinds for rr in robs)
        # the patterns a concealed kong may be robbed by (empty: any)
        self.rob_concealed_by = next((list(rr.patterns) for rr in robs if "concealed" in rr.kinds), [])
        self.rob_added_by = next((list(rr.patterns) for rr in robs if "added" in rr.kinds), [])
        self.pass_blocks_ron = cfg(c.pass_blocks_ron, False)
        fu = c.furiten if cfg(c.furiten_when, False) else ()
        self.furiten_discards = "own_discards" in fu
        self.furiten_passed = "passed" in fu
        self.furiten_declared = "declared_passed" in fu
        self.furiten_passes = self.furiten_passed or self.furiten_declared   # a tile let go is remembered
        self.has_furiten = bool(fu)
        self.no_swap = cfg(c.no_swap_calling, False)
        self.liabilities = list(c.liabilities)
        self.aborts_passed = [a for a in v.aborts if a.moment == "passed"]   # asked when a discard is let go
        # what each of them reads of the table (builtin variables and functions), for Game._abort_inputs
        self.abort_reads = []   # by abort, bits: 1 first-round facts, 2 declarations, 4 kongs, 8 discards, 16 any other
        for a in self.aborts_passed:
            bits = 0
            for x in expr_nodes(a.cond):
                if x.op in ("var", "call"):
                    bits |= _FACT_FAMILY.get(x.args[0], 16)
                elif x.op == "ref":
                    bits |= 16
            self.abort_reads.append(bits)
        self.aborts_wins = [a for a in v.aborts if a.moment == "wins"]       # asked when wins are claimed
        self.aborts_first = [a for a in v.aborts if a.moment == "first_turn"]   # a player may call on his first turn
        self.marked_kinds = list(v.tiles.marked)   # one copy of each is marked (tiles { marked ... })
        wl0 = v.wall
        self.ind_stacks = wl0.indicator_stacks
        self.ind_after = wl0.indicator_after
        self.kong_ind = bytearray(3)   # by kong kind (exposed, added, concealed): 0 none, 1 immediate, 2 after_discard
        for kind_i, kind in enumerate(("exposed", "added", "concealed")):
            rule = next((x for x in wl0.kong_indicators if kind in x.kinds and cfg(x.cond, True)), None)
            if rule is not None:
                self.kong_ind[kind_i] = 1 if rule.timing == "immediate" else 2
        rule = next((r for r in c.winners if cfg(r.cond, True)), None)
        self.one_winner = rule is not None and rule.mode != "all"
        self.prefer = tuple(rule.prefer) if rule is not None else ()
        rd = v.ready_declaration
        self.has_rd = rd is not None
        self.rd_all = rd is not None and rd.by == "all"
        self.locks_hand = rd is not None and rd.locks_hand
        self.ckkw = rd is not None and cfg(rd.concealed_kong_keeping_waits, False)
        self.rd_turn = rd is not None and rd.window == "with_discard"   # declared on a turn, with a discard
        self.rd_ready = rd is not None and rd.requires_ready
        self.rd_concealed = rd is not None and rd.requires_concealed
        self.rd_drawable = 0 if rd is None else rd.requires_drawable
        self.rd_stake = 0 if rd is None or rd.stake is None else settle.evaluate(rd.stake, env)
        self.estimator = None   # the engine's shape distance for these options, made when a declaration first asks
        rw = v.rob_wild
        self.has_rob_wild = rw is not None
        self.pays_discards = bool(v.settlement.discard)
        self.pays_first_round = bool(v.settlement.first_round)
        self.rob_order = []
        if rw is not None:
            for who in rw.order:
                if who == "dealer":
                    self.rob_order.append(-1)  # the dealer, after the others
                elif who == "non_dealers":
                    self.rob_order.append(-2)
        self.rob_requires = tuple(rw.requires) if rw is not None else ()
        shapes = {p.shape for p in v.patterns if p.name in self.rob_requires}
        self.rob_shapes = {p.name: p.shape in shapes for p in v.patterns}
        wl = v.wall
        self.final_round = wl.final_round
        self.last_discard_win_only = wl.last_discard_win_only
        self.kong_needs_replacement = wl.kong_needs_replacement
        self.retain = settle.RetentionPlan(v)
        self.retain_const = self.retain.const
        play = v.play
        self.leave = play is not None and play.after_win == "leave"
        self.ends = play.ends if play is not None else None
        # the steps before play, in order: exchanges, then declarations (each only where its condition holds)
        self.pre = [("exchange", x) for x in v.exchanges if cfg(x.cond, True)]
        self.pre += [("declare", d) for d in v.declarations if cfg(d.cond, True)]
        if v.openings:   # hands shown at the deal: last, on the hands play starts with
            from .phases import OpeningStep

            self.pre.append(("opening", OpeningStep(v.openings, v.settlement.opening)))
        self.horse_count = 0
        self.horse_seat = [-1] * N_KINDS
        self.horse_from = v.horses.count_from if v.horses is not None else "dealer"   # dealer | winner | payer
        self.horse_at_win = v.horses is not None and v.horses.taken == "at_win"
        if v.horses is not None:
            self.horse_count = int(settle.evaluate(v.horses.count, env))
            m = next((x for x in v.maps if x.name == v.horses.map), None)
            for k in range(N_KINDS):
                got = m.value(k) if m is not None else None
                self.horse_seat[k] = -1 if got is None else got
        self.at_once = bytearray(3)
        for i, kind in enumerate(KONG_KINDS):
            self.at_once[i] = kind in v.settlement.at_once
        self.discard_win = settle.discard_win_mask(v, opts)   # who may win on a discard, by settle.DISCARD_WIN_FACTS
        self.fit = engine.fit_test(options)
        self.shape = self.fit if isinstance(self.fit, ShapeTest) else None   # the kernel's: a C call, compiled
        self.wins = engine.wins
        self.draws = settle.DrawMemo(v)


# The table facts an abort may read whose changes the game follows (Game._abort_inputs): the first round's
# discards, the declarations, the kongs, the discards; any other fact may change at any step.
_FACT_FAMILY = {"first_discards_in": 1, "first_discards_match": 1, "declared_players": 2, "kongs_made": 4,
                "kong_players": 4, "discards_made": 8}


def rules_for(engine: Any, options: dict[str, Any] | None) -> Rules:
    """The engine's Rules for these option values, made once."""
    cache = engine.__dict__.setdefault("_game_rules", {})
    try:
        key = tuple(sorted((options or {}).items()))
        hit = cache.get(key)
    except TypeError:  # an unhashable option value: nothing to remember it by
        return Rules(engine, options)
    if hit is None:
        hit = cache[key] = Rules(engine, options)
    return hit
