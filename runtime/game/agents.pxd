# Types for mjrules/game/agents.py when Cython compiles it (pure-Python mode): the same source, typed.
cimport cython
from mjrules.game.state cimport (ABORT, CHI_HIGH, CHI_LOW, CHI_MID, CHOOSE, DECLARE_READY, DISCARD, KONG, PASS, PON,
                                 ROB_WILD, SELECT, WIN)
from mjrules.game.rng cimport Rng as _Rng
from mjrules.game.state cimport Game


cdef class GreedyAgent:
    cdef public object v, _est, _est_rules
    cdef public _Rng rng

    @cython.locals(discards=list, a=int, rest=bytearray, best=int, used=list, k=int)
    cdef int _decide(self, object est, bytearray counts, int melds, int wild, int wild2, int tile, list ids) except -9
    @cython.locals(n=int, low=int, a=int, d=int, pick=int, ties=int, key=int, best_key=int,
                   draw="unsigned long long", best_draw="unsigned long long")
    cdef int _discard(self, list after, bytearray counts, int wild, int wild2, list discards) except -9


@cython.locals(r=int, n=int, d=int)
cdef int _neighbours(bytearray counts, int k) except -1
cdef list _used(int a, int tile)


cdef class RandomAgent:
    cdef public _Rng rng


@cython.locals(steps=int, seat=int, ids=list, ra=RandomAgent, a=object)
cpdef Game run(Game game, list agents, int max_decisions=*)
