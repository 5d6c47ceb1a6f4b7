"""A game's log: the compact records the state machine appends, as the JSON-ready event dicts users read.

The game records each event as a small tuple (cheap to make, most are never read); `Game.events` turns them
into dicts, in this format (the log format of `mjrules simulate --out` and `mjrules replay`):

    start         variant, dealer, dealer_streak, seed, dice (the wall break's two dice)
    deal          hands (each seat's tiles, sorted), wall (tiles left)
    wild          indicator (when one was flipped), wild (and wild_kinds, both, where there are two)
    flowers       seat, tiles [, flipped: the indicator's flip turned up a flower]
    draw          seat, tile, tail (a replacement from the tail)
    action        seat, action (what the seat decided, as a readable action)
    discard       seat, tile [, marked: the copy let go is a marked one]
    pon / chi     seat, tile, discarder [, tiles: the chi's two tiles from the hand]
    kong          seat, kind (exposed, added, concealed), tile [, discarder]
    kong_declared seat, kind, tile (an added kong, before anyone may rob it)
    final_round   draws
    auto_win      seat
    win           seat, win_by, discarder, patterns, value
    horses        tiles, seats (the horses turned at the first win, and the seat each points at: null for none)
    show          seat, opening, count, hand (a hand shown at the deal: the opening's name, its count, the tiles)
    pay           from, to, amount, why (a payment made during the hand: a kong paid at once, on_win)
    exchange      seat, to, tiles (the tiles a seat passed)
    declare       seat, name, choice (a seat's choice in a declaration)
    exhausted     reason
    indicator     tile (an indicator turned: indicator_stacks)
    abort         name, label (an abortive draw ended the hand)
    liable        seat, for, name (a claim made the discarder liable for the claimer's win counting name: 包)
    stake         seat, amount, pot (a ready declaration stands: its stake goes into the pot, which now holds pot)
    end           winners, payments, next_dealer, next_streak [, pot: the stakes left on the table, where the
                  spec has a stake]
"""
from __future__ import annotations

from typing import Any

from ..model.tiles import TILE_NAMES
from .actions import KONG_KINDS, describe_action

_NAMES = TILE_NAMES


def _sorted_names(counts: bytes) -> list[str]:
    return sorted(_NAMES[k] for k in range(len(counts)) for _ in range(counts[k]))


def event_dict(g: Any, e: tuple) -> dict[str, Any]:
    """One log record of game g as its event dict."""
    t = e[0]
    if t == "draw":
        return {"type": "draw", "seat": e[1], "tile": _NAMES[e[2]], "tail": bool(e[3])}
    if t == "action":
        return {"type": "action", "seat": e[1], "action": describe_action(e[2], e[3])}
    if t == "discard":
        if len(e) > 3:   # a marked copy
            return {"type": "discard", "seat": e[1], "tile": _NAMES[e[2]], "marked": True}
        return {"type": "discard", "seat": e[1], "tile": _NAMES[e[2]]}
    if t == "pon":
        return {"type": "pon", "seat": e[1], "tile": _NAMES[e[2]], "discarder": e[3]}
    if t == "chi":
        return {"type": "chi", "seat": e[1], "tile": _NAMES[e[2]], "discarder": e[3],
                "tiles": sorted([_NAMES[e[4]], _NAMES[e[5]]])}
    if t == "kong":
        d = {"type": "kong", "seat": e[1], "kind": KONG_KINDS[e[2]], "tile": _NAMES[e[3]]}
        if e[4] >= 0:
            d["discarder"] = e[4]
        return d
    if t == "kong_declared":
        return {"type": "kong_declared", "seat": e[1], "kind": "added", "tile": _NAMES[e[2]]}
    if t == "flowers":
        d = {"type": "flowers", "seat": e[1], "tiles": [_NAMES[k] for k in e[2]]}
        if e[3]:
            d["flipped"] = True
        return d
    if t == "wild":
        d = {"type": "wild", "wild": _NAMES[e[2]]} if e[1] < 0 else \
            {"type": "wild", "indicator": _NAMES[e[1]], "wild": _NAMES[e[2]]}
        if len(e) > 3:   # a second wild kind
            d["wild_kinds"] = [_NAMES[e[2]], _NAMES[e[3]]]
        return d
    if t == "start":
        return {"type": "start", "variant": g.v.name, "dealer": e[1], "dealer_streak": e[2], "seed": e[3],
                "dice": list(e[4])}
    if t == "deal":
        return {"type": "deal", "hands": [_sorted_names(c) for c in e[1]], "wall": e[2]}
    if t == "final_round":
        return {"type": "final_round", "draws": e[1]}
    if t == "auto_win":
        return {"type": "auto_win", "seat": e[1]}
    if t == "win":
        return {"type": "win", "seat": e[1], "win_by": e[2], "discarder": e[3], "patterns": list(e[4]),
                "value": e[5]}
    if t == "horses":
        frm = g.r.horse_from   # counted from the payer: each payment counts them its own way, so no seat here
        base = g.dealer if frm == "dealer" else g.winners[0].seat if frm == "winner" and g.winners else -1
        seats = [None if g.r.horse_seat[k] < 0 or base < 0 else (base + g.r.horse_seat[k]) % g.n for k in e[1]]
        return {"type": "horses", "tiles": [_NAMES[k] for k in e[1]], "seats": seats}
    if t == "show":
        return {"type": "show", "seat": e[1], "opening": e[2], "count": e[3], "hand": [_NAMES[k] for k in e[4]]}
    if t == "pay":
        return {"type": "pay", "from": e[1], "to": e[2], "amount": e[3], "why": e[4]}
    if t == "exchange":
        return {"type": "exchange", "seat": e[1], "to": e[2], "tiles": [_NAMES[k] for k in e[3]]}
    if t == "declare":
        return {"type": "declare", "seat": e[1], "name": e[2], "choice": e[3]}
    if t == "exhausted":
        return {"type": "exhausted", "reason": e[1]}
    if t == "liable":
        return {"type": "liable", "seat": e[1], "for": e[2], "name": e[3]}
    if t == "abort":
        return {"type": "abort", "name": e[1], "label": e[2]}
    if t == "indicator":
        return {"type": "indicator", "tile": _NAMES[e[1]]}
    if t == "stake":
        return {"type": "stake", "seat": e[1], "amount": e[2], "pot": e[3]}
    if t == "end":
        out = {"type": "end", "winners": e[1], "payments": {str(p): x for p, x in e[2].items()}, "next_dealer": e[3],
               "next_streak": e[4]}
        if len(e) > 5:
            out["pot"] = e[5]
        return out
    raise ValueError(f"unknown log record {t!r}")  # pragma: no cover - the game writes only these
