"""Resolver: finds spec files, follows `extends` overlays and merges them into one clause tree."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

from .errors import Collector, Span, SpecError, article, did_you_mean
from .limits import MAX_SPEC_CHARS
from .nodes import Clause, SpecFile
from .parser import parse
from .specfiles import locate, shipped_names

MAX_EXTENDS_DEPTH = 16

# Clauses named by their first word: an overlay's clause replaces (or, for blocks, merges into) the
# base clause of the same keyword and name.
NAMED = {"option", "pattern", "modifier", "event", "status", "define", "table", "group", "kong", "opening", "declare",
         "exchange", "map", "fan"}
# Clauses that form an ordered list: an overlay that states any of them restates the whole list.
LISTS = {"forbid", "pay", "rotate", "wall_break", "seating", "winners", "chi", "minimum", "no_effect",
         "copies", "cap"}
# Clauses a block may hold several of besides those (the checker reads every one).
REPEATABLE = LISTS | {"scored_flowers", "remove"}


@dataclass
class Resolved:
    """A spec with its overlays applied: one clause tree, the files it came from, and their hash."""

    spec: SpecFile
    body: list[Clause]
    sources: dict[str, str]
    sha256: str
    chain: list[str]


def read_spec(path: Path) -> tuple[str, str]:
    """Read a spec file as UTF-8; a file that is not valid UTF-8 gets a spec error. (Its line ends, LF, CRLF or
    the old Mac's lone CR, are the parser's to read: mjrules.compiler.parser.normalize_line_ends.)"""
    file = str(path)
    try:
        with open(path, "rb") as f:   # no more than a spec may hold: a huge file is refused unread
            data = f.read(4 * MAX_SPEC_CHARS + 1)
    except OSError as e:
        raise SpecError([_diag("E024", f"cannot read spec: {e.strerror}", file)]) from None
    if len(data) > 4 * MAX_SPEC_CHARS:
        raise SpecError([_diag("E002", f"spec is too large (more than {4 * MAX_SPEC_CHARS} bytes; the limit is "
                                       f"{MAX_SPEC_CHARS} characters)", file, 1,
                               "split it, or use `extends` to state only what changes")])
    try:
        return data.decode("utf-8-sig"), file
    except UnicodeDecodeError as e:
        head = data[: e.start]
        line = head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1   # LF, CRLF or CR line ends
        raise SpecError([_diag("E001", "spec is not valid UTF-8 text", file, line)]) from None


def looks_like_spec(text: str) -> bool:
    """Whether the first word after blank lines and comments is `variant`, as every spec's is."""
    for line in text.splitlines():
        words = line.split("#", 1)[0].split(None, 1)
        if words:
            return words[0] == "variant" or words[0].startswith("variant{")
    return False


def _diag(code: str, msg: str, file: str, line: int = 1, hint: str | None = None):
    col = Collector()
    col.error(code, msg, Span(file, line, 1, line, 2), hint)
    return col.diagnostics[0]


def resolve_text(text: str, file: str = "<spec>", base_dir: Path | None = None) -> Resolved:
    spec = parse(text, file)
    return _resolve(spec, base_dir if base_dir is not None else Path(file).parent, [], {file: text})


def _resolve(spec: SpecFile, base_dir: Path, seen: list[str], sources: dict[str, str]) -> Resolved:
    sources[spec.file] = spec.text
    digest = hashlib.sha256(spec.text.encode("utf-8")).hexdigest()
    if spec.extends is None:
        return Resolved(spec, spec.body, sources, digest, [spec.file])
    col = Collector(dict(sources))
    chain = seen + [spec.file]
    if len(chain) > MAX_EXTENDS_DEPTH:
        col.error("E025", f"`extends` chain deeper than {MAX_EXTENDS_DEPTH}", spec.extends_span)
        col.raise_if_any()
    path = locate(spec.extends, base_dir)
    if path is None:
        col.error("E024", f"cannot find the base variant '{spec.extends}'", spec.extends_span,
                  did_you_mean(spec.extends, shipped_names()) or "name a shipped variant or a path to a .mj file")
        col.raise_if_any()
    key = str(path.resolve())
    resolved_chain = [str(Path(f).resolve()) if Path(f).exists() else f for f in chain]
    if key in resolved_chain:
        names = " -> ".join([Path(f).stem for f in chain] + [path.stem])
        col.error("E025", f"`extends` cycle: {names}", spec.extends_span, "a variant cannot extend itself, directly or not")
        col.raise_if_any()
    text, file = read_spec(path)
    if not looks_like_spec(text):   # never parse (and so quote in an error) a file that is not a spec
        col.error("E024", f"the base variant '{spec.extends}' is not a spec: the file does not begin with `variant`",
                  spec.extends_span, "name a shipped variant or a .mj file")
        col.raise_if_any()
    base = _resolve(parse(text, file), path.parent, chain, sources)
    merged = merge(base.body, spec.body, col)
    col.sources.update(sources)
    col.raise_if_any()
    sha = hashlib.sha256((base.sha256 + digest).encode()).hexdigest()
    return Resolved(spec, merged, sources, sha, base.chain + [spec.file])


def blame_overlay(diagnostics: list, resolved: Resolved) -> list:
    """An overlay's errors, each at a line of the overlay itself: an error the check found in a base's clause is
    put at the overlay clause that broke it (the one whose name, changed or removed, the base clause uses; else
    the overlay's `extends`), with the base's line as a note, as compilers say "previous definition here"."""
    import re
    from dataclasses import replace as copy

    own = resolved.spec
    lines = own.text.splitlines()
    named: list[tuple[str, Clause]] = []
    for c in own.walk():
        if c.keyword in NAMED and c.words:
            named.append((c.words[0].text(), c))
        elif c.keyword == "remove" and len(c.words) > 1:
            named.append((c.words[1].text(), c))
    out = []
    for d in diagnostics:
        if d.span is None or d.span.file == own.file:
            out.append(d)
            continue
        base_line = (d.source_line or "").split("  #")[0].strip()
        blamed = next((c for name, c in named if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", base_line)),
                      None)
        span = blamed.key_span if blamed is not None and blamed.key_span is not None else \
            blamed.span if blamed is not None else own.extends_span or own.span
        src = lines[span.line - 1] if 0 < span.line <= len(lines) else None
        where = f"{d.span.file}:{d.span.line}:{d.span.column}"
        out.append(copy(d, span=span, source_line=src,
                        note=f"the base variant's clause it breaks, {where}: {base_line}"[:400]))
    return out


def clause_key(c: Clause, in_table: bool = False) -> tuple:
    if in_table and c.cells is not None:
        return ("row", c.keyword, *[w.text() for w in c.words])
    if c.keyword in NAMED and c.words:
        return (c.keyword, c.words[0].text())
    return (c.keyword,)


def _once(c: Clause, key: tuple, stated: dict[tuple, Clause], col: Collector) -> None:
    """E018 for a clause an overlay block states twice, as in a plain spec (else the last would win)."""
    if c.keyword in REPEATABLE or (len(key) == 1 and c.keyword in NAMED):
        return
    first = stated.setdefault(key, c)
    if first is c:
        return
    where = f"line {first.span.line}" + (f" of {first.span.file}" if first.span.file != c.span.file else "")
    if key[0] == "row":
        col.error("E018", f"duplicate table row '{' '.join(key[1:])}'", c.span, f"the first is on {where}")
    elif c.keyword in NAMED:
        col.error("E018", f"duplicate name '{key[1]}'", c.words[0].span, f"'{key[1]}' is already {article(c.keyword)} on {where}")
    else:
        col.error("E018", f"duplicate '{c.keyword}'", c.key_span, f"the first is on {where}")


def merge(base: list[Clause], overlay: list[Clause], col: Collector, in_table: bool = False) -> list[Clause]:
    """Apply an overlay block to a base block (see the README's `extends` section). The clauses are indexed by
    key, so a long overlay over a long base costs their lengths, not their product."""
    slots: list[Clause | None] = list(base)
    by_key: dict[tuple, list[int]] = {}   # key -> the live slots holding it, in order
    for i, b in enumerate(slots):
        by_key.setdefault(clause_key(b, in_table), []).append(i)

    def add(c: Clause) -> None:
        by_key.setdefault(clause_key(c, in_table), []).append(len(slots))
        slots.append(c)

    def drop(key: tuple) -> None:
        for i in by_key.pop(key, []):
            slots[i] = None

    restated: set[str] = set()
    stated: dict[tuple, Clause] = {}
    for c in overlay:
        _once(c, clause_key(c, in_table), stated, col)
        if c.keyword == "remove":
            key = None
            if c.words:
                head, rest = c.words[0].text(), [w.text() for w in c.words[1:] if w.kind != "comma"]
                key = ("row", head, *rest) if in_table else (head, *rest[:1]) if head in NAMED else (head,)
            if key is None or not by_key.get(key):
                col.error("E035", "`remove` names no clause of the base variant", c.span,
                          "write `remove pattern NAME` (or another keyword and name) for a clause the base has")
            else:
                drop(key)
            continue
        if c.keyword in LISTS and not in_table:
            if c.keyword not in restated:
                restated.add(c.keyword)
                drop((c.keyword,))
            add(c)
            continue
        key = clause_key(c, in_table)
        live = by_key.get(key)
        if not live:
            add(c)
            continue
        old = slots[live[0]]
        assert old is not None
        if old.body is not None and c.body is not None:
            body = merge(old.body, c.body, col, in_table=(c.keyword == "table"))
            slots[live[0]] = replace(c, body=body, cites=old.cites + c.cites)
        else:
            slots[live[0]] = c
    return [b for b in slots if b is not None]
