"""Saving and loading boards: wargrid's own format, Tiled and Moving AI files."""
import tempfile
from pathlib import Path

import wargrid

m = wargrid.generate(16, 12, kind="square", seed=2)
with tempfile.TemporaryDirectory() as folder:
    wargrid.save_map(m, Path(folder) / "board.json")
    wargrid.save_tiled(m, Path(folder) / "board.tmj")
    again = wargrid.load_map(Path(folder) / "board.json")
    tiled = wargrid.load_tiled(Path(folder) / "board.tmj")
print("json equal:", (again.terrain == m.terrain).all(), "tiled equal:", (tiled.terrain == m.terrain).all())
