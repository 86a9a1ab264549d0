"""Lazy Theta* and the square column walk: the walk against the flood fill it replaces on square boards, the lazy
search against a slow eager Theta* written plainly here, and the search's contract on random boards of every kind
with terrain, walls and edge costs."""

from __future__ import annotations

import heapq
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid import SquareGrid
from wargrid.costs import CostField
from wargrid.movement import shortest_path
from wargrid.tactics import any_angle_path, segment_cost
from wargrid.tactics.smoothing import _blocked, _geometry, _segment_costs, step_length

from test_anyangle import GRIDS, IDS, check_any_angle


def random_costs(g, rng, walls):
    c = rng.choice([1.0, 1.0, 1.0, 2.0, 4.0, 0.5], size=g.shape)
    c[rng.random(g.shape) < walls] = np.inf
    return c


def random_edges(g, rng, share):
    """Edge costs on a few steps, both ways (a river bank has extra cost on one side of a step)."""
    e = np.zeros((*g.shape, g.topology.ndir))
    hit = rng.random(e.shape) < share
    e[hit] = rng.choice([0.5, 3.0, np.inf], size=int(hit.sum()))
    return e


# -- the square column walk against the flood fill -----------------------------------------------------------

def flood_args(geo):
    """The geometry bundle with the square walk switched off: the kernels flood fill the separating-axis test."""
    return (*geo.args[:-1], False)


@pytest.mark.slow
@pytest.mark.parametrize("wrap", [False, True])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_square_walk_matches_the_flood_fill(wrap, seed):
    from wargrid._kernels.tactics.smoothing import segment_clear, segment_cost as kernel_cost

    rng = np.random.default_rng(seed)
    g = SquareGrid(int(rng.integers(3, 14)), int(rng.integers(2, 14)), diagonal=bool(rng.integers(2)), wrap_x=wrap)
    costs = random_costs(g, rng, walls=float(rng.choice([0.0, 0.1, 0.3])))
    field = CostField.from_arrays(g, costs)
    segc = _segment_costs(field)
    blocked = _blocked(g, np.isfinite(costs))
    geo = _geometry(g)
    assert geo.args[-1] is True
    stack = np.empty(256, dtype=np.int64)
    for _ in range(20):
        sx, sy = int(rng.integers(g.width)), int(rng.integers(g.height))
        # on a wrapped board the far end may lie beyond the seam (virtual x); the flood fill stamps real cells,
        # so it needs the segment and the tiles around it to stay within one lap
        tx = sx + int(rng.integers(3 - g.width, g.width - 2)) if wrap else int(rng.integers(g.width))
        ty = int(rng.integers(g.height))
        walk, _ = segment_clear(sx, sy, tx, ty, blocked, geo.args, geo.next_gen(), stack)
        flood, _ = segment_clear(sx, sy, tx, ty, blocked, flood_args(geo), geo.next_gen(), stack)
        assert walk == flood, ((sx, sy), (tx, ty))
        cw, _ = kernel_cost(sx, sy, tx, ty, segc, geo.args, geo.next_gen(), stack, 1.0)
        cf, _ = kernel_cost(sx, sy, tx, ty, segc, flood_args(geo), geo.next_gen(), stack, 1.0)
        assert cw == pytest.approx(cf, rel=1e-9, abs=1e-12), ((sx, sy), (tx, ty))


def test_square_walk_reference_values():
    from wargrid._kernels.tactics.smoothing import square_walk

    g = SquareGrid(5, 5)
    t = g.topology
    ones = np.ones(t.padded_size)
    # a diagonal through corners touches only the diagonal's tiles: (0,0)-(2,2) costs 2 * sqrt(2)
    assert square_walk(0, 0, 2, 2, ones, np.inf, t.pw, 5, False, True) == pytest.approx(2 * math.sqrt(2))
    # ... but a blocked tile beside it at a shared corner blocks it (closed tiles)
    corner = ones.copy()
    corner[t.padded_id(1, 0)] = np.inf
    assert square_walk(0, 0, 2, 2, corner, np.inf, t.pw, 5, False, True) == math.inf
    # the knight's move (0,0)-(2,1) runs half a tile in (0,0) (paid at the end's cost 3), then (1,0) and (1,1)
    # a quarter each way, then half in (2,1)
    c = ones.copy()
    c[t.padded_id(2, 1)] = 3.0
    c[t.padded_id(1, 0)] = 5.0
    assert square_walk(0, 0, 2, 1, c, np.inf, t.pw, 5, False, True) == pytest.approx(
        math.hypot(2, 1) * (0.25 * 3 + 0.25 * 5 + 0.25 * 1 + 0.25 * 3))
    assert square_walk(2, 1, 0, 0, c, np.inf, t.pw, 5, False, True) == pytest.approx(
        math.hypot(2, 1) * (0.25 * 1 + 0.25 * 1 + 0.25 * 5 + 0.25 * 1))
    assert square_walk(3, 3, 3, 3, c, np.inf, t.pw, 5, False, True) == 0.0
    assert square_walk(0, 0, 4, 3, c, np.inf, t.pw, 5, False, False) == 0.0


# -- lazy against eager ----------------------------------------------------------------------------------------

def eager_theta(g, field, a, b):
    """Theta* as first published, every relaxation pricing the parent's segment (``segment_cost``); path 1 is
    the grid step A* takes (``astar`` between the two cells, which is the step where the board allows it)."""
    free = field.cell[g.topology.padded_id(*b)] < math.inf
    if not free:
        return None
    h = lambda c: math.dist(g.center(c), g.center(b)) / step_length(g) * field.min_cost
    steps = {}
    for c in g.cells():
        for n in g.neighbors(c):
            p = shortest_path(g, field, c, n)
            if p is not None and len(p.cells) == 2:
                steps[c, n] = p.cost
    dist, parent, done = {a: 0.0}, {a: None}, set()
    heap = [(h(a), 0.0, a)]
    while heap:
        _, d, u = heapq.heappop(heap)
        if u in done or d > dist[u]:
            continue
        done.add(u)
        if u == b:
            return d
        pu = parent[u]
        for v in g.neighbors(u):
            if (u, v) not in steps or v in done:
                continue
            best, bp = d + steps[u, v], u
            if pu is not None and v not in g.neighbors(pu):
                c = dist[pu] + segment_cost(g, field, pu, v)
                if c <= best:
                    best, bp = c, pu
            if best < dist.get(v, math.inf):
                dist[v], parent[v] = best, bp
                heapq.heappush(heap, (best + h(v), best, v))
    return None


@pytest.mark.parametrize("name", IDS)
def test_lazy_and_eager_both_keep_the_contract_and_cost_alike(name):
    g = GRIDS[name]
    rng = np.random.default_rng(11)
    ratios = []
    for _ in range(12):
        costs = random_costs(g, rng, walls=0.2)
        field = CostField.from_arrays(g, costs)
        free = [c for c in g.cells() if np.isfinite(costs[c[1], c[0]])]
        a, b = (free[i] for i in rng.choice(len(free), 2, replace=False))
        grid_path = shortest_path(g, field, a, b)
        lazy = any_angle_path(g, field, a, b)
        eager = eager_theta(g, field, a, b)
        assert (grid_path is None) == (lazy is None) == (eager is None)
        if grid_path is None:
            continue
        assert lazy.cost <= grid_path.cost * (1 + 1e-9)
        assert eager <= grid_path.cost * (1 + 1e-9)
        ratios.append(lazy.cost / eager if eager > 0 else 1.0)
    # guessed segments lose little against priced ones (and the last shortcut pass sometimes wins)
    assert ratios and np.mean(ratios) <= 1.03


# -- the contract on random boards ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", IDS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), walls=st.sampled_from([0.0, 0.15, 0.3]), edges=st.sampled_from([0.0, 0.05]),
       uniform=st.booleans())
def test_any_angle_contract_on_random_boards(name, seed, walls, edges, uniform):
    g = GRIDS[name]
    rng = np.random.default_rng(seed)
    costs = random_costs(g, rng, walls)
    if uniform:
        costs[np.isfinite(costs)] = 1.5
    field = CostField.from_arrays(g, costs, random_edges(g, rng, edges) if edges else None)
    free = [c for c in g.cells() if np.isfinite(costs[c[1], c[0]])]
    if len(free) < 2:
        return
    a, b = (free[i] for i in rng.choice(len(free), 2, replace=False))
    # a segment longer than a step touches only passable tiles without edge costs
    check_any_angle(g, field, np.isfinite(_segment_costs(field).reshape(g.height + 2, g.width + 2)[1:-1, 1:-1]), a, b)
