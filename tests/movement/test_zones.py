"""Connectivity zones: literal cases, a plain-Python flood-fill oracle on every board kind, edits and events."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import CostField, HexGrid, Map, SquareGrid, StaggeredGrid, hexagon_board
from wargrid.grids.square import SQUARE8_DIRECTIONS
from wargrid.movement.zones import ZoneState, label_zones

# -- the oracle -----------------------------------------------------------------------


def _corner_ok(grid, passable, a, direction):
    """The corner rule, from the square-8 direction itself (not from the topology's table)."""
    if not isinstance(grid, SquareGrid) or not grid.diagonal or grid.corner_rule == "always":
        return True
    dx, dy = SQUARE8_DIRECTIONS[direction]
    if dx == 0 or dy == 0:
        return True
    open_ = 0
    for cx, cy in ((a[0] + dx, a[1]), (a[0], a[1] + dy)):
        if grid.wrap_x:
            cx %= grid.width
        if 0 <= cx < grid.width and 0 <= cy < grid.height and passable[cy, cx]:
            open_ += 1
    return open_ == 2 if grid.corner_rule == "no-obstacle" else open_ >= 1


def _one_way(grid, passable, edges, a, step):
    b = step.cell
    if not passable[b[1], b[0]] or not _corner_ok(grid, passable, a, step.direction):
        return False
    return edges is None or math.isfinite(edges[a[1], a[0], step.direction])


def oracle_zones(m: Map, unit=None) -> np.ndarray:
    """Slow, obviously-right flood fill over ``grid.steps``: linked = a step possible either way."""
    g = m.grid
    passable = np.isfinite(m.costs(unit=unit))
    out = np.full(g.shape, -1, dtype=np.int64)
    nxt = 0
    for start in g.cells():
        if not passable[start[1], start[0]] or out[start[1], start[0]] >= 0:
            continue
        out[start[1], start[0]] = nxt
        todo = [start]
        while todo:
            a = todo.pop()
            for s in g.steps(a):
                b = s.cell
                if out[b[1], b[0]] >= 0 or not passable[b[1], b[0]]:
                    continue
                there = _one_way(g, passable, m.edges, a, s)
                back = any(t.cell == a and _one_way(g, passable, m.edges, b, t) for t in g.steps(b))
                if there or back:
                    out[b[1], b[0]] = nxt
                    todo.append(b)
        nxt += 1
    return out


def canonical(labels: np.ndarray) -> np.ndarray:
    """Relabel zones 0, 1, ... by first appearance so that two labellings of one partition compare equal."""
    flat = np.asarray(labels).ravel()
    out = np.full(flat.shape, -1, dtype=np.int64)
    seen: dict[int, int] = {}
    for i, v in enumerate(flat.tolist()):
        if v >= 0:
            out[i] = seen.setdefault(v, len(seen))
    return out.reshape(np.shape(labels))


# -- boards ------------------------------------------------------------------------------

KINDS = [
    "square4", "square8-always", "square8-no-obstacle", "square8-one-obstacle",
    "hex-odd-q", "hex-even-q", "hex-odd-r", "hex-even-r", "staggered-columns", "staggered-rows",
]


def make_grid(kind: str, w: int, h: int, wrap: bool):
    if kind == "square4":
        return SquareGrid(w, h, wrap_x=wrap)
    if kind.startswith("square8"):
        return SquareGrid(w, h, diagonal=True, corner_rule=kind.split("-", 1)[1], wrap_x=wrap)
    if kind.startswith("hex"):
        offset = kind[4:]
        if wrap and offset.endswith("q") and w % 2:
            w += 1
        return HexGrid(w, h, orientation="flat" if offset.endswith("q") else "pointy", offset=offset, wrap_x=wrap)
    stagger = kind.split("-")[1]
    if wrap and stagger == "columns" and w % 2:
        w += 1
    return StaggeredGrid(w, h, stagger=stagger, wrap_x=wrap)


GROUND = ["plains", "plains", "water", "mountains", "swamp"]


@st.composite
def boards(draw):
    kind = draw(st.sampled_from(KINDS))
    w = draw(st.integers(3, 8))
    h = draw(st.integers(1, 7))
    wrap = draw(st.booleans())
    g = make_grid(kind, w, h, wrap)
    terrain = draw(st.lists(st.integers(0, len(GROUND) - 1), min_size=g.size, max_size=g.size))
    m = Map(g)
    names = [GROUND[i] for i in terrain]
    for name in set(names):
        cells = [(i % g.width, i // g.width) for i, n in enumerate(names) if n == name]
        m.set_terrain(cells, name)
    return m


def assert_same_partition(a: np.ndarray, b: np.ndarray) -> None:
    assert np.array_equal(canonical(a), canonical(b)), f"\n{a}\n!=\n{b}"


# -- literal cases ----------------------------------------------------------------------------


def test_literal_square4_and_square8_corner_rules():
    rows = ["..#.", ".#..", "#..."]
    blocked = np.array([[c == "#" for c in r] for r in rows])
    costs = np.where(blocked, np.inf, 1.0)
    assert label_zones(SquareGrid(4, 3), costs).tolist() == [[0, 0, -1, 1], [0, -1, 1, 1], [-1, 1, 1, 1]]
    # (1, 0) -> (0, 1) diagonal is open only when the corner rule allows it
    always = label_zones(SquareGrid(4, 3, diagonal=True, corner_rule="always"), costs)
    assert always.tolist() == [[0, 0, -1, 0], [0, -1, 0, 0], [-1, 0, 0, 0]]
    no_obstacle = label_zones(SquareGrid(4, 3, diagonal=True, corner_rule="no-obstacle"), costs)
    assert no_obstacle.tolist() == [[0, 0, -1, 1], [0, -1, 1, 1], [-1, 1, 1, 1]]
    # without walls a diagonal with one open corner adds nothing: the corner itself links both ends
    one = label_zones(SquareGrid(4, 3, diagonal=True, corner_rule="one-obstacle"), costs)
    assert one.tolist() == no_obstacle.tolist()


def test_literal_hex_and_wrap():
    # a column of water splits a flat hex board; wrapping joins the two sides again
    m = Map(HexGrid(6, 3))
    m.set_terrain([(2, y) for y in range(3)], "water")
    assert m.zones().tolist() == [[0, 0, -1, 1, 1, 1]] * 3
    w = Map(HexGrid(6, 3, wrap_x=True))
    w.set_terrain([(2, y) for y in range(3)], "water")
    assert w.zones().tolist() == [[0, 0, -1, 0, 0, 0]] * 3
    assert w.connected((0, 0), (5, 2)) and not m.connected((0, 0), (5, 2))


def test_masked_board_and_many_zones():
    g = hexagon_board(3)
    m = Map(g)
    z = m.zones()
    assert (z[~g.mask] == -1).all() and (z[g.mask] == 0).all()
    # a checkerboard on square-4: every passable cell is its own zone
    n = 300
    check = (np.add.outer(np.arange(n), np.arange(n)) % 2).astype(bool)
    labels = label_zones(SquareGrid(n, n), check)
    assert labels.max() + 1 == check.sum() == n * n // 2
    assert (labels[~check] == -1).all()


def test_walls_disconnect_one_way_walls_do_not():
    m = Map(SquareGrid(2, 1))
    m.set_edge((0, 0), (1, 0), math.inf, both_ways=False)
    assert m.connected((0, 0), (1, 0))
    m.set_edge((1, 0), (0, 0), math.inf, both_ways=False)
    assert not m.connected((0, 0), (1, 0))
    assert m.zones().tolist() == [[0, 1]]
    m.set_edge((0, 0), (1, 0), 0.0)
    assert m.zones().tolist() == [[0, 0]]


def test_impassable_connected_to_nothing():
    m = Map(SquareGrid(3, 1))
    m.set_terrain([(1, 0)], "water")
    assert not m.connected((1, 0), (1, 0))
    assert m.connected((0, 0), (0, 0))
    assert m.connected((1, 0), (1, 0), unit="naval")


# -- the oracle on every kind ----------------------------------------------------------------


@settings(max_examples=150)
@given(boards())
def test_zones_match_flood_fill_oracle(m):
    for unit in ("foot", "cavalry", "naval"):
        z = m.zones(unit=unit)
        oracle = oracle_zones(m, unit)
        assert np.array_equal(canonical(z), oracle)
        # a fresh labelling numbers zones in row-major order, exactly as the oracle does
        assert np.array_equal(z, oracle)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("wrap", [False, True])
def test_every_kind_open_board_is_one_zone(kind, wrap):
    m = Map(make_grid(kind, 6, 5, wrap))
    assert set(np.unique(m.zones()).tolist()) == {0}


# -- edits -------------------------------------------------------------------------------------

EDITS = st.lists(
    st.tuples(st.sampled_from(["land", "water", "mountains", "bridge", "wateroverlay", "unbridge", "wall", "unwall", "oneway"]),
              st.integers(0, 10_000), st.integers(0, 10_000), st.integers(1, 3)),
    min_size=1, max_size=12,
)


def apply_edit(m: Map, op: str, a: int, b: int, n: int) -> None:
    g = m.grid
    cells = list(g.cells())
    first = cells[a % len(cells)]
    if op in ("wall", "unwall", "oneway"):
        nbs = g.neighbors(first)
        if not nbs:
            return
        cost = 0.0 if op == "unwall" else math.inf
        m.set_edge(first, nbs[b % len(nbs)], cost, both_ways=op != "oneway")
        return
    chosen = [first] + [cells[(a + b * k) % len(cells)] for k in range(1, n)]
    if op == "land":
        m.set_terrain(chosen, "plains")
    elif op in ("water", "mountains"):
        m.set_terrain(chosen, op)
    elif op == "bridge":
        m.set_overlay(chosen, "bridge")
    elif op == "wateroverlay":
        m.set_overlay(chosen, "water")
    else:  # clearing overlays may open some cells and close others in one edit
        m.set_overlay(chosen, None)


@pytest.mark.slow
@settings(max_examples=120)
@given(boards(), EDITS)
def test_incremental_zones_match_fresh_labelling(m, edits):
    for unit in ("foot", "naval"):
        m.zones(unit=unit)  # start following edits
    for op, a, b, n in edits:
        apply_edit(m, op, a, b, n)
        for unit in ("foot", "naval"):
            z = m.zones(unit=unit)
            assert_same_partition(z, oracle_zones(m, unit))
            state = m.derived.zones(unit)
            # sizes kept per id agree with the labels
            ids, counts = np.unique(z[z >= 0], return_counts=True)
            assert all(state.size(int(i)) == int(c) for i, c in zip(ids, counts))
            assert state.count == ids.size


def test_zone_state_compares_with_fresh_labels_after_many_edits():
    rng = np.random.default_rng(7)
    g = SquareGrid(24, 20, diagonal=True)
    m = Map(g)
    m.zones()
    for _ in range(300):
        x, y = int(rng.integers(g.width)), int(rng.integers(g.height))
        m.set_terrain([(x, y)], "water" if rng.random() < 0.55 else "plains")
    assert_same_partition(m.zones(), label_zones(g, m.costs()))


def test_elevation_edit_keeps_zones_and_fires_nothing():
    m = Map(SquareGrid(4, 2), climb_cost=1.0)
    m.set_terrain([(1, 0), (1, 1)], "water")
    before = m.zones()
    seen = []
    m.on("zones_changed", seen.append)
    m.set_elevation(np.arange(8.0).reshape(2, 4))
    assert np.array_equal(m.zones(), before) and seen == []


# -- events ---------------------------------------------------------------------------------------


def test_bridge_destroyed_splits_zone_and_fires_event():
    m = Map(SquareGrid(5, 3))
    river = [(2, y) for y in range(3)]
    m.set_terrain(river, "water")
    m.set_overlay([(2, 1)], "bridge")
    z = m.zones()
    assert len(set(z[z >= 0].tolist())) == 1
    whole = int(z[0, 0])
    seen = []
    m.on("zones_changed", seen.append)
    m.set_overlay([(2, 1)], None)  # the bridge is destroyed
    assert len(seen) == 1
    ev = seen[0]
    assert ev.event == "zones_changed" and ev.cells == ((2, 1),)
    assert ev.data["unit"] == "foot" and ev.data["old"] == [whole]
    z = m.zones()
    left, right = int(z[0, 0]), int(z[0, 4])
    assert left != right and sorted(ev.data["new"]) == sorted([left, right]) and whole in ev.data["new"]
    assert not m.connected((0, 0), (4, 2))
    # rebuilding it merges the two back: the bigger zone keeps its id
    seen.clear()
    m.set_overlay([(2, 1)], "bridge")
    assert len(seen) == 1 and sorted(seen[0].data["old"]) == sorted([left, right])
    assert len(seen[0].data["new"]) == 1 and m.connected((0, 0), (4, 2))


def test_events_per_followed_class_only_when_zones_change():
    m = Map(SquareGrid(3, 1))
    m.zones(unit="foot")
    m.zones(unit="naval")
    seen = []
    m.on("zones_changed", seen.append)
    m.set_terrain([(1, 0)], "forest")  # costs change, zones do not
    assert seen == []
    m.set_terrain([(1, 0)], "water")
    assert sorted(e.data["unit"] for e in seen) == ["foot", "naval"]
    naval = next(e for e in seen if e.data["unit"] == "naval")
    assert naval.data["old"] == [] and len(naval.data["new"]) == 1


def test_copy_has_no_zone_state():
    m = Map(SquareGrid(3, 1))
    m.zones()
    c = m.copy()
    assert c.derived.zones_if_built("foot") is None
    c.set_terrain([(1, 0)], "water")
    assert m.connected((0, 0), (2, 0)) and not c.connected((0, 0), (2, 0))


# -- bad input ---------------------------------------------------------------------------------------


def test_bad_input():
    m = Map(SquareGrid(3, 2))
    with pytest.raises(IndexError, match="a"):
        m.connected((3, 0), (0, 0))
    with pytest.raises(IndexError, match="b"):
        m.connected((0, 0), (0, -1))
    with pytest.raises(TypeError, match="a"):
        m.connected("xy", (0, 0))
    with pytest.raises(ValueError, match="unknown unit class 'boat'"):
        m.zones(unit="boat")
    with pytest.raises(ValueError, match="unit class"):
        m.connected((0, 0), (1, 0), unit="boat")
    g = SquareGrid(3, 2)
    with pytest.raises(ValueError, match=r"costs must have shape"):
        label_zones(g, np.ones((3, 3)))
    with pytest.raises(ValueError, match="NaN"):
        label_zones(g, np.full((2, 3), np.nan))
    with pytest.raises(ValueError, match=">= 0"):
        label_zones(g, -np.ones((2, 3)))
    with pytest.raises(TypeError, match="dtype"):
        label_zones(g, np.full((2, 3), "a"))
    with pytest.raises(TypeError, match="grid"):
        label_zones("board", np.ones((2, 3)))
    with pytest.raises(ValueError, match="edge_costs must have shape"):
        label_zones(g, np.ones((2, 3)), edge_costs=np.zeros((2, 3, 8)))
    with pytest.raises(ValueError, match="edge_costs must be >= 0"):
        label_zones(g, np.ones((2, 3)), edge_costs=np.full((2, 3, 4), -1.0))
    with pytest.raises(ValueError, match=r"costs must have shape"):
        label_zones(g, np.ones((3, 3), dtype=bool))


def test_label_zones_edges_argument():
    g = SquareGrid(2, 1)
    e = np.zeros((1, 2, 4))
    e[0, 0, 0] = e[0, 1, 2] = math.inf
    assert label_zones(g, np.ones((1, 2)), edge_costs=e).tolist() == [[0, 1]]
    assert label_zones(g, np.ones((1, 2), dtype=bool), edge_costs=e).tolist() == [[0, 1]]


def test_zone_state_direct():
    g = HexGrid(4, 1)
    t = g.topology
    z = ZoneState(t, CostField.from_arrays(g, np.ones((1, 4))).cell, np.zeros(0))  # read-only, as a map's: one signature
    assert z.count == 1 and z.size(0) == 4 and z.size(99) == 0


def test_wall_splits_and_clearing_it_merges_with_events():
    m = Map(HexGrid(4, 1, orientation="pointy"))
    whole = int(m.zones()[0, 0])
    seen = []
    m.on("zones_changed", seen.append)
    m.set_edge((1, 0), (2, 0), math.inf)
    assert [e.data["old"] for e in seen] == [[whole]] and len(seen[0].data["new"]) == 2
    assert seen[0].cells == ((1, 0), (2, 0))
    z = m.zones()
    assert z[0, 0] == z[0, 1] != z[0, 2] == z[0, 3]
    seen.clear()
    m.set_edge((1, 0), (2, 0), 0.0)
    assert len(seen) == 1 and len(seen[0].data["old"]) == 2 and len(seen[0].data["new"]) == 1
    assert len(set(m.zones().ravel().tolist())) == 1


def test_mixed_edit_opens_and_closes_at_once():
    # one call clears a bridge (closes the top crossing) and a water overlay (opens the bottom one)
    m = Map(SquareGrid(5, 3))
    m.set_terrain([(2, 0), (2, 1)], "water")
    m.set_overlay([(2, 0)], "bridge")
    m.set_overlay([(2, 2)], "water")
    top = int(m.zones()[0, 0])
    assert m.connected((0, 0), (4, 0)) and m.zones()[2, 2] == -1
    seen = []
    m.on("zones_changed", seen.append)
    m.set_overlay([(2, 0), (2, 2)], None)
    assert m.connected((0, 0), (4, 2)) and m.zones()[0, 2] == -1
    assert len(seen) == 1 and seen[0].data["old"] == [top] and len(seen[0].data["new"]) == 1
    assert_same_partition(m.zones(), oracle_zones(m))


# -- one-cell edits: their own path (ZoneState._update_one) ------------------------------------------------------


def test_one_cell_cut_that_splits_a_zone_and_one_that_does_not():
    # hex: the cell's open neighbours in one run round it stay linked (no search); a column of water with one gap
    # is split when the gap closes
    m = Map(HexGrid(7, 5))
    m.set_terrain([(3, y) for y in range(5) if y != 2], "water")
    z = m.zones()
    whole = int(z[0, 0])
    seen = []
    m.on("zones_changed", seen.append)
    m.set_terrain([(0, 4)], "water")  # a corner: its open neighbours in one run
    assert [(e.cells, e.data["old"], e.data["new"]) for e in seen] == [(((0, 4),), [whole], [whole])]
    assert m.connected((0, 0), (6, 4))
    seen.clear()
    m.set_terrain([(3, 2)], "water")  # the gap closes: two parts
    assert len(seen) == 1 and seen[0].data["old"] == [whole] and len(seen[0].data["new"]) == 2
    assert not m.connected((0, 0), (6, 4))
    assert_same_partition(m.zones(), oracle_zones(m))
    # square-4: neighbours are never neighbours of each other, the search decides
    s = Map(SquareGrid(5, 3))
    s.set_terrain([(2, 0), (2, 2)], "water")
    s.zones()
    s.set_terrain([(0, 1)], "water")  # no split: (0, 0) and (0, 2) round by (1, 0), (1, 1), (1, 2)
    assert s.connected((0, 0), (0, 2)) and s.connected((0, 0), (4, 1))
    s.set_terrain([(2, 1)], "water")  # the last crossing
    assert not s.connected((0, 0), (4, 1))
    assert_same_partition(s.zones(), oracle_zones(s))


@settings(max_examples=60, deadline=None)
@given(boards(), st.lists(st.tuples(st.integers(0, 10 ** 6), st.sampled_from(["plains", "water", "swamp"])),
                          min_size=1, max_size=12))
def test_one_cell_edits_give_what_the_general_update_gives(m, edits):
    # the same zones and the same reported change as the general update (the id repeated takes that path), and the
    # partition of a fresh labelling
    t = m.grid.topology
    fast = ZoneState(t, m.cost_field().cell, m.cost_field().edge)
    slow = ZoneState(t, m.cost_field().cell, m.cost_field().edge)
    for a, name in edits:
        x, y = a % m.grid.width, (a // m.grid.width) % m.grid.height
        if not m.grid.mask[y, x]:
            continue
        m.set_terrain([(x, y)], name)
        f = m.cost_field()
        i = y * m.grid.width + x
        assert fast.update(f.cell, f.edge, np.array([i])) == slow.update(f.cell, f.edge, np.array([i, i]))
        assert np.array_equal(fast.labels(), slow.labels())
        assert_same_partition(fast.labels(), label_zones(m.grid, m.costs()))
