"""Lenient counts: per scheme and label, the outcomes of the optimal matchings; they add.

A batch produces :class:`LenientCounts`; counts of batches add with ``+`` (and
``sum``) and round-trip through plain dicts, so streaming and distributed
evaluation need no more memory than one batch. Scores are computed from them
afterwards by :func:`nested_span_f1.lenient.score.summarize_lenient`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from ..core.counts import Additive, Mergeable, frozen_mapping

LENIENT_SCHEMES = ("strict", "exact", "partial", "type")
"""The lenient schemes, in the order SemEval-2013 Task 9.1 lists them."""

BREAKDOWN = ("correct", "type_error", "boundary_error", "boundary_type_error", "missed", "spurious")
"""Categories of the error breakdown (one canonical matching)."""


@dataclass(frozen=True)
class LenientTally(Additive):
    """One label under one scheme.

    Gold-side counts (the recall view) are of gold spans with this label, by the
    outcome of their pair: ``correct``, ``incorrect``, ``partial``, and
    ``possible`` (all gold spans with the label). Prediction-side counts (the
    precision view) are of predictions with this label: ``predicted_correct``,
    ``predicted_incorrect``, ``predicted_partial`` and ``actual``. A pair whose
    two labels differ counts on the gold side of one label and the prediction
    side of the other, so each side sums over labels to the overall count.
    """

    correct: int = 0
    incorrect: int = 0
    partial: int = 0
    possible: int = 0
    predicted_correct: int = 0
    predicted_incorrect: int = 0
    predicted_partial: int = 0
    actual: int = 0

    @property
    def missed(self) -> int:
        """Gold spans with this label that no prediction was matched to."""
        return self.possible - self.correct - self.incorrect - self.partial

    @property
    def spurious(self) -> int:
        """Predictions with this label that were matched to no gold span."""
        return self.actual - self.predicted_correct - self.predicted_incorrect - self.predicted_partial


@dataclass(frozen=True)
class LenientCounts(Mergeable):
    """Everything the lenient scores are computed from.

    Attributes:
        schemes: scheme -> label -> :class:`LenientTally`, for labels seen on either side.
        breakdown: the :data:`BREAKDOWN` categories of the canonical matching.
        confusion: gold label -> predicted label -> matched pairs (canonical matching).
        partial_weight, min_iou: the settings the matchings were made with; counts
            made with other settings do not add.
        notes: additive diagnostics (``duplicate_predictions``, ``duplicate_references``,
            invalid chunks of tag input).

    >>> a = LenientCounts({"strict": {"PER": LenientTally(1, 0, 0, 1, 1, 0, 0, 1)}})
    >>> (a + a).total("strict").correct, (a + a).to_dict()["schemes"]["strict"]["PER"]
    (2, [2, 0, 0, 2, 2, 0, 0, 2])
    """

    LEAVES: ClassVar[Mapping[str, type]] = {"schemes": LenientTally}
    SETTINGS: ClassVar[tuple[str, ...]] = ("partial_weight", "min_iou")

    schemes: Mapping[str, Mapping[str, LenientTally]] = field(default_factory=dict)
    breakdown: Mapping[str, int] = field(default_factory=dict)
    confusion: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    partial_weight: float = 0.5
    min_iou: float | None = None
    notes: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "schemes", frozen_mapping({s: self.schemes.get(s, {}) for s in LENIENT_SCHEMES}))
        object.__setattr__(self, "breakdown", frozen_mapping({c: int(self.breakdown.get(c, 0)) for c in BREAKDOWN}))
        object.__setattr__(self, "confusion", frozen_mapping(self.confusion))
        object.__setattr__(self, "notes", frozen_mapping(self.notes))

    def total(self, scheme: str) -> LenientTally:
        """All labels of a scheme pooled (the overall counts)."""
        return sum(self.schemes[scheme].values(), LenientTally())
