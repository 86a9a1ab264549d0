"""An OpenRA map (here a tiny one made on the spot, with a made-up tileset) read with Red Alert's locomotors."""
import struct
import tempfile
import zipfile
from pathlib import Path

import wargrid

TILESET = """\
General:
\tId: TINY
Templates:
\tTemplate@255:
\t\tId: 255
\t\tSize: 1,1
\t\tPickAny: True
\t\tTiles:
\t\t\t0: Clear
\tTemplate@1:
\t\tId: 1
\t\tSize: 3,1
\t\tTiles:
\t\t\t0: Road
\t\t\t1: Rough
\t\t\t2: Water
"""
MAP = """\
MapFormat: 12
RequiresMod: ra
Tileset: TINY
MapSize: 5,4
Bounds: 0,0,5,3
Actors:
\tActor0: mpspawn
\t\tLocation: 0,0
\tActor1: sbag
\t\tLocation: 2,2
"""
# map.bin version 2: header, then (template, index) per cell column by column, then resources
tiles = {(1, 1): (1, 0), (2, 1): (1, 0), (3, 1): (1, 1), (4, 2): (1, 2)}
body = b"".join(struct.pack("<HB", *tiles.get((x, y), (255, 0))) for x in range(5) for y in range(4))
binary = struct.pack("<BHHIII", 2, 5, 4, 17, 0, 17 + len(body)) + body + bytes(2 * 20)

with tempfile.TemporaryDirectory() as folder:
    Path(folder, "tilesets").mkdir()
    Path(folder, "tilesets", "tiny.yaml").write_text(TILESET)
    with zipfile.ZipFile(Path(folder, "tiny.oramap"), "w") as z:
        z.writestr("map.yaml", MAP)
        z.writestr("map.bin", binary)
    m = wargrid.load_openra(Path(folder, "tiny.oramap"))  # the tileset is found next to the map

print("classes:", m.terrains.classes)
print("playable:", m.playable, "- row 3 is off the board:", not m.grid.contains((0, 3)))
for unit in ("foot", "wheeled", "tracked", "naval"):
    print(f"{unit:>8}:", m.cost_field(unit=unit).cells()[:3].round(2).tolist())
print("sandbag:", m.overlay_name((2, 2)), "; markers:", [(mk.name, mk.kind, mk.cells) for mk in m.markers])
print("wheeled path:", m.path((0, 1), (4, 1), unit="wheeled").cells)
