"""Plots of results people compare: per-type P/R/F1, and error categories.

matplotlib is imported when a plot is drawn, never by the core. Each function
takes a result dict (as the metrics return it) and returns the matplotlib Figure;
``path`` saves it as well (format from the file name).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .tables import per_label


def _figure(width: float, height: float) -> Any:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(width, height))


def plot_per_type(result: Mapping[str, Any], path: str | None = None, title: str = "Per-type scores") -> Any:
    """Grouped bars of precision, recall and F1 for every type, support in the tick labels."""
    import numpy as np

    rows = per_label(result)
    if not rows:
        raise ValueError("the result has no per-type entries to plot")
    names = list(rows)
    fig, ax = _figure(max(4.0, 1.1 * len(names) + 2), 3.6)
    x = np.arange(len(names))
    for offset, metric in zip((-0.27, 0.0, 0.27), ("precision", "recall", "f1")):
        ax.bar(x + offset, [rows[n][metric] for n in names], width=0.26, label=metric)
    ax.set_xticks(x, [f"{n}\n(n={rows[n]['number']})" for n in names])
    ax.set_ylim(0, 1.18)
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.set_ylabel("score")
    ax.set_title(title)
    ax.legend(loc="upper center", ncol=3, fontsize="small", frameon=False)
    fig.tight_layout()
    if path:
        fig.savefig(path, dpi=120)
    return fig


def plot_counts(
    counts: Mapping[str, int], path: str | None = None, title: str = "Error categories", order: Sequence[str] | None = None
) -> Any:
    """Horizontal bars of named counts, e.g. a lenient result's correct / type_error / ... breakdown."""
    names = list(order) if order is not None else list(counts)
    fig, ax = _figure(6.0, 0.45 * len(names) + 1.2)
    values = [counts[n] for n in names]
    bars = ax.barh(names, values)
    ax.bar_label(bars, padding=3)
    ax.invert_yaxis()
    ax.set_xlabel("spans")
    ax.set_title(title)
    fig.tight_layout()
    if path:
        fig.savefig(path, dpi=120)
    return fig
