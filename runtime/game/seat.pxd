# Types for mjrules/game/seat.py when Cython compiles it (pure-Python mode): the same source, typed.
cimport cython

cpdef enum:
    N_KINDS = 42


cdef class Seat:
    cdef public bytearray counts, meld_counts, marked_hand, marked_meld
    cdef public list melds, flowers, discards, kongs
    cdef public bint meld_seq, first_turn, declared_ready, ron_blocked, out, declaring, ready_first, unbroken, furiten_hand
    cdef public int wild_discards, size, draws, dist_floor, called_away
    cdef public list picks, choices
    cdef public unsigned long long df_mask, nc_mask, nw_mask, discarded_mask, swap_mask
    cpdef Seat copy(self)


@cython.locals(k=int, c=int, out=list)
cpdef list tiles_of(bytearray counts)


cdef class Winner:
    cdef public int seat, discarder
    cdef public str win_by
    cdef public object result


cdef dict _MELDS
cpdef object meld_of(str kind, int lo, bint concealed)
