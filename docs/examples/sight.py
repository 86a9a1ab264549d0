"""Field of view, line of sight and fog of war."""
import wargrid

m = wargrid.Map(wargrid.SquareGrid(16, 12))
m.set_terrain([(6, y) for y in range(2, 9)], "mountains")

seen = m.fov((3, 5), radius=6)                     # bool [y, x]
print(int(seen.sum()), "cells seen;", "(9, 5) hidden:", not seen[5, 9])
print("line of sight (3, 5) -> (9, 5):", m.line_of_sight((3, 5), (9, 5)))

fog = m.fog(["red", "blue"], radius=4)
fog.place("scout", "red", (3, 5))
print("red sees", int(fog.visible("red").sum()), "cells, blue", int(fog.visible("blue").sum()))
