"""Hub labels over the prepared structure's core (``wargrid._kernels.movement.ch_labels``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import wargrid
from movement_oracle import costs_of, dijkstra, path_cost
from wargrid._kernels.movement import ch_core
from wargrid._kernels.movement.ch_records import Upward
from wargrid.movement import prepared as prep
from wargrid.movement.prepared import prepare


pytestmark = pytest.mark.slow  # the prepared structure: big kernels to compile and world-size sweeps


def _close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-9 * max(1.0, abs(b))


def _labels(up: Upward, side: int) -> list[dict[int, float]]:
    lf, hub, dist = (up.out_first, up.out_hub, up.out_dist) if side == 0 else (up.in_first, up.in_hub, up.in_dist)
    dist = dist * up.label_scale[0]  # whole multiples of the unit
    return [dict(zip(hub[lf[r]:lf[r + 1]].tolist(), dist[lf[r]:lf[r + 1]].tolist())) for r in range(lf.shape[0] - 1)]


def _core_field(up: Upward, root: int, w: np.ndarray) -> np.ndarray:
    """Dijkstra over the compact core (the oracle: the core keeps the board's distances)."""
    cf, cnb = up.core_first, up.core_head
    c = cf.shape[0] - 1
    dist, stamp = np.full(c, np.inf), np.zeros(c, dtype=np.int64)
    ch_core.sweep(root, cf, cnb, w, dist, stamp, np.empty(c, dtype=np.int32), np.empty(c),
                  np.empty(c, dtype=np.int32), 2)
    return np.where(stamp == 3, dist, np.inf)


@pytest.fixture
def big_labels(monkeypatch):
    monkeypatch.setattr(prep, "LABEL_BYTES", 1 << 20)


@pytest.mark.parametrize("kind, seed", [("hex", 1), ("square", 2)])
def test_labels_give_every_core_distance(big_labels, kind, seed):
    m = wargrid.generate(36, 30, kind=kind, seed=seed)
    pp = prepare(m.grid, m.cost_field(unit="foot"), progress=False, core=250)
    up = pp.upward
    out, inn = _labels(up, 0), _labels(up, 1)
    c = len(out)
    assert c == up.core_ids.shape[0] > 200 and up.out_hub.shape[0] > 0
    for side, lab in ((0, out), (1, inn)):  # each hub in increasing rank: the path walk bisects
        for d in lab:
            assert list(d) == sorted(d)
    for a in range(0, c, 7):
        field = _core_field(up, a, np.asarray(up.core_w_out, dtype=np.float64))
        for b in range(c):
            common = out[a].keys() & inn[b].keys()
            got = min((out[a][h] + inn[b][h] for h in common), default=math.inf)
            assert _close(got, field[b]), (a, b, got, field[b])


@pytest.mark.slow
@pytest.mark.parametrize("labels", [True, False])
def test_paths_through_zero_cost_cells_stay_simple(monkeypatch, labels):
    # zero-cost cells give tied paths: the label walk's two halves may share nodes
    monkeypatch.setattr(prep, "LABEL_BYTES", 1 << 20)
    if not labels:
        monkeypatch.setattr(prep, "LABEL_CORE_MAX", 0)
    m = wargrid.generate(40, 32, kind="hex", seed=4)
    cost = m.costs(unit="foot").copy()
    cost[4:28:3, 2:38] = np.where(np.isfinite(cost[4:28:3, 2:38]), 0.0, np.inf)
    cost[6:30, 20] = np.where(np.isfinite(cost[6:30, 20]), 0.0, np.inf)
    f = costs_of(m.grid, cost, None)
    pp = prepare(m.grid, f, progress=False, core=300)
    assert (pp.upward.out_hub.shape[0] > 0) == labels
    topo = m.grid.topology
    rng = np.random.default_rng(5)
    cells = [c for c in m.grid.cells() if math.isfinite(cost[c[1], c[0]])]
    for _ in range(10):
        a = cells[int(rng.integers(len(cells)))]
        want = dijkstra(m.grid, cost, [a])
        for _ in range(25):
            b = cells[int(rng.integers(len(cells)))]
            p = pp.path(f, topo.padded_id(*a), topo.padded_id(*b))
            if b not in want:
                assert p is None
                continue
            assert p.cells[0] == a and p.cells[-1] == b and len(set(p.cells)) == len(p.cells)
            assert _close(p.cost, want[b]) and _close(path_cost(m.grid, cost, None, p.cells), p.cost)


def test_labels_over_their_budget_leave_the_core_to_the_astar(monkeypatch):
    m = wargrid.generate(30, 24, kind="hex", seed=6)
    f = m.cost_field(unit="foot")
    monkeypatch.setattr(prep, "LABEL_BYTES", 1 << 20)
    full = prepare(m.grid, f, progress=False, core=200)
    monkeypatch.setattr(prep, "LABEL_BYTES", 1)
    none = prepare(m.grid, f, progress=False, core=200)
    assert full.upward.out_hub.shape[0] > 0 and none.upward.out_hub.shape[0] == 0
    assert full.bytes > none.bytes
    topo = m.grid.topology
    cells = [c for c in m.grid.cells() if math.isfinite(f.cell[topo.padded_id(*c)])][::9]
    for a in cells:
        for b in cells:
            s, t = topo.padded_id(*a), topo.padded_id(*b)
            assert _close(full.distance(f, s, t), none.distance(f, s, t))


def test_labels_are_the_same_for_the_same_board(big_labels):
    m = wargrid.generate(30, 24, kind="square", seed=7)
    f = m.cost_field(unit="foot")
    a = prepare(m.grid, f, progress=False, core=150).upward
    b = prepare(m.grid, f, progress=False, core=150).upward
    labels = Upward._fields[Upward._fields.index("out_first"):Upward._fields.index("label_scale") + 1]
    assert all(np.array_equal(getattr(a, x), getattr(b, x)) for x in labels)
    # ranks in 16 bits, whole costs as 16-bit multiples of 1, parents as 8-bit slots (the hub: 255)
    assert (a.out_hub.dtype, a.out_dist.dtype, a.out_slot.dtype, a.label_scale.tolist()) == (
        np.uint16, np.uint16, np.uint8, [1.0, 255.0])


def test_labels_keep_float_costs_where_16_bits_would_round_them(big_labels):
    # sqrt(2) diagonal steps: no unit holds the costs, the labels keep floats (unit 1)
    g = wargrid.SquareGrid(26, 22, diagonal=True)
    rng = np.random.default_rng(8)
    cost = rng.choice([1.0, 2.0, 3.0, np.inf], size=g.shape, p=[0.5, 0.25, 0.15, 0.1])
    f = costs_of(g, cost, None)
    pp = prepare(g, f, progress=False, core=120)
    up = pp.upward
    assert up.out_dist.dtype == np.float64 and up.label_scale[0] == 1.0
    topo = g.topology
    cells = [c for c in g.cells() if math.isfinite(cost[c[1], c[0]])]
    for a in cells[::37]:
        want = dijkstra(g, cost, [a])
        for b in cells[::11]:
            d = pp.distance(f, topo.padded_id(*a), topo.padded_id(*b))
            assert _close(d, want.get(b, math.inf)) if b != a else True


def test_unit_of_label_costs():
    assert prep._unit(np.array([2.0, 6.0, 1024.0])) == 1.0
    assert prep._unit(np.array([0.25, 3.5])) == 0.25
    assert prep._unit(np.array([0.1])) is None  # no power of two down to 1/16 divides it
    assert prep._unit(np.array([65534.0])) == 1.0 and prep._unit(np.array([65535.0])) is None


def test_parent_slots_name_the_arc_or_the_hub():
    from wargrid._kernels.movement import ch_labels

    # core: 0 - 1 - 2 (a path); node 1's label: hub itself, then parent 2 (its slot 1), then parent 0 (slot 0)
    cf = np.array([0, 1, 3, 4])
    cnb = np.array([1, 0, 2, 1], dtype=np.int32)
    lf = np.array([0, 0, 3, 3])
    par = np.array([1, 2, 0], dtype=np.int32)
    slots = np.zeros(3, dtype=np.uint8)
    assert ch_labels.parent_slots(lf, par, cf, cnb, slots, 255) == 0
    assert slots.tolist() == [255, 1, 0]
    assert ch_labels.parent_slots(lf, np.array([1, 2, 3], dtype=np.int32), cf, cnb, slots, 255) == 1  # 3: no arc
