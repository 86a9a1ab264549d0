"""The playground's big boards: time from the "new board" click to the whole board drawn, in headless Chromium.

Starts ``wargrid serve`` on a free loopback port, opens the page in
Debian's chromium through Playwright, and for each board kind and size
makes boards from the form (a fresh seed each time) and waits until every
cell is drawn. Prints the median and worst wall time from the click, the
page's own canvas draw and decode/layout times (what the page reports in
``data-draw-ms`` / ``data-load-ms``), and, timed apart over HTTP, how long
the server takes to generate and send the same board (binary layers) and
how big that answer is against the plain JSON lists.

Then, on a 256 x 256 board of each kind, the two interactive times:

- *hover to drawn*, Sight with radius 64 on the hex board: from the pointer
  moving onto a new cell to the field of view and its polygon drawn (the
  page's ``board-drawn`` after the answer), over ``--hovers`` cells;
- *drag to frontier*, Path with the search shown: from the pointer dragging
  the goal onto a new cell to the search's first frame (the frontier) drawn,
  over ``--drags`` cells.

No peer draws wargrid boards, so there is no ratio: the references are the
targets: a 256 x 256 hex board on screen in at most 1.5 s, a sight hover in at
most 150 ms, the first frame of a dragged search in at most 100 ms.

    python benchmarks/bench_playground.py                     # 128 and 256, hex-flat and square-8, 3 boards each
    python benchmarks/bench_playground.py --sizes 256 --kinds hex-flat --repeats 5
    python benchmarks/bench_playground.py --sizes 0 --hovers 20 --drags 20   # only the interactive times
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request

CHROMIUM = os.environ.get("WARGRID_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SERVER = "from wargrid.serve import serve; serve(host='127.0.0.1', port=0)"


def post(url: str, name: str, payload: dict) -> tuple[dict, int, float]:
    """The answer, its size in bytes and the seconds it took."""
    req = urllib.request.Request(f"{url}api/{name}", data=json.dumps(payload).encode(),
                                 headers={"Content-Type": "application/json"})
    t = time.perf_counter()
    with urllib.request.urlopen(req, timeout=300) as r:
        body = r.read()
    return json.loads(body), len(body), time.perf_counter() - t


def _new_board(page, kind: str, size: int, seed: int) -> str:
    page.select_option("#kind", kind)
    page.fill("#width", str(size))
    page.fill("#height", str(size))
    page.fill("#seed", str(seed))
    page.evaluate("() => { document.getElementById('board').dataset.drawn = '0'; }")
    page.click("#new-board")
    page.wait_for_function(f"Number(document.getElementById('board').dataset.drawn) === {size * size}")
    return page.get_attribute("#board", "data-session")


def _arm(page, event: str) -> None:
    """Record the time of the next ``event`` the page dispatches after a drawn frame."""
    page.evaluate(f"""() => {{ window.__done = null; document.addEventListener('{event}', () => {{
        requestAnimationFrame(() => {{ window.__done = performance.now(); }}); }}, {{ once: true }}); }}""")


def _at(page, x: int, y: int) -> tuple[float, float]:
    return tuple(page.evaluate(f"window.playground.screenOf({x}, {y})"))


def interactive(page, url: str, args: argparse.Namespace) -> None:
    """Hover to drawn (sight r64, 256 hex) and drag to frontier (256 boards), in milliseconds."""
    size = 256
    # sight: hover to drawn
    _new_board(page, "hex-flat", size, 1)
    page.check("input[name=tool][value=sight]")
    page.fill("#radius", "64")
    page.dispatch_event("#radius", "change")
    page.evaluate("window.playground.zoomTo(4)")
    page.mouse.move(*_at(page, 128, 128))
    page.wait_for_function("document.getElementById('board').dataset.sight === '128,128'")
    page.wait_for_function("!document.getElementById('status').classList.contains('busy')")
    hovers, draws, answers = [], [], []
    session = page.get_attribute("#board", "data-session")
    for i in range(args.hovers):
        x, y = 128 + (i % 4) - 2, 128 + (i // 4) % 4 - 2
        if (x, y) == (128, 128):
            x += 3
        _arm(page, "sight-drawn")
        t0 = page.evaluate("performance.now()")
        page.mouse.move(*_at(page, x, y))
        page.wait_for_function("window.__done !== null")
        hovers.append(page.evaluate("window.__done") - t0)
        draws.append(float(page.get_attribute("#board", "data-draw-ms")))
        page.wait_for_function("!document.getElementById('status').classList.contains('busy')")
        _, kb, sec = post(url, "fov", {"session": session, "origin": [x, y], "radius": 64})
        answers.append((sec * 1000, kb / 1024))
    print(f"\nsight r64 on 256x256 hex, hover to drawn: median {statistics.median(hovers):.0f} ms, "
          f"worst {max(hovers):.0f} ms over {len(hovers)} cells (target <= 150 ms)")
    print(f"  where it goes (medians): the answer over HTTP {statistics.median(a for a, _ in answers):.0f} ms "
          f"({statistics.median(k for _, k in answers):.0f} KB), the page's drawing {statistics.median(draws):.0f} ms, "
          "the rest: the pointer event, reading the answer and the browser's frame")
    # path: drag the goal with the search shown, to its frontier drawn
    for kind in ("hex-flat", "square-8"):
        session = _new_board(page, kind, size, 2)
        zones = post(url, "zones", {"session": session, "unit": "foot"})[0]["labels"]
        big = max(set(zones) - {-1}, key=zones.count)
        # a start and a goal 30 cells apart in the largest zone, near the middle
        mid = [i for i, z in enumerate(zones) if z == big and abs(i % size - 128) < 40 and abs(i // size - 128) < 40]
        start, goal = mid[0], mid[-1]
        page.check("input[name=tool][value=path]")
        page.evaluate("window.playground.zoomTo(4)")
        page.mouse.click(*_at(page, start % size, start // size))
        page.mouse.click(*_at(page, goal % size, goal // size))
        page.wait_for_function("document.getElementById('path').getAttribute('points').length > 0")
        page.click("#explain-step")
        page.wait_for_function("document.getElementById('board').dataset.explainStep === '1'")
        gx, gy = goal % size, goal // size
        page.mouse.move(*_at(page, gx, gy))
        page.mouse.down()
        drags, draws, answers = [], [], []
        for i in range(args.drags):
            nx, ny = gx - 1 - i % 3, gy - i // 3 % 3
            if zones[ny * size + nx] != big:
                continue
            _arm(page, "frontier-drawn")
            t0 = page.evaluate("performance.now()")
            page.mouse.move(*_at(page, nx, ny))
            page.wait_for_function("window.__done !== null")
            drags.append(page.evaluate("window.__done") - t0)
            draws.append(float(page.get_attribute("#board", "data-draw-ms")))
        page.mouse.up()
        for i in range(min(args.drags, 6)):
            nx, ny = gx - 1 - i % 3, gy - i // 3 % 3
            _, kb, sec = post(url, "explain", {"session": session, "start": [start % size, start // size], "goal": [nx, ny],
                                              "unit": "foot", "arrays": "binary"})
            answers.append((sec * 1000, kb / 1024))
        print(f"drag to frontier on 256x256 {kind}: median {statistics.median(drags):.0f} ms, "
              f"worst {max(drags):.0f} ms over {len(drags)} drags (target <= 100 ms, first frame)")
        print(f"  where it goes (medians): the search over HTTP {statistics.median(a for a, _ in answers):.0f} ms "
              f"({statistics.median(k for _, k in answers):.0f} KB), the page's drawing {statistics.median(draws):.0f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="128,256", help="board sides, comma-separated (default 128,256)")
    ap.add_argument("--kinds", default="hex-flat,square-8", help="board kinds of the form (default hex-flat,square-8)")
    ap.add_argument("--repeats", type=int, default=3, help="boards a kind and size (default 3)")
    ap.add_argument("--hovers", type=int, default=12, help="sight hovers timed on the 256 hex board (default 12)")
    ap.add_argument("--drags", type=int, default=12, help="goal drags timed on the 256 boards (default 12)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    proc = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+/", proc.stdout.readline()).group(0)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
            # bypass_csp: the page allows no eval, and Playwright's wait conditions are evaluated strings
            page = browser.new_context(viewport={"width": 1200, "height": 800}, bypass_csp=True).new_page()
            page.set_default_timeout(300_000)
            page.goto(url)
            page.wait_for_selector("body[data-ready='1']")
            print(f"{'kind':<10} {'size':>5} {'click→drawn ms (median / worst)':>32} {'draw ms':>8} {'decode ms':>10} "
                  f"{'server ms':>10} {'binary KB':>10} {'JSON KB':>8}")
            seed = 1
            for kind in args.kinds.split(","):
                for size in (int(s) for s in args.sizes.split(",") if int(s) > 0):
                    walls, draws, loads = [], [], []
                    for _ in range(args.repeats):
                        page.select_option("#kind", kind)
                        page.fill("#width", str(size))
                        page.fill("#height", str(size))
                        page.fill("#seed", str(seed))
                        seed += 1
                        page.evaluate("() => { document.getElementById('board').dataset.drawn = '0'; }")  # not the last board's
                        t = time.perf_counter()
                        page.click("#new-board")
                        page.wait_for_function(f"Number(document.getElementById('board').dataset.drawn) === {size * size}")
                        walls.append((time.perf_counter() - t) * 1000)
                        draws.append(float(page.get_attribute("#board", "data-draw-ms")))
                        loads.append(float(page.get_attribute("#board", "data-load-ms")))
                    board = {"kind": kind, "width": size, "height": size, "seed": seed}
                    _, binary, server_s = post(url, "board", {**board, "layers": "binary"})
                    _, plain, _ = post(url, "board", board)
                    print(f"{kind:<10} {size:>5} {statistics.median(walls):>20.0f} / {max(walls):>9.0f} "
                          f"{statistics.median(draws):>8.0f} {statistics.median(loads):>10.0f} {server_s * 1000:>10.0f} "
                          f"{binary / 1024:>10.0f} {plain / 1024:>8.0f}")
            interactive(page, url, args)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
