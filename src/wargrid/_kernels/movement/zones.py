"""Connectivity-zone kernels over the padded flat layout of ``Topology``.

Two padded cells ``p`` and ``q`` are *linked* when ``q`` is the neighbour of
``p`` in some direction ``d``, both are passable (finite entry cost), the
corner rule allows the step (diagonals on square-8 boards) and the step's
extra edge cost is finite in at least one of the two directions (a wall both
ways disconnects; a one-way wall still links the cells, so ``connected`` is
never false for a reachable pair). Zones are the connected components of
that relation. The same kernels serve every board kind: the topology is data
(offsets, parity mode, corner table, wrap flag).

Arguments shared by every kernel: ``cell`` (padded entry costs, ``inf`` for
impassable and padding), ``edge`` (empty, or ``padded_size * ndir`` extra
step costs), ``offsets`` ``(2, ndir)``, ``corner`` ``(ndir, 2)``,
``parity_mode``, ``corner_rule``, ``wrap``, ``width``, ``height``.
Labels are int32 (a board holds at most 2**28 cells); padded ids are int64.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, jit
from .steps import corner_ok, step_to, unpack_topo


INF = np.inf


@jit
def _topo(topo):
    """``(offsets, corner, parity_mode, corner_rule, wrap, width, pw, ndir, off, fcorner)`` from the ``topo``
    bundle: ``offsets`` and ``corner`` as tables, ``off`` and ``fcorner`` flat (as ``steps.step_to`` reads them)."""
    off, _, corner, ndir, pmode, crule, wrap, width, pw = unpack_topo(topo)
    return off.reshape((2, ndir)), corner.reshape((ndir, 2)), pmode, crule, wrap, width, pw, ndir, off, corner


@helper
def _linked(cell, edge, p, d, q, off, corner, parity_mode, corner_rule, wrap, width, pw, ndir):
    """Whether passable ``p`` and its passable neighbour ``q`` (direction ``d``) are linked."""
    if corner_rule != 0 and not corner_ok(cell, p, d, corner, corner_rule, off, ndir, parity_mode, wrap, width, pw):
        return False
    if edge.shape[0] == 0 or edge[p * ndir + d] < INF:
        return True
    for d2 in range(ndir):  # a wall this way: is the step back open?
        if step_to(q, d2, off, ndir, parity_mode, wrap, width, pw) == p and edge[q * ndir + d2] < INF:
            return True
    return False


@jit
def _push(queue, tail, q):
    """Append ``q`` at ``queue[tail]``, doubling the queue when full; return the queue."""
    if tail == queue.shape[0]:
        bigger = np.empty(2 * tail, dtype=np.int64)
        bigger[:tail] = queue
        queue = bigger
    queue[tail] = q
    return queue


@helper
def _union(parent, a, b):
    """Union the sets of ``a`` and ``b`` in ``parent``: the smaller root becomes the root."""
    while parent[a] != a:
        a = parent[a]
    while parent[b] != b:
        b = parent[b]
    if a < b:
        parent[b] = a
    elif b < a:
        parent[a] = b


@jit
def _number_roots(parent, n):
    """Number the sets of ``parent[:n]`` ``0..count-1`` in order of their roots; return ``count``.

    Every entry points to a smaller one or is a root, so one forward pass
    works. The table is then shifted by one (``parent[i + 1]`` is the number of
    ``i``'s set, ``parent[0] = -1``) so that ``-1`` maps to ``-1`` without a branch.
    """
    count = 0
    for i in range(n):
        r = parent[i]
        if r == i:
            parent[i] = count
            count += 1
        else:
            parent[i] = parent[r]
    for i in range(n, 0, -1):
        parent[i] = parent[i - 1]
    parent[0] = -1
    return count


@jit
def label_board(src, edge, topo, height, dirs, out, dest, parent):
    """Label every padded cell by zone into ``out`` (int32, padded size); return ``(zone count, sizes)``.

    ``src`` is ``(cell, cstride, coff, lo, hi)``: cell ``(x, y)`` is passable
    when ``lo < cell[y * cstride + x + coff] < hi``
    (costs: ``-1.0, inf``; booleans viewed as uint8: ``0, 2``): ``cell`` is either padded
    (``cstride = width + 2``, ``coff = width + 3``) or a plain ``height * width``
    layer (``width, 0``). With edge costs ``cell`` must be padded costs.
    Impassable cells and padding get ``-1``; zones are numbered ``0..n-1`` in
    row-major order of their first cell. Two passes as in classic
    connected-component labelling: a scan gives each passable cell the
    provisional label of an earlier linked neighbour (``dirs``: the
    directions worth following; only those pointing back in scan order are
    used) and unions the labels it sees; links across the wrap seam are
    joined after the scan; a last pass writes the final labels into ``out``,
    and ``sizes`` (``count + 1`` entries: cells of zone ``z`` at ``z + 1``),
    or, when ``dest`` is not empty, into the unpadded ``dest`` (``height * width``;
    ``sizes`` is then empty).
    ``parent`` is int32 scratch of ``height * width + 1`` entries (provisional
    labels never outnumber the cells; only the entries used are touched).
    """
    cell, cstride, coff, lo, hi = src
    offsets, corner, parity_mode, corner_rule, wrap, width, pw, ndir, off, fcorner = _topo(topo)
    has_edge = edge.shape[0] > 0
    boff = np.empty((2, dirs.shape[0]), dtype=np.int64)
    bdir = np.empty((2, dirs.shape[0]), dtype=np.int64)
    nback = np.zeros(2, dtype=np.int64)
    # without edge costs the west neighbour (offset -1, on every board kind) is the
    # previous cell of the scan: its label is carried in ``prev`` instead of loaded
    use_prev = not has_edge
    for par in range(2):
        for d in dirs:
            if offsets[par, d] == -1 and use_prev:
                continue
            if offsets[par, d] < 0:
                boff[par, nback[par]] = offsets[par, d]
                bdir[par, nback[par]] = d
                nback[par] += 1
    out[: pw + 1] = -1
    out[(height + 1) * pw - 1 :] = -1
    nprov = np.int64(0)  # (int64 from the start: a literal 0 types _number_roots once more)
    pmx = 1 if parity_mode == 1 else 0
    pmy = 1 if parity_mode == 2 else 0
    for y in range(height):
        row = (y + 1) * pw + 1
        out[row - 1] = -1
        out[row + width] = -1
        prev = -1
        for x in range(width):
            p = row + x
            v = cell[np.uint64(y * cstride + x + coff)]
            if not (lo < v < hi):
                out[p] = -1
                prev = -1
                continue
            par = (x & pmx) | (y & pmy)
            lab = prev
            for k in range(nback[par]):
                q = p + boff[np.uint64(par), np.uint64(k)]
                lq = out[np.uint64(q)]  # unsigned: no negative-index test
                if lq < 0 or lq == lab:
                    continue
                if has_edge:
                    d = bdir[par, k]
                    if not _linked(cell, edge, p, d, q, off, fcorner, parity_mode, corner_rule, wrap, width, pw, ndir):
                        continue
                if lab < 0:
                    lab = lq
                    continue
                a = lab
                while parent[a] != a:
                    parent[a] = parent[parent[a]]
                    a = parent[a]
                b = lq
                while parent[b] != b:
                    parent[b] = parent[parent[b]]
                    b = parent[b]
                if b < a:
                    parent[a] = b
                    lab = b
                else:
                    parent[b] = a
                    lab = a
            if lab < 0:
                parent[nprov] = nprov
                lab = nprov
                nprov += 1
            out[p] = lab
            if use_prev:
                prev = lab
    if wrap:
        # links across the seam (from column 0, and from the last column for one-way walls)
        for y in range(height):
            for x in (0, width - 1):
                p = (y + 1) * pw + 1 + x
                if out[p] < 0:
                    continue
                for d in dirs:
                    q = step_to(p, d, off, ndir, parity_mode, wrap, width, pw)
                    if out[q] < 0 or abs(q % pw - 1 - x) <= 1:
                        continue
                    if has_edge:
                        if not _linked(cell, edge, p, d, q, off, fcorner, parity_mode, corner_rule, wrap, width, pw, ndir):
                            continue
                    _union(parent, out[p], out[q])
    # each set's root is its smallest provisional label
    count = _number_roots(parent, nprov)
    # sizes[z + 1] counts the cells of zone z (sizes[0] the impassable ones), padded mode only
    sizes = np.zeros(count + 1 if dest.shape[0] == 0 else 0, dtype=np.int64)
    if dest.shape[0] == 0:
        for y in range(height):
            row = (y + 1) * pw + 1
            for x in range(width):
                i = np.uint64(row + x)
                lab = parent[np.uint64(out[i] + 1)]
                out[i] = lab
                sizes[np.uint64(lab + 1)] += 1
    else:
        for y in range(height):
            row = (y + 1) * pw + 1
            for x in range(width):
                dest[np.uint64(y * width + x)] = parent[np.uint64(out[np.uint64(row + x)] + 1)]
    return count, sizes


@jit
def reflood(cell, edge, topo, labels, stamp, gen, seeds, old_ids, next_id, comps):
    """Re-label the zones reached from ``seeds`` (padded ids of passable cells).

    Each new component keeps the old id (from sorted ``old_ids``) that most of
    its cells had, unless an earlier component took it; otherwise it gets
    ``next_id``, ``next_id + 1``, ... Cells visited are marked in ``stamp``
    with ``gen``. Work is proportional to the components reached. Writes one
    entry per component to ``comps = (comp_ids, comp_sizes)`` (length
    ``len(seeds)``); returns ``(number of components, next free id)``.
    """
    offsets, corner, parity_mode, corner_rule, wrap, width, pw, ndir, off, fcorner = _topo(topo)
    comp_ids, comp_sizes = comps
    k = old_ids.shape[0]
    used = np.zeros(k, dtype=np.bool_)
    counts = np.zeros(k, dtype=np.int64)
    queue = np.empty(16, dtype=np.int64)
    ncomp = 0
    for s in seeds:
        if stamp[s] == gen or not cell[s] < INF:
            continue
        stamp[s] = gen
        counts[:] = 0
        queue[0] = s
        head = 0
        tail = 1
        while head < tail:
            p = queue[head]
            head += 1
            lab = labels[p]
            if lab >= 0:
                i = np.searchsorted(old_ids, lab)
                if i < k and old_ids[i] == lab:
                    counts[i] += 1
            for d in range(ndir):
                q = step_to(p, d, off, ndir, parity_mode, wrap, width, pw)
                if stamp[q] == gen or not cell[q] < INF:
                    continue
                if not _linked(cell, edge, p, d, q, off, fcorner, parity_mode, corner_rule, wrap, width, pw, ndir):
                    continue
                stamp[q] = gen
                queue = _push(queue, tail, q)
                tail += 1
        best = -1
        most = 0
        for i in range(k):
            if not used[i] and counts[i] > most:
                best = i
                most = counts[i]
        if best >= 0:
            used[best] = True
            cid = old_ids[best]
        else:
            cid = next_id
            next_id += 1
        for j in range(tail):
            labels[queue[j]] = cid
        comp_ids[ncomp] = cid
        comp_sizes[ncomp] = tail
        ncomp += 1
    return ncomp, next_id


@jit
def link_pairs(cell, edge, topo, labels, cells):
    """Linked neighbour pairs ``(p, q)`` with different labels around padded ``cells``.

    Returns an ``(m, 2)`` int64 array of padded ids.
    """
    offsets, corner, parity_mode, corner_rule, wrap, width, pw, ndir, off, fcorner = _topo(topo)
    out = np.empty((cells.shape[0] * ndir, 2), dtype=np.int64)
    m = 0
    for p in cells:
        if not cell[p] < INF:
            continue
        for d in range(ndir):
            q = step_to(p, d, off, ndir, parity_mode, wrap, width, pw)
            if not cell[q] < INF or labels[q] == labels[p]:
                continue
            if _linked(cell, edge, p, d, q, off, fcorner, parity_mode, corner_rule, wrap, width, pw, ndir):
                out[m, 0] = p
                out[m, 1] = q
                m += 1
    return out[:m].copy()


@jit
def relabel(cell, edge, topo, labels, start, old, new):
    """Flood the cells labelled ``old`` linked to ``start`` and label them ``new``; return their count."""
    offsets, corner, parity_mode, corner_rule, wrap, width, pw, ndir, off, fcorner = _topo(topo)
    if labels[start] != old:
        return 0
    queue = np.empty(16, dtype=np.int64)
    labels[start] = new
    queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        p = queue[head]
        head += 1
        for d in range(ndir):
            q = step_to(p, d, off, ndir, parity_mode, wrap, width, pw)
            if labels[q] != old:
                continue
            if not _linked(cell, edge, p, d, q, off, fcorner, parity_mode, corner_rule, wrap, width, pw, ndir):
                continue
            labels[q] = new
            queue = _push(queue, tail, q)
            tail += 1
    return tail


@jit
def split_zone(cell, edge, topo, labels, stamp, base, seeds, label, next_id, comps):
    """After zone ``label`` lost links, find the parts it fell into; work bounded by the smaller parts.

    A breadth-first search runs from all ``seeds`` (padded ids of passable
    cells labelled ``label`` around the change) at once, over cells still
    labelled ``label``; each seed's front claims cells (``stamp[p] = base +
    front``) and fronts that meet are merged. The search stops as soon as all
    fronts have met (the zone did not split) or all fronts but one are
    exhausted: those are complete parts. The part still growing (or, if all
    were exhausted, the largest) keeps ``label``; every other part gets
    ``next_id``, ``next_id + 1``, ... and is re-labelled. Writes the new
    parts' ids and sizes to ``comps = (comp_ids, comp_sizes)``; returns
    ``(number of new parts, next free id)``.
    """
    offsets, corner, parity_mode, corner_rule, wrap, width, pw, ndir, off, fcorner = _topo(topo)
    comp_ids, comp_sizes = comps
    k = seeds.shape[0]
    root = np.arange(k)
    pending = np.ones(k, dtype=np.int64)
    count = np.ones(k, dtype=np.int64)
    queue = np.empty(max(64, 2 * k), dtype=np.int64)
    for i in range(k):
        stamp[seeds[i]] = base + i
        queue[i] = seeds[i]
    tail = k
    head = 0
    nroots = k
    nactive = k
    while head < tail and nroots > 1 and nactive > 1:
        p = queue[head]
        head += 1
        a = stamp[p] - base
        while root[a] != a:
            a = root[a]
        pending[a] -= 1
        for d in range(ndir):
            q = step_to(p, d, off, ndir, parity_mode, wrap, width, pw)
            if labels[q] != label or not cell[q] < INF:
                continue
            if not _linked(cell, edge, p, d, q, off, fcorner, parity_mode, corner_rule, wrap, width, pw, ndir):
                continue
            sq = stamp[q]
            if base <= sq < base + k:
                b = sq - base
                while root[b] != b:
                    root[b] = root[root[b]]
                    b = root[b]
                if b != a:  # two growing fronts meet
                    root[b] = a
                    pending[a] += pending[b]
                    count[a] += count[b]
                    nroots -= 1
                    nactive -= 1
            else:
                stamp[q] = base + a
                queue = _push(queue, tail, q)
                tail += 1
                pending[a] += 1
                count[a] += 1
        if pending[a] == 0:
            nactive -= 1
    if nroots == 1:
        return 0, next_id
    # roots: the one still growing keeps the label, else the largest
    keeper = -1
    for i in range(k):
        if root[i] != i:
            continue
        if pending[i] > 0:  # at most one part is still growing
            keeper = i
            break
        if keeper < 0 or count[i] > count[keeper]:
            keeper = i
    newid = np.full(k, -1, dtype=np.int64)
    ncomp = 0
    for i in range(k):
        if root[i] == i and i != keeper:
            newid[i] = next_id
            comp_ids[ncomp] = next_id
            comp_sizes[ncomp] = count[i]
            ncomp += 1
            next_id += 1
    for j in range(tail):
        c = queue[j]
        r = stamp[c] - base
        while root[r] != r:
            r = root[r]
        if r != keeper:
            labels[c] = newid[r]
    return ncomp, next_id


@jit
def label_runs(src, runs, dst, sized, scratch):
    """Label zones run by run, for boards whose links are rows' runs and the rows above (no edge costs).

    ``src = (cell, cstride, coff, lo, hi)`` as in ``label_board``, ``runs =
    (ulo, uhi, pmx, pmy, wrap, width, height)`` the board's run links,
    ``dst = (out, ostride, ooff)``, ``scratch = (rs, re, parent)``.
    A run is a maximal horizontal stretch of passable cells (``lo < cell < hi``;
    cell ``(x, y)`` at ``y * cstride + x + coff``). The
    cells of the row above linked to a cell in column ``x`` are the columns
    ``x + ulo[par] .. x + uhi[par]`` (``par = (x & pmx) | (y & pmy)``, each
    range containing ``x``), so a run ``a .. b`` touches the columns
    ``a + ulo[par(a)] .. b + uhi[par(b)]`` above; with ``wrap`` a column ``-1``
    or ``width`` goes round the seam, and a row's first and last runs join
    when they meet at the seam. One pass over the rows finds the runs
    (branch-free: ``rs``/``re`` get each run's first column and end, ``parent``
    the union-find links; each holds at least ``height * ((width + 1) // 2) + 1``
    int32 entries; ``out`` gets each cell's run index + 1, 0 between runs),
    unions each run with the runs it touches above (a set's root is its first
    run in row-major order), numbers the roots ``0..n-1`` in that order, and
    turns ``out`` into the labels, ``-1`` between runs (cell ``(x, y)`` at
    ``y * ostride + x + ooff``). With ``sized`` ``out`` is the padded layout (``ostride = width + 2``,
    ``ooff = width + 3``): its padding is set to ``-1`` too and the cells per
    zone are counted. Returns ``(zone count, sizes)`` (``sizes`` empty unless
    ``sized``).
    """
    cell, cstride, coff, lo, hi = src
    ulo, uhi, pmx, pmy, wrap, width, height = runs
    out, ostride, ooff = dst
    rs, re, parent = scratch
    w = np.int64(width)
    nrun = np.int64(0)
    prevfirst = np.int64(0)
    for y in range(height):
        first = nrun
        base = y * cstride + coff
        ob = y * ostride + ooff
        prev = np.int64(0)
        ends = nrun
        for x in range(w):
            c = cell[np.uint64(base + x)]
            v = np.int64((c > lo) & (c < hi))
            rs[np.uint64(nrun)] = x
            re[np.uint64(ends)] = x
            nrun += v & (prev ^ 1)
            ends += prev & (v ^ 1)
            prev = v
            out[np.uint64(ob + x)] = nrun * v  # run index + 1, 0 between runs
        re[np.uint64(ends)] = w
        # unions with the runs of the row above (indices prevfirst .. first - 1)
        k = prevfirst
        py = y & pmy
        for j in range(first, nrun):
            a = np.int64(rs[np.uint64(j)])
            b = np.int64(re[np.uint64(j)]) - 1
            lox = a + ulo[np.uint64((a & pmx) | py)]
            hix = b + uhi[np.uint64((b & pmx) | py)]
            while k < first and re[np.uint64(k)] <= lox:
                k += 1
            root = j
            i = k
            if i < first and rs[np.uint64(i)] <= hix:
                # one run touched: link to its parent (a smaller run of its set; no find)
                root = np.int64(parent[np.uint64(i)])
                i += 1
                if i < first and rs[np.uint64(i)] <= hix:
                    while parent[np.uint64(root)] != root:
                        root = np.int64(parent[np.uint64(root)])
                    while i < first and rs[np.uint64(i)] <= hix:
                        r = np.int64(i)
                        while parent[np.uint64(r)] != r:
                            parent[np.uint64(r)] = parent[np.uint64(parent[np.uint64(r)])]
                            r = np.int64(parent[np.uint64(r)])
                        if r < root:
                            parent[np.uint64(root)] = r
                            root = r
                        elif r > root:
                            parent[np.uint64(r)] = root
                        i += 1
            parent[np.uint64(j)] = root
        if wrap and first < nrun:
            if prevfirst < first:
                # round the seam: column -1 is the last column, column width the first
                a = np.int64(rs[first])
                if a + ulo[(a & pmx) | py] < 0 and re[first - 1] == w:
                    _union(parent, first, first - 1)
                b = np.int64(re[nrun - 1]) - 1
                if b + uhi[(b & pmx) | py] >= w and rs[prevfirst] == 0:
                    _union(parent, nrun - 1, prevfirst)
            if nrun - first >= 2 and rs[first] == 0 and re[nrun - 1] == w:
                _union(parent, first, nrun - 1)
        prevfirst = first
    # roots are their sets' smallest runs: number them in order, into lab[j + 1]
    # (lab[0] = -1 for the cells between runs)
    lab = parent
    count = _number_roots(parent, nrun)
    sizes = np.zeros(count if sized else 0, dtype=np.int64)
    if sized:
        for j in range(nrun):
            sizes[np.uint64(lab[j + 1])] += re[j] - rs[j]
        out[:ooff] = -1
        out[height * ostride + ooff - 1 :] = -1
    for y in range(height):
        ob = y * ostride + ooff
        for x in range(w):
            out[np.uint64(ob + x)] = lab[np.uint64(out[np.uint64(ob + x)])]
        if sized:
            out[ob - 1] = -1
            out[ob + w] = -1
    return count, sizes
