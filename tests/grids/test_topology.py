"""The topology's neighbour tables, parity and edge rise: literal cases, then agreement with each other."""

from __future__ import annotations

import numpy as np
import pytest

from wargrid import Grid, HexGrid, HexLikeGrid, SquareGrid, StaggeredGrid, Topology, hexagon_board

# Neighbour ids in direction order, -1 for none, worked out by hand from the
# offset rules (Red Blob Games' hex guide): square-4 E N W S; square-8
# E NE N NW W SW S SE; hex directions as ``HEX_DIRECTIONS``.
LITERAL = [
    (SquareGrid(3, 2), [[1, -1, -1, 3], [2, -1, 0, 4], [-1, -1, 1, 5], [4, 0, -1, -1], [5, 1, 3, -1], [-1, 2, 4, -1]]),
    (
        SquareGrid(3, 2, diagonal=True),
        [
            [1, -1, -1, -1, -1, -1, 3, 4],
            [2, -1, -1, -1, 0, 3, 4, 5],
            [-1, -1, -1, -1, 1, 4, 5, -1],
            [4, 1, 0, -1, -1, -1, -1, -1],
            [5, 2, 1, 0, 3, -1, -1, -1],
            [-1, -1, 2, 1, 4, -1, -1, -1],
        ],
    ),
    (
        HexGrid(3, 2, offset="odd-q"),
        [[1, -1, -1, -1, -1, 3], [5, 2, -1, 0, 3, 4], [-1, -1, -1, -1, 1, 5], [4, 1, 0, -1, -1, -1], [-1, 5, 1, 3, -1, -1], [-1, -1, 2, 1, 4, -1]],
    ),
    (
        HexGrid(3, 2, offset="even-q"),
        [[4, 1, -1, -1, -1, 3], [2, -1, -1, -1, 0, 4], [-1, -1, -1, 1, 4, 5], [-1, 4, 0, -1, -1, -1], [5, 2, 1, 0, 3, -1], [-1, -1, 2, 4, -1, -1]],
    ),
    (
        HexGrid(2, 3, orientation="pointy", offset="odd-r"),
        [[1, -1, -1, -1, -1, 2], [-1, -1, -1, 0, 2, 3], [3, 1, 0, -1, 4, 5], [-1, -1, 1, 2, 5, -1], [5, 2, -1, -1, -1, -1], [-1, 3, 2, 4, -1, -1]],
    ),
    (
        HexGrid(2, 3, orientation="pointy", offset="even-r"),
        [[1, -1, -1, -1, 2, 3], [-1, -1, -1, 0, 3, -1], [3, 0, -1, -1, -1, 4], [-1, 1, 0, 2, 4, 5], [5, 3, 2, -1, -1, -1], [-1, -1, 3, 4, -1, -1]],
    ),
    (
        StaggeredGrid(3, 2),  # the adjacency of odd-q
        [[1, -1, -1, -1, -1, 3], [5, 2, -1, 0, 3, 4], [-1, -1, -1, -1, 1, 5], [4, 1, 0, -1, -1, -1], [-1, 5, 1, 3, -1, -1], [-1, -1, 2, 1, 4, -1]],
    ),
    (
        StaggeredGrid(2, 3, stagger="rows"),  # the adjacency of odd-r
        [[1, -1, -1, -1, -1, 2], [-1, -1, -1, 0, 2, 3], [3, 1, 0, -1, 4, 5], [-1, -1, 1, 2, 5, -1], [5, 2, -1, -1, -1, -1], [-1, 3, 2, 4, -1, -1]],
    ),
    (SquareGrid(3, 2, wrap_x=True), [[1, -1, 2, 3], [2, -1, 0, 4], [0, -1, 1, 5], [4, 0, 5, -1], [5, 1, 3, -1], [3, 2, 4, -1]]),
    (
        HexGrid(4, 2, wrap_x=True),
        [
            [1, -1, -1, -1, 3, 4],
            [6, 2, -1, 0, 4, 5],
            [3, -1, -1, -1, 1, 6],
            [4, 0, -1, 2, 6, 7],
            [5, 1, 0, 3, 7, -1],
            [-1, 6, 1, 4, -1, -1],
            [7, 3, 2, 1, 5, -1],
            [-1, 4, 3, 6, -1, -1],
        ],
    ),
]

BOARDS = [g for g, _ in LITERAL] + [
    SquareGrid(5, 4, diagonal=True, wrap_x=True),
    HexGrid(6, 5, orientation="pointy", offset="even-r", wrap_x=True),
    StaggeredGrid(6, 3, stagger="columns", wrap_x=True),
    hexagon_board(2, orientation="pointy"),
]


@pytest.mark.parametrize("grid,table", LITERAL, ids=repr)
def test_neighbour_ids_literal(grid: Grid, table: list[list[int]]) -> None:
    assert grid.neighbor_ids().tolist() == table


@pytest.mark.parametrize("grid,table", LITERAL, ids=repr)
def test_padded_neighbour_table_literal(grid: Grid, table: list[list[int]]) -> None:
    t = grid.topology
    nb = t.neighbor_table()
    assert nb.shape == (t.padded_size, t.ndir)
    ys, xs = np.divmod(np.arange(grid.size), grid.width)
    rows = nb[t.padded_ids(np.arange(grid.size))]
    on_board = t.pad(grid.mask, False)
    # a neighbour on the board is the padded id of the literal one; every other is padding
    want = np.array(table)
    got = np.where(on_board[rows], t.cell_ids(rows), -1)
    assert got.tolist() == table
    assert (rows[want < 0] >= 0).all()  # a real padded id, never out of range
    padding = np.ones(t.padded_size, dtype=bool)
    padding[t.padded_ids(ys * grid.width + xs)] = False
    assert (nb[padding] == -1).all()


def test_neighbour_ids_unwrapped_leaves_out_the_seam() -> None:
    g = HexGrid(4, 2, wrap_x=True)
    plain = HexGrid(4, 2)
    assert g.neighbor_ids(wrap=False).tolist() == plain.neighbor_ids().tolist()


def test_masked_cells_have_no_neighbours_and_are_none() -> None:
    g = hexagon_board(1)
    nb = g.neighbor_ids()
    off = ~g.mask.ravel()
    assert (nb[off] == -1).all()
    assert not np.isin(np.flatnonzero(off), nb).any()


@pytest.mark.parametrize("grid", BOARDS, ids=repr)
def test_tables_agree_with_grid_neighbors(grid: Grid) -> None:
    nb = grid.neighbor_ids()
    for c in grid.cells():
        want = [grid.neighbor(c, d) for d in range(grid.ndir)]
        assert [None if n < 0 else grid.cell(int(n)) for n in nb[grid.id(c)]] == want


@pytest.mark.parametrize("grid", BOARDS, ids=repr)
def test_parity_step_deltas_and_directions(grid: Grid) -> None:
    t = grid.topology
    ys, xs = np.divmod(np.arange(grid.size), grid.width)
    par = t.parity(xs, ys)
    if isinstance(grid, HexLikeGrid) and grid.offset in ("odd-q", "even-q"):
        assert par.tolist() == (xs % 2).tolist()
    elif isinstance(grid, HexLikeGrid):
        assert par.tolist() == (ys % 2).tolist()
    else:
        assert not par.any()
    dx, dy = t.step_deltas(xs, ys)
    assert (dx == t.dx[par]).all() and (dy == t.dy[par]).all()
    p = t.padded_ids(np.arange(grid.size))
    q = t.neighbors(p)
    for d in range(t.ndir):
        hit = t.directions(p, q[:, d])
        assert (hit <= d).all()  # the first direction that reaches it (a narrow wrapped board may reach it twice)
        assert (q[np.arange(p.size), hit] == q[:, d]).all()
    assert (t.directions(p, p) == -1).all()


def _climb_reference(topo: Topology, elev: np.ndarray, climb_cost: float) -> np.ndarray:
    """A copy of the climbing block of ``Map._build_costs``: the padded edge costs it adds."""
    n = topo.ndir
    e = np.zeros((topo.ph, topo.pw, n), dtype=np.float64)
    ids = np.arange(topo.padded_size, dtype=np.int64)
    xs = ids % topo.pw - 1
    ys = ids // topo.pw - 1
    if topo.parity_mode == 1:
        par = xs & 1
    elif topo.parity_mode == 2:
        par = ys & 1
    else:
        par = np.zeros_like(xs)
    inner = (xs >= 0) & (xs < topo.width) & (ys >= 0) & (ys < topo.height)
    for d in range(n):
        q = ids + topo.offsets[par, d]
        if topo.wrap:
            qx = q % topo.pw
            q = np.where(qx == 0, q + topo.width, np.where(qx == topo.width + 1, q - topo.width, q))
        q = np.clip(q, 0, topo.padded_size - 1)
        rise = np.maximum(elev[q] - elev, 0.0)
        e.reshape(-1, n)[:, d] += np.where(inner, rise * climb_cost, 0.0)
    return e.ravel()


@pytest.mark.parametrize("grid", BOARDS, ids=repr)
@pytest.mark.parametrize("seed", [0, 1])
def test_edge_rise_matches_the_map_computation(grid: Grid, seed: int) -> None:
    t = grid.topology
    rng = np.random.default_rng(seed)
    elevation = rng.normal(0.0, 3.0, grid.shape)  # negative heights too: climbing out of the padding's 0
    elev = t.pad(elevation, 0.0)
    got = t.edge_rise(elev)
    assert got.shape == (t.padded_size * t.ndir,)
    assert np.array_equal(got, _climb_reference(t, elev, 1.0))
    for c in (0.37, 2.5):  # the call Map makes: edge_rise(elev) * climb_cost
        assert np.array_equal(got * c, _climb_reference(t, elev, c))


def test_edge_rise_literal_and_checks() -> None:
    g = HexGrid(2, 2)  # odd-q: (1, 0) is shoved down, so (1, 0) and (0, 1) touch
    t = g.topology
    elev = t.pad(np.array([[0.0, 2.0], [5.0, 1.0]]), 0.0)
    rise = t.edge_rise(elev).reshape(-1, t.ndir)
    assert rise[t.padded_id(1, 0)].tolist() == [0.0, 0.0, 0.0, 0.0, 3.0, 0.0]  # up to (0, 1) at 5 only
    assert rise[t.padded_id(0, 0)].tolist() == [2.0, 0.0, 0.0, 0.0, 0.0, 5.0]
    with pytest.raises(ValueError, match="flat padded array"):
        t.edge_rise(np.zeros((2, 2)))


def test_hex_like_grid_is_public_and_shared() -> None:
    import wargrid
    import wargrid.grids

    assert wargrid.HexLikeGrid is wargrid.grids.HexLikeGrid is HexLikeGrid
    assert isinstance(StaggeredGrid(3, 3), HexLikeGrid) and not isinstance(SquareGrid(3, 3), HexLikeGrid)


@pytest.mark.parametrize("grid", [SquareGrid(5, 3, diagonal=True, corner_rule="no-obstacle"), HexGrid(4, 3, orientation="pointy", offset="even-r"),
                                  SquareGrid(4, 2, wrap_x=True)])
def test_kernel_bundles_carry_the_topology_by_name(grid: Grid) -> None:
    """The one layout (``_kernels/bundles``) ties the bundle the kernels read to the topology's fields."""
    from wargrid._kernels import bundles as layout

    t = grid.topology
    args, bundle = t.kernel_args, t.kernel_bundle
    assert {name: int(args.info[i]) for i, name in enumerate(layout.INFO_FIELDS)} == {
        name: int(getattr(t, name)) for name in layout.INFO_FIELDS}
    assert int(args.info[layout.INFO_PW]) == t.pw and int(args.info[layout.INFO_NDIR]) == t.ndir
    assert bundle.off is args.off and bundle.info is args.info
    assert bundle.dx.tolist() == t.dx.ravel().tolist() and bundle.dy.tolist() == t.dy.ravel().tolist()
    assert t.kernel_bundle is bundle  # built once
