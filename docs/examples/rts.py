"""Real-time strategy detail: leptons, the classic pathfinder, the entry ladder."""
import numpy as np

import wargrid
from wargrid import rts

print(rts.cell_to_lepton((3, 2)), "is the centre of cell (3, 2) in leptons")

m = wargrid.Map(wargrid.SquareGrid(8, 5, diagonal=True))
m.set_terrain([(4, y) for y in range(0, 4)], "water")
classic = m.classic_path((0, 0), (7, 0), unit="foot")
best = m.path((0, 0), (7, 0), unit="foot")
print(f"classic: {len(classic.cells)} cells; A*: {len(best.cells)} cells")

entries = np.zeros((5, 8), dtype=np.int8)
entries[4, 4] = rts.Entry.MOVING_UNIT                # a friend passing by
print("ladder cost:", m.ladder_path((0, 0), (7, 0), entries, unit="foot").cost)
