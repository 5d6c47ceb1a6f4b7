# Included by kernel.pyx: the shape tables: the standard-shape table of every suit count vector (fewest wilds to sets, to
# sets and a pair), the honours' table, their cache blob, units of a hand, feasibility, and the deduplication of
# standard readings.
# ---- the standard-shape table --------------------------------------------------------------------------
cdef unsigned short* _tfg = NULL  # per suit count vector: fewest wilds to make it sets (low byte), sets and
                                  # one pair (high byte); one table, so one cache line per suit looked up
cdef unsigned short* _tpp = NULL  # per suit count vector, for the pung-only and pairs shortcuts (every kind a
                                  # candidate): bits 0-4 the wilds that make each kind's tiles pungs, bit 5 some
                                  # kind's pair costs a wild less than its pungs (a count of 1, 2 or 4), bits 6-10
                                  # the pairs (sum of count // 2), bits 11-14 the kinds held an odd number of times
cdef int _hf[NH]
cdef int _hg[NH]
cdef int _hfg[2][NH]   # _hf | _hg << 16 for an honour kind that is a candidate of the wild ([1]) or not ([0]:
                       # INF where wilds are needed), from _derive_tables
cdef unsigned long long* _hon = NULL   # the seven honour kinds at once, counts 0..4 (index: kind 27 + r's count
                                       # times 5 ** r), [0] none a candidate of the wild, [N7] all: _feasible's
                                       # sum of f (bits 0-15), of min(f, g) (16-31), least g - f + INF (32-47)
cdef int _p5[10]


cdef inline int _lo(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline int _nbits(unsigned long long x) noexcept nogil:
    """How many bits x has set."""
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef inline unsigned long long _suited_held(const int* c) noexcept nogil:
    """The suited kinds (0..26) counts c hold, as bits."""
    cdef unsigned long long m = 0
    cdef int k
    for k in range(27):
        if c[k] > 0:
            m |= 1ULL << k
    return m


cdef inline void _less_knit(const int* c, unsigned long long held, int* rest) noexcept nogil:
    """rest = c less one tile of each kind in `held` (a knitted straight's kinds that c holds)."""
    memcpy(rest, c, NK * sizeof(int))
    while held:
        rest[mj_ctzll(held)] -= 1
        held &= held - 1


cdef int _build_tables() noexcept nogil:
    """Fill the suit tables by dynamic programming over the lowest tile (each entry needs smaller ones)."""
    global _tfg, _tpp
    cdef unsigned char* tf = <unsigned char*>malloc(N5)
    cdef unsigned char* tg = <unsigned char*>malloc(N5)
    cdef unsigned short* tfg = <unsigned short*>malloc(N5 * sizeof(unsigned short))
    cdef unsigned short* tpp = <unsigned short*>malloc(N5 * sizeof(unsigned short))
    cdef int d[9]
    cdef int idx, i, r, n, off, start, a, pos, npos, t, cost, i2, f, g, need, pairs, odd
    cdef bint ok, cheaper
    if tf == NULL or tg == NULL or tfg == NULL or tpp == NULL:
        free(tf)
        free(tg)
        free(tfg)
        free(tpp)
        return -1
    _p5[0] = 1
    for i in range(1, 10):
        _p5[i] = _p5[i - 1] * 5
    memset(d, 0, sizeof(d))
    for idx in range(N5):
        if idx:
            i = 0
            while d[i] == 4:
                d[i] = 0
                i += 1
            d[i] += 1
        need = pairs = odd = 0     # _tpp's sums (see its declaration)
        cheaper = False
        for i in range(9):
            need += _PUNG_FP[d[i]]
            cheaper |= _PUNG_GP[d[i]] < _PUNG_FP[d[i]]
            pairs += d[i] // 2
            odd += d[i] & 1
        tpp[idx] = need | (cheaper << 5) | (pairs << 6) | (odd << 11)
        r = 0
        while r < 9 and d[r] == 0:
            r += 1
        if r == 9:
            tf[idx] = 0
            tg[idx] = 2
            continue
        f = INF
        g = 1 + tf[idx - _p5[r]]                      # pair: r and a wild
        if d[r] >= 2:
            g = _lo(g, tf[idx - 2 * _p5[r]])         # pair: two r
        for n in range(1, _lo(3, d[r]) + 1):          # pung: n real r and 3 - n wilds
            i2 = idx - n * _p5[r]
            f = _lo(f, 3 - n + tf[i2])
            g = _lo(g, 3 - n + tg[i2])
        for off in range(3):                          # sequences holding r; tiles below r are wilds
            start = r - off
            if start < 0 or start > 6:
                continue
            npos = start + 2 - r
            for a in range(1 << npos):                # each tile above r: real (bit set) or wild
                cost = off
                i2 = idx - _p5[r]
                ok = True
                for pos in range(npos):
                    t = r + 1 + pos
                    if (a >> pos) & 1:
                        if d[t] == 0:
                            ok = False
                            break
                        i2 -= _p5[t]
                    else:
                        cost += 1
                if ok:
                    f = _lo(f, cost + tf[i2])
                    g = _lo(g, cost + tg[i2])
        g = _lo(g, f + 2)
        tf[idx] = _lo(f, 255)
        tg[idx] = _lo(g, 255)
    _hf[0] = 0
    _hg[0] = 2
    for i in range(1, NH):
        f = INF
        g = 1 + _hf[i - 1]
        if i >= 2:
            g = _lo(g, _hf[i - 2])
        for n in range(1, _lo(3, i) + 1):
            f = _lo(f, 3 - n + _hf[i - n])
            g = _lo(g, 3 - n + _hg[i - n])
        _hf[i] = f
        _hg[i] = _lo(g, f + 2)
    for idx in range(N5):
        tfg[idx] = tf[idx] | (tg[idx] << 8)
    free(tf)
    free(tg)
    if _derive_tables() != 0:   # before the tables count as built (_tfg), so a failure leaves none half made
        free(tfg)
        free(tpp)
        return -1
    _tfg, _tpp = tfg, tpp
    return 0


cdef int _hon_shapes(int idx, int cand) noexcept nogil:
    """_hon's bits 48-63 for honour counts idx (kind 27 + r's count times 5 ** r), all candidates of the wild
    (cand) or none: _pungs_exist's terms -- bit 0 they cannot be pungs and at most one pair, bits 1-4 the
    wilds making them so, bits 5-7 the least gp - fp + 1 (7: none; 6: a kind must be the pair) -- and
    _pairs_exist's -- bit 8 a kind no wild stands for
    is held an odd number of times, bits 9-12 the pairs, bits 13-15 the kinds held an odd number of times."""
    cdef int r, c, fp, gp, need = 0, ext = INF, groups = 0, odd = 0, forced = 0
    cdef bint pfail = False, qfail = False
    for r in range(7):
        c = idx % 5
        idx //= 5
        fp = _PUNG_FP[c] if cand else _PUNG_FP_FIXED[c]
        gp = _PUNG_GP[c] if cand else _PUNG_GP_FIXED[c]
        if fp >= INF:      # no pungs alone: the pair must be here (_pungs_exist)
            pfail |= gp >= INF
            forced += 1
            need += gp
        else:
            need += fp
            if gp < INF:
                ext = _lo(ext, gp - fp)
        groups += c // 2
        if c % 2:
            qfail |= not cand
            odd += 1
    if pfail or forced > 1:
        pfail, need, ext = True, 0, INF
    return (pfail | (need << 1) | ((6 if forced else 7 if ext >= INF else ext + 1) << 5) | (qfail << 8)
            | (groups << 9) | (odd << 13))


cdef int _derive_tables() noexcept nogil:
    """The tables made from the stored ones (after building or installing them); -1 without memory."""
    global _hon
    cdef int v, idx, r, c, f, g, e, tot, low, delta
    cdef unsigned long long* hon
    if _hon != NULL:
        return 0
    hon = <unsigned long long*>malloc(2 * N7 * sizeof(unsigned long long))
    if hon == NULL:
        return -1
    for v in range(NH):
        _hfg[1][v] = _hf[v] | (_hg[v] << 16)
        _hfg[0][v] = (INF if _hf[v] else 0) | ((INF if _hg[v] else 0) << 16)
    for c in range(2):
        for idx in range(N7):
            tot = low = 0
            delta = INF
            v = idx
            for r in range(7):
                e = _hfg[c][v % 5]
                v //= 5
                f = e & 0xFFFF
                g = e >> 16
                tot += f
                low += _lo(f, g)
                delta = _lo(delta, g - f)
            hon[c * N7 + idx] = <unsigned long long>tot | (<unsigned long long>low << 16) \
                | (<unsigned long long>(delta + INF) << 32) | (<unsigned long long>_hon_shapes(idx, c) << 48)
    _hon = hon
    return 0


TABLES_FORMAT = b"mjrules-tables-2"


def tables_blob() -> bytes:
    """The shape tables as bytes (the two suit tables, then the honour tables), for a cache file."""
    _ensure_tables()
    return (<char*>_tfg)[:N5 * sizeof(unsigned short)] + (<char*>_tpp)[:N5 * sizeof(unsigned short)] \
        + (<char*>_hf)[:NH * sizeof(int)] + (<char*>_hg)[:NH * sizeof(int)] + (<char*>_p5)[:10 * sizeof(int)]


def derived_tables_bytes() -> int:
    """The bytes of the tables worked out at load from tables_blob()'s (not in the cache file): the honour
    kinds' 5^7 table (_hon) and the per-kind honour entries (_hfg)."""
    return 2 * N7 * sizeof(unsigned long long) + sizeof(_hfg)


def install_tables(const unsigned char[::1] blob) -> bool:
    """Use tables_blob() bytes (checked by the caller) instead of building the tables; False if already built
    or the size is wrong."""
    global _tfg, _tpp
    cdef Py_ssize_t n = N5 * sizeof(unsigned short)
    cdef unsigned short* tfg
    cdef unsigned short* tpp
    if _tfg != NULL or blob.shape[0] != 2 * n + <Py_ssize_t>((2 * NH + 10) * sizeof(int)):
        return False
    tfg = <unsigned short*>malloc(n)
    tpp = <unsigned short*>malloc(n)
    if tfg == NULL or tpp == NULL:
        free(tfg)
        free(tpp)
        raise MemoryError()
    memcpy(tfg, &blob[0], n)
    memcpy(tpp, &blob[n], n)
    memcpy(_hf, &blob[2 * n], NH * sizeof(int))
    memcpy(_hg, &blob[2 * n + NH * sizeof(int)], NH * sizeof(int))
    memcpy(_p5, &blob[2 * n + 2 * NH * sizeof(int)], 10 * sizeof(int))
    if _derive_tables() != 0:   # as in _build_tables
        free(tfg)
        free(tpp)
        raise MemoryError()
    _tfg, _tpp = tfg, tpp
    return True


cdef int _ensure_tables() except -1:
    if _tfg == NULL and _build_tables() != 0:
        raise MemoryError("mjrules.native.kernel: no memory for the shape tables")
    return 0


cdef inline int _suit_idx(int* c, int* tiles) noexcept nogil:
    """The table index of a suit's nine counts (rank r's count times 5 ** r), adding them to *tiles; -1 when a
    count exceeds 4."""
    cdef int r, v, idx = 0
    cdef bint big = False
    for r in range(8, -1, -1):
        v = c[r]
        big |= v > 4
        tiles[0] += v
        idx = idx * 5 + v
    return -1 if big else idx


cdef inline int _suit_at(Ctx* x, int u, int idx, int* g) noexcept nogil:
    """_unit for suit u (0..2) whose counts (each 0..4) have table index idx (rank r's count times 5 ** r)."""
    cdef unsigned short e = _tfg[idx]
    cdef int f = e & 0xFF
    g[0] = e >> 8
    if (f or g[0]) and ((x.f.cand >> (9 * u)) & 0x1FF) == 0:
        if f:
            f = INF
        if g[0]:
            g[0] = INF
    return f


cdef inline int _unit(Ctx* x, int* c, int u, int* g) noexcept nogil:
    """Unit u (suits 0..2, then the honour kinds 27..33 as units 3..9) of counts c: the fewest wilds that
    make it sets (returned) and sets plus one pair (*g), INF where its kinds are no candidates of the wild,
    0 and 0 (a lower bound) where a count exceeds the tables."""
    cdef int v, idx, f, tiles = 0
    if u < 3:
        idx = _suit_idx(c + 9 * u, &tiles)
        if idx < 0:
            g[0] = 0
            return 0
        return _suit_at(x, u, idx, g)
    v = c[24 + u]
    if v >= NH:
        g[0] = 0
        return 0
    f = _hf[v]
    g[0] = _hg[v]
    if not (x.f.cand >> (24 + u)) & 1:
        if f:
            f = INF
        if g[0]:
            g[0] = INF
    return f


cdef inline bint _combine(Ctx* x, int total, int delta, int tiles, int j, int sets, int pairs) noexcept nogil:
    """_feasible's verdict from the units' sum of f and least g - f."""
    if tiles + j != 3 * sets + 2 * pairs:
        return False
    if pairs:
        if x.f.ncand:
            delta = _lo(delta, 2)
        total += delta
    return not (total > j or (total < j and x.f.ncand == 0))


cdef struct Units:
    # one count vector's table indices, worked out once for _feasible_u, _pungs_exist and _pairs_exist, a unit
    # at a time (a hand _feasible_u refuses at its first suit needs no more)
    const int* c     # the counts
    int n            # the units filled so far: 0-2 suits, then 3 the honour kinds
    int idx[3]       # each suit's index in the suit tables (rank r's count times 5 ** r), -1: a count over 4
    int hidx         # the honour kinds' index in _hon (kind 27 + r's count times 5 ** r), -1: a count over 4
    int tiles        # the tiles of the units filled (all of c's tiles from the start where b is set)
    bint small       # every count is at most 4: an index is only range-tested (Ctx.small, for a hand's counts)
    const unsigned char* b   # NULL, or the same counts as bytes, at most 4 each (_units_bytes)
    int wu, wsub     # with b: the unit whose index drops by wsub (the wild kind's tiles, which c has not)
    int odd          # the kinds c holds an odd number of times, -1: not known


cdef inline void _units(const int* c, Units* U, bint small=False) noexcept nogil:
    """Start U on counts c, no unit filled; small: c are a hand's counts in a Ctx.small context (each at most
    its kind's copies, so at most 4)."""
    U.c = c
    U.n = 0
    U.tiles = 0
    U.small = small
    U.b = NULL
    U.odd = -1


cdef inline void _units_bytes(const int* c, Units* U, const unsigned char* b, int tiles, int w, int v
                              ) noexcept nogil:
    """Start U on counts c that are the bytes b (each at most 4) but for kind w (-1: none), which c has as 0
    and b as v; tiles: c's sum. The units are then filled from the bytes (mj_idx9: fewer instructions)."""
    _units(c, U, True)
    if not MJ_SWAR:
        return
    U.b = b
    U.tiles = tiles
    U.wu = -1 if w < 0 or not v else (w // 9 if w < 27 else 3)
    U.wsub = 0 if U.wu < 0 else v * _p5[w % 9 if w < 27 else w - 27]


cdef struct Plus:
    # a hand's units as _feasible sees them, for the standard shape's verdict on the hand with one tile more
    # (wait_kinds, var_waits_all): a real tile drawn changes only its own unit
    int F[10]           # per unit: the fewest wilds that make it sets, and sets plus one pair (_unit)
    int G[10]
    int total           # the sum of F
    int lo1, lo2, lo1u  # the least and second least G - F over the units, and the unit of the least
    int tiles           # the hand's tiles


cdef void _plus_init(Ctx* x, Plus* P, const Units* U) noexcept nogil:
    """P for U's counts (every unit filled, _units_all)."""
    cdef int u, d
    P.total, P.tiles = 0, U.tiles
    P.lo1 = P.lo2 = INF
    P.lo1u = -1
    for u in range(10):
        if u >= 3:
            P.F[u] = _unit(x, <int*>U.c, u, &P.G[u])
        elif U.idx[u] >= 0:
            P.F[u] = _suit_at(x, u, U.idx[u], &P.G[u])
        else:         # a count over 4: a lower bound, as _unit gives
            P.F[u] = P.G[u] = 0
        P.total += P.F[u]
        d = P.G[u] - P.F[u]
        if d < P.lo1:
            P.lo2, P.lo1, P.lo1u = P.lo1, d, u
        elif d < P.lo2:
            P.lo2 = d


cdef inline bint _plus_std(Ctx* x, const Plus* P, const Units* U, int* plus, int k, int j, int sets
                           ) noexcept nogil:
    """_feasible(x, plus, j, sets, 1), where plus are U's counts with one tile of kind k added (k < 0: none,
    a wild more, which j counts): only k's unit is looked up again."""
    cdef int ku, f, g
    if k < 0:
        return _combine(x, P.total, P.lo1, P.tiles, j, sets, 1)
    ku = k // 9 if k < 27 else k - 24
    if ku < 3 and U.idx[ku] >= 0 and plus[k] <= 4:
        f = _suit_at(x, ku, U.idx[ku] + _p5[k - 9 * ku], &g)
    else:
        f = _unit(x, plus, ku, &g)
    return _combine(x, P.total - P.F[ku] + f, _lo(g - f, P.lo2 if ku == P.lo1u else P.lo1), P.tiles + 1, j,
                    sets, 1)


cdef inline unsigned int _plus_skip(const Plus* P, int jokers) noexcept nogil:
    """The units (bits 0..9) where no real tile drawn can make the standard shape: a tile drawn into unit u changes
    only u's f and g, so the verdict needs at least total - F[u] + min(0, the other units' least g - f) wilds (f, g
    >= 0); where that exceeds the wilds held, every kind of u fails it."""
    cdef unsigned int skip = 0
    cdef int u
    for u in range(10):
        if P.total - P.F[u] + _lo(0, P.lo2 if u == P.lo1u else P.lo1) > jokers:
            skip |= 1u << u
    return skip


cdef void _unit_fill_int(Units* U) noexcept nogil:
    """_unit_fill from the int counts: straight-line (the rank weights are constants, independent sums)."""
    cdef int big
    cdef const int* s
    cdef unsigned int idx
    if U.n < 3:
        s = U.c + 9 * U.n
        U.tiles += s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7] + s[8]
        idx = (s[0] + 5 * s[1] + 25 * s[2] + 125 * s[3] + 625 * s[4]) + 3125 * (s[5] + 5 * s[6] + 25 * s[7]
                                                                             + 125 * s[8])
        if U.small:   # counts 0..4 by the context; the range test keeps a broken promise from reading astray
            U.idx[U.n] = <int>idx if idx < N5 else -1
        else:
            big = ((s[0] + 3) | (s[1] + 3) | (s[2] + 3) | (s[3] + 3) | (s[4] + 3) | (s[5] + 3) | (s[6] + 3)
                   | (s[7] + 3) | (s[8] + 3))     # bit 3 or above set: some count exceeds 4 (counts are >= 0)
            U.idx[U.n] = -1 if big & ~7 else <int>idx
    else:
        s = U.c + 27
        U.tiles += s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6]
        idx = (s[0] + 5 * s[1] + 25 * s[2] + 125 * s[3]) + 625 * (s[4] + 5 * s[5] + 25 * s[6])
        if U.small:
            U.hidx = <int>idx if idx < N7 else -1
        else:
            big = (s[0] + 3) | (s[1] + 3) | (s[2] + 3) | (s[3] + 3) | (s[4] + 3) | (s[5] + 3) | (s[6] + 3)
            U.hidx = -1 if big & ~7 else <int>idx
    U.n += 1


cdef inline void _unit_fill(Units* U) noexcept nogil:
    """Fill U's next unit (from the bytes where U has them, else from the int counts)."""
    if U.b == NULL:
        _unit_fill_int(U)
    elif U.n < 3:
        U.idx[U.n] = <int>mj_idx9(U.b + 9 * U.n) - (U.wsub if U.n == U.wu else 0)
        U.n += 1
    else:
        U.hidx = <int>mj_idx7(U.b + 27) - (U.wsub if U.wu == 3 else 0)
        U.n += 1


cdef inline void _units_all(Units* U) noexcept nogil:
    while U.n < 4:
        _unit_fill(U)


cdef inline Units* _units_plus(const Units* U, Units* V, int k, int w, int odd, Ctx* x) noexcept nogil:
    """For _decide on x.f.real, which are U's counts (all filled) with one tile of kind k added (none when k
    is the wild kind w: a wild is not counted): V made their units without a rescan; odd: the kinds held an
    odd number of times. NULL (_decide fills its own as it needs them) without wilds, where _decide's verdict
    most often comes from the tables' answer the caller passes, and the copy would cost more than it saves."""
    cdef int u
    cdef const int* c = x.f.real
    if not x.f.jokers:
        return NULL
    V[0] = U[0]
    V.b = NULL   # (U's bytes lack the tile drawn; every unit of V is filled, so none is read from them)
    V.odd = odd
    if k != w:
        V.tiles += 1
        if k < 27:
            u = k // 9
            V.idx[u] = U.idx[u] + _p5[k - 9 * u] if U.idx[u] >= 0 and c[k] <= 4 else -1
        else:
            V.hidx = U.hidx + _p5[k - 27] if U.hidx >= 0 and c[k] <= 4 else -1
    return V


cdef inline int _hon_of(Ctx* x, Units* U) noexcept nogil:
    """The offset of U's honour entry in _hon for these facts' candidates, -1 when it is not tabled (a count
    over 4, or some honour kinds candidates of the wild and others not)."""
    cdef unsigned long long hc = (x.f.cand >> 27) & 0x7F
    if U.hidx < 0 or (hc != 0 and hc != 0x7F):
        return -1
    return U.hidx + (N7 if hc else 0)


cdef inline int _unit_0(int f, int g, int pairs, int* state) noexcept nogil:
    """_feasible_0's step for one unit whose tiles need f wilds to make sets and g to make sets and a pair
    (only whether they are 0 matters). state: bit 0 some unit takes the pair at no cost, bit 1 a unit that
    makes no sets alone is already that unit. 0 when the hand cannot be sets and pairs any more."""
    if f:                                       # this unit can only be the pair's
        if g or not pairs or state[0] & 2:
            return 0
        state[0] |= 3
    elif not g:
        state[0] |= 1
    return 1


cdef bint _feasible_0(Units* U, int sets, int pairs) noexcept nogil:
    """_feasible_u without wilds: every unit makes sets on its own (f 0) but for at most one, which makes sets
    and the pair (g 0); with a pair, some unit makes it at no cost. Only whether f and g are 0 matters, so
    which kinds are candidates of the wild does not (it turns a nonzero f or g into INF)."""
    cdef int u, k, v, tot, md
    cdef int state = 0 if pairs else 1         # _unit_0's
    cdef unsigned short t
    cdef unsigned long long e
    for u in range(3):
        if U.n == u:
            _unit_fill(U)
        if U.idx[u] < 0:                           # a count over 4: a lower bound, as in _feasible_u
            state |= 1
            continue
        t = _tfg[U.idx[u]]
        if not _unit_0(t & 0xFF, t >> 8, pairs, &state):
            return False
    if U.n == 3:
        _unit_fill(U)
    if U.hidx >= 0:             # the non-candidates' entry: each honour unit's f and g are 0 or INF
        e = _hon[U.hidx]
        tot = e & 0xFFFF                        # the sum of f
        md = <int>((e >> 32) & 0xFFFF) - INF    # the least g - f
        if tot:                 # one honour unit takes the pair (tot + md is then its g plus the others' f)
            if tot + md != 0 or not pairs or state & 2:
                return False
            state |= 3
        elif md == 0:
            state |= 1
    else:
        for k in range(27, NK):
            v = U.c[k]
            if v >= NH:
                state |= 1
            elif not _unit_0(_hf[v], _hg[v], pairs, &state):
                return False
    return state & 1 and U.tiles == 3 * sets + 2 * pairs


cdef bint _feasible_u(Ctx* x, Units* U, int j, int sets, int pairs) noexcept nogil:
    """_feasible on the counts U was made from."""
    cdef int u, k, v, f, g, h, total = 0, delta = INF
    cdef int low = 0      # a lower bound on the wilds needed so far: the sum of f, or of min(f, g) with a pair
    cdef unsigned long long e
    if j == 0:
        return _feasible_0(U, sets, pairs)
    for u in range(3):
        if U.n == u:
            _unit_fill(U)
        if U.idx[u] < 0:
            f = g = 0
        else:
            f = _suit_at(x, u, U.idx[u], &g)
        total += f
        low += _lo(f, g) if pairs else f
        if low > j:
            return False
        delta = _lo(delta, g - f)
    if U.n == 3:
        _unit_fill(U)
    h = _hon_of(x, U)
    if h >= 0:                                     # the seven honour units from one entry
        e = _hon[h]
        total += e & 0xFFFF
        low += ((e >> 16) & 0xFFFF) if pairs else e & 0xFFFF
        delta = _lo(delta, <int>((e >> 32) & 0xFFFF) - INF)
    else:
        for k in range(27, NK):
            v = U.c[k]
            if v >= NH:
                f = g = 0
            else:
                e = _hfg[(x.f.cand >> k) & 1][v]
                f = e & 0xFFFF
                g = e >> 16
            total += f
            low += _lo(f, g) if pairs else f
            delta = _lo(delta, g - f)
    if low > j:
        return False
    return _combine(x, total, delta, U.tiles, j, sets, pairs)


cdef bint _feasible(Ctx* x, int* c, int j, int sets, int pairs) noexcept nogil:
    """Can counts c and j wilds still form `sets` sets and `pairs` pairs? Exact where a unit's kinds are all
    candidates of the wild; a lower bound on the wilds needed (so never a wrong 'no') elsewhere. The units
    as in _unit: the three suits, then the honour kinds (from _hon when their counts are tabled)."""
    cdef Units U
    _units(c, &U)
    return _feasible_u(x, &U, j, sets, pairs)


# ---- deduplication of standard readings (the reference keeps the first of equal group multisets) -----
cdef struct Dedup:
    unsigned int gen
    int cap
    int n
    int keycap
    unsigned int* stamp
    int* slot
    unsigned short* keys


cdef int _dedup_init(Dedup* d, int cap) noexcept nogil:
    d.gen = 1
    d.cap = cap
    d.n = 0
    d.keycap = cap // 2
    d.stamp = <unsigned int*>calloc(cap, sizeof(unsigned int))
    d.slot = <int*>calloc(cap, sizeof(int))
    d.keys = <unsigned short*>malloc(d.keycap * KEYW * sizeof(unsigned short))
    return 0 if d.stamp != NULL and d.slot != NULL and d.keys != NULL else -1


cdef void _dedup_free(Dedup* d) noexcept nogil:
    free(d.stamp)
    free(d.slot)
    free(d.keys)
    d.stamp = NULL
    d.slot = NULL
    d.keys = NULL


cdef void _dedup_reset(Dedup* d) noexcept nogil:
    d.n = 0
    d.gen += 1
    if d.gen == 0:
        memset(d.stamp, 0, d.cap * sizeof(unsigned int))
        d.gen = 1


cdef unsigned long long _key_hash(unsigned short* key) noexcept nogil:
    cdef unsigned long long h = 1469598103934665603ULL
    cdef int i
    for i in range(key[0] + 1):
        h = (h ^ key[i]) * 1099511628211ULL
    return h


cdef int _dedup_add(Dedup* d, Reading* rd) noexcept nogil:
    """1 if the reading's group multiset is new (and remember it), 0 if seen, -1 when out of memory."""
    cdef unsigned short key[KEYW]
    cdef unsigned short code
    cdef int i, j, n = rd.ngroups, slot, cap, old
    cdef unsigned long long h
    cdef unsigned short* other
    cdef unsigned int* stamp
    cdef int* slots
    key[0] = n
    for i in range(n):
        code = (rd.groups[i].k0 << 5) | (rd.groups[i].kind << 3) | rd.groups[i].wild
        j = i
        while j > 0 and key[j] > code:
            key[j + 1] = key[j]
            j -= 1
        key[j + 1] = code
    if (d.n + 1) * 2 > d.cap:                         # grow and rehash
        cap = d.cap * 2
        stamp = <unsigned int*>calloc(cap, sizeof(unsigned int))
        slots = <int*>calloc(cap, sizeof(int))
        if stamp == NULL or slots == NULL:
            free(stamp)
            free(slots)
            return -1
        for i in range(d.n):
            h = _key_hash(d.keys + i * KEYW) & (cap - 1)
            while stamp[h] == d.gen:
                h = (h + 1) & (cap - 1)
            stamp[h] = d.gen
            slots[h] = i
        free(d.stamp)
        free(d.slot)
        d.stamp, d.slot, d.cap = stamp, slots, cap
    h = _key_hash(key) & (d.cap - 1)
    while d.stamp[h] == d.gen:
        other = d.keys + d.slot[h] * KEYW
        if other[0] == key[0] and memcmp_u16(other, key, n + 1):
            return 0
        h = (h + 1) & (d.cap - 1)
    if d.n == d.keycap:
        other = <unsigned short*>realloc(d.keys, 2 * d.keycap * KEYW * sizeof(unsigned short))
        if other == NULL:
            return -1
        d.keys = other
        d.keycap *= 2
    memcpy(d.keys + d.n * KEYW, key, (n + 1) * sizeof(unsigned short))
    d.stamp[h] = d.gen
    d.slot[h] = d.n
    d.n += 1
    return 1


cdef inline bint memcmp_u16(unsigned short* a, unsigned short* b, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if a[i] != b[i]:
            return False
    return True
