"""The playground's JSON API and static files, through Starlette's test client."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from starlette.testclient import TestClient

from wargrid import HexGrid, Map, SquareGrid, StaggeredGrid
from wargrid.serve.api import BOARD_KINDS, MAX_SIDE, BoardStore, describe_board, make_grid
from wargrid.serve.app import MAX_BODY, create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(capacity=4), base_url="http://127.0.0.1", raise_server_exceptions=False)


def board(client: TestClient, kind: str = "square-4", width: int = 8, height: int = 6, seed: int = 3) -> dict:
    r = client.post("/api/board", json={"kind": kind, "width": width, "height": height, "seed": seed})
    assert r.status_code == 200, r.text
    return r.json()


JSON = {"Content-Type": "application/json"}


def error(r, status: int) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["status"] == status
    return body["error"]


# -- static files ---------------------------------------------------------------------------

def test_index_and_static_files(client):
    r = client.get("/")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert "/static/app.js" in r.text and "http" not in r.text.split("<body>")[1].replace("http://www.w3.org", "")
    assert "Content-Security-Policy" in r.headers
    for name, kind in (("app.js", "javascript"), ("style.css", "css"), ("index.html", "html")):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and kind in r.headers["content-type"]


def test_page_uses_no_network_resources(client):
    for name in ("index.html", "app.js", "style.css"):
        text = client.get(f"/static/{name}").text
        assert "https://" not in text
        assert "cdn" not in text.lower()


@pytest.mark.parametrize(
    "path",
    [
        "/static/../api.py",
        "/static/%2e%2e/api.py",
        "/static/..%2fapi.py",
        "/static/%2e%2e%2fapi.py",
        "/static/..%5capi.py",
        "/static/%2E%2E%2F%2E%2E%2Fpyproject.toml",
        "/static/....//api.py",
        "/static/.%2e/__init__.py",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/app.js%00.css",
        "/static/",
        "/static/api.py",
        "/..%2f..%2fpyproject.toml",
        "/api/../serve/api.py",
    ],
)
def test_nothing_outside_the_static_folder_is_served(client, path):
    r = client.get(path)
    assert r.status_code == 404, (path, r.status_code)
    assert "import" not in r.text and "root:" not in r.text


def test_unknown_host_is_refused():
    c = TestClient(create_app(), base_url="http://evil.example")
    assert c.get("/").status_code == 400
    c = TestClient(create_app(allowed_hosts=None), base_url="http://evil.example")
    assert c.get("/").status_code == 200


# -- meta and boards ----------------------------------------------------------------------

def test_meta(client):
    m = client.get("/api/meta").json()
    assert m["kinds"] == list(BOARD_KINDS)
    assert m["max_side"] == MAX_SIDE
    assert error(client.post("/api/meta", json={}), 405) == "use GET for /api/meta"


@pytest.mark.parametrize("kind", BOARD_KINDS)
def test_board_of_every_kind(client, kind):
    b = board(client, kind, 7, 5)
    assert b["kind"] == kind
    assert b["width"] == 7 and b["height"] == 5
    assert len(b["centers"]) == 2 * 35 and len(b["terrain"]) == 35
    assert len(b["corners"]) == (6 if kind.startswith("hex") else 4)
    assert b["square"] == kind.startswith("square")
    assert b["classes"][0] == "foot"
    assert all(0 <= t < len(b["terrains"]) for t in b["terrain"])
    x0, y0, x1, y1 = b["bounds"]
    xs, ys = b["centers"][0::2], b["centers"][1::2]
    assert x0 < min(xs) and max(xs) < x1 and y0 < min(ys) and max(ys) < y1
    again = client.post("/api/board/get", json={"session": b["session"]}).json()
    assert again["terrain"] == b["terrain"] and again["session"] == b["session"]


def test_board_is_seeded(client):
    a = board(client, "hex-flat", 12, 9, seed=5)
    b = board(client, "hex-flat", 12, 9, seed=5)
    c = board(client, "hex-flat", 12, 9, seed=6)
    assert a["terrain"] == b["terrain"] != c["terrain"]
    assert a["session"] != b["session"]


def test_describe_board_geometry_literal():
    d = describe_board(Map(HexGrid(2, 2, orientation="pointy")))
    # pointy odd-r: row 1 is shoved right by half a hex width (sqrt 3 / 2)
    assert d["centers"][:2] == [0.0, 0.0]
    assert d["centers"][4:6] == [round(3**0.5 / 2, 4), 1.5]
    assert d["corners"][0] == [round(3**0.5 / 2, 6), 0.5]
    assert d["valid"] is None


def test_make_grid_kinds():
    assert make_grid("square-8", 3, 2) == SquareGrid(3, 2, diagonal=True)
    assert make_grid("hex-flat", 3, 2) == HexGrid(3, 2)
    assert make_grid("staggered", 3, 2) == StaggeredGrid(3, 2)


@pytest.mark.parametrize(
    ("payload", "needle"),
    [
        ({"kind": "hex-flat", "width": 100000, "height": 100000}, "width must be in 1..256, got 100000"),
        ({"kind": "hex-flat", "width": 10, "height": 257}, "height must be in 1..256, got 257"),
        ({"kind": "hex-flat", "width": 0, "height": 5}, "width must be in 1..256, got 0"),
        ({"kind": "hex-flat", "width": "10", "height": 5}, "width must be an integer"),
        ({"kind": "hex-flat", "width": 10.5, "height": 5}, "width must be an integer"),
        ({"kind": "hex-flat", "width": True, "height": 5}, "width must be an integer"),
        ({"kind": "octagon", "width": 10, "height": 5}, "kind must be one of 'square-4'"),
        ({"kind": "hex-flat", "width": 10, "height": 5, "seed": -1}, "seed must be in 0.."),
        ({"kind": "hex-flat", "width": 10}, "missing field(s) height"),
        ({"kind": "hex-flat", "width": 10, "height": 5, "colour": 1}, "unknown field(s) colour"),
    ],
)
def test_board_bad_requests(client, payload, needle):
    assert needle in error(client.post("/api/board", json=payload), 400)


def test_body_must_be_a_json_object(client):
    assert "not valid JSON" in error(client.post("/api/board", content=b"{nope", headers=JSON), 400)
    assert "empty body" in error(client.post("/api/board", content=b"", headers=JSON), 400)
    assert "must be a JSON object, got list" in error(client.post("/api/board", json=[1, 2]), 400)
    assert "not valid JSON" in error(client.post("/api/board", content=b"\xff\xfe", headers=JSON), 400)


def test_body_size_is_bounded(client):
    big = b'{"kind": "' + b"x" * (MAX_BODY + 10) + b'"}'
    assert "at most" in error(client.post("/api/board", content=big, headers=JSON), 413)
    # a lying Content-Length is refused before the body is read
    r = client.post("/api/board", content=b"{}", headers={**JSON, "content-length": str(MAX_BODY + 1)})
    assert r.status_code in (400, 413)


def test_unknown_endpoint_and_method(client):
    assert "no API endpoint" in error(client.post("/api/teleport", json={}), 404)
    assert "use POST" in error(client.get("/api/board"), 405)


def test_sessions(client):
    assert "session must be the id string" in error(client.post("/api/board/get", json={"session": 5}), 400)
    assert "session must be the id string" in error(client.post("/api/board/get", json={"session": "a/b"}), 400)
    assert "unknown session" in error(client.post("/api/board/get", json={"session": "nosuchboard"}), 404)


def test_store_is_a_bounded_lru():
    s = BoardStore(capacity=2)
    a = s.add(Map(SquareGrid(2, 2)), source="a")
    b = s.add(Map(SquareGrid(2, 2)), source="b")
    s.get(a.id)  # a is now the most recent
    s.add(Map(SquareGrid(2, 2)), source="c")
    assert len(s) == 2 and s.get(a.id) is a
    with pytest.raises(Exception, match="unknown session"):
        s.get(b.id)
    with pytest.raises(ValueError, match="capacity"):
        BoardStore(capacity=0)


# -- paint ------------------------------------------------------------------------------------

def test_paint(client):
    b = board(client)
    r = client.post("/api/paint", json={"session": b["session"], "cells": [[0, 0], [3, 2]], "terrain": "water"})
    assert r.status_code == 200, r.text
    water = [t["name"] for t in b["terrains"]].index("water")
    assert r.json()["terrain"] == [water, water]
    after = client.post("/api/board/get", json={"session": b["session"]}).json()
    assert after["terrain"][0] == water and after["terrain"][2 * 8 + 3] == water
    assert after["version"] > b["version"]


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"cells": [[8, 0]], "terrain": "water"}, "cells[0] [8, 0] is off the board"),
        ({"cells": [[0, -1]], "terrain": "water"}, "is off the board"),
        ({"cells": [[0]], "terrain": "water"}, "cells[0] must be an [x, y] pair"),
        ({"cells": [0, 0], "terrain": "water"}, "cells[0] must be an [x, y] pair"),
        ({"cells": "all", "terrain": "water"}, "cells must be a list"),
        ({"cells": [[0, 0]], "terrain": "lava"}, "terrain must be one of 'plains'"),
        ({"cells": [[0, 0]] * 5000, "terrain": "water"}, "at most 4096"),
        ({"cells": [[0, 0]]}, "missing field(s) terrain"),
    ],
)
def test_paint_bad_requests(client, fields, needle):
    b = board(client)
    assert needle in error(client.post("/api/paint", json={"session": b["session"], **fields}), 400)


# -- uploads ------------------------------------------------------------------------------------

def test_upload_bad_requests(client):
    assert "missing field(s) text" in error(client.post("/api/upload", json={"name": "a.map"}), 400)
    assert "text must be" in error(client.post("/api/upload", json={"name": "a.map", "text": ""}), 400)
    assert "name must be" in error(client.post("/api/upload", json={"name": 3, "text": "x"}), 400)
    r = client.post("/api/upload", json={"name": "a.map", "text": "x", "format": "png"})
    assert "format must be one of" in error(r, 400)


def test_upload_of_a_huge_movingai_map_is_refused_from_its_header(client):
    text = "type octile\nheight 100000\nwidth 100000\nmap\n" + "." * 10
    r = client.post("/api/upload", json={"name": "huge.map", "text": text})
    assert "up to 256 x 256" in error(r, 413)


# -- uploads through the library's readers ------------------------------------------------------

MOVINGAI = Path(__file__).resolve().parents[1] / "data" / "movingai"


def test_upload_movingai_map(client):
    text = (MOVINGAI / "arena.map").read_text()
    b = client.post("/api/upload", json={"name": "arena.map", "text": text})
    assert b.status_code == 200, b.text
    b = b.json()
    assert (b["width"], b["height"]) == (49, 49)
    assert b["kind"] == "square-8"
    assert b["source"] == "movingai file arena.map"
    # the board answers queries like any other
    r = client.post("/api/zones", json={"session": b["session"]})
    assert r.status_code == 200


def test_upload_own_format_round_trip(client, tmp_path):
    from wargrid import generate, load_map, save_map

    m = generate(9, 7, kind="hex", seed=4)
    save_map(m, tmp_path / "b.json")
    text = (tmp_path / "b.json").read_text()
    r = client.post("/api/upload", json={"name": "b.json", "text": text})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["terrain"] == load_map(tmp_path / "b.json").terrain.ravel().tolist()
    assert got["kind"] == "hex-flat"


def test_upload_tiled_round_trip(client, tmp_path):
    from wargrid import generate
    from wargrid.io.tiled import save_tiled

    m = generate(8, 6, kind="hex", orientation="pointy", seed=2)
    for name in ("t.tmx", "t.tmj"):
        save_tiled(m, tmp_path / name, tileset_image=False)
        r = client.post("/api/upload", json={"name": name, "text": (tmp_path / name).read_text()})
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["kind"] == "hex-pointy" and got["terrain"] == m.terrain.ravel().tolist()


@pytest.mark.parametrize(
    "text",
    [
        '<?xml version="1.0"?><map version="1.10" orientation="orthogonal" width="2" height="2" tilewidth="8" '
        'tileheight="8"><tileset firstgid="1" source="/etc/passwd"/><layer name="g" width="2" height="2">'
        '<data encoding="csv">1,1,1,1</data></layer></map>',
        '<map orientation="orthogonal" width="2" height="2"><tileset name="&gt;" source="../../x.tsx"/></map>',
        '{"type": "map", "width": 2, "height": 2, "tilesets": [{"firstgid": 1, "source": "/dev/zero"}], "layers": []}',
    ],
)
def test_upload_tiled_with_external_tileset_is_refused(client, text):
    name = "x.tmj" if text.startswith("{") else "x.tmx"
    msg = error(client.post("/api/upload", json={"name": name, "text": text}), 400)
    assert "must embed their tilesets" in msg
    assert any(f"needs the tileset file '{f}'" in msg for f in ("/etc/passwd", "../../x.tsx", "/dev/zero"))


def test_upload_of_an_old_tiled_file_with_a_doctype_line(client):
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">\n'
            '<map version="1.0" orientation="orthogonal" width="2" height="1" tilewidth="8" tileheight="8">'
            '<tileset firstgid="1" name="t"><tile id="0"><properties><property name="terrain" value="forest"/>'
            '</properties></tile></tileset><layer name="g" width="2" height="1"><data encoding="csv">1,1</data></layer></map>')
    r = client.post("/api/upload", json={"name": "old.tmx", "text": text})
    assert r.status_code == 200, r.text
    bad = text.replace('SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd"', '[<!ENTITY e "x">]')
    assert "not a safe" in error(client.post("/api/upload", json={"name": "old.tmx", "text": bad}), 400)


def test_upload_accepts_what_generate_writes_with_its_tileset_image(client, tmp_path):
    from wargrid import generate
    from wargrid.io.tiled import save_tiled

    m = generate(10, 8, kind="square", seed=4)
    save_tiled(m, tmp_path / "g.tmx")  # an embedded tileset with an <image source=...>
    assert 'image source="g-terrain.png"' in (tmp_path / "g.tmx").read_text()
    r = client.post("/api/upload", json={"name": "g.tmx", "text": (tmp_path / "g.tmx").read_text()})
    assert r.status_code == 200, r.text
    assert r.json()["terrain"] == m.terrain.ravel().tolist()


@pytest.mark.parametrize(
    ("name", "text", "needle"),
    [
        ("a.tmx", '<!DOCTYPE map [<!ENTITY a "aaaa">]><map>&a;</map>', "safe, well-formed XML"),
        ("a.tmj", "{nope", "not valid JSON"),
        ("a.json", '{"wargrid": 99}', "could not read 'a.json' as a wargrid map"),
        ("a.map", "type octile\nheight 2\nwidth 2\nmap\n..\n.", "could not read 'a.map' as a movingai map"),
        ("a.json", "[1, 2", "could not read"),
    ],
)
def test_upload_of_a_broken_file_is_a_clear_400(client, name, text, needle):
    msg = error(client.post("/api/upload", json={"name": name, "text": text}), 400)
    assert needle in msg
    assert "wargrid-upload-" not in msg  # the private temporary path is not shown


def test_upload_of_a_map_too_big_to_show(client):
    from wargrid import Map, SquareGrid, save_map
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        save_map(Map(SquareGrid(300, 2)), Path(d) / "wide.json")
        text = (Path(d) / "wide.json").read_text()
    assert "up to 256 x 256" in error(client.post("/api/upload", json={"name": "wide.json", "text": text}), 413)


def test_upload_wesnoth_map(client):
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "data" / "wesnoth" / "two_rivers.map").read_text()
    r = client.post("/api/upload", json={"name": "two_rivers.map", "text": text})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["kind"] == "hex-flat" and got["grid"]["offset"] == "odd-q" and (got["width"], got["height"]) == (14, 10)
    mover = client.post("/api/upload", json={"name": "a.map", "text": "type octile\nheight 1\nwidth 2\nmap\n..\n"})
    assert mover.status_code == 200, mover.text


def test_upload_of_a_wesnoth_map_of_many_unknown_codes_is_refused_at_once(client):
    # 36.3: 40,000 distinct unknown codes kept the server's threads busy for 36 s, then answered 500
    n = 202
    text = "".join(", ".join(f"Zz{y * n + x}" for x in range(n)) + "\n" for y in range(n))
    msg = error(client.post("/api/upload", json={"name": "many.map", "text": text}), 400)
    assert "unknown terrain code 'Zz203'" in msg
