"""`mjrules play`'s server under hostile input (issue #61): each reproducer as a test holding the one clear answer,
then a property test of random HTTP requests against the app.

Once: any web page could act at the table (no Origin check, a text/plain or form body parsed as JSON), a rebound
DNS name read the whole state (no Host allow-list), /api/state gave the seed (so every seat's hand and the wall),
`new` abandoned a live hand unsettled and six stale ones moved the table six hands on, a deeply nested body was a
500 with a RecursionError traceback, and a 50 MB body was read whole and its action played.

The reproducers run against a real uvicorn server (in a thread; its error log and stderr must stay empty of
tracebacks), the curl one against `mjrules play` itself; the property test calls the ASGI app in-process.
"""
from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import logging
import re
import select
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import mjrules
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mjrules.game import Game
from optional import need

need("starlette")
need("uvicorn")
import uvicorn
from mjrules.play import server as play_server
from mjrules.play.server import MAX_BODY, MAX_DEPTH, bind, config, make_app
from mjrules.play.table import Table

VARIANT = "shangrao"
EVIL = "http://evil.example"


@pytest.fixture(scope="module")
def engine():
    return mjrules.load(VARIANT)


class Errors(logging.Handler):
    """uvicorn's error log: an exception in the app is logged here with its traceback."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def serving(table: Table):
    """The table's app served by uvicorn on a free port of 127.0.0.1, in a thread: its port. Afterwards nothing
    may have been logged as an error (an exception in the app, a traceback)."""
    sock = bind(0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(config(make_app(table, port)))   # (its logging set-up first: it resets the handlers)
    errors = Errors()
    logging.getLogger("uvicorn.error").addHandler(errors)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
        logging.getLogger("uvicorn.error").removeHandler(errors)
    assert not thread.is_alive(), "hang: the server did not stop"
    assert not errors.records, [r.getMessage() for r in errors.records]


def request(port: int, method: str, path: str, *, body: bytes | str | None = None, host: str | None = "",
            origin: str | None = None, ctype: str | None = "application/json",
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any], bytes]:
    """One request with exactly these headers (host "": the server's own 127.0.0.1:PORT; None: no Host): its
    status, the JSON answer (or {}), the raw bytes."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            conn.putheader("Host", host or f"127.0.0.1:{port}")
        if origin is not None:
            conn.putheader("Origin", origin)
        data = body.encode() if isinstance(body, str) else body
        if data is not None:
            if ctype is not None:
                conn.putheader("Content-Type", ctype)
            conn.putheader("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        conn.endheaders(data)
        r = conn.getresponse()
        raw = r.read()
    finally:
        conn.close()
    try:
        answer = json.loads(raw)
    except ValueError:
        answer = {}
    return r.status, answer if isinstance(answer, dict) else {}, raw


def one_line_error(status: int, raw: bytes, expected: int, *fragments: str) -> str:
    """The answer is `expected` with one line of JSON naming the error (containing each fragment)."""
    assert status == expected, (status, raw[:300])
    assert b"\n" not in raw.strip(), raw[:300]
    error = json.loads(raw)["error"]
    for f in fragments:
        assert f in error, (f, error)
    return error


def fingerprint(table: Table) -> tuple:
    """What a request may change: the hand, how far it has gone, whether it was abandoned."""
    return table.hand_no, len(table.game.events), table.abandoned, table.seed


def legal_id(table: Table) -> int:
    return table.state()["legal"][0]["id"]


def play_out(table: Table) -> None:
    while not table.state()["over"]:
        table.act(legal_id(table))


# ---- the reproducers ------------------------------------------------------------------------------------------

def test_a_cross_site_action_is_refused_by_mjrules_play():
    """The curl reproducer against `mjrules play` itself: a foreign Origin's text/plain action is 403 and plays
    nothing; the server's stderr has no traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "mjrules.cli.main", "play", VARIANT, "--seed", "3", "--port", "0",
                             "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
        assert m, proc.stderr.read()
        port = int(m.group(1))
        _, before, _ = request(port, "GET", "/api/state")
        act = before["legal"][0]["id"]
        status, _, raw = request(port, "POST", "/api/act", body=json.dumps({"id": act}), origin=EVIL,
                                 ctype="text/plain")
        one_line_error(status, raw, 403, "cross-origin")
        status, _, raw = request(port, "POST", "/api/act", body=json.dumps({"id": act}), ctype="text/plain")
        one_line_error(status, raw, 415, "application/json")
        assert request(port, "GET", "/api/state")[1] == before
        status, after, _ = request(port, "POST", "/api/act", body=json.dumps({"id": act, "hand": 1}),
                                   origin=f"http://127.0.0.1:{port}")
        assert status == 200 and after["step"] > before["step"]
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "Traceback" not in err and "Exception" not in err, err


def test_a_cross_site_form_cannot_deal(engine):
    table = Table(engine, seed=3)
    play_out(table)
    before = fingerprint(table)
    with serving(table) as port:
        form = "hand=1"
        ctype = "application/x-www-form-urlencoded"
        one_line_error(*request(port, "POST", "/api/new", body=form, origin=EVIL, ctype=ctype)[::2], 403)
        one_line_error(*request(port, "POST", "/api/new", body=form, ctype=ctype)[::2], 415)
        one_line_error(*request(port, "POST", "/api/new", body='{"hand": 1}', origin="null")[::2], 403)
        one_line_error(*request(port, "POST", "/api/new", body='{"hand": 1}', origin=f"http://127.0.0.1:{port}",
                                headers={"Sec-Fetch-Site": "cross-site"})[::2], 403)
        assert fingerprint(table) == before
        status, after, _ = request(port, "POST", "/api/new", body='{"hand": 1}', origin=f"http://localhost:{port}",
                                   headers={"Sec-Fetch-Site": "same-origin"})
        assert status == 200 and after["hand"] == 2


def test_a_rebound_dns_name_reads_nothing(engine):
    table = Table(engine, seed=3)
    with serving(table) as port:
        for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}", f"localhost.evil.example:{port}",
                     f"127.0.0.1:{port}.evil.example"):
            status, _, raw = request(port, "GET", "/api/state", host=host)
            one_line_error(status, raw, 403, "Host")
            assert b"concealed" not in raw and b"legal" not in raw
            one_line_error(*request(port, "GET", "/", host=host)[::2], 403)
        status, _, raw = request(port, "GET", "/api/state", host=None)   # no Host at all
        assert 400 <= status < 500 and b"concealed" not in raw
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
            assert request(port, "GET", "/api/state", host=host)[0] == 200


def test_the_seed_is_secret_while_the_hand_is_live(engine):
    """No --seed: a secret random seed for each hand, in no answer until the hand is over; then it is shown
    with the dealer and streak, and replays the hand. A seed given is shown only at the end too."""
    table = Table(engine)
    with serving(table) as port:
        _, live, raw = request(port, "GET", "/api/state")
        assert live["seed"] is None and live["result"] is None
        assert str(table.seed).encode() not in raw and "seed" not in " ".join(live["log"])
        step = live["legal"][0]["id"]
        _, live, raw = request(port, "POST", "/api/act", body=json.dumps({"id": step, "hand": 1}))
        assert live["seed"] is None and str(table.seed).encode() not in raw
        _, over, _ = request(port, "POST", "/api/abandon", body='{"hand": 1}')
        replay = over["result"]["replay"]
        assert over["seed"] == replay["seed"] == table.seed and replay["dealer"] == over["dealer"]
        again = Game(engine, seed=replay["seed"], dealer=replay["dealer"], dealer_streak=replay["dealer_streak"])
        deal = [e for e in table.game.events if e["type"] == "deal"]
        assert [e for e in again.events if e["type"] == "deal"] == deal
        first = over["seed"]
        _, nxt, _ = request(port, "POST", "/api/new", body='{"hand": 1}')
        assert nxt["seed"] is None and table.seed not in (first, first + 1)   # not the next of a shown seed
    assert Table(engine).seed != Table(engine).seed
    given_seed = Table(engine, seed=0)
    assert given_seed.state()["seed"] is None
    play_out(given_seed)
    assert given_seed.state()["seed"] == 0 and given_seed.state()["result"]["replay"]["seed"] == 0


def _cli_seed_default() -> Any:
    from mjrules.cli.main import build_parser

    return build_parser().parse_args(["play", VARIANT]).seed


def test_mjrules_play_without_seed_deals_a_secret_one():
    assert _cli_seed_default() is None


def test_new_does_not_abandon_a_live_hand(engine):
    table = Table(engine, seed=3)
    with serving(table) as port:
        before = fingerprint(table)
        one_line_error(*request(port, "POST", "/api/new", body="{}")[::2], 400, "hand")
        one_line_error(*request(port, "POST", "/api/new", body='{"hand": 1}')[::2], 409, "not over")
        one_line_error(*request(port, "POST", "/api/abandon", body='{"hand": 0}')[::2], 409, "hand 0")
        one_line_error(*request(port, "POST", "/api/act", body=json.dumps({"id": legal_id(table), "hand": 2}))[::2],
                       409, "hand 2")
        assert fingerprint(table) == before
        play_out(table)
        answers: list[int] = []

        def stale() -> None:
            answers.append(request(port, "POST", "/api/new", body='{"hand": 1}')[0])

        threads = [threading.Thread(target=stale) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(answers) == [200] + [409] * 5 and table.hand_no == 2
        status, gone, _ = request(port, "POST", "/api/abandon", body='{"hand": 2}')
        assert status == 200 and gone["abandoned"] and gone["result"]["payments"] == {str(p): 0 for p in range(4)}
        one_line_error(*request(port, "POST", "/api/act", body=json.dumps({"id": 0}))[::2], 409, "abandoned")
        one_line_error(*request(port, "POST", "/api/abandon", body='{"hand": 2}')[::2], 409, "already over")
        assert request(port, "POST", "/api/new", body='{"hand": 2}')[0] == 200 and table.hand_no == 3


@pytest.mark.parametrize("body", [
    "[" * 100_000 + "]" * 100_000,                        # the reproducer: past the size limit as well
    "[" * 30_000 + "]" * 30_000,                          # as deep, within the size limit
    '{"id": ' * 5000 + "1" + "}" * 5000,
    "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    '{"id": 1', "", "nul\x00l", '{"id": NaN}', '{"id": ' + "9" * 5000 + "}", '{"id": true}', '{"id": 1.5}',
    '{"id": "84"}', "[84]", '{"id": 1, "x": 2}', '{"action": [1]}', '{"action": {"type": [1]}}',
    '{"action": {"type": "discard", "tile": {"a": []}}}', '{"id": 1, "action": {"type": "pass"}}', '"\\ud800"',
])
def test_a_bad_body_is_a_4xx_line(engine, body):
    table = Table(engine, seed=3)
    with serving(table) as port:
        before = fingerprint(table)
        status, _, raw = request(port, "POST", "/api/act", body=body.encode("utf-8", "surrogatepass"))
        expected = 413 if len(body) > MAX_BODY else 400
        one_line_error(status, raw, expected)
        assert fingerprint(table) == before
    status, _, raw = _call(make_app(table, 1), "POST", "/api/act", _headers(1), b"\xff\xfe{" + b"[" * 10)
    one_line_error(status, raw, 400, "UTF-8")


def _send_until_answered(port: int, head: bytes, chunks: Any) -> tuple[int, int]:
    """Send the head, then chunks until the server answers: (its status, bytes of body sent by then)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    sent = 0
    try:
        s.sendall(head)
        for chunk in chunks:
            readable, _, _ = select.select([s], [], [], 0)
            if readable:
                break
            try:
                s.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
        s.settimeout(30)
        data = b""
        while b"\r\n" not in data:
            more = s.recv(4096)
            if not more:
                break
            data += more
    finally:
        s.close()
    m = re.match(rb"HTTP/1\.1 (\d+)", data)
    assert m, data[:200]
    return int(m.group(1)), sent


def test_a_large_body_is_refused_as_it_arrives(engine):
    table = Table(engine, seed=3)
    big = 50 * 1024 * 1024
    with serving(table) as port:
        before = fingerprint(table)
        action = json.dumps({"id": legal_id(table)}).encode()
        filler = b" " * 65536
        head = (f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {big}\r\n\r\n").encode()
        status, sent = _send_until_answered(port, head + action, (filler for _ in range(big // len(filler))))
        assert status == 413 and sent < 8 * 1024 * 1024
        head = (f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                "Transfer-Encoding: chunked\r\n\r\n").encode()
        chunk = b"%x\r\n%s\r\n" % (len(filler), filler)
        status, sent = _send_until_answered(port, head + b"%x\r\n%s\r\n" % (len(action), action),
                                            (chunk for _ in range(big // len(filler))))
        assert status == 413 and sent < 8 * 1024 * 1024
        assert fingerprint(table) == before
        # just within the limit, the action is played
        padded = action[:-1] + b', "hand": 1' + b" " * (MAX_BODY - len(action) - 11) + b"}"
        assert len(padded) == MAX_BODY and request(port, "POST", "/api/act", body=padded)[0] == 200


def test_a_body_that_never_ends_is_408(engine, monkeypatch):
    monkeypatch.setattr(play_server, "BODY_SECONDS", 0.5)
    table = Table(engine, seed=3)
    with serving(table) as port:
        before = fingerprint(table)
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        try:
            s.sendall((f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                       "Content-Length: 100\r\n\r\n{\"id\"").encode())
            assert re.match(rb"HTTP/1\.1 408", s.recv(4096))
        finally:
            s.close()
        assert fingerprint(table) == before


def test_unknown_routes_and_methods_are_one_line(engine):
    table = Table(engine, seed=3)
    with serving(table) as port:
        one_line_error(*request(port, "GET", "/api/act")[::2], 405)
        one_line_error(*request(port, "PUT", "/api/state", body="{}")[::2], 405)
        one_line_error(*request(port, "GET", "/nowhere")[::2], 404)
        one_line_error(*request(port, "GET", "/static/../server.py")[::2], 404)
        one_line_error(*request(port, "GET", "/static/%00")[::2], 404)
        assert request(port, "GET", "/static/table.js")[0] == 200


# ---- nothing seat-private while the hand is live --------------------------------------------------------------

def _shuffle_hidden(g: Game, me: int) -> None:
    """Change what the person may not see: the wall's order, and a tile swapped between two other seats."""
    g.wall[g.head:g.tail] = g.wall[g.head:g.tail][::-1]
    others = [p for p in range(g.n) if p != me]
    a, b = g.seats[others[0]].counts, g.seats[others[1]].counts
    ka = next((k for k in range(len(a)) if a[k] and not b[k]), None)
    kb = next((k for k in range(len(b)) if b[k] and not a[k]), None)
    if ka is not None and kb is not None:
        a[ka] -= 1
        b[ka] += 1
        b[kb] -= 1
        a[kb] += 1


@pytest.mark.parametrize("variant", ["shangrao", "fuzhou_fujian", "sichuan_xuezhan", "guangdong_tuidaohu"])
def test_the_live_state_depends_on_nothing_hidden(variant):
    """At every decision of a whole hand, the person's state is the same when the wall and the other seats'
    concealed tiles are changed: it shows nothing of them. The seed and the result appear only at the end."""
    eng = mjrules.load(variant)
    for seat in (0, 2):
        table = Table(eng, seat=seat, seed=11)
        g = table.game
        while not table.state()["over"]:
            shown = table.state()
            assert shown["seed"] is None and shown["result"] is None and isinstance(shown["wall"], int)
            wall, counts = list(g.wall), [bytearray(s.counts) for s in g.seats]
            _shuffle_hidden(g, seat)
            assert table.state() == shown
            g.wall[:] = wall
            for s, c in zip(g.seats, counts):
                s.counts[:] = c
            table.act(shown["legal"][0]["id"])
        assert table.state()["seed"] == 11


# ---- the property: random requests ---------------------------------------------------------------------------

PORT = 8765


def _headers(port: int, **extra: str | None) -> dict[str, str | None]:
    return {"host": f"127.0.0.1:{port}", "content-type": "application/json", **extra}


def _call(app: Any, method: str, path: str, headers: dict[str, str | None], body: bytes,
          chunk: int = 4096) -> tuple[int, dict[str, str], bytes]:
    """One request to the ASGI app in-process, the body in chunks: status, headers, body. An exception out of
    the app fails the test (a server would answer it 500 with a traceback)."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode("utf-8", "surrogateescape"), "query_string": b"",
             "root_path": "", "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", PORT),
             "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()
                         if v is not None]}
    parts = [body[i:i + chunk] for i in range(0, len(body), chunk)] or [b""]
    messages = [{"type": "http.request", "body": p, "more_body": i < len(parts) - 1} for i, p in enumerate(parts)]
    out: dict[str, Any] = {"body": b""}

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = {k.decode(): v.decode() for k, v in message.get("headers", [])}
        elif message["type"] == "http.response.body":
            out["body"] += message.get("body", b"")

    asyncio.run(app(scope, receive, send))
    return out["status"], out["headers"], out["body"]


json_values = st.recursive(st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.text(max_size=8)
                           | st.floats(allow_nan=False, allow_infinity=False),
                           lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
                               st.sampled_from(["id", "hand", "action", "type", "tile", "x"]), kids, max_size=4),
                           max_leaves=12)

# a body: ("legal", ...) placeholders are filled in from the table when the request is made
bodies = st.one_of(
    st.tuples(st.just("legal_id"), st.booleans()),                        # {"id": a legal id[, "hand": the hand]}
    st.tuples(st.just("legal_id"), st.booleans()),                        # (twice: a legal action is rarer)
    st.tuples(st.just("legal_action"), st.booleans()),                    # {"action": a legal action's dict}
    st.tuples(st.just("hand"), st.integers(-1, 1)),                        # {"hand": the hand + d}
    st.tuples(st.just("json"), json_values),
    st.tuples(st.just("object"), st.dictionaries(st.sampled_from(["id", "hand", "action", "x"]), json_values,
                                                 max_size=3)),
    st.tuples(st.just("bytes"), st.binary(max_size=64)),
    st.tuples(st.just("deep"), st.integers(1, 3 * MAX_DEPTH), st.sampled_from(["[]", "{}"])),
    st.tuples(st.just("huge"), st.sampled_from([MAX_BODY + 1, 4 * MAX_BODY, 50_000 * 4])),
)

ROUTES = ["/api/act", "/api/new", "/api/abandon", "/api/state", "/", "/static/table.js", "/static/../server.py",
          "/api/act/", "/API/act", "/nowhere", "/static/\x00", "/api/state?x=1"]
GOOD_HOSTS = [f"127.0.0.1:{PORT}", f"localhost:{PORT}", f"LocalHost:{PORT}"]
GOOD_ORIGINS = [None, f"http://127.0.0.1:{PORT}", f"http://localhost:{PORT}"]
GOOD_SITES = [None, "same-origin", "none"]
JSON_TYPES = ["application/json", "application/json; charset=utf-8", "Application/JSON"]
# half the requests same-origin JSON POSTs to the three routes (so the bodies are tried), the rest anything
clean = st.fixed_dictionaries({
    "method": st.just("POST"), "path": st.sampled_from(ROUTES[:3]), "host": st.sampled_from(GOOD_HOSTS),
    "origin": st.sampled_from(GOOD_ORIGINS), "site": st.sampled_from(GOOD_SITES),
    "ctype": st.sampled_from(JSON_TYPES), "body": bodies,
})
anything = st.fixed_dictionaries({
    "method": st.sampled_from(["POST", "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"]),
    "path": st.sampled_from(ROUTES) | st.text(alphabet=st.characters(codec="utf-8", exclude_characters="?"),
                                              max_size=12).map(lambda t: "/" + t),
    "host": st.sampled_from(GOOD_HOSTS + [f"evil.example:{PORT}", "evil.example", "127.0.0.1", f"127.0.0.1:{PORT + 1}",
                                          "", None]),
    "origin": st.sampled_from(GOOD_ORIGINS + [EVIL, "null", f"https://127.0.0.1:{PORT}",
                                              f"http://127.0.0.1:{PORT}.evil.example", ""]),
    "site": st.sampled_from(GOOD_SITES + ["cross-site", "same-site"]),
    "ctype": st.sampled_from(JSON_TYPES + [None, "text/plain", "application/x-www-form-urlencoded",
                                           "multipart/form-data; boundary=x", "application/jsonx"]),
    "body": bodies,
})
requests = clean | anything


def _materialise(req: dict[str, Any], table: Table) -> tuple[bytes, bool]:
    """The request's body, and whether it is a legal request at this moment for the table (as far as the body
    goes: a legal action for /api/act, the right hand number at the right time for new and abandon)."""
    kind, *rest = req["body"]
    state = table.state()
    path = req["path"]
    if kind == "legal_id":
        if not state["legal"]:
            return b'{"id": 0}', False
        body: dict[str, Any] = {"id": state["legal"][0]["id"]}
        if rest[0]:
            body["hand"] = table.hand_no
        return json.dumps(body).encode(), path == "/api/act"
    if kind == "legal_action":
        if not state["legal"]:
            return b'{"action": {"type": "pass"}}', False
        action = {k: v for k, v in state["legal"][-1].items() if k != "id"}
        return json.dumps({"action": action}).encode(), path == "/api/act" and _legal_readable(table, action)
    if kind == "hand":
        delta = rest[0]
        hand = table.hand_no + delta
        ok = delta == 0 and path in ("/api/new", "/api/abandon") and table.finished == (path == "/api/new")
        return json.dumps({"hand": hand}).encode(), ok
    if kind in ("json", "object"):
        value = rest[0]
        text = json.dumps(value).encode()
        ok = False
        if path == "/api/act" and isinstance(value, dict) and set(value) <= {"id", "hand"} and "id" in value:
            ok = (type(value["id"]) is int and value["id"] in [a["id"] for a in state["legal"]]
                  and ("hand" not in value or (type(value["hand"]) is int and value["hand"] == table.hand_no)))
        elif path in ("/api/new", "/api/abandon") and isinstance(value, dict) and set(value) == {"hand"}:
            ok = (type(value["hand"]) is int and value["hand"] == table.hand_no
                  and table.finished == (path == "/api/new"))
        elif path == "/api/act" and isinstance(value, dict) and set(value) <= {"action", "hand"} and "action" in value:
            ok = isinstance(value["action"], dict) and _legal_readable(table, value["action"]) and (
                "hand" not in value or (type(value["hand"]) is int and value["hand"] == table.hand_no))
        return text, ok
    if kind == "bytes":
        return rest[0], False   # at most: a JSON number or the like, never an object with a legal action
    if kind == "deep":
        depth, pair = rest
        return (pair[0] * depth + pair[1] * depth).encode(), False
    size = rest[0]
    action = json.dumps({"id": state["legal"][0]["id"] if state["legal"] else 0}).encode()
    return action[:-1] + b', "pad": "' + b"x" * size + b'"}', False


def _legal_readable(table: Table, action: dict[str, Any]) -> bool:
    g = table.game
    if table.finished:
        return False
    try:
        return g.action_id(action, table.seat) in g.legal_ids(table.seat)
    except Exception:  # noqa: BLE001 - any refusal of the game: not legal
        return False


STATS = {"requests": 0, "legal": 0, "by_status": {}}


@settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, 50), seq=st.lists(requests, min_size=1, max_size=5))
def test_random_requests_never_5xx_and_change_only_what_is_legal(seed, seq):
    """Whatever the method, path, Host, Origin, Sec-Fetch-Site, Content-Type and body: a 2xx or a 4xx of one
    JSON line (never a 5xx, never an exception), and the game changes exactly when the request is a legal
    same-origin JSON request (an action, an abandon, a new hand), which then answers 200."""
    table = Table(shared_engine(), seed=seed)
    if seed % 3 == 0:
        play_out(table)           # some examples start at a hand's end
    app = make_app(table, PORT)
    for req in seq:
        body, legal_body = _materialise(req, table)
        headers = {"host": req["host"], "origin": req["origin"], "sec-fetch-site": req["site"],
                   "content-type": req["ctype"]}
        same_origin = (req["host"] is not None and req["host"].lower() in (f"127.0.0.1:{PORT}", f"localhost:{PORT}")
                       and req["origin"] in (None, f"http://127.0.0.1:{PORT}", f"http://localhost:{PORT}")
                       and req["site"] in (None, "same-origin", "none"))
        json_post = req["method"] == "POST" and (req["ctype"] or "").split(";")[0].lower() == "application/json"
        legal = same_origin and json_post and legal_body
        before = fingerprint(table)
        status, _, raw = _call(app, req["method"], req["path"], headers, body)
        STATS["requests"] += 1
        STATS["legal"] += legal
        STATS["by_status"][status] = STATS["by_status"].get(status, 0) + 1
        assert status < 500, (status, raw[:300])
        changed = fingerprint(table) != before
        assert changed == legal, (req, body[:200], status, raw[:300])
        if legal:
            assert status == 200
        if status >= 400 and req["method"] != "HEAD":
            one_line_error(status, raw, status)
        if req["host"] is not None and req["host"].lower() not in (f"127.0.0.1:{PORT}", f"localhost:{PORT}"):
            assert status == 403
        elif same_origin and req["method"] == "POST" and req["path"] in ROUTES[:3] and not json_post:
            assert status == 415
        if status == 200 and req["path"].startswith("/api/") and not table.finished:
            shown = json.loads(raw)
            assert shown["seed"] is None and shown["result"] is None


_ENGINE: list[Any] = []


def shared_engine() -> Any:
    """One engine for every example (a fixture cannot be used with @given)."""
    if not _ENGINE:
        _ENGINE.append(mjrules.load(VARIANT))
    return _ENGINE[0]


def test_zz_the_property_tried_every_kind_of_request():
    """Run after the property: it made requests of every sort (legal ones, refusals of each status)."""
    if not STATS["requests"]:
        pytest.skip("the property test did not run in this process")
    print(f"\nrandom requests: {STATS['requests']}, legal {STATS['legal']}, by status {sorted(STATS['by_status'].items())}")
    assert STATS["legal"] > 0 and {200, 400, 403} <= set(STATS["by_status"])
