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
from typing import Any, NamedTuple

from ...core.wording import options_apply, plural, quote
from ...flat.encoding import read_label_list
from ...flat.tags import parse_tags
from ...formats.columns import UTF16_MARKS, check_no_nul, not_utf8
from ...formats.parquet import data_files, is_parquet, parquet_files
from ...formats.records import file_lines, loads
from ...formats.registry import looks_like_json
from .inputs import duplicates_in_output, for_people

_POSITION = re.compile(r"\(position (\d+) ")


def workers(value: str) -> int:
    """An argparse type: a number of processes, 1 or more."""
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"--workers takes a number of processes, 1 or more; got {quote(value)}")
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
                       help="for columns of label ids: a file with one tag a line, the tag of id 0 first (or a JSON "
                            "list, or a model's config.json with its id2label)")
    group.add_argument("--workers", type=workers, default=1, metavar="N", help="processes that count (default: 1)")
    group.add_argument("--spark", metavar="MASTER_URL",
                       help="count on Spark instead (local[2], spark://host:7077, yarn...); the executors need this "
                            "package: the wheel built from the checkout (docs/corpora.md, 'Spark')")


NOT_FOR_TABLES = {
    "--column": ("column", -1), "--delimiter": ("delimiter", None), "--gold-format": ("gold_format", None),
    "--pred-format": ("pred_format", None), "--trim": ("trim", False), "--snap": ("snap", None),
    "--types": ("types", None), "--no-event-triggers": ("no_event_triggers", False), "--spans-key": ("spans_key", None), "--normalization": ("normalization", "all"),
    "--multiset": ("multiset", False), "--policy": ("policy", "kth"), "--no-fallback": ("fallback", True),
    "--no-inner-last": ("inner_last", True), "--show": ("show", 5),
}
"""The options of other input (column files, texts, answers) with their attribute and default: given with
a Parquet table, they are refused, not ignored."""


def is_table(args: argparse.Namespace) -> bool:
    """The command reads a Parquet table: ``--gold`` is a Parquet file or folder (:mod:`...formats.parquet`).

    Raises:
        ValueError: options of Parquet input with other input, options of other input with a table, a table not
            given to both sides, an empty folder.
    """
    table = is_parquet(args.gold)
    if not table:
        given = [flag for flag, on in (("--spark", args.spark), ("--workers", args.workers != 1),
                                        ("--label-list", args.label_list)) if on]
        if given:
            raise ValueError(f"{options_apply(given)} to Parquet input; "
                             f"{args.gold} is no Parquet file or folder")
        if os.path.isdir(args.gold) and not data_files(args.gold):
            raise ValueError(f"{args.gold}: an empty folder (names that start with . or _ and empty files left out)")
        return False
    given = [flag for flag, (name, default) in NOT_FOR_TABLES.items() if getattr(args, name, default) != default]
    if given:
        raise ValueError(f"{', '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to Parquet input "
                         f"({args.gold} is a Parquet table, whose columns --gold-column and --pred-column name)")
    if args.spark and args.workers != 1:
        raise ValueError("--workers counts in processes of this machine; with --spark the executors count (leave "
                         "--workers out)")
    if os.path.abspath(args.gold) != os.path.abspath(args.pred):
        raise ValueError(f"{args.gold} is a Parquet table, which holds both sides: pass it to --pred too "
                         "(the columns are named by --gold-column and --pred-column)")
    return True


LABEL_FILE = "one tag a line, the tag of id 0 first; or a JSON list; or a model's id2label (its config.json)"
"""What a ``--label-list`` file holds, for messages."""


def read_label_file(path: str, suffix: bool = False) -> tuple[str, ...]:
    """The tag of each label id from a ``--label-list`` file, as the Python API reads a ``label_list``: one tag a
    line (id 0 first), a JSON list, or a model's ``id2label`` (its ``config.json``, or the mapping alone,
    ``{"0": "O", ...}``); UTF-8, or UTF-16 with its byte-order mark. Every tag must be well formed.

    Raises:
        ValueError, TypeError: anything else, named by the file and its line (or the label id of a JSON list): a blank
            line (every id after it would shift), whitespace inside a line, bytes that are not UTF-8 text, json that
            does not parse or holds no label list, a malformed tag.
    """
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-16") if raw.startswith(UTF16_MARKS[:2]) else raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise not_utf8(path) from None
    check_no_nul(text, path, 1)
    if looks_like_json(text):
        labels, places = _json_labels(loads(text, path), path), None
    else:
        lines = file_lines(text)
        while lines and not lines[-1].strip():
            lines.pop()
        for number, line in enumerate(lines, 1):
            if not line.strip():
                raise ValueError(f"{path}, line {number}: a blank line; line n holds the tag of label id n - 1, so "
                                 "every id after it would shift by one: remove it")
            if len(line.split()) > 1:
                raise ValueError(f"{path}, line {number}: {quote(line)} holds more than a tag ({LABEL_FILE})")
        labels, places = tuple(line.strip() for line in lines), [f"line {n}" for n in range(1, len(lines) + 1)]
    if not labels:
        raise ValueError(f"--label-list {path}: no tags in the file ({LABEL_FILE})")
    _, problems = parse_tags(labels, suffix)
    if problems:
        code = min(problems)
        where = places[code] if places else f"label id {code}"
        raise ValueError(f"{path}, {where}: tag {quote(labels[code])}: malformed: {problems[code]}")
    return labels


def _json_labels(value: Any, path: str) -> tuple[str, ...]:
    """The label list a json file holds: a list, a model's ``config.json`` (its ``id2label``), or an ``id2label`` or
    ``label2id`` mapping alone (ids as json writes them, strings of digits)."""
    if isinstance(value, dict) and isinstance(value.get("id2label"), dict):
        value = value["id2label"]
    if isinstance(value, dict):
        value = {int(key) if isinstance(key, str) and key.isdigit() else key: item for key, item in value.items()}
    try:
        return read_label_list(value)
    except (ValueError, TypeError) as error:
        raise type(error)(f"{path}: {error}") from None


def header(args: argparse.Namespace, rows: int) -> str:
    """The line that says what was scored."""
    return (f"{args.gold}: column {args.pred_column} against column {args.gold_column}: "
            f"{plural(rows, 'row')}\n")


class Counted(NamedTuple):
    """What a table's rows gave: the metric's counts, the rows, and the sum of the lengths column (when asked)."""

    counts: Any
    rows: int
    tokens: int | None = None


def count_table(args: argparse.Namespace, metric: str, tokens: bool = False, **options: Any) -> Counted:
    """The counts of ``metric`` over the table's rows, and the number of rows; ``options`` left at None are
    left out; ``tokens``: the lengths column's sum too (counted in the workers or executors), when there is one.
    Errors count rows from 1, as the command's other messages count sentences."""
    options = {key: value for key, value in options.items() if value is not None and value is not False}
    if args.label_list:
        options["label_list"] = read_label_file(args.label_list, args.suffix)
    columns = {"predictions": args.pred_column, "references": args.gold_column,
               "lengths": getattr(args, "lengths_column", None)}
    lengths = columns["lengths"] if tokens else None
    from ...arrow import count_arrow
    from ...arrow.score import count_tokens

    try:
        with duplicates_in_output():
            if args.spark:
                return _on_spark(args, metric, columns, options, lengths)
            counts = count_arrow(args.gold, metric, num_proc=args.workers, **columns, **options)
            total = None if lengths is None else count_tokens(args.gold, lengths, num_proc=args.workers)
            return Counted(counts, rows(args.gold), total)
    except (ValueError, TypeError) as error:
        located = for_people(error)
        # a span's position in its row, counted from 1 as the file readers count it (formats.Corpus)
        raise type(error)(_POSITION.sub(lambda m: f"(position {int(m.group(1)) + 1} ", str(located))) from None


def length_unit(args: argparse.Namespace) -> str:
    """What the lengths column counts: ``characters`` for a text column, else ``tokens``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pq.read_schema(parquet_files(args.gold)[0])
    kind = schema.field(args.lengths_column).type if args.lengths_column in schema.names else None
    return "characters" if kind is not None and (pa.types.is_string(kind) or pa.types.is_large_string(kind)) \
        else "tokens"


def rows(path: str) -> int:
    """The rows of a Parquet file or folder, from the files' metadata."""
    import pyarrow.parquet as pq

    return sum(pq.ParquetFile(file).metadata.num_rows for file in parquet_files(path))


def _on_spark(args: argparse.Namespace, metric: str, columns: dict[str, Any], options: dict[str, Any],
              lengths: str | None) -> Counted:
    """The counts and rows of the table (and the sum of column ``lengths``), counted on Spark. A session that does not start, and a job that fails for
    another reason than bad input, are one line naming ``--spark`` and the reason (a ValueError: exit 2)."""
    from pyspark.sql import SparkSession

    from ...spark import SessionError, count_spark, session
    from ...spark.score import count_tokens_spark
    from ...spark.session import reason

    # the files the Arrow path reads, checked as it checks them (before Spark starts): one folder, one table
    files = [str(file) for file in parquet_files(args.gold)]
    if args.spark.startswith("local"):
        # local executors start PYSPARK_PYTHON, else the python3 on PATH, which may lack this package
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    ours = SparkSession.getActiveSession() is None
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
        settings: dict[str, Any] = {"spark.ui.showConsoleProgress": str(sys.stderr.isatty()).lower()}
        try:
            spark = session(args.spark, quiet=True, **settings)
        except SessionError as error:
            raise ValueError(f"--spark {args.spark}: Spark did not start: {error}") from None
        if ours:
            spark.sparkContext.setLogLevel("ERROR")
        try:
            frame = spark.read.parquet(*files)
            counts = count_spark(frame, metric, **columns, **options)
            return Counted(counts, frame.count(), None if lengths is None else count_tokens_spark(frame, lengths))
        except (ValueError, TypeError):
            raise
        except Exception as error:
            if not type(error).__module__.startswith(("py4j", "pyspark")):
                raise
            raise ValueError(f"--spark {args.spark}: the Spark job failed: {reason(error)}") from None
        finally:
            if ours:  # a session that was running before stays running
                spark.stop()
