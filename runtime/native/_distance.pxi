# Included by kernel.pyx: the native back end's shape distance (mjrules.model.distance's estimate, in C).
#
# The distance of a hand to ready by the shapes of the spec's patterns: the least of the classic shanten of the
# standard shape (distance.standard_shanten: each suit's options by the same search, combined keeping the most
# partial sets per (sets, pair)), of the pairs shape (distance.pairs_shanten), and of each free pattern's
# first-fit (distance.free_estimate, on the kernel's three-valued test of the pattern for the facts of a
# default situation: used only where the free patterns' tests read nothing but the counts), less one per wild.
# The kernel's test (Spec.viable) answers for every count vector holding the counts, of any size, so its contains
# is never false; the reference's partial contains is false where the kinds missing outnumber the room a hand of
# win_size tiles leaves. A pattern whose condition tests contains therefore also comes as a program
# (distance.FreePrograms), which decides the counts the kernel's test leaves unknown.
# The reference back end computes the same in Python (mjrules.model.distance.Estimator); the tests compare them.


cdef enum:
    GS_M = 8             # sets counted per suit group in a suit's options (a suit holds at most 17 tiles)
    GS_SLOTS = 1 << 14   # remembered suit options (small tables stay in the cache)
    GE_SLOTS = 1 << 13   # remembered estimates
    GV_SLOTS = 1 << 14   # remembered free-pattern tests
    GD_SLOTS = 1 << 13   # remembered free-pattern programs' answers (ProgramEstimator)


cdef struct VSlot:       # one free-pattern test: the counts packed 3 bits a kind (kinds 0..20 in a, 21..33 in b's
    unsigned long long a, b   # bits 0..38), b's bits 40..47 the pattern, 48 the answer, 63 set (0: empty)


cdef struct DSlot:       # one program's answer on partial counts: a = the kinds held (bits 0..33) | the tiles << 40 |
    unsigned long long a, b   # the program's index << 48 | 1 << 63 (0: empty), b = the kinds held twice or more
    int v


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
    DSlot* dps               # the programs' answers (ProgramEstimator's; NULL elsewhere)
    const int* progs[16]     # per free pattern: its program where it tests contains (its room), else NULL
    unsigned long long cmask[16]   # per free pattern: the kinds of a contains its condition requires (an `and`
    int croom[16]                  # of it at the top), else 0; and that contains' room (win_size)
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


cdef bint _g_fits(Greedy* g, int f, int* counts, unsigned long long a, unsigned long long b) noexcept nogil:
    """Free pattern f's three-valued test on these counts is not false (distance.free_estimate's ok), remembered
    by the packed counts (a, b). Where the kernel's test does not tell and the pattern has a program (it tests
    contains), the program decides: false where contains' missing kinds outnumber the room left."""
    cdef int p = g.free[f], k, v, total = 0, pos = 0
    cdef unsigned long long h = (a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL) ^ <unsigned long long>p
    cdef unsigned long long nz = 0, multi = 0
    cdef VSlot* slot = &g.tests[(h ^ (h >> 29)) & (GV_SLOTS - 1)]
    cdef signed char r
    cdef bint ok
    b |= (<unsigned long long>p << 40) | (1ULL << 63)
    g.n_test += 1
    if slot.a == a and (slot.b & ~(1ULL << 48)) == b:
        return (slot.b >> 48) & 1
    g.n_viable += 1
    g.gx.err = 0
    r = g.sp.viable(g.gx, counts, p)
    ok = r != 0 or g.gx.err != 0
    if g.gx.err:
        g.errs += 1
    if ok and (r != 1 or g.gx.err) and g.progs[f] != NULL:
        for k in range(NK):
            v = counts[k]
            if v:
                nz |= 1ULL << k
                if v > 1:
                    multi |= 1ULL << k
                total += v
        ok = _dp_eval(g.progs[f], &pos, nz, multi, total) != T_F
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


cdef int _g_free(Greedy* g, int f, const int* held, const int* by_count, int n, int cap) noexcept nogil:
    """distance.free_estimate of free pattern f: first-fit of the tiles in three orders -- as held, reversed, by
    (count, kind) -- under the pattern's three-valued test; exact when below `cap`, else `cap` (the caller keeps
    the least estimate, so an order that can no longer fit enough tiles to beat it stops early). A contains the
    condition requires bounds every order's fit: its kinds the hand lacks stay missing, and the tiles fitted
    leave room for them."""
    cdef int counts[NK]
    cdef int k, i, r, size, need = (g.win_size - 1) - cap, best, top = n
    cdef unsigned long long a, b, d
    best = need if need > 0 else 0
    if g.cmask[f]:
        a = 0
        for i in range(n):
            a |= 1ULL << held[i]
        k = g.croom[f] - _nbits(g.cmask[f] & ~a)
        if k < top:
            top = k
    for r in range(3):
        if best >= top:                                 # no order fits more
            break
        memset(counts, 0, sizeof(counts))
        a = b = 0
        size = 0
        for i in range(n):
            if size + (n - i) <= best or size >= top:   # this order cannot fit more than the best any more
                break
            k = held[i] if r == 0 else held[n - 1 - i] if r == 1 else by_count[i]
            d = _g_unit[k]
            counts[k] += 1
            if _g_fits(g, f, counts, a + d if k < 21 else a, b + d if k >= 21 else b):
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
            e = _g_free(g, i, held, by_count, n, est if any else 1 << 20)
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
    cdef bytes programs      # holds the free patterns' programs (Greedy.progs)

    def __cinit__(self, Kernel kernel, tuple opts, double win_by, bint standard, bint pairs, tuple free,
                  bytes programs=b"", int nprograms=0):
        """`programs`: the free patterns' partial tests as programs (distance.FreePrograms, `free`'s order), or
        none (nprograms 0); those that test contains decide where the kernel's test does not tell."""
        cdef int i, at = 0
        cdef const int* p
        if len(free) > 16:
            raise ValueError("at most 16 free patterns")
        if len(opts) != kernel.sp.nopt:
            raise ValueError("wrong number of option values")
        if nprograms not in (0, len(free)):
            raise ValueError("a program for each free pattern, or none")
        self.programs = programs
        p = <const int*>PyBytes_AsString(programs)
        for i in range(nprograms):
            if len(programs) < 4 * (at + 1) or p[at] < 0 or len(programs) < 4 * (at + 1 + p[at]):
                raise ValueError("short programs")
            self.g.progs[i] = &p[at + 1] if _dp_tests_contains(&p[at + 1], p[at]) else NULL
            if self.g.progs[i] != NULL:
                _dp_required_contains(&p[at + 1], 0, &self.g.cmask[i], &self.g.croom[i])
            at += 1 + p[at]
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


# ---- engine.distance in one call (mjrules.model.distance.distance of a checked pre-draw hand) ----------------
#
# Distance decides, on the kernel, what distance() decides in Python for a pre-draw hand: whether some kind
# completes it (NativeEngine._completions without the values: the kinds after which a shape may fit, each
# judged, kept where it wins and may be drawn), else the least of the standard, pairs and knitted estimates and of
# each free pattern's first-fit (distance.free_estimate) less one per wild. A free pattern's partial test
# (ReferenceEngine.partial_test) comes as a program (distance.free_programs): the reference's three-valued
# evaluation of its condition, the parts that read no counts already evaluated on the hand's facts. Where the
# kernel cannot judge a kind the answer is DIST_UNDECIDED and distance() decides in Python.

cdef enum:
    DIST_UNDECIDED = -1000
    DP_CONST = 0          # a program's nodes, in prefix order: DP_CONST value (0 false, 1 true, 2 unknown)
    DP_AND = 1            # DP_AND n children...
    DP_OR = 2             # DP_OR n children...
    DP_NOT = 3            # DP_NOT child
    DP_IF = 4             # DP_IF test then else
    DP_DISTINCT = 5
    DP_KNITTED = 6
    DP_ONE_SUIT = 7
    DP_ALL_IN = 8         # DP_ALL_IN mask(kinds 0..16) mask(kinds 17..33)
    DP_CONTAINS = 9       # DP_CONTAINS mask mask win_size (the room: win_size + the kongs - the tiles)
    DP_SPACING = 10       # DP_SPACING d (the least integer gap allowed, the spec's gap rounded up)
    T_F = 0
    T_T = 1
    T_U = 2


cdef inline unsigned long long _dp_mask(const int* p, int at) noexcept nogil:
    return <unsigned long long><unsigned int>p[at] | (<unsigned long long><unsigned int>p[at + 1] << 17)


cdef int _dp_eval(const int* p, int* pos, unsigned long long nz, unsigned long long multi, int total) noexcept nogil:
    """The program's node at pos on partial counts -- `nz` the kinds held, `multi` those held more than once,
    `total` the tiles -- as T_F, T_T or T_U, as the reference's partial evaluation (mjrules.model.interp.evaluate
    with _ReadingEnv(partial=True)) answers False, True, None."""
    cdef int op = p[pos[0]], n, i, v, out, s, r, prev, tv, fv, res, bits
    cdef unsigned long long m
    pos[0] += 1
    if op == DP_CONST:
        pos[0] += 1
        return p[pos[0] - 1]
    if op == DP_AND or op == DP_OR:
        n = p[pos[0]]
        pos[0] += 1
        out = T_T if op == DP_AND else T_F
        for i in range(n):
            v = _dp_eval(p, pos, nz, multi, total)
            if op == DP_AND and v == T_F:
                out = T_F
            elif op == DP_OR and v == T_T:
                out = T_T
            elif v == T_U and out != (T_F if op == DP_AND else T_T):
                out = T_U
        return out
    if op == DP_NOT:
        v = _dp_eval(p, pos, nz, multi, total)
        return T_U if v == T_U else T_T if v == T_F else T_F
    if op == DP_IF:
        v = _dp_eval(p, pos, nz, multi, total)
        tv = _dp_eval(p, pos, nz, multi, total)
        fv = _dp_eval(p, pos, nz, multi, total)
        if v == T_U:
            return tv if tv == fv and tv != T_U else T_U
        return tv if v == T_T else fv
    if op == DP_DISTINCT:
        return T_F if multi else T_U
    if op == DP_KNITTED:   # each suit's ranks one residue mod 3 (a kind's, 9 being one), the suits' distinct
        res = 0
        for s in range(3):
            bits = <int>((nz >> (9 * s)) & 0x1FF)
            if not bits:
                continue
            r = 0 if bits & 0x49 else 1 if bits & 0x92 else 2       # ranks 1 4 7, 2 5 8, 3 6 9
            if (bits & ~(0x49 << r)) or (res >> r) & 1:
                return T_F
            res |= 1 << r
        return T_U
    if op == DP_ONE_SUIT:
        if nz >> 27:
            return T_F
        n = (1 if nz & 0x1FF else 0) + (1 if nz & (0x1FFULL << 9) else 0) + (1 if nz & (0x1FFULL << 18) else 0)
        return T_F if n > 1 else T_U
    if op == DP_ALL_IN:
        m = _dp_mask(p, pos[0])
        pos[0] += 2
        return T_F if nz & ~m else T_U
    if op == DP_CONTAINS:
        m = _dp_mask(p, pos[0])
        i = pos[0]
        pos[0] += 3
        n = _nbits(m & ~nz)   # the kinds missing
        if n == 0:
            return T_T
        return T_F if n > p[i + 2] - total else T_U
    if op == DP_SPACING:
        n = p[pos[0]]
        pos[0] += 1
        if multi & 0x7FFFFFF and 0 < n:   # two alike: a gap of 0
            return T_F
        for s in range(3):
            prev = -1
            for r in range(9):
                if (nz >> (9 * s + r)) & 1:
                    if prev >= 0 and r - prev < n:
                        return T_F
                    prev = r
        return T_U
    return T_U   # pragma: no cover - distance.FreePrograms writes no other node


cdef bint _dp_persistent(const int* p, int n) noexcept nogil:
    """Does a false answer of the program stay false as tiles are added? Yes without DP_NOT and DP_IF: each test
    is false at most from some tiles on (distinct, knitted, one_suit, all_in and spacing only lose by more;
    contains' missing kinds fall by at most one a tile, its room by exactly one), and so are and, or of such."""
    cdef int i = 0, op
    while i < n:
        op = p[i]
        if op == DP_NOT or op == DP_IF:
            return False
        i += 2 if op == DP_CONST or op == DP_AND or op == DP_OR or op == DP_SPACING else \
            3 if op == DP_ALL_IN else 4 if op == DP_CONTAINS else 1
    return True


cdef bint _dp_tests_contains(const int* p, int n) noexcept nogil:
    """Does the program (n words) test contains?"""
    cdef int i = 0, op
    while i < n:
        op = p[i]
        if op == DP_CONTAINS:
            return True
        i += 2 if op == DP_CONST or op == DP_AND or op == DP_OR or op == DP_SPACING else \
            3 if op == DP_ALL_IN else 1
    return False


cdef int _dp_skip(const int* p, int at) noexcept nogil:
    """The position after the program's node at `at` (and its children)."""
    cdef int op = p[at], n, i
    if op == DP_AND or op == DP_OR:
        n = p[at + 1]
        at += 2
        for i in range(n):
            at = _dp_skip(p, at)
        return at
    if op == DP_NOT:
        return _dp_skip(p, at + 1)
    if op == DP_IF:
        at += 1
        for i in range(3):
            at = _dp_skip(p, at)
        return at
    return at + (2 if op == DP_CONST or op == DP_SPACING else 3 if op == DP_ALL_IN else 4 if op == DP_CONTAINS
                 else 1)


cdef int _dp_required_contains(const int* p, int at, unsigned long long* mask, int* room) noexcept nogil:
    """The first contains the program's node at `at` requires (itself, or a child of an `and` it is or that
    its `and`s hold) into mask and room, if none is there yet; the position after the node."""
    cdef int op = p[at], n, i
    if op == DP_AND:
        n = p[at + 1]
        at += 2
        for i in range(n):
            at = _dp_required_contains(p, at, mask, room)
        return at
    if op == DP_CONTAINS and mask[0] == 0:
        mask[0] = _dp_mask(p, at + 1)
        room[0] = p[at + 3]
    return _dp_skip(p, at)


cdef inline int _dp_test(const int* p, DSlot* memo, int prog, unsigned long long nz, unsigned long long multi,
                         int total) noexcept nogil:
    """_dp_eval of the whole program `p` (index `prog`), remembered in memo (NULL: not remembered): its answer is
    a function of the kinds held, those held more than once and the tiles (the first-fits of neighbouring hands,
    and the orders of one, reach the same partial counts again and again)."""
    cdef int pos = 0, v
    cdef unsigned long long a, h
    cdef DSlot* s
    if memo == NULL or total < 0 or total > 255 or prog < 0 or prog > 127:
        return _dp_eval(p, &pos, nz, multi, total)
    a = (nz & 0xFFFFFFFFFFULL) | (<unsigned long long>total << 40) | (<unsigned long long>prog << 48) | (1ULL << 63)
    h = (a * 0x9E3779B97F4A7C15ULL) ^ (multi * 0xC2B2AE3D27D4EB4FULL)
    s = &memo[(h ^ (h >> 29)) & (GD_SLOTS - 1)]
    if s.a == a and s.b == multi:
        return s.v
    v = _dp_eval(p, &pos, nz, multi, total)
    s.a, s.b, s.v = a, multi, v
    return v


cdef int _dp_first_fit(const int* p, const int* c, const int* start, const unsigned long long* knits, int best,
                       int enough, bint persistent, int kongs, DSlot* memo=NULL, int prog=-1) noexcept nogil:
    """distance.first_fit(c, start, ok) where it exceeds `best` (else at most `best`), stopping once it reaches
    `enough`: the most tiles of c that, added one by one to `start` in its orders (by kind, reversed, by (count,
    kind), each knitted straight's tiles first), keep the program's test not false. `kongs`: the hand's kongs
    (contains' room counts them; the program's total is the tiles less them). memo, prog: where the program's
    answers are remembered (_dp_test), and its index there."""
    cdef int tiles[64]
    cdef int order[64]
    cdef int counts[NK]
    cdef int n = 0, k, i, j, r, size, total0 = 0, total, v
    cdef unsigned long long nz0 = 0, multi0 = 0, nz, multi, bit
    total0 = -kongs
    for k in range(NK):
        total0 += start[k]
        if start[k]:
            nz0 |= 1ULL << k
            if start[k] > 1:
                multi0 |= 1ULL << k
        for i in range(c[k]):
            if n < 64:
                tiles[n] = k
                n += 1
    if persistent and best > 0:   # at most the copies of each kind that pass with start alone: can that beat best?
        size = 0
        for k in range(NK):
            bit = 1ULL << k
            for i in range(1, c[k] + 1):
                if _dp_test(p, memo, prog, nz0 | bit, multi0 | (bit if start[k] + i > 1 else 0), total0 + i) == T_F:
                    break
                size += 1
        if size <= best:
            return best
    for r in range(9):
        if best >= enough or best >= n:
            break
        if r == 0:
            memcpy(order, tiles, n * sizeof(int))
        elif r == 1:
            for i in range(n):
                order[i] = tiles[n - 1 - i]
        elif r == 2:   # by (count, kind): counts 1 to 4 (more, last), kinds ascending within a count
            j = 0
            for v in range(1, 6):
                for i in range(n):
                    k = tiles[i]
                    if c[k] == v or (v == 5 and c[k] > 4):
                        order[j] = k
                        j += 1
        else:          # the knitted straight's tiles first, then the rest, each by kind
            j = 0
            for i in range(n):
                if (knits[r - 3] >> tiles[i]) & 1:
                    order[j] = tiles[i]
                    j += 1
            for i in range(n):
                if not (knits[r - 3] >> tiles[i]) & 1:
                    order[j] = tiles[i]
                    j += 1
        memcpy(counts, start, sizeof(counts))
        nz, multi, total = nz0, multi0, total0
        size = 0
        for i in range(n):
            if size + (n - i) <= best:       # this order can no longer beat the best
                break
            k = order[i]
            bit = 1ULL << k
            if _dp_test(p, memo, prog, nz | bit, multi | (bit if counts[k] else 0), total + 1) != T_F:
                if counts[k]:
                    multi |= bit
                nz |= bit
                counts[k] += 1
                size += 1
                total += 1
        if size > best:
            best = size
    return best


cdef class Distance:
    """engine.distance of checked pre-draw hands of one variant, decided in C (see above). Made by NativeEngine;
    the caller holds the kernel's lock."""

    cdef Kernel kernel
    cdef Greedy g            # (its suit options: _g_standard)
    cdef bint standard, pairs, knitted, has_wild, indicator_stays, indicator_mode
    cdef int copies[NALL]
    cdef unsigned long long knits[6]

    def __cinit__(self, Kernel kernel, bint standard, bint pairs, bint knitted, bint has_wild,
                  bint indicator_stays, bint indicator_mode, tuple copies, tuple knits):
        cdef int k
        self.kernel = kernel
        self.g.sp = kernel.sp
        self.g.suits = <SuitOpts*>calloc(GS_SLOTS, sizeof(SuitOpts))
        if self.g.suits == NULL:
            raise MemoryError()
        self.standard, self.pairs, self.knitted, self.has_wild = standard, pairs, knitted, has_wild
        self.indicator_stays, self.indicator_mode = indicator_stays, indicator_mode
        self.g.win_size = kernel.sp.win_size
        self.g.sets = (kernel.sp.win_size - 2) // 3
        for k in range(NALL):
            self.copies[k] = copies[k] if k < len(copies) else 0
        if len(knits) != 6:
            raise ValueError("six knitted straights")
        for r in range(6):
            self.knits[r] = 0
            for k in knits[r]:
                self.knits[r] |= 1ULL << k

    def __dealloc__(self):
        free(self.g.suits)

    cdef int _ready(self, Fields st, tuple opts, double win_by, const int* counted) except -2:
        """1 when some kind completes the pre-draw hand st (a legal draw the kernel judges a win), 0 when none
        does, DIST_UNDECIDED when the kernel cannot judge one (NativeEngine._completions, stopping at the first)."""
        cdef Kernel kn = self.kernel
        cdef Ctx* x = kn.x
        cdef Spec* sp = kn.sp
        cdef int i, j, k, w, q, r, sets, n = st.nkinds, code, waits_all = -1, nfit = 0
        cdef int fit[NALL]
        cdef unsigned char* out
        cdef bytearray kinds
        cdef int held[NALL]
        cdef bint fits
        cdef bytearray orig = st.kinds
        cdef const unsigned char* b = <const unsigned char*>PyByteArray_AsString(orig)
        cdef Facts saved
        cdef unsigned char saved_rb[NK + 2]
        cdef int saved_rb_tiles
        cdef bint saved_rb_over, incremental = not (st.indicators or st.hidden_indicators)
        kn._load_situation(st, opts, win_by)
        if x.err:
            return DIST_UNDECIDED
        _reset_memo(x)
        w = x.f.w
        sets = (sp.win_size - 2) // 3 - x.f.nmelds
        for i in range(sp.nplayable):   # Kernel.fit_kinds
            k = sp.playable[i]
            if k < 0 or k >= NK:
                return DIST_UNDECIDED
            if k == w or k == x.f.w2:
                x.f.jokers += 1
            else:
                x.f.real[k] += 1
                x.f.base[k] += 1
            x.err = 0
            fits = _may_fit(x, sets, -1)
            if k == w or k == x.f.w2:
                x.f.jokers -= 1
            else:
                x.f.real[k] -= 1
                x.f.base[k] -= 1
            if fits or x.err:
                fit[nfit] = k
                nfit += 1
        if nfit == 0:
            return 0
        # each kind's hand differs from the pre-draw one by its tile alone: its facts are those loaded above with
        # the tile added (Kernel._fill_sit's reading of it), except where indicators count the held tiles
        memcpy(&saved, &x.f, sizeof(Facts))
        memcpy(saved_rb, kn.rb, sizeof(saved_rb))
        saved_rb_tiles, saved_rb_over = kn.rb_tiles, kn.rb_over
        memset(held, 0, sizeof(held))
        for i in range(n):
            if b[i] >= NALL:
                return DIST_UNDECIDED
            held[b[i]] += 1
        code = 0
        try:
            for i in range(nfit):
                k = fit[i]
                if incremental:
                    st.win_tile = k
                    kn._load_opts(opts)
                    memcpy(&x.f, &saved, sizeof(Facts))
                    memcpy(kn.rb, saved_rb, sizeof(saved_rb))
                    kn.rb_tiles, kn.rb_over = saved_rb_tiles, saved_rb_over
                    x.err = 0
                    if k == x.f.w:
                        x.f.jokers += 1
                    elif k == x.f.w2:
                        x.f.jokers += 1
                        x.f.jw2 += 1
                    else:
                        x.f.real[k] += 1
                        x.f.base[k] += 1
                        kn.rb[k] += 1
                        kn.rb_tiles += 1
                        kn.rb_over |= x.f.real[k] > 4
                    if (x.f.cand >> NK and x.f.jokers) or x.f.jokers > MAXJ:
                        x.err |= ERR_OTHER
                    x.f.win_tile = k
                    if x.err:
                        r = kn._said(ERR)
                    else:
                        if waits_all >= 0:
                            x.f.waits_all = waits_all
                        r = kn._refusals(st)
                        if r < 0:
                            r = kn._verdict()
                    if r == NOFIT or r == FAIL:
                        waits_all = kn.r_waits_all
                        continue
                    if r == REFUSE:
                        continue
                    if r == WIN:
                        waits_all = kn.r_waits_all
                    if counted[k] >= self.copies[k]:
                        continue
                    code = 1 if r == WIN else DIST_UNDECIDED
                    break
                held[k] += 1
                kinds = PyByteArray_FromStringAndSize(NULL, n + 1)
                out = <unsigned char*>PyByteArray_AsString(kinds)
                j = 0
                for w in range(NALL):
                    for q in range(held[w]):
                        out[j] = <unsigned char>w
                        j += 1
                held[k] -= 1
                st.kinds, st.nkinds, st.win_tile = kinds, n + 1, k
                r = kn._wins_fields(st, opts, win_by, waits_all)
                if r == NOFIT or r == FAIL:
                    waits_all = kn.r_waits_all
                    continue
                if r == REFUSE:
                    continue
                if r == WIN:
                    waits_all = kn.r_waits_all
                if counted[k] >= self.copies[k]:   # not a kind it may draw (drawable_kinds)
                    continue
                code = 1 if r == WIN else DIST_UNDECIDED
                break
        finally:
            st.kinds, st.nkinds, st.win_tile = orig, n, -1
        return code

    cdef int _counted(self, Fields st, int* counted) except -1:
        """situation._counted: the tiles that count against their kinds' copies."""
        cdef const unsigned char* b = <const unsigned char*>PyByteArray_AsString(st.kinds)
        cdef int i, k
        memset(counted, 0, NALL * sizeof(int))
        for i in range(st.nkinds):
            if b[i] < NALL:
                counted[b[i]] += 1
        for m in st.melds:
            for k in m.tiles:
                if 0 <= k < NALL:
                    counted[k] += 1
        for k in st.flowers:
            if 0 <= k < NALL:
                counted[k] += 1
        if self.has_wild and st.win_by != "rob_gold":
            if st.indicator >= 0 and self.indicator_stays:
                if st.indicator < NALL:
                    counted[st.indicator] += 1
            elif st.wild >= 0 and self.indicator_mode and st.wild < NALL:
                counted[st.wild] += 1
        return 0

    def distance(self, Fields st, tuple opts, double win_by, bytes programs, int nprograms):
        """distance.distance of the checked pre-draw hand st (its winning tile none): 0 ready, else the estimate
        (at least 1); DIST_UNDECIDED where the kernel cannot decide (distance() in Python then)."""
        cdef int counted[NALL]
        cdef int c[NK]
        cdef int meld[NK]
        cdef int rest[NK]
        cdef int k, i, r, e, best = 1 << 20, jokers = 0, w = -1, nmelds, nsets, pairs, half, held, floor, room, ff
        cdef int tiles = 0, at, size, kongs
        cdef unsigned long long hm
        cdef bint any = False
        cdef const int* p
        cdef const unsigned char* b = <const unsigned char*>PyByteArray_AsString(st.kinds)
        if b == NULL or PyByteArray_Size(st.kinds) < st.nkinds:
            raise ValueError("Fields.kinds holds fewer than nkinds kinds")
        self._counted(st, counted)
        r = self._ready(st, opts, win_by, counted)
        if r != 0:
            return 0 if r == 1 else DIST_UNDECIDED
        b = <const unsigned char*>PyByteArray_AsString(st.kinds)
        if self.has_wild and st.wild >= 0:
            w = st.wild
        memset(c, 0, sizeof(c))
        for i in range(st.nkinds):
            k = b[i]
            if k == w:
                jokers += 1
            elif k < NK:
                c[k] += 1
                tiles += 1
            else:
                return DIST_UNDECIDED
        nmelds = len(st.melds)
        nsets = self.g.sets - nmelds
        if self.standard:
            best = _g_standard(&self.g, c, nsets)
            any = True
        if self.pairs and nmelds == 0:
            half = self.g.win_size // 2
            pairs = 0
            for k in range(NK):
                pairs += c[k] // 2
            e = half - 1 - (pairs if pairs < half else half)
            if e < best:
                best = e
            any = True
        if self.knitted:
            any = True
            if nsets < 3:
                e = 99
                if e < best:
                    best = e
            else:
                hm = _suited_held(c)
                for r in range(6):
                    if best - jokers <= 1:
                        break
                    held = _nbits(self.knits[r] & hm)
                    if 8 - held >= best:   # (the standard shanten is -1 at the least: a complete hand)
                        continue
                    _less_knit(c, self.knits[r] & hm, rest)
                    e = 9 - held + _g_standard(&self.g, rest, nsets - 3)
                    if e < best:
                        best = e
        if nprograms:
            floor = 1 + jokers
            size = (self.g.win_size - 1) - 3 * nmelds
            memset(meld, 0, sizeof(meld))
            kongs = 0
            for m in st.melds:
                if m.kind == "kong":
                    kongs += 1
                for k in m.tiles:
                    if 0 <= k < NK:
                        meld[k] += 1
            if len(programs) < 4 * nprograms:
                raise ValueError("short programs")
            p = <const int*>PyBytes_AsString(programs)
            at = 0
            for i in range(nprograms):
                any = True
                if best <= floor:    # the answer is 1 whatever this pattern's estimate
                    break
                ff = _dp_first_fit(&p[at + 1], c, meld, self.knits, size - best if size - best > 0 else 0,
                                   size - floor, _dp_persistent(&p[at + 1], p[at]), kongs)
                if size - ff < best:
                    best = size - ff
                at += 1 + p[at]
        if not any:
            return 1
        return best - jokers if best - jokers > 1 else 1


cdef class ProgramEstimator:
    """distance.Estimator in C where ShapeEstimator does not serve (a knitted shape, a free condition that reads
    more than the kernel's check context holds): the standard, pairs and knitted estimates and each free pattern's
    first-fit (its partial test on a default situation as a program, distance.FreePrograms), less one per wild;
    remembered by the counts. Made by NativeEngine.estimator(); not thread-safe."""

    cdef Greedy g            # (its suit options and estimate slots)
    cdef bint standard, pairs, knitted
    cdef bytes programs
    cdef int nprograms
    cdef unsigned long long knits[6]
    cdef object fallback     # the Python Estimator, for counts that are neither bytes nor a bytearray

    def __cinit__(self, Kernel kernel, bint standard, bint pairs, bint knitted, bytes programs, int nprograms,
                  tuple knits, fallback):
        cdef int k, r
        self.g.sp = kernel.sp
        self.g.suits = <SuitOpts*>calloc(GS_SLOTS, sizeof(SuitOpts))
        self.g.est = <EstSlot*>calloc(GE_SLOTS, sizeof(EstSlot))
        self.g.dps = <DSlot*>calloc(GD_SLOTS, sizeof(DSlot))
        if self.g.suits == NULL or self.g.est == NULL or self.g.dps == NULL:
            raise MemoryError()
        self.standard, self.pairs, self.knitted = standard, pairs, knitted
        self.g.win_size = kernel.sp.win_size
        self.g.sets = (kernel.sp.win_size - 2) // 3
        if len(programs) < 4 * nprograms or len(knits) != 6:
            raise ValueError("short programs, or not six knitted straights")
        self.programs, self.nprograms = programs, nprograms
        for r in range(6):
            self.knits[r] = 0
            for k in knits[r]:
                self.knits[r] |= 1ULL << k
        self.fallback = fallback

    def __dealloc__(self):
        free(self.g.suits)
        free(self.g.est)
        free(self.g.dps)

    cdef int _estimate(self, int* c, int melds, int wild, int wild2) noexcept:
        """Estimator.estimate of counts c (34, the wild kinds' tiles among them; c is changed)."""
        cdef int k, r, i, e, at, jokers = 0, best = 1 << 20, pairs, half, held, nsets, size, ff
        cdef unsigned long long hm
        cdef int rest[NK]
        cdef int zeros[NK]
        cdef bint any = False, keep = True
        cdef unsigned long long a = 0, b = 0, h
        cdef EstSlot* slot
        cdef const int* p
        if 0 <= wild < NK:
            jokers = c[wild]
            c[wild] = 0
        if 0 <= wild2 < NK and wild2 != wild:
            jokers += c[wild2]
            c[wild2] = 0
        for k in range(NK):
            if c[k] > 7:
                keep = False
            elif k < 21:
                a |= <unsigned long long>c[k] << (3 * k)
            else:
                b |= <unsigned long long>c[k] << (3 * (k - 21))
        keep = keep and 0 <= jokers < 16 and 0 <= melds < 16
        b |= (<unsigned long long>(jokers & 15) << 40) | (<unsigned long long>(melds & 15) << 44) | (1ULL << 63)
        h = (a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL)
        slot = &self.g.est[(h ^ (h >> 31)) & (GE_SLOTS - 1)]
        if keep and slot.a == a and (slot.b & ~(0xFFULL << 48)) == b:
            return <int>((slot.b >> 48) & 0xFF) - 128
        nsets = self.g.sets - melds
        if self.standard:
            best = _g_standard(&self.g, c, nsets if nsets > 0 else 0)
            any = True
        if self.pairs and melds == 0:
            half = self.g.win_size // 2
            pairs = 0
            for k in range(NK):
                pairs += c[k] // 2
            e = half - 1 - (pairs if pairs < half else half)
            if e < best:
                best = e
            any = True
        if self.knitted:
            any = True
            if nsets < 3:
                if 99 < best:
                    best = 99
            else:
                hm = _suited_held(c)
                for r in range(6):
                    held = _nbits(self.knits[r] & hm)
                    if 8 - held >= best:   # (the standard shanten is -1 at the least)
                        continue
                    _less_knit(c, self.knits[r] & hm, rest)
                    e = 9 - held + _g_standard(&self.g, rest, nsets - 3)
                    if e < best:
                        best = e
        if self.nprograms and melds == 0:
            size = self.g.win_size - 1
            memset(zeros, 0, sizeof(zeros))
            p = <const int*>PyBytes_AsString(self.programs)
            at = 0
            for i in range(self.nprograms):
                any = True
                ff = _dp_first_fit(&p[at + 1], c, zeros, self.knits, size - best if size - best > 0 else 0, 1 << 20,
                                   _dp_persistent(&p[at + 1], p[at]), 0, self.g.dps, i)
                if size - ff < best:
                    best = size - ff
                at += 1 + p[at]
        if not any:
            best = 8
        if keep and -128 <= best - jokers < 128:
            slot.a, slot.b = a, b | (<unsigned long long>(best - jokers + 128) << 48)
        return best - jokers

    cdef bint _load(self, counts, int* c) except -1:
        """counts (bytes or a bytearray of 34 or more) into c; False for anything else (the fallback's)."""
        cdef const unsigned char* b
        cdef int k, n
        if type(counts) is bytes:
            b = <const unsigned char*>PyBytes_AsString(counts)
        elif type(counts) is bytearray:
            b = <const unsigned char*>PyByteArray_AsString(counts)
        else:
            return False
        if len(counts) < NK:
            return False
        n = 0
        for k in range(NK):
            c[k] = b[k]
            n += b[k]
        return n <= 64   # (first-fit's tiles)

    def estimate(self, counts, int melds, int wild, int wild2=-1):
        """distance.Estimator.estimate."""
        cdef int c[NK]
        if not self._load(counts, c):
            return self.fallback.estimate(counts, melds, wild, wild2)
        return self._estimate(c, melds, wild, wild2)

    def after_discards(self, counts, int melds, int wild, int wild2=-1):
        """distance.Estimator.after_discards: estimate() after discarding one tile of each kind (None where none
        is held), for the 34 kinds."""
        cdef int c[NK]
        cdef int w[NK]
        cdef int k
        if not self._load(counts, c):
            return self.fallback.after_discards(counts, melds, wild, wild2)
        out = [None] * NK
        for k in range(NK):
            if c[k]:
                memcpy(w, c, sizeof(w))
                w[k] -= 1
                out[k] = self._estimate(w, melds, wild, wild2)
        return out
