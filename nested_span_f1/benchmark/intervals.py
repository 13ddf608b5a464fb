"""Bootstrap intervals on a scored system's figures at a chosen threshold (or top k per sentence), for the
``thresholds`` command and its Python users: the documents resampled as the benchmark resamples them
(docs/DESIGN.md, 'Intervals at a chosen threshold').

The threshold is fixed (chosen on dev, or the system's own): only the sample of
test documents varies, so an interval says how far the test figure would move on
another test set of such documents, not how well dev chose. Each unit's counts at
the threshold (a document's when the gold names documents, else a sentence's: tp,
predicted and gold per label) form a matrix; a resample is a row of how often each
unit was drawn, times that matrix (:func:`.stats.bootstrap_sums`, the benchmark's
draws for a seed), and an interval is the percentile interval of the resampled
figures where they are defined (:func:`.stats.scored`). The counts come from the
thresholds' gains (:mod:`nested_span_f1.thresholds.score`): a unit's tp is the sum
of its kept predictions' gains.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..thresholds.score import Gains, ScoredPair, check_settings, gains, kept_scored
from ..thresholds.topk import ranks
from .inputs import unit_index
from .options import check_level, check_rounds, check_seed
from .stats import GOLD, PREDICTED, bootstrap_sums, scored


def resampling_units(pair: ScoredPair, by: str = "auto", name: str = "the gold") -> tuple[np.ndarray, str]:
    """The unit of every sentence of the pair (0, 1, ... in order of appearance) and the units' name
    (:func:`~nested_span_f1.benchmark.inputs.unit_index`): documents when the gold names them (``by="auto"``),
    else sentences; the texts of a corpus of texts are its documents whatever ``by`` asks. ``name`` names the
    gold in messages."""
    if pair.texts is not None and pair.doc_ids is None:
        unit_index(None, 0, by if by != "documents" else "auto")  # ``by`` checked
        return np.arange(len(pair.references), dtype=np.int64), "documents"
    return unit_index(pair.doc_ids, len(pair.references), by, name)


def unit_matrix(found: Gains, unit_of: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """``[n_units, 3, n_labels]`` int64 counts (tp, predicted, gold) of the predictions ``keep`` picks (all by
    default) and of every gold span, by the unit of their sentence and their label. A unit's tp is the sum of
    its predictions' gains: the metric's true positives there (a lenient matching never joins two sentences)."""
    n_units, width = int(unit_of.max(initial=-1)) + 1, len(found.names)
    rows = slice(None) if keep is None else keep
    cells = unit_of[found.sentence[rows]] * width + found.label[rows]
    size = n_units * width
    tp = np.bincount(cells, weights=found.gain[rows], minlength=size).round().astype(np.int64)
    predicted = np.bincount(cells, minlength=size)
    gold = np.bincount(unit_of[found.gold_sentence] * width + found.gold_label, minlength=size)
    return np.stack([tp, predicted, gold], axis=1).reshape(n_units, width, 3).transpose(0, 2, 1)


def interval_figures(matrix: np.ndarray, names: tuple[str, ...], n_resamples: int = 1000, seed: int = 0,
                     confidence: float = 0.95) -> dict[str, Any]:
    """Precision, recall and F1 (``{value, low, high}`` each) of a unit matrix's sums with their percentile
    intervals over ``n_resamples`` bootstrap resamples of its units, overall and for each label predicted or in
    the gold (``per_type``)."""
    n_units = len(matrix)
    sums = bootstrap_sums(matrix.reshape(n_units, -1), n_resamples, seed).reshape(n_resamples, 3, len(names))
    totals = matrix.sum(axis=0)
    per_type = {name: scored(totals[:, k], sums[:, :, k], confidence) for k, name in enumerate(names)
                if totals[PREDICTED, k] or totals[GOLD, k]}
    return {**scored(totals.sum(axis=-1), sums.sum(axis=-1), confidence), "per_type": per_type}


def threshold_intervals(pair: ScoredPair, threshold: float, per_type: Mapping[str, float] | None = None, *,
                        metric: str = "nested", decode: str = "nested", min_iou: float | None = None,
                        n_resamples: int = 1000, seed: int = 0, confidence: float = 0.95,
                        units: str = "auto") -> dict[str, Any]:
    """Bootstrap intervals on the figures :func:`~nested_span_f1.thresholds.apply_thresholds` gives at these
    thresholds (see the module docstring): ``precision``, ``recall``, ``f1`` as ``{value, low, high}`` (the
    values are apply_thresholds' own), ``per_type`` the same, and how they were drawn (``resamples``, ``seed``,
    ``confidence``, ``units``, ``n_units``).

    >>> from nested_span_f1.thresholds import scored_pair
    >>> pair = scored_pair([[(0, 1, "A")], [(0, 1, "A")]], [[(0, 1, "A", 0.9)], [(1, 2, "A", 0.8)]])
    >>> threshold_intervals(pair, 0.5, n_resamples=200)["f1"]
    {'value': 0.5, 'low': 0.0, 'high': 1.0}
    """
    check_settings(metric, decode, min_iou)
    n_resamples, seed = check_rounds(n_resamples, "n_resamples"), check_seed(seed, "seed")
    confidence = check_level(confidence, "confidence")
    unit_of, name = resampling_units(pair, units)
    kept = kept_scored(pair, threshold, per_type, decode)
    found = gains(kept, metric, "nested", min_iou)
    return {**interval_figures(unit_matrix(found, unit_of), found.names, n_resamples, seed, confidence),
            **drawn(n_resamples, seed, confidence, name, unit_of)}


def top_k_intervals(found: Gains, k: int, unit_of: np.ndarray, n_resamples: int = 1000, seed: int = 0,
                    confidence: float = 0.95) -> dict[str, Any]:
    """Bootstrap intervals on :func:`~nested_span_f1.thresholds.topk.top_k_figures` at ``k`` (the units
    ``unit_of`` of the sentences resampled)."""
    return interval_figures(unit_matrix(found, unit_of, ranks(found) < k), found.names, n_resamples, seed, confidence)


def drawn(n_resamples: int, seed: int, confidence: float, name: str, unit_of: np.ndarray) -> dict[str, Any]:
    """How intervals were drawn, as the JSON gives it beside them."""
    return {"resamples": n_resamples, "seed": seed, "confidence": confidence, "units": name,
            "n_units": int(unit_of.max(initial=-1)) + 1}
