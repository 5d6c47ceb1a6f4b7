"""The language server (`mjrules lsp`) against hostile input, driven as a subprocess over stdio with raw bytes:
every request gets one answer (its result, or an error with the JSON-RPC code and a one-line message, never a
traceback), a frame that cannot be read gets -32700 and a clean exit (status 2, one line on stderr), and nothing
hangs: each wait has a time limit, so a hang fails the test.

Once: `Content-Length: 99999999999999999999` killed the server (OverflowError); `Content-Length: abc`, `-5` or a
header without it wedged it; invalid params and positions like (-1, -1) were never answered; a hover on an
unopened file answered with a traceback, and `documentSymbol` on file:///dev/zero read /dev/zero without limit.
"""
from __future__ import annotations

import io
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optional import need
from strategies import examples

need("pygls")   # `mjrules lsp` without it: tests/test_extras.py

ROOT = Path(__file__).resolve().parents[2]
PINGHU = ROOT / "docs" / "examples" / "pinghu.mj"
PINGHU_URI = PINGHU.as_uri()
WAIT = 30.0          # seconds an answer (or an exit) may take before it counts as a hang
PARSE, INVALID_REQUEST, NOT_FOUND, INVALID_PARAMS, INTERNAL, NOT_INITIALIZED = (-32700, -32600, -32601, -32602,
                                                                              -32603, -32002)
CLIENT_ERRORS = {PARSE, INVALID_REQUEST, NOT_FOUND, INVALID_PARAMS, NOT_INITIALIZED}
TRACEBACK = "Traceback (most recent call last)"


def frame(body: bytes | dict | list) -> bytes:
    data = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


def request(msg_id: Any, method: str, params: Any = None) -> dict:
    out = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        out["params"] = params
    return out


def notification(method: str, params: Any = None) -> dict:
    return {"jsonrpc": "2.0", "method": method, "params": params if params is not None else {}}


def at(uri: str, line: int = 0, character: int = 0) -> dict:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


INITIALIZE = request("init", "initialize", {"processId": None, "capabilities": {}, "rootUri": ROOT.as_uri()})


class Server:
    """One `mjrules lsp` process fed raw bytes; its stdout read frame by frame (the server's own framing, checked
    strictly) and its stderr kept, each by a thread, so that no wait can block the test."""

    def __init__(self, cwd: Path | None = None) -> None:
        self.p = subprocess.Popen([sys.executable, "-m", "mjrules.cli.main", "lsp"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd or ROOT)
        self.messages: queue.Queue = queue.Queue()
        self.bad_output: list[str] = []
        self.err = bytearray()
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self) -> None:
        out = self.p.stdout
        while True:
            header = out.readline()
            if not header:
                break
            length = None
            while header not in (b"\r\n", b""):
                name, _, value = header.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
                header = out.readline()
            if length is None:
                self.bad_output.append(f"a frame without Content-Length: {header!r}")
                break
            body = out.read(length)
            try:
                self.messages.put(json.loads(body))
            except ValueError:
                self.bad_output.append(f"not JSON: {body[:200]!r}")

    def _read_err(self) -> None:
        for line in self.p.stderr:
            self.err.extend(line)

    @property
    def stderr(self) -> str:
        return self.err.decode("utf-8", "replace")

    def send(self, *chunks: bytes | dict | list) -> None:
        """Write frames (a dict or list is framed; bytes are written as they are); a server that exited already
        is no error here (what it answered is checked by the caller)."""
        try:
            for c in chunks:
                self.p.stdin.write(c if isinstance(c, bytes) else frame(c))
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def answer(self, msg_id: Any, limit: float = WAIT) -> dict:
        """The response to request `msg_id` (notifications the server sends meanwhile are skipped)."""
        deadline = time.monotonic() + limit
        while True:
            left = deadline - time.monotonic()
            try:
                msg = self.messages.get(timeout=max(left, 0.01))
            except queue.Empty:
                raise AssertionError(f"hang: no answer to request {msg_id!r} in {limit} s; stderr: "
                                     f"{self.stderr[-2000:]}") from None
            if "method" in msg:
                continue
            check_response(msg)
            if msg.get("id") == msg_id:
                return msg

    def call(self, msg_id: Any, method: str, params: Any = None) -> dict:
        self.send(request(msg_id, method, params))
        return self.answer(msg_id)

    def initialize(self) -> None:
        self.send(INITIALIZE)
        assert "result" in self.answer("init")
        self.send(notification("initialized"))

    def open(self, uri: str, text: str) -> None:
        self.send(notification("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "mjrules", "version": 1, "text": text}}))

    def exited(self, limit: float = WAIT) -> int:
        try:
            return self.p.wait(limit)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"hang: the server did not exit in {limit} s") from None

    def close(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        for f in (self.p.stdin, self.p.stdout, self.p.stderr):
            try:
                f.close()
            except OSError:
                pass


def check_response(msg: dict) -> None:
    """A response as JSON-RPC has it: an id (null when it could not be read) and a result or an error; an
    error with an integer code and a one-line message, and no data (no traceback)."""
    assert msg.get("jsonrpc") == "2.0" and "id" in msg, msg
    assert ("result" in msg) != ("error" in msg), msg
    if "error" in msg:
        err = msg["error"]
        assert isinstance(err.get("code"), int) and isinstance(err.get("message"), str), msg
        assert "data" not in err and TRACEBACK not in err["message"] and "\n" not in err["message"], msg


def error_code(msg: dict) -> int | None:
    return msg["error"]["code"] if "error" in msg else None


def assert_clean_exit(s: Server, *fragments: str) -> str:
    """The server answered the bad frame with -32700 (id null) and exited with status 2, saying why in one line
    on stderr."""
    got = s.answer(None)
    assert error_code(got) == PARSE, got
    code = s.exited()
    assert code == 2, (code, s.stderr)
    lines = [ln for ln in s.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("mjrules: error: lsp: "), s.stderr
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


@pytest.fixture
def server():
    s = Server()
    yield s
    s.close()


@pytest.fixture
def ready(server):
    server.initialize()
    return server


# ---- framing: a frame that cannot be read ----------------------------------------------------------------------
BAD_FRAMES = [   # (name, the raw bytes after a good request, fragments of the stderr line)
    ("oversized_length", b"Content-Length: 99999999999999999999\r\n\r\n{}", ("over the limit",)),
    ("length_over_the_limit", b"Content-Length: 999999999\r\n\r\n{}", ("over the limit",)),
    ("length_not_a_number", b"Content-Length: abc\r\n\r\n{}", ("'abc' is not a number",)),
    ("negative_length", b"Content-Length: -5\r\n\r\n{}", ("'-5' is not a number",)),
    ("empty_length", b"Content-Length: \r\n\r\n{}", ("is not a number",)),
    ("no_content_length", b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
     ("no Content-Length",)),
    ("two_lengths", b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", ("two Content-Length",)),
    ("not_a_header_line", b"hello world\r\n\r\n", ("is not `Name: value`",)),
    ("json_without_header", b'{"jsonrpc": "2.0", "id": 1, "method": "shutdown"}\r\n\r\n', ("not `Name: value`",)),
    ("header_line_too_long", b"X-" + b"a" * 5000 + b": 1\r\n", ("longer than",)),
    ("too_many_header_lines", b"X-A: 1\r\n" * 50 + b"Content-Length: 2\r\n\r\n{}", ("more than",)),
]


@pytest.mark.parametrize(("raw", "fragments"), [c[1:] for c in BAD_FRAMES], ids=[c[0] for c in BAD_FRAMES])
def test_a_bad_frame_is_answered_and_the_server_exits_cleanly(server, raw, fragments):
    """The good request before it is answered; the bad frame gets -32700 and a clean exit, never a traceback,
    a wedged server or a crash."""
    server.send(request(1, "textDocument/hover", at(PINGHU_URI)), raw)
    assert error_code(server.answer(1)) == NOT_INITIALIZED
    assert_clean_exit(server, "bad message frame", *fragments)


@pytest.mark.parametrize("tail", [b"Content-Length: 10\r\n", b"Content-Length: 10\r\n\r\n{\"a\"", b"Content-Le"],
                         ids=["in_the_header", "in_the_body", "in_a_header_line"])
def test_input_ending_inside_a_message(server, tail):
    server.send(tail)
    server.p.stdin.close()
    assert_clean_exit(server, "the input ended inside a message")


def test_the_input_ending_between_messages_ends_the_server_quietly(server):
    server.send(b"\r\n")            # a blank line between messages is skipped
    server.p.stdin.close()
    assert server.exited() == 0 and server.stderr == ""


def test_frames_the_base_protocol_allows(ready):
    """Headers other than Content-Length (any case), bare \\n line ends, blank lines between frames."""
    body = json.dumps(request(2, "textDocument/documentSymbol", {"textDocument": {"uri": PINGHU_URI}})).encode()
    ready.send(b"\r\n\r\ncontent-length: %d\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n"
               b"X-Anything: at all\n\n" % len(body) + body)
    assert isinstance(ready.answer(2)["result"], list)
    ready.send(b"Content-Length:   %d  \r\n\r\n" % len(body) + body.replace(b'"id": 2', b'"id": 3'))
    assert isinstance(ready.answer(3)["result"], list)


# ---- every request is answered ---------------------------------------------------------------------------------
INVALID = [   # (name, method, params): each answered with -32602
    ("params_a_string", "textDocument/hover", "zzz"),
    ("params_a_list", "textDocument/completion", [1, 2]),
    ("params_missing", "textDocument/definition", None),
    ("no_position", "textDocument/hover", {"textDocument": {"uri": PINGHU_URI}}),
    ("uri_an_object", "textDocument/documentSymbol", {"textDocument": {"uri": {"a": 1}}}),
    ("uri_a_number", "textDocument/hover", at(5)),               # structured as "5": not open, not a file: URI
    ("hover_at_minus_one", "textDocument/hover", at(PINGHU_URI, -1, -1)),
    ("completion_at_minus_one", "textDocument/completion", at(PINGHU_URI, -1, -1)),
    ("definition_at_minus_one", "textDocument/definition", at(PINGHU_URI, -1, -1)),
    ("hover_at_2_40", "textDocument/hover", at(PINGHU_URI, 2**40, 2**40)),
    ("completion_at_2_40", "textDocument/completion", at(PINGHU_URI, 2**40, 2**40)),
    ("definition_at_2_40", "textDocument/definition", at(PINGHU_URI, 2**40, 2**40)),
    ("line_a_string", "textDocument/hover", at(PINGHU_URI, "x", 0)),   # type: ignore[arg-type]
]


def test_invalid_params_are_answered_with_32602(ready):
    """Each of them, then a good request: the server goes on answering."""
    ready.open(PINGHU_URI, PINGHU.read_text(encoding="utf-8"))
    for i, (name, method, params) in enumerate(INVALID):
        msg = {"jsonrpc": "2.0", "id": i, "method": method}
        if params is not None:
            msg["params"] = params
        ready.send(msg)
        got = ready.answer(i)
        assert error_code(got) == INVALID_PARAMS, (name, got)
        assert got["error"]["message"], name
    got = ready.call("last", "textDocument/hover", at(PINGHU_URI, *_where("option self_draw_doubles")))
    assert "option" in got["result"]["contents"]["value"]
    assert ready.stderr == ""


def _where(needle: str) -> tuple[int, int]:
    text = PINGHU.read_text(encoding="utf-8")
    i = text.index(needle)
    return text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1)


def test_a_position_past_the_end_is_the_end(ready):
    """A position within the protocol's range but past a line's end (or the last line) is taken as that end,
    as LSP says: an answer, not an error."""
    ready.open(PINGHU_URI, PINGHU.read_text(encoding="utf-8"))
    for i, method in enumerate(["textDocument/hover", "textDocument/completion", "textDocument/definition"]):
        got = ready.call(i, method, at(PINGHU_URI, 2**31 - 1, 2**31 - 1))
        assert "result" in got, got
        got = ready.call(f"{i}b", method, at(PINGHU_URI, 0, 2**31 - 1))
        assert "result" in got, got


MESSAGES = [   # (name, the message, the expected (id, code) of the one answer)
    ("not_json", b"{not json", (None, PARSE)),
    ("not_utf8", b'{"a": "\xff"}', (None, PARSE)),
    ("deep_json", b"[" * 500 + b"]" * 500, (None, INVALID_REQUEST)),
    ("deeper_than_python", b"[" * 1_000_000 + b"]" * 1_000_000, (None, PARSE)),
    ("huge_number", b'{"jsonrpc": "2.0", "id": ' + b"9" * 5000 + b', "method": "shutdown"}', (None, PARSE)),
    ("a_list", [1, 2], (None, INVALID_REQUEST)),
    ("a_string", "hello", (None, INVALID_REQUEST)),
    ("id_true", {"jsonrpc": "2.0", "id": True, "method": "shutdown"}, (None, INVALID_REQUEST)),
    ("id_a_list", {"jsonrpc": "2.0", "id": [1], "method": "shutdown"}, (None, INVALID_REQUEST)),
    ("id_null", {"jsonrpc": "2.0", "id": None, "method": "shutdown"}, (None, INVALID_REQUEST)),
    ("no_jsonrpc", {"id": 7, "method": "shutdown"}, (7, INVALID_REQUEST)),
    ("method_a_number", {"jsonrpc": "2.0", "id": 8, "method": 5}, (8, INVALID_REQUEST)),
    ("neither_method_nor_result", {"jsonrpc": "2.0", "id": 9}, (9, INVALID_REQUEST)),
    ("unknown_method", request(10, "no/such/method"), (10, NOT_FOUND)),
    ("unregistered_method", request(11, "textDocument/references", {**at(PINGHU_URI), "context": {
        "includeDeclaration": True}}), (11, NOT_FOUND)),
    ("notification_with_an_id", request(12, "textDocument/didOpen", {}), (12, INVALID_REQUEST)),
    ("initialize_twice", {**INITIALIZE, "id": 13}, (13, INVALID_REQUEST)),
]


@pytest.mark.parametrize(("raw", "expected"), [c[1:] for c in MESSAGES], ids=[c[0] for c in MESSAGES])
def test_a_bad_message_in_a_good_frame_is_answered(ready, raw, expected):
    """One answer, with the id JSON-RPC asks for (null when it cannot be read), and the server goes on."""
    ready.send(frame(raw))
    msg_id, code = expected
    got = ready.answer(msg_id)
    assert error_code(got) == code, got
    assert "result" in ready.call("after", "textDocument/documentSymbol", {"textDocument": {"uri": PINGHU_URI}})
    assert ready.stderr == ""


def test_notifications_are_never_answered(ready):
    """Bad notifications are dropped: no answer, no stderr; the next request's answer is the next message."""
    ready.send(notification("textDocument/didOpen", "zzz"), notification("textDocument/didChange", {
        "textDocument": {"uri": "file:///never/opened.mj", "version": 2}, "contentChanges": [{"text": "x"}]}),
        notification("textDocument/didClose", {"textDocument": {"uri": "file:///never/opened.mj"}}),
        notification("no/such/notification"), notification("$/cancelRequest", {"id": 99}),
        notification("$/cancelRequest", {"id": []}), notification("$/cancelRequest", {"id": {"a": 1}}), {"jsonrpc": "2.0",
        "id": 5, "result": None}, request(None, "x"))
    ready.send(request("next", "shutdown"))
    ready.answer(None)   # the request with id null: -32600, id null
    got = ready.messages.get(timeout=WAIT)
    assert got == {"jsonrpc": "2.0", "id": "next", "result": None}, got
    assert ready.stderr == ""


def test_before_initialize_and_after_shutdown(server):
    assert error_code(server.call(1, "textDocument/hover", at(PINGHU_URI))) == NOT_INITIALIZED
    server.initialize()
    assert server.call(2, "shutdown") == {"jsonrpc": "2.0", "id": 2, "result": None}
    assert error_code(server.call(3, "textDocument/hover", at(PINGHU_URI))) == INVALID_REQUEST
    server.send(notification("exit"))
    assert server.exited() == 0 and server.stderr == ""


def test_exit_without_shutdown_is_status_1(ready):
    ready.send(notification("exit"))
    assert ready.exited() == 1 and TRACEBACK not in ready.stderr


# ---- what the server reads ---------------------------------------------------------------------------------------
@pytest.fixture
def files(tmp_path) -> Path:
    (tmp_path / "spec.mj").write_text(PINGHU.read_text(encoding="utf-8"), encoding="utf-8")
    with open(tmp_path / "huge.mj", "wb") as f:    # over the CLI's limit (sparse: made at once)
        f.truncate(4_000_001 + 10)
    (tmp_path / "binary.mj").write_bytes(b"\xff\xfe\x00 variant")
    (tmp_path / "folder.mj").mkdir()
    os.mkfifo(tmp_path / "fifo.mj")
    return tmp_path


def test_unopened_files_are_read_only_as_regular_files_under_the_limit(ready, files):
    """A file on disk is read as `mjrules check` reads it: a regular file, no more than the size limit. Anything
    else is -32602, at once: /dev/zero is not read, a pipe is not waited on."""
    got = ready.call("spec", "textDocument/hover", at((files / "spec.mj").as_uri(), *_where("option self_draw")))
    assert "option" in got["result"]["contents"]["value"]
    for name, uri, fragment in [
        ("zero", "file:///dev/zero", "not a regular file"),
        ("random", "file:///dev/urandom", "not a regular file"),
        ("stdin", "file:///dev/stdin", "not a regular file"),    # the server's own input: a pipe
        ("fifo", (files / "fifo.mj").as_uri(), "not a regular file"),
        ("folder", (files / "folder.mj").as_uri(), "not a regular file"),
        ("missing", (files / "missing.mj").as_uri(), "No such file"),
        ("huge", (files / "huge.mj").as_uri(), "too large"),
        ("binary", (files / "binary.mj").as_uri(), "not valid UTF-8"),
        ("not_a_file_uri", "untitled:Untitled-1", "not a file: URI"),
        ("http", "https://example.com/x.mj", "not a file: URI"),
    ]:
        for method, params in [("textDocument/documentSymbol", {"textDocument": {"uri": uri}}),
                               ("textDocument/hover", at(uri)), ("textDocument/completion", at(uri)),
                               ("textDocument/definition", at(uri))]:
            start = time.monotonic()
            got = ready.call(f"{name}-{method}", method, params)
            assert error_code(got) == INVALID_PARAMS, (name, method, got)
            assert fragment in got["error"]["message"], (name, got)
            assert time.monotonic() - start < 10, (name, "slow")
    assert ready.stderr == ""


def test_an_opened_document_is_read_from_the_editor_not_the_disk(ready):
    """Once opened, even file:///dev/zero is the editor's text."""
    ready.open("file:///dev/zero", PINGHU.read_text(encoding="utf-8"))
    got = ready.call(1, "textDocument/documentSymbol", {"textDocument": {"uri": "file:///dev/zero"}})
    assert "self_draw_doubles" in {s["name"] for s in got["result"]}


def test_a_fault_of_the_server_is_one_line_and_no_traceback(monkeypatch, capsys):
    """In process: a feature that raises is answered -32603 with a one-line message and no data, and one line on
    stderr, no traceback."""
    from mjrules.lsp import features
    from mjrules.lsp.server import make_server

    def broken(*a):
        raise KeyError("boom")

    monkeypatch.setattr(features, "hover", broken)
    stdin = io.BytesIO(frame(INITIALIZE) + frame(notification("textDocument/didOpen", {"textDocument": {
        "uri": PINGHU_URI, "languageId": "mjrules", "version": 1, "text": PINGHU.read_text(encoding="utf-8")}}))
        + frame(request(1, "textDocument/hover", at(PINGHU_URI, 1, 1))))
    stdout = io.BytesIO()
    make_server().start_io(stdin, stdout)
    answers = [json.loads(b) for b in _bodies(stdout.getvalue())]
    (got,) = [a for a in answers if a.get("id") == 1]
    check_response(got)
    assert error_code(got) == INTERNAL and "boom" in got["error"]["message"], got
    err = capsys.readouterr().err
    assert TRACEBACK not in err and len(err.strip().splitlines()) == 1 and "boom" in err, err


def _bodies(out: bytes) -> list[bytes]:
    got = []
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        n = int(head.split(b"\r\n")[0].split(b":")[1])
        got.append(rest[:n])
        out = rest[n:]
    return got


# ---- property tests --------------------------------------------------------------------------------------------
METHODS = ["textDocument/hover", "textDocument/completion", "textDocument/definition",
           "textDocument/documentSymbol", "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose",
           "textDocument/didSave", "initialize", "initialized", "$/cancelRequest", "$/setTrace",
           "textDocument/references", "workspace/didChangeConfiguration", "workspace/symbol", ""]
SPEC_TEXT = PINGHU.read_text(encoding="utf-8")
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                           lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                           max_leaves=12)
uris = st.sampled_from([PINGHU_URI, PINGHU_URI, "file:///dev/zero", "file:///dev/stdin", "file:///no/such.mj",
                        "untitled:1", "", "file://", "file:///", "file:///%00", "file:///tmp", "x:" + "a" * 3000,
                        (ROOT / "docs" / "examples" / "pinghu_no_double.mj").as_uri()]) | st.text(max_size=30)
numbers = st.integers(-3, 3) | st.sampled_from([2**31 - 1, 2**31, 2**40, -(2**40), 10**30]) | st.integers(0, 60)
positions = st.fixed_dictionaries({"line": numbers, "character": numbers}) | json_values
texts = st.sampled_from([SPEC_TEXT, SPEC_TEXT[:500], "", "variant x {\n  pattern", "\x00\ud7ff\r\n\u2028",
                         SPEC_TEXT.replace("shape standard", "shape standrad")]) | st.text(max_size=200)
ranges = st.fixed_dictionaries({"start": positions, "end": positions})


@st.composite
def params(draw, method: str) -> Any:
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(json_values)
    doc = {"uri": draw(uris)}
    if method == "textDocument/didOpen":
        doc.update(languageId="mjrules", version=draw(numbers), text=draw(texts))
        return {"textDocument": doc}
    if method == "textDocument/didChange":
        change = {"text": draw(texts)}
        if draw(st.booleans()):
            change["range"] = draw(ranges)
        return {"textDocument": {**doc, "version": draw(numbers)}, "contentChanges": [change]}
    if method == "initialize":
        return {"processId": draw(st.none() | numbers), "capabilities": draw(st.just({}) | json_values),
                "rootUri": draw(st.none() | uris)}
    if method == "$/cancelRequest":
        return {"id": draw(json_values | st.integers())}
    out: dict[str, Any] = {"textDocument": doc, "position": draw(positions)}
    if method == "textDocument/references":
        out["context"] = {"includeDeclaration": True}
    return out


@st.composite
def message(draw) -> tuple[bytes, Any]:
    """(a body, the id whose answer it must get: "none" for no answer, or the (id, code) for a certain one)."""
    kind = draw(st.integers(0, 19))
    if kind == 0:
        return draw(st.binary(max_size=40)) + b"\xff", (None, PARSE)            # never JSON (not UTF-8)
    if kind == 1:
        value = draw(json_values.filter(lambda v: not isinstance(v, dict)))
        return json.dumps(value).encode(), (None, INVALID_REQUEST)
    method = draw(st.sampled_from(METHODS) | st.text(max_size=20))
    msg: dict[str, Any] = {}
    if draw(st.integers(0, 9)):
        msg["jsonrpc"] = "2.0"
    else:
        msg["jsonrpc"] = draw(json_values)
    if draw(st.integers(0, 9)):
        msg["method"] = method
    else:
        msg["method"] = draw(json_values)
    if draw(st.booleans()):
        msg["id"] = draw(st.integers(-(2**31), 2**31) | st.text(max_size=10) | json_values)
    if draw(st.integers(0, 9)):
        msg["params"] = draw(params(method))
    body = json.dumps(msg).encode()
    if "id" not in msg:
        bad = msg["jsonrpc"] != "2.0" or not isinstance(msg["method"], str)
        return body, ((None, INVALID_REQUEST) if bad else "none")
    i = msg["id"]
    if not (isinstance(i, (int, str)) and not isinstance(i, bool)):
        return body, (None, INVALID_REQUEST)
    if msg["jsonrpc"] != "2.0" or not isinstance(msg["method"], str):
        return body, (i, INVALID_REQUEST)
    return body, (i, None)          # a request: answered, with a result or a client error (never -32603)


@st.composite
def framed(draw, body: bytes) -> bytes:
    """A frame the base protocol allows, in its varieties: other headers, any case, \\n or \\r\\n, blank lines."""
    end = draw(st.sampled_from([b"\r\n", b"\n"]))
    name = draw(st.sampled_from([b"Content-Length", b"content-length", b"CONTENT-LENGTH"]))
    lines = [name + b": " + str(len(body)).encode()]
    for _ in range(draw(st.integers(0, 2))):
        extra = draw(st.sampled_from([b"Content-Type: application/vscode-jsonrpc; charset=utf-8",
                                      b"Content-Type: x", b"X-Y: z", b"Accept:", b"A: \xff\xfe"]))
        lines.insert(draw(st.integers(0, len(lines))), extra)
    lead = draw(st.sampled_from([b"", b"", end]))
    return lead + end.join(lines) + end + end + body


class Tally:
    def __init__(self) -> None:
        self.cases = self.messages = self.answered = self.exits = 0

    def __str__(self) -> str:
        return (f"{self.cases} cases, {self.messages} messages, {self.answered} requests answered, "
                f"{self.exits} clean exits; tracebacks 0, hangs 0, wrong 0")


TALLY = {"messages": Tally(), "frames": Tally()}


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    for name, t in TALLY.items():
        if t.cases:
            print(f"\nlsp {name}: {t}")


@pytest.fixture(scope="module")
def fuzzed():
    """One initialized server for the whole property test, with pinghu.mj open."""
    s = Server()
    s.initialize()
    s.open(PINGHU_URI, SPEC_TEXT)
    yield s
    s.close()


_probe = iter(range(10**9))


@settings(max_examples=examples(150, 1500), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_messages_are_all_answered(fuzzed, data):
    """Random JSON-RPC messages (random methods, ids, params, positions, URIs, texts), well framed: the server
    never exits, every request with an id is answered (then a probe request is), an answer the message
    determines is that one, a request's error is a client error (never -32603), and no traceback anywhere."""
    s = fuzzed
    sent = data.draw(st.lists(message(), min_size=1, max_size=4))
    frames = [data.draw(framed(body)) for body, _ in sent]   # all drawn before any is sent
    expected = [want for _, want in sent if want != "none"]
    settle = f"settle-{next(_probe)}"     # what an example that failed left behind is read and dropped
    s.send(request(settle, "textDocument/documentSymbol", {"textDocument": {"uri": PINGHU_URI}}))
    s.answer(settle)
    s.send(*frames)
    probe = f"probe-{next(_probe)}"
    s.send(request(probe, "textDocument/documentSymbol", {"textDocument": {"uri": PINGHU_URI}}))
    got: list[dict] = []
    deadline = time.monotonic() + WAIT
    while not got or got[-1].get("id") != probe:
        try:
            msg = s.messages.get(timeout=max(deadline - time.monotonic(), 0.01))
        except queue.Empty:
            raise AssertionError(f"hang: the probe after {sent!r} is not answered; stderr {s.stderr[-2000:]}") from None
        if "method" not in msg:
            check_response(msg)
            got.append(msg)
    assert s.p.poll() is None, s.stderr
    answers = got[:-1]
    assert len(answers) == len(expected), (sent, answers)
    for (want_id, code), answer in zip(expected, answers):
        assert answer.get("id") == want_id, (sent, answers)
        if code is not None:
            assert error_code(answer) == code, (sent, answer)
        else:
            assert error_code(answer) in CLIENT_ERRORS | {None}, (sent, answer)
    assert TRACEBACK not in s.stderr and not s.bad_output, (s.stderr, s.bad_output)
    assert s.stderr == "", s.stderr
    t = TALLY["messages"]
    t.cases += 1
    t.messages += len(sent)
    t.answered += sum(1 for w in expected if w[0] is not None) + 1


FAULTS = [b"abc", b"-5", b"", b"1 2", b"0x10", b"1.5", b"99999999999999999999", b"12065537", b"\xff", b"+3"]


@st.composite
def header_block(draw, body: bytes) -> tuple[bytes, str | None]:
    """(a frame for `body`, None when it is well formed, else a fragment of the stderr line its fault gives)."""
    fault = draw(st.sampled_from([None, None, None, "value", "missing", "twice", "no_colon", "long", "many"]))
    lines = [b"Content-Length: " + (draw(st.sampled_from(FAULTS)) if fault == "value" else str(len(body)).encode())]
    if fault == "missing":
        lines = []
    if fault == "twice":
        lines.append(lines[0])
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.from_regex(rb"\A[A-Za-z][A-Za-z0-9-]{0,15}\Z").filter(lambda n: n.lower() != b"content-length"))
        value = draw(st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"").replace(b"\r", b"")))
        lines.insert(draw(st.integers(0, len(lines))), name + b":" + value)
    if fault == "no_colon":
        lines.insert(draw(st.integers(0, len(lines))), draw(st.from_regex(rb"\A[^:\r\n]{1,40}\Z")).strip() or b"x")
    if fault == "long":
        lines.insert(0, b"X: " + b"y" * draw(st.integers(1000, 3000)))
    if fault == "many":
        lines = [b"X: 1"] * draw(st.integers(20, 40)) + lines
    end = draw(st.sampled_from([b"\r\n", b"\n"]))
    return end.join(lines) + end + end + body, None if fault is None else "bad message frame"


@pytest.fixture(scope="module")
def pool():
    """The server the header test drives, started again after each clean exit."""
    holder: dict[str, Server] = {}
    yield holder
    if "s" in holder:
        holder["s"].close()


@settings(max_examples=examples(100, 1000), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_headers_are_read_or_refused_cleanly(pool, data):
    """Random header blocks (extra headers of random bytes, \\n or \\r\\n, and now and then a fault: a bad,
    missing or doubled Content-Length, a line without a colon, a line too long, too many lines): a well-formed
    frame is read and its request answered (the server answers a probe after it); a faulty one gets -32700 with
    id null and a clean exit (status 2, one line on stderr). Never a hang, a crash or a traceback."""
    if "s" not in pool or pool["s"].p.poll() is not None:
        if "s" in pool:
            pool["s"].close()
        pool["s"] = Server()
    s = pool["s"]
    msg_id = f"h-{next(_probe)}"
    body = json.dumps(request(msg_id, "textDocument/hover", at(PINGHU_URI))).encode()
    raw, fault = data.draw(header_block(body))
    s.send(raw, request(msg_id + "-probe", "shutdown"))
    t = TALLY["frames"]
    t.cases += 1
    t.messages += 1
    if fault is None:
        assert error_code(s.answer(msg_id)) == NOT_INITIALIZED      # no initialize in this test: -32002
        assert error_code(s.answer(msg_id + "-probe")) == NOT_INITIALIZED
        assert s.p.poll() is None and s.stderr == "", s.stderr
        t.answered += 2
    else:
        assert_clean_exit(s, fault)
        t.exits += 1
