"""Prepared exact queries (``wargrid.movement.prepared``): every answer equals Dijkstra's, before and after edits;
the memory guard; ``Map.prepare``'s options."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movement_oracle import boards, costs_of, dijkstra, grids, path_cost
import wargrid
from wargrid import HexGrid, Map, SquareGrid, TerrainTable
from wargrid.movement import prepared as prep
from wargrid.movement.prepared import PrepareMemoryError, distance_table, prepare

pytestmark = pytest.mark.slow  # the prepared structure's kernels compile for tens of seconds from cold


INF = math.inf
NAMES = TerrainTable.default().names


def _close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-9 * max(1.0, abs(b))


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(board=boards(max_side=7), shared=st.booleans())
def test_every_prepared_answer_equals_dijkstra(board, shared):
    g, cost, e = board
    f = costs_of(g, cost, e)
    pp = prepare(g, f, progress=False)
    if shared:  # a class customized on a structure built for another
        pp = prepare(g, f, progress=False, shared=prepare(g, costs_of(g, np.ones(g.shape), None), progress=False).structure)
    topo = g.topology
    cells = list(g.cells())
    for a in cells:
        want = dijkstra(g, cost, [a], e)
        for b in cells:
            if a == b or not math.isfinite(cost[a[1], a[0]]) or not math.isfinite(cost[b[1], b[0]]):
                continue
            p = pp.path(f, topo.padded_id(*a), topo.padded_id(*b))
            d = pp.distance(f, topo.padded_id(*a), topo.padded_id(*b))
            if b not in want:
                assert p is None and d == INF
                continue
            assert _close(p.cost, want[b]) and _close(d, want[b])
            assert p.cells[0] == a and p.cells[-1] == b
            assert _close(path_cost(g, cost, e, p.cells), want[b])
    src, tgt = cells[::2], cells[::3]
    got = distance_table(g, f, src, tgt, prepared=pp)
    plain = distance_table(g, f, src, tgt)
    for i, a in enumerate(src):
        want = dijkstra(g, cost, [a], e)
        for j, b in enumerate(tgt):
            w = 0.0 if a == b else want.get(b, INF)
            assert _close(got[i, j], w) and _close(plain[i, j], w)


def _random_map(data, g):
    n = g.width * g.height
    ids = data.draw(st.lists(st.integers(0, len(NAMES) - 1), min_size=n, max_size=n))
    m = Map(g, terrain=np.array(ids).reshape(g.shape))
    if data.draw(st.booleans()):
        m.set_elevation(np.array(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), dtype=float)
                        .reshape(g.shape), climb_cost=0.5)
    return m


def _edit(data, m, many=None):
    """A random edit; of terrain or overlays, of a few cells (``many`` false: the map patches its field and tells the
    class) or of many (true: more than an eighth of the board, the field is built again and the class compares it)."""
    cells = list(m.grid.cells())
    what = data.draw(st.sampled_from(["terrain", "overlay", "edge", "elevation"]))
    many = data.draw(st.booleans()) if many is None else many
    some = st.lists(st.sampled_from(cells), min_size=len(cells) // 8 + 1 if many else 1,
                    max_size=max(3, len(cells) // 2) if many else 3)
    if what == "terrain":
        m.set_terrain(data.draw(some), data.draw(st.sampled_from(NAMES)))
    elif what == "overlay":
        m.set_overlay(data.draw(some), data.draw(st.sampled_from([None, "road", "bridge"])))
    elif what == "edge":
        a = data.draw(st.sampled_from(cells))
        steps = list(m.grid.steps(a))
        if steps:
            b = data.draw(st.sampled_from(steps)).cell
            if b != a:
                m.set_edge(a, b, data.draw(st.sampled_from([0.0, 1.5, INF])), both_ways=data.draw(st.booleans()))
    else:
        n = m.grid.width * m.grid.height
        m.set_elevation(np.array(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), dtype=float)
                        .reshape(m.grid.shape), climb_cost=data.draw(st.sampled_from([0.0, 1.0])))


def _check_map(m, unit):
    cells = list(m.grid.cells())
    for a in cells:
        field = m.distance_field(a, unit=unit)
        for b in cells:
            want = 0.0 if a == b else field[b[1], b[0]]
            if not math.isfinite(m.costs(unit=unit)[a[1], a[0]]):
                continue
            p = m.path(a, b, unit=unit)
            assert (p is None and want == INF) or _close(p.cost, want)
            assert _close(m.distance(a, b, unit=unit), want)
    src = [c for c in cells[::2] if math.isfinite(m.costs(unit=unit)[c[1], c[0]])] or cells[:1]
    table = m.distance_table(src, cells, unit=unit)
    for i, a in enumerate(src):
        field = m.distance_field(a, unit=unit)
        for j, b in enumerate(cells):
            assert _close(table[i, j], 0.0 if a == b else field[b[1], b[0]])


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_map_stays_exact_after_random_edits(data):
    g = data.draw(grids(max_side=6))
    m = _random_map(data, g)
    unit = data.draw(st.sampled_from(["foot", "cavalry", "naval"]))  # (naval: water and mountains, opened and closed)
    pp = m.prepare(unit=unit, progress=False)
    if data.draw(st.booleans()):
        pp._perfect_seconds = INF  # no query arcs: every query searches the edited metric itself
    _check_map(m, unit)
    for _ in range(data.draw(st.integers(1, 4))):
        _edit(data, m, many=False)
        for _ in range(data.draw(st.integers(0, 2))):  # more edits before the next query (synced at once), of many
            _edit(data, m)  # cells maybe: the field the class was told of built again
        _check_map(m, unit)


def test_cells_told_then_a_field_built_again_all_count():
    """The class is told of an edit (its field patched in place), then handed a field built again (an edit of more
    than an eighth of the board) before a query: the told cells count too (they were lost: 3.0 where no path is)."""
    m = Map(HexGrid(4, 4))
    m.prepare(unit="foot", progress=False)
    m.set_terrain([(1, 1)], "road")
    assert m.distance((0, 0), (3, 3), unit="foot") == 9.0  # synced: the class holds its input weights from here
    m.set_terrain([(0, 1), (1, 0)], "water")  # told
    m.set_terrain([(3, 0), (3, 1), (3, 2)], "road")  # built again
    assert m.distance((0, 0), (1, 1), unit="foot") == INF
    assert m.distance((1, 1), (0, 0), unit="foot") == INF
    assert m.distance((2, 2), (3, 0), unit="foot") == m.distance_field((2, 2), unit="foot")[0, 3]


def _river_map():
    """A 9 x 7 hex board cut by a river in column 4, crossed by one bridge at (4, 3)."""
    m = Map(HexGrid(9, 7))
    river = [(4, y) for y in range(7)]
    m.set_terrain(river, "water")
    m.set_overlay([(4, 3)], "bridge")
    return m


def test_bridge_destroyed_then_rebuilt_and_a_road():
    m = _river_map()
    pp = m.prepare(unit="foot")
    p = m.path((0, 3), (8, 3), unit="foot")
    assert (4, 3) in p.cells and _close(p.cost, m.distance_field((0, 3), unit="foot")[3, 8])
    m.set_overlay([(4, 3)], None)  # the bridge is destroyed: only a rise of costs
    assert m.path((0, 3), (8, 3), unit="foot") is None
    assert m.distance((0, 3), (8, 3), unit="foot") == INF
    assert m.derived.prepared("foot") is pp  # kept across the edit
    m.set_overlay([(4, 5)], "bridge")  # a new bridge: a cost got cheaper
    q = m.path((0, 3), (8, 3), unit="foot")
    assert (4, 5) in q.cells and _close(q.cost, m.distance_field((0, 3), unit="foot")[3, 8])
    m.set_overlay([(1, y) for y in range(7)], "road")
    assert _close(m.distance((0, 0), (8, 6), unit="foot"), m.distance_field((0, 0), unit="foot")[6, 8])


def test_prepare_again_customizes_the_current_costs_on_the_same_structure():
    m = _river_map()
    pp = m.prepare(unit="foot")
    m.set_overlay([(2, 2)], "road")
    again = m.prepare(unit="foot", progress=False)
    assert again is not pp and again.structure is pp.structure and again.costs is m.cost_field(unit="foot")
    assert m.derived.prepared("foot") is again
    m.set_terrain([(0, 0)], "water")  # a new terrain table drops the classes, not the board's structure
    m.set_terrains(m.terrains)
    assert m.prepare(unit="foot", progress=False).structure is pp.structure


def test_prepared_path_on_a_square8_corner_rule_board():
    g = SquareGrid(5, 5, diagonal=True, corner_rule="no-obstacle")
    c = np.ones((5, 5))
    c[2, 1:4] = INF
    f = costs_of(g, c, None)
    pp = prepare(g, f)
    t = g.topology
    p = pp.path(f, t.padded_id(2, 0), t.padded_id(2, 4))
    assert p.cells[0] == (2, 0) and p.cells[-1] == (2, 4)
    assert _close(p.cost, 4 + 2 * math.sqrt(2))


def test_result_attributes_and_progress():
    seen = []
    m = _river_map()
    pp = m.prepare(unit="cavalry", progress=lambda done, total: seen.append((done, total)))
    assert pp.unit == "cavalry" and pp.bytes > 0 and pp.build_seconds >= 0 and pp.arcs > 0
    assert pp.structure.bytes > 0
    assert seen == [(0, 2), (1, 2), (2, 2)]  # the board's structure, then the class's customization
    seen.clear()
    m.prepare(unit="foot", progress=lambda done, total: seen.append((done, total)))  # the structure is shared
    assert seen[0] == (0, 2) and seen[-1] == (2, 2)


def test_customizable_is_deprecated_and_ignored():
    m = _river_map()
    with pytest.warns(DeprecationWarning, match="customizable"):
        pp = m.prepare(unit="foot", progress=False, customizable=False)
    with pytest.warns(DeprecationWarning, match="customizable"):
        assert m.prepare(unit="cavalry", progress=False, customizable=True).structure is pp.structure


def test_bad_input():
    m = _river_map()
    with pytest.raises(ValueError, match="unknown unit class 'tank'"):
        m.prepare(unit="tank")
    with pytest.raises(ValueError, match="sources must hold at least one"):
        m.distance_table([], [(0, 0)])
    with pytest.raises(ValueError, match="targets must hold at least one"):
        m.distance_table([(0, 0)], [])
    with pytest.raises(IndexError, match=r"targets\[1\]"):
        m.distance_table([(0, 0)], [(0, 0), (9, 0)])
    with pytest.raises(IndexError, match=r"sources\[0\]"):
        m.distance_table([(-1, 0)], [(0, 0)])
    with pytest.raises(IndexError, match="b"):
        m.distance((0, 0), (0, 7))
    with pytest.raises(TypeError, match="CostField"):
        prepare(m.grid, np.ones((7, 9)))
    other = prepare(HexGrid(4, 4), costs_of(HexGrid(4, 4), np.ones((4, 4)), None), progress=False)
    with pytest.raises(ValueError, match="another board"):
        prepare(m.grid, m.cost_field(unit="foot"), shared=other.structure)


def test_memory_is_refused_before_allocating(monkeypatch):
    monkeypatch.setattr(prep, "MEMORY_CAP", 1024)
    with pytest.raises(PrepareMemoryError, match="MiB"):
        Map(HexGrid(30, 30)).prepare(unit="foot")
    with pytest.raises(MemoryError):
        Map(HexGrid(30, 30)).prepare(unit="foot")


@pytest.mark.parametrize("make", [lambda s: HexGrid(s, s), lambda s: SquareGrid(s, s),
                                  lambda s: SquareGrid(s, s, diagonal=True), lambda s: HexGrid(s, s // 2 + 1)])
@pytest.mark.parametrize("side", [1, 2, 5, 17, 64, 150])
def test_the_memory_estimate_bounds_the_structure_built(make, side):
    g = make(side)
    pp = prepare(g, costs_of(g, np.ones(g.shape), None), progress=False)
    assert pp.arcs <= prep.arcs_bound(g.width * g.height)
    assert prep._need_bytes(g.topology, None) >= pp.structure.bytes + pp.bytes
    assert prep._need_bytes(g.topology, pp.structure) >= pp.bytes


def test_memory_left_by_a_cgroup_refuses_the_build(monkeypatch):
    from wargrid import _budget

    monkeypatch.setattr(_budget, "_cgroup_room", lambda: 64 << 20)  # a container with 64 MiB left
    with pytest.raises(PrepareMemoryError, match="cgroup"):
        Map(HexGrid(300, 300)).prepare(unit="foot")
    Map(HexGrid(20, 20)).prepare(unit="foot")  # a small board still fits


def test_rlimit_as_refuses_a_world_sized_build_at_once():
    # a 2000 x 2000 board under an address-space limit 1.5 GiB above what the process holds: the build would need
    # several GiB, so it is refused before anything is allocated (the process would otherwise die in an allocator)
    code = """
import resource
import numpy as np
import wargrid
from wargrid.costs import CostField
from wargrid.movement.prepared import PrepareMemoryError, prepare
g = wargrid.HexGrid(2000, 2000)
f = CostField.from_arrays(g, np.ones(g.shape))
size = int(open('/proc/self/status').read().split('VmSize:')[1].split()[0]) * 1024
resource.setrlimit(resource.RLIMIT_AS, (size + (3 << 29), resource.RLIM_INFINITY))
try:
    prepare(g, f, progress=False)
except PrepareMemoryError as e:
    print('refused', 'RLIMIT_AS' in str(e))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.stdout.split() == ["refused", "True"], out.stderr[-2000:]


def test_a_prepared_structure_names_padded_ids_it_does_not_hold():
    # a negative id wrapped round to a padding cell and crashed the query kernel (segmentation fault)
    import numpy as np
    import pytest

    from wargrid import generate
    from wargrid.errors import ArgumentError, ArgumentTypeError

    m = generate(8, 6, kind="square", seed=1)
    p, cf = m.prepare(progress=False), m.cost_field()
    cells = [c for c in m.grid.cells() if m.passable()[c[1], c[0]]]
    a, b = m.grid.topology.padded_id(*cells[0]), m.grid.topology.padded_id(*cells[-1])
    assert p.distance(cf, a, b) == m.distance(cells[0], cells[-1])
    for s in (-5, 0, 10**9):
        with pytest.raises(ArgumentError, match=f"s = {s} is no padded id of a passable cell"):
            p.distance(cf, s, b)
        with pytest.raises(ArgumentError, match=f"t = {s} is no padded id"):
            p.path(cf, a, s)
    with pytest.raises(ArgumentError, match=r"tgt\[1\] = -1 is no padded id"):
        p.table(cf, np.array([a]), np.array([b, -1]))
    with pytest.raises(ArgumentTypeError, match="src must be a 1-D array of padded ids"):
        p.table(cf, np.array([0.5]), np.array([b]))
