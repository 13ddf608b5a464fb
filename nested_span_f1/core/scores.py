"""Counts -> precision, recall, F1 and their averages (the only place with score arithmetic).

Values equal scikit-learn's and seqeval's ``precision_recall_fscore_support``:
the same divisions in the same order, the same ``zero_division`` policy, macro
as the unweighted mean (``np.mean``) over labels seen in gold or predictions,
weighted as ``np.average`` by gold support. The lenient and nested summaries
call :func:`precision_recall_f1` too.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .caller import warn_caller
from .counts import Counts, Tally
from .wording import quote

ZeroDivision = str | int | float


class UndefinedMetricWarning(UserWarning):
    """A score divided by zero and was set by ``zero_division`` (pass 0 or 1 to silence)."""


def check_zero_division(zero_division: ZeroDivision) -> float:
    """Validate ``zero_division`` and return the value it stands for."""
    if isinstance(zero_division, str):
        if zero_division != "warn":
            raise ValueError(f'zero_division must be "warn", 0 or 1, got {quote(zero_division)}')
        return 0.0
    if isinstance(zero_division, bool) or zero_division not in (0, 1):
        raise ValueError(f'zero_division must be "warn", 0 or 1, got {quote(zero_division)}')
    return float(zero_division)


def _divide(num: list[float], den: list[float], value: float) -> list[float]:
    return [n / d if d > 0 else value for n, d in zip(num, den)]


def precision_recall_f1(
    predicted_hits: Sequence[float], predicted: Sequence[float], gold_hits: Sequence[float], gold: Sequence[float],
    zero_division: ZeroDivision = "warn",
) -> tuple[list[float], list[float], list[float]]:
    """Precision = predicted_hits / predicted, recall = gold_hits / gold, and their F1, as lists of floats.

    Exact matching credits one number to both sides (``tp``); lenient matching and
    breakdown buckets credit the prediction side and the gold side separately.
    Python floats are IEEE doubles, so each value is the float64 one numpy gives;
    for the handful of labels a result has, plain floats cost a fraction of arrays.
    """
    value = check_zero_division(zero_division)
    if zero_division == "warn":
        # one warning a call, naming every score that had nothing to divide by
        undefined = [what for what, den in (("precision", predicted), ("recall", gold)) if not all(d > 0 for d in den)]
        if undefined:
            warn_caller(
                f"{' and '.join(undefined)} {'is' if len(undefined) == 1 else 'are'} ill-defined and set to 0.0 where "
                "there is nothing to divide by; use the zero_division parameter (0 or 1) to control this",
                UndefinedMetricWarning,
            )
    precision = _divide([float(x) for x in predicted_hits], [float(x) for x in predicted], value)
    recall = _divide([float(x) for x in gold_hits], [float(x) for x in gold], value)
    # scikit-learn's order of operations: 2 * p * r / (p + r), with 1 for an empty denominator
    return precision, recall, [2.0 * p * r / ((p + r) or 1.0) for p, r in zip(precision, recall)]


def curve_scores(tp: np.ndarray, predicted: np.ndarray, gold: int, zero_division: ZeroDivision = 0) -> tuple[
        np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 at every point of a precision-recall curve, as float64 arrays: the operations of
    :func:`precision_recall_f1` in its order, element by element, so each value is the float it gives for the
    same counts (``tests/core/test_counts.py`` holds them equal). It never warns: the caller says once what was
    undefined. ``predicted`` is positive at every point of a curve; ``gold`` is shared by all of them.
    """
    value = check_zero_division(zero_division)
    tp_f, predicted_f = tp.astype(np.float64), predicted.astype(np.float64)
    precision = np.divide(tp_f, predicted_f, out=np.full(len(tp_f), value), where=predicted_f > 0)
    recall = tp_f / float(gold) if gold > 0 else np.full(len(tp_f), value)
    total = precision + recall
    f1 = 2.0 * precision * recall / np.where(total > 0, total, 1.0)
    return precision, recall, f1


def summarize(counts: Counts, zero_division: ZeroDivision = "warn") -> dict[str, Any]:
    """The result dict: evaluate-seqeval's keys plus averages, untyped scores and counts.

    Keys: ``{LABEL: {precision, recall, f1, number}}`` per label; ``overall_*``
    (micro) precision/recall/f1 and ``overall_accuracy``; ``macro_*`` and
    ``weighted_*``; ``untyped_*``; ``tp``, ``fp``, ``fn``; then every note of the
    counts (duplicates, invalid chunks). All values are Python ints and floats.
    When no label is seen at all, macro and weighted scores take the
    ``zero_division`` value (seqeval gives NaN for macro there).

    >>> from nested_span_f1.core.counts import Counts, Tally
    >>> r = summarize(Counts({"PER": Tally(1, 2, 1)}, Tally(1, 2, 1), 4, 3))
    >>> r["PER"], r["overall_f1"], r["overall_accuracy"]
    ({'precision': 0.5, 'recall': 1.0, 'f1': 0.6666666666666666, 'number': 1}, 0.6666666666666666, 0.75)
    """
    check_zero_division(zero_division)
    per = list(counts.labels.values())
    total = counts.total
    # the labels, the micro total and the untyped tally in one set of divisions
    tallies = [*per, total, counts.untyped]
    tp = [t.tp for t in tallies]
    p, r, f = precision_recall_f1(tp, [t.predicted for t in tallies], tp, [t.gold for t in tallies], zero_division)
    n = len(per)
    result: dict[str, Any] = {
        name: {"precision": pi, "recall": ri, "f1": fi, "number": tally.gold}
        for name, tally, pi, ri, fi in zip(counts.labels, per, p, r, f)
    }
    result["overall_precision"], result["overall_recall"], result["overall_f1"] = p[n], r[n], f[n]
    result["overall_accuracy"] = (
        counts.correct_tokens / counts.tokens if counts.tokens else check_zero_division(zero_division)
    )
    result.update(_averages(per, p[:n], r[:n], f[:n], zero_division))
    result["untyped_precision"], result["untyped_recall"], result["untyped_f1"] = p[n + 1], r[n + 1], f[n + 1]
    result["tp"], result["fp"], result["fn"] = total.tp, total.predicted - total.tp, total.gold - total.tp
    result.update(counts.notes)
    return result


def _averages(
    per: list[Tally], p: list[float], r: list[float], f: list[float], zero_division: ZeroDivision
) -> dict[str, float]:
    """Macro (unweighted mean over labels) and weighted (by gold support) precision, recall and F1."""
    fallback = check_zero_division(zero_division)
    if not per:
        return {f"{avg}_{m}": fallback for avg in ("macro", "weighted") for m in ("precision", "recall", "f1")}
    metrics = ("precision", "recall", "f1")
    scores = np.array([p, r, f])  # one row a metric: each average is one numpy call over the rows
    gold = np.array([t.gold for t in per], dtype=np.float64)
    out = dict(zip((f"macro_{m}" for m in metrics), np.mean(scores, axis=1).tolist()))
    if gold.sum() == 0:
        # scikit-learn's rule: nothing to weight by; precision and F1 are 0 once anything was predicted
        predicted_any = any(t.predicted for t in per)
        out.update(
            weighted_precision=0.0 if predicted_any else fallback,
            weighted_recall=fallback,
            weighted_f1=0.0 if predicted_any else fallback,
        )
    else:
        out.update(zip((f"weighted_{m}" for m in metrics), np.average(scores, axis=1, weights=gold).tolist()))
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
