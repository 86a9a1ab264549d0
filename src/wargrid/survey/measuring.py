"""Measuring one generated map: what a designer asks of it, as one row of plain values.

A ``SurveySpec`` says which maps (size, kind, players, unit, generator
options); ``measure(spec, seed)`` generates the map of ``seed`` and fills the
row of ``wargrid.survey.columns.COLUMNS``. It never raises for a bad map: the
row then holds the error. ``warm(spec)`` loads the kernels a survey runs, once
per process.

>>> spec = SurveySpec(16, 12, players=2)
>>> row = measure(spec, 3)
>>> row["seed"], row["error"], row["partition_balanced"], len(row["start_cells"])
(3, None, True, 2)
"""

from __future__ import annotations

import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

import numpy as np

from ..errors import ArgumentError, ArgumentTypeError
from .._validate import check_choice, check_positive_int
from ..generate import KINDS, BoardOptions, GeneratedBoard, generate_board
from ..map import Map
from ..territory import InfeasibleError
from .columns import COLUMNS, STEPS

__all__ = ["SurveySpec", "measure", "warm", "empty_row", "BOARD_OPTIONS"]

BOARD_OPTIONS = tuple(k for k in BoardOptions.__annotations__ if k not in ("seed", "kind"))
"""The ``generate_board`` options a survey passes on (``board=``)."""

Row = dict[str, Any]


@dataclass(frozen=True)
class SurveySpec:
    """Which maps a survey measures: ``width`` x ``height`` boards of ``kind``, divided between ``players``,
    movement measured for ``unit`` (``None``: the terrain table's first class), generated with the
    ``generate_board`` options ``board`` (sorted ``(name, value)`` pairs).

    >>> SurveySpec(24, 24, kind="square", players=3).describe()
    '24x24 square maps, 3 players'
    """

    width: int
    height: int
    kind: str = "hex"
    players: int = 2
    unit: str | None = None
    board: tuple[tuple[str, Any], ...] = field(default=())

    def __post_init__(self) -> None:
        check_positive_int(self.width, "width")
        check_positive_int(self.height, "height")
        check_choice(self.kind, "kind", KINDS)
        check_positive_int(self.players, "players")
        if self.unit is not None and not isinstance(self.unit, str):
            raise ArgumentTypeError(f"unit must be a movement class name or None, got {self.unit!r}")
        for name, _ in self.board:
            if name not in BOARD_OPTIONS:
                raise ArgumentError(f"unknown board option {name!r}; choose from {', '.join(BOARD_OPTIONS)}")

    @classmethod
    def of(cls, width: int, height: int, *, kind: str, players: int, unit: str | None,
           board: Mapping[str, Any] | None) -> "SurveySpec":
        """A spec with the ``board`` options given as a mapping."""
        if board is not None and not isinstance(board, Mapping):
            raise ArgumentTypeError(f"board must be a mapping of generate_board options, got {type(board).__name__}")
        return cls(width, height, kind=kind, players=players, unit=unit, board=tuple(sorted((board or {}).items())))

    def generate(self, seed: int) -> GeneratedBoard:
        """The map of ``seed`` and its towns."""
        return generate_board(self.width, self.height, kind=self.kind, seed=seed, **dict(self.board))

    def describe(self) -> str:
        """A short human description."""
        unit = f" ({self.unit})" if self.unit else ""
        extra = "".join(f", {k}={v}" for k, v in self.board)
        return f"{self.width}x{self.height} {self.kind} maps, {self.players} players{unit}{extra}"

    def metadata(self) -> dict[str, str]:
        """The spec as text, stored with the results so that ``resume`` can check it."""
        return {"width": str(self.width), "height": str(self.height), "kind": self.kind, "players": str(self.players),
                "unit": self.unit or "", "board": repr(self.board)}


def empty_row(seed: int) -> Row:
    """A row with ``seed`` and every other column null."""
    row: Row = {c.name: None for c in COLUMNS}
    row["seed"] = seed
    return row


@contextmanager
def _clock(row: Row, step: str) -> Iterator[None]:
    t0 = time.perf_counter()
    try:
        yield
    finally:
        row[f"seconds_{step}"] = time.perf_counter() - t0


def measure(spec: SurveySpec, seed: int) -> Row:
    """The row of the map of ``seed``: a failure of any step is caught and kept in ``row['error']``."""
    row = empty_row(seed)
    t0 = time.perf_counter()
    try:
        _measure(spec, seed, row)
    except Exception as exc:  # a failed map is a row with its error, never a lost survey
        row["error"] = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
    row["seconds_total"] = time.perf_counter() - t0
    return row


def _measure(spec: SurveySpec, seed: int, row: Row) -> None:
    with _clock(row, "generate"):
        board = spec.generate(seed)
    m = board.map
    unit = m.unit_class(spec.unit)
    cells = int(m.grid.mask.sum())
    row["cells"] = cells
    row["land_share"] = float(m.passable(unit=unit).sum()) / cells
    row["towns"] = len(board.towns)
    with _clock(row, "zones"):
        for c in m.terrains.classes:
            labels = m.zones(unit=c)
            _, sizes = np.unique(labels[labels >= 0], return_counts=True)
            row[f"zones_{c}"] = int(sizes.size)
            row[f"largest_zone_{c}"] = float(sizes.max() / sizes.sum()) if sizes.size else 0.0
    with _clock(row, "partition"):
        _partition(m, spec.players, unit, seed, row)
    with _clock(row, "starts"):
        try:
            s = m.start_positions(spec.players, unit=unit, seed=seed, value=m.passable(unit=unit).astype(np.float64))
        except InfeasibleError:
            row["starts_found"] = False
            return
    starts = list(s.cells)
    row.update(starts_found=True, start_cells=[[x, y] for x, y in starts], start_min_steps=int(s.min_distance),
               start_value_spread=float(np.ptp(s.values)))
    with _clock(row, "paths"):
        _paths(m, starts, list(board.towns), unit, row)


def _partition(m: Map, players: int, unit: str, seed: int, row: Row) -> None:
    try:
        p = m.partition(players, unit=unit, seed=seed)
    except InfeasibleError:
        row["partition_feasible"] = False
        return
    r = p.report
    row.update(partition_feasible=True, partition_balanced=bool(r.balanced), partition_spread=float(r.spread),
               partition_cells_min=int(r.cells.min()), partition_cells_max=int(r.cells.max()),
               partition_compactness_mean=float(r.compactness.mean()),
               partition_compactness_max=float(r.compactness.max()), partition_chunks_max=int(r.chunks.max()))


def _paths(m: Map, starts: list[tuple[int, int]], towns: list[tuple[int, int]], unit: str, row: Row) -> None:
    costs = m.distance_table(starts, towns + starts, unit=unit)  # one search from each start serves both
    if towns:
        nearest = costs[:, : len(towns)].min(axis=1)
        row.update(town_distance_min=float(nearest.min()), town_distance_max=float(nearest.max()),
                   start_town_spread=float(nearest.max() - nearest.min()) if np.isfinite(nearest).all() else float("inf"))
    if len(starts) < 2:
        return
    table = costs[:, len(towns):]
    pairs = [(i, j) for i in range(len(starts)) for j in range(i + 1, len(starts))]
    d = np.array([table[i, j] for i, j in pairs])
    row.update(start_distance_min=float(d.min()), start_distance_mean=float(d.mean()), start_distance_max=float(d.max()))
    steps, detours, unreachable = [], [], 0
    for i, j in pairs:
        path = m.path(starts[i], starts[j], unit=unit)
        if path is None:
            unreachable += 1
            continue
        n = len(path.cells) - 1
        steps.append(n)
        detours.append(n / max(m.grid.distance(starts[i], starts[j]), 1.0))
    row["paths_unreachable"] = unreachable
    if steps:
        row.update(path_steps_mean=float(np.mean(steps)), path_steps_max=int(max(steps)),
                   path_detour_mean=float(np.mean(detours)), path_detour_max=float(max(detours)))


_WARMED: set[SurveySpec] = set()


def warm(spec: SurveySpec) -> None:
    """Load (or compile) the kernels a survey of ``spec`` runs, once per process: one small map of the same kind
    measured end to end runs every query a row does (``wargrid.warm_up('movement', 'territory')`` would also
    compile the prepared structure, fields and routes of every board kind, which no row runs). Where a step of
    the small map fails, the steps after it would compile in the survey's timed rows: ``warm_up`` then runs (and
    if it fails too, the rows keep their errors: warming never raises)."""
    if spec in _WARMED:
        return
    small = SurveySpec(12, 12, kind=spec.kind, players=min(spec.players, 2), unit=spec.unit, board=spec.board)
    if measure(small, 0)["error"] is not None:
        from ..warmup import warm_up

        with suppress(Exception):  # (warming never stops a survey: each map's row keeps its own error)
            warm_up("movement", "territory")
    _WARMED.add(spec)

