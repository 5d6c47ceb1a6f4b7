"""Loading a variant without the front end: a load index next to the native modules.

Compiling a spec needs the Lark parser, which takes most of a second to build. Each native module embeds
its variant's IR (`ir_json()`), so once a spec has been compiled and its module built, the IR can be read
back from the module instead. The index (`index.json` in `cache.cache_dir()`) maps the absolute path of
each spec loaded with the native backend to what that IR was compiled from:

    {"version": 1, "entries": {"/abs/path/my.mj": {
        "chain": [{"path": "/abs/path/my.mj", "sha256": "...", "extends": "base"},
                  {"path": "/abs/path/base.mj", "sha256": "...", "extends": null}],
        "frontend": "...", "key": "<native cache key>", "ir_sha256": "..."}}}

`chain` lists the spec and every spec it `extends`, transitively, as the front end found them: each file's
sha256 and the name its `extends` clause gives. An entry is used only when every file still has its hash,
every `extends` name still finds the same file (a new file may shadow a shipped base), the front end's
sources (`frontend`: the compiler package, the grammar, and the tile parser) are unchanged, the module is a valid cache entry
(`native.entry_ok`), and the key recomputed from the module's IR is the recorded one (so a new code
generator, template, Cython or platform rebuilds it). Anything else - no index, a corrupt one, a changed
file - falls back to compiling, which then records a fresh entry. The index is rewritten atomically
(temporary file, then `os.replace`) under a lock; it is a cache, never a source of errors.

Nothing here imports lark on the fast path: a spec is found by the front end's own lark-free rule
(`mjrules.compiler.specfiles.locate`).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from ..compiler.ir import Variant
from ..compiler.specfiles import locate

INDEX = "index.json"
INDEX_VERSION = 1
MAX_ENTRIES = 256   # the index forgets the oldest entries beyond this many
MAX_CHAIN = 64      # longer `extends` chains are not indexed (the front end stops at 16)
FRONTEND_RUNTIME = ("tiles.py", "arith.py")  # the hand model's modules the compiler uses (tile lists, constants)

_frontend: str | None = None


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _frontend_now() -> str:
    from .. import compiler, grammar  # type: ignore[attr-defined]

    h = hashlib.sha256(f"ir {compiler.ir.IR_VERSION}\0".encode())
    model = Path(__file__).parent.parent / "model"
    for folder, ext in ((Path(compiler.__file__).parent, ".py"), (Path(grammar.__file__).parent, ".lark")):
        for name in sorted(n for n in os.listdir(folder) if n.endswith(ext)):
            h.update(name.encode() + b"\0" + (folder / name).read_bytes() + b"\0")
    for name in FRONTEND_RUNTIME:
        h.update(name.encode() + b"\0" + (model / name).read_bytes() + b"\0")
    return h.hexdigest()


def frontend_digest() -> str:
    """sha256 over the sources the IR of a spec depends on (the compiler package, the grammar and
    FRONTEND_RUNTIME): taken once per process, at its first load, before the front end is imported (see
    record)."""
    global _frontend
    if _frontend is None:
        _frontend = _frontend_now()
    return _frontend


# ---- the index --------------------------------------------------------------------------------------------
def index_path() -> Path:
    from .cache import cache_dir

    return cache_dir() / INDEX


def _read_index(path: Path) -> dict[str, Any]:
    """The index's entries; {} when it is missing, unreadable or not what this code writes."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != INDEX_VERSION or not isinstance(
            data.get("entries"), dict):
        return {}
    return data["entries"]


def _chain_ok(chain: Any) -> bool:
    """Every file of a recorded chain unchanged, and every `extends` still finding the next one."""
    if not isinstance(chain, list) or not chain:
        return False
    for i, link in enumerate(chain):
        path, ext = link["path"], link["extends"]
        try:
            if _sha256(Path(path).read_bytes()) != link["sha256"]:
                return False
        except OSError:
            return False
        if ext is None:
            return i == len(chain) - 1
        if i + 1 == len(chain):
            return False
        base = locate(ext, Path(path).parent)
        if base is None or os.path.abspath(base) != chain[i + 1]["path"]:
            return False
    return False


def cached(name_or_path: str) -> Variant | None:
    """The IR of a shipped variant or .mj path from its native module, when the index says it is current;
    else None (then compile). Never raises: any surprise means "not cached"."""
    try:
        return _cached(name_or_path)
    except Exception:  # noqa: BLE001 - a cache must never turn into an error
        return None


def _cached(name_or_path: str) -> Variant | None:
    path = locate(name_or_path)
    if path is None:
        return None
    from . import cache as native

    entry = _read_index(index_path()).get(os.path.abspath(path))
    if not isinstance(entry, dict) or entry.get("frontend") != frontend_digest() or not _chain_ok(
            entry.get("chain")):
        return None
    key = entry["key"]
    if not isinstance(key, str):
        return None
    mod = native.LOADED.get(key)
    if mod is None:
        folder = next((f for f in (native.PREBUILT, native.cache_dir()) if native.entry_ok(f, key)), None)
        if folder is None:
            return None
        mod = native.import_entry(folder, key)
    text = mod.ir_json()
    if _sha256(text.encode("utf-8")) != entry.get("ir_sha256"):
        return None
    from ..compiler import ir

    v = ir.load_json(text)
    ir._remember(v, text)  # its JSON is this text (load_json inverts dump_json): the engine hashes it again
    if native.cache_key(v, text) != key:  # a new code generator, template, Cython or platform
        return None
    native.LOADED.setdefault(key, mod)  # NativeEngine finds the module already imported
    return v


# ---- recording (after compiling) --------------------------------------------------------------------------
def chain(name_or_path: str) -> list[dict[str, Any]] | None:
    """The spec and the specs it extends, as the front end finds them now, with their hashes and `extends`
    names; None when they cannot be read or parsed (compiling will report why). Take it before compiling:
    a file changed in between then fails its hash on the next load instead of hiding a stale IR."""
    try:
        return _chain(name_or_path)
    except Exception:  # noqa: BLE001
        return None


def _chain(name_or_path: str) -> list[dict[str, Any]] | None:
    frontend_digest()  # before the front end is imported
    from ..compiler.parser import parse

    path = locate(name_or_path)
    out: list[dict[str, Any]] = []
    while path is not None and len(out) < MAX_CHAIN:
        here = os.path.abspath(path)
        if any(link["path"] == here for link in out):
            return None  # a cycle: compiling reports it
        data = path.read_bytes()
        ext = parse(data.decode("utf-8-sig"), str(path)).extends
        out.append({"path": here, "sha256": _sha256(data), "extends": ext})
        if ext is None:
            return out
        path = locate(ext, path.parent)
    return None


def record(links: list[dict[str, Any]] | None, v: Variant) -> None:
    """Remember that the spec `links` starts with compiles to `v`, whose native module is built."""
    if links:
        with contextlib.suppress(Exception):  # a cache that cannot be written is only slower
            _record(links, v)


def _record(links: list[dict[str, Any]], v: Variant) -> None:
    from . import cache as native
    from ..compiler.ir import dump_json

    frontend = frontend_digest()
    if _frontend_now() != frontend:  # the compiler changed on disk while this process ran: old code?
        return
    text = dump_json(v)
    entry = {"chain": links, "frontend": frontend, "key": native.cache_key(v, text),
             "ir_sha256": _sha256(text.encode("utf-8"))}
    folder = native.cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / INDEX
    with native.Lock(folder, "index"):
        entries = _read_index(path)
        entries.pop(links[0]["path"], None)
        entries = {k: e for k, e in entries.items() if os.path.exists(k)}
        entries[links[0]["path"]] = entry  # the newest last: pruning drops the oldest
        if len(entries) > MAX_ENTRIES:
            entries = dict(list(entries.items())[-MAX_ENTRIES:])
        part = folder / f".{INDEX}.{os.getpid()}.part"
        try:
            part.write_text(json.dumps({"version": INDEX_VERSION, "entries": entries}, ensure_ascii=False,
                                       indent=1) + "\n", encoding="utf-8")
            os.replace(part, path)
        finally:
            part.unlink(missing_ok=True)
