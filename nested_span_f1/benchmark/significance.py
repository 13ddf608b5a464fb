"""A stage of a benchmark: the paired tests of the systems compared.

Each pair's F1 difference (``a`` minus ``b``) gets its bootstrap interval and
two p-values, the paired bootstrap's and the approximate randomization's, both
Holm-corrected over the pairs compared; a difference holds when both corrected
p-values are below ``alpha`` (docs/DESIGN.md, 'Benchmark statistics').
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .stats import estimate, extreme, holm, interval, micro_f1, paired_bootstrap_p


def compare_pairs(names: Sequence[str], pairs: Sequence[tuple[int, int]], totals: np.ndarray, f1_samples: np.ndarray,
                  swaps: Iterable[np.ndarray], n_rounds: int, confidence: float,
                  alpha: float) -> list[dict[str, Any]]:
    """Each pair's F1 difference (``a`` minus ``b``) with its interval and both p-values, Holm-corrected over the
    pairs (:func:`~nested_span_f1.benchmark.pairs.pairs`).

    ``swaps`` are the randomization's swapped sums (``[rows, systems, 3, labels]``),
    a chunk of rounds at a time: each pair counts its extreme rounds chunk by chunk.
    """
    point = micro_f1(totals)
    observed = {(i, j): float(point[i] - point[j]) for i, j in pairs}
    extremes = dict.fromkeys(pairs, 0)
    for swapped in swaps:
        for i, j in pairs:
            moved = swapped[:, j] - swapped[:, i]
            extremes[i, j] += extreme(micro_f1(totals[i] + moved) - micro_f1(totals[j] - moved), observed[i, j])
    out: list[dict[str, Any]] = []
    for i, j in pairs:
        differences = f1_samples[:, i] - f1_samples[:, j]
        low, high = interval(differences, confidence)
        out.append({"a": names[i], "b": names[j], "f1_difference": estimate(observed[i, j], low, high),
                    "p_bootstrap": paired_bootstrap_p(differences, observed[i, j]),
                    "p_randomization": (extremes[i, j] + 1) / (n_rounds + 1)})
    for key in ("p_bootstrap", "p_randomization"):
        for row, adjusted in zip(out, holm([row[key] for row in out])):
            row[f"{key}_holm"] = adjusted
    for row in out:
        row["significant"] = bool(row["p_bootstrap_holm"] < alpha and row["p_randomization_holm"] < alpha)
    return out
