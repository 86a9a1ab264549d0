"""Terrain tables and movement classes.

A terrain has a name, a one-character map symbol, a colour, whether it blocks
sight, and a movement cost per movement class (``inf`` = impassable). The
table turns a layer of terrain ids into per-class cost arrays.

>>> t = TerrainTable.default()
>>> t.classes[:3]
('foot', 'cavalry', 'wheeled')
>>> t.cost("plains", "cavalry") < t.cost("plains", "foot")
True
>>> t.cost("forest", "cavalry") > t.cost("forest", "foot")
True
>>> t.cost("water", "foot")
inf
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Iterator, Iterable, Mapping, Sequence, TypedDict

import numpy as np
from numpy.typing import NDArray

from .errors import ArgumentError, ArgumentTypeError
from ._validate import as_float, check_choice, check_iterable

__all__ = ["Terrain", "TerrainTable", "INF", "TerrainData", "TerrainTableData", "WALL_KINDS", "WALL_RULES", "check_walls"]

INF = math.inf
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")

WALL_KINDS = ("crushable", "destroyable")
"""What a wall terrain (``Terrain(wall=...)``) gives way to: 'crushable' (sandbags,
wire, fences: units that crush walls drive over it, units that destroy walls
shoot it away) or 'destroyable' (concrete: only units that destroy walls get through)."""

WALL_RULES = ("stop", "crush", "destroy")
"""What a unit does at a wall, as the classic engine's zone sets key it
(``Map.zones(walls=...)``): 'stop' (every wall blocks: MZONE_NORMAL), 'crush'
(crushable walls are passable: MZONE_CRUSHER) or 'destroy' (every wall is
passable: MZONE_DESTROYER)."""

_WALLS_PASSED = {"stop": (), "crush": ("crushable",), "destroy": ("crushable", "destroyable")}


def check_walls(walls: Any) -> str:
    """``walls`` checked: one of ``WALL_RULES``.

    >>> check_walls("crush")
    'crush'
    """
    return check_choice(walls, "walls", WALL_RULES)


@lru_cache(maxsize=4096)
def _is_word(name: str) -> bool:
    """Whether ``name`` is a valid terrain or class name (class names repeat in every terrain: checked once)."""
    return _NAME.match(name) is not None


class _TerrainKeys(TypedDict):
    """The keys every ``TerrainData`` has (``typing.NotRequired`` is Python 3.11's: the optional one is below)."""

    name: str
    symbol: str
    color: str
    blocks_sight: bool
    costs: dict[str, float | None]


class TerrainData(_TerrainKeys, total=False):
    """``Terrain.to_dict()``: one terrain as plain data (an impassable cost is ``None``; ``wall`` only where set)."""

    wall: str


class TerrainTableData(TypedDict):
    """``TerrainTable.to_dict()``: the table as plain data, as map files store it."""

    classes: list[str]
    terrains: list[TerrainData]


def _clean_costs(name: str, costs: Mapping[str, Any]) -> dict[str, float]:
    """``costs`` checked (class names are words, costs numbers > 0 or inf) as floats."""
    clean: dict[str, float] = {}
    for cls, c in dict(costs).items():
        if not isinstance(cls, str) or not _is_word(cls):
            raise ArgumentError(f"terrain {name!r}: movement class names must be words, got {cls!r}")
        if type(c) is not float and type(c) is not int:  # the common cases skip the slower checks
            if isinstance(c, bool) or not isinstance(c, (int, float, np.integer, np.floating)):
                raise ArgumentTypeError(f"terrain {name!r}: cost for {cls!r} must be a number, got {c!r}")
        c = as_float(c, f"terrain {name!r}: cost for {cls!r}")  # (an int past a float's range: a clear error)
        if not c > 0:  # NaN fails this too
            raise ArgumentError(f"terrain {name!r}: cost for {cls!r} must be > 0 or inf (impassable), got {c}")
        clean[cls] = c
    return clean


@dataclass(frozen=True)
class Terrain:
    """One kind of ground.

    ``costs`` (movement class -> cost, ``inf`` impassable) is checked when the
    terrain is made and kept as a read-only mapping. ``wall`` makes it a wall
    that some units get through (one of ``WALL_KINDS``; its ``costs`` are what
    every other unit pays, usually impassable): for a unit that crushes or
    destroys it the cell costs what the table's first terrain (the default
    ground, the classic engine's clear land) costs (see ``TerrainTable.cost_matrix``).

    >>> t = Terrain("marsh", "m", "#557755", costs={"foot": 3}); t.cost("foot")
    3.0
    >>> t.costs["foot"] = -5.0
    Traceback (most recent call last):
    ...
    TypeError: 'mappingproxy' object does not support item assignment
    """

    name: str
    symbol: str
    color: str
    costs: Mapping[str, float] = field(default_factory=dict)
    blocks_sight: bool = False
    wall: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ArgumentError(f"terrain name must be a word (letters, digits, _ or -), got {self.name!r}")
        if not isinstance(self.symbol, str) or len(self.symbol) != 1 or self.symbol.isspace():
            raise ArgumentError(f"terrain {self.name!r}: symbol must be one visible character, got {self.symbol!r}")
        if not isinstance(self.color, str) or not _COLOR.match(self.color):
            raise ArgumentError(f"terrain {self.name!r}: color must look like '#rrggbb', got {self.color!r}")
        if not isinstance(self.blocks_sight, (bool, np.bool_)):
            raise ArgumentTypeError(f"terrain {self.name!r}: blocks_sight must be True or False, got {self.blocks_sight!r}")
        if not isinstance(self.costs, Mapping):
            raise ArgumentTypeError(f"terrain {self.name!r}: costs must be a mapping of class name to cost, "
                                    f"got {type(self.costs).__name__}")
        if self.wall is not None and (not isinstance(self.wall, str) or self.wall not in WALL_KINDS):
            raise ArgumentError(f"terrain {self.name!r}: wall must be None or one of "
                                f"{', '.join(map(repr, WALL_KINDS))}; got {self.wall!r}")
        object.__setattr__(self, "costs", MappingProxyType(_clean_costs(self.name, self.costs)))

    def __reduce__(self) -> tuple[Any, ...]:
        # costs is a read-only view (not picklable itself): rebuild through the constructor, which checks again
        return (Terrain, (self.name, self.symbol, self.color, dict(self.costs), self.blocks_sight, self.wall))

    def cost(self, unit: str) -> float:
        """Movement cost for class ``unit`` (``inf`` when the class is not listed).

        >>> Terrain("lava", "L", "#ff4000", costs={"tracked": 3}).cost("foot")
        inf
        """
        if not isinstance(unit, str):  # a list raised 'unhashable type'
            raise ArgumentTypeError(f"unit must be a movement class name, got {type(unit).__name__} {unit!r}")
        return self.costs.get(unit, INF)

    def to_dict(self) -> TerrainData:
        """Plain data (``inf`` written as ``None``).

        >>> Terrain("lava", "L", "#ff4000", costs={"tracked": 3}).to_dict()["costs"]
        {'tracked': 3.0}
        """
        d: TerrainData = {
            "name": self.name,
            "symbol": self.symbol,
            "color": self.color,
            "blocks_sight": self.blocks_sight,
            "costs": {k: (None if math.isinf(v) else v) for k, v in self.costs.items()},
        }
        if self.wall is not None:
            d["wall"] = self.wall
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Terrain":
        """Inverse of ``to_dict``."""
        if not isinstance(d, Mapping):
            raise ArgumentTypeError(f"a terrain must be a mapping with name, symbol and color, got {type(d).__name__}")
        costs = {k: (INF if v is None else v) for k, v in dict(d.get("costs", {})).items()}
        return cls(d["name"], d["symbol"], d["color"], costs=costs, blocks_sight=bool(d.get("blocks_sight", False)),
                   wall=d.get("wall"))


class TerrainTable:
    """An ordered set of terrains and the movement classes they price.

    Terrain ids are positions in the table; the first terrain is the default
    ground. ``classes`` defaults to every class named by any terrain, in order
    of first appearance.

    >>> t = TerrainTable([Terrain("floor", ".", "#dddddd", costs={"walk": 1}),
    ...                   Terrain("wall", "#", "#333333", blocks_sight=True)])
    >>> t.names, t.classes
    (('floor', 'wall'), ('walk',))
    >>> t.cost_matrix().tolist()
    [[1.0], [inf]]
    """

    def __init__(self, terrains: Sequence[Terrain], *, classes: Sequence[str] | None = None) -> None:
        terrains = tuple(check_iterable(terrains, "terrains", "a list of Terrain objects"))
        if not terrains:
            raise ArgumentError("terrains must hold at least one Terrain")
        for t in terrains:
            if not isinstance(t, Terrain):
                raise ArgumentTypeError(f"terrains must hold Terrain objects, got {type(t).__name__} {t!r}")
            if _clean_costs(t.name, t.costs) != t.costs:  # a cost changed behind the terrain's back
                raise ArgumentError(f"terrain {t.name!r}: its costs were changed after it was made; make a new Terrain")
        if len(terrains) > 32767:
            raise ArgumentError(f"terrains must hold at most 32767 terrains, got {len(terrains)}")
        names = [t.name for t in terrains]
        dup = {n for n, k in Counter(names).items() if k > 1}
        if dup:
            raise ArgumentError(f"terrain names must be unique, repeated: {sorted(dup)}")
        symbols = [t.symbol for t in terrains]
        dup = {s for s, k in Counter(symbols).items() if k > 1}
        if dup:
            raise ArgumentError(f"terrain symbols must be unique, repeated: {sorted(dup)}")
        if classes is None:
            seen: list[str] = []
            for t in terrains:
                for c in t.costs:
                    if c not in seen:
                        seen.append(c)
            classes = seen
        classes = tuple(classes)
        if not classes:
            raise ArgumentError("a terrain table needs at least one movement class")
        for c in classes:
            if not isinstance(c, str) or not _NAME.match(c):
                raise ArgumentError(f"movement class names must be words, got {c!r}")
        if len(set(classes)) != len(classes):
            raise ArgumentError(f"movement classes must be unique, got {classes}")
        self.terrains = terrains
        self.classes = classes
        self.names = tuple(names)
        self._index = {n: i for i, n in enumerate(names)}
        self._symbol_index = {s: i for i, s in enumerate(symbols)}
        m = np.array([[t.costs.get(c, INF) for c in classes] for t in terrains], dtype=np.float64)
        m.setflags(write=False)
        self._matrix = m
        self._wall_matrix: dict[str, NDArray[np.float64]] = {"stop": m}
        bs = np.array([t.blocks_sight for t in terrains], dtype=bool)
        bs.setflags(write=False)
        self._blocks = bs

    def __len__(self) -> int:
        return len(self.terrains)

    def __iter__(self) -> Iterator[Terrain]:
        return iter(self.terrains)

    def __getitem__(self, key: str | int) -> Terrain:
        return self.terrains[self.index(key) if isinstance(key, str) else key]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TerrainTable):
            return NotImplemented
        return self.terrains == other.terrains and self.classes == other.classes

    def __repr__(self) -> str:
        return f"TerrainTable({list(self.names)}, classes={list(self.classes)})"

    def index(self, name: str) -> int:
        """Terrain id of ``name``; ``ValueError`` listing the known names otherwise.

        >>> t = TerrainTable.default()
        >>> t.index("forest")
        1
        """
        try:
            return self._index[name]
        except (KeyError, TypeError):
            raise ArgumentError(f"unknown terrain {name!r}; known terrains: {', '.join(self.names)}") from None

    def index_of_symbol(self, symbol: str) -> int:
        """Terrain id of a map symbol.

        >>> t = TerrainTable.default()
        >>> t.names[t.index_of_symbol("~")]
        'water'
        """
        try:
            return self._symbol_index[symbol]
        except (KeyError, TypeError):
            known = "".join(t.symbol for t in self.terrains)
            raise ArgumentError(f"unknown terrain symbol {symbol!r}; known symbols: {known!r}") from None

    def class_index(self, unit: str | None) -> int:
        """Column of movement class ``unit`` (``None``: the first class).

        >>> t = TerrainTable.default()
        >>> t.class_index("cavalry"), t.class_index(None)
        (1, 0)
        """
        if unit is None:
            return 0
        if isinstance(unit, str):
            for i, c in enumerate(self.classes):
                if c == unit:
                    return i
        raise ArgumentError(f"unknown unit class {unit!r}; known classes: {', '.join(self.classes)}")

    def cost(self, terrain: str, unit: str | None = None) -> float:
        """Cost of ``terrain`` for ``unit`` (``None``: the first class); ``inf``: impassable.

        >>> t = TerrainTable.default()
        >>> t.cost("forest", "cavalry"), t.cost("water", "foot")
        (4.0, inf)
        """
        return float(self._matrix[self.index(terrain), self.class_index(unit)])

    def cost_matrix(self, *, walls: str = "stop") -> NDArray[np.float64]:
        """``(n_terrains, n_classes)`` costs, read-only (``inf``: impassable).

        ``walls`` (one of ``WALL_RULES``) is what the unit does at a wall: the
        rows of the walls it gets through ('crush': crushable walls;
        'destroy': every wall) cost what the table's first terrain costs,
        as a wall cell counts as clear land in the classic engine's zones.

        >>> t = TerrainTable.default().with_terrains([Terrain("sandbags", "S", "#c2b280", wall="crushable")])
        >>> t.cost_matrix().shape
        (11, 5)
        >>> t.cost("sandbags", "tracked"), float(t.cost_matrix(walls="crush")[t.index("sandbags"), 3])
        (inf, 2.0)
        """
        m = self._wall_matrix.get(walls) if isinstance(walls, str) else None  # else check_walls names it
        if m is None:
            passed = [i for i, t in enumerate(self.terrains) if t.wall in _WALLS_PASSED[check_walls(walls)]]
            m = self._matrix.copy()
            m[passed] = self._matrix[0]
            m.setflags(write=False)
            self._wall_matrix[walls] = m
        return m

    @property
    def has_walls(self) -> bool:
        """Whether a terrain of the table is a wall (``Terrain.wall``).

        >>> TerrainTable.default().has_walls
        False
        """
        return any(t.wall is not None for t in self.terrains)

    def blocks_sight(self) -> NDArray[np.bool_]:
        """``(n_terrains,)`` booleans, read-only: which terrains block sight.

        >>> t = TerrainTable.default()
        >>> bool(t.blocks_sight()[t.index("forest")])
        True
        """
        return self._blocks

    def colors(self) -> list[str]:
        """Colour of each terrain, by id.

        >>> t = TerrainTable.default()
        >>> t.colors()[t.index("forest")]
        '#3f7f3a'
        """
        return [t.color for t in self.terrains]

    def to_dict(self) -> TerrainTableData:
        """Plain data for map files.

        >>> t = TerrainTable.default()
        >>> TerrainTable.from_dict(t.to_dict()).names == t.names
        True
        """
        return {"classes": list(self.classes), "terrains": [t.to_dict() for t in self.terrains]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "TerrainTable":
        """Inverse of ``to_dict``."""
        return cls([Terrain.from_dict(t) for t in d["terrains"]], classes=d.get("classes"))

    def with_terrains(self, extra: Iterable[Terrain]) -> "TerrainTable":
        """A new table with ``extra`` terrains appended.

        >>> t = TerrainTable.default()
        >>> t2 = t.with_terrains([Terrain("lava", "L", "#ff4000", costs={"tracked": 3})])
        >>> t2.cost("lava", "tracked"), t2.cost("lava", "foot")
        (3.0, inf)
        """
        return TerrainTable(self.terrains + tuple(extra), classes=self.classes)

    @classmethod
    def default(cls) -> "TerrainTable":
        """The default table of a strategy game.

        Classes foot, cavalry, wheeled, tracked, naval. Cavalry is fast on
        plains and slow in forest; foot is steady everywhere on land; only
        naval crosses water; roads and bridges speed up every land class.
        """
        return _DEFAULT


_LAND = ("foot", "cavalry", "wheeled", "tracked")
_DEFAULT = TerrainTable(
    [
        Terrain("plains", ".", "#b5cf6b", costs={"foot": 2, "cavalry": 1, "wheeled": 2, "tracked": 2}),
        Terrain("forest", "f", "#3f7f3a", costs={"foot": 2, "cavalry": 4, "wheeled": 6, "tracked": 3}, blocks_sight=True),
        Terrain("hills", "h", "#a99560", costs={"foot": 3, "cavalry": 3, "wheeled": 4, "tracked": 3}),
        Terrain("mountains", "M", "#7d7168", costs={"foot": 5}, blocks_sight=True),
        Terrain("water", "~", "#3f78b5", costs={"naval": 1}),
        Terrain("road", "=", "#d8c8a0", costs={"foot": 1, "cavalry": 0.75, "wheeled": 1, "tracked": 1.5}),
        Terrain("bridge", "b", "#8b5a2b", costs={"foot": 1, "cavalry": 0.75, "wheeled": 1, "tracked": 1.5}),
        Terrain("coast", ",", "#e3d59b", costs={"foot": 2, "cavalry": 2, "wheeled": 3, "tracked": 2}),
        Terrain("swamp", "s", "#6b8e6b", costs={"foot": 4, "cavalry": 6, "tracked": 6}),
        Terrain("ford", "_", "#6fa3d6", costs={"foot": 4, "cavalry": 3, "tracked": 4}),
    ],
    classes=("foot", "cavalry", "wheeled", "tracked", "naval"),
)
