# cython: annotation_typing=False
"""Tile model, Tenhou/Chinese notation parsing and formatting for tiles and melds."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import cython

if cython.compiled:  # pragma: no cover - the compiled module's own
    from cython.cimports.cpython.bytearray import PyByteArray_FromStringAndSize

__all__ = [
    "CHINESE_NAMES",
    "N_KINDS",
    "N_PLAYABLE_STD",
    "SUITS",
    "TILE_NAMES",
    "Meld",
    "Tile",
    "TileError",
    "check_copies",
    "chinese_name",
    "counts",
    "format_meld",
    "format_tiles",
    "is_flower",
    "is_honour",
    "is_suited",
    "kind",
    "parse_meld",
    "parse_melds",
    "parse_tile",
    "parse_tiles",
    "rank_of",
    "suit_of",
    "tile_name",
]

N_KINDS = 42
N_PLAYABLE_STD = 34
SUITS = "mps"
_HONOUR_BASE = 27
_FLOWER_BASE = 34

_NUMERALS = "一二三四五六七八九"
_HONOUR_CHARS = "東南西北中發白"
_FLOWER_CHARS = "春夏秋冬梅蘭竹菊"
_SUIT_CHARS = {"m": "萬", "p": "筒", "s": "條"}

TILE_NAMES: list[str] = (
    [f"{r}{s}" for s in SUITS for r in range(1, 10)]
    + [f"{r}z" for r in range(1, 8)]
    + [f"f{r}" for r in range(1, 9)]
)
CHINESE_NAMES: list[str] = (
    [_NUMERALS[r] + _SUIT_CHARS[s] for s in SUITS for r in range(9)]
    + list(_HONOUR_CHARS)
    + list(_FLOWER_CHARS)
)

# Chinese suit characters (traditional and simplified, plus common alternatives).
_CN_SUIT: dict[str, str] = {
    "萬": "m", "万": "m",
    "筒": "p", "饼": "p", "餅": "p",
    "條": "s", "条": "s", "索": "s",
}  # fmt: skip
# Single-character tiles: honours and flowers.
_CN_SINGLE: dict[str, int] = {c: _HONOUR_BASE + i for i, c in enumerate(_HONOUR_CHARS)}
_CN_SINGLE.update({c: _FLOWER_BASE + i for i, c in enumerate(_FLOWER_CHARS)})
_CN_SINGLE.update({"东": _HONOUR_BASE, "发": _HONOUR_BASE + 5, "兰": _FLOWER_BASE + 5})


class TileError(ValueError):
    """A malformed tile, meld or tile multiset; names the bad token and where it is."""

    def __init__(
        self, message: str, *, text: str | None = None, pos: int | None = None, token: str | None = None
    ) -> None:
        super().__init__(message)
        self.text = text
        self.pos = pos
        self.token = token


class Tile(NamedTuple):
    """One tile: its kind (0..41) and whether it is a wild written at face value."""

    kind: int
    wild: bool = False


@dataclass(frozen=True)
class Meld:
    """A declared set: chi (sequence), pon (triplet) or kong (quad); tiles are sorted kinds.

    `code` (not a field: made from the fields) is the meld as bytes, for the readers in C (the situation check,
    the native kernel): MELD_CHI, MELD_PON, MELD_KONG or MELD_OTHER, then 1 if concealed else 0, then each tile's
    kind (NO_KIND where a tile is no kind 0..41)."""

    kind: Literal["chi", "pon", "kong"]
    tiles: tuple[int, ...]
    concealed: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", meld_code(self.kind, self.tiles, self.concealed))

    def __str__(self) -> str:
        return format_meld(self)


if not cython.compiled:   # (compiled, they are the C constants tiles.pxd declares)
    MELD_CHI, MELD_PON, MELD_KONG, MELD_OTHER = range(4)   # Meld.code's first byte
    NO_KIND = 255                                          # Meld.code's byte for a tile that is no kind
_MELD_KINDS = {"chi": MELD_CHI, "pon": MELD_PON, "kong": MELD_KONG}


def meld_code(kind: Any, tiles: Any, concealed: Any) -> bytes:
    """Meld.code of a meld's fields (whatever they hold)."""
    try:
        ks = [k if type(k) is int and 0 <= k < N_KINDS else NO_KIND for k in tiles]
    except TypeError:   # (tiles that are no sequence: one tile that is no kind)
        ks = [NO_KIND]
    return bytes([_MELD_KINDS.get(kind, MELD_OTHER) if type(kind) is str else MELD_OTHER, 1 if concealed else 0,
                  *ks])


# ---------------------------------------------------------------- predicates


def _check_kind(k: int) -> int:
    if not isinstance(k, int) or not 0 <= k < N_KINDS:
        raise TileError(f"tile kind {k!r} is out of range 0..{N_KINDS - 1}", token=str(k))
    return k


def is_suited(k: int) -> bool:
    """True for 1m..9s (kinds 0..26)."""
    return 0 <= k < _HONOUR_BASE


def is_honour(k: int) -> bool:
    """True for winds and dragons (kinds 27..33)."""
    return _HONOUR_BASE <= k < _FLOWER_BASE


def is_flower(k: int) -> bool:
    """True for flowers and seasons (kinds 34..41)."""
    return _FLOWER_BASE <= k < N_KINDS


def suit_of(k: int) -> str:
    """'m', 'p', 's', 'z' (honours) or 'f' (flowers)."""
    _check_kind(k)
    if is_suited(k):
        return SUITS[k // 9]
    return "z" if is_honour(k) else "f"


def rank_of(k: int) -> int:
    """1..9 for suited tiles, 1..7 for honours, 1..8 for flowers."""
    _check_kind(k)
    if is_suited(k):
        return k % 9 + 1
    return k - (_HONOUR_BASE if is_honour(k) else _FLOWER_BASE) + 1


def kind(suit: str, rank: int) -> int:
    """The kind for a suit letter ('m', 'p', 's', 'z', 'f') and a rank."""
    if type(rank) is int and type(suit) is str:
        k = _KINDS.get((suit, rank))
        if k is not None:
            return k
    top = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}.get(suit)
    name = f"f{rank}" if suit == "f" else f"{rank}{suit}"
    if top is None:
        raise TileError(f"bad suit {suit!r}: suits are m, p, s, z, f", token=suit)
    if not isinstance(rank, int) or not 1 <= rank <= top:
        raise TileError(f"bad tile '{name}': {_range_reason(suit)}", token=name)
    if suit in SUITS:
        return SUITS.index(suit) * 9 + rank - 1
    return (_HONOUR_BASE if suit == "z" else _FLOWER_BASE) + rank - 1


# (suit letter, rank) -> kind for every valid pair: kind()'s fast path (anything else takes the checked path)
_KINDS: dict[tuple[str, int], int] = {(n[-1], int(n[0])) if n[0] != "f" else ("f", int(n[1])): k
                                      for k, n in enumerate(TILE_NAMES)}


def tile_name(k: int) -> str:
    """ASCII name such as '1m', '7z' or 'f3'."""
    return TILE_NAMES[_check_kind(k)]


def chinese_name(k: int) -> str:
    """Traditional Chinese name such as '一萬', '中' or '春'."""
    return CHINESE_NAMES[_check_kind(k)]


def _range_reason(suit: str) -> str:
    if suit == "z":
        return "honours run 1z..7z"
    if suit == "f":
        return "flowers run f1..f8"
    return "ranks run 1..9"


# ---------------------------------------------------------------- parsing


class _Item(NamedTuple):
    tile: Tile
    pos: int
    token: str


def _at(what: str, pos: int, text: str) -> str:
    return f'{what} at position {pos} in "{shown(text)}"'


def shown(text: str, width: int = 80) -> str:
    """Text for an error message: one line (control characters escaped), a long one cut to its first `width`."""
    if not isinstance(text, str):
        text = repr(text)
    if len(text) > width:
        text = text[:width] + f"... ({len(text)} characters)"
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


WILD = 0x80  # scan_into's mark of a tile written wild: the byte is its kind | WILD (0x80 in its code)


def scan_buffer(n: int) -> bytearray:
    """A bytearray of n bytes for scan_into to write (bytearray(n), without the type call where compiled)."""
    if cython.compiled:
        return PyByteArray_FromStringAndSize(cython.NULL, n)
    return bytearray(n)


@cython.wraparound(False)
@cython.boundscheck(False)   # (out's room is checked once, on entry)
@cython.locals(i=cython.Py_ssize_t, n=cython.Py_ssize_t, npend=cython.Py_ssize_t, first=cython.Py_ssize_t,
               last_digit=cython.Py_ssize_t, star=cython.Py_ssize_t, j=cython.Py_ssize_t, c=cython.Py_UCS4,
               ch=cython.int, d=cython.int, top=cython.int, base=cython.int, after=cython.int, at=cython.Py_ssize_t)
def scan_into(text: str, start: cython.Py_ssize_t, end: cython.Py_ssize_t, out: bytearray,
              where: list | None = None) -> cython.Py_ssize_t:
    """Read the tiles of text[start:end] (Tenhou-like '123m 9s* f1' and/or Chinese '一萬 東 春*' notation) into
    out, one byte a tile: its kind, | WILD where it is marked wild; returns how many. out must have room for
    end - start bytes (no text holds more tiles than characters). With `where`, also appends each tile's
    (position, token) to it. Raises TileError naming the first fault and its position.

    The one scanner of the notation: parse_tiles, parse_tile, melds and the situation reader all read tiles
    through it, one character at a time. Digits wait in out itself (digit | WILD) until their suit letter
    turns them into kinds; the position of a waiting digit is found again (_digit_at) only for an error or for
    `where`. An 'f' or a Chinese numeral waits for the character after it (`after`)."""
    if len(out) < end - start:
        raise ValueError("scan_into: out has no room for the text's tiles")
    n = 0            # tiles read: out[:n]
    npend = 0        # digits waiting for their suit letter: out[n:n + npend]
    first = -1       # the position of the first of them
    last_digit = -2  # the position of the last of them
    star = -1        # the position right after the last tile read, where a '*' marks it
    after = 0        # 1: an 'f' at `at` waits for its number; 2: a Chinese numeral at `at`, of rank d, its suit
    at = -1
    d = 0
    i = start - 1
    for c in text[start:end]:
        i += 1
        ch = ord(c)
        if after == 1:   # the flower's number
            after = 0
            d = ch - 48
            if not 0 <= d <= 9:
                raise TileError(_at("'f'", at, text) + " is not followed by a flower number 1..8",
                                text=text, pos=at, token="f")
            if not 1 <= d <= 8:
                token = f"f{d}"
                raise TileError(_at(f"bad tile '{token}'", at, text) + ": flowers run f1..f8",
                                text=text, pos=at, token=token)
            out[n] = 33 + d   # (f1 is kind 34)
            n += 1
            if where is not None:
                where.append((at, f"f{d}"))
            star = i + 1
        elif after == 2:   # the Chinese numeral's suit
            after = 0
            if chr(ch) not in _CN_SUIT:
                raise _no_suit(text, at)
            out[n] = kind(_CN_SUIT[chr(ch)], d)
            n += 1
            if where is not None:
                where.append((at, text[at] + chr(ch)))
            star = i + 1
        elif 48 <= ch <= 57:   # a digit
            if npend == 0:
                first = i
            out[n + npend] = ch - 48
            npend += 1
            last_digit = i
        elif ch == 109 or ch == 112 or ch == 115 or ch == 122:   # m p s z
            if npend == 0:
                raise TileError(_at(f"suit letter '{chr(ch)}'", i, text) + ": no digits before it",
                                text=text, pos=i, token=chr(ch))
            top = 7 if ch == 122 else 9
            base = 0 if ch == 109 else 9 if ch == 112 else 18 if ch == 115 else 27
            for j in range(npend):
                d = out[n + j] & 0x7F
                if not 1 <= d <= top:
                    token = f"{d}{chr(ch)}"
                    pos = _digit_at(text, first, j)
                    raise TileError(_at(f"bad tile '{token}'", pos, text) + f": {_range_reason(chr(ch))}",
                                    text=text, pos=pos, token=token)
                out[n + j] = (base + d - 1) | (out[n + j] & 0x80)
                if where is not None:
                    where.append((_digit_at(text, first, j), f"{d}{chr(ch)}"))
            n += npend
            npend = 0
            star = i + 1
        elif ch == 42:   # '*'
            if npend and last_digit == i - 1:
                out[n + npend - 1] |= 0x80
            elif not npend and n and star == i and not out[n - 1] & 0x80:
                out[n - 1] |= 0x80
            else:
                raise TileError(_at("unexpected character '*'", i, text)
                                + ": a wild marker must directly follow a tile that is not already wild",
                                text=text, pos=i, token="*")
        elif ch == 102:   # 'f'
            if npend:
                raise _dangling(text, first, last_digit, out[n + npend - 1] & 0x80)
            after, at = 1, i
        elif ch == 32 or 9 <= ch <= 13 or 28 <= ch <= 31 or (ch > 127 and chr(ch).isspace()):   # (str.isspace)
            pass
        elif chr(ch) in _CN_SINGLE:
            if npend:
                raise _dangling(text, first, last_digit, out[n + npend - 1] & 0x80)
            out[n] = _CN_SINGLE[chr(ch)]
            n += 1
            if where is not None:
                where.append((i, chr(ch)))
            star = i + 1
        elif chr(ch) in _NUMERALS:
            if npend:
                raise _dangling(text, first, last_digit, out[n + npend - 1] & 0x80)
            after, at, d = 2, i, _NUMERALS.index(chr(ch)) + 1
        else:
            raise TileError(_at(f"unexpected character '{chr(ch)}'", i, text), text=text, pos=i, token=chr(ch))
    if after == 1:
        raise TileError(_at("'f'", at, text) + " is not followed by a flower number 1..8", text=text, pos=at,
                        token="f")
    if after == 2:
        raise _no_suit(text, at)
    if npend:
        raise _dangling(text, first, last_digit, out[n + npend - 1] & 0x80)
    return n


def _no_suit(text: str, at: int) -> TileError:
    """A Chinese numeral with no suit after it."""
    return TileError(_at(f"'{text[at]}'", at, text) + " is not followed by a suit (萬/万, 筒/饼/餅, 條/条/索)",
                     text=text, pos=at, token=text[at])


@cython.locals(i=cython.Py_ssize_t, ch=cython.int)
def _digit_at(text: str, first: cython.Py_ssize_t, j: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """The position of the j-th digit waiting for its suit letter, the first at `first`: between them the text
    holds only digits, '*' and spaces (anything else ends the wait or is an error)."""
    i = first
    while True:
        ch = ord(text[i])
        if 48 <= ch <= 57:
            if j == 0:
                return i
            j -= 1
        i += 1


def _dangling(text: str, first: int, last: int, wild: int) -> TileError:
    """Digits at the end of the text, or before a flower or a Chinese tile, with no suit letter after them."""
    token = text[first:last + (2 if wild else 1)]
    return TileError(f"digits '{token}' at position {first} are not followed by a suit letter (m, p, s, z)"
                     f' in "{shown(text)}"', text=text, pos=first, token=token)


def _scan(text: str, start: int = 0, end: int | None = None) -> list[_Item]:
    """Parse text[start:end] into tiles, keeping absolute positions for error messages."""
    if type(text) is not str:
        raise TypeError(f"tile notation is text, not {type(text).__name__}")
    end = len(text) if end is None else end
    out = scan_buffer(max(end - start, 0))
    where: list[tuple[int, str]] = []
    n = scan_into(text, start, end, out, where)
    return [_Item(_TILE[out[i]], pos, token) for i, (pos, token) in zip(range(n), where)]


def parse_tiles(text: str) -> list[Tile]:
    """Parse Tenhou-like ('123m 9s* f1') and/or Chinese ('一萬 東 春*') notation into tiles."""
    if type(text) is not str:
        return [item.tile for item in _scan(text)]
    out = scan_buffer(len(text))
    n = scan_into(text, 0, len(text), out)
    tile = _TILE
    return [tile[out[i]] for i in range(n)]


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile."""
    tile = _ONE_TILE.get(text) if type(text) is str else None
    if tile is not None:
        return tile
    items = _scan(text)
    if len(items) != 1:
        pos = items[1].pos if len(items) > 1 else None
        raise TileError(f'expected exactly one tile in "{shown(text)}", found {len(items)}', text=text, pos=pos)
    return items[0].tile


# the Tile of each byte scan_into writes (its kind, | WILD where marked)
_TILE: list[Tile | None] = [None] * 256
for _k in range(N_KINDS):
    _TILE[_k], _TILE[_k | WILD] = Tile(_k), Tile(_k, True)
del _k

# Every ASCII spelling of one tile ('3s', '9s*', '9*s', 'f1'), as parse_tile reads it, and its kind.
_ONE_TILE: dict[str, Tile] = {}
_ONE_KIND: dict[str, int] = {}
for _name in TILE_NAMES:
    for _text in (_name, _name + "*", _name[0] + "*" + _name[1]) if _name[0] != "f" else (_name, _name + "*"):
        _ONE_TILE[_text] = _scan(_text)[0].tile
        _ONE_KIND[_text] = _ONE_TILE[_text].kind
del _name, _text


def kinds_named(names: Any) -> tuple | None:
    """The kinds of a list of one-tile texts ('f1', '3s', '9s*': parse_tile's, a wild's mark dropped), or None
    where it is no list or holds anything else."""
    if type(names) is not list:
        return None
    out = []
    for x in names:
        k = _ONE_KIND.get(x) if type(x) is str else None
        if k is None:
            return None
        out.append(k)
    return tuple(out)


def tile_kind(text: str) -> int:
    """parse_tile(text).kind: the kind of exactly one tile (raises TileError as parse_tile)."""
    k = _ONE_KIND.get(text)
    return k if k is not None else parse_tile(text).kind


def _make_meld(text: str, start: int, end: int, concealed: bool) -> Meld:
    """Build a meld from text[start:end], which includes its brackets."""
    token = text[start:end]
    items = _scan(text, start + 1, end - 1)

    def bad(why: str) -> TileError:
        return TileError(
            _at(f"bad meld '{token}'", start, text) + f": {why}", text=text, pos=start, token=token
        )

    for item in items:
        if item.tile.wild:
            raise TileError(
                _at(f"wild tile '{item.token}*'", item.pos, text) + ": a wild tile may not be used in a meld",
                text=text, pos=item.pos, token=item.token,
            )  # fmt: skip
    ks = tuple(sorted(item.tile.kind for item in items))
    if any(is_flower(k) for k in ks):
        raise bad("flowers cannot form a meld")
    if len(ks) not in (3, 4):
        raise bad(f"a meld has 3 or 4 tiles, not {len(ks)}")
    same = len(set(ks)) == 1
    if concealed:
        if len(ks) == 4 and same:
            return Meld("kong", ks, True)
        raise bad("a concealed meld {....} must be a kong of 4 identical tiles")
    if same:
        return Meld("pon" if len(ks) == 3 else "kong", ks, False)
    if len(ks) == 3 and ks[1] == ks[0] + 1 and ks[2] == ks[0] + 2:
        if not is_suited(ks[0]):
            raise bad("honours cannot form a sequence")
        if ks[0] // 9 == ks[2] // 9:
            return Meld("chi", ks, False)
    raise bad("not a sequence of 3, a triplet or a quad of one suit")


def _scan_melds(text: str) -> list[Meld]:
    melds: list[Meld] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace() or ch == ",":
            i += 1
            continue
        if ch not in "[{":
            raise TileError(
                _at(f"unexpected character '{ch}'", i, text) + ": melds are written [...] or {...}",
                text=text, pos=i, token=ch,
            )  # fmt: skip
        close = "]" if ch == "[" else "}"
        j = i + 1
        while j < len(text) and text[j] not in "[]{}":
            j += 1
        if j == len(text) or text[j] != close:
            raise TileError(
                _at(f"meld '{text[i:j]}'", i, text) + f": '{ch}' is not closed by '{close}'",
                text=text, pos=i, token=text[i:j],
            )  # fmt: skip
        melds.append(_make_meld(text, i, j + 1, concealed=ch == "{"))
        i = j + 1
    return melds


def parse_meld(text: str) -> Meld:
    """Parse one meld: [555p] pon, [5555s] kong, [345s] chi (all exposed), {1111m} concealed kong."""
    melds = _scan_melds(text)
    if len(melds) != 1:
        raise TileError(f'expected exactly one meld in "{shown(text)}", found {len(melds)}', text=text)
    return melds[0]


_MELDS: dict[str, tuple[Meld, ...]] = {}  # texts parsed without error (melds are immutable)
_MELDS_LIMIT = 65536  # texts remembered (the memo is emptied when full): a few MB at most
_MELDS_LEN = 64  # longer texts are not remembered


def parse_melds(text: str) -> list[Meld]:
    """Parse melds separated by spaces and/or commas, e.g. "[555p] {1111m}, [345s]"."""
    melds = _MELDS.get(text) if type(text) is str else None
    if melds is None:
        found = _scan_melds(text)
        if type(text) is str and len(text) <= _MELDS_LEN:
            if len(_MELDS) >= _MELDS_LIMIT:
                _MELDS.clear()
            _MELDS[text] = tuple(found)
        return found
    return list(melds)


# ---------------------------------------------------------------- formatting and counting


def _as_tile(t: Tile | int) -> Tile:
    if isinstance(t, Tile):
        _check_kind(t.kind)
        return t
    return Tile(_check_kind(t))


def format_tiles(tiles: Iterable[Tile | int]) -> str:
    """Canonical compact notation: suits m, p, s, z then flowers, sorted; e.g. '12*3m9s*f1'.

    A wild tile is written with '*' after its digit, or after the suit letter when it ends its group.
    """
    ts = sorted(_as_tile(t) for t in tiles)
    out: list[str] = []
    for suit in "mpsz":
        group = [t for t in ts if suit_of(t.kind) == suit]
        if not group:
            continue
        body = "".join(f"{rank_of(t.kind)}{'*' if t.wild else ''}" for t in group)
        out.append(body[:-1] + suit + "*" if group[-1].wild else body + suit)
    out.extend(tile_name(t.kind) + ("*" if t.wild else "") for t in ts if is_flower(t.kind))
    return "".join(out)


def format_meld(meld: Meld) -> str:
    """'[555p]', '[345s]', '[5555s]' or '{1111m}'."""
    body = format_tiles(meld.tiles)
    return f"{{{body}}}" if meld.concealed else f"[{body}]"


def counts(tiles: Iterable[Tile | int]) -> list[int]:
    """Number of tiles of each kind (length N_KINDS); wild tiles count as their face value."""
    result = [0] * N_KINDS
    for t in tiles:
        result[_as_tile(t).kind] += 1
    return result


def check_copies(tiles: Iterable[Tile | int], copies: int | Sequence[int] = 4) -> None:
    """Raise TileError if any kind occurs more often than the variant's copies of it.

    An int applies to suited tiles and honours; each flower exists once. A sequence gives the
    allowed copies per kind and must have N_KINDS entries. Wild tiles count as their face value.
    """
    if isinstance(copies, int):
        allowed = [copies] * N_PLAYABLE_STD + [1] * (N_KINDS - N_PLAYABLE_STD)
    else:
        allowed = list(copies)
        if len(allowed) != N_KINDS:
            raise ValueError(f"copies must have {N_KINDS} entries, not {len(allowed)}")
    for k, n in enumerate(counts(tiles)):
        if n > allowed[k]:
            raise TileError(
                f"{n} copies of {tile_name(k)}, but the variant has {allowed[k]}",
                token=tile_name(k),
            )
