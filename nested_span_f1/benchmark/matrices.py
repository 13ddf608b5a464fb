"""The third stage of a benchmark: each system matched once and counted per resampling unit and label.

Each system's spans go through the one exact matcher
(:func:`~nested_span_f1.core.matching.match_exact`); its hits become a matrix of
tp / predicted / gold counts per unit (document or sentence) and label, which
the later stages resample and read every figure from. The lenient matching,
which starts from the exact matcher's distinct spans, gives the error
categories and the error browser's pairs. Spans each system repeats are counted
for the one warning a benchmark raises (:func:`warn_duplicates`).
"""
from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.caller import warn_caller
from ..core.matching import DuplicateSpanWarning, ExactMatch, match_exact
from ..core.spans import SpanArrays
from ..lenient.score import LenientMatch, match_spans_lenient
from .inputs import Pair
from .systems import Read


def unit_matrix(
    found: Pair, unit_of: np.ndarray, n_units: int, labels: Sequence[str]
) -> tuple[np.ndarray, ExactMatch]:
    """``[n_units, 3, n_labels]`` int64 counts (tp, predicted, gold) of one system, and its match."""
    match = match_exact(found.predictions, found.references)
    every = slice(None)
    counts = [unit_counts(match.predictions, match.predicted_hit, unit_of, n_units, labels),
              unit_counts(match.predictions, every, unit_of, n_units, labels),
              unit_counts(match.references, every, unit_of, n_units, labels)]
    return np.stack(counts, axis=1), match


def unit_counts(spans: SpanArrays, rows: np.ndarray | slice, unit_of: np.ndarray, n_units: int,
                labels: Sequence[str]) -> np.ndarray:
    """``[n_units, n_labels]`` counts of the spans ``rows`` picks, by the unit of their sentence and their label
    (``labels`` holds every label of ``spans``)."""
    index = {name: i for i, name in enumerate(labels)}
    remap = np.array([index[name] for name in spans.labels], dtype=np.int64)
    width = len(labels)
    cells = unit_of[spans.sentence[rows]] * width + remap[spans.label[rows]]
    return np.bincount(cells, minlength=n_units * width).reshape(n_units, width)


def match_systems(found: Sequence[Pair], names: Sequence[str], unit_of: np.ndarray, n_units: int,
                  labels: Sequence[str], where: str = "") -> tuple[list[tuple[np.ndarray, ExactMatch]], list[str]]:
    """:func:`unit_matrix` of every system, and the spans they removed as repeats in phrases naming the systems
    (``where`` saying on which gold), for the one warning a benchmark raises in place of a warning per system
    that names none."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        built = [unit_matrix(f, unit_of, n_units, labels) for f in found]
    duplicates = []
    predicted = [f"{match.notes['duplicate_predictions']} of {name}" for name, (_, match) in zip(names, built)
                 if match.notes["duplicate_predictions"]]
    if predicted:
        duplicates.append(f"predicted spans{where}: {', '.join(predicted)}")
    gold = max((match.notes["duplicate_references"] for _, match in built), default=0)
    if gold:
        duplicates.append(f"gold spans{where}: {gold}")
    return built, duplicates


def warn_duplicates(duplicates: Sequence[str]) -> None:
    """The one warning of a benchmark that removed repeated spans (``duplicates``: :func:`match_systems`'s
    phrases, the test gold's first), if any did."""
    if duplicates:
        warn_caller(f"removed duplicate spans (same sentence, start, end and label) before scoring, counted once "
                    f"each: {'; '.join(duplicates)} (each system's notes count them)", DuplicateSpanWarning)


@dataclass(frozen=True)
class Counted:
    """Every system matched and counted.

    Attributes:
        labels: every label of the gold, the systems and the answer systems' strings, sorted.
        matrices: ``[n_units, n_systems, 3, n_labels]`` counts (tp, predicted, gold).
        matches: each system's exact match.
        lenient: each system's lenient matching.
        duplicates: the repeated spans removed, in phrases for the warning (:func:`warn_duplicates`).
    """

    labels: list[str]
    matrices: np.ndarray
    matches: list[ExactMatch]
    lenient: list[LenientMatch]
    duplicates: list[str]

    @property
    def totals(self) -> np.ndarray:
        """``[n_systems, 3, n_labels]``: the counts of the whole gold."""
        return self.matrices.sum(axis=0)


def count_systems(read: Read) -> Counted:
    """Match and count every system read (:func:`~nested_span_f1.benchmark.systems.read_systems`)."""
    labels = sorted(set().union(*(f.predictions.labels + f.references.labels for f in read.found),
                                *(run.counts.strings.labels for run in read.answers.values())))
    built, duplicates = match_systems(read.found, read.names, read.unit_of, read.n_units, labels)
    matches = [match for _, match in built]
    lenient = [match_spans_lenient(match, units=f.units) for match, f in zip(matches, read.found)]
    return Counted(labels, np.stack([matrix for matrix, _ in built], axis=1), matches, lenient, duplicates)
