"""Territory: dividing a board fairly between players, and fair start positions.

>>> from wargrid import SquareGrid
>>> partition(SquareGrid(4, 4), 2).report.cells.tolist()
[8, 8]
"""

from .chunks import METHODS, chunk_sizes
from .feasibility import Feasibility, InfeasibleError, check_feasibility
from .partition import MODES, Partition, PartitionError, PartitionReport, partition
from .starts import StartPositions, start_positions

__all__ = [
    "partition",
    "Partition",
    "PartitionReport",
    "PartitionError",
    "InfeasibleError",
    "Feasibility",
    "check_feasibility",
    "chunk_sizes",
    "start_positions",
    "StartPositions",
    "MODES",
    "METHODS",
]
