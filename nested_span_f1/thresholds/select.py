"""A threshold chosen on development data and applied to test, beside the system's own and the oracle's.

The threshold of best F1 on dev (or one a type, ``per_type``) is applied to
the test predictions; the report gives test at that threshold (the figure to
report), test at the system's own threshold (0.5 unless given), and test at the
threshold best on test itself: an oracle, which overstates the system and is
labelled so (docs/DESIGN.md, 'Thresholds chosen on dev').

A type of the test set that dev never predicted, or never predicted right (F1 0
at every threshold: no threshold is better than another), has no threshold of its
own: it takes the overall dev threshold, and is listed with the reason. Labels
found in one set only are listed too; a dev set that shares no label with the
test set, or whose predictions are never right, is refused.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .curve import ThresholdCurve
from .score import ScoredPair, apply_thresholds

ORACLE = ("ORACLE: the threshold of best F1 on the test set itself, chosen by looking at the test answers; an "
          "upper bound that overstates the system, not a result to report")
"""What the oracle's figures are, written beside them wherever they are shown."""

NO_ORACLE = ("no oracle: nothing was predicted on the test set",
             "no oracle: no test prediction is right at any threshold (F1 0 at every one)")
"""Why a report has no oracle row (nothing predicted; nothing right)."""


def best_thresholds(curve: ThresholdCurve, per_type: bool) -> tuple[float, dict[str, float] | None]:
    """The overall threshold of best F1, and each type's own when ``per_type`` (a type never predicted, or never
    right at any threshold, has none: :func:`without_threshold` says which and why).

    Raises:
        ValueError: nothing predicted, or nothing predicted ever right: no threshold is better than another.
    """
    if curve.best is None:
        raise ValueError("nothing was predicted, so no threshold can be chosen" if not len(curve) else
                         "no prediction is right at any threshold (F1 0 at every one), so no threshold can be chosen")
    labels = {label: typed.best["threshold"] for label, typed in curve.per_type.items() if typed.best is not None}
    return curve.best["threshold"], labels if per_type else None


def without_threshold(curve: ThresholdCurve, labels: Iterable[str], on: str) -> dict[str, str]:
    """Why each of ``labels`` has no best threshold of its own on ``curve`` (named ``on``): never predicted
    there, or never right there; labels that have one are left out."""
    out = {}
    for label in labels:
        typed = curve.per_type.get(label)
        if typed is None or not len(typed):
            out[label] = f"never predicted on {on}"
        elif typed.best is None:
            out[label] = f"never right on {on} (F1 0 at every threshold)"
    return out


def dev_then_test(dev: ScoredPair, dev_curve: ThresholdCurve, test: ScoredPair, test_curve: ThresholdCurve, *,
                  per_type: bool = False, system_threshold: float = 0.5, names: tuple[str, str] = ("dev", "test"),
                  **settings: Any) -> dict[str, Any]:
    """The selection and the test figures (see the module docstring); ``settings`` are the curves' metric,
    decoding and ``min_iou``, with which the thresholds are applied.

    Raises:
        ValueError: nothing predicted on dev, or nothing right there, or dev and test sharing no label (``names``
            name them).
    """
    dev_labels, test_labels = set(dev_curve.per_type), set(test_curve.per_type)
    if dev_labels and test_labels and not dev_labels & test_labels:
        raise ValueError(f"{names[0]} and {names[1]} share no label ({', '.join(sorted(dev_labels))} against "
                         f"{', '.join(sorted(test_labels))}): a threshold chosen on one says nothing of the other")
    try:
        chosen, chosen_types = best_thresholds(dev_curve, per_type)
    except ValueError as error:
        raise ValueError(f"{names[0]}: {error}") from None
    predicted_on_test = [label for label, typed in test_curve.per_type.items() if len(typed)]
    fallback = without_threshold(dev_curve, predicted_on_test, "dev") if per_type else {}
    oracle = test_curve.best
    oracle_types = best_thresholds(test_curve, per_type)[1] if oracle is not None else None
    selection = {
        "on": names[0], "per_type": per_type, "threshold": chosen, "thresholds": chosen_types,
        "types_without_dev_threshold": fallback, "labels_only_in_dev": sorted(dev_labels - test_labels),
        "labels_only_in_test": sorted(test_labels - dev_labels), "system_threshold": system_threshold,
    }
    test_figures: dict[str, Any] = {
        "at_dev_threshold": {"threshold": chosen, "thresholds": chosen_types,
                             **apply_thresholds(test, chosen, chosen_types, **settings)},
        "at_system_threshold": {"threshold": system_threshold, **apply_thresholds(test, system_threshold, **settings)},
    }
    if oracle is not None:
        test_figures["oracle_best_on_test"] = {
            "note": ORACLE, "threshold": oracle["threshold"], "thresholds": oracle_types,
            "types_without_threshold": without_threshold(test_curve, predicted_on_test, "test") if per_type else {},
            **apply_thresholds(test, oracle["threshold"], oracle_types, **settings)}
    else:
        test_figures["no_oracle"] = NO_ORACLE[bool(len(test_curve))]
    return {"selection": selection, "dev": {"threshold": chosen, "thresholds": chosen_types,
                                            **apply_thresholds(dev, chosen, chosen_types, **settings)},
            "test": test_figures}


def without_best(curve: Mapping[str, Any]) -> dict[str, Any]:
    """A test curve's JSON without its best points (in a dev-then-test report, the oracle's figures are given
    once, labelled)."""
    out = {key: value for key, value in curve.items() if key != "best"}
    if "per_type" in out:
        out["per_type"] = {label: {k: v for k, v in row.items() if k != "best"} for label, row in out["per_type"].items()}
    return out
