"""Compare every cell of a set of Wesnoth maps, for every movetype, with the tests' oracle.

The maps: the tests' hand-made maps, the map of every core code, three random
mixed maps and a map of every base under every overlay (about 20,000 cells).
The oracle (``tests/io/wesnoth_oracle.py``) is written from Wesnoth's rules in
words over the tests' copy of the facts; it shares no code with wargrid.

    PYTHONPATH=src python scripts/check_wesnoth_costs.py

Prints, for each map, the cells x movetypes compared and the mismatches; exits 1
if any cell differs.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "io"))

import wesnoth_oracle as oracle  # noqa: E402

from wargrid import load_wesnoth  # noqa: E402


def compare(path: Path, codes: list[list[str]]) -> tuple[int, int, float]:
    t = time.perf_counter()
    m = load_wesnoth(path)
    took = time.perf_counter() - t
    compared = bad = 0
    for mt in oracle.movetypes():
        got = m.costs(unit=mt)
        for y, row in enumerate(codes):
            for x, code in enumerate(row):
                if code.startswith("_off"):
                    continue
                want = oracle.cost(code, mt)
                compared += 1
                if got[y, x] != (np.inf if want == 99 else float(want)):
                    bad += 1
                    if bad <= 5:
                        print(f"  {path.name} ({x}, {y}) {code} {mt}: wargrid {got[y, x]}, oracle {want}")
    return compared, bad, took


def main() -> int:
    data = REPO / "tests" / "data" / "wesnoth"
    maps: list[tuple[str, str]] = [(p.name, p.read_text()) for p in sorted(data.glob("*.map"))]
    for seed in (1, 2, 3):
        maps.append((f"mixed_{seed}.map", oracle.map_text(oracle.mixed_cells(40 * 30, seed), 40, seed=seed)))
    maps.append(("every_pair.map", oracle.map_text(oracle.all_pairs_cells(), 150, seed=4)))
    total = total_bad = 0
    with tempfile.TemporaryDirectory() as folder:
        for name, text in maps:
            p = Path(folder) / name
            p.write_text(text)
            lines = [ln for ln in text.splitlines() if ln.strip() and "=" not in ln]
            rows = [[c.strip().rpartition(" ")[2] for c in ln.split(",")] for ln in lines]
            codes = [r[1:-1] for r in rows[1:-1]]
            compared, bad, took = compare(p, codes)
            total += compared
            total_bad += bad
            print(f"{name:>18}: {compared:>9,} cells x movetypes, {bad} mismatches (load {took:.2f} s)")
    print(f"{'all':>18}: {total:>9,} cells x movetypes, {total_bad} mismatches")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
