"""``Map.to_networkx``, ``Map.adjacency`` (the graph the searches walk) and the notebook pictures."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from wargrid import Map, generate
from wargrid._extras import MissingExtraError

import networkx as nx  # the test extra installs networkx and scipy: a missing one is an error, not a skip
import scipy.sparse.csgraph as csgraph

KINDS = [
    {"kind": "square"}, {"kind": "square", "diagonal": True}, {"kind": "hex", "orientation": "flat"},
    {"kind": "hex", "orientation": "pointy"}, {"kind": "staggered"}, {"kind": "hex", "wrap_x": True},
]


@pytest.fixture(params=range(len(KINDS)), ids=lambda i: "-".join(str(v) for v in KINDS[i].values()))
def board(request: pytest.FixtureRequest) -> Map:
    m = generate(14, 10, seed=11 + request.param, **KINDS[request.param])
    m.set_edge((3, 3), (4, 3), 2.5)
    m.set_edge((5, 5), (5, 6), float("inf"))  # a wall
    return m


def pairs(m: Map, unit: str, n: int = 12) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    ys, xs = np.nonzero(m.passable(unit=unit))
    rng = np.random.default_rng(5)
    pick = rng.integers(0, len(xs), size=(n, 2))
    return [((int(xs[a]), int(ys[a])), (int(xs[b]), int(ys[b]))) for a, b in pick]


@pytest.mark.slow
@pytest.mark.parametrize("unit", ["foot", "cavalry"])
def test_shortest_paths_on_the_exports_cost_what_map_path_finds(board: Map, unit: str) -> None:
    g = board.to_networkx(unit=unit)
    adj = board.adjacency(unit=unit)
    assert adj.shape == (board.width * board.height,) * 2 and adj.nnz == g.number_of_edges()
    found = 0
    for a, b in pairs(board, unit):
        p = board.path(a, b, unit=unit)
        dist = csgraph.dijkstra(adj, indices=a[1] * board.width + a[0])[b[1] * board.width + b[0]]
        if p is None:
            assert not nx.has_path(g, a, b) and np.isinf(dist)
            continue
        found += 1
        assert nx.shortest_path_length(g, a, b, weight="weight") == pytest.approx(p.cost)
        assert dist == pytest.approx(p.cost)
    assert found >= 6


def test_graph_holds_every_passable_cell_and_no_wall(board: Map) -> None:
    g = board.to_networkx(unit="foot")
    assert g.number_of_nodes() == int(board.passable(unit="foot").sum())
    assert not g.has_edge((5, 5), (5, 6)) and not g.has_edge((5, 6), (5, 5))
    costs = board.costs(unit="foot")
    for (x, y), data in list(g.nodes(data=True))[:20]:
        assert data["cost"] == costs[y, x]


def test_missing_networkx_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "networkx", None)
    monkeypatch.setitem(sys.modules, "scipy.sparse", None)
    m = generate(4, 3, seed=1)
    with pytest.raises(MissingExtraError, match="pip install networkx"):
        m.to_networkx()
    with pytest.raises(MissingExtraError, match="pip install scipy"):
        m.adjacency()


def test_notebook_shows_a_map_and_a_path() -> None:
    m = generate(12, 8, seed=3, kind="hex")
    svg = m._repr_svg_()
    assert svg is not None and "<svg" in svg and svg.count("<polygon") >= 12 * 8
    ys, xs = np.nonzero(m.passable(unit="foot"))
    p = m.path((int(xs[0]), int(ys[0])), (int(xs[-1]), int(ys[-1])), unit="foot")
    assert p is not None
    pic = m.picture(p, m.movement_range(p.cells[0], 4, unit="foot"))
    shown = pic._repr_svg_()
    assert "<svg" in shown and shown.count("<polyline") == 1 and "<polyline" not in svg
    assert [type(o).__name__ for o in pic.overlays] == ["CellMask", "Polyline"]


def test_big_boards_draw_no_notebook_picture() -> None:
    from wargrid import SquareGrid

    assert Map(SquareGrid(300, 300))._repr_svg_() is None
