"""Parsers are strict: plain decimal integers, masks of 0/1, real elevation, complete
gzip streams, and every failure a MapFileError naming the file (issue 21, row 12)."""

import base64
import json
import os
import zlib

import numpy as np
import pytest

from wargrid import Map, MapFileError, SquareGrid, load_map, load_movingai, load_movingai_scenarios, load_tiled, save_map, save_tiled
from wargrid.errors import ArgumentTypeError


@pytest.mark.parametrize("header,line,what", [
    ("height +2\nwidth 2", 2, "'\\+2'"),
    ("height 1_0\nwidth 2", 2, "'1_0'"),
    ("height 2\nwidth 0x2", 3, "'0x2'"),
])
def test_movingai_sizes_are_plain_decimal(tmp_path, header, line, what):
    f = tmp_path / "a.map"
    f.write_text(f"type octile\n{header}\nmap\n..\n..\n", encoding="utf-8")
    with pytest.raises(MapFileError, match=rf"a.map:{line}: .* must be an integer in decimal digits, got {what}"):
        load_movingai(f)


@pytest.mark.parametrize("field,value", [("start_x", "+1"), ("bucket", "1_0"), ("goal_y", "٣")])
def test_scenario_integers_are_plain_decimal(tmp_path, field, value):
    fields = {"bucket": "0", "start_x": "0", "goal_y": "0"}
    fields[field] = value
    f = tmp_path / "a.scen"
    f.write_text(f"version 1\n{fields['bucket']}\ta.map\t4\t4\t{fields['start_x']}\t0\t3\t{fields['goal_y']}\t3.0\n",
                 encoding="utf-8")
    with pytest.raises(MapFileError, match=rf"a.scen:2: {field} must be an integer in decimal digits"):
        load_movingai_scenarios(f)


@pytest.mark.parametrize("value", ["3_0", "0x3", "inf", " 3"])
def test_scenario_lengths_are_plain_decimal(tmp_path, value):
    f = tmp_path / "a.scen"
    f.write_text(f"version 1\n0\ta.map\t4\t4\t0\t0\t3\t0\t{value}\n")
    with pytest.raises(MapFileError, match="a.scen:2: optimal length must be"):
        load_movingai_scenarios(f)


@pytest.mark.parametrize("reader", [load_movingai, load_movingai_scenarios])
def test_movingai_readers_refuse_missing_files_and_non_regular_files(tmp_path, reader):
    with pytest.raises(MapFileError, match="nope: cannot read"):
        reader(tmp_path / "nope")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(MapFileError, match="fifo: not a regular file"):
        reader(fifo)  # refused at once: no writer is waited for
    with pytest.raises(MapFileError, match="not a regular file"):
        reader("/dev/zero")


def test_mask_holds_only_zeros_and_ones(tmp_path):
    g = SquareGrid(3, 2, mask=np.array([[1, 1, 0], [1, 1, 1]], dtype=bool))
    f = tmp_path / "m.json"
    save_map(Map(g), f)
    d = json.loads(f.read_text())
    assert d["grid"]["mask"] == ["110", "111"]
    d["grid"]["mask"] = ["11x", "111"]
    f.write_text(json.dumps(d))
    with pytest.raises(MapFileError, match="m.json: grid mask row 0 has 'x' at x=2"):
        load_map(f)


def test_complex_elevation_is_refused(tmp_path):
    save_map(Map(SquareGrid(2, 1), elevation=np.array([[1.0, 2.0]])), tmp_path / "m.npz")
    with np.load(tmp_path / "m.npz") as z:
        arrs = {k: z[k] for k in z.files}
    arrs["elevation"] = arrs["elevation"] + 1j
    np.savez_compressed(tmp_path / "c.npz", **arrs)
    with pytest.raises(MapFileError, match="c.npz: array 'elevation' has dtype complex128; it must be real"):
        load_map(tmp_path / "c.npz")
    with pytest.raises(ArgumentTypeError, match="elevation must be a real"):
        Map(SquareGrid(2, 1), elevation=np.array([[1 + 2j, 3]]))
    with pytest.raises(ArgumentTypeError, match="edges must be a real"):
        Map(SquareGrid(2, 1), edges=np.zeros((1, 2, 4), dtype=complex))


@pytest.mark.parametrize("compression,cut", [("gzip", 8), ("gzip", 4), ("zlib", 4)])
def test_compressed_layers_must_end_their_stream(tmp_path, compression, cut):
    f = tmp_path / "m.tmj"
    save_tiled(Map(SquareGrid(4, 3)), f, encoding="base64", compression=compression, tileset_image=False)
    d = json.loads(f.read_text())
    layer = next(la for la in d["layers"] if isinstance(la.get("data"), str))
    raw = base64.b64decode(layer["data"])
    assert len(zlib.decompressobj(zlib.MAX_WBITS | 32).decompress(raw[:-cut])) == 4 * 12  # all tiles, no trailer
    layer["data"] = base64.b64encode(raw[:-cut]).decode()
    f.write_text(json.dumps(d))
    with pytest.raises(MapFileError, match=f"m.tmj: .*{compression} data is cut short"):
        load_tiled(f)
