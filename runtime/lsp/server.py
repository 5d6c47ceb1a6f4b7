"""`mjrules lsp`: the language server over stdio (pygls). Each open spec is checked on every change, as
`mjrules check` checks its file; the requests are answered by mjrules.lsp.features.

The messages are read here, not by pygls's reader, so that no input can kill or wedge the server: a frame is read
under limits (`read_frame`), then checked as JSON-RPC and as the protocol's types (`SpecServer.receive`) before
pygls dispatches it. Every request with an id gets one response: its result, or an error with the JSON-RPC code
(-32700 not JSON, -32600 not a request, -32601 unknown method, -32602 invalid params, -32002 not initialized)
and a one-line message, never a traceback. A frame that cannot be read (a bad or missing Content-Length, a header
line that is not `Name: value`, the input ending inside a message) leaves no way to find the next message: the
server answers it with -32700 (id null), says why in one line on stderr and exits with status 2."""
from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import threading
from typing import IO, Any
from urllib.parse import unquote, urlparse

import attrs
import cattrs
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace.position_codec import ServerTextPosition

from ..compiler.errors import Diagnostic, Span, SpecError
from ..compiler.limits import MAX_SPEC_CHARS
from ..version import __version__
from . import features as F
from .cursor import offset_of
from .document import Document, analyze, read_regular

log = logging.getLogger(__name__)

_KINDS = {"keyword": T.CompletionItemKind.Keyword, "function": T.CompletionItemKind.Function,
          "variable": T.CompletionItemKind.Variable, "constant": T.CompletionItemKind.Constant,
          "value": T.CompletionItemKind.EnumMember, "name": T.CompletionItemKind.Reference}
_SYMBOLS = {"option": T.SymbolKind.Constant, "pattern": T.SymbolKind.Class, "modifier": T.SymbolKind.Property,
            "event": T.SymbolKind.Event, "status": T.SymbolKind.EnumMember, "define": T.SymbolKind.Variable,
            "table": T.SymbolKind.Struct, "group": T.SymbolKind.Array, "map": T.SymbolKind.Object,
            "wild": T.SymbolKind.TypeParameter, "declare": T.SymbolKind.Interface, "exchange": T.SymbolKind.Interface}


# JSON-RPC's and LSP's error codes
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32601, -32602, -32603
SERVER_NOT_INITIALIZED = -32002
EXIT_INPUT = 2                            # the command line's exit status for bad input

# the frames the server reads (the base protocol: `Content-Length: N` and other `Name: value` lines, a blank line,
# N bytes of JSON). A message holds at most a spec's text, each character JSON-escaped (up to 12 bytes for a
# character outside the BMP), and the rest of its request.
MAX_MESSAGE_BYTES = 12 * MAX_SPEC_CHARS + 65_536
MAX_HEADER_LINE = 1_000                   # bytes in one header line
MAX_HEADER_LINES = 20                     # lines in one header block
_TOKEN = re.compile(rb"[-!#$%&'*+.^_`|~0-9A-Za-z]+")   # a header's name (HTTP's token)
_DOCUMENT_NOTIFICATIONS = (T.TEXT_DOCUMENT_DID_CHANGE, T.TEXT_DOCUMENT_DID_SAVE, T.TEXT_DOCUMENT_DID_CLOSE)


class FramingError(Exception):
    """A frame that cannot be read: its message says why, in one line."""


def read_frame(stream: IO[bytes]) -> bytes | None:
    """The next message body on `stream`, or None when the input ends between messages. Blank lines before a
    header are skipped; header names are matched without case; headers other than Content-Length are ignored.
    FramingError for a header that leaves the body's end unknown, or input that ends inside a message."""
    length: int | None = None
    lines = 0
    while True:
        line = stream.readline(MAX_HEADER_LINE + 1)
        if not line:
            if lines == 0:
                return None
            raise FramingError("the input ended inside a message header")
        if not line.endswith(b"\n"):
            if len(line) > MAX_HEADER_LINE:
                raise FramingError(f"a header line is longer than {MAX_HEADER_LINE} bytes")
            raise FramingError("the input ended inside a message header")
        text = line[:-1].removesuffix(b"\r")
        if not text.strip():
            if lines == 0:
                continue
            break
        lines += 1
        if lines > MAX_HEADER_LINES:
            raise FramingError(f"a message header has more than {MAX_HEADER_LINES} lines")
        name, colon, value = text.partition(b":")
        if not colon or not _TOKEN.fullmatch(name.strip()):
            raise FramingError(f"the header line {_shown(text)} is not `Name: value`")
        if name.strip().lower() != b"content-length":
            continue
        if length is not None:
            raise FramingError("a message header has two Content-Length lines")
        value = value.strip()
        if not (value.isdigit() and value.isascii()):
            raise FramingError(f"Content-Length {_shown(value)} is not a number of bytes")
        if len(value) > 12 or int(value) > MAX_MESSAGE_BYTES:
            raise FramingError(f"Content-Length {_shown(value)} is over the limit of {MAX_MESSAGE_BYTES} bytes")
        length = int(value)
    if length is None:
        raise FramingError("a message header has no Content-Length")
    chunks, got = [], 0
    while got < length:
        chunk = stream.read(length - got)
        if not chunk:
            raise FramingError(f"the input ended inside a message body ({got} of its {length} bytes)")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _shown(raw: bytes, width: int = 60) -> str:
    """Header bytes quoted for a one-line message (at most `width` of them)."""
    text = raw[:width].decode("utf-8", "replace")
    return repr(text + ("..." if len(raw) > width else ""))


def _one_line(text: str, width: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def _say(message: str) -> None:
    """One line on stderr (the editor shows the server's stderr in its log)."""
    try:
        print(f"mjrules: error: lsp: {_one_line(message, 1000)}", file=sys.stderr, flush=True)
    except (OSError, ValueError):   # stderr closed: nothing more to say
        pass


class _Refused(Exception):
    """A message answered with an error before it reaches pygls."""

    def __init__(self, code: int, message: str, msg_id: int | str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.msg_id = code, message, msg_id


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, keeping its converter (to check a message's types before dispatching it), and sending
    no traceback in an error: an error's data is dropped, its message kept to one line."""

    def __init__(self, server: Any, converter: cattrs.Converter) -> None:
        super().__init__(server, converter)
        self.converter = converter

    def _send_response(self, msg_id: Any, result: Any = None, error: T.ResponseError | None = None) -> None:
        if error is not None:
            error = T.ResponseError(code=error.code, message=_one_line(error.message))
        super()._send_response(msg_id, result, error)


class SpecServer(LanguageServer):
    """The server, with each open document's last check."""

    def __init__(self) -> None:
        super().__init__("mjrules", __version__, protocol_cls=_Protocol)
        self.checked: dict[str, Document] = {}
        self.shutting_down = False

    # ---- reading and checking the messages ---------------------------------------------------------------------
    def start_io(self, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> None:  # type: ignore[override]
        """Serve over stdio until the input ends or the client says `exit`; SystemExit(2) after a frame that cannot
        be read, SystemExit(0 or 1) on `exit` (1 when no `shutdown` came first, as LSP asks)."""
        quiet = logging.getLogger("pygls")   # what a client should know it is answered; a fault of the server's
        quiet.addHandler(logging.NullHandler())   # own is one line on stderr (report_server_error), no traceback
        quiet.propagate = False
        quiet.setLevel(logging.CRITICAL + 1)
        stdin = stdin or sys.stdin.buffer
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(self._serve(stdin))
        except FramingError as e:
            try:
                self._answer(None, PARSE_ERROR, f"bad message frame: {e}")
            except OSError:     # the client closed our stdout too
                _quiet_stdout()
            _say(f"bad message frame: {e}; the server stops (the next message cannot be found)")
            raise SystemExit(EXIT_INPUT) from None
        except BrokenPipeError:   # the client went away: nothing to say, nowhere to say it
            _quiet_stdout()
        finally:
            self.shutdown()

    async def _serve(self, stdin: IO[bytes]) -> None:
        loop = asyncio.get_running_loop()
        while not self._stop_event.is_set():
            body = await loop.run_in_executor(None, read_frame, stdin)
            if body is None:
                return
            self.receive(body)

    def receive(self, body: bytes) -> None:
        """Handle one message body: refused with an error response (a request) or dropped (a notification) when
        it is not JSON-RPC or its params are not the protocol's types; else dispatched by pygls."""
        try:
            message = self._checked(body)
        except _Refused as e:
            self._answer(e.msg_id, e.code, e.message)
            return
        if message is None:
            return
        try:
            self.protocol.handle_message(message)
        except Exception as e:  # noqa: BLE001 - pygls answers a request's fault itself; this is the rest's
            self.report_server_error(e, None)
            if _is_request(message):
                self._answer(message.id, INTERNAL_ERROR, f"internal error: {type(e).__name__}: {e}")
        if getattr(message, "method", None) == T.SHUTDOWN:
            self.shutting_down = True

    def _checked(self, body: bytes) -> Any:
        """The message structured as its protocol type, or None to drop it (a notification that cannot be
        handled, a response); _Refused for a request to answer with an error."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            raise _Refused(PARSE_ERROR, "the message is not JSON text") from None
        if not isinstance(data, dict):
            raise _Refused(INVALID_REQUEST, "a message is a JSON object")
        has_id = "id" in data
        msg_id = data.get("id")
        if has_id and not _is_id(msg_id):
            raise _Refused(INVALID_REQUEST, "a message's id is an integer or a string")
        if data.get("jsonrpc") != "2.0":
            raise _Refused(INVALID_REQUEST, 'a message\'s "jsonrpc" is "2.0"', msg_id)
        if "method" not in data:
            if has_id and ("result" in data or "error" in data):   # a response: the server sends no requests
                return None
            raise _Refused(INVALID_REQUEST, "a message has a method (a request or a notification) or a result", msg_id)
        method = data["method"]
        if not isinstance(method, str):
            raise _Refused(INVALID_REQUEST, "a message's method is a string", msg_id)

        def no(code: int, text: str) -> None:
            """Refuse a request; drop a notification (it gets no answer, not even an error)."""
            if has_id:
                raise _Refused(code, text, msg_id)

        if self.shutting_down and method != T.EXIT:
            return no(INVALID_REQUEST, "the server is shutting down")
        if method == T.INITIALIZE and self.initialized:
            return no(INVALID_REQUEST, "the server is already initialized")
        if method not in (T.INITIALIZE, T.EXIT) and not self.initialized:
            return no(SERVER_NOT_INITIALIZED, f"the server is not initialized (send initialize before {method})")
        typ = self.protocol.get_message_type(method)
        if typ is None:
            return no(METHOD_NOT_FOUND, f"unknown method {_one_line(method, 80)!r}")
        fields = attrs.fields_dict(typ)
        if has_id and "id" not in fields:
            return no(INVALID_REQUEST, f"{method} is a notification: it has no id")
        if not has_id and "id" in fields:
            return None                         # a request without an id: there is no one to answer
        try:
            message = self.protocol.converter.structure(data, typ)
        except Exception as e:  # noqa: BLE001 - any failure to structure is the params' fault
            return no(INVALID_PARAMS, f"invalid params for {method}: {_why(e)}")
        if method in _DOCUMENT_NOTIFICATIONS and not self.is_open(message.params.text_document.uri):
            return None                         # a change to a document the client did not open
        if method == T.CANCEL_REQUEST and not _is_id(message.params.id):
            return None                         # the converter lets any JSON through as the id to cancel
        return message

    def _answer(self, msg_id: Any, code: int, message: str) -> None:
        """An error response, written here so that an id that could not be read is `"id": null`, as JSON-RPC
        asks (pygls's response type leaves a null id out)."""
        self.protocol._send_data({"jsonrpc": "2.0", "id": msg_id,
                                  "error": {"code": code, "message": _one_line(message)}})

    @property
    def initialized(self) -> bool:
        try:
            self.workspace  # noqa: B018 - pygls makes the workspace on initialize
        except RuntimeError:
            return False
        return True

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A client's mistake has had its answer; a fault of the server's own is one line on stderr."""
        if isinstance(error, JsonRpcException) and error.code != INTERNAL_ERROR:
            return
        _say(f"internal error: {error}")

    # ---- the documents -----------------------------------------------------------------------------------------
    def is_open(self, uri: str) -> bool:
        return unquote(uri) in self.workspace.text_documents

    def text(self, uri: str) -> str:
        """An open document's text; else a file: URI's file, read as `mjrules check` reads a spec and only if it
        is a regular file (-32602 otherwise)."""
        if self.is_open(uri):
            return self.workspace.get_text_document(uri).source
        if urlparse(uri).scheme != "file":
            raise JsonRpcInvalidParams(f"{_one_line(uri, 200)} is not open, and not a file: URI")
        try:
            return read_regular(_path(uri))
        except SpecError as e:
            raise JsonRpcInvalidParams(f"{_one_line(uri, 200)} is not open, and cannot be read: "
                                       f"{e.diagnostics[0].message}") from None

    def document(self, uri: str) -> Document:
        """The document's check for its current text (checked again when the text changed)."""
        text = self.text(uri)
        doc = self.checked.get(uri)
        if doc is None or doc.text != text:
            new = analyze(text, _path(uri))
            if new.spec is None and doc is not None:   # a text that does not parse keeps the names it had
                new.symbols = doc.symbols
            if self.is_open(uri):                      # a file read from disk is read again each time
                self.checked[uri] = new
            doc = new
        return doc

    def offset(self, text: str, position: T.Position) -> int:
        """A position's character offset in a document's text (a position past a line's end, or past the last
        line, is taken as that end, as LSP says)."""
        p = self.workspace.position_codec.position_from_client_units(text.splitlines(keepends=True), position)
        return offset_of(text, p.line, p.character)

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


def _is_id(value: Any) -> bool:
    """Whether a value is an id LSP allows: an integer or a string."""
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _is_request(message: Any) -> bool:
    return _is_id(getattr(message, "id", None)) and hasattr(message, "method")


def _why(e: BaseException) -> str:
    """Why params do not structure, in one line: cattrs's paths ($.params.position) with their reasons."""
    try:
        parts = cattrs.transform_error(e, format_exception=_format)
    except Exception:  # noqa: BLE001 - a reason is a courtesy
        parts = [str(e)]
    text = "; ".join(p.replace("$.", "", 1) for p in parts) or type(e).__name__
    # the paths name attributes (text_document); the client wrote the protocol's names (textDocument)
    text = re.sub(r"@ \S+", lambda m: re.sub(r"_([a-z])", lambda c: c.group(1).upper(), m.group()), text)
    return _one_line(text)


def _format(e: BaseException, typ: Any) -> str:
    if isinstance(e, KeyError):
        return "required field missing"
    if isinstance(e, ValueError) and str(e):
        return f"invalid value ({_one_line(str(e), 100)})"
    name = getattr(typ, "__name__", None)
    return f"not {'a' if name else 'the right'} {name or 'type'}"


def _quiet_stdout() -> None:
    """After the client closed our stdout, point it at /dev/null so that exiting does not complain."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


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
        doc = ls.document(params.text_document.uri)
        items = F.completions(doc, ls.offset(doc.text, params.position))
        return T.CompletionList(is_incomplete=False, items=[
            T.CompletionItem(label=c.label, kind=_KINDS.get(c.kind), detail=c.detail or None,
                             documentation=T.MarkupContent(T.MarkupKind.Markdown, c.doc) if c.doc else None)
            for c in items])

    @ls.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(ls: SpecServer, params: T.HoverParams) -> T.Hover | None:
        doc = ls.document(params.text_document.uri)
        got = F.hover(doc, ls.offset(doc.text, params.position))
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
        for span in F.definition(doc, ls.offset(doc.text, params.position)):
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
