"""A precision-recall curve at every distinct score, from one sort and running counts.

Each distinct prediction has a score and a gain: how many true positives it adds
when it is kept (with exact matching, 1 when the gold holds it; with lenient
matching, what the optimal matching gains when it joins the spans of higher
score, :mod:`.lenient`). A prediction is kept when its score is at least the
threshold, so at the ``k``-th distinct score from the top the kept predictions
are the first rows of the predictions sorted by decreasing score: one sort, then
cumulative sums read at the last row of each distinct score give ``tp`` and the
number predicted at every threshold (docs/DESIGN.md, 'The curve: one sort, running counts').
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.scores import ZeroDivision, check_zero_division, curve_scores

CUT_SHARE = 0.05
"""A best threshold is said to lie at the cut when at most this share of the curve's predictions score below it
(:attr:`ThresholdCurve.best_near_cut`)."""

CURVE_KEYS = ("threshold", "precision", "recall", "f1", "tp", "fp", "fn")
"""The keys of a point of a curve, as the JSON gives them."""


def running_counts(score: np.ndarray, gain: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(thresholds, tp, predicted)`` at every distinct score, thresholds decreasing: the predictions sorted once by
    decreasing score, their gains summed as they come, read at the last prediction of each distinct score (ties
    are kept together, as a threshold keeps them)."""
    order = np.argsort(-score, kind="stable")
    ranked = score[order] + 0.0  # -0.0 is the threshold 0.0
    last = np.flatnonzero(np.append(ranked[1:] != ranked[:-1], True)) if len(ranked) else np.zeros(0, np.int64)
    return ranked[last], np.cumsum(gain[order], dtype=np.int64)[last], (last + 1).astype(np.int64)


def average_precision(precision: np.ndarray, recall: np.ndarray, gold: int, zero_division: float) -> float:
    """The area under the step precision-recall curve: the sum over thresholds, highest first, of the rise in
    recall times the precision there, in scikit-learn's order of operations (``average_precision_score``), so that
    it is the same float where every gold span is found. Recall counts every gold span, so with gold never found the
    curve ends below recall 1 and the area beyond it is 0. ``zero_division`` without gold (nothing to recall)."""
    if gold == 0:
        return zero_division
    if not len(precision):
        return 0.0
    rising = np.append(recall[::-1], 0.0)
    levels = np.append(precision[::-1], 1.0)
    return float(max(0.0, -np.sum(np.diff(rising) * levels[:-1])))


@dataclass(frozen=True)
class Counted:
    """tp, predicted, gold, precision, recall and F1 at every point of a curve (the points indexed by the
    subclass: thresholds, or k of top k), with ``fp`` and ``fn``."""

    tp: np.ndarray
    predicted: np.ndarray
    gold: int
    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray

    @property
    def fp(self) -> np.ndarray:
        return self.predicted - self.tp

    @property
    def fn(self) -> np.ndarray:
        return self.gold - self.tp

    def point_rows(self, index: np.ndarray, keys: tuple[str, ...]) -> list[dict[str, Any]]:
        """Every point as a dict of ``keys``: the point's ``index`` value, then precision, recall, f1, tp, fp, fn."""
        columns = (index.tolist(), self.precision.tolist(), self.recall.tolist(), self.f1.tolist(),
                   self.tp.tolist(), self.fp.tolist(), self.fn.tolist())
        return [dict(zip(keys, row)) for row in zip(*columns)]


@dataclass(frozen=True)
class ThresholdCurve(Counted):
    """Precision, recall, F1, tp, fp and fn at every distinct score of the predictions (``thresholds``
    decreasing), average precision, and the same for each label (``per_type``).

    ``to_dict()`` gives the JSON the ``thresholds`` command prints: ``curve`` (a point a threshold), ``best`` (the
    highest F1; the highest threshold among equals; None without predictions, or with none ever right),
    ``average_precision`` and ``per_type``.
    """

    thresholds: np.ndarray
    average_precision: float
    per_type: Mapping[str, ThresholdCurve] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)
    """How the curve was made: ``metric``, ``decode``, ``min_iou``."""
    notes: Mapping[str, int] = field(default_factory=dict)
    """Duplicates removed (a span predicted twice is kept at its higher score), spans flat decoding left out."""

    def __len__(self) -> int:
        return len(self.thresholds)

    @property
    def best_index(self) -> int | None:
        """The index of the point of highest F1 (the highest threshold among equals); None when nothing was
        predicted, or nothing predicted is ever right (F1 0 at every threshold: no threshold is better than
        another, so none is called best)."""
        if not len(self) or not self.tp[-1]:
            return None
        return int(np.argmax(self.f1))

    @property
    def best(self) -> dict[str, float] | None:
        """The point of highest F1 (:attr:`best_index`): ``threshold``, ``precision``, ``recall``, ``f1``; None
        when nothing was predicted or nothing predicted is ever right."""
        k = self.best_index
        if k is None:
            return None
        return {"threshold": float(self.thresholds[k]), "precision": float(self.precision[k]),
                "recall": float(self.recall[k]), "f1": float(self.f1[k])}

    @property
    def best_near_cut(self) -> bool:
        """Whether the best threshold lies within the lowest :data:`CUT_SHARE` of the saved scores: at most 5% of
        the curve's predictions score below it (its lowest score included: then none does). The curve ends at
        the lowest score saved, so F1 may still rise below it
        (docs/DESIGN.md, 'Curves cut where the predictions were saved')."""
        k = self.best_index
        return k is not None and int(self.predicted[-1] - self.predicted[k]) <= CUT_SHARE * int(self.predicted[-1])

    def cut_warning(self, name: str = "all types") -> str | None:
        """What :attr:`best_near_cut` means for this curve, and what to save, in one sentence naming ``name``;
        None when the best threshold is not near the cut."""
        if not self.best_near_cut:
            return None
        k, total = self.best_index, int(self.predicted[-1])
        assert k is not None
        below, lowest = total - int(self.predicted[k]), float(self.thresholds[-1])
        return (f"{name}: the best threshold {float(self.thresholds[k]):.4g} lies within the lowest "
                f"{CUT_SHARE:.0%} of the saved scores ({below:,} of {total:,} predictions score below it; the "
                f"lowest saved is {lowest:.4g}): the curve stops where the predictions were saved, so F1 may "
                f"still rise below it and average precision depends on that cut; save the predictions down to a "
                f"lower score than {lowest:.4g} (every candidate span, or the model's own threshold lowered) and "
                "run again")

    def points(self) -> list[dict[str, Any]]:
        """Every point of the curve as :data:`CURVE_KEYS`, thresholds decreasing."""
        return self.point_rows(self.thresholds, CURVE_KEYS)

    def summary(self) -> dict[str, Any]:
        """The curve's figures without its points: ``best``, ``average_precision``, ``number`` (gold spans),
        ``predicted`` (distinct predictions scored), ``predicted_at_best`` (those kept at the best threshold; None
        without one), ``thresholds`` (how many), ``lowest_score`` (the lowest saved: where the curve stops; None
        without predictions) and ``best_near_cut`` (:attr:`best_near_cut`)."""
        k = self.best_index
        return {"best": self.best, "average_precision": self.average_precision, "number": self.gold,
                "predicted": int(self.predicted[-1]) if len(self) else 0,
                "predicted_at_best": None if k is None else int(self.predicted[k]), "thresholds": len(self),
                "lowest_score": float(self.thresholds[-1]) if len(self) else None, "best_near_cut": self.best_near_cut}

    def warnings(self, where: str = "") -> list[str]:
        """The cut warnings (:meth:`cut_warning`) of the overall curve, then of each type's, each named (after
        ``where``, such as ``"dev, "``)."""
        found = [self.cut_warning(f"{where}all types")]
        found += [typed.cut_warning(f"{where}{label}") for label, typed in self.per_type.items()]
        return [line for line in found if line is not None]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: the settings, ``curve``, the summary, ``per_type`` (the same for each label), the notes and
        ``warnings`` (:meth:`warnings`)."""
        out: dict[str, Any] = {**self.settings, "curve": self.points(), **self.summary()}
        if self.per_type:
            out["per_type"] = {label: {"curve": curve.points(), **curve.summary()}
                               for label, curve in self.per_type.items()}
        out.update(self.notes)
        out["warnings"] = self.warnings()
        return out


def build_curve(score: np.ndarray, gain: np.ndarray, gold: int, zero_division: ZeroDivision = 0) -> ThresholdCurve:
    """The curve of predictions with these scores and gains against ``gold`` spans (no labels)."""
    value = check_zero_division(zero_division)
    thresholds, tp, predicted = running_counts(score, gain)
    precision, recall, f1 = curve_scores(tp, predicted, gold, zero_division)
    return ThresholdCurve(tp, predicted, int(gold), precision, recall, f1, thresholds,
                          average_precision(precision, recall, gold, value))


def labelled_curves(score: np.ndarray, gain: np.ndarray, label: np.ndarray, gold: Mapping[int, int],
                    names: tuple[str, ...], zero_division: ZeroDivision = 0) -> dict[str, ThresholdCurve]:
    """One curve a label seen among the predictions or in ``gold`` (label id -> gold spans), in the order of
    ``names``: the rows of each label taken apart by one stable sort."""
    order = np.argsort(label, kind="stable")
    bounds = np.searchsorted(label[order], np.arange(len(names) + 1))
    curves = {}
    for k, name in enumerate(names):
        rows = order[bounds[k]:bounds[k + 1]]
        if len(rows) or gold.get(k, 0):
            curves[name] = build_curve(score[rows], gain[rows], gold.get(k, 0), zero_division)
    return curves
