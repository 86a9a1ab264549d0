"""The partial customization's kernel against another version of it, paired edit by edit (thread CPU time).

The edits of ``bench_weighted.py``'s routingkit section (``cch_edits.py``'s): a random cell of one of 20 long random
queries' paths made water, 512 x 512 hex seed 3 without rivers, the foot class's query arcs built and its edits
prepared. Each rise is applied four times, by this tree's ``update``, the other file's, the other's and this one's again
(undone after each by this tree's kernel, a fall; a kernel's time is the mean of its two), 128 MB written before each
timed call (the benchmark's Dijkstra check between edits leaves the kernel's data out of cache as this does); the
weights after each are compared. (A rise undone can leave other middles, of the same weights, so the two runs of an
edit need not recompute the same arcs: the run that comes first after the previous edit's undos tends to recompute
more: the kernels go in the order A B B A on one edit, B A A B on the next.) The other version is a copy of ``src/wargrid/_kernels/movement/cch/update.py``,
e.g. ``git show main:src/wargrid/_kernels/movement/cch/update.py > /tmp/update_main.py``; its relative imports are
made absolute here. With ``--counts``, this tree's kernel alone, and per edit the merges' steps, the lower triangles
they met, the upper triangles looked at and those whose sum changed (a counting copy of ``_recompute`` and
``update``: slower; the counts, not the times, are its point).

    PYTHONPATH=src python benchmarks/cch_update_ab.py /tmp/update_main.py [--edits 50]
    PYTHONPATH=src python benchmarks/cch_update_ab.py --counts
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench_weighted import pick_queries  # the scripts' folder is on sys.path when run as a script
from cch_edits import path_cells

import wargrid
from wargrid._kernels.movement import cch as k

IMPORTS = {"from ...": "from wargrid._kernels.", "from ..steps": "from wargrid._kernels.movement.steps",
           "from ..heap": "from wargrid._kernels.movement.heap", "from .customize": "from wargrid._kernels.movement.cch.customize",
           "from .order": "from wargrid._kernels.movement.cch.order"}
COUNTS = {  # (this tree's text, the counting copy's): counters 0 merge steps, 1 lower triangles, 2 upper, 3 changed sums
    "def _recompute(a, u, x, down_first, down_arc, dtail, wd, inp, slot, w, mid, cnt):":
        "def _recompute(a, u, x, down_first, down_arc, dtail, wd, inp, slot, w, mid, cnt, ctr):",
    "    while i < iend and j < jend:  # the two runs merged\n":
        "    while i < iend and j < jend:  # the two runs merged\n        ctr[0] += 1\n",
    "        if tu == tx:  # the lower triangle tu: entries i = (tu, u), j = (tu, x) (tested first: most steps are)\n":
        "        if tu == tx:  # the lower triangle tu: entries i = (tu, u), j = (tu, x) (tested first: most steps are)\n"
        "            ctr[1] += 1\n",
    "           queued, lean):": "           queued, lean, ctr):",
    "dtail, wd, inp, slot, w, mid, cnt)\n": "dtail, wd, inp, slot, w, mid, cnt, ctr)\n",
    "            if c == a:\n                continue\n": "            if c == a:\n                continue\n            ctr[2] += 1\n",
    "            b = -1\n": "            ctr[3] += 1\n            b = -1\n",
}


def load(path: Path, counting: bool = False):  # type: ignore[no-untyped-def]
    """The kernel module in ``path`` with absolute imports (``counting``: with the counters of ``COUNTS``)."""
    text = path.read_text(encoding="utf-8")
    for old, new in IMPORTS.items():
        text = text.replace(old, new)
    for old, new in (COUNTS.items() if counting else ()):
        if old not in text:
            raise SystemExit(f"--counts: this kernel no longer has {old.strip()!r} (COUNTS needs updating)")
        text = text.replace(old, new)
    out = Path(tempfile.mkdtemp()) / f"update_{'counts' if counting else 'other'}.py"
    out.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(out.stem, out)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[out.stem] = mod
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("other", nargs="?", type=Path, help="the other version's update.py")
    ap.add_argument("--edits", type=int, default=50)
    ap.add_argument("--counts", action="store_true", help="this tree's kernel with counters (see the notes)")
    args = ap.parse_args()
    if not args.counts and args.other is None:
        ap.error("give the other version's update.py, or --counts")
    this = k.update
    kernels = {"this": this}
    if args.counts:
        ctr = np.zeros(4, dtype=np.int64)
        counting = load(Path(k.__file__).parent / "update.py", counting=True)
        kernels = {"this": lambda *a: counting.update(*a, ctr)}
    else:
        kernels["other"] = load(args.other).update
    m = wargrid.generate(512, 512, kind="hex", seed=3, rivers=0, progress=False)
    queries = pick_queries(m, 20, seed=100)
    pp = m.prepare(unit="foot", progress=False)
    pp.build_query_arcs()
    pp.prepare_edits()
    junk = np.zeros(16 << 20)
    now: dict[str, object] = {"kernel": None}
    rows: dict[str, list[tuple[float, int, int, list[int]]]] = {name: [] for name in kernels}

    def timed(*a):  # type: ignore[no-untyped-def]
        name = now["kernel"]
        if name is None:
            return this(*a)
        junk[:] += 1.0
        c0 = time.thread_time()
        out = kernels[name](*a)  # type: ignore[index]
        rows[name].append((time.thread_time() - c0, int(out[0]), int(out[2]), ctr.tolist() if args.counts else []))  # type: ignore[index]
        if args.counts:
            ctr[:] = 0
        return out

    k.update = timed
    base = np.asarray(m.terrain)

    def edit(cell, name):  # type: ignore[no-untyped-def]
        old = m.terrains.names[int(base[cell[1], cell[0]])]
        m.set_terrain([cell], "water")
        now["kernel"] = name
        pp.sync(m.derived.cost_field("foot"))
        now["kernel"] = None
        w = pp._weighted().weight.copy()
        m.set_terrain([cell], old)
        pp.sync(m.derived.cost_field("foot"))
        return w

    a, b, _ = queries[0]  # compiled and warmed on a cell of the first path (not counted)
    for name in kernels:
        edit([c for c in m.path(a, b, unit="foot").cells[1:-1] if m.overlay_name(c) is None][0], name)
    for r in rows.values():
        r.clear()
    cells = []
    for i, (_, _, cell) in enumerate(path_cells(m, queries, args.edits)):
        one = list(kernels) if i % 2 == 0 else list(kernels)[::-1]
        ws = [edit(cell, name) for name in (one if args.counts else [*one, *one[::-1]])]  # (A B B A, B A A B)
        if any(not np.array_equal(w, ws[0]) for w in ws[1:]):
            raise SystemExit(f"the two kernels' weights differ after the rise at {cell}")
        cells.append(cell)
    k.update = this
    for name, r in rows.items():  # an edit's two runs of a kernel: their mean
        if not args.counts:
            rows[name] = r = [(x[0] / 2 + y[0] / 2, x[1], (x[2] + y[2]) // 2, x[3]) for x, y in zip(r[::2], r[1::2])]
        t = [x[0] * 1e3 for x in r]
        print(f"{name}: {len(t)} rises, thread CPU ms: median {statistics.median(t):.3f}, sum {sum(t):.1f}, "
              f"worst {max(t):.2f}; arcs changed / recomputed, median: {statistics.median(x[1] for x in r):.0f} / "
              f"{statistics.median(x[2] for x in r):.0f}")
    if args.counts:
        print("| rise | ms | changed / recomputed | merge steps | lower triangles | upper triangles | their sums changed |")
        print("|---|---|---|---|---|---|---|")
        r = rows["this"]
        for j in sorted(range(len(r)), key=lambda j: r[j][0]):
            print(f"| {cells[j]} | {r[j][0] * 1e3:.2f} | {r[j][1]} / {r[j][2]} | " + " | ".join(str(c) for c in r[j][3]) + " |")
        return
    a, b = (np.array([x[0] for x in rows[name]]) for name in ("other", "this"))
    print(f"this / other, paired: median {np.median(b / a):.3f}, sum {b.sum() / a.sum():.3f}, "
          f"deciles 1 and 9 {np.percentile(b / a, 10):.3f} {np.percentile(b / a, 90):.3f}")
    for j in np.argsort(-a)[:5]:
        print(f"  {cells[j]}: other {a[j] * 1e3:.2f} ms, this {b[j] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
