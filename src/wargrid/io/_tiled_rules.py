"""What Tiled maps as games make them mean: terrain names, costs, blocking tiles, collision layers.

The conventions ``load_tiled`` recognises, as data and small functions, and
``TileRules``: the terrain (and whether it blocks) of each global tile id.
``docs/import.md`` describes them for users; a test ties the two together.

>>> canonical("DEEP_WATER"), canonical("Dark Grass"), canonical("bridge over water"), canonical("Woods"), canonical("water2")
('water', 'plains', 'bridge', 'forest', 'water')
>>> collision_name("trees_blocking"), collision_name("funiture_nonblocking"), collision_name("Collision Layer")
(True, False, True)
>>> norm_key("moveCost"), speed_cost(2), speed_cost(50), cost_value(99)
('movecost', 0.5, 2.0, inf)
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Iterable, Mapping

from ..terrain import Terrain, TerrainTable
from ._names import TerrainNames, tidy

__all__ = ["SYNONYMS", "TileRules", "canonical", "collision_name", "cost_value", "flat_props", "norm_key", "speed_cost",
           "truthy"]

SYNONYMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("bridge", ("bridge",)),
    ("road", ("road", "path", "street", "pavement", "trail", "cobblestone", "cobble", "brick", "paving")),
    ("wall", ("wall", "solid", "block", "building", "house", "fence")),
    ("impassable", ("lava", "chasm", "void", "pit", "abyss", "hole", "gap")),
    ("water", ("water", "ocean", "sea", "lake", "river", "pond", "deepwater", "shallowwater", "waterway", "canal", "stream",
               "creek")),
    ("mountains", ("mountain", "cliff", "rock", "peak")),
    ("hills", ("hill", "highland")),
    ("forest", ("forest", "tree", "wood", "jungle")),
    ("swamp", ("swamp", "marsh", "bog", "mud")),
    ("coast", ("sand", "desert", "beach", "shore", "coast")),
    ("snow", ("snow", "ice")),
    ("plains", ("grass", "plain", "land", "ground", "floor", "dirt", "field", "meadow", "earth")),
)
"""Names in files -> the terrain they mean, in priority order (the first row a word matches wins)."""

_BLOCKING = ("wall", "impassable")
_WATERY = ("water",)

# tile property names (normalised: lower case, letters and digits only)
NAME_KEYS = ("terrain", "terraintype", "type", "kind", "material", "surface", "tiletype")
COST_KEYS = ("movecost", "movementcost", "cost", "walkcost", "pathcost", "travelcost")
SPEED_KEYS = ("speed", "movespeed", "speedfactor", "speedmodifier")
BLOCK_TRUE = ("collides", "collide", "collision", "collidable", "iscollidable", "solid", "blocked", "blocking", "blocks",
              "blocksmovement", "obstacle", "impassable", "unwalkable", "notwalkable", "wall", "iswall")
BLOCK_FALSE = ("walkable", "iswalkable", "passable", "ispassable", "available", "traversable", "canwalk", "canpass")
WATER_TRUE = ("surfable", "swimmable", "iswater", "water")
IMPASSABLE_COST = 99.0
"""A cost at or above this is impassable (Wesnoth's and many games' convention)."""

# layer names of collision layers (normalised), and their endings
_COLLISION_NAMES = frozenset((
    "collision", "collisions", "collide", "collider", "colliders", "wall", "walls", "blocked", "blocking", "block",
    "blocks", "blocker", "blockers", "obstacle", "obstacles", "solid", "solids", "impassable", "unwalkable", "nowalk",
    "notwalkable", "nonwalkable", "blockmap", "collisionmap", "walkability"))
_NAVAL = frozenset(("naval", "boat", "boats", "ship", "ships", "sea", "water", "swim", "swimming", "float", "deepsea"))


def norm_key(key: str) -> str:
    """A property or layer name in its compared form: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", str(key).lower())


def truthy(v: Any) -> bool | None:
    """``True``/``False`` for a boolean-looking value, ``None`` for anything else."""
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return v != 0
    s = str(v).strip().lower()
    if s in ("true", "1", "yes", "on"):
        return True
    if s in ("false", "0", "no", "off"):
        return False
    return None


def flat_props(props: Mapping[str, Any]) -> dict[str, Any]:
    """``{normalised name: value}``, custom class members expanded (a tile's own property wins over a member)."""
    out: dict[str, Any] = {}
    nested: list[Mapping[str, Any]] = []
    for k, v in props.items():
        if isinstance(v, Mapping):
            nested.append(v)
        else:
            out.setdefault(norm_key(k), v)
    for sub in nested:
        for k, v in flat_props(sub).items():
            out.setdefault(k, v)
    return out


def _singulars(word: str) -> list[str]:
    out = [word]
    if word.endswith("ies") and len(word) > 4:
        out.append(word[:-3] + "y")
    if word.endswith("es") and len(word) > 3:
        out.append(word[:-2])
    if word.endswith("s") and len(word) > 2:
        out.append(word[:-1])
    return out


_GROUP_OF = {w: g for g, words in SYNONYMS for w in words}
_ORDER = {g: i for i, (g, _) in enumerate(SYNONYMS)}


def canonical(name: str) -> str | None:
    """The terrain a name means by the synonym table (case, plural and word order insensitive), or ``None``."""
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name))
    words = re.findall(r"[a-z]+", text.lower())  # digits part words too: water2, Field1
    if not words:
        return None
    for form in _singulars("".join(words)):
        if form in _GROUP_OF:
            return _GROUP_OF[form]
    found = [_GROUP_OF[f] for w in words for f in _singulars(w) if f in _GROUP_OF]
    return min(found, key=_ORDER.__getitem__) if found else None


def collision_name(name: str) -> bool:
    """Whether a layer's (or object's) name says it blocks (``Collision``, ``walls``, ``trees_blocking``, ...)."""
    if norm_key(name) in _COLLISION_NAMES:
        return True
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name)).lower()
    words = [w for w in re.split(r"[^a-z0-9]+", text) if w and not w.isdigit()]
    if words[-1:] == ["layer"]:
        words = words[:-1]
    if not words:
        return False
    if "".join(words) in _COLLISION_NAMES:
        return True
    if any(w in ("no", "not", "non") or w.startswith("non") for w in words):  # funiture_nonblocking, non-blocking
        return False
    return words[-1] in ("blocking", "blocked", "collision", "collisions", "colliders") or words[0] in ("collision", "collisions")


def _number(v: Any) -> float | None:
    """A property value as a number (not a bool, not NaN), else ``None``."""
    if isinstance(v, bool):
        return None
    try:
        x = float(v)
    except (TypeError, ValueError, OverflowError):
        return None
    return None if math.isnan(x) else x


def cost_value(v: Any) -> float | None:
    """A step cost from a property value (``inf`` for impassable: 0, negative, >= 99), ``None`` if not a number."""
    c = _number(v)
    if c is None:
        return None
    return math.inf if c <= 0 or c >= IMPASSABLE_COST else c


def speed_cost(v: Any) -> float | None:
    """The cost of a ``speed``: ``1 / speed`` (a speed above 5 is a percentage), ``inf`` for 0, ``None`` if not a number."""
    s = _number(v)
    if s is None or math.isinf(s) or s < 0:
        return None
    if s == 0:
        return math.inf
    return 1.0 / (s / 100.0 if s > 5 else s)


class TileRules:
    """Terrain ids of names, costs and blocking tiles, on a growing copy of a terrain table."""

    def __init__(self, names: TerrainNames, *, land: Iterable[str] | None = None) -> None:
        self.names = names
        table = names.base
        if land is None:
            if "plains" in table.names:
                land = [c for c in table.classes if math.isfinite(table.cost("plains", c))]
            else:
                land = [c for c in table.classes if c.lower() not in _NAVAL]
        self.land = tuple(land)
        self.naval = tuple(c for c in table.classes if c.lower() in _NAVAL)
        self._costed: dict[tuple[str, float], int] = {}
        self._used_cost_names: dict[str, float] = {}

    def _extra(self, name: str, costs: Mapping[str, float], blocks_sight: bool) -> int:
        if self.names.known(name):
            return self.names.id(name)
        return self.names.add(Terrain(name, "?", "#000000", costs=dict(costs), blocks_sight=blocks_sight))

    def wall(self, name: str = "wall") -> int:
        """The id of an impassable terrain that blocks sight (``wall``, or the caller's collision terrain)."""
        if self.names.known(name):
            return self.names.id(name)
        return self._extra(tidy(name), {}, True)

    def name_id(self, name: str, *, strict: bool, unknown: Callable[[str], None]) -> int:
        """The terrain id of a name from a file, by the table, then the synonym table (see ``docs/import.md``)."""
        names = self.names
        if names.known(name):
            return names.id(name)
        group = canonical(name)
        if group is not None and names.known(group):
            return names.id(group)
        if group == "wall":
            return self.wall()
        if group == "impassable":
            return self._extra("impassable", {}, False)
        if group == "snow":
            base = "hills" if names.known("hills") else None
            costs = {c: names.base.cost(base, c) for c in self.land} if base else {c: 2.0 for c in self.land}
            return self._extra("snow", {c: v for c, v in costs.items() if math.isfinite(v)}, False)
        if strict:
            unknown(name)
        if group in _WATERY:  # the table has no water: only boats may enter
            return self._extra(tidy(name), {c: 1.0 for c in self.naval}, False)
        if group in ("mountains",):
            return self._extra(tidy(name), {c: 3.0 for c in self.land}, True)
        return names.id(name)

    def cost_id(self, name: str | None, cost: float) -> int:
        """A terrain for tiles whose file gives a step cost (``inf``: impassable) for every land class."""
        group = canonical(name) if name else None
        if math.isinf(cost):
            if group == "water" and self.names.known("water"):
                return self.names.id("water")
            return self.wall() if group == "wall" else self._extra("impassable", {}, False)
        base = tidy(name) if name else "cost"
        key = (base, cost)
        if key in self._costed:
            return self._costed[key]
        label = base if name and not self.names.known(base) and base not in self._used_cost_names else f"{base}_{cost:g}"
        label = tidy(label.replace(".", "_"))
        self._used_cost_names.setdefault(base, cost)
        like = group if group is not None and self.names.known(group) else None
        costs = {c: cost for c in self.land}
        sight = False
        if like is not None:
            t = self.names.base[self.names.id(like)]
            costs.update({c: v for c, v in t.costs.items() if c not in self.land})
            sight = t.blocks_sight
        tid = self._extra(label, costs, sight)
        self._costed[key] = tid
        return tid

    def passable_on_land(self, table: TerrainTable, tid: int) -> bool:
        """Whether any land class may enter terrain ``tid``."""
        t = table[tid]
        return any(math.isfinite(t.costs.get(c, math.inf)) for c in self.land)
