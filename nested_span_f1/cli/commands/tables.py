"""Parquet input for ``score``, ``lenient`` and ``nested``: one table holds both sides, in two named columns.

``--gold`` and ``--pred`` name the same Parquet file or folder; ``--gold-column``
and ``--pred-column`` the columns (tags, label ids with ``--label-list``, or
span structs). The rows are counted by :mod:`nested_span_f1.arrow` in
``--workers`` processes, or on Spark with ``--spark MASTER_URL``; the command
then prints what it prints for other files.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import warnings
from pathlib import Path
from typing import Any

from ...core.counts import Mergeable
from .inputs import duplicates_in_output, for_people

_POSITION = re.compile(r"\(position (\d+) ")


def workers(value: str) -> int:
    """An argparse type: a number of processes, 1 or more."""
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"--workers takes a number of processes, 1 or more; got {value!r}")
    return int(value)


def add_table_options(parser: argparse.ArgumentParser, spans: bool = False) -> None:
    """The options of Parquet input; ``spans``: the command scores span columns too (``--lengths-column``)."""
    group = parser.add_argument_group(
        "Parquet input", "--gold and --pred name one Parquet file or folder of files: a table with a column of "
                         "predictions and one of references, one row a sentence or a document "
                         "(--gold corpus/ --pred corpus/ --gold-column gold --pred-column pred --workers 2)")
    group.add_argument("--gold-column", default="references", metavar="NAME",
                       help="the column of references (default: references)")
    group.add_argument("--pred-column", default="predictions", metavar="NAME",
                       help="the column of predictions (default: predictions)")
    if spans:
        group.add_argument("--lengths-column", metavar="NAME",
                           help="for span columns: the tokens (a list), the text (character spans) or the length "
                                "of each row, which span ends must not pass")
    group.add_argument("--label-list", metavar="FILE",
                       help="for columns of label ids: a file with one tag a line, the tag of id 0 first")
    group.add_argument("--workers", type=workers, default=1, metavar="N", help="processes that count (default: 1)")
    group.add_argument("--spark", metavar="MASTER_URL",
                       help="count on Spark instead (local[2], spark://host:7077, yarn...); the executors need "
                            "pip install \"nested-span-f1[spark]\"")


def is_parquet(path: str) -> bool:
    """A Parquet file (its first bytes are ``PAR1``) or a folder that holds ``.parquet`` files; a pipe is neither
    (and is not read: its bytes are the command's)."""
    root = Path(path)
    if root.is_dir():
        return any(root.rglob("*.parquet"))
    if not root.is_file():
        return False
    try:
        with open(root, "rb") as handle:
            return handle.read(4) == b"PAR1"
    except OSError:
        return False


def is_table(args: argparse.Namespace) -> bool:
    """The command reads a Parquet table (``--spark``, or a Parquet file or folder as ``--gold``)."""
    table = bool(args.spark) or is_parquet(args.gold)
    if not table and (args.workers != 1 or args.label_list):
        raise ValueError(f"--workers and --label-list apply to Parquet input; {args.gold} is no Parquet file "
                         "or folder")
    if table and os.path.abspath(args.gold) != os.path.abspath(args.pred):
        raise ValueError(f"{args.gold} is a Parquet table, which holds both sides: pass it to --pred too "
                         "(the columns are named by --gold-column and --pred-column)")
    return table


def header(args: argparse.Namespace, rows: int) -> str:
    """The line that says what was scored."""
    return f"{args.gold}: column {args.pred_column} against column {args.gold_column}: {rows} rows\n"


def count_table(args: argparse.Namespace, metric: str, **options: Any) -> tuple[Any, int]:
    """The counts of ``metric`` over the table's rows, and the number of rows; ``options`` left at None are
    left out. Errors count rows from 1, as the command's other messages count sentences."""
    options = {key: value for key, value in options.items() if value is not None and value is not False}
    if args.label_list:
        options["label_list"] = Path(args.label_list).read_text(encoding="utf-8").split()
    columns = {"predictions": args.pred_column, "references": args.gold_column,
               "lengths": getattr(args, "lengths_column", None)}
    from ...arrow import count_arrow

    try:
        with duplicates_in_output():
            if args.spark:
                return _on_spark(args, metric, columns, options)
            return count_arrow(args.gold, metric, num_proc=args.workers, **columns, **options), rows(args.gold)
    except (ValueError, TypeError) as error:
        located = for_people(error)
        # a span's position in its row, counted from 1 as the file readers count it (formats.Corpus)
        raise type(error)(_POSITION.sub(lambda m: f"(position {int(m.group(1)) + 1} ", str(located))) from None


def rows(path: str) -> int:
    """The rows of a Parquet file or folder, from the files' metadata."""
    import pyarrow.parquet as pq

    from ...arrow.sources import parquet_files

    return sum(pq.ParquetFile(file).metadata.num_rows for file in parquet_files(path))


def _on_spark(args: argparse.Namespace, metric: str, columns: dict[str, Any], options: dict[str, Any]) -> tuple[Mergeable, int]:
    from pyspark.sql import SparkSession

    from ...spark import count_spark, session

    if args.spark.startswith("local"):
        # local executors start PYSPARK_PYTHON, else the python3 on PATH, which may lack this package
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    ours = SparkSession.getActiveSession() is None
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
        spark = session(args.spark, **{"spark.ui.showConsoleProgress": str(sys.stderr.isatty()).lower()})
        if ours:
            spark.sparkContext.setLogLevel("ERROR")
        try:
            frame = spark.read.parquet(args.gold)
            return count_spark(frame, metric, **columns, **options), frame.count()
        finally:
            if ours:  # a session that was running before stays running
                spark.stop()
