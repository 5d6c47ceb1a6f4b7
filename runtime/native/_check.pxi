# Included by kernel.pyx: the bare win check: count vectors in, verdicts out, no Python objects (per hand and in batches):
# wild codes and limits, the cheap refusals (may_fit, minimum bounds, forbids), and the sure shapes (pungs, pairs).
# ---- the bare win check: count vectors in, verdicts out, no Python objects (batch and per-hand) ---------
cdef enum:
    CHK_OK = 0
    CHK_COPIES = 1       # more tiles of a kind than the variant has (a kind it does not play has none)
    CHK_TOTAL = 2        # the tiles do not make a complete hand (or a pre-draw one)
    CHK_NOWILD = 3       # wilds in a variant without wilds
    CHK_WILDKIND = 4     # the wild kind is not a kind of this variant


cdef inline int _wc(int w, int w2) noexcept nogil:
    """The code of the wild kinds w and w2 (-1: none) as one int, as the bare check's contexts keep it: -1 none,
    w for one kind, w | (w2 + 1) << 6 for two."""
    return w if w < 0 or w2 < 0 else w | ((w2 + 1) << 6)


def wild_code(kinds) -> int:
    """The code (_wc) of a bare check's wild kinds: None, a kind index, or a pair of them."""
    if kinds is None:
        return -1
    if isinstance(kinds, tuple):
        return _wc(kinds[0], kinds[1]) if len(kinds) == 2 else kinds[0] if kinds else -1
    return kinds


def wild_kinds(int code):
    """The inverse of wild_code: None, a kind index, or a pair."""
    if code < 0:
        return None
    if code < 64:
        return code
    return (code & 63, (code >> 6) - 1)


cdef int _prep_check(Ctx* x, int w, unsigned long long playable, double win_by) noexcept nogil:
    """The facts every checked hand shares: concealed, no melds, self-drawn by the dealer, no winning tile
    named, wild kinds wc (_wc: -1 none, one kind, or a pair). CHK_OK, or CHK_WILDKIND * 64 when wc cannot be
    the wild kinds."""
    cdef Facts* f = &x.f
    memset(f, 0, sizeof(Facts))
    _count_free_clear(x)
    x.err = 0
    f.w = f.w2 = -1
    f.cand = ~0ULL   # no kind set matches it: _set_wild fills the candidates
    if _set_wild(x, w, playable, NULL):
        return CHK_WILDKIND * 64
    f.is_dealer = f.no_melds = f.dealer_won = True
    f.discarder = -1
    f.winners = 1
    f.win_by = win_by
    f.win_tile = -1
    f.waits_all = -1
    return CHK_OK


cdef int _set_wild(Ctx* x, int wc, unsigned long long playable, unsigned char* lim) noexcept nogil:
    """Switch facts that _prep_check made (and _limits' lim for them, unless NULL) to the wild kinds wc (see
    _wc), changing only what depends on them: the same facts as _prep_check(x, wc) and _limits would make,
    without clearing and refilling the rest. CHK_OK, or CHK_WILDKIND * 64 (nothing changed) when wc cannot be
    the wild kinds."""
    cdef Spec* sp = x.spec
    cdef Facts* f = &x.f
    cdef unsigned long long cand
    cdef int k
    cdef int w = wc if wc < 64 else wc & 63
    cdef int w2 = -1 if wc < 64 else (wc >> 6) - 1
    if w >= 0 and (w >= NK or not sp.has_wild or not (playable >> w) & 1):
        return CHK_WILDKIND * 64
    if w2 >= 0 and (w2 >= NK or w2 == w or not (playable >> w2) & 1):
        return CHK_WILDKIND * 64
    if (f.w >= 0) != (w >= 0):
        _count_free_clear(x)   # (wild_in_force, f.wild_on, changes)
    if f.w >= 0 and lim != NULL:
        lim[f.w] = <unsigned char>_lo(sp.copies[f.w], 255) if (playable >> f.w) & 1 else 0
    if f.w2 >= 0 and lim != NULL:
        lim[f.w2] = <unsigned char>_lo(sp.copies[f.w2], 255) if (playable >> f.w2) & 1 else 0
    f.w, f.w2 = w, w2
    f.wild_on = w >= 0
    cand = sp.stands
    if sp.face_value and w >= 0:
        cand |= 1ULL << w
        if w2 >= 0:
            cand |= 1ULL << w2
    if cand != f.cand:
        # the count-free tests read the facts but never the wild's kind itself (the generated three-valued code
        # has no term for it: tests/test_native.py::test_count_free_code_reads_no_wild_kind), so only new
        # candidates make them stale; where every kind is a candidate, a hand's new wild kind keeps them
        _count_free_clear(x)
        f.cand = cand
        f.ncand = 0
        for k in range(NK):
            if (cand >> k) & 1:
                f.cand_list[f.ncand] = k
                f.ncand += 1
    if w >= 0 and lim != NULL:
        lim[w] = 255
    if w2 >= 0 and lim != NULL:
        lim[w2] = 255
    return CHK_OK


cdef void _limits(Ctx* x, unsigned long long playable, unsigned char* lim) noexcept nogil:
    """lim[k]: the most tiles of kind k a checked hand may hold (0 for kinds it never holds); the wild
    kind's tiles are wilds, so they pass here and are counted in _load_row."""
    cdef int k
    for k in range(NK):
        lim[k] = <unsigned char>_lo(x.spec.copies[k], 255) if (playable >> k) & 1 else 0
    if x.f.w >= 0:
        lim[x.f.w] = 255
    if x.f.w2 >= 0:
        lim[x.f.w2] = 255


cdef inline int _live_first(int copies, int live) noexcept nogil:
    """The most wild tiles of a hand's first wild kind: `live` of its copies at most; live < 0: its copies less
    the one face up as the indicator (Wild.live_count)."""
    if live < 0:
        return copies - 1 if copies > 0 else 0
    return _lo(copies, live)


cdef inline int _live_second(int copies, int live) noexcept nogil:
    """Likewise for the second wild kind (never the face-up indicator's)."""
    return copies if live < 0 else _lo(copies, live)


cdef int _load_row(Ctx* x, const unsigned char* cnt, int jokers, int size, int live,
                   const unsigned char* lim, Units* U) noexcept nogil:
    """One hand's counts into facts _prep_check made: CHK_OK, or an error code * 64 + the kind at fault.
    Tiles of a wild kind count as wilds (jokers: those of the first kind besides); at most `live` of each kind.
    lim from _limits. U: NULL, or units to start on the loaded x.f.real for _decide (filled from the bytes where
    the context is small and there is one wild kind), its odd count set."""
    cdef Facts* f = &x.f
    cdef int k, v = 0, v2 = 0, total, w = f.w, w2 = f.w2, cap
    cdef int* real = f.real
    cdef int* base = f.base
    cdef int over, odd
    if jokers < 0:
        return CHK_TOTAL * 64
    total = mj_load34(cnt, lim, real, base, &over, &odd)   # NK == 34: the counts and their sums at once
    if over:
        for k in range(NK):
            if cnt[k] > lim[k]:
                return CHK_COPIES * 64 + k
    if w >= 0:
        v = real[w]
        jokers += v
        total -= v
        real[w] = base[w] = 0
        cap = _live_first(x.spec.copies[w], live)
        if w2 >= 0:
            v2 = real[w2]
            jokers += v2
            total -= v2
            real[w2] = base[w2] = 0
            cap += _live_second(x.spec.copies[w2], live)
        if jokers > cap:
            return CHK_COPIES * 64 + w
    elif jokers:
        return CHK_NOWILD * 64
    if jokers > MAXJ:
        return CHK_COPIES * 64 + 63
    if total + jokers != size:
        return CHK_TOTAL * 64
    f.jokers = jokers
    f.jw2 = v2
    f.waits_all = -1
    x.err = 0
    if U != NULL:
        if x.small and w2 < 0:   # each count at most 4 now the limits passed (the wild kind's are wilds)
            _units_bytes(real, U, cnt, total, w, v)
        else:
            _units(real, U, False)
        U.odd = odd - (v & 1) - (v2 & 1)   # (v, v2: the wild kinds' tiles, which real has not)
    return CHK_OK


cdef bint _table_exact(Ctx* x) noexcept nogil:
    """_feasible is exact for these facts: no wilds, or each suit's kinds are all candidates or none."""
    return x.f.jokers == 0 or _cover_exact(x)


cdef inline bint _cover_exact(Ctx* x) noexcept nogil:
    """Each suit's kinds are all candidates of the wild or none (_feasible is exact whatever the wilds)."""
    cdef int s, cover
    for s in range(3):
        cover = (x.f.cand >> (9 * s)) & 0x1FF
        if cover != 0 and cover != 0x1FF:
            return False
    return True


cdef inline int _odd_kinds(const int* real) noexcept nogil:
    """The kinds held an odd number of times (each takes a wild in the pairs shape)."""
    cdef int k, odd = 0
    for k in range(NK):
        odd += real[k] & 1
    return odd


cdef bint _may_fit(Ctx* x, int sets, int std, int odd=-1, bint knit=True) noexcept nogil:
    """False when no pattern can have a reading: the standard shape is infeasible by the tables, the pairs
    shape is ruled out (melds, or more odd counts than wilds), and every free pattern's three-valued test
    is already false. sets: the sets the concealed tiles must make; std: the standard shape's feasibility
    and odd: the number of kinds held an odd number of times, when known, else -1; knit: False where the
    caller knows the knitted shape cannot take the tiles (_knit_near)."""
    cdef Spec* sp = x.spec
    if x.has_std and sets >= 0:
        if std < 0:
            std = _feasible(x, x.f.real, x.f.jokers, sets, 1)
        if std:
            return True
    if x.has_pairs and not x.f.nmelds and sp.win_size % 2 == 0:   # pairs take every tile: no meld
        if odd < 0:
            odd = _odd_kinds(x.f.real)
        if odd <= x.f.jokers:
            return True
    if knit and x.has_knit and _knit_fits(x, sets):
        return True
    return _any_viable(x, x.free_pats, x.nfree)


cdef inline bint _any_viable(Ctx* x, int* pats, int n) noexcept nogil:
    """Some free pattern of pats[:n] may hold on x.f.base: its three-valued test is not false, or it could not be
    made natively (x.err), and then the caller must try the pattern itself."""
    cdef int i
    for i in range(n):
        if x.spec.viable(x, x.f.base, pats[i]) != 0 or x.err:
            return True
    return False


cdef int _viable_pats(Ctx* x, const int* pats, int n, int* out) noexcept nogil:
    """The free patterns of pats[:n] that may hold on x.f.base, as _any_viable judges each (its error reset
    before it), into out; returns how many."""
    cdef int i, m = 0
    for i in range(n):
        x.err = 0
        if x.spec.viable(x, x.f.base, pats[i]) != 0 or x.err:
            out[m] = pats[i]
            m += 1
    return m


cdef inline signed char _forbids(Ctx* x, int p) noexcept nogil:
    """The forbids on these facts alone (and the reading's pattern p, or -1): 0 none can hold, 2 one holds
    whatever the reading, 1 unknown (also when the test cannot be made natively). In a check context the test
    with the counts unknown is remembered per wilds held and p (as _minimum_bound's), and decides where it can:
    a forbid that reads only how the hand is won, say. (Inline for its common answers; _forbids_ask asks.)"""
    cdef signed char* m = NULL
    if x.spec.nforbid == 0:
        return 0
    if x.count_free and 0 <= x.f.jokers <= MAXJ and -1 <= p < x.spec.npat:
        m = &x.fcu[x.f.jokers * (x.spec.npat + 1) + p + 1]
        if m[0] == 0 or m[0] == 2:
            return m[0]
    return _forbids_ask(x, p, m)


cdef signed char _forbids_ask(Ctx* x, int p, signed char* m) noexcept nogil:
    """_forbids where its memo m (NULL outside a check context) does not decide: the count-free test first
    (once), then the test on the counts."""
    cdef signed char r
    if m != NULL:
        if m[0] == 3:
            m[0] = x.spec.forbid_ctx(x, NULL, p)
            if x.err:
                x.err = 0
                m[0] = 1
        if m[0] != 1:
            return m[0]
    x.c_exact = x.f.jokers == 0   # no wild to place: x.f.base are every reading's counts
    r = x.spec.forbid_ctx(x, x.f.base, p)
    x.c_exact = False
    if x.err:
        x.err = 0
        return 1
    return r


cdef inline bint _forbidden(Ctx* x) noexcept nogil:
    """Some forbid holds on these facts whatever the reading: no reading is legal."""
    return _forbids(x, -1) == 2


cdef inline bint _minimum_bound(Ctx* x, int p, bint fails) noexcept nogil:
    """_minimum_bound_ask, inline where the spec has no minimum (every reading meets them all, none fails one)."""
    if x.spec.nminimum == 0:
        return not fails
    return _minimum_bound_ask(x, p, fails)


cdef bint _minimum_bound_ask(Ctx* x, int p, bint fails) noexcept nogil:
    """On these facts alone (the generated `ms`: bounds of the value over the readings): every reading of
    pattern p meets every minimum, or (fails) every one fails a minimum. False whenever it cannot tell.

    In a check context (count_free: only the counts and the wilds held change between hands) the test is first
    asked with the counts unknown, once per wilds held and pattern until the facts change (_count_free_clear):
    where it holds whatever the counts, it holds for these (a pattern whose every table cell reaches the minimum), and
    the bounds are not worked out again for each hand or kind drawn. On the counts, `ms` answers both questions
    at once, and the answer is kept for the pattern until the next _reset_memo (the facts stand still between
    two: a verdict asks whether every reading meets the minimums, then whether every one fails, on the same
    facts). The spec has a minimum (_minimum_bound)."""
    cdef signed char* m
    if not fails and x.count_free and 0 <= x.f.jokers <= MAXJ and 0 <= p < x.spec.npat:
        m = &x.msu[x.f.jokers * (x.spec.npat + 1) + p]
        if m[0] == 2:
            m[0] = x.spec.min_sure(x, NULL, p) & MS_MEETS
            if x.err:
                x.err = 0
                m[0] = 0
        if m[0] == 1:
            return True
    if not 0 <= p < x.spec.npat:
        return False
    m = &x.msc[p]
    if m[0] < 0:
        m[0] = x.spec.min_sure(x, x.f.base, p)
        if x.err:
            x.err = 0
            m[0] = 0
        x.ms_dirty = True
    return (m[0] & (MS_FAILS if fails else MS_MEETS)) != 0


# _pungs_exist's wilds per kind held c = 0..4 times: to make its tiles pungs (FP), or pungs and the pair (GP);
# _FIXED for a kind no wild may stand for. FP: c % 3 short of a pung; GP: the cheaper of one real tile and a
# wild as the pair (1 + FP[c - 1]) or two real tiles (FP[c - 2]); two wilds when none is held.
cdef int _PUNG_FP[5]
cdef int _PUNG_GP[5]
cdef int _PUNG_FP_FIXED[5]
cdef int _PUNG_GP_FIXED[5]
_PUNG_FP[:] = [0, 2, 1, 0, 2]
_PUNG_GP[:] = [2, 1, 0, 2, 1]
_PUNG_FP_FIXED[:] = [0, INF, INF, 0, INF]
_PUNG_GP_FIXED[:] = [INF, INF, 0, INF, INF]


cdef inline bint _pung_kinds(Ctx* x, int k0, int k1, int* need, int* extra, int* forced) noexcept nogil:
    """_pungs_exist's terms for kinds k0..k1-1 one by one, added to *need, *extra and *forced; False when one
    of them can be neither pungs nor the pair."""
    cdef int k, c, fp, gp
    for k in range(k0, k1):
        c = x.f.real[k]
        if c > 4:
            return False
        if (x.f.cand >> k) & 1:
            fp, gp = _PUNG_FP[c], _PUNG_GP[c]
        else:
            fp, gp = _PUNG_FP_FIXED[c], _PUNG_GP_FIXED[c]
        if fp >= INF:
            if gp >= INF:
                return False
            forced[0] += 1
            need[0] += gp
        else:
            need[0] += fp
            if gp < INF:
                extra[0] = _lo(extra[0], gp - fp)
    return True


cdef inline bint _pung_unit(Ctx* x, Units* U, int u, int* need, int* extra, int* forced) noexcept nogil:
    """_pungs_exist's terms for unit u (0-2 a suit, a suit whose kinds are all candidates from _tpp; 3 the
    honours, from one _hon entry where it is tabled), added to *need, *extra and *forced; False when one of its
    kinds can be neither pungs nor the pair. U's unit u is filled."""
    cdef int k0, h, ht
    cdef unsigned short e
    if u < 3:
        k0 = 9 * u
        if ((x.f.cand >> k0) & 0x1FF) != 0x1FF:
            return _pung_kinds(x, k0, k0 + 9, need, extra, forced)
        if U.idx[u] < 0:
            return False
        e = _tpp[U.idx[u]]
        need[0] += e & 31
        extra[0] = _lo(extra[0], -1 if e & 32 else 2)
        return True
    h = _hon_of(x, U)
    if h < 0:
        return _pung_kinds(x, 27, NK, need, extra, forced)
    ht = <int>(_hon[h] >> 48)   # (_hon_shapes)
    if ht & 1:
        return False
    need[0] += (ht >> 1) & 15
    if (ht >> 5) & 7 == 6:
        forced[0] += 1
    elif (ht >> 5) & 7 != 7:
        extra[0] = _lo(extra[0], ((ht >> 5) & 7) - 1)
    return True


cdef inline bint _pungs_fit(Ctx* x, int need, int extra, int forced) noexcept nogil:
    """_pungs_exist's verdict on its terms summed over the units."""
    if forced > 1 or (not forced and extra >= INF):
        return False
    if not forced:
        need += extra
    return need <= x.f.jokers and (need == x.f.jokers or x.f.ncand > 0)


cdef inline bint _every_kind_cand(Ctx* x) noexcept nogil:
    """Does a wild stand for every kind (the suit and honour tables' terms hold for each unit)?"""
    return x.f.cand == (<unsigned long long>1 << NK) - 1


cdef bint _pungs_exist(Ctx* x, Units* U, int sets) noexcept nogil:
    """Does the standard shape have a reading without a sequence (`sets` pungs and a pair, each of one kind)?
    Exactly what _enum_standard with pungs finds: a wild stands for a candidate kind only, wilds left over make
    pungs or the pair of any candidate. Per kind, the fewest wilds to make its tiles pungs (fp) or pungs and
    the pair (gp); the pair goes where it costs least, or is two wilds, or where it must (a kind no wild
    stands for, held twice). U: the units of x.f.real."""
    cdef int need = 0, extra = INF, u, n, t, c
    cdef int forced = 0   # kinds that cannot be pungs but can be the pair: the pair must be there
    if U.b == NULL:       # (the tiles are known from the start where the units come from bytes)
        _units_all(U)
    if U.tiles + x.f.jokers != 3 * sets + 2 or sets + 1 > MAXG:
        return False
    if U.b != NULL:
        # the terms of every kind from the bytes at once (the wild kind's tiles are wilds, which b holds: that
        # kind holds none, no term); n: the kinds held 1, 2 or 4 times
        t = mj_pung_terms(U.b)
        need, n = t & 0xFF, t >> 8
        if x.f.w >= 0:
            c = U.b[x.f.w]
            need -= _PUNG_FP[c]
            n -= c == 1 or c == 2 or c == 4
        if x.f.w2 >= 0:
            c = U.b[x.f.w2]
            need -= _PUNG_FP[c]
            n -= c == 1 or c == 2 or c == 4
        if _every_kind_cand(x):   # exactly the units' table terms summed: no unit is looked up
            return _pungs_fit(x, need, -1 if n else 2, 0)
        # each of those n kinds takes a wild at least (fp and gp >= 1, or no reading), but for one held twice,
        # the pair: most hands need too many before a unit is looked up
        if n - 1 > x.f.jokers:
            return False
        need = 0
    for u in range(4):    # a unit at a time: most hands need too many wilds after the first suit
        if U.n == u:
            _unit_fill(U)
        if not _pung_unit(x, U, u, &need, &extra, &forced):
            return False
        if need - 1 > x.f.jokers or forced > 1:   # (the pair saves one wild at most: extra >= -1)
            return False
    return _pungs_fit(x, need, extra, forced)


cdef inline bint _pair_kinds(Ctx* x, int k0, int k1, int* groups, int* odd) noexcept nogil:
    """_pairs_exist's terms for kinds k0..k1-1 one by one, added to *groups and *odd; False when one no wild
    stands for is held an odd number of times."""
    cdef int k, c
    for k in range(k0, k1):
        c = x.f.real[k]
        groups[0] += c // 2
        if c % 2:
            if not (x.f.cand >> k) & 1:
                return False
            odd[0] += 1
    return True


cdef inline bint _pair_unit(Ctx* x, Units* U, int u, int* groups, int* odd) noexcept nogil:
    """_pairs_exist's terms for unit u (as _pung_unit's), added to *groups and *odd; False when one of its kinds no
    wild stands for is held an odd number of times. U's unit u is filled."""
    cdef int k0, h, ht
    cdef unsigned short e
    if u < 3:
        k0 = 9 * u
        if ((x.f.cand >> k0) & 0x1FF) != 0x1FF or U.idx[u] < 0:
            return _pair_kinds(x, k0, k0 + 9, groups, odd)
        e = _tpp[U.idx[u]]
        groups[0] += (e >> 6) & 31
        odd[0] += (e >> 11) & 15
        return True
    h = _hon_of(x, U)
    if h < 0:
        return _pair_kinds(x, 27, NK, groups, odd)
    ht = <int>(_hon[h] >> 48)
    if (ht >> 8) & 1:
        return False
    groups[0] += (ht >> 9) & 15
    odd[0] += (ht >> 13) & 7
    return True


cdef inline bint _pairs_fit(Ctx* x, int groups, int odd, int n) noexcept nogil:
    """_pairs_exist's verdict on its terms summed over the units."""
    cdef int left = x.f.jokers - odd
    return left >= 0 and left % 2 == 0 and groups + odd + left // 2 == n and (left == 0 or x.f.ncand > 0)


cdef bint _pairs_exist(Ctx* x, Units* U, int n) noexcept nogil:
    """Does the pairs shape have a reading (n pairs)? Exactly what _enum_pairs finds: four alike are two pairs,
    a kind held an odd number of times takes a wild (a candidate kind only), wilds left over pair up as any
    candidate. U: the units of x.f.real."""
    cdef int groups = 0, odd = 0, u
    if x.f.nmelds or n > MAXG or U.odd > x.f.jokers:   # (each kind held an odd number of times takes a wild)
        return False
    if U.b != NULL and U.odd >= 0 and _every_kind_cand(x):
        # the units' table terms summed, from U's sums: the pairs are (tiles - odd) / 2 (U.tiles: every tile,
        # where the units come from bytes)
        return _pairs_fit(x, (U.tiles - U.odd) // 2, U.odd, n)
    _units_all(U)
    for u in range(4):
        if not _pair_unit(x, U, u, &groups, &odd):
            return False
    return _pairs_fit(x, groups, odd, n)


cdef inline int _sure_shapes(Ctx* x, int sets) noexcept nogil:
    """The shapes (SHAPE_PUNGS: the standard shape's readings without a sequence; SHAPE_PAIRS: the pairs shape)
    of the patterns _shape_settles settles on the shape alone whatever the counts, on these facts but the counts
    (a check context's count-free tests): a standard pattern whose condition is no_sequences alone, or a pairs
    pattern whose condition reads nothing of the reading and holds, where no forbid can hold and every reading
    meets every minimum with the counts unknown. A hand (of these facts, any counts) with a reading of such a
    shape is won: wait_kinds asks the shapes alone for each real kind drawn. SHAPE_SURE_FREE: a free pattern
    whose condition reads nothing of the reading and holds (the wilds having a kind to stand for, so it has a
    reading), its minimums met likewise: every hand of these facts is won. 0 outside a check context or
    without wilds (without, the tables' standard verdict settles first)."""
    if not x.count_free or not 0 < x.f.jokers <= MAXJ:
        return 0
    if x.ssu[x.f.jokers] >= 0:   # (count-free: asked once per wilds held until the facts change; an answer is
        return x.ssu[x.f.jokers] # only recorded past the tests below, which read none of what changes meanwhile)
    if x.f.nmelds or x.spec.npat > MAXPAT:
        return 0
    x.ssu[x.f.jokers] = _sure_shapes_ask(x, sets)
    return x.ssu[x.f.jokers]


cdef int _sure_shapes_ask(Ctx* x, int sets) noexcept nogil:
    """_sure_shapes' answer worked out (its caller has tested the context)."""
    cdef Spec* sp = x.spec
    cdef int p, out = 0
    cdef signed char* m
    if sp.nforbid:
        m = &x.fcu[x.f.jokers * (sp.npat + 1)]   # (the forbids on no pattern: p = -1)
        if m[0] == 3:
            m[0] = sp.forbid_ctx(x, NULL, -1)
            if x.err:
                x.err = 0
                m[0] = 1
        if m[0] != 0:
            return 0
    for p in range(sp.npat):
        # (a condition that reads nothing of the reading reads only these facts and the wilds held: asked once)
        if not ((sp.shapes[p] == SH_STANDARD and sp.pung_only[p] == 2 and 0 <= sets < MAXG and not x.f.meld_seq) or
                (sp.shapes[p] == SH_PAIRS and sp.blind[p] & 1 and sp.win_size % 2 == 0 and sp.win_size // 2 <= MAXG
                 and _blind_holds(x, p)) or
                (sp.shapes[p] == SH_FREE and sp.blind[p] & 1 and x.f.ncand > 0 and _blind_holds(x, p))):
            continue
        if sp.nminimum:
            m = &x.msu[x.f.jokers * (sp.npat + 1) + p]
            if m[0] == 2:
                m[0] = sp.min_sure(x, NULL, p) & MS_MEETS
                if x.err:
                    x.err = 0
                    m[0] = 0
            if m[0] != 1:
                continue
        out |= SHAPE_PUNGS if sp.shapes[p] == SH_STANDARD else SHAPE_PAIRS if sp.shapes[p] == SH_PAIRS else \
            SHAPE_SURE_FREE
    return out


cdef bint _blind_holds(Ctx* x, int p) noexcept nogil:
    """Does pattern p's condition, which reads nothing of the reading (Spec.blind bit 0 with wilds), hold on
    these facts?"""
    cdef Reading scratch
    return _cond_on_base(x, &scratch, p)


cdef struct Terms:
    # _pungs_exist's and _pairs_exist's terms over some units (_pung_unit, _pair_unit)
    bint pung_ok     # their kinds can all be pungs or the pair
    bint pair_ok     # their kinds can all be paired
    int need, extra, forced, groups, odd


cdef inline void _terms_none(Terms* t) noexcept nogil:
    t.pung_ok, t.pair_ok = True, True
    t.need, t.extra, t.forced, t.groups, t.odd = 0, INF, 0, 0, 0


cdef struct Sure:
    Terms without[4]   # the pre-draw hand's terms without unit u (wait_kinds: a real tile drawn re-reads u only)


cdef void _sure_init(Ctx* x, Units* U, Sure* S) noexcept nogil:
    """S from the pre-draw hand's units U (all filled) and x.f.real."""
    cdef int u, v
    cdef Terms t[4]
    cdef Terms* w
    for u in range(4):
        _terms_none(&t[u])
        t[u].pung_ok = _pung_unit(x, U, u, &t[u].need, &t[u].extra, &t[u].forced)
        t[u].pair_ok = _pair_unit(x, U, u, &t[u].groups, &t[u].odd)
    for u in range(4):
        w = &S.without[u]
        _terms_none(w)
        for v in range(4):
            if v != u:
                w.pung_ok = w.pung_ok and t[v].pung_ok
                w.pair_ok = w.pair_ok and t[v].pair_ok
                w.need += t[v].need
                w.extra = _lo(w.extra, t[v].extra)
                w.forced += t[v].forced
                w.groups += t[v].groups
                w.odd += t[v].odd
        # each unit adds at least 0 to need, forced and odd and lowers extra to -1 at the least, so a hand
        # whose other units already need too many wilds has no such reading whatever kind of u is drawn
        w.pung_ok = w.pung_ok and w.forced <= 1 and w.need <= x.f.jokers + 1
        w.pair_ok = w.pair_ok and w.odd <= x.f.jokers


cdef inline bint _sure_shape(Ctx* x, int sure, const Sure* S, Units* V, int u, int sets) noexcept nogil:
    """Has the hand, the pre-draw one (S) with a real tile of unit u drawn (V: its units, all filled), a reading
    of one of the shapes `sure` (_sure_shapes)? Then it is won. _pungs_exist and _pairs_exist on V, unit u alone
    re-read (_sure_shapes has left out the shapes over MAXG groups)."""
    cdef const Terms* w = &S.without[u]
    cdef int a, b, c
    if sure & SHAPE_PUNGS and w.pung_ok and V.tiles + x.f.jokers == 3 * sets + 2:
        a, b, c = w.need, w.extra, w.forced
        if _pung_unit(x, V, u, &a, &b, &c) and _pungs_fit(x, a, b, c):
            return True
    if sure & SHAPE_PAIRS and w.pair_ok and V.odd <= x.f.jokers:
        a, b = w.groups, w.odd
        if _pair_unit(x, V, u, &a, &b) and _pairs_fit(x, a, b, x.spec.win_size // 2):
            return True
    return False


cdef inline bint _has_pungs(Ctx* x, Units* U, int sets, int* shapes) noexcept nogil:
    """Has the standard shape a reading without a sequence (sets pungs and a pair, no melded sequence)? From
    *shapes where it is known (SHAPE_*), else asked (_pungs_exist on U) and recorded there."""
    if not shapes[0] & (SHAPE_NO_PUNGS | SHAPE_PUNGS):
        shapes[0] |= SHAPE_PUNGS if not x.f.meld_seq and _pungs_exist(x, U, sets) else SHAPE_NO_PUNGS
    return shapes[0] & SHAPE_PUNGS


cdef inline bint _has_pairs(Ctx* x, Units* U, int* shapes) noexcept nogil:
    """Has the pairs shape a reading? As _has_pungs (_pairs_exist on U, no melds, an even hand)."""
    if not shapes[0] & (SHAPE_NO_PAIRS | SHAPE_PAIRS):
        shapes[0] |= SHAPE_PAIRS if not x.f.nmelds and x.spec.win_size % 2 == 0 and \
            _pairs_exist(x, U, x.spec.win_size // 2) else SHAPE_NO_PAIRS
    return shapes[0] & SHAPE_PAIRS


cdef bint _sure_first(Ctx* x, Units* U, int sets, int* shapes, int* std) noexcept nogil:
    """Is the hand won by a reading of a shape _sure_shapes finds sure (a check context's hand with wilds, no
    melds; U: the units of x.f.real)? Asked before the rest of the verdict, which such a hand does not need:
    with wilds, many winning hands have one. *shapes: what is known of the pungs and pairs shapes (SHAPE_*; a
    shape known to have no reading is not asked again), and what this test finds out. The pungs shape is asked
    after the tables' standard verdict (*std, -1 not known: worked out here and given back), which a hand
    without a standard reading fails at once (a reading of pungs and a pair is a standard one): the search
    for pungs costs more, and most hands a batch refuses have no standard reading."""
    cdef int sure = _sure_shapes(x, sets)
    if sure & SHAPE_SURE_FREE or (sure & SHAPE_PAIRS and _has_pairs(x, U, shapes)):
        return True
    if not sure & SHAPE_PUNGS:
        return False
    if std[0] < 0 and x.has_std and sets >= 0:
        std[0] = _feasible_u(x, U, x.f.jokers, sets, 1)
    return std[0] != 0 and _has_pungs(x, U, sets, shapes)


cdef int _shape_settles(Ctx* x, Units* U, int sets, int* shapes) noexcept nogil:
    """Mode 2 without enumerating (is some reading legal?): 1 when a pattern's condition holds on every reading
    of a shape that has one -- a standard pattern whose condition is no_sequences alone, on a hand with a
    pungs-and-pair reading; a pairs pattern whose condition reads nothing of the reading and holds, on a hand
    with a pairs reading; a free pattern whose condition holds on the hand's one reading (no wilds), or reads
    nothing of the reading and holds where the wilds have a kind to stand for -- and every reading of it surely
    meets every minimum (no forbid can hold: the caller's test). 0 when it cannot tell. U: the units of
    x.f.real. *shapes: what is known of the shapes (SHAPE_*; SHAPE_NO_FREE: no free pattern is tested), and
    what this test finds out of the pungs and pairs shapes."""
    cdef Spec* sp = x.spec
    cdef Reading scratch
    cdef int p
    cdef bint ok
    for p in range(sp.npat):
        if sp.shapes[p] == SH_STANDARD and sp.pung_only[p] == 2:
            if sets < 0:
                continue
            ok = _has_pungs(x, U, sets, shapes)
        elif (sp.shapes[p] == SH_PAIRS and (sp.blind[p] if x.f.jokers else sp.blind[p] >> 2) & 1) or \
                (sp.shapes[p] == SH_FREE and not shapes[0] & SHAPE_NO_FREE and
                 (not x.f.jokers or (sp.blind[p] & 1 and x.f.ncand))):
            if sp.shapes[p] == SH_PAIRS and not _has_pairs(x, U, shapes):   # the shape first, then its condition
                continue
            # a free shape's readings are the base counts plus the wilds' kinds (_enum_free): without wilds
            # exactly the base counts, with them the condition reads none of it
            ok = _cond_on_base(x, &scratch, p)
        else:
            continue
        if ok and _minimum_bound(x, p, False):
            return 1
    return 0


cdef int _decide(Ctx* x, int mode, double* value, int* pattern, int std, int odd, bint fits,
                 Units* pre, int shapes) noexcept nogil:
    """Mode 2: is some reading legal (1 yes, 0 no). Mode 0: the best legal reading's value and pattern.
    -1 when the native code cannot decide exactly (the caller asks the reference). std, odd: the standard
    shape's feasibility and the kinds held an odd number of times, when the caller knows them (else -1).
    fits: the caller found _may_fit(x, sets, std, odd) true just now (std 0 or 1, as passed). pre: NULL, or
    the units of x.f.real as _load_row started them (its odd count, when known, stands for odd). shapes: what
    the caller knows of the shapes on these facts (SHAPE_*), 0 nothing."""
    cdef Spec* sp = x.spec
    cdef Run R
    cdef Reading scratch
    cdef int sets = (sp.win_size - 2) // 3
    cdef int forbids = -1  # _forbids(x, -1) once asked: 0 no forbid can hold, 2 one holds whatever the reading
    cdef bint plain = False  # the plain standard pattern has a reading and no forbid can hold
    cdef Units own           # the units of x.f.real made here, where pre is NULL
    cdef Units* U = pre
    if U == NULL:
        _units(x.f.real, &own, x.small)
        U = &own
    elif odd < 0:
        odd = U.odd
    _reset_memo(x)
    # (a check context remembers that no shape is sure for these wilds: ssu 0, asked inline)
    if mode == 2 and x.count_free and 0 < x.f.jokers <= MAXJ and x.ssu[x.f.jokers] != 0 and \
            _sure_first(x, U, sets, &shapes, &std):
        return 1
    if mode == 2 and sp.plain_standard >= 0 and (sp.win_size - 2) % 3 == 0 and _table_exact(x):
        forbids = _forbids(x, -1)
        if forbids == 0:
            if std < 0:
                std = _feasible_u(x, U, x.f.jokers, sets, 1)
            plain = std > 0
            # bounds only for hands the tables say win; with wilds after the shape shortcut (below), since a
            # minimum is most often unsure of a reading that may use wilds (without a minimum, now: nothing to ask)
            if plain and (not x.f.jokers or sp.nminimum == 0) and _minimum_bound(x, sp.plain_standard, False):
                return 1
    if not fits:
        if std < 0 and x.has_std and sets >= 0:     # _may_fit's first test, on the units kept
            std = _feasible_u(x, U, x.f.jokers, sets, 1)
        if not _may_fit(x, sets, std, odd):
            return 0
    if forbids < 0:
        forbids = _forbids(x, -1)
    if forbids == 2:
        return 0
    if mode == 2 and forbids == 0 and _shape_settles(x, U, sets - x.f.nmelds, &shapes):  # (after the cheap refusals)
        return 1
    if plain and x.f.jokers and _minimum_bound(x, sp.plain_standard, False):
        return 1
    memset(&R, 0, sizeof(Run))
    R.x, R.mode, R.best, R.legal_only = x, mode, &scratch, True
    R.std_known, R.std_ok = std >= 0, std > 0
    R.units = U
    R.shapes = shapes
    _run_all(x, &R, NULL)
    if x.err:
        return -1
    if not R.has_best:
        return 0
    value[0] = R.best_value
    pattern[0] = R.best.pattern
    return 1


cdef Ctx* _check_ctx(Spec* sp, double* opts) except NULL:
    """A context for the bare check, whose facts only _prep_check, _set_wild and _load_row make (count_free)."""
    cdef Ctx* x = _ctx_new(sp)
    x.opts = opts
    x.count_free = True
    return x
