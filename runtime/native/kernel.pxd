# cython: language_level=3
"""C declarations shared by mjrules.native.kernel and every generated variant module (`cimport mjrules.native.kernel`).

A generated module fills one `Spec` (counts, static tables, and function pointers to its compiled
conditions) and hands it to `mjrules.native.kernel.Kernel` in a capsule. The kernel enumerates readings and calls
back; the generated functions read situation facts, reading features and memoised references through the
inline helpers below. Numbers are C doubles: booleans are 0/1, strings and tile groups are exact ids or
masks, and any value that might differ from Python's exact arithmetic sets `Ctx.err` so the caller falls
back to the reference interpreter for that situation.
"""
from libc.math cimport fabs, pow as c_pow, floor, ceil, NAN, isnan

cdef enum:
    NK = 34          # kinds a reading holds: suited tiles and honours
    NALL = 42        # every kind, flowers included
    MAXG = 24        # groups in a reading (41 tiles: 13 sets and a pair, or 20 pairs)
    MAXJ = 16        # wild tiles in one hand
    MAXM = 12        # melds in one hand
    MAXTIE = 8       # a score's tiebreaks the kernel compares (more: the reference chooses)
    CORE_ABI = 25    # bump whenever a struct or a signature in this file changes

cdef enum:
    G_SEQ = 0
    G_PUNG = 1
    G_PAIR = 2
    G_KNIT = 3       # a knitted straight: k0 is its index in KNIT_MASKS (nine kinds, no wild)

cdef enum:
    SV_SEQ = 0       # the kinds of a reading's sets (set views: its groups and the melds)
    SV_PUNG = 1
    SV_KONG = 2
    SV_PAIR = 3
    SV_KNIT = 4
    MAXSV = 36       # MAXG + MAXM

cdef enum:
    FK_COUNT = 0     # Spec.fan_kind: a fan counted by its expression
    FK_COMBO = 1     # a combination of sets (Spec.combo)
    FK_OTHERWISE = 2 # 1 when no other fan counts (bonus fans aside)
    COMBO_W = 16     # ints per fan in Spec.combo: kind (0 seq, 1 pung), size, suits (0 same, 1 different),
                     # the steps as a bit mask, the number of ranks, then the ranks

cdef enum:
    MS_MEETS = 1     # Spec.min_sure's answer: every reading of the pattern meets every minimum
    MS_FAILS = 2     # every reading of it fails one

cdef enum:
    SH_STANDARD = 0
    SH_PAIRS = 1
    SH_FREE = 2
    SH_KNITTED = 3   # a knitted straight (nine kinds), sets and a pair

cdef enum:
    ERR_NUM = 1      # a number left the range where a double equals Python's exact value
    ERR_TABLE = 2    # a table has no cell, or its column is not a status: the reference raises
    ERR_OTHER = 4    # anything else the reference decides (unknown names, odd kinds)

cdef struct Group:
    unsigned char kind   # G_SEQ, G_PUNG or G_PAIR
    unsigned char k0     # the first kind; a sequence is k0, k0+1, k0+2
    unsigned char wild   # bit i set: tile i of the group is a wild

cdef struct Reading:
    int pattern
    int ngroups
    Group groups[MAXG]
    int counts[NK]       # every tile as what it stands for, melds included
    int nassign
    int assign[MAXJ]     # what each wild stands for, sorted
    int placed           # the group the reading places its winning tile in (win_in), -1 none; -2: it places none
                         # (a spec that never asks win_in)

cdef struct Facts:
    int real[NK]         # concealed tiles that are not wilds
    int base[NK]         # real plus melds
    int jokers           # wild tiles among the concealed
    int meld_counts[NK]
    int nonkong[NK]
    bint meld_seq
    int w                # the wild kind, or -1
    int w2               # a second wild kind, or -1 (w >= 0 then)
    int jw2              # the wilds of kind w2 among jokers (the rest are w's)
    bint wild_on         # a wild kind is in force (w >= 0): wild_in_force, which the generated code reads
    unsigned long long cand   # kinds a wild may stand for
    int ncand
    int cand_list[NK]
    int flower_counts[NALL]
    double win_by        # a string id
    bint is_dealer, first_turn, first_discard, declared_ready, no_melds
    bint last_tile, after_kong, first_draw
    int exposed              # melds that are not concealed kongs
    int nmg                  # the melds as groups: each one's kinds as a mask (a pung's one kind, a chi's three)
    unsigned long long mg[MAXM]
    int seat, dealer, discarder, wild_discards, dealer_streak
    int nflowers, nmelds, kongs, kongs_exposed, kongs_concealed
    int winners              # the win settlement's count of winners (一炮多響)
    bint dealer_won          # the dealer is among the winners
    int win_tile             # -1 when there is none
    bint dealt               # win_by is dealt
    signed char waits_all    # -1 until computed
    bint nested              # inside a waits_all check: waits_all is false there
    int seat_wind, prevalent_wind
    bint last_of_kind
    bint claimed             # won on a discard or a robbed kong (the winning tile was claimed)
    int wait_kinds           # -1 until computed
    int nms                  # the melds as sets: kind (SV_SEQ, SV_PUNG, SV_KONG), lowest kind, concealed
    unsigned char ms_kind[MAXM]
    unsigned char ms_low[MAXM]
    unsigned char ms_conc[MAXM]
    int indicated, hidden_indicated   # the winner's tiles the indicators point at (Spec.points_at)
    int marked                        # marked copies among them
    bint ready_first_turn, ready_uninterrupted

cdef struct Ctx

ctypedef bint (*PatternFn)(Ctx* x, Reading* rd, int p) noexcept nogil
# ViableFn: a free pattern's three-valued test on the counts so far: 0 when it fails on every count vector that
# contains them (the other facts unchanged), 1 when it holds on every one, -1 when they do not tell. The wild
# enumeration prunes on it and wait_kinds tests it once on a pre-draw hand for every real tile drawn.
ctypedef signed char (*ViableFn)(Ctx* x, int* counts, int p) noexcept nogil
ctypedef bint (*ModifierFn)(Ctx* x, Reading* rd, int m) noexcept nogil
ctypedef bint (*EventFn)(Ctx* x, int e) noexcept nogil
ctypedef bint (*StatusFn)(Ctx* x, Reading* rd, int s) noexcept nogil
ctypedef double (*TableFn)(Ctx* x, Reading* rd, int t, int* row) noexcept nogil
ctypedef double (*DefineFn)(Ctx* x, Reading* rd, int d) noexcept nogil
ctypedef double (*ValueFn)(Ctx* x, Reading* rd) noexcept nogil
ctypedef int (*ForbidFn)(Ctx* x, Reading* rd) noexcept nogil
ctypedef signed char (*ForbidCtxFn)(Ctx* x, int* counts, int pattern) noexcept nogil
ctypedef int (*MinimumFn)(Ctx* x, Reading* rd, double value) noexcept nogil
ctypedef int (*MinSureFn)(Ctx* x, int* counts, int pattern) noexcept nogil
ctypedef void (*BoundsFn)(Ctx* x, int* counts, int pattern, double* lo, double* hi) noexcept nogil
ctypedef int (*ModsBoundFn)(Ctx* x, int* counts, int pattern) noexcept nogil
ctypedef bint (*ClaimFn)(Ctx* x) noexcept nogil
ctypedef double (*WinFn)(Ctx* x, Reading* rd, int i) noexcept nogil
ctypedef void (*FansFn)(Ctx* x, Reading* rd) noexcept nogil

cdef struct Spec:
    int abi
    int npat, nmod, nev, nst, ntab, ndef, nwin, nopt, nforbid
    int win_size
    bint has_wild, face_value, discard_unclaimable, has_win_on_discard, rob_kong
    unsigned long long stands     # stands_for and playable, as a kind mask
    int nminimum                  # minimum clauses (the verdict may need a reading's value)
    int plain_standard            # the first standard-shape pattern without a condition, or -1
    int nplayable
    const int* playable
    const int* copies             # NALL entries
    const int* shapes             # per pattern
    const int* blind              # per pattern: 1 its condition, 2 its scoring, reads nothing of the reading;
                                  # 4, 8 the same without wilds (codegen.reading_blind): a pattern so scored is
                                  # settled by its first reading
    PatternFn pattern
    ViableFn viable
    ModifierFn modifier
    EventFn event
    StatusFn status
    TableFn table
    DefineFn define
    ValueFn value
    ForbidFn forbid
    ForbidCtxFn forbid_ctx        # on the facts alone (and the pattern, or -1): 2 some forbid holds whatever the
                                  # reading, 0 none can, 1 unknown
    MinimumFn minimum
    MinSureFn min_sure            # on the facts alone: bit 0 (MS_MEETS) every reading of the pattern meets every
                                  # minimum, bit 1 (MS_FAILS) every reading of it fails one; counts NULL: whatever
                                  # the counts (every three-valued test of them unknown)
    BoundsFn value_bounds         # on the facts alone: bounds of the value of every reading of the pattern
                                  # (NAN: none known)
    ModsBoundFn mods_bound        # on the facts alone: at most how many modifiers hold on a reading of it
    const int* pung_only          # per pattern: 1 its condition requires no_sequences, 2 it is no_sequences
                                  # alone (codegen.pung_only)
    const int* std_needs          # per pattern: bits 0-2 the wild counts its standard reading's pair may have,
                                  # bit 3 it may have a sequence (codegen.std_needs)
    ClaimFn claim
    WinFn win
    int players
    int nfan                      # counted fans (mjrules.model.fans), in the spec's order
    const int* fan_kind           # per fan: FK_*
    const int* fan_bonus          # per fan: 1 a bonus fan
    const double* fan_points      # per fan: its points
    const int* combo              # per fan: COMBO_W ints (a FK_COMBO fan's shape)
    int nprefer                   # Score.prefer: the fans a tie of value goes to
    const int* prefer
    bint places_win               # some expression asks win_in: each placement of the winning tile is a reading
    int ntie                      # Score.tiebreak: among readings of equal value, the larger first
    DefineFn tie                  # tiebreak i's value on a reading
    const double* fan_open        # per fan: its points in a hand with an exposed meld
    const int* points_at          # NK entries: the kind an indicator points at (-1: none)
    FansFn fans_all               # every fan's count after exclusions on the reading of gen, remembered as
                                  # fan_final remembers it, in straight-line code (codegen.fan_order)

cdef struct Ctx:
    Spec* spec
    Facts f
    double* opts
    signed char* ev_memo
    unsigned int gen              # bumped for every (reading, pattern): memo entries of older gens are stale
    unsigned int* mod_gen
    signed char* mod_val
    unsigned int st_gen
    int st_val
    unsigned int* tb_gen
    double* tb_val
    int* tb_row
    unsigned int* df_gen
    double* df_val
    double value                  # the win context's value
    int err
    Ctx* inner                    # scratch context for waits_all
    int nfree                     # the free-shape patterns, in order (_may_fit's viability tests)
    int* free_pats
    bint has_std, has_pairs       # some pattern has the standard shape, the pairs shape
    bint ev_dirty                 # ev_memo holds a value (_reset_memo clears it only then)
    bint small                    # the spec has at most 4 copies of every kind, so a hand's counts (never
                                  # more than the copies) index the suit tables without a range test
    bint count_free               # the facts are only ever made by _prep_check, _set_wild and _load_row: a test
                                  # on the facts alone may be asked once with the counts unknown and remembered
    signed char* msu              # per wilds held (0..MAXJ) and pattern: the generated min_sure with the counts
                                  # unknown (1 every reading meets every minimum, 0 not sure, 2 not asked yet)
    signed char* fcu              # per wilds held and pattern + 1 (0: none): forbid_ctx with the counts unknown
                                  # (0 no forbid can hold, 2 one holds, 1 unknown, 3 not asked yet)
    signed char* ssu              # per wilds held (0..MAXJ): _sure_shapes' answer, -1 not asked yet (as msu)
    signed char* msc              # per pattern: min_sure on these facts and counts (x.f.base), -1 not asked since
    bint ms_dirty                 # the last _reset_memo; ms_dirty: some entry is not -1
    unsigned long long playmask   # the spec's playable kinds as a kind mask (bit 63: one outside 0..NK-1)
    bint c_exact                  # the counts a three-valued test is given are every reading's own (no wild left
                                  # to place): count_in is then exact rather than unknown (_forbids_ask sets it)
    bint has_knit                 # some pattern has the knitted shape
    bint free_fixed               # every free pattern's test reads only the tiles, the melds and the options (the
                                  # engine says so: Kernel.set_free_fixed), so a pre-draw hand's false test stands
                                  # for every real tile drawn, whatever the drawn tile names (var_wait_kinds)
    # the fans of the reading of gen (memoised as ref_define): the counts after exclusions (all worked out in the
    # gen fa_gen; fans_busy while they are), the combinations' counts, the set views, and fan_points / bonus_points
    unsigned int* ff_gen
    double* ff_val
    unsigned int fa_gen
    bint fans_busy
    unsigned int cb_gen
    double* cb_val
    unsigned int sv_gen
    int nsv
    unsigned char sv_kind[MAXSV]
    unsigned char sv_low[MAXSV]
    unsigned char sv_conc[MAXSV]
    unsigned int fp_gen
    double fp_val, bp_val
    int* cfan                     # the combination fans of sequences (ncseq), then of pungs (ncpung)
    int ncseq, ncpung

# ---- implemented in kernel.pyx -------------------------------------------------------------------------
cdef bint var_waits_all(Ctx* x) noexcept nogil
cdef double var_wait_kinds(Ctx* x) noexcept nogil
cdef double fan_final(Ctx* x, Reading* rd, int i) noexcept nogil
cdef double fan_sum(Ctx* x, Reading* rd, bint bonus) noexcept nogil
cdef void fan_combos(Ctx* x, Reading* rd) noexcept nogil
cdef void set_views(Ctx* x, Reading* rd) noexcept nogil
cdef double rf_alike(Ctx* x, Reading* rd, int kind) noexcept nogil
cdef bint rf_waiting_hand(Ctx* x, const unsigned char* alts, int nalts) noexcept nogil

cdef inline double ref_fan(Ctx* x, Reading* rd, int i) noexcept nogil:
    """Fan i's count after exclusions on the reading of gen (mjrules.model.fans.FanCounter.final)."""
    if x.ff_gen[i] == x.gen:
        return x.ff_val[i]
    return fan_final(x, rd, i)

cdef inline double rf_combo(Ctx* x, Reading* rd, int i) noexcept nogil:
    """Combination fan i's count before exclusions (a shape the kernel takes)."""
    if x.cb_gen != x.gen:
        fan_combos(x, rd)
    return x.cb_val[i]

cdef inline int rf_sets_one(Ctx* x, int i, int kind) noexcept nogil:
    """Is set view i of the kind (SET_KINDS' index)? (Another kind: 0, and an error.)"""
    cdef int k = x.sv_kind[i]
    if kind == 0:
        return k == SV_SEQ
    if kind == 1:
        return k == SV_PUNG or k == SV_KONG
    if kind == 2:
        return k == SV_KONG
    if kind == 3:
        return k == SV_PAIR
    if kind == 4:
        return (k == SV_PUNG or k == SV_KONG) and x.sv_conc[i]
    if kind == 5:
        return k == SV_KONG and x.sv_conc[i]
    if kind == 6:
        return k == SV_KONG and not x.sv_conc[i]
    x.err |= ERR_OTHER
    return 0

cdef inline double rf_sets(Ctx* x, Reading* rd, int kind, unsigned long long mask) noexcept nogil:
    """sets(kind, group): the reading's sets (melds included) of a kind (compiler.builtins.SET_KINDS' index: seq,
    pung, kong, pair, concealed_pung, concealed_kong, exposed_kong) whose lowest kind is in the mask. (Inline: the
    generated module asks it of a constant kind.)"""
    cdef int i, n = 0
    if x.sv_gen != x.gen:
        set_views(x, rd)
    for i in range(x.nsv):
        if (mask >> x.sv_low[i]) & 1:
            n += rf_sets_one(x, i, kind)
    return n

cdef inline double rf_wind_sets(Ctx* x, Reading* rd, int kind, double n) noexcept nogil:
    """wind_sets(kind, n): sets(kind, the n-th wind), none when n is not 0..3."""
    if not (n >= 0.0 and n < 4.0):
        return 0.0
    return rf_sets(x, rd, kind, 1ULL << (27 + <int>n))

cdef inline double p_wait_kinds(Ctx* x, int* c) noexcept nogil:
    """wait_kinds three-valued: exact on the counts so far (a fact of the situation); with the counts unknown (c
    NULL), 0 where it is 0 whatever the counts, else unknown."""
    if c != NULL:
        return var_wait_kinds(x)
    return 0.0 if x.f.nested or x.f.win_tile < 0 or x.f.dealt else NAN

cdef inline signed char p_waiting_hand(Ctx* x, int* c, const unsigned char* alts, int nalts) noexcept nogil:
    """waiting_hand three-valued: exact on the counts so far; with them unknown, false with melds or no winning
    tile, else unknown."""
    if c != NULL:
        return rf_waiting_hand(x, alts, nalts)
    return 0 if x.f.nmelds or x.f.win_tile < 0 else -1

cdef inline signed char t_waits_all(Ctx* x, int* c) noexcept nogil:
    """waits_all three-valued on the facts and the counts so far c: var_waits_all; with the counts unknown (c
    NULL), false where var_waits_all is false whatever the counts (inside its own test, no winning tile, a dealt
    hand), else unknown."""
    if c != NULL:
        return x.f.waits_all if x.f.waits_all >= 0 else var_waits_all(x)   # (its memo, without the call)
    return 0 if x.f.nested or x.f.win_tile < 0 or x.f.dealt else -1

# ---- memoised references --------------------------------------------------------------------------------
cdef inline bint ref_event(Ctx* x, int e) noexcept nogil:
    if x.ev_memo[e] < 0:
        x.ev_memo[e] = x.spec.event(x, e)
        x.ev_dirty = True
    return x.ev_memo[e]

cdef inline bint ref_mod(Ctx* x, Reading* rd, int m) noexcept nogil:
    if x.mod_gen[m] != x.gen:
        x.mod_val[m] = x.spec.modifier(x, rd, m)
        x.mod_gen[m] = x.gen
    return x.mod_val[m]

cdef inline int ref_status(Ctx* x, Reading* rd) noexcept nogil:
    cdef int i
    if x.st_gen != x.gen:
        x.st_val = -1
        for i in range(x.spec.nst):
            if x.spec.status(x, rd, i):
                x.st_val = i
                break
        x.st_gen = x.gen
    return x.st_val

cdef inline double ref_table(Ctx* x, Reading* rd, int t) noexcept nogil:
    if x.tb_gen[t] != x.gen:
        x.tb_val[t] = x.spec.table(x, rd, t, &x.tb_row[t])
        x.tb_gen[t] = x.gen
    return x.tb_val[t]

cdef inline double ref_define(Ctx* x, Reading* rd, int d) noexcept nogil:
    if x.df_gen[d] != x.gen:
        x.df_val[d] = x.spec.define(x, rd, d)
        x.df_gen[d] = x.gen
    return x.df_val[d]

# ---- numbers ------------------------------------------------------------------------------------------
cdef inline double n_chk(Ctx* x, double v) noexcept nogil:
    if not fabs(v) < 9007199254740992.0:
        x.err |= ERR_NUM
    return v

cdef inline double n_bad(Ctx* x) noexcept nogil:
    x.err |= ERR_NUM
    return 0.0

cdef inline double n_err(Ctx* x) noexcept nogil:
    x.err |= ERR_OTHER
    return 0.0

cdef inline double n_div(Ctx* x, double a, double b) noexcept nogil:
    if b == 0.0:
        return 0.0
    return n_chk(x, a / b)

cdef inline double n_pow(Ctx* x, double a, double b) noexcept nogil:
    """Python's a ** b: exact for whole numbers (by squaring), libm pow otherwise; odd cases fall back."""
    cdef double r = 1.0, base = a
    cdef long long e
    if b == floor(b) and b >= 0.0 and fabs(b) < 4096.0 and a == floor(a):
        e = <long long>b
        while e > 0:
            if e & 1:
                r = n_chk(x, r * base)
            e >>= 1
            if e:
                base = n_chk(x, base * base)
        return r
    if (a == 0.0 and b < 0.0) or (a < 0.0 and b != floor(b)):
        x.err |= ERR_NUM
        return 0.0
    return n_chk(x, c_pow(a, b))

cdef inline double n_round_up(Ctx* x, double a, double b) noexcept nogil:
    """round_up(a, b): the first multiple of b at or above a (a itself when b <= 0), as mjrules.model.interp."""
    if not b > 0.0:
        return a
    return n_chk(x, ceil(a / b) * b)

cdef inline double p_round_up(Ctx* x, double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return NAN
    return n_round_up(x, a, b)

cdef inline bint rf_win_in(Ctx* x, Reading* rd, int where) noexcept nogil:
    """win_in(PLACEMENT): the reading places its winning tile in its group rd.placed so (builtins.PLACEMENTS'
    index: 0 pair, 1 pung, 2 seq_middle, 3 seq_edge, 4 seq_sides); mjrules.model.fans.placed_as."""
    cdef int w = x.f.win_tile, k0
    cdef Group* g
    cdef bint edge
    if rd.placed == -2:   # (a reading that was not placed: only the reference can say)
        x.err |= ERR_OTHER
        return 0
    if rd.placed < 0 or w < 0:
        return 0
    g = &rd.groups[rd.placed]
    if where == 0:
        return g.kind == G_PAIR
    if where == 1:
        return g.kind == G_PUNG
    if g.kind != G_SEQ:
        return 0
    k0 = g.k0
    edge = (k0 % 9 == 0 and w == k0 + 2) or (k0 % 9 == 6 and w == k0)
    if where == 2:
        return w == k0 + 1
    if where == 3:
        return edge
    return (w == k0 or w == k0 + 2) and not edge

cdef inline double n_max(double a, double b) noexcept nogil:
    return b if b > a else a

cdef inline double n_min(double a, double b) noexcept nogil:
    return b if b < a else a

# ---- three-valued logic (free-shape pruning, like interp.evaluate with UNKNOWN) ---------------------------
# conditions: -1 unknown, 0 false, 1 true; numbers, strings and groups: NaN is unknown
cdef inline double t_num(signed char b) noexcept nogil:
    if b < 0:
        return NAN
    return b

cdef inline signed char t_and(signed char a, signed char b) noexcept nogil:
    if a == 0 or b == 0:
        return 0
    if a < 0 or b < 0:
        return -1
    return 1

cdef inline signed char t_or(signed char a, signed char b) noexcept nogil:
    if a == 1 or b == 1:
        return 1
    if a < 0 or b < 0:
        return -1
    return 0

cdef inline signed char t_pat(int p, int i) noexcept nogil:
    """The reading's pattern is i, when the pattern p is known (p >= 0)."""
    if p < 0:
        return -1
    return p == i

cdef inline signed char t_not(signed char a) noexcept nogil:
    if a < 0:
        return -1
    return not a

cdef inline signed char t_eq(double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return -1
    return a == b

cdef inline signed char t_ne(double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return -1
    return a != b

cdef inline signed char t_lt(double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return -1
    return a < b

cdef inline signed char t_le(double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return -1
    return a <= b

cdef inline signed char t_gt(double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return -1
    return a > b

cdef inline signed char t_ge(double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return -1
    return a >= b

cdef inline signed char t_if_t(signed char c, signed char a, signed char b) noexcept nogil:
    if c < 0:
        return a if a == b and a >= 0 else -1
    return a if c else b

cdef inline double t_if_n(signed char c, double a, double b) noexcept nogil:
    if c < 0:
        return a if a == b else NAN   # NaN never equals itself: unknown stays unknown
    return a if c else b

cdef inline int t_in_step(int s, double x, double o) noexcept nogil:
    """Fold one option of `x in (...)`: s is 0 (no match yet), 1 (matched) or 2 (an unknown option seen)."""
    if s == 1:
        return 1
    if isnan(o):
        return 2
    if o == x:
        return 1
    return s

cdef inline signed char t_in_end(int s, double x) noexcept nogil:
    if isnan(x):
        return -1
    if s == 1:
        return 1
    return -1 if s == 2 else 0

cdef inline double p_add(Ctx* x, double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return NAN
    return n_chk(x, a + b)

cdef inline double p_sub(Ctx* x, double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return NAN
    return n_chk(x, a - b)

cdef inline double p_mul(Ctx* x, double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return NAN
    return n_chk(x, a * b)

cdef inline double p_div(Ctx* x, double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return NAN
    return n_div(x, a, b)

cdef inline double p_pow(Ctx* x, double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return NAN
    return n_pow(x, a, b)

cdef inline double p_max(double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return NAN
    return n_max(a, b)

cdef inline double p_min(double a, double b) noexcept nogil:
    if isnan(a) or isnan(b):
        return NAN
    return n_min(a, b)

# ---- bounds over readings (the minimum-sure test); NAN: no bound known ----------------------------------
cdef inline double b_min2(double a, double b) noexcept nogil:
    """min(a, b), NAN when either is NAN (no comparison with a NAN holds, so the second test fails)."""
    return a if a < b else (b if b <= a else NAN)

cdef inline double b_max2(double a, double b) noexcept nogil:
    """max(a, b), NAN when either is NAN."""
    return a if a > b else (b if b >= a else NAN)

cdef inline double b_min4(double a, double b, double c, double d) noexcept nogil:
    return b_min2(b_min2(a, b), b_min2(c, d))

cdef inline double b_max4(double a, double b, double c, double d) noexcept nogil:
    return b_max2(b_max2(a, b), b_max2(c, d))

cdef inline double b_max_known(double a, double b) noexcept nogil:
    """A lower bound of max(x, y) from lower bounds of x and y: either one that is known will do."""
    if isnan(a):
        return b
    if isnan(b):
        return a
    return a if a > b else b

cdef inline double b_min_known(double a, double b) noexcept nogil:
    """An upper bound of min(x, y) from upper bounds of x and y: either one that is known will do."""
    if isnan(a):
        return b
    if isnan(b):
        return a
    return a if a < b else b

cdef inline double b_pow(Ctx* x, double al, double ah, double bl, double bh, bint hi) noexcept nogil:
    """A bound of a ** b from bounds of a and b: exact when both are known exactly; with a whole exponent
    known exactly and a base known non-negative, a ** b grows with a; else none."""
    if isnan(al) or isnan(ah) or isnan(bl) or isnan(bh) or bl != bh:
        if not isnan(bl) and bl == bh and bl == floor(bl) and bl >= 0.0 and fabs(bl) < 4096.0 \
                and not isnan(al) and al >= 0.0:
            if hi:
                return NAN if isnan(ah) else c_pow(ah, bl)
            return c_pow(al, bl)
        return NAN
    if al == ah:
        return n_pow(x, al, bl)
    if bl == floor(bl) and bl >= 0.0 and fabs(bl) < 4096.0 and al >= 0.0:
        return c_pow(ah if hi else al, bl)
    return NAN

# ---- reading features (exact) ---------------------------------------------------------------------------
cdef inline bint rf_distinct(int* c) noexcept nogil:
    cdef int k, m = 0
    for k in range(NK):  # counts are 0..4: no branch, so the compiler can vectorise it
        m |= c[k] >> 1
    return m == 0

cdef inline bint rf_one_suit(int* c, bint partial) noexcept nogil:
    """No honour, and the suited kinds present all of one suit (partial: or none present). Straight-line ORs of
    each suit's counts (no branch per kind: the compiler can vectorise it), not a scan that stops early: the
    scan's branches cost more than the loads on a mixed hand."""
    cdef int k, m = 0, p = 0, s = 0, h = 0
    for k in range(9):
        m |= c[k]
        p |= c[9 + k]
        s |= c[18 + k]
    for k in range(27, NK):
        h |= c[k]
    if h != 0 or (m != 0) + (p != 0) + (s != 0) > 1:
        return 0
    return partial or (m | p | s) != 0

cdef inline double rf_fours(Ctx* x, Reading* rd) noexcept nogil:
    cdef int k, n = 0
    for k in range(NK):
        if rd.counts[k] - x.f.meld_counts[k] + x.f.nonkong[k] >= 4:
            n += 1
    return n

cdef inline double rf_pair_wilds(Ctx* x, Reading* rd) noexcept nogil:
    cdef int i, n = 0
    if x.spec.shapes[rd.pattern] != SH_STANDARD:
        return 0.0
    for i in range(rd.ngroups):
        if rd.groups[i].kind == G_PAIR:
            n += (rd.groups[i].wild & 1) + ((rd.groups[i].wild >> 1) & 1)
    return n

cdef inline bint rf_wilds_at_face(Ctx* x, Reading* rd) noexcept nogil:
    cdef int i, n2 = 0
    for i in range(rd.nassign):
        if rd.assign[i] == x.f.w2:
            n2 += 1
        elif rd.assign[i] != x.f.w:
            return 0
    return n2 == x.f.jw2

cdef inline unsigned long long knit_mask(int i) noexcept nogil:
    """The kinds of the i-th knitted straight (mjrules.reference.readings.KNITS' order)."""
    if i == 0:
        return 76620873ULL
    if i == 1:
        return 38422601ULL
    if i == 2:
        return 76583570ULL
    if i == 3:
        return 38310692ULL
    if i == 4:
        return 19286162ULL
    return 19211556ULL

cdef inline bint rf_win_at(Ctx* x, Reading* rd, int where) noexcept nogil:
    """A concealed group of the reading holds the winning tile's kind: where 0 a sequence's first or last tile
    (win_at_seq_end), 1 its middle tile (win_at_seq_middle), 2 the pair (win_at_pair)."""
    cdef int i, w = x.f.win_tile
    cdef Group* g
    if w < 0:
        return 0
    for i in range(rd.ngroups):
        g = &rd.groups[i]
        if where == 2:
            if g.kind == G_PAIR and g.k0 == w:
                return 1
        elif g.kind == G_SEQ:
            if where == 1:
                if g.k0 + 1 == w:
                    return 1
            elif g.k0 == w or g.k0 + 2 == w:
                return 1
    return 0

cdef inline bint rf_knitted(int* c) noexcept nogil:
    """The suited tiles fit one knitted arrangement: per suit one remainder by 3 of its ranks, no two suits the
    same."""
    cdef int suit, r, used = 0, rem
    for suit in range(3):
        rem = 0
        for r in range(9):
            if c[suit * 9 + r]:
                rem |= 1 << (r % 3)
        if rem:
            if rem & (rem - 1):
                return 0
            if used & rem:
                return 0
            used |= rem
    return 1

cdef inline bint rf_no_sequences(Ctx* x, Reading* rd) noexcept nogil:
    cdef int i
    if x.f.meld_seq:
        return 0
    if rd != NULL:
        for i in range(rd.ngroups):
            if rd.groups[i].kind == G_SEQ:
                return 0
    return 1

cdef inline bint rf_every_group(Ctx* x, Reading* rd, unsigned long long mask) noexcept nogil:
    """Every group of the reading (its sets and pairs, and the melds) holds a kind of the mask; false for a reading
    of no groups (a free shape's)."""
    cdef int i
    cdef Group* g
    if rd.ngroups == 0:
        return 0
    for i in range(x.f.nmg):
        if not x.f.mg[i] & mask:
            return 0
    for i in range(rd.ngroups):
        g = &rd.groups[i]
        if g.kind == G_SEQ:
            if not (mask >> g.k0) & 7:
                return 0
        elif g.kind == G_KNIT:
            if not mask & knit_mask(g.k0):
                return 0
        elif not (mask >> g.k0) & 1:
            return 0
    return 1

cdef inline signed char pv_every_group(Ctx* x, unsigned long long mask) noexcept nogil:
    """every_group before the reading is known: false when a meld holds no kind of the mask, else unknown."""
    cdef int i
    for i in range(x.f.nmg):
        if not x.f.mg[i] & mask:
            return 0
    return -1

cdef inline bint rf_all_in(int* c, unsigned long long mask) noexcept nogil:
    cdef int k
    for k in range(NK):
        if c[k] and not (mask >> k) & 1:
            return 0
    return 1

cdef inline bint rf_contains(int* c, unsigned long long mask) noexcept nogil:
    cdef int k
    for k in range(NK):
        if (mask >> k) & 1 and c[k] <= 0:
            return 0
    return 1

cdef inline double rf_count_in(int* c, unsigned long long mask) noexcept nogil:
    cdef int k, n = 0
    for k in range(NK):
        if (mask >> k) & 1:
            n += c[k]
    return n

cdef inline bint rf_spacing(int* c, double d) noexcept nogil:
    """Same-suit tiles differ in rank by at least d: no kind twice (when d > 0) and, per suit, no two ranks held
    at a distance g < d (as the ranks' bits: bits & (bits >> g))."""
    cdef int suit, r, g, bits, many, n
    if not d > 0:          # 0 or less (or NaN): no gap is below it
        return 1
    for suit in range(3):
        bits = many = 0
        for r in range(9):
            n = c[suit * 9 + r]
            bits |= (n > 0) << r
            many |= n >> 1
        if many:
            return 0
        g = 1
        while g < d and g <= 8:
            if bits & (bits >> g):
                return 0
            g += 1
    return 1

cdef extern from *:
    """
    /* The index of x's lowest set bit (x != 0): gcc's and clang's builtin, else a plain C99 loop. */
    #if defined(__GNUC__) || defined(__clang__)
    #define mj_ctzll(x) __builtin_ctzll(x)
    #else
    static CYTHON_INLINE int mj_ctzll(unsigned long long x) {
        int n = 0;
        while (!(x & 1ULL)) { x >>= 1; n++; }
        return n;
    }
    #endif
    """
    int mj_ctzll(unsigned long long x) nogil

cdef inline double flower_fours(Ctx* x, unsigned long long mask) noexcept nogil:
    """The kinds of mask (below NALL) whose every copy is among the flowers shown."""
    cdef int k, n = 0
    mask &= (1ULL << NALL) - 1
    while mask:   # the set bits only: a mask names a handful of flower kinds
        k = mj_ctzll(mask)
        mask &= mask - 1
        if x.spec.copies[k] and x.f.flower_counts[k] >= x.spec.copies[k]:
            n += 1
    return n

cdef inline double flower_complete(Ctx* x, unsigned long long mask) noexcept nogil:
    """1 when every kind of mask (below NALL) is among the flowers shown, else 0."""
    cdef int k
    mask &= (1ULL << NALL) - 1
    while mask:
        k = mj_ctzll(mask)
        mask &= mask - 1
        if x.f.flower_counts[k] <= 0:
            return 0.0
    return 1.0

# partial versions: antimonotone tests answer false or unknown; contains answers true or unknown
cdef inline signed char pv_anti(bint holds) noexcept nogil:
    return -1 if holds else 0

cdef inline signed char pv_contains(int* c, unsigned long long mask) noexcept nogil:
    return 1 if rf_contains(c, mask) else -1

cdef inline signed char pv_spacing(int* c, double d) noexcept nogil:
    if isnan(d):
        return -1
    return pv_anti(rf_spacing(c, d))


cdef class ShapeTest:
    """A kernel's cheap shape test as an object (Kernel.shape_test): the compiled game calls may_fit in C."""
    cdef object kernel
    cpdef bint may_fit(self, object counts, object meld_counts, int nmelds, bint meld_seq, int wild, int plus=*,
                       int wild2=*) except -1
    cpdef unsigned long long fit_mask(self, object counts, object meld_counts, int nmelds, bint meld_seq, int wild,
                                      int wild2, unsigned long long kinds, int less=*) except? 0xFFFFFFFFFFFFFFFF
    cdef unsigned long long mask_of(self, bytearray counts, bytearray meld_counts, int nmelds, bint meld_seq, int wild,
                                    int wild2, int less) except? 0xFFFFFFFFFFFFFFFF
