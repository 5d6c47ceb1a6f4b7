# Included by kernel.pyx: the enumeration of readings: every standard reading (sets and a pair, with wild assignments),
# pairs readings and free readings, each handed to a callback in the reference's order.
# ---- enumeration of readings ---------------------------------------------------------------------------
cdef struct Std:
    Ctx* x
    int c[NK]
    int F[10]             # _unit(x, c, u, &G[u]) of every unit u of c, kept as c changes (see _std_feasible)
    int G[10]
    int idx[3]            # each suit's table index (_suit_idx), kept as c changes; -1: a count over 4
    int tiles             # the sum of c
    int* needs            # what a reading must have to hold an open pattern (Spec.std_needs, or'ed over the
                          # open patterns; bits 0-2 the pair's wild counts, bit 3 a sequence), changing as the
                          # callback settles patterns: the enumeration skips what holds none of them
    int all_needs         # 15, where needs points without a caller's word
    int pairw             # the wilds of the pair placed (with pairs 0)
    bint defer            # the pair is two wilds, kept for the leaf (see _std_rec)
    Reading rd
    ReadingCb cb
    void* ud
    Dedup* dd
    bint stop
    int nopt
    Group opts[2 * NK]


cdef inline void _push(Reading* rd, int kind, int k0, int wild) noexcept nogil:
    rd.groups[rd.ngroups].kind = kind
    rd.groups[rd.ngroups].k0 = k0
    rd.groups[rd.ngroups].wild = wild
    rd.ngroups += 1


cdef void _finish(Ctx* x, Reading* rd) noexcept nogil:
    """Fill a reading's assignment (sorted) and counts from its groups."""
    cdef int i, pos, n = 0, k, j, size
    cdef Group* g
    for i in range(rd.ngroups):
        g = &rd.groups[i]
        size = 2 if g.kind == G_PAIR else 3
        for pos in range(size):
            if (g.wild >> pos) & 1 and n < MAXJ:
                k = g.k0 + pos if g.kind == G_SEQ else g.k0
                j = n
                while j > 0 and rd.assign[j - 1] > k:
                    rd.assign[j] = rd.assign[j - 1]
                    j -= 1
                rd.assign[j] = k
                n += 1
    rd.nassign = n
    rd.placed = -2
    memcpy(rd.counts, x.f.base, NK * sizeof(int))
    for i in range(n):
        rd.counts[rd.assign[i]] += 1


cdef void _std_emit(Std* S) noexcept nogil:
    cdef int r
    _finish(S.x, &S.rd)
    if S.dd != NULL:
        r = _dedup_add(S.dd, &S.rd)
        if r < 0:
            S.x.err |= ERR_OTHER
            S.stop = True
            return
        if r == 0:
            return
    if S.cb(S.ud, &S.rd):
        S.stop = True


cdef void _std_opts(Std* S) noexcept nogil:
    """S.opts: every set wilds alone can make (a pung of each candidate kind, a sequence of three candidate kinds
    while an open pattern may have a sequence: S.needs only narrows, so a list made later lacks nothing still
    needed), in the order of the (kinds, kind) list."""
    cdef unsigned long long cand = S.x.f.cand
    cdef int k
    S.nopt = 0
    for k in range(NK):
        if (cand >> k) & 1:
            S.opts[S.nopt].kind, S.opts[S.nopt].k0 = G_PUNG, k
            S.nopt += 1
        if k < 27 and k % 9 <= 6 and (cand >> k) & 7 == 7 and S.needs[0] & 8:
            S.opts[S.nopt].kind, S.opts[S.nopt].k0 = G_SEQ, k
            S.nopt += 1


cdef void _all_jokers(Std* S, int sets, int pairs, int lo) noexcept nogil:
    """Groups of wilds only, after every real tile is placed: a pair of any candidate, then sets in a
    non-decreasing order of the (kinds, kind) list, so each combination appears once."""
    cdef int i
    if pairs:
        if not (S.needs[0] >> 2) & 1:   # no open pattern holds with a pair of two wilds
            return
        for i in range(S.x.f.ncand):
            _push(&S.rd, G_PAIR, S.x.f.cand_list[i], 3)
            _all_jokers(S, sets, 0, 0)
            S.rd.ngroups -= 1
            if S.stop:
                return
        return
    if not sets:
        _std_emit(S)
        return
    if S.nopt < 0:
        _std_opts(S)
    for i in range(lo, S.nopt):
        if S.opts[i].kind == G_SEQ and not S.needs[0] & 8:
            continue
        _push(&S.rd, S.opts[i].kind, S.opts[i].k0, 7)
        _all_jokers(S, sets - 1, 0, i)
        S.rd.ngroups -= 1
        if S.stop:
            return


cdef inline int _unit_of(int k) noexcept nogil:
    return k // 9 if k < 27 else k - 24


cdef inline void _std_unit(Std* S, int u) noexcept nogil:
    S.F[u] = _unit(S.x, S.c, u, &S.G[u])


cdef inline void _std_took(Std* S, int u, int d) noexcept nogil:
    """Unit u again after tiles were taken out of it: d is their weight in its suit index (rank r's tile counts
    5 ** r), so a suit's entry is found without summing its nine counts; the caller puts d back into S.idx[u]
    with the tiles."""
    if u < 3 and S.idx[u] >= 0:
        S.idx[u] -= d
        S.F[u] = _suit_at(S.x, u, S.idx[u], &S.G[u])
    else:
        _std_unit(S, u)


cdef bint _std_feasible(Std* S, int j, int sets, int pairs) noexcept nogil:
    """_feasible(S.x, S.c, j, sets, pairs) from the units kept in S: a group taken or put back changes one
    unit, so only that unit is looked up again."""
    cdef int u, f, g, total = 0, delta = INF, lowpair = 0
    for u in range(10):  # no early exit: a straight loop over ten units is cheaper than its branches
        f = S.F[u]
        g = S.G[u]
        total += f
        lowpair += _lo(f, g)
        delta = _lo(delta, g - f)
    if (lowpair if pairs else total) > j:
        return False
    return _combine(S.x, total, delta, S.tiles, j, sets, pairs)


cdef void _std_rec(Std* S, int j, int sets, int pairs, int k) noexcept nogil:
    """Every reading of S.c with j wilds as `sets` sets and `pairs` pairs; k: no kind below it is held (the
    lowest held kind is taken first, so it never decreases down the recursion)."""
    cdef int* c = S.c
    cdef int real, r, off, u, f0, g0, i0
    cdef int needs = S.needs[0]
    cdef unsigned long long cand = S.x.f.cand
    if S.stop:
        return
    if not pairs:
        if not (needs >> S.pairw) & 1:   # no open pattern holds with the pair placed
            return
    elif not needs & 7:   # no open pattern holds on any pair
        return
    elif (needs & 7) == 4:
        # Only a pair of two wilds holds an open pattern: the reference puts such a pair after every real tile
        # (_all_jokers), so the rest are sets of the real tiles and j - 2 wilds, in the same order, and the pair
        # is put back at the leaf. The feasibility test then asks for the sets alone.
        if j < 2:
            return
        S.defer, S.pairw = True, 2
        _std_rec(S, j - 2, sets, 0, k)
        S.defer = False
        return
    if not _std_feasible(S, j, sets, pairs):
        return
    while k < NK and c[k] == 0:
        k += 1
    if k == NK:
        if j == 3 * sets + 2 * pairs:
            _all_jokers(S, sets, pairs + S.defer, 0)
        return
    u = _unit_of(k)
    f0, g0 = S.F[u], S.G[u]
    i0 = S.idx[u] if u < 3 else 0
    if pairs:
        for real in range(2, 0, -1):
            if c[k] >= real and j >= 2 - real and (real == 2 or (cand >> k) & 1) and (needs >> (2 - real)) & 1:
                c[k] -= real
                S.tiles -= real
                _std_took(S, u, real * _p5[k - 9 * u] if u < 3 else 0)
                S.pairw = 2 - real
                _push(&S.rd, G_PAIR, k, 0 if real == 2 else 2)
                _std_rec(S, j - (2 - real), sets, pairs - 1, k)
                S.rd.ngroups -= 1
                c[k] += real
                S.tiles += real
                S.F[u], S.G[u] = f0, g0
                if u < 3:
                    S.idx[u] = i0
                if S.stop:
                    return
    if not sets:
        return
    for real in range(3, 0, -1):
        if c[k] >= real and j >= 3 - real and (real == 3 or (cand >> k) & 1):
            c[k] -= real
            S.tiles -= real
            _std_took(S, u, real * _p5[k - 9 * u] if u < 3 else 0)
            _push(&S.rd, G_PUNG, k, (7 << real) & 7)
            _std_rec(S, j - (3 - real), sets - 1, pairs, k)
            S.rd.ngroups -= 1
            c[k] += real
            S.tiles += real
            S.F[u], S.G[u] = f0, g0
            if u < 3:
                S.idx[u] = i0
            if S.stop:
                return
    if k >= 27 or not S.needs[0] & 8:   # no open pattern holds with a sequence
        return
    r = k % 9
    if j == 0:   # no wild left: only the sequence that starts at k, of tiles held (the others need a wild)
        if r <= 6 and c[k + 1] and c[k + 2]:
            _seq(S, j, sets, pairs, k, k)
        return
    for off in range(3):
        if r - off < 0 or r - off > 6:
            continue
        _seq(S, j, sets, pairs, k - off, k)
        if S.stop:
            return


cdef void _seq(Std* S, int j, int sets, int pairs, int start, int k) noexcept nogil:
    """k is the lowest real tile; it sits in the sequence start..start+2. Tiles below k are wilds; each tile
    above it is real (when held) or a wild, real first, as the reference tries them."""
    cdef int nopt[3]
    cdef int opt[3][2]
    cdef int i, t, a, b, e, need, wild
    cdef int* c = S.c
    cdef unsigned long long cand = S.x.f.cand
    cdef int u = start // 9               # the sequence's suit: the one unit it changes
    cdef int f0 = S.F[u], g0 = S.G[u], i0 = S.idx[u], d
    for i in range(3):
        t = start + i
        if t == k:
            nopt[i] = 1
            opt[i][0] = 0
        elif t < k:
            nopt[i] = 1
            opt[i][0] = 1
        else:
            nopt[i] = 0
            if c[t] > 0:
                opt[i][nopt[i]] = 0
                nopt[i] += 1
            if j > 0 and (cand >> t) & 1:   # (a wild that may stand for t: none, the choice is not offered)
                opt[i][nopt[i]] = 1
                nopt[i] += 1
            elif nopt[i] == 0:
                return
    for a in range(nopt[0]):
        for b in range(nopt[1]):
            for e in range(nopt[2]):
                wild = opt[0][a] | (opt[1][b] << 1) | (opt[2][e] << 2)
                need = opt[0][a] + opt[1][b] + opt[2][e]
                if need > j:
                    continue
                if ((wild & 1) and not (cand >> start) & 1) or ((wild & 2) and not (cand >> (start + 1)) & 1) \
                        or ((wild & 4) and not (cand >> (start + 2)) & 1):
                    continue
                d = 0
                for i in range(3):
                    if not (wild >> i) & 1:
                        c[start + i] -= 1
                        d += _p5[start + i - 9 * u]
                S.tiles -= 3 - need
                _std_took(S, u, d)
                _push(&S.rd, G_SEQ, start, wild)
                _std_rec(S, j - need, sets - 1, pairs, k)
                S.rd.ngroups -= 1
                for i in range(3):
                    if not (wild >> i) & 1:
                        c[start + i] += 1
                S.tiles += 3 - need
                S.F[u], S.G[u], S.idx[u] = f0, g0, i0
                if S.stop:
                    return


cdef void _enum_standard(Ctx* x, int sets, ReadingCb cb, void* ud, Dedup* dd, int* needs=NULL,
                         Units* U=NULL, const int* real=NULL) noexcept nogil:
    """Every reading of the concealed tiles as `sets` sets and a pair, in the reference's order; with needs (see
    Std), only those that may hold an open pattern, as *needs says when each is reached. U: NULL, or the units
    of x.f.real the caller made, whose suit indices and tile count serve when all its units are filled. real: the
    counts to read as sets and a pair, where not x.f.real (then U is NULL)."""
    cdef Std S
    cdef int k, spare = 0
    S.x, S.cb, S.ud, S.dd, S.stop = x, cb, ud, dd, False
    S.all_needs = 15
    S.needs = needs if needs != NULL else &S.all_needs
    S.pairw, S.defer = 0, False
    S.rd.ngroups = 0
    S.rd.pattern = 0
    memcpy(S.c, real if real != NULL else x.f.real, NK * sizeof(int))
    if real == NULL and U != NULL and U.c == <const int*>x.f.real and U.n == 4:   # the caller's units: the same indices
        S.tiles = U.tiles
        for k in range(3):
            S.idx[k] = U.idx[k]
    else:
        S.tiles = 0
        for k in range(NK):
            S.tiles += S.c[k]
        for k in range(3):
            S.idx[k] = _suit_idx(S.c + 9 * k, &spare)
    for k in range(3):   # the suits as _unit has them, their indices kept (_std_took)
        if S.idx[k] < 0:
            S.F[k] = S.G[k] = 0
        else:
            S.F[k] = _suit_at(x, k, S.idx[k], &S.G[k])
    for k in range(3, 10):
        _std_unit(&S, k)
    S.nopt = -1  # the sets wilds alone can make: listed by _all_jokers when it first needs them
    if 3 * sets + 2 >= 3 * MAXG:
        x.err |= ERR_OTHER
        return
    _std_rec(&S, x.f.jokers, sets, 1, 0)


cdef int _pairs_rec(Ctx* x, Reading* rd, int r, int lo, ReadingCb cb, void* ud) noexcept nogil:
    cdef int i
    if r == 0:
        _finish(x, rd)
        return cb(ud, rd)
    for i in range(lo, x.f.ncand):
        _push(rd, G_PAIR, x.f.cand_list[i], 3)
        if _pairs_rec(x, rd, r - 1, i, cb, ud):
            return 1
        rd.ngroups -= 1
    return 0


cdef void _enum_pairs(Ctx* x, int n, ReadingCb cb, void* ud) noexcept nogil:
    """Every reading as n pairs (four alike are two pairs); leftover wilds pair up as any candidates."""
    cdef Reading rd
    cdef int k, v, i, jokers = x.f.jokers
    rd.ngroups = 0
    rd.pattern = 0
    for k in range(NK):
        v = x.f.real[k]
        if v == 0:
            continue
        for i in range(v // 2):
            if rd.ngroups >= MAXG:
                return
            _push(&rd, G_PAIR, k, 0)
        if v % 2:
            if jokers == 0 or not (x.f.cand >> k) & 1 or rd.ngroups >= MAXG:
                return
            jokers -= 1
            _push(&rd, G_PAIR, k, 2)
    if rd.ngroups + jokers // 2 != n or jokers % 2 or n > MAXG:
        return
    _pairs_rec(x, &rd, jokers // 2, 0, cb, ud)


cdef int _free_rec(Ctx* x, Reading* rd, int p, int r, int lo, ReadingCb cb, void* ud) noexcept nogil:
    cdef int i, k
    if r > 0:
        if x.spec.viable(x, rd.counts, p) == 0:
            return 1 if x.err else 0
        if x.err:
            return 1
    else:
        return cb(ud, rd)
    for i in range(lo, x.f.ncand):
        k = x.f.cand_list[i]
        rd.counts[k] += 1
        rd.assign[rd.nassign] = k
        rd.nassign += 1
        if _free_rec(x, rd, p, r - 1, i, cb, ud):
            return 1
        rd.nassign -= 1
        rd.counts[k] -= 1
    return 0


cdef void _enum_free(Ctx* x, int p, ReadingCb cb, void* ud) noexcept nogil:
    """Every multiset of kinds the wilds may stand for, pruned where the pattern's condition is already
    false whatever the remaining wilds become (its three-valued test)."""
    cdef Reading rd
    rd.ngroups = 0
    rd.nassign = 0
    rd.pattern = p
    memcpy(rd.counts, x.f.base, NK * sizeof(int))
    _free_rec(x, &rd, p, x.f.jokers, 0, cb, ud)


cdef struct Knit:
    ReadingCb cb
    void* ud
    int knit
    bint stop
    Reading rd


cdef int _knit_cb(void* ud, Reading* rd) noexcept nogil:
    """A reading of the tiles left by a knitted straight, handed on with the straight's group first."""
    cdef Knit* K = <Knit*>ud
    cdef int r
    if rd.ngroups + 1 > MAXG:
        return 0
    K.rd.pattern = rd.pattern
    K.rd.ngroups = rd.ngroups + 1
    K.rd.groups[0].kind, K.rd.groups[0].k0, K.rd.groups[0].wild = G_KNIT, K.knit, 0
    memcpy(&K.rd.groups[1], rd.groups, rd.ngroups * sizeof(Group))
    memcpy(K.rd.counts, rd.counts, NK * sizeof(int))
    K.rd.nassign = rd.nassign
    memcpy(K.rd.assign, rd.assign, rd.nassign * sizeof(int))
    r = K.cb(K.ud, &K.rd)
    rd.pattern = K.rd.pattern
    if r:
        K.stop = True
    return r


cdef bint _knit_fits(Ctx* x, int sets) noexcept nogil:
    """Can the knitted shape take the concealed tiles (a knitted straight, sets - 3 sets and a pair)? With wilds,
    not decided here (True: the enumeration hands the hand to the reference)."""
    cdef int c[NK]
    cdef int i
    cdef unsigned long long m, held
    if sets < 3:
        return False
    if x.f.jokers:
        return True
    held = _suited_held(x.f.real)
    for i in range(6):
        m = knit_mask(i)
        if not m & ~held:   # every kind of the straight held
            _less_knit(x.f.real, m, c)
            if _feasible(x, c, 0, sets - 3, 1):
                return True
    return False


cdef bint _knit_near(const int* real) noexcept nogil:
    """Some knitted straight lacks at most one of its nine kinds in these counts: without wilds, one tile more can
    make the knitted shape fit (_knit_fits) only then."""
    cdef unsigned long long held = _suited_held(real)
    cdef int i
    for i in range(6):
        if _nbits(knit_mask(i) & ~held) <= 1:
            return True
    return False


cdef void _enum_knitted(Ctx* x, int sets, ReadingCb cb, void* ud, Dedup* dd) noexcept nogil:
    """Every reading as a knitted straight (mjrules.reference.readings.knitted: each of KNITS in order, its nine
    kinds held) with `sets` - 3 sets and a pair, in the reference's order. Wilds are not placed here: a hand with
    wilds is the reference's to judge (x.err)."""
    cdef Knit K
    cdef int i, k
    cdef unsigned long long m
    cdef int rest[NK]
    if x.f.jokers:
        x.err |= ERR_OTHER
        return
    K.cb, K.ud, K.stop = cb, ud, False
    for i in range(6):
        m = knit_mask(i)
        for k in range(27):
            if (m >> k) & 1 and x.f.real[k] == 0:
                break
        else:
            memcpy(rest, x.f.real, NK * sizeof(int))   # (x.f.real stays: a callback may read the facts)
            for k in range(27):
                if (m >> k) & 1:
                    rest[k] -= 1
            K.knit = i
            if dd != NULL:
                _dedup_reset(dd)
            _enum_standard(x, sets - 3, _knit_cb, &K, dd, NULL, NULL, rest)
            if K.stop or x.err:
                return
