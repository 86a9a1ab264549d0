"""The build's peak memory against ``prepare``'s up-front estimate (``_need_bytes``), one board a process.

Run from the repository root, one board each (the peaks are the process's own)::

    PYTHONPATH=src python benchmarks/prepare_memory.py hex 512
    PYTHONPATH=src python benchmarks/prepare_memory.py uniform-hex 512

``hex S``: ``generate(S, S, kind="hex", seed=3)``, unit foot; ``uniform-hex S``: ``HexGrid(S, S)``, every cost 1.
Prints the estimate (the structure's arcs bounded from the board's size, ``arcs_bound``, times the structure's and
one class's peak bytes an arc), the growth of the resident peak (``VmHWM``, what a cgroup counts) and of the
address-space peak (``VmPeak``, what ``RLIMIT_AS`` counts) over the build of the structure and the first class, and
each as a share of the estimate: the estimate must stay above both. Then the same for a second class on the shared
structure (``_need_bytes`` with ``shared``).
"""

from __future__ import annotations

import re
import sys

import numpy as np

import wargrid
from wargrid.costs import CostField
from wargrid.movement import prepared as prep


def status(key: str) -> int:
    with open("/proc/self/status") as f:
        return int(re.search(rf"{key}:\s+(\d+) kB", f.read()).group(1)) * 1024


def board(kind: str, size: int):
    if kind == "uniform-hex":
        g = wargrid.HexGrid(size, size)
        return g, CostField.from_arrays(g, np.ones(g.shape))
    m = wargrid.generate(size, size, kind="hex", seed=3, progress=False)
    return m.grid, m.cost_field(unit="foot")


def main() -> None:
    kind, size = sys.argv[1], int(sys.argv[2])
    g, f = board(kind, 40)
    prep.prepare(g, f, progress=False)  # the kernels loaded first
    g, f = board(kind, size)
    mib = 2.0**20
    shared = None
    for what in ("structure and a class", "a further class"):
        rss, vm, peak_before = status("VmRSS"), status("VmSize"), status("VmPeak")
        try:
            with open("/proc/self/clear_refs", "w") as out:
                out.write("5")  # resets VmHWM (the resident peak)
        except OSError:
            pass
        est = prep._need_bytes(g.topology, shared)
        pp = prep.prepare(g, f, progress=False, shared=shared)
        d_rss, d_vm = status("VmHWM") - rss, status("VmPeak") - vm
        held = pp.bytes + (pp.structure.bytes if shared is None else 0)
        print(f"{kind} {size}, {what}: estimate {est / mib:.0f} MiB, resident peak +{d_rss / mib:.0f} MiB "
              f"({d_rss / est:.2f}), address-space peak +{d_vm / mib:.0f} MiB ({d_vm / est:.2f}; the peak before was "
              f"+{(peak_before - vm) / mib:.0f}), held after {held / mib:.0f} MiB; {pp.arcs / (g.width * g.height):.1f}"
              f" arcs a cell (bound {prep.arcs_bound(g.width * g.height) / (g.width * g.height):.1f})", flush=True)
        shared = pp.structure


if __name__ == "__main__":
    main()
