"""Where a position is in a spec being typed: in which blocks, and where in its clause (the keyword, the words, or
an expression). A text being typed rarely parses, so this reads only what the language's clause shape fixes
(docs/language.md: a clause ends at a line break outside parentheses or at `;`, a block is `{ ... }`, strings
and comments hide both); what a clause means is left to the parser and the checker."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..compiler.glossary import PAYMENTS, VARIANT

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[{}()\[\];\n]')
_WORD = re.compile(r"\w+")
_EXPRESSION = re.compile(r"(?<![=!<>])=(?!=)|\bwhen\b|\bunless\b")


@dataclass(frozen=True)
class Place:
    """A position's place: the open blocks, outermost first, each as (section, the keyword that opened it); the
    clause's keyword (None at its start); `where` is keyword, words, expression, cells or none (in a comment or
    a string); `prefix` the part of a word typed before the position."""

    blocks: tuple[tuple[str, str], ...]
    keyword: str | None
    where: str
    prefix: str

    @property
    def section(self) -> str | None:
        """The innermost block's section (compiler/reader.py's names, glossary.VARIANT, glossary.PAYMENTS), or
        None outside the variant block."""
        return self.blocks[-1][0] if self.blocks else None


def block_section(parent: str | None, keyword: str) -> str:
    """The section of a block that a clause with `keyword` opens inside a block of section `parent`."""
    if parent is None:
        return VARIANT
    if parent == "settlement":
        return PAYMENTS
    return keyword


def place_at(text: str, offset: int) -> Place:
    """The place of character offset `offset` of `text`."""
    blocks: list[tuple[str, str]] = []
    start, parens = 0, 0
    for m in _TOKEN.finditer(text, 0, offset):
        tok = m.group()
        if tok[0] == "#" and m.end() >= offset:   # the comment runs on to the position
            return Place(tuple(blocks), None, "none", "")
        if tok[0] == '"' and (len(tok) == 1 or not tok.endswith('"')):   # a string not closed before it
            return Place(tuple(blocks), None, "none", "")
        if tok[0] in "\"#":
            continue
        if tok in "([":
            parens += 1
        elif tok in ")]":
            parens = max(0, parens - 1)
        elif tok == "{":
            words = _WORD.findall(_clean(text[start:m.start()]))
            kw = words[0] if words else ""
            blocks.append((block_section(blocks[-1][0] if blocks else None, kw), kw))
            start, parens = m.end(), 0
        elif tok == "}":
            if blocks:
                blocks.pop()
            start, parens = m.end(), 0
        elif tok == ";" or (tok == "\n" and parens == 0):
            start = m.end()
    clause = _clean(text[start:offset])
    prefix_m = re.search(r"\w*$", clause)
    prefix = prefix_m.group() if prefix_m else ""
    words = _WORD.findall(clause[:len(clause) - len(prefix)])
    if not words:
        return Place(tuple(blocks), None, "keyword", prefix)
    kw = words[0]
    if _EXPRESSION.search(clause[:len(clause) - len(prefix)]):
        return Place(tuple(blocks), kw, "expression", prefix)
    if ":" in clause:
        return Place(tuple(blocks), kw, "cells", prefix)
    return Place(tuple(blocks), kw, "words", prefix)


def _clean(clause: str) -> str:
    """A clause's text with its strings emptied and its comments dropped (their words are not the clause's)."""
    return re.sub(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*', lambda m: '""' if m.group()[0] == '"' else "", clause)


def word_at(text: str, offset: int) -> tuple[int, int, str] | None:
    """The name, keyword or number around `offset`: (start, end, text), or None."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line_end = len(text) if line_end < 0 else line_end
    for m in _WORD.finditer(text, line_start, line_end):
        if m.start() <= offset <= m.end():
            return m.start(), m.end(), m.group()
    return None


def offset_of(text: str, line: int, character: int) -> int:
    """The character offset of a 0-based line and column (in characters, not UTF-16 units)."""
    pos = 0
    for _ in range(line):
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        pos = nl + 1
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    return min(pos + character, end)
