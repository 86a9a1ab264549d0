"""Paths, movement ranges, flow fields and connectivity zones."""
import wargrid

m = wargrid.generate(32, 20, kind="hex", seed=7)
m.set_terrain([(4, 4), (20, 14)], "plains")

foot = m.path((4, 4), (20, 14), unit="foot")
horse = m.path((4, 4), (20, 14), unit="cavalry")
print(f"foot: {len(foot.cells)} cells, cost {foot.cost}; cavalry: cost {horse.cost}")
print("as an (n, 2) array:", foot.xy.shape)

reach = m.movement_range((4, 4), 8, unit="cavalry")
print(int(reach.reachable.sum()), "cells within 8 movement points")

field = m.flow_field([(20, 14)], unit="foot")      # every cell's next step to the goal
print("connected:", m.connected((4, 4), (20, 14), unit="foot"))
