# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The native kernel: shape tables, reading enumeration and best-reading choice in C, for generated variants.

It mirrors the reference back end (mjrules.reference) exactly: readings come out in the same order, standard
readings are deduplicated the same way, and ties break the same way (largest value, then the earliest pattern,
then more modifiers, then the first reading met). A table of the fewest wilds that complete one suit prunes every
branch that cannot end in a reading, so only winning hands enumerate.

One C module, in files along its seams: the tables, the enumerators and the scoring callback share C statics and
call each other inline (split into modules, they would become cross-module calls), so each seam is a file this one
includes, in this order:

    _tables.pxi      the shape tables, units of a hand, feasibility, deduplication of standard readings
    _enumerate.pxi   the enumeration of readings (standard, pairs, free)
    _choose.pxi      the choice of the best reading, and the hand's context
    _check.pxi       the bare win check's pieces: wild codes, limits, cheap refusals, sure shapes
    _fans.pxi        the fans of a reading (set views, combinations, exclusions) and the wait
    (here)           ShapeTest and Kernel, the Python-facing objects; the batch check is Kernel.check_batch
    _distance.pxi    the shape distance (ShapeEstimator)
    _result.pxi      the native side of a Result (Results)
"""
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy, memcmp
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.stdint cimport int32_t
from cpython.dict cimport PyDict_GetItem
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                                  PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK, NOWAIT_LOCK)
from cpython.bytearray cimport PyByteArray_AsString, PyByteArray_Size, PyByteArray_FromStringAndSize
from cpython.bytes cimport PyBytes_AsString, PyBytes_Size
from mjrules.model.tiles cimport MELD_CHI, MELD_KONG
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
    FIT_SLOTS = 64   # Kernel._fit_mask's remembered hands
    FIT_KEY = 72     # ... each keyed by 2 * NK counts, the melds, the chi and the two wild kinds
    FIT_WORDS = 9    # FIT_KEY as 64-bit words

WIN, NOFIT, FAIL, REFUSE, ERR = range(5)
if NK != 34:   # mj_load34 reads a hand's counts as 34 bytes
    raise ImportError("mjrules.native.kernel was built for 34 kinds")


class Fallback(Exception):
    """The native code cannot decide this exactly (a number out of range, a table without a cell, ...)."""


include "_tables.pxi"
include "_enumerate.pxi"
include "_choose.pxi"
include "_check.pxi"
include "_fans.pxi"


cdef tuple _SMALL = tuple(range(NALL))   # the int objects of the kinds, made once


cdef class ShapeTest:
    """A kernel's cheap shape test (mjrules.model.shape's `may_fit`) as an object: the game, compiled, calls may_fit
    in C; anything else calls it as a function."""

    cpdef bint may_fit(self, object counts, object meld_counts, int nmelds, bint meld_seq, int wild, int plus=-1,
                       int wild2=-1) except -1:
        """Kernel._fit."""
        return (<Kernel>self.kernel)._fit(counts, meld_counts, nmelds, meld_seq, wild, plus, wild2)

    cpdef unsigned long long fit_mask(self, object counts, object meld_counts, int nmelds, bint meld_seq, int wild,
                                      int wild2, unsigned long long kinds, int less=-1) except? 0xFFFFFFFFFFFFFFFF:
        """The kinds k (bits of `kinds`) for which may_fit(..., plus=k) holds, of a hand one tile short (with
        `less` >= 0, a complete hand asked less one tile of that kind): Kernel._fit_mask, remembered by hand."""
        return (<Kernel>self.kernel)._fit_mask(counts, meld_counts, nmelds, meld_seq, wild, wild2, kinds, less)

    cdef unsigned long long mask_of(self, bytearray counts, bytearray meld_counts, int nmelds, bint meld_seq, int wild,
                                    int wild2, int less) except? 0xFFFFFFFFFFFFFFFF:
        """fit_mask of every kind, for the compiled game (its seats' counts are bytearrays of 42 kinds): a C call."""
        if counts is None or meld_counts is None or PyByteArray_Size(counts) < NK \
                or PyByteArray_Size(meld_counts) < NK or not 0 <= nmelds <= 255:
            raise ValueError("may_fit takes counts and meld counts as bytes of 34 or more kinds")
        return (<Kernel>self.kernel)._fit_mask_of(<const unsigned char*>PyByteArray_AsString(counts),
                                                  <const unsigned char*>PyByteArray_AsString(meld_counts), nmelds,
                                                  meld_seq, wild, wild2, less)

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
    cdef Py_ssize_t sig_base     # a signature's length before its fans (a variant with fans adds them)
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
    cdef unsigned char fit_keys[FIT_SLOTS][FIT_KEY]   # _fit_mask's answers by hand (fit_used: the slot holds one)
    cdef unsigned long long fit_vals[FIT_SLOTS]
    cdef unsigned char fit_used[FIT_SLOTS]

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
        self.sig_base = self.sp.nmod + self.sp.nev + 4 * (1 + self.nut) + 8 * (self.sp.ndef + 1)
        self.sig_len = self.sig_base
        self.set_len = 8 * self.sp.nwin + 12
        self.sig = <unsigned char*>calloc(self.sig_base + (4 + 12 * self.sp.nfan if self.sp.nfan else 0), 1)
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
        cdef int k, i, lo
        cdef Py_ssize_t j, nt
        cdef const unsigned char* mc
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
        for m in melds:   # (read as Meld.code: its kind, concealed, then its tiles' kinds)
            code = getattr(m, "code", None)
            if type(code) is not bytes or PyBytes_Size(code) < 2:
                x.err |= ERR_OTHER
                continue
            mc = <const unsigned char*>PyBytes_AsString(code)
            nt = PyBytes_Size(code)
            kong = mc[0] == MELD_KONG
            if mc[0] == MELD_CHI:
                f.meld_seq = True
            if kong:
                f.kongs += 1
                if mc[1]:
                    f.kongs_concealed += 1
                else:
                    f.kongs_exposed += 1
            if not (kong and mc[1]):
                f.exposed += 1
            lo = NK   # the meld's lowest kind
            for j in range(2, nt):
                k = mc[j]
                if k < NK:
                    f.meld_counts[k] += 1
                    if not kong:
                        f.nonkong[k] += 1
                    if k < lo:
                        lo = k
                else:
                    x.err |= ERR_OTHER
            if f.nms < MAXM:   # the meld as a set (mjrules.model.fans.set_views)
                f.ms_kind[f.nms] = SV_SEQ if mc[0] == MELD_CHI else SV_KONG if kong else SV_PUNG
                f.ms_low[f.nms] = lo if lo < NK else 0
                f.ms_conc[f.nms] = mc[1] != 0
                f.nms += 1
            if f.nmg < MAXM:
                for j in range(2, nt):
                    if mc[j] < NK:
                        f.mg[f.nmg] |= 1ULL << mc[j]
                f.nmg += 1
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
        f.wait_kinds = -1
        f.seat_wind = (st.seat - st.dealer) % self.sp.players if self.sp.players > 0 else 0
        if f.seat_wind < 0:
            f.seat_wind += self.sp.players
        f.prevalent_wind = st.prevalent_wind
        f.last_of_kind = st.last_of_kind
        f.claimed = st.by == BY_DISCARD or st.by == BY_ROB_KONG
        f.ready_first_turn, f.ready_uninterrupted = st.ready_first_turn, st.ready_uninterrupted
        f.marked = len(st.marked)
        if st.indicators or st.hidden_indicators:
            f.indicated = self._indicated(st.indicators)
            f.hidden_indicated = self._indicated(st.hidden_indicators)
        return 0

    cdef int _indicated(self, tuple indicators) noexcept:
        """The winner's tiles (melds included, wilds at their face) that these indicators point at, once per
        indicator (Spec.points_at; the reference's _Facts)."""
        cdef Facts* f = &self.x.f
        cdef int n = 0, k, t
        if self.sp.points_at == NULL:
            self.x.err |= ERR_OTHER
            return 0
        for item in indicators:
            k = item
            if not 0 <= k < NK:
                self.x.err |= ERR_OTHER
                continue
            t = self.sp.points_at[k]
            if t < 0:
                continue
            n += f.base[t]
            if t == f.w:
                n += f.jokers - f.jw2
            elif t == f.w2:
                n += f.jw2
        return n

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

    def wait_kinds_fact(self):
        """For tests: the wait_kinds fact of the situation last evaluated (var_wait_kinds on its facts)."""
        cdef double r
        self.x.f.wait_kinds = -1
        self.x.err = 0
        r = var_wait_kinds(self.x)
        return None if self.x.err else r

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
        i = self._refused_fields(st, opts, win_by, waits_all)
        if i >= 0:
            return i
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
        if x.gen != R.best_gen:   # (the memo holds the best's own answers while no reading came after it)
            x.gen += 1
        self._signature(rd, R.best_value)
        if x.err:
            return self._said(ERR)
        self.r_pattern = rd.pattern
        return self._said(WIN, 0, R.best_value)

    cdef int _refused_fields(self, Fields st, tuple opts, double win_by, int waits_all) except -2:
        """The start of _decide_fields: the options and facts of st loaded into self.x, then the refusals that
        need no reading. Their answer (ERR or REFUSE, _said), or -1 to go on."""
        cdef Ctx* x = self.x
        self._load_opts(opts)
        self._fill_sit(st, win_by)
        if x.err:
            return self._said(ERR)
        if waits_all >= 0:
            x.f.waits_all = waits_all
        return self._refusals(st)

    cdef int _refusals(self, Fields st) except -2:
        """The refusals that need no reading, on the facts in self.x (of st): REFUSE or ERR (_said), else -1."""
        cdef Ctx* x = self.x
        cdef Spec* sp = self.sp
        cdef bint ok
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
        return -1

    cdef int _wins_fields(self, Fields st, tuple opts, double win_by, int waits_all) except -2:
        """_decide_fields' verdict without choosing the reading: WIN where some reading is legal (_decide's
        mode 2, the bare check's; with melds, _decide_fields' run in mode 2), else NOFIT (no reading, or none
        legal), REFUSE or ERR; r_waits_all as _decide_fields leaves it. No reading or signature is kept."""
        cdef int r
        r = self._refused_fields(st, opts, win_by, waits_all)
        if r >= 0:
            return r
        return self._verdict()

    cdef int _verdict(self) except -2:
        """_wins_fields' verdict on the facts in self.x, past the refusals."""
        cdef double value
        cdef int pattern, r, sets, std
        cdef Ctx* x = self.x
        cdef Run R
        cdef Reading scratch
        cdef Units U
        if x.f.nmelds == 0:   # the bare check's verdict (_decide reads a concealed hand: its sets are all the hand's)
            r = _decide(x, 2, &value, &pattern, -1, -1, False, NULL, 0)
            if r < 0 or x.err:
                return self._said(ERR)
            return self._said(WIN if r == 1 else NOFIT)
        sets = (self.sp.win_size - 2) // 3 - x.f.nmelds   # _decide_fields' run, stopping at a legal reading
        _units(x.f.real, &U, x.small)
        std = _feasible_u(x, &U, x.f.jokers, sets, 1) if x.has_std and sets >= 0 else -1
        if not _may_fit(x, sets, std):
            return self._said(ERR if x.err else NOFIT)
        memset(&R, 0, sizeof(Run))
        R.x, R.mode, R.best, R.legal_only = x, 2, &scratch, True
        R.units = &U
        R.std_known, R.std_ok = std >= 0, std > 0
        _run_all(x, &R, NULL)
        if x.err:
            return self._said(ERR)
        return self._said(WIN if R.has_best else NOFIT)

    cdef void _signature(self, Reading* rd, double value) noexcept:
        """All the explanation between the pattern's line and the payments' reads of the chosen reading, packed
        into self.sig: a byte per modifier and per event (1: holds), the status, the used tables' rows (int32
        each), the defines' values and the value (doubles each). `parts` unpacks it."""
        cdef Ctx* x = self.x
        cdef Spec* sp = self.sp
        cdef unsigned char* b = self.sig
        cdef int i, t, o = 0, p
        cdef int32_t v, n
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
        o += 8
        if sp.nfan:   # the fans that count: how many (int32), then each one's index (int32; bit 30: the hand is open,
            n = 0     # its open points count) and count (double)
            p = o + 4
            _fans_all(x, rd)   # (every fan, where the reading's were not all worked out yet)
            for i in range(sp.nfan):
                d = x.ff_val[i]
                if d != 0.0:
                    v = i | ((x.f.exposed > 0) << 30)
                    memcpy(b + p, &v, 4)
                    memcpy(b + p + 4, &d, 8)
                    p += 12
                    n += 1
            memcpy(b + o, &n, 4)
            o = p
        self.sig_len = o

    def parts(self, bytes sig):
        """A signature (see _signature) as (modifiers, events, status, table rows, defines, fans, open): the indices
        of the modifiers and events that hold, the status index (-1: none), the rows, the defines' values, the fans
        that count as (index, count) pairs in the spec's order (() for a variant without fans), and whether the
        hand has an exposed meld (its fans' open points)."""
        cdef Spec* sp = self.sp
        cdef const char* b = PyBytes_AsString(sig)
        cdef int i, o = 0, nt = len(self.used_tables)
        cdef int32_t v, nf = 0
        cdef double d
        cdef Py_ssize_t base = sp.nmod + sp.nev + 4 * (1 + nt) + 8 * (sp.ndef + 1)
        if sp.nfan and len(sig) >= base + 4:
            memcpy(&nf, b + base, 4)
        if len(sig) != (base + 4 + 12 * nf if sp.nfan else base) or not 0 <= nf <= sp.nfan:
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
        o += 12   # the value, and the fans' number
        fans = []
        exposed = False
        for i in range(nf):
            memcpy(&v, b + o, 4)
            memcpy(&d, b + o + 4, 8)
            exposed = (v >> 30) & 1 == 1
            fans.append((v & 0xFFFF, _num_of(d)))
            o += 12
        return mods, events, status, tuple(rows), tuple(defines), tuple(fans), exposed

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
        memset(self.fit_used, 0, FIT_SLOTS)   # (the shape test reads the check's options)

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
        cdef bint undecided = False, odd_size, pairs_ok, fits, knit
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
        # a real tile drawn completes a knitted straight only where the pre-draw hand lacks at most one of its kinds
        # (with wilds _knit_fits does not decide: it is asked)
        knit = x.has_knit and (x.f.jokers != 0 or _knit_near(x.f.real))
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
        # where no free pattern is left and neither the pairs nor a knitted straight can fit, a kind of a unit no
        # real tile drawn into makes the standard shape completes nothing (_plus_skip)
        if not odd_size and nkeep == 0 and not (pairs_ok and odd0 - 1 <= x.f.jokers) and not knit:
            skip = _plus_skip(&P, x.f.jokers)
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
                    if not fits and x.has_knit and (kw or knit):
                        fits = _knit_fits(x, sets)
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

    def set_free_fixed(self, bint fixed):
        """Every free pattern's test reads only the tiles, the melds and the options (the engine's
        mjrules.model.shape.free_tests_read_tiles_only): the wait fact may then rule free patterns out on the
        pre-draw hand once, not again for each kind drawn."""
        self.x.free_fixed = self.xi.free_fixed = fixed

    def shape_test(self):
        """_fit as a ShapeTest: the object the game calls in C (and, being callable, a mjrules.model.shape MayFit)."""
        cdef ShapeTest t = ShapeTest.__new__(ShapeTest)
        t.kernel = self
        return t

    cdef const unsigned char* _fit_bytes(self, object counts, object meld_counts, int nmelds,
                                         const unsigned char** mc) except NULL:
        """The shape test's counts and meld counts as C bytes (the meld counts into *mc), or ValueError."""
        if not (isinstance(counts, (bytes, bytearray)) and isinstance(meld_counts, (bytes, bytearray))) \
                or len(counts) < NK or len(meld_counts) < NK or nmelds < 0 or nmelds > 255:
            raise ValueError("may_fit takes counts and meld counts as bytes of 34 or more kinds")
        mc[0] = <const unsigned char*>(PyBytes_AsString(meld_counts) if type(meld_counts) is bytes else
                                       PyByteArray_AsString(meld_counts))
        return <const unsigned char*>(PyBytes_AsString(counts) if type(counts) is bytes else
                                      PyByteArray_AsString(counts))

    cdef int _fit_load(self, const unsigned char* c, const unsigned char* mc, int nmelds, bint meld_seq, int wild,
                       int plus, int wild2, int less) except -1:
        """_fit's facts: the hand (`less` tiles short of a complete one) loaded into the check context, its melds'
        tiles added to the base counts. 0 when loaded (_fit_done puts the check's own facts back), 1 when the
        test cannot rule the hand out (a flower added: 2, nothing can fit), wherever it returns early."""
        cdef Ctx* x = self.xc
        cdef unsigned char buf[NK]
        cdef int k, e, size = self.sp.win_size - 3 * nmelds - less
        if size < 0:
            raise ValueError("may_fit: more melds than a hand holds")
        memcpy(buf, c, NK)
        if 0 <= plus < NK:
            buf[plus] += 1
        elif plus >= NK:
            return 2   # a flower or other unplayable kind never completes a hand
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
                return 1   # facts it cannot prepare: the full judge decides
            self.xc_wild = wild
        if _load_row(x, buf, 0, size, self.chk_live, self.lim, NULL):
            return 1       # counts it does not take (over the copies, say): the full judge decides
        for k in range(NK):
            x.f.base[k] = x.f.real[k] + mc[k]
        x.f.nmelds, x.f.no_melds, x.f.meld_seq = nmelds, nmelds == 0, meld_seq
        _reset_memo(x)
        return 0

    cdef inline void _fit_done(self) noexcept:
        """The check's own facts again after _fit_load: no melds (is_win's)."""
        cdef Ctx* x = self.xc
        cdef int k
        x.f.nmelds, x.f.no_melds, x.f.meld_seq, x.err = 0, True, False, 0
        for k in range(NK):
            x.f.base[k] = x.f.real[k]

    cdef bint _fit(self, object counts, object meld_counts, int nmelds, bint meld_seq, int wild, int plus,
                   int wild2) except -1:
        """False only when no pattern's shape can take a complete hand whatever its other facts: `counts` the
        concealed tiles (42 or 34 kind counts as bytes or bytearray, the wild kind's tiles among them), `plus`
        one tile more of that kind (-1: none), `meld_counts` the melds' tiles likewise, `nmelds` how many melds
        (a kong counts as three tiles) and `meld_seq` whether one is a chi; `wild2` a second wild kind (-1:
        none). The game's cheap test before it judges a hand in full; the caller makes sure no free pattern's
        test reads other facts (NativeEngine.fit_test)."""
        cdef const unsigned char* mc
        cdef const unsigned char* c = self._fit_bytes(counts, meld_counts, nmelds, &mc)
        return self._fit_c(c, mc, nmelds, meld_seq, wild, plus, wild2)

    cdef bint _fit_c(self, const unsigned char* c, const unsigned char* mc, int nmelds, bint meld_seq, int wild,
                     int plus, int wild2) except -1:
        cdef bint fits
        cdef int e = self._fit_load(c, mc, nmelds, meld_seq, wild, plus, wild2, 0)
        if e:
            return e == 1
        fits = _may_fit(self.xc, (self.sp.win_size - 2) // 3 - nmelds, -1) or self.xc.err != 0
        self._fit_done()
        return fits

    cdef unsigned long long _fit_mask(self, object counts, object meld_counts, int nmelds, bint meld_seq, int wild,
                                      int wild2, unsigned long long kinds, int less) except? 0xFFFFFFFFFFFFFFFF:
        """The kinds k of `kinds` for which _fit(..., plus=k) holds, `counts` one tile short of a complete hand
        (less >= 0: one tile of kind `less` more, taken out first). Remembered by the hand (FIT_SLOTS answers,
        each under its whole key: counts, meld counts, melds, chi, wild kinds), since a game asks of the same
        hand at each discard it might claim and again once it draws."""
        cdef const unsigned char* mc
        cdef const unsigned char* c = self._fit_bytes(counts, meld_counts, nmelds, &mc)
        return self._fit_mask_of(c, mc, nmelds, meld_seq, wild, wild2, less) & kinds

    cdef unsigned long long _fit_mask_of(self, const unsigned char* c, const unsigned char* mc, int nmelds,
                                         bint meld_seq, int wild, int wild2, int less) except? 0xFFFFFFFFFFFFFFFF:
        """_fit_mask of every kind, from the counts as C bytes (NK of each; nmelds 0..255)."""
        cdef unsigned long long key[FIT_WORDS]
        cdef unsigned char* kb = <unsigned char*>key
        cdef unsigned long long h = 0, m
        cdef int i, slot
        if not (-1 <= wild < 255 and -1 <= wild2 < 255):
            raise ValueError("may_fit: a wild kind out of range")
        memcpy(kb, c, NK)
        memcpy(kb + NK, mc, NK)
        kb[2 * NK], kb[2 * NK + 1], kb[2 * NK + 2], kb[2 * NK + 3] = nmelds, meld_seq, wild + 1, wild2 + 1
        if 0 <= less < NK:
            if not kb[less]:
                raise ValueError(f"may_fit: no tile of kind {less} to take out")
            kb[less] -= 1
        for i in range(FIT_WORDS):
            h = (h ^ key[i]) * 0x9E3779B97F4A7C15ULL
        slot = <int>(h >> 58) & (FIT_SLOTS - 1)
        if self.fit_used[slot] and memcmp(self.fit_keys[slot], kb, FIT_KEY) == 0:
            return self.fit_vals[slot]
        m = self._fit_mask_c(kb, kb + NK, nmelds, meld_seq, wild, wild2)
        memcpy(self.fit_keys[slot], kb, FIT_KEY)
        self.fit_vals[slot] = m
        self.fit_used[slot] = 1
        return m

    cdef unsigned long long _fit_mask_c(self, const unsigned char* c, const unsigned char* mc, int nmelds,
                                        bint meld_seq, int wild, int wild2) except? 0xFFFFFFFFFFFFFFFF:
        """_fit_mask of every kind, worked out. The pre-draw hand is loaded once. One wild more than it holds
        stands for any real tile drawn, so where the standard shape is infeasible with it (the tables, every kind
        a candidate), the pairs shape leaves two odd kinds or more, no knitted straight lacks more than one
        kind, and no free pattern's three-valued test holds on the pre-draw counts (false on every count vector
        containing them: the test's contract), no real kind fits; else each real kind is added in turn and
        _may_fit asked. A kind over its copies is the full judge's (as _fit). A wild kind drawn adds a wild:
        _fit is asked of it."""
        cdef Ctx* x = self.xc
        cdef int k, sets = (self.sp.win_size - 2) // 3 - nmelds
        cdef unsigned long long out = 0, cand, wild_kinds = 0, rest, over = 0
        cdef int ncand
        cdef bint any_real
        cdef int e = self._fit_load(c, mc, nmelds, meld_seq, wild, -1, wild2, 1)
        if e:   # (the pre-draw hand cannot be loaded: each kind is asked alone)
            for k in range(NK):
                if self._fit_c(c, mc, nmelds, meld_seq, wild, k, wild2):
                    out |= 1ULL << k
            return out
        if x.f.w >= 0:
            wild_kinds |= 1ULL << x.f.w
        if x.f.w2 >= 0:
            wild_kinds |= 1ULL << x.f.w2
        any_real = False
        if x.has_std and sets >= 0:
            cand, ncand = x.f.cand, x.f.ncand
            x.f.cand, x.f.ncand = (1ULL << NK) - 1, NK   # the extra wild may be any kind
            any_real = _feasible(x, x.f.real, x.f.jokers + 1, sets, 1)
            x.f.cand, x.f.ncand = cand, ncand
        if not any_real and x.has_pairs and not nmelds and self.sp.win_size % 2 == 0:
            any_real = _odd_kinds(x.f.real) <= x.f.jokers + 1
        if not any_real and x.has_knit and sets >= 3:
            any_real = x.f.jokers != 0 or _knit_near(x.f.real)
        if not any_real and x.nfree:
            x.err = 0
            any_real = _any_viable(x, x.free_pats, x.nfree) or x.err != 0
        for k in range(NK):   # (a straight loop: the kinds over their copies, or never held, are the full judge's)
            over |= <unsigned long long>(x.f.real[k] >= self.lim[k]) << k
        out = over & ~wild_kinds
        rest = ((1ULL << NK) - 1) & ~over & ~wild_kinds if any_real else 0
        while rest:
            k = mj_ctzll(rest)
            rest &= rest - 1
            x.f.real[k] += 1
            x.f.base[k] += 1
            x.err = 0
            x.f.waits_all = -1
            _reset_memo(x)
            if _may_fit(x, sets, -1) or x.err != 0:
                out |= 1ULL << k
            x.f.real[k] -= 1
            x.f.base[k] -= 1
        self._fit_done()
        rest = wild_kinds
        while rest:
            k = mj_ctzll(rest)
            rest &= rest - 1
            if self._fit_c(c, mc, nmelds, meld_seq, wild, k, wild2):
                out |= 1ULL << k
        return out

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
        return self._wins(value)

    cdef tuple _wins(self, double value):
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
