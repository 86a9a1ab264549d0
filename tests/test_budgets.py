"""Sizes the caps accept but that cannot be computed are built cheaply or refused up front,
naming the argument, the value and the limit (issue 21, row 10)."""

import itertools

import numpy as np
import pytest

import wargrid
from wargrid import CostField, Hex, SquareGrid, generate, hexagon_board, parallelogram_board, triangle_board
from wargrid._budget import available_memory
from wargrid.errors import ArgumentError, ResourceError
from wargrid.generate import MAX_GENERATE_CELLS
from wargrid.movement import dispatch, paths, search


@pytest.fixture
def little_memory(monkeypatch):
    monkeypatch.setattr(wargrid._budget, "available_memory", lambda: 20 << 20)


def test_the_machine_reports_its_memory():
    have = available_memory()
    assert have is None or have > 0


KINDS = [("flat", None), ("flat", "odd-q"), ("flat", "even-q"), ("pointy", "odd-r"), ("pointy", "even-r")]



@pytest.mark.parametrize("orientation,offset", KINDS)
def test_shaped_boards_hold_exactly_their_hexes(orientation, offset):
    shapes = [(hexagon_board(r, orientation=orientation, offset=offset), list(Hex(0, 0).range(r))) for r in range(5)]
    shapes += [(triangle_board(s, orientation=orientation, offset=offset),
                [Hex(q, r) for q in range(s) for r in range(s - q)]) for s in range(1, 6)]
    shapes += [(parallelogram_board(a, b, orientation=orientation, offset=offset),
                [Hex(q, r) for q in range(a) for r in range(b)]) for a, b in itertools.product(range(1, 4), range(1, 4))]
    for g, hexes in shapes:
        assert len(g) == len(hexes)
        held = {g.to_hex(c) for c in g.cells()}
        # the board holds the shape translated as a whole
        d = min(held, key=lambda h: (h.q, h.r))
        o = min(hexes, key=lambda h: (h.q, h.r))
        assert held == {Hex(h.q - o.q + d.q, h.r - o.r + d.r) for h in hexes}
        assert g.mask[0].any() and g.mask[:, 0].any() and g.mask[-1].any() and g.mask[:, -1].any()


def test_a_big_hexagon_board_is_drawn_without_an_object_per_hex():
    g = hexagon_board(600)
    assert g.shape == (1201, 1201) and len(g) == 3 * 600 * 601 + 1


def test_a_shaped_board_past_memory_is_refused(little_memory):
    with pytest.raises(ResourceError, match=r"a shaped board with radius=4000 needs about 0.2 GiB of memory, past the "
                                             r"0.0 GiB available; use a smaller radius"):
        hexagon_board(4000)


def test_generation_past_its_limit_is_refused_at_once():
    with pytest.raises(ArgumentError, match=rf"4096 x 4096 = 16777216 cells is past the limit of {MAX_GENERATE_CELLS}"):
        generate(4096, 4096)


def test_generation_past_memory_is_refused(little_memory):
    with pytest.raises(ResourceError, match=r"generate_board with width \* height=1000000 needs about 0.4 GiB"):
        generate(1000, 1000)


def test_paths_refuses_absurd_worker_counts():
    g = SquareGrid(3, 3)
    c = CostField.from_arrays(g, np.ones((3, 3)))
    for bad in (0, 100_000):
        with pytest.raises(ArgumentError, match=f"workers must be between 1 and {dispatch.MAX_WORKERS} threads, got {bad}"):
            paths(g, c, [((0, 0), (2, 2))], workers=bad)


def test_paths_refuses_threads_memory_cannot_hold(little_memory, monkeypatch):
    monkeypatch.setattr(dispatch, "THREADS_PAY_SECONDS", 0.0)
    g = SquareGrid(1000, 300)
    c = CostField.from_arrays(g, np.ones((300, 1000)))
    pairs = [((0, i), (999, i)) for i in range(8)]
    with pytest.raises(ResourceError, match=r"paths with workers=4 needs about"):
        paths(g, c, pairs, workers=4)


def test_a_search_memory_cannot_hold_is_refused(little_memory, monkeypatch):
    monkeypatch.setattr(search, "BIG_SEARCH_CELLS", 0)
    g = SquareGrid(1234, 1111)  # a size no other test searches: a fresh search state
    with pytest.raises(ResourceError, match=r"a search with board cells \(padded\)=1375668 needs about .* use a smaller board"):
        wargrid.Map(g).path((0, 0), (1233, 1110))


def _fake_system(root, cgroup: str, files: dict[str, str], meminfo_kb: int = 64 << 20) -> None:
    """A ``/proc`` and ``/sys/fs/cgroup`` under ``root``: ``files`` maps paths below the cgroup mount to contents."""
    (root / "proc" / "self").mkdir(parents=True)
    (root / "proc" / "meminfo").write_text(f"MemTotal: {2 * meminfo_kb} kB\nMemAvailable: {meminfo_kb} kB\n")
    (root / "proc" / "self" / "cgroup").write_text(cgroup)
    (root / "proc" / "self" / "status").write_text("VmSize:\t1024 kB\nVmData:\t512 kB\n")
    for rel, text in files.items():
        f = root / "cg" / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)


@pytest.fixture
def fake_root(tmp_path, monkeypatch):
    monkeypatch.setattr(wargrid._budget, "PROC", str(tmp_path / "proc"))
    monkeypatch.setattr(wargrid._budget, "CGROUP", str(tmp_path / "cg"))
    return tmp_path


def test_a_cgroup_v2_limit_and_its_parents_bound_the_memory_available(fake_root):
    _fake_system(fake_root, "0::/game/server\n", {
        "game/server/memory.max": "max\n", "game/server/memory.current": "100\n",
        "game/memory.max": str(1 << 30), "game/memory.current": str(600 << 20),
    })
    assert available_memory() == (1 << 30) - (600 << 20)  # the parent's limit, less what it holds


def test_a_cgroup_v1_limit_bounds_the_memory_available_even_inside_a_namespace(fake_root):
    # the process's own cgroup path is not visible (a container): the mount's own files are its limit
    _fake_system(fake_root, "4:memory:/process_api/abc\n2:cpu:/\n", {
        "memory/memory.limit_in_bytes": str(3 << 30), "memory/memory.usage_in_bytes": str(1 << 30),
    })
    assert available_memory() == 2 << 30


def test_no_cgroup_limit_leaves_the_system_s_available_memory(fake_root):
    _fake_system(fake_root, "4:memory:/\n0::/\n", {
        "memory/memory.limit_in_bytes": "9223372036854771712", "memory/memory.usage_in_bytes": "5",
        "memory.max": "max", "memory.current": "5",
    }, meminfo_kb=1 << 20)
    assert available_memory() == 1 << 30


def test_rlimit_as_bounds_the_memory_available(fake_root, monkeypatch):
    import resource

    _fake_system(fake_root, "0::/\n", {})
    limits = {resource.RLIMIT_AS: (4 << 20, resource.RLIM_INFINITY),
              resource.RLIMIT_DATA: (resource.RLIM_INFINITY, resource.RLIM_INFINITY)}
    monkeypatch.setattr(resource, "getrlimit", limits.__getitem__)
    assert available_memory() == (4 << 20) - (1024 << 10)  # the limit less the address space in use (VmSize)
