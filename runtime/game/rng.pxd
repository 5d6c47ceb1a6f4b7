# Types for mjrules/game/rng.py when Cython compiles it (pure-Python mode): the same source, typed.
cimport cython

cdef unsigned long long MASK64, _GOLDEN, _MIX1, _MIX2


cdef class Rng:
    cdef public unsigned long long state
    cpdef unsigned long long next64(self)
    @cython.locals(x="unsigned long long")
    cpdef long below(self, long n)
    @cython.locals(i=long, j=long)
    cpdef shuffle(self, list items)


cdef unsigned long long _mix64(unsigned long long z)
