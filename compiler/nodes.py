"""The AST of a spec: small dataclasses, each with the source span it came from."""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Span


@dataclass
class Word:
    """One word of a clause: kind is name, number, tiles, string, range, comma, gt or plus."""

    kind: str
    value: object
    span: Span
    # for ranges: the two ends
    lo: Word | None = None
    hi: Word | None = None

    def text(self) -> str:
        if self.kind == "range":
            return f"{self.lo.text()}..{self.hi.text()}"
        if self.kind == "string":
            return repr(self.value)
        return str(self.value)


@dataclass
class Expr:
    """An expression node. op is one of: number string tiles bool name call index if or and not
    cmp in sum product pow neg. args holds child expressions (or operator strings for sum/product/cmp)."""

    op: str
    args: list = field(default_factory=list)
    value: object = None
    span: Span | None = None


@dataclass
class Citation:
    """Rule ids cited by a `# ID ...` comment."""

    ids: list[str]
    span: Span


@dataclass
class Clause:
    """KEYWORD word* [":" word*] ["=" expr] [when|unless expr] [{ clause* }]"""

    keyword: str
    words: list[Word]
    span: Span
    cells: list[Word] | None = None
    value: Expr | None = None
    cond: Expr | None = None
    cond_kind: str | None = None  # "when" | "unless"
    body: list[Clause] | None = None
    cites: list[Citation] = field(default_factory=list)
    key_span: Span | None = None

    @property
    def rule_ids(self) -> list[str]:
        return [i for c in self.cites for i in c.ids]

    def walk(self):
        yield self
        for c in self.body or ():
            yield from c.walk()


@dataclass
class SpecFile:
    """One parsed spec file."""

    name: str
    labels: list[str]
    extends: str | None
    body: list[Clause]
    span: Span
    file: str
    text: str
    extends_span: Span | None = None
    stray_cites: list[Citation] = field(default_factory=list)

    def walk(self):
        for c in self.body:
            yield from c.walk()
