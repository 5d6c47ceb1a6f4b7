# Included by _core.pyx: the result dict of a winning evaluate, assembled in C from the kernel's reading.
#
# The same dict as the reference's (tests/test_differential.py and every behavioural test compare them), its
# pieces taken from the engine's caches: the described
# groups per kernel group, the explanation lines per (modifiers, events, status, rows, defines, value) and the
# payments per (win expression values, winner, discarder, dealer). A piece not cached yet is made by the
# engine's own Python method, which caches it.


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


cdef inline void _explain_into(list out, tuple lines):
    cdef tuple line
    for line in lines:
        out.append({"rule": line[0], "rules": _list_of(<tuple>line[1]), "text": line[2]})


cdef class ResultBuilder:
    """A winning evaluate's result dict; see the comment at the top of runtime/_result.pxi."""
    cdef object engine, kernel, group_of
    cdef list pat_lines, pat_names, names
    cdef dict groups, described, middles, settled

    def __init__(self, engine, kernel, pat_lines, pat_names, names, group_of, groups, middles, settled):
        """pat_lines: per pattern (rule, rules, text before the groups); pat_names: per pattern (reason, name);
        names: the 34 tile names; group_of: a kernel group -> its description, remembered in groups; middles,
        settled: the engine's caches behind _middle and _settle (emptied in place, never replaced)."""
        self.engine, self.kernel, self.group_of = engine, kernel, group_of
        self.pat_lines, self.pat_names, self.names = list(pat_lines), list(pat_names), list(names)
        self.groups, self.described, self.middles, self.settled = groups, {}, middles, settled

    cdef str _loose(self, tuple counts, tuple assign):
        """The reading's tiles when it has no groups (a special shape), remembered per counts and wilds."""
        cdef int k, c
        key = (counts, assign)
        got = self.described.get(key)
        if got is None:
            names = self.names
            got = " ".join([names[k] for k in range(34) for c in range(<int>counts[k])])
            if assign:
                got += "; wilds as " + " ".join([names[k] for k in assign])
            if len(self.described) >= 4096:
                self.described.clear()
            self.described[key] = got
        return got

    def build(self, s, tuple r):
        """The result dict of s for the kernel's WIN tuple r (see Kernel.evaluate)."""
        cdef int p = r[1]
        cdef list gs = []
        cdef tuple g, d, assign = r[9]
        cdef PyObject* hit
        value = _num_of(r[2])
        for g in r[8]:
            hit = PyDict_GetItem(self.groups, g)
            if hit == NULL:
                d = self.group_of(*g)
                self.groups[g] = d
            else:
                d = <tuple>hit
            gs.append(d)
        gs.sort()
        described = " ".join([d[3] for d in gs]) if gs else self._loose(r[10], assign)
        line = <tuple>self.pat_lines[p]
        explain = [{"rule": line[0], "rules": _list_of(<tuple>line[1]), "text": line[2] + described}]
        key = (r[3], r[4], r[5], r[6], r[7], value)
        hit = PyDict_GetItem(self.middles, key)
        middle = <tuple>hit if hit != NULL else self.engine._middle(r[3], r[4], r[5], r[6], r[7], value)
        _explain_into(explain, <tuple>middle[0])
        vals = self.kernel.wins(<double>r[2])
        hit = PyDict_GetItem(self.settled, (vals, s.seat, s.discarder, s.dealer))
        settled = <tuple>hit if hit != NULL else self.engine._settle(s, value)
        _explain_into(explain, <tuple>settled[1])
        reason, name = self.pat_names[p]
        patterns = [name]
        patterns.extend(<tuple>middle[1])
        names = self.names
        return {
            "win": True,
            "reason": reason,
            "pattern": name,
            "patterns": patterns,
            "status": middle[2],
            "value": value,
            "payments": dict(settled[0]),
            "reading": {"groups": [{"kind": d[1], "tiles": _list_of(<tuple>d[4]),
                                    "wild": _list_of(<tuple>d[2])} for d in gs],
                        "wilds_as": [names[k] for k in assign]},
            "explain": explain,
        }
