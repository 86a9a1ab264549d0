"""Test settings: hypothesis profiles and the path to the Moving AI sample in tests/data."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

# numba compiles on first call, so no per-example deadline; CI runs derandomized
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# tests read stderr line by line: keep the once-a-process compile notice out of it (tests/test_warmup.py checks it)
os.environ["WARGRID_QUIET"] = "1"

REPO = Path(__file__).resolve().parent.parent
MOVINGAI = REPO / "tests" / "data" / "movingai"

# doctests that compile a whole capability's kernels from cold (tens of seconds): run with the slow tests
SLOW_DOCTESTS = {"wargrid.warmup.warm_up", "wargrid.movement.cch.structure", "wargrid.movement.cch.customized"}


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    import pytest

    for item in items:
        if item.name in SLOW_DOCTESTS:
            item.add_marker(pytest.mark.slow)
