"""Terrain and overlay edits patch the cached cost arrays: they must equal a rebuild from the layers."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from movement_oracle import grids
from wargrid import Map, SquareGrid, Terrain, TerrainTable
from wargrid.costs import CostField

NAMES = TerrainTable.default().names


def _rebuilt(m: Map, unit: str):
    return m._build_cost_field(unit)  # what cost_field gives on a map with no cache


def _edit(data, m: Map, cells: list, most: int) -> None:
    """A terrain or overlay edit of 1 to ``most`` of ``cells``."""
    chosen = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=most))
    if data.draw(st.booleans()):
        m.set_terrain(chosen, data.draw(st.sampled_from(NAMES)))
    else:
        m.set_overlay(chosen, data.draw(st.sampled_from([None, "road", "bridge"])))


@settings(max_examples=60)
@given(data=st.data())
def test_patched_costs_equal_a_rebuild(data):
    g = data.draw(grids(max_side=6))
    m = Map(g)
    if data.draw(st.booleans()):
        m.set_elevation(np.arange(g.width * g.height, dtype=float).reshape(g.shape), climb_cost=0.5)
    units = ["foot", "cavalry", "naval"]
    for u in units:
        m.cost_field(unit=u)  # cached before the edits
    cells = list(g.cells())
    for _ in range(data.draw(st.integers(1, 4))):
        _edit(data, m, cells, 4)
        for u in units:
            got, want = m.cost_field(unit=u), _rebuilt(m, u)
            np.testing.assert_array_equal(got.cell, want.cell)
            np.testing.assert_array_equal(got.edge, want.edge)
            assert (got.min_cost, got.uniform) == (want.min_cost, want.uniform)
            assert not got.cell.flags.writeable


@settings(max_examples=60)
@given(data=st.data())
def test_fields_read_after_some_edits_only_equal_a_rebuild(data):
    # an edit leaves each cached field to be patched when next asked: edits pile up behind a field no one reads,
    # and a field behind on more than an eighth of the board is dropped and built again
    g = data.draw(grids(max_side=6))
    m = Map(g)
    units = ["foot", "cavalry", "naval"]
    for u in units:
        m.cost_field(unit=u)
    cells = list(g.cells())

    def check(u: str) -> None:
        got, want = m.cost_field(unit=u), _rebuilt(m, u)
        np.testing.assert_array_equal(got.cell, want.cell)
        assert (got.min_cost, got.uniform) == (want.min_cost, want.uniform)

    for _ in range(data.draw(st.integers(1, 8))):
        _edit(data, m, cells, 3)
        for u in data.draw(st.lists(st.sampled_from(units), max_size=2, unique=True)):
            check(u)
    for u in units:
        check(u)


@settings(max_examples=40)
@given(data=st.data())
def test_the_entry_costs_of_a_few_cells_and_of_many_equal_the_whole_boards(data):
    # an edit of up to FEW_CELLS cells reads them with Python scalars, a larger one with numpy: both as built whole
    from wargrid.map.derived import FEW_CELLS as _FEW_CELLS, xy_ids

    g = data.draw(grids(max_side=7))
    m = Map(g, terrains=TerrainTable.default().with_terrains([Terrain("sandbags", "S", "#c2b280", wall="crushable")]))
    cells = list(g.cells())
    for _ in range(3):
        m.set_terrain(data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=6)),
                      data.draw(st.sampled_from(m.terrains.names)))
        m.set_overlay(data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=6)),
                      data.draw(st.sampled_from([None, "road", "bridge"])))
    ys, xs = (v.astype(np.int64) for v in np.nonzero(g.mask))
    n = data.draw(st.sampled_from([1, _FEW_CELLS, _FEW_CELLS + 1, xs.shape[0]]))
    pick = np.array(data.draw(st.permutations(range(xs.shape[0])))[:n], dtype=np.int64)
    pw = g.topology.pw  # (their ids too: padded and not)
    np.testing.assert_array_equal(xy_ids(xs[pick], ys[pick], pw, 1), (ys[pick] + 1) * pw + xs[pick] + 1)
    np.testing.assert_array_equal(xy_ids(xs[pick], ys[pick], g.width), ys[pick] * g.width + xs[pick])
    for unit in ("foot", "tracked", "naval"):
        for walls in ("stop", "crush"):
            whole = m._entry_costs(unit, walls=walls)
            np.testing.assert_array_equal(m._entry_costs(unit, ys[pick], xs[pick], walls), whole[ys[pick], xs[pick]])


def test_an_edit_copies_no_field_until_it_is_asked_for():
    m = Map(SquareGrid(40, 30))
    foot, cav = m.cost_field(unit="foot"), m.cost_field(unit="cavalry")
    plains = float(foot.cell[(1 + 1) * 42 + 1 + 1])
    m.set_terrain([(1, 1)], "forest")
    m.set_terrain([(2, 1)], "hills")
    assert m.derived._costs[("cavalry", "stop")] is cav  # not copied yet
    after = m.cost_field(unit="cavalry")
    assert after is not cav and after.cell is not cav.cell
    np.testing.assert_array_equal(after.cell, _rebuilt(m, "cavalry").cell)
    assert m.cost_field(unit="cavalry") is after  # patched once
    m.set_terrain([(x, y) for x in range(40) for y in range(5)], "hills")  # a sixth of the board: dropped
    assert ("foot", "stop") not in m.derived._costs
    np.testing.assert_array_equal(m.cost_field(unit="foot").cell, _rebuilt(m, "foot").cell)
    assert foot.cell[(1 + 1) * 42 + 1 + 1] == plains  # the old arrays are untouched


def test_an_edit_gives_a_new_array_and_keeps_the_old_one():
    m = Map(SquareGrid(4, 3))
    before = m.cost_field(unit="cavalry")
    plains = before.min_cost
    assert before.uniform
    m.set_terrain([(1, 1)], "forest")
    after = m.cost_field(unit="cavalry")
    assert after.cell is not before.cell and not after.uniform
    assert before.cell[(1 + 1) * 6 + 1 + 1] == plains  # the old array is untouched (caches keyed on it stay right)
    m.set_terrain([(1, 1)], "plains")
    assert m.cost_field(unit="cavalry").uniform


@given(st.lists(st.one_of(st.floats(0, 1e6, allow_nan=False, allow_infinity=False), st.just(np.inf)), max_size=40))
def test_a_fields_least_cost_and_uniformity_come_from_its_finite_cells(costs):
    from wargrid.costs import CostField

    g = SquareGrid(len(costs) + 1, 1)
    cell = g.topology.pad(np.array([costs + [np.inf]], dtype=float), np.inf)
    f = CostField.from_padded(g.topology, cell)
    finite = [c for c in costs if np.isfinite(c)]
    assert f.min_cost == (min(finite) if finite else 1.0)
    assert f.uniform == (not finite or max(finite) == min(finite))


@settings(max_examples=200)
@given(data=st.data())
def test_a_field_patched_at_known_cells_equals_one_built_whole(data):
    # few values and many impassable cells: the least cost is often lost, the field often becomes uniform
    g = SquareGrid(data.draw(st.integers(1, 5)), data.draw(st.integers(1, 4)))
    values = st.sampled_from([1.0, 2.0, 0.5, np.inf])
    cost = np.array(data.draw(st.lists(values, min_size=g.width * g.height, max_size=g.width * g.height)))
    edges = None
    if data.draw(st.booleans()):
        edges = np.zeros((g.height, g.width, g.topology.ndir))
    f = CostField.from_arrays(g, cost.reshape(g.shape), edges)
    t = g.topology
    for _ in range(data.draw(st.integers(1, 4))):
        cells = data.draw(st.lists(st.sampled_from(list(g.cells())), min_size=1, max_size=3))
        ids = np.array([t.padded_id(*c) for c in cells], dtype=np.int64)
        cell = f.cell.copy()
        cell[ids] = data.draw(st.lists(values, min_size=len(cells), max_size=len(cells)))
        want = CostField.from_padded(t, cell.copy(), None if f.edge.size == 0 else f.edge)
        f = f.with_cells(cell, changed=ids)
        assert (f.min_cost, f.uniform) == (want.min_cost, want.uniform)
        at = f.__dict__["_least_at"]  # (where the next edit looks for the least cost first; none only if none finite)
        assert f.cell[at] == f.min_cost if (f.cell < np.inf).any() else at == -1


@settings(max_examples=200)
@given(data=st.data())
def test_where_the_least_cost_was_seen_changes_no_patched_range(data):
    # the entry that held the least cost is a hint: a stale one, a wrong one or none give the same answer
    from wargrid._kernels.costs import patched_range

    n = data.draw(st.integers(1, 12))
    values = st.sampled_from([1.0, 2.0, 0.5, np.inf])
    inner = np.array(data.draw(st.lists(values, min_size=n, max_size=n)))
    before = np.full(3 * (n + 2), np.inf)  # a board n x 1, padded: (n + 2) x 3
    before[n + 3:2 * n + 3] = inner
    lo = float(inner.min()) if np.isfinite(inner).any() else 1.0
    flat = not np.isfinite(inner).any() or float(inner[np.isfinite(inner)].max()) == lo
    cell = before.copy()
    ids = np.array(sorted(set(data.draw(st.lists(st.integers(n + 3, 2 * n + 2), min_size=1, max_size=3)))), np.int64)
    cell[ids] = data.draw(st.lists(values, min_size=ids.shape[0], max_size=ids.shape[0]))
    least, uniform, where = patched_range(cell, ids, lo, flat, n + 2, True, -1)
    for at in (-1, data.draw(st.integers(-3, cell.shape[0] + 3)), int(np.argmax(before == lo))):
        assert patched_range(cell, ids, lo, flat, n + 2, True, at)[:2] == (least, uniform)
    assert cell[where] == least if (cell < np.inf).any() else where == -1  # (never -1 where a cell is finite: no scan)


# -- patched in place when only the map holds a field ------------------------------------------------------------


def test_a_field_no_one_else_holds_is_patched_in_place_and_a_held_one_never():
    import weakref

    from wargrid import HexGrid
    from wargrid.movement._array_cache import cached, remember

    m = Map(HexGrid(12, 9))
    m.zones()  # the zones read the field's array too
    old = weakref.ref(m.cost_field().cell)
    store: dict = {}
    remember(store, old(), "derived from the old values", 4)
    m.set_terrain([(3, 3)], "water")
    assert m.cost_field().cell is old()  # no one else held it: patched in place ...
    assert cached(store, old()) is None  # ... and what was derived from its values is dropped
    np.testing.assert_array_equal(m.cost_field().cell, _rebuilt(m, "foot").cell)
    # a field, its array or a view of it held by someone: copied, what they hold stays as it was
    for held in ("field", "array", "view"):
        f = m.cost_field()
        keep = {"field": f, "array": f.cell, "view": f.cell[5:20]}[held]
        before = f.cell.copy()
        del f
        m.set_terrain([(4, 4)], "water" if m.terrain_name((4, 4)) != "water" else "plains")
        np.testing.assert_array_equal(getattr(keep, "cell", keep), before[5:20] if held == "view" else before)
        assert m.cost_field().cell is not getattr(keep, "cell", keep)
        np.testing.assert_array_equal(m.cost_field().cell, _rebuilt(m, "foot").cell)
        del keep


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_prepared_answers_stay_exact_when_fields_are_patched_in_place(data):
    # a prepared class holds the field it customized: patched in place once its input weights are made (a path
    # made them), copied before; either way the next answers are a fresh map's, and the zones a fresh labelling's
    from wargrid import HexGrid
    from wargrid.movement.zones import label_zones

    g = HexGrid(9, 7)
    m = Map(g)
    m.zones()
    m.prepare(unit="foot", progress=False)
    cells = list(g.cells())
    ends = [(0, 0), (8, 6), (0, 6), (8, 0), (4, 3)]
    for _ in range(data.draw(st.integers(1, 8))):
        cell = data.draw(st.sampled_from(cells))
        m.set_terrain([cell], data.draw(st.sampled_from(["plains", "water", "forest", "hills"])))
        if data.draw(st.booleans()):
            a, b = data.draw(st.sampled_from(ends)), data.draw(st.sampled_from(ends))
            got, want = m.path(a, b), Map(g, terrain=m.terrain, terrains=m.terrains).path(a, b)
            assert (got is None) == (want is None) and (got is None or got.cost == want.cost)
        np.testing.assert_array_equal(m.cost_field().cell, _rebuilt(m, "foot").cell)
        assert np.array_equal(m.zones() >= 0, label_zones(g, m.costs()) >= 0)


def test_a_square8_prepared_class_keeps_float64_weights_and_finds_a_fresh_maps_paths():
    # the fast suite's one float64 metric (sqrt(2) diagonals round in float32): a build and its queries; its edits
    # and tables are tests/movement/test_cch.py's (slow), as are those of the float32 metrics the other tests use
    g = SquareGrid(9, 7, diagonal=True)
    m = Map(g)
    m.set_terrain([(4, 2), (4, 3), (4, 4)], "water")
    cp = m.prepare(unit="foot", progress=False)
    assert cp.metric.weight.dtype == np.float64 and cp.metric.weight.shape[1] == 1  # symmetric: one column
    assert np.isclose(m.distance((0, 0), (8, 0), unit="foot"), 2 * 8, rtol=1e-12, atol=0)  # plains: 2 a cell
    assert np.isclose(m.distance((0, 6), (3, 3), unit="foot"), 2 * 3 * np.sqrt(2), rtol=1e-12, atol=0)
    fresh = Map(g, terrain=m.terrain, terrains=m.terrains)
    for a, b in [((0, 3), (8, 3)), ((0, 0), (8, 6)), ((8, 6), (0, 6))]:
        got, want = m.path(a, b, unit="foot"), fresh.path(a, b, unit="foot")
        assert got is not None and want is not None and len(got.cells) == len(want.cells)
        assert np.isclose(got.cost, want.cost, rtol=1e-12, atol=0)  # sums of sqrt(2) in another order


def test_a_reader_while_a_field_is_patched_in_place_gets_a_field_true_to_its_cells(monkeypatch):
    # Map.cost_field reads the cache without the lock; a reader in the middle of an in-place patch (here: the
    # patch's own call that drops the array's derived values, as if another thread ran there) must not be handed
    # the field whose array is being changed under it, with a least cost and uniformity from before
    import wargrid.map.core as core

    m = Map(SquareGrid(8, 8))
    m.cost_field()
    got = {}
    forget = core.forget_cost_array

    def reader_here(cell):
        got["f"] = m.cost_field()
        got["cells"] = got["f"].cell.copy()
        forget(cell)

    monkeypatch.setattr(core, "forget_cost_array", reader_here)
    m.set_terrain([(3, 3)], "road")
    after = m.cost_field()
    f = got["f"]
    np.testing.assert_array_equal(f.cell, got["cells"])  # nothing changed what the reader holds
    finite = f.cell[np.isfinite(f.cell)]
    assert (f.min_cost, f.uniform) == (finite.min(), bool((finite == finite[0]).all()))
    assert not f.uniform  # the road costs less than the plains: it was read after the edit
    np.testing.assert_array_equal(after.cell, _rebuilt(m, "foot").cell)
