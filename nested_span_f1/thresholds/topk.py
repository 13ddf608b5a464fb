"""Top k per sentence, an alternative to a threshold: in each sentence the k highest-scoring predictions kept.

A span classifier that scores every candidate span is often decoded by keeping,
in each sentence (each document of a corpus of texts), its k best spans. Each
distinct prediction (a span predicted twice counts once, at its higher score; with
flat decoding, the decoded spans) gets its rank in its sentence: by decreasing
score, ties by start, then end, then label (a discontinuous entity after the
contiguous ones of its score). At k the predictions of rank below k are kept, so
one sort gives the curve over every k: running sums of the gains (:mod:`.score`)
by rank, read at each k, up to the most predictions a sentence holds
(docs/DESIGN.md, 'Top k per sentence'). With flat decoding the top k are the k
best spans that do not overlap, as a greedy decoder stopping after k spans keeps
them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.scores import ZeroDivision, check_zero_division, curve_scores, precision_recall_f1
from .curve import Counted
from .score import Gains, Side, check_settings, gains, scored_pair

TOP_K_KEYS = ("k", "precision", "recall", "f1", "tp", "fp", "fn")
"""The keys of a point of the curve over k, as the JSON gives them."""


def ranks(found: Gains) -> np.ndarray:
    """Each prediction's rank in its sentence, from 0 (see the module docstring for the order): the predictions'
    rows are in the order (sentence, start, end, label), so a stable sort by decreasing score within each
    sentence breaks ties by that order."""
    order = np.lexsort((-found.score, found.sentence))
    sentence = found.sentence[order]
    first = np.searchsorted(sentence, sentence, side="left")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order)) - first
    return rank


@dataclass(frozen=True)
class TopKCurve(Counted):
    """Precision, recall, F1, tp, fp and fn keeping the top ``k`` predictions of each sentence, for ``k`` from 1
    to the most predictions a sentence holds (beyond that nothing changes)."""

    k: np.ndarray

    def __len__(self) -> int:
        return len(self.k)

    @property
    def best(self) -> dict[str, Any] | None:
        """The k of highest F1 (the smallest among equals) with its ``precision``, ``recall`` and ``f1``; None when
        nothing was predicted or nothing predicted is ever right."""
        if not len(self) or not self.tp[-1]:
            return None
        i = int(np.argmax(self.f1))
        return {"k": int(self.k[i]), "precision": float(self.precision[i]), "recall": float(self.recall[i]),
                "f1": float(self.f1[i])}

    def points(self) -> list[dict[str, Any]]:
        """Every point as :data:`TOP_K_KEYS`, k rising."""
        return self.point_rows(self.k, TOP_K_KEYS)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: ``curve`` (a point a k), ``best`` and ``number`` (gold spans)."""
        return {"curve": self.points(), "best": self.best, "number": self.gold}


def curve_over_k(found: Gains, zero_division: ZeroDivision = 0) -> TopKCurve:
    """The curve over k of the predictions ``found`` (see the module docstring)."""
    check_zero_division(zero_division)
    rank = ranks(found)
    size = int(rank.max(initial=-1)) + 1
    tp = np.cumsum(np.bincount(rank, weights=found.gain, minlength=size)).round().astype(np.int64)
    predicted = np.cumsum(np.bincount(rank, minlength=size)).astype(np.int64)
    gold = sum(found.gold.values())
    precision, recall, f1 = curve_scores(tp, predicted, gold, zero_division)
    return TopKCurve(tp, predicted, gold, precision, recall, f1, np.arange(1, size + 1))


def top_k_figures(found: Gains, k: int, zero_division: ZeroDivision = 0) -> dict[str, Any]:
    """The figures keeping the top ``k`` of each sentence, as :func:`~nested_span_f1.thresholds.apply_thresholds`
    gives them at a threshold: ``precision``, ``recall``, ``f1``, ``tp``, ``fp``, ``fn``, ``per_type`` (each
    label's, with ``number`` and ``predicted``)."""
    keep = ranks(found) < k
    width = len(found.names)
    tp = np.bincount(found.label[keep], weights=found.gain[keep], minlength=width).round().astype(np.int64).tolist()
    predicted = np.bincount(found.label[keep], minlength=width).tolist()
    gold = [found.gold.get(label, 0) for label in range(width)]
    shown = [label for label in range(width) if predicted[label] or gold[label]]
    p, r, f = precision_recall_f1([tp[i] for i in shown], [predicted[i] for i in shown], [tp[i] for i in shown],
                                  [gold[i] for i in shown], zero_division)
    per_type = {found.names[i]: {"precision": p[j], "recall": r[j], "f1": f[j], "tp": tp[i],
                                 "fp": predicted[i] - tp[i], "fn": gold[i] - tp[i], "number": gold[i],
                                 "predicted": predicted[i]} for j, i in enumerate(shown)}
    total = (sum(tp), sum(predicted), sum(gold))
    (precision,), (recall,), (f1,) = precision_recall_f1([total[0]], [total[1]], [total[0]], [total[2]], zero_division)
    return {"k": k, "precision": precision, "recall": recall, "f1": f1, "tp": total[0], "fp": total[1] - total[0],
            "fn": total[2] - total[0], "per_type": per_type}


def top_k_curve(references: Side, predictions: Side, *, scores: Any = None, metric: str = "nested",
                decode: str = "nested", lengths: Any = None, min_iou: float | None = None, trim: bool = False,
                snap: str | None = None, zero_division: ZeroDivision = 0) -> TopKCurve:
    """The curve over k of keeping the top k predictions of each sentence (see the module docstring); the sides
    and options as :func:`~nested_span_f1.thresholds.threshold_curve` takes them.

    >>> gold = [[(0, 1, "A"), (2, 3, "A")], [(0, 2, "B")]]
    >>> pred = [[(0, 1, "A", 0.9), (1, 2, "A", 0.8), (2, 3, "A", 0.3)], [(0, 2, "B", 0.2)]]
    >>> curve = top_k_curve(gold, pred)
    >>> curve.tp.tolist(), curve.predicted.tolist(), curve.best["k"]
    ([2, 2, 3], [2, 3, 4], 3)
    """
    check_settings(metric, decode, min_iou)
    pair = scored_pair(references, predictions, scores=scores, lengths=lengths, trim=trim, snap=snap)
    return curve_over_k(gains(pair, metric, decode, min_iou), zero_division)
