"""Scenarios: dealt hands and wall order given explicitly, plus a list of actions, played to the end.

A scenario is how a disputed hand is reproduced and settled:

    {"variant": "my_variant", "dealer": 0, "options": {},
     "seating_dice": [[3, 4]],    # the seating procedure's throws (instead of "dealer": it decides the dealer)
     "dice": [2, 5],              # the wall break's two dice (logged and observed)
     "hands": ["123m456p789s23s5z7z8s", "...", "...", "..."],   # dealt tiles per seat (the dealer's extra too)
     "wall": "1m2m3m...",          # the rest of the wall in draw order; replacements come from its end
     "indicator": "8s",            # the flipped indicator, if the variant has one (not in the wall)
     "actions": [{"seat": 0, "type": "discard", "tile": "8s"}, {"seat": 1, "type": "win"}, ...],
     "then": "pass"}               # who decides once the actions run out: pass | random | greedy | none
"""
from __future__ import annotations

import json
from typing import Any

from ..model.tiles import TileError, parse_tile, parse_tiles, tile_name
from .agents import PassAgent, decide, make_agent
from .state import Game, IllegalAction

KEYS = {"variant", "dealer", "dealer_streak", "prevalent_wind", "options", "hands", "wall", "indicator", "actions", "then", "seed",
        "expect", "description", "dice", "seating_dice"}


class ScenarioError(ValueError):
    """A malformed scenario, or one that asks for an illegal action; names where and why."""


def load_scenario(text: str) -> dict[str, Any]:
    try:
        sc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ScenarioError(f"line {e.lineno}: not valid JSON: {e.msg}") from None
    if not isinstance(sc, dict) or "hands" not in sc:
        raise ScenarioError("a scenario is a JSON object with at least 'variant' and 'hands'")
    unknown = sorted(set(sc) - KEYS)
    if unknown:
        raise ScenarioError(f"unknown scenario key(s): {', '.join(unknown)}; known: {', '.join(sorted(KEYS))}")
    return sc


def _tiles(text: Any, where: str) -> list[int]:
    if not isinstance(text, str):
        raise ScenarioError(f"{where}: tiles are a string such as \"123m 9s\"")
    try:
        return [t.kind for t in parse_tiles(text)]
    except TileError as e:
        raise ScenarioError(f"{where}: {e}") from None


def play_scenario(engine: Any, sc: dict[str, Any]) -> Game:
    """Play a scenario to the end and return the game (events, outcome)."""
    v = engine.variant
    hands = sc["hands"]
    if not isinstance(hands, list) or len(hands) != v.players:
        raise ScenarioError(f"'hands' lists {v.players} hands, one per seat")
    dealer = sc.get("dealer", 0)
    if not isinstance(dealer, int) or not 0 <= dealer < v.players:
        raise ScenarioError(f"'dealer' is a seat 0..{v.players - 1}")
    seating = None
    if sc.get("seating_dice") is not None:
        from .play import seating_throws

        sd = sc["seating_dice"]
        if not isinstance(sd, list) or not all(isinstance(d, list) for d in sd):
            raise ScenarioError("'seating_dice' is a list of throws, each two dice: [[3, 4]]")
        try:
            seating = seating_throws(v, sc.get("seed", 0), sd)
        except ValueError as e:
            raise ScenarioError(f"seating_dice: {e}") from None
        if "dealer" in sc and sc["dealer"] != seating["dealer"]:
            raise ScenarioError(f"'dealer' is {dealer} but the seating dice make seat {seating['dealer']} the dealer; "
                                "give one or the other")
        dealer = seating["dealer"]
    hs = [_tiles(h, f"hands[{i}]") for i, h in enumerate(hands)]
    for i, h in enumerate(hs):
        want = v.deal.dealer_hand if i == dealer else v.deal.hand
        if len(h) != want:
            raise ScenarioError(f"hands[{i}] has {len(h)} tiles; seat {i} is dealt {want}")
    wall = _tiles(sc.get("wall", ""), "wall")
    indicator = None
    if sc.get("indicator") is not None:
        try:
            indicator = parse_tile(sc["indicator"]).kind
        except (TileError, TypeError) as e:
            raise ScenarioError(f"indicator: {e}") from None
    counts = [0] * 42
    for k in [k for h in hs for k in h] + wall + ([indicator] if indicator is not None else []):
        counts[k] += 1
    for k, c in enumerate(counts):
        if c > v.tiles.copies[k]:
            raise ScenarioError(f"{c} copies of {tile_name(k)} among the hands, wall and indicator; "
                                f"the variant has {v.tiles.copies[k]}")
    opts = sc.get("options") or {}
    names = {o.name for o in v.options}
    for k in opts:
        if k not in names:
            raise ScenarioError(f"unknown option '{k}'")
    wind = sc.get("prevalent_wind", 0)
    if type(wind) is not int or not 0 <= wind <= 3:
        raise ScenarioError(f"'prevalent_wind' is 0..3 (East, South, West, North), not {wind!r}")
    try:
        g = Game(engine, seed=sc.get("seed", 0), dealer=dealer, dealer_streak=sc.get("dealer_streak", 0),
                 options=opts, wall=wall, hands=hs, indicator=indicator, prevalent_wind=wind, dice=sc.get("dice"))
    except ValueError as e:
        raise ScenarioError(str(e)) from None
    g.seating = seating
    then = sc.get("then", "pass")
    fill = PassAgent() if then == "pass" else None if then == "none" else make_agent(then, v, sc.get("seed", 0))
    actions = sc.get("actions") or []
    i = 0
    while not g.over:
        pending = g.pending()
        if i < len(actions):
            a = actions[i]
            if not isinstance(a, dict) or not isinstance(a.get("seat"), int):
                raise ScenarioError(f"action {i + 1}: an action is {{\"seat\": N, \"type\": ...}}, not {a!r}")
            seat = a["seat"]
            act = {k: val for k, val in a.items() if k != "seat"}
            if seat not in pending:
                # seats the script does not mention decide through the fill agent first
                others = [s for s in pending if not _mentioned(actions[i:], s, pending)]
                if others and fill is not None:
                    s = others[0]
                    g.act(s, decide(fill, g, s))
                    continue
                raise ScenarioError(f"action {i + 1} ({_show(a)}): seat {seat} is not to act now ({g.phase_name}); "
                                    f"waiting for seat(s) {', '.join(map(str, pending)) or 'nobody'}")
            try:
                g.act(seat, act)
            except IllegalAction as e:
                raise ScenarioError(f"action {i + 1} ({_show(a)}): {e}") from None
            i += 1
        else:
            if fill is None:
                raise ScenarioError(f"the actions ran out while seat(s) {', '.join(map(str, pending))} must decide "
                                    f"({g.phase_name})")
            s = g.to_act
            g.act(s, decide(fill, g, s))
    if i < len(actions):
        raise ScenarioError(f"action {i + 1} ({_show(actions[i])}): the hand ended before it")
    return g


def _mentioned(rest: list[dict], seat: int, pending: dict) -> bool:
    """Is `seat` named by the script before the pending decision round could end?"""
    for a in rest:
        if isinstance(a, dict) and a.get("seat") == seat:
            return True
        if isinstance(a, dict) and a.get("seat") not in pending:
            return False
    return False


def _show(a: Any) -> str:
    if not isinstance(a, dict):
        return repr(a)
    return f"seat {a.get('seat')} " + " ".join(str(v) for k, v in a.items() if k != "seat")


def describe(g: Game) -> list[str]:
    """The hand for a person: events, winners, payments with their rule ids, the next dealer."""
    out = []
    for e in g.events:
        t = e["type"]
        if t in ("action",):
            continue
        data = ", ".join(f"{k}={v}" for k, v in e.items() if k != "type")
        out.append(f"{t:<14} {data}")
    o = g.outcome or {}
    for w in o.get("winners", []):
        out.append(f"WIN seat {w['seat']} by {w['win_by']}: {' + '.join(w['patterns'])} = {w['value']}")
    for p in o.get("ledger", []):
        if p.get("from") is not None:
            out.append(f"  seat {p['from']} pays seat {p['to']} {p['amount']}  [{p.get('rule') or '-'}] {p['why']}")
        else:
            out.append(f"  {p['why']}  [{p.get('rule') or '-'}]")
    out.append("net: " + "  ".join(f"seat {k}: {v:+}" for k, v in o.get("payments", {}).items()))
    out.append(f"next dealer: seat {o.get('next_dealer')} (streak {o.get('next_streak')})")
    return out
