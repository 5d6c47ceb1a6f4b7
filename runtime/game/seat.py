# cython: annotation_typing=False
"""A seat's holdings and a winner: what the state machine (mjrules.game.state) keeps of each player. Compiled
(Cython's pure-Python mode, typed by seat.pxd), the state machine reads their fields in C."""
from __future__ import annotations

from typing import Any

import cython

from ..model.tiles import Meld

if not cython.compiled:
    from .actions import N_KINDS


class Seat:
    """One seat's tiles and flags. `counts` are the concealed tiles by kind (42 kinds); `meld_counts` the melds'."""

    def __init__(self):
        self.counts = bytearray(N_KINDS)
        self.meld_counts = bytearray(N_KINDS)
        self.marked_hand = bytearray(N_KINDS)   # of counts, the marked copies (tiles { marked ... })
        self.marked_meld = bytearray(N_KINDS)   # of the melds' tiles, the marked copies
        self.melds = []
        self.meld_seq = False
        self.flowers = []
        self.discards = []
        self.kongs = []
        self.first_turn = True
        self.declared_ready = False
        self.declaring = False    # it chose to declare ready: its next discard makes the declaration
        self.ready_first = False  # it declared with its first discard, before any claim
        self.unbroken = False     # declared, and no claim, no kong and no discard of its own since
        self.discarded_mask = 0   # the kinds it discarded this hand (those claimed from it too)
        self.furiten_hand = False # it let a winning tile go after declaring ready: no win on a discard this hand
        self.swap_mask = 0        # kinds it may not discard now, right after its chi or pon (no_swap_calling)
        self.dist_floor = 0       # its hand's shape distance at its next turn is at least this (0: not known)
        self.called_away = 0      # its discards claimed by others
        self.ron_blocked = False
        self.wild_discards = 0
        self.size = 0
        self.draws = 0            # tiles drawn (flowers and replacements included)
        self.out = False          # it won and left the hand (play "after_win leave")
        self.picks = []           # the tiles it has picked to pass in an exchange
        self.choices = []         # its choice in each declaration played, in order
        self.df_mask = 0          # kinds it must discard first while it holds one (declarations)
        self.nc_mask = 0          # kinds it may not claim
        self.nw_mask = 0          # kinds it may not win holding

    @property
    def concealed(self) -> list[int]:
        """The concealed tiles' kinds, sorted."""
        return tiles_of(self.counts)

    def copy(self) -> Seat:
        """An independent copy: every field of SEAT_FIELDS."""
        s = Seat()
        s.counts = bytearray(self.counts)
        s.meld_counts = bytearray(self.meld_counts)
        s.marked_hand = bytearray(self.marked_hand)
        s.marked_meld = bytearray(self.marked_meld)
        s.kongs = [dict(k) for k in self.kongs]
        s.melds = list(self.melds)
        for name in SEAT_SCALARS:
            setattr(s, name, getattr(self, name))
        for name in SEAT_LISTS:
            setattr(s, name, list(getattr(self, name)))
        return s


# A seat's fields, named once: Seat.copy and the saved game state (mjrules.game.serial) copy and write these.
SEAT_SCALARS = ("meld_seq", "first_turn", "declared_ready", "ron_blocked", "wild_discards", "size", "draws", "out",
                "df_mask", "nc_mask", "nw_mask", "declaring", "ready_first", "unbroken", "discarded_mask", "furiten_hand",
                "swap_mask", "dist_floor", "called_away")
SEAT_LISTS = ("flowers", "discards", "picks", "choices")   # lists of ints
SEAT_FIELDS = ("counts", "meld_counts", "marked_hand", "marked_meld", "kongs", "melds") + SEAT_SCALARS + SEAT_LISTS


_MELDS: dict = {}


def meld_of(kind: str, lo: int, concealed: bool) -> Meld:
    """The meld of `kind` from kind `lo` (a chi's lowest), made once: melds are immutable, and a hand makes dozens."""
    key = (kind, lo, concealed)
    m = _MELDS.get(key)
    if m is None:
        tiles = (lo, lo + 1, lo + 2) if kind == "chi" else (lo,) * (4 if kind == "kong" else 3)
        m = _MELDS[key] = Meld(kind, tiles, concealed)
    return m


def tiles_of(counts: bytearray) -> list[int]:
    """The kinds a count vector holds, each as often as it is held, in order."""
    out = []
    for k in range(N_KINDS):
        c = counts[k]
        while c:
            out.append(k)
            c -= 1
    return out


class Winner:
    """A winning seat, how it won, from whom (-1: nobody), and its evaluate result."""

    def __init__(self, seat: int, win_by: str, discarder: int, result: Any):
        self.seat = seat
        self.win_by = win_by
        self.discarder = discarder
        self.result = result
