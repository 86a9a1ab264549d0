"""Import your maps: a small map in each format, loaded with no options, drawn with its terrain colours."""
import os
import tempfile
from pathlib import Path

import wargrid
from wargrid.render import render_svg

out = Path(os.environ.get("WARGRID_PICTURES") or tempfile.mkdtemp())  # the docs build sets the folder

# Tiled, as games lay it out: the map in maps/, its tilesets in a sibling folder, walls in a collision layer
TILESET = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="outdoor" tilewidth="16" tileheight="16" tilecount="4" columns="4">
 <tile id="0"><properties><property name="type" value="Grass"/></properties></tile>
 <tile id="1"><properties><property name="type" value="Deep Water"/></properties></tile>
 <tile id="2"><properties><property name="type" value="Trees"/></properties></tile>
 <tile id="3"><properties><property name="type" value="Dirt Road"/></properties></tile>
</tileset>
"""
W, H = 12, 8
ground = [[2 if (x - 6) ** 2 + (y - 3) ** 2 < 5 else 4 if y == 6 else 1 for x in range(W)] for y in range(H)]
trees = [[3 if x < 3 and y < 4 else 0 for x in range(W)] for y in range(H)]
walls = [[1 if x == 9 and y != 6 else 0 for x in range(W)] for y in range(H)]


def csv(rows):
    return ",\n".join(",".join(map(str, r)) for r in rows)


TMX = f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">
<map version="1.10" orientation="orthogonal" width="{W}" height="{H}" tilewidth="16" tileheight="16">
 <tileset firstgid="1" source="../tilesets/outdoor.tsx"/>
 <tileset firstgid="5" name="collision" tilewidth="16" tileheight="16" tilecount="1" columns="1"/>
 <layer name="Ground" width="{W}" height="{H}"><data encoding="csv">{csv(ground)}</data></layer>
 <layer name="Trees" width="{W}" height="{H}"><data encoding="csv">{csv(trees)}</data></layer>
 <layer name="Collision" width="{W}" height="{H}" visible="0"><data encoding="csv">{csv([[5 * v for v in r] for r in walls])}</data></layer>
</map>
"""
with tempfile.TemporaryDirectory() as folder:
    (Path(folder) / "tilesets").mkdir()
    (Path(folder) / "maps").mkdir()
    (Path(folder) / "tilesets" / "outdoor.tsx").write_text(TILESET, encoding="utf-8")
    (Path(folder) / "maps" / "town.tmx").write_text(TMX, encoding="utf-8")
    tiled = wargrid.load_tiled(Path(folder) / "maps" / "town.tmx")

    # Moving AI: one letter a cell
    rows = ["." * 12, "..@@@@......", "..@..@..TT..", "..@..@..TT..", ".......WWW..", "...SS..WWW..", "GGGG........", "." * 12]
    (Path(folder) / "arena.map").write_text(f"type octile\nheight {len(rows)}\nwidth 12\nmap\n" + "\n".join(rows) + "\n")
    movingai = wargrid.load_movingai(Path(folder) / "arena.map")

    # OpenRA: an .oramap zip (map.yaml + map.bin, column by column) whose tileset sits in a tilesets/ folder beside it
    import struct
    import zipfile

    (Path(folder) / "tilesets" / "made_up.yaml").write_text(
        "General:\n\tId: MADEUP\nTemplates:\n\tTemplate@255:\n\t\tId: 255\n\t\tSize: 1,1\n\t\tPickAny: True\n"
        "\t\tTiles:\n\t\t\t0: Clear\n\tTemplate@1:\n\t\tId: 1\n\t\tSize: 4,1\n\t\tTiles:\n"
        "\t\t\t0: Water\n\t\t\t1: Road\n\t\t\t2: Rough\n\t\t\t3: Rock\n")
    kinds = {"~": (1, 0), "=": (1, 1), ",": (1, 2), "#": (1, 3), ".": (255, 0)}
    art = ["~~~~........", "~~~.....##..", "~~......#...", "==========..", "...,,,......", "..,,,,...~~~",
           "...........~", "............"]
    tiles = b"".join(struct.pack("<HB", *kinds[art[y][x]]) for x in range(12) for y in range(8))
    resources = b"".join(bytes([1 if 5 <= x <= 7 and y >= 6 else 0, 6]) for x in range(12) for y in range(8))
    yaml = ("MapFormat: 12\nRequiresMod: ra\nTitle: Made up\nTileset: MADEUP\nMapSize: 12,8\nBounds: 0,0,12,7\n"
            "Actors:\n\tActor0: mpspawn\n\t\tLocation: 1,5\n\tActor1: powr\n\t\tLocation: 9,0\n"
            "\tActor2: t01\n\t\tLocation: 4,0\n\tActor3: sbag\n\t\tLocation: 10,3\n")
    with zipfile.ZipFile(Path(folder) / "maps" / "made-up.oramap", "w") as z:
        z.writestr("map.yaml", yaml)
        z.writestr("map.bin", struct.pack("<BHHIII", 2, 12, 8, 17, 0, 17 + len(tiles)) + tiles + resources)
    openra = wargrid.load_openra(Path(folder) / "maps" / "made-up.oramap")  # finds ../tilesets beside the map

# Battle for Wesnoth: comma-separated terrain codes, a border ring, side 1 and 2 on their keeps
WESNOTH = """\
Gg, Gg, Gg, Gg, Gg, Gg, Gg, Gg, Gg, Gg, Gg, Gg
Gg, Gg, Gs^Fp, Gs^Fp, Hh, Mm, Mm^Xm, Hh, Gg, Gg, Gg, Gg
Gg, 1 Kh, Ch, Gg, Hh^Fp, Mm, Hh, Gg^Vh, Gg, Re, Gg, Gg
Gg, Ch, Gg, Re, Re, Gg, Gs^Fds, Gg, Re, Gg, Aa^Fda, Gg
Gg, Ww, Ww, Ww^Bsb|, Ww, Wwf, Ww, Wo, Wo, Ww, Ww, Gg
Gg, Ss, Gg^Vh, Re, Gg, Gg, Re, Re, Gg, Uu^Tf, Uu, Gg
Gg, Gg, Gg, Gg, Hd, Dd^Vda, Dd, Gg, Ch, 2 Kh, Ur, Gg
Gg, Gg, Gg, Gg, Gg, Gg, Gg, Gg, Gg, Gg, Gg, Gg
"""
with tempfile.TemporaryDirectory() as folder:
    (Path(folder) / "two_sides.map").write_text(WESNOTH, encoding="utf-8")
    wesnoth = wargrid.load_wesnoth(Path(folder) / "two_sides.map")

for name, m in (("tiled", tiled), ("movingai", movingai), ("openra", openra), ("wesnoth", wesnoth)):
    (out / f"{name}.svg").write_text(render_svg(m), encoding="utf-8")
print("tiled:", tiled.shape, sorted({tiled.terrain_name((x, y)) for y in range(H) for x in range(W)}),
      "wall at (9, 0):", tiled.terrain_name((9, 0)), "| movingai:", movingai.shape,
      "| openra:", openra.playable, openra.terrain_name((6, 6)), openra.overlay_name((9, 1)))
print("wesnoth:", wesnoth.shape, "snowy forest (9, 2) costs smallfoot", wesnoth.costs(unit="smallfoot")[2, 9],
      "mounted", wesnoth.costs(unit="mounted")[2, 9])
