"""Hex coordinates and layouts, square metrics, the board kinds and shapes."""

from .board import Board, CostBoard
from .boards import (
    CORNER_RULES,
    Grid,
    HexBoard,
    HexGrid,
    HexLikeGrid,
    SquareGrid,
    StaggeredGrid,
    Step,
    Topology,
    hexagon_board,
    parallelogram_board,
    triangle_board,
)
from .isometric import IsometricGrid, IsoStagger
from .hexes import (
    DOUBLED_KINDS,
    HEX_DIAGONALS,
    HEX_DIRECTIONS,
    OFFSET_KINDS,
    Hex,
    Layout,
    axial_to_offset_array,
    doubled_to_hex,
    hex_direction,
    hex_round,
    hex_round_array,
    hex_to_doubled,
    hex_to_offset,
    offset_to_axial_array,
    offset_to_hex,
)
from .square import METRICS, SQUARE4_DIRECTIONS, SQUARE8_DIRECTIONS, chebyshev, euclidean, manhattan, octagonal, octile, square_neighbors

__all__ = [
    "Board", "CostBoard",
    "CORNER_RULES", "Grid", "HexBoard", "HexGrid", "HexLikeGrid", "SquareGrid", "StaggeredGrid", "Step", "Topology",
    "hexagon_board", "parallelogram_board", "triangle_board", "IsometricGrid", "IsoStagger",
    "DOUBLED_KINDS", "HEX_DIAGONALS", "HEX_DIRECTIONS", "OFFSET_KINDS", "Hex", "Layout",
    "axial_to_offset_array", "doubled_to_hex", "hex_direction", "hex_round", "hex_round_array",
    "hex_to_doubled", "hex_to_offset", "offset_to_axial_array", "offset_to_hex",
    "METRICS", "SQUARE4_DIRECTIONS", "SQUARE8_DIRECTIONS", "chebyshev", "euclidean", "manhattan",
    "octagonal", "octile", "square_neighbors",
]
