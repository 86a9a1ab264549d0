"""Issue 19's defects, each shown in the browser as a person meets it (and fixed)."""

from __future__ import annotations

import json
import math
import subprocess
import sys

from pagekit import at, cells_of, click, data, hover, new_board, post, session, status, terrain_names, tool, wait_result


def _idle(pg) -> None:
    pg.wait_for_function("!document.getElementById('status').classList.contains('busy')")


def _fog_beside_water(pg) -> tuple[dict, tuple[int, int], tuple[int, int]]:
    """A board with one blue unit on plains beside water, the fog tool shown: ``(board, unit, a water cell)``."""
    b = new_board(pg, "hex-flat", 20, 14, 7)
    water = set(cells_of(b, {"water"}))
    land = cells_of(b, {"plains"})
    unit = next(c for c in land if any(n in water for n in ((c[0] + dx, c[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))))
    wet = next(n for n in ((unit[0] + dx, unit[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)) if n in water)
    tool(pg, "units")
    pg.select_option("#team", "0")
    click(pg, *unit)
    tool(pg, "fog")
    pg.wait_for_function("document.getElementById('result').textContent.includes('blue')")
    return b, unit, wet


def test_1_sight_from_inside_a_forest_on_a_square_board(page, server):
    b = new_board(page, "square-8", 20, 14, 3)
    blocking = {t["name"] for t in b["terrains"] if t["blocks_sight"]}
    inside = cells_of(b, blocking)
    assert inside, "the board has a forest or mountain"
    tool(page, "sight")
    for x, y in inside[:3]:
        hover(page, x, y)
        page.wait_for_function(f"document.getElementById('board').dataset.sight === '{x},{y}'")
        _idle(page)
        assert "error" not in page.get_attribute("#status", "class")
        assert int(data(page, "polygon")) > 2


def test_2_the_visibility_polygon_ends_at_the_sight_radius(page, server):
    new_board(page, "square-4", 40, 30, 2)
    tool(page, "sight")
    page.fill("#radius", "3")
    page.dispatch_event("#radius", "change")
    hover(page, 20, 15)
    page.wait_for_function("document.getElementById('board').dataset.sight === '20,15'")
    _idle(page)
    pts = [tuple(map(float, p.split(","))) for p in page.get_attribute("#vispoly", "points").split()]
    assert len(pts) > 3
    # the light is in tile (20, 15): every corner lies within radius + 0.5 (+ the tile's half diagonal) of the tile's centre
    assert max(math.hypot(x - 20.5, y - 15.5) for x, y in pts) <= 3.5 + 0.71 + 1e-3


def test_3_the_tmx_that_generate_writes_opens_and_the_terrain_property_can_be_named(page, tmp_path):
    out = tmp_path / "g.tmx"
    subprocess.run([sys.executable, "-m", "wargrid", "generate", "--size", "12x9", "--seed", "4", str(out)], check=True,
                   capture_output=True)
    old = session(page)
    page.set_input_files("#upload", str(out))
    page.wait_for_function(f"document.getElementById('board').dataset.session !== {json.dumps(old)}")
    first = post(page.url, "board/get", {"session": session(page)})
    assert first["width"] == 12 and first["height"] == 9 and "g.tmx" in status(page)
    # the same map whose tiles name their terrain in a property called "kind"
    renamed = tmp_path / "renamed.tmx"
    renamed.write_text(out.read_text().replace('<property name="terrain" ', '<property name="kind" '))
    page.fill("#terrain-property", "kind")
    old = session(page)
    page.set_input_files("#upload", str(renamed))
    page.wait_for_function(f"document.getElementById('board').dataset.session !== {json.dumps(old)}")
    second = post(page.url, "board/get", {"session": session(page)})
    assert second["terrain"] == first["terrain"] and second["overlay"] == first["overlay"]


def test_4_an_impassable_start_is_named(page, server):
    b = new_board(page, "hex-flat", 16, 12, 7)
    water = cells_of(b, {"water"})
    land = cells_of(b, {"plains"})
    tool(page, "path")
    page.select_option("#unit", "foot")
    click(page, *water[0])
    click(page, *land[0])
    wait_result(page, "No path")
    text = page.inner_text("#no-path")
    assert "start" in text and "water" in text and "impassable for foot" in text
    tool(page, "range")
    click(page, *water[0])
    page.wait_for_selector("#range-reason")
    assert "impassable for foot" in page.inner_text("#range-reason")


def test_5_an_error_clears_the_result_it_replaces(page, server):
    page.refusals_expected = True
    b = new_board(page, "hex-flat", 16, 12, 7)
    land = cells_of(b, {"plains"})
    tool(page, "range")
    click(page, *land[0])
    wait_result(page, "Range")
    assert int(data(page, "shaded")) > 0
    page.fill("#budget", "-3")
    page.dispatch_event("#budget", "change")
    wait_result(page, "budget must be")
    assert "cells" not in page.inner_text("#result")
    assert page.evaluate(f"window.playground.fillOf({land[0][0]}, {land[0][1]})") is None
    tool(page, "territory")
    page.fill("#players", "2")
    page.click("#split")
    page.wait_for_selector("#fairness")
    page.fill("#players", "17")
    page.click("#split")
    wait_result(page, "players must be")
    assert page.locator("#fairness").count() == 0 and page.locator("#result table").count() == 0
    assert page.evaluate(f"window.playground.fillOf({land[0][0]}, {land[0][1]})") is None


def test_6_the_form_keeps_the_servers_limits(page, server):
    b = new_board(page, "hex-flat", 12, 9, 5)
    meta = json.loads(page.evaluate("fetch('/api/meta').then(r => r.text())"))
    for field, name in (("players", "players"), ("radius", "radius"), ("seed", "seed"), ("width", "width")):
        lo, hi = meta["limits"][name]
        assert page.get_attribute(f"#{field}", "min") == str(lo) and page.get_attribute(f"#{field}", "max") == str(hi)
    # one player is what the server accepts, so the page sends it
    tool(page, "territory")
    page.fill("#players", "1")
    page.click("#split")
    page.wait_for_selector("#fairness")
    assert page.locator("#result tr").count() == 2
    # radius 0 is sent as 0: the viewer sees its own cell
    tool(page, "sight")
    page.fill("#radius", "0")
    page.dispatch_event("#radius", "change")
    land = cells_of(b, {"plains"})[0]
    hover(page, *land)
    page.wait_for_function(f"document.getElementById('board').dataset.sight === '{land[0]},{land[1]}'")
    assert "within radius 0" in page.inner_text("#result")
    assert int(data(page, "visible")) == len(post(server, "fov", {"session": b["session"], "origin": list(land), "radius": 0})["visible"])
    # an empty seed or width is named, never sent as 0 or None
    before = session(page)
    page.fill("#seed", "")
    page.click("#new-board")
    wait_result(page, "seed must be an integer in 0..2147483647; got nothing")
    page.fill("#seed", "3")
    page.fill("#width", "")
    page.click("#new-board")
    wait_result(page, "width must be an integer in 1..256; got nothing")
    assert "None" not in page.inner_text("#status")
    page.fill("#width", "2147483648")
    page.click("#new-board")
    wait_result(page, "width must be an integer in 1..256; got 2147483648")
    assert session(page) == before


def test_7_the_hover_readout_follows_new_boards_and_paint(page, server):
    b = new_board(page, "square-4", 12, 8, 9)
    land = cells_of(b, {"plains"})[0]
    hover(page, *land)
    page.wait_for_function(f"document.getElementById('hover').textContent.startsWith('({land[0]}, {land[1]}) plains')")
    new_board(page, "square-4", 12, 8, 9)  # the same board, made again: the readout starts empty
    assert page.inner_text("#hover") == ""
    tool(page, "paint")
    page.select_option("#paint-terrain", "mountains")
    click(page, *land)
    page.wait_for_function("document.getElementById('status').textContent.startsWith('painted')")
    assert page.inner_text("#hover").startswith(f"({land[0]}, {land[1]}) mountains")


def test_8_a_double_click_does_not_make_the_start_the_goal(page, server):
    b = new_board(page, "hex-flat", 12, 9, 5)
    land = cells_of(b, {"plains"})[0]
    tool(page, "path")
    page.mouse.dblclick(*at(page, *land))
    wait_result(page, "Now click a goal cell")
    assert page.get_attribute("#path", "points") == ""
    assert "0 steps" not in page.inner_text("#result")
    assert page.locator("#marks circle").count() == 1


def test_9_fog_moves_walk_and_the_fog_hides_the_ground(page, server):
    b, unit, wet = _fog_beside_water(page)
    # the class's change asks for the fog again: wait for that answer (the old text said 'blue' already), or it
    # lands after the refused move below and writes over its message
    page.evaluate("document.getElementById('result').textContent = ''")
    page.select_option("#unit", "foot")
    page.wait_for_function("document.getElementById('result').textContent.includes('blue')")
    click(page, *unit)
    click(page, *wet)
    page.wait_for_function(f"document.getElementById('board').dataset.refused === '{wet[0]},{wet[1]}'")
    assert "cannot reach" in page.inner_text("#result")
    assert page.locator("#units circle").get_attribute("data-id") == str(unit[1] * 20 + unit[0])
    # a cell never seen shows no terrain
    explored = post(server, "fog", {"session": b["session"], "units": [[1, unit[0], unit[1], 0]], "team": 0, "radius": 6})["explored"]
    dark = next(i for i in range(20 * 14) if i not in set(explored))
    hover(page, dark % 20, dark // 20)
    page.wait_for_function(f"document.getElementById('hover').textContent === '({dark % 20}, {dark // 20}) unexplored'")


def test_10_zone_of_control_cells_have_no_points_left(page, server):
    b = new_board(page, "hex-pointy", 14, 10, 11)
    land = cells_of(b, {"plains", "hills", "forest"})
    a = land[len(land) // 2]
    enemy = next(c for c in land if 2 <= abs(c[0] - a[0]) + abs(c[1] - a[1]) <= 3)
    tool(page, "units")
    page.select_option("#team", "0")
    click(page, *a)
    page.select_option("#team", "1")
    click(page, *enemy)
    tool(page, "range")
    page.fill("#budget", "12")
    click(page, *a)
    wait_result(page, "zones of control")
    r = post(server, "range", {"session": b["session"], "start": list(a), "budget": 12, "unit": "foot", "enemies": [list(enemy)]})
    zoc = {tuple(c) for c in r["zoc"]}
    assert zoc and all(left == 0 for x, y, left in r["cells"] if (x, y) in zoc)
    z = next(iter(zoc))
    hover(page, *z)
    page.wait_for_function("document.getElementById('hover').textContent.includes('zone of control: the move stops here')")


def test_11_serve_warms_its_kernels_and_the_page_says_working_at_once(page, server_process):
    assert "warming the kernels" in server_process.stdout.readline()
    b = new_board(page, "hex-flat", 12, 9, 5)
    land = cells_of(b, {"plains"})
    # hold the path's answer back: the page says it is working before it comes
    page.route("**/api/path", lambda route: (page.wait_for_timeout(800), route.continue_()))
    tool(page, "path")
    click(page, *land[0])
    click(page, *land[-1])
    assert "working" in status(page)
    page.wait_for_function("!document.getElementById('status').textContent.includes('working')")
    page.unroute("**/api/path")


def test_12_a_late_answer_does_not_write_over_a_newer_message(page, server):
    """The fog asked for before a refused move comes back after it: the refusal stays on screen."""
    b, unit, wet = _fog_beside_water(page)
    # hold every fog answer back in the page until released
    page.evaluate("""() => {
        const real = window.fetch;
        window.fogHeld = [];
        window.fetch = (url, opts) => String(url).includes('/api/fog')
            ? new Promise((resolve) => window.fogHeld.push(() => resolve(real(url, opts))))
            : real(url, opts);
    }""")
    page.select_option("#unit", "foot")  # asks for the fog again
    click(page, *unit)  # selects the unit: asks again
    click(page, *wet)
    page.wait_for_function(f"document.getElementById('board').dataset.refused === '{wet[0]},{wet[1]}'")
    assert "cannot reach" in page.inner_text("#result")
    assert page.evaluate("window.fogHeld.length") == 2
    page.evaluate("document.getElementById('board').dataset.visible = ''")
    page.evaluate("() => { window.fogHeld.forEach((f) => f()); window.fogHeld = []; }")
    # the newest fog answer is drawn; its text does not replace the refusal, shown after it was asked for
    page.wait_for_function("document.getElementById('board').dataset.visible !== ''")
    _idle(page)
    assert int(data(page, "visible")) > 0
    assert "cannot reach" in page.inner_text("#result")
