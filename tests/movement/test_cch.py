"""Customizable prepared queries (``wargrid.movement.cch``): every answer equals Dijkstra's, before and after
random edits, on every board kind; classes share one structure."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movement_oracle import boards, costs_of, dijkstra, grids, moves, path_cost
from test_prepared import _check_map, _edit, _random_map
from wargrid import HexGrid, Map, SquareGrid, Terrain, TerrainTable
from wargrid._kernels._jit import jit
from wargrid._kernels.movement.cch.query import _lower as _lower_arcs
from wargrid._kernels.movement.cch.update import _gallop, _lower, _mirror
from wargrid._kernels.movement.steps import walk_cost
from wargrid.costs import CostField
from wargrid._kernels.movement.cch import depths, find_arc
from wargrid.movement.cch import CustomizedPaths, _exact32, _fits32, _inputs, _listed, _metric, _with_middles, customized, structure

pytestmark = pytest.mark.slow  # the customizable structure's kernels compile for tens of seconds from cold

INF = math.inf


def _close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-9 * max(1.0, abs(b))


def _check(g, cost, e, cp, f, paths=True, close=_close):
    topo = g.topology
    cells = list(g.cells())
    for a in cells:
        if not math.isfinite(cost[a[1], a[0]]):
            continue
        want = dijkstra(g, cost, [a], e)
        for b in cells:
            if a == b or not math.isfinite(cost[b[1], b[0]]):
                continue
            d = cp.distance(f, topo.padded_id(*a), topo.padded_id(*b))
            assert close(d, want.get(b, INF))
            if not paths:  # (the distances alone: a class that has answered no path yet)
                continue
            p = cp.path(f, topo.padded_id(*a), topo.padded_id(*b))
            if b not in want:
                assert p is None
                continue
            assert close(p.cost, want[b])
            assert p.cells[0] == a and p.cells[-1] == b and len(set(p.cells)) == len(p.cells)
            assert close(path_cost(g, cost, e, p.cells), want[b])
            steps = np.array([topo.padded_id(*c) for c in p.cells], dtype=np.int64)
            assert p.cost == walk_cost(steps, f.cell, f.edge, topo.kernel_bundle)  # the walk's own sum, bit for bit
    src, tgt = cells[::2], cells[::3]
    ids = lambda cs: np.array([topo.padded_id(*c) for c in cs], dtype=np.int64)  # noqa: E731
    got = cp.table(f, ids(src), ids(tgt))
    for i, a in enumerate(src):
        want = dijkstra(g, cost, [a], e) if math.isfinite(cost[a[1], a[0]]) else {}
        for j, b in enumerate(tgt):
            assert close(got[i, j], 0.0 if a == b else want.get(b, INF))


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(board=boards(max_side=7), data=st.data())
def test_every_answer_equals_dijkstra_before_and_after_edits(board, data):
    g, cost, e = board
    f = costs_of(g, cost, e)
    cp = customized(g, f)
    if data.draw(st.booleans()):
        cp.build_query_arcs()  # the perfect customization's query arcs (else every arc, until queries paid for them)
    _check(g, cost, e, cp, f)
    for _ in range(data.draw(st.integers(1, 3))):
        cost = cost.copy()
        cells = list(g.cells())
        for c in data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3)):
            cost[c[1], c[0]] = data.draw(st.sampled_from([1.0, 2.0, 0.5, INF]))
        f = costs_of(g, cost, e)
        _check(g, cost, e, cp, f)


def _metric_holds(cp, f):
    """``cp``'s metric equals a fresh customization of ``f`` (a symmetric one's single column: both ways' sum),
    every middle gives its arc's weight, and (once edited) each arc's count of the directions it is a leg of at
    their middle is right."""
    fresh = _with_middles(cp.structure, _metric(cp.structure, f)[0], f)
    mt, s = cp._middles(), cp.structure
    one = (lambda x: x.sum(axis=1, keepdims=True)) if fresh.inp.shape[1] < mt.inp.shape[1] else (lambda x: x)
    assert np.array_equal(one(mt.inp), fresh.inp)
    assert np.array_equal(one(mt.weight), fresh.weight)
    c1 = mt.weight.shape[1] - 1
    legs = np.zeros(s.up_head.shape[0], dtype=np.int64)
    for a in range(s.up_head.shape[0]):
        u, x = int(s.tails[a]), int(s.up_head[a])
        for d in range(c1 + 1):
            v = int(mt.middle[a, d])
            if not math.isfinite(mt.weight[a, d]):
                continue
            if v < 0:
                assert s.arc_slot[a] >= 0 and mt.inp[s.arc_slot[a], d] == mt.weight[a, d]
                continue
            e, g = find_arc(v, u, s.up_first, s.up_head), find_arc(v, x, s.up_first, s.up_head)
            assert e >= 0 and g >= 0
            got = mt.weight[e, c1] + mt.weight[g, 0] if d == 0 else mt.weight[g, 1] + mt.weight[e, 0]
            assert got == mt.weight[a, d]
            legs[[e, g]] += 1
    assert cp._down is None or np.array_equal(cp._down[1], legs)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(["hex", "square8"]), data=st.data())
def test_partial_customization_equals_a_fresh_one(kind, data):
    # whole-number costs make many triangles tie: a rise then often keeps the weight through another support
    g = HexGrid(11, 9) if kind == "hex" else SquareGrid(9, 8, diagonal=True, corner_rule="no-obstacle")
    h, w = g.height, g.width
    cost = np.array(data.draw(st.lists(st.sampled_from([1.0, 2.0, 3.0]), min_size=h * w, max_size=h * w))).reshape(h, w)
    cp = customized(g, CostField.from_arrays(g, cost))
    cells = [(x, y) for y in range(h) for x in range(w)]
    for _ in range(data.draw(st.integers(1, 6))):
        cost = cost.copy()
        for c in data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=4)):
            cost[c[1], c[0]] = data.draw(st.sampled_from([1.0, 2.0, 3.0, 0.5, INF]))
        f = CostField.from_arrays(g, cost)
        cp.sync(f)
        _metric_holds(cp, f)
    t = g.topology
    want = dijkstra(g, cost, [(0, 0)], None) if math.isfinite(cost[0, 0]) else {}
    for b in cells[1:]:
        d = cp.distance(f, t.padded_id(0, 0), t.padded_id(*b))
        assert _close(d, want.get(b, INF))


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(kind=st.sampled_from(["hex", "square8"]), mode=st.sampled_from(["open", "close", "toggle", "mixed"]),
       data=st.data())
def test_edits_that_open_close_or_repeat_cells_then_pickle(kind, mode, data):
    # only openings (costs fall), only closings (rise), one cell closed and opened again, or both; a pickled
    # class goes on from where it was (its down-order copy rebuilt at its next edit): the metric equals a fresh
    # customization after every edit, the down-order copy equals the weights, every distance Dijkstra's
    g = HexGrid(10, 8) if kind == "hex" else SquareGrid(8, 7, diagonal=True, corner_rule="no-obstacle")
    h, w = g.height, g.width
    cells = [(x, y) for y in range(h) for x in range(w)]
    start = INF if mode == "open" else 1.0
    cost = np.array(data.draw(st.lists(st.sampled_from([1.0, 2.0, start]), min_size=h * w, max_size=h * w)))
    cost = cost.reshape(h, w)
    cp = customized(g, CostField.from_arrays(g, cost))
    s = cp.structure
    picked = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3, unique=True))
    for step in range(data.draw(st.integers(1, 5))):
        cost = cost.copy()
        for c in picked if mode == "toggle" else data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3)):
            now = cost[c[1], c[0]]
            if mode == "open":
                cost[c[1], c[0]] = data.draw(st.sampled_from([v for v in (0.5, 1.0, 2.0) if v < now] or [now]))
            elif mode == "close":
                cost[c[1], c[0]] = data.draw(st.sampled_from([v for v in (2.0, 3.0, INF) if v > now] or [now]))
            elif mode == "toggle":
                cost[c[1], c[0]] = 1.0 if now == INF else INF
            else:
                cost[c[1], c[0]] = data.draw(st.sampled_from([0.5, 1.0, 3.0, INF]))
        f = CostField.from_arrays(g, cost)
        cp.sync(f)
        _metric_holds(cp, f)
        assert cp._down is None or np.array_equal(cp._down[0], cp.metric.weight[s.down_arc])  # (none: unedited since)
        if data.draw(st.booleans()):
            cp = pickle.loads(pickle.dumps(cp))
            s = cp.structure
    t = g.topology
    for a in cells[:: max(1, len(cells) // 6)]:
        if not math.isfinite(cost[a[1], a[0]]):
            continue
        want = dijkstra(g, cost, [a], None)
        for b in cells:
            if b != a and math.isfinite(cost[b[1], b[0]]):
                assert _close(cp.distance(f, t.padded_id(*a), t.padded_id(*b)), want.get(b, INF))


def _customized_by_hand(s, inp):
    """The oracle of a customization: every lower triangle ``v < u < x`` relaxed in increasing ``u``, then ``v``,
    an arc keeping the first middle that gives its least weight (Python floats: the metric's sums are exact)."""
    n = s.parent.shape[0]
    arc = {(int(s.tails[a]), int(s.up_head[a])): a for a in range(s.up_head.shape[0])}
    below = [[] for _ in range(n)]
    for (v, u) in arc:
        below[u].append(v)
    slot, c1 = s.arc_slot, inp.shape[1] - 1  # (one column: a symmetric metric, both ways' sum)
    w = [[float(inp[slot[a], d & c1]) if slot[a] >= 0 else INF for d in range(2)] for a in range(slot.shape[0])]
    mid = [[-1, -1] for _ in range(slot.shape[0])]
    for u in range(n):
        for v in sorted(below[u]):
            b = arc[v, u]
            for x in [int(h) for h in s.up_head[s.up_first[v]:s.up_first[v + 1]] if h > u]:
                a, a2 = arc[u, x], arc[v, x]
                if w[b][c1] + w[a2][0] < w[a][0]:
                    w[a][0], mid[a][0] = w[b][c1] + w[a2][0], v
                if w[a2][c1] + w[b][0] < w[a][1]:
                    w[a][1], mid[a][1] = w[a2][c1] + w[b][0], v
    return np.array(w)[:, :c1 + 1], np.array(mid)[:, :c1 + 1]


def _split_board(g, data):
    """``(cost, structure)``: drawn costs on ``g`` and its structure, whose first cut's halves and the ranks above
    them all hold nodes (what the two threads split)."""
    cost = np.array(data.draw(st.lists(st.sampled_from([1.0, 2.0, 3.0, INF]), min_size=g.height * g.width,
                                       max_size=g.height * g.width))).reshape(g.height, g.width)
    s = structure(g.topology)
    a, b = (int(x) for x in s.parts)
    assert 0 < a < b < s.parent.shape[0]
    return cost, s


@settings(max_examples=15, deadline=None)
@given(kind=st.sampled_from(["hex", "square8"]), data=st.data())
def test_customization_on_two_threads_equals_the_oracle(kind, data):
    # the first cut's halves and the ranks above them split over two threads: the same weights and middles
    g = HexGrid(11, 9) if kind == "hex" else SquareGrid(9, 8, diagonal=True, corner_rule="no-obstacle")
    cost, s = _split_board(g, data)
    f = CostField.from_arrays(g, cost)
    mt = _with_middles(s, _metric(s, f)[0], f)
    want_w, want_mid = _customized_by_hand(s, mt.inp)
    assert np.array_equal(mt.weight.astype(np.float64), want_w)
    assert np.array_equal(mt.middle, want_mid)


@settings(max_examples=15, deadline=None)
@given(kind=st.sampled_from(["hex", "square8"]), data=st.data())
def test_perfect_customization_gives_every_arc_its_ends_true_distance(kind, data):
    # the kernel's oracle: each arc finite (one way at least) when customized gets the cheapest path between its two
    # cells (a symmetric metric: both ways' sum); a way inf when customized is never kept (an arc inf both ways: its
    # triangles skipped); a query over the kept arc directions alone still answers exactly (checked above)
    from wargrid.movement.cch import _halves, _k

    g = HexGrid(9, 7) if kind == "hex" else SquareGrid(8, 7, diagonal=True, corner_rule="no-obstacle")
    cost, s = _split_board(g, data)
    wt = _metric(s, CostField.from_arrays(g, cost))[0].weight.copy()
    was = np.isfinite(wt)
    before = was.any(axis=1)
    keep = np.full(wt.shape[0], 3, dtype=np.uint8)
    _halves(_k().perfect, s, (wt, keep, data.draw(st.booleans())), lowest=True)
    for d in range(wt.shape[1]):
        assert not (np.isfinite(wt[:, d]) & (keep & (1 << d) > 0))[~was[:, d]].any()
    pw = g.topology.pw
    xy = [(int(c % pw) - 1, int(c // pw) - 1) for c in s.cell_of]
    dist = {a: dijkstra(g, cost, [a], None) for a in xy if math.isfinite(cost[a[1], a[0]])}
    for a in np.flatnonzero(before):
        p, q = xy[int(s.tails[a])], xy[int(s.up_head[a])]
        up, down = dist.get(p, {}).get(q, INF), dist.get(q, {}).get(p, INF)
        want = [up, down] if wt.shape[1] == 2 else [up + down]
        assert all(_close(float(x), y) for x, y in zip(wt[a], want))  # (square-8: sums of sqrt 2 in any order)


def test_perfect_customization_keeps_its_claim_with_one_way_steps():
    # a directed (two-column) metric: an arc inf both ways when customized can be the leg another arc's true distance
    # needs (a one-way step), so its triangles are not skipped there; skipped, arc (3, 1) -> (0, 2) ended at 4.828
    from wargrid.movement.cch import _halves, _k

    g = SquareGrid(6, 7, diagonal=True, corner_rule="always", wrap_x=True)
    cost = np.ones((7, 6))
    cost[0, 2] = cost[1, [0, 2, 4, 5]] = cost[2, 2] = INF
    cost[2, 5] = 3.0
    e = np.zeros((7, 6, 8))
    e[2, 0, 1] = e[2, 4, 3] = INF  # two one-way steps (a river)
    cp = customized(g, CostField.from_arrays(g, cost, e))
    s, w = cp.structure, cp._weighted().weight.copy()
    assert w.shape[1] == 2
    before = np.isfinite(w).any(axis=1)
    _halves(_k().perfect, s, (w, np.full(w.shape[0], 3, dtype=np.uint8), bool(w.min() > 0)), lowest=True)
    pw = g.topology.pw
    xy = [(int(c % pw) - 1, int(c // pw) - 1) for c in s.cell_of]
    dist = {a: dijkstra(g, cost, [a], e) for a in xy}
    for a in np.flatnonzero(before):
        p, q = xy[int(s.tails[a])], xy[int(s.up_head[a])]
        want = [dist[p].get(q, INF), dist[q].get(p, INF)]
        assert all(_close(float(x), y) for x, y in zip(w[a], want)), (p, q, w[a], want)


def _holed(g):
    yy, xx = np.mgrid[:g.height, :g.width]
    return g.with_mask(((xx - 12) ** 2 + (yy - 9) ** 2 > 25) & ((xx - 30) ** 2 + (yy - 20) ** 2 > 40) & (xx != 20))


@pytest.mark.parametrize("g", [_holed(HexGrid(41, 30)), _holed(SquareGrid(41, 30)), SquareGrid(40, 13, wrap_x=True),
                               _holed(SquareGrid(41, 30, diagonal=True)), HexGrid(40, 30, orientation="pointy")])
def test_the_order_ranks_every_cell_once_and_no_arc_joins_the_first_cut(g):
    s = structure(g.topology)
    m = s.parent.shape[0]
    assert m == np.count_nonzero(g.mask) and np.array_equal(np.sort(s.rank_of[s.rank_of >= 0]), np.arange(m))
    a, b = (int(x) for x in s.parts)
    assert 0 < a < b <= m
    low, high = s.tails, s.up_head
    assert not np.any((low < a) & (high >= a) & (high < b))  # the halves: two threads customize them apart
    again = structure(g.topology)
    assert all(np.array_equal(x, y) for x, y in zip(s, again))  # deterministic


def test_square4_boards_are_cut_along_diagonals():
    # cells that touch at corners separate a 4-direction board: 13.4 arcs a cell on 64² (20.5 by rows and columns)
    s = structure(SquareGrid(64, 64).topology)
    assert s.up_head.shape[0] < 14 * 64 * 64


def test_classes_share_the_structure_and_pickle():
    g = HexGrid(9, 7)
    c = np.ones((7, 9))
    c[:, 4] = INF
    c[3, 4] = 2.0
    shared = structure(g.topology)
    a = customized(g, CostField.from_arrays(g, c), shared=shared)
    b = customized(g, CostField.from_arrays(g, np.full((7, 9), 3.0)), shared=shared)
    assert a.structure is b.structure
    t = g.topology
    s, e = t.padded_id(0, 3), t.padded_id(8, 3)
    assert a.distance(a.costs, s, e) == 9.0 and b.distance(b.costs, s, e) == 24.0
    again = pickle.loads(pickle.dumps(a))
    p, q = again.path(again.costs, s, e), a.path(a.costs, s, e)
    assert p.cost == q.cost == 9.0 and p.cells[0] == q.cells[0] and p.cells[-1] == q.cells[-1]


def test_square8_corner_rule_and_a_wall_raised_then_opened():
    g = SquareGrid(5, 5, diagonal=True, corner_rule="no-obstacle")
    c = np.ones((5, 5))
    c[2, 1:4] = INF
    f = CostField.from_arrays(g, c)
    cp = customized(g, f)
    t = g.topology
    p = cp.path(f, t.padded_id(2, 0), t.padded_id(2, 4))
    assert p.cells[0] == (2, 0) and p.cells[-1] == (2, 4)
    assert _close(p.cost, 4 + 2 * math.sqrt(2))
    c2 = c.copy()
    c2[2, :] = INF
    f2 = CostField.from_arrays(g, c2)
    assert cp.path(f2, t.padded_id(2, 0), t.padded_id(2, 4)) is None
    assert cp.distance(f2, t.padded_id(2, 0), t.padded_id(2, 4)) == INF
    f3 = CostField.from_arrays(g, np.ones((5, 5)))
    assert cp.distance(f3, t.padded_id(2, 0), t.padded_id(2, 4)) == 4.0


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_map_prepared_for_two_classes_stays_exact_after_random_edits(data):
    g = data.draw(grids(max_side=6))
    m = _random_map(data, g)
    unit = data.draw(st.sampled_from(["foot", "cavalry"]))
    pp = m.prepare(unit=unit, progress=False)
    other = m.prepare(unit="cavalry" if unit == "foot" else "foot", progress=False)
    assert pp.structure is other.structure
    _check_map(m, unit)
    for _ in range(data.draw(st.integers(1, 3))):
        _edit(data, m)
        _check_map(m, unit)
    assert m.derived.prepared(unit) is pp or m.derived.prepared(unit).structure is not pp.structure


def test_map_prepare_shares_the_board_and_answers_after_a_bridge_falls():
    m = Map(HexGrid(9, 7))
    m.set_terrain([(4, y) for y in range(7)], "water")
    m.set_overlay([(4, 3)], "bridge")
    seen = []
    foot = m.prepare(unit="foot", progress=lambda d, t: seen.append((d, t)))
    cav = m.prepare(unit="cavalry", progress=False)
    assert foot.structure is cav.structure and seen[-1] == (2, 2)
    assert foot.bytes > 0 and foot.arcs > 0
    p = m.path((0, 3), (8, 3), unit="foot")
    assert (4, 3) in p.cells and p.cost == m.distance_field((0, 3), unit="foot")[3, 8]
    m.set_overlay([(4, 3)], None)
    assert m.path((0, 3), (8, 3), unit="foot") is None and m.distance((0, 3), (8, 3), unit="foot") == INF
    m.set_overlay([(4, 5)], "bridge")  # cheaper again: customized in as well
    q = m.path((0, 3), (8, 3), unit="foot")
    assert (4, 5) in q.cells and q.cost == m.distance_field((0, 3), unit="foot")[3, 8]
    assert m.derived.prepared("foot") is foot
    t = m.distance_table([(0, 3), (8, 6)], [(8, 3), (0, 0)], unit="foot")
    f = m.distance_field((0, 3), unit="foot")
    assert t[0].tolist() == [f[3, 8], f[0, 0]]
    assert m.prepare(unit="foot", progress=False).structure is foot.structure  # customized again, same board


@pytest.mark.parametrize("grid", [HexGrid(14, 11), SquareGrid(12, 9, diagonal=True)])
def test_legs_counted_from_middles_made_before_equal_those_counted_with_them(grid):
    # a class that answered a path before its first edit has its middles: the edit counts their legs from them
    # (``count_legs``) instead of making them again; the counts are those the middles kernel makes with them
    m = Map(grid)
    m.set_terrain([(4, y) for y in range(2, 9)], "water")
    pp = m.prepare(unit="foot", progress=False)
    assert m.path((0, 0), (10, 8), unit="foot") is not None and pp.metric.middle.shape[0] > 0
    _, cnt = pp._edits_ready()
    fresh = np.zeros_like(cnt)
    _with_middles(pp.structure, pp.metric._replace(middle=np.empty((0, 2), dtype=np.int32)), pp.costs, fresh)
    assert cnt.sum() > 0 and np.array_equal(cnt, fresh)


def test_edits_prepared_ahead_answer_as_edits_that_make_their_copy_themselves():
    rng = np.random.default_rng(5)
    maps = [Map(HexGrid(12, 10)), Map(HexGrid(12, 10))]
    for m in maps:
        m.set_terrain([(5, y) for y in range(10)], "water")
    ahead, lazy = (m.prepare(unit="foot", progress=False) for m in maps)
    before = ahead.bytes
    ahead.prepare_edits()
    ahead.prepare_edits()  # once is enough: the second call keeps the first's copy
    assert before == lazy.bytes and lazy.metric.inp.shape[0] == 0  # the weights (or the finite arcs), no input rows
    held = 3 * ahead.metric.weight.nbytes + ahead.metric.inp.nbytes  # weights, middles, copy, the input rows made again
    held += ahead._down[1].nbytes  # the middles' legs counted
    ln = ahead._lean  # the finite arcs (a symmetric class's serve both ways: counted once)
    held += sum(int(a.nbytes) for a in {id(a): a for a in (*ln.fwd, *ln.bwd, ln.fwd_arc, ln.bwd_arc)}.values())
    assert ahead.metric.inp.shape[0] > 0 and ahead.bytes == held and lazy.bytes == before
    names = ["water", "plains", "forest", "mountains"]
    for _ in range(12):
        cells = [(int(rng.integers(12)), int(rng.integers(10))) for _ in range(2)]
        name = names[int(rng.integers(len(names)))]
        for m in maps:
            m.set_terrain(cells, name)
        a, b = (int(rng.integers(12)), int(rng.integers(10))), (int(rng.integers(12)), int(rng.integers(10)))
        want = maps[0].distance_field(a, unit="foot")[b[1], b[0]]
        got = [m.distance(a, b, unit="foot") for m in maps]
        assert got[0] == got[1] and _close(got[0], want)
        assert np.array_equal(ahead.metric.weight, lazy.metric.weight)
    again = pickle.loads(pickle.dumps(ahead))  # neither the copy nor the query arcs are pickled
    assert again.bytes == sum(int(a.nbytes) for a in again.metric) < ahead.bytes


def test_float32_weights_where_exact_and_widened_by_an_edit_that_would_round():
    assert _exact32(np.array([1.0, 3.0, 0.5, INF]), 1 + 2**10) == (0.5, 4096.0, 0.0)
    assert _exact32(np.array([1.0, 8193.0]), 1 + 2**10) == (1.0, 2.0**23, 2.0**23)  # a path's sum could round
    assert _exact32(np.array([1.0, 2.0**23]), 10) == (0.0, 0.0, 0.0)  # a step's own weight is at the bound
    assert _exact32(np.array([0.1, 1.0]), 10) == (0.0, 0.0, 0.0)  # no power-of-two quantum
    assert _exact32(np.array([INF]), 10) == (0.0, 0.0, 0.0)
    assert _fits32(np.array([2.5, INF]), 0.5, 4096.0) and not _fits32(np.array([0.25]), 0.5, 4096.0)
    assert not _fits32(np.array([4096.5]), 0.5, 4096.0)
    g = HexGrid(8, 6)
    c = np.ones((6, 8))
    c[1:5, 3] = 3.0
    c[2, 5] = INF
    f = CostField.from_arrays(g, c)
    cp = customized(g, f)
    wide = _metric(cp.structure, f)[0]
    assert cp.metric.weight.dtype == np.float32 and cp.metric.inp.dtype == np.float32
    assert np.array_equal(cp._weighted().weight, wide.weight.astype(np.float32))
    t = g.topology
    s, e = t.padded_id(0, 2), t.padded_id(7, 2)
    assert cp.distance(f, s, e) == dijkstra(g, c, [(0, 2)])[(7, 2)]
    c2 = c.copy()
    c2[2, 3] = 0.1  # no power of two divides it: float64 from here on
    f2 = CostField.from_arrays(g, c2)
    assert cp.distance(f2, s, e) == dijkstra(g, c2, [(0, 2)])[(7, 2)]
    assert cp.metric.weight.dtype == np.float64 and cp.metric.inp.dtype == np.float64
    _check(g, c2, None, cp, f2)


def test_float32_weights_checked_after_customizing_where_a_path_bound_cannot_tell():
    # 48 cells: every step at most 2 ** 23 / 47 would be exact before customizing; 200 000 is more, yet every
    # weight stored stays below 2 ** 23, so float32 holds; two walls of 4.5 M then push a stored weight over
    g = HexGrid(8, 6)
    c = np.ones((6, 8))
    c[:, 3] = 200_000.0
    f = CostField.from_arrays(g, c)
    cp = customized(g, f)
    assert cp.metric.weight.dtype == np.float32 and cp._exact == (1.0, 2.0**23, 2.0**23)
    _check(g, c, None, cp, f)
    again = pickle.loads(pickle.dumps(cp))
    assert again._exact == cp._exact and np.array_equal(again._weighted().weight, cp._weighted().weight)
    c2 = c.copy()
    c2[:, 2] = c2[:, 5] = 4_500_000.0
    f2 = CostField.from_arrays(g, c2)
    _check(g, c2, None, cp, f2)
    assert cp.metric.weight.dtype == np.float64 and cp._exact == (0.0, 0.0, 0.0)
    _metric_holds(cp, f2)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(board=boards(max_side=7), data=st.data())
def test_float32_weights_checked_after_customizing_stay_exact_through_edits(board, data):
    # step weights of mixed magnitude: past the bound a path's step count gives, often below the stored bound
    g, cost, e = board
    big = data.draw(st.lists(st.sampled_from([1.0, 150_000.0, 250_000.0, 4_500_000.0]), min_size=cost.size,
                             max_size=cost.size))
    cost = cost * np.array(big).reshape(cost.shape)
    f = costs_of(g, cost, e)
    cp = customized(g, f)
    if data.draw(st.booleans()):
        cp.build_query_arcs()
    _check(g, cost, e, cp, f)
    for _ in range(data.draw(st.integers(1, 3))):
        cost = cost.copy()
        for c in data.draw(st.lists(st.sampled_from(list(g.cells())), min_size=1, max_size=3)):
            cost[c[1], c[0]] = data.draw(st.sampled_from([1.0, 250_000.0, 4_500_000.0, INF]))
        f = costs_of(g, cost, e)
        _check(g, cost, e, cp, f)
        _metric_holds(cp, f)
        w = cp._weighted().weight
        assert not cp._exact[2] or bool(np.all((w < cp._exact[2]) | np.isinf(w)))  # the chains' check saw them all
    cp = pickle.loads(pickle.dumps(cp))
    _check(g, cost, e, cp, f)


def _walled():  # type: ignore[no-untyped-def]
    """A 9 x 7 hex board with a wall across its middle but at its ends, customized: ``(g, c, f, cp, s, e)``, ``s`` and
    ``e`` the padded ids of (0, 3) and (8, 3) on either side."""
    g = HexGrid(9, 7)
    c = np.ones((7, 9))
    c[1:6, 4] = INF
    f = CostField.from_arrays(g, c)
    return g, c, f, customized(g, f), g.topology.padded_id(0, 3), g.topology.padded_id(8, 3)


def test_query_arcs_are_built_once_queries_have_paid_for_them():
    g, c, f, cp, s, e = _walled()
    assert cp._fast is None  # customized basically: every arc answers
    want = dijkstra(g, c, [(0, 3)])[(8, 3)]
    assert cp.distance(f, s, e) == want
    cp._perfect_seconds = 0.0  # the next query over every arc pays for them
    assert cp.path(f, s, e).cost == want and cp._fast is not None and cp._fast.fwd_arc.shape[0] > 0
    assert cp.distance(f, s, e) == want and cp.table(f, np.array([s]), np.array([e]))[0, 0] == want
    cp2 = customized(g, f)
    cp2._perfect_seconds = 0.0
    assert cp2.table(f, np.array([s]), np.array([e]))[0, 0] == want and cp2._fast is not None


def test_queries_over_every_arc_run_the_query_arcs_compiled_kernels():
    # the searches over every arc take heads as depths (shared by the structure's classes), as the query arcs do: a
    # class's first queries and its later ones run the same compiled query, path and table (heads as ranks were a
    # second signature of each, compiled again once the query arcs were built)
    import numba

    from wargrid._kernels.movement import cch as kernels

    g, c, f, cp, s, e = _walled()
    cp._perfect_seconds = math.inf  # (every arc answers until the query arcs are built below)
    ends = np.array([s, e])

    def ask():  # type: ignore[no-untyped-def]
        return cp.path(f, s, e).cells, cp.distance(f, s, e), cp.table(f, ends, ends).tolist()

    first, every = ask(), cp._arcs()
    counts = [len(kn.signatures) for kn in (kernels.query, kernels.path, kernels.table)]
    assert cp._fast is None and every.fwd[1] is every.bwd[1] is customized(g, f, shared=cp.structure)._arcs().fwd[1]
    cp.build_query_arcs()
    assert cp._arcs() is cp._fast and ask() == first
    assert numba.typeof((every.fwd, every.bwd)) == numba.typeof((cp._fast.fwd, cp._fast.bwd))
    assert [len(kn.signatures) for kn in (kernels.query, kernels.path, kernels.table)] == counts
    # an edit's kernel passes column 0 and "no middle" typed as its other calls do (literals were signatures of
    # their own): one compile of each of its helpers a metric's dtype
    cp.prepare_edits()
    rise = c.copy()
    rise[3, 2] = 3.0
    for cost in (rise, c):  # a rise, then a fall (lowered at once)
        cp.sync(CostField.from_arrays(g, cost))
        assert cp.distance(cp.costs, s, e) == dijkstra(g, cost, [(0, 3)])[(8, 3)]
    for helper, w in ((_lower, 6), (_mirror, 3)):  # (w: the weights' argument; no signature: loaded from the cache)
        assert len([sig for sig in helper.signatures if sig[w].dtype == numba.from_dtype(cp.metric.weight.dtype)]) <= 1


def test_query_arcs_hold_their_heads_as_depths_on_the_chain():
    # every upward head is an ancestor in the elimination tree, so a query indexes its costs by depth
    g = HexGrid(12, 10)
    c = np.random.default_rng(5).choice([1.0, 2.0, 3.0, INF], size=(10, 12), p=[0.5, 0.25, 0.15, 0.1])
    f = CostField.from_arrays(g, c)
    cp = customized(g, f)
    cp.build_query_arcs()
    s, qa = cp.structure, cp._fast
    depth = depths(s.parent)
    assert depth.tolist() == [_depth_by_walk(v, s.parent) for v in range(s.parent.shape[0])]
    assert cp._height == int(depth.max()) + 1 and qa.fwd[1].dtype == np.uint16
    for (first, head, _), arc in ((qa.fwd, qa.fwd_arc), (qa.bwd, qa.bwd_arc)):
        for u in range(s.parent.shape[0]):
            for e in range(first[u], first[u + 1]):
                x = int(s.up_head[arc[e]])
                assert int(s.tails[arc[e]]) == u and head[e] == depth[x] and _is_ancestor(x, u, s.parent)
    t = g.topology
    cells = [cell for cell in g.cells() if math.isfinite(c[cell[1], cell[0]])]
    for a in cells[::7]:
        want = dijkstra(g, c, [a])
        for b in cells[::5]:
            if a != b:
                assert cp.distance(f, t.padded_id(*a), t.padded_id(*b)) == want.get(b, INF)


def _depth_by_walk(v, parent):
    n = 0
    while parent[v] >= 0:
        v, n = parent[v], n + 1
    return n


def _is_ancestor(x, v, parent):
    while v >= 0 and v != x:
        v = parent[v]
    return v == x


def test_a_class_asked_after_several_edits_reads_only_their_cells(monkeypatch):
    # the cost fields of classes not asked between edits are patched when next asked, and the customizable
    # class is told every edited cell at once (no comparison of whole fields)
    import wargrid.movement.cch as cch

    m = Map(HexGrid(12, 10))
    foot = m.prepare(unit="foot", progress=False)
    cav = m.prepare(unit="cavalry", progress=False)
    assert m.distance((0, 0), (11, 9), unit="cavalry") == m.distance_field((0, 0), unit="cavalry")[9, 11]

    def compared(*args):
        raise AssertionError("the fields were compared: the edited cells were not passed on")

    monkeypatch.setattr(cch, "changed_ids", compared)
    for k, (cell, name) in enumerate([((5, y), "water") for y in range(8)] + [((5, 3), "forest"), ((2, 2), "hills")]):
        m.set_terrain([cell], name)
        if k % 3 == 0:
            assert m.distance((0, 4), (11, 4), unit="foot") == m.distance_field((0, 4), unit="foot")[4, 11]
    _check_map(m, "cavalry")
    _check_map(m, "foot")
    _metric_holds(cav, m.derived.cost_field("cavalry"))
    assert m.derived.prepared("cavalry") is cav and m.derived.prepared("foot") is foot


@pytest.mark.parametrize("query_arcs", [False, True])
def test_a_long_winding_path_unpacks_in_order(query_arcs):
    # walls across the board, open at alternate ends: the path winds through every row (hundreds of cells,
    # far more arcs than the unpacking's first buffers hold)
    g = HexGrid(31, 29)
    c = np.ones((29, 31))
    for y in range(1, 29, 2):
        if y % 4 == 1:
            c[y, 1:] = INF
        else:
            c[y, :-1] = INF
    c[5, 7] = 3.0
    f = CostField.from_arrays(g, c)
    cp = customized(g, f)
    if query_arcs:
        cp.build_query_arcs()
    t = g.topology
    p = cp.path(f, t.padded_id(0, 0), t.padded_id(30, 28))
    want = dijkstra(g, c, [(0, 0)])[(30, 28)]
    assert len(p.cells) > 350 and p.cost == want and _close(path_cost(g, c, None, p.cells), want)
    assert p.cells[0] == (0, 0) and p.cells[-1] == (30, 28) and len(set(p.cells)) == len(p.cells)
    steps = np.array([t.padded_id(*cell) for cell in p.cells], dtype=np.int64)
    assert p.cost == walk_cost(steps, f.cell, f.edge, t.kernel_bundle)


@pytest.mark.parametrize("query_arcs", [False, True])
def test_paths_through_steps_that_weigh_nothing(query_arcs):
    # a path's predecessors are found after a cost-only search, each the nearest node below whose cost plus
    # its arc's weight is the node's: with zero-cost steps many tie, every path must still walk and be optimal
    g = HexGrid(8, 7)
    c = np.random.default_rng(3).choice([0.0, 1.0, 2.0, INF], size=(7, 8), p=[0.4, 0.3, 0.2, 0.1])
    f = CostField.from_arrays(g, c)
    cp = customized(g, f)
    if query_arcs:
        cp.build_query_arcs()
    _check(g, c, None, cp, f)


def test_unpack_refuses_a_query_that_found_no_arcs() -> None:
    # the kernel is called only after a query found a path's arcs; called without them it raises, never reads
    # outside its arrays
    from wargrid._kernels.movement import cch as kernels

    g = SquareGrid(5, 4)
    cp = customized(g, CostField.from_arrays(g, np.ones((4, 5))))
    s, t = g.topology.padded_id(0, 0), g.topology.padded_id(4, 3)
    st, sc, arcs, mt = cp.structure, cp._scratch(), cp._arcs(), cp._middles()
    cost, meet, nf, nb = kernels.query(int(st.rank_of[s]), int(st.rank_of[t]), arcs.fwd, arcs.bwd, cp._tree,
                                       arcs.low, sc.cs, sc.ct, sc.df, sc.db, sc.pf, sc.pb)
    assert cost == 14.0 and meet >= 0 and nf + nb >= 1  # symmetric (one column): both ways' sum
    args = (sc.pf, sc.pb, arcs.fwd_arc, arcs.bwd_arc, st.up_first, st.up_head, st.tails, mt.middle, mt.inp,
            st.arc_slot, True, st.cell_of, g.topology.pw)
    xy, walked, zero = kernels.unpack(int(st.rank_of[s]), nf, nb, *args)
    assert walked == 14.0 and xy.shape == (8, 2) and not zero and xy[0].tolist() == [0, 0] and xy[-1].tolist() == [4, 3]
    with pytest.raises(ValueError, match="found no arcs"):
        kernels.unpack(int(st.rank_of[s]), 0, 0, *args)


def test_a_chain_climbed_by_runs_is_the_chain_of_parents():
    # queries climb runs v, v + 1, ... (each the parent of the one before) with one parent read a run
    g = HexGrid(13, 11)
    cp = customized(g, CostField.from_arrays(g, np.ones((11, 13))))
    parent, top = cp._tree
    assert parent is cp.structure.parent
    for v in range(parent.shape[0]):
        assert all(parent[u] == u + 1 for u in range(v, top[v])) and parent[top[v]] != top[v] + 1


@jit(cache=False)
def _gallops(v, p, end, run):
    return _gallop(v, p, end, run)


def test_the_partial_customization_gallops_to_the_first_entry_not_below_a_node():
    # the merge of two down runs skips, by doubling steps then a binary search, the entries of one run below the
    # other's next node (a high node's run holds thousands of nodes between a lower node's entries)
    run = np.array([1, 3, 4, 9, 12, 13, 20, 31], dtype=np.int32)
    assert [_gallops(v, 0, 8, run) for v in (0, 1, 2, 10, 20, 31, 32)] == [0, 0, 1, 4, 6, 7, 8]
    assert _gallops(13, 2, 6, run) == 5 and _gallops(40, 2, 6, run) == 6 and _gallops(5, 3, 3, run) == 3


@settings(max_examples=200, deadline=None)
@given(run=st.lists(st.integers(0, 300), max_size=80, unique=True).map(sorted), v=st.integers(-1, 301),
       data=st.data())
def test_a_gallop_finds_what_a_binary_search_finds(run, v, data):
    a = np.array(run, dtype=np.int32)
    below = int(np.searchsorted(a, v))  # every entry before p is below v, as the merge calls it
    p = data.draw(st.integers(0, below))
    end = data.draw(st.integers(p, a.shape[0]))
    assert _gallops(v, p, end, a) == min(below, end)


@jit(cache=False)
def _lowers(v, dv, first, head, w, dist):
    _lower_arcs(v, dv, first, head, w, dist)


@settings(max_examples=200, deadline=None)
@given(lists=st.lists(st.lists(st.tuples(st.integers(0, 15), st.sampled_from([0.0, 1.0, 2.5, 7.0, INF])), max_size=13,
                               unique_by=lambda a: a[0]), min_size=1, max_size=4), dv=st.sampled_from([0.0, 3.0, 65536.0]),
       data=st.data())
def test_a_node_lowers_each_of_its_heads_to_its_cost_plus_the_arc(lists, dv, data):
    # four arcs a step, then the last 0-3 clamped to the node's last arc: every list length, the lists around it untouched
    first = np.cumsum([0] + [len(a) for a in lists]).astype(np.int64)
    head = np.array([h for a in lists for h, _ in a], dtype=np.uint16)
    w = np.array([x for a in lists for _, x in a], dtype=np.float32)
    v = data.draw(st.integers(0, len(lists) - 1))
    dist = np.array(data.draw(st.lists(st.sampled_from([0.0, 2.0, 5.0, 9.0, INF]), min_size=16, max_size=16)))
    want = dist.copy()
    for h, x in lists[v]:
        want[h] = min(want[h], dv + x)
    _lowers(v, dv, first, head, w, dist)
    assert dist.tolist() == want.tolist()


def test_query_arcs_with_keys_find_the_paths_the_plain_costs_do():
    # a float32 metric's query arcs carry keys (the depth of the node that set each cost below its cost): a path's
    # arcs are read from them, the same ones the recovery from plain costs finds (of ties, the highest node below)
    rng = np.random.default_rng(5)
    g = HexGrid(17, 13)
    c = rng.integers(1, 9, size=(13, 17)) * 0.25
    c[rng.random((13, 17)) < 0.15] = np.inf
    f = CostField.from_arrays(g, c)
    cp = customized(g, f)
    cp.build_query_arcs()
    keyed = cp._fast
    assert keyed is not None and keyed.low == 65536.0 and keyed.unit == 0.25 / 65536.0
    plain = keyed._replace(fwd=(*keyed.fwd[:2], keyed.fwd[2] * np.float32(keyed.unit)), low=0.0, unit=1.0,
                           bwd=(*keyed.bwd[:2], keyed.bwd[2] * np.float32(keyed.unit)))
    topo = g.topology
    ids = np.array([topo.padded_id(x, y) for y in range(13) for x in range(17) if c[y, x] < INF], dtype=np.int64)
    for s, t in rng.choice(ids, size=(150, 2)):
        if s == t:  # (the dispatcher answers those)
            continue
        got = [(cp.path(f, s, t), cp.distance(f, s, t)) for cp._fast in (keyed, plain)]
        (p1, d1), (p2, d2) = got
        assert d1 == d2 and (p1 is None) == (p2 is None) and (p1 is None or (p1.cells, p1.cost) == (p2.cells, p2.cost))
    cp._fast = keyed
    table = cp.table(f, ids[:40], ids[40:90])
    cp._fast = plain
    assert np.array_equal(table, cp.table(f, ids[:40], ids[40:90]))
    cp._fast = keyed
    _check(g, c, None, cp, f)


def _symmetric_edges(g, e):
    """``e`` with every step's edge cost copied to the step back (a river costs as much either way)."""
    out = e.copy()
    for c in g.cells():
        for s in g.steps(c):
            back = [b.direction for b in g.steps(s.cell) if b.cell == c]
            for d in back:
                out[s.cell[1], s.cell[0], d] = out[c[1], c[0], s.direction]
    return out


@settings(max_examples=40, deadline=None)
@given(board=boards(max_side=7), data=st.data())
def test_symmetric_steps_keep_one_weight_an_arc_and_answer_as_dijkstra(board, data):
    # steps whose costs differ both ways only by the cells they enter (hex, 4-direction and staggered boards, edge
    # costs the same either way): one column, both ways' sum; every answer Dijkstra's after cell edits (they keep it)
    # and after an edge cost made one-way (no longer symmetric: two columns, customized again)
    g, cost, e = board
    e = None if e is None else _symmetric_edges(g, e)
    cp = customized(g, costs_of(g, cost, e))
    square8 = isinstance(g, SquareGrid) and g.diagonal
    assert cp.metric.weight.shape[1] == (2 if square8 and cp.metric.weight.shape[1] == 2 else 1)
    if data.draw(st.booleans()):
        cp.build_query_arcs()
    _check(g, cost, e, cp, costs_of(g, cost, e))
    cells = list(g.cells())
    cost = cost.copy()
    for c in data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3)):
        cost[c[1], c[0]] = data.draw(st.sampled_from([1.0, 2.0, 0.5, INF]))
    _check(g, cost, e, cp, costs_of(g, cost, e))
    c = data.draw(st.sampled_from(cells))
    e = np.zeros((g.height, g.width, g.ndir)) if e is None else e.copy()
    steps = moves(g, cost, e, c) if math.isfinite(cost[c[1], c[0]]) else []  # (cell, direction, cost): legal steps
    if steps:
        e[c[1], c[0], steps[0][1]] += 4.0  # one way only (two columns, unless a parallel step keeps the least)
        _check(g, cost, e, cp, costs_of(g, cost, e))
        fresh = _metric(cp.structure, cp.costs)[0]
        assert fresh.weight.shape[1] == 2 or g.wrap_x
        assert np.array_equal(cp._weighted().weight, fresh.weight)


def test_symmetric_metrics_by_hand_hex_square4_and_square8():
    # literal distances: entering a cell costs its own cost, so the way there and the way back differ by the ends'
    # cells; a river between columns 1 and 2 costs 0.5 either way
    g = SquareGrid(4, 1)
    f = CostField.from_arrays(g, np.array([[1.0, 2.0, 3.0, 4.0]]))
    cp = customized(g, f)
    t = g.topology
    ids = np.array([t.padded_id(x, 0) for x in range(4)], dtype=np.int64)
    assert cp.metric.weight.shape[1] == 1 and cp.metric.inp.dtype == np.float32
    assert cp.distance(f, ids[0], ids[3]) == 9.0 and cp.distance(f, ids[3], ids[0]) == 6.0
    assert cp.path(f, ids[3], ids[0]).cost == 6.0 and cp.path(f, ids[0], ids[3]).cells == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert cp.table(f, ids[[0, 3]], ids[[3, 0]]).tolist() == [[9.0, 0.0], [0.0, 6.0]]
    e = np.zeros((1, 4, 4))
    e[0, 1, 0] = e[0, 2, 2] = 0.5  # east from column 1, west from column 2 (square-4 directions: E, N, W, S)
    river = CostField.from_arrays(g, np.array([[1.0, 2.0, 3.0, 4.0]]), e)
    assert cp.distance(river, ids[0], ids[3]) == 9.5 and cp.distance(river, ids[3], ids[0]) == 6.5
    assert cp.metric.weight.shape[1] == 1  # the river is symmetric: the edit kept one column
    h = HexGrid(3, 2)
    c = np.array([[1.0, 3.0, 2.0], [0.5, 1.0, 4.0]])
    hp = customized(h, CostField.from_arrays(h, c))
    a, b = h.topology.padded_id(0, 0), h.topology.padded_id(2, 0)
    assert hp.metric.weight.shape[1] == 1
    assert hp.distance(hp.costs, a, b) == 5.0 and hp.distance(hp.costs, b, a) == 4.0  # via (1, 0): 3 + 2, 3 + 1
    g8 = SquareGrid(4, 3, diagonal=True)
    c8 = np.array([[1.0, 2.0, 1.0, 1.0], [1.0, 1.0, 3.0, 1.0], [2.0, 1.0, 1.0, 1.0]])
    p8 = customized(g8, CostField.from_arrays(g8, c8))
    assert p8.metric.weight.shape[1] == 2  # diagonals cost sqrt(2) times the cell entered: not symmetric so
    want = dijkstra(g8, c8, [(0, 0)], None)
    assert _close(p8.distance(p8.costs, g8.topology.padded_id(0, 0), g8.topology.padded_id(3, 2)), want[(3, 2)])


def test_a_symmetric_class_pickles_and_its_path_costs_are_the_walks_own_sums():
    # costs that are no whole quanta (float64 weights): a path's cost is the walk's own sum, bit for bit
    g = HexGrid(9, 7)
    rng = np.random.default_rng(5)
    c = rng.choice([1.1, 1.3, 1.5, 1.7, INF], size=(7, 9), p=[0.3, 0.3, 0.2, 0.1, 0.1])  # (a span one column keeps)
    f = CostField.from_arrays(g, c)
    cp = customized(g, f)
    assert cp.metric.weight.shape[1] == 1 and cp.metric.weight.dtype == np.float64
    again = pickle.loads(pickle.dumps(cp))
    assert again.metric.weight.shape[1] == 1 and again.bytes == cp.bytes
    _check(g, c, None, again, f)
    again.build_query_arcs()
    assert again._fast.bwd is again._fast.fwd and again.bytes < 3 * again.metric.weight.nbytes + 10 * cp.arcs
    _check(g, c, None, again, f)


def _near(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-12 * abs(b)


def test_a_start_far_dearer_than_its_path_keeps_two_columns_and_dijkstras_distances():
    # one weight an arc is both ways' sum, so a search from (0, 0) carries its 1e9 and the halves cancelled with
    # rounding: 0.10000002384 for 0.1; cells whose costs span more than float64 keeps through a chain's sums keep
    # two columns (``_span``), whether customized so or edited into it (from float64 or float32 weights)
    g = SquareGrid(3, 1)
    f = CostField.from_arrays(g, np.array([[1e9, 0.1, 0.3]]))
    cp = customized(g, f)
    ids = np.array([g.topology.padded_id(x, 0) for x in range(3)], dtype=np.int64)
    assert cp.distance(f, ids[0], ids[1]) == 0.1 and cp.distance(f, ids[0], ids[2]) == 0.1 + 0.3
    assert cp.metric.weight.shape[1] == 2
    assert cp.path(f, ids[0], ids[1]).cost == 0.1 and cp.path(f, ids[2], ids[0]).cost == 0.1 + 1e9
    assert cp.table(f, ids, ids).tolist() == [[0.0, 0.1, 0.1 + 0.3], [1e9, 0.0, 0.3], [0.1 + 1e9, 0.1, 0.0]]
    h = HexGrid(9, 7)
    for c in (np.full((7, 9), 1.1), np.ones((7, 9))):  # float64 and float32 weights, one column each
        hp = customized(h, CostField.from_arrays(h, c))
        assert hp.metric.weight.shape[1] == 1
        c = c.copy()
        c[3, 4], c[2, 2] = 1e-7, 2.0**31
        _check(h, c, None, hp, CostField.from_arrays(h, c), close=_near)
        assert hp.metric.weight.shape[1] == 2 and hp.metric.weight.dtype == np.float64


def test_an_edit_that_widens_float32_weights_within_their_span_is_updated_in_part(monkeypatch):
    # a one-column float32 class (whole costs) edited with a cost float32 would round (0.1 on a road) widens to
    # float64; where the board's span (``_span``) still allows one column, the edit is a partial customization as
    # before, not a second whole one (each later edit of a new cost size had paid a whole customization: seconds on
    # 512 x 512); past the span it is customized again, with two columns
    h = HexGrid(9, 7)
    c = np.ones((7, 9))
    hp = customized(h, CostField.from_arrays(h, c))
    assert hp.metric.weight.shape[1] == 1 and hp.metric.weight.dtype == np.float32
    calls = []
    whole = CustomizedPaths._customized
    monkeypatch.setattr(CustomizedPaths, "_customized", lambda self, f, *a: calls.append(f) or whole(self, f, *a))
    c = c.copy()
    c[3, 4] = 1.1
    f = CostField.from_arrays(h, c)
    _check(h, c, None, hp, f)
    assert calls == [] and hp.metric.weight.shape[1] == 1 and hp.metric.weight.dtype == np.float64
    _metric_holds(hp, f)
    c = c.copy()
    c[5, 5] = 2.0**31
    _check(h, c, None, hp, CostField.from_arrays(h, c), close=_near)
    assert len(calls) == 1 and hp.metric.weight.shape[1] == 2
    # customized again past the span, a class stays float64: the next cost size is an update in part (customized
    # back into float32, each edit bringing a finer cost had been a whole customization again)
    c = np.ones((7, 9))
    hp = customized(h, CostField.from_arrays(h, c))
    calls.clear()
    for k, cell in enumerate([(3, 4), (2, 6), (5, 1)]):
        c = c.copy()
        c[cell] = 2.0 ** -(k + 2)
        _check(h, c, None, hp, CostField.from_arrays(h, c))
        assert len(calls) == 1 and hp.metric.weight.dtype == np.float64 and hp.metric.weight.shape[1] == 2


def test_a_float64_class_customized_again_for_one_way_steps_may_go_back_to_float32():
    # only a class an edit widened past float32 stays float64 (``wide``): one that was float64 from the start,
    # customized again because an edit ended its symmetry, takes float32 where its costs now fit (as a fresh prepare)
    t = TerrainTable([Terrain("a", ".", "#111111", costs={"foot": 1.0}), Terrain("e", "e", "#555555", costs={"foot": 0.1})])
    m = Map(SquareGrid(12, 12), terrains=t, terrain=np.ones((12, 12), int))
    pp = m.prepare(unit="foot", progress=False)
    assert pp.metric.weight.dtype == np.float64
    m.set_terrain([(x, y) for x in range(12) for y in range(12)], "a")
    m.set_edge((3, 3), (4, 3), 1.0, both_ways=False)
    assert m.distance((0, 0), (11, 11), unit="foot") == m.distance_field((0, 0), unit="foot")[11, 11]
    assert pp.metric.weight.dtype == np.float32


def test_cells_told_without_a_query_between_are_merged_not_heaped_up():
    # edits each read by a field search and no prepared query: the told cells are kept until a sync, merged once
    # there are 64 lists (they had grown by one list an edit, without bound)
    m = Map(HexGrid(8, 8))
    pp = m.prepare(unit="foot", progress=False)
    cells = list(m.grid.cells())
    for i in range(200):
        m.set_terrain([cells[(7 * i) % len(cells)]], ["forest", "plains"][i % 2])
        m.distance_field((0, 0), unit="foot")
    assert 1 <= len(pp._pending) <= 64
    assert m.distance((0, 0), (7, 7), unit="foot") == m.distance_field((0, 0), unit="foot")[7, 7]


def test_cells_told_after_an_in_place_patch_are_kept_by_a_pickle_and_read_with_its_own_field():
    # the map patches the class's own field in place and tells it the cells: a pickle taken before the next query
    # kept the patched array but dropped the told cells (the unpickled class answered 24.0 across a closed wall), and
    # a query with the class's own field returned before reading them (and, while another thread's sync ran, read a
    # metric half updated: the told cells are now cleared when the sync is done)
    m = Map(HexGrid(8, 8))
    pp = m.prepare(unit="foot", progress=False)
    for c, name in [*[((3, y), "water") for y in range(7)], ((3, 7), "mountains")]:
        m.set_terrain([c], name)
        m.distance((0, 0), (7, 7), unit="foot")  # (a sync between edits: the next patch is in place)
    m.set_terrain([(3, 7)], "water")  # (the wall closed, and one finite cost again over the board)
    m.distance_field((0, 0), unit="foot")
    f, t = m.cost_field(unit="foot"), m.grid.topology
    assert pp.costs.cell is f.cell and len(pp._pending) == 1  # (the case: patched in place, told)
    s, g = t.padded_id(0, 3), t.padded_id(6, 3)
    again = pickle.loads(pickle.dumps(pp))
    assert again.distance(f, s, g) == INF and pickle.loads(pickle.dumps(pp)).distance(again.costs, s, g) == INF
    # the field patched in place keeps its old flags (uniform: one cost over the board); the class takes the told one
    assert not pp.costs.uniform and f.uniform and again.costs.uniform
    assert pp.distance(pp.costs, s, g) == INF and pp.costs is f and m.distance((0, 3), (6, 3), unit="foot") == INF


def test_a_path_through_costs_of_1e_7_beside_2_31_is_dijkstras_and_has_no_loop():
    # a sum carrying 2 ** 31 loses a 1e-7 step: the search found 5.0000001 where Dijkstra finds 5.0 (one column),
    # and a loop of such steps came back in the path (two columns); through a map with a terrain table
    t = TerrainTable([Terrain(n, n[0], "#000000", costs={"foot": c}) for n, c in
                      [("five", 5.0), ("huge", 2.0**31), ("wall", INF), ("one", 1.0), ("tiny", 1e-7)]], classes=("foot",))
    for terrain, a, b, want in [([[0, 1, 2, 3], [4, 3, 2, 0]], (1, 0), (0, 0), 5.0),
                                ([[1, 1], [4, 4]], (0, 1), (0, 0), 2.0**31)]:
        m = Map(HexGrid(4, 2) if want == 5.0 else SquareGrid(2, 2), terrain=np.array(terrain), terrains=t)
        m.prepare(unit="foot", progress=False)
        assert m.distance_field(a, unit="foot")[b[1], b[0]] == want
        p = m.path(a, b, unit="foot")
        assert p.cost == want and m.distance(a, b, unit="foot") == want and len(set(p.cells)) == len(p.cells)
    assert p.cells == [(0, 1), (0, 0)]


EXTREME = [1e-7, 3e-7, 0.1, 1.0, 5.0, 1e9, 2.0**31, INF]


@settings(max_examples=40, deadline=None)
@given(g=grids(max_side=5), data=st.data())
def test_costs_from_1e_7_to_2_31_and_one_way_steps_answer_as_dijkstra_through_edits(g, data):
    # distances, paths (their costs the walks' own sums, no cell twice) and tables within 1e-12 of Dijkstra's, on
    # cells and one-way edge costs of every magnitude, fresh and after random edits of both
    n, k = g.width * g.height, g.width * g.height * g.ndir
    cost = np.array(data.draw(st.lists(st.sampled_from(EXTREME), min_size=n, max_size=n))).reshape(g.height, g.width)
    e = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.0, 0.0, 1e-7, 0.5, 2.0**31, INF]), min_size=k, max_size=k)))
    e = e.reshape(g.height, g.width, g.ndir) if data.draw(st.booleans()) else None
    cp = customized(g, costs_of(g, cost, e))
    if data.draw(st.booleans()):
        cp.build_query_arcs()
    _check(g, cost, e, cp, costs_of(g, cost, e), close=_near)
    cells = list(g.cells())
    for _ in range(data.draw(st.integers(1, 3))):
        cost = cost.copy()
        for c in data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3)):
            cost[c[1], c[0]] = data.draw(st.sampled_from(EXTREME))
        if data.draw(st.booleans()):  # one step's edge cost, one way
            c, d = data.draw(st.sampled_from(cells)), data.draw(st.integers(0, g.ndir - 1))
            e = np.zeros((g.height, g.width, g.ndir)) if e is None else e.copy()
            e[c[1], c[0], d] = data.draw(st.sampled_from([0.0, 1e-7, 2.0**31, INF]))
        _check(g, cost, e, cp, costs_of(g, cost, e), close=_near)


def _lean_holds(cp):
    """Once edits are prepared, the finite arcs' lists (``_lean``, unless an edit made an arc finite that they lacked)
    hold every arc direction finite in the metric, with its weight, and no other."""
    ln, w, s = cp._lean, cp.metric.weight, cp.structure
    if cp._down is None or ln is None:
        return
    for d, (first, _, wt), arc in ((0, ln.fwd, ln.fwd_arc), (w.shape[1] - 1, ln.bwd, ln.bwd_arc)):
        assert np.array_equal(arc, np.flatnonzero(np.isfinite(w[:, d]) | np.isin(np.arange(w.shape[0]), arc)))
        assert np.array_equal(wt, w[arc, d]) and np.array_equal(first, np.searchsorted(arc, s.up_first))


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(board=boards(max_side=7), data=st.data())
def test_random_edits_with_queries_between_answer_as_dijkstra_over_the_finite_arcs(board, data):
    # edits prepared ahead or by the first edit; cells closed, opened (an arc the finite arcs lacked: every arc
    # answers until the query arcs are rebuilt), made cheaper or dearer, a query between edits or several edits
    # before one; every answer Dijkstra's, the finite arcs' weights the metric's
    g, cost, e = board
    cp, cells, topo = customized(g, costs_of(g, cost, e)), list(g.cells()), g.topology
    if data.draw(st.booleans()):
        cp.prepare_edits()
    for _ in range(data.draw(st.integers(1, 6))):
        cost = cost.copy()
        for c in data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3)):
            cost[c[1], c[0]] = data.draw(st.sampled_from([1.0, 2.0, 0.5, 3.0, INF]))
        f = costs_of(g, cost, e)
        if data.draw(st.booleans()):
            continue  # the next query syncs several edits at once
        cp.sync(f)
        _lean_holds(cp)
        a = data.draw(st.sampled_from(cells))
        if not math.isfinite(cost[a[1], a[0]]):
            continue
        want = dijkstra(g, cost, [a], e)
        for b in data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=4)):
            d = cp.distance(f, topo.padded_id(*a), topo.padded_id(*b))
            p = cp.path(f, topo.padded_id(*a), topo.padded_id(*b))
            w = 0.0 if a == b else want.get(b, INF)
            assert _close(d, w) and (p is None if w == INF else _close(p.cost, w) and p.cells[-1] == b)
        if data.draw(st.booleans()):
            cp.build_query_arcs()  # (rebuilds the finite arcs when an edit made them lack one)
            _lean_holds(cp)
    _check(g, cost, e, cp, f)



@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(board=boards(max_side=7), ways=st.lists(st.sampled_from(["up", "down", "any"]), min_size=1, max_size=5),
       data=st.data())
def test_rises_and_falls_of_cells_and_one_way_steps_keep_the_metric_and_its_legs(board, ways, data):
    # a rise looks at a changed arc's triangles only until it has found as many arcs resting on it at their middle
    # as its legs' count says: cells and single steps (one way: directed metrics) made only dearer, only cheaper or
    # either, edits prepared ahead; after each the metric equals a fresh customization, its middles give their
    # arcs' weights, the legs' counts are right, the finite arcs hold the weights and distances are Dijkstra's
    g, cost, e = board
    if e is None:
        k = g.height * g.width * g.ndir
        e = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.0, 1.0, 2.5]), min_size=k, max_size=k)))
        e = e.reshape(g.height, g.width, g.ndir)
    cp, cells, topo = customized(g, costs_of(g, cost, e)), list(g.cells()), g.topology
    cp.prepare_edits()

    def pick(now, values, way):
        ok = [v for v in values if (v >= now if way == "up" else v <= now if way == "down" else True)]
        return data.draw(st.sampled_from(ok or [now]))

    for way in ways:
        cost, e = cost.copy(), e.copy()
        for c in data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3)):
            if data.draw(st.booleans()):
                cost[c[1], c[0]] = pick(cost[c[1], c[0]], [0.5, 1.0, 2.0, 3.0, INF], way)
            else:
                d = data.draw(st.integers(0, g.ndir - 1))
                e[c[1], c[0], d] = pick(e[c[1], c[0], d], [0.0, 1.0, 2.5, INF], way)
        f = costs_of(g, cost, e)
        cp.sync(f)
        _metric_holds(cp, f)
        _lean_holds(cp)
        a = data.draw(st.sampled_from(cells))
        if math.isfinite(cost[a[1], a[0]]):
            want = dijkstra(g, cost, [a], e)
            for b in cells:
                if b != a:
                    assert _close(cp.distance(f, topo.padded_id(*a), topo.padded_id(*b)), want.get(b, INF))


def test_an_edit_that_ends_symmetry_drops_the_finite_arcs_with_the_down_lists():
    """A one-way step ends a symmetric class's one weight an arc: its down lists and finite arcs go together (the
    finite arcs are rebuilt with the down lists, never kept stale), and its answers stay Dijkstra's."""
    g = SquareGrid(4, 1)
    cost = np.array([[1.0, 2.0, 3.0, 4.0]])
    cp = customized(g, CostField.from_arrays(g, cost))
    cp.prepare_edits()
    assert cp._down is not None and cp._lean is not None
    e = np.zeros((1, 4, 4))
    e[0, 1, 0] = 0.5  # the step east out of (1, 0) dearer: one way only
    f = CostField.from_arrays(g, cost, e)
    cp.sync(f)
    assert cp._down is None and cp._lean is None
    t = g.topology
    for a in g.cells():
        want = dijkstra(g, cost, [a], e)
        for b in g.cells():
            assert _close(cp.distance(f, t.padded_id(*a), t.padded_id(*b)), want.get(b, INF))


@settings(max_examples=60, deadline=None)
@given(board=boards(max_side=7), data=st.data())
def test_a_class_holds_its_finite_arcs_for_its_weights_where_fewer_bytes(board, data):
    # after customizing, a class whose finite arcs take fewer bytes than every arc's weight holds only them: its
    # distances and tables (over them) are Dijkstra's before any path, pickled and not; the weights made again from
    # them are the customization's, bit for bit, and every answer after that (paths, edits) is Dijkstra's too
    g, cost, e = board
    f = costs_of(g, cost, e)
    cp = customized(g, f)
    want_w = _metric(cp.structure, f)[0].weight
    lean = cp._lean
    if lean is None:
        assert cp.metric.weight.shape == want_w.shape and cp.bytes == want_w.nbytes
    else:
        assert cp.metric.weight.shape[0] == 0 and cp.bytes < want_w.nbytes and cp._arcs() is lean and lean.fwd_arc.size == 0
        assert lean.fwd[0].dtype == np.int32 and int(lean.fwd[0][-1]) == int(np.isfinite(want_w).sum(axis=0)[0])
    for cq in (pickle.loads(pickle.dumps(cp)), cp):
        assert (cq._lean is None) == (lean is None) and cq.bytes == cp.bytes
        cq._perfect_seconds = math.inf  # (no query arcs bought by the queries: they would make the weights again)
        _check(g, cost, e, cq, f, paths=False)  # distances and tables
        assert cq.metric.weight.shape[0] == 0 or lean is None  # (the distances did not need every arc's weight)
        assert np.array_equal(cq._weighted().weight, want_w) and cq._lean is None
    cost = cost.copy()
    for c in data.draw(st.lists(st.sampled_from(list(g.cells())), min_size=1, max_size=3)):
        cost[c[1], c[0]] = data.draw(st.sampled_from([1.0, 2.0, INF]))
    again = customized(g, f, shared=cp.structure)
    _check(g, cost, e, again, costs_of(g, cost, e))  # an edit first restores the weights it updates


@settings(max_examples=60, deadline=None)
@given(board=boards(max_side=7))
def test_input_rows_symmetry_and_finite_lists_are_their_numpy_definitions(board):
    # the kernels' one passes against the arrays' definitions: the input rows' symmetry (each way's weight less the
    # cost of the cell it enters the same, inf both ways or neither) and every finite arc listed by node in arc order,
    # its head's depth, its weight, its arc id where asked, and the largest finite weight
    g, cost, e = board
    f = costs_of(g, cost, e)
    s = structure(g.topology)
    inp, sym = _inputs(s, f)
    a = np.flatnonzero(s.arc_slot >= 0)  # (rows in arc order)
    fin = np.isfinite(inp[:, 0])
    want = np.array_equal(fin, np.isfinite(inp[:, 1])) and np.array_equal(
        inp[fin, 0] - f.cell[s.cell_of[s.up_head[a[fin]]]], inp[fin, 1] - f.cell[s.cell_of[s.tails[a[fin]]]])
    assert sym == want
    w = _metric(s, f)[0].weight
    for ids in (False, True):
        got, top = _listed(s, w, ids)
        assert top == float(np.max(w, where=np.isfinite(w), initial=0.0))
        for c, (first, head, wt) in enumerate((got.fwd, got.bwd)[:w.shape[1]]):
            ok = np.isfinite(w[:, c])
            assert np.array_equal(first, np.concatenate([[0], np.cumsum(np.bincount(s.tails[ok], minlength=s.parent.shape[0]))]))
            assert np.array_equal(head, depths(s.parent)[s.up_head[ok]]) and np.array_equal(wt, w[ok, c])
            assert np.array_equal((got.fwd_arc, got.bwd_arc)[c], np.flatnonzero(ok) if ids else np.zeros(0))


def test_a_board_without_walls_keeps_every_arcs_weight():
    # every arc finite: their lists (6 bytes an arc and 4 a node) would hold more than the weights (4 an arc)
    g = HexGrid(12, 10)
    cp = customized(g, CostField.from_arrays(g, np.ones((10, 12))))
    assert cp._lean is None and cp.metric.weight.shape[0] == cp.arcs and cp.bytes == cp.metric.weight.nbytes
    w = HexGrid(12, 10)
    c = np.ones((10, 12))
    c[:, ::2] = INF  # half the cells walls: their arcs weigh inf
    wp = customized(w, CostField.from_arrays(w, c))
    assert wp._lean is not None and wp.bytes < wp._weighted().weight.nbytes


def test_an_edit_starts_the_query_arcs_rent_again():
    # the queries over every arc pay for the query arcs (rent or buy); an edit drops them, so what the queries before
    # it paid buys nothing that lasts: the count starts again, and no query right after an edit waits for them
    g, c, f, cp, s, e = _walled()
    cp.distance(f, s, e)  # (its kernels compiled first: a compile's seconds would count as a slow query's)
    cp._fast, cp._perfect_seconds, cp._slow_seconds = None, 1.0, 1.0 - 1e-12  # (the next query over every arc would buy them)
    c2 = c.copy()
    c2[0, 1] = 3.0
    f2 = CostField.from_arrays(g, c2)
    assert cp.distance(f2, s, e) == dijkstra(g, c2, [(0, 3)])[(8, 3)]
    assert cp._fast is None and cp._slow_seconds < 1.0


def test_a_query_an_edit_overtook_buys_no_query_arcs():
    # a query over every arc whose time would buy the query arcs, overtaken by an edit while it waits for the lock: the
    # edit dropped what it would pay for, so it counts nothing and builds nothing (the count starts again at the edit)
    import threading

    g, c, f, cp, s, e = _walled()
    cp.distance(f, s, e)  # (its kernels compiled first: a compile's seconds would count as a slow query's)
    cp._fast, cp._perfect_seconds, cp._slow_seconds = None, 1.0, 1.0 - 1e-12
    c2 = c.copy()
    c2[0, 1] = 3.0
    f2 = CostField.from_arrays(g, c2)
    lock, waiting, edited = cp._lock, threading.Event(), threading.Event()

    class Gate:  # the query's thread reaches the lock and waits there until the edit is made
        def __enter__(self) -> None:
            if threading.current_thread().name == "query":
                waiting.set()
                edited.wait(10.0)
            lock.__enter__()

        def __exit__(self, *exc: object) -> None:
            lock.__exit__(*exc)

    cp._lock = Gate()
    got: list[float] = []
    query = threading.Thread(target=lambda: got.append(cp.distance(f, s, e)), name="query")
    query.start()
    assert waiting.wait(10.0)
    cp.sync(f2)
    edited.set()
    query.join(10.0)
    assert got == [dijkstra(g, c, [(0, 3)])[(8, 3)]]
    assert cp._fast is None and cp._slow_seconds < 1.0


def test_query_arcs_keep_a_tie_that_a_sums_rounding_made():
    # 2 ** 30 + 1e-7 rounds to 2 ** 30 in float64: an arc of 2 ** 30 and a path through it and a step of 1e-7 tie,
    # although the path's arcs do not all weigh less; dropping every tied arc lost 25 reachable pairs of this board
    # (inf). Ties are dropped only where the least weight is more than the largest's rounding
    g = HexGrid(9, 3, orientation="flat", offset="even-q")
    c = np.ones((3, 9))
    c[0, 0], c[0, 1], c[1, 0], c[1, 1] = 2.0 ** 30, INF, 1e-7, 1e-7
    e = np.zeros((3, 9, 6))
    e[2, 8, 3] = 1.5  # (an asymmetric metric: two columns)
    f = CostField.from_arrays(g, c, e)
    cp, t = customized(g, f), g.topology
    cells = list(np.ndindex(9, 3))
    before = {(a, b): cp.distance(f, t.padded_id(*a), t.padded_id(*b)) for a in cells for b in cells}
    cp.build_query_arcs()
    assert cp._fast is not None
    for (a, b), d in before.items():
        assert cp.distance(f, t.padded_id(*a), t.padded_id(*b)) == d
        assert (d < INF) == (cp.path(f, t.padded_id(*a), t.padded_id(*b)) is not None)
    assert before[(2, 0), (0, 0)] == 2.0 ** 30
