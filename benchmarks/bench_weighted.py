"""Weighted-board benchmark: hex strategy maps with terrain costs, wargrid against tcod and scipy, as ratios.

Run by hand from the repository root (peers: ``pip install -r benchmarks/requirements.txt``)::

    python benchmarks/bench_weighted.py                          # 512 (seeds 1-3, with and without rivers) and 1200
    python benchmarks/bench_weighted.py --sizes 512 --seeds 3 --queries 20 --sections astar,field
    python benchmarks/bench_weighted.py --sizes 512 --seeds 3 --no-square --sections routingkit

Boards: ``wargrid.generate(S, S, kind="hex", seed=s, rivers=0)`` and the same
with the generator's rivers, for every size ``S`` in ``--sizes`` below 1200
and every seed in ``--seeds``; the 1200 x 1200 world
``generate(1200, 1200, kind="hex", seed=5)``; a weighted square-8 board
(``generate(512, 512, kind="square", diagonal=True, seed=s, rivers=0)``).
Unit ``foot`` throughout. Queries are long: the goal is a reachable cell
more than ``S / 2`` hex steps (Chebyshev steps on the square board) from
the start. Every answer is checked against the full Dijkstra field from the
start (``Map.distance_field``), which also picks the goal.

Peers (graphs built once per board, not timed):

- tcod: a ``CustomGraph`` of the offset board. ``generate`` makes flat-top
  odd-q hex boards (odd columns shifted down), so a hex board is 12 edges:
  the 6 neighbour offsets of even columns, each added with
  ``add_edge((dy, dx), 1, cost=..., condition=even_columns)``, and the 6 of odd
  columns with ``condition=odd_columns``. tcod costs are integers: the
  terrain costs are small rationals, so they are multiplied by the smallest
  integer ``scale`` that makes every finite cost whole (1 for foot; 4 when a
  class has 0.75 roads), and tcod's distances divided by it are exact. The
  heuristic is ``set_heuristic(cardinal=c, diagonal=c)`` with ``c`` the
  smallest scaled cost: ``c`` times the Chebyshev distance on offset
  coordinates, which a hex step changes by at most one, so it is admissible.
  On the square-8 board the diagonal edges cost ``round(100000 * sqrt 2)``
  times the cost of the cell entered, only where both orthogonal cells beside
  the step are passable (wargrid's 'no-obstacle' corner rule), and the
  heuristic is octile; these costs are rounded, so the report gives tcod's
  largest relative error there.
- scipy: ``scipy.sparse.csgraph.dijkstra`` from one source on a CSR matrix of
  the same steps (float costs), for the distance-field section.

Sections (``--sections``):

- ``astar``: unprepared A*, ``wargrid.movement.dispatch.astar(..., search="astar")``
  against tcod's ``Pathfinder.path_to`` on the same query, interleaved;
  median and worst time a query and the ratio of medians.
- ``field``: a full-board distance field, ``Map.distance_field`` against tcod's
  ``Pathfinder.resolve()`` (Dijkstra over the whole graph, no heuristic) and
  scipy's ``dijkstra``; median times and ratios; fields compared.
- ``prepared``: only when the installed wargrid has ``Map.prepare``: build
  time and bytes a cell (the class and the board's shared structure) of ``prepare(unit="foot")``, ``Map.path`` query median
  and worst (and the median over tcod's from the ``astar`` section), one
  bridge cell destroyed (``set_overlay([cell], None)``; on a board without
  bridges a road cell of the first query's path that has one) then that
  query again (edit +
  query time, answer checked against a fresh Dijkstra), and a
  100 x 100 ``distance_table`` (checked against 100 Dijkstra fields). The
  table's and the partial customization's kernels are loaded first (a small table; an edit
  of another query's path, undone), as ``wargrid.warm_up`` does at a
  server's start: the times are a warm process's.
- ``routingkit``: wargrid's prepared queries against RoutingKit's customizable
  contraction hierarchy (``pip install routingkit-cch``), the field's reference
  implementation, in the same process, interleaved. Same arcs: the union over
  the terrain table's classes of ``Map.adjacency(unit=...)`` (one structure
  serves every class; a class without a step gets RoutingKit's ``inf_weight``),
  integer weights = costs x 1000 (exact for the tables' costs), same queries,
  every cost compared with Dijkstra's. RoutingKit's preprocessing is its
  inertial-flow nested-dissection order over the cells' coordinates, the
  structure and the first customization; a further class is one customization
  (``CCHMetric``) against one ``Map.prepare(unit=...)`` (a customization on
  the board's shared structure). A class is customized only (queries then
  search every arc, as RoutingKit's do): 50 queries are timed so, then the first class's
  query arcs are built (``build_query_arcs``, timed apart; the preprocessing
  row plus it is the first class's whole preparation) and the rest of the
  rows are that class's. Query with path:
  ``Map.path`` against ``CCHQuery.run`` (its result dropped before the next
  query, as the binding asks); distance only: ``Map.distance`` against the same
  run. Table: ``Map.distance_table`` against ``CCHOneToMany``. Edits
  (``--edits``, default 50): a random cell (without overlay) of a query's path
  made water (impassable for foot), timed with that query again; RoutingKit:
  ``CCHMetricPartialUpdater.apply`` on the arcs into the cell, then the query
  (the binding refuses an update while a query object lives, so the query
  object is made between the two, untimed); each edit undone after. Bytes a
  cell: the class's ``bytes`` plus the shared ``structure.bytes``; RoutingKit's resident-memory growth over its
  preprocessing.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from fractions import Fraction

import numpy as np

from bench_movement import peer, timed  # the scripts' folder is on sys.path when run as a script
from _bar import bar

TCOD_SQUARE_SCALE = 100_000  # square-8 tcod costs: cardinal 100000 x cost, diagonal 141421 x cost
SQRT2 = math.sqrt(2.0)


def ms(xs: list[float], how=statistics.median) -> float:
    return how(xs) * 1e3 if xs else float("nan")


# -- boards ------------------------------------------------------------------------------------------


def hex_distance_oddq(ax, ay, bx, by):
    """Hex steps between odd-q offset cells (arrays or ints)."""
    aq, ar = ax, ay - (ax - (ax & 1)) // 2
    bq, br = bx, by - (bx - (bx & 1)) // 2
    dq, dr = aq - bq, ar - br
    return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2


def steps(m):
    """``[(dx, dy, length, parity)]``: every neighbour step of the board (parity: column parity it applies to, or None)."""
    topo = m.grid.topology
    out = []
    for par in range(1 if topo.parity_mode == 0 else topo.dx.shape[0]):
        for d in range(topo.ndir):
            out.append((int(topo.dx[par, d]), int(topo.dy[par, d]), float(topo.step[d]),
                        None if topo.parity_mode == 0 else par))
    return out


def check_layout(m) -> None:
    topo = m.grid.topology
    if m.grid.kind == "hex" and not (topo.parity_mode == 1 and topo.hex_kind == 0 and not topo.wrap):
        sys.exit(f"expected a flat-top odd-q hex board without wrap, got {m.grid!r}")
    if m.grid.kind == "square" and not (topo.ndir == 8 and topo.corner_rule == 1 and not topo.wrap):
        sys.exit(f"expected a square-8 board with the 'no-obstacle' corner rule, got {m.grid!r}")
    if m.cost_field(unit="foot").edge.size:
        sys.exit("the board has edge costs, which the peers' graphs here do not model")


def cost_scale(cost: np.ndarray) -> int:
    """The smallest integer that makes every finite cost whole."""
    scale = 1
    for v in np.unique(cost[np.isfinite(cost)]).tolist():
        den = Fraction(v).limit_denominator(1000).denominator
        scale = scale * den // math.gcd(scale, den)
    if not np.all(np.abs(cost[np.isfinite(cost)] * scale - np.round(cost[np.isfinite(cost)] * scale)) < 1e-9):
        sys.exit("terrain costs are not small rationals")
    return scale


def step_ok(m, passable, dx, dy, parity):
    """``[y, x]``: the step (dx, dy) from (x, y) exists (target passable, corner rule, column parity)."""
    h, w = passable.shape
    pad = np.zeros((h + 2, w + 2), dtype=bool)
    pad[1:-1, 1:-1] = passable
    ok = passable & pad[1 + dy: 1 + dy + h, 1 + dx: 1 + dx + w]
    if parity is not None:
        ok &= (np.arange(w) & 1 == parity)[None, :]
    if m.grid.kind == "square" and dx and dy:
        ok &= pad[1:-1, 1 + dx: 1 + dx + w] & pad[1 + dy: 1 + dy + h, 1:-1]
    return ok


def tcod_graph(tcod, m, cost: np.ndarray):
    """``(graph, scale)``: tcod's graph of the board; tcod distance / scale = wargrid cost."""
    passable = np.isfinite(cost)
    whole = cost_scale(cost)
    icost = np.round(np.where(passable, cost, 0) * whole).astype(np.int32)  # 0: blocked
    hexb = m.grid.kind == "hex"
    graph = tcod.path.CustomGraph(cost.shape)  # indexed [y, x]
    for dx, dy, length, parity in steps(m):
        cond = step_ok(m, passable, dx, dy, parity).astype(np.int8)
        edge = 1 if hexb else round(TCOD_SQUARE_SCALE * length)
        graph.add_edge((dy, dx), edge, cost=icost, condition=cond)
    c = int(icost[passable].min())
    if hexb:
        graph.set_heuristic(cardinal=c, diagonal=c)
        return graph, whole
    graph.set_heuristic(cardinal=c * TCOD_SQUARE_SCALE, diagonal=c * round(TCOD_SQUARE_SCALE * SQRT2))
    return graph, whole * TCOD_SQUARE_SCALE


def tcod_query(tcod, graph, scale, a, b) -> float:
    pf = tcod.path.Pathfinder(graph)
    pf.add_root((a[1], a[0]))
    pf.path_to((b[1], b[0]))
    return float(pf.distance[b[1], b[0]]) / scale


def tcod_field(tcod, graph, scale, a) -> np.ndarray:
    pf = tcod.path.Pathfinder(graph)
    pf.add_root((a[1], a[0]))
    pf.resolve()
    d = pf.distance
    return np.where(d == np.iinfo(d.dtype).max, np.inf, d / scale)


def csr_graph(m, cost: np.ndarray):
    from scipy.sparse import csr_matrix

    h, w = cost.shape
    passable = np.isfinite(cost)
    src, dst, wt = [], [], []
    for dx, dy, length, parity in steps(m):
        ys, xs = np.nonzero(step_ok(m, passable, dx, dy, parity))
        src.append(ys * w + xs)
        dst.append((ys + dy) * w + xs + dx)
        wt.append(length * cost[ys + dy, xs + dx])
    n = h * w
    return csr_matrix((np.concatenate(wt), (np.concatenate(src), np.concatenate(dst))), shape=(n, n))


def pick_queries(m, n: int, seed: int):
    """``[(start, goal, field)]``: long queries and the Dijkstra field from each start (the oracle)."""
    cost = m.costs(unit="foot")
    h, w = cost.shape
    rng = np.random.default_rng(seed)
    ys, xs = np.nonzero(np.isfinite(cost))
    far = max(h, w) // 2
    out = []
    tries = 0
    while len(out) < n and tries < 50 * n:
        tries += 1
        i = int(rng.integers(xs.size))
        a = (int(xs[i]), int(ys[i]))
        field = m.distance_field(a, unit="foot")
        gy, gx = np.nonzero(np.isfinite(field))
        if m.grid.kind == "hex":
            dist = hex_distance_oddq(gx, gy, a[0], a[1])
        else:
            dist = np.maximum(np.abs(gx - a[0]), np.abs(gy - a[1]))
        ok = np.flatnonzero(dist > far)
        if ok.size == 0:
            continue
        j = int(ok[rng.integers(ok.size)])
        out.append((a, (int(gx[j]), int(gy[j])), field))
    return out


# -- sections -----------------------------------------------------------------------------------------


def close(a: float, b: float, tol: float = 1e-9) -> bool:
    return (math.isinf(a) and math.isinf(b)) or abs(a - b) <= tol * max(1.0, abs(b))


def bench_astar(name, m, queries, peers, problems) -> dict:
    from wargrid.movement import dispatch

    cd = m.cost_field(unit="foot")
    cost = m.costs(unit="foot")
    tcod = peers["tcod"]
    graph, scale = tcod_graph(tcod, m, cost) if tcod else (None, 1)
    a0, b0, _ = queries[0]
    dispatch.astar(m.grid, cd, a0, b0, search="astar")  # warm up: compile, step bits
    dispatch.astar(m.grid, cd, a0, b0, search="astar")
    tw, tt, terr = [], [], []
    for a, b, field in queries:
        want = float(field[b[1], b[0]])
        dt, p = timed(dispatch.astar, m.grid, cd, a, b, search="astar")
        tw.append(dt)
        if p is None or not close(p.cost, want):
            problems.append(f"{name}: wargrid A* {None if p is None else p.cost} != Dijkstra {want} for {a}->{b}")
        elif not close(path_cost(m, cost, p.cells), want):
            problems.append(f"{name}: wargrid A* path {a}->{b} walks {path_cost(m, cost, p.cells)}, not {want}")
        if graph is not None:
            dt, c = timed(tcod_query, tcod, graph, scale, a, b)
            tt.append(dt)
            terr.append(abs(c - want) / want)
    row = {"board": name, "n": len(queries), "w_med": ms(tw), "w_max": ms(tw, max)}
    if tt:
        row.update(t_med=ms(tt), t_max=ms(tt, max), t_err=max(terr), scale=scale)
        if m.grid.kind == "hex" and max(terr) > 1e-12:
            problems.append(f"{name}: tcod's hex costs differ from Dijkstra's (relative {max(terr):.2e})")
    return row


def path_cost(m, cost, cells) -> float:
    """The cost of walking ``cells`` (each a neighbour of the last), from the board's step rules."""
    total = 0.0
    moves = {(dx, dy, par): length for dx, dy, length, par in steps(m)}
    hexb = m.grid.kind == "hex"
    for (ax, ay), (bx, by) in zip(cells, cells[1:]):
        length = moves[(bx - ax, by - ay, ax & 1 if hexb else None)]
        total += length * float(cost[by, bx])
    return total


def bench_field(name, m, queries, peers, problems, repeats: int) -> dict:
    cost = m.costs(unit="foot")
    tcod, sp = peers["tcod"], peers["scipy.sparse.csgraph"]
    graph, scale = tcod_graph(tcod, m, cost) if tcod else (None, 1)
    csr = csr_graph(m, cost) if sp else None
    tw, tt, ts = [], [], []
    for k in range(repeats):
        a, _, want = queries[k % len(queries)]
        dt, f = timed(m.distance_field, a, unit="foot")
        tw.append(dt)
        if not np.array_equal(f, want):
            problems.append(f"{name}: distance_field from {a} changed between two calls")
        if graph is not None:
            dt, f = timed(tcod_field, tcod, graph, scale, a)
            tt.append(dt)
            fin = np.isfinite(want)
            tol = 1e-12 if m.grid.kind == "hex" else 1e-4
            if not np.array_equal(np.isfinite(f), fin) or np.abs(f[fin] - want[fin]).max() > tol * max(1.0, want[fin].max()):
                problems.append(f"{name}: tcod's field from {a} differs from wargrid's")
        if csr is not None:
            dt, f = timed(sp.dijkstra, csr, indices=a[1] * m.width + a[0])
            ts.append(dt)
            f = f.reshape(m.shape)
            fin = np.isfinite(want)
            if not np.array_equal(np.isfinite(f), fin) or np.abs(f[fin] - want[fin]).max() > 1e-9 * max(1.0, want[fin].max()):
                problems.append(f"{name}: scipy's field from {a} differs from wargrid's")
    return {"board": name, "w": ms(tw), "t": ms(tt) if tt else None, "s": ms(ts) if ts else None}


def bench_prepared(name, m, queries, problems, table: int) -> dict:
    prep = m.prepare(unit="foot")  # the board's structure and the class's customization
    row = {"board": name, "build": prep.build_seconds, "bpc": (prep.bytes + prep.structure.bytes) / m.grid.mask.sum()}
    a0, b0, _ = queries[0]
    m.path(a0, b0, unit="foot")
    tq = []
    for a, b, field in queries:
        want = float(field[b[1], b[0]])
        dt, p = timed(m.path, a, b, unit="foot")
        tq.append(dt)
        if p is None or not close(p.cost, want):
            problems.append(f"{name}: prepared path {None if p is None else p.cost} != Dijkstra {want} for {a}->{b}")
    row.update(q_med=ms(tq), q_max=ms(tq, max))
    # a distance table between the first cells of the queries' starts and goals (checked against fields)
    rng = np.random.default_rng(7)
    ys, xs = np.nonzero(np.isfinite(m.costs(unit="foot")))
    pick = rng.choice(xs.size, size=2 * table, replace=False)
    cells = [(int(xs[i]), int(ys[i])) for i in pick]
    src, dst = cells[:table], cells[table:]
    m.distance_table(src[:3], dst[:3], unit="foot")  # the table's kernels loaded (as wargrid.warm_up does)
    dt, tab = timed(m.distance_table, src, dst, unit="foot")
    row["table"] = dt * 1e3
    fields = (m.distance_field(s, unit="foot") for s in src)  # one field a source
    want = np.array([[f[t[1], t[0]] for t in dst] for f in fields])
    if tab.shape != want.shape or not np.allclose(tab, want, rtol=1e-9, atol=0) or not np.array_equal(np.isinf(tab), np.isinf(want)):
        problems.append(f"{name}: distance_table differs from Dijkstra")
    # an edit: one bridge cell destroyed (a road cell of the query's path where the board has no
    # bridge), then that query again: the first query with such a cell; the partial customization's kernels are
    # loaded first by one untimed edit on the next such query's path, undone
    edits = []
    for a, b, _ in queries:
        cell, kind = edit_cell(m, m.path(a, b, unit="foot"))
        if cell is not None:
            edits.append((a, b, cell, kind))
            if len(edits) == 2:
                break
    for a, b, cell, kind in edits[1:] or edits[:1]:  # (the same edit when only one query has such a cell)
        m.set_overlay([cell], None)
        m.path(a, b, unit="foot")
        m.set_overlay([cell], kind)
    for a, b, cell, kind in edits[:1]:
        m.path(a, b, unit="foot")  # the hierarchy's own field again (the undone edit made a new one)
        t0 = time.perf_counter()
        m.set_overlay([cell], None)
        p = m.path(a, b, unit="foot")
        row["edit"] = (time.perf_counter() - t0) * 1e3
        row["edit_kind"] = kind
        want = float(m.distance_field(a, unit="foot")[b[1], b[0]])
        if (p is None) != math.isinf(want) or (p is not None and not close(p.cost, want)):
            problems.append(f"{name}: after the {kind} at {cell} went, path {None if p is None else p.cost} != Dijkstra {want}")
        m.set_overlay([cell], kind)
    return row


RK_SCALE = 1000
"""RoutingKit's weights are integers: the step costs times this (the terrain tables' costs are whole or halves)."""
RK_INF = 2**31 - 1
"""RoutingKit's ``inf_weight``: an arc that cannot be used."""


def rk_arcs(m, units):
    """``(tail, head, {unit: weights})`` for RoutingKit: the arcs of ``Map.adjacency(unit=u)`` over every unit (node
    ids ``y * width + x``; one structure serves every class), each class's integer weights (``RK_INF``: no step)."""
    n = m.width * m.height
    per = {}
    for u in units:
        a = m.adjacency(unit=u).tocoo()
        a.sum_duplicates()
        per[u] = (a.row.astype(np.int64) * n + a.col, a.data)
    keys = np.unique(np.concatenate([k for k, _ in per.values()]))
    weights = {}
    for u, (k, w) in per.items():
        if not np.array_equal(np.round(w * RK_SCALE), w * RK_SCALE):
            raise SystemExit("step costs are not whole multiples of 1/1000: RoutingKit's integer weights would round them")
        out = np.full(keys.size, RK_INF, dtype=np.int64)
        out[np.searchsorted(keys, k)] = np.where(np.isfinite(w), np.round(w * RK_SCALE), RK_INF).astype(np.int64)
        weights[u] = out
    return keys // n, keys % n, weights


def rss_bytes() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def bench_routingkit(name, m, queries, problems, table: int, edits: int) -> dict:
    """wargrid's prepared queries against RoutingKit's CCH on the same arcs and queries, interleaved (see the notes)."""
    import routingkit_cch as rk

    classes = list(m.terrains.classes)
    w = m.width
    nid = lambda c: c[1] * w + c[0]
    row = {"board": name}
    tail, head, class_weights = rk_arcs(m, classes)
    weights = class_weights["foot"]
    ys, xs = np.divmod(np.arange(m.width * m.height), w)
    # preprocessing: RoutingKit's order (inertial flow over the cells' coordinates) + structure + first metric
    r0 = rss_bytes()
    t0 = time.perf_counter()
    order = rk.compute_order_inertial(m.width * m.height, tail.tolist(), head.tolist(), ys.astype(float).tolist(),
                                      xs.astype(float).tolist())
    t1 = time.perf_counter()
    cch = rk.CCH(order, tail.tolist(), head.tolist(), False)
    t2 = time.perf_counter()
    metric = rk.CCHMetric(cch, weights.tolist())
    t3 = time.perf_counter()
    row.update(rk_order=t1 - t0, rk_struct=t2 - t1, rk_custom=t3 - t2, rk_prep=t3 - t0,
               rk_bpc=(rss_bytes() - r0) / m.grid.mask.sum())
    t0 = time.perf_counter()
    pp = m.prepare(unit="foot")
    shared = pp.structure.bytes  # the board's part, shared by every class
    row.update(prep=time.perf_counter() - t0, bpc=(pp.bytes + shared) / m.grid.mask.sum())
    # a customized class answers at once over every arc (as RoutingKit's metric does); its query arcs
    # (a perfect customization) are built while a game loads, or bought by the queries themselves
    tp, td = [], []
    for a, b, _ in queries[:50]:
        tp.append(timed(m.path, a, b, unit="foot")[0])
        td.append(timed(m.distance, a, b, unit="foot")[0])
    t0 = time.perf_counter()
    pp.build_query_arcs()
    row.update(query_arcs=time.perf_counter() - t0, bpc=(pp.bytes + shared) / m.grid.mask.sum())
    row.update(path_every_arc=ms(tp), dist_every_arc=ms(td))
    # further classes: a customization each, on the shared structure (wargrid) or the CCH (RoutingKit)
    further, rk_further = [], []
    for unit in classes[1:]:
        wu = class_weights[unit]
        dt, _ = timed(m.prepare, unit=unit)
        further.append(dt)
        t0 = time.perf_counter()
        other = rk.CCHMetric(cch, wu.tolist())
        rk_further.append(time.perf_counter() - t0)
        del other
    row.update(further=ms(further) / 1e3 if further else float("nan"), rk_further=ms(rk_further) / 1e3 if rk_further else float("nan"))
    # queries, interleaved: wargrid path, wargrid distance, RoutingKit query (its result dropped before the next)
    q = rk.CCHQuery(metric)
    tp, td, tr = [], [], []
    a0, b0, _ = queries[0]
    m.path(a0, b0, unit="foot")
    m.distance(a0, b0, unit="foot")
    for a, b, field in queries:
        want = float(field[b[1], b[0]])
        dt, p = timed(m.path, a, b, unit="foot")
        tp.append(dt)
        dt, d = timed(m.distance, a, b, unit="foot")
        td.append(dt)
        t0 = time.perf_counter()
        res = q.run(nid(a), nid(b))
        got, npath = res.distance, len(res.node_path)
        tr.append(time.perf_counter() - t0)
        del res
        rk_cost = math.inf if got is None else got / RK_SCALE
        if p is None or not close(p.cost, want) or not close(d, want):
            problems.append(f"{name}: prepared {None if p is None else p.cost} / {d} != Dijkstra {want} for {a}->{b}")
        if not close(rk_cost, want) or (npath == 0) != math.isinf(want):
            problems.append(f"{name}: RoutingKit {rk_cost} != Dijkstra {want} for {a}->{b}")
    row.update(path=ms(tp), dist=ms(td), rk_query=ms(tr))
    # tables
    rng = np.random.default_rng(7)
    cy, cx = np.nonzero(np.isfinite(m.costs(unit="foot")))
    pick = rng.choice(cx.size, size=2 * table, replace=False)
    cells = [(int(cx[i]), int(cy[i])) for i in pick]
    src, dst = cells[:table], cells[table:]
    m.distance_table(src[:3], dst[:3], unit="foot")
    dt, tab = timed(m.distance_table, src, dst, unit="foot")
    t0 = time.perf_counter()
    otm = rk.CCHOneToMany(metric, [nid(c) for c in dst])
    rk_tab = [otm.distances_from(nid(c)) for c in src]
    row.update(table=dt * 1e3, rk_table=(time.perf_counter() - t0) * 1e3)
    del otm
    rk_tab = np.array([[math.inf if v is None else v / RK_SCALE for v in r] for r in rk_tab])
    if not np.allclose(np.where(np.isinf(tab), -1, tab), np.where(np.isinf(rk_tab), -1, rk_tab), rtol=1e-9, atol=0):
        problems.append(f"{name}: distance_table differs from RoutingKit's")
    # edits: a cell of a real path (no overlay) made water, then the next query, timed together; undone after
    del q
    updater = rk.CCHMetricPartialUpdater(cch)
    pp.prepare_edits()  # made ahead, untimed, as RoutingKit's updater is
    into = {}
    order_in = np.argsort(head, kind="stable")
    starts = np.searchsorted(head[order_in], np.arange(m.width * m.height + 1))
    te, tre = [], []
    erng = np.random.default_rng(11)
    base = np.asarray(m.terrain)
    for k in range(edits):
        a, b, _ = queries[k % len(queries)]
        p = m.path(a, b, unit="foot")
        if p is None:
            continue
        inner = [c for c in p.cells[1:-1] if m.overlay_name(c) is None]
        if not inner:
            continue
        cell = inner[int(erng.integers(len(inner)))]
        old = m.terrains.names[int(base[cell[1], cell[0]])]
        arcs = order_in[starts[nid(cell)]:starts[nid(cell) + 1]]
        t0 = time.perf_counter()
        m.set_terrain([cell], "water")
        p2 = m.path(a, b, unit="foot")
        te.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        updater.apply(metric, {int(e): RK_INF for e in arcs})
        t1 = time.perf_counter()
        q = rk.CCHQuery(metric)  # (the binding takes no update while a query object lives: not timed)
        t2 = time.perf_counter()
        res = q.run(nid(a), nid(b))
        got = res.distance
        tre.append(t1 - t0 + time.perf_counter() - t2)
        del res, q
        want = float(m.distance_field(a, unit="foot")[b[1], b[0]])
        got = math.inf if got is None else got / RK_SCALE
        if (p2 is None) != math.isinf(want) or (p2 is not None and not close(p2.cost, want)):
            problems.append(f"{name}: after an edit at {cell}, path {None if p2 is None else p2.cost} != Dijkstra {want}")
        if not close(got, want):
            problems.append(f"{name}: after an edit at {cell}, RoutingKit {got} != Dijkstra {want}")
        m.set_terrain([cell], old)
        updater.apply(metric, {int(e): int(weights[e]) for e in arcs})
    if te:
        row.update(edit=ms(te), edit_max=ms(te, max), rk_edit=ms(tre), rk_edit_max=ms(tre, max), edits=len(te))
    del updater, metric, cch
    return row


def edit_cell(m, path):
    """``(cell, overlay name)``: a bridge cell (one on ``path`` if any), else a road cell of ``path``; or ``(None, None)``."""
    on_path = [] if path is None else path.cells
    for kind in ("bridge", "road"):
        hits = [c for c in on_path if m.overlay_name(c) == kind]
        if hits:
            return hits[len(hits) // 2], kind
        if kind == "bridge":
            by, bx = np.nonzero(np.asarray(m.overlay) == m.terrains.index("bridge"))
            if by.size:
                return (int(bx[0]), int(by[0])), kind
    return None, None


# -- report ---------------------------------------------------------------------------------------------


def fmt(v) -> str:
    if v is None:
        return "not installed"
    if isinstance(v, float) and math.isnan(v):
        return "-"
    return f"{v:.2f}"


def ratio(a, b) -> str:
    if a is None or b is None or not b or math.isnan(a) or math.isnan(b):
        return "-"
    return f"{a / b:.3f}"


def summary(rows, ours: str, theirs: str, label: str, target: float) -> None:
    """The worst and the geometric mean of ``ours / theirs`` over the hex boards below 1200²."""
    rs = [r[ours] / r[theirs] for r in rows if r["board"].startswith("hex") and "1200" not in r["board"] and r.get(theirs)]
    if rs:
        print(f"\nhex boards below 1200², {label}: worst {max(rs):.3f}, geometric mean "
              f"{math.exp(sum(map(math.log, rs)) / len(rs)):.3f} (target <= {target})")


def boards(args):
    """``(name, make)`` for each board of the run."""
    import wargrid

    out = []
    for size in (int(s) for s in args.sizes.split(",")):
        if size >= 1200:
            out.append((f"hex {size}² seed 5", lambda size=size: wargrid.generate(size, size, kind="hex", seed=5)))
            continue
        for seed in (int(s) for s in args.seeds.split(",")):
            out.append((f"hex {size}² seed {seed} no rivers",
                        lambda size=size, seed=seed: wargrid.generate(size, size, kind="hex", seed=seed, rivers=0)))
            out.append((f"hex {size}² seed {seed} rivers",
                        lambda size=size, seed=seed: wargrid.generate(size, size, kind="hex", seed=seed)))
    if not args.no_square:
        seed = int(args.seeds.split(",")[0])
        out.append(("square-8 512² seed %d" % seed,
                    lambda: wargrid.generate(512, 512, kind="square", diagonal=True, seed=seed, rivers=0)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="512,1200", help="comma-separated board sizes (1200 and up: the seed-5 world)")
    ap.add_argument("--seeds", default="1,2,3", help="comma-separated seeds of the boards below 1200")
    ap.add_argument("--queries", type=int, default=20, help="long queries a board")
    ap.add_argument("--repeats", type=int, default=10, help="distance fields a board")
    ap.add_argument("--table", type=int, default=100, help="sources and targets of the distance table")
    ap.add_argument("--no-square", action="store_true", help="skip the weighted square-8 board")
    ap.add_argument("--sections", default="astar,field,prepared,routingkit",
                    help="comma-separated subset of astar,field,prepared,routingkit")
    ap.add_argument("--edits", type=int, default=50, help="random one-cell edits a board (routingkit section)")
    ap.add_argument("--customizable", action="store_true",
                    help="ignored: every prepared structure is customizable (kept for the commands recorded in docs/)")
    args = ap.parse_args()

    import wargrid

    peers = {k: peer(k) for k in ("tcod", "scipy.sparse.csgraph", "routingkit_cch")}
    print("peers:", ", ".join(f"{k} {'ok' if v else 'not installed'}" for k, v in peers.items()))
    sections = set(args.sections.split(","))
    if "prepared" in sections and not hasattr(wargrid.Map, "prepare"):
        print("prepared: this wargrid has no Map.prepare; section skipped")
        sections.discard("prepared")
    if "routingkit" in sections and not (peers["routingkit_cch"] and hasattr(wargrid.Map, "adjacency")):
        print("routingkit: routingkit-cch (or scipy for Map.adjacency) not installed; section skipped")
        sections.discard("routingkit")
    a_rows, f_rows, p_rows, r_rows, problems = [], [], [], [], []
    if "prepared" in sections or "routingkit" in sections:
        wargrid.warm_up("movement")  # the prepared kernels loaded first, as a server does at its start
    for i, (name, make) in enumerate(bar(boards(args), "boards")):
        m = make()
        check_layout(m)
        queries = pick_queries(m, args.queries, seed=100 + i)
        print(f"... {name}: {len(queries)} queries, grid {m.grid!r}", flush=True)
        if not queries:
            continue
        if "astar" in sections:
            a_rows.append(bench_astar(name, m, queries, peers, problems))
        if "field" in sections:
            f_rows.append(bench_field(name, m, queries, peers, problems, args.repeats))
        if "prepared" in sections:
            p_rows.append(bench_prepared(name, m, queries, problems, args.table))
        if "routingkit" in sections:
            r_rows.append(bench_routingkit(name, m, queries, problems, args.table, args.edits))

    if a_rows:
        print("\n## Unprepared A*, long queries (unit foot; times in ms)")
        print("| board | n | wargrid median | wargrid worst | tcod median | tcod worst | median ratio | tcod scale | tcod max rel. error |")
        print("|---|---|---|---|---|---|---|---|---|")
        for r in a_rows:
            print(f"| {r['board']} | {r['n']} | {fmt(r['w_med'])} | {fmt(r['w_max'])} | {fmt(r.get('t_med'))} | "
                  f"{fmt(r.get('t_max'))} | {ratio(r['w_med'], r.get('t_med'))} | {r.get('scale', '-')} | "
                  f"{r.get('t_err', float('nan')):.1e} |")
        summary(a_rows, "w_med", "t_med", "A*/tcod", 0.25)
    if f_rows:
        print("\n## Full-board distance field (median ms)")
        print("| board | wargrid | tcod Dijkstra | wargrid/tcod | scipy dijkstra | wargrid/scipy |")
        print("|---|---|---|---|---|---|")
        for r in f_rows:
            print(f"| {r['board']} | {fmt(r['w'])} | {fmt(r['t'])} | {ratio(r['w'], r['t'])} | {fmt(r['s'])} | {ratio(r['w'], r['s'])} |")
        summary(f_rows, "w", "t", "field/tcod", 0.4)
    if p_rows:
        print("\n## Prepared (Map.prepare(unit='foot'))")
        print("| board | build s | bytes/cell | query median ms | query worst ms | median / tcod's | edit + query ms | edit | table ms |")
        print("|---|---|---|---|---|---|---|---|---|")
        tcod_med = {r["board"]: r.get("t_med") for r in a_rows}
        for r in p_rows:
            print(f"| {r['board']} | {r['build']:.2f} | {r['bpc']:.1f} | {fmt(r['q_med'])} | {fmt(r['q_max'])} | "
                  f"{ratio(r['q_med'], tcod_med.get(r['board']))} | "
                  f"{fmt(r.get('edit', float('nan')))} | {r.get('edit_kind') or '-'} | {fmt(r['table'])} |")
        print("targets: 512² hex query <= 1/50 of tcod's; 1200² median <= 2 ms, worst <= 5 ms, build <= 60 s, "
              "<= 200 bytes/cell, bridge edit + query <= 50 ms, 100 x 100 table <= 1 s")
    if r_rows:
        print("\n## Prepared against RoutingKit's CCH (same arcs, weights x 1000, same queries; ratio = wargrid / RoutingKit)")
        print("| board | what | wargrid | RoutingKit | ratio | target |")
        print("|---|---|---|---|---|---|")
        for r in r_rows:
            lines = [
                ("preprocessing, first class (s)", r["prep"], r["rk_prep"], "<= 0.8"),
                ("each further class (s, median)", r["further"], r["rk_further"], "<= 1 (RoutingKit's customization)"),
                ("RoutingKit: order / structure / customization (s)", None, f"{r['rk_order']:.2f} / {r['rk_struct']:.2f} / {r['rk_custom']:.2f}", ""),
                ("first class's query arcs, built after it (s)", r.get("query_arcs"), r["rk_prep"], "(inside the 0.8)"),
                ("query with path, every arc: a class just customized (ms, median of 50)", r.get("path_every_arc"),
                 r["rk_query"], ""),
                ("distance only, every arc (ms, median of 50)", r.get("dist_every_arc"), r["rk_query"], ""),
                ("query with path (ms, median)", r["path"], r["rk_query"], "<= 0.6"),
                ("distance only (ms, median; RoutingKit: its query)", r["dist"], r["rk_query"], "<= 0.3"),
                (f"{args.table} x {args.table} table (ms)", r["table"], r["rk_table"], ""),
                (f"edit -> next exact answer (ms, median of {r.get('edits', 0)})", r.get("edit"), r.get("rk_edit"), "median <= 1 ms"),
                ("edit -> next exact answer (ms, worst)", r.get("edit_max"), r.get("rk_edit_max"), "worst <= 10 ms"),
                ("bytes a cell (RoutingKit: resident growth)", r["bpc"], r["rk_bpc"], "<= 200"),
            ]
            for what, ours, theirs, target in lines:
                if ours is None:
                    print(f"| {r['board']} | {what} | - | {theirs} | - | {target} |")
                    continue
                print(f"| {r['board']} | {what} | {fmt(ours)} | {fmt(theirs)} | {ratio(ours, theirs)} | {target} |")
    print("\n## Checks")
    if problems:
        for p in problems[:40]:
            print("-", p)
    else:
        print("every wargrid answer equals Dijkstra's; tcod's hex costs are exact; every field matches")


if __name__ == "__main__":
    main()
