# cython: language_level=3
"""Types for compiling mjrules.model.result (runtime/model/result.py) in Cython's pure-Python mode: the one result type, which
the native kernel makes in C (`cimport mjrules.model.result`)."""

cimport cython

@cython.freelist(16)
cdef class Result:
    cdef readonly bint win
    cdef readonly object reason, pattern, status, value
    cdef readonly bint explained      # made with explain=True: it has a reading and explain lines
    cdef tuple _patterns              # the patterns, shared
    cdef dict _payments               # the payments, shared (never changed)
    cdef object _own_patterns         # this result's list and dict of them, made when first read
    cdef object _own_payments
    cdef object _reading, _explain    # made when first read (_tell)
    cdef int _pattern_index
    cdef object _teller               # what makes them (teller.tell(pattern_index, facts)), None once made
    cdef object _facts
    cdef object _lines                # the explanation lines after the pattern's (a tuple or a LazyLines), then
                                      # the settlement's
    cdef tuple _pay_lines
    cdef object _fans                 # the fans that count, as (name, count) pairs; None: a variant without fans


cdef class LazyLines:
    cdef object make, sig, value
    cdef tuple lines
    cpdef tuple get(self)


cpdef Result new_result(bint win, reason, pattern, tuple patterns, status, value, dict payments, bint explained,
                        int pattern_index, teller, facts, lines, tuple pay_lines, fans=*)
cdef _fill(Result r, bint win, reason, pattern, tuple patterns, status, value, dict payments, bint explained,
           int pattern_index, teller, facts, lines, tuple pay_lines, fans)
