"""What a notebook shows: ``_repr_svg_`` of a map and of the results that have a picture."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from wargrid import HexGrid, Map, Path, SquareGrid


def is_svg(text: str | None) -> bool:
    return text is not None and "<svg " in text[:200] and text.rstrip().endswith("</svg>")


def polyline_points(svg: str) -> list[tuple[float, float]]:
    (points,) = re.findall(r'<polyline[^>]* points="([^"]+)"', svg)
    return [tuple(float(v) for v in p.split(",")) for p in points.split()]  # type: ignore[misc]


def test_a_map_and_a_path_show_as_svg_with_the_path_drawn() -> None:
    m = Map(HexGrid(8, 6))
    m.set_terrain([(3, 1), (3, 2), (3, 3)], "water")
    board = m._repr_svg_()
    assert is_svg(board) and "<polyline" not in board
    p = m.path((0, 2), (6, 2), unit="foot")
    assert p is not None
    svg = p._repr_svg_()
    assert is_svg(svg)
    pts = polyline_points(svg)
    assert len(pts) == len(p.cells)  # one point a cell, at the cell centres, in order
    steps = [math.dist(a, b) for a, b in zip(pts, pts[1:])]
    assert max(steps) - min(steps) < 0.01 * max(steps)  # neighbours: every step one centre distance (0.1 px rounding)
    # the same picture as the map's own with the path on it
    assert polyline_points(m.picture(p)._repr_svg_()) == pts


@pytest.mark.xdist_group("movement")  # compiles the prepared structure: with the movement tests
def test_every_search_route_gives_a_path_its_board() -> None:
    m = Map(SquareGrid(12, 8, diagonal=True))
    assert m.path((0, 0), (11, 7)).grid is m.grid  # jump point search on a uniform square-8 board
    m.set_terrain([(5, 2)], "forest")
    assert m.path((0, 0), (11, 7)).grid is m.grid  # A*
    assert m.path((3, 3), (3, 3)).grid is m.grid
    four = Map(SquareGrid(12, 8))  # whole-number weights: the float32 metric the other fast tests compile
    four.set_terrain([(5, 2)], "forest")
    four.prepare(unit="foot", progress=False)
    assert four.path((0, 0), (11, 7), unit="foot").grid is four.grid  # the prepared structure
    assert m.flow_field((11, 7)).path_from((0, 0)).grid is m.grid
    assert m.movement_range((0, 0), 5).path_to((1, 1)).grid is m.grid
    by_hand = Path([(0, 0), (1, 0)], 1.0)
    assert by_hand._repr_svg_() is None and by_hand == Path([(0, 0), (1, 0)], 1.0, grid=m.grid)


def test_ranges_and_fields_show_their_cells() -> None:
    m = Map(SquareGrid(6, 4))
    r = m.movement_range((0, 0), 2, unit="cavalry")
    svg = r._repr_svg_()
    assert is_svg(svg) and svg.count("<svg") == 1
    f = m.flow_field((5, 3), unit="cavalry")
    field_svg = f._repr_svg_()
    assert is_svg(field_svg) and field_svg != svg
    assert np.isfinite(f.cost).all()


def test_a_board_too_big_for_a_page_shows_no_picture() -> None:
    m = Map(SquareGrid(300, 300))
    assert m._repr_svg_() is None
    assert m.path((0, 0), (299, 0))._repr_svg_() is None


def test_png_pictures_when_pillow_is_installed(monkeypatch) -> None:
    import importlib.util

    PNG = b"\x89PNG\r\n\x1a\n"
    m = Map(HexGrid(6, 4))
    p = m.path((0, 0), (5, 3))
    r = m.movement_range((0, 0), 3)
    f = m.flow_field((5, 3))
    pic = m.picture(p, r)
    has_pillow = importlib.util.find_spec("PIL") is not None
    for thing in (m, p, r, f, pic):
        png = thing._repr_png_()
        assert (png is not None and png.startswith(PNG)) == has_pillow, type(thing).__name__
    assert p._repr_png_() != m._repr_png_() or not has_pillow  # the path is drawn
    # without Pillow a notebook still gets the SVG, and no error
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "PIL" else real(name, *a))
    assert m._repr_png_() is None and p._repr_png_() is None and is_svg(p._repr_svg_())
    assert Path([(0, 0)], 0.0)._repr_png_() is None


def test_a_partition_shows_its_territories():
    from wargrid import HexGrid, Map

    m = Map(HexGrid(6, 4))
    part = m.partition(2, seed=1)
    svg = part._repr_svg_()
    assert svg is not None and "<svg" in svg
    # every cell of a territory is drawn as a region (one polygon per cell)
    assert svg.count("<polygon") >= 2 * int((part.owners >= 0).sum())  # the ground, then the territories
    from wargrid.territory import partition

    bare = partition(HexGrid(6, 4), 2, seed=1)
    assert bare._repr_svg_() is not None and bare.grid is not None


def test_fog_shows_what_a_team_knows():
    from wargrid import Map, SquareGrid

    m = Map(SquareGrid(8, 6))
    fog = m.fog(["red", "blue"], radius=2)
    fog.place("scout", "red", (1, 1))
    fog.move("scout", (4, 2))
    unexplored, fogged = fog.overlays("red")
    assert not (unexplored.mask & fog.explored("red")).any() and (unexplored.mask | fog.explored("red")).all()
    assert (fogged.mask == (fog.explored("red") & ~fog.visible("red"))).all() and fogged.mask.any()
    svg = fog._repr_svg_()
    assert svg is not None and "<svg" in svg
    assert "<svg" in m.picture(fog).svg


def test_picture_names_a_board_that_is_none():
    import pytest

    from wargrid.errors import ArgumentTypeError
    from wargrid.render import picture

    with pytest.raises(ArgumentTypeError, match="board must be a wargrid Map or Grid, got NoneType"):
        picture(None)
