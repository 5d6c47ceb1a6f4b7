"""A game's whole state as JSON-ready data, and back: for a server that keeps games between requests.

`to_state(g)` writes every field the state machine reads; `from_state(engine, data)` makes the identical game
for an engine of the same spec (the spec's sha256 and the option values are checked): the same legal actions,
the same future for the same actions, the same log.
"""
from __future__ import annotations

from typing import Any

from ..model.tiles import Meld
from .rules import rules_for
from .seat import SEAT_LISTS, SEAT_SCALARS, Seat, Winner

STATE_VERSION = 1
# A game's fields, named once: Game.copy (copy_fields), to_state and from_state read these lists. A field of the
# state machine that is in neither is made by deal_hand from the rules and the seed (tests/test_game_api.py holds
# every field of state.pxd's Game to one or the other).
SCALARS = ("seed", "dealer", "dealer_streak", "head", "tail", "full_wall", "wild", "wild2", "indicator",
           "indicator_taken", "discard_count", "claims_made", "over", "phase", "current", "drawn", "source", "ld_seat",
           "ld_tile", "ld_first", "rk_seat", "rk_tile", "pre_step", "first_winners", "wall_ended", "kongs_made",
           "kong_feeder", "ld_after_kong", "outcome", "agent_names", "prevalent_wind", "seating", "pot", "stake_seat", "passing",
           "ind_base", "ind_shown", "ind_pending", "ld_marked", "drawn_marked", "rk_concealed",
           "aborted", "on_offer")
LISTS = ("wall", "first_round", "loose", "asking", "rob_queue", "horses", "shown", "opening_counts",
         "dice", "stakes", "wall_marked", "liabilities")   # lists of immutable items
CONTAINERS = ("seats", "winners", "legal", "answers", "log", "ledger")   # each copied and written its own way
_SINCE = {"wild2": -1, "agent_names": None, "prevalent_wind": 0, "shown": [], "opening_counts": [], "dice": [],
          "seating": None, "pot": 0, "stake_seat": -1, "stakes": [], "passing": 0, "ind_base": 0,
          "ind_shown": 0, "ind_pending": 0, "ld_marked": False, "drawn_marked": False, "rk_concealed": False,
          "wall_marked": [], "aborted": "", "on_offer": False,
          "liabilities": []}   # fields a state written before them lacks, and their value there


def copy_fields(src: Any, dst: Any) -> None:
    """Every field of src's state into dst (a game dealt from the same rules), copied so the two are independent:
    the same legal actions and the same future for the same actions."""
    for name in SCALARS:
        setattr(dst, name, getattr(src, name))
    for name in LISTS:
        setattr(dst, name, list(getattr(src, name)))
    dst.seats = [s.copy() for s in src.seats]
    dst.winners = list(src.winners)   # (a Winner is not changed once made)
    dst.legal = {p: list(a) for p, a in src.legal.items()}
    dst.answers = dict(src.answers)
    dst.log = list(src.log)
    dst.ledger = [dict(e) for e in src.ledger]


def _plain(x: Any) -> Any:
    if isinstance(x, (bytes, bytearray)):
        return list(x)
    if isinstance(x, dict):   # (a seat key, as in payments, written as JSON writes it: a string)
        return {str(k) if type(k) is int else k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def _seat_keys(d: Any) -> Any:
    """A result or outcome read from JSON, its payments keyed by seat numbers again."""
    if isinstance(d, dict) and isinstance(d.get("payments"), dict):
        d = {**d, "payments": {int(k): v for k, v in d["payments"].items()}}
    return d


def to_state(g: Any) -> dict[str, Any]:
    """The whole state of g as JSON-ready data."""
    out: dict[str, Any] = {"state": "mjrules-game", "version": STATE_VERSION, "variant": g.v.name,
                           "spec_sha256": g.v.spec_sha256, "options": dict(g.r.overrides)}
    for name in SCALARS:
        out[name] = _plain(getattr(g, name))
    for name in LISTS:
        out[name] = list(getattr(g, name))
    out["winners"] = [{"seat": w.seat, "win_by": w.win_by, "discarder": w.discarder, "result": _plain(w.result)}
                      for w in g.winners]
    out["seats"] = [{"counts": list(s.counts), "marked_hand": list(s.marked_hand), "marked_meld": list(s.marked_meld),
                     "melds": [[m.kind, list(m.tiles), m.concealed] for m in s.melds],
                     "kongs": [dict(k) for k in s.kongs],
                     **{name: list(getattr(s, name)) for name in SEAT_LISTS},
                     **{name: getattr(s, name) for name in SEAT_SCALARS}} for s in g.seats]
    out["legal"] = [[p, list(a)] for p, a in g.legal.items()]
    out["answers"] = [[p, a] for p, a in g.answers.items()]
    out["log"] = [_plain(e) for e in g.log]
    out["ledger"] = [dict(e) for e in g.ledger]
    return out


def from_state(engine: Any, data: dict[str, Any], game: Any) -> Any:
    """The game to_state wrote, for `engine`; ValueError when the data is not such a state or is for another
    spec. `game` is the state machine's class (Game.from_state passes its own)."""
    if not isinstance(data, dict) or data.get("state") != "mjrules-game":
        raise ValueError("not a game state (mjrules-game)")
    if data.get("version") != STATE_VERSION:
        raise ValueError(f"game state version {data.get('version')!r}; this mjrules reads {STATE_VERSION}")
    if data.get("spec_sha256") != engine.variant.spec_sha256:
        raise ValueError(f"the game state is of another spec ({str(data.get('spec_sha256'))[:12]}), not "
                         f"{engine.variant.name} ({engine.variant.spec_sha256[:12]})")
    try:
        r = rules_for(engine, data.get("options") or None)
        g = game.__new__(game)
        g.deal_hand(r, data["seed"], data["dealer"], data["dealer_streak"])
        for name in SCALARS:
            setattr(g, name, data[name] if name in data or name not in _SINCE else _SINCE[name])
        for name in LISTS:
            setattr(g, name, list(data[name] if name in data or name not in _SINCE else _SINCE[name]))
        g.winners = [Winner(w["seat"], w["win_by"], w["discarder"], _seat_keys(w["result"])) for w in data["winners"]]
        g.outcome = _seat_keys(g.outcome)
        seats = []
        for d in data["seats"]:
            s = Seat()
            s.counts = bytearray(d["counts"])
            if "marked_hand" in d:
                s.marked_hand = bytearray(d["marked_hand"])
                s.marked_meld = bytearray(d["marked_meld"])
            s.kongs = [dict(k) for k in d["kongs"]]
            for name in SEAT_SCALARS:
                if name in d:   # (a state written before a field was added leaves the new seat's default)
                    setattr(s, name, d[name])
            for name in SEAT_LISTS:
                setattr(s, name, list(d[name]))
            s.melds = [Meld(kind, tuple(tiles), bool(conc)) for kind, tiles, conc in d["melds"]]
            for m in s.melds:
                for t in m.tiles:
                    s.meld_counts[t] += 1
            seats.append(s)
        g.seats = seats
        g.legal = {p: list(a) for p, a in data["legal"]}
        g.answers = {p: a for p, a in data["answers"]}
        g.log = [tuple(e) for e in data["log"]]
        g.ledger = [dict(e) for e in data["ledger"]]
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"a malformed game state: {e}") from None
    return g
