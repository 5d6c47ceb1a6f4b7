"""The native back end's build cache: each variant's generated module, compiled once and found by its content.

Key = sha256(IR JSON, compiler version (with digests of codegen.py and kernel.pxd), template digest, Cython
version, platform tag). Entries live in `$MJRULES_CACHE` or `~/.cache/mjrules` (shipped variants may also be
prebuilt into the package's `_native/` folder) as `<module><EXT_SUFFIX>` plus a sidecar JSON that records the
magic, versions and the library's sha256; a stale or corrupt entry is rebuilt, never loaded. Builds run
mjrules/native/build.py in a child process, write to a temporary file and `os.replace` it, under an `fcntl.flock`
lock per key; a build then prunes other compiler generations' modules but the newest three (`_prune_modules`).
The kernel's shape tables are cached beside the modules (`load_kernel`).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Self

from ..compiler.ir import Variant, dump_json
from ..version import __version__

CFLAGS = ["-O3", "-g0", "-w"] if os.name == "posix" else []   # the generated modules' (part of the cache key)
# A generated module larger than this is compiled at -O1: gcc -O3 took over 12 minutes on one of 3,000 modifiers
# (1.9 MB of .pyx; -O2 31 s, -O1 6 s). The shipped variants' are 50-80 KB. The size follows from the IR, so the
# key still names one build.
BIG_MODULE = 256 * 1024
CFLAGS_BIG = ["-O1", "-g0", "-w"] if os.name == "posix" else []
if os.environ.get("MJRULES_LIMITED_API") == "1":   # (as setup.py: against CPython's Limited API)
    CFLAGS.append("-DPy_LIMITED_API=0x030B0000")
    CFLAGS_BIG.append("-DPy_LIMITED_API=0x030B0000")
MAGIC = 1                      # layout of a cache entry and its sidecar
HERE = Path(__file__).resolve().parent
PREBUILT = HERE.parent / "_native"    # shipped variants compiled when the package was built
EXT = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
LOADED: dict[str, Any] = {}


# ---- keys and the cache -----------------------------------------------------------------------------------
class BuildError(RuntimeError):
    """A variant's native module cannot be built or stored here (no C compiler, a compiler failure, no usable
    cache folder): one line saying why and what to do. The reference back end still works."""


class CacheWarning(UserWarning):
    """The cache folder cannot be written: this process builds into a temporary one."""


def cache_dir() -> Path:
    """Where user-built modules live: $MJRULES_CACHE, else ~/.cache/mjrules (see writable_cache)."""
    return Path(os.environ.get("MJRULES_CACHE") or Path.home() / ".cache" / "mjrules")


_WRITABLE: dict[Path, Path] = {}


def writable_cache() -> Path:
    """The folder builds write to: cache_dir() when a file can be made in it (it is created if missing), else a
    temporary folder for this process, removed at its exit, with one CacheWarning (the configured folder is still
    read: a read-only cache's modules load). Raises BuildError when no folder at all can be written."""
    home = cache_dir()
    hit = _WRITABLE.get(home)
    if hit is not None:
        return hit
    try:
        home.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=home)
        os.close(fd)
        os.unlink(probe)
        folder = home
    except OSError as e:
        why = "not a folder" if isinstance(e, (FileExistsError, NotADirectoryError)) else e.strerror or str(e)
        try:
            folder = Path(tempfile.mkdtemp(prefix="mjrules-cache-"))
        except OSError as e2:
            raise BuildError(f"no cache folder can be written: {home} ({why}), nor a temporary one "
                             f"({e2.strerror}); set MJRULES_CACHE to a writable folder") from None
        import atexit
        import warnings

        atexit.register(shutil.rmtree, folder, True)
        warnings.warn(CacheWarning(f"cannot write the cache folder {home} ({why}); using a temporary one for this "
                                   "run (set MJRULES_CACHE to a writable folder)"), stacklevel=2)
    _WRITABLE[home] = folder
    return folder


def _digest(*paths: Path) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


@lru_cache(maxsize=1)
def compiler_version() -> str:
    """The mjrules version, codegen version, a digest of the code generator and the C declarations, and the C
    compiler flags."""
    from ..compiler import codegen

    src = _digest(Path(codegen.__file__), HERE / "kernel.pxd")
    return (f"mjrules {__version__}; codegen {codegen.CODEGEN_VERSION}; magic {MAGIC}; sources {src}; "
            f"flags {' '.join(CFLAGS)}, over {BIG_MODULE} bytes {' '.join(CFLAGS_BIG)}")


def platform_tag() -> str:
    return f"{sys.implementation.cache_tag}-{sysconfig.get_platform()}{EXT}"


@lru_cache(maxsize=1)
def _template_digest() -> str:
    from ..compiler import codegen

    return codegen.template_digest()


@lru_cache(maxsize=1)
def _cython_version() -> str:
    try:
        import Cython
    except ImportError:  # pragma: no cover - Cython is a dependency
        return "none"
    return Cython.__version__


def cache_key(v: Variant, ir_json: str | None = None) -> str:
    """The content address of a variant's native module."""
    h = hashlib.sha256()
    for part in (ir_json or dump_json(v), compiler_version(), _template_digest(), _cython_version(), platform_tag()):
        h.update(part.encode("utf-8") + b"\0")
    return h.hexdigest()


def module_name(key: str) -> str:
    return f"mjv_{key[:32]}"


def _sidecar(folder: Path, name: str) -> Path:
    return folder / f"{name}.json"


def entry_ok(folder: Path, key: str) -> bool:
    """A complete, uncorrupted entry for this key, built by this compiler for this platform."""
    name = module_name(key)
    try:
        meta = json.loads(_sidecar(folder, name).read_text(encoding="utf-8"))
        lib = folder / f"{name}{EXT}"
        return (meta.get("magic") == MAGIC and meta.get("key") == key
                and meta.get("compiler") == compiler_version() and meta.get("cython") == _cython_version()
                and meta.get("platform") == platform_tag() and lib.stat().st_size == meta.get("size")
                and hashlib.sha256(lib.read_bytes()).hexdigest() == meta.get("sha256"))
    except (OSError, ValueError, AttributeError):
        return False


def import_entry(folder: Path, key: str) -> Any:
    """Import an entry's module and check that it is the one the key names."""
    load_kernel()
    name = module_name(key)
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}{EXT}")
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {folder / name}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    if getattr(mod, "KEY", None) != key:
        raise ImportError(f"{name}: the module does not carry the key {key}")
    return mod


def c_compiler() -> str | None:
    """The C compiler a build would run ($CC, else the one Python was built with), or None when it is not
    installed."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return shutil.which(cc[0]) if cc else None


NO_COMPILER = ("no C compiler found ({cc}): the native back end compiles each variant. Install one (Debian or "
               "Ubuntu: apt install gcc python3-dev; Fedora: dnf install gcc python3-devel; macOS: "
               "xcode-select --install), or use the reference back end (--backend reference)")


def _cythonize(pyx: Path, name: str, tmp: Path) -> Path:
    """Cythonize and compile one module in `tmp` (mjrules/native/build.py, in a child process: a crash of Cython
    or of the C compiler becomes a BuildError, and their output stays off the terminal)."""
    import subprocess

    if c_compiler() is None:
        cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[:1]
        raise BuildError(NO_COMPILER.format(cc=cc[0] if cc else "cc"))
    flags = CFLAGS_BIG if pyx.stat().st_size > BIG_MODULE else CFLAGS
    cmd = [sys.executable, "-P", str(HERE / "build.py"), str(pyx), name, str(tmp), str(HERE / "kernel.pxd"), *flags]
    run = subprocess.run(cmd, check=False, capture_output=True, text=True, errors="replace")
    out = run.stdout.strip().splitlines()
    if run.returncode == 0 and out and Path(out[-1]).is_file():
        return Path(out[-1])
    raise BuildError(_build_failure(name, run.returncode, run.stderr + run.stdout))


def _build_failure(name: str, code: int, output: str) -> str:
    """One line for a failed child build, from its exit code and output."""
    if code < 0:
        import signal

        try:
            sig = signal.Signals(-code).name
        except ValueError:
            sig = f"signal {-code}"
        return f"building the native module {name} crashed ({sig}); the reference back end still works"
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    if any("Python.h" in ln for ln in lines):
        return ("the C compiler cannot find Python.h: install Python's development headers (Debian or Ubuntu: "
                "apt install python3-dev), or use the reference back end (--backend reference)")
    errors = [ln for ln in lines if "error" in ln.lower()] or lines
    last = errors[-1] if errors else f"exit code {code}"
    return f"building the native module {name} failed: {last[:300]}; the reference back end still works"


def _write_entry(folder: Path, key: str, built: Path, v: Variant) -> Path:
    name = module_name(key)
    lib = folder / f"{name}{EXT}"
    data = built.read_bytes()
    part = folder / f".{name}.{os.getpid()}.part"
    part.write_bytes(data)
    os.replace(part, lib)
    meta = {"magic": MAGIC, "key": key, "module": name, "variant": v.name, "spec_sha256": v.spec_sha256,
            "compiler": compiler_version(), "cython": _cython_version(), "platform": platform_tag(),
            "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    part = folder / f".{name}.{os.getpid()}.json.part"
    part.write_text(json.dumps(meta, ensure_ascii=True, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(part, _sidecar(folder, name))
    return lib


class Lock:
    """An exclusive flock on <folder>/<name>.lock (no locking where fcntl does not exist)."""

    def __init__(self, folder: Path, name: str):
        self.path = folder / f"{name}.lock"

    def __enter__(self) -> Self:
        self.f = open(self.path, "a+b")
        try:
            import fcntl
            fcntl.flock(self.f, fcntl.LOCK_EX)
        except ImportError:  # pragma: no cover - not POSIX
            pass
        return self

    def __exit__(self, *exc: object) -> None:
        self.f.close()  # closing releases the lock


def build(ir: Variant, folder: Path | None = None) -> Path:
    """Generate, cythonize and compile a variant's module into the cache (if needed); its library's path."""
    return ensure(ir, folder)[0]


def ensure(v: Variant, folder: Path | None = None) -> tuple[Path, bool, str]:
    """(library path, whether it was built now, key). Prebuilt shipped modules count as built already; the cache
    folder is read even when it cannot be written (then builds go to writable_cache()). Raises BuildError."""
    ir_json = dump_json(v)
    key = cache_key(v, ir_json)
    name = module_name(key)
    lib_name = f"{name}{EXT}"
    if folder is None:
        for f in (PREBUILT, cache_dir()):
            if entry_ok(f, key):
                return f / lib_name, False, key
        folder = writable_cache()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if entry_ok(folder, key):
            return folder / lib_name, False, key
        with Lock(folder, name):
            if entry_ok(folder, key):  # another process built it while we waited
                return folder / lib_name, False, key
            _sweep_builds(folder)
            from ..compiler.codegen import render

            with tempfile.TemporaryDirectory(prefix=f".build-{name}-", dir=folder) as tmp:
                pyx = Path(tmp) / f"{name}.pyx"
                pyx.write_text(render(v, key), encoding="utf-8")
                built = _cythonize(pyx, name, Path(tmp))
                lib = _write_entry(folder, key, built, v)
    except OSError as e:
        raise BuildError(f"cannot write the native module of {v.name} to {folder}: {e.strerror or e}") from None
    _prune_modules(folder)
    return lib, True, key


def _sweep_builds(folder: Path) -> None:
    """Remove what builds that died (a crash, a kill) left in `folder`: a `.build-<module>-*` work folder and
    `.<module>.*.part` files of a module whose build lock nobody holds (a live build holds its lock, this process's
    own included, so it is never touched)."""
    for p in list(folder.glob(".build-*")) + list(folder.glob(".mjv_*.part")):
        owner = p.name[len(".build-"):].rsplit("-", 1)[0] if p.name.startswith(".build-") else \
            p.name[1:].split(".", 1)[0]
        if _lock_free(folder, owner):
            if p.is_dir():
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.unlink(missing_ok=True)


def _lock_free(folder: Path, name: str) -> bool:
    """Whether nobody holds <folder>/<name>.lock (tried without waiting, and released at once)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: leave everything
        return False
    try:
        with open(folder / f"{name}.lock", "r+b") as f:   # a lock file nobody made: not a build's
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
    except OSError:
        return False


KEEP_GENERATIONS = 3  # other compilers' (or platforms') module generations kept in the cache


def _prune_modules(folder: Path) -> None:
    """Delete the variant modules of all but the KEEP_GENERATIONS most recently written other generations (a
    generation: the compiler version and platform an entry's sidecar records). Every change to the code
    generator or the core's declarations makes a new key for every variant, so a developer or an upgrade would
    otherwise pile up a module set each time; the current generation is never touched, and an entry whose
    build lock another process holds is left alone. Called only after a build, so loads never delete."""
    current = (compiler_version(), platform_tag())
    newest: dict[tuple[str, str], float] = {}
    entries: list[tuple[tuple[str, str], str]] = []
    for side in folder.glob("mjv_*.json"):
        try:
            meta = json.loads(side.read_text(encoding="utf-8"))
            gen = (str(meta["compiler"]), str(meta["platform"]))
            mtime = side.stat().st_mtime
        except (OSError, ValueError, KeyError, TypeError):
            continue  # being written, or not ours: left as it is
        if gen == current:
            continue
        newest[gen] = max(newest.get(gen, 0.0), mtime)
        entries.append((gen, side.name[:-len(".json")]))
    keep = set(sorted(newest, key=newest.__getitem__, reverse=True)[:KEEP_GENERATIONS])
    for gen, name in entries:
        if gen not in keep:
            _delete_entry(folder, name)


def _delete_entry(folder: Path, name: str) -> None:
    """Remove one cache entry (library, sidecar, lock) unless another process holds its lock."""
    lock = folder / f"{name}.lock"
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        fcntl = None
    try:
        with open(lock, "a+b") as f:
            if fcntl is not None:
                try:
                    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    return  # in use: kept
            for p in (folder / f"{name}{EXT}", _sidecar(folder, name), lock):
                p.unlink(missing_ok=True)
    except OSError:
        pass


def build_variant(name_or_path: str) -> dict[str, Any]:
    """Build (or find up to date) a shipped variant or a .mj file: {name, key, path, built}."""
    from ..compiler import compile_variant

    v = compile_variant(str(name_or_path))
    path, built, key = ensure(v)
    return {"name": v.name, "key": key, "path": str(path), "built": built}


def load_module(v: Variant) -> Any:
    """The variant's compiled module: loaded once per process, built on first use."""
    key = cache_key(v)
    if key in LOADED:
        return LOADED[key]
    path, built, _ = ensure(v)
    try:
        mod = import_entry(path.parent, key)
    except ImportError:
        if built or path.parent == PREBUILT:
            raise
        path.unlink(missing_ok=True)  # a stale entry that passed its checks but does not import: rebuild
        path, _, _ = ensure(v)
        mod = import_entry(path.parent, key)
    LOADED[key] = mod
    return mod


def load_kernel() -> Any:
    """mjrules.native.kernel (its shape tables read from the cache when they are there)."""
    core = _import_core()
    if not getattr(core, "_mjrules_tables", False):
        core._mjrules_tables = True
        _cached_tables(core)
    return core


def _cached_tables(core: Any) -> None:
    """Install the kernel's shape tables from the cache file, or build them and write the file (atomically).
    A missing, truncated or corrupt file (its crc32 is checked) is rebuilt, never used."""
    import zlib

    path = cache_dir() / f"tables-{_digest(HERE / 'kernel.pyx', HERE / '_tables.pxi')[:16]}-{sys.byteorder}.bin"
    head = core.TABLES_FORMAT
    try:
        data = path.read_bytes()
        crc = int.from_bytes(data[len(head):len(head) + 4], "little")
        body = memoryview(data)[len(head) + 4:]
        if data.startswith(head) and zlib.crc32(body) == crc and core.install_tables(body):
            return
    except (OSError, ValueError):
        pass
    body = core.tables_blob()
    tmp = None
    try:
        path = writable_cache() / path.name
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(head + zlib.crc32(body).to_bytes(4, "little") + body)
        os.replace(tmp, path)
    except (OSError, BuildError):  # a cache that cannot be written only costs the build next time
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        return
    _prune_tables(path)


KEEP_TABLES = 3  # other kernels' tables files kept in the cache (two installed versions must not evict each other)


def _prune_tables(current: Path) -> None:
    """Delete all but the KEEP_TABLES most recently written tables files of other kernels: each is several MB and
    is named after its kernel's source digest, so a developer rebuilding the kernel would otherwise pile them
    up. Called only after writing a new one, so installs that only read their file never delete anything."""
    others = []
    for p in current.parent.glob(f"tables-*-{sys.byteorder}.bin"):
        if p != current:
            try:
                others.append((p.stat().st_mtime, p))
            except OSError:
                continue
    others.sort(reverse=True)
    for _, p in others[KEEP_TABLES:]:
        try:
            p.unlink()
        except OSError:  # another process's, or already gone
            pass


def _import_core() -> Any:
    """mjrules.native.kernel, the native kernel setup.py compiles with the package (with the runtime's modules written in
    Cython's pure-Python mode, whose compiled types the kernel uses): an install without them has only the
    reference back end."""
    try:
        import mjrules.native.kernel as core
    except ImportError as e:
        raise ImportError(f"the native back end needs mjrules' compiled modules, which this install lacks ({e}); "
                          "reinstall mjrules where a C compiler and Cython are available, or use "
                          "backend='reference'") from e
    return core


_POOLS: dict[int, Any] = {}


def thread_pool(threads: int) -> Any:
    """A thread pool of this size, made once per process: check_batch's threads run the kernel without the GIL."""
    ex = _POOLS.get(threads)
    if ex is None:
        from concurrent.futures import ThreadPoolExecutor

        ex = _POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="mjrules-batch")
    return ex
