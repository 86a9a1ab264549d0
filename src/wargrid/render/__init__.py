"""Pictures of a board: SVG (``render_svg``) and PNG (``render_png``) with combinable overlays.

>>> from wargrid import HexGrid, Map
>>> from wargrid.render import render_svg, Coordinates
>>> "<polygon" in render_svg(Map(HexGrid(2, 2)), overlays=[Coordinates()])
True
"""

from .overlays import CellMask, CellValues, Coordinates, Markers, Overlay, Polyline, Regions, palette
from .svg import render_svg
from .results import Picture, board_of, overlays_for, picture
from .debug import debug_svg

__all__ = [
    "render_svg", "Picture", "picture", "overlays_for", "board_of", "debug_svg", "CellMask", "CellValues", "Coordinates", "Markers", "Overlay", "Polyline", "Regions", "palette",
]
