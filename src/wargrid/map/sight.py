"""``Map`` query methods for sight: thin wrappers over ``wargrid.sight``."""

from __future__ import annotations

import math
from typing import Any, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from ..errors import ArgumentError, ArgumentTypeError
from ..sight.board import SightBoard
from ..sight.fog import Fog
from ..sight.fov import fov_array
from ..sight.heights import check_height_mode, height_fov, height_line_of_sight
from ..sight.los import los_on_board
from ..sight.polygon import VisibilityPolygon, visibility_polygon
from .core import Cell, MapCore


class MapSightBoard:
    """A map's current sight board, for a ``Fog`` that follows the map's edits (picklable, unlike a closure)."""

    def __init__(self, m: MapCore, elevation: bool) -> None:
        self.map = m
        self.elevation = elevation

    def __call__(self) -> SightBoard:
        return self.map.derived.sight_board(self.elevation)


class SightQueries(MapCore):
    """Field of view, line of sight, fog of war and the visibility polygon of a ``Map``."""

    @staticmethod
    def _check_elevation_flag(elevation: object) -> bool:
        if not isinstance(elevation, (bool, np.bool_)):
            raise ArgumentTypeError(f"elevation must be True or False, got {elevation!r}")
        return bool(elevation)

    @staticmethod
    def _heightmap_options(mode: bool | str, viewer_height: Any, target_height: Any, cover_height: Any) -> dict[str, Any]:
        """The heightmap keywords, refused unless ``elevation='heightmap'`` (they would be ignored)."""
        given = {"viewer_height": viewer_height, "target_height": target_height, "cover_height": cover_height}
        if mode != "heightmap":
            extra = [k for k, v in given.items() if v is not None]
            if extra:
                raise ArgumentError(f"{', '.join(extra)} apply with elevation='heightmap' only")
            return {}
        defaults = {"viewer_height": 1.0, "target_height": 0.0, "cover_height": math.inf}
        return {k: defaults[k] if v is None else v for k, v in given.items()}

    def fov(self, origin: Cell, *, radius: int | None, metric: str | None = None,
            elevation: bool | str = True, viewer_height: float | None = None, target_height: float | None = None,
            cover_height: float | None = None) -> npt.NDArray[np.bool_]:
        """Boolean ``(height, width)`` array of the cells seen from ``origin`` (an ``(x, y)`` cell).

        Forest, mountains and other terrains with ``blocks_sight`` block the
        view. With ``elevation`` (the default) and an elevation layer, a
        viewer sees over blockers strictly lower than its own cell. See
        ``wargrid.sight.fov``.

        Parameters
        ----------
        origin : tuple of int
            The viewer's ``(x, y)``.
        radius : int or None
            Sight range, an integer >= 0 in steps of ``metric`` (``None``: the whole board).
        metric : str, optional
            'euclidean' (default), 'chebyshev', 'octile', 'manhattan' or
            'octagonal' (``max + min / 2``, the RTS distance) on square
            boards; 'hex' (the default there) on hex and staggered boards.
        elevation : bool or 'heightmap'
            ``True``: with an elevation layer, a viewer sees over blockers
            strictly lower than its own cell; ``False``: the layer is ignored;
            ``'heightmap'``: sight over the elevation layer as a surface (see
            ``wargrid.sight.heights``).
        viewer_height, target_height, cover_height : float, optional
            With ``elevation='heightmap'`` only: the eye ``viewer_height``
            (default 1) above the origin's ground sees a cell when the straight
            line to ``target_height`` (default 0) above its ground clears the
            ground between; blocking terrain stands ``cover_height`` (default
            ``inf``) above its ground.

        Returns
        -------
        ndarray of bool, shape ``(height, width)``
            The cells seen, indexed ``[y, x]``.

        Raises
        ------
        IndexError
            ``origin`` off the board (``CellError``).
        ValueError
            A negative ``radius``, or a ``metric`` the board does not have
            (a square metric on a hex board) (``ArgumentError``).
        TypeError
            ``elevation`` not a bool or 'heightmap' (``ArgumentTypeError``).
        ArgumentError
            A height keyword without ``elevation='heightmap'``.

        Examples
        --------
        >>> from wargrid import Map, SquareGrid
        >>> m = Map(SquareGrid(5, 1)); m.set_terrain([(2, 0)], "forest")
        >>> m.fov((0, 0), radius=4).astype(int).tolist()
        [[1, 1, 1, 0, 0]]
        >>> m = Map(SquareGrid(5, 1)); m.set_elevation([[3, 0, 1, 0, 0]])
        >>> m.fov((0, 0), radius=4, elevation="heightmap").astype(int).tolist()
        [[1, 1, 1, 0, 1]]
        >>> int(Map(SquareGrid(9, 9)).fov((4, 4), radius=2, metric="octagonal").sum())
        13
        """
        mode = check_height_mode(elevation)
        hm = self._heightmap_options(mode, viewer_height, target_height, cover_height)
        if hm:
            return height_fov(self.derived.sight_board(True), origin, radius=radius, metric=metric, **hm)
        board = self.derived.sight_board(bool(mode))
        return fov_array(board, origin, radius=radius, metric=metric)

    def line_of_sight(self, a: Cell, b: Cell, *, elevation: bool | str = True, viewer_height: float | None = None,
                      target_height: float | None = None, cover_height: float | None = None) -> bool:
        """Whether a viewer at ``a`` sees cell ``b``: exactly ``self.fov(a, radius=None, ...)[b]``
        (``elevation='heightmap'`` and its heights as in ``fov``).

        Parameters
        ----------
        a, b : tuple of int
            The viewer's and the target's ``(x, y)``.
        elevation : bool
            Use the map's elevation layer.

        Returns
        -------
        bool

        Raises
        ------
        IndexError
            A cell off the board (``CellError``).

        Examples
        --------
        >>> from wargrid import Map, HexGrid
        >>> m = Map(HexGrid(5, 1)); m.set_terrain([(2, 0)], "mountains")
        >>> m.line_of_sight((0, 0), (2, 0)), m.line_of_sight((0, 0), (4, 0))
        (True, False)
        >>> m = Map(HexGrid(5, 1)); m.set_elevation([[0, 0, 2, 0, 0]])
        >>> m.line_of_sight((0, 0), (4, 0), elevation="heightmap"), m.line_of_sight(
        ...     (0, 0), (4, 0), elevation="heightmap", viewer_height=3.0, target_height=3.0)
        (False, True)
        """
        mode = check_height_mode(elevation)
        hm = self._heightmap_options(mode, viewer_height, target_height, cover_height)
        if hm:
            return height_line_of_sight(self.derived.sight_board(True), a, b, **hm)
        return los_on_board(self.derived.sight_board(bool(mode)), a, b)

    def fog(self, teams: Sequence[str], *, radius: int | None = 8, metric: str | None = None,
            regrow: int | None = None, alliances: Iterable[tuple[str, str]] = (), elevation: bool = True) -> Fog:
        """A ``Fog`` of war for ``teams`` on this map, kept up to date with map edits.

        ``radius``/``metric``: a unit's default sight; ``regrow``: ticks after
        which unseen explored cells fade back (``None``: never); ``alliances``:
        pairs of teams that share vision.

        Parameters
        ----------
        teams : sequence of str
            The teams, each with its own visible and explored cells.
        radius : int or None
            A unit's default sight range (``None``: the whole board).
        metric : str, optional
            Distance of the sight range (see ``field_of_view``).
        regrow : int, optional
            Ticks after which explored, unseen cells fade back (``None``: never).
        alliances : iterable of (str, str)
            Pairs of teams that share vision.
        elevation : bool
            Use the map's elevation layer for sight.

        Returns
        -------
        Fog

        Examples
        --------
        >>> from wargrid import Map, HexGrid
        >>> m = Map(HexGrid(8, 8)); fog = m.fog(["red", "blue"], radius=2)
        >>> fog.place("scout", "red", (3, 3)); int(fog.visible("red").sum()), int(fog.visible("blue").sum())
        (19, 0)
        """
        source = MapSightBoard(self, self._check_elevation_flag(elevation))
        return Fog(source(), teams, radius=radius, metric=metric, regrow=regrow, alliances=alliances, source=source)

    def visibility_polygon(self, light: tuple[float, float], *, bounds: Sequence[float] | None = None,
                           radius: float | None = None) -> VisibilityPolygon:
        """The polygon lit by a light at float point ``light = (x, y)``; see ``wargrid.sight.polygon``.

        Square boards: tile ``(x, y)`` covers ``[x, x + 1] x [y, y + 1]``.
        Hex boards: the light is in the board's drawing units
        (``grid.center(cell)``, hexes of corner radius 1) and the hexes off
        the board block. A light inside a sight-blocking tile (a forest)
        sees out of it.

        Parameters
        ----------
        light : tuple of float
            The light's point in drawing units.
        bounds : sequence of float, optional
            An ``(x0, y0, x1, y1)`` box that closes the polygon (default: the board).
        radius : float, optional
            Clip the polygon to the disc of this radius around the light.

        Returns
        -------
        VisibilityPolygon
            The vertices in order of angle, with ``contains`` and ``area``.

        Raises
        ------
        TypeError
            A staggered board, or ``light`` not a pair of numbers (``ArgumentTypeError``).
        ValueError
            ``light`` outside ``bounds``, a bad box or a radius <= 0 (``ArgumentError``).

        Examples
        --------
        >>> from wargrid import HexGrid, Map, SquareGrid
        >>> m = Map(SquareGrid(3, 3)); m.set_terrain([(1, 1)], "mountains")
        >>> p = m.visibility_polygon((0.5, 0.5)); bool(p.contains(2.5, 2.5)), bool(p.contains(2.5, 0.5))
        (False, True)
        >>> h = Map(HexGrid(5, 3)); h.set_terrain([(2, 1)], "mountains")
        >>> p = h.visibility_polygon(h.grid.center((0, 1))); bool(p.contains(*h.grid.center((4, 1))))
        False
        """
        return visibility_polygon(self.grid, self.blocks_sight(), light, bounds=bounds, radius=radius)
