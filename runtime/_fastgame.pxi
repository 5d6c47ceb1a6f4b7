# Included by _core.pyx: one hand of the generic game (runtime/game.py) played in C for built-in agents.
#
# The loop plays exactly what game.py plays with RandomAgent and GreedyAgent seats -- the same shuffle
# (CPython's Mersenne Twister, seeded as random.Random seeds it), the same legal actions in the same order,
# the same decision for each (random.Random.choice; GreedyAgent's choices, below), the same events -- for
# the deal, flowers, the wild's reveal, draws, discards, passes, pon, chi and kongs. A win is offered exactly
# when game.py's judge would offer it: the kernel's verdict on the facts game.py would build. The loop stops
# *before* any step it leaves to game.py -- a win an agent takes, a ready declaration, a robbed gold, a win in
# the final round, a check the kernel cannot decide, the hand's end -- and hands its state over; game.py
# plays on from there (fastplay.fast_hand). Every number the loop needs from the spec comes from
# FastTable's constructor (runtime/fastplay.py): it knows no variant.

cdef enum:
    MT_N = 624
    FG_WALL = 192        # tiles in a wall
    FG_HAND = 32         # tiles held concealed
    FG_MELDS = 12
    FG_FLOWERS = 48
    FG_SEATS = 8
    FG_LEVELS = 8
    EVW = 6              # ints per logged event

# event codes (runtime/fastplay.py's materialise reads them)
cdef enum:
    E_WILD = 1           # a = indicator (-1: fixed), b = wild
    E_FLOWERS = 2        # seat, a = offset in extra, b = count, c = flipped
    E_ACT_DISCARD = 3    # seat, a = kind
    E_ACT_PASS = 4       # seat
    E_ACT_PON = 5        # seat
    E_ACT_CHI = 6        # seat, a, b = the two tiles from the hand
    E_DISCARD = 7        # seat, a = kind
    E_DRAW = 8           # seat, a = kind, b = from the tail
    E_PON = 9            # seat, a = kind, b = discarder
    E_CHI = 10           # seat, a = kind, b = discarder, c, d = the two tiles from the hand
    E_FINAL = 11         # a = draws
    E_ACT_KONG = 12      # seat, a = kind, b = K_EXPOSED, K_ADDED or K_CONCEALED
    E_KONG = 13          # seat, a = kind, b = K_..., c = discarder (-1: none)
    E_KONG_DECLARED = 14 # seat, a = kind (an added kong, before anyone may rob it)

# hand-off entries (fastplay.py calls the matching Game method)
cdef enum:
    H_START = 1          # Game._start_play()
    H_TURN = 2           # Game._turn(seat, drawn, source)
    H_AFTER_DISCARD = 3  # Game._after_discard()
    H_OPEN_CLAIMS = 4    # Game._open_claims()
    H_DRAW_GAME = 5      # Game._draw_game(reason a)
    H_FINAL = 6          # Game._final_resume(seat, count, i)
    H_DECLARE_KONG = 7   # Game._declare_kong(seat, the added kong's action on kind a)
    H_TURN_WIN = 8       # Game._turn(seat, drawn, source), then the seat's win
    H_CLAIMS = 9         # Game._open_claims(), then the answers (someone wins)
    H_ROB_KONG = 10      # Game._declare_kong(seat, kind a), then the answers (someone robs)
    H_ROB_GOLD = 11      # Game._after_discard(), then the answers (someone robs the gold)

cdef enum:
    SRC_DEAL = 0
    SRC_DRAW = 1
    SRC_CLAIM = 2
    SRC_REPLACEMENT = 3

cdef enum:
    K_EXPOSED = 0
    K_ADDED = 1
    K_CONCEALED = 2

cdef enum:
    W_NONE = 0           # _may_win's checks before the shapes, as Kernel.evaluate makes them
    W_DISCARD = 1
    W_ROB_KONG = 2

cdef enum:
    C_WIN = 1
    C_KONG = 2
    C_PON = 4
    C_CHI = 8

FAST_SOURCES = ("deal", "draw", "claim", "replacement")
FAST_ENTRIES = (None, "start", "turn", "after_discard", "open_claims", "draw_game", "final", "declare_kong",
                "turn_win", "claims", "rob_kong", "rob_gold")   # the hand-off steps by H_... code
FAST_KONGS = ("exposed", "added", "concealed")
FAST_EXHAUSTED = ("the wall is exhausted", "the wall ran out during a replacement", "nobody won the final round")


cdef struct MT:
    unsigned int s[MT_N]
    int i


cdef unsigned int _mt_base[MT_N]     # init_genrand(19650218), where every init_by_array starts
cdef bint _mt_base_ready = False


cdef void _mt_seed(MT* m, const unsigned int* key, int n) noexcept nogil:
    """CPython's init_by_array (random.Random(seed) with the seed's 32-bit words, least significant first)."""
    _mt_seed_many(&m, &key, n, 1)


cdef void _mt_seed_many(MT** ms, const unsigned int** keys, int n, int cnt) noexcept nogil:
    """_mt_seed for `cnt` generators whose keys have the same length n, in lockstep: each generator's seeding
    is one chain of dependent multiplications, and the CPU overlaps the generators' independent chains."""
    global _mt_base_ready
    cdef unsigned int* mt
    cdef int i, j, k, g
    if not _mt_base_ready:
        _mt_base[0] = <unsigned int>19650218
        for i in range(1, MT_N):
            _mt_base[i] = <unsigned int>1812433253 * (_mt_base[i - 1] ^ (_mt_base[i - 1] >> 30)) + <unsigned int>i
        _mt_base_ready = True
    for g in range(cnt):
        memcpy(ms[g].s, _mt_base, MT_N * sizeof(unsigned int))
    i = 1
    j = 0
    k = MT_N if MT_N > n else n
    while k:
        for g in range(cnt):
            mt = ms[g].s
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * <unsigned int>1664525)) + keys[g][j] + <unsigned int>j
        i += 1
        j += 1
        if i >= MT_N:
            for g in range(cnt):
                ms[g].s[0] = ms[g].s[MT_N - 1]
            i = 1
        if j >= n:
            j = 0
        k -= 1
    k = MT_N - 1
    while k:
        for g in range(cnt):
            mt = ms[g].s
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * <unsigned int>1566083941)) - <unsigned int>i
        i += 1
        if i >= MT_N:
            for g in range(cnt):
                ms[g].s[0] = ms[g].s[MT_N - 1]
            i = 1
        k -= 1
    for g in range(cnt):
        ms[g].s[0] = <unsigned int>0x80000000
        ms[g].i = MT_N


cdef unsigned int _mt_next(MT* m) noexcept nogil:
    cdef unsigned int* mt = m.s
    cdef unsigned int y
    cdef int kk
    if m.i >= MT_N:
        for kk in range(MT_N - 397):
            y = (mt[kk] & <unsigned int>0x80000000) | (mt[kk + 1] & <unsigned int>0x7fffffff)
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ (<unsigned int>0x9908b0df if y & 1 else 0)
        for kk in range(MT_N - 397, MT_N - 1):
            y = (mt[kk] & <unsigned int>0x80000000) | (mt[kk + 1] & <unsigned int>0x7fffffff)
            mt[kk] = mt[kk + 397 - MT_N] ^ (y >> 1) ^ (<unsigned int>0x9908b0df if y & 1 else 0)
        y = (mt[MT_N - 1] & <unsigned int>0x80000000) | (mt[0] & <unsigned int>0x7fffffff)
        mt[MT_N - 1] = mt[396] ^ (y >> 1) ^ (<unsigned int>0x9908b0df if y & 1 else 0)
        m.i = 0
    y = mt[m.i]
    m.i += 1
    y ^= y >> 11
    y ^= (y << 7) & <unsigned int>0x9d2c5680
    y ^= (y << 15) & <unsigned int>0xefc60000
    y ^= y >> 18
    return y


cdef int _mt_below(MT* m, int n) noexcept nogil:
    """random.Random._randbelow(n) for 0 < n < 2**31: getrandbits(n.bit_length()) until below n."""
    cdef int k = 0, t = n
    cdef unsigned int r
    while t:
        k += 1
        t >>= 1
    r = _mt_next(m) >> (32 - k)
    while r >= <unsigned int>n:
        r = _mt_next(m) >> (32 - k)
    return <int>r


cdef int _seed_words(seed, unsigned int* words) except -1:
    """random.Random(seed)'s key for an int seed: |seed| in 32-bit words, least significant first (at least one);
    the number of words (at most 64)."""
    cdef unsigned long long a
    cdef int n = 0
    seed = abs(seed)
    if seed < 18446744073709551616:
        a = seed
        while True:
            words[n] = <unsigned int>(a & 0xFFFFFFFF)
            n += 1
            a >>= 32
            if not a:
                return n
    while seed:
        if n == 64:
            raise ValueError("a seed of more than 2048 bits")
        words[n] = seed & 0xFFFFFFFF
        n += 1
        seed >>= 32
    return n


def seed_words(seed) -> tuple:
    """_seed_words as a tuple (for tests against random.Random)."""
    cdef unsigned int words[64]
    cdef int n = _seed_words(seed, words)
    return tuple([words[i] for i in range(n)])


def mt_sample_many(list key_list, int count) -> list:
    """The first `count` getrandbits(32) of each of up to 9 generators seeded together (_mt_seed_many) with keys
    of one length. For tests against random.Random."""
    cdef MT m[FG_SEATS + 1]
    cdef MT* ms[FG_SEATS + 1]
    cdef unsigned int words[FG_SEATS + 1][64]
    cdef const unsigned int* keys[FG_SEATS + 1]
    cdef int g, i, n = len(key_list[0]) if key_list else 0, cnt = len(key_list)
    if not 0 < cnt <= FG_SEATS + 1 or not 0 < n <= 64 or any(len(k) != n for k in key_list):
        raise ValueError("1 to 9 keys of one length, 1 to 64 words")
    for g in range(cnt):
        for i in range(n):
            words[g][i] = key_list[g][i]
        keys[g], ms[g] = words[g], &m[g]
    _mt_seed_many(ms, keys, n, cnt)
    return [[_mt_next(&m[g]) for i in range(count)] for g in range(cnt)]


def mt_sample(key, int count, int below=0) -> list:
    """The first `count` outputs of the C Mersenne Twister seeded with `key` (32-bit words): getrandbits(32),
    or _randbelow(below) when below > 0. For tests against random.Random."""
    cdef MT m
    cdef unsigned int words[64]
    cdef int i, n = len(key)
    if not 0 < n <= 64:
        raise ValueError("1 to 64 key words")
    for i in range(n):
        words[i] = key[i]
    _mt_seed(&m, words, n)
    return [(_mt_below(&m, below) if below > 0 else _mt_next(&m)) for i in range(count)]


cdef struct FSeat:
    int cnt[NALL]        # concealed tiles by kind
    int ncon
    int order[FG_HAND]   # during the setup: the concealed tiles in their list order
    int nmeld
    int mkind[FG_MELDS]  # C_PON, C_CHI or C_KONG
    int mk0[FG_MELDS]    # the meld's smallest kind
    bint mconc[FG_MELDS] # a concealed kong
    int nkong
    int kkind[FG_MELDS]  # Seat.kongs in order: K_..., the kind, from whom
    int ktile[FG_MELDS]
    int kfrom[FG_MELDS]
    int flowers[FG_FLOWERS]
    int nfl
    int fcnt[NALL]       # flowers by kind
    int discards[FG_WALL]
    int ndis
    bint first_turn
    int wild_discards
    bint ron_blocked
    bint dirty           # cx.f is stale
    Ctx* cx              # the seat's own context: cx.f holds the facts of its hand (_seat_facts), kept tile by tile
    int ferr


# ---- the greedy agent (agents.GreedyAgent), for seats that play it ----------------------------------------
# The same decisions as GreedyAgent.choose_in: a win whenever offered; else a kong when it does not raise the
# shape distance, a claim when it lowers it, and the discard with the least (distance after it, is a wild,
# is not an honour, neighbours kept, random.random()). The distance (GreedyAgent.estimate) is computed here:
# the classic shanten of distance.standard_shanten (each suit's options by the same search, combined keeping
# the most partial sets per (sets, pair)), distance.pairs_shanten, and agents._free_estimate on the kernel's
# three-valued pattern test for the facts of a default situation (counts-only patterns, as the Python memo).

cdef enum:
    GS_M = 8             # sets counted per suit group in a suit's options (a suit holds at most 17 tiles)
    GS_SLOTS = 1 << 14   # remembered suit options (small tables stay in the cache)
    GE_SLOTS = 1 << 13   # remembered estimates
    GV_SLOTS = 1 << 14   # remembered free-pattern tests


cdef struct VSlot:       # one free-pattern test: the counts packed 3 bits a kind (kinds 0..20 in a, 21..33 in b's
    unsigned long long a, b   # bits 0..38), b's bits 40..47 the pattern, 48 the answer, 63 set (0: empty)


cdef struct SuitOpts:
    unsigned int key     # 1 + base-5 code of the counts, + 2**31 for the honours; 0: empty slot
    signed char t[GS_M][2]   # the most partial sets with m sets and p pairs (-1: unreachable)


cdef struct EstSlot:     # one estimate: the counts without the wilds packed as in VSlot, b's bits 40..43 the
    unsigned long long a, b   # wilds, 44..47 the melds, 48..55 the estimate + 128, 63 set (0: empty)


cdef void _gdfs(int* c, int n, bint honours, int i, int m, int t, int p, SuitOpts* o) noexcept nogil:
    """distance._group_options' search: every (sets, partial sets, pair) reading of one suit's counts."""
    cdef int d, keep
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        if m < GS_M and t > o.t[m][p]:
            o.t[m][p] = t
        return
    if c[i] >= 3:
        c[i] -= 3
        _gdfs(c, n, honours, i, m + 1, t, p, o)
        c[i] += 3
    if not honours and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        _gdfs(c, n, honours, i, m + 1, t, p, o)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if c[i] >= 2:
        c[i] -= 2
        if not p:
            _gdfs(c, n, honours, i, m, t, 1, o)
        _gdfs(c, n, honours, i, m, t + 1, p, o)
        c[i] += 2
    if not honours:
        for d in range(1, 3):
            if i + d < n and c[i + d]:
                c[i] -= 1
                c[i + d] -= 1
                _gdfs(c, n, honours, i, m, t + 1, p, o)
                c[i] += 1
                c[i + d] += 1
    keep = c[i]
    c[i] = 0
    _gdfs(c, n, honours, i + 1, m, t, p, o)
    c[i] = keep


cdef struct Greedy:
    Spec* sp
    Ctx* gx                  # the facts of a default situation, for the free patterns' three-valued tests
    SuitOpts* suits
    EstSlot* est
    bint standard, pairs
    int nfree
    int free[16]
    int sets, win_size
    int errs                 # free-pattern tests the kernel could not make (tests expect none)
    VSlot* tests             # the tests' answers by counts (first-fits of related hands share prefixes)
    long long n_est, n_miss, n_test, n_viable   # how often (for `greedy_stats`)


cdef SuitOpts* _suit_opts(Greedy* g, const int* c, int n, bint honours) noexcept nogil:
    cdef unsigned int code = 0, key, h
    cdef int i, j, m
    cdef SuitOpts* o
    cdef int w[9]
    for i in range(n):
        code = code * 5 + <unsigned int>c[i]
    key = code + 1 + (<unsigned int>honours << 31)
    h = (key * <unsigned int>2654435761) & (GS_SLOTS - 1)
    for j in range(8):
        o = &g.suits[(h + j) & (GS_SLOTS - 1)]
        if o.key == key:
            return o
        if o.key == 0:
            break
    if o.key != 0:
        o = &g.suits[h]              # the neighbourhood is full: replace the first
    o.key = key
    memset(o.t, 0xFF, sizeof(o.t))
    for i in range(n):
        w[i] = c[i]
    _gdfs(w, n, honours, 0, 0, 0, 0, o)
    return o


cdef int _g_standard(Greedy* g, const int* c, int n_sets) noexcept nogil:
    """distance.standard_shanten(c, n_sets)."""
    cdef signed char acc[32][2]
    cdef signed char nxt[32][2]
    cdef int grp, lo, m1, p1, m2, p2, m, p, t, best, mm, top = 0, top2, otop
    cdef SuitOpts* o
    memset(acc, 0xFF, sizeof(acc))
    acc[0][0] = 0
    for grp in range(4):
        lo = 9 * grp
        o = _suit_opts(g, &c[lo], 9 if grp < 3 else 7, grp == 3)
        otop = 0
        for m2 in range(GS_M):
            if o.t[m2][0] >= 0 or o.t[m2][1] >= 0:
                otop = m2
        memset(nxt, 0xFF, sizeof(nxt))
        top2 = 0
        for m1 in range(top + 1):
            for p1 in range(2):
                if acc[m1][p1] < 0:
                    continue
                for m2 in range(otop + 1):
                    for p2 in range(2):
                        if o.t[m2][p2] < 0:
                            continue
                        m = m1 + m2
                        if m > 31:
                            m = 31
                        p = 1 if p1 + p2 else 0
                        t = acc[m1][p1] + o.t[m2][p2]
                        if t > nxt[m][p]:
                            nxt[m][p] = t
                            if m > top2:
                                top2 = m
        memcpy(acc, nxt, sizeof(acc))
        top = top2
    best = 2 * n_sets
    for m in range(top + 1):
        for p in range(2):
            if acc[m][p] < 0:
                continue
            mm = m if m < n_sets else n_sets
            t = acc[m][p] if acc[m][p] < n_sets - mm else n_sets - mm
            if 2 * (n_sets - mm) - t - p < best:
                best = 2 * (n_sets - mm) - t - p
    return best


cdef bint _g_fits(Greedy* g, int p, int* counts, unsigned long long a, unsigned long long b) noexcept nogil:
    """The pattern's three-valued test on these counts is not false (agents._free_estimate's ok), remembered by
    the packed counts (a, b)."""
    cdef unsigned long long h = (a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL) ^ <unsigned long long>p
    cdef VSlot* slot = &g.tests[(h ^ (h >> 29)) & (GV_SLOTS - 1)]
    cdef bint ok
    b |= (<unsigned long long>p << 40) | (1ULL << 63)
    g.n_test += 1
    if slot.a == a and (slot.b & ~(1ULL << 48)) == b:
        return (slot.b >> 48) & 1
    g.n_viable += 1
    g.gx.err = 0
    ok = g.sp.viable(g.gx, counts, p) != 0 or g.gx.err != 0
    if g.gx.err:
        g.errs += 1
    slot.a, slot.b = a, b | (<unsigned long long>ok << 48)
    return ok


cdef int _g_orders(const int* c, int* held, int* by_count) noexcept nogil:
    """The tiles of counts c (at most 64) in agents._free_estimate's orders: as held (by kind) and by (count,
    kind); the number of tiles. The third order is the first reversed."""
    cdef int n = 0, k, i, v, m
    cdef int start[6]
    for k in range(NK):
        for i in range(c[k]):
            if n < 64:
                held[n] = k
                n += 1
    memset(start, 0, sizeof(start))
    for k in range(NK):                     # counting sort by count, kinds ascending within a count
        if 0 < c[k] <= 4:
            start[c[k] + 1] += c[k]
    for v in range(2, 6):
        start[v] += start[v - 1]
    for k in range(NK):
        v = c[k]
        if 0 < v <= 4:
            for i in range(v):
                m = start[v]
                if m < 64:
                    by_count[m] = k
                start[v] += 1
    return n


cdef unsigned long long _g_unit[NK]     # a kind's 1 in the packed counts (VSlot): kinds 0..20 in a, 21..33 in b
cdef int _gk
for _gk in range(NK):
    _g_unit[_gk] = 1ULL << (3 * (_gk % 21))


cdef int _g_free(Greedy* g, int p, const int* held, const int* by_count, int n, int cap) noexcept nogil:
    """agents._free_estimate: first-fit of the tiles in three orders -- as held, reversed, by (count, kind) --
    under the pattern's three-valued test; exact when below `cap`, else `cap` (the caller keeps the least
    estimate, so an order that can no longer fit enough tiles to beat it stops early)."""
    cdef int counts[NK]
    cdef int k, i, r, size, need = (g.win_size - 1) - cap, best
    cdef unsigned long long a, b, d
    best = need if need > 0 else 0
    for r in range(3):
        memset(counts, 0, sizeof(counts))
        a = b = 0
        size = 0
        for i in range(n):
            if size + (n - i) <= best:                  # this order cannot fit more than the best any more
                break
            k = held[i] if r == 0 else held[n - 1 - i] if r == 1 else by_count[i]
            d = _g_unit[k]
            counts[k] += 1
            if _g_fits(g, p, counts, a + d if k < 21 else a, b + d if k >= 21 else b):
                size += 1
                if k < 21:
                    a += d
                else:
                    b += d
            else:
                counts[k] -= 1
        if size > best:
            best = size
    if best <= need:
        return cap
    return (g.win_size - 1) - best


cdef int _g_estimate(Greedy* g, const int* hand, int melds, int wild) noexcept nogil:
    """GreedyAgent.estimate(concealed, melds, wild) for a hand given as counts of every kind."""
    cdef int c[NK]
    cdef int k, i, n, jokers = 0, est = 0, e, pairs = 0, kinds = 0, half
    cdef int held[64]
    cdef int by_count[64]
    cdef bint any = False, keep
    cdef unsigned long long a = 0, b = 0, h
    cdef EstSlot* slot
    g.n_est += 1
    for k in range(NK):
        c[k] = hand[k]
    if 0 <= wild < NK:
        jokers = c[wild]
        c[wild] = 0
    for k in range(21):
        a |= <unsigned long long>c[k] << (3 * k)
    for k in range(21, NK):
        b |= <unsigned long long>c[k] << (3 * (k - 21))
    keep = jokers < 16 and melds < 16          # what the slot's key holds (always, in practice)
    b |= (<unsigned long long>(jokers & 15) << 40) | (<unsigned long long>(melds & 15) << 44) | (1ULL << 63)
    h = (a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL)
    slot = &g.est[(h ^ (h >> 31)) & (GE_SLOTS - 1)]
    if keep and slot.a == a and (slot.b & ~(0xFFULL << 48)) == b:
        return <int>((slot.b >> 48) & 0xFF) - 128
    g.n_miss += 1
    if g.standard:
        est = _g_standard(g, c, g.sets - melds if g.sets - melds > 0 else 0)
        any = True
    if g.pairs and melds == 0:
        half = g.win_size // 2
        for k in range(NK):
            pairs += c[k] // 2
            kinds += c[k] > 0
        e = half - 1 - (pairs if pairs < half else half) + (half - kinds if half > kinds else 0)
        if not any or e < est:
            est = e
        any = True
    if melds == 0 and g.nfree:
        n = _g_orders(c, held, by_count)
        for i in range(g.nfree):
            e = _g_free(g, g.free[i], held, by_count, n, est if any else 1 << 20)
            if not any or e < est:
                est = e
            any = True
    if not any:
        est = 8
    if keep and -128 <= est - jokers < 128:
        slot.a, slot.b = a, b | (<unsigned long long>(est - jokers + 128) << 48)
    return est - jokers


cdef double _mt_random(MT* m) noexcept nogil:
    """random.Random.random()."""
    cdef unsigned int a = _mt_next(m) >> 5
    cdef unsigned int b = _mt_next(m) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


cdef class FastTable:
    """The C game loop for one compiled variant and one set of option values (runtime/fastplay.py builds it
    from the IR). Not thread-safe: one hand at a time."""

    cdef Kernel kernel
    cdef Spec* sp
    cdef Ctx* x
    cdef Ctx* xi
    cdef double* opts
    # the spec, as numbers
    cdef int n, win_size, ntiles
    cdef int tiles[FG_WALL]
    cdef int copies[NALL]
    cdef unsigned long long scored
    cdef int rounds[16]
    cdef int nrounds, dealer_extra
    cdef int wild_mode            # 0 none, 1 fixed, 2 from an indicator
    cdef int wild_fixed, after_flowers, ind_tail, flowers_to_dealer, dice_stack
    cdef int wild_of[NALL]
    cdef bint has_wild, discard_unclaimable, no_calls, has_flowers
    cdef bint has_rd, rd_all
    cdef bint has_rw
    cdef int rw_order[4]          # 1 the non-dealers in play order, 2 the dealer
    cdef int nrw
    cdef bint k_conc, k_added, k_exposed, pon
    cdef int chi_from             # 0 never, 1 from the previous seat, 2 from anyone
    cdef bint chi_honours
    cdef int levels[FG_LEVELS]
    cdef int nlevels
    cdef bint retain_fixed        # the retention is retain_const; else ask `retain`
    cdef int retain_const
    cdef object retain
    cdef bint kong_needs_replacement, rob_added
    cdef int nfc                  # the retention's flower builtins (-1: it reads the flowers otherwise)
    cdef int fc_code[16]          # 0 flower_fours, 1 flower_complete
    cdef unsigned long long fc_mask[16]
    cdef int rkey[3][20]          # the last retention computed per extra kongs (none, one exposed, one
    cdef int rval[3]              # concealed: the kong guards), and its key
    cdef bint rhave[3]
    cdef int final_round
    cdef bint last_discard_win_only
    cdef double wb_self, wb_discard, wb_dealt, wb_rob, wb_repl, wb_robk
    cdef unsigned long long playable
    cdef int nplay
    cdef int play_kinds[NK]
    # one hand's state
    cdef MT rng
    cdef MT arng[FG_SEATS]
    cdef int dice[2]
    cdef int wall[FG_WALL]
    cdef int wall_len, head, tail
    cdef FSeat seats[FG_SEATS]
    cdef int dealt[FG_SEATS][NALL]
    cdef int deal_wall
    cdef int dealer, streak, wild, indicator
    cdef int discard_count, claims_made
    cdef int first_round[FG_SEATS]
    cdef int nfirst
    cdef int current, drawn, source
    cdef int ld_seat, ld_kind
    cdef bint ld_first, has_ld
    cdef int retained, retain_dirty
    cdef int* ev
    cdef int nev, cap
    cdef int extra[FG_WALL]
    cdef int nextra
    cdef int entry
    cdef int eargs[4]
    cdef int nans                 # the answers a hand-off after decisions passes on: seat, C_... (0: pass), tiles
    cdef int ans[FG_SEATS][4]
    cdef bint pass_blocks_ron
    cdef unsigned long long rw_allowed   # the patterns a robbed gold may win with
    cdef public bint verify       # tests: rebuild each seat's kept facts before use and count the differences
    cdef public int stale
    cdef Greedy gr
    cdef public bint greedy_ok    # the greedy agent can play here (its free patterns read only the counts)
    cdef bint greedy[FG_SEATS]    # this hand's greedy seats

    def __cinit__(self, Kernel kernel, tuple opts, dict p):
        cdef int i, k
        self.kernel = kernel
        self.sp = kernel.sp
        self.x = _ctx_new(self.sp)
        self.xi = _ctx_new(self.sp)
        self.x.inner = self.xi
        self.opts = <double*>calloc(self.sp.nopt + 1, sizeof(double))
        self.cap = 1024
        self.ev = <int*>malloc(self.cap * EVW * sizeof(int))
        if self.opts == NULL or self.ev == NULL:
            raise MemoryError()
        if len(opts) != self.sp.nopt:
            raise ValueError("wrong number of option values")
        for i in range(self.sp.nopt):
            self.opts[i] = opts[i]
        self.x.opts = self.xi.opts = self.opts
        for i in range(FG_SEATS):
            self.seats[i].cx = _ctx_new(self.sp)
            self.seats[i].cx.inner = _ctx_new(self.sp)
            self.seats[i].cx.opts = self.seats[i].cx.inner.opts = self.opts
        self.n = p["players"]
        if not 2 <= self.n <= FG_SEATS:
            raise ValueError("players")
        self.win_size = p["win_size"]
        tiles = p["tiles"]
        if len(tiles) > FG_WALL or self.win_size + 8 > FG_HAND:
            raise ValueError("too many tiles for the C loop")
        self.ntiles = len(tiles)
        for i, k in enumerate(tiles):
            self.tiles[i] = k
        for k in range(NALL):
            self.copies[k] = p["copies"][k]
            self.wild_of[k] = p["wild_of"][k]
        self.scored = 0
        for k in p["scored"]:
            self.scored |= 1ULL << k
        if sum([p["copies"][k] for k in p["scored"]]) > FG_FLOWERS:
            raise ValueError("too many flower tiles for the C loop")
        if len(p["rounds"]) > 16:
            raise ValueError("deal rounds")
        self.nrounds = len(p["rounds"])
        for i, k in enumerate(p["rounds"]):
            self.rounds[i] = k
        self.dealer_extra = p["dealer_extra"]
        self.wild_mode, self.wild_fixed = p["wild_mode"], p["wild_fixed"]
        self.after_flowers, self.ind_tail = p["after_flowers"], p["ind_tail"]
        self.flowers_to_dealer, self.dice_stack = p["flowers_to_dealer"], p["dice_stack"]
        self.has_wild, self.discard_unclaimable, self.no_calls = p["has_wild"], p["discard_unclaimable"], p["no_calls"]
        self.has_flowers = p["has_flowers"]
        self.has_rd, self.rd_all = p["has_rd"], p["rd_all"]
        self.has_rw = p["has_rw"]
        self.nrw = len(p["rw_order"])
        for i, k in enumerate(p["rw_order"][:4]):
            self.rw_order[i] = k
        self.k_conc, self.k_added, self.k_exposed, self.pon = p["k_conc"], p["k_added"], p["k_exposed"], p["pon"]
        self.chi_from, self.chi_honours = p["chi_from"], p["chi_honours"]
        self.nlevels = min(len(p["levels"]), FG_LEVELS)
        for i in range(self.nlevels):
            self.levels[i] = p["levels"][i]
        self.retain_fixed = p["retain_const"] is not None
        self.retain_const = p["retain_const"] if self.retain_fixed else 0
        self.retain = p["retain"]
        self.final_round, self.last_discard_win_only = p["final_round"], p["last_discard_win_only"]
        self.wb_self, self.wb_discard, self.wb_dealt, self.wb_rob = p["wb_self"], p["wb_discard"], p["wb_dealt"], p["wb_rob"]
        self.wb_repl, self.wb_robk = p["wb_repl"], p["wb_robk"]
        self.kong_needs_replacement, self.rob_added = p["kong_needs_replacement"], p["rob_added"]
        self.pass_blocks_ron = p["pass_blocks_ron"]
        self.rw_allowed = 0
        for k in p["rw_allowed"]:
            if 0 <= k < 64:
                self.rw_allowed |= 1ULL << k
        calls = p["flower_calls"]
        self.nfc = -1 if calls is None or len(calls) > 16 else len(calls)
        for i, (code, kinds_) in enumerate(calls or ()):
            if i < 16:
                self.fc_code[i] = code
                self.fc_mask[i] = 0
                for k in kinds_:
                    if 0 <= k < NALL:
                        self.fc_mask[i] |= 1ULL << k
        self.playable = kernel.playable
        g = p["greedy"]
        self.greedy_ok = g is not None and not isnan(self.wb_self) and len(g["free"]) <= 16
        if self.greedy_ok:
            self.gr.sp = self.sp
            self.gr.gx = _ctx_new(self.sp)
            self.gr.gx.opts = self.opts
            self.gr.suits = <SuitOpts*>calloc(GS_SLOTS, sizeof(SuitOpts))
            self.gr.est = <EstSlot*>calloc(GE_SLOTS, sizeof(EstSlot))
            self.gr.tests = <VSlot*>calloc(GV_SLOTS, sizeof(VSlot))
            if self.gr.suits == NULL or self.gr.est == NULL or self.gr.tests == NULL:
                raise MemoryError()
            _prep_check(self.gr.gx, -1, self.playable, self.wb_self)
            self.gr.standard, self.gr.pairs = g["standard"], g["pairs"]
            self.gr.nfree = len(g["free"])
            for i, k in enumerate(g["free"]):
                self.gr.free[i] = k
            self.gr.sets, self.gr.win_size = (self.win_size - 2) // 3, self.win_size
        self.nplay = 0
        for i in range(self.sp.nplayable):
            k = self.sp.playable[i]
            if 0 <= k < NK:
                self.play_kinds[self.nplay] = k
                self.nplay += 1

    def __dealloc__(self):
        cdef int i
        _ctx_free(self.x)
        _ctx_free(self.xi)
        for i in range(FG_SEATS):
            if self.seats[i].cx != NULL:
                _ctx_free(self.seats[i].cx.inner)
                _ctx_free(self.seats[i].cx)
        free(self.opts)
        free(self.ev)
        if self.gr.gx != NULL:
            _ctx_free(self.gr.gx)
        free(self.gr.suits)
        free(self.gr.est)
        free(self.gr.tests)

    # ---- logging -------------------------------------------------------------------------------------
    cdef int _log(self, int code, int seat, int a=0, int b=0, int c=0, int d=0) except -1:
        cdef int* e
        if self.nev >= self.cap:
            e = <int*>realloc(self.ev, 2 * self.cap * EVW * sizeof(int))
            if e == NULL:
                raise MemoryError()
            self.ev, self.cap = e, 2 * self.cap
        e = &self.ev[self.nev * EVW]
        e[0], e[1], e[2], e[3], e[4], e[5] = code, seat, a, b, c, d
        self.nev += 1
        return 0

    # ---- the wall --------------------------------------------------------------------------------------
    cdef int _retained(self, int extra_exposed=0, int extra_concealed=0) except? -9999:
        """Game.retained(): the spec's constant, or Python's value for these kongs and flowers. When the
        retention reads the flowers only through flower builtins on fixed groups, their values (summed over
        the seats, as GameEnv.call does) stand for the flowers: the last value per slot is kept by that key."""
        cdef int s, i, k, r, v, exposed = 0, concealed = 0, slot, nkey
        cdef int key[20]
        cdef FSeat* st
        if self.retain_fixed:
            return self.retain_const
        slot = 0 if extra_exposed == 0 and extra_concealed == 0 else 1 if extra_exposed == 1 and \
            extra_concealed == 0 else 2 if extra_exposed == 0 and extra_concealed == 1 else -1
        if slot == 0 and not self.retain_dirty:
            return self.retained
        for s in range(self.n):
            for i in range(self.seats[s].nmeld):
                if self.seats[s].mkind[i] == C_KONG:
                    if self.seats[s].mconc[i]:
                        concealed += 1
                    else:
                        exposed += 1
        key[0], key[1], key[2], key[3] = extra_exposed, extra_concealed, exposed, concealed
        nkey = 4
        if self.nfc >= 0:
            for i in range(self.nfc):
                v = 0
                for s in range(self.n):
                    st = &self.seats[s]
                    if self.fc_code[i] == 0:
                        for k in range(NALL):
                            if (self.fc_mask[i] >> k) & 1 and self.copies[k] and st.fcnt[k] >= self.copies[k]:
                                v += 1
                    else:
                        v += 1
                        for k in range(NALL):
                            if (self.fc_mask[i] >> k) & 1 and st.fcnt[k] <= 0:
                                v -= 1
                                break
                key[nkey] = v
                nkey += 1
            if slot >= 0 and self.rhave[slot] and memcmp(key, self.rkey[slot], nkey * sizeof(int)) == 0:
                r = self.rval[slot]
            else:
                flowers = tuple([tuple([self.seats[s].flowers[i] for i in range(self.seats[s].nfl)])
                                 for s in range(self.n)])
                r = self.retain(extra_exposed, extra_concealed, exposed, concealed, flowers,
                                tuple([key[i] for i in range(4, nkey)]))
                if slot >= 0:
                    memcpy(self.rkey[slot], key, nkey * sizeof(int))
                    self.rval[slot], self.rhave[slot] = r, True
        else:
            flowers = tuple([tuple([self.seats[s].flowers[i] for i in range(self.seats[s].nfl)]) for s in range(self.n)])
            r = self.retain(extra_exposed, extra_concealed, exposed, concealed, flowers, None)
        if slot == 0:
            self.retained, self.retain_dirty = r, False
        return r

    cdef int _drawable(self) except? -9999:
        """D = W - R (Game.drawable)."""
        return self.tail - self.head - self._retained()

    cdef bint _kong_room(self, int exposed, int concealed) except -1:
        """Game._kong_room: the replacement must stay drawable after the retention grows."""
        if not self.kong_needs_replacement:
            return self.tail - self.head - self._retained() >= 1
        return self.tail - self.head - self._retained(exposed, concealed) >= 1

    cdef inline int _take_tail(self) noexcept:
        self.tail -= 1
        return self.wall[self.tail]

    cdef inline void _fk(self, FSeat* s, int k, int d) noexcept:
        """The seat's kept facts follow one tile of kind k in (d = 1) or out (d = -1) of the hand."""
        if s.dirty:
            return
        if k == s.cx.f.w:
            s.cx.f.jokers += d
        elif k < NK:
            s.cx.f.real[k] += d
            s.cx.f.base[k] += d
        else:
            s.dirty = True

    cdef inline void _add(self, FSeat* s, int k) noexcept:
        s.cnt[k] += 1
        s.ncon += 1
        self._fk(s, k, 1)

    cdef inline void _flower(self, FSeat* s, int k) noexcept:
        s.flowers[s.nfl] = k
        s.nfl += 1
        s.fcnt[k] += 1
        s.cx.f.flower_counts[k] += 1
        s.cx.f.nflowers += 1
        self.retain_dirty = True

    # ---- setup (Game._setup) ---------------------------------------------------------------------------
    cdef void _deal(self) noexcept:
        cdef int i, j, r, s, k, take
        cdef FSeat* st
        self.wall_len = self.ntiles
        for i in range(self.ntiles):
            self.wall[i] = self.tiles[i]
        for i in range(self.ntiles - 1, 0, -1):          # random.shuffle
            j = _mt_below(&self.rng, i + 1)
            self.wall[i], self.wall[j] = self.wall[j], self.wall[i]
        self.head, self.tail = 0, self.ntiles
        for r in range(self.nrounds):
            for i in range(self.n):
                st = &self.seats[(self.dealer + i) % self.n]
                take = min(self.rounds[r], self.tail - self.head)
                for j in range(take):
                    st.order[st.ncon] = self.wall[self.head + j]
                    st.ncon += 1
                self.head += take
        st = &self.seats[self.dealer]
        take = min(self.dealer_extra, self.tail - self.head)
        for j in range(take):
            st.order[st.ncon] = self.wall[self.head + j]
            st.ncon += 1
        self.head += take
        for s in range(self.n):
            for j in range(self.seats[s].ncon):
                self.dealt[s][self.seats[s].order[j]] += 1
        self.deal_wall = self.tail - self.head

    cdef int _reveal_wild(self) except -1:
        cdef int k, stack, pos, i
        if self.wild_mode == 1:
            self.wild = self.wild_fixed
            self._log(E_WILD, -1, -1, self.wild)
            return 0
        if self.ind_tail:
            while True:
                k = self._take_tail()
                if (self.scored >> k) & 1 and self.flowers_to_dealer:
                    self._flower(&self.seats[self.dealer], k)
                    self.extra[self.nextra] = k
                    self._log(E_FLOWERS, self.dealer, self.nextra, 1, 1)
                    self.nextra += 1
                    continue
                break
        else:
            stack = 1
            if self.dice_stack:
                stack = 1 + _mt_below(&self.rng, 6)
                stack += 1 + _mt_below(&self.rng, 6)
            pos = min(self.head + 2 * (stack - 1), self.tail - 1)
            k = self.wall[pos]
            for i in range(pos, self.wall_len - 1):        # list.pop(pos)
                self.wall[i] = self.wall[i + 1]
            self.wall_len -= 1
            self.tail -= 1
        self.indicator = k
        self.wild = self.wild_of[k]
        self._log(E_WILD, -1, k, self.wild)
        return 0

    cdef int _initial_flowers(self) except -1:
        cdef int i, j, m, k, nfl, start
        cdef FSeat* s
        cdef bint moved
        cdef int fl[FG_HAND]
        while True:
            moved = False
            for i in range(self.n):
                s = &self.seats[(self.dealer + i) % self.n]
                nfl = 0
                for j in range(s.ncon):
                    if (self.scored >> s.order[j]) & 1:
                        fl[nfl] = s.order[j]
                        nfl += 1
                if not nfl:
                    continue
                moved = True
                start = self.nextra
                for m in range(nfl):
                    k = fl[m]
                    for j in range(s.ncon):                 # list.remove: the first one
                        if s.order[j] == k:
                            break
                    for j in range(j, s.ncon - 1):
                        s.order[j] = s.order[j + 1]
                    s.ncon -= 1
                    self._flower(s, k)
                    if self.tail > self.head:
                        s.order[s.ncon] = self._take_tail()
                        s.ncon += 1
                    self.extra[self.nextra] = k
                    self.nextra += 1
                self._log(E_FLOWERS, (self.dealer + i) % self.n, start, nfl, 0)
            if not moved:
                return 0

    # ---- the kernel's verdict on the facts game.py's judge would build --------------------------------------
    cdef int _build_facts(self, int seat, Facts* f) noexcept:
        """The facts of the seat's hand as it is (Kernel._fill on Game._situation, the call's own fields left at
        zero); the error bits."""
        cdef FSeat* s = &self.seats[seat]
        cdef int k, i, v, w = -1, err = 0
        memset(f, 0, sizeof(Facts))
        if self.sp.has_wild and self.wild >= 0:
            w = self.wild
        f.w = w
        for k in range(NALL):
            v = s.cnt[k]
            if not v:
                continue
            if k == w:
                f.jokers += v
            elif k < NK:
                f.real[k] += v
            else:
                err |= ERR_OTHER
        f.nmelds = s.nmeld
        for i in range(s.nmeld):
            k = s.mk0[i]
            if s.mkind[i] == C_KONG:
                f.kongs += 1
                if s.mconc[i]:
                    f.kongs_concealed += 1
                else:
                    f.kongs_exposed += 1
                f.meld_counts[k] += 4
            elif s.mkind[i] == C_CHI:
                f.meld_seq = True
                f.meld_counts[k] += 1
                f.meld_counts[k + 1] += 1
                f.meld_counts[k + 2] += 1
                f.nonkong[k] += 1
                f.nonkong[k + 1] += 1
                f.nonkong[k + 2] += 1
            else:
                f.meld_counts[k] += 3
                f.nonkong[k] += 3
        for k in range(NK):
            f.base[k] = f.real[k] + f.meld_counts[k]
        f.cand = self.sp.stands
        if self.sp.face_value and 0 <= w < 64 and (self.playable >> w) & 1:
            f.cand |= 1ULL << w
        for k in range(NK):
            if (f.cand >> k) & 1:
                f.cand_list[f.ncand] = k
                f.ncand += 1
        f.nflowers = s.nfl
        for i in range(s.nfl):
            f.flower_counts[s.flowers[i]] += 1
        f.seat, f.dealer = seat, self.dealer
        f.is_dealer = seat == self.dealer
        f.wild_discards, f.dealer_streak = s.wild_discards, self.streak
        f.first_turn = s.first_turn
        f.no_melds = f.nmelds == 0
        f.winners, f.dealer_won = 1, False
        return err


    cdef Ctx* _seat_ctx(self, int seat) noexcept:
        """The seat's context, its facts up to date (rebuilt when a meld changed them, else kept tile by tile;
        with `verify`, rebuilt anyway and compared)."""
        cdef FSeat* s = &self.seats[seat]
        cdef Ctx* x = s.cx
        cdef Facts tmp
        if s.dirty:
            s.ferr = self._build_facts(seat, &x.f)
            s.dirty = False
        elif self.verify:
            self._build_facts(seat, &tmp)
            tmp.discarder, tmp.first_discard, tmp.declared_ready = x.f.discarder, x.f.first_discard, x.f.declared_ready
            tmp.win_by, tmp.dealt, tmp.win_tile, tmp.waits_all = x.f.win_by, x.f.dealt, x.f.win_tile, x.f.waits_all
            if memcmp(&tmp, &x.f, sizeof(Facts)) != 0:
                self.stale += 1
        x.err = s.ferr
        return x

    cdef int _verdict(self, int seat, double win_by, int tile, int added, int discarder, bint first,
                      bint dealt, int way, int* pattern=NULL) noexcept:
        """game.py's judge(...)["win"] on the same facts, as Kernel.evaluate decides it: 1 or 0, or -1 where the
        native code cannot decide (the reference would). The seat's hand plus `added` (-1: none)."""
        cdef Ctx* x
        cdef Facts* f
        cdef int r, w
        if isnan(win_by):
            return -1                         # a win_by the module has no id for: the reference decides
        x = self._seat_ctx(seat)
        f = &x.f
        w = f.w
        if added >= 0:
            if added == w:
                f.jokers += 1
            elif added < NK:
                f.real[added] += 1
                f.base[added] += 1
            else:
                x.err |= ERR_OTHER
        if (f.cand >> NK and f.jokers) or f.jokers > MAXJ:
            x.err |= ERR_OTHER
        f.discarder = discarder
        f.first_discard, f.declared_ready = first, False
        f.win_by = win_by
        f.dealt = dealt
        f.win_tile = tile
        f.waits_all = -1
        r = -1 if x.err else self._decide_on(x, tile, way, pattern)
        if added >= 0:
            if added == w:
                f.jokers -= 1
            elif added < NK:
                f.real[added] -= 1
                f.base[added] -= 1
        return r

    cdef int _decide_on(self, Ctx* x, int tile, int way, int* pattern) noexcept:
        """The verdict (1, 0, -1) on x's facts; with `pattern`, also the best legal reading's pattern (as
        Kernel.evaluate chooses it: every reading scored)."""
        cdef Spec* sp = self.sp
        cdef Run R
        cdef Reading scratch
        _reset_memo(x)
        if way == W_ROB_KONG:
            if not sp.rob_kong or (tile == self.wild and self.wild >= 0):
                return 0
        if way == W_DISCARD:
            if sp.has_wild and sp.discard_unclaimable and tile == self.wild:
                return 0
            if not sp.has_win_on_discard:
                return 0
            if not sp.claim(x):
                return -1 if x.err else 0
            if x.err:
                return -1
        if not _may_fit(x, (sp.win_size - 2) // 3 - x.f.nmelds, -1):
            return -1 if x.err else 0
        if _forbidden(x):
            return 0
        memset(&R, 0, sizeof(Run))
        R.x, R.mode, R.best, R.legal_only = x, 2 if pattern == NULL else 0, &scratch, True
        _run_all(x, &R, NULL)
        if x.err:
            return -1
        if R.has_best and pattern != NULL:
            pattern[0] = R.best.pattern
        return 1 if R.has_best else 0

    cdef inline bint _may_win(self, int seat, double win_by, int tile, int added, int discarder, bint first,
                              bint dealt, int way) noexcept:
        """False only when game.py's judge would say no win."""
        return self._verdict(seat, win_by, tile, added, discarder, first, dealt, way) != 0

    cdef bint _may_be_ready(self, int seat) noexcept:
        """False only when no tile can complete the seat's hand (Game._ready's waits are surely empty)."""
        cdef FSeat* s = &self.seats[seat]
        cdef Ctx* x
        cdef int i, k, sets
        cdef bint fits = False
        if s.ncon + 3 * s.nmeld != self.win_size - 1 or isnan(self.wb_self):
            return True
        x = self._seat_ctx(seat)
        if x.err or x.f.cand >> NK:
            return True
        x.f.discarder, x.f.first_discard, x.f.win_by, x.f.dealt, x.f.win_tile, x.f.waits_all = \
            -1, False, self.wb_self, False, -1, -1
        _reset_memo(x)
        sets = (self.sp.win_size - 2) // 3 - x.f.nmelds
        for i in range(self.nplay):
            k = self.play_kinds[i]
            if k == x.f.w:
                x.f.jokers += 1
            else:
                x.f.real[k] += 1
                x.f.base[k] += 1
            x.err = 0
            fits = _may_fit(x, sets, -1) or x.err
            if k == x.f.w:
                x.f.jokers -= 1
            else:
                x.f.real[k] -= 1
                x.f.base[k] -= 1
            if fits:
                break
        x.err = s.ferr
        return fits

    cdef int _own_kongs(self, int seat, int* kind, int* tile) except -1:
        """Game._own_kongs for a seat that has not declared ready: concealed kongs by kind, then added kongs in
        meld order; the count."""
        cdef FSeat* s = &self.seats[seat]
        cdef int k, i, n = 0, m
        if self.k_conc:                                  # the candidates first: the wall's guard may ask Python
            for k in range(NALL):
                if s.cnt[k] == 4 and not (self.no_calls and self.has_wild and k == self.wild):
                    kind[n], tile[n] = K_CONCEALED, k
                    n += 1
            if n and not self._kong_room(0, 1):
                n = 0
        if self.k_added:
            m = n
            for i in range(s.nmeld):
                if s.mkind[i] == C_PON and s.cnt[s.mk0[i]] > 0:
                    kind[n], tile[n] = K_ADDED, s.mk0[i]
                    n += 1
            if n > m and not self._kong_room(1, 0):
                n = m
        return n

    cdef void _kong(self, int seat, int kind, int k, int discarder) noexcept:
        """A kong made: the tiles into a meld (an added kong upgrades its pon), Seat.kongs, retention."""
        cdef FSeat* s = &self.seats[seat]
        cdef int i
        if kind == K_ADDED:
            s.cnt[k] -= 1
            s.ncon -= 1
            for i in range(s.nmeld):
                if s.mkind[i] == C_PON and s.mk0[i] == k:
                    s.mkind[i] = C_KONG
                    break
        else:
            s.cnt[k] -= 4 if kind == K_CONCEALED else 3
            s.ncon -= 4 if kind == K_CONCEALED else 3
            s.mkind[s.nmeld], s.mk0[s.nmeld], s.mconc[s.nmeld] = C_KONG, k, kind == K_CONCEALED
            s.nmeld += 1
        s.kkind[s.nkong], s.ktile[s.nkong], s.kfrom[s.nkong] = kind, k, discarder if kind == K_EXPOSED else seat
        s.dirty = True
        s.nkong += 1
        self.retain_dirty = True

    # ---- drawing ------------------------------------------------------------------------------------------
    cdef int _draw_tile(self, int seat, bint tail, bint replace) except -3:
        """Game._draw_tile: the kind drawn, -1 for a flower kept without replacement, -2 when the hand ended
        (eargs[0] says why)."""
        cdef FSeat* s = &self.seats[seat]
        cdef int k
        while True:
            if self._drawable() <= 0:
                self.entry, self.eargs[0] = H_DRAW_GAME, 1 if tail else 0
                return -2
            if tail:
                k = self._take_tail()
            else:
                k = self.wall[self.head]
                self.head += 1
            s.first_turn = s.cx.f.first_turn = False
            s.ron_blocked = False
            self._log(E_DRAW, seat, k, tail)
            if (self.scored >> k) & 1:
                self._flower(s, k)
                if replace:
                    self.extra[self.nextra] = k
                    self._log(E_FLOWERS, seat, self.nextra, 1, 0)
                    self.nextra += 1
                    tail = True
                    continue
                return -1
            self._add(s, k)
            return k

    # ---- the hand ------------------------------------------------------------------------------------------
    cdef int _play(self) except -1:
        """Play until a step game.py must take; self.entry and self.eargs say which."""
        cdef int i, j, k, p, d, seat, nk, idx, lo, t, a, b, level, taken, dr, count, who, nkong, kk
        cdef FSeat* s
        cdef bint first, unclaimable, last, ok
        cdef int kinds[NALL]
        cdef int kong_kind[NALL]
        cdef int kong_tile[NALL]
        cdef int nacts[FG_SEATS]
        cdef int acts[FG_SEATS][8]       # C_KONG, C_PON, or C_CHI with its two tiles in chi_a, chi_b
        cdef int chi_a[FG_SEATS][8]
        cdef int chi_b[FG_SEATS][8]
        cdef int answer[FG_SEATS]
        cdef bint haswin[FG_SEATS]
        cdef int v, nwin
        cdef double wb
        # setup
        self.dice[0] = 1 + _mt_below(&self.rng, 6)
        self.dice[1] = 1 + _mt_below(&self.rng, 6)
        self._deal()
        if self.wild_mode and not self.after_flowers:
            self._reveal_wild()
        if self.has_flowers:
            self._initial_flowers()
        if self.wild_mode and self.after_flowers:
            self._reveal_wild()
        for p in range(self.n):
            s = &self.seats[p]
            for j in range(s.ncon):
                s.cnt[s.order[j]] += 1
            s.dirty = True
        self.current, self.drawn, self.source = self.dealer, -1, SRC_DEAL
        if self.has_rd:
            for p in range(self.n):
                if (self.rd_all or p != self.dealer) and self._may_be_ready(p):
                    self.entry = H_START
                    return 0
        seat, source = self.dealer, SRC_DEAL
        while True:
            # Game._turn(seat, drawn, source)
            self.current, self.source = seat, source
            s = &self.seats[seat]
            nkong = nwin = 0
            if source != SRC_CLAIM:
                if source == SRC_DEAL and seat == self.dealer and s.first_turn:
                    v = self._verdict(seat, self.wb_dealt, -1, -1, -1, False, True, W_NONE)
                else:
                    t = self.drawn
                    if t < 0:
                        for k in range(NALL - 1, -1, -1):
                            if s.cnt[k]:
                                t = k
                                break
                    wb = self.wb_repl if source == SRC_REPLACEMENT else self.wb_self
                    v = self._verdict(seat, wb, t, -1, -1, False, False, W_NONE)
                if v < 0:
                    self.entry, self.eargs[0], self.eargs[1], self.eargs[2] = H_TURN, seat, self.drawn, source
                    return 0
                nwin = v
                nkong = self._own_kongs(seat, kong_kind, kong_tile)
            nk = 0
            for k in range(NALL):
                if s.cnt[k]:
                    kinds[nk] = k
                    nk += 1
            if self.greedy[seat]:
                idx = self._greedy_turn(seat, nwin, nkong, kong_tile, nk, kinds)
            else:
                idx = _mt_below(&self.arng[seat], nwin + nkong + nk)
            if idx < nwin:                              # the seat wins: game.py settles it
                self.entry, self.eargs[0], self.eargs[1], self.eargs[2] = H_TURN_WIN, seat, self.drawn, source
                return 0
            idx -= nwin
            if idx < nkong:
                # Game._declare_kong
                k = kong_tile[idx]
                self._log(E_ACT_KONG, seat, k, kong_kind[idx])
                if kong_kind[idx] == K_ADDED:
                    who = 0
                    for p in range(self.n):
                        nacts[p] = 0
                    if self.rob_added:
                        for i in range(1, self.n):
                            p = (seat + i) % self.n
                            v = self._verdict(p, self.wb_robk, k, k, seat, False, False, W_ROB_KONG)
                            if v < 0:
                                self.entry, self.eargs[0], self.eargs[1] = H_DECLARE_KONG, seat, k
                                return 0
                            nacts[p] = v
                    self.nans = 0
                    for p in range(self.n):             # Game._resolve_rob_kong's answers: win or pass
                        if nacts[p]:
                            idx = 0 if self.greedy[p] else _mt_below(&self.arng[p], 2)
                            self.ans[self.nans][0], self.ans[self.nans][1] = p, C_WIN if idx == 0 else 0
                            self.nans += 1
                            who += idx == 0
                    if who:
                        self.entry, self.eargs[0], self.eargs[1] = H_ROB_KONG, seat, k
                        return 0
                    self._log(E_KONG_DECLARED, seat, k)
                    for i in range(self.nans):
                        self._log(E_ACT_PASS, self.ans[i][0])
                self._kong(seat, kong_kind[idx], k, -1)
                self._log(E_KONG, seat, k, kong_kind[idx], -1)
                # Game._replacement
                k = self._draw_tile(seat, True, True)
                if k == -2:
                    return 0
                self.drawn, source = k, SRC_REPLACEMENT
                continue
            k = kinds[idx - nkong]
            self._log(E_ACT_DISCARD, seat, k)
            # Game._resolve_turn: the discard
            s.cnt[k] -= 1
            s.ncon -= 1
            self._fk(s, k, -1)
            s.discards[s.ndis] = k
            s.ndis += 1
            first = self.discard_count == 0
            self.discard_count += 1
            if seat == self.dealer:
                s.first_turn = s.cx.f.first_turn = False
            if self.claims_made == 0 and self.nfirst < self.n:
                self.first_round[self.nfirst] = k
                self.nfirst += 1
            if k == self.wild:
                s.wild_discards += 1
                s.cx.f.wild_discards = s.wild_discards
            self._log(E_DISCARD, seat, k)
            self.ld_seat, self.ld_kind, self.ld_first, self.has_ld = seat, k, first, True
            if self.has_rw and first and self.indicator >= 0:
                # Game._after_discard: 抢金 -- who may rob (a win of a pattern the spec allows), each asked in turn
                self.nans = 0
                for i in range(self.nrw):              # Game._rob_order
                    lo, t = 0, 1
                    if self.rw_order[i] == 1:
                        lo, t = 1, self.n
                    for j in range(lo, t):
                        p = (self.dealer + j) % self.n
                        a = -1
                        v = self._verdict(p, self.wb_rob, self.indicator, self.indicator, -1, False, False, W_NONE, &a)
                        if v < 0:
                            self.entry = H_AFTER_DISCARD
                            return 0
                        if v and (self.rw_allowed >> a) & 1 and self.nans < FG_SEATS:
                            self.ans[self.nans][0], self.ans[self.nans][1] = p, 0
                            self.nans += 1
                for i in range(self.nans):              # rob_gold is the first choice, pass the second
                    p = self.ans[i][0]
                    if self.greedy[p] or _mt_below(&self.arng[p], 2) == 0:
                        self.ans[i][1] = C_WIN
                        self.nans = i + 1
                        self.entry = H_ROB_GOLD
                        return 0
                for i in range(self.nans):
                    self._log(E_ACT_PASS, self.ans[i][0])
            # Game._open_claims
            d = seat
            unclaimable = k == self.wild and self.has_wild and self.discard_unclaimable
            last = self._drawable() <= 0
            who = 0
            for i in range(1, self.n):
                p = (d + i) % self.n
                nacts[p] = 0
                haswin[p] = False
                if unclaimable:
                    continue
                s = &self.seats[p]
                if not s.ron_blocked:
                    v = self._verdict(p, self.wb_discard, k, k, d, first, False, W_DISCARD)
                    if v < 0:
                        self.entry = H_OPEN_CLAIMS
                        return 0
                    if v:
                        acts[p][0] = C_WIN
                        nacts[p] = 1
                        haswin[p] = True
                if (last and self.last_discard_win_only) or (self.no_calls and self.has_wild and k == self.wild):
                    if nacts[p]:
                        who += 1
                    continue
                if self.k_exposed and s.cnt[k] >= 3 and self._kong_room(1, 0):
                    acts[p][nacts[p]] = C_KONG
                    nacts[p] += 1
                if self.pon and s.cnt[k] >= 2:
                    acts[p][nacts[p]] = C_PON
                    nacts[p] += 1
                if (self.chi_from == 2 or (self.chi_from == 1 and p == (d + 1) % self.n)) and (
                        k < 27 or (k >= 27 and self.chi_honours)):
                    for lo in range(k - 2, k + 1):
                        if lo < 0 or not (lo // 9 == (lo + 1) // 9 == (lo + 2) // 9) or (k < 27 and lo + 2 >= 27):
                            continue
                        if k >= 27 and not (lo >= 27 and lo + 2 <= 33 and (lo - 27) // 4 == (lo + 2 - 27) // 4):
                            continue
                        a = lo if lo != k else lo + 1
                        b = lo + 2 if lo + 2 != k else lo + 1
                        if s.cnt[a] < 1 or s.cnt[b] < 1:
                            continue
                        if self.no_calls and self.has_wild and (a == self.wild or b == self.wild):
                            continue
                        acts[p][nacts[p]] = C_CHI
                        chi_a[p][nacts[p]] = a
                        chi_b[p][nacts[p]] = b
                        nacts[p] += 1
                if nacts[p]:
                    who += 1
            taken = -1
            if who:
                self.nans = 0
                ok = False
                for p in range(self.n):                 # run(): the lowest seat still to decide, in turn
                    answer[p] = -1
                    if p == d or not nacts[p]:
                        continue
                    if self.greedy[p]:
                        idx = self._greedy_claim(p, k, nacts[p], acts[p], chi_a[p], chi_b[p])
                    else:
                        idx = _mt_below(&self.arng[p], nacts[p] + 1)
                    a = self.nans
                    self.ans[a][0], self.ans[a][1] = p, 0
                    self.nans += 1
                    if idx < nacts[p]:
                        answer[p] = idx
                        self.ans[a][1], self.ans[a][2], self.ans[a][3] = acts[p][idx], chi_a[p][idx], chi_b[p][idx]
                        ok |= acts[p][idx] == C_WIN
                if ok:                                  # someone wins: game.py resolves the claims
                    self.entry = H_CLAIMS
                    return 0
                for i in range(self.nans):
                    p = self.ans[i][0]
                    if answer[p] < 0:
                        self._log(E_ACT_PASS, p)
                    elif acts[p][answer[p]] == C_PON:
                        self._log(E_ACT_PON, p)
                    elif acts[p][answer[p]] == C_KONG:
                        self._log(E_ACT_KONG, p, k, K_EXPOSED)
                    else:
                        self._log(E_ACT_CHI, p, chi_a[p][answer[p]], chi_b[p][answer[p]])
                    if haswin[p] and self.pass_blocks_ron:
                        self.seats[p].ron_blocked = True
                for level in range(self.nlevels):      # Game._resolve_claims: priority, then play order
                    for i in range(1, self.n):
                        p = (d + i) % self.n
                        if answer[p] >= 0 and acts[p][answer[p]] & self.levels[level]:
                            taken = p
                            break
                    if taken >= 0:
                        break
            if taken >= 0:
                # Game._take_claim
                p = taken
                s = &self.seats[p]
                self.seats[d].ndis -= 1
                self.claims_made += 1
                s.first_turn = False
                s.ron_blocked = False
                s.dirty = True
                idx = answer[p]
                if acts[p][idx] == C_KONG:
                    self._kong(p, K_EXPOSED, k, d)
                    self._log(E_KONG, p, k, K_EXPOSED, d)
                    k = self._draw_tile(p, True, True)
                    if k == -2:
                        return 0
                    seat, source, self.drawn = p, SRC_REPLACEMENT, k
                    continue
                if acts[p][idx] == C_PON:
                    s.cnt[k] -= 2
                    s.ncon -= 2
                    s.mkind[s.nmeld], s.mk0[s.nmeld], s.mconc[s.nmeld] = C_PON, k, False
                    s.nmeld += 1
                    self._log(E_PON, p, k, d)
                else:
                    a, b = chi_a[p][idx], chi_b[p][idx]
                    s.cnt[a] -= 1
                    s.cnt[b] -= 1
                    s.ncon -= 2
                    s.mkind[s.nmeld], s.mk0[s.nmeld], s.mconc[s.nmeld] = C_CHI, min(a, min(b, k)), False
                    s.nmeld += 1
                    self._log(E_CHI, p, k, d, a, b)
                seat, source, self.drawn = p, SRC_CLAIM, -1
                continue
            # Game._next_draw
            seat = (d + 1) % self.n
            dr = self._drawable()
            if self.final_round and 0 < dr <= self.final_round:
                count = min(dr, self.final_round)
                self._log(E_FINAL, -1, count)
                for i in range(count):                  # Game._final_round
                    p = (seat + i) % self.n
                    k = self._draw_tile(p, False, False)
                    if k == -2:
                        return 0
                    if k == -1:
                        continue
                    self.source, self.drawn, self.current = SRC_DRAW, k, p
                    if self._may_win(p, self.wb_self, k, -1, -1, False, False, W_NONE):
                        self.entry, self.eargs[0], self.eargs[1], self.eargs[2] = H_FINAL, seat, count, i
                        return 0
                self.entry, self.eargs[0] = H_DRAW_GAME, 2
                return 0
            if dr <= 0:
                self.entry, self.eargs[0] = H_DRAW_GAME, 0
                return 0
            k = self._draw_tile(seat, False, True)
            if k == -2:
                return 0
            self.drawn = k
            source = SRC_DRAW

    cdef int _greedy_turn(self, int seat, int nwin, int nkong, int* kong_tile, int nk, int* kinds) noexcept:
        """GreedyAgent's choice at its turn, as an index into [win] + kongs + discards."""
        cdef FSeat* s = &self.seats[seat]
        cdef int hand[NALL]
        cdef int i, k, d, base, e, iso, hon, best = -1, be = 0, bw = 0, bh = 0, bi = 0, w = self.wild
        cdef bint isw
        cdef double r, br = 0.0
        if nwin:
            return 0
        memcpy(hand, s.cnt, sizeof(hand))
        if nkong:
            base = _g_estimate(&self.gr, hand, s.nmeld, w)
            for i in range(nkong):
                k = kong_tile[i]
                d = hand[k]
                hand[k] = 0
                e = _g_estimate(&self.gr, hand, s.nmeld + 1, w)
                hand[k] = d
                if e <= base:
                    return nwin + i
        for i in range(nk):                              # min over (distance, wild, not honour, kept, random)
            k = kinds[i]
            hand[k] -= 1
            e = _g_estimate(&self.gr, hand, s.nmeld, w)
            iso = 0
            if k < 27:
                for d in range(-2, 3):
                    if d != 0 and 0 <= k % 9 + d <= 8 and hand[k + d] > 0:
                        iso += 1
            hand[k] += 1
            isw = w >= 0 and k == w
            hon = -1 if k >= 27 else 0
            r = _mt_random(&self.arng[seat])
            if best < 0 or e < be or e == be and (isw < bw or isw == bw and (hon < bh or hon == bh and (
                    iso < bi or iso == bi and r < br))):
                best, be, bw, bh, bi, br = i, e, isw, hon, iso, r
        return nwin + nkong + best

    cdef int _greedy_claim(self, int p, int k, int n, int* acts, int* chi_a, int* chi_b) noexcept:
        """GreedyAgent's answer to a discard of kind k: an index into acts, or n for a pass."""
        cdef FSeat* s = &self.seats[p]
        cdef int hand[NALL]
        cdef int i, x, base, after, e, best = -1, best_val
        cdef bint any
        for i in range(n):
            if acts[i] == C_WIN:
                return i
        memcpy(hand, s.cnt, sizeof(hand))
        base = best_val = _g_estimate(&self.gr, hand, s.nmeld, self.wild)
        for i in range(n):
            if acts[i] == C_PON:
                hand[k] -= 2
            elif acts[i] == C_KONG:
                hand[k] -= 3
            else:
                hand[chi_a[i]] -= 1
                hand[chi_b[i]] -= 1
            if acts[i] == C_KONG:
                after = _g_estimate(&self.gr, hand, s.nmeld + 1, self.wild)
            else:                                        # the best discard after the claim
                after = base
                any = False
                for x in range(NALL):
                    if hand[x] > 0:
                        hand[x] -= 1
                        e = _g_estimate(&self.gr, hand, s.nmeld + 1, self.wild)
                        hand[x] += 1
                        if not any or e < after:
                            after = e
                        any = True
            memcpy(hand, s.cnt, sizeof(hand))
            if after < best_val:
                best, best_val = i, after
        return best if best >= 0 else n

    def play(self, seed, int dealer, int streak, agent_seeds, greedy=()):
        """Play one hand with random.Random(seed) for the setup and random.Random(agent_seeds[i]) for seat i's
        choices (int seeds); returns the hand-off: (entry, args, state) -- entry names the step (FAST_ENTRIES),
        state holds what fastplay.adopt needs to build the Game."""
        cdef unsigned int words[FG_SEATS + 1][64]
        cdef const unsigned int* keys[FG_SEATS + 1]
        cdef MT* ms[FG_SEATS + 1]
        cdef int lens[FG_SEATS + 1]
        cdef int s
        cdef bint same = True
        if len(agent_seeds) != self.n:
            raise ValueError("one agent seed per seat")
        for s in range(self.n):
            self.greedy[s] = s < len(greedy) and greedy[s]
            if self.greedy[s] and not self.greedy_ok:
                raise ValueError("the greedy agent cannot play in the C loop for this variant")
        for s in range(self.n + 1):                  # the game's generator, then each seat's
            lens[s] = _seed_words(seed if s == 0 else agent_seeds[s - 1], words[s])
            keys[s], ms[s] = words[s], (&self.rng if s == 0 else &self.arng[s - 1])
            same = same and lens[s] == lens[0]
        if same:
            _mt_seed_many(ms, keys, lens[0], self.n + 1)
        else:
            for s in range(self.n + 1):
                _mt_seed(ms[s], keys[s], lens[s])
        for s in range(FG_SEATS):                    # everything but the contexts
            memset(&self.seats[s], 0, <size_t>(<char*>&self.seats[s].cx - <char*>&self.seats[s]))
        memset(self.dealt, 0, sizeof(self.dealt))
        for s in range(self.n):
            self.seats[s].first_turn = True
        self.dealer, self.streak = dealer, streak
        self.wild = self.indicator = -1
        self.discard_count = self.claims_made = self.nfirst = 0
        self.has_ld = False
        self.nev = self.nextra = 0
        self.retain_dirty = True
        self.rhave[0] = self.rhave[1] = self.rhave[2] = False
        self.entry = 0
        self.nans = 0
        self.eargs[0] = self.eargs[1] = self.eargs[2] = self.eargs[3] = 0
        self._play()
        return FAST_ENTRIES[self.entry], (self.eargs[0], self.eargs[1], self.eargs[2], self.eargs[3]), self._state()

    cdef dict _state(self):
        cdef int s, k, i
        cdef FSeat* st
        cdef unsigned char buf[FG_WALL]
        cdef int n
        seats = []
        for s in range(self.n):
            st = &self.seats[s]
            n = 0
            for k in range(NALL):
                for i in range(st.cnt[k]):
                    buf[n] = k
                    n += 1
            conc = PyBytes_FromStringAndSize(<char*>buf, n)
            for i in range(st.nfl):
                buf[i] = st.flowers[i]
            fl = PyBytes_FromStringAndSize(<char*>buf, st.nfl)
            for i in range(st.ndis):
                buf[i] = st.discards[i]
            seats.append((
                conc,
                [(st.mkind[i], st.mk0[i], st.mconc[i]) for i in range(st.nmeld)] if st.nmeld else [],
                [(FAST_KONGS[st.kkind[i]], st.ktile[i], st.kfrom[i]) for i in range(st.nkong)] if st.nkong else [],
                fl, PyBytes_FromStringAndSize(<char*>buf, st.ndis),
                st.first_turn, st.wild_discards, st.ron_blocked))
        for i in range(self.wall_len):
            buf[i] = self.wall[i]
        return {
            "dice": [self.dice[0], self.dice[1]],
            "wall": PyBytes_FromStringAndSize(<char*>buf, self.wall_len), "head": self.head, "tail": self.tail,
            "seats": seats,
            "dealt": PyBytes_FromStringAndSize(<char*>self.dealt, self.n * NALL * sizeof(int)), "deal_wall": self.deal_wall,
            "wild": self.wild, "indicator": self.indicator,
            "discard_count": self.discard_count, "claims_made": self.claims_made,
            "first_round": [self.first_round[i] for i in range(self.nfirst)],
            "current": self.current, "drawn": self.drawn, "source": FAST_SOURCES[self.source],
            "last_discard": (self.ld_seat, self.ld_kind, bool(self.ld_first)) if self.has_ld else None,
            "events": PyBytes_FromStringAndSize(<char*>self.ev, self.nev * EVW * sizeof(int)),
            "extra": [self.extra[i] for i in range(self.nextra)],
            "answers": [(self.ans[i][0], self.ans[i][1], self.ans[i][2], self.ans[i][3]) for i in range(self.nans)],
        }

    def greedy_estimate(self, counts, int melds, int wild=-1):
        """GreedyAgent.estimate for a hand given as counts of every kind (tests compare the two)."""
        cdef int hand[NALL]
        cdef int k
        if not self.greedy_ok:
            raise ValueError("no greedy agent here")
        for k in range(NALL):
            hand[k] = counts[k] if k < len(counts) else 0
        return _g_estimate(&self.gr, hand, melds, wild)

    @property
    def greedy_errors(self):
        return self.gr.errs

    @property
    def greedy_stats(self):
        """(estimates asked, estimates computed, free-pattern tests asked, tests made) since the table was made."""
        return self.gr.n_est, self.gr.n_miss, self.gr.n_test, self.gr.n_viable

    def rng_states(self):
        """(the game's rng, each agent's rng) as random.Random.getstate() tuples."""
        cdef int s, i
        game = (3, tuple([self.rng.s[i] for i in range(MT_N)] + [self.rng.i]), None)
        agents = [(3, tuple([self.arng[s].s[i] for i in range(MT_N)] + [self.arng[s].i]), None)
                  for s in range(self.n)]
        return game, agents
