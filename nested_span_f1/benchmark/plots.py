"""Plots of a benchmark result dict: per-type F1 with interval whiskers, error categories, F1 against step.

matplotlib is imported when a plot is drawn; figures are made without pyplot (so
none is kept in pyplot's registry) and saved by the Agg renderer. Each panel
function draws on a given Axes; :func:`plot_benchmark` puts them in one figure.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..lenient import BREAKDOWN

ERRORS = [k for k in BREAKDOWN if k != "correct"]
DPI = 120
"""Resolution of saved figures."""


def per_type_f1(result: Mapping[str, Any], ax: Any) -> None:
    """Grouped bars: F1 of every type per system, whiskers at the interval bounds."""
    import numpy as np

    systems = result["systems"]
    labels = sorted({label for s in systems for label in s["per_type"]})
    x = np.arange(len(labels))
    width = 0.8 / len(systems)
    for k, system in enumerate(systems):
        rows = [system["per_type"].get(label) for label in labels]
        values = [r["f1"]["value"] if r else 0.0 for r in rows]
        below = [r["f1"]["value"] - r["f1"]["low"] if r else 0.0 for r in rows]
        above = [r["f1"]["high"] - r["f1"]["value"] if r else 0.0 for r in rows]
        ax.bar(x - 0.4 + width * (k + 0.5), values, width=width, yerr=[below, above], capsize=2, label=system["name"])
    ax.set_xticks(x, labels)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("F1")
    ax.set_title(f"Per-type F1, {100 * result['settings']['confidence']:g}% bootstrap intervals")
    ax.legend(fontsize="small", frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))


def error_categories(result: Mapping[str, Any], ax: Any) -> None:
    """Stacked horizontal bars of the lenient error categories, one bar per system."""
    systems = result["systems"]
    names = [s["name"] for s in systems]
    left = [0] * len(systems)
    for key in ERRORS:
        values = [s["errors"][key] for s in systems]
        ax.barh(names, values, left=left, label=key.replace("_", " "))
        left = [a + b for a, b in zip(left, values)]
    ax.invert_yaxis()
    ax.set_xlabel("spans")
    ax.set_title("Errors (lenient matching)")
    ax.legend(fontsize="small", frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))


def f1_by_step(result: Mapping[str, Any], ax: Any) -> None:
    """F1 against step, one line per run (the checkpoints of one directory), each with its interval as a band."""
    runs: dict[str, list[Mapping[str, Any]]] = {}
    for system in result["systems"]:
        if system["step"] is not None:
            runs.setdefault(system.get("run") or system["name"], []).append(system)
    for run, systems in runs.items():
        systems = sorted(systems, key=lambda s: s["step"])
        steps = [s["step"] for s in systems]
        (line,) = ax.plot(steps, [s["f1"]["value"] for s in systems], marker="o", label=run)
        ax.fill_between(steps, [s["f1"]["low"] for s in systems], [s["f1"]["high"] for s in systems], alpha=0.2,
                        color=line.get_color())
    ax.set_xlabel("step")
    ax.set_ylabel("F1")
    ax.set_title(f"F1 against checkpoint step, {100 * result['settings']['confidence']:g}% intervals as bands")
    ax.legend(fontsize="small", frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))


def plot_benchmark(result: Mapping[str, Any], path: str | None = None) -> Any:
    """One figure with the panels above (F1 against step only when some system has a step); saved to ``path``."""
    from matplotlib.figure import Figure

    panels = [per_type_f1, error_categories]
    if any(s["step"] is not None for s in result["systems"]):
        panels.append(f1_by_step)
    n = len(result["systems"])
    heights = [3.6, 0.4 * n + 1.4, 3.2][:len(panels)]
    fig = Figure(figsize=(max(8.0, 1.2 * n + 5), sum(heights) + 0.6), layout="constrained")
    axes = fig.subplots(len(panels), 1, gridspec_kw={"height_ratios": heights}, squeeze=False)
    for draw, ax in zip(panels, axes[:, 0]):
        draw(result, ax)
    if path:
        fig.savefig(path, dpi=DPI)
    return fig
