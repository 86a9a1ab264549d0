"""Issue 34's features in the browser: coordinates on hover, the search comparison, heat maps, the guide."""

from __future__ import annotations

import pytest
from conftest import open_page
from pagekit import at, click, data, hover, new_board, post, reachable_pair, show_path, tool

from wargrid import Hex
from wargrid.grids.hexes import offset_to_hex


def test_hover_shows_every_coordinate_system_and_the_neighbours(page, server):
    new_board(page, "hex-flat", 12, 10, 1)
    hover(page, 5, 4)
    page.wait_for_function("document.getElementById('coords').textContent.includes('axial')")
    h = offset_to_hex(5, 4, "odd-q")
    text = page.inner_text("#coords")
    assert f"odd-q (5, 4)" in text and f"axial ({h.q}, {h.r})" in text and f"cube ({h.q}, {h.r}, {h.s})" in text
    assert page.locator("#nbrs polygon").count() == 6
    new_board(page, "square-8", 12, 10, 1)
    hover(page, 5, 4)
    page.wait_for_function("document.querySelectorAll('#nbrs polygon').length === 8")


@pytest.mark.parametrize("kind", ["square-8", "hex-flat"])
def test_search_comparison_runs_the_four_searches(page, server, kind):
    b = new_board(page, kind, 24, 16, 1)
    start, goal, expect = show_path(page, server, b, "foot")
    closed = {}
    for alg in ("bfs", "dijkstra", "greedy", "astar"):
        page.select_option("#search-algorithm", alg)
        page.click("#explain-pause")  # a new choice runs anew
        page.evaluate("window.playground.resetSearch()")
        page.click("#explain-play")
        page.wait_for_function("document.getElementById('explain-info').textContent.includes('goal reached')")
        closed[alg] = int(data(page, "explainStep"))
        e = post(server, "explain", {"session": b["session"], "start": start, "goal": goal, "unit": "foot", "algorithm": alg})
        assert closed[alg] == len(e["order"])
    assert closed["astar"] <= closed["dijkstra"] and closed["greedy"] <= closed["dijkstra"]
    # g, h and f of a searched cell are readable on hover
    e = post(server, "explain", {"session": b["session"], "start": start, "goal": goal, "unit": "foot"})
    w = b["width"]
    c = e["order"][len(e["order"]) // 2]
    hover(page, c % w, c // w)
    page.wait_for_function("document.getElementById('hover').textContent.includes('searched: g')")
    assert ", f " in page.inner_text("#hover")
    # without the early exit the search closes every reachable cell
    page.uncheck("#search-early")
    page.evaluate("window.playground.resetSearch()")
    page.click("#explain-play")
    page.wait_for_function("document.getElementById('explain-info').textContent.includes('every reachable cell')")


def test_dragging_the_goal_reruns_the_search_and_draws_its_frontier(page, server):
    b = new_board(page, "square-4", 24, 16, 1)
    start, goal, expect = show_path(page, server, b, "foot")
    page.click("#explain-step")
    page.wait_for_function("document.getElementById('board').dataset.explainStep === '1'")
    cells = expect["cells"]
    target = cells[-3]
    page.mouse.move(*at(page, *goal))
    page.mouse.down()
    page.mouse.move(*at(page, *target), steps=4)
    page.mouse.up()
    page.wait_for_function("document.getElementById('board').dataset.frontierMs !== undefined")
    e = post(server, "explain", {"session": b["session"], "start": start, "goal": target, "unit": "foot"})
    page.wait_for_function(f"document.getElementById('board').dataset.explainStep === '{len(e['order'])}'")


def test_guide_page_draws_each_idea_as_the_library_computes_it(browser, server):
    pg = open_page(browser, server.rstrip("/") + "/guide")
    try:
        topics = pg.eval_on_selector_all("section[data-topic]", "s => s.map(e => e.dataset.topic)")
        for t in ("coordinates", "neighbors", "distances", "lines", "rings", "rotation", "range", "astar", "fov",
                  "partition", "leptons", "ladder"):
            assert t in topics
            assert pg.locator(f"#{t} svg").count() == 1 and pg.locator(f"#{t} pre").count() == 1
        # the line to a hovered hex is wargrid's Hex.line_to, ties included ((3, 1) passes between hexes)
        for q, r in ((3, -2), (3, 1)):
            pg.locator(f'#lines polygon[data-hex="{q},{r}"]').scroll_into_view_if_needed()
            box = pg.locator(f'#lines polygon[data-hex="{q},{r}"]').bounding_box()
            pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            pg.wait_for_function(f"(document.querySelector('#lines .readout').dataset.line || '').endsWith(' {q},{r}')")
            got = pg.get_attribute("#lines .readout", "data-line").split()
            assert got == [f"{h.q},{h.r}" for h in Hex(0, 0).line_to(Hex(q, r))]
        # the ring is Hex.ring, the range Hex.range
        ring = set(pg.eval_on_selector_all("#rings polygon.on", "s => s.map(e => e.dataset.hex)"))
        assert ring == {f"{h.q},{h.r}" for h in Hex(0, 0).ring(2)}
        rng = set(pg.eval_on_selector_all("#range polygon.on", "s => s.map(e => e.dataset.hex)"))
        assert rng == {f"{h.q},{h.r}" for h in Hex(0, 0).range(2)}
        # coordinates on hover
        pg.locator('#coordinates polygon[data-hex="2,-1"]').scroll_into_view_if_needed()
        box = pg.locator('#coordinates polygon[data-hex="2,-1"]').bounding_box()
        pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        pg.wait_for_function("document.querySelector('#coordinates .readout').dataset.axial === '2,-1'")
        assert "offset odd-q (2, 0)" in pg.inner_text("#coordinates .readout")
        assert Hex(2, -1).to_offset("odd-q") == (2, 0)
    finally:
        pg.close()
