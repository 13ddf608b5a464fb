"""A stage of a benchmark: each system's figures, read from its counts and their resamples.

Precision, recall and F1 overall, per type and per bucket (:mod:`.buckets`),
each with its percentile interval over the resamples where it is defined;
beside them the point values the metrics give (nested versus flat recall, the
lenient error categories), the notes, the development figures, the alignment of
texts, a scored system's curve and an answer system's string protocol.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..core.matching import ExactMatch
from ..lenient.counts import BREAKDOWN
from ..lenient.score import LenientMatch, summarize_lenient
from ..nested.score import count_match, summarize_nested
from .answers import string_scores
from .buckets import WIDTH, bucket_matrix, layout
from .matrices import Counted
from .options import Options
from .stats import GOLD, PREDICTED, TP, bootstrap_sums, scored
from .systems import Read, System


def system_figures(system: System, matrix: np.ndarray, sums: np.ndarray, match: ExactMatch, lenient: LenientMatch,
                   left_out: int, labels: Sequence[str], confidence: float) -> dict[str, Any]:
    """One system's figures from its unit matrix ``[n_units, 3, n_labels]`` and its resampled sums: scores with
    intervals overall and per type, nested versus flat recall, the error categories and the notes."""
    totals = matrix.sum(axis=0)
    figures: dict[str, Any] = {
        "name": system.name, "run": system.run, "step": system.step,
        "source": str(system.source) if isinstance(system.source, (str, os.PathLike)) else None,
        **scored(totals.sum(axis=-1), sums.sum(axis=-1), confidence),
        "tp": int(totals[TP].sum()), "predicted": int(totals[PREDICTED].sum()), "gold": int(totals[GOLD].sum()),
    }
    figures["per_type"] = {
        label: {**scored(totals[:, k], sums[:, :, k], confidence),
                "number": int(totals[GOLD, k]), "predicted": int(totals[PREDICTED, k])}
        for k, label in enumerate(labels) if totals[GOLD, k] or totals[PREDICTED, k]
    }
    nested = summarize_nested(count_match(match), zero_division=0)
    figures["by_nesting"] = {bucket: {"recall": row["recall"], "number": row["number"]}
                             for bucket, row in nested["by_nesting"].items()}
    breakdown = summarize_lenient(lenient.counts(), zero_division=0)
    figures["errors"] = {key: int(breakdown[key]) for key in BREAKDOWN}
    figures["notes"] = {**{k: int(v) for k, v in match.notes.items()}, "discontinuous_left_out": left_out}
    return figures


def bucket_figures(read: Read, matches: Sequence[ExactMatch], n_resamples: int, seed: int, confidence: float,
                   progress: bool) -> list[dict[str, Any]]:
    """Each system's bucketed figures (:mod:`.buckets`): attribute -> bucket -> P/R/F1 with intervals (the same
    resamples as the totals'), gold spans (``number``) and predictions in the bucket; empty buckets left out.
    Lengths count the gold's unit (a text system against token gold: the gold tokens a span touches)."""
    gold, n_units, lengths = read.gold, read.n_units, read.gold.lengths
    chosen = layout(lengths, gold.unit)
    counts = np.stack([bucket_matrix(m, read.unit_of, n_units, lengths, chosen, f.units if gold.unit == "tokens" else None)
                       for m, f in zip(matches, read.found)], axis=1)
    sums = bootstrap_sums(counts.reshape(n_units, -1), n_resamples, seed, progress=progress)
    sums = sums.reshape(-1, len(matches), chosen.n_columns)
    totals = counts.sum(axis=0)
    out = []
    for s in range(len(matches)):
        figures: dict[str, Any] = {}
        for name, first in chosen.offsets().items():
            rows = {}
            for k, bucket in enumerate(chosen.names(name)):
                columns = slice(first + WIDTH * k, first + WIDTH * (k + 1))
                total = totals[s, columns]
                if total[PREDICTED] or total[GOLD]:
                    rows[bucket] = {**scored(total, sums[:, s, columns], confidence), "number": int(total[GOLD]),
                                    "predicted": int(total[PREDICTED])}
            figures[name] = rows
        out.append(figures)
    return out


def score_systems(read: Read, counted: Counted, sums: np.ndarray, dev: Mapping[str, dict[str, Any]] | None,
                  n_resamples: int, options: Options) -> list[dict[str, Any]]:
    """Every system's figures, in report order (docs/benchmark.md says what the keys mean): its own (:func:`system_figures`),
    its buckets, its development figures (``dev``, by name, when development data was given), its alignment, and
    a scored system's curve or an answer system's string protocol."""
    seed, confidence = options.seed, options.confidence
    systems = [system_figures(system, counted.matrices[:, s], sums[:, s], counted.matches[s], counted.lenient[s],
                              read.found[s].left_out, counted.labels, confidence)
               for s, system in enumerate(read.systems)]
    for figures, buckets in zip(systems, bucket_figures(read, counted.matches, n_resamples, seed, confidence,
                                                         options.progress)):
        figures["buckets"] = buckets
    for s, (figures, found) in enumerate(zip(systems, read.found)):
        figures["dev"] = None if dev is None else dev.get(figures["name"])
        figures["alignment"] = found.alignment
        if s in read.curves:
            figures["thresholds"] = read.curves[s]
    for s, run in read.answers.items():
        systems[s].update(string_scores(run, read.unit_of, read.n_units, counted.labels, n_resamples, seed,
                                        lambda totals, drawn: scored(totals, drawn, confidence)))
    return systems
