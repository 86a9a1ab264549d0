"""Test settings: hypothesis profiles and the path to the Moving AI sample in tests/data."""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# numba compiles on first call, so no per-example deadline. Every run, CI's and the README's command, is
# derandomized: the same examples each time, so a run fails only for a change. Random exploration is a run by hand:
# WARGRID_HYPOTHESIS=explore python -m pytest -m "slow or not slow" (new examples every run).
settings.register_profile("ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.load_profile(os.environ.get("WARGRID_HYPOTHESIS", "ci"))

# tests read stderr line by line: keep the once-a-process compile notice out of it (tests/test_warmup.py checks it)
os.environ["WARGRID_QUIET"] = "1"

REPO = Path(__file__).resolve().parent.parent
MOVINGAI = REPO / "tests" / "data" / "movingai"

# doctests that compile a whole capability's kernels from cold (tens of seconds): run with the slow tests
SLOW_DOCTESTS = {"wargrid.warmup.warm_up", "wargrid.serve.api.warm_up", "wargrid.movement.cch.structure",
                 "wargrid.movement.cch.customized"}


# the capabilities' test folders, and the packages whose doctests go with them
GROUPS = {"cli", "grids", "io", "map", "movement", "render", "rts", "serve", "sight", "survey", "tactics", "territory"}


# what a file that runs the RTS simulation says: the simulation's kernels take a minute to compile from cold
RTS_WORDS = ("Simulation", "bridge_scenario", "load_example")


@functools.lru_cache(maxsize=None)
def _group(path: Path) -> str:
    """The pytest-xdist group of a test file: its capability (``tests/rts/...`` and ``src/wargrid/rts/...`` go
    together, and every file that runs the simulation goes with them), so that one worker compiles a
    capability's kernels (``-n 2 --dist loadgroup`` in pyproject.toml) and the other does not compile them again
    at the same time; loose files are groups of their own."""
    if not path.resolve().is_relative_to(REPO):
        return str(path)
    parts = path.resolve().relative_to(REPO).parts
    if path.suffix == ".py" and any(w in path.read_text(encoding="utf-8") for w in RTS_WORDS):
        return "rts"
    if len(parts) > 2 and parts[0] == "tests" and parts[1] in GROUPS:
        return parts[1]
    inner = parts[3:] if parts[2:3] == ("_kernels",) else parts[2:]  # src/wargrid/[_kernels/]<capability>/...
    if parts[:2] == ("src", "wargrid") and len(inner) > 1 and inner[0] in GROUPS:
        return inner[0]
    return "/".join(parts)


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    for item in items:
        if item.name in SLOW_DOCTESTS:
            item.add_marker(pytest.mark.slow)


# a test that names the group it compiles for, above its def (tests/cli: the sight and territory kernels)
_NAMED = re.compile(r'@pytest\.mark\.xdist_group\("([^"]+)"\)[^\n]*\n(?:@[^\n]*\n)*def (\w+)')


@functools.lru_cache(maxsize=None)
def _named_groups(path: Path) -> dict[str, str]:
    """The groups that a file's tests name themselves, by test function."""
    if path.suffix != ".py" or not path.is_file():
        return {}
    return {name: group for group, name in _NAMED.findall(path.read_text(encoding="utf-8"))}


def _group_of_id(nodeid: str) -> str:
    """The group of a test id (``tests/cli/test_cli_fov.py::test_x[param]``): its file's, or the one it names."""
    file, _, rest = nodeid.partition("::")
    name = re.split(r"[\[:@]", rest, maxsplit=1)[0]
    return _named_groups(REPO / file).get(name) or _group(REPO / file)


@pytest.hookimpl(optionalhook=True)  # pytest -p no:xdist knows no such hook
def pytest_xdist_make_scheduler(config, log):  # type: ignore[no-untyped-def]
    """``--dist loadgroup`` by ``_group``, read from the test ids on the controller: pytest-xdist's own loadgroup
    puts the group into each test id, which pytest 9.2's structured ids no longer take (every test was then
    scheduled on its own, and both workers compiled the same kernels at the same time)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class CapabilityScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return _group_of_id(nodeid)

    return CapabilityScheduling(config, log)

