"""One spec text as the editor holds it, checked by the compiler itself: its diagnostics (exactly those `mjrules
check` prints), its parse tree, and the names it and its base define, each with where it is defined."""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..compiler.checker import check
from ..compiler.errors import Collector, Diagnostic, Span, SpecError
from ..compiler.limits import MAX_SPEC_CHARS
from ..compiler.nodes import Clause, SpecFile
from ..compiler.parser import parse
from ..compiler.resolve import Resolved, clause_key, locate, read_spec, resolve_text

# clauses whose first word names something an expression, a table row or another clause may refer to
DEFINING = ("option", "pattern", "modifier", "event", "status", "define", "table", "group", "map", "wild",
            "declare", "exchange")


@dataclass(frozen=True)
class Symbol:
    """A name a spec defines: its kind (the defining keyword), the clause, and the file it is in."""

    kind: str
    name: str
    clause: Clause

    @property
    def file(self) -> str:
        return self.clause.span.file


@dataclass
class Document:
    """A spec text checked as `mjrules check` checks its file: `diagnostics` are the checker's, `spec` the text's
    own parse tree (None when it does not parse), `resolved` the spec with its base applied (None when that
    fails), `symbols` the names defined by it and its base (the overlay's own replacing the base's)."""

    path: str
    text: str
    diagnostics: list[Diagnostic]
    spec: SpecFile | None
    resolved: Resolved | None
    symbols: dict[str, Symbol] = field(default_factory=dict)
    _base: Resolved | None = field(default=None, repr=False)

    @property
    def sources(self) -> dict[str, str]:
        """Every file text this document was checked with (its own and its bases'), by file name."""
        return dict(self.resolved.sources) if self.resolved else {self.path: self.text}

    def base(self) -> Resolved | None:
        """The base variant of an overlay, resolved on its own (None for a plain spec, or a base with errors)."""
        if self._base is None and self.spec is not None and self.spec.extends is not None:
            where = locate(self.spec.extends, Path(self.path).parent)
            if where is not None:
                try:
                    text, file = read_spec(where)
                    self._base = resolve_text(text, file, where.parent)
                except SpecError:
                    return None
        return self._base


def analyze(text: str, path: str) -> Document:
    """Check `text` as the spec file `path` (its base, if any, is read from disk relative to it)."""
    diagnostics: list[Diagnostic] = []
    resolved: Resolved | None = None
    spec: SpecFile | None = None
    try:
        resolved = resolve_text(text, path, Path(path).parent)
        spec = resolved.spec
        check(resolved)
    except SpecError as e:
        diagnostics = e.diagnostics
    if spec is None:
        try:
            spec = parse(text, path)
        except SpecError:
            spec = None
    body = resolved.body if resolved is not None else spec.body if spec is not None else []
    return Document(path, text, diagnostics, spec, resolved, symbols_of(body))


def read_regular(path: str) -> str:
    """A spec file's text, read as `mjrules check` reads one (no more than the size limit allows, as UTF-8), and
    only from a regular file: a device, a pipe or a folder is refused unread (opening never waits on a pipe)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as e:   # ValueError: a NUL in the path
        raise _error("E024", f"cannot read spec: {getattr(e, 'strerror', None) or e}", path) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _error("E024", "cannot read spec: not a regular file", path)
        chunks, left = [], 4 * MAX_SPEC_CHARS + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as e:
        raise _error("E024", f"cannot read spec: {e.strerror or e}", path) from None
    finally:
        os.close(fd)
    if len(data) > 4 * MAX_SPEC_CHARS:
        raise _error("E002", f"spec is too large (more than {4 * MAX_SPEC_CHARS} bytes; the limit is "
                             f"{MAX_SPEC_CHARS} characters)", path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _error("E001", "spec is not valid UTF-8 text", path) from None


def _error(code: str, message: str, path: str) -> SpecError:
    col = Collector()
    col.error(code, message, Span(path, 1, 1, 1, 2))
    return SpecError(col.diagnostics)


def symbols_of(body: list[Clause]) -> dict[str, Symbol]:
    """The names the clauses define (in every block), the first definition of each name kept."""
    out: dict[str, Symbol] = {}
    for top in body:
        for c in top.walk():
            if c.keyword in DEFINING and c.words and c.words[0].kind == "name" and c.cells is None:
                out.setdefault(str(c.words[0].value), Symbol(c.keyword, str(c.words[0].value), c))
    return out


def clause_path(body: list[Clause], line: int, column: int) -> list[Clause]:
    """The clauses containing a 1-based position, outermost first (empty when it is in none)."""
    path: list[Clause] = []
    clauses = body
    while True:
        inner = next((c for c in clauses if _contains(c, line, column)), None)
        if inner is None:
            return path
        path.append(inner)
        clauses = inner.body or []


def _contains(c: Clause, line: int, column: int) -> bool:
    s = c.span
    return (s.line, s.column) <= (line, column) <= (s.end_line, s.end_column)


def base_clause(base_body: list[Clause], path: list[Clause]) -> Clause | None:
    """The base's clause an overlay's clause path stands for: the same keys, block by block (a table by rows)."""
    clauses, found = base_body, None
    in_table = False
    for c in path:
        key = clause_key(c, in_table)
        found = next((b for b in clauses if clause_key(b, in_table) == key), None)
        if found is None:
            return None
        in_table = c.keyword == "table"
        clauses = found.body or []
    return found
