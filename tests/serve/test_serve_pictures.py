"""Issue 34's model-page features and speed, shown in the browser: what a person sees drawn, cell by cell."""

from __future__ import annotations

import json

from pagekit import at, data, hover, new_board, post, tool


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
