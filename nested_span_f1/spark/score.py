"""Score a Spark DataFrame on the cluster: each partition's counts in the executors, one counts object to the driver.

Each partition's rows reach :func:`_partition` as Arrow record batches
(``mapInArrow``), which counts them with the same :class:`~nested_span_f1.arrow.count.Job`
as the Arrow path, so a row (a sentence or a document) is never split. The
partition's counts (or its first error) leave the executor as one pickled value,
and Spark's ``treeAggregate`` adds them in the executors in a tree; the driver
receives the sum, never the data. Executors need the package: the wheel built from
the checkout installed there, or shipped with the job (docs/corpora.md, "Spark").
"""
from __future__ import annotations

import pickle
from collections.abc import Iterator
from functools import partial
from typing import Any

import pyarrow as pa

from ..arrow.columns import total_length
from ..arrow.count import Job, summary, warn_once
from ..arrow.score import strict_scheme
from ..arrow.sources import check_columns
from ..core.counts import Mergeable
from ..core.scores import ZeroDivision, check_zero_division

RESULT = "partition long, counts binary, error binary"
"""What a partition sends back: its number, its pickled counts, or its pickled error."""
_RESULT = pa.schema([("partition", pa.int64()), ("counts", pa.binary()), ("error", pa.binary())])

Outcome = tuple[int, Mergeable | None, Exception | None]


def _partition(job: Job, batches: Iterator[Any]) -> Iterator[Any]:
    """In an executor: the counts of one partition's record batches, as one row (none for an empty partition)."""
    from pyspark import TaskContext

    context = TaskContext.get()
    if context is None:
        raise RuntimeError("partition counts are made in a Spark task (mapInArrow)")
    partition = context.partitionId()
    try:
        total = job.count_batches(batches, f"partition {partition}")
    except (ValueError, TypeError) as error:
        yield pa.RecordBatch.from_pylist([{"partition": partition, "counts": None, "error": pickle.dumps(error)}],
                                         schema=_RESULT)
        return
    if total is not None:
        yield pa.RecordBatch.from_pylist([{"partition": partition, "counts": pickle.dumps(total), "error": None}],
                                         schema=_RESULT)


def _outcome(row: Any) -> Outcome:
    return (row.partition, None if row.counts is None else pickle.loads(row.counts),
            None if row.error is None else pickle.loads(row.error))


def _add(a: Outcome | None, b: Outcome | None) -> Outcome | None:
    """Two partitions' outcomes as one: counts added, or the error of the first partition that has one."""
    if a is None or b is None:
        return a if b is None else b
    if a[2] is not None or b[2] is not None:
        failed = [o for o in (a, b) if o[2] is not None]
        return min(failed, key=lambda o: o[0])
    counts = a[1] if b[1] is None else b[1] if a[1] is None else a[1] + b[1]
    return min(a[0], b[0]), counts, None


def _count(frame: Any, job: Job) -> Mergeable:
    rows = frame.mapInArrow(partial(_partition, job), RESULT)
    outcome = rows.rdd.treeAggregate(None, lambda total, row: _add(total, _outcome(row)), _add)
    if outcome is None:  # no rows
        return job.empty()
    _, counts, error = outcome
    if error is not None:
        raise error
    return job.empty() if counts is None else counts


def _reference_tags(job: Job, batches: Iterator[Any]) -> Iterator[Any]:
    """In an executor: the distinct reference tags of one partition."""
    tags = sorted(job.reference_tags(batches))
    yield pa.RecordBatch.from_pylist([{"tag": tag} for tag in tags], schema=pa.schema([("tag", pa.string())]))


def count_spark(
    frame: Any,
    metric: str = "exact",
    *,
    predictions: str = "predictions",
    references: str = "references",
    lengths: str | None = None,
    **options: Any,
) -> Mergeable:
    """The counts of ``metric`` over the rows of a Spark DataFrame, equal to the single-process API's.

    Arguments as :func:`nested_span_f1.arrow.count_arrow` (columns of tags, label ids
    or span structs; the metric's options). Strict mode without a scheme first
    gathers the distinct reference tags (one small job) to detect the scheme of the
    whole DataFrame, as the single-process API detects it from all references.

    Raises:
        ValueError, TypeError: bad input, with the single-process API's message, the
            row counted as ``sentence N`` within its partition, ``partition P`` in front.
    """
    job = Job(metric, predictions, references, lengths, options)
    check_columns(frame.columns, job.columns)
    frame = frame.select(*job.columns)

    def tags() -> set[str]:
        found = frame.mapInArrow(partial(_reference_tags, job), "tag string").distinct().collect()
        return {row.tag for row in found}

    counts = _count(frame, strict_scheme(job, tags, partial(_count, frame)))
    warn_once(counts)
    return counts


def _tokens(lengths: str, batches: Iterator[Any]) -> Iterator[Any]:
    """In an executor: the row lengths of one partition's column ``lengths`` summed, as one row."""
    yield pa.RecordBatch.from_pylist([{"tokens": total_length(batches, lengths)}], schema=pa.schema([("tokens", pa.int64())]))


def count_tokens_spark(frame: Any, lengths: str) -> int:
    """The tokens of a Spark DataFrame: its column ``lengths`` read as :func:`count_spark` reads it (tokens, the
    characters of a text, or integers), summed in the executors; the driver gets one number.

    Raises:
        ValueError: no such column.
    """
    check_columns(frame.columns, [lengths])
    found = frame.select(lengths).mapInArrow(partial(_tokens, lengths), "tokens long").groupBy().sum("tokens").first()
    return int(found[0] or 0)


def score_spark(frame: Any, metric: str = "exact", *, zero_division: ZeroDivision = "warn",
                **arguments: Any) -> dict[str, Any]:
    """The result dict of ``metric`` over a Spark DataFrame: :func:`count_spark`'s counts summarised as the
    single-process ``score_*`` function summarises its own."""
    check_zero_division(zero_division)
    return summary(metric, count_spark(frame, metric, **arguments), zero_division)


__all__ = ["count_spark", "count_tokens_spark", "score_spark"]
