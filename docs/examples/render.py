"""SVG pictures of a board with overlays (PNG too with the png extra)."""
import wargrid
from wargrid.render import CellMask, Coordinates, Polyline, render_svg

m = wargrid.generate(32, 20, kind="hex", seed=7)
m.set_terrain([(4, 4), (20, 14)], "plains")
path = m.path((4, 4), (20, 14), unit="foot")
svg = render_svg(m, overlays=[CellMask(m.fov((4, 4), radius=4)), Polyline(path.cells), Coordinates()],
                 title="a path and what its start sees")
print(len(svg), "characters of SVG")
