"""``Map`` methods for other libraries and notebooks: a networkx graph, a scipy sparse adjacency, SVG pictures.

The graph is the one the searches walk: a step from a passable cell to a
passable neighbour (parity and wrap applied, diagonals under the corner
rule, no wall) costs ``step length × entry cost of the target + edge cost``
(edge costs carry walls, rivers and climbs), so a shortest path on the
exported graph costs what ``Map.path`` finds. networkx and scipy are optional.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._extras import require
from .core import MapCore

__all__ = ["InteropQueries", "graph_steps"]


def graph_steps(field: Any) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """``(source, target, cost)`` cell ids (``y * width + x``) and costs of every step of the cost field ``field``.

    >>> from wargrid import Map, SquareGrid
    >>> src, dst, w = graph_steps(Map(SquareGrid(2, 1)).cost_field(unit="foot"))
    >>> src.tolist(), dst.tolist(), w.tolist()
    ([0, 1], [1, 0], [2.0, 2.0])
    """
    t = field.topology
    cell = field.cell
    table = t.neighbor_table()  # (padded_size, ndir), -1 on padding rows
    p = np.repeat(np.arange(t.padded_size, dtype=np.int64), t.ndir)
    d = np.tile(np.arange(t.ndir, dtype=np.int64), t.padded_size)
    q = table.ravel()
    ok = (q >= 0) & np.isfinite(cell[p])
    ok[ok] &= np.isfinite(cell[q[ok]])
    corner = t.corner[d]
    diag = ok & (corner[:, 0] >= 0)
    if t.corner_rule and diag.any():
        a = np.isfinite(cell[table[p[diag], corner[diag, 0]]])
        b = np.isfinite(cell[table[p[diag], corner[diag, 1]]])
        ok[diag] = (a & b) if t.corner_rule == 1 else (a | b)
    cost = t.step[d] * np.where(ok, cell[np.maximum(q, 0)], np.inf)
    if field.edge.size:
        cost = cost + field.edge
    ok &= np.isfinite(cost)
    return t.cell_ids(p[ok]), t.cell_ids(q[ok]), cost[ok].astype(np.float64)


class InteropQueries(MapCore):
    """Exports of a ``Map`` to networkx and scipy, and its pictures in a notebook."""

    def to_networkx(self, *, unit: str | None = None) -> Any:
        """A ``networkx.DiGraph`` of the steps ``unit`` can take: nodes ``(x, y)``, each edge's ``weight`` its cost.

        Every passable cell is a node (attribute ``cost``: its entry cost).
        Needs networkx (``pip install networkx``; ``MissingExtraError`` otherwise).

        Parameters
        ----------
        unit : str, optional
            The movement class (default: the terrain table's first class).

        Returns
        -------
        networkx.DiGraph

        Raises
        ------
        MissingExtraError
            networkx is not installed (also an ``ImportError``).

        Examples
        --------
        >>> import networkx as nx
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(3, 2)); m.set_terrain([(1, 0)], "forest")
        >>> g = m.to_networkx(unit="cavalry")
        >>> g.number_of_nodes(), g[(0, 0)][(1, 0)]["weight"], nx.shortest_path_length(g, (0, 0), (2, 0), weight="weight")
        (6, 4.0, 4.0)
        """
        nx = require("networkx", extra=None, feature="graph exports (Map.to_networkx)")
        f = self.cost_field(unit=unit)
        w = self.width
        g = nx.DiGraph(unit=f.unit)
        costs = f.cells()
        ys, xs = np.nonzero(np.isfinite(costs))
        g.add_nodes_from(((int(x), int(y)), {"cost": float(costs[y, x])}) for x, y in zip(xs, ys))
        src, dst, wt = graph_steps(f)
        g.add_weighted_edges_from(
            ((int(a % w), int(a // w)), (int(b % w), int(b // w)), float(c)) for a, b, c in zip(src, dst, wt)
        )
        return g

    def adjacency(self, *, unit: str | None = None) -> Any:
        """The ``(width * height)``-square ``scipy.sparse.csr_matrix`` of step costs for ``unit``: row and column
        ``y * width + x``; a missing entry is no step. Needs scipy (``pip install scipy``).

        Parameters
        ----------
        unit : str, optional
            The movement class (default: the terrain table's first class).

        Returns
        -------
        scipy.sparse.csr_matrix

        Raises
        ------
        MissingExtraError
            scipy is not installed (also an ``ImportError``).

        Examples
        --------
        >>> from scipy.sparse.csgraph import dijkstra
        >>> from wargrid import Map, HexGrid
        >>> m = Map(HexGrid(5, 4)); a = m.adjacency(unit="cavalry")
        >>> a.shape, float(dijkstra(a, indices=0)[3 * 5 + 4]) == m.path((0, 0), (4, 3), unit="cavalry").cost
        ((20, 20), True)
        """
        sparse = require("scipy.sparse", extra=None, feature="sparse adjacency matrices (Map.adjacency)")
        n = self.width * self.height
        src, dst, wt = graph_steps(self.cost_field(unit=unit))
        return sparse.csr_matrix((wt, (src, dst)), shape=(n, n))

    def picture(self, *results: Any, cell_size: float | None = None) -> Any:
        """A ``wargrid.render.results.Picture`` of this map with ``results`` drawn on it (paths, ranges, flow
        fields, partitions, areas, ``(height, width)`` arrays, lists of cells); a notebook displays it.

        Parameters
        ----------
        *results
            Query results and overlays to draw (ranges and fields under paths and markers).
        cell_size : float, optional
            Pixels a cell (default: by board size).

        Returns
        -------
        Picture
            ``str(pic)`` is the markup; ``pic.save(path)`` writes it.

        Raises
        ------
        TypeError
            A result that has no picture (``ArgumentTypeError``).

        Examples
        --------
        >>> from wargrid import Map, HexGrid
        >>> m = Map(HexGrid(5, 4))
        >>> "<svg" in m.picture(m.path((0, 0), (4, 3)), m.partition(2))._repr_svg_()
        True
        """
        from ..render.results import picture

        return picture(self, *results, cell_size=cell_size)

    def _repr_svg_(self) -> str | None:
        """The map as SVG for a notebook (``None`` on boards too big to draw in a page)."""
        from ..render.notebook import notebook_svg

        return notebook_svg(self)

    def _repr_png_(self) -> bytes | None:
        """The map as PNG bytes for a notebook (``None`` without Pillow or on boards too big to draw)."""
        from ..render.notebook import notebook_png

        return notebook_png(self)
