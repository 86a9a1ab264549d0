"""Hypothesis strategies for random small maps of every board kind (shared by the io tests)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from wargrid import HexGrid, IsometricGrid, Map, Marker, SquareGrid, StaggeredGrid, TerrainTable


_TEXT = st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"))  # what XML attributes hold as written


@st.composite
def grids(draw, *, masks: bool = True, wrap: bool = True):
    w = draw(st.integers(1, 7))
    h = draw(st.integers(1, 6))
    kind = draw(st.sampled_from(["square4", "square8", "flat", "pointy", "staggered", "isometric"]))
    wrap_x = draw(st.booleans()) if wrap and w >= 4 else False
    mask = None
    if masks and draw(st.booleans()):
        mask = np.array(draw(st.lists(st.booleans(), min_size=w * h, max_size=w * h)), dtype=bool).reshape(h, w)
        if not mask.any():
            mask[0, 0] = True
    if kind == "isometric":
        return IsometricGrid(w, h, diagonal=draw(st.booleans()), mask=mask)
    if kind.startswith("square"):
        rule = draw(st.sampled_from(["always", "no-obstacle", "one-obstacle"]))
        return SquareGrid(w, h, diagonal=kind == "square8", corner_rule=rule, wrap_x=wrap_x, mask=mask)
    if kind == "staggered":
        stagger = draw(st.sampled_from(["columns", "rows"]))
        if wrap_x and stagger == "columns" and w % 2:
            wrap_x = False
        return StaggeredGrid(w, h, stagger=stagger, wrap_x=wrap_x, mask=mask)
    offset = draw(st.sampled_from(["odd-q", "even-q"] if kind == "flat" else ["odd-r", "even-r"]))
    if wrap_x and kind == "flat" and w % 2:
        wrap_x = False
    return HexGrid(w, h, orientation=kind, offset=offset, wrap_x=wrap_x, mask=mask)


@st.composite
def maps(draw, *, masks: bool = True, wrap: bool = True, extras: bool = True):
    g = draw(grids(masks=masks, wrap=wrap))
    t = TerrainTable.default()
    n = len(t)
    terrain = np.array(draw(st.lists(st.integers(0, n - 1), min_size=g.size, max_size=g.size)), dtype=np.int16)
    m = Map(g, terrain=terrain.reshape(g.shape), terrains=t)
    if not extras:
        return m
    overlay = draw(st.lists(st.integers(-1, n - 1), min_size=g.size, max_size=g.size))
    m = Map(g, terrain=terrain.reshape(g.shape), terrains=t, overlay=np.array(overlay, dtype=np.int16).reshape(g.shape))
    if draw(st.booleans()):
        elev = draw(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=g.size, max_size=g.size))
        m.set_elevation(np.array(elev).reshape(g.shape), climb_cost=draw(st.sampled_from([0.0, 0.5, 2.0])))
    if draw(st.booleans()):
        e = np.zeros(g.shape + (g.ndir,))
        for _ in range(draw(st.integers(0, 4))):
            y = draw(st.integers(0, g.height - 1))
            x = draw(st.integers(0, g.width - 1))
            d = draw(st.integers(0, g.ndir - 1))
            e[y, x, d] = draw(st.sampled_from([0.5, 1.0, 3.0, math.inf]))
        m = Map(g, terrain=m.terrain, terrains=t, overlay=m.overlay, elevation=m.elevation, edges=e,
                climb_cost=m.climb_cost)
    if draw(st.booleans()):
        cells = list(g.cells())
        markers = [Marker(draw(st.sampled_from(["red", "Town & Co", "ü"])),
                          tuple(draw(st.lists(st.sampled_from(cells), max_size=3, unique=True))),
                          kind=draw(st.sampled_from(["", "spawn"])),
                          properties=draw(st.dictionaries(st.sampled_from(["player", "gold", "note"]),
                                                          st.one_of(st.integers(-5, 5), st.booleans(), st.text(_TEXT, max_size=4),
                                                                    st.floats(-10, 10, allow_nan=False)), max_size=2)))
                   for _ in range(draw(st.integers(1, 3)))]
        props = draw(st.dictionaries(st.sampled_from(["author", "turns"]), st.one_of(st.integers(0, 9), st.text(_TEXT, max_size=5)),
                                     max_size=2))
        m = Map(g, terrain=m.terrain, terrains=t, overlay=m.overlay, elevation=m.elevation, edges=m.edges,
                climb_cost=m.climb_cost, markers=markers, properties=props)
    return m
