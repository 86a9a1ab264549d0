"""What people expect of the playground (issue 19): zoom and pan, big boards, a phone, the step-through,
undo, export, a shareable link, the keyboard, dragging markers, the legend; and the docs' screenshots.

Set ``WARGRID_PLAYGROUND_SHOTS=1`` to write the screenshots into ``docs/_static/playground``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import check_console, open_page
from pagekit import at, cells_of, click, data, new_board, post, reachable_pair, session, show_path, tool, wait_result

DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "_static" / "playground"


def _shots(tmp_path: Path) -> Path:
    if os.environ.get("WARGRID_PLAYGROUND_SHOTS"):
        DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
        return DOCS_SHOTS
    return tmp_path


def test_wheel_zooms_about_the_pointer_and_drag_pans(page, server):
    new_board(page, "hex-flat", 30, 20, 3)
    s0 = page.evaluate("window.playground.cellSize()")
    sx, sy = at(page, 10, 8)
    page.mouse.move(sx, sy)
    page.mouse.wheel(0, -400)
    page.wait_for_function(f"window.playground.cellSize() > {s0 * 1.3}")
    # the cell under the pointer stays under it
    assert page.evaluate(f"window.playground.cellAt({sx}, {sy})") == [10, 8]
    nx, ny = at(page, 10, 8)
    assert abs(nx - sx) < 2 and abs(ny - sy) < 2
    # a drag pans
    page.mouse.down()
    page.mouse.move(sx + 120, sy + 60, steps=5)
    page.mouse.up()
    px, py = at(page, 10, 8)
    assert abs(px - sx - 120) < 3 and abs(py - sy - 60) < 3
    # a path keeps its width on screen at any zoom
    assert page.eval_on_selector("#path", "p => getComputedStyle(p).strokeWidth") == "5px"
    assert page.eval_on_selector("#path", "p => getComputedStyle(p).vectorEffect") == "non-scaling-stroke"
    page.click("#zoom-fit")
    page.wait_for_function(f"Math.abs(window.playground.cellSize() - {s0}) < 1e-6")


def test_a_256_board_is_drawn_whole_and_answers_clicks(page, server):
    """A 256 x 256 hex board (its time to first draw is measured by benchmarks/bench_playground.py)."""
    page.select_option("#kind", "hex-flat")
    page.fill("#width", "256")
    page.fill("#height", "256")
    page.fill("#seed", "1")
    page.click("#new-board")
    page.wait_for_function("document.getElementById('board').dataset.drawn > 60000")
    # the whole board is on screen and answers clicks
    assert int(data(page, "drawn")) == 256 * 256
    assert page.evaluate("window.playground.cellAt(...window.playground.screenOf(200, 100))") == [200, 100]


def test_phone_folds_the_controls_and_works_by_touch(phone_page, server, tmp_path):
    pg = phone_page
    assert pg.eval_on_selector("#panel", "p => getComputedStyle(p).visibility") == "hidden"
    box = pg.locator("#board").bounding_box()
    assert box["width"] >= 380 and box["height"] >= 700
    pg.click("#toggle-panel")
    pg.wait_for_function("getComputedStyle(document.getElementById('panel')).visibility === 'visible'")
    b = new_board(pg, "hex-pointy", 12, 16, 2)
    pg.click("#toggle-panel")
    pg.wait_for_function("getComputedStyle(document.getElementById('panel')).visibility === 'hidden'")
    start, goal, expect = reachable_pair(server, b, "foot")
    pg.touchscreen.tap(*at(pg, *start))
    pg.touchscreen.tap(*at(pg, *goal))
    pg.wait_for_function("document.getElementById('path').getAttribute('points').length > 0")
    assert len(pg.get_attribute("#path", "points").split()) == len(expect["cells"])
    # pinch: two touch pointers moving apart zoom in
    s0 = pg.evaluate("window.playground.cellSize()")
    pg.evaluate("""() => {
        const b = document.getElementById('board'), r = b.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
        const ev = (type, id, x) => b.dispatchEvent(new PointerEvent(type, {pointerId: id, pointerType: 'touch', clientX: x, clientY: cy, bubbles: true, isPrimary: id === 11}));
        ev('pointerdown', 11, cx - 40); ev('pointerdown', 12, cx + 40);
        for (let k = 1; k <= 5; k++) { ev('pointermove', 11, cx - 40 - 16 * k); ev('pointermove', 12, cx + 40 + 16 * k); }
        ev('pointerup', 11, cx - 120); ev('pointerup', 12, cx + 120);
    }""")
    pg.wait_for_function(f"window.playground.cellSize() > {s0 * 2}")
    pg.screenshot(path=str(tmp_path / "phone.png"))


def test_step_through_the_search(page, server):
    b = new_board(page, "square-4", 14, 10, 6)
    start, goal, expect = show_path(page, server, b, "foot")
    page.click("#explain-step")
    page.wait_for_function("document.getElementById('board').dataset.explainStep === '1'")
    page.click("#explain-step")
    page.click("#explain-step")
    page.wait_for_function("document.getElementById('board').dataset.explainStep === '3'")
    assert int(data(page, "openSet")) > 0
    # the arrows are counted when the frame is drawn (the next animation frame), not when the step is taken
    page.wait_for_function("document.getElementById('board').dataset.arrows === '2'")
    page.check("#explain-numbers")
    page.click("#explain-play")
    page.wait_for_function("document.getElementById('explain-info').textContent.includes('goal reached')")
    page.click("#explain-pause")
    k = int(data(page, "explainStep"))
    order = post(server, "explain", {"session": b["session"], "start": start, "goal": goal, "unit": "foot"})
    assert k == len(order["order"]) and order["order"][-1] == goal[1] * 14 + goal[0]
    assert order["cost"][-1] == expect["cost"]  # Dijkstra's cost is the A* path's
    page.wait_for_function(f"document.getElementById('board').dataset.arrows === '{k - 1}'")


def test_drag_the_goal_recomputes_the_path(page, server):
    b = new_board(page, "hex-flat", 16, 12, 7)
    start, goal, expect = show_path(page, server, b, "foot")
    zone = post(server, "zones", {"session": b["session"], "unit": "foot"})["labels"]
    z = zone[goal[1] * 16 + goal[0]]
    other = next((i % 16, i // 16) for i in range(16 * 12) if zone[i] == z and [i % 16, i // 16] not in (start, goal)
                 and abs(i % 16 - goal[0]) + abs(i // 16 - goal[1]) >= 3)
    page.mouse.move(*at(page, *goal))
    page.mouse.down()
    page.mouse.move(*at(page, *other), steps=6)
    page.mouse.up()
    want = post(server, "path", {"session": b["session"], "start": start, "goal": list(other), "unit": "foot"})
    page.wait_for_function(f"document.getElementById('path').getAttribute('points').split(' ').length === {len(want['cells'])}")
    assert float(page.inner_text("#path-cost")) == want["cost"]
    assert f"goal={other[0]}%2C{other[1]}" in page.url


def test_undo_redo_and_reset(page, server):
    b = new_board(page, "square-4", 10, 8, 4)
    cell = cells_of(b, {"plains"})[0]
    i = cell[1] * 10 + cell[0]
    tool(page, "paint")
    page.select_option("#paint-terrain", "water")
    click(page, *cell)
    page.wait_for_function("document.getElementById('status').textContent.startsWith('painted')")
    water = b["terrains"].index(next(t for t in b["terrains"] if t["name"] == "water"))
    assert post(server, "board/get", {"session": b["session"]})["terrain"][i] == water
    page.click("#undo")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('undid')")
    assert post(server, "board/get", {"session": b["session"]})["terrain"][i] == b["terrain"][i]
    page.keyboard.press("Control+y")
    page.wait_for_function("document.getElementById('status').textContent.includes('again')")
    assert post(server, "board/get", {"session": b["session"]})["terrain"][i] == water
    page.click("#reset")
    page.wait_for_function(f"document.getElementById('board').dataset.session !== {json.dumps(b['session'])}")
    assert post(server, "board/get", {"session": session(page)})["terrain"] == b["terrain"]


def test_export_json_tmx_and_png(page, server, tmp_path):
    b = new_board(page, "hex-pointy", 9, 7, 8)
    from wargrid import load_map
    from wargrid.io.tiled import load_tiled

    got = {}
    for button, name in (("#export-json", "board.json"), ("#export-tmx", "board.tmx"), ("#export-png", "board.png")):
        with page.expect_download() as dl:
            page.click(button)
        path = tmp_path / dl.value.suggested_filename
        dl.value.save_as(path)
        assert path.name == name
        got[name] = path
    assert load_map(got["board.json"]).terrain.ravel().tolist() == b["terrain"]
    assert load_tiled(got["board.tmx"]).terrain.ravel().tolist() == b["terrain"]
    assert got["board.png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and got["board.png"].stat().st_size > 2000


def test_a_shared_link_opens_the_same_board_tool_and_markers(page, browser, server):
    b = new_board(page, "square-8", 16, 12, 13)
    start, goal, expect = show_path(page, server, b, "foot")
    link = page.url
    assert "seed=13" in link and "tool=path" in link and f"start={start[0]}%2C{start[1]}" in link
    other = open_page(browser, link)
    try:
        other.wait_for_function("document.getElementById('path').getAttribute('points').length > 0")
        assert other.get_attribute("#path", "points") == page.get_attribute("#path", "points")
        assert other.inner_text("#path-cost") == page.inner_text("#path-cost")
        again = post(server, "board/get", {"session": session(other)})
        assert again["terrain"] == b["terrain"] and again["kind"] == "square-8"
        assert other.url == link
    finally:
        check_console(other)
        other.close()


def test_the_keyboard_plays_every_tool(page, server):
    b = new_board(page, "hex-flat", 12, 9, 5)
    tool(page, "path")
    page.focus("#board")
    page.keyboard.press("ArrowRight")
    first = data(page, "cursor")
    assert first
    page.keyboard.press("Enter")
    for key in ("ArrowRight", "ArrowRight", "ArrowDown", "ArrowDown"):
        page.keyboard.press(key)
    assert data(page, "cursor") != first
    x0, y0 = map(int, first.split(","))
    x1, y1 = map(int, data(page, "cursor").split(","))
    assert x1 > x0 and y1 > y0
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('result').textContent.includes('Path') || "
                           "document.getElementById('result').textContent.includes('No path')")
    assert page.locator("#marks circle").count() == 2
    # paint by keyboard: Enter paints the cell under the cursor
    tool(page, "paint")
    page.select_option("#paint-terrain", "hills")
    page.focus("#board")
    page.keyboard.press("ArrowLeft")
    cx, cy = map(int, data(page, "cursor").split(","))
    page.keyboard.press("Enter")
    hills = [t["name"] for t in b["terrains"]].index("hills")
    page.wait_for_function(f"window.playground.ground({cx}, {cy})[0] === {hills}")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('painted')")
    page.keyboard.press("+")
    page.keyboard.press("0")


def test_legend_shows_costs_for_the_class(page, server):
    b = new_board(page, "hex-flat", 12, 9, 5)
    page.select_option("#unit", "foot")
    row = page.inner_text("#legend tr[data-terrain=water]")
    assert "impassable" in row
    mountains = page.inner_text("#legend tr[data-terrain=mountains]")
    assert "blocks" in mountains
    classes = b["classes"]
    other = next(c for c in classes if b["costs"][c][[t["name"] for t in b["terrains"]].index("water")] is not None) if any(
        b["costs"][c][[t["name"] for t in b["terrains"]].index("water")] is not None for c in classes) else None
    if other:
        page.select_option("#unit", other)
        page.wait_for_function("!document.querySelector('#legend tr[data-terrain=water]').textContent.includes('impassable')")
    assert int(page.evaluate("window.playground.roads()")) > 0


def _controls(pg, device: str, open_: bool) -> None:
    """On a phone, fold the controls out (or away)."""
    if device == "phone" and pg.evaluate("document.body.classList.contains('panel-open')") != open_:
        pg.click("#toggle-panel")


def test_screenshots_of_every_tool(page, phone_page, server, tmp_path):
    out = _shots(tmp_path)
    for pg, device in ((page, "desktop"), (phone_page, "phone")):
        _controls(pg, device, True)
        b = new_board(pg, "hex-flat", 24, 16, 1)
        land = cells_of(b, {"plains", "hills"})
        start, goal, _ = reachable_pair(server, b, "foot")
        tool(pg, "path")
        _controls(pg, device, False)
        pg.screenshot(path=str(out / f"{device}-board.png"))
        click(pg, *start)
        click(pg, *goal)
        pg.wait_for_function("document.getElementById('path').getAttribute('points').length > 0")
        pg.screenshot(path=str(out / f"{device}-path.png"))
        for name in ("range", "sight", "territory"):
            _controls(pg, device, True)
            tool(pg, name)
            if name == "territory":
                pg.click("#split")
                pg.wait_for_selector("#fairness")
                _controls(pg, device, False)
            else:
                _controls(pg, device, False)
                cell = land[len(land) // 2] if name == "range" else land[len(land) // 3]
                if name == "range":
                    click(pg, *cell)
                else:
                    pg.mouse.move(*at(pg, *cell))
                    if device == "phone":
                        pg.touchscreen.tap(*at(pg, *cell))
                wait_result(pg, "Range" if name == "range" else "in view")
            pg.screenshot(path=str(out / f"{device}-{name}.png"))
        if device == "desktop":
            # the flow field toward the goal, and the line from a viewer to a cell with the polygon's rays
            tool(pg, "field")
            click(pg, *goal)
            wait_result(pg, "Flow field")
            pg.screenshot(path=str(out / "desktop-field.png"))
            tool(pg, "sight")
            pg.check("#show-line")
            pg.check("#show-rays")
            click(pg, *land[len(land) // 3])
            pg.wait_for_function("document.getElementById('board').dataset.rays > 0")
            far = max(land, key=lambda c: abs(c[0] - land[len(land) // 3][0]) if abs(c[1] - land[len(land) // 3][1]) < 5 else -1)
            pg.mouse.move(*at(pg, *far))
            pg.wait_for_function("(document.getElementById('board').dataset.line || '').length > 0")
            pg.screenshot(path=str(out / "desktop-line.png"))
            pg.uncheck("#show-line")
            pg.uncheck("#show-rays")


def test_hover_tells_the_steps_from_the_start(page, server):
    """With a start placed, the hover readout counts the grid steps to the cell under the pointer."""
    from pagekit import hover

    from wargrid import HexGrid, SquareGrid, StaggeredGrid

    grids = {"hex-flat": HexGrid(12, 9), "hex-pointy": HexGrid(12, 9, orientation="pointy"),
             "square-8": SquareGrid(12, 9, diagonal=True), "square-4": SquareGrid(12, 9), "staggered": StaggeredGrid(12, 9)}
    for kind, grid in grids.items():
        b = new_board(page, kind, 12, 9, 5)
        land = cells_of(b, {"plains"})
        start, far = land[0], land[-1]
        tool(page, "path")
        click(page, *start)
        wait_result(page, "Now click a goal cell")
        hover(page, *far)
        steps = grid.distance(start, far)
        if kind == "square-8":  # its distance is the octile length; a step is a step either way
            steps = max(abs(far[0] - start[0]), abs(far[1] - start[1]))
        want = f"{steps} step{'' if steps == 1 else 's'} from the start"
        page.wait_for_function(f"document.getElementById('hover').textContent.includes({json.dumps(want)})")
