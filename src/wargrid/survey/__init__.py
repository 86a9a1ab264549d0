"""Map surveys: generate many seeded maps and measure how fair they are, locally or on a Dask cluster.

``survey(maps, size=..., kind=..., players=...)`` measures each map (land,
zones, a fair partition, start positions, paths between starts, the time of
each step) and returns one row a map (``COLUMNS``); ``out=`` keeps them in a
Parquet file, ``client=`` runs the maps on a Dask cluster. Needs the
``survey`` extra (``pip install "wargrid[survey]"``: Dask, pyarrow, tqdm) when
run; importing this package does not import them.

>>> r = survey(2, size=12, players=2, workers=1, progress=False)
>>> len(r), r.failed()
(2, [])
"""

from .columns import COLUMNS, MEASURE_COLUMNS, STEPS, TIME_COLUMNS, Column
from .measuring import SurveySpec, measure
from .run import RowCallback, SurveyResult, survey

__all__ = ["survey", "SurveyResult", "SurveySpec", "RowCallback", "measure", "read_results", "COLUMNS",
           "MEASURE_COLUMNS", "TIME_COLUMNS", "STEPS", "Column"]


def read_results(path: str) -> list[dict[str, object]]:
    """The rows of a survey's Parquet file, in order."""
    from .store import read_rows

    return read_rows(path)
