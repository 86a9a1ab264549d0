"""The hostile-file corpus every loader is run on: devices, FIFOs, symbolic links to them, folders, files past
the byte cap, and .npz members that inflate past what the header's board needs.

The device and FIFO cases run in a child process with an address-space limit and a timeout, so a loader that
reads ``/dev/zero`` without end or waits on a FIFO fails its test instead of taking the machine's memory or
hanging the run.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest

import wargrid.io.wesnoth
from wargrid import Map, MapFileError, SquareGrid, load_map, load_tiled, load_wesnoth, save_map
from wargrid.io.movingai import load_movingai

LOADERS = ["load_map", "load_tiled", "load_wesnoth", "load_movingai"]

_CHILD = textwrap.dedent("""
    import json, os, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    import wargrid
    from wargrid.io.movingai import load_movingai
    loaders = {"load_map": wargrid.load_map, "load_tiled": wargrid.load_tiled, "load_wesnoth": wargrid.load_wesnoth,
               "load_movingai": load_movingai}
    out = {}
    for name, loader in loaders.items():
        for path in sys.argv[1:]:
            try:
                loader(path)
                out[name + " " + path] = "loaded"
            except wargrid.MapFileError as e:
                out[name + " " + path] = "MapFileError: " + str(e)
            except BaseException as e:
                out[name + " " + path] = type(e).__name__ + ": " + str(e)[:200]
            print(json.dumps({name + " " + path: out[name + " " + path]}), flush=True)
""")


@pytest.fixture(scope="module")
def special_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile")
    fifo = d / "board.tmx"
    os.mkfifo(fifo)
    (d / "zero.map").symlink_to("/dev/zero")
    (d / "random.json").symlink_to("/dev/urandom")
    (d / "folder.map").mkdir()
    return ["/dev/zero", "/dev/urandom", str(fifo), str(d / "zero.map"), str(d / "random.json"), str(d / "folder.map")]


def test_devices_fifos_and_links_to_them_are_refused_by_every_loader(special_files):
    proc = subprocess.run([sys.executable, "-c", _CHILD, *special_files], capture_output=True, text=True, timeout=180)
    got: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        got.update(json.loads(line))
    assert len(got) == len(LOADERS) * len(special_files), (got, proc.stderr[-2000:])
    for key, outcome in got.items():
        path = key.split(" ", 1)[1]
        assert outcome.startswith("MapFileError: ") and "not a regular file" in outcome, (key, outcome)
        assert path in outcome, (key, outcome)


@pytest.mark.parametrize("loader", [load_map, load_tiled, load_wesnoth, load_movingai])
def test_the_refusal_names_the_kind_of_file(loader):
    with pytest.raises(MapFileError, match=r"/dev/null: not a regular file \(a character device\)"):
        loader("/dev/null")


def test_a_file_past_the_byte_cap_is_refused_before_reading(tmp_path, monkeypatch):
    p = tmp_path / "big.map"
    p.write_text("Gg, Gg\nGg, Gg\n" * 100)
    monkeypatch.setattr(wargrid.io.wesnoth, "_MAX_BYTES", 64)
    with pytest.raises(MapFileError, match=r"big.map: file is 1400 bytes, past the limit of 64 bytes"):
        load_wesnoth(p)


# -- .npz members ----------------------------------------------------------------------------------

def _members(tmp_path) -> dict[str, np.ndarray]:
    m = Map(SquareGrid(4, 4))
    m.set_elevation(np.zeros((4, 4)))
    save_map(m, tmp_path / "ok.npz")
    with np.load(tmp_path / "ok.npz") as z:
        return {k: z[k] for k in z.files}


def _write_npz(path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for k, raw in members.items():
            zf.writestr(k + ".npy", raw)


def _npy(a: np.ndarray) -> bytes:
    b = io.BytesIO()
    np.save(b, a)
    return b.getvalue()


@pytest.mark.parametrize("layer", ["terrain", "elevation"])
def test_a_member_bigger_than_the_headers_board_is_refused_before_inflating(tmp_path, layer):
    arrs = _members(tmp_path)
    big = np.zeros((4096, 4096), dtype=arrs[layer].dtype)  # 16.7 M cells on a 4 x 4 board; ~100 kB zipped
    members = {k: _npy(v) for k, v in arrs.items()}
    members[layer] = _npy(big)
    _write_npz(tmp_path / "bomb.npz", members)
    assert (tmp_path / "bomb.npz").stat().st_size < 1 << 20
    with pytest.raises(MapFileError, match=rf"bomb.npz: array '{layer}' declares shape \(4096, 4096\); "
                                           r"the header's board needs \(4, 4\)"):
        load_map(tmp_path / "bomb.npz")


def test_a_member_with_the_right_shape_that_inflates_further_is_refused(tmp_path):
    arrs = _members(tmp_path)
    members = {k: _npy(v) for k, v in arrs.items()}
    members["terrain"] += bytes(8 << 20)  # 8 MiB of trailing zeros behind a 4 x 4 array
    _write_npz(tmp_path / "padded.npz", members)
    with pytest.raises(MapFileError, match=r"padded.npz: array 'terrain' inflates to \d+ bytes; its declared shape"):
        load_map(tmp_path / "padded.npz")


def test_a_member_with_a_wide_dtype_is_refused(tmp_path):
    arrs = _members(tmp_path)
    members = {k: _npy(v) for k, v in arrs.items()}
    members["elevation"] = _npy(np.zeros((4, 4), dtype=np.dtype("V4096")))
    _write_npz(tmp_path / "wide.npz", members)
    with pytest.raises(MapFileError, match=r"wide.npz: array 'elevation' has dtype .*; it must be real"):
        load_map(tmp_path / "wide.npz")


def test_edges_must_have_one_cost_per_direction(tmp_path):
    arrs = _members(tmp_path)
    members = {k: _npy(v) for k, v in arrs.items()}
    members["edges"] = _npy(np.zeros((4, 4, 64)))
    _write_npz(tmp_path / "edges.npz", members)
    with pytest.raises(MapFileError, match=r"array 'edges' declares shape \(4, 4, 64\); the header's board needs "
                                           r"\(4, 4, 4\)"):
        load_map(tmp_path / "edges.npz")


def test_a_well_formed_npz_still_loads(tmp_path):
    arrs = _members(tmp_path)
    _write_npz(tmp_path / "fine.npz", {k: _npy(v) for k, v in arrs.items()})
    m = load_map(tmp_path / "fine.npz")
    assert m.shape == (4, 4) and m.elevation is not None
