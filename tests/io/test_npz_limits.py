"""An .npz member is capped in bytes before it is inflated (issue 21, row 5)."""

import io
import zipfile

import numpy as np
import pytest

from wargrid import Map, MapFileError, SquareGrid, load_map, save_map


def _members(tmp_path):
    save_map(Map(SquareGrid(4, 4)), tmp_path / "ok.npz")
    with np.load(tmp_path / "ok.npz") as z:
        return {k: z[k] for k in z.files}


def test_a_header_that_inflates_past_the_cap_is_refused_before_inflating(tmp_path):
    arrs = _members(tmp_path)
    arrs["header"] = np.array(str(arrs["header"][()]) + " " * (5 << 20))  # 20 MiB as UTF-32, ~20 kB zipped
    np.savez_compressed(tmp_path / "bomb.npz", **arrs)
    with pytest.raises(MapFileError, match=r"array 'header' inflates to \d+ bytes, past the cap of \d+ bytes"):
        load_map(tmp_path / "bomb.npz")


def test_a_header_declaring_a_huge_shape_is_refused(tmp_path):
    arrs = _members(tmp_path)
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": "<U1", "fortran_order": False, "shape": (10**9,)})
    buf.write(b"x" * 64)
    with zipfile.ZipFile(tmp_path / "liar.npz", "w") as zf:
        zf.writestr("header.npy", buf.getvalue())
        for k, v in arrs.items():
            if k != "header":
                b = io.BytesIO()
                np.save(b, v)
                zf.writestr(k + ".npy", b.getvalue())
    with pytest.raises(MapFileError, match=r"array 'header' declares shape \(1000000000,\)"):
        load_map(tmp_path / "liar.npz")


def test_a_layer_that_inflates_past_the_cap_is_refused(tmp_path):
    arrs = _members(tmp_path)
    arrs["elevation"] = np.zeros(40_000)
    np.savez_compressed(tmp_path / "big.npz", **arrs)
    with pytest.raises(MapFileError, match=r"array 'elevation' inflates to \d+ bytes, past the cap"):
        load_map(tmp_path / "big.npz", max_cells=16)
