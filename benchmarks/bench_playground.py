"""The playground's big boards: time from the "new board" click to the whole board drawn, in headless Chromium.

Starts ``wargrid serve`` on a free loopback port, opens the page in
Debian's chromium through Playwright, and for each board kind and size
makes boards from the form (a fresh seed each time) and waits until every
cell is drawn. Prints the median and worst wall time from the click, the
page's own canvas draw and decode/layout times (what the page reports in
``data-draw-ms`` / ``data-load-ms``), and, timed apart over HTTP, how long
the server takes to generate and send the same board (binary layers) and
how big that answer is against the plain JSON lists.

No peer draws wargrid boards, so there is no ratio: the reference is the
issue's target, a 256 x 256 hex board on screen in at most 1.5 s.

    python benchmarks/bench_playground.py                     # 128 and 256, hex-flat and square-8, 3 boards each
    python benchmarks/bench_playground.py --sizes 256 --kinds hex-flat --repeats 5
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="128,256", help="board sides, comma-separated (default 128,256)")
    ap.add_argument("--kinds", default="hex-flat,square-8", help="board kinds of the form (default hex-flat,square-8)")
    ap.add_argument("--repeats", type=int, default=3, help="boards a kind and size (default 3)")
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
                for size in (int(s) for s in args.sizes.split(",")):
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
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
