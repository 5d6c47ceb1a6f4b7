"""The native backend: each variant compiled through Cython to a C module, cached by content, and decided by
mjrules._core exactly as the reference backend decides it.

The kernel and the generated module choose the reading and compute the verdict, pattern, modifiers, status
and value in C; _core.Results makes the Result of it (mjrules.result), whose explanation the variant's
Explainer (the reference's too) makes from the kernel's decided values, and whose payments the shared
settlement code (`mjrules.settle`) computes, evaluating payment expressions through the compiled module.

Where a double cannot be trusted to equal Python's exact arithmetic (numbers beyond 2**53, 0 ** -1, ...),
or the reference would raise (a table without a cell), the native code says so and this situation is
decided by the reference interpreter instead, so results and errors stay identical.

Cache: key = sha256(IR JSON, compiler version (with digests of codegen.py and _core.pxd), template digest,
Cython version, platform tag). Entries live in `$MJRULES_CACHE` or `~/.cache/mjrules` (shipped variants may
also be prebuilt into the package's `_native/` folder) as `<module><EXT_SUFFIX>` plus a sidecar JSON that
records the magic, versions and the library's sha256; a stale or corrupt entry is rebuilt, never loaded.
Builds write to a temporary file and `os.replace` it, under an `fcntl.flock` lock per key; a build then prunes
other compiler generations' modules but the newest three (`_prune_modules`).
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
from collections.abc import Iterator
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any, NamedTuple, Self

from . import check as _check
from .compiler.ir import Variant, dump_json
from .plays import Plays
from .readings import Group
from .result import Explainer, Result, frozen_lines
from .settle import settle_win
from .shape import MayFit, always_fits, free_tests_read_tiles_only, options_are_defaults
from .situation import (
    Situation,
    SituationError,
    drawable_kinds,
    fields,
    pre_draw_situation,
    reader,
    situation_from_dict,
)
from .tiles import tile_name
from .version import __version__

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
PREBUILT = HERE / "_native"    # shipped variants compiled when the package was built
EXT = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
_EXACT = 2 ** 53
_LOADED: dict[str, Any] = {}
_GROUP_KINDS = ("seq", "pung", "pair")


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
    from .compiler import codegen

    src = _digest(Path(codegen.__file__), HERE / "_core.pxd")
    return (f"mjrules {__version__}; codegen {codegen.CODEGEN_VERSION}; magic {MAGIC}; sources {src}; "
            f"flags {' '.join(CFLAGS)}, over {BIG_MODULE} bytes {' '.join(CFLAGS_BIG)}")


def platform_tag() -> str:
    return f"{sys.implementation.cache_tag}-{sysconfig.get_platform()}{EXT}"


@lru_cache(maxsize=1)
def _template_digest() -> str:
    from .compiler import codegen

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


def _entry_ok(folder: Path, key: str) -> bool:
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


def _import(folder: Path, key: str) -> Any:
    """Import an entry's module and check that it is the one the key names."""
    _load_core()
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
    """Cythonize and compile one module in `tmp` (mjrules/nativebuild.py, in a child process: a crash of Cython
    or of the C compiler becomes a BuildError, and their output stays off the terminal)."""
    import subprocess

    if c_compiler() is None:
        cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[:1]
        raise BuildError(NO_COMPILER.format(cc=cc[0] if cc else "cc"))
    flags = CFLAGS_BIG if pyx.stat().st_size > BIG_MODULE else CFLAGS
    cmd = [sys.executable, "-P", str(HERE / "nativebuild.py"), str(pyx), name, str(tmp), str(HERE / "_core.pxd"), *flags]
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


class _Lock:
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
    return _ensure(ir, folder)[0]


def _ensure(v: Variant, folder: Path | None = None) -> tuple[Path, bool, str]:
    """(library path, whether it was built now, key). Prebuilt shipped modules count as built already; the cache
    folder is read even when it cannot be written (then builds go to writable_cache()). Raises BuildError."""
    ir_json = dump_json(v)
    key = cache_key(v, ir_json)
    name = module_name(key)
    lib_name = f"{name}{EXT}"
    if folder is None:
        for f in (PREBUILT, cache_dir()):
            if _entry_ok(f, key):
                return f / lib_name, False, key
        folder = writable_cache()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if _entry_ok(folder, key):
            return folder / lib_name, False, key
        with _Lock(folder, name):
            if _entry_ok(folder, key):  # another process built it while we waited
                return folder / lib_name, False, key
            _sweep_builds(folder)
            from .compiler.codegen import render

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
    from .compiler import compile_variant

    v = compile_variant(str(name_or_path))
    path, built, key = _ensure(v)
    return {"name": v.name, "key": key, "path": str(path), "built": built}


def load_module(v: Variant) -> Any:
    """The variant's compiled module: loaded once per process, built on first use."""
    key = cache_key(v)
    if key in _LOADED:
        return _LOADED[key]
    path, built, _ = _ensure(v)
    try:
        mod = _import(path.parent, key)
    except ImportError:
        if built or path.parent == PREBUILT:
            raise
        path.unlink(missing_ok=True)  # a stale entry that passed its checks but does not import: rebuild
        path, _, _ = _ensure(v)
        mod = _import(path.parent, key)
    _LOADED[key] = mod
    return mod


def _load_core() -> Any:
    """mjrules._core (its shape tables read from the cache when they are there)."""
    core = _import_core()
    if not getattr(core, "_mjrules_tables", False):
        core._mjrules_tables = True
        _cached_tables(core)
    return core


def _cached_tables(core: Any) -> None:
    """Install the kernel's shape tables from the cache file, or build them and write the file (atomically).
    A missing, truncated or corrupt file (its crc32 is checked) is rebuilt, never used."""
    import zlib

    path = cache_dir() / f"tables-{_digest(HERE / '_core.pyx')[:16]}-{sys.byteorder}.bin"
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
    """mjrules._core, the native kernel setup.py compiles with the package (with the runtime's modules written in
    Cython's pure-Python mode, whose compiled types the kernel uses): an install without them has only the
    reference back end."""
    try:
        import mjrules._core as core
    except ImportError as e:
        raise ImportError(f"the native back end needs mjrules' compiled modules, which this install lacks ({e}); "
                          "reinstall mjrules where a C compiler and Cython are available, or use "
                          "backend='reference'") from e
    return core


_POOLS: dict[int, Any] = {}


def _pool(threads: int) -> Any:
    """A thread pool of this size, made once per process: check_batch's threads run the kernel without the GIL."""
    ex = _POOLS.get(threads)
    if ex is None:
        from concurrent.futures import ThreadPoolExecutor

        ex = _POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="mjrules-batch")
    return ex


# ---- the engine -------------------------------------------------------------------------------------------
def _num(v: float) -> int | float:
    return int(v) if v.is_integer() else v


class _Told(NamedTuple):
    """A kernel reading as the Explainer reads one."""

    groups: tuple[Group, ...]
    counts: tuple[int, ...]
    assignment: tuple[int, ...]


class _Teller:
    """What makes a native Result's reading and pattern line, when first read: the kernel's reading (a copy of
    its Reading, which _core.reading_parts unpacks) told by the variant's Explainer."""

    def __init__(self, explainer: Explainer, parts: Any):
        self.explainer, self.parts = explainer, parts

    def tell(self, pattern: int, facts: bytes) -> tuple[Any, Any]:
        groups, counts, assignment = self.parts(facts)
        return self.explainer.tell(pattern, _Told(tuple([_group(*g) for g in groups]), counts, assignment))


@lru_cache(maxsize=1024)
def _group(kind: int, k0: int, bits: int) -> Group:
    """A kernel group (0 seq, 1 pung, 2 pair; its first kind; its wild bits) as the reference's."""
    kinds = (k0, k0 + 1, k0 + 2) if kind == 0 else (k0,) * (3 if kind == 1 else 2)
    return Group(_GROUP_KINDS[kind], kinds, tuple(bool(bits >> i & 1) for i in range(len(kinds))))


class NativeEngine(Plays):
    """Decides and scores hands of one variant with its compiled module; the same answers as the reference."""

    backend = "native"

    def __init__(self, variant: Variant):
        from .compiler import codegen

        core = _load_core()
        self.variant = v = variant
        self.module = load_module(variant)
        self._core = core
        self._explainer = Explainer(v)   # (the one builder of a result's explanation, both back ends')
        self._used = self._explainer.used
        self._kernel = core.Kernel(self.module.capsule(), self._used)
        self._strings = codegen.string_ids(v)
        self._names = {i: s for s, i in self._strings.items()}
        self._wins = {id(w[0]): (i, w[1]) for i, w in enumerate(codegen.win_exprs(v))}
        self._dtypes = self.module.DEFINE_TYPES
        self._defaults = self._encode(v.option_defaults())
        self._reference_engine: Any = None
        self._lock = core.KernelLock()  # one kernel holds the chosen reading until the result is assembled
        c, w = v.claims, v.wild
        self._refusals = [
            (f"a discarded {w.label} ({w.name}) cannot be claimed" if w else "", w.src if w else None),
            ("this variant does not allow a win on this discard", c.win_on_discard_src or c.src),
            ("this variant does not allow robbing a kong", c.src),
            ("a wild is never used in a kong, so it cannot be robbed", w.src if w else None),
        ]
        # a winning reading's Result, made in C (runtime/_result.pxi) from the pieces _middle_of and _settle explain
        results = core.Results(self._kernel, self._middle_of, self._settle, _Teller(self._explainer, core.reading_parts),
                               self._explainer.reasons, self._explainer.head if "s" not in self._dtypes else None)
        self._build = results.build
        self._reader = reader(v)   # (the one situation reader, compiled: FastEvaluate calls it from C)
        self._checks = _check.Checks()
        self._checks.variant, self._checks.judge = v, lambda s: self._reference().judge(s)
        sd = float(self._strings.setdefault("self_draw", len(self._strings) + 1))
        self._names[int(sd)] = "self_draw"
        fixed = _check.wild_kind(v, None)
        cap = 0   # the most live wilds of each wild kind (besides its copies; -1: less the face-up indicator's)
        if w is not None:
            up = w.indicator_stays and w.mode == "indicator"
            cap = w.live or (-1 if up else 255)
        if self._defaults is None:  # options a double cannot hold: the reference decides every check
            self.is_win, self.wait_kinds = self._checks.is_win, self._checks.wait_kinds
            self.hand_value = self._checks.hand_value
        else:
            self._kernel.configure_check(self._defaults, sd, core.wild_code(fixed), cap, self._undecided,
                                         self._validate,
                                         tuple(p.name for p in v.patterns))
            self.is_win, self.wait_kinds = self._kernel.is_win, self._kernel.wait_kinds
            self.hand_value = self._kernel.hand_value
            # a plain situation dict of a winning hand is read, judged and built in one C call
            self.evaluate = core.FastEvaluate(  # type: ignore[method-assign]
                self._reader, self._kernel, results, self._defaults, self._strings, self._lock,
                self._evaluate_dict, self._decided_result).evaluate

    # ---- the bare win check (mjrules.check); is_win and wait_kinds are the kernel's own methods ---------
    def is_win(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> bool:  # replaced in __init__
        """Does this complete concealed hand win? (see mjrules.check)"""
        return self._checks.is_win(counts, wilds, wild)

    def hand_value(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> tuple[Any, str] | None:
        """(value, pattern) of this complete concealed hand's best reading, or None (see mjrules.check)."""
        return self._checks.hand_value(counts, wilds, wild)  # replaced in __init__

    def wait_kinds(self, counts: Any, wilds: int = 0, wild: int | str | None = None) -> list[int]:  # likewise
        """The kinds that complete this concealed hand one tile short (see mjrules.check)."""
        return self._checks.wait_kinds(counts, wilds, wild)

    def check_batch(self, counts: Any, wilds: Any = None, wild: Any = None, threads: int = 1,
                    values: bool = False) -> Any:
        """is_win for each row of an n x 34 count array, in C without the GIL; `threads` splits the rows
        across threads; `wild` is is_win's for every row (a kind, a name, a tuple of kinds) or an integer array
        of each row's kinds, n or n x k (-1: none; see mjrules.check).
        With values: (win, value, pattern index), NaN and -1 where a row does not win."""
        import numpy as np

        if self._defaults is None:
            return self._checks.check_batch(counts, wilds, wild, threads, values)
        cnt, wl = _check.batch_arrays(counts, wilds)
        n = len(cnt)
        w, kinds = _check.batch_kinds(self.variant, wild, n)
        w = self._core.wild_code(w)
        threads = _check.batch_threads(threads)
        out = np.empty(n, dtype=np.int8)
        val = np.empty(n) if values else None
        pat = np.empty(n, dtype=np.int32) if values else None
        kernel = self._kernel
        if threads <= 1 or n < 2 * threads:
            kernel.check_batch(cnt, wl, out, w, val, pat, kinds)
        else:
            cuts = [n * i // threads for i in range(threads + 1)]
            parts = [slice(a, b) for a, b in pairwise(cuts)]
            ex = _pool(threads)
            for f in [ex.submit(kernel.check_batch, cnt[s], wl[s], out[s], w, None if val is None else val[s],
                                None if pat is None else pat[s], None if kinds is None else kinds[s], s.start)
                      for s in parts]:
                f.result()
        undecided = np.flatnonzero(out < 0)
        if len(undecided):
            wins = self._checks.check_batch(cnt[undecided], wl[undecided],
                                            wild if kinds is None else kinds[undecided], 1, values)
            if values:
                out[undecided], val[undecided], pat[undecided] = wins[0], wins[1], wins[2]
            else:
                out[undecided] = wins
        win = out.astype(bool)
        return (win, val, pat) if values else win

    def _undecided(self, counts: Any, wilds: int, wild: Any, value: bool = False) -> Any:
        if value:
            return self._checks.hand_value(counts, wilds, wild)
        return self._checks.is_win(counts, wilds, wild)

    def _validate(self, counts: Any, wilds: Any, wild: Any, pre_draw: bool, row: int | None) -> tuple:
        """The shared validation of a bare check's arguments (mjrules.check.validate), for the kernel."""
        return _check.validate(self.variant, counts, wilds, wild, pre_draw, row)

    # ---- for the game ---------------------------------------------------------------------------------
    def fit_test(self, options: dict[str, Any] | None = None) -> MayFit:
        """The game's cheap shape test for these options (see mjrules.shape): the kernel's, where every free
        pattern's condition reads only what its check context holds, else one that never rules a hand out."""
        v = self.variant
        if self._defaults is not None and free_tests_read_tiles_only(v, options_are_defaults(v, options)):
            return self._kernel.shape_test()
        return always_fits

    def estimator(self, options: dict[str, Any] | None = None, patterns: Any = None) -> Any:
        """The shape distance of hands by the shapes of all patterns, or of those named (mjrules.distance's
        Estimator interface): in C where every free pattern's condition reads only the counts; made once per
        option values and patterns."""
        from .distance import Estimator, reads_counts_only

        key = (tuple(sorted((options or {}).items())), None if patterns is None else tuple(sorted(patterns)))
        cache = self.__dict__.setdefault("_estimators", {})
        got = cache.get(key)
        if got is None:
            v = self.variant
            opts = self._encode(v.option_defaults() | dict(options or {}))
            pats = [(i, p) for i, p in enumerate(v.patterns) if patterns is None or p.name in patterns]
            free = tuple(i for i, p in pats if p.shape == "free")
            sd = self._strings.get("self_draw")
            shapes = {p.shape for _, p in pats}
            if opts is not None and sd is not None and len(free) <= 16 and all(
                    v.patterns[i].cond is None or reads_counts_only(v.patterns[i].cond) for i in free):
                got = self._core.ShapeEstimator(self._kernel, opts, float(sd), "standard" in shapes,
                                                "pairs" in shapes and v.win_size % 2 == 0, free)
            else:
                got = Estimator(v, options, patterns, self._reference().partial_test)
            cache[key] = got
        return got

    def wins(self, s: Situation) -> bool:
        """judge(s)["win"], without building the result: the game's test before it offers a win."""
        opts, win_by = self._options(s), self._strings.get(s.win_by)
        if opts is not None and win_by is not None:
            with self._lock:
                code = self._kernel.evaluate(s, opts, float(win_by), -1)[0]
            if code != self._core.ERR:
                return code == self._core.WIN
        return bool(self._reference()._evaluate(s)["win"])

    # ---- public interface -----------------------------------------------------------------------------
    def evaluate(self, situation: dict | Situation, explain: bool = True) -> Result:
        """The Result of a situation (dict or Situation); without explain, it has no reading and no explain lines
        (see the Engine protocol). Replaced in __init__ by core.FastEvaluate's, which calls _evaluate_dict for
        what it does not decide itself."""
        return self._evaluate_dict(situation, explain)

    def _evaluate_dict(self, situation: dict | Situation, explain: bool = True) -> Result:
        s = situation_from_dict(self.variant, situation)
        if s.win_tile is None and s.win_by != "dealt":
            raise SituationError(f"'win_tile' is required for win_by {s.win_by}", "win_tile")
        return self._evaluate(s, -1, bool(explain))[0]

    def judge(self, s: Situation) -> Result:
        """evaluate() for a Situation the runtime built itself: trusted, so neither parsed nor checked."""
        return self._evaluate(s)[0]

    def waits(self, situation: dict | Situation) -> list[dict[str, Any]]:
        """Each kind that completes a pre-draw hand (win_size - 1 tiles), with the value it would give."""
        return [{"tile": tile_name(k), "value": r["value"], "pattern": r["pattern"], "patterns": r["patterns"]}
                for k, r in self._completions(pre_draw_situation(self.variant, situation), True)]

    def ready(self, situation: dict | Situation) -> bool:
        """Does some kind complete this pre-draw hand? (waits without the values, stopping at the first)"""
        return next(self._completions(pre_draw_situation(self.variant, situation), False), None) is not None

    def _completions(self, s: Situation, values: bool) -> Iterator[tuple[int, dict[str, Any] | None]]:
        """(kind, result) for each kind completing the pre-draw hand s; the result is None without values.

        The kernel rules out every kind after which no pattern's shape can fit (fit_kinds), then judges each
        remaining kind; only kinds it finds winning (or cannot judge) and that check_situation would accept
        completed (drawable_kinds, asked once, when the first kind gets that far) are kept and, with values, scored: from the kernel's own
        verdict where it wins (the lean result), else in full.
        That is the reference's answer: it skips illegal kinds and keeps the winning ones. Every candidate
        shares the pre-draw hand, hence one waits_all.
        """
        opts, win_by = self._options(s), self._strings.get(s.win_by)
        probe = fields(s) if opts is not None and win_by is not None else None
        core, waits_all = self._core, -1
        kinds = self.variant.tiles.playable
        legal = None   # check_situation's verdict on each completed situation (drawable_kinds), asked when needed
        if probe is not None:
            with self._lock:
                fits = self._kernel.fit_kinds(probe, opts, float(win_by))
            kinds = kinds if fits is None else fits
        for k in kinds:
            concealed = tuple(sorted(s.concealed + (k,)))
            code, lean = None, None
            if probe is not None:
                probe.concealed, probe.win_tile = concealed, k
                with self._lock:
                    r = self._kernel.evaluate(probe, opts, float(win_by), waits_all)
                    code = r[0]
                    if code == core.WIN and values:  # the lean result of this very verdict, while the kernel
                        try:                           # holds its reading (None: the settlement needs t)
                            lean = self._build(None, False)
                        except core.Fallback:
                            lean = None
                if code in (core.NOFIT, core.FAIL, core.REFUSE):
                    waits_all = r[-1] if code != core.REFUSE else waits_all
                    continue
                if code == core.WIN:
                    waits_all = r[-1]
            if legal is None:
                legal = drawable_kinds(self.variant, s)
            if k not in legal:
                continue
            if code == core.WIN and not values:
                yield k, None
                continue
            if lean is not None:
                yield k, lean
                continue
            res, waits_all = self._evaluate(s.replace(concealed=concealed, win_tile=k), waits_all)
            if res["win"]:
                yield k, res

    def distance(self, situation: dict | Situation) -> int:
        """Distance to ready (see mjrules.distance): -1 wins, 0 ready, n about n exchanges away."""
        from .distance import distance

        return distance(self, situation, self._reference().partial_test)

    # ---- deciding -------------------------------------------------------------------------------------
    def _reference(self) -> Any:
        if self._reference_engine is None:
            from .reference import ReferenceEngine

            self._reference_engine = ReferenceEngine(self.variant)
        return self._reference_engine

    def _encode(self, options: dict[str, Any]) -> tuple[float, ...] | None:
        """Option values as doubles (strings as ids); None when a double cannot stand for one exactly."""
        out = []
        for o in self.variant.options:
            x = options[o.name]
            if isinstance(x, str):
                out.append(float(self._strings.setdefault(x, len(self._strings) + 1)))
                self._names[self._strings[x]] = x
            elif isinstance(x, (bool, int, float)) and abs(x) < _EXACT:
                out.append(float(x))
            else:
                return None
        return tuple(out)

    def _options(self, s: Situation) -> tuple[float, ...] | None:
        """The kernel's option values for a situation's options (over the defaults), remembered per option items."""
        o = s.options
        if not o:
            return self._defaults
        memo = self.__dict__.setdefault("_option_memo", {})
        try:
            key = tuple(o.items())
            if key in memo:
                return memo[key]
        except TypeError:   # an unhashable value: encode it afresh (the reader refuses such values first)
            return self._encode(self.variant.option_defaults() | dict(o))
        got = memo[key] = self._encode(self.variant.option_defaults() | dict(o))
        if len(memo) > 256:
            memo.clear()
        return got

    def _evaluate(self, s: Situation, waits_all: int = -1, explain: bool = True) -> tuple[Result, int]:
        opts, win_by = self._options(s), self._strings.get(s.win_by)
        if opts is None or win_by is None:
            return self._reference()._evaluate(s, explain), waits_all
        core = self._core
        with self._lock:
            r = self._kernel.evaluate(s, opts, float(win_by), waits_all)
            if r[0] == core.WIN:
                try:
                    return self._build(s, explain), r[-1]
                except core.Fallback:
                    r = (core.ERR,)
        return self._decided(s, r, waits_all, explain)

    def _decided_result(self, s: Situation, r: tuple, explain: bool) -> Result:
        """FastEvaluate's answer for a kernel answer r other than a win it made."""
        return self._decided(s, r, -1, explain)[0]

    def _decided(self, s: Situation, r: tuple, waits_all: int = -1, explain: bool = True) -> tuple[Result, int]:
        """The Result of a kernel answer r (Kernel.evaluate) other than a win made from it."""
        code, core, ex = r[0], self._core, self._explainer
        if code == core.ERR:
            return self._reference()._evaluate(s, explain), waits_all
        if code == core.REFUSE:
            reason, src = self._refusals[r[1]]
            return ex.losing(reason, src, explain), waits_all
        if code == core.NOFIT:
            return ex.losing("not a winning hand: no pattern fits", None, explain, "no pattern fits the tiles"), r[-1]
        why, value = r[1], _num(r[2])
        sc = self.variant.score
        if why < len(sc.forbids):
            reason, src = sc.forbids[why].reason, sc.forbids[why].src
        else:
            mn = sc.minimum[why - len(sc.forbids)]
            reason, src = f"worth {value}, below the minimum {mn.amount}", mn.src
        return ex.losing(reason, src, explain), r[-1]

    def _define(self, i: int, x: float) -> Any:
        """A define's value from the double the kernel holds: a bool, a string (by its id) or a number."""
        t = self._dtypes[i]
        if t == "b":
            return bool(x)
        if t == "s":
            return self._names.get(int(x), "")
        return _num(x)

    def _middle_of(self, sig: bytes, value: Any) -> tuple[tuple, tuple, str | None, bool]:
        """The explanation of a reading's signature (Kernel._signature): its lines, the names that follow the
        pattern in "patterns", the status name, and whether Results may remember it (not while a define's string
        value has no name yet)."""
        mods, events, status, rows, defines = self._kernel.parts(sig)
        lines, tail, status_name = self._explainer.middle(
            mods, events, status, rows, [self._define(i, x) for i, x in enumerate(defines)], value)
        keep = all(t != "s" or int(x) in self._names for t, x in zip(self._dtypes, defines))
        return lines, tail, status_name, keep

    def _settle(self, s: Situation, value: Any) -> tuple[dict[str, Any], tuple, bool]:
        """settle_win on the reading the kernel just chose: its payments, its explanation lines (read-only) and
        True (Results may remember them).

        Every win expression is evaluated in one kernel call; settle_win reads nothing else but the winner, the
        discarder and the dealer, so Results remembers the answer per those and the expressions' values
        (Kernel._settle_signature) and asks here only on a miss."""
        vals = self._kernel.wins(float(value))
        wins, fallback = self._wins, self._core.Fallback

        def ev(e: Any) -> Any:
            i, t = wins[id(e)]
            y = vals[i]
            if y is None:
                raise fallback(i)
            if t == "b":
                return bool(y)
            return int(y) if y.is_integer() else y  # _num(y)

        added: list[dict[str, Any]] = []
        paid = settle_win(self.variant, s, ev, added)
        return paid, frozen_lines(added), True
