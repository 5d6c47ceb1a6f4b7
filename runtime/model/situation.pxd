# cython: language_level=3
"""Types for compiling mjrules.model.situation (runtime/model/situation.py) in Cython's pure-Python mode: the one situation
reader, which the native back end's evaluate calls from C (`cimport mjrules.model.situation`)."""

from mjrules.model.tiles cimport MELD_CHI, MELD_KONG, NO_KIND, kinds_named, scan_buffer, scan_into, tile_kind

cdef enum:
    BY_OTHER = 0       # Fields.by: how the hand was won, as far as the kernel's own tests and the checks ask
    BY_DISCARD = 1
    BY_ROB_KONG = 2
    BY_DEALT = 3
    BY_ROB_GOLD = 4
    NKINDS = 42        # every tile kind, flowers included (mjrules.model.tiles.N_KINDS)

cdef dict _BY, _SLOTS, _NO_OPTIONS
cdef object _ABSENT
cdef bytearray _NO_KINDS
cdef tuple _KEY_NAMES

cdef class Fields:
    cdef public long seat, dealer, discarder, wild_discards, dealer_streak, winners, prevalent_wind
    cdef public int win_tile, wild, wild2, indicator    # -1: none (wild2: a second wild kind)
    cdef public int by                          # BY_*
    cdef public int dealer_won                  # -1: None (the winner's own), else 0 or 1
    cdef public bint first_turn, first_discard, declared_ready, last_tile, after_kong, first_draw, last_of_kind
    cdef public bint ready_first_turn, ready_uninterrupted
    cdef public tuple indicators, hidden_indicators, marked   # kinds
    cdef public bytearray kinds                 # the concealed tiles' kinds: kinds[:nkinds]
    cdef public Py_ssize_t nkinds
    cdef public tuple flowers, melds
    cdef public object win_by
    cdef public dict options


cdef class Reader:
    cdef readonly object variant
    cdef long players
    cdef Py_ssize_t size
    cdef int copies[42]
    cdef int wild_of[42]
    cdef unsigned long long playable, scored, marked   # marked: the kinds the spec marks a copy of
    cdef tuple marked_kinds                            # ... in order
    cdef bint has_indicators
    cdef bint chi, kongs, has_wild, fixed, no_calls, indicator_stays, indicator_copy, rob_gold
    cdef int fixed_wild
    cdef dict option_types
    cdef bint cased             # options choose the hand's wild mode (wildmode.hand_wild)
    cdef object hand0           # else the one HandWild of every hand (None without a wild)
    cdef int kinds0             # and its number of wild kinds
    cdef tuple wild_opts        # the options the wild's cases read
    cdef dict hand_memo         # their values -> the HandWild they choose
    cdef dict opt_in, opt_out   # the last options read (a copy) and their checked Fields.options (never changed)

    cpdef Fields read(self, d, bint pre_draw=*)
    cpdef check(self, Fields f, bint pre_draw=*)
    cdef _check_marks(self, Fields f)
    cdef _held_marks(self, Fields f)
    cdef bint _same_options(self, dict opts) except -1
    cdef _check_options(self, dict options)


cpdef Fields fields(s)
cdef Fields _new_fields()
cdef _defaults(Fields f)
cdef long _whole(v, str key) except? -1
cdef int _kind_or_none(v, str key) except? -1
cdef tuple _kinds_of(v, str key)
cdef int _kind_in(x) except? -1
cdef long _in_range(v, str key, long default, long lo, long hi) except? -1
cdef bint _flag(v, str key) except? -1
cdef str _text(value, str key)
cdef Py_ssize_t _scan(str text, str key, bytearray out) except? -1
cdef int _one_tile(value, str key) except? -1
cdef str _kinds_name(int wild, int wild2)
cdef tuple _tiles_of(value, str key)
cdef dict _MELD_MEMO
cdef tuple _melds_of(m)
