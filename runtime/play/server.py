"""`mjrules play VARIANT`: the table (mjrules.play.table) served on 127.0.0.1 by Starlette and uvicorn. The page
and its script are package files (no network, no CDN); the API is four JSON routes:

    GET  /api/state                         the person's view, their legal actions, the log, the result once over
    POST /api/act      {"id": N, "hand": H} the person's decision ("hand" optional; 400 with the reason when not legal)
    POST /api/abandon  {"hand": H}          void the live hand H: no settlement, every hand and the seed shown
    POST /api/new      {"hand": H}          the next hand, once hand H is over or abandoned

The server is reachable by any page the person's browser opens, so it answers only its own origin: a Host other
than 127.0.0.1:PORT or localhost:PORT (DNS rebinding), a foreign Origin, or a cross-site fetch (Sec-Fetch-Site)
gets 403. A POST must be `Content-Type: application/json` (415), at most MAX_BODY bytes (413, refused as soon as
it is exceeded), a JSON object nested at most MAX_DEPTH deep with only the route's keys (400); a stale or
untimely hand number gets 409. Every refusal is one line of JSON, {"error": "..."}, never a 5xx.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..game import IllegalAction
from .table import Conflict, Table

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 64 * 1024     # bytes of a request body
MAX_DEPTH = 32           # nesting of a JSON body
BODY_SECONDS = 10.0      # a body not all sent by then: 408
MAX_ID = 2 ** 31         # an action id beyond this names no action


class Refused(Exception):
    """A bad request: its status and one line of error."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def refusal(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": _one_line(message)}, status_code=status)


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def json_depth_ok(data: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON text's arrays and objects nest at most `limit` deep (brackets inside strings do not
    count); checked before parsing, so a deep body never reaches the parser's recursion."""
    depth, in_string, escaped = 0, False, False
    for b in data:
        if in_string:
            if escaped:
                escaped = False
            elif b == 0x5C:      # backslash
                escaped = True
            elif b == 0x22:      # quote
                in_string = False
        elif b == 0x22:
            in_string = True
        elif b in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return False
        elif b in (0x5D, 0x7D):
            depth -= 1
    return True


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(data: bytes) -> Any:
    """The JSON of a request body, or Refused(400): not UTF-8, too deep, malformed, NaN or Infinity."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(400, "the body is not UTF-8") from None
    if not json_depth_ok(data):
        raise Refused(400, f"the body nests deeper than {MAX_DEPTH}")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:   # JSONDecodeError, a too-long integer, NaN
        raise Refused(400, f"the body is not JSON: {e}") from None


def media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request's body, read as it arrives and refused (413) as soon as it passes `limit` bytes, or (408) when
    it has not all arrived within BODY_SECONDS."""
    seconds = BODY_SECONDS
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.strip().isdigit():
            raise Refused(400, "Content-Length is not a number")
        if int(declared) > limit:
            raise Refused(413, f"the body is larger than {limit} bytes")
    chunks, size = [], 0

    async def read() -> None:
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise Refused(413, f"the body is larger than {limit} bytes")
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), seconds)
    except TimeoutError:
        raise Refused(408, f"the body did not arrive within {seconds:g} s") from None
    except ClientDisconnect:
        raise Refused(400, "the client went away before the body ended") from None
    return b"".join(chunks)


async def json_object(request: Request, keys: dict[str, bool]) -> dict[str, Any]:
    """A POST's JSON object with only `keys` (name: required), after the media type (415), size (413) and
    syntax (400) checks."""
    if media_type(request) != "application/json":
        raise Refused(415, "send the body as Content-Type: application/json")
    body = parse_json(await read_body(request))
    if not isinstance(body, dict):
        raise Refused(400, "the body is not a JSON object")
    unknown = sorted(set(body) - set(keys))
    if unknown:
        raise Refused(400, f"unknown key {unknown[0][:40]!r}; the keys are: {', '.join(keys)}")
    missing = [k for k, required in keys.items() if required and k not in body]
    if missing:
        raise Refused(400, f"the body has no {missing[0]!r}")
    return body


def whole(body: dict[str, Any], key: str) -> int | None:
    """body[key] as a whole number (absent: None); Refused(400) when it is anything else."""
    if key not in body:
        return None
    v = body[key]
    if type(v) is not int or not -MAX_ID < v < MAX_ID:
        raise Refused(400, f"{key!r} must be a whole number, not {json.dumps(v)[:40]}")
    return v


class Guard:
    """ASGI middleware: only requests to this server's own origin pass. Host must be 127.0.0.1:PORT or
    localhost:PORT (a rebound DNS name is refused), Origin, when sent, the same as http://HOST, and on /api/
    a browser's Sec-Fetch-Site, when sent, same-origin or none. Anything else: 403."""

    def __init__(self, app: Any, port: int):
        self.app = app
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.origins = {f"http://{h}" for h in self.hosts}

    def why_not(self, scope: dict[str, Any]) -> str | None:
        headers: dict[bytes, list[bytes]] = {}
        for k, v in scope.get("headers", ()):
            headers.setdefault(k.lower(), []).append(v)
        host = headers.get(b"host", [])
        if len(host) != 1 or host[0].decode("latin-1").strip().lower() not in self.hosts:
            return "this server answers only Host " + " or ".join(sorted(self.hosts))
        origin = headers.get(b"origin")
        if origin is not None and (len(origin) != 1 or origin[0].decode("latin-1").strip().lower() not in self.origins):
            return "cross-origin requests are refused: this server answers only " + " or ".join(sorted(self.origins))
        site = headers.get(b"sec-fetch-site")
        if site is not None and str(scope.get("path", "")).startswith("/api/") and \
                any(s.decode("latin-1").strip().lower() not in ("same-origin", "none") for s in site):
            return "cross-site requests are refused"
        return None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            why = self.why_not(scope)
            if why is not None:
                await refusal(403, why)(scope, receive, send)
                return
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, send)


def make_app(table: Table, port: int) -> Any:
    """The web app of one table, served at 127.0.0.1:`port` (the only origin it answers)."""

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def state(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(table.state))

    def answer(route: Any) -> Any:
        async def handle(request: Request) -> JSONResponse:
            try:
                await route(request)
            except Refused as e:
                return refusal(e.status, e.message)
            except Conflict as e:
                return refusal(409, str(e))
            except IllegalAction as e:
                return refusal(400, str(e))
            return JSONResponse(await run_in_threadpool(table.state))
        return handle

    async def act(request: Request) -> None:
        body = await json_object(request, {"id": False, "action": False, "hand": False})
        hand = whole(body, "hand")
        if ("id" in body) == ("action" in body):
            raise Refused(400, 'give the action as {"id": N} or {"action": {"type": ...}}')
        if "id" in body:
            action: Any = whole(body, "id")
        else:
            action = body["action"]
            if not isinstance(action, dict):
                raise Refused(400, '"action" must be an object with a "type"')
        try:
            await run_in_threadpool(table.act, action, hand)
        except (KeyError, TypeError, ValueError, OverflowError) as e:   # a readable action naming nothing
            raise Refused(400, f"not an action: {e}") from None

    async def abandon(request: Request) -> None:
        body = await json_object(request, {"hand": True})
        await run_in_threadpool(table.abandon, whole(body, "hand"))

    async def new(request: Request) -> None:
        body = await json_object(request, {"hand": True})
        await run_in_threadpool(table.new_hand, whole(body, "hand"))

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": _one_line(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    app = Starlette(routes=[
        Route("/", index),
        Route("/api/state", state),
        Route("/api/act", answer(act), methods=["POST"]),
        Route("/api/abandon", answer(abandon), methods=["POST"]),
        Route("/api/new", answer(new), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], exception_handlers={HTTPException: http_error})
    return Guard(app, port)


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:port (0: any free port); OSError when the port is taken."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError:
        sock.close()
        raise
    sock.listen(64)
    return sock


def run_server(args: argparse.Namespace) -> int:
    """Load the variant, deal the first hand, serve until interrupted. Bad input: one line, exit 1 or 2."""
    import uvicorn

    from ..compiler import SpecError
    from ..engine import load
    from ..cli.options import parse_option

    try:
        engine = load(args.variant, backend=args.backend)
    except SpecError as e:
        print(e.render(), file=sys.stderr)
        return 1
    try:
        options = dict(parse_option(o) for o in args.option or ())
        # no --seed: a secret seed for every hand; a seed given is the person's own, still shown only at a hand's end
        table = Table(engine, seat=args.seat, agents=args.agents.split(","), seed=getattr(args, "seed", None),
                      options=options)
    except ValueError as e:
        print(f"mjrules play: error: {e}", file=sys.stderr)
        return 2
    try:
        sock = bind(args.port)
    except OSError as e:
        why = "is in use" if e.errno in (98, 48, 10048) else f"cannot be used ({e.strerror})"
        print(f"mjrules play: error: port {args.port} on 127.0.0.1 {why}; choose another with --port (0: any free "
              "one)", file=sys.stderr)
        return 2
    port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    print(f"mjrules play: {engine.variant.name} at {url} (Ctrl-C stops)", flush=True)
    if not args.no_browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    server = uvicorn.Server(config(make_app(table, port)))
    server.run(sockets=[sock])
    return 0


def config(app: Any) -> Any:
    """uvicorn's settings for the table: no proxy headers trusted, no access log, no lifespan."""
    import uvicorn

    return uvicorn.Config(app, log_level="warning", lifespan="off", proxy_headers=False, access_log=False,
                          server_header=False, ws="none")


__all__ = ["MAX_BODY", "MAX_DEPTH", "bind", "config", "make_app", "run_server"]
