"""Finding spec files: a shipped variant's name or a path to a `.mj` file. Lark-free, so the runtime's load index
(mjrules.native.fastload) finds specs by the very rule the front end (mjrules.compiler.resolve) uses."""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def shipped_names() -> list[str]:
    """Names of the shipped variants (specs/*.mj)."""
    root = resources.files("mjrules.specs")
    return sorted(p.name[:-3] for p in root.iterdir() if p.name.endswith(".mj"))


def shipped_path(name: str) -> Path:
    """The file of a shipped variant (whether or not it exists)."""
    return Path(str(resources.files("mjrules.specs").joinpath(f"{name}.mj")))


def locate(name_or_path: str, relative_to: Path | None = None) -> Path | None:
    """A path (also tried relative to `relative_to`, with and without `.mj`), else a shipped variant's name; None
    when neither names a file."""
    p = Path(name_or_path)
    candidates = []
    if relative_to is not None and not p.is_absolute():
        candidates += [relative_to / p, relative_to / f"{name_or_path}.mj"]
    candidates.append(p)
    if "/" not in name_or_path and not name_or_path.endswith(".mj"):
        candidates.append(shipped_path(name_or_path))
    for c in candidates:
        if c.is_file():
            return c
    return None
