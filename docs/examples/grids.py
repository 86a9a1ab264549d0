"""Hex coordinates, offset conversions and board kinds."""
import wargrid

h = wargrid.Hex(1, -2)
assert h.neighbor(2) == wargrid.Hex(1, -3)
assert len(h.ring(2)) == 12 and h.distance(wargrid.Hex(3, -1)) == 3
assert wargrid.hex_to_offset(h, "odd-q") == (1, -2)

hexes = wargrid.HexGrid(10, 8, orientation="pointy", offset="odd-r")
squares = wargrid.SquareGrid(10, 8, diagonal=True)       # 8 directions
staggered = wargrid.StaggeredGrid(10, 8)                 # square tiles, six directions
island = wargrid.hexagon_board(3)                        # an odd-shaped board
print(hexes, squares, staggered, sep="\n")
print(sum(1 for _ in island.cells()), "cells on a hexagon of radius 3")
