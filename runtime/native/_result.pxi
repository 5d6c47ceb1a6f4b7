# Included by kernel.pyx: the native back end's side of a result (mjrules.model.result.Result, the one result type).
#
# The kernel decides (its chosen reading, its signatures: Kernel._decide_fields); Results makes the Result of it
# from pieces the engine's Python code explains (its Explainer), each remembered per what it reads: the
# explanation lines, status and names per the reading's signature (modifiers, events, status, table rows,
# defines, value), the payments and their lines per the settlement's signature (every win expression's value,
# the winner, the discarder, the dealer). The reading itself is handed to the Result as a copy of the kernel's
# Reading, which the Result has described (reading_parts, the engine's teller) only if its explanation is read.
# FastEvaluate is NativeEngine.evaluate: a situation dict read (the compiled situation reader), judged and made a
# Result in one C call. Public C API only.

from cpython.ref cimport Py_XDECREF
from cpython.long cimport PyLong_AsDouble
from mjrules.model.result cimport LazyLines, Result, new_result


cdef struct SigEntry:
    unsigned long long h
    Py_ssize_t n
    unsigned char* key   # a copy of the signature (malloc'd), NULL: an empty slot
    PyObject* val        # a reference to its value


cdef struct SigMap:
    # an open-addressing table from a signature (bytes in C memory) to a Python value, so that a signature is
    # looked up without making a bytes object of it or hashing one
    SigEntry* slots
    Py_ssize_t cap       # a power of two (0: none yet)
    Py_ssize_t used


cdef enum:
    MAP_KEEP = 32768     # entries a map holds; a full map is emptied (what it holds is made again on demand)


cdef inline unsigned long long _sig_hash(const unsigned char* b, Py_ssize_t n) noexcept nogil:
    """A multiply-xor over the 8-byte words of b[:n]."""
    cdef unsigned long long x = <unsigned long long>n * 0x9E3779B97F4A7C15ULL, w
    cdef Py_ssize_t i = 0
    while i + 8 <= n:
        memcpy(&w, b + i, 8)
        x = (x ^ w) * 0xBF58476D1CE4E5B9ULL
        x ^= x >> 31
        i += 8
    w = 0
    if i < n:
        memcpy(&w, b + i, n - i)
    x = (x ^ w) * 0x94D049BB133111EBULL
    return x ^ (x >> 29)


cdef PyObject* _map_get(SigMap* m, const unsigned char* key, Py_ssize_t n, unsigned long long h) noexcept:
    """The value m holds for key[:n] of hash h (borrowed), or NULL."""
    cdef Py_ssize_t i
    cdef SigEntry* e
    if m.cap == 0:
        return NULL
    i = <Py_ssize_t>(h & <unsigned long long>(m.cap - 1))
    while True:
        e = &m.slots[i]
        if e.key == NULL:
            return NULL
        if e.h == h and e.n == n and memcmp(e.key, key, n) == 0:
            return e.val
        i = (i + 1) & (m.cap - 1)


cdef void _map_clear(SigMap* m) noexcept:
    cdef Py_ssize_t i
    cdef PyObject* v
    for i in range(m.cap):
        if m.slots[i].key != NULL:
            free(m.slots[i].key)
            v = m.slots[i].val
            m.slots[i].key, m.slots[i].val = NULL, NULL
            Py_XDECREF(v)
    m.used = 0


cdef void _map_free(SigMap* m) noexcept:
    _map_clear(m)
    free(m.slots)
    m.slots, m.cap = NULL, 0


cdef void _map_place(SigMap* m, SigEntry e) noexcept:
    """e into m's first free slot from its hash (m has one)."""
    cdef Py_ssize_t i = <Py_ssize_t>(e.h & <unsigned long long>(m.cap - 1))
    while m.slots[i].key != NULL:
        i = (i + 1) & (m.cap - 1)
    m.slots[i] = e
    m.used += 1


cdef int _map_put(SigMap* m, const unsigned char* key, Py_ssize_t n, unsigned long long h, object val) except -1:
    """m holds val for key[:n] of hash h (not held yet): a copy of the key, a reference to val. Grown at half
    full, emptied at MAP_KEEP entries."""
    cdef SigEntry e
    cdef SigEntry* old
    cdef Py_ssize_t i, cap
    if 2 * (m.used + 1) > m.cap:
        if m.used >= MAP_KEEP:
            _map_clear(m)
        else:
            cap = 64 if m.cap == 0 else 2 * m.cap
            old = m.slots
            m.slots = <SigEntry*>calloc(cap, sizeof(SigEntry))
            if m.slots == NULL:
                m.slots = old
                raise MemoryError()
            i, m.cap, m.used = m.cap, cap, 0
            for i in range(i):
                if old[i].key != NULL:
                    _map_place(m, old[i])
            free(old)
    e.key = <unsigned char*>malloc(n if n > 0 else 1)
    if e.key == NULL:
        raise MemoryError()
    memcpy(e.key, key, n)
    e.h, e.n, e.val = h, n, <PyObject*>val
    Py_INCREF(val)
    _map_place(m, e)
    return 0


cdef inline object _num_of(double v):
    """An integral double as an int, else the float."""
    if -9.0e15 < v < 9.0e15:
        return <long long>v if v == <double><long long>v else v
    x = v
    return int(x) if x.is_integer() else x


def reading_parts(bytes facts):
    """A reading Results handed to a Result (the kernel's Reading, as bytes) as (groups, counts, assignment):
    each group (kind: 0 seq, 1 pung, 2 pair; its first kind; its wild bits), the 34 counts of what the tiles
    stand for, what each wild stands for."""
    cdef Reading rd
    cdef int i
    if len(facts) != sizeof(Reading):
        raise ValueError("not a reading of this kernel")
    memcpy(&rd, PyBytes_AsString(facts), sizeof(Reading))
    if not (0 <= rd.ngroups <= MAXG and 0 <= rd.nassign <= MAXJ):
        raise ValueError("not a reading of this kernel")
    return (tuple([(rd.groups[i].kind, rd.groups[i].k0, rd.groups[i].wild) for i in range(rd.ngroups)]),
            tuple([rd.counts[i] for i in range(NK)]), tuple([rd.assign[i] for i in range(rd.nassign)]))


cdef class Results:
    """The Result of the kernel's last evaluate where it wins (see the comment at the top of runtime/native/_result.pxi);
    not thread-safe (the engine's lock is held around the kernel and this)."""
    cdef Kernel kernel
    cdef object middle_of    # (signature bytes, value) -> (lines, patterns after the pattern, status name, keep),
                             # asked by a result's LazyLines when its explanation is first read
    cdef object explain      # (the signature's parts, value) -> the same, asked while the result is made
    cdef object settle       # (Situation, value, the win expressions' values) -> (payments, lines, keep)
    cdef object teller       # the Results' teller: tell(pattern, facts) -> (reading, the pattern's line)
    cdef tuple reasons       # per pattern (reason, name)
    cdef SigMap sigs         # signature -> (lines, status name, tail, per pattern its patterns tuple or None)
    cdef SigMap heads        # a signature's head (modifiers, events, status) -> (status name, tail, per pattern)
    cdef SigMap settles      # settlement signature -> (payments, lines)
    cdef object head_of      # None, or (modifiers, events, status) -> (patterns after the pattern, status name),
                             # and then lines are made when first read (LazyLines)
    cdef Py_ssize_t head_len
    cdef object fan_names    # None (a variant without fans: its results have none), or each fan's name

    def __init__(self, Kernel kernel, middle_of, explain, settle, teller, tuple reasons, head_of=None,
                 fan_names=None):
        """middle_of, explain, settle: the engine's explanation of a signature (of its bytes, or of its parts as
        Kernel.parts decodes them) and its settlement (given the win expressions' values, Kernel.wins: the engine
        never calls back into the kernel while a result is made; keep: the answer may be remembered); teller: makes a Result's reading and pattern line from the kernel's reading; reasons: per
        pattern (reason, name). With head_of (the engine's names of a signature's head: its modifiers, events and
        status), middle_of's answer is always kept, and a result's lines are made only when its explanation is
        first read: a new signature costs at most head_of's call, once per head, and a signature differing only
        in its defines' values or table rows (a new hand's, mostly) none. fan_names: the fans' names, for a
        variant with fans (a result's `fans`, read off the signature)."""
        self.kernel, self.middle_of, self.explain, self.settle = kernel, middle_of, explain, settle
        self.teller, self.reasons = teller, reasons
        self.head_of = head_of
        self.head_len = kernel.sp.nmod + kernel.sp.nev + 4
        self.fan_names = None if fan_names is None else tuple(fan_names)

    cdef object _fans(self):
        """The (name, count) pairs of the fans that count, read off the kernel's last signature (None: no fans)."""
        cdef Kernel k = self.kernel
        cdef int32_t n, v
        cdef double d
        cdef Py_ssize_t o = k.sig_base
        if self.fan_names is None:
            return None
        memcpy(&n, k.sig + o, 4)
        o += 4
        out = []
        for _ in range(n):
            memcpy(&v, k.sig + o, 4)
            memcpy(&d, k.sig + o + 4, 8)
            out.append((self.fan_names[v & 0xFFFF], _num_of(d)))
            o += 12
        return tuple(out)

    def __dealloc__(self):
        _map_free(&self.sigs)
        _map_free(&self.heads)
        _map_free(&self.settles)

    cdef tuple _middle(self):
        """The explanation of the kernel's last signature, remembered where the engine says it may be."""
        cdef Kernel k = self.kernel
        cdef unsigned long long h = _sig_hash(k.sig, k.sig_len), hh = 0
        cdef PyObject* hit = _map_get(&self.sigs, k.sig, k.sig_len, h)
        cdef tuple head
        if hit != NULL:
            return <tuple>hit
        value = _num_of(k.r_value)
        if self.head_of is not None:
            hh = _sig_hash(k.sig, self.head_len)
            hit = _map_get(&self.heads, k.sig, self.head_len, hh)
            if hit != NULL:
                head = <tuple>hit
            else:
                head = self._head()
                _map_put(&self.heads, k.sig, self.head_len, hh, head)
            got = (LazyLines(self.middle_of, k.signature(), value), head[0], head[1], head[2], self._fans())
            _map_put(&self.sigs, k.sig, k.sig_len, h, got)
            return got
        lines, tail, status, keep = self.explain(k.parts(k.signature()), value)
        got = (lines, status, tail, [None] * len(self.reasons), self._fans())
        if keep:
            _map_put(&self.sigs, k.sig, k.sig_len, h, got)
        return got

    cdef tuple _head(self):
        """(status name, tail, per pattern its patterns tuple or None) of the kernel's last signature's head, its
        names from head_of (the layout of the head: Kernel._signature)."""
        cdef Kernel k = self.kernel
        cdef int i, nmod = k.sp.nmod, nev = k.sp.nev
        cdef int32_t status
        memcpy(&status, k.sig + nmod + nev, 4)
        tail, name = self.head_of(tuple([i for i in range(nmod) if k.sig[i]]),
                                  tuple([i for i in range(nev) if k.sig[nmod + i]]), status)
        return (name, tuple(tail), [None] * len(self.reasons))

    cdef Result win(self, s, bint explain):
        """The Result of the kernel's last evaluate (a WIN); None where its settlement is not remembered and s,
        the Situation the settlement reads, is None (the caller then makes it)."""
        cdef Kernel k = self.kernel
        cdef int p = k.r_pattern
        cdef unsigned long long h = 0
        cdef PyObject* hit = NULL
        cdef bint signed = k._settle_signature(k.r_value)
        if signed:
            h = _sig_hash(k.set_sig, k.set_len)
            hit = _map_get(&self.settles, k.set_sig, k.set_len, h)
        value = _num_of(k.r_value)
        if hit != NULL:
            settled = <tuple>hit
        elif s is None:
            return None
        else:
            paid, lines, keep = self.settle(s, value, k._wins(k.r_value))
            settled = (paid, lines)
            if signed and keep:
                _map_put(&self.settles, k.set_sig, k.set_len, h, settled)
        mid = self._middle()
        per = <list>mid[3]
        reason, name = <tuple>self.reasons[p]
        patterns = per[p]
        if patterns is None:
            patterns = per[p] = (name,) + <tuple>mid[2]
        return new_result(True, reason, name, patterns, mid[1], value, <dict>settled[0], explain, p,
                          self.teller if explain else None,
                          PyBytes_FromStringAndSize(<char*>&k.best, sizeof(Reading)) if explain else None,
                          <tuple>mid[0], <tuple>settled[1], mid[4])

    def build(self, s, bint explain=True):
        """The Result of the kernel's last evaluate, a WIN (see win)."""
        return self.win(s, explain)


cdef class KernelLock:
    """A non-reentrant lock, threading.Lock's acquire, release and with-statement, that C callers take without a
    Python call: the engine's lock around its kernel, which FastEvaluate takes on every evaluate (calling
    threading.Lock's methods cost more than a small hand's check). A blocked caller waits without the GIL."""
    cdef PyThread_type_lock lock
    cdef bint held

    def __cinit__(self):
        self.lock = PyThread_allocate_lock()
        if self.lock == NULL:
            raise MemoryError()

    def __dealloc__(self):
        if self.lock != NULL:
            PyThread_free_lock(self.lock)

    cdef inline void take(self) noexcept:
        if not PyThread_acquire_lock(self.lock, NOWAIT_LOCK):
            with nogil:
                PyThread_acquire_lock(self.lock, WAIT_LOCK)
        self.held = True

    cdef inline void give(self) noexcept:
        self.held = False
        PyThread_release_lock(self.lock)

    def acquire(self) -> bool:
        """Wait for the lock and take it; True (threading.Lock.acquire without a timeout)."""
        self.take()
        return True

    def release(self) -> None:
        """Give the lock back; RuntimeError when it is not held."""
        if not self.held:
            raise RuntimeError("release unlocked lock")
        self.give()

    def locked(self) -> bool:
        return self.held

    def __enter__(self):
        self.take()
        return self

    def __exit__(self, *exc) -> bool:
        self.give()
        return False


cdef class FastEvaluate:
    """NativeEngine.evaluate (its method `evaluate`, bound as the engine's) in one C call for what it is nearly
    always given: a situation dict (no options) whose hand the kernel finds winning. Read by the compiled
    situation reader, judged and made a Result under the engine's lock; everything else -- a Situation, options,
    a missing winning tile, a losing hand, a reading whose payments only the reference can settle -- goes to the
    engine's Python path, which gives the same answer or raises the same error."""
    cdef Reader reader
    cdef Kernel kernel
    cdef Results results
    cdef tuple opts
    cdef dict win_by_ids
    cdef KernelLock lock
    cdef object slow, decided
    cdef object wb_key, wb_val   # the last win_by string looked up in win_by_ids (held) and its id: an id
                                 # never changes once given
    cdef object encode           # None, or a situation's (checked) options -> the kernel's option values, None
    cdef dict opt_memo           # where a double cannot hold one; remembered per the options' items
    cdef object opt_last, opt_got  # the last options dict encoded (the reader's own, never changed) and its values

    def __init__(self, Reader reader, Kernel kernel, Results results, tuple opts, dict win_by_ids, KernelLock lock,
                 slow, decided, encode=None):
        """opts: the spec's default option values (encoded); win_by_ids: win_by string -> its id; lock: the
        engine's lock around the kernel; slow(situation, explain): the Python evaluate; decided(s, r, explain): the
        Result of a kernel answer r other than a win made here; encode(options): the option values of a
        situation's options (over the defaults; None where the kernel cannot hold them), or None: a situation
        with options takes the Python path."""
        self.reader, self.kernel, self.results = reader, kernel, results
        self.opts, self.win_by_ids = opts, win_by_ids
        self.lock = lock
        self.slow, self.decided = slow, decided
        self.encode, self.opt_memo = encode, {}
        self.opt_last = self.opt_got = None

    cdef object _options(self, dict options):
        """The kernel's option values for a situation's checked options (encode's, remembered), or None. (The
        reader gives equal options as the same dict, which nothing changes: the last one is known by identity.)"""
        if options is self.opt_last:
            return self.opt_got
        try:
            key = tuple(options.items())
            got = self.opt_memo.get(key, self)
        except TypeError:   # an unhashable value: the Python path
            return None
        if got is self:
            if len(self.opt_memo) >= 256:
                self.opt_memo.clear()
            got = self.opt_memo[key] = self.encode(options)
        self.opt_last, self.opt_got = options, got
        return got

    def evaluate(self, situation, bint explain=True):
        """The Result of a situation (see NativeEngine.evaluate); without explain, it has no reading and no
        explain lines."""
        cdef PyObject* wb
        cdef Fields st
        cdef Result out = None
        cdef tuple r = None
        cdef tuple opts = self.opts
        if type(situation) is not dict:   # (a Situation: the engine's own path, which checks it)
            return self.slow(situation, explain)
        st = self.reader.read(situation, False)   # (no Situation is made unless a slow path needs one)
        if st.options:
            got = self._options(st.options) if self.encode is not None else None
            if got is None:
                return self.slow(st.situation(), explain)
            opts = <tuple>got
        if st.win_by is self.wb_key:   # (a situation's win_by is nearly always the one before's)
            wb = <PyObject*>self.wb_val
        else:
            wb = PyDict_GetItem(self.win_by_ids, st.win_by)
            if wb != NULL:
                self.wb_key, self.wb_val = st.win_by, <object>wb
        if wb == NULL or (st.win_tile < 0 and st.by != BY_DEALT):
            return self.slow(st.situation(), explain)
        self.lock.take()
        try:
            w = <object>wb   # a string's id: an int (PyLong_AsDouble, not float()'s generic protocol)
            if self.kernel._decide_fields(st, opts, PyLong_AsDouble(w) if type(w) is int else <double>w,
                                          -1) == WIN:
                try:
                    out = self.results.win(None, explain)
                    if out is None:   # a settlement not remembered yet: the engine makes it from the Situation
                        out = self.results.win(st.situation(), explain)
                except Fallback:
                    r = (ERR,)
            if out is None and r is None:
                r = self.kernel._answer()
        finally:
            self.lock.give()
        return out if out is not None else self.decided(st.situation(), r, explain)
