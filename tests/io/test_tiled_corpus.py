"""Maps as Tiled makes them: every orientation, external tilesets, Wang and terrain sets, collision
shapes, classes, object layers and infinite maps (``tests/data/tiled``), and round trips of everything."""

from __future__ import annotations

import json
import math
import shutil
import warnings
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import wargrid
from wargrid import HexGrid, IsometricGrid, IsoStagger, Map, MapFileError, Marker, SquareGrid, load_map, save_map
from wargrid.io.errors import MapFileWarning
from wargrid.io.tiled import load_tiled, save_tiled

from io_maps import maps

DATA = Path(__file__).resolve().parents[1] / "data" / "tiled"
CORPUS = ["orthogonal_wang.tmx", "hexagonal_classes.tmj", "isometric_terrainsets.tmx", "staggered.tmx", "infinite.tmj",
          "infinite_hex.tmx"]


def load(name: str, **kw) -> Map:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MapFileWarning)
        return load_tiled(DATA / name, **kw)


def rows(m: Map) -> list[list[str]]:
    return [[m.terrains.names[i] if m.grid.mask[y, x] else "-" for x, i in enumerate(r)] for y, r in enumerate(m.terrain.tolist())]


def test_orthogonal_map_with_external_wang_tileset_collision_and_classes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", MapFileWarning)  # wall is a documented addition: no warning
        m = load_tiled(DATA / "orthogonal_wang.tmx")
    assert m.grid == SquareGrid(6, 4)
    assert rows(m) == [
        ["plains", "plains", "plains", "plains", "water", "water"],  # 3 plains corners; a 2-2 tie goes to the first colour
        ["plains", "wall", "forest", "hills", "water", "water"],  # collision shape, property, class, 3 water corners
        ["plains", "plains", "plains", "plains", "water", "water"],
        ["forest", "forest", "plains", "plains", "plains", "water"],  # the old 'type' of an embedded tileset's tile
    ]
    assert math.isinf(m.terrains.cost("wall", "foot")) and m.terrains["wall"].blocks_sight
    assert [m.overlay_name((x, 2)) for x in range(6)] == ["road"] * 4 + [None] * 2  # one with a flip bit
    assert dict(m.properties) == {"author": "wargrid tests", "season": 3}
    assert m.markers == (
        Marker("red", ((1, 2),), kind="spawn", properties={"player": 1}),
        Marker("Riverside", ((4, 0), (5, 0)), kind="town"),
        Marker("north", ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)), kind="region"),
        Marker("trail", ((0, 3), (1, 3), (2, 3))),
    )
    with pytest.warns(MapFileWarning, match="1 cells are drawn only with tiles that name no terrain"):
        ignored = load_tiled(DATA / "orthogonal_wang.tmx", collision_terrain=None)  # collision shapes ignored: nothing left
    assert ignored.terrain_name((1, 1)) == "plains"
    with pytest.raises(MapFileError, match="tile 6 .* has no 'terrain' property"):
        load_tiled(DATA / "orthogonal_wang.tmx", collision_terrain=None, strict=True)
    assert load(DATA / "orthogonal_wang.tmx", collision_terrain=None, default_terrain="swamp").terrain_name((1, 1)) == "swamp"


def test_hexagonal_map_with_external_json_tileset_and_classes() -> None:
    m = load("hexagonal_classes.tmj")
    assert m.grid == HexGrid(4, 3, orientation="flat", offset="odd-q")
    assert rows(m) == [["plains", "forest", "mountains", "water"], ["plains", "plains", "forest", "water"],
                       ["water", "plains", "plains", "plains"]]
    assert m.markers == (Marker("camp", ((2, 1),), kind="spawn", properties={"team": "blue"}),)


def test_isometric_map_with_old_terrain_sets() -> None:
    m = load("isometric_terrainsets.tmx")
    assert m.grid == IsometricGrid(4, 4, diagonal=True, corner_rule="no-obstacle")
    assert rows(m)[0] == ["hills", "swamp", "hills", "swamp"]  # a 2-2 tie goes to the set's first terrain
    assert m.markers == (Marker("hero", ((1, 0),), kind="spawn"),)  # objects in units of the tile height
    assert load("isometric_terrainsets.tmx", diagonal=False).grid.ndir == 4
    assert len(m.path((0, 0), (3, 3)).cells) == 4  # diagonal steps


def test_staggered_isometric_map_is_an_exact_isometric_board() -> None:
    m = load("staggered.tmx")
    s = IsoStagger("y", "odd", 4, 6)
    assert m.grid == s.grid() and m.properties["tiled.stagger"] == "y,odd,4,6"
    assert len(m.grid) == 24
    names = {(c, r): m.terrain_name(s.cell((c, r))) for r in range(6) for c in range(4)}
    assert names[(1, 1)] == "forest" and names[(2, 2)] == "water" and names[(0, 4)] == "forest" and names[(3, 4)] == "water"
    assert sum(v != "plains" for v in names.values()) == 4
    assert m.markers == (Marker("mill", (s.cell((1, 3)),), kind="town"),)


def tiled_staggered_neighbours(c: int, r: int, axis: str, index: str) -> tuple[set, set]:
    """Tiled's staggered-isometric rule: the shifted rows (columns) sit half a tile right (down)."""
    shifted = (r if axis == "y" else c) % 2 == (1 if index == "odd" else 0)
    if axis == "y":
        lo, hi = (c, c + 1) if shifted else (c - 1, c)
        edges = {(lo, r - 1), (hi, r - 1), (lo, r + 1), (hi, r + 1)}
        corners = {(c - 1, r), (c + 1, r), (c, r - 2), (c, r + 2)}
    else:
        lo, hi = (r, r + 1) if shifted else (r - 1, r)
        edges = {(c - 1, lo), (c - 1, hi), (c + 1, lo), (c + 1, hi)}
        corners = {(c, r - 1), (c, r + 1), (c - 2, r), (c + 2, r)}
    return edges, corners


@pytest.mark.parametrize("axis", ["x", "y"])
@pytest.mark.parametrize("index", ["odd", "even"])
def test_staggered_neighbour_tables_follow_tiled(axis: str, index: str) -> None:
    w, h = 5, 7
    s = IsoStagger(axis, index, w, h)
    g = s.grid()
    assert len(g) == w * h
    for r in range(h):
        for c in range(w):
            edges, corners = tiled_staggered_neighbours(c, r, axis, index)
            inside = lambda cells: {t for t in cells if 0 <= t[0] < w and 0 <= t[1] < h}  # noqa: E731
            steps = g.steps(s.cell((c, r)))
            assert {s.tiled(st.cell) for st in steps if st.length == 1.0} == inside(edges)
            assert {s.tiled(st.cell) for st in steps if st.length > 1.0} == inside(corners)
            # drawn where Tiled draws it: centres in diamonds 2 wide and 1 high, from cell (0, 0)
            x, y = g.center(s.cell((c, r)))
            x0, y0 = g.center(s.cell((0, 0)))
            assert (x - x0, y - y0) == tuple((tiled_centre(c, r, axis, index) - tiled_centre(0, 0, axis, index)).tolist())


def tiled_centre(c: int, r: int, axis: str, index: str) -> np.ndarray:
    shifted = (r if axis == "y" else c) % 2 == (1 if index == "odd" else 0)
    return np.array([2 * c + shifted, r / 2]) if axis == "y" else np.array([c, r + shifted / 2])


def test_infinite_maps_are_cropped_and_keep_their_origin(tmp_path: Path) -> None:
    m = load("infinite.tmj")
    assert m.properties["tiled.origin"] == "-2,5" and m.shape == (3, 4)
    assert rows(m) == [["plains", "plains", "plains", "water"], ["hills", "plains", "plains", "plains"],
                       ["-", "-", "-", "plains"]]
    assert m.markers == (Marker("well", ((0, 0),)),)
    h = load("infinite_hex.tmx")
    assert h.properties["tiled.origin"] == "-4,2"  # an even column: odd-q parity kept
    assert h.grid.offset == "odd-q" and h.terrain_name((1, 0)) == "hills" and h.terrain_name((4, 0)) == "water"
    for src, name in ((m, "i.tmj"), (h, "i.tmx")):
        save_tiled(src, tmp_path / name, tileset_image=False)
        assert load_tiled(tmp_path / name) == src
    d = json.loads((tmp_path / "i.tmj").read_text())
    assert d["infinite"] is True and sorted((c["x"], c["y"]) for c in d["layers"][0]["chunks"]) == [(-16, 0), (0, 0)]


@pytest.mark.parametrize("name", CORPUS)
@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_corpus_round_trips(tmp_path: Path, name: str, suffix: str) -> None:
    m = load(name, default_terrain="plains")
    save_tiled(m, tmp_path / f"out{suffix}", encoding="base64", compression="zlib")
    again = load_tiled(tmp_path / f"out{suffix}")
    assert again == m
    save_map(again, tmp_path / "out.wargrid.json")
    assert load_map(tmp_path / "out.wargrid.json") == m


def test_no_information_names_the_options_that_would_load_it() -> None:
    with pytest.raises(MapFileError) as e:
        load_tiled(DATA / "needs_default.tmx", strict=True)
    for words in ("needs_default.tmx", "tile 1 (of tileset 'plain art') has no 'terrain' property", "default_terrain=",
                  "tile_terrain=", "callable"):
        assert words in str(e.value)
    with pytest.warns(MapFileWarning) as w:  # a decoration-only tileset: plains, and one warning naming it
        m = load_tiled(DATA / "needs_default.tmx")
    assert len(w) == 1 and "6 cells" in str(w[0].message) and "4 tiles, of tilesets 'plain art' (4)" in str(w[0].message)
    assert m.count("plains") == 6
    assert load_tiled(DATA / "needs_default.tmx", default_terrain="hills").count("hills") == 6


def test_tile_terrain_partial_mapping_defaultdict_and_callable() -> None:
    part = load_tiled(DATA / "needs_default.tmx", tile_terrain={1: "forest"}, default_terrain="water")
    assert rows(part) == [["forest", "water", "water"], ["water", "forest", "water"]]
    dd = load_tiled(DATA / "needs_default.tmx", tile_terrain=defaultdict(lambda: "hills", {2: "swamp"}))
    assert rows(dd) == [["hills", "swamp", "hills"], ["hills", "hills", "swamp"]]
    seen = []

    def pick(gid: int, props) -> str | None:
        seen.append((gid, dict(props)))
        return "forest" if gid % 2 else None

    cb = load_tiled(DATA / "needs_default.tmx", tile_terrain=pick, default_terrain="plains")
    assert rows(cb) == [["forest", "plains", "forest"], ["plains", "forest", "plains"]]
    assert sorted(seen) == [(1, {}), (2, {}), (3, {}), (4, {})]
    with pytest.raises(MapFileError, match="has no 'terrain' property"):
        load_tiled(DATA / "needs_default.tmx", tile_terrain={1: "forest"}, strict=True)
    with pytest.raises(TypeError, match="tile_terrain"):
        load_tiled(DATA / "needs_default.tmx", tile_terrain=["forest"])


def test_external_tilesets_are_followed_relative_to_the_map_and_root_confines_them(tmp_path: Path) -> None:
    inner = tmp_path / "maps"
    inner.mkdir()
    shutil.copy(DATA / "terrain.tsx", tmp_path / "terrain.tsx")
    text = (DATA / "orthogonal_wang.tmx").read_text()
    (inner / "up.tmx").write_text(text.replace('source="terrain.tsx"', 'source="../terrain.tsx"'))
    up = load(inner / "up.tmx")  # a sibling or parent folder, as Tiled follows it
    assert up == load("orthogonal_wang.tmx")
    with pytest.raises(MapFileError, match="lies outside") as e:  # a server confines references
        load_tiled(inner / "up.tmx", root=inner)
    assert "up.tmx" in str(e.value) and "'../terrain.tsx'" in str(e.value)
    assert load(inner / "up.tmx", root=tmp_path) == up
    with pytest.raises(MapFileError, match="the map lies outside"):
        load_tiled(inner / "up.tmx", root=tmp_path / "elsewhere")
    (inner / "gone.tmx").write_text(text)
    with pytest.raises(MapFileError, match="tileset file 'terrain.tsx' is missing") as e:
        load_tiled(inner / "gone.tmx")
    assert str(inner / "terrain.tsx") in str(e.value)  # the path tried
    shutil.copy(DATA / "terrain.tsx", inner / "terrain.tsx")
    (inner / "sub").mkdir()
    shutil.copy(DATA / "terrain.tsx", inner / "sub" / "t.tsx")
    (inner / "down.tmx").write_text(text.replace('source="terrain.tsx"', 'source="sub/t.tsx"'))
    assert load(inner / "down.tmx") == load(inner / "gone.tmx")
    for url in ("http://example.com/t.tsx", "//server/share/t.tsx"):
        (inner / "url.tmx").write_text(text.replace('source="terrain.tsx"', f'source="{url}"'))
        with pytest.raises(MapFileError, match="URL or a network path"):
            load_tiled(inner / "url.tmx")


def test_wang_colours_outside_the_table_are_added_by_their_tidy_names(tmp_path: Path) -> None:
    tsx = (DATA / "terrain.tsx").read_text().replace('name="Plains"', 'name="Dark Purple"')
    (tmp_path / "terrain.tsx").write_text(tsx)
    shutil.copy(DATA / "orthogonal_wang.tmx", tmp_path / "m.tmx")
    with pytest.warns(MapFileWarning, match="dark_purple"):
        m = load_tiled(tmp_path / "m.tmx")
    assert m.terrain_name((0, 0)) == "dark_purple" and m.terrains.cost("dark_purple", "naval") == 1.0
    (tmp_path / "terrain.tsx").write_text(tsx.replace("Dark Purple", "Dark Grass"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", MapFileWarning)
        assert load_tiled(tmp_path / "m.tmx").terrain_name((0, 0)) == "plains"  # by the synonym table: no warning


_S = settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)


@_S
@given(m=maps(extras=True), suffix=st.sampled_from([".tmx", ".tmj"]))
def test_load_save_load_is_identity_with_elevation_edges_and_markers(tmp_path: Path, m: Map, suffix: str) -> None:
    p = tmp_path / f"r{suffix}"
    save_tiled(m, p, tileset_image=False)
    once = load_tiled(p)
    save_tiled(once, p, tileset_image=False)
    assert load_tiled(p) == once
    # what Tiled cannot hold is only the terrain of cells off the board's shape
    assert once == Map(m.grid, terrain=np.where(m.grid.mask, m.terrain, 0), terrains=m.terrains,
                       overlay=np.where(m.grid.mask, m.overlay, -1), elevation=m.elevation, edges=m.edges,
                       climb_cost=m.climb_cost, markers=m.markers, properties=m.properties)
