"""Riichi oracle: the `mahjong` package's HandCalculator as the reference for the riichi spec's hand scores.

This module

* generates seeded riichi *winning* situations (`generate`): four sets and a pair, seven pairs or thirteen
  orphans, with open and concealed melds (chi, pon, open, added and concealed kongs), self-drawn or on a discard,
  riichi, double riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou and chiihou, seat and round winds,
  dora and ura dora indicators, and red fives. Recipes build the hand around a target yaku (every yaku and
  yakuman of the book), mixed with random hands, so that each appears many times; every hand keeps within four
  copies of a kind (one of them the red five);
* converts a case to the oracle's terms (`to_oracle`) and asks it (`oracle`): han, fu, the yaku with their han,
  the payments.

Tiles. Ours are 1m-9m, 1p-9p, 1s-9s, 1z-7z (東南西北中發白); the `mahjong` package's 34-kinds are Tenhou's, whose
dragons run 白發中: our 5z (中) is its 33 and our 7z (白) its 31. Its 136-ids are kind * 4 + copy; with
`has_aka_dora` the red fives are the ids 16, 52 and 88 (copy 0 of 5m, 5p and 5s), which the generator gives
the red copies.

The rules asked of the oracle are the book's defaults (docs/rules/riichi.md, "Sources and choices"): open
tanyao, red fives, double yakuman, 13 han counted as one yakuman, no kiriage, 4 fu for a double-wind pair, 30 fu
for an open hand of no fu, no fu for a pinfu tsumo.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

try:
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld
    AVAILABLE = True
except ImportError:  # pragma: no cover - the tests importorskip mahjong before importing this module
    AVAILABLE = False

# our kind -> the oracle's 34-kind (and back: the map is its own inverse)
TO_TENHOU = list(range(31)) + [33, 32, 31]
NAMES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
FIVES = (4, 13, 22)          # our 5m 5p 5s: their copy 0 is red
YAOJIU = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
GREEN = [19, 20, 21, 23, 25, 32]   # 2s 3s 4s 6s 8s 發

# our fan name -> the oracle's yaku name (where the count decides it: (name for 1, name for 2))
YAKU = {
    "立直": "Riichi", "一発": "Ippatsu", "門前清自摸和": "Menzen Tsumo", "平和": "Pinfu", "断幺九": "Tanyao",
    "一盃口": "Iipeiko", "役牌白": "Yakuhai (haku)", "役牌發": "Yakuhai (hatsu)", "役牌中": "Yakuhai (chun)",
    "海底摸月": "Haitei Raoyue", "河底撈魚": "Houtei Raoyui", "嶺上開花": "Rinshan Kaihou", "槍槓": "Chankan",
    "ダブル立直": "Double Riichi", "七対子": "Chiitoitsu", "混全帯幺九": "Chantai", "一気通貫": "Ittsu",
    "三色同順": "Sanshoku Doujun", "三色同刻": "Sanshoku Doukou", "対々和": "Toitoi", "三暗刻": "San Ankou",
    "三槓子": "San Kantsu", "小三元": "Shou Sangen", "混老頭": "Honroutou", "混一色": "Honitsu",
    "純全帯幺九": "Junchan", "二盃口": "Ryanpeikou", "清一色": "Chinitsu",
    "国士無双": ("Kokushi Musou", "Kokushi Musou Juusanmen Matchi"), "四暗刻": ("Suu Ankou", "Suu Ankou Tanki"),
    "大三元": "Daisangen", "小四喜": "Shousuushii", "大四喜": "Dai Suushii", "字一色": "Tsuu Iisou",
    "清老頭": "Chinroutou", "緑一色": "Ryuuiisou", "九蓮宝燈": ("Chuuren Poutou", "Daburu Chuuren Poutou"),
    "四槓子": "Suu Kantsu", "天和": "Tenhou", "地和": "Chiihou",
    "ドラ": "Dora", "裏ドラ": "Ura Dora", "赤ドラ": "Aka Dora",
}
WINDS = ("east", "south", "west", "north")
YAKUMAN = {"国士無双", "四暗刻", "大三元", "小四喜", "大四喜", "字一色", "清老頭", "緑一色", "九蓮宝燈", "四槓子", "天和", "地和"}


@dataclass
class Case:
    """One winning situation: concealed kinds (the winning tile among them), melds (kind, lowest kind, open), how
    it was won and in what context."""

    concealed: list[int]
    melds: list[tuple[str, int, bool]]   # ("chi" | "pon" | "kong" | "added", lowest kind, open)
    win_tile: int
    tsumo: bool
    seat: int = 0
    dealer: int = 0
    prevalent: int = 0
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    last_tile: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    indicators: list[int] = field(default_factory=list)
    hidden: list[int] = field(default_factory=list)
    red: list[int] = field(default_factory=list)   # kinds of the red fives held (5m 5p 5s)
    honba: int = 0                                  # the hand's honba count (our dealer_streak)
    recipe: str = ""

    @property
    def discarder(self) -> int:
        return -1 if self.tsumo else (self.seat + 1 + (len(self.concealed) % 3)) % 4

    def win_by(self) -> str:
        if self.tenhou:
            return "dealt"
        if self.rinshan:
            return "kong_replacement"
        if self.chankan:
            return "rob_kong"
        return "self_draw" if self.tsumo else "discard"

    def situation(self) -> dict[str, Any]:
        """Our situation dict."""
        def meld_text(kind: str, lo: int, open_: bool) -> str:
            suit = NAMES[lo][1]
            if kind == "chi":
                ranks = "".join(NAMES[lo + i][0] for i in range(3))
                return f"[{ranks}{suit}]"
            n = 3 if kind == "pon" else 4
            body = NAMES[lo][0] * n + suit
            return f"[{body}]" if open_ or kind == "added" else "{" + body + "}"

        d: dict[str, Any] = {
            "seat": self.seat, "dealer": self.dealer, "concealed": "".join(NAMES[k] for k in sorted(self.concealed)),
            "melds": [meld_text(*m) for m in self.melds], "win_by": self.win_by(), "prevalent_wind": self.prevalent,
        }
        d["win_tile"] = NAMES[self.win_tile]
        if not self.tsumo:
            d["discarder"] = self.discarder
        if self.riichi or self.double_riichi:
            d["declared_ready"] = True
        if self.double_riichi:
            d["ready_first_turn"] = True
        if self.ippatsu:
            d["ready_uninterrupted"] = True
        if self.last_tile:
            d["last_tile"] = True
        if self.chiihou:
            d["first_draw"] = True
        if self.indicators:
            d["indicators"] = "".join(NAMES[k] for k in self.indicators)
        if self.hidden:
            d["hidden_indicators"] = "".join(NAMES[k] for k in self.hidden)
        if self.red:
            d["marked"] = "".join(NAMES[k] for k in self.red)
        if self.honba:
            d["dealer_streak"] = self.honba
        return d

    def key(self) -> str:
        return repr(self.situation())


# ---- the oracle -------------------------------------------------------------------------------------------------

def _ids(case: Case) -> tuple[list[int], int, list[Any], list[int], list[int]]:
    """136-ids for the hand (all its tiles, melds included), the winning tile, the melds, the indicators and the
    hidden indicators: each kind's copies handed out in order, the red copy (copy 0 of a five) only to a red five."""
    free = {k: ([1, 2, 3] if k in FIVES else [0, 1, 2, 3]) for k in range(34)}   # copy 0 of a five: the red one
    red_left = set(case.red)

    def tile(k: int) -> int:
        if k in red_left:
            red_left.discard(k)
            return TO_TENHOU[k] * 4
        return TO_TENHOU[k] * 4 + free[k].pop(0)

    melds = []
    meld_ids: list[int] = []
    for kind, lo, open_ in case.melds:
        ks = [lo, lo + 1, lo + 2] if kind == "chi" else [lo] * (3 if kind == "pon" else 4)
        ids = [tile(k) for k in ks]
        mtype = {"chi": Meld.CHI, "pon": Meld.PON, "kong": Meld.KAN, "added": Meld.SHOUMINKAN}[kind]
        melds.append(Meld(meld_type=mtype, tiles=ids, opened=open_ or kind == "added"))
        meld_ids += ids
    conc = sorted(case.concealed)
    # the winning tile: a copy of its kind among the concealed (the red one if the hand's only red is that kind
    # and it is concealed: any copy of the kind will do, the oracle reads its id for the kind alone)
    conc_ids = [tile(k) for k in conc]
    win = next(i for k, i in zip(conc, conc_ids) if k == case.win_tile)
    def indicator(k: int) -> int:   # an indicator: its kind is what the oracle reads (a copy of it, not red)
        return TO_TENHOU[k] * 4 + (3 if k in FIVES else 0)

    return meld_ids + conc_ids, win, melds, [indicator(k) for k in case.indicators], \
        [indicator(k) for k in case.hidden]


def options() -> Any:
    return OptionalRules(has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=True, kazoe_limit=0,
                         kiriage=False, fu_for_open_pinfu=True, fu_for_pinfu_tsumo=False)


_CALC = None


def oracle(case: Case) -> dict[str, Any]:
    """The oracle's verdict: {"win": bool, "error", "han", "fu", "yaku": Counter {name: han}, "cost"}."""
    global _CALC
    if _CALC is None:
        _CALC = HandCalculator()
    tiles, win, melds, dora, ura = _ids(case)
    cfg = HandConfig(
        is_tsumo=case.tsumo or case.tenhou or case.rinshan, is_riichi=case.riichi or case.double_riichi,
        is_ippatsu=case.ippatsu, is_rinshan=case.rinshan, is_chankan=case.chankan,
        is_haitei=case.last_tile and case.tsumo and not case.rinshan, is_houtei=case.last_tile and not case.tsumo,
        is_daburu_riichi=case.double_riichi, is_tenhou=case.tenhou, is_chiihou=case.chiihou,
        player_wind=EAST + (case.seat - case.dealer) % 4, round_wind=EAST + case.prevalent, options=options(),
        tsumi_number=case.honba)
    r = _CALC.estimate_hand_value(tiles, win, melds=melds or None, dora_indicators=dora or None,
                                  ura_dora_indicators=ura or None, config=cfg)
    if r.error:
        return {"win": False, "error": r.error}
    open_hand = any(m.opened for m in melds)
    yaku: Counter[str] = Counter()
    for y in r.yaku:
        yaku[y.name] += (y.han_open if open_hand and y.han_open else y.han_closed)
    return {"win": True, "error": None, "han": r.han, "fu": r.fu, "yaku": yaku, "cost": dict(r.cost),
            "yakuman": any(y.is_yakuman for y in r.yaku)}


def ours(variant: Any, result: Any, case: Case) -> dict[str, Any]:
    """Our result in the oracle's terms: the yaku (mapped names, with han), han and fu from the explanation, and
    the payments as the oracle's cost (main: the discarder's, or the dealer's on a self-draw; additional: each
    non-dealer's on a non-dealer's self-draw)."""
    if not result["win"]:
        return {"win": False, "error": result["reason"]}
    exposed = any(o for _, _, o in case.melds) or any(k == "added" for k, _, _ in case.melds)
    fans = {f.name: f for f in variant.fans}
    yaku: Counter[str] = Counter()
    for name, count in result["fans"]:
        if name in ("自風", "場風"):
            continue
        target = YAKU[name]
        f = fans[name]
        if name in YAKUMAN:
            label = target[count - 1] if isinstance(target, tuple) else target
            yaku[label] += 13 * count
        else:
            yaku[target] += f.points_for(exposed) * count
    # the winds: the oracle names each by its wind
    counts = dict(result["fans"])
    if counts.get("自風"):
        yaku[f"Yakuhai (seat wind {WINDS[(case.seat - case.dealer) % 4]})"] += 1
    if counts.get("場風"):
        yaku[f"Yakuhai (round wind {WINDS[case.prevalent]})"] += 1
    values = {}
    for line in result["explain"]:
        head, _, val = line["text"].partition(" = ")
        values[head.split(" (")[0]] = val
    pays = result["payments"]
    winner = case.seat
    if case.tsumo or case.tenhou or case.rinshan:
        if winner == case.dealer:
            main = -pays[(winner + 1) % 4]
            extra = main
        else:
            main = -pays[case.dealer]
            extra = -pays[next(p for p in range(4) if p not in (winner, case.dealer))]
    else:
        main, extra = -pays[case.discarder], 0
    return {"win": True, "han": int(values["翻"]), "fu": int(values["符"]), "yaku": yaku,
            "main": main, "additional": extra, "yakuman": int(values["役満"]) > 0}


def compare(variant: Any, result: Any, case: Case) -> str | None:
    """None when we agree with the oracle on the case, else what differs."""
    o = oracle(case)
    u = ours(variant, result, case)
    if o["win"] != u["win"]:
        return f"win: oracle {o['win']} ({o.get('error')}), ours {u['win']} ({u.get('error')})"
    if not o["win"]:
        return None
    diffs = []
    if o["yaku"] != u["yaku"]:
        diffs.append(f"yaku: oracle {dict(o['yaku'])}, ours {dict(u['yaku'])}")
    if not o["yakuman"]:
        if o["han"] != u["han"]:
            diffs.append(f"han: oracle {o['han']}, ours {u['han']}")
        if o["fu"] != u["fu"]:
            diffs.append(f"fu: oracle {o['fu']}, ours {u['fu']}")
    c = o["cost"]
    main, extra = c["main"] + c.get("main_bonus", 0), c["additional"] + c.get("additional_bonus", 0)
    if (main, extra) != (u["main"], u["additional"]):
        diffs.append(f"cost: oracle {main}/{extra}, ours {u['main']}/{u['additional']}")
    return "; ".join(diffs) or None


# ---- the generator ----------------------------------------------------------------------------------------------

RECIPES = ("random", "pinfu", "tanyao", "peikou", "ryanpeikou", "yakuhai", "chanta", "junchan", "ittsu",
           "sanshoku", "doukou", "toitoi", "sanankou", "kongs", "shousangen", "honroutou", "honitsu", "chinitsu",
           "chiitoitsu", "kokushi", "suuankou", "daisangen", "suushii", "tsuuiisou", "chinroutou", "ryuuiisou",
           "chuuren", "tenhou")


class _Builder:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.count = [0] * 34
        self.sets: list[tuple[str, int]] = []   # ("seq" | "pung" | "kong", lowest kind)
        self.pair = -1

    def room(self, kinds: list[int]) -> bool:
        c = Counter(kinds)
        return all(self.count[k] + n <= 4 for k, n in c.items())

    def add(self, kind: str, lo: int) -> bool:
        ks = [lo, lo + 1, lo + 2] if kind == "seq" else [lo] * (4 if kind == "kong" else 3)
        if kind == "seq" and (lo >= 27 or lo % 9 > 6):
            return False
        if not self.room(ks):
            return False
        for k in ks:
            self.count[k] += 1
        self.sets.append((kind, lo))
        return True

    def set_pair(self, k: int) -> bool:
        if self.count[k] + 2 > 4:
            return False
        self.count[k] += 2
        self.pair = k
        return True

    def random_set(self, pool: list[int], seq: float = 0.6) -> bool:
        rng = self.rng
        for _ in range(30):
            lo = rng.choice(pool)
            if rng.random() < seq and lo < 27 and lo % 9 <= 6 and all(lo + i in pool for i in range(3)):
                if self.add("seq", lo):
                    return True
            elif self.add("kong" if rng.random() < 0.08 else "pung", lo):
                return True
        return False


def _standard(rng: random.Random, recipe: str) -> tuple[list[tuple[str, int]], int] | None:
    b = _Builder(rng)
    suited = list(range(27))
    every = list(range(34))
    s = rng.randrange(3) * 9
    pool, seq, pair_pool = every, 0.6, every
    if recipe == "pinfu" or recipe == "tanyao":
        simples = [k for k in suited if k % 9 not in (0, 8)]
        pool, pair_pool = (simples, simples) if recipe == "tanyao" else (suited, suited + [27, 28, 29, 30])
        seq = 0.9 if recipe == "pinfu" else 0.5
    elif recipe in ("peikou", "ryanpeikou"):
        lo = rng.choice([k for k in suited if k % 9 <= 6])
        b.add("seq", lo), b.add("seq", lo)
        if recipe == "ryanpeikou":
            lo2 = rng.choice([k for k in suited if k % 9 <= 6])
            b.add("seq", lo2), b.add("seq", lo2)
    elif recipe == "yakuhai":
        b.add("pung", rng.choice([27, 28, 29, 30, 31, 32, 33]))
    elif recipe in ("chanta", "junchan"):
        ends = [k for k in suited if k % 9 in (0, 6)]
        pool = [k for k in (YAOJIU if recipe == "chanta" else YAOJIU[:6])]
        for _ in range(rng.randint(1, 3)):
            b.add("seq", rng.choice(ends))
        pair_pool = pool
        seq = 0.0
    elif recipe == "ittsu":
        for r in (0, 3, 6):
            b.add("seq", s + r)
    elif recipe == "sanshoku":
        r = rng.randrange(7)
        for t in (0, 9, 18):
            b.add("seq", t + r)
    elif recipe == "doukou":
        r = rng.randrange(9)
        for t in (0, 9, 18):
            b.add("pung" if rng.random() < 0.85 else "kong", t + r)
    elif recipe in ("toitoi", "sanankou", "suuankou"):
        seq = 0.0 if recipe != "sanankou" else 0.3
    elif recipe == "kongs":
        for _ in range(rng.randint(2, 4)):
            b.add("kong", rng.choice(every))
    elif recipe == "shousangen":
        d = [31, 32, 33]
        rng.shuffle(d)
        b.add("pung", d[0]), b.add("pung", d[1]), b.set_pair(d[2])
    elif recipe == "daisangen":
        for d in (31, 32, 33):
            b.add("pung", d)
    elif recipe == "suushii":
        w = [27, 28, 29, 30]
        rng.shuffle(w)
        for k in w[:3]:
            b.add("pung", k)
        if rng.random() < 0.5:
            b.add("pung", w[3])
        else:
            b.set_pair(w[3])
    elif recipe in ("honroutou", "chinroutou", "tsuuiisou"):
        pool = YAOJIU if recipe == "honroutou" else YAOJIU[:6] if recipe == "chinroutou" else list(range(27, 34))
        pair_pool, seq = pool, 0.0
    elif recipe == "ryuuiisou":
        pool, pair_pool = GREEN, GREEN
        if rng.random() < 0.5:
            b.add("seq", 19)
    elif recipe in ("honitsu", "chinitsu", "chuuren"):
        pool = list(range(s, s + 9)) + ([] if recipe != "honitsu" else list(range(27, 34)))
        pair_pool = pool
    for _ in range(10):
        if len(b.sets) >= 4:
            break
        b.random_set(pool, seq)
    if len(b.sets) < 4:
        return None
    if b.pair < 0:
        for _ in range(20):
            if b.set_pair(rng.choice(pair_pool)):
                break
    if b.pair < 0:
        return None
    return b.sets[:4], b.pair


def _chuuren(rng: random.Random) -> list[int]:
    s = rng.randrange(3) * 9
    base = [s] * 3 + [s + r for r in range(1, 8)] + [s + 8] * 3
    return base + [s + rng.randrange(9)]


def generate(n: int, seed: int) -> list[Case]:
    """n seeded winning situations, the recipes in turn (some random hands will not win: the oracle says so too)."""
    rng = random.Random(seed)
    out: list[Case] = []
    i = 0
    while len(out) < n:
        recipe = RECIPES[i % len(RECIPES)]
        i += 1
        case = _case(rng, recipe)
        if case is not None:
            case.recipe = recipe
            out.append(case)
    return out


def _case(rng: random.Random, recipe: str) -> Case | None:
    melds: list[tuple[str, int, bool]] = []
    concealed: list[int]
    if recipe == "chiitoitsu":
        kinds = rng.sample(range(34) if rng.random() < 0.7 else list(range(27, 34)) + YAOJIU[:6], 7)
        concealed = [k for k in kinds for _ in range(2)]
    elif recipe == "kokushi":
        concealed = list(YAOJIU) + [rng.choice(YAOJIU)]
    elif recipe == "chuuren":
        concealed = _chuuren(rng) if rng.random() < 0.7 else None   # type: ignore[assignment]
        if concealed is None:
            return _case(rng, "chinitsu")
    else:
        got = _standard(rng, recipe)
        if got is None:
            return None
        sets, pair = got
        concealed = [pair, pair]
        closed = recipe in ("pinfu", "peikou", "ryanpeikou", "suuankou", "tenhou") or rng.random() < 0.45
        for kind, lo in sets:
            if kind == "kong":
                melds.append(("kong", lo, rng.random() < 0.5 and not closed) if rng.random() < 0.7 or closed
                             else ("added", lo, True))
                continue
            if not closed and rng.random() < 0.5:
                melds.append(("chi" if kind == "seq" else "pon", lo, True))
                continue
            concealed += [lo, lo + 1, lo + 2] if kind == "seq" else [lo] * 3
    open_hand = any(o for _, _, o in melds)
    win = rng.choice(concealed)
    seat, dealer, prevalent = rng.randrange(4), rng.randrange(4), rng.randrange(4) if rng.random() < 0.3 else 0
    tsumo = rng.random() < 0.45
    case = Case(sorted(concealed), melds, win, tsumo, seat, dealer, prevalent)
    closed = not open_hand
    r = rng.random()
    if recipe == "tenhou" and not melds and r < 0.5:
        case.tsumo = True
        if rng.random() < 0.5:
            case.seat = case.dealer
            case.tenhou = True
        else:
            case.seat = (case.dealer + 1 + rng.randrange(3)) % 4
            case.chiihou = True
    elif closed and r < 0.45:
        if rng.random() < 0.12:
            case.double_riichi = True
        else:
            case.riichi = True
        case.ippatsu = rng.random() < 0.2
    if not case.tenhou and not case.chiihou:
        x = rng.random()
        if x < 0.05:
            case.last_tile = True
        elif x < 0.1 and any(k in ("kong", "added") for k, _, _ in melds):
            case.tsumo, case.rinshan = True, True
            case.ippatsu = case.ippatsu and False
        elif x < 0.14 and not case.tsumo and concealed.count(win) == 1:
            case.chankan = True
    if case.last_tile and case.ippatsu:
        case.ippatsu = False
    held = Counter(concealed) + Counter(k for kind, lo, _ in melds
                                        for k in ([lo, lo + 1, lo + 2] if kind == "chi"
                                                  else [lo] * (3 if kind == "pon" else 4)))
    if any(v > 4 for v in held.values()):
        return None
    case.indicators = [rng.randrange(34) for _ in range(1 + (rng.random() < 0.25) + (rng.random() < 0.1))]
    if case.riichi or case.double_riichi:
        case.hidden = [rng.randrange(34) for _ in case.indicators]
    case.red = [k for k in FIVES if held[k] == 4 or held[k] and rng.random() < 0.5]   # four fives: one is red
    case.honba = rng.randint(1, 4) if rng.random() < 0.3 else 0
    return case


# ---- riichienv's scorer ------------------------------------------------------------------------------------------

# our fan -> riichienv's yaku id (where the count decides it: (id for 1, id for 2))
RIICHIENV_YAKU = {
    "立直": 2, "一発": 30, "門前清自摸和": 1, "平和": 14, "断幺九": 12, "一盃口": 13, "役牌白": 7, "役牌發": 8,
    "役牌中": 9, "自風": 10, "場風": 11, "海底摸月": 5, "河底撈魚": 6, "嶺上開花": 4, "槍槓": 3, "ダブル立直": 18,
    "七対子": 25, "混全帯幺九": 15, "一気通貫": 16, "三色同順": 17, "三色同刻": 19, "対々和": 21, "三暗刻": 22,
    "三槓子": 20, "小三元": 23, "混老頭": 24, "混一色": 27, "純全帯幺九": 26, "二盃口": 28, "清一色": 29,
    "国士無双": (42, 49), "四暗刻": (38, 48), "大三元": 37, "小四喜": 43, "大四喜": 50, "字一色": 39, "清老頭": 41,
    "緑一色": 40, "九蓮宝燈": (45, 47), "四槓子": 44, "天和": 35, "地和": 36, "ドラ": 31, "裏ドラ": 33, "赤ドラ": 32,
}


def riichienv_verdict(case: Case) -> dict[str, Any]:
    """riichienv's scorer (its Rust HandEvaluator) on the case: {"win", "han", "fu", "yaku": sorted ids, "main",
    "additional"} (main/additional as the `mahjong` oracle's cost)."""
    from riichienv import _riichienv as C

    tiles, win, melds, dora, ura = _ids(case)
    kinds = {"chi": C.MeldType.Chi, "pon": C.MeldType.Pon, "kong": C.MeldType.Daiminkan,
             "added": C.MeldType.Kakan}
    rmelds, in_melds = [], 0
    for (kind, _lo, open_), m in zip(case.melds, melds):
        t = kinds[kind] if kind != "kong" or open_ else C.MeldType.Ankan
        rmelds.append(C.Meld(t, list(m.tiles), kind == "added" or open_))
        in_melds += len(m.tiles)
    wind = [C.Wind.East, C.Wind.South, C.Wind.West, C.Wind.North]
    tsumo = case.tsumo or case.tenhou or case.rinshan
    cond = C.Conditions(
        tsumo=tsumo, riichi=case.riichi, double_riichi=case.double_riichi, ippatsu=case.ippatsu,
        haitei=case.last_tile and case.tsumo and not case.rinshan, houtei=case.last_tile and not case.tsumo,
        rinshan=case.rinshan, chankan=case.chankan, tsumo_first_turn=case.tenhou or case.chiihou,
        player_wind=wind[(case.seat - case.dealer) % 4], round_wind=wind[case.prevalent], honba=case.honba)
    r = C.HandEvaluator(sorted(tiles[in_melds:]), rmelds).calc(win, dora, ura, cond)
    if not r.is_win:
        return {"win": False}
    dealer = case.seat == case.dealer
    if not tsumo:
        main, extra = r.ron_agari, 0
    elif dealer:
        main = extra = r.tsumo_agari_ko
    else:
        main, extra = r.tsumo_agari_oya, r.tsumo_agari_ko
    return {"win": True, "han": r.han, "fu": r.fu, "yaku": sorted(r.yaku), "main": main, "additional": extra,
            "yakuman": r.yakuman}


def our_riichienv_yaku(result: Any) -> list[int]:
    """Our counted fans as riichienv's yaku ids (each fan once, as riichienv lists them)."""
    out = []
    for name, count in result["fans"]:
        y = RIICHIENV_YAKU[name]
        out.append(y[count - 1] if isinstance(y, tuple) else y)
    return sorted(out)


def compare_riichienv(variant: Any, result: Any, case: Case) -> str | None:
    """None when we agree with riichienv's scorer on the case, else what differs."""
    o = riichienv_verdict(case)
    u = ours(variant, result, case)
    if o["win"] != u["win"]:
        return f"win: riichienv {o['win']}, ours {u['win']} ({u.get('error')})"
    if not o["win"]:
        return None
    diffs = []
    mine = our_riichienv_yaku(result)
    if o["yaku"] != mine:
        diffs.append(f"yaku: riichienv {o['yaku']}, ours {mine}")
    if not o["yakuman"] and (o["han"], o["fu"]) != (u["han"], u["fu"]):
        diffs.append(f"han/fu: riichienv {o['han']}/{o['fu']}, ours {u['han']}/{u['fu']}")
    if (o["main"], o["additional"]) != (u["main"], u["additional"]):
        diffs.append(f"cost: riichienv {o['main']}/{o['additional']}, ours {u['main']}/{u['additional']}")
    return "; ".join(diffs) or None
