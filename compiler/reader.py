"""Clause vocabulary: the keywords of each section, and a reader for a clause's words."""
from __future__ import annotations

from .errors import Collector
from .nodes import Clause, Word

ANY_STAGE = 99

TOP = ("source", "rules", "no_effect", "option", "tiles", "players", "seating", "hand", "deal", "wall_break",
       "wall", "flowers", "wild", "rob_wild", "claims", "ready_declaration", "pattern", "modifier", "event",
       "status", "define", "table", "score", "settlement", "rotation", "play", "declare", "exchange", "map", "horses",
       "match", "fan", "excludes", "opening", "indicators", "abort")
SECTIONS: dict[str, tuple[str, ...]] = {
    "tiles": ("use", "copies", "scored_flowers", "group", "marked"),
    "wall": ("draw", "replacement", "retain", "final_round", "last_discard", "kong_needs_replacement",
             "empty_in_replacement", "indicator_stacks", "kong_indicator"),
    "flowers": ("replace", "initial", "in_play"),
    "wild": ("none", "indicator", "successor", "same_as_indicator", "fixed", "kinds", "live", "stands_for", "face_value",
             "no_calls", "discard"),
    "rob_wild": ("after", "order", "requires"),
    "claims": ("chi", "pon", "kong", "priority", "rob_kong", "win_on_discard", "winners", "pass_blocks_ron", "furiten",
               "no_swap_calling", "liability"),
    "ready_declaration": ("by", "requires", "locks_hand", "concealed_kong_keeping_waits", "stake"),
    "score": ("define", "value", "minimum", "forbid", "prefer", "tiebreak"),
    "settlement": ("win", "draw", "hand_end", "wall_end", "on_win", "discard", "first_round", "opening", "kong", "cap"),
    "play": ("after_win", "ends"),
    "declare": ("choose", "discard_first", "no_claim", "no_win_holding"),
    "exchange": ("tiles", "to"),
    "map": ("value",),
    "horses": ("point_by", "count_from", "taken"),
    "rotation": ("rotate", "streak"),
    "match": ("hands", "rounds", "start", "end", "extend", "pot", "result"),
    "table": ("columns",),
}
PAY_SETS = ("others", "discarder", "dealer", "non_dealers", "winner", "konger", "players", "feeder", "shower",
            "liable")
PAY_BLOCK = ("pay", "refund", "transfer")  # the clauses of a settlement block
PAY_BLOCKS = ("win", "draw", "hand_end", "wall_end", "on_win", "discard", "first_round", "opening", "kong")  # blocks of payments
CONDITIONAL = {"seating", "wall_break", "chi", "winners", "pass_blocks_ron", "furiten", "no_swap_calling", "liability",
               "kong_indicator",
               "concealed_kong_keeping_waits",
               "win_on_discard", "minimum", "forbid", "pay", "cap", "rotate", "pattern", "modifier", "event",
               "status", "declare", "exchange", "ends", "fan", "refund", "transfer", "none", "fixed", "kinds", "opening",
               "abort", "end", "extend", "rob_kong"}


class Reader:
    """Reads a clause's words one at a time, reporting what was expected where it goes wrong."""

    def __init__(self, clause: Clause, col: Collector, usage: str):
        self.c, self.col, self.usage = clause, col, usage
        self.words = [w for w in clause.words if w.kind != "comma"]
        self.i = 0
        self.failed = False

    def peek(self) -> Word | None:
        return self.words[self.i] if self.i < len(self.words) else None

    def _fail(self, what: str, w: Word | None, hint: str | None = None) -> None:
        if self.failed:
            return
        self.failed = True
        if w is None:
            self.col.error("E013", f"'{self.c.keyword}' expects {what}", self.c.key_span, hint or f"usage: {self.usage}")
        else:
            self.col.error("E013", f"'{self.c.keyword}' expects {what}, found '{w.text()}'", w.span,
                           hint or f"usage: {self.usage}")

    def take(self, kinds: tuple[str, ...], what: str) -> Word | None:
        w = self.peek()
        if w is None or w.kind not in kinds:
            self._fail(what, w)
            return None
        self.i += 1
        return w

    def int(self, what: str, lo: int = 0, hi: int = 10_000) -> int:
        w = self.take(("number",), what)
        if w is None:
            return lo
        if not isinstance(w.value, int) or not lo <= w.value <= hi:
            self._fail(f"{what} (a whole number from {lo} to {hi})", w)
            return lo
        return w.value

    def name(self, what: str) -> str:
        w = self.take(("name",), what)
        return w.value if w else "?"

    def string(self, what: str) -> str:
        w = self.take(("string",), what)
        return w.value if w else ""

    def opt_string(self) -> str | None:
        w = self.peek()
        if w is not None and w.kind == "string":
            self.i += 1
            return w.value
        return None

    def choice(self, what: str, choices: tuple[str, ...]) -> str:
        w = self.peek()
        if w is None or w.kind != "name" or w.value not in choices:
            self._fail(what, w, self.col.suggest(w.text(), choices) if w is not None else None)
            if w is not None:
                self.i += 1
            return choices[0]
        self.i += 1
        return w.value

    def lit(self, word: str) -> None:
        self.choice(f"'{word}'", (word,))

    def flag(self, word: str) -> bool:
        w = self.peek()
        if w is not None and w.kind == "name" and w.value == word:
            self.i += 1
            return True
        return False

    def flags(self, allowed: tuple[str, ...]) -> set[str]:
        got: set[str] = set()
        while (w := self.peek()) is not None:
            if w.kind != "name" or w.value not in allowed:
                self._fail("one of: " + ", ".join(allowed), w, self.col.suggest(w.text(), allowed))
                return got
            if w.value in got:
                self._fail(f"each word once; '{w.value}' is repeated", w)
                return got
            got.add(w.value)
            self.i += 1
        return got

    def names_rest(self, what: str, choices: tuple[str, ...] | None = None) -> list[str]:
        out = []
        while (w := self.peek()) is not None:
            if w.kind != "name" or (choices is not None and w.value not in choices):
                self._fail(what, w, self.col.suggest(w.text(), choices) if choices else None)
                return out
            out.append(w.value)
            self.i += 1
        return out

    def rest(self) -> list[Word]:
        out = self.words[self.i:]
        self.i = len(self.words)
        return out

    def end(self) -> None:
        w = self.peek()
        if w is not None and not self.failed:
            self.failed = True
            self.col.error("E014", f"unexpected '{w.text()}' in '{self.c.keyword}'", w.span, f"usage: {self.usage}")
