"""Tile model, Tenhou/Chinese notation parsing and formatting for tiles and melds."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

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
    """A declared set: chi (sequence), pon (triplet) or kong (quad); tiles are sorted kinds."""

    kind: Literal["chi", "pon", "kong"]
    tiles: tuple[int, ...]
    concealed: bool = False

    def __str__(self) -> str:
        return format_meld(self)


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


def _scan(text: str, start: int = 0, end: int | None = None) -> list[_Item]:
    """Parse text[start:end] into tiles, keeping absolute positions for error messages."""
    end = len(text) if end is None else end
    items: list[_Item] = []
    pending: list[tuple[int, int, bool]] = []  # (digit, position, wild) awaiting a suit letter
    star_target = -1  # position right after the last completed tile token, where '*' may follow

    def dangling() -> TileError:
        first, last = pending[0][1], pending[-1][1] + (2 if pending[-1][2] else 1)
        token = text[first:last]
        return TileError(
            f"digits '{token}' at position {first} are not followed by a suit letter (m, p, s, z)"
            f' in "{shown(text)}"',
            text=text, pos=first, token=token,
        )  # fmt: skip

    i = start
    while i < end:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in "0123456789":
            pending.append((int(ch), i, False))
            i += 1
        elif ch == "*":
            if pending and pending[-1][1] == i - 1:
                pending[-1] = (pending[-1][0], pending[-1][1], True)
            elif not pending and items and star_target == i and not items[-1].tile.wild:
                last = items[-1]
                items[-1] = _Item(Tile(last.tile.kind, True), last.pos, last.token)
            else:
                raise TileError(
                    _at("unexpected character '*'", i, text)
                    + ": a wild marker must directly follow a tile that is not already wild",
                    text=text, pos=i, token="*",
                )  # fmt: skip
            i += 1
        elif ch in "mpsz":
            if not pending:
                raise TileError(
                    _at(f"suit letter '{ch}'", i, text) + ": no digits before it",
                    text=text, pos=i, token=ch,
                )  # fmt: skip
            top = 7 if ch == "z" else 9
            for digit, pos, wild in pending:
                if not 1 <= digit <= top:
                    token = f"{digit}{ch}"
                    raise TileError(
                        _at(f"bad tile '{token}'", pos, text) + f": {_range_reason(ch)}",
                        text=text, pos=pos, token=token,
                    )  # fmt: skip
                items.append(_Item(Tile(kind(ch, digit), wild), pos, f"{digit}{ch}"))
            pending.clear()
            i += 1
            star_target = i
        elif ch == "f":
            if pending:
                raise dangling()
            nxt = text[i + 1] if i + 1 < end else ""
            if not nxt or nxt not in "0123456789":
                raise TileError(
                    _at("'f'", i, text) + " is not followed by a flower number 1..8",
                    text=text, pos=i, token="f",
                )  # fmt: skip
            token = "f" + nxt
            if not 1 <= int(nxt) <= 8:
                raise TileError(
                    _at(f"bad tile '{token}'", i, text) + ": flowers run f1..f8",
                    text=text, pos=i, token=token,
                )  # fmt: skip
            items.append(_Item(Tile(kind("f", int(nxt))), i, token))
            i += 2
            star_target = i
        elif ch in _CN_SINGLE or ch in _NUMERALS:
            if pending:
                raise dangling()
            if ch in _CN_SINGLE:
                items.append(_Item(Tile(_CN_SINGLE[ch]), i, ch))
                i += 1
            else:
                nxt = text[i + 1] if i + 1 < end else ""
                if nxt not in _CN_SUIT:
                    raise TileError(
                        _at(f"'{ch}'", i, text) + " is not followed by a suit (萬/万, 筒/饼/餅, 條/条/索)",
                        text=text, pos=i, token=ch,
                    )  # fmt: skip
                items.append(_Item(Tile(kind(_CN_SUIT[nxt], _NUMERALS.index(ch) + 1)), i, ch + nxt))
                i += 2
            star_target = i
        else:
            raise TileError(_at(f"unexpected character '{ch}'", i, text), text=text, pos=i, token=ch)
    if pending:
        raise dangling()
    return items


# Fast path. _scan handles every ASCII suit letter m, p, s, z itself and leaves nothing pending after it, so
# cutting the text right after each suit letter (and after a '*' that directly follows one, which marks that
# tile) gives pieces that parse alone exactly as they do in place: only a '*' reads what came before it, and a
# piece starting with '*' is an error alone and in place. Each distinct short piece is scanned once and
# remembered. A piece _scan refuses sends the whole text to the full scanner, whose error names the position.
# piece -> (its tiles, their kinds, the kinds of its wild tiles), or None where _scan refuses the piece
_PIECES: dict[str, tuple[tuple[Tile, ...], tuple[int, ...], tuple[int, ...]] | None] = {}
_PIECES_LIMIT = 4096  # distinct pieces remembered (the memo is emptied when full)
_PIECE_LEN = 24  # longer pieces are scanned each time, not remembered


def _piece(piece: str) -> tuple[tuple[Tile, ...], tuple[int, ...], tuple[int, ...]] | None:
    """A piece's tiles, their kinds and the kinds of its wild tiles; None if _scan refuses it."""
    try:
        tiles = tuple([item.tile for item in _scan(piece)])
        got = tiles, tuple([t.kind for t in tiles]), tuple([t.kind for t in tiles if t.wild])
    except TileError:
        got = None
    if len(piece) <= _PIECE_LEN:
        if len(_PIECES) >= _PIECES_LIMIT:
            _PIECES.clear()
        _PIECES[piece] = got
    return got


def _pieces(text: str) -> list[tuple[tuple[Tile, ...], tuple[int, ...], tuple[int, ...]]] | None:
    """_piece of each piece of text (cut after each suit letter and its '*'), or None when the full scanner
    must decide (and report the error)."""
    if "\0" in text:
        return None
    out = []
    memo = _PIECES
    for piece in (text.replace("m", "m\0").replace("p", "p\0").replace("s", "s\0").replace("z", "z\0")
                  .replace("\0*", "*\0").split("\0")):
        try:
            got = memo[piece]
        except KeyError:
            got = _piece(piece)
        if got is None:
            return None
        out.append(got)
    return out


def _fast_tiles(text: str) -> list[Tile] | None:
    """parse_tiles(text), or None when the full scanner must decide (and report the error)."""
    pieces = _pieces(text)
    if pieces is None:
        return None
    out: list[Tile] = []
    for got in pieces:
        out += got[0]
    return out


def _fast_kinds(text: str) -> tuple[tuple[int, ...], list[int]] | None:
    """The kinds of parse_tiles(text) and the kinds of its wild tiles, or None as for _fast_tiles."""
    pieces = _pieces(text)
    if pieces is None:
        return None
    kinds: list[int] = []
    wilds: list[int] = []
    for got in pieces:
        kinds += got[1]
        if got[2]:
            wilds += got[2]
    return tuple(kinds), wilds


def _fast_tile_list(items: list | tuple) -> list[Tile] | None:
    """parse_tiles(" ".join(items)) when every item is a str spelling one tile ('3s', 'f1'), else None. The
    spaces keep the items apart: each parses alone, and a '*' after a space is an error."""
    out = []
    for x in items:
        t = _ONE_TILE.get(x) if type(x) is str else None
        if t is None:
            return None
        out.append(t)
    return out


def parse_tiles(text: str) -> list[Tile]:
    """Parse Tenhou-like ('123m 9s* f1') and/or Chinese ('一萬 東 春*') notation into tiles."""
    if type(text) is str:
        tiles = _fast_tiles(text)
        if tiles is not None:
            return tiles
    return [item.tile for item in _scan(text)]


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


# Every ASCII spelling of one tile ('3s', '9s*', '9*s', 'f1'), as parse_tile reads it.
_ONE_TILE: dict[str, Tile] = {}
for _name in TILE_NAMES:
    for _text in (_name, _name + "*", _name[0] + "*" + _name[1]) if _name[0] != "f" else (_name, _name + "*"):
        _ONE_TILE[_text] = _scan(_text)[0].tile
del _name, _text


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


_MELDS: dict[str, tuple[Meld, ...]] = {}  # texts parsed without error (melds are immutable), as _PIECES
_MELDS_LEN = 64  # longer texts are not remembered


def parse_melds(text: str) -> list[Meld]:
    """Parse melds separated by spaces and/or commas, e.g. "[555p] {1111m}, [345s]"."""
    melds = _MELDS.get(text) if type(text) is str else None
    if melds is None:
        found = _scan_melds(text)
        if type(text) is str and len(text) <= _MELDS_LEN:
            if len(_MELDS) >= _PIECES_LIMIT:
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
