"""A map: terrain, overlays, edits in a batch, and the events they fire."""
import wargrid

m = wargrid.Map(wargrid.HexGrid(12, 8))
changed = []
m.on("terrain_changed", lambda event: changed.append(len(event.cells)))

m.set_terrain([(3, 3), (4, 3)], "water")          # one edit, one event
with m.edit() as e:                               # many cells, one event at the end
    e.terrain[5, 0:6] = m.terrains.index("forest")
m.set_overlay([(4, 3)], "bridge")                 # a bridge over the water

print("terrain_changed events:", changed)
print("foot pays", m.costs(unit="foot")[3, 4], "on the bridge")
