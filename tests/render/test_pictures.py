"""Pictures checked structurally: SVG parses with one polygon per cell; PNG has the right size and colours."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from PIL import Image

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid, generate, hexagon_board
from wargrid.render import CellMask, CellValues, Coordinates, Markers, Polyline, Regions, render_svg
from wargrid.render.geometry import Frame
from wargrid.render.png import raster, render_png

import sys

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "io"))
from io_maps import grids  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"

GRIDS = [
    SquareGrid(7, 5),
    SquareGrid(7, 5, diagonal=True),
    HexGrid(7, 5),
    HexGrid(7, 5, offset="even-q"),
    HexGrid(7, 5, orientation="pointy"),
    HexGrid(7, 5, orientation="pointy", offset="even-r"),
    StaggeredGrid(7, 5),
    StaggeredGrid(7, 5, stagger="rows"),
    hexagon_board(3),
]


def cells_group(root: ET.Element) -> ET.Element:
    return next(g for g in root.iter(f"{NS}g") if g.get("class") == "cells")


@pytest.mark.parametrize("grid", GRIDS, ids=repr)
def test_svg_one_polygon_per_cell(grid) -> None:
    m = Map(grid)
    svg = render_svg(m, overlays=[Coordinates()])
    root = ET.fromstring(svg)
    polys = list(cells_group(root).iter(f"{NS}polygon"))
    assert len(polys) == len(grid)
    corners = len(grid.corner_offsets())
    assert all(len(p.get("points").split()) == corners for p in polys)
    assert len(list(root.iter(f"{NS}text"))) == len(grid)


@settings(max_examples=25, deadline=None)
@given(grid=grids())
def test_svg_polygons_and_png_raster_for_random_boards(grid) -> None:
    root = ET.fromstring(render_svg(grid))
    assert len(list(cells_group(root).iter(f"{NS}polygon"))) == len(grid)
    # every valid cell's centre pixel looks up that cell
    f = Frame.for_grid(grid, cell_size=12)
    ys, xs = np.nonzero(grid.mask)
    cx, cy = f.centers(xs, ys)
    assert (f.cells_under(cx, cy) == ys * grid.width + xs).all()


def test_cell_ids_at_matches_grid_cell_at() -> None:
    rng = np.random.default_rng(0)
    for g in GRIDS:
        x0, y0, x1, y1 = g.bounds()
        px = rng.uniform(x0 - 1, x1 + 1, 400)
        py = rng.uniform(y0 - 1, y1 + 1, 400)
        got = g.cell_ids_at(px, py)
        want = [(-1 if c is None else g.id(c)) for c in (g.cell_at(a, b) for a, b in zip(px, py))]
        assert got.tolist() == want


def test_svg_overlays_and_escaping() -> None:
    m = Map(HexGrid(6, 4))
    lab = np.zeros((4, 6), dtype=int)
    lab[:, 3:] = 1
    svg = render_svg(
        m,
        title='a <b> & "c"',
        overlays=[
            CellMask(np.eye(4, 6, dtype=bool), name="fog"),
            CellValues(np.where(lab == 0, 3.0, np.inf), name="range"),
            Regions(lab, name="zones"),
            Polyline([(0, 0), (1, 0), (2, 1)]),
            Markers([(1, 1)], labels=["<unit>"]),
        ],
    )
    root = ET.fromstring(svg)  # parses: text is escaped
    by_name = {g.get("data-overlay"): g for g in root.iter(f"{NS}g") if g.get("data-overlay")}
    assert len(list(by_name["fog"].iter(f"{NS}polygon"))) == 4
    assert len(list(by_name["range"].iter(f"{NS}polygon"))) == 12
    assert len(list(by_name["zones"].iter(f"{NS}polygon"))) == 24
    borders = next(g for g in root.iter(f"{NS}g") if (g.get("class") or "").endswith("-borders"))
    assert len(list(borders.iter(f"{NS}line"))) > 0
    assert root.find(f"{NS}title").text == 'a <b> & "c"'
    assert any(t.text == "<unit>" for t in root.iter(f"{NS}text"))


def test_region_borders_lie_between_labels() -> None:
    # on a square board split down the middle, the inner border is a vertical line at x = 3
    g = SquareGrid(6, 4)
    lab = np.zeros((4, 6), dtype=int)
    lab[:, 3:] = 1
    root = ET.fromstring(render_svg(g, overlays=[Regions(lab)], cell_size=10))
    borders = next(gr for gr in root.iter(f"{NS}g") if (gr.get("class") or "").endswith("-borders"))
    xs = {(float(l.get("x1")), float(l.get("x2"))) for l in borders.iter(f"{NS}line")}
    inner = [x for x in xs if x[0] == x[1] == 4 + 30]
    assert inner  # the shared side between the halves


def test_png_size_and_path_colour(tmp_path: Path) -> None:
    m = Map(HexGrid(10, 8, orientation="pointy"))
    path = [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)]
    out = tmp_path / "p.png"
    render_png(m, out, overlays=[Polyline(path, color="#ff00ff", width=0.3)], cell_size=12)
    img = Image.open(out)
    f = Frame.for_grid(m.grid, cell_size=12)
    assert img.size == (f.width, f.height)
    cx, cy = f.centers(np.array([c[0] for c in path]), np.array([c[1] for c in path]))
    for a, b in zip(cx, cy):
        assert img.getpixel((int(a), int(b))) == (255, 0, 255)
    # a cell far from the path keeps its terrain colour
    ex, ey = f.centers(np.array([9]), np.array([7]))
    assert img.getpixel((int(ex[0]), int(ey[0]))) == (0xB5, 0xCF, 0x6B)


def test_png_mask_and_regions_tint() -> None:
    g = SquareGrid(4, 4)
    mask = np.zeros((4, 4), dtype=bool)
    mask[0, 0] = True
    img = render_png(Map(g), overlays=[CellMask(mask, color="#000000", alpha=1.0)], cell_size=10, grid_lines=False)
    assert img.getpixel((9, 9)) == (0, 0, 0)
    assert img.getpixel((29, 29)) == (0xB5, 0xCF, 0x6B)
    ids = raster(Frame.for_grid(g, cell_size=10))
    assert ids[9, 9] == 0 and ids[0, 0] == -1


def test_generated_board_every_kind(tmp_path: Path) -> None:
    for kind in ("hex", "square", "staggered"):
        m = generate(20, 14, seed=2, kind=kind)
        svg = render_svg(m, tmp_path / f"{kind}.svg")
        assert svg.count("<polygon") >= 20 * 14
        assert (tmp_path / f"{kind}.svg").read_text() == svg
        render_png(m, tmp_path / f"{kind}.png")
        assert Image.open(tmp_path / f"{kind}.png").size[0] > 100


@pytest.mark.parametrize(
    "overlay, exc, words",
    [
        (CellMask(np.ones((2, 2), dtype=bool)), ValueError, "mask must have shape"),
        (CellMask(np.ones((4, 5))), TypeError, "boolean"),
        (CellMask(np.ones((4, 5), dtype=bool), alpha=3), ValueError, "alpha"),
        (CellMask(np.ones((4, 5), dtype=bool), color="red"), ValueError, "color"),
        (Polyline([(0, 0), (9, 9)]), IndexError, "cells\\[1\\]"),
        (Markers([(0, 0)], labels=["a", "b"]), ValueError, "labels"),
        (Regions(np.ones((4, 5))), TypeError, "integer"),
        ("fog", TypeError, "overlays\\[0\\]"),
    ],
)
def test_bad_overlays(overlay, exc, words) -> None:
    m = Map(SquareGrid(5, 4))
    with pytest.raises(exc, match=words):
        render_svg(m, overlays=[overlay])
    with pytest.raises(exc, match=words):
        render_png(m, overlays=[overlay])


def test_bad_board() -> None:
    with pytest.raises(TypeError, match="board"):
        render_svg("not a map")


def test_a_cell_size_too_large_for_a_picture_is_refused() -> None:
    # 1e308 pixels a tile made the picture's width infinite: OverflowError from int(inf) before
    for size in (1e308, 1e10):
        with pytest.raises(ValueError, match="at most MAX_PICTURE_SIDE = 2147483647 a side"):
            render_svg(Map(SquareGrid(5, 4)), cell_size=size)
    assert Frame.for_grid(SquareGrid(5, 4), cell_size=4e8, margin=0).width == 2_000_000_000


def test_walls_and_rivers_drawn_on_the_shared_side(tmp_path: Path) -> None:
    import math

    m = Map(SquareGrid(4, 3))
    m.set_edge((1, 1), (2, 1), math.inf)  # a wall
    m.set_edge((0, 0), (0, 1), 2.0)  # a river
    root = ET.fromstring(render_svg(m, cell_size=10))
    groups = {g.get("class"): g for g in root.iter(f"{NS}g")}
    walls = [tuple(float(l.get(k)) for k in ("x1", "y1", "x2", "y2")) for l in groups["edges-walls"].iter(f"{NS}line")]
    rivers = [tuple(float(l.get(k)) for k in ("x1", "y1", "x2", "y2")) for l in groups["edges-rivers"].iter(f"{NS}line")]
    assert walls and all(x1 == x2 == 4 + 20 and 14 <= min(y1, y2) and max(y1, y2) <= 24 for x1, y1, x2, y2 in walls)
    assert rivers and all(y1 == y2 == 4 + 10 and max(x1, x2) <= 14 for x1, y1, x2, y2 in rivers)
    img = render_png(m, cell_size=10, grid_lines=False)
    assert img.getpixel((24, 19)) == (0x20, 0x20, 0x20)
    assert img.getpixel((9, 14)) == (0x2F, 0x6F, 0xC0)


@pytest.mark.parametrize("grid", [HexGrid(5, 4), HexGrid(5, 4, orientation="pointy"), StaggeredGrid(5, 4),
                                  StaggeredGrid(5, 4, stagger="rows")], ids=repr)
def test_wall_on_every_side_of_a_cell(grid) -> None:
    import math

    m = Map(grid)
    for n in grid.neighbors((2, 1)):
        m.set_edge((2, 1), n, math.inf)
    root = ET.fromstring(render_svg(m, cell_size=10))
    lines = [l for g in root.iter(f"{NS}g") if g.get("class") == "edges-walls" for l in g.iter(f"{NS}line")]
    # each of the six neighbours shares one or two half-sides with the cell, seen from both cells
    assert len(lines) >= 2 * 6
    f = Frame.for_grid(grid, cell_size=10)
    cx, cy = f.centers(np.array([2]), np.array([1]))
    for l in lines:  # every wall segment touches the walled cell's outline
        mx = (float(l.get("x1")) + float(l.get("x2"))) / 2
        my = (float(l.get("y1")) + float(l.get("y2"))) / 2
        assert math.hypot(mx - cx[0], my - cy[0]) <= 10.5
