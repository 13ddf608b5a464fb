"""Counts: the sufficient statistics of every score, small objects that add.

A batch, a process or a shard produces :class:`Counts`; counts add with ``+``
(and ``sum``), serialise to plain dicts, and every precision, recall and F1 is
computed from them afterwards. That is what lets one code path serve one-shot
scoring, streaming evaluation and distributed all-reduce with constant memory.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Tally:
    """Matches of one label: true positives, predicted items, gold items."""

    tp: int = 0
    predicted: int = 0
    gold: int = 0

    @property
    def fp(self) -> int:
        return self.predicted - self.tp

    @property
    def fn(self) -> int:
        return self.gold - self.tp

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.tp + other.tp, self.predicted + other.predicted, self.gold + other.gold)


def _merge(a: Mapping[str, Any], b: Mapping[str, Any], zero: Any) -> dict[str, Any]:
    out = dict(a)
    for key, value in b.items():
        out[key] = out.get(key, zero) + value
    return out


@dataclass(frozen=True)
class Counts:
    """Everything a flat or nested exact-match score is computed from.

    Attributes:
        labels: per-label :class:`Tally` (labels seen in gold or predictions).
        untyped: tally of span boundaries with labels ignored.
        tokens: token positions scored (for token accuracy).
        correct_tokens: positions whose predicted tag equals the gold tag.
        notes: additive diagnostics such as ``duplicate_predictions`` or
            ``invalid_predicted_chunks``.

    >>> a = Counts({"PER": Tally(1, 2, 1)}, Tally(1, 2, 1), tokens=5, correct_tokens=4)
    >>> b = Counts({"LOC": Tally(1, 1, 1)}, Tally(1, 1, 1), tokens=3, correct_tokens=3)
    >>> (a + b).labels["PER"], (a + b).tokens
    (Tally(tp=1, predicted=2, gold=1), 8)
    """

    labels: Mapping[str, Tally] = field(default_factory=dict)
    untyped: Tally = Tally()
    tokens: int = 0
    correct_tokens: int = 0
    notes: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "labels", MappingProxyType(dict(sorted(self.labels.items()))))
        object.__setattr__(self, "notes", MappingProxyType(dict(self.notes)))

    @property
    def total(self) -> Tally:
        """All labels pooled (the micro-average's counts)."""
        return sum(self.labels.values(), Tally())

    def __add__(self, other: Counts) -> Counts:
        if not isinstance(other, Counts):
            return NotImplemented
        return Counts(
            _merge(self.labels, other.labels, Tally()),
            self.untyped + other.untyped,
            self.tokens + other.tokens,
            self.correct_tokens + other.correct_tokens,
            _merge(self.notes, other.notes, 0),
        )

    def __radd__(self, other: Any) -> Counts:
        # lets sum(list_of_counts) start from 0
        if other == 0:
            return self
        return NotImplemented

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (inverse of :meth:`from_dict`), for files and all-reduce."""
        return {
            "labels": {k: [v.tp, v.predicted, v.gold] for k, v in self.labels.items()},
            "untyped": [self.untyped.tp, self.untyped.predicted, self.untyped.gold],
            "tokens": self.tokens,
            "correct_tokens": self.correct_tokens,
            "notes": dict(self.notes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Counts:
        """Rebuild counts written by :meth:`to_dict`."""
        return cls(
            {k: Tally(*map(int, v)) for k, v in data["labels"].items()},
            Tally(*map(int, data["untyped"])),
            int(data["tokens"]),
            int(data["correct_tokens"]),
            {k: int(v) for k, v in data.get("notes", {}).items()},
        )


def tallies(tp: np.ndarray, predicted: np.ndarray, gold: np.ndarray, names: tuple[str, ...]) -> dict[str, Tally]:
    """Per-label tallies from count arrays indexed by label id; unseen labels are left out."""
    seen = np.flatnonzero((predicted + gold) > 0)
    return {names[i]: Tally(int(tp[i]), int(predicted[i]), int(gold[i])) for i in seen}
