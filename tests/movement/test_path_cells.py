"""``Path`` of a search: its cells held as the ``xy`` array, the list ``cells`` made when first asked, and the
path behaving as one made from the list (equality, indexing, iteration, length, pickling)."""

from __future__ import annotations

import copy
import pickle
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movement_oracle import boards, costs_of
from wargrid import HexGrid, Map, Path
from wargrid.errors import ArgumentError, ArgumentTypeError
from wargrid.movement import shortest_path


def _same_as_eager(p: Path) -> None:
    """``p`` (made from ``xy``) against the path made from its cells' list."""
    assert "cells" not in p.__dict__
    xy = p.xy
    n, start, end = len(p), p.start, p.end  # none of these makes the list
    assert "cells" not in p.__dict__
    eager = Path([(int(x), int(y)) for x, y in xy.tolist()], p.cost, p.unit)
    assert n == len(eager) and start == eager.start and end == eager.end
    back = pickle.loads(pickle.dumps(p))
    assert "cells" not in back.__dict__ and back == eager and back.xy.tolist() == xy.tolist()
    assert copy.deepcopy(p) == eager
    assert p == eager and eager == p and repr(p) == repr(eager)
    assert p.cells == eager.cells and p.cells is p.cells  # made once, kept
    assert all(type(c) is tuple and type(c[0]) is int and type(c[1]) is int for c in p.cells)
    assert list(p.cells) == [p.cells[i] for i in range(len(p))] and p.cells[-1] == end
    assert p.xy.tolist() == [list(c) for c in eager.cells]
    assert pickle.loads(pickle.dumps(p)) == eager  # with its list made


@settings(max_examples=60, deadline=None)
@given(board=boards(max_side=7), data=st.data())
def test_a_searchs_path_equals_the_one_made_from_its_list(board, data):
    g, cost, e = board
    cells = list(g.cells())
    a, b = data.draw(st.sampled_from(cells)), data.draw(st.sampled_from(cells))
    p = shortest_path(g, costs_of(g, cost, e), a, b)
    if p is not None and a != b:
        _same_as_eager(p)


@pytest.mark.slow
def test_a_prepared_maps_paths_equal_the_searchs_on_a_random_board():
    rng = np.random.default_rng(5)
    m = Map(HexGrid(24, 20))
    m.set_terrain([(int(x), int(y)) for x, y in rng.integers(0, 20, size=(60, 2))], "water")
    m.set_terrain([(int(x), int(y)) for x, y in rng.integers(0, 20, size=(60, 2))], "hills")
    plain = m.copy()
    m.prepare(unit="foot", progress=False)
    for _ in range(40):
        a, b = (tuple(int(v) for v in rng.integers(0, 20, size=2)) for _ in range(2))
        p, q = m.path(a, b, unit="foot"), plain.path(a, b, unit="foot")
        assert (p is None) == (q is None)
        if p is not None and a != b:
            assert p.cost == q.cost and p.grid is m.grid
            _same_as_eager(p)


def test_a_path_made_by_hand_has_no_other_attributes():
    p = Path([(0, 0), (1, 0)], 1.0)
    with pytest.raises(AttributeError, match="no attribute 'cells_'"):
        p.cells_  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        Path.of_xy(np.zeros((1, 2), dtype=np.int64), 0.0, None, None).nothing  # noqa: B018
    assert len(p) == 2 and p.end == (1, 0) and p.xy.tolist() == [[0, 0], [1, 0]]


def test_a_prepared_structures_path_from_a_cell_to_itself():
    # the structure's own path(costs, s, s) unpacked no arc and raised ValueError; distance gave 0
    m = Map(HexGrid(6, 5))
    m.set_terrain([(3, 2)], "water")
    pp = m.prepare(unit="foot", progress=False)
    for x, y in ((0, 2), (3, 2)):
        s = m.grid.topology.padded_id(x, y)
        p = pp.path(pp.costs, s, s, m.grid)
        assert p.cells == [(x, y)] and p.cost == 0.0 == pp.distance(pp.costs, s, s)


@pytest.mark.parametrize("cells, cost, error, match", [
    ([(0, 0), (1, 0)], float("nan"), ArgumentError, "cost must be a number >= 0 .* got nan"),  # was kept as NaN
    ([(0, 0), (1, 0)], -1.0, ArgumentError, "cost must be a number >= 0"),
    ([(0, 0), (1, 0)], "1", ArgumentTypeError, "cost must be a number, got str"),
    ([(0, 0), (1, 0)], True, ArgumentTypeError, "cost must be a number, got bool"),
    ([(0, 0), (1, 0)], Decimal("NaN"), ArgumentError, "cost must be a number >= 0"),
    ([(0, 0), (1, 0)], Decimal("sNaN"), ArgumentError, "cost must be a number >= 0"),  # float() raises on it
    ([(0, 0), (1, 0)], Fraction(-1, 2), ArgumentError, "cost must be a number >= 0"),
    (None, 1.0, ArgumentTypeError, "cells must be a list of"),
    ([], 0.0, ArgumentError, "cells must hold at least the start cell"),  # .start raised IndexError later
])
def test_a_path_made_by_hand_checks_its_cost_and_cells(cells, cost, error, match):
    with pytest.raises(error, match=match):
        Path(cells, cost)


def test_a_path_made_by_hand_takes_any_real_cost():
    assert Path([(0, 0)], 0).cost == 0 and Path([(0, 0)], np.float32(2.5)).cost == 2.5
    assert Path([(0, 0), (5, 0)], float("inf")).cost == float("inf")
    # a Fraction and a Decimal were refused as no number by the check on the cost; kept as the float a search gives
    for c in (Fraction(3, 2), Decimal("1.5")):
        p = Path([(0, 0), (1, 0)], c)
        assert type(p.cost) is float and p.cost == 1.5 and p == Path([(0, 0), (1, 0)], 1.5)
