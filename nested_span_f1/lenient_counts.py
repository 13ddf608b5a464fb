"""Lenient counts: per scheme and label, the outcomes of the optimal matchings; they add.

A batch produces :class:`LenientCounts`; counts of batches add with ``+`` (and
``sum``) and round-trip through plain dicts, so streaming and distributed
evaluation need no more memory than one batch. Scores are computed from them
afterwards by :func:`nested_span_f1.lenient.summarize_lenient`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

SCHEMES = ("strict", "exact", "partial", "type")
"""The lenient schemes, in the order SemEval-2013 Task 9.1 lists them."""

BREAKDOWN = ("correct", "type_error", "boundary_error", "boundary_type_error", "missed", "spurious")
"""Categories of the error breakdown (one canonical matching)."""


@dataclass(frozen=True)
class LenientTally:
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

    def __add__(self, other: LenientTally) -> LenientTally:
        return LenientTally(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def to_list(self) -> list[int]:
        """The eight counts in field order (the inverse of ``LenientTally(*values)``)."""
        return [getattr(self, f.name) for f in fields(self)]


def _add_maps(a: Mapping[str, Any], b: Mapping[str, Any], zero: Any) -> dict[str, Any]:
    out = dict(a)
    for key, value in b.items():
        out[key] = out.get(key, zero) + value
    return out


def _freeze(mapping: Mapping[str, Any]) -> MappingProxyType:
    return MappingProxyType(dict(sorted(mapping.items())))


@dataclass(frozen=True)
class LenientCounts:
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

    schemes: Mapping[str, Mapping[str, LenientTally]] = field(default_factory=dict)
    breakdown: Mapping[str, int] = field(default_factory=dict)
    confusion: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    partial_weight: float = 0.5
    min_iou: float | None = None
    notes: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        schemes = {s: _freeze(self.schemes.get(s, {})) for s in SCHEMES}
        breakdown = {c: int(self.breakdown.get(c, 0)) for c in BREAKDOWN}
        object.__setattr__(self, "schemes", MappingProxyType(schemes))
        object.__setattr__(self, "breakdown", MappingProxyType(breakdown))
        object.__setattr__(self, "confusion", _freeze({g: _freeze(row) for g, row in self.confusion.items()}))
        object.__setattr__(self, "notes", MappingProxyType(dict(self.notes)))

    def total(self, scheme: str) -> LenientTally:
        """All labels of a scheme pooled (the overall counts)."""
        return sum(self.schemes[scheme].values(), LenientTally())

    def __add__(self, other: LenientCounts) -> LenientCounts:
        if not isinstance(other, LenientCounts):
            return NotImplemented
        if (self.partial_weight, self.min_iou) != (other.partial_weight, other.min_iou):
            raise ValueError(
                f"cannot add lenient counts made with partial_weight={self.partial_weight}, "
                f"min_iou={self.min_iou} to counts made with partial_weight={other.partial_weight}, "
                f"min_iou={other.min_iou}; the matchings differ, so score every batch with the same settings"
            )
        confusion = dict(self.confusion)
        for gold, row in other.confusion.items():
            confusion[gold] = _add_maps(confusion.get(gold, {}), row, 0)
        return LenientCounts(
            {s: _add_maps(self.schemes[s], other.schemes[s], LenientTally()) for s in SCHEMES},
            _add_maps(self.breakdown, other.breakdown, 0),
            confusion,
            self.partial_weight,
            self.min_iou,
            _add_maps(self.notes, other.notes, 0),
        )

    def __radd__(self, other: Any) -> LenientCounts:
        # lets sum(list_of_counts) start from 0
        if other == 0:
            return self
        return NotImplemented

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (inverse of :meth:`from_dict`), for files and all-reduce."""
        return {
            "schemes": {s: {lab: t.to_list() for lab, t in per.items()} for s, per in self.schemes.items()},
            "breakdown": dict(self.breakdown),
            "confusion": {g: dict(row) for g, row in self.confusion.items()},
            "partial_weight": self.partial_weight,
            "min_iou": self.min_iou,
            "notes": dict(self.notes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LenientCounts:
        """Rebuild counts written by :meth:`to_dict`."""
        return cls(
            {s: {lab: LenientTally(*map(int, v)) for lab, v in per.items()} for s, per in data["schemes"].items()},
            {k: int(v) for k, v in data["breakdown"].items()},
            {g: {p: int(n) for p, n in row.items()} for g, row in data["confusion"].items()},
            float(data["partial_weight"]),
            None if data["min_iou"] is None else float(data["min_iou"]),
            {k: int(v) for k, v in data.get("notes", {}).items()},
        )
