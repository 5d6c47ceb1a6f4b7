"""Resolver: finds spec files, follows `extends` overlays and merges them into one clause tree."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

from .errors import Collector, Span, SpecError, did_you_mean
from .nodes import Clause, SpecFile
from .parser import parse

MAX_EXTENDS_DEPTH = 16

# Clauses named by their first word: an overlay's clause replaces (or, for blocks, merges into) the
# base clause of the same keyword and name.
NAMED = {"option", "pattern", "modifier", "event", "status", "define", "table", "group", "kong"}
# Clauses that form an ordered list: an overlay that states any of them restates the whole list.
LISTS = {"forbid", "pay", "rotate", "wall_break", "seating", "winners", "chi", "minimum", "no_effect",
         "copies", "cap"}


def shipped_names() -> list[str]:
    """Names of the shipped variants (specs/*.mj)."""
    root = resources.files("mjrules.specs")
    return sorted(p.name[:-3] for p in root.iterdir() if p.name.endswith(".mj"))


def shipped_path(name: str) -> Path:
    return Path(str(resources.files("mjrules.specs").joinpath(f"{name}.mj")))


def locate(name_or_path: str, relative_to: Path | None = None) -> Path | None:
    """A shipped variant's name, or a path to a .mj file (relative to `relative_to` if given)."""
    p = Path(name_or_path)
    candidates = []
    if relative_to is not None and not p.is_absolute():
        candidates += [relative_to / p, relative_to / f"{name_or_path}.mj"]
    candidates.append(p)
    if "/" not in name_or_path and not name_or_path.endswith(".mj"):
        candidates.append(shipped_path(name_or_path))
    for c in candidates:
        if c.is_file():
            return c
    return None


@dataclass
class Resolved:
    """A spec with its overlays applied: one clause tree, the files it came from, and their hash."""

    spec: SpecFile
    body: list[Clause]
    sources: dict[str, str]
    sha256: str
    chain: list[str]


def read_spec(path: Path) -> tuple[str, str]:
    """Read a spec file as UTF-8; a file that is not valid UTF-8 gets a spec error."""
    file = str(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SpecError([_diag("E024", f"cannot read spec: {e.strerror}", file)]) from None
    try:
        return data.decode("utf-8-sig"), file
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise SpecError([_diag("E001", "spec is not valid UTF-8 text", file, line)]) from None


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
        from .resolve import shipped_names as _names
        col.error("E024", f"cannot find the base variant '{spec.extends}'", spec.extends_span,
                  did_you_mean(spec.extends, _names()) or "name a shipped variant or a path to a .mj file")
        col.raise_if_any()
    key = str(path.resolve())
    resolved_chain = [str(Path(f).resolve()) if Path(f).exists() else f for f in chain]
    if key in resolved_chain:
        names = " -> ".join([Path(f).stem for f in chain] + [path.stem])
        col.error("E025", f"`extends` cycle: {names}", spec.extends_span, "a variant cannot extend itself, directly or not")
        col.raise_if_any()
    text, file = read_spec(path)
    base = _resolve(parse(text, file), path.parent, chain, sources)
    merged = merge(base.body, spec.body, col)
    col.sources.update(sources)
    col.raise_if_any()
    sha = hashlib.sha256((base.sha256 + digest).encode()).hexdigest()
    return Resolved(spec, merged, sources, sha, base.chain + [spec.file])


def clause_key(c: Clause, in_table: bool = False) -> tuple:
    if in_table and c.cells is not None:
        return ("row", c.keyword, *[w.text() for w in c.words])
    if c.keyword in NAMED and c.words:
        return (c.keyword, c.words[0].text())
    return (c.keyword,)


def merge(base: list[Clause], overlay: list[Clause], col: Collector, in_table: bool = False) -> list[Clause]:
    """Apply an overlay block to a base block (see the README's `extends` section)."""
    result = list(base)
    restated: set[str] = set()
    for c in overlay:
        if c.keyword == "remove":
            key = None
            if c.words:
                head, rest = c.words[0].text(), [w.text() for w in c.words[1:] if w.kind != "comma"]
                key = ("row", head, *rest) if in_table else (head, *rest[:1]) if head in NAMED else (head,)
            hit = [b for b in result if key and clause_key(b, in_table) == key]
            if not hit:
                col.error("E035", "`remove` names no clause of the base variant", c.span,
                          "write `remove pattern NAME` (or another keyword and name) for a clause the base has")
            result = [b for b in result if b not in hit]
            continue
        if c.keyword in LISTS and not in_table:
            if c.keyword not in restated:
                restated.add(c.keyword)
                result = [b for b in result if b.keyword != c.keyword]
            result.append(c)
            continue
        key = clause_key(c, in_table)
        idx = next((i for i, b in enumerate(result) if clause_key(b, in_table) == key), None)
        if idx is None:
            result.append(c)
            continue
        old = result[idx]
        if old.body is not None and c.body is not None:
            body = merge(old.body, c.body, col, in_table=(c.keyword == "table"))
            result[idx] = replace(c, body=body, cites=old.cites + c.cites)
        else:
            result[idx] = c
    return result
