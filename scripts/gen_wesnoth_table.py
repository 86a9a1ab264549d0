"""Generate wargrid's packaged table of Battle for Wesnoth's movement rules.

Reads the facts table ``rules.json`` (every core terrain code's movement
alias list and village/castle/keep flags, every core movetype's
``[movement_costs]``, taken from Wesnoth 1.18's ``data/core``) and writes
``src/wargrid/io/data/wesnoth_rules.json``, the table ``load_wesnoth``
costs maps with. Only what movement needs is kept; the alias lists keep
their ``+``/``-``/``_bas`` markers, the costs stay as the WML gives them (a
missing entry means 99, unreachable), so the loader applies Wesnoth's rules
itself.

    python scripts/gen_wesnoth_table.py [RULES_JSON] [--out PATH] [--check]

``RULES_JSON`` defaults to ``../shared/data/wesnoth/rules.json`` beside the
repository. ``--check`` writes nothing and fails if the packaged file
differs from what would be written.

Battle for Wesnoth's data is GPL-2.0-or-later; the generated file says so
in its ``notice`` and ``licence`` fields and ``src/wargrid/io/data/NOTICE.md``
names the source.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_RULES = REPO.parent / "shared" / "data" / "wesnoth" / "rules.json"
DEFAULT_OUT = REPO / "src" / "wargrid" / "io" / "data" / "wesnoth_rules.json"
MARKERS = ("+", "-", "_bas")


def build(rules: dict[str, Any]) -> dict[str, Any]:
    """The packaged table made from the facts table ``rules`` (checked as it goes)."""
    terrains: dict[str, Any] = rules["terrains"]
    movetypes: dict[str, Any] = rules["movetypes"]
    out_terrains: dict[str, Any] = {}
    ids: set[str] = set()
    for code in sorted(terrains):
        t = terrains[code]
        mvt = list(t["mvt"])
        if not mvt:
            raise SystemExit(f"{code}: empty alias list")
        for entry in mvt:
            if entry not in MARKERS and entry not in terrains:
                raise SystemExit(f"{code}: alias {entry!r} is not a terrain code of the table")
        if t["id"] in ids:
            raise SystemExit(f"{code}: id {t['id']!r} is used twice")
        ids.add(t["id"])
        if bool(t["overlay"]) != code.startswith("^"):
            raise SystemExit(f"{code}: the overlay flag disagrees with the code")
        out_terrains[code] = {
            "id": t["id"],
            "name": t["name"],
            "mvt": mvt,
            "village": bool(t["village"]),
            "castle": bool(t["castle"]),
            "keep": bool(t["keep"]),
        }
    archetype_ids = {terrains[c]["id"] for c, t in terrains.items() if t["mvt"] == [c]}
    out_movetypes: dict[str, Any] = {}
    for name, mt in movetypes.items():
        costs = {k: int(v) for k, v in mt["movement_costs"].items()}
        unknown = set(costs) - archetype_ids
        if unknown:
            raise SystemExit(f"movetype {name}: costs for ids that are no archetype: {sorted(unknown)}")
        out_movetypes[name] = {"flying": bool(mt.get("flying", False)), "movement_costs": dict(sorted(costs.items()))}
    return {
        "notice": ("Battle for Wesnoth movement rules: terrain alias lists and core movetype movement costs. "
                   "Facts taken from Battle for Wesnoth's data (data/core/terrain.cfg, units.cfg, "
                   "macros/movetypes.cfg), copyright the Battle for Wesnoth project, licensed under the "
                   "GNU GPL version 2 or later; this table is distributed under the same licence. "
                   "See NOTICE.md beside this file."),
        "licence": "GPL-2.0-or-later",
        "source": "https://github.com/wesnoth/wesnoth (data/core)",
        "wesnoth_version": rules["wesnoth_version"],
        "generated_by": "scripts/gen_wesnoth_table.py (do not edit by hand)",
        "unreachable": int(rules["unreachable"]),
        "terrains": out_terrains,
        "movetypes": out_movetypes,
    }


def render(table: dict[str, Any]) -> str:
    """The file's text: one terrain or movetype a line, so diffs stay readable."""
    lines = ["{"]
    for key in ("notice", "licence", "source", "wesnoth_version", "generated_by", "unreachable"):
        lines.append(f"  {json.dumps(key)}: {json.dumps(table[key])},")
    for section in ("terrains", "movetypes"):
        items = list(table[section].items())
        lines.append(f"  {json.dumps(section)}: {{")
        for i, (k, v) in enumerate(items):
            comma = "," if i < len(items) - 1 else ""
            lines.append(f"    {json.dumps(k)}: {json.dumps(v, sort_keys=False)}{comma}")
        lines.append("  }," if section == "terrains" else "  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rules", nargs="?", type=Path, default=DEFAULT_RULES, help="the facts table (rules.json)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the packaged table")
    ap.add_argument("--check", action="store_true", help="fail if the packaged table is out of date")
    args = ap.parse_args(argv)
    text = render(build(json.loads(args.rules.read_text(encoding="utf-8"))))
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == text
        print(f"{args.out}: {'up to date' if same else 'OUT OF DATE'}")
        return 0 if same else 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
