"""Counts: the sufficient statistics of every score, small objects that add.

A batch, a process or a shard produces counts; counts add with ``+`` (and
``sum``), serialise to plain dicts, and every precision, recall and F1 is
computed from them afterwards. That is what lets one code path serve one-shot
scoring, streaming evaluation and distributed all-reduce with constant memory.

The three metrics' counts types (:class:`Counts` here, ``LenientCounts`` and
``NestedCounts``) are all :class:`Mergeable`: one rule adds them (field by field,
mappings merged key by key) and one rule writes and reads them (tallies as lists).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from .wording import quote

M = TypeVar("M", bound="Mergeable")
A = TypeVar("A", bound="Additive")


class Additive:
    """A frozen dataclass of ints that adds field by field (every tally type is one)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    def __add__(self: A, other: A) -> A:
        return type(self)(*(getattr(self, name) + getattr(other, name) for name in self.__dataclass_fields__))


@dataclass(frozen=True)
class Tally(Additive):
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


def _add(a: Any, b: Any) -> Any:
    """``a + b``, with mappings merged key by key (a key on one side only is kept as it is)."""
    if not isinstance(a, Mapping):
        return a + b
    out = dict(a)
    for key, value in b.items():
        out[key] = _add(out[key], value) if key in out else value
    return out


def _plain(value: Any) -> Any:
    """A JSON-safe form: mappings as dicts, tallies as lists of their numbers."""
    if isinstance(value, Mergeable):
        return value.to_dict()
    if isinstance(value, Mapping):
        return {key: _plain(v) for key, v in value.items()}
    if isinstance(value, Additive):
        return [getattr(value, name) for name in value.__dataclass_fields__]
    return value


def _read(value: Any, leaf: type | None) -> Any:
    """The inverse of :func:`_plain` for a field whose tallies are of type ``leaf``."""
    if isinstance(value, Mapping):
        if leaf is not None and issubclass(leaf, Mergeable):
            return leaf.from_dict(value)
        return {key: _read(v, leaf) for key, v in value.items()}
    if isinstance(value, list) and leaf is not None:
        return leaf(*map(int, value))
    return value


def frozen_mapping(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy sorted by key, nested mappings too (counts are values, not containers)."""
    return MappingProxyType({k: frozen_mapping(v) if isinstance(v, Mapping) else v for k, v in sorted(mapping.items())})


class Mergeable:
    """Counts that add field by field and round-trip through JSON-safe dicts.

    Subclasses are frozen dataclasses. ``LEAVES`` names the tally type of each field
    that holds tallies (so :meth:`from_dict` can rebuild them); ``SETTINGS`` names
    fields that are not counts but the settings the counts were made with: they must
    be equal for two counts to add.
    """

    LEAVES: ClassVar[Mapping[str, type]] = {}
    SETTINGS: ClassVar[tuple[str, ...]] = ()

    def __add__(self: M, other: M) -> M:
        if type(other) is not type(self):
            return NotImplemented
        for name in self.SETTINGS:
            if getattr(self, name) != getattr(other, name):
                raise ValueError(
                    f"cannot add {type(self).__name__} made with {name}={quote(getattr(self, name))} to counts made "
                    f"with {name}={quote(getattr(other, name))}; score every batch with the same settings"
                )
        return type(self)(**{
            f.name: getattr(self, f.name) if f.name in self.SETTINGS else _add(getattr(self, f.name), getattr(other, f.name))
            for f in fields(self)  # type: ignore[arg-type]
        })

    def __radd__(self: M, other: Any) -> M:
        # lets sum(list_of_counts) start from 0
        if other == 0:
            return self
        return NotImplemented

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (inverse of :meth:`from_dict`), for files and all-reduce."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}  # type: ignore[arg-type]

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        # pickled as its dict (read-only mappings do not pickle): counts travel between processes and executors
        return type(self).from_dict, (self.to_dict(),)

    @classmethod
    def from_dict(cls: type[M], data: Mapping[str, Any]) -> M:
        """Rebuild counts written by :meth:`to_dict`."""
        return cls(**{
            f.name: _read(data[f.name], cls.LEAVES.get(f.name))
            for f in fields(cls)  # type: ignore[arg-type]
            if f.name in data
        })


@dataclass(frozen=True)
class Counts(Mergeable):
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
    >>> Counts.from_dict(a.to_dict()) == a
    True
    """

    LEAVES: ClassVar[Mapping[str, type]] = {"labels": Tally, "untyped": Tally}

    labels: Mapping[str, Tally] = field(default_factory=dict)
    untyped: Tally = Tally()
    tokens: int = 0
    correct_tokens: int = 0
    notes: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "labels", frozen_mapping(self.labels))
        object.__setattr__(self, "notes", frozen_mapping(self.notes))

    @property
    def total(self) -> Tally:
        """All labels pooled (the micro-average's counts)."""
        return sum(self.labels.values(), Tally())
