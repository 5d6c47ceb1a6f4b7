# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The native kernel: shape tables, reading enumeration and best-reading choice in C, for generated variants.

It mirrors the reference backend (mjrules.reference.readings, mjrules.reference.engine) exactly: readings come out in the same
order, standard readings are deduplicated the same way, and ties break the same way (largest value, then
the earliest pattern, then more modifiers, then the first reading met). A table of the fewest wilds that
complete one suit prunes every branch that cannot end in a reading, so only winning hands enumerate.

One module on purpose (longer than our usual ~600 lines): the tables, the enumerators and the scoring
callback share C statics and call each other inline; split, they would become cross-module calls.
"""
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy, memcmp
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.bytearray cimport PyByteArray_AS_STRING
from libc.stdint cimport int32_t
from cpython.dict cimport PyDict_Next, PyDict_Copy, PyDict_GetItem, PyDict_SetItem
from cpython.object cimport PyObject, PyTypeObject
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM, PyTuple_GET_ITEM
from cpython.list cimport PyList_New, PyList_SET_ITEM, PyList_GET_ITEM, PyList_Append
from cpython.ref cimport Py_INCREF
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                                  PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK, NOWAIT_LOCK)
from cpython.bytearray cimport PyByteArray_AsString, PyByteArray_Size
from cpython.bytes cimport PyBytes_AsString
from cpython.exc cimport PyErr_Clear
from cpython.long cimport PyLong_AsLongAndOverflow
from mjrules.model.situation cimport (Fields, Reader, fields as situation_fields, BY_DISCARD, BY_ROB_KONG,
                                BY_DEALT)

ctypedef int (*ReadingCb)(void* ud, Reading* rd) noexcept nogil

cdef extern from *:
    """
    /* One hand's 34 counts (bytes) into the facts' int arrays: real and base get the counts, the return is
       their sum, *over says whether some count exceeds its limit, *odd how many are odd. With SSE2 (every x86-64) it is two 16-byte
       blocks and two single bytes; elsewhere the plain loop. Both read exactly cnt[0..33] and lim[0..33]. */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static inline void mj_widen16(__m128i v, int* a, int* b) {
        __m128i z = _mm_setzero_si128();
        __m128i lo = _mm_unpacklo_epi8(v, z), hi = _mm_unpackhi_epi8(v, z);
        __m128i q0 = _mm_unpacklo_epi16(lo, z), q1 = _mm_unpackhi_epi16(lo, z);
        __m128i q2 = _mm_unpacklo_epi16(hi, z), q3 = _mm_unpackhi_epi16(hi, z);
        _mm_storeu_si128((__m128i*)a, q0); _mm_storeu_si128((__m128i*)(a + 4), q1);
        _mm_storeu_si128((__m128i*)(a + 8), q2); _mm_storeu_si128((__m128i*)(a + 12), q3);
        _mm_storeu_si128((__m128i*)b, q0); _mm_storeu_si128((__m128i*)(b + 4), q1);
        _mm_storeu_si128((__m128i*)(b + 8), q2); _mm_storeu_si128((__m128i*)(b + 12), q3);
    }
    static inline int mj_load34(const unsigned char* cnt, const unsigned char* lim, int* real, int* base,
                                int* over, int* odd) {
        __m128i z = _mm_setzero_si128(), one = _mm_set1_epi8(1);
        __m128i a = _mm_loadu_si128((const __m128i*)cnt), b = _mm_loadu_si128((const __m128i*)(cnt + 16));
        __m128i ex = _mm_or_si128(_mm_subs_epu8(a, _mm_loadu_si128((const __m128i*)lim)),
                                  _mm_subs_epu8(b, _mm_loadu_si128((const __m128i*)(lim + 16))));
        __m128i s = _mm_add_epi64(_mm_sad_epu8(a, z), _mm_sad_epu8(b, z));
        __m128i o = _mm_add_epi64(_mm_sad_epu8(_mm_and_si128(a, one), z), _mm_sad_epu8(_mm_and_si128(b, one), z));
        *over = (_mm_movemask_epi8(_mm_cmpeq_epi8(ex, z)) != 0xFFFF) | (cnt[32] > lim[32]) | (cnt[33] > lim[33]);
        *odd = _mm_cvtsi128_si32(o) + _mm_cvtsi128_si32(_mm_srli_si128(o, 8)) + (cnt[32] & 1) + (cnt[33] & 1);
        mj_widen16(a, real, base);
        mj_widen16(b, real + 16, base + 16);
        real[32] = base[32] = cnt[32];
        real[33] = base[33] = cnt[33];
        return _mm_cvtsi128_si32(s) + _mm_cvtsi128_si32(_mm_srli_si128(s, 8)) + cnt[32] + cnt[33];
    }
    #else
    static inline int mj_load34(const unsigned char* cnt, const unsigned char* lim, int* real, int* base,
                                int* over, int* odd) {
        int k, total = 0, ov = 0, od = 0;
        for (k = 0; k < 34; k++) {
            ov |= cnt[k] > lim[k];
            real[k] = base[k] = cnt[k];
            total += cnt[k];
            od += cnt[k] & 1;
        }
        *over = ov;
        *odd = od;
        return total;
    }
    #endif
    /* Suit-table indices straight from the bytes (rank r's count times 5 ** r), three lanes at a time in a
       64-bit word; exact for counts up to 4 (every lane stays in its width). Little-endian words only: elsewhere
       (MJ_SWAR 0) the caller fills the units from the int counts instead. */
    #if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    #define MJ_SWAR 1
    #else
    #define MJ_SWAR 0
    #endif
    static inline unsigned int mj_idx8(unsigned long long w) {   /* bytes 0..7 of w */
        /* each step pairs neighbouring lanes, lo + hi * 5 ** width; the sums stay under 256, 65536 and 2 ** 32,
           so no carry crosses a lane and the mask drops the odd lanes' leftovers */
        w = (w + (w >> 8) * 5u) & 0x00FF00FF00FF00FFULL;
        w = (w + (w >> 16) * 25u) & 0x0000FFFF0000FFFFULL;
        return (unsigned int)(w + (w >> 32) * 625u);
    }
    static inline unsigned int mj_idx9(const unsigned char* p) {   /* p[0..8] */
        unsigned long long w;
        memcpy(&w, p, 8);
        return mj_idx8(w) + p[8] * 390625u;
    }
    static inline unsigned int mj_idx7(const unsigned char* p) {   /* p[0..6], reading p[-1..6] */
        unsigned long long w;
        memcpy(&w, p - 1, 8);
        return mj_idx8(w >> 8);
    }
    /* _pungs_exist's terms where every kind is a candidate of the wild, over the 34 counts b[0..33] (each at
       most 4): the wilds that make each kind's tiles pungs, summed (_PUNG_FP: 2 for a count of 1 or 4, 1 for
       2), in the low 8 bits, and how many counts are 1, 2 or 4 (a kind whose pair costs a wild less than its
       pungs) above them. Exactly _tpp's sums over the three suits plus the honours'. */
    static inline int mj_pung_terms(const unsigned char* b) {
    #if defined(__SSE2__) && defined(__GNUC__)
        __m128i one = _mm_set1_epi8(1), two = _mm_set1_epi8(2), four = _mm_set1_epi8(4), z = _mm_setzero_si128();
        __m128i a = _mm_loadu_si128((const __m128i*)b), c = _mm_loadu_si128((const __m128i*)(b + 16));
        __m128i a2 = _mm_cmpeq_epi8(a, two), c2 = _mm_cmpeq_epi8(c, two);
        __m128i a14 = _mm_or_si128(_mm_cmpeq_epi8(a, one), _mm_cmpeq_epi8(a, four));
        __m128i c14 = _mm_or_si128(_mm_cmpeq_epi8(c, one), _mm_cmpeq_epi8(c, four));
        /* a match is 0xFF: masked to the byte's term (at most 2 a block, 4 summed), added across by psadbw
           (no popcount of a movemask, which without -mpopcnt is a call into libgcc) */
        __m128i fp = _mm_sad_epu8(_mm_add_epi8(_mm_or_si128(_mm_and_si128(a14, two), _mm_and_si128(a2, one)),
                                               _mm_or_si128(_mm_and_si128(c14, two), _mm_and_si128(c2, one))), z);
        __m128i n = _mm_sad_epu8(_mm_add_epi8(_mm_and_si128(_mm_or_si128(a14, a2), one),
                                              _mm_and_si128(_mm_or_si128(c14, c2), one)), z);
        int need = _mm_cvtsi128_si32(fp) + _mm_cvtsi128_si32(_mm_srli_si128(fp, 8));
        int k124 = _mm_cvtsi128_si32(n) + _mm_cvtsi128_si32(_mm_srli_si128(n, 8));
        int k;
        for (k = 32; k < 34; k++) {   /* 0x218: two bits a count, _PUNG_FP; 0x16: bits 1, 2 and 4 */
            need += (0x218 >> (2 * (b[k] & 7))) & 3;
            k124 += (0x16 >> (b[k] & 7)) & 1;
        }
        return need | (k124 << 8);
    #else
        static const int fp[5] = {0, 2, 1, 0, 2};
        int k, need = 0, k124 = 0;
        for (k = 0; k < 34; k++) {
            need += fp[b[k]];
            k124 += b[k] == 1 || b[k] == 2 || b[k] == 4;
        }
        return need | (k124 << 8);
    #endif
    }
    """
    bint MJ_SWAR
    unsigned int mj_idx9(const unsigned char* p) noexcept nogil
    unsigned int mj_idx7(const unsigned char* p) noexcept nogil
    int mj_load34(const unsigned char* cnt, const unsigned char* lim, int* real, int* base, int* over,
                  int* odd) noexcept nogil
    int mj_pung_terms(const unsigned char* b) noexcept nogil


cdef enum:
    N5 = 1953125     # 5 ** 9: counts 0..4 of nine ranks
    INF = 1000
    NH = 24          # honour counts tabled directly
    N7 = 78125       # 5 ** 7: counts 0..4 of the seven honour kinds
    MAXPAT = 256
    KEYW = MAXG + 1

WIN, NOFIT, FAIL, REFUSE, ERR = range(5)
if NK != 34:   # mj_load34 reads a hand's counts as 34 bytes
    raise ImportError("mjrules.native.kernel was built for 34 kinds")


class Fallback(Exception):
    """The native code cannot decide this exactly (a number out of range, a table without a cell, ...)."""


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
                         Units* U=NULL) noexcept nogil:
    """Every reading of the concealed tiles as `sets` sets and a pair, in the reference's order; with needs (see
    Std), only those that may hold an open pattern, as *needs says when each is reached. U: NULL, or the units
    of x.f.real the caller made, whose suit indices and tile count serve when all its units are filled."""
    cdef Std S
    cdef int k, spare = 0
    S.x, S.cb, S.ud, S.dd, S.stop = x, cb, ud, dd, False
    S.all_needs = 15
    S.needs = needs if needs != NULL else &S.all_needs
    S.pairw, S.defer = 0, False
    S.rd.ngroups = 0
    S.rd.pattern = 0
    memcpy(S.c, x.f.real, NK * sizeof(int))
    if U != NULL and U.c == <const int*>x.f.real and U.n == 4:   # the caller's units: the same indices
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
    bint has_fail
    double fail_value
    int fail_pattern
    int fail_nmods
    int fail_why
    bint std_known       # std_ok holds the standard shape's feasibility on these facts (no melds), already
    bint std_ok          # worked out by the caller
    bint bounded         # patterns beaten by the best so far are dropped (_beaten), with the bounds below
    double* hi           # per pattern: an upper bound of its readings' values (NAN: none known), and
    int* mx              # at most how many modifiers hold on one of them; hk: 1 once both are worked out
    signed char* hk      # (_run_all's own arrays, so only while it runs)
    Units* units         # NULL, or the units of x.f.real the caller made (shared with _pungs_exist)
    int needs            # Spec.std_needs or'ed over the open patterns, kept by _on_reading (see Std)
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
    return p > R.best.pattern or (p == R.best.pattern and R.best_nmods >= R.mx[p])


cdef inline bint _key_gt(double v, int p, int nm, double bv, int bp, int bnm) noexcept nogil:
    if v != bv:
        return v > bv
    if p != bp:
        return p < bp
    return nm > bnm


cdef int _on_reading(void* ud, Reading* rd) noexcept nogil:
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
    cdef bint ok, improved = False
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
                if x.err:
                    return 1
                if why < 0 and R.mode == 2:
                    R.found = R.has_best = True
                    R.best_value = value
                    return 1
                if why < 0:
                    if not R.has_best or _key_gt(value, p, nm, R.best_value, R.best.pattern, R.best_nmods):
                        memcpy(R.best, rd, sizeof(Reading))
                        R.best_value, R.best_nmods, R.has_best = value, nm, True
                        improved = True
                elif not R.has_fail or _key_gt(value, p, nm, R.fail_value, R.fail_pattern, R.fail_nmods):
                    R.fail_value, R.fail_pattern, R.fail_nmods, R.fail_why, R.has_fail = value, p, nm, why, True
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
        x.st_gen = 0
        x.gen = 0


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
    f.nested, f.waits_all = True, 0
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
    cdef int p
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
    if not (x.ev_memo and x.mod_gen and x.mod_val and x.tb_gen and x.tb_val and x.tb_row and x.df_gen and x.df_val
            and x.free_pats and x.msu and x.fcu and x.msc and x.ssu):
        _ctx_free(x)
        raise MemoryError()
    x.ev_dirty = True   # calloc's zeros read as memoised falses until the first _reset_memo
    x.ms_dirty = True   # (and malloc's garbage as min_sure answers)
    _count_free_clear(x)
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
    free(x)


cdef inline void _count_free_clear(Ctx* x) noexcept nogil:
    """Forget the count-free tests (the facts they were made on changed)."""
    memset(x.msu, 2, (MAXJ + 1) * (x.spec.npat + 1))
    memset(x.fcu, 3, (MAXJ + 1) * (x.spec.npat + 1))
    memset(x.ssu, 0xFF, MAXJ + 1)


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


cdef bint _may_fit(Ctx* x, int sets, int std, int odd=-1) noexcept nogil:
    """False when no pattern can have a reading: the standard shape is infeasible by the tables, the pairs
    shape is ruled out (melds, or more odd counts than wilds), and every free pattern's three-valued test
    is already false. sets: the sets the concealed tiles must make; std: the standard shape's feasibility
    and odd: the number of kinds held an odd number of times, when known, else -1."""
    cdef Spec* sp = x.spec
    cdef int k
    if x.has_std and sets >= 0:
        if std < 0:
            std = _feasible(x, x.f.real, x.f.jokers, sets, 1)
        if std:
            return True
    if x.has_pairs and not x.f.nmelds and sp.win_size % 2 == 0:   # pairs take every tile: no meld
        if odd < 0:
            odd = 0
            for k in range(NK):
                odd += x.f.real[k] & 1
        if odd <= x.f.jokers:
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


cdef tuple _SMALL = tuple(range(NALL))   # the int objects of the kinds, made once


cdef class ShapeTest:
    """A kernel's cheap shape test (mjrules.model.shape's `may_fit`) as an object: the game, compiled, calls may_fit
    in C; anything else calls it as a function."""

    cpdef bint may_fit(self, object counts, object meld_counts, int nmelds, bint meld_seq, int wild, int plus=-1,
                       int wild2=-1) except -1:
        """Kernel._fit."""
        return (<Kernel>self.kernel)._fit(counts, meld_counts, nmelds, meld_seq, wild, plus, wild2)

    def __call__(self, counts, meld_counts, int nmelds, bint meld_seq, int wild, int plus=-1, int wild2=-1):
        return self.may_fit(counts, meld_counts, nmelds, meld_seq, wild, plus, wild2)


cdef class Kernel:
    """Evaluates situations with one generated variant module (its `capsule()`); not thread-safe."""

    cdef Spec* sp
    cdef object capsule
    cdef Ctx* x
    cdef Ctx* xi
    cdef double* opts
    cdef Reading best
    cdef Dedup dd
    cdef unsigned long long playable
    cdef tuple used_tables
    cdef int* ut           # used_tables as C ints, nut of them (_signature's loop)
    cdef int nut
    cdef Ctx* xc           # the per-hand check's context
    cdef double* chk_opts  # the check's option values (evaluate() overwrites self.opts)
    cdef double chk_win_by
    cdef int chk_wild      # the variant's fixed wild kind, or -1
    cdef int chk_live      # the most wilds a hand may hold
    cdef object undecided  # (counts, wilds, wild) -> the reference's verdict, where the native code cannot decide
    cdef object validate   # (counts, wilds, wild, pre_draw, row) -> the shared validation (see configure_check)
    cdef int xc_wild       # the wild kind xc's facts were prepared for (-2: none yet)
    cdef tuple pattern_names
    cdef unsigned char lim[NK]   # xc's _limits
    cdef tuple opts_of           # the tuple whose values self.opts holds (only _load_opts writes them)
    cdef unsigned char* sig      # the chosen reading's signature (_signature: sig_len bytes), and the
    cdef Py_ssize_t sig_len      # settlement's (_settle_signature: set_len bytes), of the last evaluate
    cdef unsigned char* set_sig
    cdef Py_ssize_t set_len
    cdef int r_code, r_pattern, r_why, r_waits_all   # the last evaluate's answer (_answer)
    cdef double r_value
    cdef unsigned char rb[NK + 2]  # _fill_sit's real counts as bytes (for _units_bytes), rb_tiles of them;
    cdef int rb_tiles              # rb_over: a count is over 4 (the bytes are then not used)
    cdef bint rb_over
    cdef bint fs_known           # _fill_sit's last candidate mask and its list (the wild rarely changes)
    cdef unsigned long long fs_cand
    cdef int fs_ncand
    cdef int fs_list[NK]

    def __cinit__(self, capsule, used_tables=()):
        cdef int i
        if not PyCapsule_IsValid(capsule, b"mjrules.native.kernel.Spec"):
            raise TypeError("expected the capsule of a generated mjrules variant module")
        self.sp = <Spec*>PyCapsule_GetPointer(capsule, b"mjrules.native.kernel.Spec")
        if self.sp.abi != CORE_ABI:
            raise ImportError(f"variant module built for core ABI {self.sp.abi}, this core is {CORE_ABI}")
        self.capsule = capsule
        _ensure_tables()
        self.x = _ctx_new(self.sp)
        self.xi = _ctx_new(self.sp)
        self.x.inner = self.xi
        self.xi.small = False   # var_waits_all draws every kind into it, a fifth copy of a kind held four times too
        self.opts = <double*>calloc(self.sp.nopt + 1, sizeof(double))
        if self.opts == NULL or _dedup_init(&self.dd, 1024) != 0:
            raise MemoryError()
        self.x.opts = self.xi.opts = self.opts
        self.playable = 0
        for i in range(self.sp.nplayable):
            if 0 <= self.sp.playable[i] < 64:
                self.playable |= 1ULL << self.sp.playable[i]
        self.used_tables = tuple(int(t) for t in used_tables)
        self.nut = len(self.used_tables)
        self.ut = <int*>calloc(self.nut + 1, sizeof(int))
        if self.ut == NULL:
            raise MemoryError()
        for i in range(self.nut):
            if not 0 <= self.used_tables[i] < self.sp.ntab:
                raise ValueError(f"table {self.used_tables[i]} is not one of the variant's {self.sp.ntab}")
            self.ut[i] = self.used_tables[i]
        self.chk_opts = <double*>calloc(self.sp.nopt + 1, sizeof(double))
        if self.chk_opts == NULL:
            raise MemoryError()
        self.xc = _check_ctx(self.sp, self.chk_opts)
        self.chk_win_by = NAN
        self.chk_wild = -1
        self.xc_wild = -2
        self.sig_len = self.sp.nmod + self.sp.nev + 4 * (1 + self.nut) + 8 * (self.sp.ndef + 1)
        self.set_len = 8 * self.sp.nwin + 12
        self.sig = <unsigned char*>calloc(self.sig_len, 1)
        self.set_sig = <unsigned char*>calloc(self.set_len, 1)
        if self.sig == NULL or self.set_sig == NULL:
            raise MemoryError()

    def __dealloc__(self):
        _ctx_free(self.x)
        _ctx_free(self.xi)
        free(self.opts)
        _dedup_free(&self.dd)
        _ctx_free(self.xc)
        free(self.chk_opts)
        free(self.ut)
        free(self.sig)
        free(self.set_sig)

    cdef int _fill(self, s, double win_by) except -1:
        return self._fill_sit(s if type(s) is Fields else situation_fields(s), win_by)

    cdef int _fill_sit(self, Fields st, double win_by) except -1:
        """The facts of a situation's fields into self.x (x.err says what it cannot read)."""
        cdef Ctx* x = self.x
        cdef Facts* f = &x.f
        cdef int k, i
        cdef bint kong
        cdef tuple melds = st.melds
        memset(f, 0, sizeof(Facts))
        x.err = 0
        f.w = f.w2 = -1
        if self.sp.has_wild and st.wild != -1:
            f.w = st.wild
            if st.wild2 != -1 and st.wild2 != st.wild:
                f.w2 = st.wild2
        f.wild_on = f.w >= 0
        memset(self.rb, 0, sizeof(self.rb))
        self.rb_tiles, self.rb_over = 0, False
        cdef const unsigned char* kinds = <const unsigned char*>PyByteArray_AsString(st.kinds)
        if kinds == NULL or PyByteArray_Size(st.kinds) < st.nkinds:
            raise ValueError("Fields.kinds holds fewer than nkinds kinds")
        for i in range(st.nkinds):
            k = kinds[i]
            if k == f.w:
                f.jokers += 1
            elif k == f.w2:
                f.jokers += 1
                f.jw2 += 1
            elif 0 <= k < NK:
                f.real[k] += 1
                self.rb[k] += 1
                self.rb_tiles += 1
                self.rb_over |= f.real[k] > 4
            else:
                x.err |= ERR_OTHER
        f.nmelds = len(melds)
        for m in melds:
            kind = m.kind
            kong = kind == "kong"
            if kind == "chi":
                f.meld_seq = True
            if kong:
                f.kongs += 1
                if m.concealed:
                    f.kongs_concealed += 1
                else:
                    f.kongs_exposed += 1
            if not (kong and m.concealed):
                f.exposed += 1
            if f.nmg < MAXM:
                for k in m.tiles:
                    if 0 <= k < NK:
                        f.mg[f.nmg] |= 1ULL << k
                f.nmg += 1
            else:
                x.err |= ERR_OTHER
            for k in m.tiles:
                if 0 <= k < NK:
                    f.meld_counts[k] += 1
                    if not kong:
                        f.nonkong[k] += 1
                else:
                    x.err |= ERR_OTHER
        for k in range(NK):
            f.base[k] = f.real[k] + f.meld_counts[k]
        f.cand = self.sp.stands
        if self.sp.face_value and 0 <= f.w < 64 and (self.playable >> f.w) & 1:
            f.cand |= 1ULL << f.w
        if self.sp.face_value and 0 <= f.w2 < 64 and (self.playable >> f.w2) & 1:
            f.cand |= 1ULL << f.w2
        if f.cand >> NK and f.jokers:
            x.err |= ERR_OTHER
        if not self.fs_known or self.fs_cand != f.cand:   # the list of the last mask serves again
            self.fs_ncand = 0
            for k in range(NK):
                if (f.cand >> k) & 1:
                    self.fs_list[self.fs_ncand] = k
                    self.fs_ncand += 1
            self.fs_cand, self.fs_known = f.cand, True
        f.ncand = self.fs_ncand
        memcpy(f.cand_list, self.fs_list, self.fs_ncand * sizeof(int))
        if f.jokers > MAXJ:
            x.err |= ERR_OTHER
        f.nflowers = len(st.flowers)
        for item in st.flowers:
            k = item
            if 0 <= k < NALL:
                f.flower_counts[k] += 1
            else:
                x.err |= ERR_OTHER
        f.seat, f.dealer, f.discarder = st.seat, st.dealer, st.discarder
        f.is_dealer = f.seat == f.dealer
        f.wild_discards, f.dealer_streak = st.wild_discards, st.dealer_streak
        f.first_turn, f.first_discard = st.first_turn, st.first_discard
        f.last_tile, f.after_kong, f.first_draw = st.last_tile, st.after_kong, st.first_draw
        f.declared_ready = st.declared_ready
        f.no_melds = f.nmelds == 0
        f.winners = st.winners
        f.dealer_won = f.is_dealer if st.dealer_won < 0 else st.dealer_won == 1
        f.win_by = win_by
        f.dealt = st.by == BY_DEALT
        f.win_tile = st.win_tile
        f.waits_all = -1
        return 0

    cdef int _load_opts(self, tuple opts) except -1:
        cdef int i
        if opts is self.opts_of:   # the very tuple loaded last (FastEvaluate's defaults, every call): loaded
            return 0
        self.opts_of = None
        if len(opts) != self.sp.nopt:
            raise ValueError("wrong number of option values")
        for i in range(self.sp.nopt):
            self.opts[i] = opts[i]
        self.opts_of = opts
        return 0

    cdef int _load_situation(self, s, tuple opts, double win_by) except -1:
        """The option values and the facts of situation s into self.x (x.err says what it cannot read)."""
        self._load_opts(opts)
        return self._fill(s, win_by)

    def evaluate(self, s, tuple opts, double win_by, int waits_all=-1):
        """Decide a checked Situation (or its Fields). Returns a tuple whose first item is WIN, NOFIT, FAIL,
        REFUSE or ERR: (WIN, pattern, value, signature, waits_all) (the signature as Kernel._signature packs it;
        the chosen reading and its signatures stay in the kernel, where Results reads them),
        (FAIL, why, value, waits_all), (NOFIT, waits_all), (REFUSE, reason), (ERR,)."""
        self._decide_fields(s if type(s) is Fields else situation_fields(s), opts, win_by, waits_all)
        return self._answer()

    cdef tuple _answer(self):
        """The last evaluate's answer as evaluate() returns it."""
        cdef int c = self.r_code
        if c == WIN:
            return (WIN, self.r_pattern, self.r_value, self.signature(), self.r_waits_all)
        if c == FAIL:
            return (FAIL, self.r_why, self.r_value, self.r_waits_all)
        if c == NOFIT:
            return (NOFIT, self.r_waits_all)
        if c == REFUSE:
            return (REFUSE, self.r_why)
        return (ERR,)

    def signature(self) -> bytes:
        """The last winning evaluate's signature (see _signature) as bytes."""
        return PyBytes_FromStringAndSize(<char*>self.sig, self.sig_len)

    cdef inline int _said(self, int code, int why=0, double value=0.0) noexcept:
        self.r_code, self.r_why, self.r_value, self.r_waits_all = code, why, value, self.x.f.waits_all
        return code

    cdef int _decide_fields(self, Fields st, tuple opts, double win_by, int waits_all) except -1:
        """evaluate() of a situation's fields: the answer's code (WIN, NOFIT, FAIL, REFUSE or ERR), the rest of
        it in r_* (_answer) and, for WIN, the chosen reading in best and its signature in sig."""
        cdef Ctx* x = self.x
        cdef Spec* sp = self.sp
        cdef Run R
        cdef Reading* rd = &self.best
        cdef int i, sets, std
        cdef bint ok
        cdef Units U
        self._load_opts(opts)
        self._fill_sit(st, win_by)
        if x.err:
            return self._said(ERR)
        if waits_all >= 0:
            x.f.waits_all = waits_all
        _reset_memo(x)
        if st.by == BY_DISCARD:
            if sp.has_wild and sp.discard_unclaimable and st.win_tile >= 0 and (st.win_tile == st.wild or
                                                                                 st.win_tile == st.wild2):
                return self._said(REFUSE, 0)
            ok = sp.has_win_on_discard and sp.claim(x)
            if x.err:
                return self._said(ERR)
            if not ok:
                return self._said(REFUSE, 1)
        elif st.by == BY_ROB_KONG:
            if not sp.rob_kong:
                return self._said(REFUSE, 2)
            if st.win_tile != -1 and (st.win_tile == st.wild or st.win_tile == st.wild2):
                return self._said(REFUSE, 3)
        sets = (sp.win_size - 2) // 3 - x.f.nmelds
        if MJ_SWAR and not self.rb_over:   # the hand's units, looked up once for the feasibility and the shapes,
            _units_bytes(x.f.real, &U, self.rb, self.rb_tiles, -1, 0)   # from the bytes: a multiply a suit
        else:
            _units(x.f.real, &U, x.small)
        std = _feasible_u(x, &U, x.f.jokers, sets, 1) if x.has_std and sets >= 0 else -1
        if not _may_fit(x, sets, std):
            if x.err:
                return self._said(ERR)
            return self._said(NOFIT)
        memset(&R, 0, sizeof(Run))
        R.x, R.best, R.legal_only = x, rd, True   # the best legal reading: what a forbid rules out is skipped
        R.units = &U
        R.std_known, R.std_ok = std >= 0, std > 0
        _run_all(x, &R, &self.dd)
        if x.err:
            return self._said(ERR)
        if not R.has_best:                         # no win: every reading again, for the refusal to report
            memset(&R, 0, sizeof(Run))
            R.x, R.best = x, rd
            _run_all(x, &R, &self.dd)
            if x.err:
                return self._said(ERR)
            if R.has_best:                         # pragma: no cover - the first pass finds every legal reading
                return self._said(ERR)
            if R.has_fail:
                return self._said(FAIL, R.fail_why, R.fail_value)
            return self._said(NOFIT)
        x.gen += 1
        self._signature(rd, R.best_value)
        if x.err:
            return self._said(ERR)
        self.r_pattern = rd.pattern
        return self._said(WIN, 0, R.best_value)

    cdef void _signature(self, Reading* rd, double value) noexcept:
        """All the explanation between the pattern's line and the payments' reads of the chosen reading, packed
        into self.sig: a byte per modifier and per event (1: holds), the status, the used tables' rows (int32
        each), the defines' values and the value (doubles each). `parts` unpacks it."""
        cdef Ctx* x = self.x
        cdef Spec* sp = self.sp
        cdef unsigned char* b = self.sig
        cdef int i, t, o = 0
        cdef int32_t v
        cdef double d
        for i in range(sp.nmod):
            b[o] = ref_mod(x, rd, i)
            o += 1
        for i in range(sp.nev):
            b[o] = ref_event(x, i)
            o += 1
        v = ref_status(x, rd)
        memcpy(b + o, &v, 4)
        o += 4
        for i in range(self.nut):
            t = self.ut[i]
            ref_table(x, rd, t)
            v = x.tb_row[t]
            memcpy(b + o, &v, 4)
            o += 4
        for i in range(sp.ndef):
            d = ref_define(x, rd, i)
            memcpy(b + o, &d, 8)
            o += 8
        memcpy(b + o, &value, 8)

    def parts(self, bytes sig):
        """A signature (see _signature) as (modifiers, events, status, table rows, defines): the indices of the
        modifiers and events that hold, the status index (-1: none), the rows, the defines' values."""
        cdef Spec* sp = self.sp
        cdef const char* b = PyBytes_AsString(sig)
        cdef int i, o = 0, nt = len(self.used_tables)
        cdef int32_t v
        cdef double d
        if len(sig) != sp.nmod + sp.nev + 4 * (1 + nt) + 8 * (sp.ndef + 1):
            raise ValueError("not a signature of this kernel")
        mods = tuple([i for i in range(sp.nmod) if b[i]])
        o = sp.nmod
        events = tuple([i for i in range(sp.nev) if b[o + i]])
        o += sp.nev
        memcpy(&v, b + o, 4)
        status = v
        o += 4
        rows = []
        for i in range(nt):
            memcpy(&v, b + o, 4)
            rows.append(v)
            o += 4
        defines = []
        for i in range(sp.ndef):
            memcpy(&d, b + o, 8)
            defines.append(d)
            o += 8
        return mods, events, status, tuple(rows), tuple(defines)

    # ---- the bare win check ------------------------------------------------------------------------------
    def configure_check(self, tuple opts, double win_by, int fixed_wild, int live, undecided, validate,
                        tuple pattern_names=()):
        """The context of is_win, wait_kinds and check_batch: these option values, this win_by id (the
        self-draw's), the variant's fixed wild kind (-1: none), the most live wilds of each wild kind (-1: each kind's
        copies less the face-up indicator's, for the first kind), and the callbacks for
        hands the native code cannot decide (the reference's verdict) and for arguments that are not plainly
        valid: validate(counts, wilds, wild, pre_draw, row) is the shared validation (mjrules.model.check.validate),
        which raises the ValueError that names the fault or returns (counts, wilds, wild kind) as plain ints."""
        cdef int i
        if len(opts) != self.sp.nopt:
            raise ValueError("wrong number of option values")
        for i in range(self.sp.nopt):
            self.chk_opts[i] = opts[i]
        self.chk_win_by = win_by
        self.chk_wild = fixed_wild
        self.chk_live = live
        self.undecided = undecided
        self.validate = validate
        self.pattern_names = pattern_names
        self.xc_wild = -2

    cdef bytes _plain(self, counts, wilds, wild, bint pre_draw, int* n, int* w):
        """A bare check's arguments as 34 count bytes (returned), the wilds (n) and the wild kind (w, -1: none):
        taken as they are where they plainly are such (counts as bytes or a list or tuple of ints 0..255, wilds
        an int 0..255, wild None or a kind index), else from the shared validation, which refuses what the
        reference back end refuses, with the same error."""
        cdef bytes b = _plain_counts(counts)
        cdef int k = _small(wilds)
        if b is not None and k >= 0 and (wild is None or (type(wild) is int and _small(wild) < NK
                                                          and _small(wild) >= 0)):
            n[0] = k
            w[0] = self.chk_wild if wild is None else _small(wild)
            return b
        c, k2, w2 = self.validate(counts, wilds, wild, pre_draw, None)
        n[0] = k2
        w[0] = wild_code(w2)
        return bytes(c)

    cdef int _load(self, bytes counts, int wilds, int w, int size, Units* U) except -1:
        """Prepare xc for the wild kind w (when it changed) and load one hand: CHK_OK or an error code (U: as
        _load_row's)."""
        cdef int e
        if w != self.xc_wild:
            if self.xc_wild == -2:   # not prepared yet, or its last preparation failed
                e = _prep_check(self.xc, w, self.playable, self.chk_win_by)
                if not e:
                    _limits(self.xc, self.playable, self.lim)
            else:
                e = _set_wild(self.xc, w, self.playable, self.lim)
            if e:
                self.xc_wild = -2
                return e
            self.xc_wild = w
        return _load_row(self.xc, counts, wilds, size, self.chk_live, self.lim, U)

    cdef bytes _hand(self, counts, wilds, wild, bint pre_draw, Units* U, int* n):
        """Load a bare check's hand (complete, or one tile short with pre_draw) into xc: its counts as bytes
        (returned) and wilds (n); a hand the kernel refuses gets the shared validation's ValueError."""
        cdef int w
        cdef bytes b = self._plain(counts, wilds, wild, pre_draw, n, &w)
        if self._load(b, n[0], w, self.sp.win_size - (1 if pre_draw else 0), U):
            self.validate(counts, wilds, wild, pre_draw, None)
            raise ValueError("invalid hand")   # (the validation refuses every hand the kernel does)
        return b

    cdef int _decide_hand(self, counts, wilds, wild, int mode, double* val, int* pat) except -2:
        """_decide (mode 2: verdict, 0: best value) on a complete hand, or the shared validation's ValueError."""
        cdef Units U
        cdef int n
        self._hand(counts, wilds, wild, False, &U, &n)
        return _decide(self.xc, mode, val, pat, -1, -1, False, &U, 0)

    def minimum_sure(self, counts, wilds=0, wild=None, int pattern=-1, bint fails=False,
                     bint any_counts=False):
        """For tests: on is_win's facts for this hand, does the generated minimum-sure test find that every
        reading of `pattern` meets every minimum (the verdict then skips enumerating readings), or with `fails`
        that every one fails a minimum (the pattern is then never tried)? With any_counts, the test with the
        counts unknown (what _minimum_bound_ask asks first in a check context, remembered per wilds held): every
        reading of the pattern meets every minimum whatever the tiles, on these facts. The generated test
        itself, not _minimum_bound's remembered answers."""
        cdef bint r
        cdef int n
        self._hand(counts, wilds, wild, False, NULL, &n)
        if any_counts and fails:
            raise ValueError("any_counts asks only whether every reading meets the minimums")
        if not 0 <= pattern < self.sp.npat:
            raise ValueError("no such pattern")
        if self.sp.nminimum == 0:
            return not fails
        _reset_memo(self.xc)
        r = (self.sp.min_sure(self.xc, NULL if any_counts else self.xc.f.base, pattern) &
             (MS_FAILS if fails else MS_MEETS)) != 0
        if self.xc.err:
            self.xc.err = 0
            return False
        return r

    def value_bounds(self, counts, wilds=0, wild=None, int pattern=-1):
        """For tests: on is_win's facts for this hand, the generated bounds (lo, hi) of the value of every
        reading of `pattern` (NaN where none is known) and the most modifiers that may hold on one of them; the
        best-reading search drops a pattern none of whose readings can beat the best found so far."""
        cdef double lo = NAN, hi = NAN
        cdef int mods, n
        self._hand(counts, wilds, wild, False, NULL, &n)
        if not 0 <= pattern < self.sp.npat:
            raise ValueError(f"no pattern {pattern}")
        _reset_memo(self.xc)
        self.sp.value_bounds(self.xc, self.xc.f.base, pattern, &lo, &hi)
        if self.xc.err:
            lo = hi = NAN
        self.xc.err = 0
        mods = self.sp.mods_bound(self.xc, self.xc.f.base, pattern)
        if self.xc.err:
            mods = self.sp.nmod
        self.xc.err = 0
        return lo, hi, mods

    def is_win(self, counts, wilds=0, wild=None):
        """Does a complete concealed hand win (self-drawn, no melds, no winning tile named)? counts: 34 kind
        counts (bytes for speed, or any sequence of ints), wilds: wild tiles besides, wild: the wild kind
        (an index or a tile name; default the variant's fixed wild)."""
        cdef int r, pat
        cdef double val
        r = self._decide_hand(counts, wilds, wild, 2, &val, &pat)
        if r < 0:
            return self.undecided(counts, wilds, wild)
        return r == 1

    def hand_value(self, counts, wilds=0, wild=None):
        """(value, pattern name) of the best legal reading of is_win's hand, or None when it does not win.
        `undecided` answers where the native code cannot decide exactly."""
        cdef int r, pat
        cdef double val
        r = self._decide_hand(counts, wilds, wild, 0, &val, &pat)
        if r < 0:
            return self.undecided(counts, wilds, wild, True)
        if r == 0:
            return None
        return (int(val) if val == <long long>val else val), self.pattern_names[pat]

    def wait_kinds(self, counts, wilds=0, wild=None):
        """The kinds (indices) completing a pre-draw concealed hand (one tile short), by is_win's verdict;
        drawing the wild kind adds a wild."""
        cdef Ctx* x = self.xc
        cdef int e, r, k, i, w, w2, pat, sets, u, std, odd, odd0, cap
        cdef bint kw      # kind k is a wild kind
        cdef Plus P       # the pre-draw hand's units as _feasible sees them
        cdef Units U, V   # the pre-draw hand's units, and those of the hand with kind k added
        cdef Units* Vp    # &V, or NULL without wilds (_units_plus)
        cdef int found[NK]
        cdef int nfound = 0
        cdef double val
        cdef bint undecided = False, odd_size, pairs_ok, fits
        cdef int nkeep
        cdef unsigned int skip = 0   # the units (bits 0..9) where no real tile drawn can complete the hand
        cdef int live[MAXPAT]
        cdef int* keep    # the free patterns to test when a real tile is drawn (see below), nkeep of them
        cdef int sure = 0    # _sure_shapes: a real tile drawn whose hand has a reading of one completes it
        cdef int unsure = 0  # (SHAPE_NO_*) what a hand then has no reading of when it has none of theirs
        cdef int shapes
        cdef Sure S
        cdef int held
        cdef bytes b = self._hand(counts, wilds, wild, True, &U, &held)
        w, w2 = x.f.w, x.f.w2
        cap = _live_first(self.sp.copies[w], self.chk_live) + (
            _live_second(self.sp.copies[w2], self.chk_live) if w2 >= 0 else 0) if w >= 0 else 0
        sets = (self.sp.win_size - 2) // 3
        odd_size = (self.sp.win_size - 2) % 3 != 0
        _units_all(&U)    # the suits' table indices, to add one tile to without a rescan
        odd0 = U.odd
        _plus_init(x, &P, &U)
        pairs_ok = x.has_pairs and not x.f.nmelds and self.sp.win_size % 2 == 0   # as in _may_fit
        # A free pattern whose three-valued test is already false on the pre-draw counts is false on every count
        # vector that contains them (the test's contract, which the wild enumeration relies on too): adding a
        # real tile leaves every other fact alone, so the test need not run again for a real drawn tile (the
        # wild's kind adds a wild: _decide tests every pattern itself).
        keep, nkeep = x.free_pats, x.nfree
        if 0 < x.nfree <= MAXPAT:
            _reset_memo(x)
            x.f.waits_all = -1
            keep, nkeep = live, _viable_pats(x, x.free_pats, x.nfree, live)
        if not odd_size:
            sure = _sure_shapes(x, sets)
            if sure and not sure & SHAPE_SURE_FREE:   # (with it, every real kind drawn wins: no shape is asked)
                _sure_init(x, &U, &S)
            unsure = (SHAPE_NO_PUNGS if sure & SHAPE_PUNGS else 0) | (SHAPE_NO_PAIRS if sure & SHAPE_PAIRS else 0)
        # A real tile drawn into unit u changes only u's f and g, so the standard verdict below needs at least
        # total - F[u] + min(0, the other units' least g - f) wilds (f, g >= 0); where that exceeds the wilds
        # held, no free pattern is left and the pairs cannot fit, every kind of u completes nothing.
        if not odd_size and nkeep == 0 and not (pairs_ok and odd0 - 1 <= x.f.jokers):
            for u in range(10):
                if P.total - P.F[u] + _lo(0, P.lo2 if u == P.lo1u else P.lo1) > x.f.jokers:
                    skip |= 1u << u
        for i in range(self.sp.nplayable):
            k = self.sp.playable[i]
            if k < 0 or k >= NK:
                continue
            kw = k == w or k == w2
            if skip and not kw and (skip >> (k // 9 if k < 27 else k - 24)) & 1:
                continue
            if kw:
                if x.f.jokers >= cap or x.f.jokers >= MAXJ:
                    continue
                x.f.jokers += 1
                x.f.jw2 += k == w2
                odd = odd0
            else:
                if x.f.real[k] >= self.sp.copies[k]:
                    continue
                odd = odd0 - 1 if x.f.real[k] & 1 else odd0 + 1
                x.f.real[k] += 1
                x.f.base[k] += 1
            x.err = 0
            x.f.waits_all = -1
            Vp = _units_plus(&U, &V, k, k if kw else w, odd, x)   # (NULL without wilds) for both tests below
            # with wilds most real kinds have a sure shape: that test first, then the tables
            if sure and not kw and (sure & SHAPE_SURE_FREE or _sure_shape(x, sure, &S, Vp, k // 9 if k < 27 else 3,
                                                                      sets)):
                r = 1   # (_decide's _shape_settles would say so, after its own set-up)
            else:
                shapes = unsure if sure and not kw else 0   # (shapes just found empty: _decide asks them no more)
                if nkeep == 0 and not kw:   # (no free pattern viable before the draw: none after a real tile)
                    shapes |= SHAPE_NO_FREE
                if kw or odd_size:
                    std = -1
                else:                                   # only k's unit changed: the others' table entries stand
                    std = _plus_std(x, &P, &U, x.f.real, k, x.f.jokers, sets)
                if not std:   # _may_fit (_decide's own first refusal) inline: most kinds complete nothing
                    fits = pairs_ok and odd <= x.f.jokers
                    if not fits and nkeep:             # (k is not the wild's kind here: its std is -1)
                        _reset_memo(x)
                        fits = _any_viable(x, keep, nkeep)
                else:
                    fits = True
                r = _decide(x, 2, &val, &pat, std, odd, not std, Vp, shapes) if fits else 0
            if kw:
                x.f.jokers -= 1
                x.f.jw2 -= k == w2
            else:
                x.f.real[k] -= 1
                x.f.base[k] -= 1
            if r < 0:
                undecided = True
            elif r:
                found[nfound] = k
                nfound += 1
        if undecided:
            return [k for k in range(NK) if self._completes(b, held, w, w2, k)]
        return [_SMALL[found[i]] for i in range(nfound)]   # (the int objects made once)

    def _completes(self, bytes counts, int wilds, int w, int w2, int k):
        """The reference's verdict on the hand plus one tile of kind k (False where none is left)."""
        c = bytearray(counts)
        cdef int cap = 0
        if w >= 0:
            wilds, c[w] = wilds + c[w], 0
            cap = _live_first(self.sp.copies[w], self.chk_live)
        if w2 >= 0:
            cap += _live_second(self.sp.copies[w2], self.chk_live)
        if k == w:
            wilds += 1
        else:
            c[k] += 1
        if not (self.playable >> k) & 1 or k != w and k != w2 and c[k] > self.sp.copies[k] or w >= 0 and (
                wilds + (c[w2] if w2 >= 0 else 0) > cap):
            return False
        return self.undecided(bytes(c), wilds, wild_kinds(_wc(w, w2)))

    def check_batch(self, const unsigned char[:, ::1] counts, const unsigned char[::1] wilds, signed char[::1] out,
                    int wild=-1, double[::1] values=None, int[::1] patterns=None, const int[:, ::1] kinds=None,
                    Py_ssize_t row0=0):
        """is_win for every row of counts (n x 34) with wilds[i], into out[i] (1, 0, or -1: undecided).
        With values and patterns, also the best reading's value and pattern index (mode 0: slower). wild: the
        wild kinds' code (_wc) for every row; kinds instead: each row's kinds, n x 1 (a kind, -1: none) or n x 2
        (a pair, or a kind and -1, or none). row0: the first row's number in the whole batch (an error names
        row0 + i).
        Runs without the GIL in its own context: threads may check disjoint slices at once."""
        cdef Py_ssize_t n = counts.shape[0], i
        cdef Py_ssize_t bad = -1
        cdef int e = 0, size = self.sp.win_size, r, mode = 2, pat = -1, c
        cdef bint pairs = kinds is not None and kinds.shape[1] == 2
        cdef double val = 0.0
        cdef unsigned long long playable = self.playable
        cdef double win_by = self.chk_win_by
        cdef int live = self.chk_live
        cdef unsigned char lim[NK]
        cdef Units U
        cdef Ctx* x
        if counts.shape[1] != NK:
            raise ValueError(f"counts must have {NK} columns, one per kind")
        if wilds.shape[0] != n or out.shape[0] != n or kinds is not None and kinds.shape[0] != n:
            raise ValueError("counts, wilds, kinds and out must have the same number of rows")
        if kinds is not None and not 1 <= kinds.shape[1] <= 2:
            raise ValueError("kinds must have one or two columns")
        if values is not None or patterns is not None:
            if values is None or patterns is None or values.shape[0] != n or patterns.shape[0] != n:
                raise ValueError("values and patterns come together, one per row")
            mode = 0
        x = _check_ctx(self.sp, self.chk_opts)
        try:
            with nogil:
                if kinds is not None and n:
                    wild = _wc(kinds[0, 0], kinds[0, 1]) if pairs else kinds[0, 0]
                e = _prep_check(x, wild, playable, win_by)
                _limits(x, playable, lim)
                for i in range(n):
                    if kinds is not None and not e:
                        c = _wc(kinds[i, 0], kinds[i, 1]) if pairs else kinds[i, 0]
                        if c != wild:
                            wild = c
                            e = _set_wild(x, wild, playable, lim)
                    if not e:
                        e = _load_row(x, &counts[i, 0], wilds[i], size, live, lim, &U)
                    if e:
                        bad = i
                        break
                    r = _decide(x, mode, &val, &pat, -1, -1, False, &U, 0)
                    out[i] = r
                    if mode == 0:
                        values[i] = val if r == 1 else NAN
                        patterns[i] = pat if r == 1 else -1
        finally:
            _ctx_free(x)
        if bad >= 0:
            self.validate(bytes(counts[bad]), wilds[bad], wild_kinds(wild), False, row0 + bad)
            raise ValueError(f"row {row0 + bad}: invalid hand")

    def fit_kinds(self, s, tuple opts, double win_by):
        """The playable kinds that, added to the pre-draw situation s, leave some pattern a shape that can
        still fit (_may_fit); every other kind surely gives NOFIT. None when s cannot be read natively."""
        cdef Ctx* x = self.x
        cdef Spec* sp = self.sp
        cdef int i, k, w, sets
        cdef bint fits
        self._load_situation(s, opts, win_by)
        if x.err:
            return None
        _reset_memo(x)
        w = x.f.w
        sets = (sp.win_size - 2) // 3 - x.f.nmelds
        out = []
        for i in range(sp.nplayable):
            k = sp.playable[i]
            if k < 0 or k >= NK:
                out.append(k)
                continue
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
                out.append(k)
        return out

    def shape_test(self):
        """_fit as a ShapeTest: the object the game calls in C (and, being callable, a mjrules.model.shape MayFit)."""
        cdef ShapeTest t = ShapeTest.__new__(ShapeTest)
        t.kernel = self
        return t

    cdef bint _fit(self, object counts, object meld_counts, int nmelds, bint meld_seq, int wild, int plus,
                   int wild2) except -1:
        """False only when no pattern's shape can take a complete hand whatever its other facts: `counts` the
        concealed tiles (42 or 34 kind counts as bytes or bytearray, the wild kind's tiles among them), `plus`
        one tile more of that kind (-1: none), `meld_counts` the melds' tiles likewise, `nmelds` how many melds
        (a kong counts as three tiles) and `meld_seq` whether one is a chi; `wild2` a second wild kind (-1:
        none). The game's cheap test before it
        judges a hand in full; the caller makes sure no free pattern's test reads other facts
        (NativeEngine.fit_test)."""
        cdef Ctx* x = self.xc
        cdef const unsigned char* c
        cdef const unsigned char* mc
        cdef unsigned char buf[NK]
        cdef int k, e, size = self.sp.win_size - 3 * nmelds
        cdef bint fits
        if not (isinstance(counts, (bytes, bytearray)) and isinstance(meld_counts, (bytes, bytearray))) \
                or len(counts) < NK or len(meld_counts) < NK or nmelds < 0 or size < 0:
            raise ValueError("may_fit takes counts and meld counts as bytes of 34 or more kinds")
        c = <const unsigned char*>(PyBytes_AS_STRING(counts) if type(counts) is bytes else
                                   PyByteArray_AS_STRING(counts))
        mc = <const unsigned char*>(PyBytes_AS_STRING(meld_counts) if type(meld_counts) is bytes else
                                    PyByteArray_AS_STRING(meld_counts))
        memcpy(buf, c, NK)
        if 0 <= plus < NK:
            buf[plus] += 1
        elif plus >= NK:
            return False   # a flower or other unplayable kind never completes a hand
        if wild2 >= 0 and wild >= 0:
            wild = _wc(wild, wild2)
        if wild != self.xc_wild:
            if self.xc_wild == -2:
                e = _prep_check(x, wild, self.playable, self.chk_win_by)
                if not e:
                    _limits(x, self.playable, self.lim)
            else:
                e = _set_wild(x, wild, self.playable, self.lim)
            if e:
                self.xc_wild = -2
                return True   # facts it cannot prepare: the full judge decides
            self.xc_wild = wild
        if _load_row(x, buf, 0, size, self.chk_live, self.lim, NULL):
            return True       # counts it does not take (over the copies, say): the full judge decides
        for k in range(NK):
            x.f.base[k] = x.f.real[k] + mc[k]
        x.f.nmelds, x.f.no_melds, x.f.meld_seq = nmelds, nmelds == 0, meld_seq
        _reset_memo(x)
        fits = _may_fit(x, (self.sp.win_size - 2) // 3 - nmelds, -1) or x.err != 0
        x.f.nmelds, x.f.no_melds, x.f.meld_seq, x.err = 0, True, False, 0   # is_win's facts again
        for k in range(NK):
            x.f.base[k] = x.f.real[k]
        return fits

    def win(self, int i, double value):
        """A win-settlement expression on the reading just chosen, with `value` set."""
        cdef double r
        self.x.value = value
        self.x.err = 0
        r = self.sp.win(self.x, &self.best, i)
        if self.x.err:
            raise Fallback(i)
        return r

    cdef bint _settle_signature(self, double value) noexcept:
        """What settle_win reads of the reading just chosen, packed into self.set_sig: every win-settlement
        expression's value with `value` set (doubles), then the winner, the discarder and the dealer (int32
        each); False where the native code cannot evaluate an expression (wins() gives None there)."""
        cdef unsigned char* b = self.set_sig
        cdef double r
        cdef int i
        cdef int32_t who[3]
        self.x.value = value
        for i in range(self.sp.nwin):
            self.x.err = 0
            r = self.sp.win(self.x, &self.best, i)
            if self.x.err:
                self.x.err = 0
                return False
            memcpy(b + 8 * i, &r, 8)
        who[0], who[1], who[2] = self.x.f.seat, self.x.f.discarder, self.x.f.dealer
        memcpy(b + 8 * self.sp.nwin, who, 12)
        return True

    def wins(self, double value):
        """Every win-settlement expression on the reading just chosen, with `value` set: a tuple in the order of
        codegen.win_exprs, None for one the native code cannot evaluate (win() would raise Fallback)."""
        cdef double r
        cdef int i
        out = []
        self.x.value = value
        for i in range(self.sp.nwin):
            self.x.err = 0
            r = self.sp.win(self.x, &self.best, i)
            out.append(None if self.x.err else r)
        self.x.err = 0
        return tuple(out)


cdef inline int _small(x) noexcept:
    """x as a C int where it is an int 0..255, else -1 (no error set)."""
    cdef int overflow = 0
    cdef long v
    if type(x) is not int:
        return -1
    v = PyLong_AsLongAndOverflow(x, &overflow)
    if overflow or v < 0 or v > 255:
        PyErr_Clear()
        return -1
    return <int>v


cdef bytes _plain_counts(counts):
    """34 counts as bytes where they plainly are (bytes, or a list or tuple of ints 0..255), else None: the
    shared validation reads anything else (a NumPy row, a bool, a float ...)."""
    cdef Py_ssize_t i
    cdef int v
    cdef bytes out
    cdef char* p
    if type(counts) is bytes:
        return counts if len(<bytes>counts) == NK else None
    if (type(counts) is not list and type(counts) is not tuple) or len(counts) != NK:
        return None
    out = PyBytes_FromStringAndSize(NULL, NK)
    p = PyBytes_AsString(out)
    for i in range(NK):
        v = _small(counts[i])
        if v < 0:
            return None
        p[i] = <char>v
    return out


# ---- direct access for tests -----------------------------------------------------------------------------
def min_wilds(counts, bint pair) -> int:
    """The fewest wilds that complete 34 kind counts as sets (and one pair), every kind a candidate."""
    cdef Ctx x
    cdef int c[NK]
    cdef int j
    _ensure_tables()
    memset(&x, 0, sizeof(Ctx))
    x.f.cand = (1ULL << NK) - 1
    x.f.ncand = NK
    for j in range(NK):
        c[j] = counts[j]
    n = sum(counts)
    for j in range(MAXJ * 3):
        if (n + j - 2 * pair) % 3 == 0 and _feasible(&x, c, j, (n + j - 2 * pair) // 3, pair):
            return j
    return -1


def suit_sums(counts) -> tuple:
    """For tests: _tpp's entry for a suit's nine counts (0..4) as (wilds to make every kind's tiles pungs, some
    kind's pair costs a wild less than its pungs, pairs, kinds held an odd number of times)."""
    cdef int c[9]
    cdef int i, tiles = 0
    _ensure_tables()
    for i in range(9):
        c[i] = counts[i]
        if not 0 <= c[i] <= 4:
            raise ValueError("counts must be 0..4")
    cdef unsigned short e = _tpp[_suit_idx(c, &tiles)]
    return e & 31, bool(e & 32), (e >> 6) & 31, (e >> 11) & 15


cdef int _collect(void* ud, Reading* rd) noexcept nogil:
    with gil:
        (<list>ud).append(tuple([(rd.groups[i].kind, rd.groups[i].k0, rd.groups[i].wild) for i in range(rd.ngroups)]))
    return 0


def feasible_plus(counts, int jokers, int sets, cand) -> list:
    """For tests: per kind k (then -1, a wild more), (_plus_std's verdict, _feasible's) on counts (34 ints)
    with one tile of kind k added and `jokers` wilds standing for the kinds in cand: wait_kinds and the
    waits_all test take the first for the second."""
    cdef Ctx x
    cdef Units U
    cdef Plus P
    cdef int k
    cdef int c[NK]
    _ensure_tables()
    memset(&x, 0, sizeof(Ctx))
    for k in range(NK):
        c[k] = counts[k]
        if not 0 <= c[k] <= 8:
            raise ValueError("a count is 0..8")
    for k in sorted(set(cand)):
        x.f.cand |= 1ULL << k
        x.f.cand_list[x.f.ncand] = k
        x.f.ncand += 1
    _units(c, &U)
    _units_all(&U)
    _plus_init(&x, &P, &U)
    out = []
    for k in range(NK):
        c[k] += 1
        out.append((bool(_plus_std(&x, &P, &U, c, k, jokers, sets)), bool(_feasible(&x, c, jokers, sets, 1))))
        c[k] -= 1
    out.append((bool(_plus_std(&x, &P, &U, c, -1, jokers + 1, sets)), bool(_feasible(&x, c, jokers + 1, sets, 1))))
    return out


def standard_readings(real, int jokers, int sets, cand) -> list:
    """Readings as (kind, first kind, wild bits) groups, in the enumeration order, deduplicated."""
    cdef Ctx x
    cdef Dedup dd
    cdef int k
    out = []
    _ensure_tables()
    memset(&x, 0, sizeof(Ctx))
    for k in range(NK):
        x.f.real[k] = real[k]
    x.f.jokers = jokers
    for k in sorted(set(cand)):
        x.f.cand |= 1ULL << k
        x.f.cand_list[x.f.ncand] = k
        x.f.ncand += 1
    if _dedup_init(&dd, 64) != 0:
        raise MemoryError()
    try:
        _enum_standard(&x, sets, _collect, <void*>out, &dd)
    finally:
        _dedup_free(&dd)
    return out


include "_distance.pxi"
include "_result.pxi"
