"""A game's whole state as JSON-ready data, and back: for a server that keeps games between requests.

`to_state(g)` writes every field the state machine reads; `from_state(engine, data)` makes the identical game
for an engine of the same spec (the spec's sha256 and the option values are checked): the same legal actions,
the same future for the same actions, the same log.
"""
from __future__ import annotations

from typing import Any

from ..model.tiles import Meld

STATE_VERSION = 1
_SCALARS = ("seed", "dealer", "dealer_streak", "head", "tail", "full_wall", "wild", "wild2", "indicator",
            "indicator_taken",
            "discard_count", "claims_made", "over", "phase", "current", "drawn", "source", "ld_seat", "ld_tile",
            "ld_first", "rk_seat", "rk_tile", "pre_step", "first_winners", "wall_ended", "kongs_made", "kong_feeder",
            "ld_after_kong")
_SINCE = {"wild2": -1}   # scalars a state written before them lacks, and their value there
_SEAT_SCALARS = ("meld_seq", "first_turn", "declared_ready", "ron_blocked", "wild_discards", "size", "draws", "out",
                 "df_mask", "nc_mask", "nw_mask")


def _plain(x: Any) -> Any:
    if isinstance(x, (bytes, bytearray)):
        return list(x)
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def to_state(g: Any) -> dict[str, Any]:
    """The whole state of g as JSON-ready data."""
    out: dict[str, Any] = {"state": "mjrules-game", "version": STATE_VERSION, "variant": g.v.name,
                           "spec_sha256": g.v.spec_sha256, "options": dict(g.r.overrides)}
    for name in _SCALARS:
        out[name] = getattr(g, name)
    out["seats"] = [{"counts": list(s.counts), "melds": [[m.kind, list(m.tiles), m.concealed] for m in s.melds],
                     "flowers": list(s.flowers), "discards": list(s.discards), "kongs": [dict(k) for k in s.kongs],
                     "picks": list(s.picks), "choices": list(s.choices),
                     **{name: getattr(s, name) for name in _SEAT_SCALARS}} for s in g.seats]
    out["wall"] = list(g.wall)
    out["first_round"] = list(g.first_round)
    out["loose"] = list(g.loose)
    out["winners"] = [{"seat": w.seat, "win_by": w.win_by, "discarder": w.discarder, "result": _plain(w.result)}
                      for w in g.winners]
    out["outcome"] = _plain(g.outcome)
    out["asking"] = list(g.asking)
    out["legal"] = [[p, list(a)] for p, a in g.legal.items()]
    out["answers"] = [[p, a] for p, a in g.answers.items()]
    out["rob_queue"] = list(g.rob_queue)
    out["log"] = [_plain(e) for e in g.log]
    out["ledger"] = [dict(e) for e in g.ledger]
    out["horses"] = list(g.horses)
    out["agent_names"] = g.agent_names
    return out


def from_state(engine: Any, data: dict[str, Any], game: Any, seat: Any, winner: Any, rules_for: Any) -> Any:
    """The game to_state wrote, for `engine`; ValueError when the data is not such a state or is for another
    spec. The state machine's classes (`game`, `seat`, `winner`) and its `rules_for` make it: Game.from_state
    passes its own."""
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
        for name in _SCALARS:
            setattr(g, name, data[name] if name in data or name not in _SINCE else _SINCE[name])
        seats = []
        for d in data["seats"]:
            s = seat()
            s.counts = bytearray(d["counts"])
            s.melds = [Meld(kind, tuple(tiles), bool(conc)) for kind, tiles, conc in d["melds"]]
            for m in s.melds:
                for t in m.tiles:
                    s.meld_counts[t] += 1
            s.flowers = list(d["flowers"])
            s.discards = list(d["discards"])
            s.kongs = [dict(k) for k in d["kongs"]]
            s.picks = list(d["picks"])
            s.choices = list(d["choices"])
            for name in _SEAT_SCALARS:
                setattr(s, name, d[name])
            seats.append(s)
        g.seats = seats
        g.wall = list(data["wall"])
        g.first_round = list(data["first_round"])
        g.loose = list(data["loose"])
        g.winners = [winner(w["seat"], w["win_by"], w["discarder"], w["result"]) for w in data["winners"]]
        g.outcome = data["outcome"]
        g.asking = list(data["asking"])
        g.legal = {p: list(a) for p, a in data["legal"]}
        g.answers = {p: a for p, a in data["answers"]}
        g.rob_queue = list(data["rob_queue"])
        g.log = [tuple(e) for e in data["log"]]
        g.ledger = [dict(e) for e in data["ledger"]]
        g.horses = list(data["horses"])
        g.agent_names = data.get("agent_names")
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"a malformed game state: {e}") from None
    return g
