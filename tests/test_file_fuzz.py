"""Map file readers against damaged and hostile files; writers against failing targets.

Every reader may only raise ``MapFileError`` (a ``ValueError``) and its message
names the file; a text format's syntax error also names the line. A file that
declares a huge board is refused from its header, without allocating the board.
A write that fails leaves nothing at or beside the destination.
"""

from __future__ import annotations

import io
import copy
import json
import os
import tracemalloc
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wargrid as W
from wargrid import MapFileError

HEX = W.generate(6, 5, kind="hex", seed=2)
SQUARE = W.generate(6, 5, kind="square", seed=2)
SCENARIOS = [W.Scenario(0, "a.map", 6, 5, (0, 0), (3, 3), 4.0), W.Scenario(1, "a.map", 6, 5, (1, 1), (5, 4), 6.5)]


def _write_samples(folder: Path) -> dict[str, tuple[bytes, object]]:
    """One valid file per reader and encoding: name -> (bytes, reader)."""
    W.save_map(HEX, folder / "a.json")
    W.save_map(HEX, folder / "a.npz")
    W.save_tiled(HEX, folder / "a.tmx", tileset_image=False)
    W.save_tiled(HEX, folder / "a.tmj", tileset_image=False)
    W.save_tiled(HEX, folder / "b.tmx", encoding="base64", compression="zlib", tileset_image=False)
    W.save_tiled(HEX, folder / "c.tmj", encoding="base64", compression="gzip", tileset_image=False)
    W.save_movingai(SQUARE, folder / "a.map")
    W.save_movingai_scenarios(SCENARIOS, folder / "a.scen")
    readers = {"a.json": W.load_map, "a.npz": W.load_map, "a.tmx": W.load_tiled, "a.tmj": W.load_tiled,
               "b.tmx": W.load_tiled, "c.tmj": W.load_tiled, "a.map": W.load_movingai,
               "a.scen": W.load_movingai_scenarios}
    return {name: ((folder / name).read_bytes(), reader) for name, reader in readers.items()}


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    return _write_samples(tmp_path_factory.mktemp("samples"))


def test_samples_load(samples, tmp_path):
    for name, (raw, reader) in samples.items():
        (tmp_path / name).write_bytes(raw)
        out = reader(tmp_path / name)
        assert out == SCENARIOS if name.endswith(".scen") else out.shape == (5, 6)


TOKENS = [b"9999999999", b"-1", b"NaN", b"1e999", b"Infinity", b'"', b"<", b">", b"\xff\xfe", b"\x00", b"0",
          b"\n", b"[]", b"{}", b"null", b"<!DOCTYPE x [<!ENTITY a 'b'>]>", b"&a;", b"PK\x03\x04", b"\t", b"@"]


@st.composite
def damaged(draw, raw: bytes) -> bytes:
    """A valid file truncated, with bytes flipped, a token spliced in, a slice cut out, or pure noise."""
    b = bytearray(raw)
    op = draw(st.sampled_from(["truncate", "flip", "splice", "cut", "noise"]))
    if op == "truncate":
        return bytes(b[: draw(st.integers(0, len(b) - 1))])
    if op == "flip":
        for _ in range(draw(st.integers(1, 8))):
            b[draw(st.integers(0, len(b) - 1))] = draw(st.integers(0, 255))
        return bytes(b)
    if op == "splice":
        at = draw(st.integers(0, len(b)))
        b[at:at] = draw(st.sampled_from(TOKENS))
        return bytes(b)
    if op == "cut":
        i, j = sorted((draw(st.integers(0, len(b))), draw(st.integers(0, len(b)))))
        return bytes(b[:i] + b[j:])
    return draw(st.binary(max_size=64))


def _load_or_refuse(reader, path: Path) -> None:
    """The reader returns (warnings about what it read are allowed) or raises MapFileError naming the file;
    nothing else."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", W.MapFileWarning)
            reader(path)
    except MapFileError as exc:
        assert str(path) in str(exc), str(exc)
        assert exc.path == str(path)


@pytest.mark.parametrize("name", ["a.json", "a.npz", "a.tmx", "a.tmj", "b.tmx", "c.tmj", "a.map", "a.scen"])
def test_damaged_files_raise_only_map_file_error(name, samples, tmp_path):
    raw, reader = samples[name]
    target = tmp_path / ("f_" + name)

    @settings(max_examples=150, database=None)
    @given(data=damaged(raw))
    def check(data):
        target.write_bytes(data)
        _load_or_refuse(reader, target)

    check()


@pytest.mark.parametrize("name", ["a.json", "a.npz", "a.tmx", "a.tmj", "b.tmx", "c.tmj", "a.map", "a.scen"])
def test_truncations_of_a_valid_file(name, samples, tmp_path):
    raw, reader = samples[name]
    target = tmp_path / ("t_" + name)
    step = max(1, len(raw) // 60)
    for n in range(0, len(raw), step):
        target.write_bytes(raw[:n])
        _load_or_refuse(reader, target)


def test_missing_file_and_a_directory(tmp_path):
    for reader in (W.load_map, W.load_tiled, W.load_movingai, W.load_movingai_scenarios):
        for p in (tmp_path / "missing.json", tmp_path):
            with pytest.raises(MapFileError, match=str(p)):
                reader(p)


# -- known bad inputs, one by one (found by the fuzzing above) -------------------------------------
def _npz_with_broken_deflate(raw: bytes) -> bytes:
    buf = bytearray(raw)
    z = zipfile.ZipFile(io.BytesIO(raw))
    info = z.getinfo("terrain.npy")
    o = info.header_offset
    start = o + 30 + int.from_bytes(raw[o + 26:o + 28], "little") + int.from_bytes(raw[o + 28:o + 30], "little")
    buf[start] = 0xFF  # block type 3 does not exist: a zlib error; the zip directory is kept
    return bytes(buf)


def test_npz_with_a_corrupt_deflate_stream(samples, tmp_path):
    p = tmp_path / "bad.npz"
    p.write_bytes(_npz_with_broken_deflate(samples["a.npz"][0]))
    with pytest.raises(MapFileError, match="bad.npz"):
        W.load_map(p)


def test_tmx_with_an_unknown_xml_encoding(samples, tmp_path):
    p = tmp_path / "bad.tmx"
    p.write_bytes(samples["a.tmx"][0].replace(b'encoding="UTF-8"', b'encoding="yTF-8"', 1))
    assert p.read_bytes() != samples["a.tmx"][0]
    with pytest.raises(MapFileError, match="bad.tmx"):
        W.load_tiled(p)


def test_tmj_with_an_infinite_size(samples, tmp_path):
    d = json.loads(samples["a.tmj"][0])
    d["width"] = 1e999
    p = tmp_path / "bad.tmj"
    p.write_text(json.dumps(d))  # json writes Infinity
    with pytest.raises(MapFileError, match="bad.tmj"):
        W.load_tiled(p)


@pytest.mark.parametrize("name,line,damage", [
    ("a.json", 4, lambda t: t[:3] + [t[3] + " ,,"] + t[4:]),
    ("a.tmx", 3, lambda t: t[:2] + [t[2] + " <"] + t[3:]),
    ("a.tmj", 3, lambda t: t[:2] + [t[2] + " }}"] + t[3:]),
    ("a.map", 7, lambda t: t[:6] + ["?" + t[6][1:]] + t[7:]),
    ("a.scen", 3, lambda t: t[:2] + ["0\ta.map\t6\t5\tx\t0\t3\t3\t4"] + t[3:]),
])
def test_text_formats_name_the_line(name, line, damage, samples, tmp_path):
    lines = samples[name][0].decode().split("\n")
    p = tmp_path / ("bad_" + name)
    p.write_text("\n".join(damage(lines)))
    with pytest.raises(MapFileError, match=f"bad_{name}:{line}:") as info:
        samples[name][1](p)
    assert info.value.line == line


# -- huge declared sizes are refused from the header ---------------------------------------------------
def _huge_files(samples) -> dict[str, bytes]:
    side = 10**9
    j = json.loads(samples["a.json"][0])
    j["grid"]["width"] = j["grid"]["height"] = side
    tmj = json.loads(samples["a.tmj"][0])
    tmj["width"] = tmj["height"] = side
    tmx = samples["a.tmx"][0].replace(b'width="6"', f'width="{side}"'.encode()).replace(
        b'height="5"', f'height="{side}"'.encode())
    movingai = samples["a.map"][0].replace(b"height 5", f"height {side}".encode(), 1)
    # an npz whose header is small but whose terrain array declares a huge shape
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        with zipfile.ZipFile(io.BytesIO(samples["a.npz"][0])) as src:
            for info in src.infolist():
                if info.filename == "terrain.npy":
                    hdr = io.BytesIO()
                    np.lib.format.write_array_header_1_0(hdr, {"descr": "<i8", "fortran_order": False,
                                                               "shape": (side, side)})
                    z.writestr(info.filename, hdr.getvalue() + b"\0" * 64)
                else:
                    z.writestr(info.filename, src.read(info.filename))
    return {"a.json": json.dumps(j).encode(), "a.tmj": json.dumps(tmj).encode(), "a.tmx": tmx,
            "a.map": movingai, "a.npz": buf.getvalue()}


@pytest.mark.parametrize("name", ["a.json", "a.tmj", "a.tmx", "a.map", "a.npz"])
def test_huge_declared_size_is_refused_without_allocating(name, samples, tmp_path):
    p = tmp_path / ("huge_" + name)
    p.write_bytes(_huge_files(samples)[name])
    reader = samples[name][1]
    tracemalloc.start()
    try:
        with pytest.raises(MapFileError, match=f"huge_{name}"):
            reader(p)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000  # the board would need gigabytes


def test_max_cells_caps_a_normal_file(samples, tmp_path):
    p = tmp_path / "a.json"
    p.write_bytes(samples["a.json"][0])
    with pytest.raises(MapFileError, match="a.json"):
        W.load_map(p, max_cells=29)
    assert W.load_map(p, max_cells=30).shape == (5, 6)


# -- writers ---------------------------------------------------------------------------------------------
WRITERS = [
    pytest.param(lambda p: W.save_map(HEX, p), ".json", id="save_map-json"),
    pytest.param(lambda p: W.save_map(HEX, p), ".npz", id="save_map-npz"),
    pytest.param(lambda p: W.save_tiled(HEX, p), ".tmx", id="save_tiled-tmx"),
    pytest.param(lambda p: W.save_tiled(HEX, p, encoding="base64", compression="zlib"), ".tmj", id="save_tiled-tmj"),
    pytest.param(lambda p: W.save_movingai(SQUARE, p), ".map", id="save_movingai"),
    pytest.param(lambda p: W.save_movingai_scenarios(SCENARIOS, p), ".scen", id="save_movingai_scenarios"),
]


@pytest.mark.parametrize("write,suffix", WRITERS)
def test_write_under_a_regular_file_fails_cleanly(write, suffix, tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    with pytest.raises(OSError):
        write(blocker / ("x" + suffix))
    assert sorted(os.listdir(tmp_path)) == ["blocker"]
    assert blocker.read_text() == "not a folder"


@pytest.mark.parametrize("write,suffix", WRITERS)
def test_write_onto_a_directory_leaves_nothing_behind(write, suffix, tmp_path):
    target = tmp_path / ("x" + suffix)
    target.mkdir()
    (target / "kept").write_text("k")
    with pytest.raises(OSError):
        write(target)
    assert sorted(os.listdir(tmp_path)) == [target.name]
    assert os.listdir(target) == ["kept"]


@pytest.mark.parametrize("write,suffix", WRITERS)
def test_a_failed_write_keeps_the_old_file(write, suffix, tmp_path, monkeypatch):
    target = tmp_path / ("x" + suffix)
    write(target)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="No space"):
        write(target)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


# -- well-formed JSON with the wrong things inside ---------------------------------------------------
ODD_VALUES = [None, -1, 0, 2**63, -(2**63), 1e308, "x", "", [], {}, [[]], True, [1, 2], {"a": 1}, "odd-q", 10**9]


def _json_paths(o, pre=()):
    yield pre
    if isinstance(o, dict):
        for k, v in o.items():
            yield from _json_paths(v, pre + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o[:4]):
            yield from _json_paths(v, pre + (i,))


@pytest.mark.parametrize("name", ["a.json", "a.tmj"])
def test_json_with_wrong_types_inside(name, samples, tmp_path):
    raw, reader = samples[name]
    base = json.loads(raw)
    spots = [p for p in _json_paths(base) if p]
    target = tmp_path / ("s_" + name)

    @settings(max_examples=200, database=None)
    @given(edits=st.lists(st.tuples(st.sampled_from(spots), st.sampled_from(ODD_VALUES + ["<delete>"])),
                          min_size=1, max_size=3))
    def check(edits):
        doc = json.loads(raw)
        for spot, value in edits:
            cur = doc
            try:
                for k in spot[:-1]:
                    cur = cur[k]
                if value == "<delete>":
                    del cur[spot[-1]]
                else:
                    cur[spot[-1]] = copy.deepcopy(value)  # never the shared value itself: it could end up inside itself
            except (KeyError, IndexError, TypeError):
                continue  # an earlier edit removed this spot
        target.write_text(json.dumps(doc))
        _load_or_refuse(reader, target)

    check()


@pytest.mark.parametrize("name,edit", [
    ("a.json", lambda d: d["terrains"]["terrains"].__setitem__(0, 3) if isinstance(d.get("terrains"), dict)
     else d.__setitem__("terrains", [3])),
    ("a.tmj", lambda d: d["tilesets"][0].__setitem__("tiles", [3])),
])
def test_non_objects_where_objects_belong(name, edit, samples, tmp_path):
    d = json.loads(samples[name][0])
    edit(d)
    p = tmp_path / ("o_" + name)
    p.write_text(json.dumps(d))
    with pytest.raises(MapFileError, match=f"o_{name}"):
        samples[name][1](p)
