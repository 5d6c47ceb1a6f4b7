# Types for mjrules/game/observe.py when Cython compiles it (pure-Python mode): the same source, typed.
cimport cython


@cython.locals(n=int, i=int, p=int, at=int, disc=int, flow=int, k=int, to_act=int, out=bytearray, order=list,
               facts=list)
cpdef tuple planes(object g, int seat)
