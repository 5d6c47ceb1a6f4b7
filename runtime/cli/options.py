"""`--option NAME=VALUE` from a command line (mjrules score, waits, simulate, play): the one parser."""
from __future__ import annotations

import json
from typing import Any


def parse_option(text: str) -> tuple[str, Any]:
    """NAME=VALUE -> (NAME, VALUE): VALUE as JSON where it parses (true, 3, 2.5, "x"), else as a string."""
    if "=" not in text:
        raise ValueError(f"--option takes NAME=VALUE, not {text!r}")
    k, raw = text.split("=", 1)
    try:
        x = json.loads(raw)
    except json.JSONDecodeError:
        x = raw
    return k.strip(), x
