"""Span agreement of two sets: the exact and lenient scorers' counts, per resampling unit and type.

A pair ``A|B`` is scored as the metrics score a prediction against a gold: ``B``'s
spans against ``A``'s, so precision is the share of B's spans that A marks too and
recall the share of A's that B marks; F1 is the same either way round
(docs/DESIGN.md, 'Agreement between annotators'). Three matchings, each the
package's own:

- ``exact``: :func:`~nested_span_f1.core.matching.match_exact`, the matcher of
  ``score_nested`` (same document, start, end and type);
- ``lenient``: the ``type`` scheme of :func:`~nested_span_f1.lenient.score.match_spans_lenient`
  (overlap and the same type, one to one, optimal): ``score_lenient``'s ``type_*`` figures;
- ``untyped``: the same boundaries with types ignored: ``score_nested``'s ``untyped_*`` figures.

Each gives a ``[units, 3, types]`` matrix of (agreeing spans, B's spans, A's
spans) that every figure is summed from: the pair's, each type's, each
document's, and the bootstrap's resamples. Every mean over pairs comes with its
standard deviation over the same pairs: the population's (``numpy.std``'s
default, ``ddof=0``), as bratiaa reports it.

Discontinuous entities, when they are compared, come as spans of virtual
documents numbered from ``real`` on (one per document and inner fragment
boundaries, so that two match only where every fragment does): the exact and
untyped matchings count them; the lenient one counts them where they match
exactly, as ``score_nested`` counts them.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..benchmark.inputs import Pair
from ..benchmark.matrices import unit_counts, unit_matrix
from ..core.matching import distinct
from ..core.scores import precision_recall_f1
from ..core.spans import SpanArrays
from ..lenient.score import LenientMatch, match_spans_lenient

MODES = ("exact", "lenient", "untyped")
"""The three matchings, in the order they are reported."""

ANY_TYPE = "any"
"""The one type of spans whose types are ignored."""


def untyped(side: SpanArrays) -> SpanArrays:
    """A side's distinct boundaries under one type (the same boundaries with two types are one span)."""
    one = SpanArrays(side.sentence, side.start, side.end, np.zeros(len(side), dtype=np.int64), (ANY_TYPE,),
                     side.n_sentences)
    return distinct(one)[0]


@dataclass(frozen=True)
class PairCounts:
    """One pair's count matrices by mode (``[units, 3, types]``; one type for ``untyped``) and its lenient
    matching, whose canonical pairs are the disagreements."""

    matrices: dict[str, np.ndarray]
    lenient: LenientMatch


def count_pair(first: SpanArrays, second: SpanArrays, unit_of: np.ndarray, n_units: int,
               labels: Sequence[str], real: int | None = None) -> PairCounts:
    """The counts of ``second`` scored against ``first`` (distinct spans of the same documents), by the unit
    ``unit_of`` gives each document and by type (``labels`` holds every type of both); the spans of documents from
    ``real`` on are discontinuous entities (see the module docstring)."""
    exact, match = unit_matrix(Pair(second, first, 0), unit_of, n_units, labels)
    if real is None or real == first.n_sentences:
        lenient = match_spans_lenient(match)
        virtual_hits = np.zeros_like(exact[:, 0])
    else:
        lenient = match_spans_lenient(below(second, real), below(first, real))
        virtual = match.predicted_hit & (match.predictions.sentence >= real)
        virtual_hits = unit_counts(match.predictions, virtual, unit_of, n_units, labels)
    pairs, chosen = lenient.pairs, lenient.chosen["type"]
    # the type scheme's correct pairs: overlapping, with one type (its other matched pairs are INC)
    correct = chosen & (lenient.references.label[pairs.gold] == lenient.predictions.label[pairs.pred])
    overlapping = exact.copy()
    overlapping[:, 0] = unit_counts(lenient.references, pairs.gold[correct], unit_of, n_units, labels) + virtual_hits
    boundaries, _ = unit_matrix(Pair(untyped(second), untyped(first), 0), unit_of, n_units, [ANY_TYPE])
    return PairCounts({"exact": exact, "lenient": overlapping, "untyped": boundaries}, lenient)


def below(side: SpanArrays, real: int) -> SpanArrays:
    """A side's spans of the documents before ``real`` (its contiguous spans), on as many documents."""
    keep = side.sentence < real
    return SpanArrays(side.sentence[keep], side.start[keep], side.end[keep], side.label[keep], side.labels,
                      side.n_sentences)


def scores(tp: np.ndarray, predicted: np.ndarray, gold: np.ndarray) -> list[dict[str, Any]]:
    """``{f1, precision, recall, tp, fp, fn}`` of each count triple, by the metrics' own arithmetic
    (``zero_division=0``); precision, recall and F1 are None where neither set has a span (nothing to agree on)."""
    hits, seconds, firsts = (values.tolist() for values in (tp, predicted, gold))
    precision, recall, f1 = precision_recall_f1(hits, seconds, hits, firsts, zero_division=0)
    out = []
    for hit, second, first, p, r, f in zip(hits, seconds, firsts, precision, recall, f1):
        empty = second == 0 and first == 0
        out.append({"f1": None if empty else f, "precision": None if empty else p, "recall": None if empty else r,
                    "tp": hit, "fp": second - hit, "fn": first - hit})
    return out


def mean_f1(entries: Sequence[dict[str, Any]]) -> float | None:
    """The mean of the entries' F1 where it is defined (None when it is nowhere)."""
    values = [entry["f1"] for entry in entries if entry["f1"] is not None]
    return sum(values) / len(values) if values else None


def sd_f1(entries: Sequence[dict[str, Any]]) -> float | None:
    """The standard deviation of the entries' F1 where it is defined, about :func:`mean_f1` (the population's:
    the squared deviations divided by their number, ``numpy.std``'s default); None when it is nowhere."""
    values = [entry["f1"] for entry in entries if entry["f1"] is not None]
    if not values:
        return None
    mean = sum(values) / len(values)
    return math.sqrt(sum((value - mean) ** 2 for value in values) / len(values))


def spread(entries: Sequence[dict[str, Any]]) -> dict[str, float | None]:
    """``{"mean_f1", "sd_f1"}`` of the entries."""
    return {"mean_f1": mean_f1(entries), "sd_f1": sd_f1(entries)}


def _spreads(f1: np.ndarray, defined: np.ndarray) -> tuple[list[float | None], list[float | None]]:
    """:func:`mean_f1` and :func:`sd_f1` of every column of ``f1[pair, row]`` over the pairs ``defined`` marks, the
    same float operations in the same order (the pairs added one after the other)."""
    n = defined.sum(axis=0)
    kept = np.where(defined, f1, 0.0)
    total = np.zeros(f1.shape[1])
    for row in kept:
        total = total + row
    mean = total / np.maximum(n, 1)
    squares = np.zeros(f1.shape[1])
    for row, here in zip(f1, defined):
        squares = squares + np.where(here, (row - mean) ** 2, 0.0)
    sd = np.sqrt(squares / np.maximum(n, 1))
    none = n == 0
    return ([None if empty else value for value, empty in zip(mean.tolist(), none.tolist())],
            [None if empty else value for value, empty in zip(sd.tolist(), none.tolist())])


def _by(keys: Sequence[str], names: Sequence[str], rows: np.ndarray) -> dict[str, dict[str, Any]]:
    """``{name: {"mean_f1", "sd_f1", "pairwise": {key: scores}}}`` from ``rows[key, name]`` (tp, predicted,
    gold)."""
    flat = scores(rows[..., 0].ravel(), rows[..., 1].ravel(), rows[..., 2].ravel())
    f1 = np.array([entry["f1"] if entry["f1"] is not None else np.nan for entry in flat]).reshape(len(keys), -1)
    means, sds = _spreads(f1, ~np.isnan(f1))
    out = {}
    for n, name in enumerate(names):
        entries = {key: flat[k * len(names) + n] for k, key in enumerate(keys)}
        out[name] = {"mean_f1": means[n], "sd_f1": sds[n], "pairwise": entries}
    return out


def per_annotator(pairwise: dict[str, dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    """Each annotator's mean and standard deviation of F1 over the pairs it is in (``A|B`` names ``A`` and ``B``)."""
    names = list(dict.fromkeys(name for key in pairwise for name in key.split("|")))
    return {name: spread([entry for key, entry in pairwise.items() if name in key.split("|")]) for name in names}


def figures(keys: Sequence[str], matrices: Sequence[np.ndarray], labels: Sequence[str] | None,
            units: Sequence[str]) -> dict[str, Any]:
    """A mode's figures for the pairs ``keys`` from their ``[units, 3, types]`` matrices: ``pairwise``, the
    point ``mean_f1`` (``{"value"}``: the caller adds the interval) and ``sd_f1`` over the pairs,
    ``per_annotator``, ``per_type`` (when ``labels`` name the types) and ``per_document`` (``units`` names them),
    each of those with its mean and standard deviation over the pairs."""
    totals = np.stack([matrix.sum(axis=(0, 2)) for matrix in matrices])
    pairwise = dict(zip(keys, scores(totals[:, 0], totals[:, 1], totals[:, 2])))
    entries = list(pairwise.values())
    out: dict[str, Any] = {"pairwise": pairwise, "mean_f1": {"value": mean_f1(entries)}, "sd_f1": sd_f1(entries),
                           "per_annotator": per_annotator(pairwise)}
    if labels is not None:
        out["per_type"] = _by(keys, labels, np.stack([matrix.sum(axis=0).T for matrix in matrices]))
    out["per_document"] = _by(keys, units, np.stack([matrix.sum(axis=2) for matrix in matrices]))
    return out
