"""Plots of results people compare: per-type P/R/F1, error categories, a benchmark's panels in one figure.

matplotlib is imported when a plot is drawn, never by the core. Each function
takes a result dict (as the metrics or the benchmark return it) and returns the
matplotlib Figure; ``path`` saves it as well (format from the file name).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .bars import error_categories, per_type_f1
from .steps import f1_by_step
from .tables import per_label

DPI = 120
"""Resolution of saved figures."""


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
        fig.savefig(path, dpi=DPI)
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
        fig.savefig(path, dpi=DPI)
    return fig


def plot_benchmark(result: Mapping[str, Any], path: str | None = None) -> Any:
    """One figure with the panels above (F1 against step only when some system has a step); saved to ``path``."""
    from matplotlib.figure import Figure

    panels = [per_type_f1, error_categories]
    if any(s["step"] is not None for s in result["systems"]):
        panels.append(f1_by_step)
    n = len(result["systems"])
    n_types = len({label for s in result["systems"] for label in s["per_type"]})
    heights = [max(3.0, 0.16 * n * n_types + 1.2), 0.4 * n + 1.4, 3.2][:len(panels)]
    fig = Figure(figsize=(10.0, sum(heights) + 0.6), layout="constrained")
    axes = fig.subplots(len(panels), 1, gridspec_kw={"height_ratios": heights}, squeeze=False)
    for draw, ax in zip(panels, axes[:, 0]):
        draw(result, ax)
    if path:
        fig.savefig(path, dpi=DPI)
    return fig
