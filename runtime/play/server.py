"""`mjrules play VARIANT`: the table (mjrules.play.table) served on 127.0.0.1 by Starlette and uvicorn. The page
and its script are package files (no network, no CDN); the API is three JSON routes:

    GET  /api/state            the person's view, their legal actions, the log, the result once over
    POST /api/act  {"id": N}   the person's decision (400 with the reason when it is not legal)
    POST /api/new              the next hand
"""
from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import webbrowser
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..game import IllegalAction
from .table import Table

STATIC = Path(__file__).resolve().parent / "static"


def make_app(table: Table) -> Starlette:
    """The web app of one table."""

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    def state(request: Request) -> JSONResponse:
        return JSONResponse(table.state())

    async def act(request: Request) -> JSONResponse:
        try:
            body = json.loads(await request.body() or b"{}")
            action = body["id"] if isinstance(body, dict) and "id" in body else body.get("action")
            table.act(action)
        except (IllegalAction, KeyError, TypeError, AttributeError, ValueError) as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        return JSONResponse(table.state())

    def new(request: Request) -> JSONResponse:
        table.new_hand()
        return JSONResponse(table.state())

    return Starlette(routes=[
        Route("/", index),
        Route("/api/state", state),
        Route("/api/act", act, methods=["POST"]),
        Route("/api/new", new, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])


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
        table = Table(engine, seat=args.seat, agents=args.agents.split(","), seed=args.seed, options=options)
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
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    print(f"mjrules play: {engine.variant.name} at {url} (Ctrl-C stops)", flush=True)
    if not args.no_browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    server = uvicorn.Server(uvicorn.Config(make_app(table), log_level="warning", lifespan="off"))
    server.run(sockets=[sock])
    return 0


__all__ = ["bind", "make_app", "run_server"]
