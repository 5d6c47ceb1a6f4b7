"""The rule books shipped with the package (`mjrules.rules`, docs/rules/ in the repository): a variant's book and
one rule's text, found by the spec's rule id prefix (`rules SC 1..20`: the book whose rules are SC-..).

A book is Markdown with each rule opening a paragraph as `**SC-12 Title.** ...`; a rule's text runs to the next
rule or heading.
"""
from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Any

RULE_RE = re.compile(r"^\*\*([A-Z][A-Z0-9]*-\d+)\b", re.MULTILINE)


@cache
def books() -> dict[str, tuple[str, str]]:
    """Rule id prefix -> (the book's file name, its text), for every book in the package."""
    out: dict[str, tuple[str, str]] = {}
    for entry in sorted(resources.files("mjrules.rules").iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".md"):
            continue
        text = entry.read_text(encoding="utf-8")
        ids = RULE_RE.findall(text)
        if ids:
            out.setdefault(ids[0].split("-")[0], (entry.name, text))
    return out


def book_of(prefix: str) -> tuple[str, str] | None:
    """(file name, text) of the book whose rules carry this prefix, or None."""
    return books().get(prefix)


@cache
def rules_of(prefix: str) -> dict[str, str]:
    """Rule id -> its text (the paragraph that opens with it, up to the next rule or heading)."""
    got = book_of(prefix)
    if got is None:
        return {}
    lines = got[1].splitlines()
    out: dict[str, str] = {}
    current: str | None = None
    buf: list[str] = []
    for line in lines + ["# end"]:
        m = RULE_RE.match(line)
        if m or line.startswith("#"):
            if current is not None:
                out[current] = "\n".join(buf).strip()
            current, buf = (m.group(1), [line]) if m else (None, [])
        elif current is not None:
            buf.append(line)
    return out


def rule_text(variant: Any, rule_id: str) -> str:
    """The text of one rule of a variant's book (an overlay answers with its base's book: the same prefix).
    Raises KeyError with a message naming what is known."""
    prefix = variant.rule_prefix
    if book_of(prefix) is None:
        raise KeyError(f"no rule book with {prefix}- ids ships with mjrules")
    rules = rules_of(prefix)
    if rule_id not in rules:
        near = ", ".join(list(rules)[:3]) + (" ..." if len(rules) > 3 else "")
        raise KeyError(f"no rule {rule_id} in {book_of(prefix)[0]} (its rules: {near})")
    return rules[rule_id]
