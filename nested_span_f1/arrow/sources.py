"""Where the rows are -> parts, each read record batch by record batch by whichever process counts it.

A source is a Parquet file or a folder of them (the files Spark would read:
:mod:`nested_span_f1.formats.parquet`), a ``pyarrow`` table, record batch or
record-batch reader, or a ``datasets.Dataset``. It is cut into :class:`Part`
objects: a row group of a Parquet file (a worker opens the file itself), or a
slice of an in-memory table (sent to a worker as Arrow IPC bytes, which hold the
slice only). A part knows its name (the file, or none for memory) and the row
it starts at, so that an error names the file and the row.
"""
from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ..formats.parquet import parquet_files


def check_columns(names: Sequence[str], columns: Sequence[str], where: str = "") -> None:
    """ValueError naming the columns the job needs that ``names`` lacks."""
    missing = [name for name in columns if name not in names]
    if missing:
        start = f"{where}: " if where else ""
        raise ValueError(f"{start}no column {', '.join(map(repr, missing))} (the columns: {', '.join(names)}); "
                         "name the prediction and reference columns")


@dataclass(frozen=True)
class Part:
    """Rows ``first`` to ``first + rows`` of the file ``name`` (``""``: a table in memory)."""

    name: str
    first: int
    rows: int

    def batches(self, columns: Sequence[str], batch_size: int) -> Iterator[Any]:
        """The part's record batches of at most ``batch_size`` rows, holding ``columns``."""
        raise NotImplementedError


@dataclass(frozen=True)
class ParquetPart(Part):
    """Row groups of one Parquet file, read by the process that counts them."""

    row_groups: tuple[int, ...] = ()

    def batches(self, columns: Sequence[str], batch_size: int) -> Iterator[Any]:
        file = pq.ParquetFile(self.name)
        check_columns(file.schema_arrow.names, columns, self.name)
        yield from file.iter_batches(batch_size=batch_size, row_groups=list(self.row_groups), columns=list(columns))


@dataclass(frozen=True, eq=False)
class TablePart(Part):
    """A slice of an in-memory table; pickled as Arrow IPC bytes (pickling the slice itself would copy every
    buffer it points into: the whole table)."""

    table: Any = None

    def __getstate__(self) -> dict[str, Any]:
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, self.table.schema) as writer:
            writer.write_table(self.table)
        return {"name": self.name, "first": self.first, "rows": self.rows, "ipc": sink.getvalue()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        state["table"] = pa.ipc.open_stream(state.pop("ipc")).read_all()
        for key, value in state.items():
            object.__setattr__(self, key, value)

    def batches(self, columns: Sequence[str], batch_size: int) -> Iterator[Any]:
        check_columns(self.table.schema.names, columns, self.name)
        yield from self.table.select(list(columns)).to_batches(max_chunksize=batch_size)


def split(source: Any, columns: Sequence[str], part_rows: int) -> tuple[Iterator[Part], int | None]:
    """The parts of ``source`` (lazily: a reader is read as the parts are counted) and its rows, when known.

    Parquet parts are row groups; in-memory parts have ``part_rows`` rows.

    Raises:
        TypeError: a source of another kind.
        ValueError: a path that holds no Parquet file or a file that is not Parquet, a column missing.
    """
    if isinstance(source, (str, os.PathLike)):
        files = parquet_files(source)
        metadata = [pq.ParquetFile(file).metadata for file in files]
        return _row_groups(files, metadata), sum(m.num_rows for m in metadata)
    if isinstance(source, pa.RecordBatch):
        source = pa.Table.from_batches([source])
    if isinstance(source, pa.Table):
        check_columns(source.schema.names, columns)
        return _slices(source, part_rows), source.num_rows
    if isinstance(source, pa.RecordBatchReader):
        check_columns(source.schema.names, columns)
        return _read(source), None
    if hasattr(source, "with_format") and hasattr(source, "num_rows"):  # a datasets.Dataset
        check_columns(source.column_names, columns)
        return _dataset_slices(source.with_format("arrow", columns=list(columns)), part_rows), source.num_rows
    raise TypeError(f"cannot read rows from {type(source).__name__}: pass a Parquet file or folder, a pyarrow "
                    "Table, RecordBatch or RecordBatchReader, or a datasets.Dataset")


def _row_groups(files: list[Path], metadata: list[Any]) -> Iterator[Part]:
    for file, meta in zip(files, metadata):
        first = 0
        for group in range(meta.num_row_groups):
            rows = meta.row_group(group).num_rows
            yield ParquetPart(str(file), first, rows, (group,))
            first += rows


def _slices(table: Any, part_rows: int) -> Iterator[Part]:
    for first in range(0, table.num_rows, part_rows):
        part = table.slice(first, part_rows)
        yield TablePart("", first, part.num_rows, part)


def _dataset_slices(dataset: Any, part_rows: int) -> Iterator[Part]:
    # a slice of a Dataset with format "arrow" is a pyarrow Table (its indices mapping, if any, applied)
    for first in range(0, dataset.num_rows, part_rows):
        part = dataset[first:first + part_rows]
        yield TablePart("", first, part.num_rows, part)


def _read(reader: Any) -> Iterator[Part]:
    first = 0
    for batch in reader:
        yield TablePart("", first, batch.num_rows, pa.Table.from_batches([batch]))
        first += batch.num_rows
