"""Issue 34's model-page features and speed, shown in the browser: what a person sees drawn, cell by cell."""

from __future__ import annotations

import json

import pytest
from pagekit import at, data, hover, new_board, post, tool

from wargrid.grids.hexes import hex_round, offset_to_hex
from wargrid.serve.api import make_grid


def _idle(pg) -> None:
    pg.wait_for_function("!document.getElementById('status').classList.contains('busy')")


def _shade_alpha(pg, x: int, y: int) -> int:
    """The alpha of the shade canvas at cell ``(x, y)``'s centre (0: nothing drawn over the ground)."""
    sx, sy = at(pg, x, y)
    return pg.evaluate(f"""() => {{
        const c = document.getElementById('shade'), r = c.getBoundingClientRect(), k = c.width / r.width;
        return c.getContext('2d').getImageData(Math.round(({sx} - r.left) * k), Math.round(({sy} - r.top) * k), 1, 1).data[3];
    }}""")


def test_a_sight_answer_redraws_the_shade_alone_and_dims_only_unseen_cells(page, server):
    b = new_board(page, "hex-flat", 40, 30, 3)
    tool(page, "sight")
    page.fill("#radius", "4")
    page.dispatch_event("#radius", "change")
    _idle(page)
    before = int(data(page, "terrainDraws"))
    for cell in ((20, 15), (21, 15), (22, 14)):
        hover(page, *cell)
        page.wait_for_function(f"document.getElementById('board').dataset.sight === {json.dumps('%d,%d' % cell)}")
        _idle(page)
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert int(data(page, "terrainDraws")) == before  # the ground was not drawn again for a new field of view
    seen = set(post(server, "fov", {"session": b["session"], "origin": [22, 14], "radius": 4})["visible"])
    w = b["width"]
    lit = [(i % w, i // w) for i in sorted(seen)]
    dark = [(x, y) for x, y in ((22, 4), (5, 5), (35, 25), (10, 20)) if y * w + x not in seen]
    assert lit and dark
    assert all(_shade_alpha(page, *c) == 0 for c in lit[:: max(1, len(lit) // 12)])
    assert all(_shade_alpha(page, *c) > 0 for c in dark)
    page.evaluate("window.playground.zoomTo(window.playground.cellSize() * 1.5)")
    page.wait_for_function(f"Number(document.getElementById('board').dataset.terrainDraws) > {before}")


@pytest.mark.parametrize("kind", ["hex-flat", "hex-pointy"])
def test_pixel_to_hex_rounding_on_demand_is_the_librarys(page, server, kind):
    new_board(page, kind, 14, 12, 1)
    g = make_grid(kind, 14, 12)
    page.evaluate("window.playground.zoomTo(40)")
    page.check("#show-rounding")
    s = page.evaluate("window.playground.cellSize()")
    for cell, (dx, dy) in (((5, 4), (0.0, 0.0)), ((5, 4), (0.55, -0.3)), ((6, 6), (-0.7, 0.45)), ((7, 5), (0.2, 0.8))):
        cx, cy = at(page, *cell)
        page.mouse.move(cx + dx * s, cy + dy * s)
        wx, wy = g.center(cell)
        q, r = g.layout.pixel_to_fractional(wx + dx, wy + dy)
        h = hex_round(q, r)
        page.wait_for_function(f"document.getElementById('board').dataset.rounding === '{h.q},{h.r},{h.s}'")
        fq, fr = map(float, data(page, "fraction").split(","))
        assert (fq, fr) == pytest.approx((q, r), abs=2e-3)  # the pointer's pixel is whole: within a pixel
        text = page.inner_text("#rounding")
        assert f"rounded ({h.q}, {h.r}, {h.s})" in text and f"({h.to_offset(g.offset)[0]}, {h.to_offset(g.offset)[1]})" in text
        assert page.locator("#round-marks circle").count() == 2 and page.locator("#round-marks line").count() == 1
    page.uncheck("#show-rounding")
    assert page.inner_text("#rounding") == "" and page.locator("#round-marks circle").count() == 0


def test_hover_outlines_the_diagonals(page, server):
    new_board(page, "hex-flat", 14, 12, 1)
    hover(page, 6, 5)
    page.wait_for_function("document.querySelectorAll('#diags polygon').length === 6")
    h = offset_to_hex(6, 5, "odd-q")
    want = sorted(h.diagonal(d).to_offset("odd-q")[1] * 14 + h.diagonal(d).to_offset("odd-q")[0] for d in range(6))
    got = sorted(int(e) for e in page.eval_on_selector_all("#diags polygon", "es => es.map((e) => e.dataset.id)"))
    assert got == want
    new_board(page, "square-4", 12, 10, 1)
    hover(page, 5, 4)
    page.wait_for_function("document.querySelectorAll('#diags polygon').length === 4")
    got = sorted(int(e) for e in page.eval_on_selector_all("#diags polygon", "es => es.map((e) => e.dataset.id)"))
    assert got == [3 * 12 + 4, 3 * 12 + 6, 5 * 12 + 4, 5 * 12 + 6]
    assert page.locator("#nbrs polygon").count() == 4
