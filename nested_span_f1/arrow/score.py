"""Score Arrow and Parquet corpora in bounded memory with ``num_proc`` processes: the entry points.

:func:`count_arrow` cuts the source into parts (:mod:`.sources`), counts each
part record batch by record batch with the metric's own counting function
(:mod:`.count`), in this process or in ``num_proc`` worker processes, and adds
the counts in the order of the parts; :func:`score_arrow` turns them into the
result dict of ``score_exact`` / ``score_lenient`` / ``score_nested``. Memory
holds a few record batches per process, never the corpus.
"""
from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from functools import partial
from typing import Any, TypeVar

from ..core.counts import Mergeable
from ..core.progress import bar
from ..core.scores import ZeroDivision, check_zero_division
from ..core.wording import quote
from ..flat.schemes import detect_scheme
from ..flat.tags import reference_prefixes, scheme_from_prefixes
from .columns import total_length
from .count import Job, summary, warn_once
from .sources import Part, split

BATCH_ROWS = 2048
"""Rows per record batch: a batch of sentences (about 30,000 tokens) is counted in one call of the core, whose
per-call cost is then small; memory holds a few batches per process."""

Source = Any
"""A Parquet file or folder (a path), a pyarrow Table, RecordBatch or RecordBatchReader, or a datasets.Dataset."""

R = TypeVar("R")


def count_part(job: Job, part: Part, batch_size: int, progress: Callable[[int], object] | None = None) -> Mergeable:
    """The counts of one part, record batch by record batch (run in a worker process, or in this one)."""
    total = job.count_batches(part.batches(job.columns, batch_size), part.name, part.first, progress)
    return job.empty() if total is None else total


def part_tags(job: Job, part: Part, batch_size: int) -> set[str]:
    """The distinct reference tags of one part."""
    return job.reference_tags(part.batches(job.columns, batch_size))


def in_order(function: Callable[[Part], R], parts: Iterable[Part], num_proc: int) -> Iterator[tuple[Part, R]]:
    """``function`` of each part, in the parts' order: in this process, or in ``num_proc`` worker processes with at
    most two parts a worker in flight (a reader is read as fast as the parts are counted, no faster)."""
    if num_proc == 1:
        for part in parts:
            yield part, function(part)
        return
    pool = ProcessPoolExecutor(max_workers=num_proc)
    try:
        pending: deque[tuple[Part, Future[R]]] = deque()
        for part in parts:
            pending.append((part, pool.submit(function, part)))
            if len(pending) >= 2 * num_proc:
                done, future = pending.popleft()
                yield done, future.result()
        while pending:
            done, future = pending.popleft()
            yield done, future.result()
    finally:
        # an error stops the parts not yet started; the processes end with the call
        pool.shutdown(wait=True, cancel_futures=True)


def _check_run(num_proc: Any, batch_size: Any) -> None:
    for name, value in (("num_proc", num_proc), ("batch_size", batch_size)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {quote(value)}")


def strict_scheme(job: Job, tags: Callable[[], set[str]], check: Callable[[Job], object]) -> Job:
    """The job with the scheme strict mode detects from the references of the whole corpus, as the single-process
    API detects it from all references at once (each part must decode with the same scheme).

    ``tags`` gathers the distinct reference tags; when they name no scheme, ``check``
    counts the corpus in default mode first, so that a malformed tag is named as the
    single-process API names it before it says that no scheme was found.
    """
    if job.metric == "nested" or job.options.get("mode") != "strict" or job.options.get("scheme") is not None:
        return job
    found = reference_prefixes(tags(), bool(job.options.get("suffix", False)))
    if detect_scheme(found) is None:
        check(job.with_options(mode=None))
    return job.with_options(scheme=scheme_from_prefixes(found).name)


def _count_all(job: Job, source: Source, part_rows: int, num_proc: int, batch_size: int, progress: bool) -> Mergeable:
    """The counts of every part of ``source`` (parts of ``part_rows`` rows), added in the parts' order; the bar
    moves a record batch at a time in one process, a part at a time with several."""
    parts, rows = split(source, job.columns, part_rows)
    total: Mergeable | None = None
    with bar(rows, job.metric, "rows", show=progress) as shown:
        update = None if shown.disable else shown.update
        count = partial(count_part, job, batch_size=batch_size, progress=update if num_proc == 1 else None)
        for part, counts in in_order(count, parts, num_proc):
            total = counts if total is None else total + counts
            if update is not None and num_proc > 1:
                update(part.rows)
    return job.empty() if total is None else total


def _all_tags(job: Job, source: Source, part_rows: int, num_proc: int, batch_size: int) -> set[str]:
    """The distinct reference tags of every part of ``source``."""
    parts, _ = split(source, job.columns, part_rows)
    found: set[str] = set()
    for _, part_found in in_order(partial(part_tags, job, batch_size=batch_size), parts, num_proc):
        found |= part_found
    return found


def count_arrow(
    source: Source,
    metric: str = "exact",
    *,
    predictions: str = "predictions",
    references: str = "references",
    lengths: str | None = None,
    num_proc: int = 1,
    batch_size: int = BATCH_ROWS,
    progress: bool = True,
    **options: Any,
) -> Mergeable:
    """The counts of ``metric`` over the rows of ``source``, equal to the single-process API's on the same rows.

    Args:
        source: a Parquet file or a folder of them, a pyarrow ``Table``,
            ``RecordBatch`` or ``RecordBatchReader``, or a ``datasets.Dataset``.
        metric: ``"exact"`` (as :func:`count_exact`), ``"lenient"``
            (:func:`count_lenient`) or ``"nested"`` (:func:`count_nested`).
        predictions, references: the two columns: tags (``list<string>``), label
            ids (``list<int>``, with ``label_list``), or spans
            (``list<struct<start, end, label>>``, lenient and nested).
        lengths: for spans, a column bounding their ends: tokens (a list), text (a
            string: character spans end within its code points) or integers.
        num_proc: worker processes; 1 counts in this process.
        batch_size: rows per record batch (memory holds a few per process).
        progress: a bar over rows where a person sees it (a terminal, a notebook:
            :mod:`nested_span_f1.core.progress`); False: none.
        options: the metric's options (``scheme``, ``mode``, ``suffix``,
            ``label_list``; ``partial_weight``, ``min_iou``; ``length_bins``).

    Raises:
        ValueError, TypeError: bad input, with the single-process API's message, the
            row counted as ``sentence N`` from the start of its file (or table), and
            the file in front.
    """
    _check_run(num_proc, batch_size)
    job = Job(metric, predictions, references, lengths, options)
    part_rows = batch_size if num_proc > 1 else sys.maxsize
    run = partial(_count_all, source=source, part_rows=part_rows, num_proc=num_proc, batch_size=batch_size,
                  progress=progress)
    tags = partial(_all_tags, job, source, part_rows, num_proc, batch_size)
    counts = run(strict_scheme(job, tags, run))
    warn_once(counts)
    return counts


def part_tokens(lengths: str, part: Part, batch_size: int) -> int:
    """The row lengths of one part's column ``lengths`` summed (run in a worker process, or in this one)."""
    return total_length(part.batches([lengths], batch_size), lengths)


def count_tokens(source: Source, lengths: str, *, num_proc: int = 1, batch_size: int = BATCH_ROWS) -> int:
    """The tokens of ``source``: its column ``lengths`` read as :func:`count_arrow` reads it (tokens, the characters
    of a text, or integers) and summed, part by part in ``num_proc`` processes; only that column is read.

    Raises:
        ValueError, TypeError: no such column, a column of another type or with nulls.
    """
    _check_run(num_proc, batch_size)
    parts, _ = split(source, [lengths], batch_size if num_proc > 1 else sys.maxsize)
    return sum(tokens for _, tokens in in_order(partial(part_tokens, lengths, batch_size=batch_size), parts, num_proc))


def score_arrow(source: Source, metric: str = "exact", *, zero_division: ZeroDivision = "warn",
                **arguments: Any) -> dict[str, Any]:
    """The result dict of ``metric`` over the rows of ``source``: :func:`count_arrow`'s counts summarised as
    ``score_exact`` / ``score_lenient`` / ``score_nested`` summarise theirs (``zero_division`` as there)."""
    check_zero_division(zero_division)
    return summary(metric, count_arrow(source, metric, **arguments), zero_division)


__all__ = ["BATCH_ROWS", "count_arrow", "count_tokens", "score_arrow"]
