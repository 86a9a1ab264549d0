"""Real Tiled maps from released games, loaded with no options (run by hand; seconds).

    python benchmarks/check_tiled_games.py                       # ../shared/data/tiled_games
    python benchmarks/check_tiled_games.py path/to/maps/folder

Loads every ``.tmx`` and ``.tmj`` under the folder with ``wargrid.load_tiled(path)``
and no option, and prints per map: the board's size and orientation, the
terrains found, the share of cells impassable for foot (the table's first
class when it has no foot), how many cells of its collision layers (by a
plain rule of this script: a tile layer whose name holds "collision" or ends
in "blocking", but not "nonblocking") foot can enter (should be 0), the seconds
the load took, and whether
``save_tiled`` then ``load_tiled`` gives back an equal map. A map that does
not load prints its error. The last line counts the maps that loaded;
the exit status is 1 when one did not load or did not round-trip.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

import wargrid
from wargrid.io.errors import MapFileWarning

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "tiled_games"


def impassable_share(m: wargrid.Map) -> tuple[str, float]:
    """The class looked at, and the share of the board's cells it cannot enter."""
    cls = "foot" if "foot" in m.terrains.classes else m.terrains.classes[0]
    costs = np.array([m.terrains[i].costs.get(cls, math.inf) for i in range(len(m.terrains))])
    on = m.grid.mask
    blocked = ~np.isfinite(costs[m.terrain]) & on
    return cls, float(blocked.sum()) / max(1, int(on.sum()))


def collision_leaks(path: Path, m: wargrid.Map, cls: str) -> str:
    """Cells drawn in the file's collision layers that ``cls`` may still enter on ``m``, of all such cells."""
    from wargrid.io._tiled_parse import read_tiled_file

    if "tiled.origin" in m.properties or "tiled.stagger" in m.properties:  # cropped or rotated: not cell for cell
        return "-"
    f = read_tiled_file(path.read_bytes(), path, 1 << 26)
    hit = np.zeros((f.height, f.width), dtype=bool)
    for la in f.layers:
        name = la.name.lower()
        if ("collision" in name or name.endswith("blocking")) and "nonblocking" not in name:
            hit |= (la.gids & np.uint32(0x0FFFFFFF)) != 0
    if not hit.any():
        return "-"
    costs = m.costs(unit=cls)
    return f"{int((hit & np.isfinite(costs)).sum())} of {int(hit.sum())}"


def round_trip(m: wargrid.Map, suffix: str) -> bool:
    with tempfile.TemporaryDirectory() as folder:
        p = Path(folder) / f"again{suffix}"
        wargrid.save_tiled(m, p, tileset_image=False)
        return wargrid.load_tiled(p) == m


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", default=str(DATA), help="where the maps are (searched recursively)")
    args = ap.parse_args()
    folder = Path(args.folder)
    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".tmx", ".tmj") and p.is_file())
    if not files:
        print(f"no .tmx or .tmj files under {folder}")
        return 1
    print("| map | size | orientation | terrains | impassable | collision cells open | load s | round trip | warnings |")
    print("|---|---|---|---|---|---|---|---|---|")
    loaded = equal = 0
    shares = []
    for p in files:
        name = p.relative_to(folder).as_posix()
        t0 = time.perf_counter()
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", MapFileWarning)
                m = wargrid.load_tiled(p)
        except wargrid.WargridError as exc:
            print(f"| {name} | - | - | - | - | - | - | - | error: {exc} |")
            continue
        dt = time.perf_counter() - t0
        loaded += 1
        cls, share = impassable_share(m)
        shares.append(share)
        used = sorted({m.terrains.names[i] for i in np.unique(m.terrain[m.grid.mask]).tolist()})
        same = round_trip(m, p.suffix.lower())
        equal += same
        orient = p.read_bytes()[:4096].split(b'orientation="')[-1].split(b'"')[0].decode() if p.suffix == ".tmx" else "json"
        notes = "; ".join(str(w.message).split(": ", 1)[-1][:240] for w in caught if issubclass(w.category, MapFileWarning))
        print(f"| {name} | {m.grid.width} x {m.grid.height} | {m.grid.kind} ({orient}) | {', '.join(used)} | "
              f"{100 * share:.1f} % for {cls} | {collision_leaks(p, m, cls)} | {dt:.2f} | {'yes' if same else 'NO'} | {notes or '-'} |")
    print(f"\n{loaded} of {len(files)} maps load with no options; {equal} of {loaded} round-trip equal; "
          f"impassable share {100 * min(shares, default=0):.1f} - {100 * max(shares, default=0):.1f} %")
    return 0 if loaded == equal == len(files) else 1


if __name__ == "__main__":
    sys.exit(main())
