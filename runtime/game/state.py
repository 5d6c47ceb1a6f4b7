# cython: annotation_typing=False
"""The game: one hand of any compiled variant, a state machine that agents drive through a step API.

This module is the one implementation of the rules of play: the deal, flowers, the wild's reveal, the ready
declaration, the turn loop, claims and their arbitration, kongs and robbing them, the windows of the spec (抢金,
the final round), the wall's end, and the hand's outcome (settled by mjrules.game.settle). It knows no variant:
everything it does differently per variant comes from the IR, read once per variant and options into `Rules`.
It is plain Python, and it is also compiled by Cython (pure-Python mode, typed by `state.pxd`): the same source
runs interpreted and compiled.

The step API:

    g = Game(engine, seed=7)             # or engine.new_game(seed=7)
    while not g.over:
        seat = g.to_act                  # the seat that decides now
        ids = g.legal_ids()              # its legal actions as stable integer ids (see ACTION_IDS)
        g.step(ids[0])                   # or g.step({"type": "discard", "tile": "5m"})
    g.outcome                            # winners, payments, ledger, next dealer

Several seats may have to decide at once (the claims on a discard): `pending()` lists them all and
`act(seat, action)` takes any one's answer; `step` answers for `to_act`, the first of them in play order. An
illegal action raises IllegalAction and leaves the game unchanged. `observe(seat)` gives NumPy arrays,
`view(seat)` the readable view; `copy()`, `to_state()` and `Game.from_state` copy and serialise a game.
"""
from __future__ import annotations

from typing import Any

import cython

from ..model.situation import new_situation
from ..model.tiles import TILE_NAMES, Meld
from .actions import KONG_KINDS, PHASES, SIMPLE_ACTIONS, IllegalAction, describe_action
from .rng import Rng
from .rules import Rules, rules_for
from .seat import Seat, Winner, meld_of, tiles_of

# ---- constants: the action ids and phases are mjrules.game.actions' (the public, stable ones); sources, kong kinds
# and claim kinds are the state machine's own. Compiled, they are the C enums of state.pxd (which must give the same
# values; a test holds them equal).
if not cython.compiled:
    from .actions import (
        ABORT,
        CHI_HIGH,
        CHI_LOW,
        CHI_MID,
        CHOOSE,
        CLAIMS,
        DECLARE,
        DECLARE_READY,
        DISCARD,
        EXCHANGE,
        KONG,
        N_ACTIONS,
        N_KINDS,
        OVER,
        PASS,
        PON,
        READY,
        ROB_KONG,
        ROB_WILD,
        ROB_WILD_PHASE,
        SELECT,
        SETUP,
        TURN,
        WIN,
    )

    SRC_DEAL = 0           # where the tile of a turn came from
    SRC_DRAW = 1
    SRC_CLAIM = 2
    SRC_REPLACEMENT = 3

    K_EXPOSED = 0          # kong kinds
    K_ADDED = 1
    K_CONCEALED = 2

    from .rules import C_CHI, C_KONG, C_PON, C_WIN

SOURCES = ("deal", "draw", "claim", "replacement")
ALL_KINDS = (1 << N_KINDS) - 1   # every kind as a bit (the shape test's answers for each tile added)

_NAMES = TILE_NAMES
_KIND_OF = {n: k for k, n in enumerate(TILE_NAMES)}


class Game:
    """One hand. `wall`, `hands` (kinds) and `indicator` replace the shuffle and the deal (scenarios); `dice`, the
    wall break's two dice, replace the seed's (they pick where the shuffled wall is opened: they are logged and
    observed, and change nothing else)."""

    def __init__(self, engine: Any, *, seed: int = 0, dealer: int = 0, dealer_streak: int = 0,
                 options: dict[str, Any] | None = None, wall: list[int] | None = None,
                 hands: list[list[int]] | None = None, indicator: int | None = None, prevalent_wind: int = 0,
                 dice: Any = None, pot: Any = 0):
        r = rules_for(engine, options)
        if not 0 <= dealer < r.n:
            raise ValueError(f"dealer must be a seat 0..{r.n - 1}")
        if not 0 <= prevalent_wind <= 3:
            raise ValueError("prevalent_wind must be 0..3 (East, South, West, North)")
        if dice is not None:
            dice = list(dice)
            if len(dice) != 2 or any(type(d) is not int or not 1 <= d <= 6 for d in dice):
                raise ValueError(f"dice are two numbers 1..6, not {dice!r}")
        self.deal_hand(r, seed, dealer, dealer_streak, prevalent_wind)
        self.pot = pot   # the stakes on the table, carried from the hands before (play_match)
        self._setup(wall, hands, -1 if indicator is None else indicator, dice)

    def deal_hand(self, r: Rules, seed: int, dealer: int, dealer_streak: int, prevalent_wind: int = 0) -> None:
        self.r = r
        self.engine = r.engine
        self.v = r.v
        self.n = r.n
        self.seed = seed
        self.dealer = dealer
        self.dealer_streak = dealer_streak
        self.prevalent_wind = prevalent_wind   # the round's wind (0 East): where a match is in its rounds
        self.seats = [Seat() for _ in range(r.n)]
        self.wall = []
        self.head = 0
        self.tail = 0
        self.full_wall = True
        self.wild = -1
        self.wild2 = -1
        self.indicator = -1
        self.indicator_taken = False
        self.discard_count = 0
        self.claims_made = 0
        self.first_round = []
        self.winners = []
        self.loose = []
        self.over = False
        self.outcome = None
        self.phase = SETUP
        self.current = dealer
        self.drawn = -1
        self.source = SRC_DEAL
        self.ld_seat = -1
        self.ld_tile = -1
        self.ld_first = False
        self.ld_after_kong = False
        self.rk_seat = -1
        self.rk_concealed = False   # the kong on offer to robbers is a concealed one
        self.rk_tile = -1
        self.asking = []
        self.legal = {}
        self.answers = {}
        self.rob_queue = []
        self.ret_cache = -1
        self.pre_step = 0
        self.ledger = []          # payments made during the hand (wins, kongs paid at once, on_win)
        self.pot = 0              # the stakes on the table: carried in, and put in this hand
        self.stakes = []          # (seat, amount) of each stake put into the pot this hand
        self.stake_seat = -1      # a seat whose declaration's discard is on offer: it stakes once nobody wins it
        self.passing = 0          # the seats (bits) the tile on offer would complete: furiten if they let it go
        self.ind_base = 0         # the wall's length at the deal: the indicator stacks lie at fixed places from it
        self.ind_shown = 0        # indicators turned (indicator_stacks)
        self.ind_pending = 0      # kongs whose indicator turns at their maker's next discard
        self.wall_marked = []     # 1 where the wall's tile is a marked copy (tiles { marked ... }); empty: none
        self.aborted = ""         # the abortive draw that ended the hand (abort), if one did
        self.on_offer = False     # a discard is on offer: when it is let go, the aborts are asked
        self.abort_env = None     # the aborts' expression environment, made when first asked
        self.abort_seen = [-1] * len(r.aborts_passed)   # the mark of what each abort read when last found false
        self.liabilities = []     # (claimer, liability name, liable discarder) of each claim that made one
        self.ld_marked = False    # the tile on offer (a discard, an added kong's) is a marked copy
        self.drawn_marked = False  # the tile last drawn is a marked copy (a locked hand lets that very copy go)
        self.horses = []          # tiles turned as horses (set aside before play, or turned at the first win)
        self.shown = []           # (seat, opening index) of each hand shown at the deal
        self.opening_counts = []  # (seat, opening index, count) of each opening a dealt hand qualified for
        self.dice = []            # the wall break's two dice
        self.seating = None       # the seating procedure's throws, in a match's first hand (play_match, scenarios)
        self.first_winners = 0
        self.wall_ended = False
        self.kongs_made = 0       # kongs completed so far (a ledger entry names its kong by this count)
        self.kong_feeder = -1     # who discarded the tile of the latest kong, when it was an exposed one
        self.log = []
        self._ev_cache = []
        self.agent_names = None

    # ---- setup: shuffle, deal, flowers, wild ----------------------------------------------------------------
    def _setup(self, wall: list[int] | None, hands: list[list[int]] | None, indicator: int, dice: Any = None) -> None:
        r = self.r
        rng = Rng(self.seed)
        rolled = [rng.below(6) + 1, rng.below(6) + 1]   # (drawn even when given: the shuffle is the seed's)
        self.dice = rolled if dice is None else list(dice)
        self.log.append(("start", self.dealer, self.dealer_streak, self.seed, tuple(self.dice)))
        if hands is None:
            self.wall = list(r.tiles)
            rng.shuffle(self.wall)
        else:
            self.full_wall = False
            self.wall = list(wall or [])
        self.tail = len(self.wall)
        n = self.n
        if hands is None and r.marked_kinds:   # the first copies of each marked kind in the shuffled wall
            self.wall_marked = [0] * self.tail
            for mk in r.marked_kinds:
                for i in range(self.tail):
                    if self.wall[i] == mk and not self.wall_marked[i]:
                        self.wall_marked[i] = 1
                        break
        if hands is None:
            for take in r.rounds:
                for i in range(n):
                    self._take_into((self.dealer + i) % n, take)
            self._take_into(self.dealer, r.dealer_extra)
        else:
            for p in range(n):
                s = self.seats[p]
                for k in hands[p]:
                    s.counts[k] += 1
                s.size = len(hands[p])
            if r.marked_kinds:   # as dealt from a shuffle: the first copy of a marked kind (by seat, then wall)
                self.wall_marked = [0] * self.tail
                for mk in r.marked_kinds:
                    for p in range(n):
                        s = self.seats[p]
                        if s.counts[mk]:
                            s.marked_hand[mk] += 1
                            break
                    else:
                        if mk in self.wall:
                            self.wall_marked[self.wall.index(mk)] = 1
        self.log.append(("deal", tuple([bytes(s.counts) for s in self.seats]), self.tail - self.head))
        if r.ind_stacks:   # the first indicator is turned at the deal
            self.ind_base = self.tail
            self._turn_indicator()
        for _ in range(0 if r.horse_at_win else min(r.horse_count, self.tail - self.head)):  # set aside from the tail
            self.horses.append(self._take_tail())
        if r.has_wild and not r.wild_after_flowers:
            self._reveal_wild(indicator, rng)
        if r.has_flowers:
            self._initial_flowers()
        if r.has_wild and r.wild_after_flowers:
            self._reveal_wild(indicator, rng)
        self.current = self.dealer
        self.start_play()

    def _take_into(self, seat: int, count: int) -> None:
        s = self.seats[seat]
        for _ in range(count):
            if self.head >= self.tail:
                return
            s.counts[self.wall[self.head]] += 1
            if self.wall_marked and self.wall_marked[self.head]:
                s.marked_hand[self.wall[self.head]] += 1
            self.head += 1
            s.size += 1

    def _take_tail(self) -> int:
        self.tail -= 1
        return self.wall[self.tail]

    def _initial_flowers(self) -> None:
        r = self.r
        n = self.n
        while True:
            moved = False
            for i in range(n):
                p = (self.dealer + i) % n
                s = self.seats[p]
                fl = []
                for k in range(N_KINDS):
                    if r.scored[k]:
                        while s.counts[k]:
                            s.counts[k] -= 1
                            s.size -= 1
                            fl.append(k)
                if not fl:
                    continue
                moved = True
                for k in fl:
                    s.flowers.append(k)
                    self.ret_cache = -1
                    if self.tail > self.head:
                        s.counts[self._take_tail()] += 1
                        s.size += 1
                self.log.append(("flowers", p, tuple(fl), False))
            if not moved:
                return

    def _reveal_wild(self, indicator: int, rng: Rng) -> None:
        r = self.r
        if r.wild_mode == "fixed":
            self.wild = r.wild_fixed
            self.log.append(("wild", -1, self.wild))
            return
        if indicator >= 0:  # a scenario names it; it is not in the wall
            k = indicator
        elif r.indicator_tail:
            while True:
                k = self._take_tail()
                if r.scored[k] and r.flowers_to_dealer:
                    self._seat(self.dealer).flowers.append(k)
                    self.ret_cache = -1
                    self.log.append(("flowers", self.dealer, (k,), True))
                    continue
                break
        else:
            stack = rng.below(6) + rng.below(6) + 2 if r.dice_stack else 1
            pos = min(self.head + 2 * (stack - 1), self.tail - 1)
            k = self.wall.pop(pos)
            self.tail -= 1
        self.indicator = k
        self.wild = r.wild_of[k]
        self.wild2 = r.wild2_of[k]
        if self.wild < 0:
            raise ValueError(f"the indicator {_NAMES[k]} names no wild kind")
        self.log.append(("wild", k, self.wild) if self.wild2 < 0 else ("wild", k, self.wild, self.wild2))

    def start_play(self) -> None:
        """The steps before play (exchanges, declarations), then the ready declaration, then the dealer's turn."""
        r = self.r
        if self.pre_step < len(r.pre):
            step = r.pre[self.pre_step]
            self.pre_step += 1
            from .phases import open_declaration, open_exchange, open_opening

            if step[0] == "exchange":
                open_exchange(self, step[1])
            elif step[0] == "opening":
                open_opening(self, step[1])
            else:
                open_declaration(self, step[1])
            return
        if r.has_rd and not r.rd_turn:   # declared before play (a declaration with a discard is offered on a turn)
            seats = []
            legal = {}
            for i in range(self.n):
                p = (self.dealer + i) % self.n
                if (r.rd_all or p != self.dealer) and (not r.rd_ready or self._ready(p)):
                    seats.append(p)
                    legal[p] = [DECLARE_READY, PASS]
            if seats:
                self.phase = READY
                self.ask_seats(seats, legal)
                return
        self._turn(self.dealer, -1, SRC_DEAL)

    # ---- deciding -------------------------------------------------------------------------------------------
    def ask_seats(self, seats: list, legal: dict) -> None:
        self.asking = seats
        self.legal = legal
        if self.answers:   # (an empty one is kept: most windows are one seat's turn, which never fills it)
            self.answers = {}

    @property
    def to_act(self) -> int:
        """The seat that decides now (the first undecided one in play order), or -1 when the hand is over."""
        return self._to_act()

    def _to_act(self) -> int:
        for p in self.asking:
            if p not in self.answers:
                return p
        return -1

    def legal_ids(self, seat: int = -1) -> list[int]:
        """The legal action ids of `seat` (default: to_act); empty when it is not to decide now."""
        if seat < 0:
            seat = self.to_act
        if seat in self.answers:
            return []
        got = self.legal.get(seat)
        return [] if got is None else list(got)

    def legal_actions(self, seat: int = -1) -> list[dict[str, Any]]:
        """The legal actions of `seat` (default: to_act) as readable dicts, in the order of legal_ids."""
        if seat < 0:
            seat = self.to_act
        return [self.action_dict(a, seat) for a in self.legal_ids(seat)]

    def action_mask(self, seat: int = -1) -> Any:
        """The legal actions of `seat` (default: to_act) as a NumPy bool array of N_ACTIONS."""
        import numpy as np

        m = np.zeros(N_ACTIONS, dtype=bool)
        ids = self.legal_ids(seat)
        if ids:
            m[ids] = True
        return m

    def pending(self) -> dict[int, list[dict[str, Any]]]:
        """Every seat that must decide now, with its legal actions as dicts (seats already answered left out)."""
        return {p: self.legal_actions(p) for p in self.asking if p not in self.answers}

    def step(self, action: Any) -> None:
        """Take the decision of `to_act`: an action id or dict. IllegalAction leaves the game unchanged."""
        if self.over:
            raise IllegalAction("the hand is over")
        self.act(self._to_act(), action)

    def act(self, seat: int, action: Any) -> None:
        """Take one seat's decision (an action id or dict). Raises IllegalAction, leaving the game unchanged, if
        it is not legal now."""
        if self.over:
            raise IllegalAction(f"seat {seat}: the hand is over")
        legal = self.legal.get(seat)
        if legal is None or seat in self.answers:
            who = ", ".join([str(p) for p in self.asking if p not in self.answers]) or "nobody"
            raise IllegalAction(f"seat {seat} is not to act now ({PHASES[self.phase]}); waiting for seat(s) {who}")
        a = self.action_id(action, seat)
        if not _has(legal, a):
            raise IllegalAction(f"seat {seat}: {_show(action)} is not legal now ({PHASES[self.phase]}); legal: "
                                + ", ".join([_show(self.action_dict(x, seat)) for x in legal]))
        self._apply(seat, a)

    def _apply(self, seat: int, a: int) -> None:
        """Take a decision known to be legal: `a` is one of the seat's legal ids and the seat has not answered (act
        checks this; the built-in random agent's choice in run is so by construction)."""
        ph = self.phase
        # a window of one seat whose resolution reads no answers (a turn, 抢金) is resolved without recording it
        alone = len(self.asking) == 1 and (ph == TURN or ph == ROB_WILD_PHASE)
        if not alone:
            self.answers[seat] = a
        self.log.append(_action_event(seat, a, self._action_detail(a, seat)))
        if ph == EXCHANGE or ph == DECLARE:
            from .phases import answered

            answered(self, seat, a)
            return
        if alone or len(self.answers) == len(self.asking):
            answers = self.answers
            offered = self.legal
            self.asking = []
            self.legal = {}
            if answers:
                self.answers = {}
            if ph == TURN:
                self._resolve_turn(seat, a)
            elif ph == CLAIMS:
                self._resolve_claims(answers, offered)
            elif ph == ROB_KONG:
                self._resolve_rob_kong(answers)
            elif ph == ROB_WILD_PHASE:
                self._resolve_rob_wild(seat, a)
            elif ph == READY:
                self._resolve_ready(answers)

    def _action_detail(self, a: int, seat: int) -> Any:
        """What the log needs besides the id: a kong's kind, a chi's claimed tile, a declaration's choice name."""
        if KONG <= a < PON:
            return self._kong_kind(seat, a - KONG)
        if CHI_LOW <= a <= CHI_HIGH:
            return self.ld_tile
        if CHOOSE <= a < ABORT and self.phase == DECLARE:
            choices = self.r.pre[self.pre_step - 1][1].choices
            if a - CHOOSE < len(choices):
                return choices[a - CHOOSE].name
        return -1

    def _kong_kind(self, seat: int, k: int) -> int:
        if self.phase == CLAIMS:
            return K_EXPOSED
        return K_CONCEALED if self._seat(seat).counts[k] == 4 else K_ADDED

    # ---- actions as readable dicts --------------------------------------------------------------------------
    def action_dict(self, a: int, seat: int = -1) -> dict[str, Any]:
        """The readable form of action id `a` for `seat` (default: to_act) in the current state."""
        if seat < 0:
            seat = self.to_act
        return describe_action(a, self._action_detail(a, seat) if seat >= 0 else -1)

    def action_id(self, action: Any, seat: int = -1) -> int:
        """The id of a readable action (a dict with a 'type') for `seat` in the current state; IllegalAction when it
        names no action."""
        if type(action) is int:
            return action
        if not isinstance(action, dict):
            if hasattr(action, "__index__") and not isinstance(action, bool):
                return action.__index__()  # a NumPy integer, say
            raise IllegalAction(f"an action is an id or an object with a 'type', not {action!r}")
        if "type" not in action:
            raise IllegalAction(f"an action is an id or an object with a 'type', not {action!r}")
        t = action["type"]
        try:
            if t == "discard":
                return DISCARD + _kind(action["tile"])
            if t == "kong":
                return KONG + _kind(action["tile"])
            if t == "select":
                return SELECT + _kind(action["tile"])
            if t == "choose":
                c = action["choice"]
                if isinstance(c, int) and not isinstance(c, bool):
                    return CHOOSE + c
                if self.phase == DECLARE:
                    names = [x.name for x in self.r.pre[self.pre_step - 1][1].choices]
                    if c in names:
                        return CHOOSE + names.index(c)
                raise IllegalAction(f"no choice {c!r} now")
            if t == "chi":
                pair = sorted([_kind(x) for x in action["tiles"]])
                k = self.ld_tile
                if len(pair) == 2 and k >= 0:
                    if pair == [k + 1, k + 2]:
                        return CHI_LOW
                    if pair == [k - 1, k + 1]:
                        return CHI_MID
                    if pair == [k - 2, k - 1]:
                        return CHI_HIGH
                raise IllegalAction(f"no chi with {_show(action)} on {_NAMES[k] if k >= 0 else 'nothing'}")
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, IllegalAction):
                raise
            raise IllegalAction(f"{_show(action)} names no tile or tiles ({e})") from None
        got = SIMPLE_ACTIONS.get(t)
        if got is None:
            raise IllegalAction(f"unknown action type {t!r}")
        return got

    # ---- the turn -------------------------------------------------------------------------------------------
    def _turn(self, seat: int, drawn: int, source: int) -> None:
        r = self.r
        self.phase = TURN
        self.current = seat
        self.drawn = drawn
        self.source = source
        s = self.seats[seat]
        acts = []
        discards = []
        forced = None
        counts = s.counts
        df = s.df_mask    # a declaration's kinds: while the seat holds one, it discards those first
        sw = s.swap_mask  # kinds it may not discard right after its chi or pon (no_swap_calling)
        fours = False
        for k in range(N_KINDS):
            c = counts[k]
            if c and not (sw >> k) & 1:
                discards.append(DISCARD + k)
                if df and (df >> k) & 1:
                    if forced is None:
                        forced = []
                    forced.append(DISCARD + k)
                if c == 4:
                    fours = True
        if forced is not None:
            discards = forced
        if source != SRC_CLAIM:
            if self._self_wins(seat):
                acts.append(WIN)
            self._own_kongs(seat, acts, fours)
        if s.declared_ready and r.locks_hand and drawn >= 0:
            acts.append(DISCARD + drawn)
        else:
            if r.rd_turn and self._may_declare(seat):
                acts.append(DECLARE_READY)
            if acts:
                acts.extend(discards)
            else:
                acts = discards
            if r.aborts_first and source != SRC_CLAIM and self._first_turn_abort(seat) >= 0:
                acts.append(ABORT)   # (last: a turn's ids begin with a win, kongs, the declaration, the discards)
        self.ask_seats([seat], {seat: acts})

    def _may_declare(self, seat: int) -> bool:
        """May the seat declare ready with its discard now (ready_declaration ... with_discard)? Not declared yet,
        concealed and enough tiles left where the spec requires it, and, where it requires ready, some discard that
        leaves the hand ready. (The shape distance of the hand, one call, rules out most hands first: a hand some
        discard leaves ready is at most 0 from ready.)"""
        r = self.r
        s = self.seats[seat]
        if s.declared_ready or s.out:
            return False
        if r.rd_concealed:
            for m in s.melds:
                if not m.concealed:
                    return False
        if self._drawable() < r.rd_drawable:
            return False
        if not r.rd_ready:
            return True
        if s.dist_floor > 0:   # the distance is at least this: one draw and one discard take it one nearer at most
            s.dist_floor -= 1
            return False
        if r.estimator is None:
            r.estimator = self.engine.estimator(r.overrides or None)
        e = r.estimator.estimate(s.counts, len(s.melds), self.wild, self.wild2)
        if e > 0:
            s.dist_floor = e - 1
            return False
        for k in range(N_KINDS):
            if s.counts[k] and self._ready_without(seat, k):
                return True
        return False

    def _ready_without(self, seat: int, k: int) -> bool:
        """Is the seat's hand ready without one tile of kind k, judged as declared (the declaration's own value
        counted: a hand that wins only once declared is ready to declare)?"""
        s = self.seats[seat]
        s.counts[k] -= 1
        try:
            if not self._fits_any(s):
                return False
            return bool(self.engine.ready(self.situation_of(seat, tuple(tiles_of(s.counts)), tuple(s.melds), -1,
                                                            "self_draw", -1, False, declared=True)))
        except ValueError:
            return False
        finally:
            s.counts[k] += 1

    def _ready_discards(self, seat: int) -> list:
        """The discards a declaration may be made with: each that leaves the hand ready (any, where the spec does
        not require ready)."""
        s = self.seats[seat]
        out = []
        for k in range(N_KINDS):
            if s.counts[k] and (not self.r.rd_ready or self._ready_without(seat, k)):
                out.append(DISCARD + k)
        return out

    def _self_win_by(self, seat: int) -> str:
        if self.source == SRC_REPLACEMENT:
            return "kong_replacement"
        if self.source == SRC_DEAL and seat == self.dealer and self._seat(seat).first_turn:
            return "dealt"
        return "self_draw"

    def _self_wins(self, seat: int) -> bool:
        s = self.seats[seat]
        if s.nw_mask and self._holds(s, s.nw_mask, -1):
            return False
        if not self._fits(s, -1):
            return False
        return self.r.wins(self._situation(seat, -1, self._self_win_by(seat), -1, False))

    def _seat(self, p: int) -> Seat:
        return self.seats[p]

    def _holds(self, s: Seat, mask: int, extra: int) -> bool:
        """Does the seat hold (concealed, in melds, or as `extra`) a kind of `mask`?"""
        if extra >= 0 and (mask >> extra) & 1:
            return True
        for k in range(N_KINDS):
            if (mask >> k) & 1 and (s.counts[k] or s.meld_counts[k]):
                return True
        return False

    def _may_win_on(self, s: Seat, k: int) -> bool:
        """The cheap tests before judging seat s's win with tile k added: in the hand, nothing it may not win
        holding, and some pattern's shape fits."""
        if s.out or s.nw_mask and self._holds(s, s.nw_mask, k):
            return False
        return self._fits(s, k)

    def _fits(self, s: Seat, plus: int) -> bool:
        """The back end's shape test (mjrules.model.shape) on the seat's hand with one more tile of kind `plus` (-1: none).
        The kernel answers for every kind at once, of a hand one tile short, and remembers the hand
        (ShapeTest.fit_mask): a complete hand is asked as itself less one of its tiles (the tile just drawn, whose
        hand was asked at the discards before) plus that tile."""
        shape = self.r.shape
        if shape is None:
            return self.r.fit(s.counts, s.meld_counts, len(s.melds), s.meld_seq, self.wild, plus, self.wild2)
        if plus >= 0:
            return plus < N_KINDS and (self._fit_mask(s, -1) >> plus) & 1
        k = self.drawn
        if k < 0 or k >= N_KINDS or not s.counts[k]:
            k = 0
            while k < N_KINDS and not s.counts[k]:
                k += 1
            if k == N_KINDS:   # no concealed tile: asked as it is
                return shape.may_fit(s.counts, s.meld_counts, len(s.melds), s.meld_seq, self.wild, -1, self.wild2)
        return (self._fit_mask(s, k) >> k) & 1

    def _fit_mask(self, s: Seat, less: int) -> int:
        """The kernel's answers for every kind added to the seat's hand (less one tile of kind `less`, >= 0)."""
        if not cython.compiled:   # (mask_of is the kernel's C entry, for the compiled game only)
            return self.r.shape.fit_mask(s.counts, s.meld_counts, len(s.melds), s.meld_seq, self.wild, self.wild2,
                                         ALL_KINDS, less)
        return self.r.shape.mask_of(s.counts, s.meld_counts, len(s.melds), s.meld_seq, self.wild, self.wild2, less)

    def _next_in(self, seat: int) -> int:
        """The first seat from `seat` on, in play order, that is still in the hand."""
        for i in range(self.n):
            p = (seat + i) % self.n
            if not self._seat(p).out:
                return p
        return seat

    def _resolve_turn(self, seat: int, a: int) -> None:
        if a == WIN:
            self._win([(seat, self._self_win_by(seat), -1)])
            return
        if a == ABORT:   # an abortive draw called on its first turn
            self._end_aborted(self.r.aborts_first[self._first_turn_abort(seat)])
            return
        if a == DECLARE_READY:   # declared with the discard the seat now picks, among those that leave it ready
            self.seats[seat].declaring = True
            self.ask_seats([seat], {seat: self._ready_discards(seat)})
            return
        if KONG <= a < PON:
            self._declare_kong(seat, a - KONG)
            return
        k = a - DISCARD
        s = self.seats[seat]
        if k == self.drawn and self._locked(seat):   # a locked hand lets the very copy it drew go
            self.ld_marked = self.drawn_marked and s.marked_hand[k] > 0
        else:
            self.ld_marked = s.marked_hand[k] >= s.counts[k]   # (a player lets his plain copies go first)
        if self.ld_marked:
            s.marked_hand[k] -= 1
        s.counts[k] -= 1
        s.size -= 1
        if s.declaring:   # the declaration is made with this discard: it stakes once nobody wins the discard
            s.declaring = False
            s.declared_ready = True
            s.ready_first = not s.discards and self.claims_made == 0
            s.unbroken = True
            if self.r.rd_stake:
                self.stake_seat = seat
        elif s.unbroken:   # its first discard after the declaration's
            s.unbroken = False
        s.discards.append(k)
        s.discarded_mask |= cython.cast(cython.ulonglong, 1) << k
        s.swap_mask = 0
        first = self.discard_count == 0
        self.discard_count += 1
        if seat == self.dealer:
            s.first_turn = False
        if self.claims_made == 0 and len(self.first_round) < self.n:
            self.first_round.append(k)
        if k == self.wild or k == self.wild2:
            s.wild_discards += 1
        self.log.append(_discard_event(seat, k) if not self.ld_marked else ("discard", seat, k, True))
        if self.ind_pending:   # a kong's indicator turns with its maker's discard, before anyone may claim it
            self._pending_indicators()
        self.ld_seat = seat
        self.ld_tile = k
        self.ld_first = first
        self.ld_after_kong = self.source == SRC_REPLACEMENT  # the discard right after its own kong (杠上炮)
        if self.r.pays_discards:
            _settle().pay_discard_now(self, seat, self.v.settlement.discard, "")
        if self.r.pays_first_round and self.discard_count == self.n:
            _settle().pay_discard_now(self, seat, self.v.settlement.first_round, "first round: ")
        self._after_discard()

    def _after_discard(self) -> None:
        """抢金 on the first discard (when the spec has it), then the claims."""
        r = self.r
        if r.has_rob_wild and self.ld_first and self.indicator >= 0:
            queue = []
            for who in r.rob_order:
                if who == -2:
                    for i in range(1, self.n):
                        p = (self.dealer + i) % self.n
                        if self._can_rob_wild(p):
                            queue.append(p)
                elif self._can_rob_wild(self.dealer):
                    queue.append(self.dealer)
            if queue:
                self.rob_queue = queue
                self.phase = ROB_WILD_PHASE
                self.ask_seats([queue[0]], {queue[0]: [ROB_WILD, PASS]})
                return
        self._open_claims()

    def _can_rob_wild(self, seat: int) -> bool:
        s = self.seats[seat]
        k = self.indicator
        if not self._may_win_on(s, k):
            return False
        res = self.engine.judge(self._situation(seat, k, "rob_gold", -1, False))
        if not res["win"]:
            return False
        req = self.r.rob_requires
        return not req or res["pattern"] in req or self.r.rob_shapes.get(res["pattern"], False)

    def _resolve_rob_wild(self, seat: int, a: int) -> None:
        if a == ROB_WILD:
            s = self.seats[seat]
            s.counts[self.indicator] += 1
            s.size += 1
            self.indicator_taken = True
            self._win([(seat, "rob_gold", -1)])
            return
        self.rob_queue.pop(0)
        if self.rob_queue:
            p = self.rob_queue[0]
            self.ask_seats([p], {p: [ROB_WILD, PASS]})
        else:
            self._open_claims()

    def _resolve_ready(self, answers: dict) -> None:
        for p, a in answers.items():
            if a == DECLARE_READY:
                self._seat(p).declared_ready = True
        self._turn(self.dealer, -1, SRC_DEAL)

    # ---- claims ---------------------------------------------------------------------------------------------
    def _open_claims(self) -> None:
        r = self.r
        d = self.ld_seat
        k = self.ld_tile
        n = self.n
        self.on_offer = True
        unclaimable = (k == self.wild or k == self.wild2) and k >= 0 and r.discard_unclaimable
        last = self._drawable() <= 0
        seats = None
        legal = None
        if not unclaimable:
            for i in range(1, n):
                p = (d + i) % n
                s = self.seats[p]
                if s.out:
                    continue
                fits = -1   # the shape test of the hand with k (-1: not asked yet): asked once for both uses
                if r.furiten_passes:
                    fits = self._fits(s, k)
                    if fits and self._completes(p, k):
                        self.passing |= 1 << p
                win = False
                if not s.ron_blocked and self._may_win_on_discard(s, p) \
                        and not (s.nw_mask and self._holds(s, s.nw_mask, k)):
                    if fits < 0:
                        fits = self._fits(s, k)
                    win = fits != 0 and r.wins(self._situation(p, k, "discard", d, self.ld_first)) \
                        and not (r.has_furiten and self._furiten(p))
                calls = 0
                if not (last and r.last_discard_win_only) and not self._locked(p):
                    calls = self._calls(p, d, k)
                if win or calls:   # (the list is made only for a seat that has a choice: most have none)
                    acts = [WIN] if win else []
                    if calls & 1:
                        acts.append(KONG + k)
                    if calls & 2:
                        acts.append(PON)
                    if calls & 4:
                        acts.append(CHI_HIGH)
                    if calls & 8:
                        acts.append(CHI_MID)
                    if calls & 16:
                        acts.append(CHI_LOW)
                    acts.append(PASS)
                    if seats is None:
                        seats = []
                        legal = {}
                    seats.append(p)
                    legal[p] = acts
        if seats is not None:
            self.phase = CLAIMS
            self.ask_seats(seats, legal)
        else:
            self._next_draw((d + 1) % n)

    def _completes(self, p: int, k: int) -> bool:
        """Would a tile of kind k complete seat p's hand were it declared ready (its waits, as furiten reads them:
        no yaku needed)?"""
        s = self.seats[p]
        conc = tiles_of(s.counts)
        conc.append(k)
        conc.sort()
        try:
            return bool(self.r.wins(self.situation_of(p, tuple(conc), tuple(s.melds), k, "discard", (p + 1) % self.n,
                                                      False, declared=True)))
        except ValueError:   # (more copies than the set has: not a wait)
            return False

    def _furiten(self, p: int) -> bool:
        """Is seat p barred from winning on a discard or a robbed kong (the spec's furiten)?"""
        s = self.seats[p]
        if s.ron_blocked or s.furiten_hand:
            return True
        if self.r.furiten_discards and s.discarded_mask:
            for k in range(N_KINDS):
                if (s.discarded_mask >> k) & 1 and self._fits(s, k) and self._completes(p, k):
                    return True
        return False

    def _may_win_on_discard(self, s: Seat, p: int) -> bool:
        """May the spec's win_on_discard allow seat p a win on this discard, by the facts known before its tiles?"""
        i = 0
        if s.first_turn:
            i |= 1
        if self.ld_first:
            i |= 2
        if p == self.dealer:
            i |= 4
        if s.declared_ready:
            i |= 8
        if self.ld_after_kong:
            i |= 16
        return (self.r.discard_win >> i) & 1 != 0

    def _calls(self, p: int, d: int, k: int) -> int:
        """The claims other than a win seat p may make on kind k discarded by d, as bits: 1 an exposed kong, 2 pon,
        4, 8, 16 a chi of the two kinds below k, around it, above it."""
        r = self.r
        s = self.seats[p]
        if self._no_call(k) or (s.nc_mask >> k) & 1:
            return 0
        c = s.counts
        bits = 0
        if r.kong_exposed and c[k] >= 3 and self._kong_room(1, 0):
            bits |= 1
        if r.pon and c[k] >= 2 and (
                not r.no_swap or self._call_leaves_discard(s, k, k, k, cython.cast(cython.ulonglong, 1) << k)):
            bits |= 2
        if r.chi_from == 2 or (r.chi_from == 1 and p == (d + 1) % self.n):
            if k < 27:
                lo_ok, hi = k - k % 9, k - k % 9 + 8
            elif r.chi_honours and k < 34:
                lo_ok, hi = (27, 30) if k <= 30 else (31, 33)
            else:
                return bits
            if self._chi_ok(c, k - 2, k - 1, lo_ok, hi) and (
                    not r.no_swap or self._call_leaves_discard(s, k, k - 2, k - 1, _swap_kinds(k, CHI_HIGH))):
                bits |= 4
            if self._chi_ok(c, k - 1, k + 1, lo_ok, hi) and (
                    not r.no_swap or self._call_leaves_discard(s, k, k - 1, k + 1, _swap_kinds(k, CHI_MID))):
                bits |= 8
            if self._chi_ok(c, k + 1, k + 2, lo_ok, hi) and (
                    not r.no_swap or self._call_leaves_discard(s, k, k + 1, k + 2, _swap_kinds(k, CHI_LOW))):
                bits |= 16
        return bits

    def _call_leaves_discard(self, s: Seat, k: int, a: int, b: int, bar: int) -> bool:
        """With no_swap_calling: after a call on kind k using held kinds a and b (a pon: a == b == k), is some tile
        left that the claimer may discard (none of the kinds of `bar`)?"""
        c = s.counts
        for t in range(N_KINDS):
            left = c[t] - (t == a) - (t == b)
            if left > 0 and not (bar >> t) & 1:
                return True
        return False

    def _chi_ok(self, c: bytearray, a: int, b: int, lo: int, hi: int) -> bool:
        """May a chi of the claimed tile use held kinds a and b (both within lo..hi, neither a wild it may not call)?"""
        return lo <= a and b <= hi and c[a] > 0 and c[b] > 0 and not self._no_call(a) and not self._no_call(b)

    def _no_call(self, k: int) -> bool:
        return (k == self.wild or k == self.wild2) and k >= 0 and self.r.no_calls

    def _locked(self, seat: int) -> bool:
        return self.r.locks_hand and self._seat(seat).declared_ready

    def _resolve_claims(self, answers: dict, offered: dict) -> None:
        r = self.r
        d = self.ld_seat
        k = self.ld_tile
        n = self.n
        wins = []
        for i in range(1, n):
            p = (d + i) % n
            a = answers.get(p, -1)
            if a == WIN:
                wins.append(p)
            elif a >= 0 and r.pass_blocks_ron and WIN in offered[p]:
                self._seat(p).ron_blocked = True
        if wins:
            if r.aborts_wins:
                self.on_offer = False
                keep = self.stake_seat
                self.stake_seat = -1   # (a declaration whose discard is claimed to win stakes nothing)
                if self._aborts(r.aborts_wins, len(wins)):
                    return
                self.stake_seat = keep
            self._win(self._pick_winners([(p, "discard", d) for p in wins]))
            return
        for level in r.priority:
            for i in range(1, n):
                p = (d + i) % n
                a = answers.get(p, -1)
                if a >= 0 and a != PASS and _claim_bit(a) & level:
                    self._take_claim(p, d, k, a)
                    return
        self._next_draw((d + 1) % n)

    def _pick_winners(self, claims: list) -> list:
        """The spec's winner rule: everyone, or the first in play order (a preferred pattern first)."""
        if not self.r.one_winner:
            return claims
        if self.r.prefer:
            for c in claims:
                res = self.engine.judge(self._claim_situation(c))
                if res["pattern"] in self.r.prefer:
                    return [c]
        return [claims[0]]

    def _take_claim(self, p: int, d: int, k: int, a: int) -> None:
        self._discard_passed()
        if self.on_offer:
            self.on_offer = False
            if self._aborts(self.r.aborts_passed, 0):
                return
        self._interrupt()
        s = self.seats[p]
        s.dist_floor = 0
        self._seat(d).discards.pop()
        self.seats[d].called_away += 1
        self.claims_made += 1
        s.first_turn = False
        s.ron_blocked = False
        if self.ld_marked:   # the claimed tile is a marked copy: it goes into the meld
            s.marked_meld[k] += 1
        if a == PON:
            self._meld_marks(s, k, 2)
            s.counts[k] -= 2
            s.size -= 2
            if self.r.no_swap:
                s.swap_mask = cython.cast(cython.ulonglong, 1) << k
            self._add_meld(s, meld_of("pon", k, False))
            self.log.append(("pon", p, k, d))
            self._liability(p, d)
            self._turn(p, -1, SRC_CLAIM)
        elif CHI_LOW <= a <= CHI_HIGH:
            lo = k if a == CHI_LOW else k - 1 if a == CHI_MID else k - 2
            x, y = [t for t in (lo, lo + 1, lo + 2) if t != k]
            self._meld_marks(s, x, 1)
            self._meld_marks(s, y, 1)
            s.counts[x] -= 1
            s.counts[y] -= 1
            s.size -= 2
            if self.r.no_swap:
                s.swap_mask = _swap_kinds(k, a)
            self._add_meld(s, meld_of("chi", lo, False))
            s.meld_seq = True
            self.log.append(("chi", p, k, d, x, y))
            self._turn(p, -1, SRC_CLAIM)
        else:
            self._meld_marks(s, k, 3)
            s.counts[k] -= 3
            s.size -= 3
            self._add_meld(s, meld_of("kong", k, False))
            self._kong_made(p, {"kind": "exposed", "tile": k, "robbed": False, "from": d})
            self.log.append(("kong", p, K_EXPOSED, k, d))
            self._liability(p, d)
            self._replacement(p)

    def _liability(self, p: int, d: int) -> None:
        """Seat p's pon or exposed kong on d's discard: each liability whose condition now holds of p, and that p
        has none of yet, makes d liable (包)."""
        if not self.r.liabilities:
            return
        env = self._table_env()
        env.claimer = p
        for x in self.r.liabilities:
            if any(c == p and name == x.name for c, name, _ in self.liabilities):
                continue
            if _settle().evaluate(x.cond, env):
                self.liabilities.append((p, x.name, d))
                self.log.append(("liable", d, p, x.name))

    def _meld_marks(self, s: Seat, k: int, used: int) -> None:
        """`used` tiles of kind k go from the seat's hand into a meld: its plain copies first, then its marked ones."""
        extra = used - (s.counts[k] - s.marked_hand[k])
        if extra > 0:
            s.marked_hand[k] -= extra
            s.marked_meld[k] += extra

    def _add_meld(self, s: Seat, m: Meld) -> None:
        s.melds.append(m)
        for t in m.tiles:
            s.meld_counts[t] += 1

    # ---- kongs ----------------------------------------------------------------------------------------------
    def _own_kongs(self, seat: int, out: list, fours: bool) -> None:
        """The kongs the seat may declare on its turn (fours: it holds four of a kind)."""
        r = self.r
        s = self.seats[seat]
        locked = self._locked(seat)
        if locked and not r.ckkw:
            return
        if r.kong_concealed and fours:
            found = [k for k in range(N_KINDS) if s.counts[k] == 4 and not self._no_call(k)]
            if found and self._kong_room(0, 1):
                for k in found:   # (a locked hand: only the tile just drawn, where the kong keeps its waits)
                    if not locked or (k == self.drawn and self._keeps_waits(seat, k)):
                        out.append(KONG + k)
        if r.kong_added and not locked and s.melds and self._may_add_kong(s):
            found = [m.tiles[0] for m in s.melds if m.kind == "pon" and s.counts[m.tiles[0]] > 0]
            if found and self._kong_room(1, 0):
                for k in found:
                    out.append(KONG + k)

    def _may_add_kong(self, s: Seat) -> bool:
        """Does the seat hold a tile of a kind its melds hold three of (the cheap test before its pons are read:
        a pon's kind is one)?"""
        counts, melded = s.counts, s.meld_counts
        for k in range(N_KINDS):
            if melded[k] >= 3 and counts[k]:
                return True
        return False

    def _keeps_waits(self, seat: int, k: int) -> bool:
        s = self.seats[seat]
        before = self._waits_of(seat, s.concealed, s.melds, True)
        conc = [t for t in s.concealed if t != k]
        after = self._waits_of(seat, conc, s.melds + [meld_of("kong", k, True)], False)
        return before == after

    def _waits_of(self, seat: int, concealed: list, melds: list, drop_drawn: bool) -> list:
        conc = list(concealed)
        if drop_drawn and self.drawn >= 0 and self.drawn in conc:
            conc.remove(self.drawn)
        sit = self.situation_of(seat, tuple(conc), tuple(melds), -1, "self_draw", -1, False)
        return [w["tile"] for w in self.engine.waits(sit)]

    def _kong_room(self, exposed: int, concealed: int) -> bool:
        """A kong needs its replacement to be drawable (after the retention grows, where the spec says so)."""
        if not self.r.kong_needs_replacement:
            return self.tail - self.head - self.retained(0, 0) >= 1
        return self.tail - self.head - self.retained(exposed, concealed) >= 1

    def _declare_kong(self, seat: int, k: int) -> None:
        s = self.seats[seat]
        concealed = s.counts[k] == 4
        if concealed and not self.r.rob_kong_concealed:
            self._complete_concealed_kong(seat, k)
            return
        # the others may rob it first (an added kong; a concealed one where the spec says so)
        self.rk_seat = seat
        self.rk_tile = k
        self.rk_concealed = concealed
        self.ld_marked = s.marked_hand[k] >= s.counts[k]   # (the tile added: a plain copy where he holds one)
        seats = []
        legal = {}
        if self.r.rob_kong_added or concealed:
            by = self.r.rob_concealed_by if concealed else self.r.rob_added_by
            for i in range(1, self.n):
                p = (seat + i) % self.n
                if self._may_rob(p, k, seat, by):
                    seats.append(p)
                    legal[p] = [WIN, PASS]
        if concealed and not seats:
            self._complete_concealed_kong(seat, k)
            return
        self.log.append(("kong_declared", seat, k))
        if seats:
            self.phase = ROB_KONG
            self.ask_seats(seats, legal)
        else:
            self._complete_added_kong()

    def _may_rob(self, p: int, k: int, seat: int, by: list) -> bool:
        """May seat p rob seat's kong of k: its hand wins on the tile (by one of the patterns `by`, where given)?"""
        if not self._may_win_on(self.seats[p], k) or (self.r.has_furiten and self._furiten(p)):
            return False
        sit = self._situation(p, k, "rob_kong", seat, False)
        if not by:
            return self.r.wins(sit)
        res = self.engine.evaluate(sit, explain=False)
        return bool(res["win"]) and any(x in by for x in res["patterns"])

    def _complete_concealed_kong(self, seat: int, k: int) -> None:
        s = self.seats[seat]
        self._meld_marks(s, k, 4)
        s.counts[k] -= 4
        s.size -= 4
        self._add_meld(s, meld_of("kong", k, True))
        self._kong_made(seat, {"kind": "concealed", "tile": k, "robbed": False, "from": seat})
        self.log.append(("kong", seat, K_CONCEALED, k, -1))
        self._replacement(seat)

    def _resolve_rob_kong(self, answers: dict) -> None:
        seat = self.rk_seat
        k = self.rk_tile
        wins = [p for p in [(seat + i) % self.n for i in range(1, self.n)] if answers.get(p, -1) == WIN]
        if not wins:
            if self.r.furiten_passes:   # those who could rob it and let it go
                for p in answers:
                    self.passing |= 1 << p
                self._discard_passed()
            if self.rk_concealed:
                self._complete_concealed_kong(seat, k)
            else:
                self._complete_added_kong()
            return
        if self._aborts(self.r.aborts_wins, len(wins)):
            return
        s = self.seats[seat]
        if self.ld_marked:
            s.marked_hand[k] -= 1
        s.counts[k] -= 1
        s.size -= 1
        self.loose.append(k)  # the robbed tile goes to the winner(s); counted once
        s.kongs.append({"kind": "concealed" if self.rk_concealed else "added", "tile": k, "robbed": True,
                        "from": seat})
        self.ret_cache = -1
        self._win(self._pick_winners([(p, "rob_kong", seat) for p in wins]))

    def _complete_added_kong(self) -> None:
        seat = self.rk_seat
        k = self.rk_tile
        s = self.seats[seat]
        self._meld_marks(s, k, 1)
        s.counts[k] -= 1
        s.size -= 1
        for i in range(len(s.melds)):
            m = s.melds[i]
            if m.kind == "pon" and m.tiles[0] == k:
                s.melds[i] = meld_of("kong", k, False)
                s.meld_counts[k] += 1
                break
        self._kong_made(seat, {"kind": "added", "tile": k, "robbed": False, "from": seat})
        self.log.append(("kong", seat, K_ADDED, k, -1))
        self._replacement(seat)

    def _kong_made(self, seat: int, kong: dict) -> None:
        """A kong completed: into the seat's kongs; paid at once where the spec says so."""
        self.kongs_made += 1
        kong["id"] = self.kongs_made
        self._interrupt()
        timing = self.r.kong_ind[KONG_KINDS.index(kong["kind"])]
        if timing:
            self._pending_indicators()   # an earlier kong's first
            if timing == 1:
                self._turn_indicator()
            else:
                self.ind_pending += 1
        self._seat(seat).dist_floor = 0   # (its concealed tiles changed otherwise than by a draw and a discard)
        self.kong_feeder = kong["from"] if kong["kind"] == "exposed" else -1
        self._seat(seat).kongs.append(kong)
        self.ret_cache = -1
        if self.r.at_once[KONG_KINDS.index(kong["kind"])]:
            _settle().pay_kong_now(self, seat, kong)

    def _replacement(self, seat: int) -> None:
        k = self._draw_tile(seat, True, True)
        if k >= 0:
            self._turn(seat, k, SRC_REPLACEMENT)

    # ---- drawing --------------------------------------------------------------------------------------------
    @property
    def drawable(self) -> int:
        """Tiles that may still be drawn: the wall less the retained dead wall."""
        return self._drawable()

    def _drawable(self) -> int:
        return self.tail - self.head - self.retained(0, 0)

    def retained(self, extra_exposed: int = 0, extra_concealed: int = 0) -> int:
        """The dead wall the spec retains now (with that many more kongs)."""
        if self.r.retain_const >= 0:
            return self.r.retain_const
        if extra_exposed or extra_concealed:
            return self.r.retain.retained(self, extra_exposed, extra_concealed)
        if self.ret_cache < 0:  # forgotten whenever a kong or a flower changes what the retention reads
            self.ret_cache = self.r.retain.retained(self, 0, 0)
        return self.ret_cache

    def _aborts(self, rules: list, win_claims: int) -> bool:
        """Does one of these abortive draws hold now? It ends the hand (True)."""
        if not rules:
            return False
        env = None
        passed = rules is self.r.aborts_passed
        for i in range(len(rules)):
            a = rules[i]
            seen = -1
            if passed:   # asked again only when what it reads may have changed since it was last false
                seen = self._abort_inputs(self.r.abort_reads[i])
                if seen == self.abort_seen[i]:
                    continue
            if env is None:   # (made ready only when some abort is asked: most steps ask none)
                env = self._table_env()
                env.win_claims = win_claims
            if not _settle().evaluate(a.cond, env):
                if passed:
                    self.abort_seen[i] = seen
            else:
                self._end_aborted(a)
                return True
        return False

    def _table_env(self) -> Any:
        """The hand's one environment for the aborts' and liabilities' conditions (mjrules.game.settle.GameEnv), its
        remembered seat facts cleared and no seat calling, claiming or claiming a win: it caches nothing else of the
        table's state. Made when first asked."""
        env = self.abort_env
        if env is None:
            env = self.abort_env = _settle().GameEnv(self)
        else:
            env.seat_facts.clear()
            env.caller = env.claimer = -1
            env.win_claims = 0
        return env

    def _end_aborted(self, a: Any) -> None:
        """The abortive draw `a` ends the hand."""
        self.aborted = a.name
        self.log.append(("abort", a.name, a.label))
        self._finish()

    def _first_turn_abort(self, seat: int) -> int:
        """The first of the spec's first-turn aborts the seat may call now (on its first turn, before any claim in
        the hand), or -1."""
        s = self.seats[seat]
        if s.discards or s.called_away or self.claims_made:
            return -1
        env = self._table_env()
        env.caller = seat
        rules = self.r.aborts_first
        for i in range(len(rules)):
            if _settle().evaluate(rules[i].cond, env):
                return i
        return -1

    def _abort_inputs(self, reads: int) -> int:
        """A mark of the table facts an abort reads (Rules.abort_reads: bits of their families) that changes whenever
        one of their values may: a fact of the first round changes with its discards only, one of declarations or
        kongs with them; any other fact, at any step."""
        mark = 0
        if reads & 1:   # (the first round's discards only grow, and only until a claim or the nth discard)
            mark = len(self.first_round)
        if reads & 2:
            for s in self.seats:
                mark = mark * 2 + s.declared_ready
        if reads & 4:
            mark = mark * 16 + self.kongs_made
        if reads & 8:
            mark = mark * 4096 + self.discard_count
        if reads & 16:
            mark = mark * 1048576 + len(self.log)
        return mark

    def _discard_passed(self) -> None:
        """Nobody won the discard on offer: the seats it would have completed let it go (furiten: until their next
        discard, or to the hand's end once declared), and a declaration made with it stands: its stake goes into
        the pot."""
        r = self.r
        if self.passing:
            for q in range(self.n):
                if (self.passing >> q) & 1:
                    o = self.seats[q]
                    if r.furiten_passed:
                        o.ron_blocked = True
                    if r.furiten_declared and o.declared_ready:
                        o.furiten_hand = True
            self.passing = 0
        self._place_stake()

    def _place_stake(self) -> None:
        """A declaration whose discard was let go stands: its stake goes into the pot."""
        p = self.stake_seat
        if p >= 0:
            self.stake_seat = -1
            x = self.r.rd_stake
            self.stakes.append((p, x))
            self.pot = self.pot + x
            self.log.append(("stake", p, x, self.pot))

    def _turn_indicator(self) -> None:
        """Turn the next indicator stack's shown tile (indicator_stacks), where one is left."""
        if self.ind_shown >= self.r.ind_stacks:
            return
        pos = self.ind_base - 1 - self.r.ind_after - 2 * self.ind_shown
        if pos < self.head or pos >= self.tail:   # (a wall too short, or drawn already: a scenario's)
            return
        self.ind_shown += 1
        self.log.append(("indicator", self.wall[pos]))

    def _indicator_kinds(self, hidden: bool) -> tuple:
        """The kinds of the indicators turned, or of the tiles under them."""
        out = []
        for j in range(self.ind_shown):
            out.append(self.wall[self.ind_base - 1 - self.r.ind_after - 2 * j - hidden])
        return tuple(out)

    def _pending_indicators(self) -> None:
        """Turn the indicators kongs left to their maker's next discard."""
        while self.ind_pending:
            self.ind_pending -= 1
            self._turn_indicator()

    def _interrupt(self) -> None:
        """A claim or a kong: no declared seat's turn is uninterrupted any more."""
        for s in self.seats:
            s.unbroken = False

    def _next_draw(self, seat: int) -> None:
        self._discard_passed()
        if self.on_offer:   # the discard was let go: the aborts that ask then
            self.on_offer = False
            if self._aborts(self.r.aborts_passed, 0):
                return
        seat = self._next_in(seat)
        fr = self.r.final_round
        d = self._drawable()
        if fr and 0 < d <= fr:
            self.log.append(("final_round", d))
            self._final_draws(seat, d)
            return
        if d <= 0:
            self._draw_game("the wall is exhausted")
            return
        k = self._draw_tile(seat, False, True)
        if k >= 0:
            self._turn(seat, k, SRC_DRAW)

    def _draw_tile(self, seat: int, tail: bool, replace_flowers: bool) -> int:
        """Draw for `seat` (head or tail), replacing flowers; the kind, or -1 (the hand ended, or a flower in the
        final round)."""
        s = self.seats[seat]
        scored = self.r.scored
        while True:
            if self._drawable() <= 0:
                self._draw_game("the wall ran out during a replacement" if tail else "the wall is exhausted")
                return -1
            if tail:
                k = self._take_tail()
                self.drawn_marked = bool(self.wall_marked) and self.wall_marked[self.tail] != 0
            else:
                k = self.wall[self.head]
                self.drawn_marked = bool(self.wall_marked) and self.wall_marked[self.head] != 0
                self.head += 1
            if self.drawn_marked:
                s.marked_hand[k] += 1
            s.first_turn = False
            s.ron_blocked = False
            s.draws += 1
            self.log.append(_draw_event(seat, k, tail))
            if scored[k]:
                s.flowers.append(k)
                self.ret_cache = -1
                if not replace_flowers:
                    return -1
                self.log.append(("flowers", seat, (k,), False))
                tail = True
                continue
            s.counts[k] += 1
            s.size += 1
            return k

    def _final_draws(self, seat: int, count: int) -> None:
        """The final round: the next `count` seats draw once each, no discard; a self-drawn win ends it."""
        for i in range(count):
            p = (seat + i) % self.n
            if self._seat(p).out:
                continue
            k = self._draw_tile(p, False, False)
            if self.over:
                return
            if k < 0:
                continue
            self.source = SRC_DRAW
            self.drawn = k
            self.current = p
            if self._self_wins(p):
                self.log.append(("auto_win", p))
                self._win([(p, "self_draw", -1)])
                return
        self._draw_game("nobody won the final round")

    # ---- situations -----------------------------------------------------------------------------------------
    def _situation(self, seat: int, tile: int, win_by: str, discarder: int, first: bool) -> Any:
        """The situation the engine judges: seat's hand with `tile` added (a claimed tile; -1: none), won so."""
        s = self.seats[seat]
        conc = tiles_of(s.counts)
        if tile >= 0:
            conc.append(tile)
            conc.sort()
            win_tile = tile
        elif win_by == "dealt":
            win_tile = -1
        elif self.drawn >= 0:
            win_tile = self.drawn
        else:
            win_tile = conc[-1] if conc else -1
        return self.situation_of(seat, tuple(conc), tuple(s.melds), win_tile, win_by, discarder, first, 1, None, True)

    def situation_of(self, seat: int, concealed: tuple, melds: tuple, win_tile: int, win_by: str, discarder: int,
                      first: bool, winners: int = 1, dealer_won: Any = None, history: bool = False,
                      declared: bool = False) -> Any:
        """The situation of seat's hand so; with `history`, an actual win's facts of play as well (the wall's last
        tile, a discard right after its discarder's kong, the first draw)."""
        s = self.seats[seat]
        r = self.r
        last_tile = after_kong = first_draw = last_of_kind = False
        mk = ()
        if history and self.wall_marked:   # the marked copies the hand holds, its melds' and the tile won on
            got = []
            for k in range(N_KINDS):
                for _ in range(s.marked_hand[k] + s.marked_meld[k]):
                    got.append(k)
            if self.ld_marked and (win_by == "discard" or win_by == "rob_kong") and win_tile >= 0:
                got.append(win_tile)
            mk = tuple(got)
        if history:
            last_of_kind = win_tile >= 0 and self._in_sight(win_tile, win_by) >= self.r.copies[win_tile] - 1
            if win_by == "self_draw" or win_by == "kong_replacement" or win_by == "discard":
                last_tile = self._drawable() <= 0
            after_kong = win_by == "discard" and self.ld_after_kong
            first_draw = win_by == "self_draw" and self.claims_made == 0 and not s.discards and not s.melds
        return new_situation(
            seat, self.dealer, concealed, melds, None if win_tile < 0 else win_tile, win_by, discarder,
            None if self.wild < 0 else self.wild,
            None if self.indicator < 0 or r.wild_mode == "fixed" else self.indicator,
            tuple(s.flowers), s.wild_discards, self.dealer_streak, s.first_turn, first, s.declared_ready or declared,
            r.overrides, winners, dealer_won, None if self.wild2 < 0 else self.wild2, last_tile, after_kong,
            first_draw, self.prevalent_wind, last_of_kind, self._indicator_kinds(False) if self.ind_shown else (),
            self._indicator_kinds(True) if self.ind_shown else (), mk, s.declared_ready and s.ready_first,
            s.declared_ready and s.unbroken)

    def _in_sight(self, k: int, win_by: str) -> int:
        """The tiles of kind k every player can see: in the discard piles (the discard won on aside) and in the
        melds shown (a concealed kong is face down)."""
        n = 0
        for s in self.seats:
            for d in s.discards:
                if d == k:
                    n += 1
            for m in s.melds:
                if not m.concealed:
                    for t in m.tiles:
                        if t == k:
                            n += 1
        if win_by == "discard" and self.ld_tile == k and 0 <= self.ld_seat and self.seats[self.ld_seat].discards \
                and self.seats[self.ld_seat].discards[-1] == k:
            n -= 1
        return n

    def _claim_situation(self, c: tuple, winners: int = 1, dealer_won: Any = None) -> Any:
        """The situation of a win (seat, win_by, discarder) as it is taken."""
        seat, win_by, d = c
        s = self.seats[seat]
        conc = tiles_of(s.counts)
        if win_by == "discard":
            tile = self.ld_tile
            conc.append(tile)
        elif win_by == "rob_kong":
            tile = self.rk_tile
            conc.append(tile)
        elif win_by == "rob_gold":
            tile = self.indicator
        elif win_by == "dealt":
            tile = -1
        else:
            tile = self.drawn if self.drawn >= 0 else (conc[-1] if conc else -1)
        conc.sort()
        return self.situation_of(seat, tuple(conc), tuple(s.melds), tile, win_by, d,
                                  win_by == "discard" and self.ld_first, winners, dealer_won, True)

    def _ready(self, seat: int) -> bool:
        s = self.seats[seat]
        if not self._fits_any(s):
            return False
        try:
            return bool(self.engine.ready(self.situation_of(seat, tuple(tiles_of(s.counts)), tuple(s.melds), -1,
                                                            "self_draw", -1, False)))
        except ValueError:
            return False

    # ---- wins and the end -----------------------------------------------------------------------------------
    def _win(self, claims: list) -> None:
        self.stake_seat = -1   # a declaration whose discard is won is void
        self.on_offer = False  # (and the tile was won, not let go: no abort asks of it)
        dealer_won = any(c[0] == self.dealer for c in claims)
        new = []
        for c in claims:
            res = self.engine.judge(self._claim_situation(c, len(claims), dealer_won))
            new.append(Winner(c[0], c[1], c[2], res))
            self.log.append(("win", c[0], c[1], c[2], list(res["patterns"]), res["value"]))
        if not self.winners:
            self.first_winners = len(new)
            if self.r.horse_at_win:   # turned now, from the wall's head: as many as are left
                for _ in range(min(self.r.horse_count, self.tail - self.head)):
                    self.horses.append(self.wall[self.head])
                    self.head += 1
            if self.horses:
                self.log.append(("horses", tuple(self.horses)))
        self.winners = self.winners + new
        settle = _settle()
        settle.pay_win_now(self, new)
        if self.r.leave:
            for w in new:
                self._seat(w.seat).out = True
            goes_on = settle.after_leaving(self)
            if goes_on < 0:
                self._draw_game("the wall is exhausted")
                return
            if goes_on > 0:
                # play goes on from the seat after the (last, in play order from the discarder) winner
                d = claims[0][2]
                last = max([c[0] for c in claims], key=lambda p: (p - d) % self.n) if d >= 0 else claims[0][0]
                self.asking = []
                self.legal = {}
                self.answers = {}
                self._next_draw((last + 1) % self.n)
                return
        self._finish()

    def _draw_game(self, why: str) -> None:
        self.wall_ended = True
        self.log.append(("exhausted", why))
        self._finish()

    def _finish(self) -> None:
        self.over = True
        self.phase = OVER
        self.abort_env = None   # (it holds the game: a cycle that only the garbage collector would free)
        self.asking = []
        self.legal = {}
        self.answers = {}
        self.outcome = _settle().settle(self)
        o = self.outcome
        if self.r.rd_stake:
            self.log.append(("end", o["winners"], o["payments"], o["next_dealer"], o["next_streak"], o["pot"]))
        else:
            self.log.append(("end", o["winners"], o["payments"], o["next_dealer"], o["next_streak"]))

    # ---- reading the game -----------------------------------------------------------------------------------
    @property
    def phase_name(self) -> str:
        return PHASES[self.phase]

    @property
    def claim_tile(self) -> int:
        """The tile on offer: the discard in the claims, the added kong's tile when it may be robbed; else -1."""
        if self.phase == CLAIMS:
            return self.ld_tile
        if self.phase == ROB_KONG:
            return self.rk_tile
        return -1

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event of the hand so far, as logged (JSON-ready dicts)."""
        from .events import event_dict

        cache = self._ev_cache
        if len(cache) > len(self.log):  # pragma: no cover - the log only grows
            cache.clear()
        for i in range(len(cache), len(self.log)):
            cache.append(event_dict(self, self.log[i]))
        return cache

    def decision_count(self) -> int:
        """How many decisions the seats took."""
        return sum(1 for e in self.log if e[0] == "action")

    def choices(self) -> list[dict[str, Any]]:
        """The choices of the declaration being made (each a name and its tiles' kinds, in CHOOSE order), or of
        the hands shown at the deal (each an opening's name, no kinds); empty outside them."""
        if self.phase != DECLARE:
            return []
        return [{"name": c.name, "kinds": list(getattr(c, "kinds", ()))}
                for c in self.r.pre[self.pre_step - 1][1].choices]

    def holds(self, seat: int, mask: int) -> bool:
        """Does the seat hold, concealed or in its melds, a kind of the bit mask `mask`?"""
        return self._holds(self.seats[seat], mask, -1)

    def may_be_ready(self, seat: int) -> bool:
        """False only when no tile added to the seat's hand can complete it, by the back end's shape test (the
        cheap test before a settlement asks the engine whether the hand is ready)."""
        return self._fits_any(self._seat(seat))

    def _fits_any(self, s: Seat) -> bool:
        """Does the shape test pass with some playable kind added to the seat's hand?"""
        if self.r.shape is not None:
            m = self._fit_mask(s, -1)
            if not m:
                return False
            for k in self.r.playable:
                if (m >> k) & 1:
                    return True
            return False
        for k in self.r.playable:
            if self._fits(s, k):
                return True
        return False

    def hand(self, seat: int) -> list[int]:
        """Seat's concealed tiles, as sorted kinds."""
        return tiles_of(self._seat(seat).counts)

    def view(self, seat: int) -> dict[str, Any]:
        """What one seat may see: its own tiles, everyone's melds, flowers and discards, the wall count."""
        me = self.seats[seat]
        names = _NAMES
        return {
            "seat": seat, "dealer": self.dealer, "phase": PHASES[self.phase],
            "concealed": [names[k] for k in tiles_of(me.counts)],
            "drawn": names[self.drawn] if self.drawn >= 0 and seat == self.current else None,
            "wild": names[self.wild] if self.wild >= 0 else None,
            "wild_kinds": [names[k] for k in (self.wild, self.wild2) if k >= 0],
            "indicator": names[self.indicator] if self.indicator >= 0 else None,
            "indicators": [names[k] for k in self._indicator_kinds(False)],
            "drawable": self.drawable,
            "dice": list(self.dice),
            "shown": [{"seat": e[1], "opening": e[2], "count": e[3], "hand": [names[k] for k in e[4]]}
                      for e in self.log if e[0] == "show"],
            "last_discard": names[self.claim_tile] if self.claim_tile >= 0 else None,
            "players": [{"melds": [str(m) for m in s.melds], "flowers": [names[k] for k in s.flowers],
                         "discards": [names[k] for k in s.discards], "concealed_count": s.size,
                         "declared_ready": s.declared_ready} for s in self.seats],
        }

    def observe(self, seat: int) -> dict[str, Any]:
        """What one seat may see, as NumPy arrays (see mjrules.game.observe)."""
        from .observe import observe

        return observe(self, seat)

    def tile_census(self) -> list[int]:
        """How many of each kind are anywhere: wall, hands, melds, flowers, discards, indicator."""
        c = [0] * N_KINDS
        for i in range(self.head, self.tail):
            c[self.wall[i]] += 1
        for s in self.seats:
            for k in range(N_KINDS):
                c[k] += s.counts[k] + s.meld_counts[k]
            for k in s.flowers:
                c[k] += 1
            for k in s.discards:
                c[k] += 1
            for k in s.picks:
                c[k] += 1
        for k in self.horses:
            c[k] += 1
        if self.indicator >= 0 and not self.indicator_taken:
            c[self.indicator] += 1
        for k in self.loose:
            c[k] += 1
        return c

    def invariant_errors(self) -> list[str]:
        """Broken invariants (always empty): every tile in one place, legal hand sizes."""
        errs = []
        c = self.tile_census()
        copies = self.r.copies
        if self.full_wall and c != copies:
            errs.append("tiles out of place: " + ", ".join(
                [f"{_NAMES[k]}: {c[k]} of {copies[k]}" for k in range(N_KINDS) if c[k] != copies[k]]))
        ws = self.r.win_size
        for i in range(self.n):
            s = self.seats[i]
            if s.size != sum(s.counts):
                errs.append(f"seat {i}: its size {s.size} is not its {sum(s.counts)} tiles")
            size = s.size + len(s.picks) + 3 * len(s.melds)
            turn = not self.over and self.phase in (TURN, ROB_KONG) and i == self.current
            want = (ws - 1, ws) if (turn or self.over or s.out) else (ws - 1,)
            if i == self.dealer and self.phase in (READY, SETUP, EXCHANGE, DECLARE):
                want = (ws,)
            if size not in want:
                errs.append(f"seat {i} holds {size} tiles in phase {PHASES[self.phase]}")
        return errs

    # ---- copies and serialisation ---------------------------------------------------------------------------
    def copy(self) -> Game:
        """An independent copy (for search): the same state, the same future for the same actions."""
        g = Game.__new__(Game)
        g.deal_hand(self.r, self.seed, self.dealer, self.dealer_streak, self.prevalent_wind)
        g._copy_from(self)
        return g

    def _copy_from(self, o: Game) -> None:
        """Every field of o's state (mjrules.game.serial.FIELDS), copied so that the two games are independent."""
        from .serial import copy_fields

        copy_fields(o, self)

    def to_state(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; Game.from_state(engine, data) restores an identical game."""
        from .serial import to_state

        return to_state(self)

    @staticmethod
    def from_state(engine: Any, data: dict[str, Any]) -> Game:
        """The game `to_state` wrote, for this engine (its spec must be the one the state was written with)."""
        from .serial import from_state

        return from_state(engine, data, Game)


class StalledGame(RuntimeError):
    """A hand that did not end within the decisions allowed (a bug, never a rule)."""


# The commonest events, each made once (an event is an immutable tuple): a hand logs some 300 of them.
_EVENTS_SEATS = 8
_ACTION_EVENTS: list = [None] * (_EVENTS_SEATS * N_ACTIONS)
_DISCARD_EVENTS: list = [None] * (_EVENTS_SEATS * N_KINDS)
_DRAW_EVENTS: list = [None] * (_EVENTS_SEATS * N_KINDS * 2)


def _action_event(seat: int, a: int, detail: Any) -> tuple:
    """("action", seat, a, detail)."""
    if not (0 <= seat < _EVENTS_SEATS and 0 <= a < N_ACTIONS and type(detail) is int and detail == -1):
        return ("action", seat, a, detail)
    i = seat * N_ACTIONS + a
    e = _ACTION_EVENTS[i]
    if e is None:
        e = _ACTION_EVENTS[i] = ("action", seat, a, -1)
    return e


def _discard_event(seat: int, k: int) -> tuple:
    """("discard", seat, k)."""
    if not (0 <= seat < _EVENTS_SEATS and 0 <= k < N_KINDS):
        return ("discard", seat, k)
    i = seat * N_KINDS + k
    e = _DISCARD_EVENTS[i]
    if e is None:
        e = _DISCARD_EVENTS[i] = ("discard", seat, k)
    return e


def _draw_event(seat: int, k: int, tail: bool) -> tuple:
    """("draw", seat, k, tail)."""
    if not (0 <= seat < _EVENTS_SEATS and 0 <= k < N_KINDS):
        return ("draw", seat, k, tail)
    i = (seat * N_KINDS + k) * 2 + (1 if tail else 0)
    e = _DRAW_EVENTS[i]
    if e is None:
        e = _DRAW_EVENTS[i] = ("draw", seat, k, tail)
    return e


_SETTLE: Any = None


def _settle() -> Any:
    """mjrules.game.settle, imported on first use (an import statement in a function imports on every call)."""
    global _SETTLE
    if _SETTLE is None:
        from . import settle

        _SETTLE = settle
    return _SETTLE


def _has(ids: list, a: int) -> bool:
    """Is action id `a` among `ids`? (a loop over C ints, compiled)"""
    for x in ids:
        if x == a:
            return True
    return False


def _swap_kinds(k: int, a: int) -> int:
    """The kinds (bits) a chi of claimed kind k (action a) bars from the claimer's next discard (no_swap_calling): k,
    and the kind at the other end of the two tiles shown, in the same suit (none for a chi around k)."""
    bar = cython.cast(cython.ulonglong, 1) << k
    rank = k % 9
    if k < 27:
        if a == CHI_LOW and rank <= 5:     # k k+1 k+2: k+3 completes k+1 k+2 too
            bar |= cython.cast(cython.ulonglong, 1) << (k + 3)
        elif a == CHI_HIGH and rank >= 3:  # k-2 k-1 k: k-3 completes k-2 k-1 too
            bar |= cython.cast(cython.ulonglong, 1) << (k - 3)
    return bar


def _claim_bit(a: int) -> int:
    if a == WIN:
        return C_WIN
    if KONG <= a < PON:
        return C_KONG
    if a == PON:
        return C_PON
    if CHI_LOW <= a <= CHI_HIGH:
        return C_CHI
    return 0


def _kind(name: Any) -> int:
    if type(name) is str:
        k = _KIND_OF.get(name)
        if k is not None:
            return k
    from ..model.tiles import parse_tile

    return parse_tile(name).kind


def _show(a: Any) -> str:
    if isinstance(a, dict):
        return " ".join([str(v) if not isinstance(v, list) else "".join([str(x) for x in v]) for v in a.values()])
    return repr(a)
