"""The prepared structure's core: A* with landmark bounds, narrowed arrays, the build's progress display."""

from __future__ import annotations

import io
import math
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wargrid
from movement_oracle import costs_of
from wargrid import SquareGrid
from wargrid._kernels.movement.ch_records import Landmarks, Upward
from wargrid.movement import prepared as prep
from wargrid.movement.prepared import prepare
from wargrid.movement.search import cells_of


pytestmark = pytest.mark.slow  # the prepared structure: big kernels to compile and world-size sweeps


def _close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-9 * max(1.0, abs(b))


@pytest.mark.parametrize("labels", [False, True])
@pytest.mark.parametrize("core, seed", [(40, 1), (300, 2), (10_000, 3)])
def test_core_astar_equals_dijkstra_on_a_generated_board(monkeypatch, core, seed, labels):
    # the core's two ways: A* with landmark bounds, hub labels
    monkeypatch.setattr(prep, "LABEL_CORE_MAX", prep.LABEL_CORE_MAX if labels else 0)
    monkeypatch.setattr(prep, "LABEL_BYTES", 1 << 20)
    m = wargrid.generate(36, 30, kind="hex", seed=seed)
    f = m.cost_field(unit="foot")
    pp = prepare(m.grid, f, progress=False, core=core)
    assert (pp.upward.out_hub.shape[0] > 0) == labels
    topo = m.grid.topology
    rng = np.random.default_rng(seed)
    cells = [c for c in m.grid.cells() if math.isfinite(f.cell[topo.padded_id(*c)])]
    for _ in range(12):
        a = cells[int(rng.integers(len(cells)))]
        field = m.distance_field(a, unit="foot")
        for _ in range(15):
            b = cells[int(rng.integers(len(cells)))]
            want = field[b[1], b[0]]
            p = pp.path(f, topo.padded_id(*a), topo.padded_id(*b))
            d = pp.distance(f, topo.padded_id(*a), topo.padded_id(*b))
            if not math.isfinite(want):
                assert p is None and d == math.inf
            else:
                assert _close(p.cost, want) and _close(d, want) and p.cells[0] == a and p.cells[-1] == b
    if not labels:  # the A* leaves its scratch as it found it: every cost inf, every node out of the heap
        scratch = pp._state().core(pp.upward.core_ids.shape[0])
        assert np.all(scratch.cost == np.inf) and np.all(scratch.pos == -1)


def test_landmark_bounds_are_lower_bounds_of_the_core_costs():
    m = wargrid.generate(24, 20, kind="hex", seed=4)
    f = m.cost_field(unit="foot")
    pp = prepare(m.grid, f, progress=False, core=120)
    k = prep._kernels()
    topo = m.grid.topology
    in_core, cidx, dl = pp.upward.in_core, pp.upward.core_index, prep.landmark_costs(pp.upward)
    core = np.flatnonzero(in_core)
    nl = prep.LABEL_LANDMARKS if pp.upward.out_first.shape[0] else prep.LANDMARKS  # a labelled core keeps fewer
    cids = pp.upward.core_ids
    assert dl.shape == (core.size, nl) and np.array_equal(np.sort(cids), core)
    assert np.array_equal(cidx[cids], np.arange(core.size))
    # a goal in the core: its only backward seed is itself, at cost 0; the bound from every core node is below Dijkstra's
    goal = int(core[7])
    lm = Landmarks(pp.upward.landmarks, *pp.upward.landmark_scale.tolist())
    x = k.landmark_bounds(np.array([goal]), 1, np.zeros(in_core.size), cidx, lm)
    goal_cell = cells_of(topo, np.array([goal]))[0]
    for v in core[:40]:
        want = m.distance_field(cells_of(topo, np.array([v]))[0], unit="foot")[goal_cell[1], goal_cell[0]]
        r = cidx[v]
        bound = max([0.0] + [x[l] - dl[r, l] for l in range(x.shape[0]) if math.isfinite(dl[r, l]) and math.isfinite(x[l])])
        assert bound <= want + 1e-9


def _bound_oracle(costs: list[float], x: list[float], to_goal: bool) -> float:
    """The landmark bound in plain floats: to the goal ``max(0, x_l - cost_l)``, from the start ``max(0, cost_l - x_l)``."""
    h = 0.0
    for c, a in zip(costs, x):
        if to_goal:
            if math.isinf(c):
                continue
            if math.isinf(a):
                return math.inf  # the landmark reaches the node but not the goal
            h = max(h, a - c)
        else:
            if math.isinf(a):
                continue
            if math.isinf(c):
                return math.inf  # the landmark reaches the start but not the node
            h = max(h, c - a)
    return h


@pytest.mark.slow
@settings(max_examples=300)
@given(st.integers(1, 70), st.sampled_from([1.0, 0.5, 0.25]), st.booleans(), st.data())
def test_landmark_units_bounds_match_the_float_formula(nl: int, unit: float, whole: bool, data: st.DataObject) -> None:
    k = prep._ch_core()
    codes = data.draw(st.lists(st.one_of(st.integers(0, 65534), st.just(65535)), min_size=nl, max_size=nl))
    steps = st.integers(0, 200_000) if whole else st.floats(0, 50_000, allow_nan=False)
    x = data.draw(st.lists(st.one_of(steps, st.just(math.inf)), min_size=nl, max_size=nl))
    x = [v * unit if whole and math.isfinite(v) else float(v) for v in x]
    costs = [math.inf if c == 65535 else c * unit for c in codes]
    packed = Landmarks(np.array([codes], dtype=np.uint16), unit, 65535.0)
    floats = Landmarks(np.array([costs], dtype=np.float32), 1.0, math.inf)
    for to_goal, bound in ((True, k.lower_to_goal), (False, k.lower_from_start)):
        want = _bound_oracle(costs, x, to_goal)
        got = bound(0, k.landmark_units(np.array(x), packed, not to_goal), packed)
        assert got == want if whole or math.isinf(want) else want - unit <= got <= want  # whole units: exact
        assert bound(0, k.landmark_units(np.array(x), floats, not to_goal), floats) == want


@given(st.integers(0, 6))
def test_hilbert_index_walks_the_square_one_step_at_a_time(k: int) -> None:
    n = 1 << k
    y, x = np.divmod(np.arange(n * n), n)
    d = prep.hilbert_index(x, y)
    order = np.argsort(d)
    assert np.array_equal(np.sort(d), np.arange(n * n))  # a numbering of the square
    assert np.all(np.abs(np.diff(x[order])) + np.abs(np.diff(y[order])) == 1)  # each next cell a neighbour


def test_the_core_is_numbered_along_the_hilbert_curve():
    m = wargrid.generate(40, 34, kind="hex", seed=2)
    pp = prepare(m.grid, m.cost_field(unit="foot"), progress=False, core=200)
    cids = pp.upward.core_ids.astype(np.int64)
    pw = m.grid.topology.pw
    assert np.all(np.diff(prep.hilbert_index(cids % pw, cids // pw)) > 0)


def test_weights_are_narrowed_only_when_exact():
    g = SquareGrid(6, 6, diagonal=True)
    c = np.ones((6, 6))
    diag = prepare(g, costs_of(g, c, None), progress=False)
    assert diag.upward.w_out.dtype == np.float64  # sqrt(2) steps: float32 would round them
    plain = prepare(SquareGrid(6, 6), costs_of(SquareGrid(6, 6), 2 * c, None), progress=False)
    assert plain.upward.w_out.dtype == np.float32 and plain.upward.first.dtype == np.int32
    assert prep._narrow(np.array([0.1, 1.0])).dtype == np.float64
    assert prep._narrow(np.array([0.5, np.inf])).dtype == np.float32


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_follows_the_library_convention(monkeypatch):
    m = wargrid.generate(20, 16, kind="hex", seed=2)
    with pytest.raises(TypeError, match="progress"):
        m.prepare(unit="foot", progress=3)
    out = _Terminal()
    monkeypatch.setattr(sys, "stderr", out)
    prepare(m.grid, m.cost_field(unit="foot"), progress=False)
    prepare(m.grid, m.cost_field(unit="foot"), progress=None)
    assert out.getvalue() == ""  # silent even on a terminal
    seen = []
    prepare(m.grid, m.cost_field(unit="foot"), progress=lambda done, total: seen.append((done, total)), core=30)
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1] and [d for d, _ in seen] == sorted(d for d, _ in seen)


@pytest.mark.parametrize("n_src, n_tgt", [(4, 9), (9, 4)])
def test_tables_cross_the_core_from_the_shorter_list(n_src, n_tgt):
    m = wargrid.generate(30, 26, kind="hex", seed=6)
    f = m.cost_field(unit="foot")
    pp = prepare(m.grid, f, progress=False, core=60)
    rng = np.random.default_rng(n_src)
    cells = list(m.grid.cells())
    src = [cells[int(i)] for i in rng.choice(len(cells), n_src, replace=False)]
    tgt = [cells[int(i)] for i in rng.choice(len(cells), n_tgt, replace=False)]
    got = prep.distance_table(m.grid, f, src, tgt, prepared=pp)
    assert got.shape == (n_src, n_tgt)
    for i, a in enumerate(src):
        field = m.distance_field(a, unit="foot")
        for j, b in enumerate(tgt):
            want = 0.0 if a == b else field[b[1], b[0]]
            assert _close(got[i, j], want)


@pytest.mark.parametrize("threads, ring, zero", [(1, True, False), (3, True, False), (2, False, False), (2, True, True)])
def test_table_sweeps_on_threads_with_buckets_or_a_heap(monkeypatch, threads, ring, zero):
    # threads share the rows; the bucket queue (or the heap: no ring, or zero-cost cells) gives Dijkstra's costs
    monkeypatch.setattr(prep, "THREADS", threads)
    monkeypatch.setattr(prep, "TABLE_THREAD_ARCS", 1)
    if not ring:
        monkeypatch.setattr(prep, "RING_MAX", 2)
    m = wargrid.generate(48, 40, kind="hex", seed=9)
    cost = m.costs(unit="foot").copy()
    if zero:
        cost[5:9, 3:44] = np.where(np.isfinite(cost[5:9, 3:44]), 0.0, np.inf)
    f = costs_of(m.grid, cost, None)
    pp = prepare(m.grid, f, progress=False, core=600)
    width, _ = pp._ring(False)
    assert (width > 0) == (ring and not zero)
    rng = np.random.default_rng(threads)
    cells = list(m.grid.cells())
    src = [cells[int(i)] for i in rng.choice(len(cells), 21, replace=False)]
    tgt = [cells[int(i)] for i in rng.choice(len(cells), 30, replace=False)] + [src[0]]
    got = prep.distance_table(m.grid, f, src, tgt, prepared=pp)
    want = prep._dijkstra_table(f, prep._cell_list(m.grid, src, "sources"), prep._cell_list(m.grid, tgt, "targets"))
    assert got.shape == want.shape and np.array_equal(np.isinf(got), np.isinf(want))
    assert np.allclose(got[np.isfinite(want)], want[np.isfinite(want)], rtol=1e-12, atol=0)
    assert got[0, -1] == 0.0


@pytest.mark.parametrize("dl, unit, packed", [
    (np.array([[0.0, 1.5], [np.inf, 1800.0]]), 0.5, True),
    (np.array([[0.0, 3.0], [np.inf, 7.0]]), 1.0, True),
    (np.array([[0.0, 0.1], [np.inf, 2.0]]), 1.0, False),  # not a multiple of a power of two
    (np.array([[0.0, 70000.0], [1.0, 2.0]]), 1.0, False),  # too large for 16 bits
])
def test_landmark_costs_pack_into_16_bits_only_when_exact(dl, unit, packed):
    dlp, lq = prep._pack_landmarks(dl)
    assert (dlp.dtype == np.uint16) == packed and lq[0] == unit
    back = prep.landmark_costs(Upward(*[np.empty(0)] * len(Upward._fields))._replace(landmarks=dlp, landmark_scale=lq))
    assert np.array_equal(back, dl)


def test_landmark_costs_are_the_boards():
    # the landmarks' costs come from sweeps over the core: they must be the board's own costs
    m = wargrid.generate(26, 22, kind="hex", seed=5)
    f = m.cost_field(unit="foot")
    pp = prepare(m.grid, f, progress=False, core=90)
    topo = m.grid.topology
    cids, dl = pp.upward.core_ids, prep.landmark_costs(pp.upward)
    cells = cells_of(topo, cids.astype(np.int64))
    for l in range(dl.shape[1]):
        at = np.flatnonzero(dl[:, l] == 0.0)
        assert at.size == 1
        field = m.distance_field(cells[int(at[0])], unit="foot")
        want = np.array([field[y, x] for x, y in cells])
        assert np.array_equal(np.isinf(want), np.isinf(dl[:, l]))
        assert np.allclose(dl[:, l][np.isfinite(want)], want[np.isfinite(want)], rtol=1e-9, atol=0)


@pytest.mark.parametrize("slack", [-1.0, 0.0, 0.03, 10.0])
def test_repair_after_raised_costs_equals_dijkstra(monkeypatch, slack):
    # the repair's core bounds: none settled exactly (slack -1), some, or every core node the start reaches
    monkeypatch.setattr(prep, "REPAIR_SLACK", slack)
    m = wargrid.generate(36, 30, kind="hex", seed=7)
    pp = prepare(m.grid, m.cost_field(unit="foot"), progress=False, core=150)
    rng = np.random.default_rng(11)
    cells = list(m.grid.cells())
    m.set_terrain([cells[int(i)] for i in rng.choice(len(cells), 40, replace=False)], "water")
    f = m.cost_field(unit="foot")
    assert pp.drift(f).raised_only and not pp.drift(f).clean
    topo = m.grid.topology
    open_cells = [c for c in cells if math.isfinite(f.cell[topo.padded_id(*c)])]
    repaired = 0
    for _ in range(10):
        a = open_cells[int(rng.integers(len(open_cells)))]
        field = m.distance_field(a, unit="foot")
        for _ in range(12):
            b = open_cells[int(rng.integers(len(open_cells)))]
            before = pp.fallback_seconds
            p = pp.path(f, topo.padded_id(*a), topo.padded_id(*b))
            repaired += pp.fallback_seconds > before
            want = field[b[1], b[0]]
            if not math.isfinite(want):
                assert p is None
            else:
                assert _close(p.cost, want) and p.cells[0] == a and p.cells[-1] == b
    assert repaired > 20  # most answers went through the repair


@pytest.mark.parametrize("diagonal", [False, True])
def test_a_clean_paths_cost_is_its_walk_bit_for_bit(diagonal):
    # the unpacked steps' weights, added in path order, are exactly what walking the path over the field gives
    g = SquareGrid(24, 20, diagonal=diagonal)
    rng = np.random.default_rng(11)
    cost = np.round(rng.uniform(0.1, 3.0, size=g.shape), 1)  # tenths: float sums that depend on their order
    cost[rng.random(g.shape) < 0.1] = np.inf
    f = costs_of(g, cost, None)
    pp = prepare(g, f, progress=False, core=60)
    topo = g.topology
    k = prep._kernels()
    cells = [c for c in g.cells() if math.isfinite(cost[c[1], c[0]])]
    seen = 0
    for a in cells[::17]:
        for b in cells[::13]:
            p = pp.path(f, topo.padded_id(*a), topo.padded_id(*b))
            if p is None or a == b:
                continue
            ids = np.array([topo.padded_id(*c) for c in p.cells])
            assert p.cost == float(k.walk_cost(ids, f.cell, f.edge, prep.topo_bundle(topo)))
            seen += 1
    assert seen > 100


def test_shortcut_halves_point_at_the_middles_arcs():
    m = wargrid.generate(30, 26, kind="hex", seed=12)
    pp = prepare(m.grid, m.cost_field(unit="foot"), progress=False, core=40)
    up = pp.upward
    first, ucnt, un, uvo, uvi = (np.asarray(a) for a in (up.first, up.count, up.head, up.mid_out, up.mid_in))
    ho, hi = np.asarray(up.half_out), np.asarray(up.half_in)
    assert ho.shape == hi.shape == (un.shape[0], 2) and ho.dtype == np.uint8
    checked = 0
    for x in range(first.shape[0]):
        for e in range(first[x], first[x] + ucnt[x]):
            y = un[e]
            for via, h, a, b in ((uvo[e], ho[e], x, y), (uvi[e], hi[e], y, x)):
                if via < 0:
                    continue
                # the walk a -> b through the middle: the middle's arc to a, then its arc to b
                assert un[first[via] + h[0]] == a and un[first[via] + h[1]] == b
                checked += 1
    assert checked > 100


def test_upward_arrays_are_packed_records():
    m = wargrid.generate(20, 16, kind="hex", seed=2)
    up = prepare(m.grid, m.cost_field(unit="foot"), progress=False).upward
    assert {a.strides for a in (up.first, up.count, up.in_core)} == {(7,)}  # 7 bytes a node
    assert {a.strides[0] for a in (up.head, up.w_out, up.w_in, up.mid_out, up.mid_in, up.half_out, up.half_in)} == {24}
    assert up.count.dtype == np.uint16


@pytest.mark.slow
@pytest.mark.parametrize("batch", [1, 7, 256])
def test_the_hierarchy_is_the_same_on_any_number_of_threads(monkeypatch, batch):
    # each candidate's witness searches do not depend on the thread that runs them: arc for arc the same
    monkeypatch.setattr(prep, "BATCH", batch)
    monkeypatch.setattr(prep, "CONTRACT_THREAD_NODES", 1)
    m = wargrid.generate(40, 34, kind="hex", seed=4)
    f = m.cost_field(unit="foot")
    built = []
    for threads in (1, 2, 3):
        monkeypatch.setattr(prep, "THREADS", threads)
        built.append(prepare(m.grid, f, progress=False, core=50))
    for other in built[1:]:
        assert other.arcs == built[0].arcs
        for a, b in zip(built[0].upward, other.upward):
            assert np.array_equal(a, b)
    topo = m.grid.topology
    cells = [c for c in m.grid.cells() if math.isfinite(f.cell[topo.padded_id(*c)])]
    field = m.distance_field(cells[0], unit="foot")
    for b in cells[::37]:
        assert _close(built[1].distance(f, topo.padded_id(*cells[0]), topo.padded_id(*b)), field[b[1], b[0]])


def test_a_batch_holds_no_two_neighbours_and_loses_no_node():
    k = prep._kernels()
    m = wargrid.generate(24, 20, kind="square", seed=5)
    f = m.cost_field(unit="foot")
    topo = m.grid.topology
    n = topo.padded_size
    start, cnt, cap = (np.empty(n, dtype=np.int64) for _ in range(3))
    pool, top = k.build_graph(f.cell, f.edge, prep.topo_bundle(topo), start, cnt, cap)
    pq = (np.empty(n), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.zeros(3, dtype=np.int64))
    rng = np.random.default_rng(0)
    total = k.order_init(n, f.cell, rng.random(n), pq)
    size = 40
    unused = np.empty(0)
    bt = (np.empty(2 * size, dtype=np.int64), np.empty(2 * size), np.zeros(n, dtype=np.int64),
          np.zeros(1, dtype=np.int64), unused, unused, unused, unused, np.full(size, -1, dtype=np.int64))
    nc = k.batch_pick((start, cnt, cap, pool, top), pq, bt, size, total, 3)
    cand = set(bt[0][:nc].tolist())
    assert nc == size and len(cand) == nc
    weight = np.array([cnt[v] * (cnt[v] + 8) for v in bt[0][:nc]])
    load = np.bincount(bt[8][:nc], weights=weight, minlength=3)
    assert set(bt[8][:nc].tolist()) == {0, 1, 2} and load.max() - load.min() <= weight.max()  # shared evenly
    assert int(pq[3][0]) + nc == total  # the nodes set aside went back
    for v in cand:
        assert not cand & set(pool[0][start[v]:start[v] + cnt[v]].tolist())
    keys = bt[1][:nc]
    assert np.all(np.diff(keys) >= 0)  # taken from the queue's front, in order
    assert np.min(pq[0][:pq[3][0]]) >= keys[0]
    assert k.batch_pick((start, cnt, cap, pool, top), pq, bt, size, 3, 1) == 3  # never past what may be contracted
    assert not bt[8][:3].any()


def test_landmark_costs_by_buckets_equal_those_by_a_heap(monkeypatch):
    m = wargrid.generate(40, 34, kind="hex", seed=5)
    pp = prepare(m.grid, m.cost_field(unit="foot"), progress=False, core=300)
    cf, cnb, cwo = pp.upward.core_first, pp.upward.core_head, pp.upward.core_w_out
    assert prep._ring_of(cwo)[0] > 0.0  # whole terrain costs: the bucket sweeps
    by_buckets = prep._landmarks(cf, cnb, cwo, 12)
    monkeypatch.setattr(prep, "RING_MAX", 1)  # no ring fits: the heap sweeps
    assert prep._ring_of(cwo) == (0.0, 1)
    by_heap = prep._landmarks(cf, cnb, cwo, 12)
    assert np.array_equal(by_buckets, by_heap) and np.isfinite(by_heap).any()
