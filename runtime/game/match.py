"""A match: hands played one after another by the spec's `match` block, with the players' scores.

`Match` is the one place a sequence of hands is carried on: `play_match` drives it with agents, the web table
with a person at one seat. It holds what passes from hand to hand (the dealer and his streak, the round and so
the prevalent wind, the stakes left on the table) and the players' scores, and after each hand asks the spec when
the match is over:

- its length: `hands = N`, or `rounds = N` (a round ends when the deal has gone once round the table; a dealer's
  repeats do not count, and the prevalent wind is the round's: East, South, West, North);
- `end ["label"] when CONDITION`: asked after every hand (a score below zero, the last dealer winning in first
  place);
- `extend = ROUNDS when CONDITION`: at its length the match plays on, at most ROUNDS more rounds, while the
  condition holds (asked then and after every hand of the extension);
- at its end, `pot to first` gives the stakes still on the table to the first-ranked player, and `result = ...`
  gives each seat's final result (uma, oka: `nth(rank(seat), ...)`).

The conditions read the match context: the finished hand's rotation facts, `score(seat)`, `rank(seat)`,
`highest_score`, `lowest_score`, `last_hand`, `round`, `hands_played`, `extension`, and in `result` the `seat`.
Ranks order the scores, highest first; equal scores rank in seating order from the match's first dealer.
"""
from __future__ import annotations

from typing import Any

from ..model.interp import evaluate
from ..model.settle import number
from .settle import GameEnv, TableEnv

MAX_MATCH_HANDS = 10_000   # a match that has not ended by then never will: StalledGame


def _shown(v: Any) -> Any:
    """A result as the match shows it: a float to 9 decimal places (so (25800 - 30000) / 1000 is -4.2, not a float's
    -4.199999...), a whole one as an int."""
    return number(round(v, 9)) if isinstance(v, float) else number(v)


class MatchEnv(GameEnv):
    """The match context: the finished hand's table (as the rotation sees it), and the match's standing."""

    def __init__(self, g: Any, m: Match, seat: int = -1):
        super().__init__(g)
        self.m = m
        self.seat = seat

    def var(self, name: str) -> Any:
        m = self.m
        if name == "highest_score":
            return max(m.scores)
        if name == "lowest_score":
            return min(m.scores)
        if name == "last_hand":
            return m.last_hand
        if name == "round":
            return m.played_round
        if name == "hands_played":
            return m.hands_played
        if name == "extension":
            return m.rounds is not None and m.played_round >= m.rounds
        if name == "seat":
            return self.seat
        return super().var(name)

    def call(self, name: str, args: tuple) -> Any:
        if name in ("score", "rank"):
            seat = int(args[0])
            if not 0 <= seat < len(self.m.scores):
                raise ValueError(f"{name}({seat}): there is no seat {seat}")
            return self.m.scores[seat] if name == "score" else self.m.ranks()[seat]
        return super().call(name, args)


class Match:
    """The state of a match between hands. `hands` plays exactly that many hands (the spec's `end` rules still
    end it early) instead of the spec's length; `seating` is the seating procedure played out (its `dealer`
    deals first). Drive it with `deal()` (the keyword arguments of the next hand's Game) and `record(game)` once
    that hand is over, until `over`; `result()` says how it ended."""

    def __init__(self, engine: Any, options: dict[str, Any] | None = None, *, seating: dict[str, Any],
                 hands: int | None = None):
        from .rules import rules_for

        self.engine = engine
        self.v = engine.variant
        self.n = self.v.players
        self.spec = m = self.v.match
        cfg = TableEnv(rules_for(engine, options), 0, 0)

        def config(name: str, default: Any) -> Any:   # a count of the match block (options only)
            e = getattr(m, name) if m is not None else None
            return default if e is None else evaluate(e, cfg)

        self.hands = hands if hands is not None else (
            max(1, int(config("hands", 1))) if m is None or m.rounds is None else None)
        self.rounds = None if self.hands is not None else max(1, int(config("rounds", 1)))
        self.extra_rounds = max(0, int(config("extend_rounds", 0)))
        start = config("start", 0)
        self.scores: list[Any] = [start] * self.n
        self.totals: list[Any] = [0] * self.n   # the payments of the hands, summed
        self.seating = seating
        self.first = self.dealer = int(seating["dealer"])
        self.streak = 0
        self.round = 0           # the round of the next hand
        self.played_round = 0    # ... and of the hand just played
        self.last_hand = False
        self.hands_played = 0
        self.pot: Any = 0
        self.over = False
        self.ended_by = ""       # why: "length", an `end` rule's label, "extension"
        self.pot_to = -1         # the seat the stakes left at the end went to (pot to first)

    @property
    def prevalent_wind(self) -> int:
        """The next hand's prevalent wind: its round's, 0 East .. 3 North (then East again)."""
        return self.round % 4

    def deal(self) -> dict[str, Any]:
        """The next hand's dealer, streak, prevalent wind and pot, as Game's keyword arguments."""
        if self.over:
            raise ValueError("the match is over")
        return {"dealer": self.dealer, "dealer_streak": self.streak, "prevalent_wind": self.prevalent_wind,
                "pot": self.pot}

    def ranks(self) -> list[int]:
        """Each seat's place, 1 for the highest score; equal scores in seating order from the first dealer."""
        order = sorted(range(self.n), key=lambda p: (-self.scores[p], (p - self.first) % self.n))
        out = [0] * self.n
        for i, p in enumerate(order):
            out[p] = i + 1
        return out

    def record(self, g: Any) -> None:
        """Take a finished hand: its payments into the scores, the deal, the round, and whether the match ends."""
        if self.over:
            raise ValueError("the match is over")
        if not g.over:
            raise ValueError("the hand is not over")
        out = g.outcome
        for p, x in out["payments"].items():
            self.scores[int(p)] += x
            self.totals[int(p)] += x
        self.pot = out.get("pot", 0)
        self.hands_played += 1
        self.played_round = self.round
        pos = (self.dealer - self.first) % self.n
        final_round = self.rounds - 1 if self.rounds is not None and self.round < self.rounds else (
            (self.rounds or 0) + self.extra_rounds - 1)
        self.last_hand = (self.hands_played == self.hands if self.hands is not None
                          else self.round == final_round and pos == self.n - 1)
        nxt, streak = out["next_dealer"], out["next_streak"]
        if pos + (nxt - self.dealer) % self.n >= self.n:   # the deal passed the first dealer: a new round
            self.round += 1
        self.dealer, self.streak = nxt, streak
        m = self.spec
        env = MatchEnv(g, self)
        for e in (m.ends if m is not None else ()):
            if evaluate(e.cond, env):
                return self._end(g, e.label)
        if self.hands is not None:
            if self.hands_played >= self.hands:
                self._end(g, "length")
        elif self.played_round >= self.rounds:   # a hand of the extension: on while the condition holds
            if not evaluate(m.extend_cond, env):
                self._end(g, "extension")
            elif self.round >= self.rounds + self.extra_rounds:
                self._end(g, "length")
        elif self.round >= self.rounds:
            if not (self.extra_rounds and m.extend_cond is not None and evaluate(m.extend_cond, env)):
                self._end(g, "length")
        if not self.over and self.hands_played >= MAX_MATCH_HANDS:
            from .state import StalledGame

            raise StalledGame(f"the match has not ended after {MAX_MATCH_HANDS} hands")

    def _end(self, g: Any, why: str) -> None:
        self.over, self.ended_by = True, why
        m = self.spec
        if m is not None and m.pot_to == "first" and self.pot:
            self.pot_to = self.ranks().index(1)
            self.scores[self.pot_to] += self.pot
            self.pot = 0
        self.results = (list(self.scores) if m is None or m.result is None
                        else [_shown(evaluate(m.result, MatchEnv(g, self, p))) for p in range(self.n)])

    def result(self) -> dict[str, Any]:
        """Where the match stands: scores, ranks, the payments summed (`totals`), the stakes on the table; once it
        is over, why it ended, each seat's final result and who took the stakes left at the end."""
        out: dict[str, Any] = {"scores": list(self.scores), "ranks": self.ranks(), "totals": list(self.totals),
                               "pot": self.pot, "hands_played": self.hands_played, "round": self.round,
                               "over": self.over, "seating": self.seating}
        if self.over:
            out.update(ended_by=self.ended_by, results=list(self.results),
                       **({"pot_to": self.pot_to} if self.pot_to >= 0 else {}))
        return out
