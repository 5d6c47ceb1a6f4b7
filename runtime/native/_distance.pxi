# Included by kernel.pyx: the native back end's shape distance (mjrules.model.distance's estimate, in C).
#
# The distance of a hand to ready by the shapes of the spec's patterns: the least of the classic shanten of the
# standard shape (distance.standard_shanten: each suit's options by the same search, combined keeping the most
# partial sets per (sets, pair)), of the pairs shape (distance.pairs_shanten), and of each free pattern's
# first-fit (distance.free_estimate, on the kernel's three-valued test of the pattern for the facts of a
# default situation: used only where the free patterns' tests read nothing but the counts), less one per wild.
# The reference back end computes the same in Python (mjrules.model.distance.Estimator); the tests compare them.


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
    """distance.group_options' search: every (sets, partial sets, pair) reading of one suit's counts."""
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
    """The pattern's three-valued test on these counts is not false (distance.free_estimate's ok), remembered by
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
    """The tiles of counts c (at most 64) in distance.first_fit's orders: as held (by kind) and by (count,
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
    """distance.free_estimate: first-fit of the tiles in three orders -- as held, reversed, by (count, kind) --
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


cdef int _g_estimate(Greedy* g, const int* hand, int melds, int wild, int wild2=-1) noexcept nogil:
    """distance.Estimator.estimate(counts, melds, wild, wild2): the shape distance of a hand given as counts of
    every kind."""
    cdef int c[NK]
    cdef int k, i, n, jokers = 0, est = 0, e, pairs = 0, half
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
    if 0 <= wild2 < NK:   # (0 already when it is wild)
        jokers += c[wild2]
        c[wild2] = 0
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
        e = half - 1 - (pairs if pairs < half else half)   # four alike are two pairs (distance.pairs_shanten)
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




cdef class ShapeEstimator:
    """The shape distance of hands of one variant (distance.Estimator's interface), remembered by the counts.
    Made by NativeEngine.estimator(); not thread-safe."""

    cdef Greedy g
    cdef Kernel kernel       # holds the Spec
    cdef double* opts

    def __cinit__(self, Kernel kernel, tuple opts, double win_by, bint standard, bint pairs, tuple free):
        cdef int i
        if len(free) > 16:
            raise ValueError("at most 16 free patterns")
        if len(opts) != kernel.sp.nopt:
            raise ValueError("wrong number of option values")
        self.kernel = kernel
        self.g.sp = kernel.sp
        self.opts = <double*>calloc(kernel.sp.nopt + 1, sizeof(double))
        self.g.gx = _ctx_new(kernel.sp)
        self.g.suits = <SuitOpts*>calloc(GS_SLOTS, sizeof(SuitOpts))
        self.g.est = <EstSlot*>calloc(GE_SLOTS, sizeof(EstSlot))
        self.g.tests = <VSlot*>calloc(GV_SLOTS, sizeof(VSlot))
        if self.opts == NULL or self.g.gx == NULL or self.g.suits == NULL or self.g.est == NULL or \
                self.g.tests == NULL:
            raise MemoryError()
        for i in range(kernel.sp.nopt):
            self.opts[i] = opts[i]
        self.g.gx.opts = self.opts
        _prep_check(self.g.gx, -1, kernel.playable, win_by)
        self.g.standard, self.g.pairs = standard, pairs
        self.g.nfree = len(free)
        for i in range(self.g.nfree):
            self.g.free[i] = free[i]
        self.g.win_size = kernel.sp.win_size
        self.g.sets = (kernel.sp.win_size - 2) // 3

    def __dealloc__(self):
        if self.g.gx != NULL:
            _ctx_free(self.g.gx)
        free(self.opts)
        free(self.g.suits)
        free(self.g.est)
        free(self.g.tests)

    cdef int _load(self, counts, int* c) except -1:
        cdef const unsigned char* b
        cdef int k
        if type(counts) is bytes:
            b = <const unsigned char*>PyBytes_AsString(counts)
        elif type(counts) is bytearray:
            b = <const unsigned char*>PyByteArray_AsString(counts)
        else:
            raise TypeError("counts are bytes or a bytearray of 34 or more kind counts")
        if len(counts) < NK:
            raise ValueError("counts are bytes or a bytearray of 34 or more kind counts")
        for k in range(NK):
            if b[k] > 8:
                raise ValueError(f"a count of {b[k]} for kind {k}")
            c[k] = b[k]
        return 0

    def estimate(self, counts, int melds, int wild, int wild2=-1):
        """The shape distance of the concealed tiles `counts` (bytes of 34 or more kind counts, the wild kinds'
        tiles among them) with `melds` melds; `wild`, `wild2` the wild kinds or -1."""
        cdef int c[NK]
        self._load(counts, c)
        return _g_estimate(&self.g, c, melds, wild, wild2)

    def after_discards(self, counts, int melds, int wild, int wild2=-1):
        """estimate() after discarding one tile of each kind: a list of 34 (None where no tile of the kind is
        held)."""
        cdef int c[NK]
        cdef int k
        self._load(counts, c)
        out = [None] * NK
        for k in range(NK):
            if c[k]:
                c[k] -= 1
                out[k] = _g_estimate(&self.g, c, melds, wild, wild2)
                c[k] += 1
        return out

    @property
    def errors(self):
        """Free-pattern tests the native code could not make (each counted as a fit)."""
        return self.g.errs
