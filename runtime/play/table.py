"""A table for one person against built-in agents, driven through the game's step API: the person's seat waits
for their decision, every other seat's agent decides as soon as it is asked. `state()` is what the page shows:
only what the person's seat may see (the game's view), their legal actions, the hand so far, and once it is over
each win's explanation with its rule ids and the settlement.

Nothing in `state()` is private to another seat while the hand is live: not their concealed tiles, not the wall,
and not the hand's seed (with it, `Game(engine, seed=..., dealer=...)` deals every hand and the wall again). The
seed is shown once the hand is over (or abandoned), with the dealer and streak, so the hand can be replayed."""
from __future__ import annotations

import secrets
import threading
from typing import Any

from ..game import MAX_DECISIONS, Game, IllegalAction, make_agent
from ..game.match import Match
from ..game.play import agent_seed, seating_throws
from ..game.simulate import check_options
from ..game.state import StalledGame
from ..model.tiles import tile_name

LOG_LINES = 14   # the last events the page shows
SECRET_BITS = 53  # a secret seed: a whole number JavaScript holds exactly


class Conflict(Exception):
    """A request the table cannot take in its present state: a stale hand number, a new hand while one is live,
    an abandoned hand played on. The server answers it with 409."""


class Table:
    """Matches of one variant (mjrules.game.match): the person at `seat`, agents (by name) at the others. Each new
    hand takes the dealer, streak, prevalent wind and stakes the match gives it, and a new seed: the next one after
    `seed` when one is given (a reproducible sequence), else a fresh secret one from `secrets` for every hand. A
    finished hand counts in the match's scores; once the match is over, the next hand begins a new match."""

    def __init__(self, engine: Any, *, seat: int = 0, agents: list[str] | None = None, seed: int | None = None,
                 options: dict[str, Any] | None = None):
        n = engine.variant.players
        if not 0 <= seat < n:
            raise ValueError(f"--seat {seat}: the variant has seats 0..{n - 1}")
        agents = agents or ["greedy"]
        if len(agents) == 1:
            agents = agents * n
        if len(agents) != n:
            raise ValueError(f"give one agent, or one per seat ({n}), not {len(agents)}")
        for name in agents:
            make_agent(name, engine.variant, 0)   # an unknown name: ValueError naming the known ones
        options = check_options(engine.variant, options)   # an unknown option or a wrong type: ValueError
        self.engine, self.seat, self.agent_names, self.options = engine, seat, agents, options or {}
        self.lock = threading.Lock()
        self.secret = seed is None
        self.seed = secrets.randbits(SECRET_BITS) if seed is None else seed
        self.hand_no, self.abandoned = 0, False
        self.match_no = 0
        self.match = self._new_match()
        self.game: Game = self._deal()

    def _new_match(self) -> Match:
        self.match_no += 1
        return Match(self.engine, self.options or None, seating=seating_throws(self.engine.variant, self.seed))

    @property
    def finished(self) -> bool:
        """The hand is over: played to its end, or abandoned."""
        return self.abandoned or self.game.over

    def _deal(self) -> Game:
        self.deal = self.match.deal()   # the dealer, streak, prevalent wind and pot of this hand
        g = Game(self.engine, seed=self.seed, options=self.options or None, **self.deal)
        self.agents = [None if p == self.seat else make_agent(a, self.engine.variant, agent_seed(self.seed, p))
                       for p, a in enumerate(self.agent_names)]
        self.hand_no += 1
        self.abandoned = False
        self._advance(g)
        return g

    def _advance(self, g: Game) -> None:
        """Let the agents decide, in the order the game asks (`to_act`, as `run` does), until it is the person's
        turn to decide or the hand is over (then the match counts it)."""
        for _ in range(MAX_DECISIONS):
            p = g.to_act
            if g.over:
                self.match.record(g)
                return
            if p == self.seat:
                return
            g.act(p, self.agents[p].act(g, p))
        raise StalledGame(f"no end after {MAX_DECISIONS} decisions")

    def _check_hand(self, hand: int | None) -> None:
        if hand is not None and hand != self.hand_no:
            raise Conflict(f"hand {hand} is not the table's hand (hand {self.hand_no})")

    def act(self, action: int | dict[str, Any], hand: int | None = None) -> None:
        """The person's decision (an action id or a readable action) in hand `hand` (None: the present one);
        IllegalAction or Conflict changes nothing."""
        with self.lock:
            self._check_hand(hand)
            if self.abandoned:
                raise Conflict(f"hand {self.hand_no} was abandoned; deal a new hand")
            self.game.act(self.seat, action)
            self._advance(self.game)

    def abandon(self, hand: int | None = None) -> None:
        """Void the live hand `hand` (None: the present one): no settlement, every hand is laid open and the seed
        shown; the next hand is dealt as this one was (dealer, streak, wind, pot). Conflict when it is over or not
        the table's."""
        with self.lock:
            self._check_hand(hand)
            if self.finished:
                raise Conflict(f"hand {self.hand_no} is already over")
            self.abandoned = True

    def new_hand(self, hand: int | None = None) -> None:
        """Deal the next hand once hand `hand` (None: the present one) is over or abandoned: a new seed; the
        dealer, streak and wind the match gives (an abandoned hand's own); a new match once the match is over.
        Conflict otherwise."""
        with self.lock:
            self._check_hand(hand)
            if not self.finished:
                raise Conflict(f"hand {self.hand_no} is not over; abandon it first")
            self.seed = secrets.randbits(SECRET_BITS) if self.secret else self.seed + 1
            if self.match.over:
                self.match = self._new_match()
            self.game = self._deal()

    # ---- what the page shows ----------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The person's view of the table, JSON-ready."""
        with self.lock:
            g, me = self.game, self.seat
            done = self.finished
            view = g.view(me)
            legal = g.legal_ids(me) if not done else []
            v = self.engine.variant
            players = []
            for p, info in enumerate(view["players"]):
                players.append({**info, "seat": p, "name": "you" if p == me else self.agent_names[p],
                                "dealer": p == view["dealer"],
                                "melds": [_meld_tiles(m) for m in info["melds"]]})
            drawn = view["drawn"]
            concealed = list(view["concealed"])
            if drawn is not None and drawn in concealed:
                concealed.remove(drawn)
            return {
                "variant": v.name, "label": " / ".join(v.labels) if getattr(v, "labels", None) else v.name,
                "seat": me, "hand": self.hand_no, "seed": self.seed if done else None, "step": len(g.events),
                "phase": "abandoned" if self.abandoned else view["phase"], "to_act": -1 if done else g.to_act,
                "dealer": view["dealer"], "wall": view["drawable"],
                "wild": view["wild_kinds"], "indicator": view["indicator"], "last_discard": view["last_discard"],
                "concealed": concealed, "drawn": drawn, "players": players,
                "legal": [{"id": a, **g.action_dict(a, me)} for a in legal],
                "log": ([describe_event(e, me, reveal=done) for e in g.events if e["type"] != "action"]
                        + (["the hand was abandoned: no settlement"] if self.abandoned else []))[-LOG_LINES:],
                "over": done, "abandoned": self.abandoned, "result": self._result() if done else None,
                "match": {"number": self.match_no, "prevalent_wind": self.deal["prevalent_wind"],
                          **{k: x for k, x in self.match.result().items() if k != "seating"}},
            }

    def _result(self) -> dict[str, Any]:
        g = self.game
        if self.abandoned:
            out = {"wins": [], "hands": _hands(g), "payments": {str(p): 0 for p in range(g.n)}, "ledger": [],
                   "next_dealer": g.dealer, "next_streak": g.dealer_streak}
        else:
            out = _result(g)
        out["abandoned"] = self.abandoned
        out["replay"] = {"variant": self.engine.variant.name, "seed": self.seed, "dealer": g.dealer,
                         "dealer_streak": g.dealer_streak, "prevalent_wind": g.prevalent_wind,
                         "options": dict(self.options), **({"pot": self.deal["pot"]} if self.deal["pot"] else {})}
        return out


def _meld_tiles(meld: str) -> list[str]:
    """'[555z]' -> ['5z', '5z', '5z']; '{1111m}' (concealed) likewise."""
    from ..model.tiles import parse_tiles, tile_name

    body = meld.strip("[]{}")
    try:
        return [tile_name(t.kind) for t in parse_tiles(body)]
    except ValueError:
        return [body]


def _result(g: Game) -> dict[str, Any]:
    """The hand's end: each win with its explanation (the evaluator's lines, each with its rule ids), every
    seat's hand laid open (its concealed tiles and melds), the net payments, every payment with its rules, the
    next dealer."""

    out = g.outcome
    wins = []
    for w in g.winners:
        r = w.result
        wins.append({"seat": w.seat, "win_by": w.win_by, "discarder": w.discarder, "patterns": list(r["patterns"]),
                     "status": r["status"], "value": r["value"],
                     "explain": [{"rules": list(ln["rules"]) or ([ln["rule"]] if ln["rule"] else []),
                                  "text": ln["text"]} for ln in r["explain"]]})
    return {"wins": wins, "hands": _hands(g), "payments": out["payments"], "ledger": out["ledger"],
            "next_dealer": out["next_dealer"], "next_streak": out["next_streak"]}


def _hands(g: Game) -> list[dict[str, Any]]:
    """Every seat's hand laid open: its concealed tiles and melds (only once the hand is over)."""
    return [{"seat": p, "concealed": [tile_name(k) for k in g.hand(p)],
             "melds": [_meld_tiles(m) for m in g.view(p)["players"][p]["melds"]]} for p in range(g.n)]


PRIVATE = ("hands", "seed", "tiles")   # fields of an event the generic description never shows


def describe_event(e: dict[str, Any], me: int, reveal: bool = False) -> str:
    """One event of the log in words, the person's seat called 'you'; only what the seat may see, the hand's seed
    only when `reveal` (the hand is over)."""
    def who(p: Any) -> str:
        return "you" if p == me else f"seat {p}"

    t = e["type"]
    if t == "start":
        return (f"hand of seed {e['seed']}: " if reveal else "") + f"seat {e['dealer']} deals"
    if t == "deal":
        return f"tiles dealt; {e['wall']} left in the wall"
    if t == "draw":
        return f"{who(e['seat'])} drew" + (f" {e['tile']}" if e["seat"] == me else "") + (" (replacement)" if
                                                                                           e.get("tail") else "")
    if t == "discard":
        return f"{who(e['seat'])} discarded {e['tile']}"
    if t in ("pon", "chi"):
        return f"{who(e['seat'])} {t} {e['tile']} from seat {e['discarder']}"
    if t in ("kong", "kong_declared"):
        return f"{who(e['seat'])} {e['kind']} kong of {e['tile']}"
    if t == "win":
        return f"{who(e['seat'])} won by {e['win_by']}: {' + '.join(e['patterns'])} = {e['value']}"
    if t == "exchange":
        return f"{who(e['seat'])} passed " + (" ".join(e["tiles"]) if e["seat"] == me else "tiles") + f" to seat {e['to']}"
    if t == "end":
        return "the hand is over"
    if t in ("flowers", "horses"):   # both laid open on the table
        return f"{t}" + (f" ({who(e['seat'])})" if "seat" in e else "") + ": " + " ".join(e["tiles"])
    rest = ", ".join(f"{k} {v}" for k, v in e.items() if k not in ("type", "seat", *PRIVATE))
    return f"{t}" + (f" ({who(e['seat'])})" if "seat" in e else "") + (f": {rest}" if rest else "")


__all__ = ["Conflict", "IllegalAction", "Table", "describe_event"]
