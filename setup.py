"""Build hooks (metadata lives in pyproject.toml): compile the kernel (mjrules.native.kernel) and the modules
written in Cython's pure-Python mode, and pre-compile the shipped variants so they load without a C compiler.

A wheel gets the shipped variants' modules in mjrules/_native/; an editable install puts them in the
user's cache ($MJRULES_CACHE or ~/.cache/mjrules). Pre-compiling needs lark and jinja2 at build time; when
they (or a compiler) are missing, the build still succeeds and each variant compiles on first use.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


# The runtime's compiled modules: the kernel (a .pyx), and modules written in Cython's pure-Python mode (a .py
# typed by the .pxd beside it), which run as plain Python where they are not compiled.
COMPILED = {"mjrules.model.tiles": "runtime/model/tiles.py", "mjrules.model.situation": "runtime/model/situation.py",
            "mjrules.model.result": "runtime/model/result.py", "mjrules.native.kernel": "runtime/native/kernel.pyx",
            "mjrules.game.state": "runtime/game/state.py", "mjrules.game.agents": "runtime/game/agents.py",
            "mjrules.model.interp": "runtime/model/interp.py", "mjrules.game.settle": "runtime/game/settle.py",
            "mjrules.game.observe": "runtime/game/observe.py", "mjrules.model.settle": "runtime/model/settle.py",
            "mjrules.game.rng": "runtime/game/rng.py", "mjrules.game.seat": "runtime/game/seat.py",
            "mjrules.game.rules": "runtime/game/rules.py"}
# MJRULES_LIMITED_API=1 builds them (and then the variants' modules, see mjrules.native.engine) against CPython's
# Limited API, as abi3 modules: the default build's C, which Cython writes, uses CPython internals behind its
# own version checks; ours uses the public C API only either way.
LIMITED = os.environ.get("MJRULES_LIMITED_API") == "1"


def core_extensions() -> list:
    from Cython.Build import cythonize

    # runtime/ is not named mjrules/, so Cython finds `mjrules.*`'s .pxd files through a copy (as scikit-learn
    # does) (the copy is only read while cythonize writes the C files, and is removed after it); the C files go
    # to build/, not beside their sources
    with tempfile.TemporaryDirectory(prefix="mjrules-pxd-") as tmp:
        inc = Path(tmp)
        (inc / "mjrules").mkdir()
        for pxd in (ROOT / "runtime").rglob("*.pxd"):
            dest = inc / "mjrules" / pxd.relative_to(ROOT / "runtime")
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(pxd, dest)
        for folder in (inc / "mjrules").rglob("*"):
            if folder.is_dir():
                (folder / "__init__.pxd").write_text("", encoding="ascii")
        (inc / "mjrules" / "__init__.pxd").write_text("", encoding="ascii")
        exts = [Extension(name, [source], extra_compile_args=["-g0"] if os.name == "posix" else [],
                          define_macros=[("Py_LIMITED_API", "0x030B0000")] if LIMITED else [],
                          py_limited_api=LIMITED) for name, source in COMPILED.items()]
        return cythonize(exts, include_path=[str(inc)], compiler_directives={"language_level": 3}, quiet=True,
                         build_dir=str(ROOT / "build" / "cython"))


class BuildPy(build_py):
    """build_py, then the shipped variants' native modules."""

    def run(self) -> None:
        super().run()
        try:
            self.prebuild()
        except Exception as e:  # noqa: BLE001 - a variant that is not prebuilt compiles on first use
            print(f"mjrules: shipped variants not pre-compiled ({type(e).__name__}: {e}); "
                  "they will compile on first use", file=sys.stderr)

    def prebuild(self) -> None:
        editable = getattr(self, "editable_mode", False)
        view = _source_view() if editable else None
        sys.path.insert(0, str(view if view else Path(self.build_lib)))
        try:
            from mjrules.compiler import compile_variant, shipped_names
            from mjrules.native.cache import ensure

            folder = None if editable else Path(self.build_lib) / "mjrules" / "_native"
            variants = [compile_variant(name) for name in shipped_names()]
            # each build is a C compiler's process under its own lock: as many at once as there are cores
            with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                got = list(pool.map(lambda v: ensure(v, folder), variants))
            for v, (path, built, _) in zip(variants, got):
                print(f"mjrules: {v.name} -> {path}" + ("" if built else " (up to date)"), file=sys.stderr)
            if folder is not None:   # a wheel holds these variants' modules only, not an earlier build's left in build/
                keep = {path.name.split(".", 1)[0] for path, _, _ in got}
                for f in folder.glob("mjv_*"):
                    if f.name.split(".", 1)[0] not in keep:
                        f.unlink()
            for lock in folder.glob("*.lock") if folder else ():
                lock.unlink()  # nobody else builds into a fresh build tree
        finally:
            sys.path.pop(0)
            if view:
                shutil.rmtree(view, ignore_errors=True)


def _source_view() -> Path:
    """A new temporary folder where `import mjrules` finds the source tree (runtime/ as mjrules, compiler/ ...
    inside); the caller removes it."""
    view = Path(tempfile.mkdtemp(prefix="mjrules-src-")) / "mjrules"
    shutil.copytree(ROOT / "runtime", view, ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__"))
    for sub in ("compiler", "grammar", "specs"):
        shutil.copytree(ROOT / sub, view / sub, ignore=shutil.ignore_patterns("__pycache__"))
    return view.parent


# the runtime's modules compile one per core (pip's build runs build_ext without -j)
setup(ext_modules=core_extensions(), cmdclass={"build_py": BuildPy},
      options={"build_ext": {"parallel": os.cpu_count() or 1}})
