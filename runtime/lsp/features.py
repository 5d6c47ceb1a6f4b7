"""The answers of the language server, in the compiler's terms (spans, 1-based lines and character columns): what
to complete, what a word means, where a name is defined, what a spec defines. Every word's meaning comes from
mjrules.cli.vocabulary, the definitions the reference docs are generated from."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..compiler import builtins as B
from ..compiler.errors import Span
from ..compiler.glossary import PAYMENTS, VARIANT
from ..compiler.nodes import Clause
from ..compiler.reader import PAY_BLOCK, SECTIONS, TOP
from ..cli.vocabulary import vocabulary
from .cursor import Place, place_at, word_at
from .document import DEFINING, Document, Symbol, base_clause, clause_path

EXPRESSION_WORDS = ("if", "then", "else", "and", "or", "not", "in", "true", "false")
CONDITION_WORDS = {"when": "the clause applies where the condition holds",
                   "unless": "the clause applies where the condition does not hold",
                   "variant": "the spec: `variant NAME \"label\"... [extends BASE] { clause... }`",
                   "extends": "this spec is an overlay: it states only what it changes of BASE (docs/language.md)"}

# The context a clause's expression is checked in (compiler/builtins.py), by section and keyword: which builtins
# completion offers there. tests/test_lsp.py holds it to the checker over the shipped specs.
_CONTEXT: dict[str, Any] = {
    VARIANT: {"pattern": B.HAND, "modifier": B.HAND, "event": B.HAND, "status": B.HAND, "define": None, "fan": B.HAND,
              "table": B.HAND, "seating": B.CONFIG, "wall_break": B.CONFIG, "declare": B.CONFIG,
              "exchange": B.CONFIG, "horses": B.CONFIG, "match": B.CONFIG, "opening": B.OPENING, "abort": B.GAME},
    "match": {"end": B.MATCH, "extend": B.MATCH, "result": B.MATCH, "*": B.CONFIG},
    "score": B.HAND, "table": B.HAND, "rotation": B.ROTATION, "wall": B.WALL, "play": B.GAME, "settlement": B.GAME,
    "claims": {"win_on_discard": B.CLAIM, "liability": B.GAME, "*": B.CONFIG}, "wild": B.CONFIG, "declare": B.CONFIG,
    "exchange": B.CONFIG, "horses": B.CONFIG, "ready_declaration": B.CONFIG,
}


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str          # keyword, function, variable, constant, name (the spec's own), value
    detail: str = ""
    doc: str = ""


@dataclass
class Outline:
    """A document symbol: a named clause or a block, with its clauses inside."""

    name: str
    kind: str
    detail: str
    span: Span
    name_span: Span
    children: list[Outline] = field(default_factory=list)


@lru_cache(maxsize=1)
def _vocab() -> dict[str, Any]:
    v = vocabulary()
    return {
        "clauses": {(s["name"], c["keyword"]): c for s in v["sections"] for c in s["clauses"]},
        "variables": {b["name"]: b for b in v["variables"]},
        "functions": {f["name"]: f for f in v["functions"]},
        "payers": {p["name"]: p["meaning"] for p in v["payers"]},
        "groups": {g["name"]: g["tiles"] for g in v["groups"]},
        "operators": {w: o for o in v["operators"] for w in re.findall(r"\b[a-z]+\b", o["syntax"])},
        "win_by": list(v["win_by"]),
    }


def section_keywords(section: str | None) -> tuple[str, ...]:
    """The clause keywords a block of `section` holds."""
    if section is None:
        return ("variant",)
    if section == VARIANT:
        return TOP
    if section == PAYMENTS:
        return PAY_BLOCK
    return SECTIONS.get(section, ())


def expression_context(place: Place) -> str | None:
    """The context the expression at `place` is checked in, or None when it is not known (a top-level define's:
    where it is read, the hand's or the table's)."""
    if not place.blocks:
        return None
    section, opener = place.blocks[-1]
    if section == PAYMENTS:
        return {"win": B.WIN, "on_win": B.SETTLE, "opening": B.OPENING}.get(opener, B.GAME)
    ctx = _CONTEXT.get(section)
    if isinstance(ctx, dict):
        return ctx.get(place.keyword or "", ctx.get("*"))
    return ctx


# ---- completion -------------------------------------------------------------------------------------------
def completions(doc: Document, offset: int) -> list[Completion]:
    """What may be typed at `offset`: the block's clause keywords at a clause's start; builtins of the clause's
    context, the spec's names and the expression words in an expression; the clause's own words otherwise."""
    place = place_at(doc.text, offset)
    if place.where == "none":
        return []
    v = _vocab()
    if place.where == "keyword":
        section = place.section
        out = []
        for kw in section_keywords(section):
            c = v["clauses"].get((section, kw)) if section else None
            out.append(Completion(kw, "keyword", c["usage"] if c else "", c["meaning"] if c else ""))
        return out
    if place.where == "expression":
        return _expression_items(doc, expression_context(place))
    return _word_items(doc, place)


def _expression_items(doc: Document, ctx: str | None) -> list[Completion]:
    v = _vocab()
    out = [Completion(b["name"], "variable", b["type"], b["meaning"]) for b in v["variables"].values()
           if ctx is None or ctx in b["contexts"]]
    out += [Completion(f["name"], "function", f"{f['name']}({', '.join(f['params'])}) -> {f['type']}", f["meaning"])
            for f in v["functions"].values() if ctx is None or ctx in f["contexts"]]
    out += [Completion(s.name, "name", s.kind, _symbol_line(doc, s)) for s in doc.symbols.values()
            if s.kind not in ("wild", "declare", "exchange", "map")]
    out += [Completion(w, "keyword", "operator", v["operators"].get(w, {}).get("meaning", "")) for w in EXPRESSION_WORDS]
    out += [Completion(w, "value", "win_by", "a way of winning") for w in v["win_by"]]
    out += [Completion(g, "constant", "tile group", t) for g, t in v["groups"].items()]
    return out


def _word_items(doc: Document, place: Place) -> list[Completion]:
    """The words a clause's usage names (`shape standard|pairs|free`), the payers of a payment, and the spec's
    names of the kinds its usage asks for (PATTERN, GROUP, MAP)."""
    v = _vocab()
    kw = place.keyword or ""
    c = v["clauses"].get((place.section, kw)) if place.section else None
    usage = c["usage"] if c else ""
    words = [w for w in dict.fromkeys(re.findall(r"(?<![\w\"])[a-z_][a-z_0-9]*\b", usage)) if w != kw]
    out = [Completion(w, "keyword", usage) for w in words]
    if kw in PAY_BLOCK:
        out += [Completion(p, "value", "payer", m) for p, m in v["payers"].items()]
    wanted = {"PATTERN": ("pattern",), "GROUP": ("group",), "MAP": ("map",), "CONDITION": (), "NAME": ()}
    kinds = {k for tag, ks in wanted.items() if tag in usage for k in ks}
    if kw == "columns" or (c is None and place.section == "table"):
        kinds |= {"status", "modifier", "pattern"}
    out += [Completion(s.name, "name", s.kind, _symbol_line(doc, s)) for s in doc.symbols.values() if s.kind in kinds]
    if "group" in kinds:
        out += [Completion(g, "constant", "tile group", t) for g, t in v["groups"].items()]
    return out


# ---- hover ----------------------------------------------------------------------------------------------
def hover(doc: Document, offset: int) -> tuple[str, int, int] | None:
    """The documentation of the word at `offset`, as Markdown, with the word's start and end offsets."""
    w = word_at(doc.text, offset)
    if w is None:
        return None
    start, end, word = w
    place = place_at(doc.text, start)
    if place.where == "none":
        return None
    text = _describe(doc, place, word)
    return (text, start, end) if text else None


def _describe(doc: Document, place: Place, word: str) -> str | None:
    v = _vocab()
    if place.where == "keyword":
        c = v["clauses"].get((place.section, word)) if place.section else None
        if c is None:
            c = next((c for (s, k), c in v["clauses"].items() if k == word), None)
        if c is not None:
            cond = "\n\nMay be conditional (`when ...` / `unless ...`)." if c["conditional"] else ""
            return f"```\n{c['usage']}\n```\n{c['meaning']}.{cond}"
    if word in doc.symbols:
        s = doc.symbols[word]
        return f"{s.kind} **{s.name}**\n\n```\n{_symbol_line(doc, s)}\n```"
    if word in v["functions"]:
        f = v["functions"][word]
        reading = " (depends on the reading)" if f["reading"] else ""
        return (f"```\n{f['name']}({', '.join(f['params'])}) -> {f['type']}\n```\n{f['meaning']}{reading}.\n\n"
                f"Contexts: {', '.join(f['contexts'])}.")
    if word in v["variables"]:
        b = v["variables"][word]
        reading = " (depends on the reading)" if b["reading"] else ""
        return (f"`{b['name']}`: {b['type']}{reading}\n\n{b['meaning']}.\n\nContexts: {', '.join(b['contexts'])}.")
    if word in v["payers"]:
        return f"payer `{word}`: {v['payers'][word]}."
    if word in v["groups"]:
        return f"tile group `{word}`: `{v['groups'][word]}`"
    if word in v["win_by"]:
        return f"`{word}`: a value of `win_by` ({', '.join(v['win_by'])})."
    if word in v["operators"]:
        o = v["operators"][word]
        return f"`{o['syntax']}`: {o['meaning']}."
    if word in CONDITION_WORDS:
        return CONDITION_WORDS[word] + "."
    c = next((c for (s, k), c in v["clauses"].items() if k == word), None)
    return f"```\n{c['usage']}\n```\n{c['meaning']}." if c else None


def _symbol_line(doc: Document, s: Symbol) -> str:
    """The defining clause's first line as written (from its own file, the base's for an inherited name)."""
    src = doc.sources.get(s.file)
    if src is None:
        return f"{s.kind} {s.name}"
    lines = src.splitlines()
    line = lines[s.clause.span.line - 1] if s.clause.span.line <= len(lines) else ""
    return line.strip()


# ---- go to definition -------------------------------------------------------------------------------------
def definition(doc: Document, offset: int) -> list[Span]:
    """Where the word at `offset` is defined: a name's defining clause (in this file or its base); on an
    overlay's own clause (its keyword or its name), the base clause it replaces or merges into; on `extends`'s
    base, the base's file."""
    w = word_at(doc.text, offset)
    if w is None or doc.spec is None:
        return []
    start, _, word = w
    line = doc.text.count("\n", 0, start) + 1
    column = start - (doc.text.rfind("\n", 0, start) + 1) + 1
    spec = doc.spec
    if spec.extends_span is not None and _within(spec.extends_span, line, column):
        base = doc.base()
        return [Span(base.spec.file, 1, 1, 1, 1)] if base is not None else []
    path = clause_path(spec.body, line, column)
    own = path[-1] if path else None
    on_head = own is not None and (_within(own.key_span, line, column) or
                                   (own.words and _within(own.words[0].span, line, column)))
    if on_head and spec.extends is not None:
        base = doc.base()
        found = base_clause(base.body, path) if base is not None else None
        if found is not None:
            return [_head(found)]
    sym = doc.symbols.get(word)
    if sym is None:
        return []
    if on_head and own is sym.clause:
        return []   # the definition itself
    return [_head(sym.clause)]


def _head(c: Clause) -> Span:
    """A clause's name if it has one, else its keyword."""
    if c.keyword in DEFINING and c.words:
        return c.words[0].span
    return c.key_span or c.span


def _within(span: Span | None, line: int, column: int) -> bool:
    if span is None:
        return False
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


# ---- document symbols -------------------------------------------------------------------------------------
def outline(doc: Document) -> list[Outline]:
    """The spec's own clauses that name something or hold a block, nested as written."""
    if doc.spec is None:
        return []
    return [_outline(c) for c in doc.spec.body if _shown(c)]


def _shown(c: Clause) -> bool:
    return c.body is not None or (c.keyword in DEFINING and bool(c.words))


def _outline(c: Clause) -> Outline:
    named = c.keyword in DEFINING and c.words
    name = c.words[0].text() if named else " ".join([c.keyword, *(w.text() for w in c.words)])
    label = next((w.value for w in c.words[1:] if w.kind == "string"), "") if named else ""
    detail = f"{c.keyword} {label}".strip() if named else ""
    kids = [_outline(k) for k in (c.body or []) if _shown(k)]
    return Outline(str(name), c.keyword, str(detail), c.span, _head(c), kids)
