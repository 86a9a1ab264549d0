"""Who stands where: infantry sub-spots, vehicles, buildings and reservations.

A cell holds either up to ``n_spots`` soldiers (one per sub-spot), or one
vehicle, or one part of a building that spans several cells. Sub-spot 0 is
the centre; the others lie halfway from the centre to each corner of the tile
(``Grid.corner_offsets``): five spots on square and staggered boards, seven on
hex boards. A unit about to enter a cell reserves it (a vehicle the whole
cell, a soldier one spot), so two units never claim the same space.

>>> from wargrid import SquareGrid
>>> occ = Occupancy(SquareGrid(4, 4), seed=1)
>>> occ.place(1, (1, 1), kind="vehicle").cell
(1, 1)
>>> occ.place(2, (1, 1), kind="infantry")
Traceback (most recent call last):
...
wargrid.errors.ArgumentError: cell (1, 1) cannot take infantry unit 2: it holds vehicle 1
>>> occ.place(3, (2, 1), kind="infantry", near=(2 * 256 + 250, 256 + 250)).spot
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from numpy.typing import NDArray

from ..errors import ArgumentError, ArgumentTypeError
from .._budget import check_memory
from .._validate import check_choice, check_int, check_iterable, check_seed
from ..grids.boards import Grid
from ..grids.leptons import LEPTONS_PER_CELL, check_lepton_point, check_lepton_scale

__all__ = ["Occupancy", "Spot", "OCCUPANT_KINDS", "spot_offsets"]

OCCUPANT_KINDS = ("infantry", "vehicle")
"""Kinds of moving unit; buildings are placed with ``Occupancy.place_building``."""

SPOT_RULES = ("classic", "nearest")
"""How ``Occupancy.free_spot`` picks a sub-spot for a point (see there)."""

CENTRE_RADIUS = 60
"""'classic': a point within this octagonal distance (leptons of a 256-lepton cell) of the centre asks for the centre."""

# 'classic' on five-spot boards, in wargrid's spot numbers (1 upper left, 2 upper right, 3 lower right, 4 lower
# left): the spot a quadrant asks for (index: 1 if x right of the centre + 2 if y below it), and the order in
# which the other spots are tried when the asked one is taken (the nearest first); for a taken centre one of
# four rotations of the corners, at random.
_QUADRANT_SPOT = (1, 2, 4, 3)
_NEXT_SPOTS = {0: (1, 2, 4, 3), 1: (0, 2, 4, 3), 2: (0, 1, 3, 4), 4: (0, 1, 3, 2), 3: (0, 2, 4, 1)}
_CENTRE_TAKEN = ((1, 2, 4, 3), (2, 4, 3, 1), (4, 3, 1, 2), (3, 1, 2, 4))

_MAX_UID = (1 << 31) - 1
"""The largest unit id: the per-unit arrays are indexed by id, and the cell arrays hold ids as int64."""


@dataclass(frozen=True)
class Spot:
    """Where a unit stands: the cell, the sub-spot (``-1``: the whole cell) and the point in leptons."""

    cell: tuple[int, int]
    spot: int
    lepton: tuple[int, int]


def spot_offsets(grid: Grid, *, leptons: int = LEPTONS_PER_CELL) -> np.ndarray:
    """``(n_spots, 2)`` integer lepton offsets of the sub-spots from a cell's centre.

    Spot 0 is the centre; spot ``k`` lies halfway towards corner ``k - 1`` of
    the tile, scaled so that the tile's drawing box maps onto one cell of
    leptons.

    >>> from wargrid import SquareGrid, HexGrid
    >>> spot_offsets(SquareGrid(2, 2)).tolist()
    [[0, 0], [-64, -64], [64, -64], [64, 64], [-64, 64]]
    >>> len(spot_offsets(HexGrid(2, 2)))
    7
    """
    n = check_lepton_scale(leptons)
    if not isinstance(grid, Grid):
        raise ArgumentTypeError(f"grid must be a wargrid Grid, got {type(grid).__name__}")
    off = np.array(grid.corner_offsets(), dtype=np.float64)
    box = off.max(axis=0) - off.min(axis=0)
    spots = np.rint(0.5 * off / box * n).astype(np.int64)
    return np.vstack([np.zeros((1, 2), dtype=np.int64), spots])


class Occupancy:
    """Per-cell occupancy of a board, with reservations (dynamic state beside the map).

    Units are non-negative integer ids. ``seed`` drives the fair random
    tie-break between equally near free sub-spots.
    """

    def __init__(self, grid: Grid, *, leptons: int = LEPTONS_PER_CELL, seed: int | None = None) -> None:
        if not isinstance(grid, Grid):
            raise ArgumentTypeError(f"grid must be a wargrid Grid, got {type(grid).__name__}")
        self.grid = grid
        self.leptons = check_lepton_scale(leptons)
        self.spots = spot_offsets(grid, leptons=self.leptons)
        self.n_spots = len(self.spots)
        # the classic spot rule needs the classic layout: the centre and one spot a quadrant (upper left first)
        self._quadrants = np.sign(self.spots).tolist() == [[0, 0], [-1, -1], [1, -1], [1, 1], [-1, 1]]
        size = grid.size
        self.vehicle = np.full(size, -1, dtype=np.int64)
        self.building = np.full(size, -1, dtype=np.int64)
        self.infantry = np.full((size, self.n_spots), -1, dtype=np.int64)
        self.reserved_cell = np.full(size, -1, dtype=np.int64)
        self.reserved_spot = np.full((size, self.n_spots), -1, dtype=np.int64)
        self._rng = np.random.default_rng(check_seed(seed))
        # per unit id (grown on demand): where it stands and what it reserved, as the
        # simulation's kernels read and write them (cell id or -1; spot -1: whole cell)
        self.where_kind = np.full(0, -1, dtype=np.int64)  # 0 infantry, 1 vehicle, 2 building
        self.where_cell = np.full(0, -1, dtype=np.int64)
        self.where_spot = np.full(0, -1, dtype=np.int64)
        self.res_cell = np.full(0, -1, dtype=np.int64)
        self.res_spot = np.full(0, -1, dtype=np.int64)
        self._building_cells: dict[int, tuple[int, ...]] = {}

    def grow(self, n: int) -> None:
        """Make room for unit ids below ``n`` in the per-unit arrays.

        >>> from wargrid import SquareGrid
        >>> occ = Occupancy(SquareGrid(2, 2)); occ.grow(8); len(occ.where_cell) >= 8
        True
        """
        n = check_int(n, "n")
        old = len(self.where_cell)
        if n <= old:
            return
        if n > _MAX_UID + 1:
            raise ArgumentError(f"n must be at most {_MAX_UID + 1} (unit ids 0..{_MAX_UID}), got {n}")
        size = max(n, 2 * old, 16)
        check_memory(size * 5 * 8, what="the per-unit arrays", name="uid", value=n - 1)
        for name in ("where_kind", "where_cell", "where_spot", "res_cell", "res_spot"):
            a = np.full(size, -1, dtype=np.int64)
            a[:old] = getattr(self, name)
            setattr(self, name, a)

    def _known(self, u: int) -> bool:
        return u < len(self.where_cell) and self.where_cell[u] >= 0

    # -- checks ---------------------------------------------------------------------
    def _uid(self, uid: Any) -> int:
        u = check_int(uid, "uid")
        if u < 0:
            raise ArgumentError(f"uid must be >= 0, got {u}")
        if u > _MAX_UID:
            raise ArgumentError(f"uid must be at most {_MAX_UID}, got {u}")
        return u

    def _cid(self, cell: Any, name: str = "cell") -> int:
        x, y = self.grid.check_cell(cell, name)
        return y * self.grid.width + x

    def _xy(self, cid: int) -> tuple[int, int]:
        return cid % self.grid.width, cid // self.grid.width

    def _lepton(self, cid: int, spot: int) -> tuple[int, int]:
        x, y = self._xy(cid)
        h = self.leptons // 2
        ox, oy = (0, 0) if spot < 0 else self.spots[spot]
        return (x * self.leptons + h + int(ox), y * self.leptons + h + int(oy))

    # -- queries ----------------------------------------------------------------------
    def blocker(self, cell: tuple[int, int], kind: str, *, uid: int | None = None) -> str | None:
        """Why a unit of ``kind`` cannot enter ``cell`` now (``None``: it can).

        Space held or reserved by ``uid`` itself does not block it.

        >>> from wargrid import SquareGrid
        >>> occ = Occupancy(SquareGrid(2, 1)); occ.place_building(7, [(0, 0)])
        >>> occ.blocker((0, 0), "vehicle"), occ.blocker((1, 0), "vehicle")
        ('it is part of building 7', None)
        """
        check_choice(kind, "kind", OCCUPANT_KINDS)
        c = self._cid(cell)
        me = -2 if uid is None else self._uid(uid)
        if self.building[c] >= 0:
            return f"it is part of building {self.building[c]}"
        if self.vehicle[c] >= 0 and self.vehicle[c] != me:
            return f"it holds vehicle {self.vehicle[c]}"
        if self.reserved_cell[c] >= 0 and self.reserved_cell[c] != me:
            return f"it is reserved by unit {self.reserved_cell[c]}"

        def others(a: NDArray[np.int64]) -> NDArray[np.bool_]:
            held: NDArray[np.bool_] = (a >= 0) & (a != me)
            return held

        if kind == "vehicle":
            inf = self.infantry[c]
            if others(inf).any():
                return f"it holds infantry {int(inf[others(inf)][0])}"
            res = self.reserved_spot[c]
            if others(res).any():
                return f"a sub-spot is reserved by unit {int(res[others(res)][0])}"
            return None
        if not self._free_spots(c, me).size:
            return "every sub-spot is taken"
        return None

    def _free_spots(self, c: int, me: int = -2) -> np.ndarray:
        inf = self.infantry[c]
        res = self.reserved_spot[c]
        ok = ((inf < 0) | (inf == me)) & ((res < 0) | (res == me))
        return np.flatnonzero(ok)

    def free_spot(self, cell: tuple[int, int], *, near: tuple[int, int] | None = None, uid: int | None = None,
                  rule: str = "classic") -> int | None:
        """A free sub-spot of ``cell`` for lepton point ``near`` (``None``: no preference, a random free one).

        ``rule='classic'`` (the classic engine's, on boards of five spots:
        square and staggered): the point's place inside its cell asks for a
        spot: within octagonal distance ``CENTRE_RADIUS`` (60 of 256 leptons)
        of the centre the centre, else the corner spot of its quadrant (a
        coordinate exactly on the middle line counts as the upper or left
        side). When that spot is taken the others are tried nearest first
        (for a taken centre, the corners in one of four rotations, at random).
        ``rule='nearest'`` (an extension, and what hex and isometric boards,
        whose spots are not one a quadrant, always use):
        the free spot nearest the point, equally near ones at random. Random
        choices are fair and seeded. Returns ``None`` when no spot is free.

        >>> from wargrid import SquareGrid
        >>> occ = Occupancy(SquareGrid(2, 2))
        >>> occ.free_spot((0, 0), near=(128 + 59, 128)), occ.free_spot((0, 0), near=(128 + 60, 128 + 1))
        (0, 3)
        >>> occ.free_spot((0, 0), near=(128 + 60, 128 + 1), rule="nearest")
        0
        """
        c = self._cid(cell)
        me = -2 if uid is None else self._uid(uid)
        rule = check_choice(rule, "rule", SPOT_RULES)
        free = self._free_spots(c, me)
        if not free.size:
            return None
        if near is not None and rule == "classic" and self._quadrants:
            px, py = check_lepton_point(near, "near")
            return self._classic_spot(px, py, set(free.tolist()))
        if near is None:
            tied = free
        else:
            px, py = check_lepton_point(near, "near")
            # Python integers: a point past int64 (any integer is a lepton point) compares exactly, a few spots a cell
            d = [(x - px) ** 2 + (y - py) ** 2 for x, y in (self._lepton(c, int(s)) for s in free)]
            tied = free[[k for k, v in enumerate(d) if v == min(d)]]
        return int(tied[self._rng.integers(len(tied))]) if len(tied) > 1 else int(tied[0])

    def _classic_spot(self, px: int, py: int, free: set[int]) -> int:
        n = self.leptons
        fx, fy = px % n - n // 2, py % n - n // 2  # from the centre of the point's own cell
        ax, ay = abs(fx), abs(fy)
        if max(ax, ay) + min(ax, ay) // 2 < CENTRE_RADIUS * n // LEPTONS_PER_CELL:
            asked = 0
        else:
            asked = _QUADRANT_SPOT[(fx > 0) + 2 * (fy > 0)]
        if asked in free:
            return asked
        order = _CENTRE_TAKEN[int(self._rng.integers(4))] if asked == 0 else _NEXT_SPOTS[asked]
        return next(s for s in order if s in free)

    def position(self, uid: int) -> Spot | None:
        """Where unit ``uid`` stands (``None``: not on the board; a building reports its first cell).

        >>> from wargrid import SquareGrid
        >>> occ = Occupancy(SquareGrid(6, 4), seed=1)
        >>> _ = occ.place(1, (1, 1)); occ.position(1).cell, occ.position(9)
        ((1, 1), None)
        """
        u = self._uid(uid)
        if not self._known(u):
            return None
        c, spot = int(self.where_cell[u]), int(self.where_spot[u])
        return Spot(self._xy(c), spot, self._lepton(c, spot))

    def reservation(self, uid: int) -> Spot | None:
        """The space unit ``uid`` has reserved, or ``None``.

        >>> from wargrid import SquareGrid
        >>> occ = Occupancy(SquareGrid(6, 4), seed=1)
        >>> _ = occ.reserve(1, (2, 1)); occ.reservation(1).cell
        (2, 1)
        """
        u = self._uid(uid)
        if u >= len(self.res_cell) or self.res_cell[u] < 0:
            return None
        c, s = int(self.res_cell[u]), int(self.res_spot[u])
        return Spot(self._xy(c), s, self._lepton(c, s))

    def occupants(self, cell: tuple[int, int]) -> list[int]:
        """Units standing on ``cell`` (vehicle, building or soldiers).

        >>> from wargrid import SquareGrid
        >>> occ = Occupancy(SquareGrid(6, 4), seed=1)
        >>> _ = occ.place(2, (3, 2), kind="infantry"); occ.occupants((3, 2))
        [2]
        """
        c = self._cid(cell)
        out = [int(v) for v in (self.vehicle[c], self.building[c]) if v >= 0]
        return out + [int(v) for v in self.infantry[c] if v >= 0]

    def units(self) -> list[int]:
        """Every unit on the board.

        >>> from wargrid import SquareGrid
        >>> occ = Occupancy(SquareGrid(6, 4), seed=1)
        >>> _ = occ.place(4, (0, 0)); _ = occ.place(2, (1, 0)); occ.units()
        [2, 4]
        """
        return np.flatnonzero(self.where_cell >= 0).tolist()

    # -- changes ----------------------------------------------------------------------
    def _claim(self, uid: int, cell: tuple[int, int], kind: str, near: Any, spot: int | None) -> tuple[int, int]:
        why = self.blocker(cell, kind, uid=uid)
        if why is not None:
            raise ArgumentError(f"cell {tuple(cell)} cannot take {kind} unit {uid}: {why}")
        c = self._cid(cell)
        if kind == "vehicle":
            if spot is not None:
                raise ArgumentError(f"spot must be None for a vehicle, got {spot!r}")
            return c, -1
        if spot is None:
            s = self.free_spot(cell, near=near, uid=uid)
            assert s is not None  # blocker() said a spot is free
            return c, s
        s = check_int(spot, "spot")
        if s not in self._free_spots(c, uid).tolist():
            raise ArgumentError(f"spot {s} of cell {tuple(cell)} is not free; free spots: {self._free_spots(c, uid).tolist()}")
        return c, s

    def place(
        self, uid: int, cell: tuple[int, int], *, kind: str = "vehicle", near: tuple[int, int] | None = None, spot: int | None = None
    ) -> Spot:
        """Put unit ``uid`` on ``cell`` (moving it if it stands elsewhere; its reservation is used up).

        A soldier takes ``spot``, or the free spot nearest ``near``. Raises
        ``ValueError`` when the space is taken.
        """
        u = self._uid(uid)
        check_choice(kind, "kind", OCCUPANT_KINDS)
        r = self.reservation(u)
        if kind == "infantry" and spot is None and r is not None and r.cell == tuple(cell) and r.spot >= 0:
            spot = r.spot
        c, s = self._claim(u, cell, kind, near, spot)
        self.grow(u + 1)  # before any change: it may refuse (memory)
        self.remove(u)
        self.release(u)
        if kind == "vehicle":
            self.vehicle[c] = u
        else:
            self.infantry[c, s] = u
        self.where_kind[u], self.where_cell[u], self.where_spot[u] = (1 if kind == "vehicle" else 0), c, s
        return Spot(self._xy(c), s, self._lepton(c, s))

    def place_building(self, uid: int, cells: Sequence[tuple[int, int]]) -> None:
        """Put building ``uid`` on every cell of ``cells``; they must all be empty.

        >>> from wargrid import SquareGrid
        >>> occ = Occupancy(SquareGrid(6, 4), seed=1)
        >>> occ.place_building(7, [(4, 0), (5, 0)]); occ.occupants((5, 0))
        [7]
        """
        u = self._uid(uid)
        if self._known(u):
            raise ArgumentError(f"uid {u} is already on the board")
        ids = []
        for i, cell in enumerate(check_iterable(cells, "cells", "a list of (x, y) cells")):
            c = self._cid(cell, f"cells[{i}]")
            why = self.blocker(self._xy(c), "vehicle")
            if why is not None:
                raise ArgumentError(f"cells[{i}] {self._xy(c)} cannot take building {u}: {why}")
            ids.append(c)
        if not ids:
            raise ArgumentError("cells must hold at least one cell")
        self.grow(u + 1)  # before any change: it may refuse (memory)
        self.building[ids] = u
        self.where_kind[u], self.where_cell[u], self.where_spot[u] = 2, ids[0], -1
        self._building_cells[u] = tuple(ids)

    def remove(self, uid: int) -> None:
        """Take unit ``uid`` off the board (no-op if absent); its reservation stays.

        >>> from wargrid import SquareGrid
        >>> occ = Occupancy(SquareGrid(6, 4), seed=1)
        >>> _ = occ.place(1, (1, 1)); occ.remove(1); occ.units()
        []
        """
        u = self._uid(uid)
        if not self._known(u):
            return
        kind, c, s = int(self.where_kind[u]), int(self.where_cell[u]), int(self.where_spot[u])
        if kind == 1:
            self.vehicle[c] = -1
        elif kind == 2:
            self.building[list(self._building_cells.pop(u))] = -1
        else:
            self.infantry[c, s] = -1
        self.where_kind[u], self.where_cell[u], self.where_spot[u] = -1, -1, -1

    def reserve(self, uid: int, cell: tuple[int, int], *, kind: str = "vehicle", near: tuple[int, int] | None = None) -> Spot | None:
        """Reserve space on ``cell`` for unit ``uid`` (replacing its earlier reservation).

        Returns the reserved space, or ``None`` (and no change) when it is taken.

        >>> from wargrid import SquareGrid
        >>> occ = Occupancy(SquareGrid(3, 1))
        >>> occ.reserve(1, (1, 0)).cell, occ.reserve(2, (1, 0))
        ((1, 0), None)
        """
        u = self._uid(uid)
        check_choice(kind, "kind", OCCUPANT_KINDS)
        if self.blocker(cell, kind, uid=u) is not None:
            return None
        c, s = self._claim(u, cell, kind, near, None)
        self.grow(u + 1)  # before any change: it may refuse (memory)
        self.release(u)
        if s < 0:
            self.reserved_cell[c] = u
        else:
            self.reserved_spot[c, s] = u
        self.res_cell[u], self.res_spot[u] = c, s
        return Spot(self._xy(c), s, self._lepton(c, s))

    def release(self, uid: int) -> None:
        """Drop the reservation of unit ``uid`` (no-op if none).

        >>> from wargrid import SquareGrid
        >>> occ = Occupancy(SquareGrid(6, 4), seed=1)
        >>> _ = occ.reserve(1, (2, 1)); occ.release(1); occ.reservation(1) is None
        True
        """
        u = self._uid(uid)
        if u >= len(self.res_cell) or self.res_cell[u] < 0:
            return
        c, s = int(self.res_cell[u]), int(self.res_spot[u])
        self.res_cell[u], self.res_spot[u] = -1, -1
        if s < 0:
            self.reserved_cell[c] = -1
        else:
            self.reserved_spot[c, s] = -1

    def claims(self) -> list[tuple[int, int, int]]:
        """Every claim on space as ``(cell_id, spot, uid)`` (``spot`` -1: whole cell), held or reserved.

        >>> from wargrid import SquareGrid
        >>> occ = Occupancy(SquareGrid(6, 4), seed=1)
        >>> occ.place_building(7, [(4, 0), (5, 0)]); occ.claims()
        [(4, -1, 7), (5, -1, 7)]
        """
        out: list[tuple[int, int, int]] = []
        for u in np.flatnonzero(self.where_cell >= 0).tolist():
            cells = self._building_cells.get(u, (int(self.where_cell[u]),))
            out += [(c, int(self.where_spot[u]), u) for c in cells]
        for u in np.flatnonzero(self.res_cell >= 0).tolist():
            out.append((int(self.res_cell[u]), int(self.res_spot[u]), u))
        return out
