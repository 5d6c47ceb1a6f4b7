"""The language server (`mjrules lsp`), driven over stdio by pygls's own client with real requests: the checker's
diagnostics as `mjrules check --json` gives them, completion by place, hover from the vocabulary, go to
definition (in the file, and from an overlay into its base), document symbols."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from mjrules.lsp.cursor import place_at
from mjrules.lsp.document import analyze
from mjrules.lsp.features import expression_context
from optional import need

need("pygls")
from lsprotocol import types as T
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path, to_fs_path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
PINGHU = EXAMPLES / "pinghu.mj"
OVERLAY = EXAMPLES / "pinghu_no_double.mj"
SERVER = [sys.executable, "-c", "import sys; from mjrules.cli.main import main; sys.exit(main(['lsp']))"]


class Session:
    """One server process and a client talking to it; diagnostics kept by uri as they are published."""

    def __init__(self) -> None:
        self.client = LanguageClient("mjrules-test", "1")
        self.published: dict[str, asyncio.Queue] = {}

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def got(params: T.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.uri, asyncio.Queue()).put_nowait(params.diagnostics)

    async def __aenter__(self) -> Session:  # noqa: PYI034
        await self.client.start_io(*SERVER)
        await self.client.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities(),
                                                              root_uri=from_fs_path(str(ROOT))))
        self.client.initialized(T.InitializedParams())
        return self

    async def __aexit__(self, *exc) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    def open(self, path: Path, text: str | None = None) -> str:
        uri = from_fs_path(str(path))
        self.client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(
            uri, "mjrules", 1, path.read_text(encoding="utf-8") if text is None else text)))
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        self.client.text_document_did_change(T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(version, uri), [T.TextDocumentContentChangeWholeDocument(text)]))

    async def diagnostics(self, uri: str) -> list[T.Diagnostic]:
        q = self.published.setdefault(uri, asyncio.Queue())
        return list(await asyncio.wait_for(q.get(), 30))

    async def completion(self, uri: str, line: int, col: int) -> list[str]:
        got = await self.client.text_document_completion_async(T.CompletionParams(
            T.TextDocumentIdentifier(uri), T.Position(line, col)))
        items = got.items if isinstance(got, T.CompletionList) else got or []
        return [i.label for i in items]


def run(scenario) -> None:
    async def main() -> None:
        async with Session() as s:
            await scenario(s)
    asyncio.run(main())


def at(text: str, needle: str, delta: int = 0) -> tuple[int, int]:
    """The 0-based line and column (in characters) of `needle` in text, plus delta."""
    i = text.index(needle) + delta
    return text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1)


# ---- diagnostics ------------------------------------------------------------------------------------------
BROKEN = [   # (what to replace in pinghu.mj, with what): one error of each stage: syntax, words, names, types
    ("shape standard", "shape standrad"),
    ("when one_suit", "when one_siut"),
    ("value = ", "value = (1 + "),
    ("when one_suit", "when 1 + 2"),
    ("option self_draw_doubles", "option"),
    ("rules PH 1..10", "rules PH 1..10\n  players 4"),
]


@pytest.mark.parametrize(("old", "new"), BROKEN)
def test_diagnostics_are_what_mjrules_check_prints(tmp_path, old, new):
    """As typed (no file saved), the server reports the very errors `mjrules check --json` reports for the
    text saved: the same codes, messages, hints, lines and columns."""
    text = PINGHU.read_text(encoding="utf-8")
    assert old in text
    broken = text.replace(old, new, 1)
    path = tmp_path / "pinghu.mj"
    path.write_text(broken, encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "mjrules.cli.main", "check", "--json", str(path)],
                         capture_output=True, text=True, check=False, cwd=tmp_path)
    expected = json.loads(cli.stdout)[0]["errors"]
    assert expected

    async def scenario(s: Session) -> None:
        uri = s.open(path, text)             # opened clean, then typed into
        assert await s.diagnostics(uri) == []
        s.change(uri, broken, 2)
        got = await s.diagnostics(uri)
        assert [(d.code, d.range.start.line + 1, d.range.start.character + 1, d.message) for d in got] == [
            (e["code"], e["line"], e["column"], e["message"] + (f"\nhint: {e['hint']}" if e["hint"] else ""))
            for e in expected]
        assert all(d.severity == T.DiagnosticSeverity.Error and d.source == "mjrules" for d in got)
        s.change(uri, text, 3)               # fixed again: the errors go
        assert await s.diagnostics(uri) == []

    run(scenario)


def test_a_diagnostic_range_counts_utf16_units(tmp_path):
    """A character outside the BMP before the error counts two UTF-16 units, as LSP positions do by default."""
    text = PINGHU.read_text(encoding="utf-8").replace('"Basic Win" shape standard', '"𠀋" shape standrad')
    path = tmp_path / "x.mj"

    async def scenario(s: Session) -> None:
        uri = s.open(path, text)
        (d,) = await s.diagnostics(uri)
        line, col = at(text, "standrad")
        assert (d.code, d.range.start.line, d.range.start.character) == ("E013", line, col + 1)
        assert d.range.end.character - d.range.start.character == len("standrad")

    run(scenario)


def test_an_error_in_the_base_is_shown_at_extends(tmp_path):
    base = tmp_path / "base.mj"
    base.write_text(PINGHU.read_text(encoding="utf-8").replace("shape standard", "shape standrad"), encoding="utf-8")
    text = OVERLAY.read_text(encoding="utf-8").replace('"pinghu.mj"', '"base.mj"')

    async def scenario(s: Session) -> None:
        uri = s.open(tmp_path / "overlay.mj", text)
        (d,) = await s.diagnostics(uri)
        assert d.code == "E013" and d.message.startswith(f"{base}:")
        assert (d.range.start.line, d.range.start.character) == at(text, '"base.mj"')

    run(scenario)


# ---- completion, hover, definition, symbols ------------------------------------------------------------------
def test_completion_by_place():
    text = PINGHU.read_text(encoding="utf-8")
    typed = text.replace("  score {\n", "  score {\n    \n", 1)
    value_line, _ = at(typed, "    value =")

    async def scenario(s: Session) -> None:
        uri = s.open(PINGHU, typed)
        await s.diagnostics(uri)
        top = await s.completion(uri, *at(typed, "  pattern 平胡", 2))       # a clause's start in the variant
        assert {"pattern", "modifier", "option", "settlement", "rotation"} <= set(top) and "pay" not in top
        inner = await s.completion(uri, value_line - 1, 4)                 # the blank line inside score { }
        assert set(inner) == {"define", "value", "minimum", "forbid", "prefer", "tiebreak"}
        expr = await s.completion(uri, *at(typed, "base *", 0))             # in the value's expression
        assert {"one_suit", "count_in", "self_draw_doubles", "平胡", "base", "and", "if", "suited"} <= set(expr)
        assert "payer" not in expr                                           # a settlement's, not the hand's
        words = await s.completion(uri, *at(typed, "shape standard", 6))    # a pattern's words
        assert {"standard", "pairs", "free"} <= set(words)
        pay = await s.completion(uri, *at(typed, "pay discarder", 4))       # a payment's payers
        assert {"others", "discarder", "dealer", "winner"} <= set(pay)

    run(scenario)


def test_hover_documents_keywords_builtins_and_names():
    text = PINGHU.read_text(encoding="utf-8")

    async def scenario(s: Session) -> None:
        uri = s.open(PINGHU)
        await s.diagnostics(uri)

        async def hover(needle: str, delta: int = 1) -> str:
            h = await s.client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri),
                                                                       T.Position(*at(text, needle, delta))))
            return h.contents.value if h else ""

        from mjrules.compiler.builtins import FUNCTIONS, VARIABLES
        from mjrules.compiler.glossary import CLAUSES
        assert CLAUSES[("variant", "pattern")][1] in await hover("pattern 平胡")
        assert CLAUSES[("score", "value")][0] in await hover("value =")
        assert VARIABLES["one_suit"].doc in await hover("one_suit")
        assert FUNCTIONS["count_in"].doc in await hover("count_in") if "count_in" in text else True
        assert "self_draw_doubles" in await hover("self_draw_doubles then") and "option" in await hover(
            "self_draw_doubles then")
        assert await hover("# PH", 2) == ""          # nothing in a comment

    run(scenario)


def test_go_to_definition_in_the_file_and_into_the_base():
    text = PINGHU.read_text(encoding="utf-8")
    over = OVERLAY.read_text(encoding="utf-8")

    async def scenario(s: Session) -> None:
        uri = s.open(PINGHU)
        ouri = s.open(OVERLAY)
        await s.diagnostics(uri)
        await s.diagnostics(ouri)

        async def goto(u: str, pos: tuple[int, int]) -> list[tuple[str, int, int]]:
            got = await s.client.text_document_definition_async(T.DefinitionParams(T.TextDocumentIdentifier(u),
                                                                                   T.Position(*pos)))
            return [(Path(to_fs_path(loc.uri)).name, loc.range.start.line, loc.range.start.character)
                    for loc in got or []]

        # a table and a define used in the value, an option in a condition: to their defining names
        assert await goto(uri, at(text, "base *", 1)) == [("pinghu.mj", *at(text, "base \"Base"))]
        assert await goto(uri, at(text, "self_drawn and", 1)) == [("pinghu.mj", *at(text, "self_drawn ="))]
        assert await goto(uri, at(text, "平胡 清一色", 4)) == [("pinghu.mj", *at(text, "清一色 \"Pure"))]
        assert await goto(uri, at(text, "self_draw_doubles then", 1)) == [
            ("pinghu.mj", *at(text, "self_draw_doubles \""))]
        # the overlay's option: the base clause it replaces; its `extends`: the base file
        assert await goto(ouri, at(over, "self_draw_doubles", 1)) == [("pinghu.mj", *at(text, "self_draw_doubles \""))]
        assert await goto(ouri, at(over, "option", 1)) == [("pinghu.mj", *at(text, "self_draw_doubles \""))]
        assert await goto(ouri, at(over, '"pinghu.mj"', 2)) == [("pinghu.mj", 0, 0)]

    run(scenario)


def test_document_symbols():
    async def scenario(s: Session) -> None:
        uri = s.open(PINGHU)
        await s.diagnostics(uri)
        got = await s.client.text_document_document_symbol_async(T.DocumentSymbolParams(T.TextDocumentIdentifier(uri)))
        names = {x.name: x for x in got}
        assert {"self_draw_doubles", "平胡", "七对", "清一色", "base", "tiles", "score", "settlement"} <= set(names)
        assert names["平胡"].kind == T.SymbolKind.Class and names["self_draw_doubles"].kind == T.SymbolKind.Constant
        assert {c.name for c in names["score"].children} == {"self_drawn"}
        assert names["base"].kind == T.SymbolKind.Struct and names["base"].detail == "table Base points"

    run(scenario)


# ---- the pieces, without the protocol ----------------------------------------------------------------------------
def test_expression_contexts_agree_with_the_checker():
    """Every builtin a shipped spec uses in an expression is one completion offers there: the context the server
    gives each clause is the checker's (the shipped specs compile, so the checker allowed each of them)."""
    from mjrules.compiler import builtins as B
    from mjrules.compiler.specfiles import shipped_names, shipped_path

    seen = 0
    for name in shipped_names():
        path = shipped_path(name)
        doc = analyze(path.read_text(encoding="utf-8"), str(path))
        lines = doc.text.splitlines(keepends=True)
        for top in doc.spec.body:
            for c in top.walk():
                for e in (c.value, c.cond):
                    for sub in _exprs(e):
                        known = B.VARIABLES.get(sub.value) if sub.op == "name" else B.FUNCTIONS.get(sub.value) \
                            if sub.op == "call" else None
                        if known is None or sub.value in doc.symbols:
                            continue
                        offset = sum(len(x) for x in lines[:sub.span.line - 1]) + sub.span.column - 1
                        ctx = expression_context(place_at(doc.text, offset))
                        if ctx is None and c.keyword == "define":   # read where it is used: every builtin offered
                            continue
                        assert ctx in known.contexts, (name, c.keyword, sub.value, ctx)
                        seen += 1
    assert seen > 50


def _exprs(e):
    if e is None:
        return
    yield e
    for a in e.args:
        if hasattr(a, "op"):
            yield from _exprs(a)


@pytest.mark.parametrize(("text", "where", "section"), [
    ("variant v {\n  ", "keyword", "variant"),
    ("variant v {\n  claims {\n    pon\n    ", "keyword", "claims"),
    ("variant v {\n  settlement {\n    win {\n      pay others = ", "expression", "payments"),
    ("variant v {\n  pattern x \"a { b\" shape standard when ", "expression", "variant"),
    ("variant v {\n  pattern x shape standard # a comment ", "none", "variant"),
    ("variant v {\n  option x \"half a string", "none", "variant"),
    ("variant v {\n  score { value = (1 +\n   ", "expression", "score"),
    ("variant v {\n  tiles { use suited }\n  ", "keyword", "variant"),
])
def test_place_at_the_end_of_a_text_being_typed(text, where, section):
    p = place_at(text, len(text))
    assert (p.where, p.section) == (where, section)
