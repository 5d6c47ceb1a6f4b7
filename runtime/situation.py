"""Situations: a winning (or candidate) hand in context, parsed from a dict and checked against a variant."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from .compiler.ir import Variant
from .tiles import Meld, Tile, TileError, counts, parse_melds, parse_tile, parse_tiles, tile_name

WIN_BY = ("self_draw", "discard", "rob_kong", "kong_replacement", "rob_gold", "dealt")
KEYS = ("seat", "dealer", "concealed", "melds", "win_tile", "win_by", "discarder", "wild", "indicator", "flowers",
        "wild_discards", "dealer_streak", "first_turn", "first_discard", "declared_ready", "options", "winners",
        "dealer_won")


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
        return dataclasses.replace(self, **kw)

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


def _tiles(value: Any, key: str) -> list[Tile]:
    if isinstance(value, (list, tuple)):
        value = " ".join(str(v) for v in value)
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
    """Parse and check a situation dict (see the README) against a variant; raises SituationError.
    With pre_draw, the hand is one tile short of complete (for waits) and has no winning tile yet."""
    if isinstance(d, Situation):
        check_situation(variant, d, pre_draw=pre_draw)
        return d
    if not isinstance(d, dict):
        raise SituationError("a situation is a JSON object")
    unknown = sorted(set(d) - set(KEYS))
    if unknown:
        raise SituationError(f"unknown key(s): {', '.join(unknown)}; known: {', '.join(KEYS)}", unknown[0])
    n = variant.players
    seat = _int(d, "seat", 0, 0, n - 1)
    dealer = _int(d, "dealer", 0, 0, n - 1)
    win_by = d.get("win_by", "self_draw")
    if win_by not in WIN_BY:
        raise SituationError(f"'win_by' is {win_by!r}; one of: {', '.join(WIN_BY)}", "win_by")
    discarder = _int(d, "discarder", -1, -1, n - 1)
    concealed_t = _tiles(d.get("concealed", ""), "concealed")
    try:
        melds = tuple(parse_melds(" ".join(d.get("melds", [])) if isinstance(d.get("melds"), list) else d.get("melds", "")))
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
    flowers = tuple(t.kind for t in _tiles(d.get("flowers", ""), "flowers"))
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
        elif any(t.wild for t in concealed_t):
            raise SituationError("wild tiles are marked, but neither 'wild' nor 'indicator' says which kind is wild",
                                 "wild")
    marked = [t for t in concealed_t if t.wild]
    if marked and variant.wild is None:
        raise SituationError(f"{tile_name(marked[0].kind)}* is marked wild, but this variant has no wilds", "concealed")
    for t in marked:
        if t.kind != wild:
            raise SituationError(f"{tile_name(t.kind)}* is marked wild, but the wild kind is {tile_name(wild)}",
                                 "concealed")
    s = Situation(seat, dealer, tuple(t.kind for t in concealed_t), melds, win_tile, win_by, discarder, wild,
                  indicator, flowers, _int(d, "wild_discards", 0, 0, 200), _int(d, "dealer_streak", 0, 0, 10_000),
                  _bool(d, "first_turn"), _bool(d, "first_discard"), _bool(d, "declared_ready"), dict(opts),
                  _int(d, "winners", 1, 1, n - 1), _bool(d, "dealer_won") if "dealer_won" in d else None)
    check_situation(variant, s, pre_draw=pre_draw)
    return s


def check_situation(variant: Variant, s: Situation, *, pre_draw: bool = False) -> None:
    """Refuse impossible situations with a message naming what is wrong."""
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
    everything = list(s.concealed) + [k for m in s.melds for k in m.tiles] + list(s.flowers)
    if s.indicator is not None and variant.wild is not None and variant.wild.indicator_stays and s.win_by != "rob_gold":
        everything.append(s.indicator)
    elif s.wild is not None and variant.wild is not None and variant.wild.mode == "indicator" and s.win_by != "rob_gold":
        everything.append(s.wild)  # the face-up indicator is a copy of the gold kind
    c = counts(everything)
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
