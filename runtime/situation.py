"""Situations: a winning (or candidate) hand in context, parsed from a dict and checked against a variant."""
from __future__ import annotations

import dataclasses
import weakref
from dataclasses import dataclass, field
from operator import eq, gt
from typing import Any

from .compiler.ir import Variant
from .tiles import (
    Meld,
    Tile,
    TileError,
    _fast_kinds,
    _fast_tile_list,
    counts,
    parse_melds,
    parse_tile,
    parse_tiles,
    tile_name,
)

WIN_BY = ("self_draw", "discard", "rob_kong", "kong_replacement", "rob_gold", "dealt")
KEYS = ("seat", "dealer", "concealed", "melds", "win_tile", "win_by", "discarder", "wild", "indicator", "flowers",
        "wild_discards", "dealer_streak", "first_turn", "first_discard", "declared_ready", "options", "winners",
        "dealer_won")
_KEYS = frozenset(KEYS)


class SituationError(ValueError):
    """An impossible or malformed situation. `key` names the offending field."""

    def __init__(self, message: str, key: str | None = None):
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class Situation:
    """A hand to judge. `concealed` includes the winning tile; kinds are ints (see mjrules.tiles)."""

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

        wild_kinds = {self.wild} if self.wild is not None else set()
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
        elif self.wild is not None:
            d["wild"] = tile_name(self.wild)
        if self.flowers:
            d["flowers"] = [tile_name(k) for k in self.flowers]
        for k in ("wild_discards", "dealer_streak"):
            if getattr(self, k):
                d[k] = getattr(self, k)
        for k in ("first_turn", "first_discard", "declared_ready"):
            if getattr(self, k):
                d[k] = True
        if self.options:
            d["options"] = dict(self.options)
        if self.winners != 1:
            d["winners"] = self.winners
        if self.dealer_won is not None:
            d["dealer_won"] = self.dealer_won
        return d


_SITUATION_FIELDS = frozenset(f.name for f in dataclasses.fields(Situation))


def _fast_new(seat: int, dealer: int, concealed: tuple[int, ...], melds: tuple[Meld, ...],
              win_tile: int | None, win_by: str, discarder: int, wild: int | None, indicator: int | None,
              flowers: tuple[int, ...], wild_discards: int, dealer_streak: int, first_turn: bool,
              first_discard: bool, declared_ready: bool, options: dict[str, Any], winners: int,
              dealer_won: bool | None) -> Situation:
    """Situation(...), filling the instance dict at once: the frozen dataclass's __init__ makes one
    object.__setattr__ call per field, which cost a parsed evaluate as much as checking it."""
    s = _new(Situation)
    _setattr(s, "__dict__", {
        "seat": seat, "dealer": dealer, "concealed": concealed, "melds": melds, "win_tile": win_tile,
        "win_by": win_by, "discarder": discarder, "wild": wild, "indicator": indicator, "flowers": flowers,
        "wild_discards": wild_discards, "dealer_streak": dealer_streak, "first_turn": first_turn,
        "first_discard": first_discard, "declared_ready": declared_ready, "options": options,
        "winners": winners, "dealer_won": dealer_won})
    return s


_new, _setattr = object.__new__, object.__setattr__
# The shortcut stands only while it builds exactly what the dataclass would: the same fields, in order, and
# nothing run after __init__; otherwise the dataclass's own constructor is used.
_new_situation = _fast_new if (
    tuple(f.name for f in dataclasses.fields(Situation)) == _fast_new.__code__.co_varnames[:18]
    and _fast_new.__code__.co_argcount == 18 and not hasattr(Situation, "__post_init__")
    and "__slots__" not in Situation.__dict__) else Situation


def blank() -> tuple[type, dict[str, Any]]:
    """(class, instance dict) from which a reader in C makes Situations: a copy of the dict, fields set, becomes
    the __dict__ of cls.__new__(cls) -- what _fast_new does; refused (ValueError) when that shortcut does not
    stand, see _new_situation."""
    if _new_situation is not _fast_new:
        raise ValueError("Situation cannot be built from its instance dict")
    return Situation, dict(Situation().__dict__)


def _tiles(value: Any, key: str) -> list[Tile]:
    if isinstance(value, (list, tuple)):
        tiles = _fast_tile_list(value)
        if tiles is not None:
            return tiles
        value = " ".join(map(str, value))
    if not isinstance(value, str):
        raise SituationError(f"'{key}' must be tiles in notation such as \"123m 9s*\", not {type(value).__name__}", key)
    try:
        return parse_tiles(value)
    except TileError as e:
        raise SituationError(f"'{key}': {e}", key) from None


def _one_tile(value: Any, key: str) -> Tile:
    if not isinstance(value, str):
        raise SituationError(f"'{key}' must be one tile such as \"3s\"", key)
    try:
        return parse_tile(value)
    except TileError as e:
        raise SituationError(f"'{key}': {e}", key) from None


def _int(d: dict, key: str, default: int, lo: int, hi: int) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise SituationError(f"'{key}' must be a whole number, not {v!r}", key)
    if not lo <= v <= hi:
        raise SituationError(f"'{key}' is {v}, outside {lo}..{hi}", key)
    return v


def _bool(d: dict, key: str) -> bool:
    v = d.get(key, False)
    if not isinstance(v, bool):
        raise SituationError(f"'{key}' must be true or false, not {v!r}", key)
    return v


def situation_from_dict(variant: Variant, d: dict[str, Any], *, pre_draw: bool = False) -> Situation:
    """Parse and check a situation dict (docs/formats.md) against a variant; raises SituationError.
    With pre_draw, the hand is one tile short of complete (for waits) and has no winning tile yet."""
    if isinstance(d, Situation):
        check_situation(variant, d, pre_draw=pre_draw)
        return d
    if not isinstance(d, dict):
        raise SituationError("a situation is a JSON object")
    if not all(type(k) is str for k in d):  # (before any lookup: a key object's own == or hash may raise)
        bad = next(k for k in d if type(k) is not str)
        raise SituationError(f"a situation's keys are strings, not {type(bad).__name__} (known: {', '.join(KEYS)})")
    if not _KEYS.issuperset(d):
        unknown = sorted(set(d) - set(KEYS))
        raise SituationError(f"unknown key(s): {', '.join(unknown)}; known: {', '.join(KEYS)}", unknown[0])
    n = variant.players
    check_all = n < 2  # from two players on, each default below is in its range: an absent key needs no check
    seat = _int(d, "seat", 0, 0, n - 1) if check_all or "seat" in d else 0
    dealer = _int(d, "dealer", 0, 0, n - 1) if check_all or "dealer" in d else 0
    win_by = d.get("win_by", "self_draw")
    if win_by not in WIN_BY:
        raise SituationError(f"'win_by' is {win_by!r}; one of: {', '.join(WIN_BY)}", "win_by")
    discarder = _int(d, "discarder", -1, -1, n - 1) if check_all or "discarder" in d else -1
    text = d.get("concealed", "")
    fast = _fast_kinds(text) if type(text) is str else None
    if fast is None:
        concealed_t = _tiles(text, "concealed")
        concealed, marked = tuple([t.kind for t in concealed_t]), [t.kind for t in concealed_t if t.wild]
    else:
        concealed, marked = fast  # the kinds of _tiles(text, ...), and those of its tiles marked wild
    try:
        if "melds" in d:
            m = d["melds"]
            melds = tuple(parse_melds(" ".join(m) if isinstance(m, list) else m))
        else:
            melds = ()
    except TileError as e:
        raise SituationError(f"'melds': {e}", "melds") from None
    except TypeError:
        raise SituationError("'melds' must be a list of melds such as [\"[555p]\", \"{1111m}\"]", "melds") from None
    wild = indicator = None
    if "wild" in d and "indicator" in d:
        raise SituationError("give 'wild' or 'indicator', not both", "indicator")
    if "wild" in d:
        wild = _one_tile(d["wild"], "wild").kind
    if "indicator" in d:
        indicator = _one_tile(d["indicator"], "indicator").kind
    win_tile = _one_tile(d["win_tile"], "win_tile").kind if "win_tile" in d else None
    flowers = tuple([t.kind for t in _tiles(d["flowers"], "flowers")]) if "flowers" in d else ()
    opts = d.get("options", {})
    if not isinstance(opts, dict):
        raise SituationError("'options' must be an object of option names to values", "options")
    if variant.wild is not None and indicator is not None:
        if variant.wild.mode == "fixed":
            raise SituationError("this variant's wild is fixed; it has no indicator", "indicator")
        try:
            wild = variant.wild.wild_kind(indicator)
        except ValueError:
            raise SituationError(f"{tile_name(indicator)} cannot be an indicator in this variant", "indicator") from None
    if variant.wild is not None and wild is None:
        if variant.wild.mode == "fixed":
            wild = variant.wild.fixed
        elif marked:
            raise SituationError("wild tiles are marked, but neither 'wild' nor 'indicator' says which kind is wild",
                                 "wild")
    if marked and variant.wild is None:
        raise SituationError(f"{tile_name(marked[0])}* is marked wild, but this variant has no wilds",
                             "concealed")
    for k in marked:
        if k != wild:
            raise SituationError(f"{tile_name(k)}* is marked wild, but the wild kind is {tile_name(wild)}",
                                 "concealed")
    s = _new_situation(
        seat, dealer, concealed, melds, win_tile, win_by, discarder, wild, indicator,
        flowers, _int(d, "wild_discards", 0, 0, 200) if check_all or "wild_discards" in d else 0,
        _int(d, "dealer_streak", 0, 0, 10_000) if check_all or "dealer_streak" in d else 0,
        _bool(d, "first_turn") if "first_turn" in d else False,
        _bool(d, "first_discard") if "first_discard" in d else False,
        _bool(d, "declared_ready") if "declared_ready" in d else False, dict(opts),
        _int(d, "winners", 1, 1, n - 1) if check_all or "winners" in d else 1,
        _bool(d, "dealer_won") if "dealer_won" in d else None)
    check_situation(variant, s, pre_draw=pre_draw)
    return s


class _Facts:
    """What check_situation asks of a variant, worked out once per variant (the IR is frozen)."""

    __slots__ = ("chi", "copies", "indicator_copy", "indicator_stays", "kongs", "no_calls", "options",
                 "playable", "rob_gold", "same", "scored", "sizes", "wild")

    def __init__(self, v: Variant):
        w, copies = v.wild, tuple(v.tiles.copies)
        self.playable = frozenset(v.tiles.playable)
        self.scored = frozenset(v.tiles.scored_flowers)
        self.copies = copies
        # the copies of each playable kind when all have as many, no scored flower is playable and each has a
        # copy; else None
        same = {copies[k] for k in self.playable}
        self.same = (same.pop() if len(same) == 1 and not self.playable & self.scored
                     and all(copies[k] >= 1 for k in self.scored) else None)
        self.sizes = (v.win_size, v.win_size - 1)
        self.chi = v.claims.chi_from != "none"
        self.kongs = bool(v.claims.kongs)
        self.wild = w is not None
        self.no_calls = w is not None and bool(w.no_calls)
        self.indicator_stays = w is not None and bool(w.indicator_stays)
        self.indicator_copy = w is not None and w.mode == "indicator"
        self.rob_gold = w is not None and v.rob_wild is not None
        self.options = {o.name: o.type for o in v.options}


_FACTS: dict[int, tuple[weakref.ref, _Facts]] = {}  # id(variant) -> (the variant, its facts)


def _facts(variant: Variant) -> _Facts:
    got = _FACTS.get(id(variant))
    if got is None or got[0]() is not variant:
        if len(_FACTS) >= 64:
            _FACTS.clear()
        got = _FACTS[id(variant)] = (weakref.ref(variant), _Facts(variant))
    return got[1]


def _plainly_legal(variant: Variant, s: Situation, pre_draw: bool) -> bool:
    """True only if check_situation would accept s: the same tests on plain values, without the messages.
    Anything it is unsure of (an odd type, a failed test) is left to check_situation's own path."""
    f = _facts(variant)
    concealed, melds, playable = s.concealed, s.melds, f.playable
    if len(concealed) + 3 * len(melds) != f.sizes[pre_draw] or not playable.issuperset(concealed):
        return False
    wild = s.wild
    held = [*concealed]
    for m in melds:
        ks = m.tiles
        if (not playable.issuperset(ks) or (m.kind == "chi" and not f.chi)
                or (m.kind == "kong" and not f.kongs) or (wild is not None and f.no_calls and wild in ks)):
            return False
        held += ks
    flowers = s.flowers
    if not f.scored.issuperset(flowers):
        return False
    if s.win_by != "rob_gold":  # the face-up indicator counts as a copy
        extra = s.indicator if s.indicator is not None and f.indicator_stays else \
            wild if wild is not None and f.indicator_copy else None
        if extra is not None:
            if extra not in playable:
                return False
            held.append(extra)
    if type(sum(held) + sum(flowers)) is not int:
        return False  # a kind that is not an int, which counts() refuses
    # copies: in sorted order, a kind held more than q times has equal tiles q places apart
    q = f.same
    if q is not None:
        held.sort()
        if any(map(eq, held, held[q:])):
            return False
        if len(set(flowers)) != len(flowers):  # a flower more than once: no kind beyond its copies
            copies = f.copies
            for k in set(flowers):
                if flowers.count(k) > copies[k]:
                    return False
    else:
        c = [0] * len(f.copies)
        for k in held:
            c[k] += 1
        for k in flowers:
            c[k] += 1
        if any(map(gt, c, f.copies)):
            return False
    if wild is not None and f.wild and wild not in playable:
        return False
    if s.win_tile is not None and not pre_draw and s.win_tile not in concealed:
        return False
    win_by, discarder = s.win_by, s.discarder
    if win_by in ("discard", "rob_kong"):
        if discarder < 0 or discarder == s.seat:
            return False
    elif discarder >= 0:
        return False
    if s.first_discard and (win_by != "discard" or discarder != s.dealer):
        return False
    if (win_by == "dealt" and melds) or (win_by == "rob_gold" and not f.rob_gold):
        return False
    types = f.options
    for k, v in s.options.items():
        t = types.get(k)
        if t == "bool":
            ok = isinstance(v, bool)
        elif t == "num":
            ok = isinstance(v, (int, float)) and not isinstance(v, bool)
        elif t == "str":
            ok = isinstance(v, str)
        else:
            return False
        if not ok:
            return False
    return True


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


def check_situation(variant: Variant, s: Situation, *, pre_draw: bool = False) -> None:
    """Refuse impossible situations with a message naming what is wrong."""
    try:
        legal = _plainly_legal(variant, s, pre_draw)
    except Exception:  # noqa: BLE001 - an odd value: the checks below say what is wrong with it
        legal = False
    if legal:
        return
    tiles = variant.tiles
    size = variant.win_size - (1 if pre_draw else 0)
    held = len(s.concealed) + 3 * len(s.melds)
    if held != size:
        what = "a pre-draw hand" if pre_draw else "a complete hand"
        raise SituationError(f"{len(s.concealed)} concealed tiles and {len(s.melds)} melds make {held} tiles; "
                             f"{what} in this variant has {size} (kongs count as 3)", "concealed")
    playable = set(tiles.playable)
    for k in s.concealed:
        if k not in playable:
            why = "a scored flower: it never stays in a hand" if k in tiles.scored_flowers else "not in this variant's tile set"
            raise SituationError(f"{tile_name(k)} is {why}", "concealed")
    for m in s.melds:
        for k in m.tiles:
            if k not in playable:
                raise SituationError(f"meld {m} uses {tile_name(k)}, which is not playable in this variant", "melds")
        if m.kind == "chi" and variant.claims.chi_from == "none":
            raise SituationError(f"meld {m} is a chi, but this variant has no chi", "melds")
        if m.kind == "kong" and not variant.claims.kongs:
            raise SituationError(f"meld {m} is a kong, but this variant has no kongs", "melds")
        if s.wild is not None and variant.wild is not None and variant.wild.no_calls and s.wild in m.tiles:
            raise SituationError(f"meld {m} uses the wild kind {tile_name(s.wild)}; wilds are never used in calls",
                                 "melds")
    for k in s.flowers:
        if k not in tiles.scored_flowers:
            raise SituationError(f"{tile_name(k)} is not a scored flower in this variant", "flowers")
    c = counts(_counted(variant, s))
    for k, n in enumerate(c):
        if n > tiles.copies[k]:
            where = " (the indicator is one of them)" if k in (s.indicator, s.wild) and variant.wild else ""
            raise SituationError(f"{n} copies of {tile_name(k)}{where}, but the variant has {tiles.copies[k]}",
                                 "concealed")
    if s.wild is not None and variant.wild is not None and s.wild not in playable:
        raise SituationError(f"{tile_name(s.wild)} cannot be the wild kind here", "wild")
    if s.win_tile is not None and not pre_draw and s.win_tile not in s.concealed:
        raise SituationError(f"the winning tile {tile_name(s.win_tile)} is not among the concealed tiles", "win_tile")
    if s.win_by in ("discard", "rob_kong"):
        if s.discarder < 0:
            raise SituationError(f"win_by {s.win_by} needs 'discarder'", "discarder")
        if s.discarder == s.seat:
            raise SituationError("a player cannot win on his own discard", "discarder")
    elif s.discarder >= 0:
        raise SituationError(f"'discarder' is only for discard and rob_kong wins, not {s.win_by}", "discarder")
    if s.first_discard and (s.win_by != "discard" or s.discarder != s.dealer):
        raise SituationError("'first_discard' means a win on the hand's first discard, which is the dealer's",
                             "first_discard")
    if s.win_by == "dealt" and s.melds:
        raise SituationError("a dealt hand has no melds", "melds")
    if s.win_by == "rob_gold" and (variant.wild is None or variant.rob_wild is None):
        raise SituationError("win_by rob_gold needs a variant whose wild indicator can be robbed", "win_by")
    names = {o.name: o for o in variant.options}
    for k, v in s.options.items():
        o = names.get(k)
        if o is None:
            from difflib import get_close_matches

            close = get_close_matches(k, list(names), 1)
            raise SituationError(f"unknown option '{k}'" + (f"; did you mean '{close[0]}'?" if close else ""), "options")
        ok = {"bool": isinstance(v, bool), "num": isinstance(v, (int, float)) and not isinstance(v, bool),
              "str": isinstance(v, str)}[o.type]
        if not ok:
            raise SituationError(f"option '{k}' takes a {o.type}, not {v!r}", "options")
