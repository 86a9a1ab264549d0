"""Helpers the playground's browser tests share: the API over HTTP, boards, tools and cells on screen."""

from __future__ import annotations

import json
import urllib.request


def post(server: str, name: str, payload: dict) -> dict:
    """The API's JSON answer to ``payload`` (raises ``urllib.error.HTTPError`` on a refusal)."""
    base = server.split("?")[0]
    req = urllib.request.Request(
        f"{base.rstrip('/')}/api/{name}", data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def session(pg) -> str:
    return pg.get_attribute("#board", "data-session")


def new_board(pg, kind: str, width: int, height: int, seed: int) -> dict:
    """Make a board with the form; returns its description (layers as lists) from the API."""
    pg.select_option("#kind", kind)
    pg.fill("#width", str(width))
    pg.fill("#height", str(height))
    pg.fill("#seed", str(seed))
    old = session(pg)
    pg.click("#new-board")
    pg.wait_for_function(f"document.getElementById('board').dataset.session !== {json.dumps(old)}")
    return post(pg.url, "board/get", {"session": session(pg)})


def tool(pg, name: str) -> None:
    pg.check(f"input[name=tool][value={name}]")


def at(pg, x: int, y: int) -> tuple[float, float]:
    """Where cell ``(x, y)``'s centre is on screen."""
    sx, sy = pg.evaluate(f"window.playground.screenOf({x}, {y})")
    return sx, sy


def click(pg, x: int, y: int) -> None:
    pg.mouse.click(*at(pg, x, y))


def hover(pg, x: int, y: int) -> None:
    pg.mouse.move(*at(pg, x, y))


def status(pg) -> str:
    return pg.inner_text("#status")


def wait_result(pg, text: str) -> None:
    pg.wait_for_function(f"document.getElementById('result').textContent.includes({json.dumps(text)})")


def data(pg, key: str) -> str | None:
    return pg.evaluate(f"document.getElementById('board').dataset[{json.dumps(key)}] ?? null")


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


def show_path(pg, server: str, board: dict, unit: str) -> tuple[list[int], list[int], dict]:
    """Click a reachable start and goal with the path tool; returns them and the API's path."""
    start, goal, expect = reachable_pair(server, board, unit)
    tool(pg, "path")
    pg.select_option("#unit", unit)
    click(pg, *start)
    click(pg, *goal)
    pg.wait_for_function("document.getElementById('path').getAttribute('points').length > 0")
    return start, goal, expect


def terrain_names(board: dict) -> list[str]:
    return [t["name"] for t in board["terrains"]]


def cells_of(board: dict, names: set[str]) -> list[tuple[int, int]]:
    """Cells whose ground is one of ``names`` and that carry no overlay."""
    w = board["width"]
    tn = terrain_names(board)
    return [(i % w, i // w) for i, t in enumerate(board["terrain"]) if tn[t] in names and board["overlay"][i] < 0]
