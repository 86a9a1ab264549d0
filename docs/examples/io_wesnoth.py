"""A Battle for Wesnoth map costed by Wesnoth's own rules, for any of its movetypes."""
import tempfile
from pathlib import Path

import wargrid

text = """\
Gg, Gg, Gg, Gg, Gg
Gg, 1 Kh, Aa^Fda, Uu^Tf, Gg
Gg, Ww^Bsb|, Hd^Vh, Mm^Xm, Gg
Gg, Gg, Gg, Gg, Gg
"""
with tempfile.TemporaryDirectory() as folder:
    path = Path(folder) / "tiny.map"
    path.write_text(text)
    m = wargrid.load_wesnoth(path)
print("classes:", m.terrains.classes[:5], "...", len(m.terrains.classes))
print("Aa^Fda is", m.terrain_name((1, 0)), "under", m.overlay_name((1, 0)))
for unit in ("smallfoot", "mounted", "swimmer", "fly"):
    print(f"{unit:>9}:", m.costs(unit=unit).tolist())
print("snowy forest, smallfoot:", wargrid.wesnoth_cost("Aa^Fda", "smallfoot"))
