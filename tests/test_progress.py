"""``progress=``: callbacks get increasing counts that end at the total; nothing is drawn off a terminal."""

from __future__ import annotations

import io
import sys

import pytest

import wargrid
from wargrid import Map, SquareGrid
from wargrid._progress import say, ticker


class Seen:
    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def __call__(self, done: int, total: int) -> None:
        self.calls.append((done, total))

    def check(self, total: int) -> None:
        done = [d for d, _ in self.calls]
        assert {t for _, t in self.calls} == {total}
        assert done[0] == 0 and done[-1] == total
        assert all(a < b for a, b in zip(done, done[1:])), done


def test_generate_reports_its_roads() -> None:
    seen = Seen()
    b = wargrid.generate_board(40, 30, seed=3, towns=5, progress=seen)
    seen.check(3 + 4)  # land, rivers, towns, then one step a road
    assert len(seen.calls) >= 5
    assert b.map == wargrid.generate(40, 30, seed=3, towns=5, progress=False)


def test_paths_count_every_path_on_threads_too() -> None:
    m = Map(SquareGrid(30, 20))
    pairs = [((0, 0), (x, 19)) for x in range(30)]
    for workers in (1, 2):
        seen = Seen()
        got = m.paths(pairs, unit="foot", workers=workers, progress=seen)
        seen.check(len(pairs))
        assert [p.cost for p in got] == [p.cost for p in m.paths(pairs, unit="foot", progress=False)]


def test_distance_table_reports_rows_and_matches_one_call() -> None:
    m = Map(SquareGrid(20, 10))
    m.set_terrain([(5, y) for y in range(9)], "water")
    sources = [(x % 20, x // 20) for x in range(0, 200, 5)]
    targets = [(19, 9), (0, 9), (6, 0)]
    seen = Seen()
    table = m.distance_table(sources, targets, unit="foot", progress=seen)
    seen.check(len(sources))
    assert len(seen.calls) > 2  # the rows went in parts
    for i, s in enumerate(sources):
        assert table[i].tolist() == [m.distance(s, t, unit="foot") for t in targets]


def test_distance_table_names_the_bad_row_of_the_whole_list() -> None:
    m = Map(SquareGrid(20, 10))
    with pytest.raises(IndexError, match=r"sources\[20\]"):
        m.distance_table([(0, 0)] * 20 + [(20, 0)], [(1, 1)])


def test_partition_reports_its_stages() -> None:
    seen = Seen()
    p = Map(SquareGrid(12, 8)).partition(3, progress=seen)
    seen.check(3)
    assert p.report.cells.tolist() == [32, 32, 32]


def test_a_bad_progress_is_refused() -> None:
    with pytest.raises(wargrid.ArgumentTypeError, match="progress must be True, False, None or a callable"):
        Map(SquareGrid(4, 4)).paths([((0, 0), (3, 3))], progress="yes")


def test_nothing_is_drawn_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("WARGRID_QUIET", raising=False)
    monkeypatch.setattr("wargrid._progress.BAR_DELAY", 0.0)
    wargrid.generate(40, 30, seed=1, progress=True)
    Map(SquareGrid(10, 10)).paths([((0, 0), (9, 9))] * 5, progress=True)
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_bar_and_lines_above_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WARGRID_QUIET", raising=False)
    monkeypatch.setattr("wargrid._progress.BAR_DELAY", 0.0)
    err = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", err)
    tick = ticker(True, 4, "work", unit="cell")
    tick(2)
    say("a notice")
    tick(4)  # the bar closes itself at the total
    text = err.getvalue()
    assert "work" in text and "2/4" in text
    before, notice, after = text.partition("\ra notice\n")  # the bar's line is blanked first
    assert notice and before.rstrip(" ").endswith("\r") and after.startswith("\rwork")
    # quiet when asked
    monkeypatch.setenv("WARGRID_QUIET", "1")
    err.seek(0)
    err.truncate()
    ticker(True, 4, "work")(4)
    assert err.getvalue() == ""
