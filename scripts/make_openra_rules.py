#!/usr/bin/env python3
"""Write wargrid's OpenRA rules table (src/wargrid/io/data/openra_rules.json) from a facts file.

The facts file is a JSON summary of OpenRA's mod rules (locomotors and their
TerrainSpeeds, resource layers, building footprints, crush classes) made
from the OpenRA engine's repository (https://github.com/OpenRA/OpenRA,
GPL-3.0). What wargrid ships is a table of those facts, per mod (``ra``,
``cnc``, ``d2k``, ``ts``):

- ``locomotors``: name -> ``speeds`` (terrain type -> ``[percent, cost]``;
  ``cost`` is the pathfinder's integer cost of entering such a cell,
  ``10000 // percent`` unless the rules set a ``PathingCost``), ``crushes``
  (the crush classes it rolls over);
- ``resources``: name -> index in the map's resource layer, the terrain type
  a cell takes, the tile types it may lie on;
- ``footprints``: actor type -> ``[width, height, rows]`` (the ``Building``
  trait's ``Dimensions`` and ``Footprint``, read as the engine reads it: its
  characters, spaces dropped, ``width`` to a row);
- ``crushable``: actor type -> its crush classes;
- ``immobile``: actor types that occupy their cell without a footprint
  (minefields, spice blooms).

Usage (from the repository root)::

    python scripts/make_openra_rules.py ../shared/data/openra/rules.json

The minefields ``minv`` and ``minp`` have no ``Crushable`` entry in the
facts file, yet every ground locomotor drives over them (their crush class
is ``mine``, which RA's locomotors list): they get ``["mine"]`` here.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "wargrid" / "io" / "data" / "openra_rules.json"
MINES = {"minv": ["mine"], "minp": ["mine"]}


def build(facts: dict) -> dict:
    mods = {}
    for mod, d in sorted(facts["mods"].items()):
        locomotors = {}
        for name, loc in d["locomotors"].items():
            speeds = {t: [int(s["speed"]), int(s["cost"])] for t, s in loc["speeds"].items() if int(s["speed"]) > 0}
            locomotors[name] = {"speeds": speeds, "crushes": sorted(loc.get("crushes", []))}
        resources = {
            name: {"index": int(r["index"]), "terrain_type": r["terrain_type"], "allowed": list(r["allowed"])}
            for name, r in d["resources"].items()
        }
        footprints = {}
        for actor, f in sorted(d["building_footprints"].items()):
            # the engine reads the footprint's characters (spaces dropped) row by row, Dimensions.X a row
            w, h = int(f["dimensions"][0]), int(f["dimensions"][1])
            flat = "".join(f["footprint"].split())
            if len(flat) != w * h or set(flat) - set("xX+=_"):
                raise SystemExit(f"{mod}/{actor}: footprint {f['footprint']!r} does not fit {w}x{h}")
            footprints[actor] = [w, h, [flat[r * w:(r + 1) * w] for r in range(h)]]
        crushable = {a: sorted(c) for a, c in sorted(d["crushable"].items())}
        immobile = sorted(d.get("immobile_occupiers", []))
        for a in immobile:
            if a not in crushable and a in MINES:
                crushable[a] = MINES[a]
        mods[mod] = {
            "grid_type": d["grid_type"],
            "locomotors": locomotors,
            "resources": resources,
            "footprints": footprints,
            "crushable": crushable,
            "immobile": immobile,
        }
    return {
        "source": facts.get("source", "https://github.com/OpenRA/OpenRA"),
        "commit": facts.get("commit", ""),
        "licence": "GPL-3.0: facts (speeds, costs, footprints) taken from OpenRA's mod rules; see NOTICE.md",
        "made_by": "scripts/make_openra_rules.py",
        "mods": mods,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("facts", help="the facts file (rules.json)")
    p.add_argument("-o", "--out", default=str(OUT), help=f"where to write (default {OUT})")
    args = p.parse_args(argv)
    table = build(json.loads(Path(args.facts).read_text(encoding="utf-8")))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(table, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {out}: " + ", ".join(f"{m} ({len(d['locomotors'])} locomotors, {len(d['footprints'])} footprints)"
                                     for m, d in table["mods"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
