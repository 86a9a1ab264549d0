"""The columns of a survey: one row a map, each column named, typed and described.

``COLUMNS`` is the table a results file holds, in order. The ``seconds_*``
columns are the only ones that change from run to run; every other column is
the same whichever way the survey ran (``MEASURE_COLUMNS``).

>>> [c.name for c in COLUMNS][:4]
['seed', 'error', 'cells', 'land_share']
>>> "seconds_total" in MEASURE_COLUMNS, "start_town_spread" in MEASURE_COLUMNS
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..terrain import TerrainTable

__all__ = ["Column", "COLUMNS", "MEASURE_COLUMNS", "TIME_COLUMNS", "STEPS", "column_names"]

STEPS = ("generate", "zones", "partition", "starts", "paths")
"""The timed steps of measuring one map, in the order they run."""


@dataclass(frozen=True)
class Column:
    """A column of the results: its ``name``, its Arrow ``type`` ('int64', 'float64', 'bool', 'string',
    'list<list<int64>>') and what it holds."""

    name: str
    type: str
    doc: str


def _zone_columns() -> list[Column]:
    out = []
    for c in TerrainTable.default().classes:  # generated boards use the default table
        out.append(Column(f"zones_{c}", "int64", f"connected zones a {c} unit can walk"))
        out.append(Column(f"largest_zone_{c}", "float64",
                          f"share of the cells a {c} unit can stand on that lie in its largest zone (0 when none)"))
    return out


COLUMNS: tuple[Column, ...] = (
    Column("seed", "int64", "the seed of the map (generate_board's seed; also the partition's and the starts' seed)"),
    Column("error", "string", "why measuring this map failed ('Type: message'); null when it did not"),
    Column("cells", "int64", "cells on the board"),
    Column("land_share", "float64", "share of the cells the survey's unit can stand on"),
    Column("towns", "int64", "towns the generator placed (the map's resources)"),
    *_zone_columns(),
    Column("partition_feasible", "bool", "whether a compact partition between the players exists (false: InfeasibleError)"),
    Column("partition_balanced", "bool", "every player's land within one cell of every other's"),
    Column("partition_spread", "float64", "largest minus smallest player's cell count"),
    Column("partition_cells_min", "int64", "the smallest player's cell count"),
    Column("partition_cells_max", "int64", "the largest player's cell count"),
    Column("partition_compactness_mean", "float64", "mean over players of perimeter / sqrt(cells) (lower: more compact)"),
    Column("partition_compactness_max", "float64", "the least compact player's perimeter / sqrt(cells)"),
    Column("partition_chunks_max", "int64", "the most pieces one player's land is in (1: every region in one piece)"),
    Column("starts_found", "bool", "whether start positions exist (false: fewer cells than players in the largest zone)"),
    Column("start_cells", "list<list<int64>>", "each player's start cell as [x, y]"),
    Column("start_min_steps", "int64", "fewest steps between two starts"),
    Column("start_value_spread", "float64", "largest minus smallest land within 3 steps of a start"),
    Column("town_distance_min", "float64", "the luckiest player's cost from its start to its nearest town"),
    Column("town_distance_max", "float64", "the unluckiest player's cost from its start to its nearest town"),
    Column("start_town_spread", "float64",
           "town_distance_max - town_distance_min: how unequal the way to the first town is (0: fair; inf: a player "
           "reaches no town; null: no towns)"),
    Column("start_distance_min", "float64", "the cheapest cost between two starts (distance_table)"),
    Column("start_distance_mean", "float64", "the mean cost between two starts"),
    Column("start_distance_max", "float64", "the dearest cost between two starts"),
    Column("path_steps_mean", "float64", "mean steps of the cheapest paths between every two starts"),
    Column("path_steps_max", "int64", "steps of the longest of those paths"),
    Column("path_detour_mean", "float64", "mean of path steps / steps on an open board (1: straight)"),
    Column("path_detour_max", "float64", "the largest of those detours"),
    Column("paths_unreachable", "int64", "pairs of starts with no path between them"),
    *(Column(f"seconds_{s}", "float64", f"seconds spent on the {s} step") for s in STEPS),
    Column("seconds_total", "float64", "seconds spent on the whole map"),
)
"""Every column of a survey's results, in order."""

TIME_COLUMNS = tuple(c.name for c in COLUMNS if c.name.startswith("seconds_"))
"""The columns that change from run to run: how long each step took."""

MEASURE_COLUMNS = tuple(c.name for c in COLUMNS if c.name not in TIME_COLUMNS)
"""The columns that are the same whichever way a survey ran."""


def column_names() -> list[str]:
    """The column names, in order."""
    return [c.name for c in COLUMNS]
