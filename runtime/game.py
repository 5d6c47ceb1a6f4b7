"""The generic game engine: one hand of any compiled variant, from the first die to the last payment.

The engine knows no variant: what it does differently per variant comes from the IR (deal, flowers, the
wild reveal, claims and their priorities, windows such as 报听 and 抢金, retention and the final round,
settlement, rotation). Players decide through `pending()` (who must decide now, and among which legal
actions) and `act(seat, action)`; an illegal action raises IllegalAction and leaves the state unchanged.
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from typing import Any

from .compiler.ir import Expr, Variant
from .gamefacts import DrawMemo, GameEnv, every_node, rotation, settle_hand
from .situation import Situation, _new_situation
from .tiles import TILE_NAMES, Meld, tile_name

Action = dict[str, Any]


class IllegalAction(ValueError):
    """An action that is not legal now; the game state is unchanged."""


@dataclass
class Seat:
    concealed: list[int] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    first_turn: bool = True
    declared_ready: bool = False
    wild_discards: int = 0
    ron_blocked: bool = False
    kongs: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Winner:
    seat: int
    win_by: str
    discarder: int
    result: dict[str, Any]


class Game:
    """One hand. `wall` and `hands` (kinds) replace the shuffle and the deal for scenarios."""

    def __init__(self, engine: Any, *, seed: int = 0, dealer: int = 0, dealer_streak: int = 0,
                 options: dict[str, Any] | None = None, wall: list[int] | None = None,
                 hands: list[list[int]] | None = None, indicator: int | None = None):
        self._base(engine, seed, dealer, dealer_streak, game_constants(engine.variant, options))
        self.rng: random.Random | None = random.Random(seed)  # the setup's: shuffle, dice
        self._setup(wall, hands, indicator)

    def _base(self, engine: Any, seed: int, dealer: int, dealer_streak: int, constants: tuple,
              seats: list[Seat] | None = None) -> None:
        """Every attribute before the setup (the C loop's hand-off in fastplay.py starts from here too, with
        the seats it played)."""
        self.engine = engine
        self.v: Variant = engine.variant
        self.n = self.v.players
        self.seed = seed
        self.dealer = dealer
        self.dealer_streak = dealer_streak
        self.options, self._overrides, self._scored, self._retain_const, memo, self._draws = constants
        self._retain_memo = memo  # shared by every hand with these constants (its key holds the rest)
        self.seats = seats if seats is not None else [Seat() for _ in range(self.n)]
        self._ev: list[dict[str, Any]] = []
        self._compact: Any = None  # the C loop's events, turned into dicts when `events` is first read
        self.wild: int | None = None
        self.indicator: int | None = None
        self.discard_count = 0
        self.claims_made = 0
        self.first_round: list[int] = []  # first discards while no claim has happened
        self.winners: list[Winner] = []
        self.loose: list[int] = []  # a robbed kong tile, in transit to its winner
        self.indicator_taken = False
        self.over = False
        self.outcome: dict[str, Any] | None = None
        self._pending: dict[int, list[Action]] = {}
        self._answers: dict[int, Action] = {}
        self.phase = "setup"
        self.env = GameEnv(self)

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event of the hand so far, as logged (JSON-ready dicts)."""
        if self._compact is not None:
            from .fastplay import materialise

            self._ev[:0] = materialise(self, self._compact)
            self._compact = None
        return self._ev

    def decision_count(self) -> int:
        """How many actions the seats took (the "action" events), without building the event dicts."""
        n = sum(1 for e in self._ev if e["type"] == "action")
        if self._compact is not None:
            from .fastplay import compact_actions

            n += compact_actions(self._compact)
        return n

    # ---- facts ---------------------------------------------------------------------------------------
    @property
    def drawable(self) -> int:
        """D = W - R: tiles that may still be drawn, the retained dead wall excluded."""
        return self.tail - self.head - self.retained()

    def retained(self, extra_exposed: int = 0, extra_concealed: int = 0) -> int:
        if self._retain_const is not None:
            return self._retain_const
        memo = self._retain_memo
        if memo is not None:
            # the retention reads only kong counts, flowers and the hand's constants (see _retain_plan)
            exposed = concealed = 0
            for s in self.seats:
                for m in s.melds:
                    if m.kind == "kong":
                        if m.concealed:
                            concealed += 1
                        else:
                            exposed += 1
            key = (self.dealer, self.dealer_streak, extra_exposed, extra_concealed, exposed, concealed,
                   tuple([tuple(s.flowers) for s in self.seats]))
            hit = memo.get(key)
            if hit is not None:
                return hit
        self.env.extra_kongs = (extra_exposed, extra_concealed)
        try:
            r = int(self.env.eval(self.v.wall.retain, "wall"))
        finally:
            self.env.extra_kongs = (0, 0)
        if memo is not None:
            if len(memo) >= 100_000:
                memo.clear()
            memo[key] = r
        return r

    def log(self, event: str, /, **data: Any) -> None:
        self._ev.append({"type": event, **data})

    def opt(self, e: Expr | None, default: bool = True) -> bool:
        return default if e is None else bool(self.env.eval(e, "config"))

    # ---- setup: shuffle, deal, flowers, wild -----------------------------------------------------------
    def _setup(self, wall: list[int] | None, hands: list[list[int]] | None, indicator: int | None) -> None:
        v = self.v
        tiles = [k for k in v.tiles.kinds for _ in range(v.tiles.copies[k])]
        dice = [self.rng.randint(1, 6), self.rng.randint(1, 6)]
        self.log("start", variant=v.name, dealer=self.dealer, dealer_streak=self.dealer_streak, seed=self.seed,
                 dice=dice)
        self._full_wall = hands is None
        if hands is None:
            self.rng.shuffle(tiles)
            self.wall = tiles
        else:
            self.wall = list(wall or [])
        self.head, self.tail = 0, len(self.wall)
        if hands is None:
            order = [(self.dealer + i) % self.n for i in range(self.n)]
            for r in v.deal.rounds:
                for s in order:
                    self.seats[s].concealed += self._take_head(r)
            self.seats[self.dealer].concealed += self._take_head(v.deal.dealer_extra)
        else:
            for s, h in enumerate(hands):
                self.seats[s].concealed = list(h)
        self.log("deal", hands=[sorted(tile_name(k) for k in s.concealed) for s in self.seats],
                 wall=self.tail - self.head)
        if v.wild is not None and not v.wild.after_flowers:
            self._reveal_wild(indicator)
        if v.flowers is not None:
            self._initial_flowers()
        if v.wild is not None and v.wild.after_flowers:
            self._reveal_wild(indicator)
        for s in self.seats:
            s.concealed.sort()
        self.current = self.dealer
        self.drawn: int | None = None
        self.source = "deal"
        self._start_play()

    def _take_head(self, n: int) -> list[int]:
        out = self.wall[self.head:self.head + n]
        self.head += len(out)
        return out

    def _take_tail(self) -> int:
        self.tail -= 1
        return self.wall[self.tail]

    def _initial_flowers(self) -> None:
        scored = set(self.v.tiles.scored_flowers)
        while True:
            moved = False
            for i in range(self.n):
                s = self.seats[(self.dealer + i) % self.n]
                fl = [k for k in s.concealed if k in scored]
                if not fl:
                    continue
                moved = True
                for k in fl:
                    s.concealed.remove(k)
                    s.flowers.append(k)
                    if self.tail > self.head:
                        s.concealed.append(self._take_tail())
                self.log("flowers", seat=(self.dealer + i) % self.n, tiles=[tile_name(k) for k in fl])
            if not moved:
                return

    def _reveal_wild(self, indicator: int | None) -> None:
        w = self.v.wild
        if w.mode == "fixed":
            self.wild = w.fixed
            self.log("wild", wild=tile_name(self.wild))
            return
        scored = set(self.v.tiles.scored_flowers)
        if indicator is not None:  # a scenario names it; it is not in the wall
            k = indicator
        elif w.indicator_end == "tail":
            while True:
                k = self._take_tail()
                if k in scored and w.flowers_to_dealer:
                    self.seats[self.dealer].flowers.append(k)
                    self.log("flowers", seat=self.dealer, tiles=[tile_name(k)], flipped=True)
                    continue
                break
        else:
            stack = sum(self.rng.randint(1, 6) for _ in range(2)) if w.indicator_dice_stack else 1
            pos = min(self.head + 2 * (stack - 1), self.tail - 1)
            k = self.wall.pop(pos)
            self.tail -= 1
        self.indicator = k
        self.wild = w.wild_kind(k)
        self.log("wild", indicator=tile_name(k), wild=tile_name(self.wild))

    def _start_play(self) -> None:
        rd = self.v.ready_declaration
        if rd is not None:
            who = [s for s in range(self.n) if rd.by == "all" or s != self.dealer]
            cand = {s: [{"type": "declare_ready"}, {"type": "pass"}] for s in who if self._ready(s)}
            if cand:
                self.phase = "ready"
                self._ask(cand)
                return
        self._turn(self.dealer, None, "deal")

    # ---- deciding -------------------------------------------------------------------------------------
    def pending(self) -> dict[int, list[Action]]:
        """Seats that must decide now, each with its legal actions (deciding seats not yet answered)."""
        return {s: list(a) for s, a in self._pending.items() if s not in self._answers}

    def next_decision(self) -> tuple[int, list[Action]]:
        """The lowest seat that must decide now and its legal actions: min(pending()) and its list."""
        answers = self._answers
        seat = min(s for s in self._pending if s not in answers)
        return seat, list(self._pending[seat])

    def _ask(self, cand: dict[int, list[Action]]) -> None:
        self._pending, self._answers = cand, {}

    def act(self, seat: int, action: Action) -> None:
        """Take one seat's decision. Raises IllegalAction, leaving the game unchanged, if it is not legal."""
        if self.over:
            raise IllegalAction(f"seat {seat}: the hand is over")
        legal = self._pending.get(seat)
        if legal is None or seat in self._answers:
            who = ", ".join(str(s) for s in self.pending()) or "nobody"
            raise IllegalAction(f"seat {seat} is not to act now ({self.phase}); waiting for seat(s) {who}")
        norm = _normalise(action)
        if not any(a is action for a in legal) and norm not in [_normalise(a) for a in legal]:
            raise IllegalAction(f"seat {seat}: {_show(action)} is not legal now ({self.phase}); legal: "
                                + ", ".join(_show(a) for a in legal))
        self._answers[seat] = norm
        self.log("action", seat=seat, action=norm)
        if len(self._answers) == len(self._pending):
            answers, self._pending, self._answers = self._answers, {}, {}
            getattr(self, "_resolve_" + self.phase)(answers)

    # ---- phases ---------------------------------------------------------------------------------------
    def _resolve_ready(self, answers: dict[int, Action]) -> None:
        for s, a in sorted(answers.items()):
            if a["type"] == "declare_ready":
                self.seats[s].declared_ready = True
        self._turn(self.dealer, None, "deal")

    def _turn(self, seat: int, drawn: int | None, source: str) -> None:
        self.phase, self.current, self.drawn, self.source = "turn", seat, drawn, source
        s = self.seats[seat]
        acts: list[Action] = []
        if source != "claim" and self._wins(seat, self._self_win_by(seat)):
            acts.append({"type": "win"})
        if source != "claim":
            acts += self._own_kongs(seat)
        if s.declared_ready and self.v.ready_declaration and self.v.ready_declaration.locks_hand and drawn is not None:
            acts.append({"type": "discard", "tile": _NAMES[drawn]})
        else:
            acts += [{"type": "discard", "tile": _NAMES[k]} for k in sorted(set(s.concealed))]
        self._ask({seat: acts})

    def _self_win_by(self, seat: int) -> str:
        if self.source == "replacement":
            return "kong_replacement"
        if self.source == "deal" and seat == self.dealer and self.seats[seat].first_turn:
            return "dealt"
        return "self_draw"

    def _resolve_turn(self, answers: dict[int, Action]) -> None:
        seat, a = next(iter(answers.items()))
        s = self.seats[seat]
        if a["type"] == "win":
            self._win([Winner(seat, self._self_win_by(seat), -1, self._last_eval)])
            return
        if a["type"] == "kong":
            self._declare_kong(seat, a)
            return
        k = _kind(a["tile"])
        s.concealed.remove(k)
        s.discards.append(k)
        first = self.discard_count == 0
        self.discard_count += 1
        if seat == self.dealer:
            s.first_turn = False
        if self.claims_made == 0 and len(self.first_round) < self.n:
            self.first_round.append(k)
        if k == self.wild:
            s.wild_discards += 1
        self.log("discard", seat=seat, tile=_NAMES[k])
        self.last_discard = (seat, k, first)
        self._after_discard()

    def _after_discard(self) -> None:
        """抢金 on the first discard (when the spec has it), then the claims."""
        first = self.last_discard[2]
        rw = self.v.rob_wild
        if rw is not None and first and self.indicator is not None:
            order = self._rob_order(rw.order)
            self._rob_queue = [p for p in order if self._can_rob_wild(p)]
            if self._rob_queue:
                self.phase = "rob_wild"
                self._ask({self._rob_queue[0]: [{"type": "rob_gold"}, {"type": "pass"}]})
                return
        self._open_claims()

    def _rob_order(self, order: tuple[str, ...]) -> list[int]:
        out: list[int] = []
        for who in order:
            if who == "non_dealers":
                out += [(self.dealer + i) % self.n for i in range(1, self.n)]
            elif who == "dealer":
                out.append(self.dealer)
        return out

    def _resolve_rob_wild(self, answers: dict[int, Action]) -> None:
        seat, a = next(iter(answers.items()))
        if a["type"] == "rob_gold":
            self.seats[seat].concealed.append(self.indicator)
            self.seats[seat].concealed.sort()
            self.indicator_taken = True
            self._win([Winner(seat, "rob_gold", -1, self._rob_eval[seat])])
            return
        self._rob_queue.pop(0)
        if self._rob_queue:
            self._ask({self._rob_queue[0]: [{"type": "rob_gold"}, {"type": "pass"}]})
        else:
            self._open_claims()

    def _open_claims(self) -> None:
        d, k, first = self.last_discard
        self._claim_eval: dict[int, dict] = {}
        cand: dict[int, list[Action]] = {}
        unclaimable = k == self.wild and self.v.wild is not None and self.v.wild.discard_unclaimable
        last = self.drawable <= 0
        for i in range(1, self.n):
            p = (d + i) % self.n
            acts: list[Action] = []
            if not unclaimable:
                if not self.seats[p].ron_blocked and self._wins(p, "discard", tile=k, discarder=d, first=first):
                    self._claim_eval[p] = self._last_eval
                    acts.append({"type": "win"})
                if not (last and self.v.wall.last_discard_win_only) and not self._locked(p):
                    acts += self._calls(p, d, k)
            if acts:
                cand[p] = acts + [{"type": "pass"}]
        if cand:
            self.phase = "claims"
            self._ask(cand)
        else:
            self._next_draw((d + 1) % self.n)

    def _resolve_claims(self, answers: dict[int, Action]) -> None:
        d, k, _ = self.last_discard
        wins = [p for p, a in answers.items() if a["type"] == "win"]
        for p, a in answers.items():
            if a["type"] != "win" and p in self._claim_eval and self.opt(self.v.claims.pass_blocks_ron, False):
                self.seats[p].ron_blocked = True
        if wins:
            self._win([Winner(p, "discard", d, self._claim_eval[p])
                       for p in self._pick_winners(wins, d, self._claim_eval)])
            return
        for level in self.v.claims.priority:
            for i in range(1, self.n):
                p = (d + i) % self.n
                a = answers.get(p)
                if a is not None and _claim_kind(a) in level and a["type"] != "pass":
                    self._take_claim(p, d, k, a)
                    return
        self._next_draw((d + 1) % self.n)

    def _pick_winners(self, claimants: list[int], d: int, evals: dict[int, dict]) -> list[int]:
        """The spec's winner rule: everyone, or the first in play order after `d` (a preferred pattern first)."""
        order = sorted(claimants, key=lambda p: (p - d) % self.n)
        rule = next((r for r in self.v.claims.winners if self.opt(r.cond)), None)
        if rule is None or rule.mode == "all":
            return order
        preferred = [p for p in order if evals[p].get("pattern") in rule.prefer]
        return [(preferred or order)[0]]

    def _take_claim(self, p: int, d: int, k: int, a: Action) -> None:
        s = self.seats[p]
        self.seats[d].discards.pop()
        self.claims_made += 1
        s.first_turn = False
        s.ron_blocked = False
        if a["type"] == "pon":
            for _ in range(2):
                s.concealed.remove(k)
            s.melds.append(Meld("pon", (k, k, k)))
            self.log("pon", seat=p, tile=tile_name(k), discarder=d)
            self._turn(p, None, "claim")
        elif a["type"] == "chi":
            pair = [_kind(t) for t in a["tiles"]]
            for t in pair:
                s.concealed.remove(t)
            s.melds.append(Meld("chi", tuple(sorted(pair + [k]))))
            self.log("chi", seat=p, tile=tile_name(k), discarder=d, tiles=a["tiles"])
            self._turn(p, None, "claim")
        else:
            for _ in range(3):
                s.concealed.remove(k)
            s.melds.append(Meld("kong", (k, k, k, k)))
            s.kongs.append({"kind": "exposed", "tile": k, "robbed": False, "from": d})
            self.log("kong", seat=p, kind="exposed", tile=tile_name(k), discarder=d)
            self._replacement(p)

    # ---- kongs -----------------------------------------------------------------------------------------
    def _own_kongs(self, seat: int) -> list[Action]:
        s, v = self.seats[seat], self.v
        if self._locked(seat) and not self.opt(
                v.ready_declaration.concealed_kong_keeping_waits if v.ready_declaration else None, False):
            return []
        out = []
        if "concealed" in v.claims.kongs and self._kong_room(0, 1):
            for k in sorted(set(s.concealed)):
                if s.concealed.count(k) == 4 and not self._no_call(k):
                    if self._locked(seat) and not self._keeps_waits(seat, k):
                        continue
                    out.append({"type": "kong", "kind": "concealed", "tile": tile_name(k)})
        if "added" in v.claims.kongs and self._kong_room(1, 0) and not self._locked(seat):
            for m in s.melds:
                if m.kind == "pon" and m.tiles[0] in s.concealed:
                    out.append({"type": "kong", "kind": "added", "tile": tile_name(m.tiles[0])})
        return out

    def _keeps_waits(self, seat: int, k: int) -> bool:
        s = self.seats[seat]
        before = self._waits_of(s.concealed, s.melds, seat)
        after = self._waits_of([t for t in s.concealed if t != k] + [k], s.melds + [Meld("kong", (k,) * 4, True)],
                               seat, drop=k)
        return before == after

    def _waits_of(self, concealed: list[int], melds: list[Meld], seat: int, drop: int | None = None) -> list[str]:
        conc = list(concealed)
        if drop is not None:
            for _ in range(4):
                conc.remove(drop)
        if self.drawn is not None and self.drawn in conc and drop is None:
            conc.remove(self.drawn)
        sit = self._situation(seat, conc, melds, None, "self_draw", -1)
        return [w["tile"] for w in self.engine.waits(sit)]

    def _kong_room(self, exposed: int, concealed: int) -> bool:
        """A kong needs its replacement to be drawable after the retention grows (FJ-22's guard)."""
        if not self.v.wall.kong_needs_replacement:
            return self.tail - self.head - self.retained() >= 1
        return self.tail - self.head - self.retained(exposed, concealed) >= 1

    def _declare_kong(self, seat: int, a: Action) -> None:
        s, k = self.seats[seat], _kind(a["tile"])
        if a["kind"] == "concealed":
            for _ in range(4):
                s.concealed.remove(k)
            s.melds.append(Meld("kong", (k,) * 4, True))
            s.kongs.append({"kind": "concealed", "tile": k, "robbed": False, "from": seat})
            self.log("kong", seat=seat, kind="concealed", tile=tile_name(k))
            self._replacement(seat)
            return
        # added kong: others may rob it first
        self._robk = (seat, k)
        self._robk_eval = {}
        cand = {}
        if "added" in self.v.claims.rob_kong:
            for i in range(1, self.n):
                p = (seat + i) % self.n
                if self._wins(p, "rob_kong", tile=k, discarder=seat):
                    self._robk_eval[p] = self._last_eval
                    cand[p] = [{"type": "win"}, {"type": "pass"}]
        self.log("kong_declared", seat=seat, kind="added", tile=tile_name(k))
        if cand:
            self.phase = "rob_kong"
            self._ask(cand)
        else:
            self._complete_added_kong()

    def _resolve_rob_kong(self, answers: dict[int, Action]) -> None:
        seat, k = self._robk
        wins = [p for p, a in answers.items() if a["type"] == "win"]
        if not wins:
            self._complete_added_kong()
            return
        self.seats[seat].concealed.remove(k)
        self.loose.append(k)  # the robbed tile goes to the winner(s); counted once
        self.seats[seat].kongs.append({"kind": "added", "tile": k, "robbed": True, "from": seat})
        self._win([Winner(p, "rob_kong", seat, self._robk_eval[p])
                   for p in self._pick_winners(wins, seat, self._robk_eval)])

    def _complete_added_kong(self) -> None:
        seat, k = self._robk
        s = self.seats[seat]
        s.concealed.remove(k)
        i = next(i for i, m in enumerate(s.melds) if m.kind == "pon" and m.tiles[0] == k)
        s.melds[i] = Meld("kong", (k,) * 4)
        s.kongs.append({"kind": "added", "tile": k, "robbed": False, "from": seat})
        self.log("kong", seat=seat, kind="added", tile=tile_name(k))
        self._replacement(seat)

    def _replacement(self, seat: int) -> None:
        k = self._draw_tile(seat, tail=True)
        if k is not None:
            self._turn(seat, k, "replacement")

    # ---- drawing ------------------------------------------------------------------------------------------
    def _next_draw(self, seat: int) -> None:
        fr = self.v.wall.final_round
        d = self.drawable
        if fr and d <= fr and d > 0:
            self._final_round(seat, min(d, fr))
            return
        if d <= 0:
            self._draw_game("the wall is exhausted")
            return
        k = self._draw_tile(seat, tail=False)
        if k is not None:
            self._turn(seat, k, "draw")

    def _draw_tile(self, seat: int, tail: bool, replace_flowers: bool = True) -> int | None:
        s = self.seats[seat]
        scored = self._scored
        while True:
            if self.drawable <= 0:
                self._draw_game("the wall ran out during a replacement" if tail else "the wall is exhausted")
                return None
            k = self._take_tail() if tail else self._take_head(1)[0]
            s.first_turn = False
            s.ron_blocked = False
            self.log("draw", seat=seat, tile=_NAMES[k], tail=tail)
            if k in scored and replace_flowers:
                s.flowers.append(k)
                self.log("flowers", seat=seat, tiles=[tile_name(k)])
                tail = True
                continue
            if k in scored:
                s.flowers.append(k)
                return None
            s.concealed.append(k)
            s.concealed.sort()
            return k

    def _final_round(self, seat: int, count: int) -> None:
        self.log("final_round", draws=count)
        self._final_draws(seat, count, 0)

    def _final_draws(self, seat: int, count: int, start: int) -> None:
        for i in range(start, count):
            p = (seat + i) % self.n
            k = self._draw_tile(p, tail=False, replace_flowers=False)
            if self.over:
                return
            if k is None:
                continue
            self.source, self.drawn, self.current = "draw", k, p
            if self._final_win(p):
                return
        self._draw_game("nobody won the final round")

    def _final_win(self, p: int) -> bool:
        """The final round's self-drawn win of seat p, on the tile it just drew (game over when it wins)."""
        if self._wins(p, "self_draw"):
            self.log("auto_win", seat=p)
            self._win([Winner(p, "self_draw", -1, self._last_eval)])
            return True
        return False

    def _final_resume(self, seat: int, count: int, i: int) -> None:
        """The final round from its i-th draw's win check on (where the C loop hands the hand over)."""
        if not self._final_win((seat + i) % self.n):
            self._final_draws(seat, count, i + 1)

    # ---- wins and the end ---------------------------------------------------------------------------------
    def _situation(self, seat: int, concealed: list[int], melds: list[Meld], tile: int | None, win_by: str,
                   discarder: int, first: bool = False) -> Situation:
        s = self.seats[seat]
        return _new_situation(
            seat, self.dealer, tuple(sorted(concealed)), tuple(melds), tile, win_by, discarder, self.wild,
            self.indicator if self.v.wild is not None and self.v.wild.mode != "fixed" else None,
            tuple(s.flowers), s.wild_discards, self.dealer_streak, s.first_turn, first, s.declared_ready,
            self._overrides, 1, None)

    def _wins(self, seat: int, win_by: str, tile: int | None = None, discarder: int = -1,
              first: bool = False) -> bool:
        s = self.seats[seat]
        conc = list(s.concealed)
        if win_by in ("discard", "rob_kong"):
            conc.append(tile)
        elif win_by == "dealt":
            tile = None
        else:
            tile = self.drawn if self.drawn is not None else (conc[-1] if conc else None)
        sit = self._situation(seat, conc, s.melds, tile, win_by, discarder, first)
        r = self.engine.judge(sit)
        self._last_eval = r
        return bool(r["win"])

    def _can_rob_wild(self, seat: int) -> bool:
        s = self.seats[seat]
        conc = list(s.concealed) + [self.indicator]
        sit = self._situation(seat, conc, s.melds, self.indicator, "rob_gold", -1)
        r = self.engine.judge(sit)
        req = self.v.rob_wild.requires
        shapes = {p.shape for p in self.v.patterns if p.name in req}
        pat_shape = next((p.shape for p in self.v.patterns if p.name == r.get("pattern")), None)
        if r["win"] and (not req or r["pattern"] in req or pat_shape in shapes):
            self._rob_eval = getattr(self, "_rob_eval", {})
            self._rob_eval[seat] = r
            return True
        return False

    def _ready(self, seat: int) -> bool:
        s = self.seats[seat]
        sit = self._situation(seat, s.concealed, s.melds, None, "self_draw", -1)
        try:
            return bool(self.engine.waits(sit))
        except ValueError:
            return False

    def _locked(self, seat: int) -> bool:
        rd = self.v.ready_declaration
        return bool(rd and rd.locks_hand and self.seats[seat].declared_ready)

    def _no_call(self, k: int) -> bool:
        return k == self.wild and self.v.wild is not None and self.v.wild.no_calls

    def _calls(self, p: int, d: int, k: int) -> list[Action]:
        c, v = self.seats[p].concealed, self.v
        if self._no_call(k):
            return []
        out: list[Action] = []
        if "exposed" in v.claims.kongs and c.count(k) >= 3 and self._kong_room(1, 0):
            out.append({"type": "kong", "kind": "exposed", "tile": _NAMES[k]})
        if v.claims.pon and c.count(k) >= 2:
            out.append({"type": "pon"})
        chi_ok = v.claims.chi_from == "any" or (v.claims.chi_from == "previous" and p == (d + 1) % self.n)
        honours_ok = k >= 27 and self.opt(v.claims.chi_honours, False) if v.claims.chi_honours else False
        if chi_ok and (k < 27 or honours_ok):
            seen = set()
            for lo in (k - 2, k - 1, k):
                run = [lo, lo + 1, lo + 2]
                if any(t < 0 for t in run) or len({t // 9 for t in run}) != 1 or (k < 27 and run[2] >= 27):
                    continue
                if k >= 27 and not (run[0] >= 27 and run[2] <= 33 and (run[0] - 27) // 4 == (run[2] - 27) // 4):
                    continue
                need = [t for t in run if t != k]
                if all(c.count(t) >= need.count(t) for t in need) and not any(self._no_call(t) for t in need):
                    key = tuple(need)
                    if key not in seen:
                        seen.add(key)
                        out.append({"type": "chi", "tiles": [_NAMES[t] for t in need]})
        return out

    def _win(self, winners: list[Winner]) -> None:
        dealer_won = any(w.seat == self.dealer for w in winners)
        final = []
        for w in winners:
            r = w.result
            if len(winners) > 1 or dealer_won != (w.seat == self.dealer):
                s = self.seats[w.seat]
                conc = list(s.concealed) + ([self._tile_of(w)] if w.win_by in ("discard", "rob_kong") else [])
                sit = self._situation(w.seat, conc, s.melds, self._tile_of(w), w.win_by, w.discarder,
                                      w.win_by == "discard" and self.last_discard[2])
                r = self.engine.judge(sit.replace(winners=len(winners), dealer_won=dealer_won))
            final.append(Winner(w.seat, w.win_by, w.discarder, r))
            self.log("win", seat=w.seat, win_by=w.win_by, discarder=w.discarder, patterns=r["patterns"],
                     value=r["value"])
        self.winners = final
        self._finish()

    def _tile_of(self, w: Winner) -> int | None:
        if w.win_by == "discard":
            return self.last_discard[1]
        if w.win_by == "rob_kong":
            return self._robk[1]
        if w.win_by == "rob_gold":
            return self.indicator
        if w.win_by == "dealt":
            return None
        return self.drawn

    def _draw_game(self, why: str) -> None:
        self.log("exhausted", reason=why)
        self._finish()

    def _finish(self) -> None:
        self.over = True
        self.phase = "over"
        self._pending, self._answers = {}, {}
        if self.winners:
            net, ledger = settle_hand(self)
            nxt, streak = rotation(self)
        else:  # a draw: the same few table states recur, so their settlement is remembered
            net, ledger, nxt, streak = self._draws.settle(self)
        self.outcome = {"winners": [{"seat": w.seat, "win_by": w.win_by, "discarder": w.discarder,
                                     "pattern": w.result["pattern"], "patterns": w.result["patterns"],
                                     "value": w.result["value"]} for w in self.winners],
                        "payments": {str(p): v for p, v in sorted(net.items())}, "ledger": ledger,
                        "next_dealer": nxt, "next_streak": streak}
        self.log("end", **{k: v for k, v in self.outcome.items() if k != "ledger"})

    # ---- views ---------------------------------------------------------------------------------------
    def view(self, seat: int) -> dict[str, Any]:
        """What one seat may see: its own tiles, everyone's melds, flowers and discards, the wall count."""
        me, names = self.seats[seat], TILE_NAMES
        return {
            "seat": seat, "dealer": self.dealer, "phase": self.phase,
            "concealed": [names[k] for k in me.concealed],
            "drawn": names[self.drawn] if self.drawn is not None and seat == self.current else None,
            "wild": names[self.wild] if self.wild is not None else None,
            "indicator": names[self.indicator] if self.indicator is not None else None,
            "drawable": self.drawable,
            "last_discard": names[self.last_discard[1]] if self.phase == "claims" else
            names[self._robk[1]] if self.phase == "rob_kong" else None,
            "players": [{"melds": [_meld_text(m) for m in s.melds], "flowers": [names[k] for k in s.flowers],
                         "discards": [names[k] for k in s.discards], "concealed_count": len(s.concealed),
                         "declared_ready": s.declared_ready} for s in self.seats],
        }

    def invariant_errors(self) -> list[str]:
        """Broken invariants (always empty): every tile in one place, legal hand sizes."""
        errs = []
        c = self.tile_census()
        if self.v.tiles.copies != tuple(c) and list(self.v.tiles.copies) != c and self._full_wall:
            bad = [f"{tile_name(k)}: {c[k]} of {self.v.tiles.copies[k]}" for k in range(42) if c[k] != self.v.tiles.copies[k]]
            errs.append("tiles out of place: " + ", ".join(bad))
        for i, s in enumerate(self.seats):
            size = len(s.concealed) + 3 * len(s.melds)
            turn = not self.over and self.phase in ("turn", "rob_kong") and i == self.current
            want = {self.v.win_size - 1, self.v.win_size} if (turn or self.over) else {self.v.win_size - 1}
            if i == self.dealer and self.phase in ("ready", "setup"):
                want = {self.v.win_size}
            if size not in want:
                errs.append(f"seat {i} holds {size} tiles in phase {self.phase}")
        return errs

    def tile_census(self) -> list[int]:
        """How many of each kind are anywhere: wall, hands, melds, flowers, discards, indicator."""
        c = [0] * 42
        for k in self.wall[self.head:self.tail]:
            c[k] += 1
        for s in self.seats:
            for k in s.concealed + s.flowers + s.discards:
                c[k] += 1
            for m in s.melds:
                for k in m.tiles:
                    c[k] += 1
        if self.indicator is not None and not self.indicator_taken:
            c[self.indicator] += 1
        for k in self.loose:
            c[k] += 1
        return c


@functools.cache
def _meld_text(m: Meld) -> str:
    return str(m)


_NAMES = TILE_NAMES
_KIND_OF = {n: k for k, n in enumerate(TILE_NAMES)}


def _kind(name: str) -> int:
    k = _KIND_OF.get(name) if type(name) is str else None
    if k is not None:
        return k
    from .tiles import parse_tile

    return parse_tile(name).kind


_RETAIN_VARS = frozenset({"kongs_exposed", "kongs_concealed", "kongs", "dealer", "dealer_streak"})
_PURE_OPS = frozenset({"const", "enum", "group", "add", "sub", "mul", "div", "pow", "eq", "ne", "lt", "le", "gt",
                       "ge", "neg", "not", "and", "or", "if", "in", "max", "min"})


def game_constants(v: Variant, options: dict[str, Any] | None) -> tuple:
    """What every hand of this variant with these options shares: (options, the overrides of the spec's
    defaults, the scored flowers, the constant retention or None, the retentions remembered (None when the
    retention may not be memoised), the settlement of draws remembered)."""
    key = tuple(sorted((options or {}).items(), key=lambda kv: kv[0]))
    memo = _CONSTANTS.setdefault(id(v), (v, {}))[1]
    try:
        return memo[key]
    except (KeyError, TypeError):
        pass
    defaults = v.option_defaults()
    opts = defaults | dict(options or {})
    overrides = {k: x for k, x in opts.items() if defaults.get(k, x) != x}
    const, retain_memo = _retain_plan(v)
    got = (opts, overrides, frozenset(v.tiles.scored_flowers), const, retain_memo, DrawMemo(v))
    try:
        memo[key] = got
    except TypeError:  # an unhashable option value: nothing to remember it by
        pass
    return got


_CONSTANTS: dict[int, tuple[Variant, dict]] = {}


def _retain_plan(v: Variant) -> tuple[int | None, dict | None]:
    """(the retention when it is a constant, else None; a memo when it reads only kong counts, flowers, options,
    the dealer and his streak: shared by the hands with the same options, keyed by the rest)."""
    e = v.wall.retain
    if e.op == "const":
        return int(e.args[0]), None

    def pure(x: Expr) -> bool | None:
        op = x.op
        if op == "var":
            return x.args[0] in _RETAIN_VARS
        if op in ("opt", "const", "enum", "group"):
            return True
        if op in ("call", "ref"):  # the flower builtins (and max, min) over every seat's flowers; defines
            return None
        return None if op in _PURE_OPS else False

    return None, ({} if every_node(v, [e], pure) else None)


def _normalise(a: Action) -> Action:
    if not isinstance(a, dict) or "type" not in a:
        raise IllegalAction(f"an action is an object with a 'type', not {a!r}")
    out = {"type": a["type"]}
    for key in ("tile", "kind"):
        if key in a:
            out[key] = a[key]
    if "tiles" in a:
        out["tiles"] = sorted(a["tiles"])
    return out


def _claim_kind(a: Action) -> str:
    return a["type"]


def _show(a: Action) -> str:
    return " ".join(str(v) if not isinstance(v, list) else "".join(v) for v in a.values())
