"""Attack areas, any-angle paths, group moves and turning vehicles."""
import wargrid

m = wargrid.Map(wargrid.SquareGrid(20, 12, diagonal=True))
m.set_terrain([(9, y) for y in range(0, 8)], "mountains")

blast = m.area("cone", (4, 6), direction=0, length=3, width=1)
print(len(blast.cells), "cells in the cone")

path = m.path((2, 2), (17, 2), unit="foot")
smooth = m.smooth_path(path, unit="foot")
print(f"{len(path.cells)} cells smoothed to {len(smooth.points)} corners")

group = m.group_move([(2, 9), (3, 9), (2, 10)], (16, 10), unit="foot")
print("destinations:", group.destinations)
