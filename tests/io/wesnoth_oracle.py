"""A slow, independent oracle of Wesnoth's movement costs, and Wesnoth maps for the tests.

The oracle is written from the rules in words (``tests/data/wesnoth/README.md``),
over the tests' own copy of the facts table (``tests/data/wesnoth/rules.json``),
one code and one movetype at a time, with plain strings and ints. It shares
nothing with wargrid's reader: it prices archetypes from the table's
``all_costs`` (the reader uses the WML's ``movement_costs`` and its default),
and it never imports wargrid.

Run as a script, it writes ``tests/data/wesnoth/every_code.map``.
"""

from __future__ import annotations

import json
import random
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "data" / "wesnoth"


@lru_cache(maxsize=1)
def facts() -> dict[str, Any]:
    with open(DATA / "rules.json", encoding="utf-8") as f:
        out: dict[str, Any] = json.load(f)
    return out


def terrains() -> dict[str, Any]:
    return facts()["terrains"]  # type: ignore[no-any-return]


def movetypes() -> list[str]:
    return list(facts()["movetypes"])


def bases() -> list[str]:
    """Codes a map cell may start with (every non-overlay code but the off-map one)."""
    return sorted(c for c, t in terrains().items() if not t["overlay"] and "^" not in c)


def overlays() -> list[str]:
    return sorted(c for c, t in terrains().items() if t["overlay"])


def whole_pairs() -> list[str]:
    """``Base^Overlay`` codes the table defines whole (``Mm^Xm``), but the off-map one."""
    return sorted(c for c in terrains() if "^" in c and not c.startswith("^") and not c.startswith("_off"))


def spliced(overlay_list: list[str], base_list: list[str]) -> list[str]:
    """The overlay's list with the base's whole list where ``_bas`` stands, then ``-`` or ``+``."""
    out: list[str] = []
    worst = False
    done = False
    for k, e in enumerate(overlay_list):
        if k == 0 and e == "-":
            worst = True
        if e == "-":
            worst = True
        if e == "+":
            worst = False
        if e == "_bas" and not done:
            out.extend(base_list)
            out.append("-" if worst else "+")
            done = True
            continue
        out.append(e)
    return out


def alias_list(code: str) -> list[str] | None:
    t = terrains()
    if code in t:
        return list(t[code]["mvt"])
    if "^" not in code:
        return None
    base, over = code.split("^", 1)
    if base not in t or ("^" + over) not in t:
        return None
    return spliced(list(t["^" + over]["mvt"]), list(t[base]["mvt"]))


def cost(code: str, movetype: str, depth: int = 0) -> int:
    """Wesnoth's cost of ``code`` for ``movetype``: 1..99, 99 = cannot enter."""
    if depth > 100:
        return 99
    lst = alias_list(code)
    if lst is None:
        return 99
    t = terrains()
    if lst == [code]:
        v = int(facts()["movetypes"][movetype]["all_costs"].get(t[code]["id"], 99))
        return min(99, max(1, v))
    keep_highest = lst[0] == "-"
    best = 1 if keep_highest else 99
    for e in lst:
        if e == "-":
            keep_highest = True
        elif e == "+":
            keep_highest = False
        else:
            v = cost(e, movetype, depth + 1)
            if keep_highest:
                best = max(best, v)
            else:
                best = min(best, v)
    return best


def village(code: str) -> bool:
    t = terrains()
    if code in t:
        return bool(t[code]["village"])
    base, over = code.split("^", 1)
    return bool(t[base]["village"] or t["^" + over]["village"])


def every_code_cells() -> list[str]:
    """Cells that use every code of the table: each base alone, each overlay on a base, each whole code."""
    bs, os_ = bases(), overlays()
    cells = list(bs)
    cells += [f"{bs[k % len(bs)]}{o}" for k, o in enumerate(os_)]
    cells += whole_pairs()
    return cells


def map_text(cells: list[str], width: int, *, seed: int = 0, starts: int = 2) -> str:
    """A Wesnoth 1.14+ map (no header, border 1) of ``cells`` laid out ``width`` a row, padded with ``Gg``.

    A few cells get a side's start prefix; one ``_off^_usr`` cell goes in the last row's end.
    """
    rng = random.Random(seed)
    rows = [cells[i:i + width] for i in range(0, len(cells), width)]
    rows[-1] = rows[-1] + ["Gg"] * (width - len(rows[-1]))
    rows[-1][-1] = "_off^_usr"
    for side in range(1, starts + 1):
        y, x = rng.randrange(len(rows)), rng.randrange(width - 1)
        if " " not in rows[y][x]:
            rows[y][x] = f"{side} {rows[y][x]}"
    full = [["Gg"] * (width + 2)] + [["Gg"] + r + ["Gg"] for r in rows] + [["Gg"] * (width + 2)]
    return "".join(", ".join(r) + "\n" for r in full)


def mixed_cells(n: int, seed: int) -> list[str]:
    """``n`` random cells: any base, two in three under a random overlay, some whole codes."""
    rng = random.Random(seed)
    bs, os_, whole = bases(), overlays(), whole_pairs()
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.05:
            out.append(rng.choice(whole))
        elif r < 0.7:
            out.append(rng.choice(bs) + rng.choice(os_))
        else:
            out.append(rng.choice(bs))
    return out


def all_pairs_cells() -> list[str]:
    """Every base under every overlay (about 20,000 cells), then every base alone and every whole code."""
    return [b + o for b in bases() for o in overlays()] + bases() + whole_pairs()


def board_codes(text: str) -> list[list[str]]:
    """The board's codes (border dropped, location prefixes removed) of a map written by ``map_text``."""
    rows = [[c.strip().rpartition(" ")[2] for c in line.split(",")] for line in text.splitlines() if line.strip()]
    return [r[1:-1] for r in rows[1:-1]]


if __name__ == "__main__":
    out = DATA / "every_code.map"
    out.write_text(map_text(every_code_cells(), 24, seed=30), encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
