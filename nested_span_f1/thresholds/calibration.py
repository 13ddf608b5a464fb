"""Calibration of scored predictions: a reliability table (the share of right predictions in each score bin,
beside the bin's mean score) and the expected calibration error, overall and per type.

A prediction is right when it adds a true positive as the spans are kept in
decreasing score (its gain, :mod:`.score`): with ``exact`` and ``nested``
matching, when the gold holds it; with ``lenient`` matching, when the optimal
matching grows by it. Each distinct prediction counts once, at its highest score
(with flat decoding, the decoded spans). The bins split [0, 1] at ``edges``: bin
``b`` holds the scores ``edges[b] <= s < edges[b + 1]``, the last one 1.0 too;
``bins=10`` gives the edges 0, 0.1, ..., 1 (each ``k / 10`` as Python divides).
A bin's ``precision`` is its right predictions over its predictions, its
``mean_score`` their mean; the expected calibration error (Guo et al. 2017) is the
sum over bins of the share of predictions in the bin times ``|precision -
mean_score|``, computed as ``sum(|right - sum of scores|) / predictions``
(docs/DESIGN.md, 'Calibration'). Scores outside [0, 1] (logits) are no
probabilities: calibration is refused for them, saying so.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np

from ..core.wording import quote
from .score import Gains, Side, check_settings, gains, scored_pair

Bins = int | Sequence[float]
"""A number of equal-width bins over [0, 1], or the bins' edges (0 first, 1 last, increasing)."""


def bin_edges(bins: Bins) -> list[float]:
    """The edges of ``bins`` (see :data:`Bins`), checked.

    Raises:
        TypeError, ValueError: naming the value: a number of bins below 1, edges that do not start at 0 and end
            at 1, or do not increase.
    """
    if isinstance(bins, numbers.Integral) and not isinstance(bins, bool):
        if bins < 1:
            raise ValueError(f"bins must be 1 or more, got {int(bins)}")
        return [k / int(bins) for k in range(int(bins) + 1)]
    if isinstance(bins, (str, bytes)) or not isinstance(bins, Sequence) or not all(
            isinstance(e, numbers.Real) and not isinstance(e, bool) for e in bins):
        raise TypeError(f"bins must be a number of bins or a list of edges, got {quote(bins)}")
    edges = [float(e) for e in bins]
    if len(edges) < 2 or edges[0] != 0 or edges[-1] != 1 or any(b <= a for a, b in pairwise(edges)):
        raise ValueError(f"bin edges must increase from 0 to 1 (0 first, 1 last), got {quote(list(bins))}")
    return edges


def check_probabilities(score: np.ndarray) -> None:
    """ValueError when a score lies outside [0, 1]: such scores (logits, margins) are no probabilities, and a
    share of right predictions is never compared with them."""
    if len(score) and (score.min() < 0 or score.max() > 1):
        raise ValueError(f"calibration compares scores with the share of right predictions, so scores must be "
                         f"probabilities in [0, 1]; these run from {score.min():.4g} to {score.max():.4g} (logits? "
                         "apply the model's sigmoid or softmax first)")


def _table(score: np.ndarray, right: np.ndarray, edges: Sequence[float]) -> dict[str, Any]:
    """The reliability table of one set of predictions (see the module docstring)."""
    n_bins = len(edges) - 1
    where = np.minimum(np.searchsorted(np.array(edges), score, side="right") - 1, n_bins - 1)
    counts = np.bincount(where, minlength=n_bins).tolist()
    hits = np.bincount(where, weights=right, minlength=n_bins).round().astype(np.int64).tolist()
    sums = np.bincount(where, weights=score, minlength=n_bins).tolist()
    rows = [{"lower": edges[b], "upper": edges[b + 1], "count": counts[b], "right": hits[b],
             "mean_score": sums[b] / counts[b] if counts[b] else None,
             "precision": hits[b] / counts[b] if counts[b] else None} for b in range(n_bins)]
    total = len(score)
    ece = math.fsum(abs(h - s) for h, s in zip(hits, sums)) / total if total else None
    return {"bins": rows, "counts": counts, "ece": ece, "predicted": total, "right": int(sum(hits))}


def reliability(found: Gains, bins: Bins = 10) -> dict[str, Any]:
    """The reliability tables and expected calibration errors of the predictions ``found``: ``edges``, then the
    overall table (``bins``: a row a bin with ``lower``, ``upper``, ``count``, ``right``, ``mean_score`` and
    ``precision``, None where the bin is empty; ``counts``; ``ece``, None without predictions; ``predicted``;
    ``right``), and ``per_type`` the same for each label predicted.

    Raises:
        ValueError: a score outside [0, 1], bad ``bins``.
    """
    edges = bin_edges(bins)
    check_probabilities(found.score)
    right = found.gain.astype(np.float64)
    per_type = {}
    for k, name in enumerate(found.names):
        rows = found.label == k
        if rows.any():
            per_type[name] = _table(found.score[rows], right[rows], edges)
    return {"edges": edges, **_table(found.score, right, edges), "per_type": per_type}


def calibration(references: Side, predictions: Side, *, scores: Any = None, bins: Bins = 10,
                metric: str = "nested", decode: str = "nested", lengths: Any = None, min_iou: float | None = None,
                trim: bool = False, snap: str | None = None) -> dict[str, Any]:
    """The reliability tables and expected calibration errors (:func:`reliability`) of scored predictions against
    a gold, the sides and options as :func:`~nested_span_f1.thresholds.threshold_curve` takes them.

    >>> gold = [[(0, 1, "A"), (2, 3, "A")]]
    >>> found = calibration(gold, [[(0, 1, "A", 0.9), (1, 2, "A", 0.7), (2, 3, "A", 0.6)]], bins=2)
    >>> [(row["count"], row["right"], row["precision"]) for row in found["bins"]], round(found["ece"], 4)
    ([(0, 0, None), (3, 2, 0.6666666666666666)], 0.0667)
    """
    check_settings(metric, decode, min_iou)
    edges = bin_edges(bins)
    pair = scored_pair(references, predictions, scores=scores, lengths=lengths, trim=trim, snap=snap)
    return reliability(gains(pair, metric, decode, min_iou), edges)
