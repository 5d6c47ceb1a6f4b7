"""mjrules.compiler: spec text -> AST -> resolved overlays -> checked IR -> back ends.

Importing this package does not import lark or jinja2; the front end loads them on first use, so the
runtime can read the IR (mjrules.compiler.ir) without them.
"""
from __future__ import annotations

from pathlib import Path

from .errors import Diagnostic, SpecError
from .ir import Variant, dump_json

__all__ = [
    "Diagnostic",
    "SpecError",
    "Variant",
    "compile_file",
    "compile_text",
    "compile_variant",
    "dump_json",
    "locate",
    "shipped_names",
]


def shipped_names() -> list[str]:
    """Names of the shipped variants."""
    from .specfiles import shipped_names as names

    return names()


def locate(name_or_path: str) -> Path | None:
    """The spec file for a shipped variant's name or a path, or None."""
    from .specfiles import locate as loc

    return loc(name_or_path)


def compile_text(text: str, file: str = "<spec>", base_dir: Path | None = None) -> Variant:
    """Check spec text and return its IR; raises SpecError listing every error."""
    from .checker import check
    from .resolve import blame_overlay, resolve_text

    resolved = resolve_text(text, file, base_dir)
    try:
        return check(resolved)
    except SpecError as e:
        if len(resolved.chain) > 1:   # an overlay: its errors at its own lines, the base's clause as a note
            raise SpecError(blame_overlay(e.diagnostics, resolved)) from None
        raise


def compile_file(path: str | Path) -> Variant:
    """Check a spec file and return its IR."""
    from .errors import Collector
    from .resolve import looks_like_spec, read_spec

    path = Path(path)
    text, file = read_spec(path)
    if path.suffix != ".mj" and not looks_like_spec(text):   # never quote a file that is not a spec
        col = Collector()
        col.error("E007", f"{file} is not a spec: it does not begin with `variant`", None,
                  "a spec is a .mj file that begins with: variant my_variant \"Label\" {")
        col.raise_if_any()
    return compile_text(text, file, path.parent)


def compile_variant(name_or_path: str) -> Variant:
    """A shipped variant's name or a path to a .mj file -> IR. An unknown name gets 'did you mean'."""
    path = locate(name_or_path)
    if path is None:
        from .errors import Collector, did_you_mean

        col = Collector()
        hint = did_you_mean(name_or_path, shipped_names()) or "shipped variants: " + ", ".join(shipped_names())
        col.error("E024", f"unknown variant '{name_or_path}' (not a shipped variant, and no such file)", None, hint)
        raise SpecError(col.diagnostics)
    return compile_file(path)
