"""Scores with their intervals as horizontal bars, one colour a system: drawn with matplotlib on a given Axes, or
as SVG text for the benchmark's self-contained HTML page.

Per type (or per bucket) each system's F1 is a bar with whiskers at its interval's
bounds; an F1 of 0 is drawn as a tick at 0, a score a system has not as nothing (a
dash on the page). The lenient error categories are stacked bars, one a system, in
colours no system has (:mod:`.colours`). matplotlib is imported when a panel is
drawn. Formatting only: every number comes from the result given.
"""
from __future__ import annotations

import html
import math
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from ..lenient import BREAKDOWN
from .colours import CATEGORIES, system_colour
from .tables import DASH, estimate_text, pct

ERRORS = [k for k in BREAKDOWN if k != "correct"]


def _escaped(text: Any) -> str:
    return html.escape(str(text), quote=True)


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


def bars_svg(chart_id: str, groups: Sequence[str], series: Sequence[tuple[str, str, list[Any]]], level: str) -> str:
    """Horizontal grouped bars of F1 with whiskers at the interval bounds, one group per row; a bar of 0 is drawn
    as a tick at 0 with its value, an absent one as a dash."""
    left, width, bar, gap = 170, 480, 11, 10
    per_group = bar * len(series) + gap
    top = 42 + 16 * math.ceil(len(series) / 2)
    height = top + per_group * len(groups) + 30
    parts = [f'<svg id="{chart_id}" class="chart" viewBox="0 0 {left + width + 90} {height}" '
             f'width="{left + width + 90}" height="{height}" role="img">',
             f'<text x="{left}" y="14" class="legend">F1 (%); whiskers: {_escaped(level)} bootstrap interval</text>']
    for k, (name, colour, _) in enumerate(series):
        lx, ly = left + (k % 2) * 300, 32 + 16 * (k // 2)
        parts.append(f'<rect x="{lx}" y="{ly - 9}" width="12" height="10" fill="{colour}"/>'
                     f'<text x="{lx + 16}" y="{ly}" class="legend">{_escaped(name)}</text>')
    for tick in range(0, 101, 20):
        x = left + width * tick / 100
        parts.append(f'<line x1="{x}" y1="{top - 6}" x2="{x}" y2="{height - 24}" class="grid"/>'
                     f'<text x="{x}" y="{height - 10}" class="tick" text-anchor="middle">{tick}</text>')
    for g, group in enumerate(groups):
        y0 = top + g * per_group
        parts.append(f'<text x="{left - 8}" y="{y0 + per_group / 2}" class="group" text-anchor="end">'
                     f'{_escaped(group)}</text>')
        for k, (name, colour, values) in enumerate(series):
            y = y0 + k * bar
            estimate = values[g]
            if estimate is None:
                parts.append(f'<text x="{left + 4}" y="{y + bar - 2}" class="value">{DASH}</text>')
                continue
            value, low, high = (100 * estimate[key] for key in ("value", "low", "high"))
            x = left + width * value / 100
            parts.append(f'<rect x="{left}" y="{y + 1}" width="{max(x - left, 0):.1f}" height="{bar - 2}" '
                         f'fill="{colour}"><title>{_escaped(name)}, {_escaped(group)}: {estimate_text(estimate)}</title></rect>')
            if value == 0:
                parts.append(f'<line x1="{left}" y1="{y}" x2="{left}" y2="{y + bar}" stroke="{colour}" '
                             'stroke-width="3"/>')
            xl, xh = left + width * low / 100, left + width * high / 100
            parts.append(f'<line x1="{xl:.1f}" y1="{y + bar / 2}" x2="{xh:.1f}" y2="{y + bar / 2}" class="whisker"/>')
            parts.append(f'<text x="{max(x, xh) + 4:.1f}" y="{y + bar - 2}" class="value">{pct(estimate["value"])}'
                         '</text>')
    return "".join(parts) + "</svg>"
