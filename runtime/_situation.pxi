# Included by _core.pyx: reading a situation dict in C (the native backend's evaluate and waits).
#
# SituationReader.read(d) is mjrules.situation.situation_from_dict for the input people and servers send
# every time: ASCII tile notation ("123m 9s* f1"), melds as a list of "[555p]"-style strings, ints and bools
# of the exact types. For such a dict whose situation is legal it returns the Situation situation_from_dict
# builds; for anything else -- another notation, a value of an odd type, an impossible hand, options -- it
# returns None and the caller takes situation_from_dict's path, which reports the error. It never accepts what
# situation_from_dict refuses (tests/test_situation_reader.py compares the two on generated dicts).


cdef extern from "Python.h":
    int PyObject_GenericSetAttr(object o, object name, object value) except -1
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    int PyUnicode_1BYTE_KIND

# the situation keys, in the order SituationReader's keys argument must give them
K_NAMES = ("seat", "dealer", "concealed", "melds", "win_tile", "win_by", "discarder", "wild", "indicator", "flowers",
           "wild_discards", "dealer_streak", "first_turn", "first_discard", "declared_ready", "options", "winners",
           "dealer_won")
cdef enum:
    SK_SEAT, SK_DEALER, SK_CONCEALED, SK_MELDS, SK_WIN_TILE, SK_WIN_BY, SK_DISCARDER, SK_WILD, SK_INDICATOR, SK_FLOWERS
    SK_WILD_DISCARDS, SK_DEALER_STREAK, SK_FIRST_TURN, SK_FIRST_DISCARD, SK_DECLARED_READY, SK_OPTIONS, SK_WINNERS
    SK_DEALER_WON, SK_COUNT


cdef extern from "Python.h":
    PyObject* PyDict_GetItemWithError(object mp, object key)
    PyObject* PyErr_Occurred()
    void PyErr_Clear()


cdef inline PyObject* _get(dict d, key) noexcept:
    """d's value for key (borrowed), or NULL when there is none or comparing the keys raised (the error then
    cleared: a situation's odd key goes to the Python path, which names it). PyDict_GetItem without saving and
    restoring the error state, which cost ~20 instructions a lookup."""
    cdef PyObject* v = PyDict_GetItemWithError(d, key)
    if v == NULL and PyErr_Occurred() != NULL:
        PyErr_Clear()
    return v


cdef inline int _digit(Py_UCS4 ch) noexcept:
    return <int>ch - 48 if 48 <= <int>ch <= 57 else -1


cdef signed char _SUIT_BASE[256]   # a suit letter's first kind (m 0, p 9, s 18, z 27), -1 for any other byte
memset(_SUIT_BASE, -1, sizeof(_SUIT_BASE))
_SUIT_BASE[<unsigned char>b'm'[0]], _SUIT_BASE[<unsigned char>b'p'[0]] = 0, 9
_SUIT_BASE[<unsigned char>b's'[0]], _SUIT_BASE[<unsigned char>b'z'[0]] = 18, 27


cdef int _scan_ascii(str text, int* kinds, bint* wild) except -2:
    """mjrules.tiles._scan on text written with digits, m p s z, f1..f8, '*' and spaces: the number of tiles,
    their kinds and wild marks into kinds / wild; -1 for any other text or any text _scan refuses."""
    cdef int pend[RD_MAX]
    cdef bint pwild[RD_MAX]
    cdef int npend = 0, n = 0, i = 0, last_digit = -2, star_target = -1, d, j, top, base
    cdef Py_ssize_t size = len(text)
    cdef Py_UCS4 ch
    cdef const unsigned char* at
    if PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND:  # a character beyond Latin-1: not this notation
        return -1
    at = <const unsigned char*>PyUnicode_DATA(text)
    while i + 1 < size:  # the common spelling first: one tile a digit and its suit ('3p'), maybe marked ('1p*')
        d = <int>at[i] - 49                  # the rank less one
        base = _SUIT_BASE[at[i + 1]]         # (one table look-up for the suit, not a chain of tests)
        if <unsigned int>d > 8 or base < 0 or (base == 27 and d > 6):
            break
        if n == RD_MAX:
            return -1
        kinds[n], wild[n] = base + d, False
        n += 1
        i += 2
        star_target = i
        if i < size and at[i] == 42:  # '*': as the loop below marks the tile just read
            wild[n - 1] = True
            i += 1
    while i < size:  # the rest, whatever it is, from where the spelling above stops
        ch = at[i]
        d = _digit(ch)
        if ch == u' ':
            i += 1
        elif d >= 0:
            if npend == RD_MAX:
                return -1
            pend[npend], pwild[npend] = d, False
            npend += 1
            last_digit = i
            i += 1
        elif ch == u'*':
            if npend and last_digit == i - 1:
                pwild[npend - 1] = True
            elif not npend and n and star_target == i and not wild[n - 1]:
                wild[n - 1] = True
            else:
                return -1
            i += 1
        elif ch == u'm' or ch == u'p' or ch == u's' or ch == u'z':
            if not npend or n + npend > RD_MAX:
                return -1
            top = 7 if ch == u'z' else 9
            base = 0 if ch == u'm' else 9 if ch == u'p' else 18 if ch == u's' else 27
            for j in range(npend):
                if not 1 <= pend[j] <= top:
                    return -1
                kinds[n], wild[n] = base + pend[j] - 1, pwild[j]
                n += 1
            npend = 0
            i += 1
            star_target = i
        elif ch == u'f':
            if npend or i + 1 >= size or n == RD_MAX:
                return -1
            d = _digit(at[i + 1])
            if not 1 <= d <= 8:
                return -1
            kinds[n], wild[n] = 34 + d - 1, False
            n += 1
            i += 2
            star_target = i
        else:
            return -1
    return -1 if npend else n


_object_new = object.__new__


cdef tuple _SMALL = tuple(range(RD_KINDS))


cdef tuple _int_tuple(const int* xs, int n):
    """The kinds xs[:n] (each 0 <= x < RD_KINDS) as a tuple of ints."""
    cdef tuple t = PyTuple_New(n)
    cdef int i
    for i in range(n):
        x = <object>PyTuple_GET_ITEM(_SMALL, xs[i])
        Py_INCREF(x)
        PyTuple_SET_ITEM(t, i, x)
    return t


cdef inline bint _exact_int(v, long lo, long hi, long* out) noexcept:
    """v is an int (not a bool) in lo..hi: its value into out."""
    cdef long x
    if type(v) is not int:
        return False
    try:
        x = v
    except OverflowError:
        return False
    if not lo <= x <= hi:
        return False
    out[0] = x
    return True


cdef inline signed char _flag(PyObject* v) noexcept:
    """A bool the reader checked, as Sit keeps it: -1 when not given."""
    return -1 if v == NULL else (1 if <object>v is True else 0)


cdef inline bint _bool_or_absent(PyObject* v) noexcept:
    """A flag field is absent or a bool (anything else: the Python path decides)."""
    return v == NULL or type(<object>v) is bool


from sys import intern as _intern
cdef str _SELF_DRAW = "self_draw"


cdef class SituationReader:
    """situation_from_dict(variant, d) for plain dicts, in C; read() returns None where it must decide."""
    cdef int players, fixed_wild, wb_discard, wb_rob_kong, wb_rob_gold, wb_dealt
    cdef int sizes[2]
    cdef int copies[RD_KINDS]
    cdef int wild_of[RD_KINDS]
    cdef unsigned long long playable, scored
    cdef bint chi, kongs, has_wild, fixed, no_calls, indicator_stays, indicator_copy, rob_gold
    cdef dict slots, win_by, one_kind, template, memo
    cdef PyObject* key_at[SK_COUNT]   # the keys of slots in slot order (slots holds them): a dict's key that
                                      # is one of these very objects (an interned name) needs no look-up
    cdef int wb_default               # win_by's id of "self_draw" (a situation without win_by), -1: none
    cdef object cls, melds_of

    def __init__(self, variant, keys, win_by, one_tile, cls, defaults, melds_of):
        """keys: the known situation keys; win_by: the win_by names; one_tile: tile text -> Tile for every
        spelling of one tile; cls, defaults: a Situation is cls.__new__(cls) given as its instance dict a copy
        of defaults (every field, in order) with the read fields set; melds_of: one meld's text -> its melds
        (raising on bad text)."""
        cdef int k
        w, t = variant.wild, variant.tiles
        self.players = variant.players
        self.sizes[0], self.sizes[1] = variant.win_size, variant.win_size - 1
        self.playable = self.scored = 0
        for k in range(RD_KINDS):
            self.copies[k] = t.copies[k] if k < len(t.copies) else 0
            self.wild_of[k] = -1
        for k in t.playable:
            self.playable |= 1ULL << k
        for k in t.scored_flowers:
            self.scored |= 1ULL << k
        self.chi = variant.claims.chi_from != "none"
        self.kongs = bool(variant.claims.kongs)
        self.has_wild = w is not None
        self.fixed = w is not None and w.mode == "fixed"
        self.fixed_wild = w.fixed if self.fixed else -1
        self.no_calls = w is not None and bool(w.no_calls)
        self.indicator_stays = w is not None and bool(w.indicator_stays)
        self.indicator_copy = w is not None and w.mode == "indicator"
        self.rob_gold = w is not None and variant.rob_wild is not None
        if w is not None and not self.fixed:
            for k in range(RD_KINDS):
                try:
                    self.wild_of[k] = w.wild_kind(k)
                except ValueError:
                    pass
        if tuple(keys) != K_NAMES:
            raise ValueError("the situation keys changed: update _situation.pxi")
        self.slots = {_intern(str(key)): i for i, key in enumerate(keys)}
        for key, i in self.slots.items():
            self.key_at[i] = <PyObject*>key
        self.win_by = {w: i for i, w in enumerate(win_by)}
        self.wb_default = self.win_by.get("self_draw", -1)
        for w in ("discard", "rob_kong", "rob_gold", "dealt"):
            if w not in self.win_by:
                raise ValueError(f"win_by {w} unknown: update _situation.pxi")
        self.wb_discard, self.wb_rob_kong = self.win_by["discard"], self.win_by["rob_kong"]
        self.wb_rob_gold, self.wb_dealt = self.win_by["rob_gold"], self.win_by["dealt"]
        self.cls, self.template = cls, dict(defaults)
        self.one_kind = {text: t.kind for text, t in one_tile.items()}  # (_kind without an attribute lookup)
        self.melds_of, self.memo = melds_of, {}

    cdef object _melds(self, m):
        """The melds of a list of meld texts, each one meld; None when the Python path must decide."""
        if type(m) is not list:
            return None
        out = []
        for item in m:
            if type(item) is not str or len(<str>item) > 64:  # longer texts are not remembered: Python reads them
                return None
            p = PyDict_GetItem(self.memo, item)
            if p != NULL:
                got = <object>p
            else:
                if len(self.memo) >= 4096:
                    self.memo.clear()
                try:
                    got = tuple(self.melds_of(item))
                except Exception:  # noqa: any refusal is the Python path's to report
                    got = ()
                self.memo[item] = got
            if len(got) != 1:
                return None
            out.append(got[0])
        return tuple(out)

    cdef int _kind(self, v) except -2:
        """The kind of one tile's text, or -1. A suited tile or an honour in two ASCII characters ('7p', '3z') is
        read straight off its characters, as the one_tile table given to __init__ has it (tests/test_situation_reader.py::test_one_tile_kind);
        the other spellings ('9s*', '9*s', 'f1') from one_kind."""
        if type(v) is not str:
            return -1
        cdef const unsigned char* a
        cdef int d, c
        if PyUnicode_GET_LENGTH(v) == 2 and PyUnicode_KIND(v) == PyUnicode_1BYTE_KIND:
            a = <const unsigned char*>PyUnicode_DATA(v)
            d, c = <int>a[0] - 48, a[1]
            if 1 <= d <= 9:
                if c == 109:   # m
                    return d - 1
                if c == 112:   # p
                    return 8 + d
                if c == 115:   # s
                    return 17 + d
                if c == 122 and d <= 7:   # z
                    return 26 + d
        cdef PyObject* t = _get(self.one_kind, v)
        return -1 if t == NULL else <int><object>t

    def read(self, d, bint pre_draw=False):
        """The checked Situation of a plain situation dict, or None (then situation_from_dict decides)."""
        cdef Sit st
        melds = self._parse(d, pre_draw, &st)
        return None if melds is None else self._situation(&st, melds)

    cdef object _parse(self, d, bint pre_draw, Sit* st):
        """A plain situation dict's checked fields into st; returns its melds (a tuple), or None where
        situation_from_dict must decide. st.win_by is borrowed from d."""
        cdef int* kinds = st.kinds
        cdef bint marks[RD_MAX]
        cdef int* fk = st.fk
        cdef bint fw[RD_MAX]
        cdef int held[RD_KINDS]
        cdef PyObject* got[SK_COUNT]
        cdef PyObject* pk
        cdef PyObject* pv
        cdef Py_ssize_t pos = 0
        cdef int n, nf = 0, i, k, wild = -1, indicator = -1, win_tile = -1, extra, wb
        cdef PyObject* at
        cdef long seat = 0, dealer = 0, discarder = -1, wild_discards = 0, dealer_streak = 0, winners = 1
        cdef bint in_hand
        if type(d) is not dict or self.players < 2:
            return None
        memset(got, 0, sizeof(got))
        while PyDict_Next(d, &pos, &pk, &pv):  # borrowed references: d is not changed while they are used
            for i in range(SK_COUNT):   # the key itself first (a literal's name is the interned one)
                if self.key_at[i] == pk:
                    got[i] = pv
                    break
            else:
                at = _get(self.slots, <object>pk)
                if at == NULL:
                    return None
                got[<int><object>at] = pv
        if got[SK_SEAT] != NULL and not _exact_int(<object>got[SK_SEAT], 0, self.players - 1, &seat):
            return None
        if got[SK_DEALER] != NULL and not _exact_int(<object>got[SK_DEALER], 0, self.players - 1, &dealer):
            return None
        if got[SK_DISCARDER] != NULL and not _exact_int(<object>got[SK_DISCARDER], -1, self.players - 1, &discarder):
            return None
        if got[SK_WIN_BY] != NULL:
            win_by = <object>got[SK_WIN_BY]
            if type(win_by) is not str:
                return None
            at = _get(self.win_by, win_by)
            if at == NULL:
                return None
            wb = <int><object>at
        else:
            win_by = _SELF_DRAW
            if self.wb_default < 0:
                return None
            wb = self.wb_default
        text = <object>got[SK_CONCEALED] if got[SK_CONCEALED] != NULL else ""
        if type(text) is not str:
            return None
        n = _scan_ascii(text, kinds, marks)
        if n < 0:
            return None
        melds = self._melds(<object>got[SK_MELDS]) if got[SK_MELDS] != NULL else ()
        if melds is None:
            return None
        if got[SK_WILD] != NULL:
            if got[SK_INDICATOR] != NULL:
                return None
            wild = self._kind(<object>got[SK_WILD])
            if wild < 0:
                return None
        if got[SK_INDICATOR] != NULL:
            indicator = self._kind(<object>got[SK_INDICATOR])
            if indicator < 0:
                return None
        if got[SK_WIN_TILE] != NULL:
            win_tile = self._kind(<object>got[SK_WIN_TILE])
            if win_tile < 0:
                return None
        if got[SK_FLOWERS] != NULL:
            fl = <object>got[SK_FLOWERS]
            if type(fl) is str:
                nf = _scan_ascii(fl, fk, fw)
                if nf < 0:
                    return None
            elif type(fl) is list and len(fl) <= RD_MAX:
                for x in fl:
                    k = self._kind(x)
                    if k < 0:
                        return None
                    fk[nf] = k
                    nf += 1
            else:
                return None
        if got[SK_OPTIONS] != NULL and (type(<object>got[SK_OPTIONS]) is not dict or <object>got[SK_OPTIONS]):
            return None  # options: their types are the Python path's to check
        if self.has_wild and indicator >= 0:
            if self.fixed or self.wild_of[indicator] < 0:
                return None
            wild = self.wild_of[indicator]
        if self.has_wild and wild < 0 and self.fixed:
            wild = self.fixed_wild
        if got[SK_WILD_DISCARDS] != NULL and not _exact_int(<object>got[SK_WILD_DISCARDS], 0, 200, &wild_discards):
            return None
        if got[SK_DEALER_STREAK] != NULL and not _exact_int(<object>got[SK_DEALER_STREAK], 0, 10_000, &dealer_streak):
            return None
        if got[SK_WINNERS] != NULL and not _exact_int(<object>got[SK_WINNERS], 1, self.players - 1, &winners):
            return None
        if not (_bool_or_absent(got[SK_FIRST_TURN]) and _bool_or_absent(got[SK_FIRST_DISCARD])
                and _bool_or_absent(got[SK_DECLARED_READY]) and _bool_or_absent(got[SK_DEALER_WON])):
            return None
        first_discard = got[SK_FIRST_DISCARD] != NULL and <object>got[SK_FIRST_DISCARD] is True
        # ---- check_situation's tests (those of situation._plainly_legal) -----------------------------------
        if n + 3 * len(melds) != self.sizes[pre_draw]:
            return None
        # every count is checked against the kind's copies as it grows (a count only ever grows here)
        memset(held, 0, sizeof(held))
        for i in range(n):
            k = kinds[i]
            if (marks[i] and (not self.has_wild or k != wild)) or not (self.playable >> k) & 1:
                return None
            held[k] += 1
            if held[k] > self.copies[k]:
                return None
        for m in melds:
            mk = m.kind
            if (mk == "chi" and not self.chi) or (mk == "kong" and not self.kongs):
                return None
            for k in m.tiles:
                if not 0 <= k < RD_KINDS or not (self.playable >> k) & 1 or (wild == k and self.no_calls):
                    return None
                held[k] += 1
                if held[k] > self.copies[k]:
                    return None
        for i in range(nf):
            k = fk[i]
            if not (self.scored >> k) & 1:
                return None
            held[k] += 1
            if held[k] > self.copies[k]:
                return None
        if wb != self.wb_rob_gold:  # the face-up indicator counts as a copy
            extra = indicator if indicator >= 0 and self.indicator_stays else \
                wild if wild >= 0 and self.indicator_copy else -1
            if extra >= 0:
                if not (self.playable >> extra) & 1:
                    return None
                held[extra] += 1
                if held[extra] > self.copies[extra]:
                    return None
        if wild >= 0 and self.has_wild and not (self.playable >> wild) & 1:
            return None
        if win_tile >= 0 and not pre_draw:
            in_hand = False
            for i in range(n):
                if kinds[i] == win_tile:
                    in_hand = True
                    break
            if not in_hand:
                return None
        if wb == self.wb_discard or wb == self.wb_rob_kong:
            if discarder < 0 or discarder == seat:
                return None
        elif discarder >= 0:
            return None
        if first_discard and (wb != self.wb_discard or discarder != dealer):
            return None
        if (wb == self.wb_dealt and melds) or (wb == self.wb_rob_gold and not self.rob_gold):
            return None
        st.n, st.nf, st.win_tile, st.wild, st.indicator = n, nf, win_tile, wild, indicator
        st.by = BY_DISCARD if wb == self.wb_discard else BY_ROB_KONG if wb == self.wb_rob_kong else \
            BY_DEALT if wb == self.wb_dealt else BY_OTHER
        st.seat, st.dealer, st.discarder = seat, dealer, discarder
        st.wild_discards, st.dealer_streak, st.winners = wild_discards, dealer_streak, winners
        st.first_turn = _flag(got[SK_FIRST_TURN])
        st.first_discard = _flag(got[SK_FIRST_DISCARD])
        st.declared_ready = _flag(got[SK_DECLARED_READY])
        st.dealer_won = _flag(got[SK_DEALER_WON])
        st.win_by = <PyObject*>win_by
        return melds

    cdef object _situation(self, Sit* st, melds):
        """The Situation of what _parse read into st: the defaults' copy, with what was read."""
        f = PyDict_Copy(self.template)
        if st.seat:
            f["seat"] = <int>st.seat
        if st.dealer:
            f["dealer"] = <int>st.dealer
        f["concealed"] = _int_tuple(st.kinds, st.n)
        if melds:
            f["melds"] = melds
        if st.win_tile >= 0:
            f["win_tile"] = st.win_tile
        f["win_by"] = <object>st.win_by
        if st.discarder >= 0:
            f["discarder"] = <int>st.discarder
        if st.wild >= 0:
            f["wild"] = st.wild
        if st.indicator >= 0:
            f["indicator"] = st.indicator
        if st.nf:
            f["flowers"] = _int_tuple(st.fk, st.nf)
        if st.wild_discards:
            f["wild_discards"] = <int>st.wild_discards
        if st.dealer_streak:
            f["dealer_streak"] = <int>st.dealer_streak
        if st.first_turn >= 0:
            f["first_turn"] = st.first_turn == 1
        if st.first_discard >= 0:
            f["first_discard"] = st.first_discard == 1
        if st.declared_ready >= 0:
            f["declared_ready"] = st.declared_ready == 1
        f["options"] = {}
        if st.winners != 1:
            f["winners"] = <int>st.winners
        if st.dealer_won >= 0:
            f["dealer_won"] = st.dealer_won == 1
        sit = _object_new(self.cls)
        PyObject_GenericSetAttr(sit, "__dict__", f)
        return sit


def scan_ascii(str text):
    """[(kind, wild), ...] of text as SituationReader reads it, or None where it leaves text to the Python
    scanner (for tests: it must agree with mjrules.tiles.parse_tiles)."""
    cdef int kinds[RD_MAX]
    cdef bint wild[RD_MAX]
    cdef int n = _scan_ascii(text, kinds, wild)
    return None if n < 0 else [(kinds[i], bool(wild[i])) for i in range(n)]
