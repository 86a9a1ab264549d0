"""``CostField``: the one cost type every movement, sight-free search and RTS function takes.

A cost field is what one movement class pays on one board, frozen and laid
out for the kernels: the cost of entering every cell of the board's padded
flat layout (``inf``: impassable, off the board, or the padding ring), the
extra cost of every step (an edge cost: a river, a wall, a climb), the
smallest finite entry cost (it scales the A* heuristic so that it stays
admissible) and whether every passable cell costs the same.

``Map.cost_field(unit=...)`` gives the field of a movement class, kept up to
date with the map's edits (an edit makes a new field; a field never changes).
``CostField.from_arrays(grid, cell_costs)`` builds one by hand from a
``(height, width)`` array indexed ``[y, x]``:

>>> import numpy as np
>>> from wargrid import SquareGrid
>>> costs = np.ones((2, 3)); costs[0, 1] = np.inf
>>> f = CostField.from_arrays(SquareGrid(3, 2), costs, unit="foot")
>>> f.unit, f.min_cost, f.uniform, f.cells().tolist()
('foot', 1.0, True, [[1.0, inf, 1.0], [1.0, 1.0, 1.0]])
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt
from .errors import ArgumentError, ArgumentTypeError

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterable

    from .grids.boards import Grid, Topology

__all__ = ["CostField", "check_cost_field"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class CostField:
    """Costs of one movement class on one board, in the padded flat layout the kernels read.

    Attributes
    ----------
    topology : Topology
        The board's neighbour rule and padded layout (``grid.topology``).
    cell : ndarray of float64, shape ``(topology.padded_size,)``
        ``cell[p]``: the cost of entering padded cell ``p``; ``inf`` where
        impassable, off the board, or in the padding ring. Read-only.
    edge : ndarray of float64, shape ``(padded_size * ndir,)`` or ``(0,)``
        ``edge[p * ndir + d]``: the extra cost of the step from ``p`` in
        direction ``d`` (``inf``: a wall); empty when no step costs extra.
    min_cost : float
        The smallest finite entry cost (``1.0`` when nothing is passable).
    uniform : bool
        Every passable cell costs ``min_cost`` and no step costs extra.
    unit : str or None
        The movement class the field prices (``None`` for a field built by hand without one).

    A field is compared by identity: the caches built from it (jump tables,
    step bits, zones) live as long as it does. A field made by calling the
    class is checked as ``from_padded`` checks its arrays, and ``min_cost``
    and ``uniform`` against them (the kernels trust every one of them).
    """

    topology: "Topology"
    cell: FloatArray
    edge: FloatArray
    min_cost: float
    uniform: bool
    unit: str | None = None

    def __post_init__(self) -> None:
        """``CostField(...)`` called directly: the arrays checked (one pass over ``cell``; a finite padding ring or a
        negative cost would walk the kernels off the array), ``min_cost`` at most the least finite cost and
        ``uniform`` true of the arrays. An array of its own is taken as it is and made read-only (pass a copy to
        keep writing yours); a view is copied. The library's builders have checked already (``_made``)."""
        from ._validate import check_real

        cell, e, lo, hi = _checked_arrays(self.topology, self.cell, self.edge, self.unit)
        least = check_real(self.min_cost, "min_cost", minimum=0.0)
        if lo < np.inf and least > lo:
            raise ArgumentError(f"min_cost must be at most the least finite cost {float(lo)}, got {least} "
                                "(CostField.from_padded computes it)")
        if not isinstance(self.uniform, (bool, np.bool_)):
            raise ArgumentTypeError(f"uniform must be True or False, got {self.uniform!r}")
        if self.uniform and not e.size and lo == hi and least != lo:
            raise ArgumentError(f"min_cost must be the passable cells' one cost {float(lo)} when uniform is True, got "
                                f"{least}")
        if self.uniform and (e.size or lo < np.inf and not lo == hi == least):
            raise ArgumentError(f"uniform must be False: the passable cells cost {float(lo)} to {float(hi)}, min_cost "
                                f"is {least}{' and steps cost extra' if e.size else ''} (CostField.from_padded computes it)")
        for name, v in (("cell", cell), ("edge", e), ("min_cost", least), ("uniform", bool(self.uniform))):
            object.__setattr__(self, name, v)

    @classmethod
    def _made(cls, topology: "Topology", cell: FloatArray, edge: FloatArray, min_cost: float, uniform: bool,
              unit: str | None) -> "CostField":
        """A field from arrays the caller has checked (``from_padded``, ``with_cells``), without ``__post_init__``'s
        pass: a map makes one on every edit, for every movement class."""
        f = object.__new__(cls)
        f.__dict__.update(topology=topology, cell=cell, edge=edge, min_cost=min_cost, uniform=uniform, unit=unit)
        return f

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled, the arrays are read-only again (pickle makes them writable): a write through them could put a
        finite cost in the padding ring, past the checks, and a writable array makes every kernel compile anew."""
        self.__dict__.update(state)
        for a in (self.cell, self.edge):
            a.setflags(write=False)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_padded(
        cls,
        topology: "Topology",
        cell: FloatArray,
        edge: FloatArray | None = None,
        *,
        unit: str | None = None,
    ) -> "CostField":
        """A field from arrays already in the padded flat layout (``topology.pad``; the library's own builders).

        ``min_cost`` and ``uniform`` are computed; the arrays are made read-only. ``cell`` holds
        ``topology.padded_size`` costs >= 0, ``inf`` in the padding ring (the kernels' blocked border: a finite
        cost there would walk them off the array) and on the cells the board's mask leaves out; ``edge``, ``None`` or ``padded_size * ndir`` costs >= 0.

        >>> from wargrid import HexGrid
        >>> t = HexGrid(2, 2).topology
        >>> CostField.from_padded(t, t.pad(np.full((2, 2), 3.0), np.inf)).min_cost
        3.0
        >>> CostField.from_padded(t, np.ones(t.padded_size))
        Traceback (most recent call last):
        ...
        wargrid.errors.ArgumentError: cell must be inf in the padding ring (padded x or y 0 or last: the kernels' blocked border), got a finite cost or NaN there; lay the costs out with topology.pad(costs, np.inf)
        """
        cell, e, lo, hi = _checked_arrays(topology, cell, np.zeros(0) if edge is None else edge, unit)
        min_cost, flat = (float(lo), hi == lo) if lo < np.inf else (1.0, True)
        return cls._made(topology, cell, e, min_cost, bool(flat and e.size == 0), unit)

    @classmethod
    def from_arrays(
        cls,
        grid: "Grid",
        cell_costs: npt.ArrayLike,
        edge_costs: npt.ArrayLike | None = None,
        *,
        unit: str | None = None,
        name: str = "cell_costs",
    ) -> "CostField":
        """Check and lay out a ``(height, width)`` array of entry costs (``inf``: impassable), indexed ``[y, x]``.

        Parameters
        ----------
        grid : Grid
            The board.
        cell_costs : array_like, shape ``(height, width)``
            The cost of entering each cell; ``>= 0``, ``inf`` for impassable, no NaN.
        edge_costs : array_like, shape ``(height, width, ndir)``, optional
            The extra cost of the step from ``[y, x]`` in each direction of the
            board (``grid.steps``); ``>= 0``, ``inf`` blocks the step.
        unit : str, optional
            The movement class the field prices, kept on results.
        name : str
            The argument name used in error messages.

        Raises
        ------
        TypeError
            ``grid`` is not a Grid, or an array is not numeric.
        ValueError
            A shape does not match the board, or a cost is negative or NaN.

        >>> from wargrid import SquareGrid
        >>> f = CostField.from_arrays(SquareGrid(2, 1), [[1, 2]])
        >>> f.cell.reshape(3, 4)[1].tolist(), f.uniform
        ([inf, 1.0, 2.0, inf], False)
        """
        from .grids.boards import Grid

        if not isinstance(grid, Grid):
            raise ArgumentTypeError(f"grid must be a wargrid Grid, got {type(grid).__name__}")
        a = np.asarray(cell_costs)
        if a.shape != grid.shape:
            raise ArgumentError(f"{name} must have shape (height, width) = {grid.shape}, got {a.shape}")
        if a.dtype.kind not in "iuf":
            raise ArgumentTypeError(f"{name} must be a numeric array, got dtype {a.dtype}")
        a = a.astype(np.float64)
        if np.isnan(a).any():
            raise ArgumentError(f"{name} must not hold NaN (use inf for impassable)")
        if (a < 0).any():
            raise ArgumentError(f"{name} must be >= 0 (use inf for impassable), got {float(a.min())}")
        topo = grid.topology
        edge = None
        if edge_costs is not None:
            e = np.asarray(edge_costs)
            want = grid.shape + (topo.ndir,)
            if e.shape != want:
                raise ArgumentError(f"edge_costs must have shape (height, width, ndir) = {want}, got {e.shape}")
            if e.dtype.kind not in "iuf":
                raise ArgumentTypeError(f"edge_costs must be a numeric array, got dtype {e.dtype}")
            e = e.astype(np.float64)
            if np.isnan(e).any() or (e < 0).any():
                raise ArgumentError("edge_costs must be >= 0 and not NaN (inf blocks the move)")
            full = np.zeros((topo.ph, topo.pw, topo.ndir), dtype=np.float64)
            full[1:-1, 1:-1] = e
            edge = full.ravel()
        return cls.from_padded(topo, topo.pad(a, np.inf).astype(np.float64), edge, unit=unit)

    # -- derived fields -----------------------------------------------------------------
    def with_cells(self, cell: FloatArray, *, changed: npt.NDArray[np.int64] | None = None) -> "CostField":
        """The same field (topology, edges, class) with the padded entry costs ``cell``.

        ``changed``: the padded ids where ``cell`` differs from this field's, so the new least cost is found from
        them instead of a pass over the board. Every entry of ``cell`` is still read once, branch-free, for NaN and
        negative costs (one beyond ``changed`` walked the kernels off the array), and the cells the board's mask
        leaves out must be ``inf``; a map's own edits skip that pass (``patched_field``: they wrote only
        ``changed``, checked, into a copy of a checked field's array; a changed cell the mask leaves out is refused
        there too).

        >>> from wargrid import SquareGrid
        >>> f = CostField.from_arrays(SquareGrid(2, 1), [[1, 1]])
        >>> c = f.cell.copy(); c[6] = 5.0; f.with_cells(c).uniform
        False
        >>> f.with_cells(c, changed=np.array([6])).uniform
        False
        >>> f.with_cells(c, changed=np.array([10**9]))
        Traceback (most recent call last):
        ...
        wargrid.errors.ArgumentError: changed[0] = 1000000000 is no padded id of the board (0..11)
        >>> c = c.copy(); c[5] = -1.0; f.with_cells(c, changed=np.array([6]))
        Traceback (most recent call last):
        ...
        wargrid.errors.ArgumentError: cell[5] must be >= 0 (inf: impassable), got -1.0 (an entry beyond changed)
        """
        if changed is None:
            return CostField.from_padded(self.topology, cell, None if self.edge.size == 0 else self.edge, unit=self.unit)
        return self._patched(cell, changed, whole=True)

    def _patched(self, cell: FloatArray, changed: npt.NDArray[np.int64], *, whole: bool) -> "CostField":
        """``with_cells(cell, changed=changed)``; without ``whole`` only the ``changed`` entries and the padding ring
        of ``cell`` are read (a map's edit: ``cell`` is a checked field's array with the ``changed`` ids written)."""
        kc = _kernels()
        cell = _padded_array(cell, "cell", self.cell.shape[0])
        if cell.base is not None and cell is not self.cell:  # a view is copied, as in ``from_padded``: the array it
            cell = cell.copy()  # views stays writable, and a write there would reach the kernels past the checks
        given = changed
        if type(changed) is not np.ndarray or changed.dtype != np.int64 or changed.ndim != 1:
            given = np.asarray(changed)
            if given.ndim != 1 or given.dtype.kind not in "iu" and given.size:  # (an empty list: no change)
                raise ArgumentTypeError(f"changed must be a 1-D array of padded ids (integers), got {given.dtype} of shape "
                                        f"{given.shape}")
            # ids past int64 (uint64) are off the board: -1 keeps them so, where astype would wrap them round
            changed = np.where(given <= np.iinfo(np.int64).max, given, -1).astype(np.int64) if given.dtype == np.uint64 \
                else given.astype(np.int64)
        # the ring is read unless ``cell`` is this field's own array, patched in place (a map's edit): its ring was
        # read when it became a field's, and only ``changed`` ids, checked to be cells, were written since
        ring = cell is not self.cell
        # (``_least_at``: where the least cost was last seen, so a repeat edit need not scan for it)
        lo, flat, at = kc.patched_range(cell, changed, self.min_cost, self.uniform, self.topology.pw, ring,
                                        self.__dict__.get("_least_at", -1))  # (uniform: no edges)
        if lo != lo:  # an id off the board, a NaN or negative cost, or a finite cost in the padding ring
            fault, i = kc.ids_fault(cell, changed, self.topology.pw, ring)
            if i < 0:
                _fault(fault, "cell")
            p = int(given[i])
            _fault(fault, f"changed[{i}] = {p}" if fault in (kc.FAULT_RANGE, kc.FAULT_PADDING) else f"cell[{p}] (changed[{i}])",
                   cell.shape[0])
        off = self.topology.masked_out
        if off is not None and changed.size and (cell[changed][off[changed]] < np.inf).any():
            i = int(np.flatnonzero(off[changed] & (cell[changed] < np.inf))[0])
            p = int(changed[i])
            raise ArgumentError(f"changed[{i}] = {p} is a cell the board's mask leaves out: its cost must stay inf, got "
                                f"{float(cell[p])}")
        if whole and ring and off is not None and (cell[off] < np.inf).any():
            p = int(np.flatnonzero(off & (cell < np.inf))[0])
            raise ArgumentError(f"cell[{p}] is a cell the board's mask leaves out: its cost must be inf, got "
                                f"{float(cell[p])} (an entry beyond changed)")
        if whole and ring and kc.any_bad_cost(cell):
            p = int(np.flatnonzero(~(cell >= 0.0))[0])
            v = float(cell[p])
            raise ArgumentError(f"cell[{p}] must not be NaN (inf: impassable) (an entry beyond changed)" if v != v else
                                f"cell[{p}] must be >= 0 (inf: impassable), got {v} (an entry beyond changed)")
        e = self.edge
        cell.setflags(write=False)
        out = CostField._made(self.topology, cell, e, float(lo) if lo < np.inf else 1.0, bool(flat and e.size == 0),
                              self.unit)
        out.__dict__["_least_at"] = int(at)
        return out

    def with_blocked(self, ids: npt.ArrayLike) -> "CostField":
        """The same field with the cells of padded ids ``ids`` impassable (``inf``): cells units stand on, say.

        Only ``inf`` is written into a checked field, so ``min_cost`` and ``uniform`` are kept as they were (a
        search's heuristic, and so its ties, stay the same) and the arrays are not checked again.

        >>> from wargrid import SquareGrid
        >>> f = CostField.from_arrays(SquareGrid(3, 1), [[1, 2, 3]])
        >>> g = f.with_blocked([6]); g.cells().tolist(), g.min_cost
        ([[inf, 2.0, 3.0]], 1.0)
        >>> f.with_blocked([99])
        Traceback (most recent call last):
        ...
        wargrid.errors.ArgumentError: ids[0] = 99 is no padded id of the board (0..14)
        """
        a = np.asarray(ids)
        if a.dtype.kind in "fO" and a.ndim == 1 and not isinstance(ids, np.ndarray):
            items = list(cast("Iterable[Any]", ids))  # numpy makes mixed integer types (np.uint64 beside np.int8)
            if all(hasattr(v, "__index__") for v in items):  # float64, and huge ones objects: read the integers
                top = self.cell.shape[0]
                for i, v in enumerate(items):
                    if not 0 <= operator.index(v) < top:
                        raise ArgumentError(f"ids[{i}] = {v} is no padded id of the board (0..{top - 1})")
                a = np.array([operator.index(v) for v in items], dtype=np.int64)
        if a.ndim != 1 or a.dtype.kind not in "iu" and a.size:
            raise ArgumentTypeError(f"ids must be a 1-D array of padded ids (integers), got {a.dtype} of shape {a.shape}")
        bad = np.flatnonzero((a < 0) | (a >= self.cell.shape[0])) if a.size else a[:0]
        if bad.size:
            i = int(bad[0])
            raise ArgumentError(f"ids[{i}] = {a[i]} is no padded id of the board (0..{self.cell.shape[0] - 1})")
        cell = self.cell.copy()
        cell[a.astype(np.int64)] = np.inf
        cell.setflags(write=False)
        return CostField._made(self.topology, cell, self.edge, self.min_cost, self.uniform, self.unit)

    # -- reading ------------------------------------------------------------------------
    def cells(self) -> FloatArray:
        """A ``(height, width)`` copy of the entry costs, indexed ``[y, x]``.

        >>> from wargrid import SquareGrid
        >>> CostField.from_arrays(SquareGrid(2, 1), [[4, 5]]).cells().tolist()
        [[4.0, 5.0]]
        """
        out: FloatArray = self.topology.unpad(self.cell).copy()
        return out


def _checked_arrays(topology: object, cell: object, edge: object, unit: object) -> tuple[FloatArray, FloatArray, float, float]:
    """``(cell, edge, lo, hi)``: the arrays of a field checked (a view copied: the array it views stays writable, and
    a write through it would reach the kernels unchecked) and made read-only, with the least and largest finite
    cell costs; or a clear error naming the argument (``from_padded``, ``CostField(...)``)."""
    from ._kernels.costs import FAULT_NEGATIVE, any_bad_cost, checked_range
    from .grids.boards import Topology

    if not isinstance(topology, Topology):
        raise ArgumentTypeError(f"topology must be a wargrid Topology (grid.topology), got {type(topology).__name__}")
    c = _padded_array(cell, "cell", topology.padded_size)
    e = _padded_array(edge, "edge", topology.padded_size * topology.ndir, empty=True)
    c, e = (c if c.base is None else c.copy()), (e if e.base is None else e.copy())
    if e.size and any_bad_cost(e):
        raise ArgumentError("edge must be >= 0 and not NaN (inf blocks the step)")
    if unit is not None and not isinstance(unit, str):
        raise ArgumentTypeError(f"unit must be a movement class's name or None, got {type(unit).__name__} {unit!r}")
    lo, hi, fault = checked_range(c, topology.pw)
    if fault or lo < 0:
        _fault(fault or FAULT_NEGATIVE, "cell")
    off = topology.masked_out
    if off is not None and (c[off] < np.inf).any():
        x, y = topology.cells_of(np.flatnonzero(off & (c < np.inf))[:1])[0]
        raise ArgumentError(f"cell must be inf on the cells the board's mask leaves out, got a finite cost at "
                            f"({x}, {y}); lay the costs out with topology.pad(costs, np.inf)")
    for a in (c, e):
        a.setflags(write=False)
    return c, e, lo, hi


@cache
def _kernels() -> Any:
    """The cost kernels' module, imported on first use (``import wargrid`` loads no numba) and kept: a map's edit
    patches a field through it, and an import statement there took a few microseconds of every edit."""
    from ._kernels import costs

    return costs


def patched_field(field: CostField, cell: FloatArray, changed: npt.NDArray[np.int64]) -> CostField:
    """``field.with_cells(cell, changed=changed)`` for a map's edit: ``cell`` is ``field.cell`` or a copy of it with
    only the ``changed`` ids written, so only those and the padding ring are read (no pass over the board)."""
    return field._patched(cell, changed, whole=False)


def changed_ids(old: CostField, new: CostField) -> npt.NDArray[np.int64]:
    """The padded ids whose cell cost or edge costs differ between two fields of one board."""
    changed = old.cell != new.cell
    if old.edge.size or new.edge.size:
        nd = new.topology.ndir
        e0 = old.edge.reshape(-1, nd) if old.edge.size else np.zeros((1, nd))
        e1 = new.edge.reshape(-1, nd) if new.edge.size else np.zeros((1, nd))
        changed |= np.any(e0 != e1, axis=1)
    return np.flatnonzero(changed)


def padded_entry(table: npt.NDArray[np.integer], p: object, name: str) -> int:
    """``table[p]`` for the padded id ``p`` (``table`` has one entry a padded cell, ``-1`` where it holds none):
    an id out of range or of a cell the table does not hold raises ``ArgumentError`` naming ``name``, before a
    kernel reads with it (a negative id wrapped round to a padding cell and crashed the prepared search).

    >>> padded_entry(np.array([-1, 3, -1]), 1, "s"), padded_entry(np.array([-1, 3, -1]), np.int64(1), "s")
    (3, 3)
    >>> padded_entry(np.array([-1, 3, -1]), -2, "s")
    Traceback (most recent call last):
    ...
    wargrid.errors.ArgumentError: s = -2 is no padded id of a passable cell (0..2; see Topology.padded_id)
    """
    if (type(p) is int or isinstance(p, np.integer)) and 0 <= p < table.shape[0]:
        v = int(table[p])
        if v >= 0:
            return v
    raise ArgumentError(f"{name} = {p!r} is no padded id of a passable cell (0..{table.shape[0] - 1}; see Topology.padded_id)")


def check_board_field(costs: object, like: CostField, name: str = "costs") -> CostField:
    """``costs`` if it is a cost field of ``like``'s board (its topology, or one equal to it), else a clear error:
    a field of another board reads other cells at the same ids (a 4 x 5 board's padded ids are a 5 x 4 one's).

    >>> from wargrid import SquareGrid
    >>> a, b = (CostField.from_arrays(SquareGrid(w, h), np.ones((h, w))) for w, h in ((5, 4), (4, 5)))
    >>> check_board_field(a, a) is a
    True
    >>> check_board_field(b, a)
    Traceback (most recent call last):
    ...
    wargrid.errors.ArgumentError: costs is a cost field of a 4 x 5 board, not of this 5 x 4 one (Map.cost_field of the board prepared)
    """
    if not isinstance(costs, CostField):
        raise ArgumentTypeError(f"{name} must be a CostField of the board (Map.cost_field), got {type(costs).__name__}")
    a, b = costs.topology, like.topology
    if a is not b and not (_board_key(a) == _board_key(b) and np.array_equal(a.valid, b.valid)):
        raise ArgumentError(f"{name} is a cost field of a {a.width} x {a.height} board, not of this {b.width} x {b.height} "
                            "one (Map.cost_field of the board prepared)" if (a.width, a.height) != (b.width, b.height) else
                            f"{name} is a cost field of another board of the same size (its steps, wrap or valid cells "
                            "differ): use Map.cost_field of the board prepared")
    return costs


def _board_key(t: "Topology") -> tuple[Any, ...]:
    """What makes two topologies one board: size, steps, their rules."""
    return (t.width, t.height, t.ndir, t.parity_mode, t.corner_rule, t.wrap, t.heuristic, t.hex_kind, t.offsets.tobytes(),
            t.corner.tobytes(), t.step.tobytes())


def padded_entries(table: npt.NDArray[np.integer], ids: npt.ArrayLike, name: str) -> npt.NDArray[np.int64]:
    """``padded_entry`` of every id of ``ids`` (a 1-D integer array), as an int64 array."""
    a = np.asarray(ids)
    if a.ndim != 1 or a.dtype.kind not in "iu" and a.size:
        raise ArgumentTypeError(f"{name} must be a 1-D array of padded ids (integers), got {a.dtype} of shape {a.shape}")
    a = a if a.size else a.astype(np.int64)  # (an empty list: float64)
    bad = (a < 0) | (a >= table.shape[0])
    out = table[np.where(bad, 0, a)].astype(np.int64)
    bad |= out < 0
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ArgumentError(f"{name}[{i}] = {int(a[i])} is no padded id of a passable cell (0..{table.shape[0] - 1}; "
                            "see Topology.padded_id)")
    return out


def _padded_array(v: object, name: str, size: int, *, empty: bool = False) -> FloatArray:
    """``v`` as a contiguous float64 array of ``size`` entries (or none, with ``empty``), or an error naming it."""
    if type(v) is np.ndarray and v.dtype == np.float64 and v.shape == (size,) and v.flags.c_contiguous:
        return v
    a = np.asarray(v)
    if a.dtype.kind not in "iuf":
        raise ArgumentTypeError(f"{name} must be an array of numbers, got dtype {a.dtype}")
    if a.shape != (size,) and not (empty and a.shape == (0,)):
        raise ArgumentError(f"{name} must be a flat padded array of {size} entries (topology.pad), got shape {a.shape}")
    return np.ascontiguousarray(a, dtype=np.float64)


def _fault(fault: int, what: str, size: int = 0) -> None:
    """Raise the error for a fault ``checked_range`` or ``ids_fault`` found in ``what``."""
    from ._kernels.costs import FAULT_NAN, FAULT_NEGATIVE, FAULT_RANGE
    if fault == FAULT_NAN:
        raise ArgumentError(f"{what} must not be NaN (inf: impassable)")
    if fault == FAULT_NEGATIVE:
        raise ArgumentError(f"{what} must be >= 0 (inf: impassable), got a negative cost")
    if fault == FAULT_RANGE:
        raise ArgumentError(f"{what} is no padded id of the board (0..{size - 1})")
    if what == "cell":
        raise ArgumentError("cell must be inf in the padding ring (padded x or y 0 or last: the kernels' blocked border), "
                            "got a finite cost or NaN there; lay the costs out with topology.pad(costs, np.inf)")
    raise ArgumentError(f"{what} is a padded id in the padding ring (padded x or y 0 or last), not a cell of the board")


def check_cost_field(grid: Grid, costs: object) -> CostField:
    """``costs`` if it is a ``CostField`` laid out for ``grid``'s board, else a clear error.

    >>> from wargrid import SquareGrid
    >>> g = SquareGrid(3, 2)
    >>> check_cost_field(g, CostField.from_arrays(g, np.ones((2, 3)))).unit is None
    True
    >>> check_cost_field(g, np.ones((2, 3)))
    Traceback (most recent call last):
    ...
    wargrid.errors.ArgumentTypeError: costs must be a wargrid CostField (Map.cost_field(unit=...) or CostField.from_arrays(grid, ...)), got ndarray
    """
    if not isinstance(costs, CostField):
        raise ArgumentTypeError(
            f"costs must be a wargrid CostField (Map.cost_field(unit=...) or CostField.from_arrays(grid, ...)), "
            f"got {type(costs).__name__}"
        )
    topo = grid.topology
    if costs.cell.shape != (topo.padded_size,) or costs.topology.ndir != topo.ndir or costs.topology.pw != topo.pw:
        raise ArgumentError(f"costs were built for another board than {grid!r}")
    return costs
