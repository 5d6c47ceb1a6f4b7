"""What a learning agent sees and chooses among, derived from the variant: the observation vector and the action
space of one variant under one set of option values.

The observation is a seat's `Game.observe(seat)` (mjrules.game.observe) narrowed to what the variant can show,
flattened to one float32 vector:

    hand        K        the seat's concealed tiles, by playable kind
    melds       P x K    each seat's melded tiles (seats counted from this one)
    discards    P x K    each seat's discards still on the table
    flowers     P x F    each seat's scored flowers, by flower kind (only where the variant has flowers)
    wild        K        1 at each wild kind (only where the variant has wilds under these options)
    indicator   I        1 at the face-up indicator's kind (only where wilds come from a flipped indicator)
    claim_tile  K        1 at the tile on offer (a discard to claim, a kong to rob)
    facts       5 + 2P   dealer, to_act (relative; -1 when nobody), phase, drawable tiles, dealer streak (capped
                         at 99), each seat's ready declaration, each seat's concealed count

K are the variant's playable kinds (34 with honours, 27 without), F its scored flower kinds, I every kind of the
tile set, P the players. The action space is Discrete(A) over the game's action ids the variant can ever use
(`Encoding.action_ids`: the discards and kongs of its playable kinds, pon and chi where it claims them, win,
pass, and its ready declaration, gold robbing, exchange and declaration choices); action i is the game's action
id `action_ids[i]`, and the action mask marks the legal ones.
"""
from __future__ import annotations

import reprlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..game.actions import (
    ABORT,
    CHI_HIGH,
    CHI_LOW,
    CHI_MID,
    CHOOSE,
    DECLARE_READY,
    DISCARD,
    KONG,
    N_ACTIONS,
    N_KINDS,
    PASS,
    PHASES,
    PON,
    ROB_WILD,
    SELECT,
    WIN,
)
from ..game.observe import planes
from ..game.rules import rules_for

STREAK_CAP = 99
RESET_OPTIONS = ("dealer", "dealer_streak")   # the keys reset(options=...) takes


class Encoding:
    """The observation layout and the action space of one variant under one set of option values."""

    def __init__(self, engine: Any, options: dict[str, Any] | None = None):
        r = rules_for(engine, options)
        v = engine.variant
        n = self.players = r.n
        kinds = self.kinds = [k for k in v.tiles.playable if k < 34]
        flowers = self.flower_kinds = [k for k in v.tiles.scored_flowers]
        has_wild = self.has_wild = bool(r.has_wild)
        self.has_indicator = has_wild and any(k >= 0 for k in r.wild_of)
        all_kinds = list(v.tiles.kinds)
        # the gather index into observe()'s arrays laid end to end (game.observe.planes, then the facts): hand,
        # melds, discards, flowers, wild, indicator, claim_tile, facts
        base = {"hand": 0, "melds": N_KINDS, "discards": N_KINDS * (1 + n), "flowers": N_KINDS * (1 + 2 * n),
                "wild": N_KINDS * (1 + 3 * n), "indicator": N_KINDS * (2 + 3 * n),
                "claim_tile": N_KINDS * (3 + 3 * n), "facts": N_KINDS * (4 + 3 * n)}
        copies = r.copies
        idx: list[int] = []
        low: list[float] = []
        high: list[float] = []
        names: list[str] = []

        def take(key: str, offset: int, ks: list[int], hi: Any, label: str) -> None:
            for k in ks:
                idx.append(base[key] + offset + k)
                low.append(0)
                high.append(hi(k))
                names.append(label)

        take("hand", 0, kinds, lambda k: copies[k], "hand")
        for key in ("melds", "discards"):
            for i in range(n):
                take(key, i * N_KINDS, kinds, lambda k: copies[k], f"{key}[{i}]")
        for i in range(n):
            take("flowers", i * N_KINDS, flowers, lambda k: copies[k], f"flowers[{i}]")
        if has_wild:
            take("wild", 0, kinds, lambda k: 1, "wild")
        if self.has_indicator:
            take("indicator", 0, all_kinds, lambda k: 1, "indicator")
        take("claim_tile", 0, kinds, lambda k: 1, "claim_tile")
        f = base["facts"]
        facts = [("dealer", 1, 0, n - 1), ("to_act", 2, -1, n - 1), ("phase", 3, 0, len(PHASES) - 1),
                 ("drawable", 4, 0, len(r.tiles)), ("dealer_streak", 5, 0, STREAK_CAP), ("prevalent_wind", 6, 0, 3)]
        facts += [(f"declared_ready[{i}]", 7 + i, 0, 1) for i in range(n)]
        facts += [(f"concealed[{i}]", 7 + n + i, 0, max(r.win_size, r.dealer_hand)) for i in range(n)]
        for label, at, lo, hi in facts:
            idx.append(f + at)
            low.append(lo)
            high.append(hi)
            names.append(label)
        self.n_tiles = len(idx) - len(facts)   # the features read from the tile planes; then the facts'
        self.fact_at = [at for _, at, _, _ in facts]
        self.streak_at = names.index("dealer_streak")
        self.gather = np.array(idx, dtype=np.intp)
        self.low = np.array(low, dtype=np.float32)
        self.high = np.array(high, dtype=np.float32)
        self.feature_names = tuple(names)
        self.size = len(idx)
        ids = [DISCARD + k for k in kinds]
        if r.kong_exposed or r.kong_added or r.kong_concealed:
            ids += [KONG + k for k in kinds]
        if r.pon:
            ids.append(PON)
        if r.chi_from:
            ids += [CHI_LOW, CHI_MID, CHI_HIGH]
        ids += [WIN, PASS]
        if r.has_rd:
            ids.append(DECLARE_READY)
        if r.has_rob_wild:
            ids.append(ROB_WILD)
        if any(step[0] == "exchange" for step in r.pre):
            ids += [SELECT + k for k in kinds]
        choices = max([len(step[1].choices) for step in r.pre if step[0] == "declare"], default=0)
        ids += [CHOOSE + i for i in range(choices)]
        if r.aborts_first:
            ids.append(ABORT)
        self.action_ids = np.array(ids, dtype=np.int64)
        self.n_actions = len(ids)
        lut = np.full(N_ACTIONS, -1, dtype=np.int64)
        lut[self.action_ids] = np.arange(self.n_actions)
        self.index_of = lut
        self._index_list = lut.tolist()

    # ---- encoding one seat's view -------------------------------------------------------------------------
    def observation(self, game: Any, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The seat's observation vector (float32[size]); written into `out` when given."""
        b, facts = planes(game, seat)
        if out is None:
            out = np.empty(self.size, dtype=np.float32)
        m = self.n_tiles
        out[:m] = np.frombuffer(b, dtype=np.int8)[self.gather[:m]]
        out[m:] = [facts[i] for i in self.fact_at]
        out[self.streak_at] = min(out[self.streak_at], STREAK_CAP)
        return out

    def mask(self, game: Any, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The seat's legal actions as an int8 mask over this action space (all zero when it is not to decide)."""
        if out is None:
            out = np.zeros(self.n_actions, dtype=np.int8)
        else:
            out[:] = 0
        ids = game.legal_ids(seat)
        if ids:
            lut = self._index_list
            at = [lut[a] for a in ids]
            if -1 in at:  # pragma: no cover - the action space is derived from the same rules
                missing = [a for a, i in zip(ids, at) if i < 0]
                raise RuntimeError(f"the action space of {game.v.name} has no room for the legal action(s) {missing}")
            out[at] = 1
        return out

    def action_index(self, action: Any) -> int:
        """`action` as an index of this action space, checked: a Python int (not a bool), a NumPy integer scalar
        or a 0-d NumPy integer array, in 0..A-1. Anything else (a float, even a whole one, a string, a bool,
        None, a list, an array of another shape or dtype, an integer out of range) raises IllegalAction."""
        from ..game.actions import IllegalAction

        if is_integer(action):
            i = int(action)
        else:
            raise IllegalAction(f"an action is an integer 0..{self.n_actions - 1} (a Python or NumPy integer), "
                                f"not {_shown(action)}")
        if not 0 <= i < self.n_actions:
            raise IllegalAction(f"an action is an integer 0..{self.n_actions - 1}, not {_shown(i)}")
        return i

    def game_action(self, action: Any) -> int:
        """The game's action id of action index `action` (IllegalAction when it is not in the action space:
        see action_index)."""
        return int(self.action_ids[self.action_index(action)])

    def reset_options(self, options: Any, ignored: tuple[str, ...] = ()) -> tuple[int | None, int]:
        """The (dealer, dealer_streak) a reset's `options` fix, checked against the observation space's bounds:
        "dealer" a seat 0..P-1 (None when not given: the environment's generator draws it), "dealer_streak" a
        count 0..99 (0 when not given), each a Python or NumPy integer (not a bool); no other key but those in
        `ignored`. ValueError otherwise."""
        if options is None:
            return None, 0
        if not isinstance(options, Mapping):
            # ValueError, as for every bad reset option (one documented exception to catch)
            raise ValueError(f"reset options are a dict (or None), not {_shown(options)}")  # noqa: TRY004
        unknown = [k for k in options if k not in RESET_OPTIONS and k not in ignored]
        if unknown:
            raise ValueError(f"unknown reset option {_shown(unknown[0])}: the options are "
                             f"{', '.join(repr(k) for k in RESET_OPTIONS)}")
        dealer = options.get("dealer")
        if dealer is not None:
            dealer = _bounded(dealer, "dealer", 0, self.players - 1, "a seat")
        streak = options.get("dealer_streak", 0)
        return dealer, _bounded(streak, "dealer_streak", 0, STREAK_CAP, "a count")

    # ---- spaces -------------------------------------------------------------------------------------------
    def observation_space(self) -> Any:
        """Dict(observation=Box(float32[size]), action_mask=Box(int8[A], 0..1)): a new space object."""
        from gymnasium import spaces

        return spaces.Dict({"observation": spaces.Box(self.low, self.high, dtype=np.float32),
                            "action_mask": spaces.Box(0, 1, (self.n_actions,), dtype=np.int8)})

    def action_space(self) -> Any:
        """Discrete(A): a new space object."""
        from gymnasium import spaces

        return spaces.Discrete(self.n_actions)


def is_integer(x: Any) -> bool:
    """Whether x is one integer: a Python int (not a bool), a NumPy integer scalar or a 0-d NumPy integer array
    (by dtype: a timedelta64, a NumPy integer subclass, is not one)."""
    if isinstance(x, int):
        return not isinstance(x, bool)
    return isinstance(x, (np.generic, np.ndarray)) and x.shape == () and x.dtype.kind in "iu"


def _shown(x: Any) -> str:
    """A value as an error message shows it: its repr cut short (a huge integer by its size), with its type when
    that is not a plain Python one."""
    if isinstance(x, int) and not isinstance(x, bool) and abs(x) >= 10**30:
        digits = len(str(abs(x))) if x.bit_length() < 13000 else f"about {int(x.bit_length() * 0.30103)}"
        text = f"an integer of {digits} digits"   # (str() of a longer one raises ValueError)
    else:
        try:
            text = reprlib.repr(x)
        except Exception:  # noqa: BLE001 - an object whose repr fails is still refused in one line
            text = f"a {type(x).__name__}"
    if type(x) not in (int, float, str, list, dict, tuple, type(None), bool):
        text += f" ({type(x).__module__}.{type(x).__name__})" if type(x).__module__ != "builtins" \
            else f" ({type(x).__name__})"
    return text


def _bounded(x: Any, name: str, low: int, high: int, what: str) -> int:
    """A reset option's integer value in low..high, or ValueError."""
    if not is_integer(x) or not low <= int(x) <= high:
        raise ValueError(f"reset option {name!r} must be {what} {low}..{high} (an integer), not {_shown(x)}")
    return int(x)
