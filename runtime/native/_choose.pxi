# Included by kernel.pyx: the choice of the best reading: each reading scored through the variant's module, ties broken as the
# reference breaks them, the patterns a reading's bounds cannot beat skipped, and the hand's context (waits_all).
# ---- choosing the best reading --------------------------------------------------------------------------
cdef struct Run:
    Ctx* x
    int mode             # 0 the best reading; 1 does some reading's pattern hold; 2 is some reading legal
    bint legal_only      # refused readings need not be reported: skip what a forbid rules out
    int* pats
    int npats
    bint found
    Reading* best
    bint has_best
    double best_value
    int best_nmods
    bint best_pref       # the best counts a fan the score prefers (Spec.prefer)
    unsigned int best_gen   # the gen the best was scored in (its memo entries stand while x.gen is still it)
    bint has_fail
    double fail_value
    int fail_pattern
    int fail_nmods
    bint fail_pref
    int fail_why
    bint std_known       # std_ok holds the standard shape's feasibility on these facts (no melds), already
    bint std_ok          # worked out by the caller
    bint bounded         # patterns beaten by the best so far are dropped (_beaten), with the bounds below
    double* hi           # per pattern: an upper bound of its readings' values (NAN: none known), and
    int* mx              # at most how many modifiers hold on one of them; hk: 1 once both are worked out
    signed char* hk      # (_run_all's own arrays, so only while it runs)
    Units* units         # NULL, or the units of x.f.real the caller made (shared with _pungs_exist)
    int needs            # Spec.std_needs or'ed over the open patterns, kept by _on_reading (see Std)
    double best_tie[MAXTIE]   # the best's and the best refusal's tiebreaks (Spec.tie)
    double fail_tie[MAXTIE]
    int shapes           # what the caller knows of the pungs, pairs and free shapes (SHAPE_*), 0 nothing


# What a verdict knows of a hand's shapes (Run.shapes, _decide's `shapes`): whether the standard shape has a
# reading without a sequence (`sets` pungs and a pair, no melded sequence: _has_pungs), whether the pairs shape
# has a reading (_has_pairs), and that no free pattern's condition can hold on any of its readings (the
# viability test is false for each: wait_kinds knows it from the pre-draw hand).
cdef enum:
    SHAPE_NO_PUNGS = 1
    SHAPE_PUNGS = 2
    SHAPE_NO_PAIRS = 4
    SHAPE_PAIRS = 8
    SHAPE_NO_FREE = 16
    SHAPE_SURE_FREE = 32   # (in _sure_shapes' answer only) a free pattern that holds whatever the counts


cdef bint _beaten(Run* R, int p) noexcept nogil:
    """No reading of pattern p can beat the best legal reading found so far (_key_gt): its value is at most
    R.hi[p], below the best's, or equal to it with a pattern later in the spec, or the best's own pattern
    with as many modifiers as may hold. The bounds are asked of the spec at the first question."""
    cdef Ctx* x = R.x
    cdef double h, lo
    if not R.bounded or not R.has_best:
        return False
    if not R.hk[p]:
        x.spec.value_bounds(x, x.f.base, p, &lo, &R.hi[p])
        if x.err:
            R.hi[p] = NAN
        x.err = 0
        R.mx[p] = x.spec.mods_bound(x, x.f.base, p)
        if x.err:
            R.mx[p] = x.spec.nmod
        x.err = 0
        R.hk[p] = 1
    h = R.hi[p]
    if h != R.best_value:
        return h < R.best_value    # (false for NAN)
    if x.spec.nprefer and not R.best_pref:   # a reading of p may count a preferred fan
        return False
    if x.spec.ntie:   # a reading of p may win a tiebreak
        return False
    return p > R.best.pattern or (p == R.best.pattern and R.best_nmods >= R.mx[p])


cdef inline bint _key_gt(double v, bint pf, int p, int nm, double bv, bint bpf, int bp, int bnm,
                         int ntie=0, const double* tie=NULL, const double* btie=NULL) noexcept nogil:
    """The reference's key (value, tiebreaks, preferred, -pattern, modifiers): the first greater than the second."""
    cdef int t
    if v != bv:
        return v > bv
    for t in range(ntie):
        if tie[t] != btie[t]:
            return tie[t] > btie[t]
    if pf != bpf:
        return pf
    if p != bp:
        return p < bp
    return nm > bnm


cdef inline bint _holds_win(Group* g, int w) noexcept nogil:
    """Does the group hold the winning tile's kind w as a tile that is not a wild (a place for it)?"""
    cdef int pos, size = 2 if g.kind == G_PAIR else 3
    for pos in range(size):
        if (g.k0 + pos if g.kind == G_SEQ else g.k0) == w and not (g.wild >> pos) & 1:
            return True
    return False


cdef int _on_reading(void* ud, Reading* rd) noexcept nogil:
    """Score one reading (_score_reading); where the spec places the winning tile (win_in), once per placement:
    each group that holds it, one of each shape, in the groups' order (mjrules.model.fans.placements), or
    nowhere (-1) when none does."""
    cdef Run* R = <Run*>ud
    cdef Ctx* x = R.x
    cdef int i, j, n = 0, r, w = x.f.win_tile
    cdef int at[MAXG]
    cdef Group* g
    cdef Group* h
    cdef bint dup
    if not x.spec.places_win:
        rd.placed = -2
        return _score_reading(ud, rd)
    if w >= 0:
        for i in range(rd.ngroups):
            g = &rd.groups[i]
            if not _holds_win(g, w):
                continue
            dup = False
            for j in range(n):
                h = &rd.groups[at[j]]
                if h.kind == g.kind and h.k0 == g.k0 and h.wild == g.wild:
                    dup = True
                    break
            if not dup:
                at[n] = i
                n += 1
    if n == 0:
        rd.placed = -1
        return _score_reading(ud, rd)
    for j in range(n):
        rd.placed = at[j]
        r = _score_reading(ud, rd)
        if r or x.err:
            return r
    return 0


cdef int _score_reading(void* ud, Reading* rd) noexcept nogil:
    """Score one reading under each pattern of its shape, keeping the best legal one and the best refusal.

    A pattern whose scoring reads nothing of the reading (Spec.blind) is settled by its first reading that it
    holds on (or by its first reading at all, when its condition reads nothing of the reading either): later
    readings would score alike and ties keep the first. It leaves R.pats then; returns 1 (stop) once none is
    left."""
    cdef Run* R = <Run*>ud
    cdef Ctx* x = R.x
    cdef Spec* sp = x.spec
    cdef int i = 0, p, why, m, nm, blind, npats = R.npats
    cdef double value
    cdef double tie[MAXTIE]
    cdef int t, ntie = sp.ntie
    cdef bint ok, improved = False, pf
    while i < R.npats:
        p = R.pats[i]
        blind = (sp.blind[p] if x.f.jokers else sp.blind[p] >> 2) & 3
        rd.pattern = p
        x.gen += 1
        ok = sp.pattern(x, rd, p)
        if x.err:
            return 1
        if ok:
            if R.mode == 1:
                R.found = True
                return 1
            why = -1
            if R.legal_only:  # a forbidden reading's value is never needed
                why = sp.forbid(x, rd)
                if x.err:
                    return 1
            if why < 0 and R.mode == 2 and R.legal_only:
                # a verdict needs one legal reading: its value only against a minimum, its modifiers never
                value = NAN
                if sp.nminimum:
                    value = sp.value(x, rd)
                    why = sp.minimum(x, rd, value)
                if x.err:
                    return 1
                if why < 0:
                    R.found = R.has_best = True
                    R.best_value = value
                    return 1
            elif why < 0:
                value = sp.value(x, rd)
                why = sp.forbid(x, rd)
                if why < 0:
                    why = sp.minimum(x, rd, value)
                    if why >= 0:
                        why += sp.nforbid
                nm = 0
                for m in range(sp.nmod):
                    nm += ref_mod(x, rd, m)
                pf = _preferred(x, rd) if sp.nprefer else False
                for t in range(ntie):
                    tie[t] = sp.tie(x, rd, t)
                if x.err:
                    return 1
                if why < 0 and R.mode == 2:
                    R.found = R.has_best = True
                    R.best_value = value
                    return 1
                if why < 0:
                    if not R.has_best or _key_gt(value, pf, p, nm, R.best_value, R.best_pref, R.best.pattern,
                                                 R.best_nmods, ntie, tie, R.best_tie):
                        memcpy(R.best, rd, sizeof(Reading))
                        R.best_value, R.best_nmods, R.best_pref, R.has_best = value, nm, pf, True
                        memcpy(R.best_tie, tie, ntie * sizeof(double))
                        R.best_gen = x.gen
                        improved = True
                elif not R.has_fail or _key_gt(value, pf, p, nm, R.fail_value, R.fail_pref, R.fail_pattern,
                                               R.fail_nmods, ntie, tie, R.fail_tie):
                    R.fail_value, R.fail_pattern, R.fail_nmods, R.fail_why, R.has_fail = value, p, nm, why, True
                    R.fail_pref = pf
                    memcpy(R.fail_tie, tie, ntie * sizeof(double))
        if blind & 2 and (ok or blind & 1):   # settled: its later readings would score (or fail) alike
            R.npats -= 1
            R.pats[i] = R.pats[R.npats]
        else:
            i += 1
    if improved and R.bounded:   # a better best: the patterns that cannot beat it leave
        i = 0
        while i < R.npats:
            if _beaten(R, R.pats[i]):
                R.npats -= 1
                R.pats[i] = R.pats[R.npats]
            else:
                i += 1
    if R.npats != npats:
        R.needs = _needs(sp, R.pats, R.npats)
    return 1 if R.npats == 0 else 0


cdef inline int _needs(Spec* sp, int* pats, int n) noexcept nogil:
    """Spec.std_needs or'ed over the patterns pats[:n] (see Std)."""
    cdef int i, out = 0
    for i in range(n):
        out |= sp.std_needs[pats[i]]
    return out


cdef inline bint _open(Ctx* x, Run* R, int p) noexcept nogil:
    """Pattern p can give a legal reading: with legal_only, not when a forbid holds for every reading of pattern
    p on these facts, nor when every one of them fails a minimum. Otherwise the best refused reading is reported,
    so every pattern is tried."""
    return not R.legal_only or (_forbids(x, p) != 2 and not _minimum_bound(x, p, True))


cdef inline Units* _units_or(Ctx* x, Units* U, Units* own) noexcept nogil:
    """U, or (NULL) own filled with the units of x.f.real."""
    if U == NULL:
        _units(x.f.real, own, x.small)
        return own
    return U


cdef inline bint _free_try(Ctx* x, Run* R, int p) noexcept nogil:
    """_run_all's turn for the free pattern p: its readings, unless it is beaten or (legal_only) has none that
    may be legal. True when _run_all must stop (an error, or a reading found in modes 1 and 2)."""
    cdef Spec* sp = x.spec
    # (a free pattern whose three-valued test fails on these counts has no reading: the wilds only add)
    if _beaten(R, p) or (R.legal_only and not ((sp.viable(x, x.f.base, p) != 0 or x.err) and _open(x, R, p))):
        return False
    R.npats = 1  # _on_reading drops a pattern its first reading settles
    R.pats[0] = p
    _enum_free(x, p, _on_reading, R)
    return x.err or R.found


cdef void _run_all(Ctx* x, Run* R, Dedup* dd) noexcept nogil:
    """Every shape's readings, each checked against the patterns of that shape.

    Searching for the best reading among many (mode 0 with wilds), a free pattern that its first reading
    settles (Spec.blind: one reading, whatever the wilds) goes first: its value then bounds the other patterns,
    which _beaten drops before their enumeration (a pattern of three wilds worth more than the plain wins). The
    best does not depend on the order of the shapes: readings are compared by value, then pattern, then
    modifiers (_key_gt), and each pattern's own readings still come in the reference's order."""
    cdef Spec* sp = x.spec
    cdef int pats[MAXPAT]
    cdef int n, p, sets
    cdef double hi[MAXPAT]
    cdef int mx[MAXPAT]
    cdef signed char hk[MAXPAT]
    cdef bint early = False   # the settled-at-once free patterns were tried first
    cdef Units U
    cdef Units* UP
    if sp.npat > MAXPAT:
        x.err |= ERR_OTHER
        return
    R.pats = pats
    sets = (sp.win_size - 2) // 3 - x.f.nmelds
    R.bounded = R.mode == 0 and x.f.jokers > 0   # the best reading among many (wilds): drop what is beaten
    if R.bounded:
        R.hi, R.mx, R.hk = hi, mx, hk
        memset(hk, 0, sp.npat)
        if x.nfree and not (R.shapes & SHAPE_NO_FREE and R.legal_only):
            early = True
            for n in range(x.nfree):
                p = x.free_pats[n]
                if sp.blind[p] & 3 == 3 and _free_try(x, R, p):
                    return
    n = 0
    UP = R.units
    # no standard pattern is tried where the caller found the shape infeasible (the tables' verdict on these
    # counts; with melds it is not the same question, so they are enumerated); a shape with no reading is
    # asked before the pattern's bounds (_open), which cost more
    if sets >= 0 and (R.std_ok or not R.std_known or x.f.nmelds):
        for p in range(sp.npat):
            if sp.shapes[p] == SH_STANDARD:
                if sp.pung_only[p]:   # its condition needs no_sequences: not when no reading is without them
                    if not R.shapes & (SHAPE_NO_PUNGS | SHAPE_PUNGS):   # (R.shapes: what is known already)
                        UP = _units_or(x, UP, &U)
                    if not _has_pungs(x, UP, sets, &R.shapes):
                        continue
                if (early and _beaten(R, p)) or not _open(x, R, p):
                    continue
                pats[n] = p
                n += 1
    R.npats = n
    R.needs = _needs(sp, pats, n)
    # the enumeration's first step is _feasible's test on the same counts, so it is not asked here as well
    if n:
        if dd != NULL:
            _dedup_reset(dd)
        # a reading none of the open patterns may hold on is skipped (when every one needs no_sequences, say,
        # a reading with a sequence), as _on_reading narrows R.needs
        _enum_standard(x, sets, _on_reading, R, dd, &R.needs, R.units)
    if x.err or R.found:
        return
    n = 0
    for p in range(sp.npat):
        if sp.shapes[p] == SH_PAIRS and not _beaten(R, p):
            if R.legal_only:   # the shape before the bounds, as above (exactly whether _enum_pairs finds a reading)
                if not R.shapes & (SHAPE_NO_PAIRS | SHAPE_PAIRS) and not x.f.nmelds:
                    UP = _units_or(x, UP, &U)
                if not _has_pairs(x, UP, &R.shapes) or not _open(x, R, p):
                    continue
            pats[n] = p
            n += 1
    R.npats = n
    if n and x.f.nmelds == 0 and sp.win_size % 2 == 0:
        _enum_pairs(x, sp.win_size // 2, _on_reading, R)
    if x.err or R.found:
        return
    if x.has_knit and sets >= 3:
        n = 0
        for p in range(sp.npat):
            if sp.shapes[p] == SH_KNITTED and not _beaten(R, p) and _open(x, R, p):
                pats[n] = p
                n += 1
        R.npats = n
        if n:
            _enum_knitted(x, sets, _on_reading, R, dd)
        if x.err or R.found:
            return
    if R.shapes & SHAPE_NO_FREE and R.legal_only:
        return
    for p in range(sp.npat):
        if sp.shapes[p] == SH_FREE and not (early and sp.blind[p] & 3 == 3) and _free_try(x, R, p):
            return


cdef inline void _reset_memo(Ctx* x) noexcept nogil:
    cdef Spec* sp = x.spec
    if x.ev_dirty:
        memset(x.ev_memo, 0xFF, sp.nev + 1)
        x.ev_dirty = False
    if x.ms_dirty:
        memset(x.msc, 0xFF, sp.npat + 1)
        x.ms_dirty = False
    if x.gen > 0x7FFFFFFF:
        memset(x.mod_gen, 0, (sp.nmod + 1) * sizeof(unsigned int))
        memset(x.tb_gen, 0, (sp.ntab + 1) * sizeof(unsigned int))
        memset(x.df_gen, 0, (sp.ndef + 1) * sizeof(unsigned int))
        memset(x.ff_gen, 0, (sp.nfan + 1) * sizeof(unsigned int))
        x.st_gen = x.cb_gen = x.sv_gen = x.fp_gen = x.fa_gen = 0
        x.gen = 1


cdef bint var_waits_all(Ctx* x) noexcept nogil:
    """The waits_all fact: the pre-draw hand has a pattern reading for every playable kind (false for a dealt
    hand, without a winning tile, or inside this very test).

    Where the spec has a plain standard pattern and the tables are exact, a kind whose hand the tables find a
    standard reading for passes without more: the pre-draw hand's units are looked up once, and a real tile
    drawn changes only its own unit (as in wait_kinds); where the pre-draw hand but one wild already makes the
    sets, every kind a wild stands for passes at once (it pairs with that wild). Before the tables, a kind whose
    hand has a pairs reading passes where a pairs pattern's condition reads nothing of the reading and holds
    (asked once for a real tile drawn and once for a wild; the pairs shape's terms are _pairs_exist's, the drawn
    tile changing its own kind's only). The other kinds are judged in full (_run_all), in x.inner (never Ctx.small: a kind
    held four times is drawn a fifth time too)."""
    cdef Ctx* y = x.inner
    cdef Spec* sp = x.spec
    cdef Facts* f
    cdef int i, k, p, sets, w = x.f.w, w2 = x.f.w2, j0 = x.f.jokers, jn, c
    cdef bint iw       # kind i drawn is a wild
    cdef int pre[NK]   # the pre-draw hand's real tiles
    cdef Units U
    cdef Plus P
    cdef bint plain, cover, anypair, pinit
    cdef int std     # the tables' verdict on the standard shape for the kind drawn, -1 not asked
    cdef Run R
    cdef Reading scratch
    cdef bint result = True
    cdef bint pairs = False   # the pairs shortcut applies: a pairs pattern with a reading-blind condition
    cdef int groups0 = 0, odd0 = 0, bad0 = 0   # _pairs_exist's terms on pre: pairs held, odd kinds, odd non-candidates
    cdef int groups, odd, bad, left
    cdef signed char pcond[2]   # per kind drawn (a real tile, a wild) does a blind pairs condition hold, -1 not asked
    cdef bint ready              # y holds the facts of kind i's hand
    if x.f.waits_all >= 0:
        return x.f.waits_all
    if x.f.nested or x.f.win_tile < 0 or x.f.dealt:
        x.f.waits_all = 0
        return 0
    if y == NULL or x.f.win_tile >= NK and x.f.win_tile != w and x.f.win_tile != w2:
        x.err |= ERR_OTHER
        return 0
    f = &y.f
    sets = (sp.win_size - 2) // 3 - x.f.nmelds
    plain = sp.plain_standard >= 0 and (sp.win_size - 2) % 3 == 0 and sets >= 0
    cover = _cover_exact(x)
    memcpy(pre, x.f.real, NK * sizeof(int))
    if x.f.win_tile == w or x.f.win_tile == w2:
        j0 -= 1
    else:
        pre[x.f.win_tile] -= 1
    anypair = pinit = False
    if plain:
        _units(pre, &U)
        # the pre-draw hand but one wild makes the sets (exactly, the wilds covering whole suits): any kind a
        # wild stands for pairs with that wild, and a wild drawn pairs with it too
        anypair = cover and j0 > 0 and x.f.ncand > 0 and _feasible_u(x, &U, j0 - 1, sets, 0)
    if not anypair and not x.f.nmelds and sp.win_size % 2 == 0 and sp.win_size // 2 <= MAXG:
        for p in range(sp.npat):
            if sp.shapes[p] == SH_PAIRS and sp.blind[p] & 5:   # (with wilds, or without)
                pairs = True
    if pairs:   # _pairs_exist's terms on pre
        for c in range(NK):
            groups0 += pre[c] // 2
            if pre[c] % 2:
                odd0 += 1
                bad0 += not (x.f.cand >> c) & 1
    pcond[0] = pcond[1] = -1
    if anypair and not (x.playmask & ~x.f.cand):   # every kind drawn pairs with the spare wild (the loop's
        x.f.waits_all = 1                           # first test passes each)
        return 1
    for k in range(sp.nplayable):
        i = sp.playable[k]
        iw = i == w or i == w2
        if not (iw or 0 <= i < NK):
            x.err |= ERR_OTHER
            return 0
        std = -1
        ready = False
        if anypair and (iw or (x.f.cand >> i) & 1):
            continue
        if pairs:   # the pairs shape first: a few sums, where the standard verdict looks a unit up
            groups, odd, bad, jn = groups0, odd0, bad0, j0
            if iw:
                jn += 1
            elif pre[i] % 2:
                groups, odd, bad = groups + 1, odd - 1, bad - (not (x.f.cand >> i) & 1)
            else:
                odd, bad = odd + 1, bad + (not (x.f.cand >> i) & 1)
            left = jn - odd
            if bad == 0 and left >= 0 and left % 2 == 0 and groups + odd + left // 2 == sp.win_size // 2 and (
                    left == 0 or x.f.ncand > 0):   # _pairs_exist on kind i's hand
                if pcond[iw] < 0:
                    _nested_facts(x, i)
                    ready = True
                    pcond[iw] = _blind_pairs(x, &scratch)
                if pcond[iw] > 0:
                    continue    # a pairs reading exists, and a pairs pattern holds on any
        if plain and (cover or (not iw and j0 == 0)):   # _table_exact on the hand with i drawn
            if not pinit:    # (the units once, when a kind first needs them)
                _units_all(&U)
                _plus_init(x, &P, &U)
                pinit = True
            if iw:
                std = _plus_std(x, &P, &U, pre, -1, j0 + 1, sets)
            else:
                pre[i] += 1
                std = _plus_std(x, &P, &U, pre, i, j0, sets)
                pre[i] -= 1
            if std:
                continue    # the tables say a standard reading exists, and the plain standard pattern holds on any
        if not ready:
            _nested_facts(x, i)
        memset(&R, 0, sizeof(Run))
        R.x, R.mode, R.best = y, 1, &scratch
        R.std_known, R.std_ok = std >= 0, std > 0   # a kind the tables rule the standard shape out for: the
        _run_all(y, &R, NULL)                       # other shapes only
        if y.err:
            x.err |= y.err
            return 0
        if not R.found:
            result = False
            break
    x.f.waits_all = result
    return result


cdef inline bint _cond_on_base(Ctx* x, Reading* scratch, int p) noexcept nogil:
    """Pattern p's condition on scratch made a reading of no groups and no wilds of x.f.base's counts: every
    reading's where the hand has no wilds, and any reading for a condition that reads nothing of it. An error:
    false (x.err reset)."""
    cdef bint ok
    scratch.ngroups = scratch.nassign = 0
    scratch.placed = -2
    scratch.pattern = p
    memcpy(scratch.counts, x.f.base, NK * sizeof(int))
    x.gen += 1
    ok = x.spec.pattern(x, scratch, p)
    if x.err:
        x.err = 0
        return False
    return ok


cdef inline bint _blind_pairs(Ctx* x, Reading* scratch) noexcept nogil:
    """Does a pairs pattern whose condition reads nothing of the reading hold on x.inner's facts, those of a
    kind's hand (_nested_facts)? scratch: a reading to evaluate the condition on (its counts the base counts)."""
    cdef Ctx* y = x.inner
    cdef Spec* sp = x.spec
    cdef int p
    for p in range(sp.npat):
        if sp.shapes[p] == SH_PAIRS and (sp.blind[p] if y.f.jokers else sp.blind[p] >> 2) & 1 and \
                _cond_on_base(y, scratch, p):
            return True
    return False


cdef inline void _nested_facts(Ctx* x, int i) noexcept nogil:
    """x.inner's facts: x's with the winning tile taken back and a tile of kind i drawn (the wild kind: a
    wild), no memo kept (var_waits_all)."""
    cdef Ctx* y = x.inner
    cdef Facts* f = &y.f
    memcpy(f, &x.f, sizeof(Facts))
    f.nested, f.waits_all, f.wait_kinds = True, 0, 0
    f.win_tile = i
    if x.f.win_tile == x.f.w:
        f.jokers -= 1
    elif x.f.win_tile == x.f.w2:
        f.jokers -= 1
        f.jw2 -= 1
    else:
        f.real[x.f.win_tile] -= 1
        f.base[x.f.win_tile] -= 1
    if i == x.f.w:
        f.jokers += 1
    elif i == x.f.w2:
        f.jokers += 1
        f.jw2 += 1
    else:
        f.real[i] += 1
        f.base[i] += 1
    y.err = 0
    _reset_memo(y)


cdef Ctx* _ctx_new(Spec* sp) except NULL:
    cdef int p, k
    cdef Ctx* x = <Ctx*>calloc(1, sizeof(Ctx))
    if x == NULL:
        raise MemoryError()
    x.spec = sp
    x.ev_memo = <signed char*>calloc(sp.nev + 1, 1)
    x.mod_gen = <unsigned int*>calloc(sp.nmod + 1, sizeof(unsigned int))
    x.mod_val = <signed char*>calloc(sp.nmod + 1, 1)
    x.tb_gen = <unsigned int*>calloc(sp.ntab + 1, sizeof(unsigned int))
    x.tb_val = <double*>calloc(sp.ntab + 1, sizeof(double))
    x.tb_row = <int*>calloc(sp.ntab + 1, sizeof(int))
    x.df_gen = <unsigned int*>calloc(sp.ndef + 1, sizeof(unsigned int))
    x.df_val = <double*>calloc(sp.ndef + 1, sizeof(double))
    x.free_pats = <int*>calloc(sp.npat + 1, sizeof(int))
    x.msu = <signed char*>malloc((MAXJ + 1) * (sp.npat + 1))
    x.fcu = <signed char*>malloc((MAXJ + 1) * (sp.npat + 1))
    x.msc = <signed char*>malloc(sp.npat + 1)
    x.ssu = <signed char*>malloc(MAXJ + 1)
    x.ff_gen = <unsigned int*>calloc(sp.nfan + 1, sizeof(unsigned int))
    x.ff_val = <double*>calloc(sp.nfan + 1, sizeof(double))
    x.cb_val = <double*>calloc(sp.nfan + 1, sizeof(double))
    x.cfan = <int*>calloc(sp.nfan + 1, sizeof(int))
    x.gen = 1   # (no memo entry is of gen 0's reading: the stamps start at 0)
    if not (x.ev_memo and x.mod_gen and x.mod_val and x.tb_gen and x.tb_val and x.tb_row and x.df_gen and x.df_val
            and x.free_pats and x.msu and x.fcu and x.msc and x.ssu and x.ff_gen
            and x.ff_val and x.cb_val and x.cfan):
        _ctx_free(x)
        raise MemoryError()
    x.ev_dirty = True   # calloc's zeros read as memoised falses until the first _reset_memo
    x.ms_dirty = True   # (and malloc's garbage as min_sure answers)
    _count_free_clear(x)
    for k in range(2):   # the combination fans by their kind of set, in the spec's order
        for p in range(sp.nfan):
            if sp.fan_kind[p] == FK_COMBO and sp.combo[p * COMBO_W] == k:
                x.cfan[x.ncseq + x.ncpung] = p
                if k == 0:
                    x.ncseq += 1
                else:
                    x.ncpung += 1
    x.small = True
    for p in range(NK):
        x.small = x.small and sp.copies[p] <= 4
    for p in range(sp.nplayable):   # (bit 63, never a wild's candidate: a playable kind outside 0..NK-1)
        x.playmask |= (1ULL << sp.playable[p]) if 0 <= sp.playable[p] < NK else (1ULL << 63)
    for p in range(sp.npat):
        if sp.shapes[p] == SH_STANDARD:
            x.has_std = True
        elif sp.shapes[p] == SH_PAIRS:
            x.has_pairs = True
        elif sp.shapes[p] == SH_KNITTED:
            x.has_knit = True
        else:
            x.free_pats[x.nfree] = p
            x.nfree += 1
    return x


cdef void _ctx_free(Ctx* x) noexcept nogil:
    if x == NULL:
        return
    free(x.ev_memo)
    free(x.mod_gen)
    free(x.mod_val)
    free(x.tb_gen)
    free(x.tb_val)
    free(x.tb_row)
    free(x.df_gen)
    free(x.df_val)
    free(x.free_pats)
    free(x.msu)
    free(x.fcu)
    free(x.msc)
    free(x.ssu)
    free(x.ff_gen)
    free(x.ff_val)
    free(x.cb_val)
    free(x.cfan)
    free(x)


cdef inline void _count_free_clear(Ctx* x) noexcept nogil:
    """Forget the count-free tests (the facts they were made on changed)."""
    memset(x.msu, 2, (MAXJ + 1) * (x.spec.npat + 1))
    memset(x.fcu, 3, (MAXJ + 1) * (x.spec.npat + 1))
    memset(x.ssu, 0xFF, MAXJ + 1)
