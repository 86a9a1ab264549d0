"""The RTS tables' layout has one home: the kernels and the simulation read the same names from it."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from wargrid._kernels.rts import layout
from wargrid.rts import STATES, UNIT_KINDS, Simulation
from wargrid.rts.sim import HEALTH_FLOOR
from wargrid.rts import sim as wrapper
from wargrid.rts.ladder import Entry

SRC = Path(wrapper.__file__).resolve().parents[1]
READERS = (SRC / "_kernels" / "rts" / "sim.py", SRC / "rts" / "sim.py")
NAMES = {n for n in vars(layout) if n.isupper()}


def _assigned(path: Path) -> set[str]:
    """Names bound at module level by assignment (not by import)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    out.add(n.id)
    return out


@pytest.mark.parametrize("path", READERS, ids=lambda p: p.parent.name + "/" + p.name)
def test_no_reader_defines_a_layout_name_of_its_own(path: Path) -> None:
    assert _assigned(path) & NAMES == set()


def test_kernel_and_wrapper_see_the_same_values() -> None:
    kernel = importlib.import_module("wargrid._kernels.rts.sim")
    for mod in (kernel, wrapper):
        for name in NAMES & set(vars(mod)):
            assert getattr(mod, name) == getattr(layout, name), (mod.__name__, name)
    assert wrapper.HEALTH_FLOOR is layout.HEALTH_FLOOR and kernel.HEALTH_FLOOR is layout.HEALTH_FLOOR


def test_columns_are_distinct_and_dense() -> None:
    ints = [layout.KIND, layout.CLS, layout.TROW, layout.SPEED, layout.CLOSE, layout.CELL, layout.TARGET, layout.STATE,
            layout.REASON, layout.RARG, layout.RCELL, layout.NXT, layout.DIR, layout.PROG, layout.SLEN, layout.WAITED,
            layout.FACING, layout.TURNLEFT, layout.NEED, layout.AVOID, layout.ROT, layout.ROFF, layout.RLEN, layout.RPOS,
            layout.MOVED, layout.CLOAKED, layout.TEAM, layout.GOAL, layout.HRULE]
    assert sorted(ints) == list(range(layout.N_INT))
    assert sorted([layout.HP, layout.HP0, layout.DAMAGE, layout.TURNRATE]) == list(range(layout.N_FLOAT))


def test_codes_match_their_names() -> None:
    assert STATES[layout.DESTROYED] == "destroyed" and STATES[layout.ARRIVED] == "arrived" and len(STATES) == 7
    assert UNIT_KINDS[layout.VEHICLE] == "vehicle" and UNIT_KINDS[layout.BUILDING] == "building"
    assert layout.EVENT_NAMES[layout.EV_CROWD] == "arrived" and len(layout.EVENT_NAMES) == layout.EV_CROWD + 1
    assert layout.R_REROUTE == layout.N_REASONS - 1
    assert [int(e) for e in Entry] == [layout.E_OK, layout.E_CLOAKED, layout.E_MOVING, layout.E_DESTROYABLE,
                                       layout.E_FRIEND, layout.E_IMPASSABLE]
    assert HEALTH_FLOOR == 0.5


def test_every_reason_code_has_words() -> None:
    """Each reason a unit can wait for reads as a sentence (none falls through to the empty string)."""
    from wargrid import Map, SquareGrid

    sim = Simulation(Map(SquareGrid(4, 3)), seed=0)
    u = sim.add_unit((0, 0), goal=(3, 0))
    for code in range(1, layout.N_REASONS):
        sim._ui[u, layout.REASON] = code
        sim._ui[u, layout.RARG] = u
        sim._ui[u, layout.RCELL] = sim._pid((1, 0))
        if code == layout.R_STUCK:
            sim._stuck[u] = "stuck: a test"
        assert sim.get(u).reason != "", code
