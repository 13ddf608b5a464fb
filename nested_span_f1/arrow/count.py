"""One record batch -> the counts of one metric, by the metric's own counting functions.

A :class:`Job` names the metric, the two columns (and the lengths column of span
input) and the metric's options; it is plain data, so that it travels to worker
processes and Spark executors. Its :meth:`Job.count` is the single-process API
applied to the rows of one record batch: counts of batches add to the counts of
the whole (a row is a sentence or a document and is never split).
"""
from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import pyarrow.compute as pc

from ..core.counts import Mergeable
from ..core.matching import DuplicateSpanWarning, warn_duplicates
from ..core.scores import summarize
from ..core.wording import quote
from ..flat.encoding import read_label_list
from ..flat.pipeline import count_exact, decode_pair
from ..lenient.score import count_lenient, match_spans_lenient, read_sides, summarize_lenient
from ..nested.score import NestedCounts, count_entities, count_nested, summarize_nested
from .columns import entities, is_span_column, row_lengths, span_arrays

METRICS = ("exact", "lenient", "nested")
"""The metrics a job counts (their evaluate modules: span_f1, lenient_span_f1, nested_span_f1)."""

OPTIONS = {
    "exact": ("scheme", "mode", "suffix", "label_list"),
    "lenient": ("scheme", "mode", "suffix", "label_list", "partial_weight", "min_iou"),
    "nested": ("length_bins",),
}
"""The options of each metric's counting function (``zero_division`` is the summary's)."""

_SENTENCE = re.compile(r"\bsentence (\d+)")


@dataclass(frozen=True)
class Job:
    """What to count in each record batch: ``metric`` over columns ``predictions`` and ``references``.

    ``lengths`` names a column that bounds span ends (tokens, text or integers) for
    span input; ``options`` are the metric's (see :data:`OPTIONS`).
    """

    metric: str
    predictions: str = "predictions"
    references: str = "references"
    lengths: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.metric not in METRICS:
            raise ValueError(f"metric must be one of {', '.join(METRICS)}, got {quote(self.metric)}")
        unknown = sorted(set(self.options) - set(OPTIONS[self.metric]))
        if unknown:
            raise TypeError(f"the {self.metric} metric takes no option {', '.join(unknown)} "
                            f"(its options: {', '.join(OPTIONS[self.metric])}, zero_division)")
        if self.lengths is not None and self.metric == "exact":
            raise ValueError("a lengths column bounds span ends; the exact metric scores tags, whose rows are their lengths")

    @property
    def columns(self) -> list[str]:
        """The columns a batch must hold, in the order they are read."""
        return [self.predictions, self.references, *([self.lengths] if self.lengths else [])]

    def with_options(self, **options: Any) -> Job:
        return replace(self, options={**self.options, **options})

    def count(self, batch: Any, where: str = "", first: int = 0) -> Mergeable:
        """The counts of one record batch (or table); errors name the row as ``sentence first + i``.

        ``where`` (a file, a partition) starts the message of an error. Duplicate
        spans are counted, not warned about: the caller warns once for the whole.

        Raises:
            ValueError, TypeError: the single-process API's message for the same rows.
        """
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DuplicateSpanWarning)
                return self._count(batch)
        except (ValueError, TypeError) as error:
            raise located(error, where, first) from None

    def _count(self, batch: Any) -> Mergeable:
        pred, ref = batch.column(self.predictions), batch.column(self.references)
        options = dict(self.options)
        if self.metric == "exact":
            return count_exact(pred, ref, **options)
        lengths = row_lengths(batch.column(self.lengths)) if self.lengths else None
        if self.metric == "nested":
            return count_entities(entities(pred, "predictions", lengths), entities(ref, "references", lengths),
                                  **options)
        matching = {key: options.pop(key) for key in ("partial_weight", "min_iou") if key in options}
        if is_span_column(pred) or is_span_column(ref):
            read_sides([], [], **options)  # tag options with span input are refused as the plain path refuses them
            notes: dict[str, int] = {}
            predicted, gold = span_arrays(pred, "predictions", lengths), span_arrays(ref, "references", lengths)
        else:
            decoded = decode_pair(pred, ref, **options)
            predicted, gold, notes = decoded.predictions, decoded.references, dict(decoded.notes)
        return match_spans_lenient(predicted, gold, notes=notes, **matching).counts()

    def count_batches(self, batches: Iterable[Any], where: str = "", first: int = 0,
                      progress: Callable[[int], object] | None = None) -> Mergeable | None:
        """The counts of record batches read in order (a part of a file, a Spark partition), added; None for no
        batch. Rows are named from ``first`` on, as :meth:`count` names them; ``progress`` gets each batch's rows."""
        total: Mergeable | None = None
        for batch in batches:
            counts = self.count(batch, where, first)
            total = counts if total is None else total + counts
            first += batch.num_rows
            if progress is not None:
                progress(batch.num_rows)
        return total

    def empty(self) -> Mergeable:
        """The counts of no rows, as the single-process API gives them for two empty lists."""
        count = {"exact": count_exact, "lenient": count_lenient, "nested": count_nested}
        return count[self.metric]([], [], **self.options)  # type: ignore[no-any-return, operator]

    def reference_tags(self, batches: Iterable[Any]) -> set[str]:
        """The distinct tags of the batches' reference column (label ids named by ``label_list``; -100 and ids
        outside it left out: scoring names them): what strict mode detects its scheme from."""
        values: set[Any] = set()
        for batch in batches:
            values.update(pc.unique(pc.list_flatten(batch.column(self.references))).to_pylist())
        if self.options.get("label_list") is None:
            return {tag for tag in values if isinstance(tag, str)}
        labels = read_label_list(self.options["label_list"])
        return {labels[i] for i in values if isinstance(i, int) and 0 <= i < len(labels)}


def located(error: Exception, where: str, first: int) -> Exception:
    """``error`` with each ``sentence N`` counted from ``first`` and ``where`` in front: the same words as the
    single-process API's, for rows read in batches from a file or a partition."""
    text = _SENTENCE.sub(lambda m: f"sentence {first + int(m.group(1))}", str(error))
    return type(error)(f"{where}: {text}" if where else text)


def notes_of(counts: Mergeable) -> Mapping[str, int]:
    """The notes of any metric's counts (duplicates, invalid chunks, crossing pairs)."""
    if isinstance(counts, NestedCounts):
        return counts.counts.notes
    return counts.notes  # type: ignore[attr-defined, no-any-return]


def warn_once(counts: Mergeable) -> None:
    """The duplicate warning of the single-process API, once, with the sums of all batches."""
    notes = notes_of(counts)
    warn_duplicates(notes.get("duplicate_predictions", 0), notes.get("duplicate_references", 0))


def summary(metric: str, counts: Mergeable, zero_division: Any) -> dict[str, Any]:
    """The result dict of ``metric`` from its counts, as its single-process ``score_*`` function returns it."""
    if metric == "exact":
        return summarize(counts, zero_division)  # type: ignore[arg-type]
    if metric == "lenient":
        return summarize_lenient(counts, zero_division)  # type: ignore[arg-type]
    return summarize_nested(counts, zero_division)  # type: ignore[arg-type]


__all__ = ["METRICS", "Job", "located", "summary", "warn_once"]
