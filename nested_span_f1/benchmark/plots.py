"""Plots of a benchmark result dict: per-type F1 with interval whiskers, error categories, F1 against step.

matplotlib is imported when a plot is drawn; figures are made without pyplot (so
none is kept in pyplot's registry) and saved by the Agg renderer. Each panel
function draws on a given Axes; :func:`plot_benchmark` puts them in one figure.
"""
from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from ..lenient import BREAKDOWN
from .colours import CATEGORIES, RUNS, run_style, system_colour

ERRORS = [k for k in BREAKDOWN if k != "correct"]
DPI = 120
"""Resolution of saved figures."""


def _wrapped(label: str, width: int = 16) -> str:
    """A type name broken at underscores, hyphens and spaces into lines of at most ``width`` characters."""
    return "\n".join(textwrap.wrap(label.replace("_", "_\u200b"), width, break_on_hyphens=True)).replace("\u200b", "")


def per_type_f1(result: Mapping[str, Any], ax: Any) -> None:
    """Grouped horizontal bars: F1 of every type per system (types top to bottom, names wrapped, never overlapping),
    whiskers at the interval bounds; an F1 of 0 is drawn as a tick at 0 with its value, a type a system never
    predicted nor had is left out of its group."""
    import numpy as np
    from matplotlib.lines import Line2D

    systems = result["systems"]
    labels = sorted({label for s in systems for label in s["per_type"]})
    level = f"{100 * result['settings']['confidence']:g}%"
    y = np.arange(len(labels))
    height = 0.8 / len(systems)
    for k, system in enumerate(systems):
        colour = system_colour(k)
        where = y - 0.4 + height * (k + 0.5)
        for row, label in zip(where, labels):
            figures = system["per_type"].get(label)
            if figures is None:
                continue
            f1 = figures["f1"]
            ax.barh(row, f1["value"], height=height, color=colour,
                    xerr=[[f1["value"] - f1["low"]], [f1["high"] - f1["value"]]], capsize=2,
                    error_kw={"elinewidth": 0.8, "ecolor": "#222"})
            if f1["value"] == 0:
                ax.plot([0, 0], [row - height / 2, row + height / 2], color=colour, linewidth=3, solid_capstyle="butt")
                ax.annotate("0", (0, row), xytext=(4, 0), textcoords="offset points", va="center", fontsize=7)
    ax.set_yticks(y, [_wrapped(label) for label in labels])
    ax.invert_yaxis()
    ax.set_xlim(0, 1.05)
    ax.set_xlabel("F1")
    ax.set_title("Per-type F1")
    handles = [Line2D([], [], color=system_colour(k), linewidth=6, label=s["name"]) for k, s in enumerate(systems)]
    handles.append(Line2D([], [], color="#222", marker="|", markersize=8, linewidth=0.8,
                          label=f"{level} bootstrap interval"))
    ax.legend(handles=handles, fontsize="small", frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))


def error_categories(result: Mapping[str, Any], ax: Any) -> None:
    """Stacked horizontal bars of the lenient error categories, one bar per system, in the categories' own colours
    (none of them a system's)."""
    systems = result["systems"]
    names = [s["name"] for s in systems]
    left = [0] * len(systems)
    for key in ERRORS:
        values = [s["errors"][key] for s in systems]
        ax.barh(names, values, left=left, label=key.replace("_", " "), color=CATEGORIES[key])
        left = [a + b for a, b in zip(left, values)]
    ax.invert_yaxis()
    ax.set_xlabel("spans")
    ax.set_title("Errors (lenient matching)")
    ax.legend(fontsize="small", frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))


def log_steps(steps: list[int]) -> bool:
    """Whether a step axis is logarithmic: the steps span more than a factor of ten."""
    return bool(steps) and min(steps) > 0 and max(steps) > 10 * min(steps)


def f1_by_step(result: Mapping[str, Any], ax: Any) -> None:
    """F1 against step, one line per run (the checkpoints of one directory) with its interval as a band, each
    checkpoint's point in its system's colour; the step axis logarithmic when steps span more than a factor of ten."""
    from matplotlib.patches import Patch

    runs: dict[str, list[tuple[int, Mapping[str, Any]]]] = {}
    for k, system in enumerate(result["systems"]):
        if system["step"] is not None:
            runs.setdefault(system.get("run") or system["name"], []).append((k, system))
    handles = []
    for r, (run, members) in enumerate(runs.items()):
        members = sorted(members, key=lambda item: item[1]["step"])
        colour, style = run_style(r)
        steps = [s["step"] for _, s in members]
        (line,) = ax.plot(steps, [s["f1"]["value"] for _, s in members], color=colour, linestyle=style, label=run,
                          zorder=2)
        ax.fill_between(steps, [s["f1"]["low"] for _, s in members], [s["f1"]["high"] for _, s in members],
                        color=colour, alpha=0.15, linewidth=0)
        ax.scatter(steps, [s["f1"]["value"] for _, s in members], c=[system_colour(k) for k, _ in members], zorder=3,
                   s=28, edgecolors="#222", linewidths=0.5)
        handles.append(line)
    level = f"{100 * result['settings']['confidence']:g}%"
    handles.append(Patch(color=RUNS[0], alpha=0.15, label=f"{level} bootstrap interval"))
    steps = sorted({s["step"] for s in result["systems"] if s["step"] is not None})
    if log_steps(steps):
        from matplotlib.ticker import NullFormatter, ScalarFormatter

        ax.set_xscale("log")
        ax.set_xlabel("step (log scale)")
        if len(steps) <= 12:  # every step labelled, in plain numbers
            ax.set_xticks(steps)
            ax.xaxis.set_major_formatter(ScalarFormatter())
            ax.xaxis.set_minor_formatter(NullFormatter())
            ax.tick_params(axis="x", labelrotation=45)
    else:
        ax.set_xlabel("step")
    ax.set_ylabel("F1")
    ax.set_title("F1 against checkpoint step (points in their systems' colours)")
    ax.legend(handles=handles, fontsize="small", frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))


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
