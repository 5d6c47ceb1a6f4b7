"""Optional extras: a feature that needs a package the base install leaves out says, in one line, how to get it."""
from __future__ import annotations

import importlib
from types import ModuleType


class MissingExtra(ImportError):
    """A feature's optional package is not installed; the message names the pip command that installs it."""


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import `module`, or raise MissingExtra saying that `feature` needs `pip install 'mjrules[extra]'`."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(f"{feature} needs the package {module.split('.')[0]}, which is not installed: "
                           f"pip install 'mjrules[{extra}]'") from None
