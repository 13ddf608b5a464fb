"""Bucketed analysis in the manner of ExplainaBoard: scores by entity length, sentence length, nesting depth and
entity density, as count matrices per resampling unit that the bootstrap resamples as it does the totals.

An attribute of a span (its length, its depth among its own side's spans) puts a
prediction and a gold span in buckets separately: precision of a bucket counts the
predictions in it, recall the gold spans in it, as the nested metric's ``by_length``
and ``by_depth`` do (so their point values are the metric's). An attribute of a
sentence (its length in tokens, its gold entities per token) puts every span of the
sentence in the sentence's bucket. Scores by type are the ``per_type`` figures.

Lengths count the gold's unit: tokens, also for text predictions projected onto
token gold (a character span's length is the tokens it touches); characters for a
gold of texts, which has no sentence attributes (no tokens to count).

Each bucket has four counts per unit: predictions found in the gold, predictions,
gold spans, gold spans found (:data:`~nested_span_f1.benchmark.stats.TP` ...
:data:`~nested_span_f1.benchmark.stats.GOLD_TP`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.matching import ExactMatch
from ..lenient.matching import Units, shared_units
from ..nested.nesting import CHARACTER_LENGTH_BINS, LENGTH_BINS, length_bucket_names, structure
from .stats import GOLD, GOLD_TP, PREDICTED, TP

SENTENCE_BINS = (1, 11, 21, 31, 41)
"""Lower edges of the sentence-length buckets: 1-10, 11-20, 21-30, 31-40, 41+ tokens."""
DEPTH_BINS = (1, 2, 3, 4)
"""Lower edges of the nesting-depth buckets: 1 (outermost), 2, 3, 4+."""
DENSITY_EDGES = (0.1, 0.2, 0.3)
"""Upper edges (inclusive) of the entity-density buckets after 0: gold entities per token of the sentence."""
DENSITY_NAMES = ("0", "0-0.1", "0.1-0.2", "0.2-0.3", "0.3+")

ATTRIBUTES = {
    "entity_length": ("Entity length (tokens)", length_bucket_names(LENGTH_BINS)),
    "sentence_length": ("Sentence length (tokens)", length_bucket_names(SENTENCE_BINS)),
    "nesting_depth": ("Nesting depth (1 = outermost)", length_bucket_names(DEPTH_BINS)),
    "entity_density": ("Entity density (gold entities per token)", list(DENSITY_NAMES)),
}
"""Attribute -> (title, bucket names). Sentence length and density need each sentence's tokens."""

CHARACTER_ATTRIBUTES = {
    "entity_length": ("Entity length (characters)", length_bucket_names(CHARACTER_LENGTH_BINS)),
    "nesting_depth": ATTRIBUTES["nesting_depth"],
}
"""The attributes of a gold of texts, whose offsets count characters."""


def attributes(unit: str) -> dict[str, tuple[str, list[str]]]:
    """:data:`ATTRIBUTES` for a gold of ``tokens``, :data:`CHARACTER_ATTRIBUTES` for one of ``characters``."""
    return CHARACTER_ATTRIBUTES if unit == "characters" else ATTRIBUTES

WIDTH = 4
"""Counts per bucket."""


@dataclass(frozen=True)
class Layout:
    """Which attributes a benchmark has (sentence attributes need token counts), and their columns."""

    attributes: list[str]
    unit: str = "tokens"
    """The gold's unit: ``tokens`` or ``characters``."""

    def names(self, attribute: str) -> list[str]:
        """The bucket names of ``attribute``."""
        return attributes(self.unit)[attribute][1]

    @property
    def n_columns(self) -> int:
        return WIDTH * sum(len(self.names(a)) for a in self.attributes)

    def offsets(self) -> dict[str, int]:
        """First column of each attribute."""
        out, at = {}, 0
        for name in self.attributes:
            out[name] = at
            at += WIDTH * len(self.names(name))
        return out


def layout(lengths: np.ndarray | None, unit: str = "tokens") -> Layout:
    """The attributes a gold with these sentence lengths (None: span lists or texts, without tokens) has."""
    sentence = ["sentence_length", "entity_density"] if lengths is not None else []
    return Layout(["entity_length", *sentence, "nesting_depth"], unit)


def _bins(values: np.ndarray, edges: Sequence[int]) -> np.ndarray:
    return np.searchsorted(np.asarray(edges), values, side="right") - 1


def _density(match: ExactMatch, lengths: np.ndarray) -> np.ndarray:
    """Each sentence's density bucket: 0 without gold entities, else by entities per token (upper edges inclusive)."""
    per_token = np.bincount(match.references.sentence, minlength=len(lengths)) / np.maximum(lengths, 1)
    return np.where(per_token > 0, np.searchsorted(np.asarray(DENSITY_EDGES), per_token, side="left") + 1, 0)


def bucket_rows(match: ExactMatch, lengths: np.ndarray | None, chosen: Layout,
                units: Units | None = None) -> dict[str, tuple[np.ndarray, ...]]:
    """Attribute -> (bucket of every prediction, bucket of every gold span), rows as in ``match``; with ``units``
    (character spans over a token gold's tokens) a span's length is the tokens it touches, at least 1 (a span of
    whitespace touches none)."""
    sides = (match.predictions, match.references)
    bins = CHARACTER_LENGTH_BINS if chosen.unit == "characters" else LENGTH_BINS
    found: dict[str, tuple[np.ndarray, ...]] = {
        "entity_length": tuple(_bins(side.end - side.start if units is None else
                                     np.maximum(shared_units(side.sentence, side.start, side.end, units), 1), bins)
                               for side in sides),
        "nesting_depth": tuple(_bins(structure(side).depth, DEPTH_BINS) for side in sides),
    }
    if lengths is not None:
        by_sentence = {"sentence_length": _bins(lengths, SENTENCE_BINS), "entity_density": _density(match, lengths)}
        for name, of_sentence in by_sentence.items():
            found[name] = tuple(of_sentence[side.sentence] for side in sides)
    return {name: found[name] for name in chosen.attributes}


def bucket_matrix(match: ExactMatch, unit_of: np.ndarray, n_units: int, lengths: np.ndarray | None,
                  chosen: Layout, units: Units | None = None) -> np.ndarray:
    """``[n_units, chosen.n_columns]`` int64 counts of one system: per attribute and bucket, the four counts
    (``units`` as :func:`bucket_rows` takes them)."""
    width, offsets = chosen.n_columns, chosen.offsets()
    pred, gold = match.predictions, match.references
    cells = []
    for name, (pred_bucket, gold_bucket) in bucket_rows(match, lengths, chosen, units).items():
        every = slice(None)
        for rows, sentence, bucket, count in (
            (match.predicted_hit, pred.sentence, pred_bucket, TP), (every, pred.sentence, pred_bucket, PREDICTED),
            (every, gold.sentence, gold_bucket, GOLD), (match.reference_hit, gold.sentence, gold_bucket, GOLD_TP),
        ):
            cells.append(unit_of[sentence[rows]] * width + offsets[name] + WIDTH * bucket[rows] + count)
    flat = np.concatenate(cells) if cells else np.zeros(0, dtype=np.int64)
    return np.bincount(flat, minlength=n_units * width).reshape(n_units, width)
