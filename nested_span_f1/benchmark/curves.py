"""The precision-recall curve of each system whose predictions carry scores (docs/DESIGN.md, 'Scored predictions').

A system read from a file (or given as a corpus) whose entities have scores gets,
beside its figures, its curve against the gold by the nested metric
(:func:`nested_span_f1.thresholds.threshold_curve`, every span at or above a
threshold kept; discontinuous entities count in it as the nested metric counts
them): average precision, the best-F1 threshold (on the benchmark's gold: an
oracle figure when the gold is the test set), the same per type, and the curve's
points to draw, at most :data:`~nested_span_f1.render.curves.DRAWN_POINTS` of them
evenly spaced by threshold rank (``nested-span-f1 thresholds`` gives every point).
"""
from __future__ import annotations

import warnings
from typing import Any

from ..core.matching import DuplicateSpanWarning
from ..flat.pipeline import tags_to_spans
from ..formats import Corpus
from ..render.curves import thinned
from ..thresholds.score import threshold_curve
from .inputs import Side


def system_curve(gold: Side, predicted: Side, trim: bool = False, snap: str | None = None) -> dict[str, Any] | None:
    """The curve's figures of a system (see the module docstring), or None when its predictions carry no scores.
    ``snap`` moves a text system's spans onto a token gold's tokens, as the benchmark pairs them."""
    if predicted.corpus is None or predicted.corpus.scores is None:
        return None
    if gold.corpus is not None:
        reference = gold.corpus
    elif gold.columns is not None:
        reference = Corpus(gold.columns.tokens, tags_to_spans(gold.columns.column(-1)), source=gold.name)
    else:
        return None
    onto_gold = reference.unit == "tokens" and predicted.corpus.unit == "characters"
    with warnings.catch_warnings():  # the benchmark warns once about duplicates, for every system
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        curve = threshold_curve(reference, predicted.corpus, trim=trim, snap=snap if onto_gold else None,
                                zero_division=0)
    points = thinned([(float(r), float(p)) for r, p in zip(curve.recall, curve.precision)])
    return {**curve.summary(), "per_type": {label: typed.summary() for label, typed in curve.per_type.items()},
            "drawn": [list(point) for point in points]}
