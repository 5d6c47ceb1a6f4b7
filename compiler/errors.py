"""Diagnostics: spec errors with a stable code, a source span, a caret and a hint."""
from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

SHOWN_COLUMNS = 100  # a longer source line is shown as a window of it around the caret
MAX_SHOWN = 50       # diagnostics a rendered SpecError shows; then a line says how many more there are
MAX_HINTS = 100      # "did you mean" searches per check (each scans every name); later errors get none


@dataclass(frozen=True)
class Span:
    """A region of a spec file: 1-based line and column, end column exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column}


@dataclass
class Diagnostic:
    """One error in a spec: `file:line:col: error[E012]: message`, the source line, a caret, a hint."""

    code: str
    message: str
    span: Span | None = None
    hint: str | None = None
    source_line: str | None = None
    note: str | None = None   # where else it concerns (an overlay's error: the base's clause it breaks)

    def render(self) -> str:
        where = "mjrules"
        if self.span is not None:
            where = f"{self.span.file}:{self.span.line}:{self.span.column}"
        out = [f"{where}: error[{self.code}]: {self.message}"]
        if self.span is not None and self.source_line is not None:
            num = str(self.span.line)
            text = self.source_line.rstrip("\n").replace("\t", " ")
            start = self.span.column - 1
            end = start + 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                end = self.span.end_column - 1
            end = max(start + 1, min(end, len(text)))
            text, start, end = _clip(text, start, end)
            pad, width = _cells(text[:start]), max(1, _cells(text[start:end]))
            out.append(f"  {num:>3} | {text}")
            out.append(f"  {'':>3} | {' ' * pad}{'^' * width}")
        if self.hint:
            out.append(f"  hint: {self.hint}")
        if self.note:
            out.append(f"  note: {self.note}")
        return "\n".join(out)

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "message": self.message,
            "file": self.span.file if self.span else None,
            "line": self.span.line if self.span else None,
            "column": self.span.column if self.span else None,
            "hint": self.hint,
            "note": self.note,
        }


def _clip(text: str, start: int, end: int) -> tuple[str, int, int]:
    """A source line longer than SHOWN_COLUMNS cut to a window around the span [start, end), marked '...'."""
    if len(text) <= SHOWN_COLUMNS:
        return text, start, end
    start = min(start, len(text))
    end = min(end, start + SHOWN_COLUMNS // 2)
    lo = max(0, start - SHOWN_COLUMNS // 4)
    hi = min(len(text), max(end, lo + SHOWN_COLUMNS))
    head, tail = ("..." if lo > 0 else ""), ("..." if hi < len(text) else "")
    return head + text[lo:hi] + tail, start - lo + len(head), end - lo + len(head)


def _cells(text: str) -> int:
    """Terminal columns: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


class SpecError(Exception):
    """The language's own error type: one or more diagnostics about a spec's text."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__(self.render())

    def render(self, limit: int | None = MAX_SHOWN) -> str:
        """Every diagnostic, or the first `limit` of them and a line saying how many more there are."""
        shown = self.diagnostics if limit is None else self.diagnostics[:limit]
        out = [d.render() for d in shown]
        more = len(self.diagnostics) - len(shown)
        if more:
            out.append(f"mjrules: ... and {more} more error{'s' if more > 1 else ''} not shown "
                       f"({len(self.diagnostics)} in all; --json lists every one)")
        return "\n".join(out)

    @property
    def codes(self) -> list[str]:
        return [d.code for d in self.diagnostics]


@dataclass
class Collector:
    """Collects every semantic error of a check so they can be raised once."""

    sources: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    hints_left: list[int] = field(default_factory=lambda: [MAX_HINTS])  # shared with its sub-collectors
    lines: dict[str, list[str]] = field(default_factory=dict, repr=False)  # each source's lines, split once

    def sub(self) -> Collector:
        """A collector for a tentative check: the same sources, line cache and hint budget, its own errors."""
        return Collector(self.sources, [], self.hints_left, self.lines)

    def error(self, code: str, message: str, span: Span | None = None, hint: str | None = None) -> None:
        line = None
        if span is not None and span.file in self.sources:
            lines = self.lines.get(span.file)
            if lines is None:
                lines = self.lines[span.file] = self.sources[span.file].splitlines()
            if 0 < span.line <= len(lines):
                line = lines[span.line - 1]
        self.diagnostics.append(Diagnostic(code, message, span, hint, line))

    def suggest(self, word: str, choices: Iterable[str]) -> str | None:
        """did_you_mean while this check's budget of MAX_HINTS searches lasts, then None: a spec with thousands
        of unknown names must not cost a search over every name for each of them."""
        if self.hints_left[0] <= 0:
            return None
        self.hints_left[0] -= 1
        return did_you_mean(word, choices)

    def raise_if_any(self) -> None:
        if self.diagnostics:
            seen, unique = set(), []
            for d in self.diagnostics:
                key = (d.code, d.message, d.span)
                if key not in seen:
                    seen.add(key)
                    unique.append(d)
            raise SpecError(unique)


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """'did you mean ...' for the closest of `choices`, or None."""
    choices = sorted(set(choices))
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if not close:
        low = {c.lower(): c for c in choices}
        close = difflib.get_close_matches(word.lower(), list(low), n=1, cutoff=0.6)
        close = [low[c] for c in close]
    return f"did you mean '{close[0]}'?" if close else None


def article(noun: str) -> str:
    """'an option', 'a pattern'."""
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def one_of(choices: Iterable[str]) -> str | None:
    items = sorted(set(choices))
    if not items:
        return None
    if len(items) > 12:
        items = items[:12] + ["..."]
    return "expected one of: " + ", ".join(items)
