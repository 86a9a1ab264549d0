"""A Map edited from several threads while others query it: no crash, no stale cost, consistent at the end."""

from __future__ import annotations

import threading

import numpy as np

from wargrid import HexGrid, Map, SquareGrid


def _fresh(m: Map) -> Map:
    return Map(m.grid, terrain=m.terrain, terrains=m.terrains, overlay=m.overlay, elevation=m.elevation,
               edges=m.edges, climb_cost=m.climb_cost)


def _is_walk(m: Map, cells: list[tuple[int, int]]) -> bool:
    return all(b in m.grid.neighbors(a) for a, b in zip(cells, cells[1:]))


def _stress(m: Map, *, editors: int, readers: int, rounds: int) -> list[BaseException]:
    names = ["plains", "water", "forest", "hills"]
    errors: list[BaseException] = []
    start = threading.Barrier(editors + readers)

    def edit(seed: int) -> None:
        rng = np.random.default_rng(seed)
        try:
            start.wait()
            for _ in range(rounds):
                cells = [(int(rng.integers(m.width)), int(rng.integers(m.height))) for _ in range(3)]
                if rng.random() < 0.7:
                    m.set_terrain(cells, names[int(rng.integers(len(names)))])
                else:
                    with m.edit() as e:
                        e.overlay[cells[0][1], :] = -1 if rng.random() < 0.5 else m.terrains.index("road")
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    def read(seed: int) -> None:
        rng = np.random.default_rng(seed)
        try:
            start.wait()
            for _ in range(rounds):
                a = (int(rng.integers(m.width)), int(rng.integers(m.height)))
                b = (int(rng.integers(m.width)), int(rng.integers(m.height)))
                p = m.path(a, b, unit="foot")
                assert p is None or (p.cells[0] == a and p.cells[-1] == b and _is_walk(m, p.cells))
                m.connected(a, b, unit="foot")
                m.zones(unit="naval")
                m.fov(a, radius=3)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=edit, args=(i,)) for i in range(editors)]
    threads += [threading.Thread(target=read, args=(100 + i,)) for i in range(readers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def _assert_consistent(m: Map) -> None:
    fresh = _fresh(m)
    for u in m.terrains.classes:
        got, want = m.cost_field(unit=u), fresh.cost_field(unit=u)
        assert np.array_equal(got.cell, want.cell), u  # no cell keeps a cost its terrain contradicts
        z, zf = m.zones(unit=u), fresh.zones(unit=u)
        assert np.array_equal(z >= 0, zf >= 0)
        _, a = np.unique(z, return_inverse=True)
        _, b = np.unique(zf, return_inverse=True)
        pairs = set(zip(a.ravel().tolist(), b.ravel().tolist()))
        assert len(pairs) == len(set(a.ravel().tolist())) == len(set(b.ravel().tolist()))  # the same partition


def test_editors_and_readers_on_one_hex_map():
    m = Map(HexGrid(24, 18))
    m.zones(unit="foot")  # zone state that every edit updates
    errors = _stress(m, editors=3, readers=3, rounds=60)
    assert errors == []
    _assert_consistent(m)


def test_editors_only_on_a_square_map_without_zones():
    m = Map(SquareGrid(20, 20, diagonal=True))
    m.cost_field(unit="cavalry")
    errors = _stress(m, editors=4, readers=0, rounds=80)
    assert errors == []
    _assert_consistent(m)
