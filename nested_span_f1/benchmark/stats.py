"""Resampling statistics on per-unit count matrices: bootstrap intervals and paired significance tests.

A system's counts are a matrix with one row per resampling unit (a document or a
sentence) and one column per count (tp, predicted and gold of each label). A
corpus score is a function of the column sums, so a bootstrap resample is a row
of weights (how often each unit was drawn) times the matrix, and an
approximate-randomization round is the first system's sums plus the swapped
units' differences. Nothing is re-matched or re-scored (docs/DESIGN.md, 'Benchmark statistics').

Seeds: ``np.random.SeedSequence(seed).spawn(2)`` gives the bootstrap stream and
the randomization stream, so adding a system or changing the number of rounds of
one test leaves the other's draws alone. p-values are two-sided, with the
``(count + 1) / (rounds + 1)`` convention (never 0).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..core.progress import bar
from ..core.wording import quote

CHUNK_ELEMENTS = 1 << 17
"""Most unit draws held at once: resamples are drawn and summed a chunk of rows at a time."""

TP, PREDICTED, GOLD, GOLD_TP = 0, 1, 2, 3
"""Columns of a count matrix: hits among the predictions, predictions, gold spans, and (buckets only) hits among
the gold spans."""

TOLERANCE = 1e-12
"""Two differences this close count as equal (F1s from equal counts are equal floats; this absorbs
rounding when different counts give the same ratio)."""


def streams(seed: int) -> tuple[np.random.Generator, np.random.Generator]:
    """The bootstrap and the randomization random generators of one seed."""
    boot, perm = np.random.SeedSequence(seed).spawn(2)
    return np.random.default_rng(boot), np.random.default_rng(perm)


def _chunks(n_rows: int, n_units: int) -> Iterator[int]:
    """Row counts of consecutive chunks of ``n_rows`` draws of ``n_units`` each (a function of the sizes only)."""
    size = max(1, CHUNK_ELEMENTS // max(n_units, 1))
    for first in range(0, n_rows, size):
        yield min(size, n_rows - first)


def resample_indices(n_units: int, n_resamples: int, seed: int) -> np.ndarray:
    """The unit indices of every bootstrap resample, ``[n_resamples, n_units]``, as :func:`bootstrap_sums` draws them."""
    rng = streams(seed)[0]
    parts = [rng.integers(0, n_units, size=(rows, n_units)) for rows in _chunks(n_resamples, n_units)]
    return np.concatenate(parts) if parts else np.zeros((0, n_units), dtype=np.int64)


def _weighted_chunks(matrix: np.ndarray, n_rounds: int, weights: Callable[[int], np.ndarray], desc: str,
                     progress: bool) -> Iterator[np.ndarray]:
    """``weights(rows) @ matrix`` for ``n_rounds`` rows in all, a chunk of rows at a time (``[rows, k]`` each)."""
    values = np.asarray(matrix, dtype=np.float64)
    with bar(n_rounds, desc, "resample", show=progress) as shown:
        for rows in _chunks(n_rounds, len(values)):
            yield weights(rows) @ values
            shown.update(rows)


def bootstrap_sums(matrix: np.ndarray, n_resamples: int, seed: int, *, progress: bool = False) -> np.ndarray:
    """Column sums of ``n_resamples`` bootstrap resamples of the rows of ``matrix`` ``[n_units, k]``.

    Every resample draws ``n_units`` rows with replacement (the indices
    :func:`resample_indices` returns for the same seed). Returns float64
    ``[n_resamples, k]``, exact for integer counts below 2**53.
    """
    n_units = len(matrix)
    if n_units == 0:
        raise ValueError("nothing to resample: the corpus has no sentences")
    rng = streams(seed)[0]

    def drawn(rows: int) -> np.ndarray:
        """How often each unit is drawn in each of ``rows`` resamples."""
        draws = rng.integers(0, n_units, size=(rows, n_units))
        draws += np.arange(rows)[:, None] * n_units
        return np.bincount(draws.ravel(), minlength=rows * n_units).reshape(rows, n_units)

    out = np.empty((n_resamples, np.shape(matrix)[1]))
    done = 0
    for chunk in _weighted_chunks(matrix, n_resamples, drawn, "bootstrap", progress):
        out[done:done + len(chunk)] = chunk
        done += len(chunk)
    return out


def swap_chunks(matrix: np.ndarray, n_rounds: int, seed: int, *, progress: bool = False) -> Iterator[np.ndarray]:
    """Column sums of the units each approximate-randomization round swaps, ``[rows, k]`` for a chunk of rounds
    at a time (so that a test of any number of rounds holds one chunk in memory).

    Each unit is swapped with probability 0.5, the same units for every pair of
    systems. For two systems with unit matrices ``A`` and ``B`` (columns of
    ``matrix``), a round's shuffled sums are ``A.sum(0) + s(B) - s(A)`` and
    ``B.sum(0) + s(A) - s(B)``, ``s`` being this function's sums.
    """
    n_units, rng = len(matrix), streams(seed)[1]
    return _weighted_chunks(matrix, n_rounds, lambda rows: rng.random((rows, n_units)) < 0.5, "randomization",
                            progress)


def resample(matrices: np.ndarray, n_resamples: int, n_permutations: int, seed: int,
             progress: bool = False) -> tuple[np.ndarray, Iterator[np.ndarray]]:
    """Both tests' draws of the systems' unit matrices ``[n_units, *shape]`` (``shape``: systems, counts,
    labels): the bootstrap sums of every resample, ``[n_resamples, *shape]``, and the randomization's swapped
    sums, ``[rows, *shape]`` a chunk of rounds at a time, drawn as they are read."""
    shape = matrices.shape[1:]
    flat = matrices.reshape(len(matrices), -1)
    sums = bootstrap_sums(flat, n_resamples, seed, progress=progress).reshape(-1, *shape)
    swaps = (chunk.reshape(-1, *shape) for chunk in swap_chunks(flat, n_permutations, seed, progress=progress))
    return sums, swaps


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    # zero_division=0, as the point estimates are computed
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den > 0)


def prf(tp: np.ndarray, predicted: np.ndarray, gold: np.ndarray,
        gold_tp: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 elementwise, with 0 where undefined.

    The operations of :mod:`nested_span_f1.core.scores` (``2 * p * r / (p + r)``), so a
    resample's F1 is the float the metric gives for the same counts. ``gold_tp``, when
    given, is recall's numerator (the gold spans found), for buckets that put a hit's
    prediction and its gold span in different buckets; else ``tp`` is both numerators.
    """
    precision, recall = _ratio(tp, predicted), _ratio(tp if gold_tp is None else gold_tp, gold)
    total = precision + recall
    f1 = 2.0 * precision * recall / np.where(total > 0, total, 1.0)
    return precision, recall, f1


def micro_f1(totals: np.ndarray) -> np.ndarray:
    """Micro F1 of ``[..., 3, n_labels]`` sums."""
    summed = totals.sum(axis=-1)
    return prf(summed[..., TP], summed[..., PREDICTED], summed[..., GOLD])[2]


def interval(samples: np.ndarray, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval along the first axis: the ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` quantiles."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1 (exclusive), got {quote(confidence)}")
    low, high = np.percentile(samples, [50 * (1 - confidence), 50 * (1 + confidence)], axis=0)
    return low, high


def estimate(value: Any, low: Any, high: Any) -> dict[str, float]:
    """``{value, low, high}`` as Python floats (from floats or 0-d arrays)."""
    return {"value": float(value), "low": float(low), "high": float(high)}


def scored(totals: np.ndarray, samples: np.ndarray, confidence: float) -> dict[str, dict[str, float]]:
    """P/R/F1 point values of ``totals`` ``[3]`` with the intervals of ``samples`` ``[B, 3]``; with a fourth count
    (:data:`GOLD_TP`, the gold spans found, as buckets have), recall's numerator is that.

    An interval is taken over the resamples where its score is defined: precision
    where something was predicted, recall where there is gold, F1 where either is
    (a rare type missing from a resample has no score there, not a score of 0).
    """
    found = GOLD_TP if len(totals) > GOLD_TP else TP
    point = prf(totals[TP], totals[PREDICTED], totals[GOLD], totals[found])
    resampled = prf(samples[:, TP], samples[:, PREDICTED], samples[:, GOLD], samples[:, found])
    predicted, gold = samples[:, PREDICTED] > 0, samples[:, GOLD] > 0
    out = {}
    for key, value, values, defined in zip(("precision", "recall", "f1"), point, resampled,
                                           (predicted, gold, predicted | gold)):
        low, high = interval(values[defined], confidence) if defined.any() else (value, value)
        out[key] = estimate(value, low, high)
    return out


def extreme(null: np.ndarray, observed: float) -> int:
    """How many of the ``null`` values are at least as far from 0 as ``observed`` (two-sided)."""
    return int(np.count_nonzero(np.abs(null) >= abs(observed) - TOLERANCE))


def p_value(null: np.ndarray, observed: float) -> float:
    """Two-sided p-value: ``(#{|null| >= |observed|} + 1) / (len(null) + 1)``."""
    return (extreme(null, observed) + 1) / (len(null) + 1)


def paired_bootstrap_p(differences: np.ndarray, observed: float) -> float:
    """Two-sided paired-bootstrap p-value: the resampled differences shifted to a mean of zero under the null.

    Under the null the difference is 0, so the resampled differences are centred
    on 0 by subtracting the observed one (Efron and Tibshirani 1993, 16.4;
    Berg-Kirkpatrick et al. 2012).
    """
    return p_value(differences - observed, observed)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (step-down, monotone, capped at 1), in the input order.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
