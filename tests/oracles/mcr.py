"""国标麻将 (MCR) oracle: PyMahjongGB's fan calculator as the reference for the `guobiao` variant.

PyMahjongGB (`pip install PyMahjongGB`, module `MahjongGB`) wraps the C++ calculator of ChineseOfficialMahjong.
This module

* generates seeded MCR *winning* situations (`generate`), stratified so that every fan of the 81 (and the
  calculator's extra 明暗杠) appears many times in 100,000 cases: recipes build a hand around a target fan and
  fill the rest randomly within four copies of a kind, mixed with fully random winning hands;
* converts a case both ways: `Case.situation()` is OUR situation dict, `to_oracle(situation)` the calculator's
  keyword arguments;
* asks the calculator: `oracle_fans(case)` -> Counter {fan name: count}, `oracle_total(case)` -> fan total,
  `oracle_shanten(pack, hand)`, `oracle_waits(pack, hand)`.

Tiles. Ours are 1m-9m (characters), 1p-9p (dots), 1s-9s (bamboo), 1z-7z (東南西北中發白); the calculator's are
W1-W9 (characters), B1-B9 (dots), T1-T9 (bamboo), F1-F4 (East South West North), J1 J2 J3 (中 發 白). So
m = W, p = B, s = T (绿一色 is bamboo 2 3 4 6 8 and 發: our s and 6z, its T and J2).

Fan names. `oracle_fans` gives the names of the official rulebook (中国麻将竞赛规则); the calculator's own names
differ in three: its 独听・边张, 独听・嵌张 and 独听・单钓 are 边张, 坎张 (also called 嵌张) and 单钓将 here
(`NAME_FIX`). Besides the 81 fans, this build
of the calculator (SUPPORT_CONCEALED_KONG_AND_MELDED_KONG = 1) scores 明暗杠 (5 fan) for one concealed and one
melded kong instead of 暗杠 + 明杠 (2 + 1).

Win flags. The calculator silently corrects flags it finds impossible (calculate_fan in fan_calculator.cpp of
PyMahjongGB 1.4.0): it drops is4thTile when the standing tiles hold another copy of the winning tile, and sets
it when its melds hold three copies; it drops isAboutKong on a self-draw without a kong among the melds, and
on a discard when the winning tile appears anywhere else in the hand; 抢杠和 clears 和绝张. The generator only
makes flags the calculator keeps (so `last_of_kind` in our situation is what it scored), and never combines the
last wall tile with a kong (no kong is declared when the wall is empty).

Copies. PyMahjongGB 1.4.0 no longer checks four copies of a kind (ERROR_TILE_COUNT_GREATER_THAN_4 is never
raised): it scores a hand with a fifth copy (四归一 x 255 for five with a kong). The generator checks the copies
itself, and `oracle_waits` leaves out kinds the hand holds four of.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

try:
    from MahjongGB import (
        HonorsAndKnittedTilesShanten,
        KnittedStraightShanten,
        MahjongFanCalculator,
        MahjongShanten,
        RegularShanten,
        SevenPairsShanten,
        ThirteenOrphansShanten,
    )
    AVAILABLE = True
except ImportError:  # pragma: no cover - the tests importorskip MahjongGB before importing this module
    AVAILABLE = False
    MahjongFanCalculator = MahjongShanten = RegularShanten = SevenPairsShanten = None  # type: ignore
    ThirteenOrphansShanten = HonorsAndKnittedTilesShanten = KnittedStraightShanten = None  # type: ignore

__all__ = [
    "AVAILABLE",
    "FANS",
    "FAN_POINTS",
    "NAME_FIX",
    "ORACLE_CODES",
    "RECIPES",
    "TILE_NAMES",
    "Case",
    "generate",
    "histogram",
    "oracle_fans",
    "oracle_raw",
    "oracle_shanten",
    "oracle_shanten_parts",
    "oracle_total",
    "oracle_waits",
    "parse_tiles",
    "pre_draw_situation",
    "short_hands",
    "to_oracle",
    "useful_waits",
]

# ---- tiles -------------------------------------------------------------------------------------------------
TILE_NAMES: list[str] = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
ORACLE_CODES: list[str] = ([f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)]
                           + [f"T{r}" for r in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"])
KIND_OF_CODE: dict[str, int] = {c: k for k, c in enumerate(ORACLE_CODES)}
KIND_OF_NAME: dict[str, int] = {t: k for k, t in enumerate(TILE_NAMES)}
FLOWERS = tuple(f"f{i}" for i in range(1, 9))

# ---- fans --------------------------------------------------------------------------------------------------
# The 81 fans of MCR in the calculator's order (花牌 last), then its extra 明暗杠; with their points.
FANS: tuple[tuple[str, int], ...] = tuple(
    (name, pts) for pts, names in (
        (88, "大四喜 大三元 绿一色 九莲宝灯 四杠 连七对 十三幺"),
        (64, "清幺九 小四喜 小三元 字一色 四暗刻 一色双龙会"),
        (48, "一色四同顺 一色四节高"),
        (32, "一色四步高 三杠 混幺九"),
        (24, "七对 七星不靠 全双刻 清一色 一色三同顺 一色三节高 全大 全中 全小"),
        (16, "清龙 三色双龙会 一色三步高 全带五 三同刻 三暗刻"),
        (12, "全不靠 组合龙 大于五 小于五 三风刻"),
        (8, "花龙 推不倒 三色三同顺 三色三节高 无番和 妙手回春 海底捞月 杠上开花 抢杠和"),
        (6, "碰碰和 混一色 三色三步高 五门齐 全求人 双暗杠 双箭刻"),
        (4, "全带幺 不求人 双明杠 和绝张"),
        (2, "箭刻 圈风刻 门风刻 门前清 平和 四归一 双同刻 双暗刻 暗杠 断幺"),
        (1, "一般高 喜相逢 连六 老少副 幺九刻 明杠 缺一门 无字 边张 坎张 单钓将 自摸 花牌"),
        (5, "明暗杠"),
    ) for name in names.split())
FAN_POINTS: dict[str, int] = dict(FANS)
NAME_FIX: dict[str, str] = {"独听・边张": "边张", "独听・嵌张": "坎张", "独听・单钓": "单钓将"}


# ---- the case ----------------------------------------------------------------------------------------------
@dataclass(slots=True)
class Case:
    """One MCR winning situation, held as MahjongFanCalculator's arguments (tiles in its codes).

    pack: fixed packs ("CHI"/"PENG"/"GANG", tile, offer): a CHI names its MIDDLE tile, offer 1..3 is who (or which
    tile) was claimed, a GANG with offer 0 is a concealed kong. hand: the standing tiles WITHOUT the winning tile.
    `discarder` is the seat that discarded (or whose kong was robbed), -1 on a self-draw; `flowers` the flower
    tiles (flower_count of them); `recipe` the generator's recipe that made the case (for reports)."""

    pack: tuple[tuple[str, str, int], ...]
    hand: tuple[str, ...]
    win_tile: str
    flower_count: int = 0
    self_drawn: bool = False
    fourth_tile: bool = False
    about_kong: bool = False
    wall_last: bool = False
    seat_wind: int = 0
    prevalent_wind: int = 0
    discarder: int = -1
    flowers: tuple[str, ...] = ()
    recipe: str = ""
    raw: tuple = field(default=(), repr=False, compare=False)   # the calculator's answer, when generate had it

    def args(self, verbose: bool = True) -> tuple:
        """MahjongFanCalculator's positional arguments (the fastest call)."""
        return (self.pack, self.hand, self.win_tile, self.flower_count, self.self_drawn, self.fourth_tile,
                self.about_kong, self.wall_last, self.seat_wind, self.prevalent_wind, verbose)

    def kwargs(self, verbose: bool = True) -> dict[str, Any]:
        """MahjongFanCalculator's keyword arguments."""
        return {"pack": self.pack, "hand": self.hand, "winTile": self.win_tile, "flowerCount": self.flower_count,
                "isSelfDrawn": self.self_drawn, "is4thTile": self.fourth_tile, "isAboutKong": self.about_kong,
                "isWallLast": self.wall_last, "seatWind": self.seat_wind, "prevalentWind": self.prevalent_wind,
                "verbose": verbose}

    @property
    def win_by(self) -> str:
        """Our win_by: self_draw, discard, kong_replacement (a self-drawn isAboutKong), rob_kong (a discard one)."""
        if self.self_drawn:
            return "kong_replacement" if self.about_kong else "self_draw"
        return "rob_kong" if self.about_kong else "discard"

    def melds(self) -> list[str]:
        """Our meld notation of the packs: [555p] pung, [5555s] exposed kong, [345s] chi, {1111m} concealed kong."""
        out = []
        for kind, code, offer in self.pack:
            k = KIND_OF_CODE[code]
            if kind == "CHI":
                out.append(f"[{_ranks((k - 1, k, k + 1))}]")
            elif kind == "PENG":
                out.append(f"[{_ranks((k, k, k))}]")
            elif offer == 0:
                out.append(f"{{{_ranks((k, k, k, k))}}}")
            else:
                out.append(f"[{_ranks((k, k, k, k))}]")
        return out

    def concealed(self) -> str:
        """Our concealed tiles, the winning tile included, sorted: "123m456p55z"."""
        return _tiles_str(sorted([KIND_OF_CODE[c] for c in self.hand] + [KIND_OF_CODE[self.win_tile]]))

    def situation(self) -> dict[str, Any]:
        """Our situation dict for this case (seat = seat wind, the dealer at 0; min_fan 0 so every hand scores)."""
        seat = self.seat_wind
        d: dict[str, Any] = {
            "concealed": self.concealed(),
            "melds": self.melds(),
            "win_tile": TILE_NAMES[KIND_OF_CODE[self.win_tile]],
            "win_by": self.win_by,
            "seat": seat,
            "dealer": 0,
            "flowers": list(self.flowers) if len(self.flowers) == self.flower_count
            else list(FLOWERS[:self.flower_count]),
            "last_tile": self.wall_last,
            "prevalent_wind": self.prevalent_wind,
            "last_of_kind": self.fourth_tile,
            "options": {"min_fan": 0},
        }
        if not self.self_drawn:
            d["discarder"] = self.discarder if self.discarder >= 0 and self.discarder != seat else (seat + 1) % 4
        return d

    def key(self) -> str:
        """A canonical one-line key of the case (the KNOWN table of the differential test is keyed by it):
        concealed | melds | win tile | win_by | seat, prevalent wind, flowers | last_of_kind, last_tile."""
        flags = [f for f, on in (("last_of_kind", self.fourth_tile), ("last_tile", self.wall_last)) if on]
        return (f"{self.concealed()} | {' '.join(sorted(self.melds())) or '-'} | {TILE_NAMES[KIND_OF_CODE[self.win_tile]]}"
                f" | {self.win_by} | seat={self.seat_wind} prevalent={self.prevalent_wind} flowers={self.flower_count}"
                f" | {' '.join(flags) or '-'}")


def _ranks(kinds: tuple[int, ...]) -> str:
    """Tiles of one suit (or honours) as "345s"."""
    return "".join(str(k % 9 + 1) for k in kinds) + "mpsz"[kinds[0] // 9]


def _tiles_str(kinds: list[int]) -> str:
    """Sorted kinds in our notation, grouped by suit: "123m456p55z"."""
    out = []
    for s in range(4):
        ranks = "".join(str(k - 9 * s + 1) for k in kinds if k // 9 == s)
        if ranks:
            out.append(ranks + "mpsz"[s])
    return "".join(out)


# ---- the calculator ----------------------------------------------------------------------------------------
def oracle_raw(case: Case) -> tuple:
    """MahjongFanCalculator's verbose answer for the case: ((points, count, name, english), ...); raises
    TypeError("ERROR_NOT_WIN") and the like for a hand it does not accept."""
    return MahjongFanCalculator(*case.args())


def _fans_of(raw: tuple) -> Counter:
    out: Counter = Counter()
    for _pts, cnt, name, _en in raw:
        out[NAME_FIX.get(name, name)] += cnt
    return out


def oracle_fans(case: Case) -> Counter:
    """{fan name: count} (the count, not the points) the calculator gives the case, 花牌 included when the case
    has flowers; standard names (NAME_FIX)."""
    return _fans_of(MahjongFanCalculator(*case.args()))


def oracle_total(case: Case) -> int:
    """The case's fan total by the calculator: the sum of points x count (flowers included)."""
    return sum(p * c for p, c, _n, _e in MahjongFanCalculator(*case.args()))


def oracle_shanten(pack: tuple, hand: tuple) -> int:
    """MahjongShanten (the least over 十三幺, 七对, 全不靠, 组合龙 and the regular shape) of standing tiles `hand`
    (13 - 3 x packs of them, in the calculator's codes) beside `pack`: 0 is ready, n is n tiles from ready."""
    return MahjongShanten(pack=tuple(pack), hand=tuple(hand))


def oracle_shanten_parts(hand: tuple) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Each shape's (shanten, useful tiles) of standing tiles `hand` (the special shapes only for 13 tiles):
    regular, seven_pairs, thirteen_orphans, honors_knitted, knitted_straight (those not defined are left out)."""
    out = {}
    fns = (("regular", RegularShanten), ("seven_pairs", SevenPairsShanten), ("thirteen_orphans", ThirteenOrphansShanten),
           ("honors_knitted", HonorsAndKnittedTilesShanten), ("knitted_straight", KnittedStraightShanten))
    for name, fn in fns:
        try:
            out[name] = fn(hand=tuple(hand))
        except TypeError:
            pass
    return out


def oracle_waits(pack: tuple, hand: tuple) -> list[str]:
    """The kinds (our names, in our order) that complete standing tiles `hand` beside `pack` into a hand the
    calculator accepts (any shape it scores). A kind the hand holds four of is no wait: the calculator itself
    would accept a fifth copy (PyMahjongGB 1.4.0 no longer checks the copies)."""
    out = []
    pack, hand = tuple(pack), tuple(hand)
    held = Counter(KIND_OF_CODE[c] for c in hand)
    for kind, code, _offer in pack:
        k = KIND_OF_CODE[code]
        if kind == "CHI":
            held.update((k - 1, k, k + 1))
        else:
            held[k] += 3 if kind == "PENG" else 4
    for k, code in enumerate(ORACLE_CODES):
        if held[k] >= 4:            # the calculator would score a fifth copy: it does not check
            continue
        try:
            MahjongFanCalculator(pack, hand, code, 0, True, False, False, False, 0, 0)
        except TypeError:
            continue
        out.append(TILE_NAMES[k])
    return out


# ---- our situation -> the calculator's arguments -----------------------------------------------------------
_TOKEN = re.compile(r"\s*(\d+)([mpsz])|\s*(f[1-8])")


def parse_tiles(text: str) -> list[int]:
    """Our tile notation ("123m456p55z", flowers not allowed) -> kinds."""
    out: list[int] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.group(3):
            raise ValueError(f"bad tiles {text!r} at {pos}")
        base = "mpsz".index(m.group(2)) * 9
        out += [base + int(d) - 1 for d in m.group(1)]
        pos = m.end()
    return out


def _pack_of(meld: str) -> tuple[str, str, int]:
    """One meld of ours -> a fixed pack of the calculator."""
    meld = meld.strip()
    concealed = meld.startswith("{")
    ks = parse_tiles(meld[1:-1])
    if len(ks) == 4:
        return ("GANG", ORACLE_CODES[ks[0]], 0 if concealed else 1)
    if ks[0] == ks[1]:
        return ("PENG", ORACLE_CODES[ks[0]], 1)
    ks.sort()
    return ("CHI", ORACLE_CODES[ks[1]], 1)


def to_oracle(situation: dict[str, Any]) -> dict[str, Any]:
    """Our situation dict -> MahjongFanCalculator's keyword arguments (verbose). Without a `win_tile` (a hand one
    tile short, as for waits or distance) `hand` holds all the concealed tiles and `winTile` is None: pass
    `pack` and `hand` to oracle_shanten / oracle_waits."""
    concealed = parse_tiles(situation["concealed"])
    win = situation.get("win_tile")
    win_k = None
    if win is not None:
        win_k = parse_tiles(win)[0]
        concealed.remove(win_k)
    pack = tuple(_pack_of(m) for m in situation.get("melds") or ())
    win_by = situation.get("win_by", "self_draw")
    flowers = situation.get("flowers") or ()
    if isinstance(flowers, str):
        flowers = re.findall(r"f[1-8]|\d+[mpsz]", flowers)
    seat, dealer = situation.get("seat", 0), situation.get("dealer", 0)
    return {"pack": pack, "hand": tuple(ORACLE_CODES[k] for k in sorted(concealed)),
            "winTile": ORACLE_CODES[win_k] if win_k is not None else None,
            "flowerCount": len(flowers), "isSelfDrawn": win_by in ("self_draw", "kong_replacement"),
            "is4thTile": bool(situation.get("last_of_kind", False)),
            "isAboutKong": win_by in ("kong_replacement", "rob_kong"),
            "isWallLast": bool(situation.get("last_tile", False)),
            "seatWind": (seat - dealer) % 4, "prevalentWind": situation.get("prevalent_wind", 0), "verbose": True}


# ---- the generator -----------------------------------------------------------------------------------------
# Set types of a build: C chow (by its lowest kind), P pung, c / p the same forced concealed (never melded),
# K exposed kong, A concealed kong, X a kong either way.
_SUITED = range(27)
_CHOW_STARTS = [s * 9 + r for s in range(3) for r in range(7)]


def _theme(tile_ok: Any, chows: bool = True, pungs: bool = True) -> tuple[list[int], list[int]]:
    """(chow starts, pung kinds) whose tiles all pass tile_ok; also the theme's pair kinds = its pung kinds."""
    cs = [k for k in _CHOW_STARTS if tile_ok(k) and tile_ok(k + 1) and tile_ok(k + 2)] if chows else []
    ps = [k for k in range(34) if tile_ok(k)] if pungs else []
    return cs, ps


def _rank(k: int) -> int:
    return k % 9 + 1 if k < 27 else 0


_GREEN = {19, 20, 21, 23, 25, 32}                           # 2 3 4 6 8 s and 發
_REVERSIBLE = {9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33}   # 1234589p 245689s 白
THEMES: dict[str, tuple[list[int], list[int]]] = {
    "any": _theme(lambda k: True),
    "m": _theme(lambda k: k // 9 == 0), "p": _theme(lambda k: k // 9 == 1), "s": _theme(lambda k: k // 9 == 2),
    "mz": _theme(lambda k: k // 9 in (0, 3)), "pz": _theme(lambda k: k // 9 in (1, 3)),
    "sz": _theme(lambda k: k // 9 in (2, 3)),
    "-m": _theme(lambda k: k // 9 != 0), "-p": _theme(lambda k: k // 9 != 1), "-s": _theme(lambda k: k // 9 != 2),
    "upper": _theme(lambda k: _rank(k) >= 7), "middle": _theme(lambda k: 4 <= _rank(k) <= 6),
    "lower": _theme(lambda k: 1 <= _rank(k) <= 3), "upper4": _theme(lambda k: _rank(k) >= 6),
    "lower4": _theme(lambda k: 1 <= _rank(k) <= 4), "simple": _theme(lambda k: 2 <= _rank(k) <= 8),
    "green": _theme(lambda k: k in _GREEN), "reversible": _theme(lambda k: k in _REVERSIBLE),
    "even": _theme(lambda k: _rank(k) in (2, 4, 6, 8), chows=False),
    "terminal": _theme(lambda k: _rank(k) in (1, 9), chows=False),
    "term_honor": _theme(lambda k: k >= 27 or _rank(k) in (1, 9), chows=False),
    "honor": _theme(lambda k: k >= 27, chows=False),
    "no_honor": _theme(lambda k: k < 27),
    "pungs": _theme(lambda k: True, chows=False),
    "chows": (list(_CHOW_STARTS), list(range(27))),
    "winds": _theme(lambda k: 27 <= k <= 30, chows=False),
    "dragons": _theme(lambda k: k >= 31, chows=False),
    "not_winds": _theme(lambda k: not 27 <= k <= 30),
    "not_dragons": _theme(lambda k: k < 31),
    "outside": ([k for k in _CHOW_STARTS if k % 9 in (0, 6)], [k for k in range(34) if k >= 27 or k % 9 in (0, 8)]),
    "five": ([k for k in _CHOW_STARTS if k % 9 in (2, 3, 4)], [4, 13, 22]),
}
_KNITTED = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]   # suit of 147, of 258, of 369


class _Build:
    """A hand being built: its sets, pair or special tiles, the copies used, and what the recipe asks of the
    finishing (exposure, win tile, flags)."""

    __slots__ = (
        "about_kong",
        "cnt",
        "fourth",
        "meld",
        "ok",
        "open",
        "pair",
        "prevalent",
        "rng",
        "seat",
        "self_drawn",
        "sets",
        "special",
        "target",
        "tries",
        "wall_last",
        "win",
    )

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.cnt = [0] * 34
        self.sets: list[tuple[str, int]] = []
        self.pair = -1
        self.special: list[int] | None = None   # 14 concealed tiles of a special shape (or 11 beside `meld`)
        self.meld: tuple[str, int] | None = None
        self.open: float | None = None        # chance that a free chow or pung is melded (None: drawn per case)
        self.win = "any"                      # any, pair, free (not from a c/p set), rob (a tile held once), ext
        self.self_drawn: bool | None = None
        self.about_kong: bool | None = None
        self.wall_last: bool | None = None
        self.fourth: bool | None = None
        self.seat: int | None = None
        self.prevalent: int | None = None
        self.target = ""
        self.tries = 4
        self.ok = True

    # adding groups; each returns self, and clears ok when four copies would be exceeded
    def add(self, t: str, k: int) -> _Build:
        cnt = self.cnt
        if t in "Cc":
            if k >= 27 or k % 9 > 6 or cnt[k] > 3 or cnt[k + 1] > 3 or cnt[k + 2] > 3:
                self.ok = False
                return self
            cnt[k] += 1
            cnt[k + 1] += 1
            cnt[k + 2] += 1
        else:
            n = 3 if t in "Pp" else 4
            if cnt[k] + n > 4:
                self.ok = False
                return self
            cnt[k] += n
        self.sets.append((t, k))
        return self

    def set_pair(self, k: int) -> _Build:
        if self.cnt[k] > 2:
            self.ok = False
        else:
            self.cnt[k] += 2
            self.pair = k
        return self

    def fill(self, n: int, theme: str = "any", p_chow: float = 0.6, t_pung: str = "P", t_chow: str = "C") -> _Build:
        """n more random sets of the theme (chows with chance p_chow where it has both)."""
        chows, pungs = THEMES[theme]
        rng, cnt = self.rng, self.cnt
        for _ in range(n):
            for _attempt in range(16):
                if chows and (not pungs or rng.random() < p_chow):
                    k = chows[int(rng.random() * len(chows))]
                    if cnt[k] < 4 and cnt[k + 1] < 4 and cnt[k + 2] < 4:
                        cnt[k] += 1
                        cnt[k + 1] += 1
                        cnt[k + 2] += 1
                        self.sets.append((t_chow, k))
                        break
                else:
                    k = pungs[int(rng.random() * len(pungs))]
                    n = 3 if t_pung in "Pp" else 4
                    if cnt[k] + n <= 4:
                        cnt[k] += n
                        self.sets.append((t_pung, k))
                        break
            else:
                self.ok = False
                return self
        return self

    def fill_pair(self, theme: str = "any", kinds: list[int] | None = None) -> _Build:
        ks = kinds if kinds is not None else THEMES[theme][1]
        rng, cnt = self.rng, self.cnt
        for _attempt in range(16):
            k = ks[int(rng.random() * len(ks))]
            if cnt[k] <= 2:
                cnt[k] += 2
                self.pair = k
                return self
        self.ok = False
        return self


# ---- recipes: each builds around its target fan ------------------------------------------------------------
def _suit(rng: random.Random) -> int:
    return int(rng.random() * 3)


def _r_random(b: _Build) -> None:
    rng = b.rng
    if rng.random() < 0.1:
        _seven_pairs(b, "any")
        return
    b.fill(4, "any", p_chow=rng.choice((0.4, 0.6, 0.8))).fill_pair()


def _seven_pairs(b: _Build, theme: str, hog: float = 0.15) -> None:
    rng = b.rng
    kinds = THEMES[theme][1]
    picks: list[int] = []
    while len(picks) < 7:
        k = kinds[int(rng.random() * len(kinds))]
        if picks.count(k) == 0 or (picks.count(k) == 1 and rng.random() < hog):
            picks.append(k)
    b.special = sorted(picks + picks)
    for k in b.special:
        b.cnt[k] += 1


def _themed(theme: str, chows: float = 0.6, pairs: float = 0.12) -> Any:
    """A recipe of four sets and a pair (or seven pairs, now and then) all in a theme."""
    def r(b: _Build) -> None:
        th = theme if theme not in ("flush", "half", "void") else (
            "mps"[_suit(b.rng)] + ("z" if theme == "half" else "") if theme != "void" else "-" + "mps"[_suit(b.rng)])
        if pairs and b.rng.random() < pairs and len(THEMES[th][1]) >= 7:
            _seven_pairs(b, th)
            return
        b.fill(4, th, p_chow=chows).fill_pair(th)
    return r


def _r_big_four_winds(b: _Build) -> None:
    for k in (27, 28, 29, 30):
        b.add(b.rng.choice("PPpX"), k)
    b.fill_pair()


def _r_big_three_dragons(b: _Build) -> None:
    for k in (31, 32, 33):
        b.add(b.rng.choice("PPpX"), k)
    b.fill(1).fill_pair()


def _r_little_four_winds(b: _Build) -> None:
    ws = [27, 28, 29, 30]
    b.rng.shuffle(ws)
    for k in ws[:3]:
        b.add("P", k)
    b.set_pair(ws[3]).fill(1)


def _r_little_three_dragons(b: _Build) -> None:
    ds = [31, 32, 33]
    b.rng.shuffle(ds)
    b.add("P", ds[0]).add("P", ds[1]).set_pair(ds[2]).fill(2)


def _r_big_three_winds(b: _Build) -> None:
    ws = [27, 28, 29, 30]
    b.rng.shuffle(ws)
    for k in ws[:3]:
        b.add("P", k)
    b.fill(1, "not_winds").fill_pair("not_winds")


def _r_two_dragons(b: _Build) -> None:
    ds = [31, 32, 33]
    b.rng.shuffle(ds)
    b.add("P", ds[0]).add("P", ds[1]).fill(2, "not_dragons").fill_pair("not_dragons")


def _r_dragon_pung(b: _Build) -> None:
    b.add(b.rng.choice("PPX"), 31 + int(b.rng.random() * 3)).fill(3, "not_dragons").fill_pair("not_dragons")


def _r_wind_pung(which: str) -> Any:
    def r(b: _Build) -> None:
        w = int(b.rng.random() * 4)
        b.add(b.rng.choice("PPpX"), 27 + w).fill(3).fill_pair()
        if which == "seat":
            b.seat = w
        else:
            b.prevalent = w
    return r


def _r_nine_gates(b: _Build) -> None:
    rng = b.rng
    base = _suit(rng) * 9
    tiles = [base] * 3 + [base + r for r in range(1, 8)] + [base + 8] * 3
    extra = base + int(rng.random() * 9)
    b.special = tiles + [extra]
    for k in b.special:
        b.cnt[k] += 1
    b.win = "ext" if rng.random() < 0.85 else "any"


def _r_seven_shifted_pairs(b: _Build) -> None:
    start = _suit(b.rng) * 9 + int(b.rng.random() * 3)
    b.special = [start + i for i in range(7) for _ in (0, 1)]
    for k in b.special:
        b.cnt[k] += 1


def _r_thirteen_orphans(b: _Build) -> None:
    orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    b.special = orphans + [orphans[int(b.rng.random() * 13)]]
    for k in b.special:
        b.cnt[k] += 1


def _knitted(rng: random.Random) -> list[int]:
    """The nine tiles of a knitted straight: 147 in one suit, 258 in another, 369 in the third."""
    order = _KNITTED[int(rng.random() * 6)]
    return [order[i] * 9 + i + 3 * j for i in range(3) for j in range(3)]


def _r_honors_knitted(greater: bool) -> Any:
    def r(b: _Build) -> None:
        rng = b.rng
        knit = _knitted(rng)
        honours = list(range(27, 34))
        if greater:
            tiles = honours + rng.sample(knit, 7)
        else:
            n_h = rng.choice((5, 5, 6, 6, 6))   # 7 honours make 七星不靠
            tiles = rng.sample(honours, n_h) + rng.sample(knit, 14 - n_h)
        b.special = sorted(tiles)
        for k in tiles:
            b.cnt[k] += 1
    return r


def _r_knitted_straight(b: _Build) -> None:
    rng = b.rng
    knit = _knitted(rng)
    for k in knit:
        b.cnt[k] += 1
    b.fill(1).fill_pair()
    if not b.ok:
        return
    t, k = b.sets.pop()
    b.sets = []
    if rng.random() < 0.3:              # the fourth set claimed (组合龙 allows one meld), a pung now and then a kong
        b.meld = (t.upper(), k)
        if t == "P" and rng.random() < 0.3 and b.cnt[k] < 4:
            b.cnt[k] += 1
            b.meld = ("K", k)
        b.special = knit + [b.pair, b.pair]
    else:
        b.special = knit + [b.pair, b.pair] + ([k, k + 1, k + 2] if t == "C" else [k, k, k])


def _r_kongs(n: int, types: str = "X") -> Any:
    def r(b: _Build) -> None:
        for i in range(n):
            b.add(types[i % len(types)], int(b.rng.random() * 34))
        b.fill(4 - n).fill_pair()
    return r


def _r_concealed_pungs(n: int) -> Any:
    def r(b: _Build) -> None:
        rng = b.rng
        for _ in range(n):
            b.fill(1, "pungs", t_pung="A" if rng.random() < 0.15 else "p")
        b.fill(4 - n, p_chow=0.7).fill_pair()
        b.win = "free"
        if n == 4 and rng.random() < 0.5:
            b.self_drawn = True
    return r


def _r_pure_terminal_chows(b: _Build) -> None:
    base = _suit(b.rng) * 9
    b.add("C", base).add("C", base).add("C", base + 6).add("C", base + 6).set_pair(base + 4)


def _r_three_suited_terminal_chows(b: _Build) -> None:
    s = [0, 1, 2]
    b.rng.shuffle(s)
    b.add("C", s[0] * 9).add("C", s[0] * 9 + 6).add("C", s[1] * 9).add("C", s[1] * 9 + 6).set_pair(s[2] * 9 + 4)


def _r_same_chows(n: int) -> Any:
    def r(b: _Build) -> None:
        k = _CHOW_STARTS[int(b.rng.random() * 21)]
        for _ in range(n):
            b.add("C", k)
        b.fill(4 - n).fill_pair()
    return r


def _r_shifted_pungs(n: int) -> Any:
    def r(b: _Build) -> None:
        k = _suit(b.rng) * 9 + int(b.rng.random() * (10 - n))
        for i in range(n):
            b.add(b.rng.choice("PPX"), k + i)
        b.fill(4 - n).fill_pair()
    return r


def _r_shifted_chows(n: int) -> Any:
    def r(b: _Build) -> None:
        rng = b.rng
        step = 1 if rng.random() < 0.6 else 2
        top = 7 - step * (n - 1)
        k = _suit(rng) * 9 + int(rng.random() * top)
        for i in range(n):
            b.add("C", k + step * i)
        b.fill(4 - n).fill_pair()
    return r


def _r_pure_straight(b: _Build) -> None:
    base = _suit(b.rng) * 9
    b.add("C", base).add("C", base + 3).add("C", base + 6).fill(1).fill_pair()


def _r_mixed_straight(b: _Build) -> None:
    s = [0, 1, 2]
    b.rng.shuffle(s)
    b.add("C", s[0] * 9).add("C", s[1] * 9 + 3).add("C", s[2] * 9 + 6).fill(1).fill_pair()


def _r_mixed_triple_chow(b: _Build) -> None:
    r = int(b.rng.random() * 7)
    b.add("C", r).add("C", 9 + r).add("C", 18 + r).fill(1).fill_pair()


def _r_mixed_shifted(kind: str) -> Any:
    def r(b: _Build) -> None:
        s = [0, 1, 2]
        b.rng.shuffle(s)
        if kind == "chow":
            r0 = int(b.rng.random() * 5)
            for i in range(3):
                b.add("C", s[i] * 9 + r0 + i)
        else:
            r0 = int(b.rng.random() * 7)
            for i in range(3):
                b.add(b.rng.choice("PPp"), s[i] * 9 + r0 + i)
        b.fill(1).fill_pair()
    return r


def _r_triple_pung(n: int) -> Any:
    def r(b: _Build) -> None:
        rank = int(b.rng.random() * 9)
        suits = b.rng.sample((0, 1, 2), n)
        for s in suits:
            b.add(b.rng.choice("PPpX"), s * 9 + rank)
        b.fill(4 - n).fill_pair()
    return r


def _r_all_pungs(b: _Build) -> None:
    b.fill(4, "pungs").fill_pair()


def _r_all_chows(b: _Build) -> None:
    b.fill(4, "chows", p_chow=1.0).fill_pair("no_honor")


def _r_all_types(b: _Build) -> None:
    rng = b.rng
    parts = [("C" if rng.random() < 0.7 else "P", s * 9 + int(rng.random() * 7)) for s in range(3)]
    wind, dragon = 27 + int(rng.random() * 4), 31 + int(rng.random() * 3)
    if rng.random() < 0.5:
        parts.append(("P", wind))
        b.set_pair(dragon)
    else:
        parts.append(("P", dragon))
        b.set_pair(wind)
    for t, k in parts:
        b.add(t, k)


def _r_tile_hog(b: _Build) -> None:
    """四归一: four copies of a kind without a kong (a pung and a chow, or a pair and two chows)."""
    rng = b.rng
    k = int(rng.random() * 27)
    starts = [k - d for d in (0, 1, 2) if 0 <= k % 9 - d <= 6]
    if rng.random() < 0.5:
        b.add("P", k).add("C", rng.choice(starts))
    else:
        b.set_pair(k).add("C", rng.choice(starts)).add("C", rng.choice(starts))
    b.fill(4 - len(b.sets))
    if b.pair < 0:
        b.fill_pair()


def _r_melded_hand(b: _Build) -> None:
    b.fill(4, p_chow=0.5).fill_pair()
    b.open, b.win, b.self_drawn = 1.0, "pair", False


def _r_concealed(self_drawn: bool) -> Any:
    def r(b: _Build) -> None:
        b.fill(4, p_chow=0.7).fill_pair()
        b.open, b.self_drawn = 0.0, self_drawn
    return r


def _r_flag(**flags: Any) -> Any:
    def r(b: _Build) -> None:
        rng = b.rng
        kong = flags.get("kong")
        if kong:
            b.add("X", int(rng.random() * 34)).fill(3)
        else:
            b.fill(4)
        b.fill_pair()
        for name, value in flags.items():
            if name != "kong":
                setattr(b, name, value)
    return r


def _r_chicken(b: _Build) -> None:
    """无番和: all three suits and an honour pair, mixed sets, a meld, a discard; tried until it holds."""
    rng = b.rng
    s = [0, 1, 2, int(rng.random() * 3)]
    rng.shuffle(s)
    for suit in s:
        if rng.random() < 0.65:
            b.add("C", suit * 9 + int(rng.random() * 7))
        else:
            b.add("P", suit * 9 + 1 + int(rng.random() * 7))
    b.set_pair(27 + int(rng.random() * 7))
    b.self_drawn, b.open, b.tries = False, 0.6, 30


# (target fan, weight, recipe); the random recipe is the bulk
RECIPES: list[tuple[str, float, Any]] = [
    ("", 30.0, _r_random),
    ("大四喜", 1, _r_big_four_winds), ("大三元", 1, _r_big_three_dragons), ("绿一色", 1, _themed("green", 0.3)),
    ("九莲宝灯", 1, _r_nine_gates), ("四杠", 1, _r_kongs(4)), ("连七对", 1, _r_seven_shifted_pairs),
    ("十三幺", 1, _r_thirteen_orphans),
    ("清幺九", 1, _themed("terminal")), ("小四喜", 1, _r_little_four_winds), ("小三元", 1, _r_little_three_dragons),
    ("字一色", 1, _themed("honor", pairs=0.2)), ("四暗刻", 1, _r_concealed_pungs(4)),
    ("一色双龙会", 1, _r_pure_terminal_chows),
    ("一色四同顺", 1, _r_same_chows(4)), ("一色四节高", 1, _r_shifted_pungs(4)),
    ("一色四步高", 1, _r_shifted_chows(4)), ("三杠", 1, _r_kongs(3)), ("混幺九", 1, _themed("term_honor", pairs=0.2)),
    ("七对", 1, lambda b: _seven_pairs(b, "any")), ("七星不靠", 1, _r_honors_knitted(True)),
    ("全双刻", 1, _themed("even")), ("清一色", 1.5, _themed("flush")), ("一色三同顺", 1, _r_same_chows(3)),
    ("一色三节高", 1, _r_shifted_pungs(3)), ("全大", 1, _themed("upper", 0.4)), ("全中", 1, _themed("middle", 0.4)),
    ("全小", 1, _themed("lower", 0.4)),
    ("清龙", 1, _r_pure_straight), ("三色双龙会", 1, _r_three_suited_terminal_chows),
    ("一色三步高", 1, _r_shifted_chows(3)), ("全带五", 1, _themed("five", 0.7)), ("三同刻", 1, _r_triple_pung(3)),
    ("三暗刻", 1, _r_concealed_pungs(3)),
    ("全不靠", 1, _r_honors_knitted(False)), ("组合龙", 1.5, _r_knitted_straight), ("大于五", 1, _themed("upper4")),
    ("小于五", 1, _themed("lower4")), ("三风刻", 1, _r_big_three_winds),
    ("花龙", 1, _r_mixed_straight), ("推不倒", 1, _themed("reversible", 0.4)), ("三色三同顺", 1, _r_mixed_triple_chow),
    ("三色三节高", 1, _r_mixed_shifted("pung")), ("无番和", 1.5, _r_chicken),
    ("妙手回春", 0.5, _r_flag(self_drawn=True, wall_last=True)),
    ("海底捞月", 0.5, _r_flag(self_drawn=False, wall_last=True)),
    ("杠上开花", 1, _r_flag(kong=True, self_drawn=True, about_kong=True)),
    ("抢杠和", 1, _r_flag(self_drawn=False, about_kong=True, win="rob")),
    ("碰碰和", 1, _r_all_pungs), ("混一色", 1, _themed("half")), ("三色三步高", 1, _r_mixed_shifted("chow")),
    ("五门齐", 1, _r_all_types), ("全求人", 1, _r_melded_hand), ("双暗杠", 1, _r_kongs(2, "A")),
    ("双箭刻", 1, _r_two_dragons),
    ("全带幺", 1, _themed("outside", 0.6)), ("不求人", 1, _r_concealed(True)), ("双明杠", 1, _r_kongs(2, "K")),
    ("和绝张", 1, _r_flag(fourth=True)),
    ("箭刻", 0.5, _r_dragon_pung), ("圈风刻", 0.5, _r_wind_pung("prevalent")), ("门风刻", 0.5, _r_wind_pung("seat")),
    ("门前清", 0.5, _r_concealed(False)), ("平和", 0.5, _r_all_chows), ("四归一", 1, _r_tile_hog),
    ("双同刻", 0.5, _r_triple_pung(2)), ("双暗刻", 0.5, _r_concealed_pungs(2)), ("暗杠", 0.5, _r_kongs(1, "A")),
    ("断幺", 0.5, _themed("simple")),
    ("明杠", 0.5, _r_kongs(1, "K")), ("缺一门", 0.5, _themed("void")), ("无字", 0.3, _themed("no_honor")),
    ("明暗杠", 0.5, _r_kongs(2, "AK")),
]


def _cumulative() -> tuple[list[float], float]:
    acc, out = 0.0, []
    for _t, w, _r in RECIPES:
        acc += w
        out.append(acc)
    return out, acc


_CUM, _TOTAL = _cumulative()


def _pick_recipe(rng: random.Random) -> int:
    x = rng.random() * _TOTAL
    lo, hi = 0, len(_CUM) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if _CUM[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return lo


_OFFER = (1, 2, 3)


def _finish(b: _Build, name: str) -> Case | None:
    """Turn a build into a case: which sets are melded, the winning tile, the flags, the winds, the flowers."""
    rng = b.rng
    cnt = b.cnt
    pack: list[tuple[str, str, int]] = []
    standing: list[int] = []
    free: list[int] = []               # tiles the winning tile may be, for win = "free"
    has_kong = False
    codes = ORACLE_CODES
    if b.special is not None:
        standing = list(b.special)
        if b.meld is not None:
            t, k = b.meld
            if t == "C":
                pack.append(("CHI", codes[k + 1], _OFFER[int(rng.random() * 3)]))
            elif t == "K":
                pack.append(("GANG", codes[k], _OFFER[int(rng.random() * 3)]))
                has_kong = True
            else:
                pack.append(("PENG", codes[k], _OFFER[int(rng.random() * 3)]))
        free = standing
    else:
        q = b.open
        if q is None:
            x = rng.random()
            q = 0.0 if x < 0.4 else 0.3 if x < 0.7 else 0.6 if x < 0.93 else 1.0
        for t, k in b.sets:
            if t == "C":
                if q and rng.random() < q:
                    pack.append(("CHI", codes[k + 1], _OFFER[int(rng.random() * 3)]))
                else:
                    standing += (k, k + 1, k + 2)
                    free += (k, k + 1, k + 2)
            elif t == "P":
                if q and rng.random() < q:
                    pack.append(("PENG", codes[k], _OFFER[int(rng.random() * 3)]))
                else:
                    standing += (k, k, k)
                    free += (k, k, k)
            elif t == "c":
                standing += (k, k + 1, k + 2)
            elif t == "p":
                standing += (k, k, k)
            else:
                has_kong = True
                concealed = t == "A" or (t == "X" and (q == 0.0 or rng.random() < 0.4))
                if b.open == 1.0:
                    concealed = False
                pack.append(("GANG", codes[k], 0 if concealed else _OFFER[int(rng.random() * 3)]))
        standing += (b.pair, b.pair)
        free += (b.pair, b.pair)
        if q == 0.0 and b.open is None:
            rng.shuffle(pack)
    # the winning tile
    win = b.win
    if win == "pair" and b.pair >= 0:
        w = b.pair
    elif win == "ext":
        w = standing[-1]
    elif win == "rob":
        once = [k for k in standing if cnt[k] == 1]
        w = once[int(rng.random() * len(once))] if once else standing[int(rng.random() * len(standing))]
    elif win == "free" and free:
        w = free[int(rng.random() * len(free))]
    elif b.fourth:
        once = [k for k in standing if standing.count(k) == 1]
        w = once[int(rng.random() * len(once))] if once else standing[int(rng.random() * len(standing))]
    else:
        w = standing[int(rng.random() * len(standing))]
    standing.remove(w)
    # the flags, only as the calculator keeps them
    self_drawn = b.self_drawn if b.self_drawn is not None else rng.random() < 0.5
    held = standing.count(w)            # other copies among the standing tiles
    in_melds = cnt[w] - held - 1        # copies in the melds
    about_kong = False
    if b.about_kong is not False:
        if self_drawn:
            about_kong = has_kong and (b.about_kong or rng.random() < 0.25)
        else:
            about_kong = held == 0 and in_melds == 0 and (b.about_kong or rng.random() < 0.15)
    wall_last = not about_kong and (b.wall_last if b.wall_last is not None else rng.random() < 0.07)
    if about_kong and not self_drawn:
        fourth = False                  # 抢杠和 clears 和绝张
    elif in_melds == 3:
        fourth = True                   # the calculator sets it: three copies in the melds
    elif held:
        fourth = False                  # ... and drops it: another copy standing
    else:
        fourth = b.fourth if b.fourth is not None else rng.random() < 0.12
    # winds: now and then the seat or the round is the wind of a wind pung
    seat = b.seat if b.seat is not None else int(rng.random() * 4)
    prevalent = b.prevalent if b.prevalent is not None else int(rng.random() * 4)
    if b.seat is None and b.prevalent is None and rng.random() < 0.4:
        winds = [k - 27 for k in range(27, 31) if cnt[k] >= 3]
        if winds:
            if rng.random() < 0.5:
                seat = winds[int(rng.random() * len(winds))]
            else:
                prevalent = winds[int(rng.random() * len(winds))]
    n_flowers = 0 if rng.random() < 0.6 else 1 + int(rng.random() * 8)
    flowers = tuple(sorted(rng.sample(FLOWERS, n_flowers))) if n_flowers else ()
    standing.sort()
    # four copies at most, counted again from what the case holds (PyMahjongGB 1.4.0 does not check: it scores
    # a fifth copy, e.g. 四归一 x 255 for five with a kong)
    seen = [0] * 34
    for k in standing:
        seen[k] += 1
    seen[w] += 1
    for t, code, _o in pack:
        k = KIND_OF_CODE[code]
        if t == "CHI":
            seen[k - 1] += 1
            seen[k] += 1
            seen[k + 1] += 1
        else:
            seen[k] += 3 if t == "PENG" else 4
    if max(seen) > 4:
        return None
    return Case(tuple(pack), tuple(codes[k] for k in standing), codes[w], n_flowers, self_drawn, fourth, about_kong,
                wall_last, seat, prevalent, -1 if self_drawn else (seat + 1 + int(rng.random() * 3)) % 4, flowers,
                name)


def _one(rng: random.Random, i: int) -> Case:
    """One accepted case of recipe i (retried a few times for its target fan; a hand the calculator rejects is
    never kept)."""
    target, _w, recipe = RECIPES[i]
    last = None
    calc = MahjongFanCalculator
    attempts = 0
    while True:
        attempts += 1
        if attempts > 50 and i:         # a recipe that keeps failing: a random hand instead
            i, target, recipe = 0, "", RECIPES[0][2]
        b = _Build(rng)
        recipe(b)
        if not b.ok or (b.special is None and (len(b.sets) != 4 or b.pair < 0)):
            continue
        case = _finish(b, target or "random")
        if case is None:
            continue
        try:
            raw = calc(*case.args())
        except TypeError:
            continue
        case.raw = raw
        if not target or any(NAME_FIX.get(n, n) == target for _p, _c, n, _e in raw):
            return case
        last = case
        if attempts >= b.tries:
            return last


def generate(rng: random.Random, n: int) -> Iterator[Case]:
    """n MCR winning cases the calculator accepts, from `rng` (seeded: the same seed, the same cases).

    Each case comes from a recipe drawn by weight (RECIPES): about 30% are fully random winning hands (four
    random sets and a pair, or seven pairs); the rest are built around a target fan and filled randomly, within
    four copies of a kind counting the melds, and retried a few times until the calculator finds the target.
    Chows, pungs and kongs are melded by a per-case chance (concealed kongs too), and the case gets a self-draw
    or a discard, a kong replacement (self-drawn with a kong) or a robbed kong (a discard of a tile held nowhere
    else), the wall's last tile, the last of a kind (only where no other copy is standing), the winds (now and
    then those of a wind pung) and 0..8 flowers. The calculator's answer is kept in `case.raw`."""
    if not AVAILABLE:
        raise RuntimeError("PyMahjongGB (module MahjongGB) is not installed")
    for _ in range(n):
        yield _one(rng, _pick_recipe(rng))


def pre_draw_situation(pack: tuple, hand: tuple) -> dict[str, Any]:
    """Our situation of a hand one tile short (no winning tile: for waits and distance), min_fan 0."""
    melds = Case(tuple(pack), (), "W1").melds()
    return {"concealed": _tiles_str(sorted(KIND_OF_CODE[c] for c in hand)), "melds": melds,
            "options": {"min_fan": 0}}


def short_hands(rng: random.Random, n: int) -> Iterator[tuple[tuple, tuple]]:
    """n hands one tile short, as (pack, hand) in the calculator's codes (13 - 3 x packs standing tiles), within
    four copies: a generated winning case without its winning tile (ready: 40%), the same with one or two standing
    tiles changed (30%), and 13 tiles drawn from a full wall without melds (30%)."""
    wall = [k for k in range(34) for _ in range(4)]
    codes = ORACLE_CODES
    cases = generate(rng, 10 ** 12)
    for _ in range(n):
        x = rng.random()
        if x >= 0.7:
            yield (), tuple(codes[k] for k in sorted(rng.sample(wall, 13)))
            continue
        case = next(cases)
        hand = [KIND_OF_CODE[c] for c in case.hand]
        if x >= 0.4:
            held = Counter(hand)
            for kind, code, _o in case.pack:
                k = KIND_OF_CODE[code]
                held.update((k - 1, k, k + 1) if kind == "CHI" else (k,) * (3 if kind == "PENG" else 4))
            for _swap in range(1 + (rng.random() < 0.4)):
                i = int(rng.random() * len(hand))
                k = int(rng.random() * 34)
                if held[k] < 4:
                    held[hand[i]] -= 1
                    held[k] += 1
                    hand[i] = k
        yield case.pack, tuple(codes[k] for k in sorted(hand))


def useful_waits(pack: tuple, hand: tuple) -> list[str]:
    """The waits by the shanten functions: the union of the useful tiles of each shape at shanten 0 (our names, in
    our order), less the kinds the hand holds four of; [] when the hand is not ready."""
    parts = oracle_shanten_parts(hand)
    held = Counter(KIND_OF_CODE[c] for c in hand)
    for kind, code, _offer in pack:
        k = KIND_OF_CODE[code]
        held.update((k - 1, k, k + 1) if kind == "CHI" else (k,) * (3 if kind == "PENG" else 4))
    useful = {KIND_OF_CODE[c] for sh, tiles in parts.values() if sh == 0 for c in tiles}
    return [TILE_NAMES[k] for k in sorted(useful) if held[k] < 4]


def histogram(cases: Any) -> Counter:
    """How many of the cases the calculator gives each fan (cases holding it, not its count)."""
    out: Counter = Counter()
    for c in cases:
        raw = c.raw or MahjongFanCalculator(*c.args())
        for _p, _c, name, _e in raw:
            out[NAME_FIX.get(name, name)] += 1
    return out


if __name__ == "__main__":   # python tests/oracles/mcr.py [N]: the histogram and the speed
    import sys
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    t0 = time.perf_counter()
    cases = list(generate(random.Random(1), n))
    dt = time.perf_counter() - t0
    h = histogram(cases)
    for name, pts in FANS:
        print(f"{pts:>3} {name}\t{h.get(name, 0)}")
    print(f"{n} cases in {dt:.2f} s: {n / dt:,.0f} cases/s (generator + calculator)")
