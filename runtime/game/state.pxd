# Types for mjrules/game/state.py when Cython compiles it (pure-Python mode): the same source, typed.
# The enum values must be those of state.py's `if not cython.compiled:` block (tests/test_game_api.py holds
# them equal).
cimport cython
from mjrules.native.kernel cimport ShapeTest
from mjrules.game.rng cimport Rng
from mjrules.game.rules cimport Rules, C_WIN, C_KONG, C_PON, C_CHI
from mjrules.game.seat cimport Seat, Winner, meld_of, tiles_of

cpdef enum:
    N_KINDS = 42
    DISCARD = 0
    KONG = 42
    PON = 84
    CHI_LOW = 85
    CHI_MID = 86
    CHI_HIGH = 87
    WIN = 88
    PASS = 89
    DECLARE_READY = 90
    ROB_WILD = 91
    SELECT = 92
    CHOOSE = 134
    ABORT = 142
    N_ACTIONS = 143
    SETUP = 0
    READY = 1
    TURN = 2
    ROB_WILD_PHASE = 3
    CLAIMS = 4
    ROB_KONG = 5
    OVER = 6
    EXCHANGE = 7
    DECLARE = 8
    SRC_DEAL = 0
    SRC_DRAW = 1
    SRC_CLAIM = 2
    SRC_REPLACEMENT = 3
    K_EXPOSED = 0
    K_ADDED = 1
    K_CONCEALED = 2

cdef class Game:
    cdef public Rules r
    cdef public object engine, v, seed, outcome, agent_names, seating
    cdef public int n, dealer, dealer_streak, head, tail, wild, wild2, indicator, discard_count, claims_made
    cdef public int phase, current, drawn, source, ld_seat, ld_tile, rk_seat, rk_tile, ret_cache
    cdef public int pre_step, first_winners, kongs_made, kong_feeder, prevalent_wind, stake_seat
    cdef public unsigned long long passing
    cdef public int ind_base, ind_shown, ind_pending
    cdef public bint ld_marked, on_offer, drawn_marked, rk_concealed
    cdef public str aborted
    cdef public object abort_env
    cdef public list abort_seen
    cdef public list liabilities
    cdef public list wall_marked
    cdef public object pot
    cdef public bint full_wall, indicator_taken, over, ld_first, wall_ended, ld_after_kong
    cdef public list seats, wall, first_round, winners, loose, asking, rob_queue, log, _ev_cache, ledger, horses
    cdef public list shown, opening_counts, dice, stakes
    cdef public dict legal, answers

    cpdef deal_hand(self, Rules r, object seed, int dealer, int dealer_streak, int prevalent_wind=*)
    @cython.locals(r=Rules, rng=Rng, n=int, p=int, s=Seat, mk=int, i=int)
    cdef _setup(self, object wall, object hands, int indicator, object dice=*)
    @cython.locals(s=Seat)
    cdef _take_into(self, int seat, int count)
    cdef int _take_tail(self)
    @cython.locals(r=Rules, s=Seat, n=int, i=int, p=int, k=int, moved=bint)
    cdef _initial_flowers(self)
    @cython.locals(r=Rules, k=int, stack=int, pos=int)
    cdef _reveal_wild(self, int indicator, Rng rng)
    @cython.locals(r=Rules, i=int, p=int)
    cpdef start_play(self)
    cpdef ask_seats(self, list seats, dict legal)
    @cython.locals(p=int)
    cpdef int _to_act(self)
    @cython.locals(got=list)
    cpdef list legal_ids(self, int seat=*)
    cpdef step(self, object action)
    @cython.locals(legal=list, a=int)
    cpdef act(self, int seat, object action)
    @cython.locals(answers=dict, offered=dict, ph=int, alone=bint)
    cdef _apply(self, int seat, int a)
    cdef object _action_detail(self, int a, int seat)
    cdef int _kong_kind(self, int seat, int k)
    cpdef int action_id(self, object action, int seat=*)
    @cython.locals(r=Rules, s=Seat, acts=list, discards=list, forced=list, counts=bytearray, k=int, c=int, fours=bint,
                   df="unsigned long long", sw="unsigned long long")
    cdef _turn(self, int seat, int drawn, int source)
    cdef str _self_win_by(self, int seat)
    @cython.locals(s=Seat)
    cdef bint _self_wins(self, int seat)
    cdef Seat _seat(self, int p)
    @cython.locals(k=int)
    cdef bint _holds(self, Seat s, unsigned long long mask, int extra)
    cdef bint _may_win_on(self, Seat s, int k)
    @cython.locals(k=int, shape=ShapeTest)
    cdef bint _fits(self, Seat s, int plus) except -1
    cdef unsigned long long _fit_mask(self, Seat s, int less) except? 0xFFFFFFFFFFFFFFFF
    @cython.locals(k=int, m="unsigned long long")
    cdef bint _fits_any(self, Seat s) except -1
    @cython.locals(i=int, p=int)
    cdef int _next_in(self, int seat)
    @cython.locals(k=int, s=Seat, first=bint)
    cdef _resolve_turn(self, int seat, int a)
    @cython.locals(r=Rules, i=int, p=int, queue=list)
    cdef _after_discard(self)
    @cython.locals(s=Seat, k=int)
    cdef bint _can_rob_wild(self, int seat)
    @cython.locals(s=Seat, p=int)
    cdef _resolve_rob_wild(self, int seat, int a)
    cdef _resolve_ready(self, dict answers)
    @cython.locals(r=Rules, d=int, k=int, n=int, i=int, p=int, s=Seat, acts=list, seats=list, legal=dict,
                   unclaimable=bint, last=bint, win=bint, calls=int, fits=int)
    cdef _open_claims(self)
    @cython.locals(r=Rules, s=Seat, c=bytearray, lo_ok=int, hi=int, bits=int)
    cdef int _calls(self, int p, int d, int k) except -1
    @cython.locals(i=int)
    cdef bint _may_win_on_discard(self, Seat s, int p)
    cdef bint _chi_ok(self, bytearray c, int a, int b, int lo, int hi)
    cdef bint _no_call(self, int k)
    cdef bint _locked(self, int seat)
    @cython.locals(r=Rules, d=int, k=int, n=int, i=int, p=int, a=int, level=int, wins=list)
    cdef _resolve_claims(self, dict answers, dict offered)
    cdef list _pick_winners(self, list claims)
    @cython.locals(s=Seat, lo=int, x=int, y=int)
    cdef _take_claim(self, int p, int d, int k, int a)
    @cython.locals(t=int)
    cdef _add_meld(self, Seat s, object m)
    @cython.locals(r=Rules, s=Seat, locked=bint, k=int)
    cdef _own_kongs(self, int seat, list out, bint fours)
    @cython.locals(k=int, counts=bytearray, melded=bytearray)
    cdef bint _may_add_kong(self, Seat s) except -1
    cdef bint _keeps_waits(self, int seat, int k)
    cdef list _waits_of(self, int seat, list concealed, list melds, bint drop_drawn)
    cdef bint _kong_room(self, int exposed, int concealed)
    @cython.locals(s=Seat, o=Seat, i=int, p=int, seats=list, legal=dict)
    cdef _declare_kong(self, int seat, int k)
    cdef bint _may_rob(self, int p, int k, int seat, list by) except -1
    cdef _complete_concealed_kong(self, int seat, int k)
    @cython.locals(seat=int, k=int, s=Seat)
    cdef _resolve_rob_kong(self, dict answers)
    @cython.locals(seat=int, k=int, s=Seat, i=int)
    cdef _complete_added_kong(self)
    cdef _kong_made(self, int seat, dict kong)
    cdef _replacement(self, int seat)
    cpdef int _drawable(self)
    cpdef int retained(self, int extra_exposed=*, int extra_concealed=*)
    @cython.locals(fr=int, d=int, k=int)
    cdef _next_draw(self, int seat)
    @cython.locals(s=Seat, scored=bytearray, k=int)
    cdef int _draw_tile(self, int seat, bint tail, bint replace_flowers)
    @cython.locals(i=int, p=int, k=int)
    cdef _final_draws(self, int seat, int count)
    @cython.locals(s=Seat, conc=list, win_tile=int)
    cdef object _situation(self, int seat, int tile, str win_by, int discarder, bint first)
    @cython.locals(s=Seat, r=Rules)
    cpdef object situation_of(self, int seat, tuple concealed, tuple melds, int win_tile, str win_by,
                              int discarder, bint first, int winners=*, object dealer_won=*, bint history=*,
                              bint declared=*)
    @cython.locals(s=Seat, tile=int, conc=list)
    cdef object _claim_situation(self, tuple c, int winners=*, object dealer_won=*)
    @cython.locals(s=Seat)
    cdef bint _ready(self, int seat)
    @cython.locals(r=Rules, s=Seat, e=int, k=int)
    cdef bint _may_declare(self, int seat) except -1
    cdef bint _ready_without(self, int seat, int k) except -1
    cdef list _ready_discards(self, int seat)
    @cython.locals(r=Rules, q=int, o=Seat)
    cdef _discard_passed(self)
    cdef _place_stake(self)
    @cython.locals(i=int, passed=bint, seen=cython.longlong)
    cdef bint _aborts(self, list rules, int win_claims) except -1
    @cython.locals(s=Seat, mark=cython.longlong)
    cdef long long _abort_inputs(self, int reads)
    cdef _end_aborted(self, object a)
    cdef _liability(self, int p, int d)
    cdef object _table_env(self)
    @cython.locals(i=int, s=Seat)
    cdef int _first_turn_abort(self, int seat) except -2
    cdef _interrupt(self)
    @cython.locals(pos=int)
    cdef _turn_indicator(self)
    @cython.locals(j=int, out=list)
    cdef tuple _indicator_kinds(self, bint hidden)
    cdef _pending_indicators(self)
    @cython.locals(extra=int)
    cdef _meld_marks(self, Seat s, int k, int used)
    @cython.locals(s=Seat, conc=list)
    cdef bint _completes(self, int p, int k) except -1
    @cython.locals(s=Seat, k=int)
    cdef bint _furiten(self, int p) except -1
    @cython.locals(t=int, left=int)
    cdef bint _call_leaves_discard(self, Seat s, int k, int a, int b, unsigned long long bar) except -1
    cdef _win(self, list claims)
    cdef _draw_game(self, str why)
    cdef _finish(self)
    cpdef bint holds(self, int seat, object mask)
    cpdef bint may_be_ready(self, int seat) except -1
    cpdef list hand(self, int seat)
    cpdef list choices(self)
    cpdef Game copy(self)
    cpdef _copy_from(self, Game o)


cpdef int _claim_bit(int a)
@cython.locals(bar=cython.ulonglong, rank=int)
cpdef unsigned long long _swap_kinds(int k, int a)


cdef object _settle()
cdef int _EVENTS_SEATS
cdef unsigned long long ALL_KINDS
cdef list _ACTION_EVENTS, _DISCARD_EVENTS, _DRAW_EVENTS
@cython.locals(i=int, e=tuple)
cdef tuple _action_event(int seat, int a, object detail)
@cython.locals(i=int, e=tuple)
cdef tuple _discard_event(int seat, int k)
@cython.locals(i=int, e=tuple)
cdef tuple _draw_event(int seat, int k, bint tail)

@cython.locals(x=int)
cdef bint _has(list ids, int a) except -1
