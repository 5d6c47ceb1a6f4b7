"""`mjrules lsp`: the language server over stdio (pygls). Each open spec is checked on every change, as
`mjrules check` checks its file; the requests are answered by mjrules.lsp.features."""
from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlparse

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace.position_codec import ServerTextPosition

from ..compiler.errors import Diagnostic, Span
from ..version import __version__
from . import features as F
from .cursor import offset_of
from .document import Document, analyze

log = logging.getLogger(__name__)

_KINDS = {"keyword": T.CompletionItemKind.Keyword, "function": T.CompletionItemKind.Function,
          "variable": T.CompletionItemKind.Variable, "constant": T.CompletionItemKind.Constant,
          "value": T.CompletionItemKind.EnumMember, "name": T.CompletionItemKind.Reference}
_SYMBOLS = {"option": T.SymbolKind.Constant, "pattern": T.SymbolKind.Class, "modifier": T.SymbolKind.Property,
            "event": T.SymbolKind.Event, "status": T.SymbolKind.EnumMember, "define": T.SymbolKind.Variable,
            "table": T.SymbolKind.Struct, "group": T.SymbolKind.Array, "map": T.SymbolKind.Object,
            "wild": T.SymbolKind.TypeParameter, "declare": T.SymbolKind.Interface, "exchange": T.SymbolKind.Interface}


class SpecServer(LanguageServer):
    """The server, with each open document's last check."""

    def __init__(self) -> None:
        super().__init__("mjrules", __version__)
        self.checked: dict[str, Document] = {}

    def document(self, uri: str) -> Document:
        """The document's check for its current text (checked again when the text changed)."""
        text = self.workspace.get_text_document(uri).source
        doc = self.checked.get(uri)
        if doc is None or doc.text != text:
            new = analyze(text, _path(uri))
            if new.spec is None and doc is not None:   # a text that does not parse keeps the names it had
                new.symbols = doc.symbols
            self.checked[uri] = doc = new
        return doc

    def offset(self, uri: str, position: T.Position) -> int:
        tdoc = self.workspace.get_text_document(uri)
        p = self.workspace.position_codec.position_from_client_units(tdoc.lines, position)
        return offset_of(tdoc.source, p.line, p.character)

    def range_of(self, span: Span, text: str) -> T.Range:
        """A span (1-based characters, end exclusive) as a range in the client's units."""
        lines = text.splitlines(keepends=True) or [""]
        codec = self.workspace.position_codec
        start = codec.position_to_client_units(lines, ServerTextPosition(span.line - 1, span.column - 1))
        end_line, end_col = span.end_line, span.end_column
        if (end_line, end_col) <= (span.line, span.column):
            end_line, end_col = span.line, span.column + 1
        end = codec.position_to_client_units(lines, ServerTextPosition(end_line - 1, end_col - 1))
        return T.Range(start, end)


def _path(uri: str) -> str:
    return (to_fs_path(uri) or uri) if urlparse(uri).scheme == "file" else uri


def diagnostics(ls: SpecServer, doc: Document) -> list[T.Diagnostic]:
    """The checker's diagnostics, as the editor shows them: those in this file at their span; those in a base
    file (or in none) at the top of this one, saying where."""
    out = []
    for d in doc.diagnostics:
        span, where = d.span, ""
        if span is None or span.file != doc.path:
            where = f"{span.file}:{span.line}:{span.column}: " if span is not None else ""
            span = (doc.spec.extends_span if doc.spec is not None and doc.spec.extends_span is not None
                    else Span(doc.path, 1, 1, 1, 2))
        out.append(T.Diagnostic(range=ls.range_of(span, doc.text), message=where + _message(d),
                                severity=T.DiagnosticSeverity.Error, code=d.code, source="mjrules"))
    return out


def _message(d: Diagnostic) -> str:
    return d.message + (f"\nhint: {d.hint}" if d.hint else "")


def make_server() -> SpecServer:
    """A server with every feature registered."""
    ls = SpecServer()

    def publish(uri: str) -> None:
        doc = ls.document(uri)
        version = ls.workspace.get_text_document(uri).version
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, version=version,
                                                                        diagnostics=diagnostics(ls, doc)))

    @ls.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SpecServer, params: T.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @ls.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SpecServer, params: T.DidChangeTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @ls.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SpecServer, params: T.DidSaveTextDocumentParams) -> None:
        ls.checked.pop(params.text_document.uri, None)   # a base file may have changed on disk
        publish(params.text_document.uri)

    @ls.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SpecServer, params: T.DidCloseTextDocumentParams) -> None:
        ls.checked.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @ls.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[" ", "("]))
    def completion(ls: SpecServer, params: T.CompletionParams) -> T.CompletionList:
        uri = params.text_document.uri
        items = F.completions(ls.document(uri), ls.offset(uri, params.position))
        return T.CompletionList(is_incomplete=False, items=[
            T.CompletionItem(label=c.label, kind=_KINDS.get(c.kind), detail=c.detail or None,
                             documentation=T.MarkupContent(T.MarkupKind.Markdown, c.doc) if c.doc else None)
            for c in items])

    @ls.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(ls: SpecServer, params: T.HoverParams) -> T.Hover | None:
        uri = params.text_document.uri
        doc = ls.document(uri)
        got = F.hover(doc, ls.offset(uri, params.position))
        if got is None:
            return None
        text, start, end = got
        line = doc.text.count("\n", 0, start) + 1
        col = start - (doc.text.rfind("\n", 0, start) + 1) + 1
        span = Span(doc.path, line, col, line, col + (end - start))
        return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, text), ls.range_of(span, doc.text))

    @ls.feature(T.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: SpecServer, params: T.DefinitionParams) -> list[T.Location]:
        uri = params.text_document.uri
        doc = ls.document(uri)
        out = []
        for span in F.definition(doc, ls.offset(uri, params.position)):
            text = doc.sources.get(span.file, "")
            target = uri if span.file == doc.path else (from_fs_path(span.file) or span.file)
            out.append(T.Location(target, ls.range_of(span, text)))
        return out

    @ls.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: SpecServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
        doc = ls.document(params.text_document.uri)

        def conv(o: F.Outline) -> T.DocumentSymbol:
            return T.DocumentSymbol(name=o.name, kind=_SYMBOLS.get(o.kind, T.SymbolKind.Namespace),
                                    range=ls.range_of(o.span, doc.text),
                                    selection_range=ls.range_of(o.name_span, doc.text),
                                    detail=o.detail or None, children=[conv(k) for k in o.children])
        return [conv(o) for o in F.outline(doc)]

    return ls


def serve(**kw: Any) -> None:
    """Serve over stdio until the client exits."""
    make_server().start_io(**kw)
