"""Survey results in Parquet files (pyarrow): the rows, their columns' types, and the spec that made them.

Files are replaced atomically (written beside, then renamed), so an
interrupted survey leaves the last complete checkpoint, which ``resume``
continues from.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

from .._extras import require
from .._files import atomic_write_with
from ..errors import ArgumentError
from .columns import COLUMNS
from .measuring import SurveySpec

__all__ = ["arrow_schema", "to_table", "write_rows", "read_rows"]

_META = b"wargrid.survey."
_FEATURE = "Map surveys"


def _pa() -> Any:
    return require("pyarrow", extra="survey", feature=_FEATURE)


def arrow_schema(spec: SurveySpec | None = None) -> Any:
    """The ``pyarrow.Schema`` of the results (with ``spec`` in its metadata)."""
    pa = _pa()
    types = {"int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_(), "string": pa.string(),
             "list<list<int64>>": pa.list_(pa.list_(pa.int64()))}
    meta = None if spec is None else {_META + k.encode(): v.encode() for k, v in spec.metadata().items()}
    return pa.schema([pa.field(c.name, types[c.type]) for c in COLUMNS], metadata=meta)


def to_table(rows: Sequence[dict[str, Any]], spec: SurveySpec | None = None) -> Any:
    """The rows as a ``pyarrow.Table`` of the survey's schema."""
    return _pa().Table.from_pylist(list(rows), schema=arrow_schema(spec))


def write_rows(path: str | os.PathLike[str], rows: Sequence[dict[str, Any]], spec: SurveySpec) -> None:
    """Write ``rows`` to the Parquet file ``path``, replacing it atomically."""
    pq = require("pyarrow.parquet", extra="survey", feature=_FEATURE)
    table = to_table(rows, spec)
    atomic_write_with(path, lambda f: pq.write_table(table, f))


def read_rows(path: str | os.PathLike[str], spec: SurveySpec | None = None) -> list[dict[str, Any]]:
    """The rows of the results file ``path``; with ``spec``, first check the file was made with the same spec."""
    pa = _pa()
    pq = require("pyarrow.parquet", extra="survey", feature=_FEATURE)
    try:
        table = pq.read_table(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise ArgumentError(f"cannot read survey results {os.fspath(path)}: {exc}") from None
    missing = [c.name for c in COLUMNS if c.name not in table.column_names]
    if missing:
        raise ArgumentError(f"{os.fspath(path)} holds no survey results of this version (no column {missing[0]!r})")
    if spec is not None:
        meta = {k[len(_META):].decode(): v.decode() for k, v in (table.schema.metadata or {}).items()
                if k.startswith(_META)}
        want = spec.metadata()
        diff = [k for k in want if meta.get(k) != want[k]]
        if diff:
            k = diff[0]
            raise ArgumentError(f"{os.fspath(path)} was made with {k}={meta.get(k, '?')!r}, this survey asks for "
                                f"{k}={want[k]!r}; resume with the same options or write to another file")
    return list(table.select([c.name for c in COLUMNS]).to_pylist())
