"""A MkDocs hook (mkdocs.yml `hooks:`): the API reference reads the work tree's source, laid out as the package.

The repository keeps the package `mjrules` in several folders (pyproject.toml's package-dir: runtime/ is `mjrules`,
compiler/ is `mjrules.compiler`, ...), and an editable install maps them with an import hook that griffe, which
reads source without importing it, does not follow. This hook lays the package out as it is installed, as
symbolic links in a temporary folder, and puts that folder first on mkdocstrings' search path, so the reference is
made from the source being built, whatever is installed.
"""
from __future__ import annotations

import atexit
import shutil
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[2]


def _link(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        dest.symlink_to(src)
    except OSError:  # no symbolic links here: a copy does
        shutil.copyfile(src, dest)


def source_view() -> Path:
    """A new temporary folder holding `mjrules/` as the package's directories map it: its .py files only, so
    griffe reads every module's source, even where a compiled module sits beside it (an in-place build)."""
    dirs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]
    view = Path(tempfile.mkdtemp(prefix="mjrules-docs-"))
    # the longest names last, so a sub-package mapped to a folder of its own is laid over its parent's copy
    for name, folder in sorted(dirs.items(), key=lambda item: item[0].count(".")):
        src = ROOT / folder
        for py in src.rglob("*.py"):
            if "__pycache__" not in py.parts:
                dest = view.joinpath(*name.split("."), py.relative_to(src))
                dest.unlink(missing_ok=True)
                _link(py, dest)
    return view


@event_priority(100)   # before mkdocstrings' own on_config, which makes its Python handler
def on_config(config: Any) -> Any:
    view = source_view()
    # removed when the process ends (`mkdocs serve` configures again, with a new view, on each change)
    atexit.register(shutil.rmtree, view, True)
    python = config.plugins["mkdocstrings"].config.handlers.setdefault("python", {})
    python["paths"] = [str(view), *python.get("paths", [])]
    return config
