# Included by kernel.pyx: the fans of a reading (mjrules.model.fans, its one definition) in C: the reading's sets with
# the melds (set views), the combinations of sets by the account-once rule, each fan's count after exclusions
# (不计) and the sums, memoised per gen as ref_define is; and the situation's wait (wait_kinds, waiting_hand).
cdef enum:
    MAXEDGE = 648    # pairs of MAXSV sets, at least

# ---- the reading's sets ----------------------------------------------------------------------------------
cdef void set_views(Ctx* x, Reading* rd) noexcept nogil:
    """x.sv_*: the sets of the reading of gen (mjrules.model.fans.set_views): its groups, then the melds. A concealed
    pung of the winning tile's kind, that tile claimed, is shown unless a concealed sequence holds that kind; where
    the reading places its winning tile (rd.placed >= -1), the pung it is placed in is the one shown."""
    cdef int i, n = 0, w = x.f.win_tile
    cdef bint in_seq = False
    cdef Group* g
    if x.sv_gen == x.gen:
        return
    if w >= 0:
        for i in range(rd.ngroups):
            g = &rd.groups[i]
            if g.kind == G_SEQ and g.k0 <= w <= g.k0 + 2:
                in_seq = True
                break
    for i in range(rd.ngroups):
        if n >= MAXSV:
            x.err |= ERR_OTHER
            return
        g = &rd.groups[i]
        x.sv_conc[n] = 1
        if g.kind == G_SEQ:
            x.sv_kind[n], x.sv_low[n] = SV_SEQ, g.k0
        elif g.kind == G_PUNG:
            x.sv_kind[n], x.sv_low[n] = SV_PUNG, g.k0
            if x.f.claimed and (i == rd.placed if rd.placed >= -1 else g.k0 == w and not in_seq):
                x.sv_conc[n] = 0
        elif g.kind == G_PAIR:
            x.sv_kind[n], x.sv_low[n] = SV_PAIR, g.k0
        else:
            x.sv_kind[n], x.sv_low[n] = SV_KNIT, mj_ctzll(knit_mask(g.k0))
        n += 1
    for i in range(x.f.nms):
        if n >= MAXSV:
            x.err |= ERR_OTHER
            return
        x.sv_kind[n], x.sv_low[n], x.sv_conc[n] = x.f.ms_kind[i], x.f.ms_low[i], x.f.ms_conc[i]
        n += 1
    x.nsv = n
    x.sv_gen = x.gen


cdef double rf_alike(Ctx* x, Reading* rd, int kind) noexcept nogil:
    """alike(kind): pairs of identical sets of the kind (the same kind of set on the same lowest tile), each set in
    one pair at most (mjrules.model.fans.alike)."""
    cdef int i, j, n = 0, same
    cdef bint seen[MAXSV]
    set_views(x, rd)
    for i in range(x.nsv):
        seen[i] = False
    for i in range(x.nsv):
        if seen[i] or rf_sets_one(x, i, kind) == 0:
            continue
        same = 1
        for j in range(i + 1, x.nsv):
            if not seen[j] and x.sv_kind[j] == x.sv_kind[i] and x.sv_low[j] == x.sv_low[i] and rf_sets_one(x, j, kind):
                seen[j] = True
                same += 1
        n += same // 2
    return n


# ---- combinations of sets (the account-once rule) ------------------------------------------------------------
cdef bint _combo_holds(const int* cb, const int* lows, int n) noexcept nogil:
    """Do sets with these lowest kinds make the combination cb (Spec.combo's COMBO_W ints)? combo_holds."""
    cdef int i, j, t, suits = 0, steps, d
    cdef int ranks[MAXSV]
    for i in range(n):
        if lows[i] >= 27:
            return False
    if cb[2] == 0:
        for i in range(1, n):
            if lows[i] // 9 != lows[0] // 9:
                return False
    else:
        for i in range(n):
            if (suits >> (lows[i] // 9)) & 1:
                return False
            suits |= 1 << (lows[i] // 9)
    for i in range(n):   # the ranks (1-based), sorted
        t = lows[i] % 9 + 1
        j = i
        while j > 0 and ranks[j - 1] > t:
            ranks[j] = ranks[j - 1]
            j -= 1
        ranks[j] = t
    if cb[4]:
        if cb[4] != n:
            return False
        for i in range(n):
            if ranks[i] != cb[5 + i]:
                return False
        return True
    if n < 2:
        return False
    d = ranks[1] - ranks[0]
    for i in range(2, n):
        if ranks[i] - ranks[i - 1] != d:
            return False
    return d < 31 and (cb[3] >> d) & 1


cdef inline bint _holds2(const int* cb, int a, int b) noexcept nogil:
    cdef int two[2]
    two[0], two[1] = a, b
    return _combo_holds(cb, two, 2)


cdef inline int _root(int* parent, int a) noexcept nogil:
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


cdef void _account(Ctx* x, const int* fans, int nf, const int* lows, int n) noexcept nogil:
    """account: the combination fans fans[:nf] (of one kind of set, in the spec's order) over sets with these
    lowest kinds (sorted), added into x.cb_val."""
    cdef Spec* sp = x.spec
    cdef int pairs[MAXSV * 4]
    cdef int np = 0, i, f, size, best, j, m, a, b, hit, ne = 0, linked = 0, roots = 0, total, limit, keep
    cdef int sub[MAXSV]
    cdef int ls[MAXSV]
    cdef int best_sub[MAXSV]
    cdef double best_pts
    cdef bint used[MAXSV]
    cdef int ea[MAXEDGE]
    cdef int eb[MAXEDGE]
    cdef int ei[MAXEDGE]
    cdef int parent[MAXSV]
    cdef bint inl[MAXSV]
    cdef int prev = 1 << 30
    cdef const int* cb
    for i in range(nf):
        if sp.combo[fans[i] * COMBO_W + 1] == 2:
            pairs[np] = fans[i]
            np += 1
    while True:   # each size above 2, largest first
        size = 0
        for i in range(nf):
            m = sp.combo[fans[i] * COMBO_W + 1]
            if 2 < m < prev and m > size:
                size = m
        if size == 0:
            break
        prev = size
        if size > n:
            continue
        best = -1
        best_pts = 0.0
        for i in range(size):
            sub[i] = i
        while True:   # the combinations of `size` sets, in itertools.combinations' order
            for i in range(size):
                ls[i] = lows[sub[i]]
            for i in range(nf):
                f = fans[i]
                cb = &sp.combo[f * COMBO_W]
                if cb[1] == size and _combo_holds(cb, ls, size):
                    if best < 0 or sp.fan_points[f] > best_pts:
                        best, best_pts = f, sp.fan_points[f]
                        memcpy(best_sub, sub, size * sizeof(int))
                    break
            i = size - 1
            while i >= 0 and sub[i] == i + n - size:
                i -= 1
            if i < 0:
                break
            sub[i] += 1
            for j in range(i + 1, size):
                sub[j] = sub[j - 1] + 1
        if best < 0:
            continue
        x.cb_val[best] = 1.0
        for j in range(n):
            used[j] = False
        for j in range(size):
            used[best_sub[j]] = True
        for j in range(n):   # each set left over joins one other set once: the first pair fan it makes
            if used[j]:
                continue
            hit = -1
            for i in range(np):
                for m in range(n):
                    if m != j and _holds2(&sp.combo[pairs[i] * COMBO_W], lows[j], lows[m]):
                        hit = pairs[i]
                        break
                if hit >= 0:
                    break
            if hit >= 0:
                x.cb_val[hit] += 1.0
        return
    if np == 0:
        return
    for a in range(n):
        for b in range(a + 1, n):
            for i in range(np):
                if _holds2(&sp.combo[pairs[i] * COMBO_W], lows[a], lows[b]):
                    ea[ne], eb[ne], ei[ne] = a, b, pairs[i]
                    ne += 1
                    break
    if ne == 0:
        return
    for a in range(n):
        parent[a] = a
        inl[a] = False
    for i in range(ne):
        inl[ea[i]] = inl[eb[i]] = True
        parent[_root(parent, ea[i])] = _root(parent, eb[i])
    for a in range(n):
        if inl[a]:
            linked += 1
            roots += _root(parent, a) == a
    limit = linked - roots
    for i in range(ne):
        x.cb_val[ei[i]] += 1.0
    total = ne
    for keep in range(1, -1, -1):   # repeats first, then single ones; the fan declared last first
        for i in range(np - 1, -1, -1):
            f = pairs[i]
            while total > limit and x.cb_val[f] > keep:
                x.cb_val[f] -= 1.0
                total -= 1


cdef void fan_combos(Ctx* x, Reading* rd) noexcept nogil:
    """x.cb_val: the combination fans' counts on the reading of gen (FanCounter._combos)."""
    cdef int i, j, t, kind, n, nf
    cdef int lows[MAXSV]
    cdef int* fans
    if x.cb_gen == x.gen:
        return
    set_views(x, rd)
    for i in range(x.ncseq + x.ncpung):
        x.cb_val[x.cfan[i]] = 0.0
    for kind in range(2):
        fans = x.cfan if kind == 0 else x.cfan + x.ncseq
        nf = x.ncseq if kind == 0 else x.ncpung
        if nf == 0:
            continue
        if nf > MAXSV * 4:
            x.err |= ERR_OTHER
            return
        n = 0
        for i in range(x.nsv):
            if (x.sv_kind[i] == SV_SEQ) if kind == 0 else (x.sv_kind[i] == SV_PUNG or x.sv_kind[i] == SV_KONG):
                t = x.sv_low[i]
                j = n
                while j > 0 and lows[j - 1] > t:
                    lows[j] = lows[j - 1]
                    j -= 1
                lows[j] = t
                n += 1
        _account(x, fans, nf, lows, n)
    x.cb_gen = x.gen


# ---- the fans' counts --------------------------------------------------------------------------------------
cdef inline void _fans_all(Ctx* x, Reading* rd) noexcept nogil:
    """Every fan of the reading of gen worked out and remembered, once (the module's fans_all). Asked again while
    it runs (a fan read that fan_order does not know of), the reading is for the reference to judge."""
    if x.fa_gen == x.gen:
        return
    if x.fans_busy:
        x.err |= ERR_OTHER
        return
    x.fans_busy = True
    x.spec.fans_all(x, rd)
    x.fans_busy = False
    x.fa_gen = x.gen


cdef double fan_final(Ctx* x, Reading* rd, int i) noexcept nogil:
    """Fan i's count after exclusions (FanCounter.final) on the reading of gen: a fan asked before its reading's
    fans are worked out has them all worked out."""
    if x.ff_gen[i] != x.gen:
        _fans_all(x, rd)
        if x.ff_gen[i] != x.gen:
            return 0.0   # (an error: the reference judges)
    return x.ff_val[i]


cdef double fan_sum(Ctx* x, Reading* rd, bint bonus) noexcept nogil:
    """fan_points (the points of every fan that counts, times its count) or, with bonus, bonus_points. (A fan that
    does not count adds nothing: its points, finite, times 0.) Added in the spec's order."""
    cdef Spec* sp = x.spec
    cdef int i, n = sp.nfan
    cdef unsigned int g = x.gen
    cdef double p = 0.0, b = 0.0, t, v
    cdef const double* points
    cdef const int* is_bonus = sp.fan_bonus
    if x.fp_gen != g:
        _fans_all(x, rd)
        points = sp.fan_open if x.f.exposed else sp.fan_points
        for i in range(n):
            v = x.ff_val[i]
            if v != 0.0:
                t = n_chk(x, points[i] * v)
                p = n_chk(x, p + t)
                if is_bonus[i]:
                    b = n_chk(x, b + t)
        x.fp_val, x.bp_val = p, b
        x.fp_gen = g
    return x.bp_val if bonus else x.fp_val


cdef inline bint _preferred(Ctx* x, Reading* rd) noexcept nogil:
    """The reading counts a fan the score prefers (ReferenceEngine._preferred)."""
    cdef int i
    for i in range(x.spec.nprefer):
        if ref_fan(x, rd, x.spec.prefer[i]) > 0.0:
            return True
    return False


# ---- the wait --------------------------------------------------------------------------------------------
cdef bint rf_waiting_hand(Ctx* x, const unsigned char* alts, int nalts) noexcept nogil:
    """waiting_hand: before its winning tile the concealed hand was one of alts[:nalts] (34 counts each), no meld."""
    cdef int c[NK]
    cdef int k, a
    cdef bint same
    if x.f.nmelds or x.f.win_tile < 0 or x.f.win_tile >= NK:
        return 0
    memcpy(c, x.f.real, NK * sizeof(int))
    if x.f.w >= 0:
        c[x.f.w] += x.f.jokers - x.f.jw2
    if x.f.w2 >= 0:
        c[x.f.w2] += x.f.jw2
    c[x.f.win_tile] -= 1
    for a in range(nalts):
        same = True
        for k in range(NK):
            if c[k] != alts[a * NK + k]:
                same = False
                break
        if same:
            return 1
    return 0


cdef double var_wait_kinds(Ctx* x) noexcept nogil:
    """The wait_kinds fact: how many playable kinds complete the pre-draw hand by its shape (some pattern's reading
    holds; copies not checked), 0 for a dealt hand, without a winning tile, or inside this test or waits_all's
    (ReferenceEngine._wait_kinds). As var_waits_all: the tables' standard verdict for a real tile drawn first
    (where a plain standard pattern holds on any standard reading), the shapes' cheap refusal (_may_fit), and the
    rest judged in full (_run_all, mode 1) in x.inner."""
    cdef Ctx* y = x.inner
    cdef Spec* sp = x.spec
    cdef Facts* f
    cdef int i, k, n = 0, sets, w = x.f.w, w2 = x.f.w2, j0 = x.f.jokers, std, odd0 = 0, odd, nkeep
    cdef bint iw, plain, cover, knit, pairs_ok, fits
    cdef unsigned int skip = 0
    cdef int keep[MAXPAT]
    cdef int pre[NK]
    cdef Units U
    cdef Plus P
    cdef Run R
    cdef Reading scratch
    if x.f.wait_kinds >= 0:
        return x.f.wait_kinds
    if x.f.nested or x.f.win_tile < 0 or x.f.dealt:
        x.f.wait_kinds = 0
        return 0.0
    if y == NULL or x.f.win_tile >= NK and x.f.win_tile != w and x.f.win_tile != w2:
        x.err |= ERR_OTHER
        return 0.0
    f = &y.f
    sets = (sp.win_size - 2) // 3 - x.f.nmelds
    cover = _cover_exact(x)
    memcpy(pre, x.f.real, NK * sizeof(int))
    if x.f.win_tile == w or x.f.win_tile == w2:
        j0 -= 1
    else:
        pre[x.f.win_tile] -= 1
    plain = sp.plain_standard >= 0 and (sp.win_size - 2) % 3 == 0 and sets >= 0
    if plain:
        _units(pre, &U)
        _units_all(&U)
        _plus_init(x, &P, &U)
    _nested_facts(x, x.f.win_tile)   # y: the pre-draw hand with the winning tile back (each kind drawn below)
    if x.f.win_tile == w:
        f.jokers -= 1
    elif x.f.win_tile == w2:
        f.jokers -= 1
        f.jw2 -= 1
    else:
        f.real[x.f.win_tile] -= 1
        f.base[x.f.win_tile] -= 1
    # what _may_fit reads of the pre-draw hand, once: its odd counts (a real tile drawn changes one of them),
    # whether a real tile could complete a knitted straight at all (without wilds: _knit_fits' own condition), and
    # the free patterns whose three-valued test holds on it (one false there is false with any real tile more)
    odd0 = _odd_kinds(f.real)
    knit = not y.has_knit or f.jokers != 0 or _knit_near(f.real)
    pairs_ok = y.has_pairs and not y.f.nmelds and sp.win_size % 2 == 0
    nkeep = 0
    if y.nfree and (not y.free_fixed or y.nfree > MAXPAT):
        nkeep = -1   # (a test that may read the drawn tile, or too many to list: each kind asks them all)
    elif y.nfree:
        _reset_memo(y)
        nkeep = _viable_pats(y, y.free_pats, y.nfree, keep)
        y.err = 0
    # a unit no real tile drawn into makes the standard shape adds no wait, where nothing else can fit (_plus_skip)
    if plain and (cover or j0 == 0) and nkeep == 0 and not (pairs_ok and odd0 - 1 <= f.jokers) \
            and not (y.has_knit and knit):
        skip = _plus_skip(&P, j0)
    for k in range(sp.nplayable):
        i = sp.playable[k]
        iw = i == w or i == w2
        if not (iw or 0 <= i < NK):
            x.err |= ERR_OTHER
            return 0.0
        if skip and not iw and pre[i] < 4 and (skip >> (i // 9 if i < 27 else i - 24)) & 1:
            continue
        std = -1
        if plain and (cover or (not iw and j0 == 0)) and (iw or pre[i] < 4):   # (a fifth copy: beyond the tables)
            if iw:
                std = _plus_std(x, &P, &U, pre, -1, j0 + 1, sets)
            else:
                pre[i] += 1
                std = _plus_std(x, &P, &U, pre, i, j0, sets)
                pre[i] -= 1
            if std:
                n += 1
                continue
        if iw:
            f.jokers += 1
            f.jw2 += i == w2
            odd = -1
        else:
            odd = odd0 - 1 if f.real[i] & 1 else odd0 + 1
            f.real[i] += 1
            f.base[i] += 1
        f.win_tile = i
        y.err = 0
        _reset_memo(y)
        if std == 0 and not iw and nkeep >= 0:   # _may_fit inline, the free patterns of the pre-draw hand only
            fits = pairs_ok and odd <= f.jokers
            if not fits and y.has_knit and knit:
                fits = _knit_fits(y, sets)
            if not fits and nkeep:
                fits = _any_viable(y, keep, nkeep)
        else:
            fits = _may_fit(y, sets, std, odd, iw or knit)
        if fits or y.err:
            y.err = 0
            memset(&R, 0, sizeof(Run))
            R.x, R.mode, R.best = y, 1, &scratch
            R.std_known, R.std_ok = std >= 0, std > 0
            _run_all(y, &R, NULL)
            n += R.found
        if iw:
            f.jokers -= 1
            f.jw2 -= i == w2
        else:
            f.real[i] -= 1
            f.base[i] -= 1
        if y.err:
            x.err |= y.err
            return 0.0
    x.f.wait_kinds = n
    return n
