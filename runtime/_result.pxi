# Included by _core.pyx: the result dict of a winning evaluate, assembled in C from the kernel's reading.
#
# The same dict as the reference's (tests/test_differential.py and every behavioural test compare them), its
# pieces taken from the engine's caches: the described groups per kernel group, the explanation lines per
# reading's signature (Kernel._signature: modifiers, events, status, rows, defines, value) and the payments per
# settle signature (win expression values, winner, discarder, dealer). A piece not cached yet is made by the
# engine's own Python method. The reading and the explanation are frozen (mjrules.frozen), so every piece of
# them is shared: a group's dict per kernel group, a line per cached line, and a result whose pieces are all
# remembered is remembered whole; the caller gets its own top-level dict, patterns list and payments dict.


cdef extern from "Python.h":
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    void PyObject_GC_UnTrack(void* op)
    int PyList_SetSlice(object lst, Py_ssize_t low, Py_ssize_t high, object items) except -1
    int PyDict_Update(object a, object b) except -1
    PyObject* _PyDict_GetItem_KnownHash(object mp, object key, Py_hash_t hash)
    int _PyDict_SetItem_KnownHash(object mp, object key, object item, Py_hash_t hash) except -1
    double PyLong_AsDouble(object o) except? -1.0
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    Py_UCS4 PyUnicode_MAX_CHAR_VALUE(object o)
    ctypedef unsigned char Py_UCS1
    ctypedef unsigned short Py_UCS2
    ctypedef struct PyListObject:
        PyObject** ob_item
        Py_ssize_t allocated
    void Py_SET_SIZE(object o, Py_ssize_t size)
    void* PyMem_Calloc(size_t nelem, size_t elsize)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)

cdef extern from *:
    """
    /* mj_dict_put(d, i, key, value): d[key] = value for a dict d the caller has just made (a copy of a template,
       or a new dict filled from one) that already holds key: with CPython 3.11's dict layout, where entry i
       of d's combined string-keyed table holds key itself (the same object), the value is swapped in place;
       anything else (another layout, another entry, another Python) takes PyDict_SetItem. A new dict nobody has
       seen needs no version tag; a value that may be tracked put in an untracked dict tracks it, as insertdict does. The
       swap costs ~15 instructions where PyDict_SetItem costs ~150 (a hash lookup of key and its checks). */
    #if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && !defined(Py_LIMITED_API) && !defined(PYPY_VERSION)
    typedef struct {
        Py_ssize_t dk_refcnt;
        uint8_t dk_log2_size;
        uint8_t dk_log2_index_bytes;
        uint8_t dk_kind;
        uint32_t dk_version;
        Py_ssize_t dk_usable;
        Py_ssize_t dk_nentries;
        char dk_indices[];
    } mj_dictkeys;
    typedef struct { PyObject *me_key; PyObject *me_value; } mj_dictentry;               /* DICT_KEYS_UNICODE */
    static inline int mj_dict_put(PyObject *d, Py_ssize_t i, PyObject *key, PyObject *value) {
        PyDictObject *mp = (PyDictObject *)d;
        mj_dictkeys *dk = (mj_dictkeys *)mp->ma_keys;
        PyObject **slot = NULL;
        if (PyDict_Check(d) && mp->ma_values == NULL && dk->dk_kind == 1 && 0 <= i && i < dk->dk_nentries) {
            mj_dictentry *e = (mj_dictentry *)&dk->dk_indices[(size_t)1 << dk->dk_log2_index_bytes] + i;
            if (e->me_key == key) slot = &e->me_value;
        }
        if (slot != NULL && *slot != NULL) {
            PyObject *old = *slot;
            Py_INCREF(value);
            *slot = value;
            Py_DECREF(old);
            if (!PyObject_GC_IsTracked(d) && PyObject_IS_GC(value)
                    && (!PyTuple_CheckExact(value) || PyObject_GC_IsTracked(value)))
                PyObject_GC_Track(d);   /* (insertdict's MAINTAIN_TRACKING) */
            return 0;
        }
        return PyDict_SetItem(d, key, value);
    }
    #else
    static inline int mj_dict_put(PyObject *d, Py_ssize_t i, PyObject *key, PyObject *value) {
        return PyDict_SetItem(d, key, value);
    }
    #endif
    """
    int mj_dict_put(object d, Py_ssize_t i, object key, object value) except -1


cdef extern from *:
    """
    /* A new list of n items still to be put (a copy of dict src) made as a plain one, from the list's (dict's)
       own free list, then given the type cls: a heap subclass of list (dict) of the very same layout, which
       ResultBuilder checks once (_same_layout). That is `obj.__class__ = cls` on an object nobody has seen,
       which CPython refuses at the Python level for any instance of a static type only because such an
       instance may be shared (an int, a str): these are not. Dealloc goes through cls's subtype_dealloc,
       which drops the type's reference taken here and frees the object as the base type would. */
    static inline PyObject* mj_list_as(PyObject* cls, Py_ssize_t n) {
        PyObject* out = PyList_New(n);
        if (out != NULL) { Py_INCREF(cls); Py_SET_TYPE(out, (PyTypeObject*)cls); }
        return out;
    }
    static inline PyObject* mj_dict_copy_as(PyObject* cls, PyObject* src) {
        PyObject* out = PyDict_Copy(src);
        if (out != NULL) { Py_INCREF(cls); Py_SET_TYPE(out, (PyTypeObject*)cls); }
        return out;
    }
    """
    object mj_list_as(object cls, Py_ssize_t n)
    object mj_dict_copy_as(object cls, object src)


cdef extern from *:
    """
    /* A frozen list or dict type's instances freed without subtype_dealloc: a heap subclass of list or dict laid
       out as its base (_same_layout) with no finalizer, no __del__, no __dict__, no slots and no weak
       references has nothing of its own to clear, so its dealloc is the base's (which frees the object through
       the type's tp_free) and the reference to the type the instance held let go; subtype_dealloc's general
       checks cost ~90 instructions an object, and a result frees a few of them. The trashcan bounds the C
       stack of a deep chain, as subtype_dealloc's does. mj_fast_dealloc installs it where all of that holds. */
    #define MJ_FROZEN_DEALLOC(name, base_type)                                                          \
        static void name(PyObject* op) {                                                              \
            PyTypeObject* t = Py_TYPE(op);                                                            \
            PyObject_GC_UnTrack(op);   /* (before the trashcan, which may put it aside in the GC links) */ \
            Py_TRASHCAN_BEGIN(op, name)                                                               \
            (base_type).tp_dealloc(op);                                                               \
            Py_DECREF(t);                                                                             \
            Py_TRASHCAN_END                                                                           \
        }
    MJ_FROZEN_DEALLOC(mj_frozen_list_dealloc, PyList_Type)
    MJ_FROZEN_DEALLOC(mj_frozen_dict_dealloc, PyDict_Type)
    static int mj_fast_dealloc(PyObject* cls, PyObject* base) {
        PyTypeObject* t = (PyTypeObject*)cls;
        destructor d = base == (PyObject*)&PyList_Type ? mj_frozen_list_dealloc :
                       base == (PyObject*)&PyDict_Type ? mj_frozen_dict_dealloc : NULL;
        if (d == NULL || t->tp_base != (PyTypeObject*)base || t->tp_finalize != NULL || t->tp_del != NULL
                || t->tp_dictoffset != 0 || t->tp_weaklistoffset != 0
                || t->tp_basicsize != ((PyTypeObject*)base)->tp_basicsize || t->tp_itemsize != 0
                || !(t->tp_flags & Py_TPFLAGS_HEAPTYPE))
            return 0;
        if (t->tp_dealloc != d) t->tp_dealloc = d;
        return 1;
    }
    """
    bint mj_fast_dealloc(object cls, object base)


cdef bint _same_layout(object cls, object base):
    """cls is a heap subclass of base whose instances are laid out as base's (no __dict__, no weak
    references, no slots of its own): mj_list_as and mj_dict_copy_as may give a fresh base instance its type."""
    return (isinstance(cls, type) and issubclass(cls, base) and cls is not base
            and cls.__flags__ & (1 << 9)   # Py_TPFLAGS_HEAPTYPE
            and cls.__basicsize__ == base.__basicsize__ and cls.__itemsize__ == base.__itemsize__
            and cls.__dictoffset__ == 0 and cls.__weakrefoffset__ == 0)


cdef tuple _NO_ARGS = ()
from sys import byteorder as _byteorder
cdef bint _LITTLE = _byteorder == "little"   # a 2-byte string's code units are native-endian


cdef object _frozen(object cls, object items):
    """A new instance of a frozen list or dict type (mjrules.frozen) holding items (a list or a dict), made as
    its type's tp_new and the C API make it (no Python call, the type's refusing methods not asked), then left
    out of the cycle collector: it holds strings, bools and other such frozen objects only, and cannot change,
    so it can never be part of a cycle, and the results the engine remembers cost the collector nothing."""
    cdef PyTypeObject* t = <PyTypeObject*>cls
    out = t.tp_new(cls, <PyObject*>_NO_ARGS, NULL)
    if isinstance(items, list):
        PyList_SetSlice(out, 0, 0, items)
    else:
        PyDict_Update(out, items)
    PyObject_GC_UnTrack(<void*>out)
    return out


cdef str _SPACE = " "
cdef str _WILDS_AS = "; wilds as "

cdef enum:
    MAXPARTS = 2 * MAXG + 2            # a line's text: its prefix and every group's description, spaced
    MAXLOOSE = 2 * 4 * NK + 2 * MAXJ + 2   # a reading without groups: every tile's name, "; wilds as", each wild's


cdef str _concat(PyObject** parts, int n):
    """The strings parts[:n] (borrowed) as one new string: "".join without a list or the joined pieces between.
    The characters are written straight into the new string (a part of the same width copied whole, a narrower
    one widened character by character): PyUnicode_CopyCharacters' checks cost ~140 instructions a part, and a
    line's parts are a few characters each."""
    cdef Py_ssize_t size = 0, at = 0, m, j
    cdef Py_UCS4 top = 127
    cdef int i, kind, k
    for i in range(n):
        size += PyUnicode_GET_LENGTH(<str>parts[i])
        top = max(top, PyUnicode_MAX_CHAR_VALUE(<str>parts[i]))
    out = PyUnicode_New(size, top)
    kind = PyUnicode_KIND(out)   # at least each part's: top is the widest part's maximum
    cdef char* dst = <char*>PyUnicode_DATA(out)
    cdef const char* src
    for i in range(n):
        m = PyUnicode_GET_LENGTH(<str>parts[i])
        k = PyUnicode_KIND(<str>parts[i])
        src = <const char*>PyUnicode_DATA(<str>parts[i])
        if k == kind:
            memcpy(dst + at * kind, src, m * kind)
        elif kind == 2:   # (k == 1)
            for j in range(m):
                (<Py_UCS2*>dst)[at + j] = (<const Py_UCS1*>src)[j]
        else:             # kind == 4, k 1 or 2
            for j in range(m):
                (<Py_UCS4*>dst)[at + j] = (<const Py_UCS1*>src)[j] if k == 1 else (<const Py_UCS2*>src)[j]
        at += m
    return out


cdef str _line_text(str prefix, list gdesc, const int* slots, int n):
    """prefix followed by the descriptions (item 3) of the groups gdesc[slots[i]], i < n, joined by spaces: one
    new string, as prefix + " ".join(...) gives without the joined string between."""
    cdef PyObject* parts[MAXPARTS]
    cdef int i, np = 1
    if n > MAXG:
        raise ValueError("too many groups")
    parts[0] = <PyObject*>prefix
    for i in range(n):
        if i:
            parts[np] = <PyObject*>_SPACE
            np += 1
        parts[np] = PyTuple_GET_ITEM(<tuple>PyList_GET_ITEM(gdesc, slots[i]), 3)
        np += 1
    return _concat(parts, np)


cdef str _line_text_packed(str prefix, list gpacked, const int* slots, int n):
    """_line_text from each group's description packed ahead (ResultBuilder.gpacked: per slot the bytes of
    " " + description in the 1- and 2-byte forms of a string, its widest character and the text itself; the
    first group's space left out), the prefix copied whole:
    one memcpy a group, where widening a description character by character cost ~50 instructions a part.
    None where a description or the prefix needs the 4-byte form (the caller then takes _line_text)."""
    cdef Py_ssize_t size = PyUnicode_GET_LENGTH(prefix) - (n > 0), at   # (no space before the first)
    cdef Py_UCS4 top = PyUnicode_MAX_CHAR_VALUE(prefix)
    cdef int i, kind = PyUnicode_KIND(prefix)
    cdef tuple g
    if kind > 2 or n > MAXG:
        return None
    for i in range(n):
        g = <tuple>PyList_GET_ITEM(gpacked, slots[i])
        size += PyUnicode_GET_LENGTH(<str>g[3])
        top = max(top, <Py_UCS4>(<long>g[2]))
    if top > 0xFFFF or kind != (1 if top < 256 else 2):   # (a 1-byte prefix in a 2-byte line: the caller's way)
        return None
    out = PyUnicode_New(size, top)
    cdef char* dst = <char*>PyUnicode_DATA(out)
    at = PyUnicode_GET_LENGTH(prefix) * kind
    memcpy(dst, PyUnicode_DATA(prefix), at)
    for i in range(n):
        at = _put_packed(dst, at, <tuple>PyList_GET_ITEM(gpacked, slots[i]), kind, 0 if i else kind)
    return out


cdef tuple _pack(str text):
    """text packed for the *_packed writers: (its 1-byte form or b"", its 2-byte form or b"", its widest
    character, text)."""
    top = max(map(ord, text)) if text else 0
    return (text.encode("latin-1") if top < 256 else b"",
            text.encode("utf-16-le" if _LITTLE else "utf-16-be") if top <= 0xFFFF else b"", top, text)


cdef tuple _WILDS_AS_PACKED = _pack(_WILDS_AS)


cdef inline Py_ssize_t _put_packed(char* dst, Py_ssize_t at, tuple g, int kind, Py_ssize_t skip) noexcept:
    """g's form of width kind (a _pack tuple) at dst's byte at, but its first skip bytes; the next byte's."""
    cdef bytes b = <bytes>PyTuple_GET_ITEM(g, 0 if kind == 1 else 1)
    cdef Py_ssize_t m = PyBytes_GET_SIZE(b) - skip
    memcpy(dst + at, PyBytes_AS_STRING(b) + skip, m)
    return at + m


cdef str _loose_text_packed(str prefix, list npacked, const int* counts, const int* assign, int nassign):
    """_loose_text from each tile's name packed ahead with its space (ResultBuilder.npacked, per kind _pack(" " +
    name)), one memcpy a tile: _concat widened each short name character by character into the 2-byte string a
    Chinese pattern name makes (~2.5k instructions a line of 17 tiles). None where the prefix or a name needs
    the 4-byte form (the caller then takes _loose_text)."""
    cdef Py_ssize_t size = PyUnicode_GET_LENGTH(prefix), at
    cdef Py_UCS4 top = PyUnicode_MAX_CHAR_VALUE(prefix)
    cdef int kind = PyUnicode_KIND(prefix), k, c, ntiles = 0
    cdef tuple g
    if kind > 2:
        return None
    for k in range(NK):
        if not 0 <= counts[k] <= 4 * NK:
            raise ValueError("not a tile count")
        if counts[k]:
            g = <tuple>PyList_GET_ITEM(npacked, k)
            size += counts[k] * PyUnicode_GET_LENGTH(<str>PyTuple_GET_ITEM(g, 3))
            top = max(top, <Py_UCS4>(<long><object>PyTuple_GET_ITEM(g, 2)))
            ntiles += counts[k]
    size -= ntiles > 0   # (no space before the first tile)
    if nassign:
        if not 0 < nassign <= MAXJ:
            raise ValueError("too many wilds")
        size += PyUnicode_GET_LENGTH(_WILDS_AS) - 1   # (nor before the first wild)
        top = max(top, <Py_UCS4>(<long><object>PyTuple_GET_ITEM(_WILDS_AS_PACKED, 2)))
        for c in range(nassign):
            if not 0 <= assign[c] < NK:
                raise ValueError("not a tile kind")
            g = <tuple>PyList_GET_ITEM(npacked, assign[c])
            size += PyUnicode_GET_LENGTH(<str>PyTuple_GET_ITEM(g, 3))
            top = max(top, <Py_UCS4>(<long><object>PyTuple_GET_ITEM(g, 2)))
    if top > 0xFFFF or kind != (1 if top < 256 else 2):   # (a 1-byte prefix in a 2-byte line: the caller's way)
        return None
    out = PyUnicode_New(size, top)
    cdef char* dst = <char*>PyUnicode_DATA(out)
    at = PyUnicode_GET_LENGTH(prefix) * kind
    memcpy(dst, PyUnicode_DATA(prefix), at)
    ntiles = 0
    for k in range(NK):
        if counts[k]:
            g = <tuple>PyList_GET_ITEM(npacked, k)
            for c in range(counts[k]):
                at = _put_packed(dst, at, g, kind, 0 if ntiles else kind)
                ntiles += 1
    if nassign:
        at = _put_packed(dst, at, _WILDS_AS_PACKED, kind, 0)
        for c in range(nassign):
            at = _put_packed(dst, at, <tuple>PyList_GET_ITEM(npacked, assign[c]), kind, 0 if c else kind)
    if at != size * kind:
        raise AssertionError("a packed line's length")
    return out


cdef str _loose_text(str prefix, list names, const int* counts, const int* assign, int nassign):
    """prefix and a reading without groups (a special shape): the name of every tile it holds (counts, per kind)
    and, with wilds, "; wilds as" and what each stands for (assign), spaced as the reference spaces them; one
    new string, made each time (a stream of new hands asks for a new one nearly every time)."""
    cdef PyObject* parts[MAXLOOSE]
    cdef int k, c, np = 1
    parts[0] = <PyObject*>prefix
    for k in range(NK):
        if counts[k] < 0 or np + 2 * counts[k] > MAXLOOSE - 2 * MAXJ - 2:  # room left for the wilds
            raise ValueError("not a tile count")
        for c in range(counts[k]):
            if np > 1:
                parts[np] = <PyObject*>_SPACE
                np += 1
            parts[np] = PyList_GET_ITEM(names, k)
            np += 1
    if nassign:
        if not 0 < nassign <= MAXJ:
            raise ValueError("too many wilds")
        parts[np] = <PyObject*>_WILDS_AS
        np += 1
        for c in range(nassign):
            if not 0 <= assign[c] < NK:
                raise ValueError("not a tile kind")
            if c:
                parts[np] = <PyObject*>_SPACE
                np += 1
            parts[np] = PyList_GET_ITEM(names, assign[c])
            np += 1
    return _concat(parts, np)


cdef inline object _fresh(object cls):
    """An empty instance of a frozen list or dict type, as its tp_new makes it, for the caller to fill through the
    C API (which the type's refusing methods do not see) and then hand to _sealed."""
    return (<PyTypeObject*>cls).tp_new(cls, <PyObject*>_NO_ARGS, NULL)


cdef object _fresh_list(object cls, Py_ssize_t n):
    """A new instance of the frozen list type cls with n items, each still to be put in by _put (all of them,
    before the list is read or sealed): the room PyList_New would give (the type's tp_new makes it empty), so that
    filling it reallocates nothing."""
    out = (<PyTypeObject*>cls).tp_new(cls, <PyObject*>_NO_ARGS, NULL)
    cdef PyListObject* lst = <PyListObject*>out
    if n > 0:
        if lst.ob_item != NULL:
            raise ValueError("not a fresh list")
        lst.ob_item = <PyObject**>PyMem_Calloc(<size_t>n, sizeof(PyObject*))  # (list_dealloc frees it)
        if lst.ob_item == NULL:
            raise MemoryError()
        lst.allocated = n
        Py_SET_SIZE(out, n)
    return out


cdef inline void _put(object lst, Py_ssize_t i, object item) noexcept:
    """Item i of a list from _fresh_list, not yet put."""
    Py_INCREF(item)
    PyList_SET_ITEM(lst, i, item)


cdef inline object _sealed(object out):
    """out, filled, left out of the cycle collector (see _frozen); last, as filling a dict tracks it again."""
    PyObject_GC_UnTrack(<void*>out)
    return out


cdef Py_hash_t _mix_hash(const unsigned char* b, Py_ssize_t n, unsigned long long seed) noexcept nogil:
    """A seeded multiply-xor over the 8-byte words of b[:n], never -1 (a Py_hash_t for the KnownHash calls)."""
    cdef unsigned long long x = seed ^ (<unsigned long long>n * 0x9E3779B97F4A7C15ULL), w
    cdef Py_ssize_t i = 0
    cdef Py_hash_t h
    while i + 8 <= n:
        memcpy(&w, b + i, 8)
        x = (x ^ w) * 0xBF58476D1CE4E5B9ULL
        x ^= x >> 31
        i += 8
    w = 0
    if i < n:
        memcpy(&w, b + i, n - i)
    x = (x ^ w) * 0x94D049BB133111EBULL
    x ^= x >> 29
    h = <Py_hash_t>x
    return -2 if h == -1 else h


cdef bytes _result_key(int p, bytes sig, bytes sig2, const unsigned char* extra, Py_ssize_t nextra):
    """The key of a remembered result (ResultBuilder.leans / fulls): pattern p, the reading's signature sig, the
    settlement's sig2 and the reading's own key extra, in one bytes object (sig's length first, so the key is
    unambiguous). The caches are only ever asked with _result_hash's hash (the dict's KnownHash calls)."""
    cdef Py_ssize_t ns = len(sig), n2 = len(sig2)
    cdef Py_ssize_t n = 4 + ns + n2 + nextra
    if ns > 0xFFFF or not 0 <= p <= 0xFFFF:
        raise ValueError("signature too long")
    cdef bytes out = PyBytes_FromStringAndSize(NULL, n)
    cdef unsigned char* b = <unsigned char*>PyBytes_AS_STRING(out)
    b[0], b[1], b[2], b[3] = p & 0xFF, p >> 8, ns & 0xFF, ns >> 8
    memcpy(b + 4, PyBytes_AS_STRING(sig), ns)
    memcpy(b + 4 + ns, PyBytes_AS_STRING(sig2), n2)
    if nextra:
        memcpy(b + 4 + ns + n2, extra, nextra)
    return out


cdef inline Py_hash_t _result_hash(int p, Py_hash_t hs, Py_hash_t h2, const unsigned char* extra, Py_ssize_t nextra,
                                unsigned long long seed) noexcept nogil:
    """The hash of _result_key(p, sig, sig2, extra) from sig's and sig2's own (_sig_hash: hs, h2), which the
    caller has anyway, and a multiply-xor over extra: the signatures are not hashed twice, and a new hand's
    key is not made at all where the cache cannot hold it (ResultBuilder.kept). Two keys of one hash are told
    apart by the dict, which compares the bytes."""
    cdef unsigned long long x = (seed ^ <unsigned long long>hs) * 0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 29) ^ <unsigned long long>h2) * 0xBF58476D1CE4E5B9ULL
    x ^= (x >> 31) ^ <unsigned long long>p
    return _mix_hash(extra, nextra, x)


cdef inline Py_hash_t _sig_hash(bytes sig, unsigned long long seed) noexcept:
    """The hash under which ResultBuilder.by_sig and by_settle hold a signature (their KnownHash calls, never
    Python's own: siphash of a new bytes object is ~0.5k instructions a lookup)."""
    return _mix_hash(<const unsigned char*>PyBytes_AS_STRING(sig), PyBytes_GET_SIZE(sig), seed)


cdef inline object _num_of(double v):
    """An integral double as an int, else the float (native._num)."""
    if -9.0e15 < v < 9.0e15:
        return <long long>v if v == <double><long long>v else v
    x = v
    return int(x) if x.is_integer() else x


cdef list _list_of(tuple t):
    """list(t), without the generic sequence protocol."""
    cdef Py_ssize_t i, n = len(t)
    cdef list out = PyList_New(n)
    for i in range(n):
        x = <object>PyTuple_GET_ITEM(t, i)
        Py_INCREF(x)
        PyList_SET_ITEM(out, i, x)
    return out


cdef dict _own_copy(tuple got, Py_ssize_t at_patterns, Py_ssize_t at_payments):
    """A remembered result (dict, patterns, payments) as the caller's own: a copy of the dict with its own
    patterns list and payments dict (its reading and explanation are frozen, hence shared); at_patterns,
    at_payments: their entries in the dict (ResultBuilder's)."""
    cdef dict out = PyDict_Copy(<dict>got[0])
    mj_dict_put(out, at_patterns, "patterns", _list_of(<tuple>got[1]))
    mj_dict_put(out, at_payments, "payments", PyDict_Copy(<dict>got[2]))
    return out


cdef extern from "Python.h":
    void _mj_xdecref "Py_XDECREF"(PyObject* o)


cdef struct Front:
    # an entry of a direct-mapped table in front of a dict keyed by bytes under KnownHash hashes (by_sig,
    # by_settle): the key and its value, both owned (a reference each), or NULL
    Py_hash_t h
    PyObject* key
    PyObject* val


cdef inline PyObject* _front_get(Front* F, bytes key, Py_hash_t h) noexcept:
    """The value F holds for key of hash h (borrowed), or NULL: a hash compared, then the bytes (memcmp), where
    the dict's own look-up of a new bytes key costs ~250 instructions (a call, its probing, a rich compare)."""
    cdef Front* e = &F[<size_t>h & (FRONT - 1)]
    cdef Py_ssize_t n = PyBytes_GET_SIZE(key)
    if e.key == NULL or e.h != h or PyBytes_GET_SIZE(<object>e.key) != n:
        return NULL
    if e.key != <PyObject*>key and memcmp(PyBytes_AS_STRING(<object>e.key), PyBytes_AS_STRING(key), n) != 0:
        return NULL
    return e.val


cdef inline void _front_put(Front* F, bytes key, Py_hash_t h, object val) noexcept:
    """F's entry for hash h holds key and val (what was there is let go)."""
    cdef Front* e = &F[<size_t>h & (FRONT - 1)]
    cdef PyObject* k = e.key
    cdef PyObject* v = e.val
    Py_INCREF(key)
    Py_INCREF(val)
    e.h, e.key, e.val = h, <PyObject*>key, <PyObject*>val
    _mj_xdecref(k)
    _mj_xdecref(v)


cdef void _front_clear(Front* F) noexcept:
    cdef int i
    cdef PyObject* k
    cdef PyObject* v
    for i in range(FRONT):
        k, v = F[i].key, F[i].val
        F[i].key = F[i].val = NULL
        _mj_xdecref(k)
        _mj_xdecref(v)


cdef enum:
    GSLOTS = 3 * NK * 8                # a kernel group's slot: (kind, lowest kind, wild bits)
    SEEN = 4096                        # ResultBuilder.seen's slots
    FRONT = 256                        # the entries of a Front table (a power of two)
    KEPT = 1 << 15                     # ResultBuilder.kept's bits per cache
    KEPT_BYTES = KEPT >> 3


cdef inline int _gslot(int kind, int k0, int wild) noexcept nogil:
    if not (0 <= kind < 3 and 0 <= k0 < NK and 0 <= wild < 8):
        return -1
    return (kind * NK + k0) * 8 + wild


cdef class ResultBuilder:
    """A winning evaluate's result dict; see the comment at the top of runtime/_result.pxi."""
    cdef object engine
    cdef Kernel kernel
    cdef list pat_lines, pat_names, names
    cdef dict middles, templates, by_sig, by_settle
    cdef list gdesc                    # per group slot (_gslot) its description, None for no group
    cdef list gpacked                  # per group slot " " + its description packed (_line_text_packed)
    cdef list npacked                  # per kind " " + its name packed (_loose_text_packed)
    cdef list wilds_as1                # per kind the frozen list [its name]: the wilds_as of one wild (shared)
    cdef object wilds_as0              # the frozen empty list: the wilds_as of no wild (shared)
    cdef list gfrozen                  # per group slot its group dict of a reading (frozen, shared), else None
    cdef list pat_rules                # per pattern the rule ids of its explanation line (frozen, shared)
    cdef list pat_first                # per pattern its explanation line's dict with the text still to fill
    cdef dict reading_tpl              # a reading's dict with its values still to fill
    cdef dict rtpl                     # a winning result's dict with its values still to fill
    cdef dict lean_tpl                 # the same without reading and explain (evaluate(..., explain=False))
    cdef dict leans                    # _result_key(pattern, Kernel._signature, Kernel._settle_signature) -> a lean result's
                                       # (dict, patterns, payments), where both of its pieces are remembered
    cdef dict fulls                    # the same and the reading's own key (see _build) -> a full result's likewise
    cdef object flist, fdict           # mjrules.frozen.FrozenList and FrozenDict
    cdef bint wilds                    # the variant has wilds: groups show their wild marks, the reading its wilds
    cdef int grank[GSLOTS]             # per group slot its rank in the order of descriptions
    cdef Py_hash_t seen[SEEN]          # see _remember
    cdef Front fsig[FRONT]             # in front of by_sig and by_settle (_front_get): what they hold, a value
    cdef Front fset[FRONT]             # the dict gave or took last per slot of the hash (the dicts stay the truth)
    cdef unsigned char kept[2][KEPT_BYTES]   # per cache (0 leans, 1 fulls) bit h % KEPT set where it may hold a key
                                       # of hash h: a key whose bit is clear is not asked of it (nor made)
    cdef unsigned long long seed       # the caches' hash seed (_sig_hash, _result_hash)
    cdef Py_ssize_t at_patterns, at_payments, at_reading, at_explain   # their entries in rtpl (and lean_tpl's)
    cdef Py_ssize_t at_text, at_groups, at_wilds_as                    # in pat_first's dicts, in reading_tpl
    cdef bint retype                   # flist and fdict are list and dict laid out (_same_layout)

    def __init__(self, engine, Kernel kernel, pat_lines, pat_names, names, groups, middles, bint wilds, flist,
                 fdict):
        """pat_lines: per pattern (rule, rules, text before the groups); pat_names: per pattern (reason, name);
        names: the 34 tile names; groups: every kernel group -> (its rank in the order of descriptions, its
        description); middles: the engine's cache behind _middle (emptied in place, never replaced); wilds:
        the variant has wilds (without, a reading shows no wild marks and no wilds_as); flist, fdict: the
        read-only list and dict types of a result's reading and explanation (mjrules.frozen), whose values
        are shared between results."""
        self.wilds = wilds
        if not (isinstance(flist, type) and issubclass(flist, list) and isinstance(fdict, type)
                and issubclass(fdict, dict)):
            raise TypeError("flist and fdict must be list and dict subclasses")
        self.flist, self.fdict = flist, fdict
        self.retype = _same_layout(flist, list) and _same_layout(fdict, dict)
        if self.retype and "__del__" not in flist.__dict__ and "__del__" not in fdict.__dict__:
            mj_fast_dealloc(flist, list)   # (a type that does not qualify keeps its own)
            mj_fast_dealloc(fdict, dict)
        self.engine, self.kernel = engine, kernel
        self.pat_lines, self.pat_names, self.names = list(pat_lines), list(pat_names), list(names)
        self.npacked = [_pack(" " + name) for name in self.names]
        self.wilds_as1 = [_frozen(flist, [name]) for name in self.names]
        self.wilds_as0 = _frozen(flist, [])
        self.pat_rules = [_frozen(flist, list(line[1])) for line in self.pat_lines]
        self.pat_first = [{"rule": line[0], "rules": rules, "text": None}
                          for line, rules in zip(self.pat_lines, self.pat_rules)]
        self.reading_tpl = {"groups": None, "wilds_as": None} if wilds else {"groups": None}
        cdef int slot
        self.middles = middles
        self.gdesc = [None] * GSLOTS
        self.gpacked = [None] * GSLOTS
        self.gfrozen = [None] * GSLOTS
        # (filled key by key, not as literals: Cython makes a literal of more than 8 keys presized, in the general
        # layout, whose copies every reader of a result then looks up more slowly)
        self.rtpl, self.lean_tpl = {}, {}
        for k in ("win", "reason", "pattern", "patterns", "status", "value", "payments", "reading", "explain"):
            self.rtpl[k] = True if k == "win" else None
            if k not in ("reading", "explain"):
                self.lean_tpl[k] = self.rtpl[k]
        for g, (rank, d) in groups.items():
            slot = _gslot((g >> 16) & 0xFF, (g >> 8) & 0xFF, g & 0xFF)
            if slot < 0:
                raise ValueError(f"not a kernel group: {g}")
            self.gdesc[slot], self.grank[slot] = d, rank
            self.gpacked[slot] = _pack(" " + d[3])
            gd = {"kind": d[1], "tiles": _frozen(flist, list(d[4]))}
            if wilds:
                gd["wild"] = _frozen(flist, list(d[2]))
            self.gfrozen[slot] = _frozen(fdict, gd)
        self.templates, self.by_sig, self.by_settle, self.leans, self.fulls = {}, {}, {}, {}, {}
        # the entries of the keys a result's dicts fill (mj_dict_put): a template's key order is its copies'
        keys = list(self.rtpl)   # (lean_tpl's keys are rtpl's in the same order, without the last two)
        self.at_patterns, self.at_payments = keys.index("patterns"), keys.index("payments")
        self.at_reading, self.at_explain = keys.index("reading"), keys.index("explain")
        self.at_text = list(self.pat_first[0]).index("text") if self.pat_first else 0
        self.at_groups = list(self.reading_tpl).index("groups")
        self.at_wilds_as = list(self.reading_tpl).index("wilds_as") if wilds else 0
        self.seed = <unsigned long long><Py_hash_t>hash(b"mjrules.ResultBuilder")  # random per process, as Python's own
                                                                        # (fixed by PYTHONHASHSEED)

    cdef tuple _templates(self, tuple lines):
        """The explanation lines (frozen dicts, shared by every result showing them) of a tuple of (rule, rules,
        text) lines, remembered per tuple object: the tuples come from the engine's caches, and the entry keeps
        its tuple alive, so its id stays its own."""
        cdef PyObject* hit = PyDict_GetItem(self.templates, id(lines))
        if hit != NULL:
            return <tuple>(<tuple>hit)[1]
        flist, fdict = self.flist, self.fdict
        got = tuple([_frozen(fdict, {"rule": rule, "rules": _frozen(flist, list(rules)), "text": text})
                     for rule, rules, text in lines])
        if len(self.templates) >= 4096:
            self.templates.clear()
        self.templates[id(lines)] = (lines, got)
        return got

    cdef tuple _middle(self, bytes sig, Py_hash_t h, value):
        """(engine._middle, its lines' templates, per pattern its result templates or None: see _heads) for the
        reading whose signature is sig (Kernel._signature; h: its _sig_hash), remembered per signature where the
        engine remembers it (not while a define's string value has no name yet)."""
        cdef PyObject* hit = _front_get(self.fsig, sig, h)
        if hit != NULL:
            return <tuple>hit
        hit = _PyDict_GetItem_KnownHash(self.by_sig, sig, h)
        if hit != NULL:
            _front_put(self.fsig, sig, h, <tuple>hit)
            return <tuple>hit
        mods, events, status, rows, defines = self.kernel.parts(sig)
        middle = self.engine._middle(mods, events, status, rows, defines, value)
        got = (middle, self._templates(<tuple>middle[0]), [None] * len(self.pat_names))
        if (mods, events, status, rows, defines, value) in self.middles:
            if len(self.by_sig) >= 4096:
                self.by_sig.clear()
            _PyDict_SetItem_KnownHash(self.by_sig, sig, got, h)
            _front_put(self.fsig, sig, h, got)
        return got

    cdef tuple _heads(self, tuple got, int p, value):
        """Pattern p's (full result template, lean result template, patterns) for the reading whose _middle is got:
        the templates (rtpl and lean_tpl) with everything the pattern and the signature decide filled in (reason,
        pattern, status, value: the signature holds the value), the patterns as a tuple; made once per pattern
        and signature, in got's third item."""
        cdef list per = <list>got[2]
        hit = <object>PyList_GET_ITEM(per, p)
        if hit is not None:
            return <tuple>hit
        middle = <tuple>got[0]
        reason, name = self.pat_names[p]
        full = PyDict_Copy(self.rtpl)
        lean = PyDict_Copy(self.lean_tpl)
        for d in (full, lean):
            d["reason"] = reason
            d["pattern"] = name
            d["status"] = middle[2]
            d["value"] = value
        heads = (full, lean, (name,) + tuple(middle[1]))
        per[p] = heads
        return heads

    cdef tuple _settled(self, s, sig, Py_hash_t h, object num):
        """(payments dict, its explanation lines) of settle_win on the reading just chosen, remembered per its
        Kernel._settle_signature sig (settle_win reads nothing else; None: not to be remembered; h: its
        _sig_hash); the caller copies the dict."""
        cdef PyObject* hit
        if sig is not None:
            hit = _front_get(self.fset, <bytes>sig, h)
            if hit != NULL:
                return <tuple>hit
            hit = _PyDict_GetItem_KnownHash(self.by_settle, sig, h)
            if hit != NULL:
                _front_put(self.fset, <bytes>sig, h, <tuple>hit)
                return <tuple>hit
        if s is None:  # not remembered, and the caller has not made the Situation yet: see _build
            return None
        paid, lines = self.engine._settle(s, num)
        got = (paid, self._templates(<tuple>lines))
        if sig is not None:
            if len(self.by_settle) >= 4096:
                self.by_settle.clear()
            _PyDict_SetItem_KnownHash(self.by_settle, sig, got, h)
            _front_put(self.fset, <bytes>sig, h, got)
        return got

    def __dealloc__(self):
        _front_clear(self.fsig)
        _front_clear(self.fset)

    cdef inline bint _may_hold(self, int which, Py_hash_t h) noexcept:
        """The cache (0 leans, 1 fulls) may hold a key of hash h: its bit in self.kept is set."""
        return (self.kept[which][(<size_t>h % KEPT) >> 3] >> ((<size_t>h % KEPT) & 7)) & 1

    cdef inline object _flist_of(self, Py_ssize_t n):
        """A new frozen list of n items, each still to be put (_fresh_list)."""
        return mj_list_as(self.flist, n) if self.retype else _fresh_list(self.flist, n)

    cdef inline object _fdict_of(self, dict tpl):
        """A new frozen dict holding a copy of tpl's items, to be filled (mj_dict_put) and sealed."""
        if self.retype:
            return mj_dict_copy_as(self.fdict, tpl)
        out = _fresh(self.fdict)
        PyDict_Update(out, tpl)   # (a copy of its keys, not inserts)
        return out

    def build(self, s, tuple r, bint explain=True):
        """The result dict of s for the kernel's WIN tuple r: its last evaluate's (see Kernel.evaluate); without
        explain, the dict has no reading and no explain, and neither is made."""
        return self._build(s, r) if explain else self._build_lean(s, r)

    cdef void _remember(self, int which, key, int p, const unsigned char* extra, Py_ssize_t nextra, Py_hash_t h,
                        bytes sig, Py_hash_t hs, bytes sig2, Py_hash_t h2, dict out) except *:
        """Remember out whole in cache (leans or fulls) under key, where its pieces are remembered: the pattern,
        the reading's signature sig (its value included), the settlement's sig2 and, for a full result, the
        reading's own key decide all of it. Its reading and explanation are frozen, so they are shared.
        A result is remembered the second time its key is seen (self.seen holds the hashes of keys seen once,
        in one of two slots each, so that two keys sharing one slot do not keep each other from being
        remembered): keeping every result a stream of new hands gives makes the heap grow and costs the
        first sight of a hand more than building it does. h: the key's hash (_result_hash); hs, h2: sig's and
        sig2's (_sig_hash). which: the cache, 0 leans, 1 fulls; key None: not made yet (it is made from p, sig,
        sig2 and extra only when it is kept)."""
        cdef dict cache = self.fulls if which else self.leans
        cdef unsigned char* bits = self.kept[1 if which else 0]
        cdef Py_hash_t* a = &self.seen[<size_t>h % SEEN]
        cdef Py_hash_t* b = &self.seen[<size_t>(<unsigned long long>h >> 32) % SEEN]
        if a[0] == h:
            a[0] = 0
        elif b[0] == h:
            b[0] = 0
        else:
            if a[0] != 0 and b[0] == 0:
                b[0] = h
            else:
                a[0] = h
            return
        if _PyDict_GetItem_KnownHash(self.by_sig, sig, hs) == NULL or \
                _PyDict_GetItem_KnownHash(self.by_settle, sig2, h2) == NULL:
            return
        if len(cache) >= 4096:
            cache.clear()
            memset(bits, 0, KEPT_BYTES)
        if key is None:
            key = _result_key(p, sig, sig2, extra, nextra)
        bits[(<size_t>h % KEPT) >> 3] |= 1 << ((<size_t>h % KEPT) & 7)
        kept = PyDict_Copy(out)
        kept["patterns"] = kept["payments"] = None  # the caller's own: _own_copy puts new ones in a copy
        _PyDict_SetItem_KnownHash(cache, key, (kept, tuple(out["patterns"]), PyDict_Copy(out["payments"])), h)

    cdef dict _build_lean(self, s, tuple r):
        """build(..., explain=False): _build's decided values only (the pattern, the middle's patterns and status,
        the payments); None likewise where the settlement needs the Situation. A result whose pieces are
        remembered is remembered whole (self.leans, see _remember)."""
        cdef int p = r[1]
        cdef PyObject* hit
        cdef dict out
        cdef Py_hash_t h = 0, hs, h2
        sig2 = self.kernel._settle_signature(<double>r[2])
        hs, h2 = _sig_hash(<bytes>r[3], self.seed), 0 if sig2 is None else _sig_hash(<bytes>sig2, self.seed)
        key = None
        if sig2 is not None:   # the key is made only where leans may hold it (self.kept), or to be kept (_remember)
            h = _result_hash(p, hs, h2, NULL, 0, self.seed)
            if self._may_hold(0, h):
                key = _result_key(p, <bytes>r[3], <bytes>sig2, NULL, 0)
                hit = _PyDict_GetItem_KnownHash(self.leans, key, h)  # NULL: absent (bytes' equality cannot raise)
                if hit != NULL:
                    return _own_copy(<tuple>hit, self.at_patterns, self.at_payments)
        value = _num_of(r[2])
        got = self._middle(<bytes>r[3], hs, value)
        settled = self._settled(s, sig2, h2, value)
        if settled is None:
            return None
        out = self._decided(got, p, value, <dict>(<tuple>settled)[0], False)
        if sig2 is not None:
            self._remember(0, key, p, NULL, 0, h, <bytes>r[3], hs, <bytes>sig2, h2, out)
        return out

    cdef dict _decided(self, tuple got, int p, value, dict paid, int full):
        """A new result dict with the decided values: pattern p's head (_heads: got is the reading's _middle) full or
        lean, a new patterns list and a copy of the payments paid (the caller's own)."""
        cdef tuple heads = self._heads(got, p, value)
        out = PyDict_Copy(<object>PyTuple_GET_ITEM(heads, 0 if full else 1))  # copying a small dict's keys and
        mj_dict_put(out, self.at_patterns, "patterns", _list_of(<tuple>heads[2]))  # values beats inserting them
        mj_dict_put(out, self.at_payments, "payments", PyDict_Copy(paid))
        return out

    cdef dict _build(self, s, tuple r):
        """build(); with s None, returns None where the settlement is not remembered and needs the Situation.
        The reading and the explanation are frozen: a result whose pieces are remembered is remembered whole
        (self.fulls, see _remember), keyed by the lean key and the reading's groups and wilds (their ranks,
        what the wilds stand for and, without groups, the counts), which decide its description."""
        cdef int p = r[1]
        cdef Reading* rd = &self.kernel.best  # the chosen reading, kept by the kernel until its next evaluate
        cdef int rank[MAXG]
        cdef int slots[MAXG]
        cdef unsigned char kb[2 * MAXG + MAXJ + NK + 2]  # the reading's key
        cdef int n = 0, i, t, slot, k, nk
        cdef Py_ssize_t nm, ns
        cdef PyObject* hit
        cdef Py_hash_t h = 0, hs, h2
        cdef tuple mid_t, set_t
        cdef list gdesc = self.gdesc, gfrozen = self.gfrozen, names = self.names
        if rd.nassign > MAXJ:
            raise ValueError("too many wilds")
        for k in range(rd.ngroups):  # insertion sort by rank (a reading has a handful of groups)
            slot = _gslot(rd.groups[k].kind, rd.groups[k].k0, rd.groups[k].wild)
            if slot < 0 or <object>PyList_GET_ITEM(gdesc, slot) is None or n == MAXG:
                raise ValueError("not a kernel group")
            t = self.grank[slot]
            i = n
            while i > 0 and rank[i - 1] > t:
                rank[i] = rank[i - 1]
                slots[i] = slots[i - 1]
                i -= 1
            rank[i] = t
            slots[i] = slot
            n += 1
        kb[0] = <unsigned char>n
        nk = 1
        for i in range(n):  # a rank is below GSLOTS
            kb[nk], kb[nk + 1] = <unsigned char>(rank[i] & 0xFF), <unsigned char>(rank[i] >> 8)
            nk += 2
        kb[nk] = <unsigned char>rd.nassign
        nk += 1
        for i in range(rd.nassign):
            if not 0 <= rd.assign[i] < NK:
                raise ValueError("not a tile kind")
            kb[nk] = <unsigned char>rd.assign[i]
            nk += 1
        if n == 0:  # a special shape: described by its tile counts
            for i in range(NK):
                if not 0 <= rd.counts[i] < 256:
                    raise ValueError("not a tile count")
                kb[nk] = <unsigned char>rd.counts[i]
                nk += 1
        sig2 = self.kernel._settle_signature(<double>r[2])
        hs, h2 = _sig_hash(<bytes>r[3], self.seed), 0 if sig2 is None else _sig_hash(<bytes>sig2, self.seed)
        key = None
        if sig2 is not None:   # the key is made only where fulls may hold it (self.kept), or to be kept (_remember)
            h = _result_hash(p, hs, h2, kb, nk, self.seed)
            if self._may_hold(1, h):
                key = _result_key(p, <bytes>r[3], <bytes>sig2, kb, nk)
                hit = _PyDict_GetItem_KnownHash(self.fulls, key, h)
                if hit != NULL:
                    return _own_copy(<tuple>hit, self.at_patterns, self.at_payments)
        value = _num_of(r[2])
        got = self._middle(<bytes>r[3], hs, value)
        mid_t = <tuple>got[1]
        settled = self._settled(s, sig2, h2, value)
        if settled is None:
            return None
        paid, set_t = settled
        # the new frozen containers are filled in place (no plain container copied into each)
        line = <tuple>self.pat_lines[p]
        first = self._fdict_of(<object>PyList_GET_ITEM(self.pat_first, p))
        if n:
            text = _line_text_packed(<str>line[2], self.gpacked, slots, n)
            mj_dict_put(first, self.at_text, "text", text if text is not None else
                        _line_text(<str>line[2], gdesc, slots, n))
        else:
            text = _loose_text_packed(<str>line[2], self.npacked, rd.counts, rd.assign, rd.nassign)
            mj_dict_put(first, self.at_text, "text", text if text is not None else
                        _loose_text(<str>line[2], names, rd.counts, rd.assign, rd.nassign))
        nm, ns = len(mid_t), len(set_t)
        explain = self._flist_of(1 + nm + ns)
        _put(explain, 0, _sealed(first))
        for i in range(nm):   # the shared (frozen) lines of the reading's signature
            _put(explain, 1 + i, <object>PyTuple_GET_ITEM(mid_t, i))
        for i in range(ns):   # and of the settlement
            _put(explain, 1 + nm + i, <object>PyTuple_GET_ITEM(set_t, i))
        groups = self._flist_of(n)
        for i in range(n):
            _put(groups, i, <object>PyList_GET_ITEM(gfrozen, slots[i]))
        reading = self._fdict_of(self.reading_tpl)
        mj_dict_put(reading, self.at_groups, "groups", _sealed(groups))
        if self.wilds:   # no wild or one: a list made once (a reading's lists are frozen, so shared)
            if rd.nassign == 0:
                wilds_as = self.wilds_as0
            elif rd.nassign == 1:
                wilds_as = <object>PyList_GET_ITEM(self.wilds_as1, rd.assign[0])
            else:
                wilds_as = self._flist_of(rd.nassign)
                for i in range(rd.nassign):
                    _put(wilds_as, i, <object>PyList_GET_ITEM(names, rd.assign[i]))
                _sealed(wilds_as)
            mj_dict_put(reading, self.at_wilds_as, "wilds_as", wilds_as)
        out = self._decided(got, p, value, <dict>paid, True)
        mj_dict_put(out, self.at_reading, "reading", _sealed(reading))
        mj_dict_put(out, self.at_explain, "explain", _sealed(explain))
        if sig2 is not None:
            self._remember(1, key, p, kb, nk, h, <bytes>r[3], hs, <bytes>sig2, h2, out)
        return out


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


cdef extern from "Python.h":
    ctypedef PyObject* (*vectorcallfunc)(PyObject* callable, PyObject* const* args, size_t nargsf,
                                         PyObject* kwnames) except NULL
    Py_ssize_t PyVectorcall_NARGS(size_t nargsf)

cdef extern from *:
    """
    /* Give a type whose instances hold their vectorcall function at byte offset `offset` the vectorcall
       protocol (tp_vectorcall_offset and the flag that says it is there). */
    static void mj_vectorcall_slot(PyObject* cls, Py_ssize_t offset) {
        ((PyTypeObject*)cls)->tp_vectorcall_offset = offset;
        ((PyTypeObject*)cls)->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
    }
    """
    void mj_vectorcall_slot(object cls, Py_ssize_t offset)


cdef PyObject* _fe_vectorcall(PyObject* callable, PyObject* const* args, size_t nargsf, PyObject* kwnames) except NULL:
    """FastEvaluate's vectorcall: a call with the situation alone goes straight to _call, its argument where the
    caller has it; any other call goes through __call__, which checks its arguments (calling the object without
    this packs every call's arguments into a new tuple, and __call__ unpacks them)."""
    cdef Py_ssize_t i, n = PyVectorcall_NARGS(nargsf)
    cdef object out
    if kwnames == NULL and n == 1:
        out = (<FastEvaluate>callable)._call(<object>args[0], True)
    elif (kwnames == NULL and n == 2) or (n == 1 and len(<object>kwnames) == 1
                                          and <object>PyTuple_GET_ITEM(<object>kwnames, 0) == "explain"):
        # (situation, explain) or (situation, explain=...): the value follows the situation either way;
        # its truth as __call__'s bint takes it
        out = (<FastEvaluate>callable)._call(<object>args[0], bool(<object>args[1]))
    else:
        pos = tuple([<object>args[i] for i in range(n)])
        kw = {} if kwnames == NULL else {<object>PyTuple_GET_ITEM(<object>kwnames, i): <object>args[n + i]
                                          for i in range(len(<object>kwnames))}
        out = FastEvaluate.__call__(<object>callable, *pos, **kw)
    Py_INCREF(out)
    return <PyObject*>out


cdef class FastEvaluate:
    """NativeEngine.evaluate in one C call for what it is nearly always given: a situation dict the reader takes
    (plain notation, no options) whose hand the kernel finds winning. Read, judged and built in C under the
    engine's lock; everything else -- a dict the reader leaves to situation_from_dict, a missing winning tile,
    a losing hand, a reading whose payments only the reference can settle -- goes to the engine's Python path,
    which gives the same answer or raises the same error as before."""
    cdef Reader reader
    cdef Kernel kernel
    cdef ResultBuilder builder
    cdef tuple opts
    cdef dict win_by_ids
    cdef KernelLock lock
    cdef object slow, decided
    cdef vectorcallfunc vc   # _fe_vectorcall (the type's tp_vectorcall_offset points here)
    cdef object wb_key, wb_val   # the last win_by string looked up in win_by_ids (held) and its id: an id
                                 # never changes once given

    def __init__(self, Reader reader, Kernel kernel, ResultBuilder builder, tuple opts, dict win_by_ids,
                 KernelLock lock, slow, decided):
        """opts: the spec's default option values (encoded); win_by_ids: win_by string -> its id; lock: the
        engine's lock around the kernel; slow(situation, explain): the Python evaluate; decided(s, r, explain): the
        result of a kernel answer r other than a built win."""
        self.reader, self.kernel, self.builder = reader, kernel, builder
        self.opts, self.win_by_ids = opts, win_by_ids
        self.lock = lock
        self.slow, self.decided = slow, decided

    def __cinit__(self, *args, **kwargs):
        self.vc = _fe_vectorcall

    def __call__(self, situation, bint explain=True):
        """The result dict of a situation (see NativeEngine.evaluate); without explain, no reading and no explain
        lines are made or returned."""
        return self._call(situation, explain)

    cdef object _call(self, situation, bint explain):
        cdef PyObject* wb
        cdef tuple r
        cdef dict out = None
        cdef Fields st
        if type(situation) is not dict:   # (a Situation: the engine's own path, which checks it)
            return self.slow(situation, explain)
        st = self.reader.read(situation, False)  # no Situation is made unless a slow path needs it
        if st.options:
            return self.slow(st.situation(), explain)
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
            r = self.kernel._evaluate_sit(st, self.opts, PyLong_AsDouble(w) if type(w) is int else <double>w, -1)
            if r[0] == WIN:
                try:
                    out = self.builder._build(None, r) if explain else self.builder._build_lean(None, r)
                    if out is None:  # a settlement not remembered yet: the engine makes it from the Situation
                        s = st.situation()
                        out = self.builder._build(s, r) if explain else self.builder._build_lean(s, r)
                except Fallback:
                    r = (ERR,)
        finally:
            self.lock.give()
        return out if out is not None else self.decided(st.situation(), r, explain)


cdef void _fe_vectorcall_slot():
    """FastEvaluate gets the vectorcall protocol (_fe_vectorcall, which every instance holds in its field vc):
    Python then calls an instance with its arguments in place. Set once, at import, before any instance exists
    but the probe that measures where the field sits."""
    cdef FastEvaluate probe = FastEvaluate.__new__(FastEvaluate)
    mj_vectorcall_slot(FastEvaluate, <Py_ssize_t>(<char*>&probe.vc - <char*><PyObject*>probe))


_fe_vectorcall_slot()
