"""Issue 34's model-page features and speed, shown in the browser: what a person sees drawn, cell by cell."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import check_console, open_page
from pagekit import at, click, data, hover, new_board, post, reachable_pair, show_path, tool

from wargrid.grids.hexes import hex_round, offset_to_hex
from wargrid.serve.api import _board_map, make_grid


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


def _walls(b: dict, viewer: int) -> list[bool]:
    """Map.fov's sight rule from the board's description: blocking ground or overlay, unless lower than the viewer."""
    blocks = [t["blocks_sight"] for t in b["terrains"]]
    elev = b.get("elevation")
    out = []
    for i, t in enumerate(b["terrain"]):
        o = b["overlay"][i]
        wall = blocks[t] or (o >= 0 and blocks[o])
        out.append(bool(wall) and not (elev is not None and elev[i] < elev[viewer]))
    return out


def test_the_line_to_the_hovered_cell_its_rounding_and_its_blocker(page, server):
    b = new_board(page, "hex-flat", 24, 16, 1)
    w = b["width"]
    viewer = (8, 10)
    walls = _walls(b, viewer[1] * w + viewer[0])
    tool(page, "sight")
    page.check("#show-line")
    click(page, *viewer)
    page.wait_for_function("document.getElementById('board').dataset.sight === '8,10'")
    _idle(page)
    v = offset_to_hex(*viewer, "odd-q")
    blocked = clear = None
    for x in range(w):
        for y in range(b["height"]):
            cells = [h.to_offset("odd-q") for h in v.line_to(offset_to_hex(x, y, "odd-q"))]
            if len(cells) < 4:
                continue
            first = next((c for c in cells[1:-1] if walls[c[1] * w + c[0]]), None)
            if first is not None and blocked is None and first != cells[-2]:
                blocked = ((x, y), cells, first)
            if first is None and clear is None:
                clear = ((x, y), cells, None)
    for target, cells, first in (blocked, clear):
        hover(page, *target)
        want = " ".join(f"{x},{y}" for x, y in cells)
        page.wait_for_function(f"document.getElementById('board').dataset.line === {json.dumps(want)}")
        assert data(page, "blocker") == ("" if first is None else f"{first[0]},{first[1]}")
        text = page.inner_text("#line-info")
        assert f"{len(cells) - 1} steps" in text and "Map.fov" in text
        assert page.locator("#line-marks circle.sample").count() == len(cells)
        if first is None:
            assert "no cell on it blocks sight" in text and page.locator("#line-marks polygon.blocker").count() == 0
        else:
            assert f"blocked at ({first[0]}, {first[1]})" in text
            assert page.locator("#line-marks polygon.blocker").count() == 1
            k = cells.index(first)
            assert page.locator("#line-marks polygon.shadowed").count() == len(cells) - 1 - k
    # the viewer stays where it was clicked while the line is shown
    assert data(page, "sight") == "8,10"


def test_square_lines_step_cell_by_cell(page, server):
    new_board(page, "square-8", 20, 14, 2)
    tool(page, "path")
    page.check("#show-line")
    b = post(server, "board/get", {"session": data(page, "session")})
    start, _, _ = reachable_pair(server, b, "foot")
    click(page, *start)
    target = (min(19, start[0] + 7), min(13, start[1] + 3))
    hover(page, *target)
    page.wait_for_function("(document.getElementById('board').dataset.line || '').length > 0")
    cells = [tuple(map(int, c.split(","))) for c in data(page, "line").split(" ")]
    assert cells[0] == tuple(start) and cells[-1] == target
    assert len(cells) == max(abs(target[0] - start[0]), abs(target[1] - start[1])) + 1
    assert all(max(abs(a[0] - c[0]), abs(a[1] - c[1])) == 1 for a, c in zip(cells, cells[1:]))


def test_rays_of_the_visibility_polygon_on_demand(page, server):
    new_board(page, "square-4", 24, 16, 1)
    tool(page, "sight")
    hover(page, 10, 8)
    page.wait_for_function("document.getElementById('board').dataset.sight === '10,8'")
    _idle(page)
    assert page.locator("#rays line").count() == 0
    page.check("#show-rays")
    corners = int(data(page, "polygon"))
    assert corners > 3 and page.locator("#rays line").count() == corners == int(data(page, "rays"))
    ends = page.eval_on_selector_all("#rays line", "es => es.map((e) => [+e.getAttribute('x2'), +e.getAttribute('y2')])")
    poly = page.get_attribute("#vispoly", "points").split()
    assert [f"{x:g},{y:g}" for x, y in ends] == [",".join(f"{float(v):g}" for v in p.split(",")) for p in poly]
    page.uncheck("#show-rays")
    assert page.locator("#rays line").count() == 0


@pytest.mark.parametrize("kind", ["square-8", "hex-pointy"])
def test_flow_field_heat_map_scale_and_arrows_thinned_by_zoom(page, browser, server, kind):
    w, h, seed = 40, 30, 4
    b = new_board(page, kind, w, h, seed)
    start, goal, _ = reachable_pair(server, b, "foot")
    f = _board_map(kind, w, h, seed).flow_field(tuple(goal), unit="foot")
    tool(page, "field")
    click(page, *goal)
    page.wait_for_function("document.getElementById('board').dataset.reached !== undefined")
    _idle(page)
    finite = np.isfinite(f.cost)
    assert int(data(page, "reached")) == int(finite.sum())
    top = float(f.cost[finite].max())
    assert page.is_visible("#scale") and page.get_attribute("#scale", "data-top") == f"{round(top * 100) / 100:g}"
    # every arrow points where Map.flow_field steps
    steps = page.evaluate(f"Array.from({{length: {w * h}}}, (_, i) => window.playground.fieldStep(i % {w}, Math.floor(i / {w})))")
    for i, got in enumerate(steps):
        want = f.step((i % w, i // w))
        assert (None if got is None else tuple(got)) == want, (i % w, i // w)
    # colour where numbers do not fit, thinned arrows; at a large zoom one arrow a cell and the numbers
    page.evaluate("window.playground.zoomTo(5)")
    page.wait_for_function("document.getElementById('board').dataset.arrowStride === '3'")
    stride = int(data(page, "arrowStride"))
    assert stride > 1 and 0 < int(data(page, "arrows")) <= finite.sum() / stride ** 2 + w + h
    assert page.locator("#labels text").count() == 0
    x, y = start
    assert page.evaluate(f"window.playground.fillOf({x}, {y})") is not None
    page.evaluate("window.playground.zoomTo(40)")
    page.wait_for_function("document.getElementById('board').dataset.arrowStride === '1'")
    page.wait_for_function("document.querySelectorAll('#labels text').length > 0")
    hover(page, *goal)
    page.wait_for_function("document.getElementById('hover').textContent.includes('cost to the goal 0')")
    assert "tool=field" in page.url and f"to={goal[0]}%2C{goal[1]}" in page.url
    again = open_page(browser, page.url)  # a link opens the same field
    again.wait_for_function(f"document.getElementById('board').dataset.reached === '{int(finite.sum())}'")
    check_console(again)
    again.close()


def test_a_dragged_search_asks_for_the_path_once_the_pointer_rests(page, server):
    b = new_board(page, "square-4", 24, 16, 1)
    start, goal, expect = show_path(page, server, b, "foot")
    page.click("#explain-step")
    page.wait_for_function("document.getElementById('board').dataset.explainStep === '1'")
    asked = []
    page.on("request", lambda r: asked.append(r.url.rsplit("/", 1)[-1]) if "/api/" in r.url else None)
    cells = expect["cells"]
    page.mouse.move(*at(page, *goal))
    page.mouse.down()
    for c in reversed(cells[-6:-1]):
        page.mouse.move(*at(page, *c))
        page.wait_for_function(f"document.getElementById('board').dataset.frontierMs !== undefined")
    target = cells[-6]
    page.mouse.up()
    want = post(server, "path", {"session": b["session"], "start": start, "goal": target, "unit": "foot"})
    page.wait_for_function(f"document.getElementById('path').getAttribute('points').split(' ').length === {len(want['cells'])}")
    assert float(page.inner_text("#path-cost")) == want["cost"]
    e = post(server, "explain", {"session": b["session"], "start": start, "goal": target, "unit": "foot"})
    page.wait_for_function(f"document.getElementById('board').dataset.explainStep === '{len(e['order'])}'")
    assert asked.count("explain") >= 2 and asked.count("path") <= 2, asked  # not one path a step


def test_search_arrows_and_heat_map_follow_the_zoom(page, server):
    show_path(page, server, new_board(page, "hex-flat", 48, 40, 2), "foot")
    page.evaluate("window.playground.zoomTo(5)")
    page.check("#explain-numbers")
    page.click("#explain-play")
    page.wait_for_function("document.getElementById('explain-info').textContent.includes('goal reached')")
    page.wait_for_function("document.getElementById('board').dataset.arrowStride === '3'")
    assert data(page, "heat") == "1" and page.is_visible("#scale")
    thinned = int(data(page, "arrows"))
    page.evaluate("window.playground.zoomTo(30)")  # no new search: the same frame drawn for the new zoom
    page.wait_for_function("document.getElementById('board').dataset.arrowStride === '1'")
    page.wait_for_function("document.getElementById('board').dataset.heat === ''")
    page.wait_for_function("document.querySelectorAll('#labels text').length > 0")
    assert not page.is_visible("#scale")
    assert int(data(page, "arrows")) > 0 and thinned > 0
