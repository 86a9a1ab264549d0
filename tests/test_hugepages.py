"""``wargrid._hugepages``: blocks of arrays, on huge pages where the system offers them, plain arrays otherwise."""

from __future__ import annotations

import numpy as np
import pytest

from wargrid import _hugepages as hp


@pytest.mark.parametrize("enabled", [True, False])
def test_blocks_hold_zeroed_arrays_of_the_asked_shapes(monkeypatch, enabled):
    monkeypatch.setattr(hp, "ENABLED", enabled and hp.ENABLED)
    rec = np.dtype([("a", np.int32), ("b", np.float32), ("h", np.uint8, (2,))])
    x, y, z = hp.block([(1 << 20, np.float64), ((3, 5), np.int32), (7, rec)])
    assert (x.shape, y.shape, z.shape) == ((1 << 20,), (3, 5), (7,))
    assert not x.any() and not y.any() and not z["h"].any()
    assert all(a.flags.c_contiguous and a.flags.writeable for a in (x, y, z))
    x[-1] = 2.5
    y[2, 4] = 7
    z["h"][6] = (1, 2)
    assert x[-1] == 2.5 and y.sum() == 7 and z["h"][6].tolist() == [1, 2]
    if hp.ENABLED and x.base is not None:  # mapped: 2 MiB aligned, each array on its own 64-byte line
        assert x.ctypes.data % hp.HUGE == 0
        assert y.ctypes.data % hp.LINE == 0 and z.ctypes.data % hp.LINE == 0


def test_small_blocks_are_plain_arrays(monkeypatch):
    a, = hp.block([(10, np.int64)])
    assert a.base is None
    monkeypatch.setattr(hp, "ENABLED", False)
    b, = hp.block([(1 << 20, np.int64)])  # big, but not asked for
    assert b.base is None and b.shape == (1 << 20,)


def test_packed_copies_keep_values_and_types():
    src = [np.arange(600_000, dtype=np.int64), np.linspace(0, 1, 5).astype(np.float32), np.array([[1, 2], [3, 4]])]
    out = hp.packed(src)
    for a, b in zip(src, out):
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
    out[0][0] = -1
    assert src[0][0] == 0  # copies
