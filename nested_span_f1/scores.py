"""Counts -> precision, recall, F1 and their averages (the only place with score arithmetic).

Values equal scikit-learn's and seqeval's ``precision_recall_fscore_support``:
the same divisions in the same order, the same ``zero_division`` policy, macro
as the unweighted mean over labels seen in gold or predictions, weighted by
gold support.
"""
from __future__ import annotations

import warnings
from typing import Any, Union

import numpy as np

from .counts import Counts, Tally

ZeroDivision = Union[str, int, float]


class UndefinedMetricWarning(UserWarning):
    """A score divided by zero and was set by ``zero_division`` (pass 0 or 1 to silence)."""


def check_zero_division(zero_division: ZeroDivision) -> float:
    """Validate ``zero_division`` and return the value it stands for."""
    if isinstance(zero_division, str):
        if zero_division != "warn":
            raise ValueError(f'zero_division must be "warn", 0 or 1, got {zero_division!r}')
        return 0.0
    if isinstance(zero_division, bool) or zero_division not in (0, 1):
        raise ValueError(f'zero_division must be "warn", 0 or 1, got {zero_division!r}')
    return float(zero_division)


def _divide(num: np.ndarray, den: np.ndarray, zero_division: ZeroDivision, what: str) -> np.ndarray:
    value = check_zero_division(zero_division)
    out = np.full(num.shape, value, dtype=np.float64)
    ok = den > 0
    out[ok] = num[ok] / den[ok]
    if zero_division == "warn" and not ok.all():
        warnings.warn(
            f"{what} is ill-defined and set to 0.0 where there is nothing to divide by; "
            "use the zero_division parameter (0 or 1) to control this",
            UndefinedMetricWarning,
            stacklevel=5,
        )
    return out


def _f1(precision: np.ndarray, recall: np.ndarray) -> np.ndarray:
    denom = precision + recall
    denom[denom == 0.0] = 1.0
    return 2.0 * precision * recall / denom


def precision_recall_f1(
    predicted_hits: Any, predicted: Any, gold_hits: Any, gold: Any, zero_division: ZeroDivision = "warn"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision = predicted_hits / predicted, recall = gold_hits / gold, and their F1, as arrays.

    Exact matching credits one number to both sides (``tp``); lenient matching and
    breakdown buckets credit the prediction side and the gold side separately.
    """
    precision = _divide(np.asarray(predicted_hits, np.float64), np.asarray(predicted, np.float64), zero_division, "precision")
    recall = _divide(np.asarray(gold_hits, np.float64), np.asarray(gold, np.float64), zero_division, "recall")
    return precision, recall, _f1(precision, recall)


def prf(tallies: list[Tally], zero_division: ZeroDivision = "warn") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 arrays for a list of tallies."""
    tp = [t.tp for t in tallies]
    return precision_recall_f1(tp, [t.predicted for t in tallies], tp, [t.gold for t in tallies], zero_division)


def summarize(counts: Counts, zero_division: ZeroDivision = "warn") -> dict[str, Any]:
    """The result dict: evaluate-seqeval's keys plus averages, untyped scores and counts.

    Keys: ``{LABEL: {precision, recall, f1, number}}`` per label; ``overall_*``
    (micro) precision/recall/f1 and ``overall_accuracy``; ``macro_*`` and
    ``weighted_*``; ``untyped_*``; ``tp``, ``fp``, ``fn``; then every note of the
    counts (duplicates, invalid chunks). All values are Python ints and floats.
    When no label is seen at all, macro and weighted scores take the
    ``zero_division`` value (seqeval gives NaN for macro there).

    >>> from nested_span_f1.counts import Counts, Tally
    >>> r = summarize(Counts({"PER": Tally(1, 2, 1)}, Tally(1, 2, 1), 4, 3))
    >>> r["PER"], r["overall_f1"], r["overall_accuracy"]
    ({'precision': 0.5, 'recall': 1.0, 'f1': 0.6666666666666666, 'number': 1}, 0.6666666666666666, 0.75)
    """
    check_zero_division(zero_division)
    per = list(counts.labels.values())
    total = counts.total
    # the labels, the micro total and the untyped tally in one set of divisions
    p, r, f = prf([*per, total, counts.untyped], zero_division)
    n = len(per)
    result: dict[str, Any] = {
        name: {"precision": pi, "recall": ri, "f1": fi, "number": tally.gold}
        for name, tally, pi, ri, fi in zip(counts.labels, per, p.tolist(), r.tolist(), f.tolist())
    }
    result["overall_precision"], result["overall_recall"], result["overall_f1"] = float(p[n]), float(r[n]), float(f[n])
    result["overall_accuracy"] = (
        counts.correct_tokens / counts.tokens if counts.tokens else check_zero_division(zero_division)
    )
    result.update(_averages(per, p[:n], r[:n], f[:n], zero_division))
    result["untyped_precision"], result["untyped_recall"], result["untyped_f1"] = (
        float(p[n + 1]), float(r[n + 1]), float(f[n + 1])
    )
    result["tp"], result["fp"], result["fn"] = total.tp, total.fp, total.fn
    result.update(counts.notes)
    return result


def _averages(
    per: list[Tally], p: np.ndarray, r: np.ndarray, f: np.ndarray, zero_division: ZeroDivision
) -> dict[str, float]:
    fallback = check_zero_division(zero_division)
    if not per:
        return {f"{avg}_{m}": fallback for avg in ("macro", "weighted") for m in ("precision", "recall", "f1")}
    # mean() and sum() are numpy's pairwise sums, as np.mean and np.average take them
    out = {"macro_precision": float(p.mean()), "macro_recall": float(r.mean()), "macro_f1": float(f.mean())}
    gold = np.array([t.gold for t in per], dtype=np.float64)
    scale = gold.sum()
    if scale == 0:
        # scikit-learn's rule: nothing to weight by; precision and F1 are 0 once anything was predicted
        predicted_any = any(t.predicted for t in per)
        out.update(
            weighted_precision=0.0 if predicted_any else fallback,
            weighted_recall=fallback,
            weighted_f1=0.0 if predicted_any else fallback,
        )
    else:
        # np.average(x, weights=gold), term for term: (x * gold).sum() / gold.sum()
        out.update(
            weighted_precision=float((p * gold).sum() / scale),
            weighted_recall=float((r * gold).sum() / scale),
            weighted_f1=float((f * gold).sum() / scale),
        )
    return out


def percent_prf(tally: Tally) -> tuple[float, float, float]:
    """Precision, recall and F1 in percent, computed in conlleval.pl's order of operations.

    conlleval scales before dividing (``100*correct/found``) and takes 0 for an
    empty denominator; keeping its order makes the printed digits identical.
    """
    precision = 100 * tally.tp / tally.predicted if tally.predicted else 0.0
    recall = 100 * tally.tp / tally.gold if tally.gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1
