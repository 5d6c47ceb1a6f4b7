"""Hypothesis strategies: legal situations of any variant (wilds, melds, flowers, every win_by)."""
from __future__ import annotations

import os

from hypothesis import strategies as st

from mjrules.compiler.ir import Variant
from mjrules.model.tiles import format_meld, Meld, tile_name

SLOW = os.environ.get("MJRULES_SLOW") == "1"


def examples(ci: int, slow: int) -> int:
    return slow if SLOW else ci


@st.composite
def groups(draw, playable: list[int], n_sets: int, shape: str) -> list[tuple[str, tuple[int, ...]]]:
    """Sets and a pair (standard), pairs, or loose tiles (free), of playable kinds."""
    suited = [k for k in playable if k < 27 and k % 9 <= 6]
    out: list[tuple[str, tuple[int, ...]]] = []
    if shape == "pairs":
        for _ in range(n_sets):
            k = draw(st.sampled_from(playable))
            out.append(("pair", (k, k)))
        return out
    if shape == "free":
        ks = draw(st.lists(st.sampled_from(playable), min_size=3 * n_sets + 2, max_size=3 * n_sets + 2))
        return [("tile", (k,)) for k in ks]
    for _ in range(n_sets):
        if suited and draw(st.booleans()):
            k = draw(st.sampled_from(suited))
            out.append(("seq", (k, k + 1, k + 2)))
        else:
            k = draw(st.sampled_from(playable))
            out.append(("pung", (k, k, k)))
    k = draw(st.sampled_from(playable))
    out.append(("pair", (k, k)))
    return out


@st.composite
def situations(draw, v: Variant) -> dict:
    """A situation dict; most are legal (the caller discards SituationError ones with `assume`)."""
    playable = list(v.tiles.playable)
    n_sets = (v.win_size - 2) // 3
    shape = draw(st.sampled_from(["standard", "standard", "standard", "pairs", "free"]))
    if shape == "pairs" and v.win_size % 2:
        shape = "standard"
    gs = draw(groups(playable, n_sets if shape != "pairs" else v.win_size // 2, shape))
    # near-winning: sometimes change a tile
    tiles = [k for _, ks in gs for k in ks]
    melds: list[Meld] = []
    if shape == "standard":
        keep = []
        for kind, ks in gs:
            if kind in ("seq", "pung") and draw(st.integers(0, 4)) == 0:
                if kind == "seq" and v.claims.chi_from != "none":
                    melds.append(Meld("chi", ks, False))
                    continue
                if kind == "pung":
                    if v.claims.kongs and draw(st.booleans()):
                        melds.append(Meld("kong", ks + (ks[0],), draw(st.booleans())))
                    else:
                        melds.append(Meld("pon", ks, False))
                    continue
            keep.append((kind, ks))
        tiles = [k for _, ks in keep for k in ks]
    if draw(st.integers(0, 3)) == 0 and tiles:
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.sampled_from(playable))
    d: dict = {}
    wild = None
    if v.wild is not None:
        wild = draw(st.sampled_from(playable if v.wild.mode != "successor" else
                                    [k for cyc in v.wild.cycles for k in cyc if k in playable]))
        if v.wild.mode == "successor":
            d["indicator"] = tile_name(wild)
            wild = v.wild.wild_kind(wild)
        else:
            d["wild"] = tile_name(wild)
        nw = draw(st.integers(0, 4))
        for _ in range(nw):
            if tiles:
                tiles[draw(st.integers(0, len(tiles) - 1))] = wild
    seat = draw(st.integers(0, v.players - 1))
    dealer = draw(st.integers(0, v.players - 1))
    win_by = draw(st.sampled_from(["self_draw", "self_draw", "discard", "discard", "rob_kong", "kong_replacement",
                                   "dealt", "rob_gold"]))
    if win_by == "dealt" and melds:
        win_by = "self_draw"
    if win_by == "kong_replacement" and not any(m.kind == "kong" for m in melds):
        win_by = "self_draw"
    if win_by == "rob_gold" and (v.rob_wild is None or wild is None):
        win_by = "self_draw"
    if not tiles:
        tiles = [playable[0]]
    win_tile = draw(st.sampled_from(tiles))
    if win_by == "rob_gold":
        tiles[tiles.index(win_tile)] = wild
        win_tile = wild
    d.update({"seat": seat, "dealer": dealer, "win_by": win_by,
              "concealed": " ".join(tile_name(k) + ("*" if k == wild else "") for k in sorted(tiles)),
              "melds": [format_meld(m) for m in melds]})
    if win_by != "dealt":
        d["win_tile"] = tile_name(win_tile)
    if win_by in ("discard", "rob_kong"):
        d["discarder"] = draw(st.sampled_from([p for p in range(v.players) if p != seat]))
    if v.tiles.scored_flowers:
        d["flowers"] = [tile_name(k) for k in draw(st.lists(st.sampled_from(list(v.tiles.scored_flowers)),
                                                             max_size=8))]
    d["wild_discards"] = draw(st.integers(0, 2)) if v.wild else 0
    d["dealer_streak"] = draw(st.integers(0, 3))
    for flag in ("first_turn", "first_discard", "declared_ready"):
        d[flag] = draw(st.booleans())
    opts = {}
    for o in v.options:
        if draw(st.integers(0, 3)) == 0:
            if o.type == "bool":
                opts[o.name] = not o.default
            elif o.type == "num":
                opts[o.name] = draw(st.integers(0, 20))
    if opts:
        d["options"] = opts
    return d
