"""The playground in a real headless Chromium (Debian's), driven by Playwright, against a live server.

The fixtures (one server, one browser, a page that fails on console errors)
are in ``conftest.py``; ``pagekit`` finds cells on screen. The board is drawn
on canvases: tests locate cells through the page's ``window.playground`` hooks
and check what the page holds (its data attributes, the SVG marks, the API).
"""

from __future__ import annotations

import json
import socket
import urllib.error
from pathlib import Path

import pytest
import conftest
from conftest import CHROMIUM, require_browser
from pagekit import at, click, data, hover, new_board, post, session, show_path, tool, wait_result


def test_chromium_is_debians():
    require_browser()
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: .ci/run installs Debian's chromium"


@pytest.mark.parametrize("ci", ["true", ""])
def test_without_chromium_browser_tests_skip_and_fail_in_ci(monkeypatch, tmp_path, ci):
    monkeypatch.setattr(conftest, "CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setenv("CI", ci)
    expected = pytest.fail.Exception if ci else pytest.skip.Exception
    with pytest.raises(expected, match="apt-get install chromium"):
        require_browser()


def test_page_draws_every_board_kind(page, tmp_path):
    for kind in ("square-4", "square-8", "hex-flat", "hex-pointy", "staggered"):
        b = new_board(page, kind, 9, 7, 4)
        page.wait_for_function("document.getElementById('board').dataset.drawn === '63'")
        # every cell is found again where the page drew it, and holds the board's ground
        for x, y in ((0, 0), (3, 2), (8, 6)):
            assert page.evaluate(f"window.playground.cellAt(...window.playground.screenOf({x}, {y}))") == [x, y]
            i = y * 9 + x
            assert page.evaluate(f"window.playground.ground({x}, {y})") == [b["terrain"][i], b["overlay"][i]]
        # the pixel at a cell's centre has its ground's colour (or a road's line on it)
        x, y = 3, 2
        if b["overlay"][2 * 9 + 3] < 0:
            sx, sy = at(page, x, y)
            rgb = page.evaluate(f"""(() => {{ const c = document.getElementById('terrain'); const r = c.getBoundingClientRect();
                const k = c.width / r.width; const d = c.getContext('2d').getImageData(Math.round(({sx} - r.left) * k), Math.round(({sy} - r.top) * k), 1, 1).data;
                return '#' + [d[0], d[1], d[2]].map(v => v.toString(16).padStart(2, '0')).join(''); }})()""")
            assert rgb.lower() == b["terrains"][b["terrain"][2 * 9 + 3]]["color"].lower()
        page.screenshot(path=str(tmp_path / f"board-{kind}.png"))


def test_click_start_and_goal_shows_the_path(page, server, tmp_path):
    b = new_board(page, "hex-flat", 16, 12, 7)
    start, goal, expect = show_path(page, server, b, "foot")
    points = page.get_attribute("#path", "points").split()
    assert len(points) == len(expect["cells"])
    cx, cy = b["centers"][2 * (goal[1] * 16 + goal[0])], b["centers"][2 * (goal[1] * 16 + goal[0]) + 1]
    last = [float(v) for v in points[-1].split(",")]
    assert abs(last[0] - cx) < 1e-3 and abs(last[1] - cy) < 1e-3
    assert float(page.inner_text("#path-cost")) == pytest.approx(expect["cost"])
    assert page.locator("#marks circle").count() == 2
    page.screenshot(path=str(tmp_path / "path.png"))
    assert (tmp_path / "path.png").stat().st_size > 10_000

    # changing the unit class asks again for that class
    page.select_option("#unit", "cavalry")
    cav = post(server, "path", {"session": b["session"], "start": start, "goal": goal, "unit": "cavalry"})
    if cav["cells"]:
        page.wait_for_function("document.getElementById('result').textContent.includes('cavalry')")
        assert float(page.inner_text("#path-cost")) == pytest.approx(cav["cost"])

    # painting water on the path's middle makes the path go round it (or fail)
    page.select_option("#unit", "foot")
    page.wait_for_function("document.getElementById('result').textContent.includes('foot')")
    mid = expect["cells"][len(expect["cells"]) // 2]
    tool(page, "paint")
    page.select_option("#paint-terrain", "water")
    click(page, *mid)
    page.wait_for_function("document.getElementById('status').textContent.startsWith('painted')")
    after = post(server, "path", {"session": b["session"], "start": start, "goal": goal, "unit": "foot"})
    assert after["cells"] is None or mid not in after["cells"]
    water = [t["name"] for t in b["terrains"]].index("water")
    assert post(server, "board/get", {"session": b["session"]})["terrain"][mid[1] * 16 + mid[0]] == water
    tool(page, "path")
    if after["cells"]:
        page.wait_for_function(f"document.getElementById('path').getAttribute('points').split(' ').length === {len(after['cells'])}")
    else:
        wait_result(page, "No path")


def test_moving_the_mouse_moves_the_view(page, server, tmp_path):
    b = new_board(page, "square-8", 20, 14, 3)
    tool(page, "sight")
    page.fill("#radius", "5")
    page.dispatch_event("#radius", "change")
    hover(page, 4, 4)
    page.wait_for_function("document.getElementById('board').dataset.sight === '4,4'")
    first = int(data(page, "visible"))
    want = post(server, "fov", {"session": b["session"], "origin": [4, 4], "radius": 5})
    assert first == len(want["visible"])
    page.screenshot(path=str(tmp_path / "sight-1.png"))
    hover(page, 15, 9)
    page.wait_for_function("document.getElementById('board').dataset.sight === '15,9'")
    page.screenshot(path=str(tmp_path / "sight-2.png"))
    # on a square board the visibility polygon follows the mouse inside its tile
    if int(data(page, "polygon")) > 0:
        sx, sy = at(page, 15, 9)
        size = page.evaluate("window.playground.cellSize()")
        page.mouse.move(sx - size * 0.4, sy - size * 0.4)
        page.wait_for_timeout(300)
        one = page.get_attribute("#vispoly", "points")
        page.mouse.move(sx + size * 0.4, sy + size * 0.4)
        page.wait_for_function(f"document.getElementById('vispoly').getAttribute('points') !== {json.dumps(one)}")
        assert data(page, "sight") == "15,9"


def test_range_units_fog_and_territory(page, server, tmp_path):
    b = new_board(page, "hex-pointy", 14, 10, 11)
    land = [i for i, t in enumerate(b["terrain"]) if b["terrains"][t]["name"] in ("plains", "hills", "forest", "coast")]
    a, e = land[len(land) // 3], land[len(land) // 3 + 1]
    ax, ay, ex, ey = a % 14, a // 14, e % 14, e // 14

    tool(page, "units")
    page.select_option("#team", "0")
    click(page, ax, ay)
    page.select_option("#team", "1")
    click(page, ex, ey)
    assert page.locator("#units circle").count() == 2

    tool(page, "range")
    page.fill("#budget", "6")
    click(page, ax, ay)
    page.wait_for_function("document.getElementById('result').textContent.startsWith('Range')")
    reached = int(data(page, "reached"))
    assert reached > 1
    assert int(data(page, "shaded")) == reached
    # the numbers are written in the cells once they are big enough to read
    if page.evaluate("window.playground.cellSize()") >= 16:
        assert page.locator("#labels text").count() == reached
    page.screenshot(path=str(tmp_path / "range.png"))
    page.check("#show-zones")
    page.wait_for_selector("#zone-count")
    labels = post(server, "zones", {"session": b["session"], "unit": "foot"})["labels"]
    assert int(data(page, "shaded")) == sum(1 for z in labels if z >= 0)
    page.uncheck("#show-zones")
    page.wait_for_function("document.getElementById('result').textContent.startsWith('Range')")

    tool(page, "fog")
    page.select_option("#team", "0")
    page.wait_for_function("document.getElementById('result').textContent.includes('blue')")
    seen = int(data(page, "visible"))
    assert 0 < seen < 140
    explored = int(data(page, "explored"))
    # walk the blue unit to a land cell in its reach: it leaves explored ground behind it
    page.fill("#move-budget", "40")
    reach = post(server, "range", {"session": b["session"], "start": [ax, ay], "budget": 40, "unit": "foot", "enemies": [[ex, ey]]})
    far = max((c for c in reach["cells"] if [c[0], c[1]] != [ex, ey]), key=lambda c: abs(c[0] - ax) + abs(c[1] - ay))
    click(page, ax, ay)
    click(page, far[0], far[1])
    page.wait_for_function(f"document.getElementById('board').dataset.explored !== '{explored}'")
    assert int(data(page, "explored")) > explored
    page.screenshot(path=str(tmp_path / "fog.png"))

    tool(page, "territory")
    page.fill("#players", "3")
    page.click("#split")
    page.wait_for_selector("#fairness")
    assert "split" in page.inner_text("#fairness")
    assert int(data(page, "shaded")) > 0
    assert int(data(page, "borders")) > 0
    assert page.locator("#result tr").count() == 4
    page.screenshot(path=str(tmp_path / "territory.png"))


# -- the live server, spoken to over a raw socket -----------------------------------------------

def raw(server: str, request: bytes) -> bytes:
    port = int(server.rstrip("/").rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        out = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
    return out


# the live server (a subprocess) warms every kernel at its start: ~80 CPU s of compiles in a cold fast run;
# the same refusals are checked on the app in the fast part (test_serve_api, test_serve_limits)
@pytest.mark.slow
@pytest.mark.parametrize(
    "target",
    [
        b"/static/../api.py",
        b"/static/../../../../etc/passwd",
        b"/static/%2e%2e/api.py",
        b"/static/%2e%2e%2fapi.py",
        b"/static/..%2F..%2Fpyproject.toml",
        b"/static/%252e%252e%252fapi.py",
        b"/static/..\\api.py",
        b"/static/.%2e/.%2e/__init__.py",
        b"/%2e%2e/%2e%2e/pyproject.toml",
    ],
)
def test_live_server_serves_nothing_outside_static(server, target):
    out = raw(server, b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    status = out.split(b"\r\n", 1)[0]
    assert b" 404 " in status or b" 400 " in status, (target, status)
    assert b"import" not in out and b"root:" not in out and b"[project]" not in out


@pytest.mark.slow  # the live server: see above
def test_live_server_limits(server):
    out = raw(server, b"GET / HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n")
    assert b" 400 " in out.split(b"\r\n", 1)[0]
    big = b"POST /api/board HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\nConnection: close\r\n\r\n{}"
    out = raw(server, big)
    assert b" 413 " in out.split(b"\r\n", 1)[0]
    try:
        post(server, "board", {"kind": "hex-flat", "width": 100000, "height": 100000})
    except urllib.error.HTTPError as exc:
        assert exc.code == 400
        assert "at most" in json.loads(exc.read())["error"] or "256" in exc.reason + "256"
    else:  # pragma: no cover
        raise AssertionError("a 100000 x 100000 board was not refused")


def test_open_a_map_file(page, tmp_path):
    arena = Path(__file__).resolve().parents[1] / "data" / "movingai" / "arena.map"
    page.refusals_expected = True
    old = session(page)
    page.set_input_files("#upload", str(arena))
    page.wait_for_function(f"document.getElementById('board').dataset.session !== {json.dumps(old)}")
    assert data(page, "drawn") == str(49 * 49)
    assert "arena.map" in page.inner_text("#status")
    assert page.input_value("#kind") == "square-8"
    page.screenshot(path=str(tmp_path / "arena.png"))
    # a file the readers refuse gives one clear line, and the board stays
    bad = tmp_path / "broken.map"
    bad.write_text("type octile\nheight 2\nwidth 2\nmap\n..\n")
    page.set_input_files("#upload", str(bad))
    page.wait_for_function("document.getElementById('status').className === 'error'")
    assert "broken.map" in page.inner_text("#status")
    assert data(page, "drawn") == str(49 * 49)


def test_drag_paints_a_line_of_cells(page, server):
    b = new_board(page, "staggered", 10, 6, 5)
    tool(page, "paint")
    page.select_option("#paint-terrain", "mountains")
    centre = [at(page, x, 2) for x in (1, 2, 3, 4)]
    page.mouse.move(*centre[0])
    page.mouse.down()
    for c in centre[1:]:
        page.mouse.move(*c, steps=4)
    page.mouse.up()
    page.wait_for_function("document.getElementById('status').textContent.startsWith('painted')")
    mountains = [t["name"] for t in b["terrains"]].index("mountains")
    after = post(server, "board/get", {"session": b["session"]})
    assert all(after["terrain"][2 * 10 + x] == mountains for x in (1, 2, 3, 4))
    assert all(after["overlay"][2 * 10 + x] == -1 for x in (1, 2, 3, 4))
    assert all(page.evaluate(f"window.playground.ground({x}, 2)") == [mountains, -1] for x in (1, 2, 3, 4))


def test_paint_mode_keeps_the_path_and_zones_up_to_date(page, server):
    b = new_board(page, "square-4", 12, 8, 21)
    start, goal, expect = show_path(page, server, b, "foot")
    tool(page, "paint")
    page.check("#show-zones")
    page.wait_for_selector("#zone-count")
    zones = int(page.inner_text("#zone-count"))
    # water all round the goal, which foot cannot cross: the goal is cut off, and is a zone of its own
    page.select_option("#paint-terrain", "water")
    ring = [n for n in ((goal[0] + 1, goal[1]), (goal[0] - 1, goal[1]), (goal[0], goal[1] + 1), (goal[0], goal[1] - 1))
            if 0 <= n[0] < 12 and 0 <= n[1] < 8]
    for c in ring:
        click(page, *c)
    page.wait_for_function("document.getElementById('status').textContent.startsWith('painted')")
    wait_result(page, "No path")
    assert page.get_attribute("#path", "points") == ""
    assert int(page.inner_text("#zone-count")) > zones
