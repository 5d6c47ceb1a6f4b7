"""Shared pytest configuration: the `--slow` switch for longer property-based runs."""
from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="run the long versions of the property-based (hypothesis) tests")


def pytest_configure(config: pytest.Config) -> None:
    # Test modules size their @settings at import time, before any fixture exists: they read this variable
    # (see is_slow() in tests/test_spec_fuzz.py). MJRULES_SLOW=1 in the environment works as well.
    if config.getoption("--slow"):
        os.environ["MJRULES_SLOW"] = "1"


@pytest.fixture(scope="session")
def slow(request: pytest.FixtureRequest) -> bool:
    """True when pytest runs with --slow (or MJRULES_SLOW=1)."""
    return bool(request.config.getoption("--slow")) or os.environ.get("MJRULES_SLOW") == "1"


BACKENDS = ("reference", "native")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Every behavioural test runs once per backend."""
    return request.param


_ENGINES: dict[tuple[str, str], object] = {}


def engine_for(variant: str, backend: str):
    """A loaded engine, cached per (variant, backend) for the session."""
    import mjrules

    key = (variant, backend)
    if key not in _ENGINES:
        _ENGINES[key] = mjrules.load(variant, backend=backend)
    return _ENGINES[key]


@pytest.fixture
def load(backend: str):
    """load(variant) -> the engine of that variant on the test's backend."""
    return lambda variant: engine_for(variant, backend)
