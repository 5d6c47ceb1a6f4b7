# cython: annotation_typing=False
"""Situations: a winning (or candidate) hand in context, read from a dict and checked against a variant.

The one situation reader. `situation_from_dict` and `check_situation` are this module's `Reader`, compiled by
setup.py in Cython's pure-Python mode (typed by situation.pxd; the same file runs as plain Python where it is
not compiled). The native back end's evaluate calls the compiled reader from C: `Reader.read` turns a dict into
`Fields`, the typed fields the kernel reads, and a `Situation` is made only where a slow path needs one.
"""
from __future__ import annotations

import dataclasses
import operator
import weakref
from dataclasses import dataclass, field
from typing import Any

import cython

from ..compiler.ir import MAX_WILD_KINDS, Variant
from .tiles import Meld, Tile, TileError, kinds_named, parse_melds, scan_buffer, scan_into, tile_kind, tile_name
from .wildmode import hand_wild

WIN_BY = ("self_draw", "discard", "rob_kong", "kong_replacement", "rob_gold", "dealt")
KEYS = ("seat", "dealer", "concealed", "melds", "win_tile", "win_by", "discarder", "wild", "indicator", "flowers",
        "wild_discards", "dealer_streak", "first_turn", "first_discard", "declared_ready", "options", "winners",
        "dealer_won", "last_tile", "after_kong", "first_draw", "prevalent_wind", "last_of_kind", "indicators",
        "hidden_indicators", "marked", "ready_first_turn", "ready_uninterrupted")
FIELDS = KEYS[:21] + ("wild2",) + KEYS[21:]   # Situation's fields: the dict's "wild" (one tile or a list) fills wild and wild2
if not cython.compiled:   # (compiled, they are the C constants situation.pxd declares)
    # Fields.by: how the hand was won, as far as the kernel's own tests and the checks ask
    BY_OTHER, BY_DISCARD, BY_ROB_KONG, BY_DEALT, BY_ROB_GOLD = range(5)
    NKINDS = 42  # every tile kind, flowers included (mjrules.model.tiles.N_KINDS)
    from .tiles import MELD_CHI, MELD_KONG, NO_KIND


class SituationError(ValueError):
    """An impossible or malformed situation. `key` names the offending field."""

    def __init__(self, message: str, key: str | None = None):
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class Situation:
    """A hand to judge. `concealed` includes the winning tile; kinds are ints (see mjrules.model.tiles)."""

    seat: int = 0
    dealer: int = 0
    concealed: tuple[int, ...] = ()
    melds: tuple[Meld, ...] = ()
    win_tile: int | None = None
    win_by: str = "self_draw"
    discarder: int = -1
    wild: int | None = None
    indicator: int | None = None
    flowers: tuple[int, ...] = ()
    wild_discards: int = 0
    dealer_streak: int = 0
    first_turn: bool = False
    first_discard: bool = False
    declared_ready: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    winners: int = 1  # in a game: how many players won the hand (一炮多響), for the win settlement
    dealer_won: bool | None = None  # in a game: the dealer is among the winners (None: the winner is the dealer)
    last_tile: bool = False   # won on the wall's last drawable tile, drawn or discarded (海底)
    after_kong: bool = False  # won on a discard its discarder made right after his own kong's replacement draw
    first_draw: bool = False  # won by self-draw on the player's first draw, no claim made in the hand before it
    wild2: int | None = None  # a second wild kind (a wild mode of two kinds), else None
    prevalent_wind: int = 0   # the round's wind: 0 East, 1 South, 2 West, 3 North
    last_of_kind: bool = False   # the winning tile is the last of its kind: its other copies are in sight (和绝张)
    indicators: tuple[int, ...] = ()          # face-up indicators (ドラ表示牌): `indicated` counts what they point at
    hidden_indicators: tuple[int, ...] = ()   # the indicators under them (裏ドラ), shown to a ready winner
    marked: tuple[int, ...] = ()              # the marked copies (赤) among the hand's tiles, by kind
    ready_first_turn: bool = False      # it declared ready on its first turn, no claim before (ダブル立直)
    ready_uninterrupted: bool = False   # within one go-around of its ready declaration, no claim since (一発)

    @property
    def wild_kinds(self) -> tuple[int, ...]:
        """The hand's wild kinds: none, one, or two."""
        return tuple(k for k in (self.wild, self.wild2) if k is not None)

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer

    @property
    def dealer_among_winners(self) -> bool:
        return self.is_dealer if self.dealer_won is None else self.dealer_won

    def replace(self, **kw: Any) -> Situation:
        """dataclasses.replace, without its per-field __init__ (the engines make one per kind tried): a copy
        of the fields with kw's (unknown names go to dataclasses.replace, which refuses them)."""
        if not _SITUATION_FIELDS.issuperset(kw):
            return dataclasses.replace(self, **kw)
        d = self.__dict__.copy()
        d.update(kw)
        out = object.__new__(type(self))
        object.__setattr__(out, "__dict__", d)
        return out

    def to_dict(self) -> dict[str, Any]:
        from .tiles import format_meld, format_tiles

        wild_kinds = set(self.wild_kinds)
        d: dict[str, Any] = {
            "seat": self.seat, "dealer": self.dealer,
            "concealed": format_tiles(Tile(k, k in wild_kinds) for k in self.concealed),
            "melds": [format_meld(m) for m in self.melds],
            "win_by": self.win_by,
        }
        if self.win_tile is not None:
            d["win_tile"] = tile_name(self.win_tile)
        if self.discarder >= 0:
            d["discarder"] = self.discarder
        if self.indicator is not None:
            d["indicator"] = tile_name(self.indicator)
        elif self.wild2 is not None:
            d["wild"] = [tile_name(k) for k in self.wild_kinds]
        elif self.wild is not None:
            d["wild"] = tile_name(self.wild)
        if self.flowers:
            d["flowers"] = [tile_name(k) for k in self.flowers]
        for k in ("wild_discards", "dealer_streak"):
            if getattr(self, k):
                d[k] = getattr(self, k)
        for k in ("first_turn", "first_discard", "declared_ready", "last_of_kind", "ready_first_turn",
                  "ready_uninterrupted"):
            if getattr(self, k):
                d[k] = True
        for k in ("indicators", "hidden_indicators", "marked"):
            if getattr(self, k):
                d[k] = "".join(tile_name(x) for x in getattr(self, k))
        if self.prevalent_wind:
            d["prevalent_wind"] = self.prevalent_wind
        if self.options:
            d["options"] = dict(self.options)
        if self.winners != 1:
            d["winners"] = self.winners
        if self.dealer_won is not None:
            d["dealer_won"] = self.dealer_won
        return d


_SITUATION_FIELDS = frozenset(f.name for f in dataclasses.fields(Situation))
if tuple(f.name for f in dataclasses.fields(Situation)) != FIELDS:  # pragma: no cover - a guard for editors
    raise ImportError("Situation's fields and situation.KEYS differ")


def new_situation(seat: int, dealer: int, concealed: tuple[int, ...], melds: tuple[Meld, ...],
                   win_tile: int | None, win_by: str, discarder: int, wild: int | None, indicator: int | None,
                   flowers: tuple[int, ...], wild_discards: int, dealer_streak: int, first_turn: bool,
                   first_discard: bool, declared_ready: bool, options: dict[str, Any], winners: int,
                   dealer_won: bool | None, wild2: int | None = None, last_tile: bool = False,
                   after_kong: bool = False, first_draw: bool = False, prevalent_wind: int = 0,
                   last_of_kind: bool = False, indicators: tuple[int, ...] = (), hidden_indicators: tuple[int, ...] = (),
                   marked: tuple[int, ...] = (), ready_first_turn: bool = False,
                   ready_uninterrupted: bool = False) -> Situation:
    """Situation(...) with every field given in order, filling the instance dict at once: the frozen
    dataclass's __init__ makes one object.__setattr__ call per field (Situation has no __post_init__)."""
    s = object.__new__(Situation)
    object.__setattr__(s, "__dict__", {
        "seat": seat, "dealer": dealer, "concealed": concealed, "melds": melds, "win_tile": win_tile,
        "win_by": win_by, "discarder": discarder, "wild": wild, "indicator": indicator, "flowers": flowers,
        "wild_discards": wild_discards, "dealer_streak": dealer_streak, "first_turn": first_turn,
        "first_discard": first_discard, "declared_ready": declared_ready, "options": options,
        "winners": winners, "dealer_won": dealer_won, "last_tile": last_tile, "after_kong": after_kong,
        "first_draw": first_draw, "wild2": wild2, "prevalent_wind": prevalent_wind, "last_of_kind": last_of_kind,
        "indicators": indicators, "hidden_indicators": hidden_indicators, "marked": marked,
        "ready_first_turn": ready_first_turn, "ready_uninterrupted": ready_uninterrupted})
    return s


_BY = {"discard": BY_DISCARD, "rob_kong": BY_ROB_KONG, "dealt": BY_DEALT, "rob_gold": BY_ROB_GOLD}
_SLOTS = {name: i for i, name in enumerate(KEYS)}
_KEY_NAMES = KEYS   # (typed in situation.pxd: read() matches a key by identity first)
_ABSENT = object()   # a key the dict does not have


class Fields:
    """A situation's fields as the kernel reads them: the concealed tiles' kinds as bytes (`kinds[:nkinds]`, as
    the tile scanner writes them; `concealed` is their tuple), numbers as C ints, -1 for a tile that is not
    there (no winning tile, no wild, no indicator) and for dealer_won None. Made by Reader.read from a dict
    (checked) and by fields() from a Situation (as it is)."""

    def __init__(self) -> None:
        _defaults(self)

    @property
    def concealed(self) -> tuple[int, ...]:
        """The concealed tiles' kinds, as Situation.concealed holds them."""
        return tuple(self.kinds[:self.nkinds])

    @concealed.setter
    def concealed(self, kinds: Any) -> None:
        self.kinds = bytearray(_kinds_of(kinds, "concealed"))
        self.nkinds = len(self.kinds)

    def situation(self) -> Situation:
        """The Situation of these fields."""
        return new_situation(
            self.seat, self.dealer, self.concealed, self.melds, None if self.win_tile < 0 else self.win_tile,
            self.win_by, self.discarder, None if self.wild < 0 else self.wild,
            None if self.indicator < 0 else self.indicator, self.flowers, self.wild_discards, self.dealer_streak,
            self.first_turn, self.first_discard, self.declared_ready, dict(self.options), self.winners,
            None if self.dealer_won < 0 else self.dealer_won == 1, None if self.wild2 < 0 else self.wild2,
            self.last_tile, self.after_kong, self.first_draw, self.prevalent_wind, self.last_of_kind, self.indicators,
            self.hidden_indicators, self.marked, self.ready_first_turn, self.ready_uninterrupted)


_NO_OPTIONS: dict[str, Any] = {}   # Fields' options when none are given (never changed)
_NO_KINDS = bytearray()             # Fields' kinds when none are given (never changed)


def _new_fields() -> Fields:
    """Fields() with every field at its default (without the type call's argument handling where compiled)."""
    f = Fields.__new__(Fields)
    _defaults(f)
    return f


def _defaults(f: Fields) -> None:
    f.seat = f.dealer = f.wild_discards = f.dealer_streak = 0
    f.discarder = f.win_tile = f.wild = f.wild2 = f.indicator = f.dealer_won = -1
    f.winners = 1
    f.by = BY_OTHER
    f.first_turn = f.first_discard = f.declared_ready = False
    f.last_tile = f.after_kong = f.first_draw = f.last_of_kind = False
    f.ready_first_turn = f.ready_uninterrupted = False
    f.prevalent_wind = 0
    f.indicators = f.hidden_indicators = f.marked = ()
    f.kinds, f.nkinds = _NO_KINDS, 0
    f.flowers = f.melds = ()
    f.win_by = "self_draw"
    f.options = _NO_OPTIONS


def fields(s: Any) -> Fields:
    """The Fields of a Situation (or of anything with its attributes), unchecked: what check_situation checks
    and the kernel reads. A value the kernel cannot hold (a kind that is no tile, a seat that is no whole
    number) raises SituationError."""
    f = _new_fields()
    d = getattr(s, "__dict__", None)
    get = d.get if type(d) is dict and "seat" in d else None
    f.seat = _whole(get("seat") if get else s.seat, "seat")
    f.dealer = _whole(get("dealer") if get else s.dealer, "dealer")
    f.concealed = get("concealed") if get else s.concealed
    f.melds = tuple(get("melds") if get else s.melds)
    f.win_tile = _kind_or_none(get("win_tile") if get else s.win_tile, "win_tile")
    wb = get("win_by") if get else s.win_by
    f.win_by = wb
    f.by = _BY.get(wb, BY_OTHER) if type(wb) is str else BY_OTHER
    f.discarder = _whole(get("discarder") if get else s.discarder, "discarder")
    f.wild = _kind_or_none(get("wild") if get else s.wild, "wild")
    f.wild2 = _kind_or_none(get("wild2", None) if get else getattr(s, "wild2", None), "wild")
    f.indicator = _kind_or_none(get("indicator") if get else s.indicator, "indicator")
    f.flowers = _kinds_of(get("flowers") if get else s.flowers, "flowers")
    f.wild_discards = _whole(get("wild_discards") if get else s.wild_discards, "wild_discards")
    f.dealer_streak = _whole(get("dealer_streak") if get else s.dealer_streak, "dealer_streak")
    f.first_turn = bool(get("first_turn") if get else s.first_turn)
    f.first_discard = bool(get("first_discard") if get else s.first_discard)
    f.declared_ready = bool(get("declared_ready") if get else s.declared_ready)
    f.last_tile = bool(get("last_tile", False) if get else getattr(s, "last_tile", False))
    f.after_kong = bool(get("after_kong", False) if get else getattr(s, "after_kong", False))
    f.first_draw = bool(get("first_draw", False) if get else getattr(s, "first_draw", False))
    f.prevalent_wind = _whole(get("prevalent_wind", 0) if get else getattr(s, "prevalent_wind", 0), "prevalent_wind")
    f.last_of_kind = bool(get("last_of_kind", False) if get else getattr(s, "last_of_kind", False))
    f.indicators = _kinds_of(get("indicators", ()) if get else getattr(s, "indicators", ()), "indicators")
    f.hidden_indicators = _kinds_of(get("hidden_indicators", ()) if get else getattr(s, "hidden_indicators", ()),
                                    "hidden_indicators")
    f.marked = _kinds_of(get("marked", ()) if get else getattr(s, "marked", ()), "marked")
    f.ready_first_turn = bool(get("ready_first_turn", False) if get else getattr(s, "ready_first_turn", False))
    f.ready_uninterrupted = bool(get("ready_uninterrupted", False) if get else getattr(s, "ready_uninterrupted", False))
    opts = get("options") if get else s.options
    f.options = opts if type(opts) is dict else dict(opts)
    f.winners = _whole(get("winners") if get else s.winners, "winners")
    if get is not None and "dealer_won" in d:
        won = d["dealer_won"]   # (Situation.dealer_among_winners without the property's call)
        f.dealer_won = -1 if won is None else 1 if won else 0
    else:
        f.dealer_won = 1 if s.dealer_among_winners else 0
    return f


def _whole(v: Any, key: str) -> cython.long:
    """An int (not a bool; a NumPy integer too) as a C long, else SituationError."""
    if type(v) is int:
        try:
            return v
        except OverflowError:
            raise SituationError(f"'{key}' is {shown_value(v)}, out of range", key) from None
    return _whole(_index(v, key), key)


def _index(v: Any, key: str) -> int:
    """v as an int where it is a whole number (an int or a NumPy integer, not a bool), else SituationError."""
    if not isinstance(v, bool):
        try:
            return operator.index(v)
        except TypeError:
            pass
    raise SituationError(f"'{key}' must be a whole number, not {shown_value(v)}", key)


def _kind_or_none(v: Any, key: str) -> cython.int:
    if v is None:
        return -1
    k: cython.long = _whole(v, key)
    if not 0 <= k < NKINDS:
        raise SituationError(f"'{key}' is {k}, not a tile kind (0..{NKINDS - 1})", key)
    return k


@cython.locals(k=cython.long)
def _kinds_of(v: Any, key: str) -> tuple:
    """A sequence of tile kinds as a tuple of ints, each 0..41, else SituationError."""
    t = v if type(v) is tuple else tuple(v)
    for x in t:
        k = _whole(x, key)
        if not 0 <= k < NKINDS:
            raise SituationError(f"'{key}' holds {k}, not a tile kind (0..{NKINDS - 1})", key)
    return t if all(type(x) is int for x in t) else tuple([operator.index(x) for x in t])


class Reader:
    """situation_from_dict and check_situation for one variant (see the module docstring); made once per
    variant (reader()), holding what the checks ask of it."""

    def __init__(self, variant: Variant) -> None:
        w, t = variant.wild, variant.tiles
        self.variant = variant
        self.players = variant.players
        self.size = variant.win_size
        self.copies = [t.copies[k] if k < len(t.copies) else 0 for k in range(NKINDS)]
        self.wild_of = [-1 for _ in range(NKINDS)]
        self.playable = self.scored = 0
        for k in t.playable:
            if 0 <= k < NKINDS:
                self.playable |= 1 << k
        for k in t.scored_flowers:
            if 0 <= k < NKINDS:
                self.scored |= 1 << k
        self.chi = variant.claims.chi_from != "none"
        self.kongs = bool(variant.claims.kongs)
        self.has_wild = w is not None
        self.fixed = w is not None and w.mode == "fixed"
        self.fixed_wild = w.fixed if self.fixed else -1
        self.no_calls = w is not None and bool(w.no_calls)
        self.indicator_stays = w is not None and bool(w.indicator_stays)
        self.indicator_copy = w is not None and w.mode == "indicator"
        self.rob_gold = w is not None and variant.rob_wild is not None
        self.cased = w is not None and bool(w.cases)   # options choose the hand's wild mode
        self.hand0 = w.hand(bool) if w is not None and not w.cases else None
        self.kinds0 = 1 if self.hand0 is None else self.hand0.kinds
        self.wild_opts = tuple(sorted({n for c in w.cases for n in c.cond.names("opt")})) if self.cased else ()
        self.hand_memo = {}
        if w is not None and not self.fixed:
            for k in range(NKINDS):
                try:
                    self.wild_of[k] = w.wild_kind(k)
                except ValueError:
                    pass
        self.option_types = {o.name: o.type for o in variant.options}
        self.has_indicators = bool(variant.indicator_cycles)
        self.marked = 0
        for k in t.marked:
            if 0 <= k < NKINDS:
                self.marked |= 1 << k
        self.marked_kinds = tuple(k for k in range(NKINDS) if (self.marked >> k) & 1)
        self.opt_in, self.opt_out = {}, {}

    # ---- reading a dict --------------------------------------------------------------------------------
    @cython.wraparound(False)
    @cython.boundscheck(False)
    @cython.locals(n=cython.long, i=cython.Py_ssize_t, nk=cython.Py_ssize_t, b=cython.int, slot=cython.int,
                   wild=cython.int, indicator=cython.int, marks=cython.bint, check_all=cython.bint)
    def read(self, d: Any, pre_draw: cython.bint = False) -> Fields:
        """The checked Fields of a situation dict (see the README); raises SituationError. With pre_draw, the
        hand is one tile short of complete (for waits) and has no winning tile yet."""
        if not isinstance(d, dict):
            raise SituationError("a situation is a JSON object")
        items: dict = d
        seat = dealer = concealed = melds = win_tile = win_by = discarder = wild_v = indicator_v = flowers = \
            wild_discards = dealer_streak = first_turn = first_discard = declared_ready = options = winners = \
            dealer_won = last_tile = after_kong = first_draw = prevalent_wind = last_of_kind = indicators = \
            hidden_indicators = marked = ready_first_turn = ready_uninterrupted = _ABSENT
        odd = _ABSENT     # the first key that is not a string
        unknown = None    # the keys that are none of KEYS
        for key, value in items.items():
            if type(key) is not str:   # (before any lookup: a key object's own == or hash may raise)
                if odd is _ABSENT:
                    odd = key
                continue
            slot = -1
            for i in range(28):   # a literal's key is the interned name itself: no look-up
                if key is _KEY_NAMES[i]:
                    slot = i
                    break
            if slot < 0:
                at = _SLOTS.get(key)
                if at is None:
                    if unknown is None:
                        unknown = []
                    unknown.append(key)
                    continue
                slot = at
            if slot == 0:
                seat = value
            elif slot == 1:
                dealer = value
            elif slot == 2:
                concealed = value
            elif slot == 3:
                melds = value
            elif slot == 4:
                win_tile = value
            elif slot == 5:
                win_by = value
            elif slot == 6:
                discarder = value
            elif slot == 7:
                wild_v = value
            elif slot == 8:
                indicator_v = value
            elif slot == 9:
                flowers = value
            elif slot == 10:
                wild_discards = value
            elif slot == 11:
                dealer_streak = value
            elif slot == 12:
                first_turn = value
            elif slot == 13:
                first_discard = value
            elif slot == 14:
                declared_ready = value
            elif slot == 15:
                options = value
            elif slot == 16:
                winners = value
            elif slot == 17:
                dealer_won = value
            elif slot == 18:
                last_tile = value
            elif slot == 19:
                after_kong = value
            elif slot == 20:
                first_draw = value
            elif slot == 21:
                prevalent_wind = value
            elif slot == 22:
                last_of_kind = value
            elif slot == 23:
                indicators = value
            elif slot == 24:
                hidden_indicators = value
            elif slot == 25:
                marked = value
            elif slot == 26:
                ready_first_turn = value
            else:
                ready_uninterrupted = value
        if odd is not _ABSENT:
            raise SituationError(f"a situation's keys are strings, not {type(odd).__name__} (known: {', '.join(KEYS)})")
        if unknown is not None:
            unknown.sort()
            raise SituationError(f"unknown key(s): {', '.join(unknown)}; known: {', '.join(KEYS)}", unknown[0])
        f = _new_fields()
        n = self.players
        check_all = n < 2  # from two players on, each default below is in its range: an absent key needs no check
        if check_all or seat is not _ABSENT:
            f.seat = _in_range(seat, "seat", 0, 0, n - 1)
        if check_all or dealer is not _ABSENT:
            f.dealer = _in_range(dealer, "dealer", 0, 0, n - 1)
        if win_by is _ABSENT:
            win_by = "self_draw"
        elif win_by not in WIN_BY:
            raise SituationError(f"'win_by' is {shown_value(win_by)}; one of: {', '.join(WIN_BY)}", "win_by")
        f.win_by = win_by
        f.by = _BY.get(win_by, BY_OTHER)
        if check_all or discarder is not _ABSENT:
            f.discarder = _in_range(discarder, "discarder", -1, -1, n - 1)
        text = _text(concealed, "concealed") if concealed is not _ABSENT else ""
        buf = scan_buffer(len(text))
        nk = _scan(text, "concealed", buf)
        marks = False
        for i in range(nk):
            marks |= (buf[i] & 0x80) != 0
        f.kinds, f.nkinds = buf, nk   # (the marks are cleared below, once checked)
        if melds is not _ABSENT:
            m = melds
            if not isinstance(m, (list, str)):
                raise SituationError("'melds' must be a list of melds such as [\"[555p]\", \"{1111m}\"]", "melds")
            try:
                f.melds = _melds_of(m)
            except TileError as e:
                raise SituationError(f"'melds': {e}", "melds") from None
            except TypeError:
                raise SituationError("'melds' must be a list of melds such as [\"[555p]\", \"{1111m}\"]",
                                     "melds") from None
        wild = wild2 = indicator = -1
        if wild_v is None:
            wild_v = _ABSENT
        if wild_v is not _ABSENT and indicator_v is not _ABSENT:
            raise SituationError("give 'wild' or 'indicator', not both", "indicator")
        if wild_v is not _ABSENT:
            if isinstance(wild_v, (list, tuple)):
                if not 1 <= len(wild_v) <= MAX_WILD_KINDS:
                    raise SituationError(f"'wild' is one tile or a list of 1 to {MAX_WILD_KINDS} tiles", "wild")
                wild = _one_tile(wild_v[0], "wild")
                if len(wild_v) > 1:
                    wild2 = _one_tile(wild_v[1], "wild")
                    if wild2 == wild:
                        raise SituationError(f"'wild' names {tile_name(wild)} twice", "wild")
            else:
                wild = _one_tile(wild_v, "wild")
        if indicator_v is not _ABSENT:
            indicator = _one_tile(indicator_v, "indicator")
        if win_tile is not _ABSENT:
            f.win_tile = _one_tile(win_tile, "win_tile")
        if flowers is not _ABSENT and (got := kinds_named(flowers)) is not None:   # (a list of tile names)
            f.flowers = got
        elif flowers is not _ABSENT:
            text = _text(flowers, "flowers")
            fb = scan_buffer(len(text))
            f.flowers = tuple([fb[i] & 0x7F for i in range(_scan(text, "flowers", fb))])
        opts = options if options is not _ABSENT else _NO_OPTIONS
        if not isinstance(opts, dict):
            raise SituationError("'options' must be an object of option names to values", "options")
        inforce, fixed, fixed_wild, nkinds = self.has_wild, self.fixed, self.fixed_wild, self.kinds0
        if self.cased:   # the hand's options choose its wild mode (remembered per the values its cases read)
            hw = self._hand_wild(opts)
            inforce, fixed, nkinds = hw.mode != "none", hw.mode == "fixed", hw.kinds
            fixed_wild = hw.fixed if fixed else -1
        if self.has_wild and not inforce and (wild >= 0 or indicator >= 0):
            raise SituationError("no wild is in force in this hand: its options choose none",
                                 "wild" if wild >= 0 else "indicator")
        if inforce and indicator >= 0:
            if fixed:
                raise SituationError("this variant's wild is fixed; it has no indicator", "indicator")
            if self.wild_of[indicator] < 0:
                raise SituationError(f"{tile_name(indicator)} cannot be an indicator in this variant", "indicator")
            wild = self.wild_of[indicator]
            if nkinds > 1:
                wild2 = self.variant.wild.wild_kinds(indicator, nkinds)[1]
        if inforce and fixed and wild >= 0 and wild != fixed_wild:
            raise SituationError(f"this variant's wild is fixed: {tile_name(fixed_wild)}, not {tile_name(wild)}",
                                 "wild")
        if inforce and wild < 0:
            if fixed:
                wild = fixed_wild
            elif marks:
                raise SituationError("wild tiles are marked, but neither 'wild' nor 'indicator' says which kind is "
                                     "wild", "wild")
        elif inforce and not fixed and (wild2 >= 0) != (nkinds > 1):
            raise SituationError(f"this hand has {nkinds} wild kind(s), but 'wild' names {1 + (wild2 >= 0)}", "wild")
        if marks:
            for i in range(nk):
                b = buf[i]
                if b & 0x80:
                    if not inforce:
                        raise SituationError(f"{tile_name(b & 0x7F)}* is marked wild, but " + (
                            "this variant has no wilds" if not self.has_wild else
                            "no wild is in force in this hand: its options choose none"), "concealed")
                    if b & 0x7F != wild and b & 0x7F != wild2:
                        raise SituationError(f"{tile_name(b & 0x7F)}* is marked wild, but the wild kind is "
                                             f"{_kinds_name(wild, wild2)}", "concealed")
                    buf[i] = b & 0x7F
        f.wild, f.wild2, f.indicator = wild, wild2, indicator
        if check_all or wild_discards is not _ABSENT:
            f.wild_discards = _in_range(wild_discards, "wild_discards", 0, 0, 200)
        if check_all or dealer_streak is not _ABSENT:
            f.dealer_streak = _in_range(dealer_streak, "dealer_streak", 0, 0, 10_000)
        if first_turn is not _ABSENT:
            f.first_turn = _flag(first_turn, "first_turn")
        if first_discard is not _ABSENT:
            f.first_discard = _flag(first_discard, "first_discard")
        if declared_ready is not _ABSENT:
            f.declared_ready = _flag(declared_ready, "declared_ready")
        if opts:
            f.options = self.opt_out if self._same_options(opts) else \
                {k: (operator.index(x) if _numpy_int(x) else x) for k, x in opts.items()}
        if check_all or winners is not _ABSENT:
            f.winners = _in_range(winners, "winners", 1, 1, n - 1)
        if dealer_won is not _ABSENT:
            f.dealer_won = 1 if _flag(dealer_won, "dealer_won") else 0
        if last_tile is not _ABSENT:
            f.last_tile = _flag(last_tile, "last_tile")
        if after_kong is not _ABSENT:
            f.after_kong = _flag(after_kong, "after_kong")
        if first_draw is not _ABSENT:
            f.first_draw = _flag(first_draw, "first_draw")
        if prevalent_wind is not _ABSENT:
            f.prevalent_wind = _in_range(prevalent_wind, "prevalent_wind", 0, 0, 3)
        if last_of_kind is not _ABSENT:
            f.last_of_kind = _flag(last_of_kind, "last_of_kind")
        if indicators is not _ABSENT:
            f.indicators = _tiles_of(indicators, "indicators")
        if hidden_indicators is not _ABSENT:
            f.hidden_indicators = _tiles_of(hidden_indicators, "hidden_indicators")
        if marked is not _ABSENT:
            f.marked = _tiles_of(marked, "marked")
        if ready_first_turn is not _ABSENT:
            f.ready_first_turn = _flag(ready_first_turn, "ready_first_turn")
        if ready_uninterrupted is not _ABSENT:
            f.ready_uninterrupted = _flag(ready_uninterrupted, "ready_uninterrupted")
        self.check(f, pre_draw)
        if opts and f.options is not self.opt_out:   # (checked: the next read of the same options reuses them)
            self.opt_in, self.opt_out = dict(opts), f.options
        return f

    @cython.locals(n=cython.Py_ssize_t)
    def _same_options(self, opts: dict) -> cython.bint:
        """opts holds what the last options read held, value for value and type for type (True == 1, but an
        option that takes a bool does not take 1)."""
        last = self.opt_in
        n = len(opts)
        if n != len(last):
            return False
        for k, v in opts.items():
            if type(k) is not str:
                return False
            w = last.get(k, _ABSENT)
            if type(w) is not type(v) or not (w == v):
                return False
        return True

    # ---- checking --------------------------------------------------------------------------------------
    @cython.wraparound(False)
    @cython.boundscheck(False)
    @cython.locals(size=cython.Py_ssize_t, held=cython.Py_ssize_t, k=cython.int, i=cython.Py_ssize_t,
                   extra=cython.int, wild=cython.int, found=cython.bint, over=cython.bint, kinds=bytearray,
                   code=bytes, nt=cython.Py_ssize_t, j=cython.Py_ssize_t, w=cython.int)
    def check(self, f: Fields, pre_draw: cython.bint = False) -> None:
        """Refuse impossible situations with a message naming what is wrong (SituationError)."""
        count = cython.declare(cython.int[42])
        for i in range(NKINDS):
            count[i] = 0
        over = False
        size = self.size - (1 if pre_draw else 0)
        held = f.nkinds + 3 * len(f.melds)
        if held != size:
            what = "a pre-draw hand" if pre_draw else "a complete hand"
            raise SituationError(f"{f.nkinds} concealed tiles and {len(f.melds)} melds make {held} tiles; "
                                 f"{what} in this variant has {size} (kongs count as 3)", "concealed")
        kinds = f.kinds
        for i in range(f.nkinds):
            k = kinds[i]
            if not (self.playable >> k) & 1:
                why = "a scored flower: it never stays in a hand" if (self.scored >> k) & 1 else \
                    "not in this variant's tile set"
                raise SituationError(f"{tile_name(k)} is {why}", "concealed")
            count[k] += 1
            over |= count[k] > self.copies[k]
        wild = f.wild
        for m in f.melds:   # (read as Meld.code: its kind, then its tiles' kinds)
            got = getattr(m, "code", None)
            if type(got) is not bytes or len(got) < 2:
                raise SituationError(f"'melds' holds a {type(m).__name__}, not a Meld", "melds")
            code = got
            nt = len(code)
            for j in range(2, nt):
                k = code[j]
                if k == NO_KIND or not (self.playable >> k) & 1:
                    raise SituationError(f"meld {_shown_meld(m)} uses {_name(_unplayable(m, self.playable))}, "
                                         "which is not playable in this variant", "melds")
                count[k] += 1
                over |= count[k] > self.copies[k]
            if code[0] == MELD_CHI and not self.chi:
                raise SituationError(f"meld {m} is a chi, but this variant has no chi", "melds")
            if code[0] == MELD_KONG and not self.kongs:
                raise SituationError(f"meld {m} is a kong, but this variant has no kongs", "melds")
            if wild >= 0 and self.no_calls:
                w = -1
                for j in range(2, nt):
                    if code[j] == wild:
                        w = wild
                    elif code[j] == f.wild2 and w < 0:
                        w = f.wild2
                if w >= 0:
                    raise SituationError(f"meld {m} uses the wild kind {tile_name(w)}; wilds are never used in "
                                         "calls", "melds")
        for x in f.flowers:
            k = x
            if not (self.scored >> k) & 1:
                raise SituationError(f"{tile_name(k)} is not a scored flower in this variant", "flowers")
            count[k] += 1
            over |= count[k] > self.copies[k]
        if f.by != BY_ROB_GOLD and self.has_wild:   # the face-up indicator counts as a copy
            extra = f.indicator if f.indicator >= 0 and self.indicator_stays else \
                wild if wild >= 0 and self.indicator_copy else -1
            if extra >= 0:
                count[extra] += 1
                over |= count[extra] > self.copies[extra]
        for k in range(NKINDS if over else 0):   # (the first kind over its copies)
            if count[k] > self.copies[k]:
                where = " (the indicator is one of them)" if self.has_wild and (k == f.indicator or k == wild) \
                    else ""
                raise SituationError(f"{count[k]} copies of {tile_name(k)}{where}, but the variant has "
                                     f"{self.copies[k]}", "concealed")
        if wild >= 0 and self.has_wild and not (self.playable >> wild) & 1:
            raise SituationError(f"{tile_name(wild)} cannot be the wild kind here", "wild")
        if f.wild2 >= 0 and self.has_wild and not (self.playable >> f.wild2) & 1:
            raise SituationError(f"{tile_name(f.wild2)} cannot be the wild kind here", "wild")
        if f.win_tile >= 0 and not pre_draw:
            found = False
            for i in range(f.nkinds):
                if kinds[i] == f.win_tile:
                    found = True
                    break
            if not found:
                raise SituationError(f"the winning tile {tile_name(f.win_tile)} is not among the concealed tiles",
                                     "win_tile")
        if f.by == BY_DISCARD or f.by == BY_ROB_KONG:
            if f.discarder < 0:
                raise SituationError(f"win_by {f.win_by} needs 'discarder'", "discarder")
            if f.discarder == f.seat:
                raise SituationError("a player cannot win on his own discard", "discarder")
        elif f.discarder >= 0:
            raise SituationError(f"'discarder' is only for discard and rob_kong wins, not {f.win_by}", "discarder")
        if f.first_discard and (f.by != BY_DISCARD or f.discarder != f.dealer):
            raise SituationError("'first_discard' means a win on the hand's first discard, which is the dealer's",
                                 "first_discard")
        if f.by == BY_DEALT and f.melds:
            raise SituationError("a dealt hand has no melds", "melds")
        if f.last_of_kind and f.win_tile >= 0 and f.kinds[:f.nkinds].count(f.win_tile) > 1:
            raise SituationError("'last_of_kind' means the winning tile is the last of its kind, but the hand holds "
                                 f"another {tile_name(f.win_tile)}", "last_of_kind")
        if f.after_kong and f.by != BY_DISCARD:
            raise SituationError("'after_kong' means a win on the discard its discarder made right after his own "
                                 f"kong's replacement draw: win_by discard, not {f.win_by}", "after_kong")
        if f.first_draw and (f.win_by != "self_draw" or f.melds):
            raise SituationError("'first_draw' means a self-drawn win on the player's first draw, with no meld yet",
                                 "first_draw")
        if f.indicators or f.hidden_indicators or f.marked:
            self._check_marks(f)
        if self.marked:
            self._held_marks(f)
        if (f.ready_first_turn or f.ready_uninterrupted) and not f.declared_ready:
            key = "ready_first_turn" if f.ready_first_turn else "ready_uninterrupted"
            raise SituationError(f"'{key}' is a fact of a ready declaration: the situation needs 'declared_ready'",
                                 key)
        if f.by == BY_ROB_GOLD and not self.rob_gold:
            raise SituationError("win_by rob_gold needs a variant whose wild indicator can be robbed", "win_by")
        if f.options and f.options is not self.opt_out:   # (opt_out: options read and checked before)
            self._check_options(f.options)

    @cython.locals(k=cython.int, i=cython.Py_ssize_t, n=cython.int, seen=cython.ulonglong, y=cython.int)
    def _check_marks(self, f: Fields) -> None:
        """Indicators are tiles of the set, and the spec says what they point at; the marked copies are of kinds the
        spec marks (one copy each), among the hand's tiles."""
        for key, got in (("indicators", f.indicators), ("hidden_indicators", f.hidden_indicators)):
            if got and not self.has_indicators:
                raise SituationError(f"'{key}': this variant has no indicators", key)
            for x in got:
                k = x
                if not (self.playable >> k) & 1:
                    raise SituationError(f"'{key}': {tile_name(k)} is not in this variant's tile set", key)
        if not f.marked:
            return
        seen = 0
        for x in f.marked:
            k = x
            if not (self.marked >> k) & 1:
                marked = self.variant.tiles.marked
                raise SituationError(f"'marked': {tile_name(k)} has no marked copy in this variant" + (
                    f" (marked: {''.join(tile_name(y) for y in marked)})" if marked else ""), "marked")
            if (seen >> k) & 1:
                raise SituationError(f"'marked': {tile_name(k)} has one marked copy, not "
                                     f"{f.marked.count(k)}", "marked")
            seen |= cython.cast(cython.ulonglong, 1) << k
            n = 0
            for i in range(f.nkinds):
                n += f.kinds[i] == k
            for m in f.melds:
                for y in m.tiles:
                    n += y == k
            if n < 1:
                raise SituationError(f"'marked': the hand holds no {tile_name(k)}", "marked")

    @cython.locals(k=cython.int, i=cython.Py_ssize_t, n=cython.int, y=cython.int, melded=cython.bint)
    def _held_marks(self, f: Fields) -> None:
        """A hand holding every copy of a kind the spec marks holds its marked copy (a red five among four fives):
        it counts as marked whether or not 'marked' names it. (The melds' tiles are counted once, when a marked
        kind's concealed copies are not all of them.)"""
        mc = cython.declare(cython.int[42])
        melded = False
        for k in self.marked_kinds:
            if k in f.marked:
                continue
            n = 0
            for i in range(f.nkinds):
                n += f.kinds[i] == k
            if n < self.copies[k] and f.melds:
                if not melded:
                    for i in range(NKINDS):
                        mc[i] = 0
                    for m in f.melds:
                        for y in m.tiles:
                            if 0 <= y < NKINDS:
                                mc[y] += 1
                    melded = True
                n += mc[k]
            if n >= self.copies[k] > 0:
                f.marked = (*f.marked, k)

    def _hand_wild(self, opts: dict) -> Any:
        """wildmode.hand_wild for these options, remembered by the values of the options the wild's cases read."""
        try:
            key = tuple([opts.get(n, _ABSENT) for n in self.wild_opts]) if opts else ()
            hw = self.hand_memo.get(key)
        except TypeError:   # an unhashable value (refused by the option checks after)
            return hand_wild(self.variant, opts)
        if hw is None:
            hw = hand_wild(self.variant, opts)
            if len(self.hand_memo) < 1024:
                self.hand_memo[key] = hw
        return hw

    def _check_options(self, options: dict) -> None:
        types = self.option_types
        for k, v in options.items():
            t = types.get(k)
            if t is None:
                from difflib import get_close_matches

                close = get_close_matches(k, list(types), 1) if type(k) is str else []
                raise SituationError(f"unknown option '{k}'" + (f"; did you mean '{close[0]}'?" if close else ""),
                                     "options")
            if t == "bool":
                ok = isinstance(v, bool)
            elif t == "num":
                ok = (isinstance(v, (int, float)) or _numpy_int(v)) and not isinstance(v, bool)
            else:
                ok = isinstance(v, str)
            if not ok:
                raise SituationError(f"option '{k}' takes a {t}, not {shown_value(v)}", "options")


_MELD_MEMO: dict = {}   # one meld's text -> its Meld (melds are immutable; a table sees few distinct ones)


def _melds_of(m: Any) -> tuple:
    """The melds of a situation's 'melds' (a list of meld texts, or one text): each text of a list remembered once
    parsed; anything else parsed whole, so an error reads as it always did."""
    if type(m) is list:
        out = []
        for x in m:
            got = _MELD_MEMO.get(x) if type(x) is str else None
            if got is None:
                break
            out.append(got)
        else:
            return tuple(out)
        melds = tuple(parse_melds(" ".join(m)))
        if len(melds) == len(m) and len(_MELD_MEMO) < 4096:
            for x, meld in zip(m, melds):
                _MELD_MEMO[x] = meld
        return melds
    return tuple(parse_melds(m))


def _tiles_of(value: Any, key: str) -> tuple:
    """Tiles given as text ("3m7z") or a list of tile names, as a tuple of kinds (no wild marks)."""
    text = _text(value, key)
    buf = scan_buffer(len(text))
    n = _scan(text, key, buf)
    for i in range(n):
        if buf[i] & 0x80:
            raise SituationError(f"'{key}' holds {tile_name(buf[i] & 0x7F)}*: these tiles are never wild", key)
    return tuple([buf[i] for i in range(n)])


def _kinds_name(wild: cython.int, wild2: cython.int) -> str:
    """The wild kinds' names: '5m', or '5m or 6m'."""
    return tile_name(wild) if wild2 < 0 else f"{tile_name(wild)} or {tile_name(wild2)}"


def _shown_meld(m: Any) -> str:
    """A meld in notation, or as Python shows it where it holds what the notation cannot write."""
    try:
        return str(m)
    except (TileError, TypeError, ValueError):
        return repr(m)


def _unplayable(m: Any, playable: cython.ulonglong) -> Any:
    """The first of a meld's tiles that is no kind, or of a kind that is not playable."""
    for x in m.tiles:
        k = _kind_in(x)
        if k < 0 or not (playable >> k) & 1:
            return x
    return None


def _kind_in(x: Any) -> cython.int:
    """A meld's tile kind as an int 0..41, or -1 where it is none."""
    if type(x) is int and 0 <= x < NKINDS:
        return x
    return -1


def _name(k: Any) -> str:
    """tile_name(k), or k itself where it is no tile kind."""
    try:
        return tile_name(k)
    except (TileError, TypeError):
        return repr(k)


def _numpy_int(v: Any) -> bool:
    """v is an integer of another type than int and bool (a NumPy integer): it is read as the int it is."""
    if type(v) is int or isinstance(v, (bool, float, str)):
        return False
    try:
        operator.index(v)
    except TypeError:
        return False
    return True


def _in_range(v: Any, key: str, default: cython.long, lo: cython.long, hi: cython.long) -> cython.long:
    """A whole number (an int or a NumPy integer, not a bool) in lo..hi, else SituationError."""
    if v is _ABSENT:
        v = default
    if type(v) is not int:
        if isinstance(v, bool):
            raise SituationError(f"'{key}' must be a whole number, not {shown_value(v)}", key)
        v = _index(v, key)
    if not lo <= v <= hi:
        raise SituationError(f"'{key}' is {shown_value(v)}, outside {lo}..{hi}", key)
    return v


def _flag(v: Any, key: str) -> cython.bint:
    if not isinstance(v, bool):
        raise SituationError(f"'{key}' must be true or false, not {shown_value(v)}", key)
    return v


def shown_value(v: Any, width: int = 60) -> str:
    """A value for an error message, whatever it is: a huge number by its size, a nested one by its type, a long
    one cut to `width` characters."""
    if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 128:
        return f"a whole number of {'-' if v < 0 else ''}about {int(v.bit_length() * 0.30103) + 1} digits"
    try:
        s = repr(v)
    except (RecursionError, ValueError):
        return f"a {type(v).__name__} nested too deeply to show"
    return s if len(s) <= width else s[:width] + "..."


def _text(value: Any, key: str) -> str:
    """A field's tiles as text: tile notation, or a list of tiles (each parsed alone, as the notation joined by
    spaces)."""
    if isinstance(value, (list, tuple)):
        for x in value:
            if not isinstance(x, str):
                raise SituationError(f"'{key}' must be tiles in notation, or a list of such strings; it holds "
                                     f"a {type(x).__name__}", key)
        value = " ".join(value)
    if not isinstance(value, str):
        raise SituationError(f"'{key}' must be tiles in notation such as \"123m 9s*\", not {type(value).__name__}",
                             key)
    return value


def _scan(text: str, key: str, out: bytearray) -> int:
    """The tiles of a field's text into out as scan_into writes them (kind | 0x80 where marked wild); how many."""
    try:
        return scan_into(text, 0, len(text), out, None)
    except TileError as e:
        raise SituationError(f"'{key}': {e}", key) from None


def _one_tile(value: Any, key: str) -> cython.int:
    if not isinstance(value, str):
        raise SituationError(f"'{key}' must be one tile such as \"3s\"", key)
    try:
        return tile_kind(value)
    except TileError as e:
        raise SituationError(f"'{key}': {e}", key) from None


_READERS: dict[int, tuple[weakref.ref, Reader]] = {}  # id(variant) -> (the variant, its reader)


def reader(variant: Variant) -> Reader:
    """The variant's Reader, made once (the IR is frozen)."""
    got = _READERS.get(id(variant))
    if got is None or got[0]() is not variant:
        if len(_READERS) >= 64:
            _READERS.clear()
        got = _READERS[id(variant)] = (weakref.ref(variant), Reader(variant))
    return got[1]


def situation_from_dict(variant: Variant, d: dict[str, Any], *, pre_draw: bool = False) -> Situation:
    """Parse and check a situation dict (docs/formats.md) against a variant; raises SituationError.
    With pre_draw, the hand is one tile short of complete (for waits) and has no winning tile yet."""
    if isinstance(d, Situation):
        check_situation(variant, d, pre_draw=pre_draw)
        return d
    return reader(variant).read(d, pre_draw).situation()


def check_situation(variant: Variant, s: Situation, *, pre_draw: bool = False) -> None:
    """Refuse impossible situations with a message naming what is wrong."""
    reader(variant).check(fields(s), pre_draw)


def _counted(variant: Variant, s: Situation) -> list[int]:
    """The tiles of s that count against their kinds' copies: the concealed tiles, the melds', the flowers and
    the face-up indicator while it stays (a copy of the gold kind where the indicator names the gold)."""
    everything = list(s.concealed) + [k for m in s.melds for k in m.tiles] + list(s.flowers)
    if s.indicator is not None and variant.wild is not None and variant.wild.indicator_stays and s.win_by != "rob_gold":
        everything.append(s.indicator)
    elif s.wild is not None and variant.wild is not None and variant.wild.mode == "indicator" and s.win_by != "rob_gold":
        everything.append(s.wild)  # the face-up indicator is a copy of the gold kind
    return everything


def drawable_kinds(variant: Variant, s: Situation) -> frozenset[int]:
    """The kinds k for which s, a pre-draw situation check_situation(..., pre_draw=True) accepts, with a tile of
    k added to its concealed tiles as the winning tile is a situation check_situation accepts: the playable
    kinds with a copy left. Nothing else it tests changes with the drawn tile (the hand's size grows by the one
    tile a complete hand has more; the winning tile is then concealed), so a caller trying every kind asks
    this once instead of checking each completed situation."""
    copies = variant.tiles.copies
    c = [0] * len(copies)
    for k in _counted(variant, s):   # plain kinds: s was checked
        c[k] += 1
    return frozenset(k for k in variant.tiles.playable if c[k] < copies[k])


def pre_draw_situation(variant: Variant, situation: dict[str, Any] | Situation) -> Situation:
    """The checked pre-draw hand (one tile short, no winning tile yet) of a situation dict or Situation, for
    waits and ready; its winning tile, if given, is left out. Raises SituationError as situation_from_dict."""
    if isinstance(situation, Situation):
        s = situation.replace(win_tile=None)
        check_situation(variant, s, pre_draw=True)
        return s
    if isinstance(situation, dict) and "win_tile" in situation:
        situation = {k: v for k, v in situation.items() if k != "win_tile"}
    return situation_from_dict(variant, situation, pre_draw=True)
