"""Compile one generated .pyx into an extension module: Cython, then the C compiler, quietly.

`mjrules.native.engine` runs this file as a script in a child process (it imports nothing from mjrules), so that
a crash of either compiler (a segmentation fault, a stack overflow) cannot take the caller down, and their
output never reaches the user's terminal: the caller turns a failure into one line (native.BuildError).

    python build.py PYX MODULE_NAME BUILD_DIR KERNEL_PXD [CFLAG...]

prints the built library's path on its last line of stdout. The kernel's .pxd is copied under
BUILD_DIR/include/mjrules/native/ so that `cimport mjrules.native.kernel` resolves.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path


def build(pyx: Path, name: str, tmp: Path, kernel_pxd: Path, cflags: list[str]) -> Path:
    """Cythonize and compile `pyx` as module `name` in `tmp`; the built library's path."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    try:  # keep setuptools' own progress lines quiet
        from distutils import log as dlog
        dlog.set_threshold(dlog.WARN)
    except ImportError:  # pragma: no cover
        pass
    inc = tmp / "include" / "mjrules"
    (inc / "native").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(kernel_pxd, inc / "native" / "kernel.pxd")
    for pkg in (inc, inc / "native"):
        (pkg / "__init__.pxd").write_text("", encoding="ascii")
    ext = Extension(name, [str(pyx)], extra_compile_args=cflags)
    exts = cythonize([ext], include_path=[str(tmp / "include")], quiet=True, force=True,
                     compiler_directives={"language_level": 3})
    dist = Distribution({"ext_modules": exts, "script_name": "mjrules-native", "script_args": []})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib, cmd.build_temp, cmd.inplace = str(tmp / "lib"), str(tmp / "tmp"), False
    cmd.ensure_finalized()
    cmd.run()
    return Path(cmd.get_ext_fullpath(exts[0].name))


def main(argv: list[str]) -> int:
    pyx, name, tmp, pxd, *cflags = argv
    print(build(Path(pyx), name, Path(tmp), Path(pxd), cflags))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
