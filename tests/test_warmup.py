"""The cold-start notice (once a process, only on a real compile) and ``wargrid.warm_up``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import wargrid

SRC = str(Path(wargrid.__file__).resolve().parents[1])
TWO_KERNELS = ("from wargrid import Map, SquareGrid; m = Map(SquareGrid(5, 5)); "
               "m.line_of_sight((0, 0), (4, 3)); m.fov((2, 2), radius=2); print('done')")


def python(code: str, cache: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "WARGRID_QUIET"}
    env.update(NUMBA_CACHE_DIR=str(cache), PYTHONPATH=SRC)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=900)


@pytest.mark.slow
def test_notice_once_on_compile_and_never_on_a_cache_load(tmp_path: Path) -> None:
    from wargrid._kernels._jit import COMPILE_NOTICE

    cold = python(TWO_KERNELS, tmp_path)  # an empty cache: both kernels compile
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout == "done\n" and cold.stderr.splitlines().count(COMPILE_NOTICE) == 1
    warm = python(TWO_KERNELS, tmp_path)  # the same kernels, loaded from the cache just written
    assert warm.returncode == 0 and COMPILE_NOTICE not in warm.stderr


@pytest.mark.xdist_group("territory")  # the territory tests compile the kernels it warms: on their worker
def test_warm_up_checks_names_before_any_work() -> None:
    with pytest.raises(wargrid.ArgumentError, match="'flying'"):
        wargrid.warm_up("movement", "flying")
    assert wargrid.warm_up("territory", "territory") == ["territory"]


@pytest.mark.slow
def test_warm_up_rts_plans_on_both_distance_tables() -> None:
    """``warm_up('rts')`` plans on a 256 x 256 board too: the planner's int32 distance tables, which no fast test
    reaches (the fast part's boards take uint16 ones), compile from cold in tens of seconds."""
    assert wargrid.warm_up("rts") == ["rts"]
