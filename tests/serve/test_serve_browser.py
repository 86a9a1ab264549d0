"""The playground in a real headless Chromium (Debian's), driven by Playwright, against a live server.

The server runs in a subprocess on a free loopback port; the browser gets a
fresh profile in a temporary folder. A screenshot of each scene is saved in
the test's temporary folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("WARGRID_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER = "import sys; from wargrid.serve import serve; serve(host='127.0.0.1', port=0)"


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, f"the server did not print its address: {line!r} {proc.stderr.read() if proc.poll() is not None else ''}"
        yield m.group(0)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            viewport={"width": 1200, "height": 800},
            bypass_csp=True,  # lets the test evaluate its wait conditions; the page itself needs no eval
        )
        try:
            yield ctx
        finally:
            ctx.close()


@pytest.fixture
def page(browser, server):
    pg = browser.new_page()
    # a kernel's first use compiles it (tens of seconds on a cold cache): wait for that, not a fixed time
    pg.set_default_timeout(240_000)
    errors: list[str] = []
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(server)
    pg.wait_for_selector("body[data-ready='1']", timeout=60_000)
    pg.errors = errors
    yield pg
    pg.close()


def post(server: str, name: str, payload: dict) -> dict:
    req = urllib.request.Request(
        f"{server}api/{name}", data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def new_board(pg, kind: str, width: int, height: int, seed: int) -> dict:
    pg.select_option("#kind", kind)
    pg.fill("#width", str(width))
    pg.fill("#height", str(height))
    pg.fill("#seed", str(seed))
    old = pg.get_attribute("#board", "data-session")
    pg.click("#new-board")
    pg.wait_for_function(f"document.getElementById('board').dataset.session !== {json.dumps(old)}")
    return post(pg.url, "board/get", {"session": pg.get_attribute("#board", "data-session")})


def tool(pg, name: str) -> None:
    pg.check(f"input[name=tool][value={name}]")


def cell(board: dict, x: int, y: int) -> str:
    return f"#cells polygon[data-id='{y * board['width'] + x}']"


def reachable_pair(server: str, board: dict, unit: str) -> tuple[list[int], list[int], dict]:
    """The first and last cell (by id) of the largest connectivity zone of ``unit``, and the path between them."""
    w = board["width"]
    labels = post(server, "zones", {"session": board["session"], "unit": unit})["labels"]
    best = max(set(labels) - {-1}, key=labels.count)
    ids = [i for i, z in enumerate(labels) if z == best]
    start, goal = [ids[0] % w, ids[0] // w], [ids[-1] % w, ids[-1] // w]
    r = post(server, "path", {"session": board["session"], "start": start, "goal": goal, "unit": unit})
    assert r["cells"] and len(r["cells"]) >= 5, r
    return start, goal, r


def show_path(page, server: str, board: dict, unit: str) -> tuple[list[int], list[int], dict]:
    """Click a reachable start and goal with the path tool; returns them and the API's path."""
    start, goal, expect = reachable_pair(server, board, unit)
    tool(page, "path")
    page.select_option("#unit", unit)
    page.click(cell(board, *start))
    page.click(cell(board, *goal))
    page.wait_for_function("document.getElementById('path').getAttribute('points').length > 0")
    return start, goal, expect


def test_chromium_is_debians():
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: .ci/run installs Debian's chromium"


def test_page_draws_every_board_kind(page, tmp_path):
    for kind, corners in (("square-4", 4), ("square-8", 4), ("hex-flat", 6), ("hex-pointy", 6), ("staggered", 4)):
        b = new_board(page, kind, 9, 7, 4)
        assert page.locator("#cells polygon").count() == 63
        pts = page.get_attribute(cell(b, 3, 2), "points").split()
        assert len(pts) == corners
        # the polygon is the grid's geometry: centre plus corner offsets
        cx, cy = b["centers"][2 * (2 * 9 + 3)], b["centers"][2 * (2 * 9 + 3) + 1]
        xs = [float(p.split(",")[0]) for p in pts]
        ys = [float(p.split(",")[1]) for p in pts]
        assert abs(sum(xs) / len(xs) - cx) < 1e-3 and abs(sum(ys) / len(ys) - cy) < 1e-3
        colours = {t["id"]: t["color"] for t in b["terrains"]}
        o = b["overlay"][2 * 9 + 3]
        assert page.get_attribute(cell(b, 3, 2), "fill") == colours[o if o >= 0 else b["terrain"][2 * 9 + 3]]
        page.screenshot(path=str(tmp_path / f"board-{kind}.png"))
    assert page.errors == []


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
    shot = tmp_path / "path.png"
    assert shot.stat().st_size > 10_000

    # changing the unit class asks again for that class
    page.select_option("#unit", "cavalry")
    cav = post(server, "path", {"session": b["session"], "start": start, "goal": goal, "unit": "cavalry"})
    if cav["cells"]:
        page.wait_for_function(f"document.getElementById('result').textContent.includes('cavalry')")
        assert float(page.inner_text("#path-cost")) == pytest.approx(cav["cost"])

    # painting water on the path's middle makes the path go round it (or fail)
    page.select_option("#unit", "foot")
    page.wait_for_function(f"document.getElementById('result').textContent.includes('foot')")
    mid = expect["cells"][len(expect["cells"]) // 2]
    tool(page, "paint")
    page.select_option("#paint-terrain", "water")
    page.click(cell(b, *mid))
    page.wait_for_function("document.getElementById('status').textContent.startsWith('painted')")
    after = post(server, "path", {"session": b["session"], "start": start, "goal": goal, "unit": "foot"})
    assert after["cells"] is None or mid not in after["cells"]
    water = [t["name"] for t in b["terrains"]].index("water")
    assert post(server, "board/get", {"session": b["session"]})["terrain"][mid[1] * 16 + mid[0]] == water
    tool(page, "path")
    if after["cells"]:
        page.wait_for_function(f"document.getElementById('path').getAttribute('points').split(' ').length === {len(after['cells'])}")
    else:
        page.wait_for_function("document.getElementById('result').textContent.includes('unreachable')")
    assert page.errors == []


def test_moving_the_mouse_moves_the_view(page, tmp_path):
    b = new_board(page, "square-8", 20, 14, 3)
    tool(page, "sight")
    page.fill("#radius", "5")
    page.hover(cell(b, 4, 4))
    page.wait_for_function("document.getElementById('board').dataset.sight === '4,4'")
    # everything out of sight is dimmed: the cells in sight are the holes of the dimming mask
    first = page.eval_on_selector_all("#holes0 polygon", "ps => ps.map(p => p.dataset.id).join()")
    assert str(4 * 20 + 4) in first.split(",")
    assert len(first.split(",")) == int(page.get_attribute("#board", "data-visible"))
    assert page.eval_on_selector("#dim0", "r => getComputedStyle(r).display") != "none"
    page.screenshot(path=str(tmp_path / "sight-1.png"))
    page.hover(cell(b, 15, 9))
    page.wait_for_function("document.getElementById('board').dataset.sight === '15,9'")
    second = page.eval_on_selector_all("#holes0 polygon", "ps => ps.map(p => p.dataset.id).join()")
    assert second != first
    assert str(9 * 20 + 15) in second.split(",")
    page.screenshot(path=str(tmp_path / "sight-2.png"))
    # on a square board the visibility polygon follows the mouse inside its tile
    if int(page.get_attribute("#board", "data-polygon")) > 0:
        box = page.locator(cell(b, 15, 9)).bounding_box()
        page.mouse.move(box["x"] + box["width"] * 0.1, box["y"] + box["height"] * 0.1)
        page.wait_for_function("document.getElementById('result').textContent.includes('polygon')")
        page.wait_for_timeout(300)
        one = page.get_attribute("#vispoly", "points")
        page.mouse.move(box["x"] + box["width"] * 0.9, box["y"] + box["height"] * 0.9)
        page.wait_for_function(f"document.getElementById('vispoly').getAttribute('points') !== {json.dumps(one)}")
        assert page.get_attribute("#board", "data-sight") == "15,9"
    assert page.errors == []


def test_range_units_fog_and_territory(page, server, tmp_path):
    b = new_board(page, "hex-pointy", 14, 10, 11)
    land = [i for i, t in enumerate(b["terrain"]) if b["terrains"][t]["name"] in ("plains", "hills", "forest", "coast")]
    a, e = land[len(land) // 3], land[len(land) // 3 + 1]
    ax, ay, ex, ey = a % 14, a // 14, e % 14, e // 14

    tool(page, "units")
    page.select_option("#team", "0")
    page.click(cell(b, ax, ay))
    page.select_option("#team", "1")
    page.click(cell(b, ex, ey))
    assert page.locator("#units circle").count() == 2

    tool(page, "range")
    page.fill("#budget", "6")
    page.click(cell(b, ax, ay))
    page.wait_for_function("document.getElementById('result').textContent.startsWith('Range')")
    reached = int(page.get_attribute("#board", "data-reached"))
    assert reached > 1
    assert page.locator("#shade text").count() == reached
    assert page.locator("#holes0 polygon").count() == reached
    page.screenshot(path=str(tmp_path / "range.png"))
    page.check("#show-zones")
    page.wait_for_selector("#zone-count")
    labels = post(server, "zones", {"session": b["session"], "unit": "foot"})["labels"]
    assert page.locator("#shade polygon").count() == sum(1 for z in labels if z >= 0)
    page.uncheck("#show-zones")
    page.wait_for_function("document.getElementById('result').textContent.startsWith('Range')")

    tool(page, "fog")
    page.select_option("#team", "0")
    page.wait_for_function("document.getElementById('result').textContent.includes('blue')")
    seen = page.locator("#holes0 polygon").count()
    assert 0 < seen < 140
    assert seen == int(page.get_attribute("#board", "data-visible"))
    explored = int(page.get_attribute("#board", "data-explored"))
    # walk the blue unit to the far side: it leaves explored ground behind it
    far = max(land, key=lambda i: abs(i % 14 - ax) + abs(i // 14 - ay))
    page.click(cell(b, ax, ay))
    page.click(cell(b, far % 14, far // 14))
    page.wait_for_function(f"document.getElementById('board').dataset.explored !== '{explored}'")
    assert int(page.get_attribute("#board", "data-explored")) > explored
    assert page.locator("#holes1 polygon").count() == int(page.get_attribute("#board", "data-explored"))
    page.screenshot(path=str(tmp_path / "fog.png"))

    tool(page, "territory")
    page.fill("#players", "3")
    page.click("#split")
    page.wait_for_selector("#fairness")
    assert "split" in page.inner_text("#fairness")
    owned = page.locator("#shade polygon").count()
    assert owned > 0
    assert page.locator("#result tr").count() == 4
    page.screenshot(path=str(tmp_path / "territory.png"))
    assert page.errors == []


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
    old = page.get_attribute("#board", "data-session")
    page.set_input_files("#upload", str(arena))
    page.wait_for_function(f"document.getElementById('board').dataset.session !== {json.dumps(old)}")
    assert page.locator("#cells polygon").count() == 49 * 49
    assert "arena.map" in page.inner_text("#status")
    assert page.input_value("#kind") == "square-8"
    page.screenshot(path=str(tmp_path / "arena.png"))
    # a file the readers refuse gives one clear line, and the board stays
    bad = tmp_path / "broken.map"
    bad.write_text("type octile\nheight 2\nwidth 2\nmap\n..\n")
    page.set_input_files("#upload", str(bad))
    page.wait_for_function("document.getElementById('status').className === 'error'")
    assert "broken.map" in page.inner_text("#status")
    assert page.locator("#cells polygon").count() == 49 * 49
    assert [e for e in page.errors if "400" not in e] == []


def test_drag_paints_a_line_of_cells(page, server):
    b = new_board(page, "staggered", 10, 6, 5)
    tool(page, "paint")
    page.select_option("#paint-terrain", "mountains")
    boxes = [page.locator(cell(b, x, 2)).bounding_box() for x in (1, 2, 3, 4)]
    centre = [(bx["x"] + bx["width"] / 2, bx["y"] + bx["height"] / 2) for bx in boxes]
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
    colour = b["terrains"][mountains]["color"]
    assert all(page.get_attribute(cell(b, x, 2), "fill") == colour for x in (1, 2, 3, 4))
    assert page.errors == []


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
        page.click(cell(b, *c))
    page.wait_for_function("document.getElementById('status').textContent.startsWith('painted')")
    page.wait_for_function("document.getElementById('result').textContent.includes('unreachable')")
    assert page.get_attribute("#path", "points") == ""
    assert int(page.inner_text("#zone-count")) > zones
    assert page.errors == []
