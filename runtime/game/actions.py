"""The game's actions and phases as stable integers, the same for every variant: what an agent, a log or an
observation names. (The state machine, mjrules.game.state, compiles them as C enums of the same values.)"""
from __future__ import annotations

from typing import Any

from ..model.tiles import TILE_NAMES

N_KINDS = 42
DISCARD = 0            # DISCARD + kind: discard a tile of that kind
KONG = 42              # KONG + kind: a kong of that kind (concealed or added on one's turn, exposed on a discard)
PON = 84
CHI_LOW = 85           # chi with the claimed tile the lowest of the run
CHI_MID = 86           # ... the middle one
CHI_HIGH = 87          # ... the highest one
WIN = 88               # win: self-drawn on one's turn, on the discard, on the robbed kong
PASS = 89
DECLARE_READY = 90     # 报听 and the like: declare ready before play
ROB_WILD = 91          # rob the flipped wild indicator (抢金)
SELECT = 92            # SELECT + kind: pick a tile to pass in an exchange (换三张)
CHOOSE = 134           # CHOOSE + i: name the i-th choice of a declaration (定缺)
ABORT = 142            # call an abortive draw offered on one's first turn (九種九牌)
N_ACTIONS = 143

SETUP = 0              # phases
READY = 1
TURN = 2
ROB_WILD_PHASE = 3
CLAIMS = 4
ROB_KONG = 5
OVER = 6
EXCHANGE = 7
DECLARE = 8

ACTION_IDS = {"discard": DISCARD, "kong": KONG, "pon": PON, "chi_low": CHI_LOW, "chi_mid": CHI_MID,
              "chi_high": CHI_HIGH, "win": WIN, "pass": PASS, "declare_ready": DECLARE_READY,
              "rob_gold": ROB_WILD, "select": SELECT, "choose": CHOOSE, "abort": ABORT, "n_actions": N_ACTIONS}
PHASES = ("setup", "ready", "turn", "rob_wild", "claims", "rob_kong", "over", "exchange", "declare")
KONG_KINDS = ("exposed", "added", "concealed")
SIMPLE_ACTIONS = {"pon": PON, "win": WIN, "pass": PASS, "declare_ready": DECLARE_READY, "rob_gold": ROB_WILD,
                  "abort": ABORT}
_NAMES = TILE_NAMES


class IllegalAction(ValueError):
    """An action that is not legal now; the game state is unchanged."""


def describe_action(a: int, detail: Any) -> dict[str, Any]:
    """The readable action of id `a` (detail: a kong's kind, a chi's claimed tile, a declaration's choice name)."""
    if 0 <= a < KONG:
        return {"type": "discard", "tile": _NAMES[a]}
    if SELECT <= a < CHOOSE:
        return {"type": "select", "tile": _NAMES[a - SELECT]}
    if CHOOSE <= a < ABORT:
        return {"type": "choose", "choice": detail if isinstance(detail, str) else a - CHOOSE}
    if KONG <= a < PON:
        return {"type": "kong", "tile": _NAMES[a - KONG], "kind": KONG_KINDS[detail] if detail >= 0 else "any"}
    if CHI_LOW <= a <= CHI_HIGH:
        if detail < 0:
            return {"type": "chi", "tiles": [("low", "mid", "high")[a - CHI_LOW]]}
        lo = detail if a == CHI_LOW else detail - 1 if a == CHI_MID else detail - 2
        return {"type": "chi", "tiles": sorted([_NAMES[t] for t in (lo, lo + 1, lo + 2) if t != detail])}
    for t, x in SIMPLE_ACTIONS.items():
        if x == a:
            return {"type": t}
    raise IllegalAction(f"no action has the id {a!r}")
