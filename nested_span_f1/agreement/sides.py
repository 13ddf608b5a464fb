"""Every set's annotations as they are compared: on the documents every set holds, in the unit of the figures.

:func:`compared` restricts each set to the documents every set holds (renumbered
from 0) and keeps its discontinuous entities, each once, when they are compared
by their fragments. :func:`pair_counts` counts one pair in the unit asked:

- ``instance``: each annotation is one, matched exactly, leniently and untyped
  (:func:`.spans.count_pair`); a discontinuous entity is a span of a virtual
  document of its own (one per document and inner fragment boundaries), so that
  two match only where every fragment does;
- ``token``: each annotation is the whitespace tokens it overlaps
  (:mod:`.tokens`), typed (``exact``) and untyped; a discontinuous entity's
  fragments each give theirs.

The lenient matching of the contiguous spans is made in either unit: the
disagreements, the label confusion and the examples are of annotations.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.entities import Record
from ..core.spans import SpanArrays
from ..lenient.score import match_spans_lenient
from .annotations import Table, restrict
from .spans import ANY_TYPE, PairCounts, count_pair, untyped
from .tokens import Tokens, count_pieces

UNITS = ("instance", "token")
"""What one annotation counts as in the F1 figures: itself, or the whitespace tokens it overlaps."""

DISCONTINUOUS = ("leave-out", "fragments")
"""What becomes of discontinuous entities: left out (counted), or compared by their fragments."""


@dataclass(frozen=True)
class Sides:
    """Every set's annotations on the documents every set holds (renumbered from 0): its distinct contiguous
    spans, and its distinct discontinuous entities when they are compared (else none); the documents' resampling
    units and every type any set uses there."""

    spans: list[SpanArrays]
    fragmented: list[list[Record]]
    unit_of: np.ndarray
    n_units: int
    labels: list[str]
    repeated: dict[str, int]
    """Discontinuous entities a set gives twice (removed), by set name."""

    @property
    def n_documents(self) -> int:
        return self.spans[0].n_sentences


def compared(table: Table, unit_of: np.ndarray, n_units: int, discontinuous: str) -> Sides:
    """The sets of a table as they are compared (see the module docstring)."""
    shared = table.shared
    renumber = np.cumsum(shared) - 1
    spans = [restrict(side, shared) for side in table.spans]
    fragmented: list[list[Record]] = []
    repeated = {}
    for given, records in zip(table.sets, table.fragmented):
        kept = [(int(renumber[d]), pieces, label) for d, pieces, label in records if shared[d]]
        unique = list(dict.fromkeys(kept)) if discontinuous == "fragments" else []
        fragmented.append(unique)
        repeated[given.name] = len(kept) - len(unique) if discontinuous == "fragments" else 0
    labels = sorted(set().union(*(side.labels for side in spans), *({r[2] for r in rs} for rs in fragmented)))
    return Sides([side.relabel(labels) for side in spans], fragmented, unit_of, n_units, labels, repeated)


def _virtual(sides: Sides) -> tuple[list[SpanArrays], np.ndarray]:
    """Every set's spans with its discontinuous entities as spans of virtual documents (shared by the sets), and
    the resampling unit of every document, virtual ones included (their document's)."""
    n = sides.n_documents
    index = {name: k for k, name in enumerate(sides.labels)}
    virtual: dict[tuple[int, ...], int] = {}
    rows = []
    for records in sides.fragmented:
        rows.append([(n + virtual.setdefault((d, *tuple(b for piece in pieces for b in piece)[1:-1]), len(virtual)),
                      pieces[0][0], pieces[-1][1], index[label]) for d, pieces, label in records])
    owner = np.zeros(len(virtual), dtype=np.int64)
    for key, v in virtual.items():
        owner[v] = key[0]
    out = []
    for side, extra in zip(sides.spans, rows):
        table = np.array(extra, dtype=np.int64).reshape(-1, 4)
        out.append(SpanArrays(np.concatenate([side.sentence, table[:, 0]]), np.concatenate([side.start, table[:, 1]]),
                              np.concatenate([side.end, table[:, 2]]), np.concatenate([side.label, table[:, 3]]),
                              side.labels, n + len(virtual)))
    return out, np.concatenate([sides.unit_of, sides.unit_of[owner]])


def with_fragments(side: SpanArrays, records: Sequence[Record]) -> SpanArrays:
    """A side's spans and every fragment of its discontinuous entities as a span of its own (on ``side``'s
    types, and theirs): what token pieces and position labels are made of."""
    more = sorted({label for _, _, label in records} - set(side.labels))
    if more:
        side = side.relabel([*side.labels, *more])
    index = {name: k for k, name in enumerate(side.labels)}
    table = np.array([(d, a, b, index[label]) for d, pieces, label in records for a, b in pieces],
                     dtype=np.int64).reshape(-1, 4)
    return SpanArrays(np.concatenate([side.sentence, table[:, 0]]), np.concatenate([side.start, table[:, 1]]),
                      np.concatenate([side.end, table[:, 2]]), np.concatenate([side.label, table[:, 3]]),
                      side.labels, side.n_sentences)


def _untyped_fragments(records: Sequence[Record]) -> list[Record]:
    """Discontinuous entities with types ignored, each set of fragments once."""
    return list(dict.fromkeys((d, pieces, ANY_TYPE) for d, pieces, _ in records))


class PairCounter:
    """Counts pairs of sets in one unit: ``count(i, j)`` is set ``j`` scored against set ``i``."""

    def __init__(self, sides: Sides, unit: str, tokens: Tokens | None = None) -> None:
        self.sides, self.unit, self.tokens = sides, unit, tokens
        if unit == "instance":
            self.virtual, self.unit_of = _virtual(sides) if any(sides.fragmented) else (sides.spans, sides.unit_of)

    def count(self, i: int, j: int) -> PairCounts:
        sides = self.sides
        if self.unit == "instance":
            return count_pair(self.virtual[i], self.virtual[j], self.unit_of, sides.n_units, sides.labels,
                              sides.n_documents)
        assert self.tokens is not None
        first, second = sides.spans[i], sides.spans[j]
        a, b = (with_fragments(sides.spans[k], sides.fragmented[k]) for k in (i, j))
        bare_a, bare_b = (with_fragments(untyped(sides.spans[k]), _untyped_fragments(sides.fragmented[k]))
                          for k in (i, j))
        matrices = {"exact": count_pieces(a, b, self.tokens, sides.unit_of, sides.n_units, sides.labels),
                    "untyped": count_pieces(bare_a, bare_b, self.tokens, sides.unit_of, sides.n_units, [ANY_TYPE])}
        return PairCounts(matrices, match_spans_lenient(second, first))
