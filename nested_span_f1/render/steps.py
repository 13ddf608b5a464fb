"""F1 against checkpoint step, one line a run with its interval as a band and each checkpoint's point in its
system's colour: drawn with matplotlib on a given Axes, or as SVG text for the benchmark's HTML page.

A run is the checkpoints of one directory (a system named alone is a run of its
own); the step axis is logarithmic when the steps span more than a factor of ten
(:func:`log_steps`). matplotlib is imported when a panel is drawn. Formatting only:
every number comes from the result given.
"""
from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .colours import RUNS, run_style, system_colour
from .tables import estimate_text


def _escaped(text: Any) -> str:
    return html.escape(str(text), quote=True)


def step_runs(systems: Sequence[Mapping[str, Any]]) -> dict[str, list[tuple[int, Mapping[str, Any]]]]:
    """The systems with a step by run, each with its place among all systems (which gives its colour)."""
    runs: dict[str, list[tuple[int, Mapping[str, Any]]]] = {}
    for k, system in enumerate(systems):
        if system["step"] is not None:
            runs.setdefault(system.get("run") or system["name"], []).append((k, system))
    return runs


def log_steps(steps: list[int]) -> bool:
    """Whether a step axis is logarithmic: the steps span more than a factor of ten."""
    return bool(steps) and min(steps) > 0 and max(steps) > 10 * min(steps)


def f1_by_step(result: Mapping[str, Any], ax: Any) -> None:
    """F1 against step, one line per run (the checkpoints of one directory) with its interval as a band, each
    checkpoint's point in its system's colour; the step axis logarithmic when steps span more than a factor of ten."""
    from matplotlib.patches import Patch

    runs = step_runs(result["systems"])
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


@dataclass(frozen=True)
class _StepScale:
    """Where the step chart draws a step and an F1: the plot's box, the steps' range (a log axis when
    :func:`log_steps` says so) and the F1 range in percent, ``lo`` to ``hi``."""

    low_step: int
    high_step: int
    log: bool
    lo: int
    hi: int
    left: int = 60
    width: int = 560
    top: int = 30
    plot_height: int = 220

    def x(self, step: float) -> float:
        low, high, left, width = self.low_step, self.high_step, self.left, self.width
        if high == low:
            return left + width / 2
        if self.log:
            return left + width * (math.log10(step) - math.log10(low)) / (math.log10(high) - math.log10(low))
        return left + width * (step - low) / (high - low)

    def y(self, value: float) -> float:
        return self.top + self.plot_height * (1 - (100 * value - self.lo) / (self.hi - self.lo))


def _step_scale(runs: Mapping[str, Sequence[tuple[int, Mapping[str, Any]]]]) -> _StepScale:
    """The chart's scale: every step and every interval bound inside, F1 rounded out to multiples of 5."""
    steps = [s["step"] for run in runs.values() for _, s in run]
    values = [100 * s["f1"][k] for run in runs.values() for _, s in run for k in ("low", "high")]
    lo, hi = math.floor(min(values) / 5) * 5, math.ceil(max(values) / 5) * 5 or 5
    return _StepScale(min(steps), max(steps), log_steps(steps), lo, hi if hi > lo else lo + 5)


def _step_axes(scale: _StepScale, steps: Sequence[int], level: str) -> list[str]:
    """The chart's opening tag, title, F1 grid and step labels (a step labelled unless too close to the one
    labelled before it)."""
    left, width, top, plot_height, lo, hi = scale.left, scale.width, scale.top, scale.plot_height, scale.lo, scale.hi
    height = top + plot_height + 50
    parts = [f'<svg id="step-chart" class="chart" viewBox="0 0 {left + width + 180} {height}" '
             f'width="{left + width + 180}" height="{height}" role="img">',
             f'<text x="{left}" y="16" class="legend">F1 (%) against step{" (log scale)" if scale.log else ""}; '
             f'bands: {_escaped(level)} intervals</text>']
    for tick in np.linspace(lo, hi, 5):
        y = top + plot_height * (1 - (tick - lo) / (hi - lo))
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + width}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{left - 6}" y="{y + 4:.1f}" class="tick" text-anchor="end">{tick:g}</text>')
    shown: list[float] = []
    for step in sorted(set(steps)):
        if not shown or scale.x(step) - shown[-1] >= 48:
            shown.append(scale.x(step))
            parts.append(f'<text x="{scale.x(step):.1f}" y="{top + plot_height + 18}" class="tick" '
                         f'text-anchor="middle">{step:,}</text>')
    parts.append(f'<text x="{left + width / 2}" y="{top + plot_height + 38}" class="tick" '
                 f'text-anchor="middle">step{" (log scale)" if scale.log else ""}</text>')
    return parts


DASHES = {"-": "", "--": ' stroke-dasharray="6 3"', "-.": ' stroke-dasharray="6 3 2 3"', ":": ' stroke-dasharray="2 3"'}
"""The SVG dash of each line style of :func:`~nested_span_f1.render.colours.run_style`."""


def _step_run(k: int, run: str, members: Sequence[tuple[int, Mapping[str, Any]]], scale: _StepScale) -> str:
    """The ``k``-th run: its F1 line with the interval as a band, a dot a checkpoint, and its legend entry."""
    colour, style = run_style(k)
    dash = DASHES[style]
    members = sorted(members, key=lambda item: item[1]["step"])
    upper = " ".join(f"{scale.x(s['step']):.1f},{scale.y(s['f1']['high']):.1f}" for _, s in members)
    lower = " ".join(f"{scale.x(s['step']):.1f},{scale.y(s['f1']['low']):.1f}" for _, s in reversed(members))
    line = " ".join(f"{scale.x(s['step']):.1f},{scale.y(s['f1']['value']):.1f}" for _, s in members)
    parts = [f'<polygon points="{upper} {lower}" fill="{colour}" fill-opacity="0.15"/>'
             f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>']
    for place, s in members:
        parts.append(f'<circle cx="{scale.x(s["step"]):.1f}" cy="{scale.y(s["f1"]["value"]):.1f}" r="4" '
                     f'fill="{system_colour(place)}" stroke="#222" stroke-width="0.5">'
                     f'<title>{_escaped(s["name"])}: {estimate_text(s["f1"])}</title></circle>')
    right, top = scale.left + scale.width, scale.top
    parts.append(f'<line x1="{right + 12}" y1="{top + 5 + 18 * k}" x2="{right + 28}" '
                 f'y2="{top + 5 + 18 * k}" stroke="{colour}" stroke-width="2"{dash}/>'
                 f'<text x="{right + 32}" y="{top + 9 + 18 * k}" class="legend">{_escaped(run)}</text>')
    return "".join(parts)


def step_chart(systems: Sequence[Mapping[str, Any]], level: str) -> str:
    """F1 against step as SVG, one line per run with its ``level`` interval as a band; a log step axis when steps
    span more than a factor of ten."""
    runs = step_runs(systems)
    scale = _step_scale(runs)
    steps = [s["step"] for run in runs.values() for _, s in run]
    lines = [_step_run(k, run, members, scale) for k, (run, members) in enumerate(runs.items())]
    return "".join(_step_axes(scale, steps, level) + lines) + "</svg>"
