"""Precision-recall curves drawn: with matplotlib (PNG, SVG), or as SVG text in a self-contained HTML page.

A panel is one curve (all types, or one type): its points, its average
precision, and the points marked on it (a threshold chosen on dev, the system's
own, the oracle's). The curve is drawn as the step function whose area is the
average precision: from recall 0, at each threshold's precision up to its
recall. Iso-F1 lines (F1 = 0.2, 0.4, 0.6, 0.8) are drawn behind it. Several
panels are small multiples, the overall curve first. Formatting only: every number
comes from the result given.
"""
from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from typing import Any

from .plots import DPI

DRAWN_POINTS = 2000
"""The points of a curve drawn at most, evenly spaced by threshold rank (the marked points are drawn exactly)."""

ISO_F1 = (0.2, 0.4, 0.6, 0.8)

MARKS = {"system": ("#1f77b4", "s", 10), "chosen": ("#d62728", "o", 7), "best": ("#d62728", "o", 7),
         "oracle": ("#7f7f7f", "X", 8)}
"""Colour, matplotlib marker and size of each kind of marked point, in the order they are drawn (a smaller mark on a
larger one where two points coincide)."""

Panel = Mapping[str, Any]
"""``{"title", "points": [(recall, precision), ...] (thresholds decreasing), "average_precision", "marks":
[{"kind", "label", "recall", "precision"}]}``."""


def panel(title: str, curve: Mapping[str, Any], marks: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """A panel from a curve's JSON (``curve``: its points, ``average_precision``, ``number``)."""
    return {"title": f"{title} (AP {curve['average_precision']:.4f}, {curve['number']} gold)",
            "points": [(p["recall"], p["precision"]) for p in curve["curve"]], "marks": list(marks)}


def thinned(points: Sequence[tuple[float, float]], limit: int = DRAWN_POINTS) -> list[tuple[float, float]]:
    """At most ``limit`` of the points, evenly spaced by rank, the first and the last kept: the points drawn."""
    if len(points) <= limit:
        return list(points)
    picked = sorted({round(k * (len(points) - 1) / (limit - 1)) for k in range(limit)})
    return [points[k] for k in picked]


def steps(points: Sequence[tuple[float, float]], limit: int = DRAWN_POINTS) -> list[tuple[float, float]]:
    """The vertices of the step curve through at most ``limit`` of the points (:func:`thinned`): from recall 0
    at the first precision, along each precision to its recall."""
    out, recall = [], 0.0
    for r, p in thinned(points, limit):
        out += [(recall, p), (r, p)]
        recall = r
    return out


def iso_f1(f1: float, n: int = 60) -> list[tuple[float, float]]:
    """``(recall, precision)`` along the line of equal F1, from precision 1 down to recall 1."""
    start = f1 / (2 - f1)
    recalls = [start + (1 - start) * k / (n - 1) for k in range(n)]
    return [(r, f1 * r / (2 * r - f1)) for r in recalls]


def _grid(n: int) -> tuple[int, int]:
    columns = min(3, n)
    return columns, math.ceil(n / columns)


def plot_curves(panels: Sequence[Panel], path: str | None = None, title: str = "Precision-recall") -> Any:
    """The panels as a matplotlib Figure, saved to ``path`` when given (PNG or SVG, by its name)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    columns, rows = _grid(len(panels))
    fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.9 * rows + 0.4), squeeze=False)
    for ax, shown in zip(axes.flat, panels):
        for f1 in ISO_F1:
            line = iso_f1(f1)
            ax.plot(*zip(*line), color="#cccccc", linewidth=0.8, linestyle=":")
            ax.annotate(f"F1={f1:g}", xy=line[-1], xytext=(-2, 2), textcoords="offset points", fontsize=7,
                        color="#999999", ha="right")
        if shown["points"]:
            ax.plot(*zip(*steps(shown["points"])), color="#222222", linewidth=1.4)
        for mark in shown["marks"]:
            colour, marker, size = MARKS[mark["kind"]]
            ax.plot(mark["recall"], mark["precision"], marker=marker, color=colour, markersize=size, linestyle="none",
                    label=mark["label"], markeredgecolor="#222222", markeredgewidth=0.6,
                    zorder=3 + list(MARKS).index(mark["kind"]))
        ax.set_xlim(0, 1.02)
        ax.set_ylim(0, 1.05)
        ax.set_xlabel("recall")
        ax.set_ylabel("precision")
        ax.set_title(shown["title"], fontsize=9)
        if shown["marks"]:
            ax.legend(loc="lower left", fontsize=7, frameon=True)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    if path:
        fig.savefig(path, dpi=DPI)
    return fig


_SVG_MARKS = {"o": '<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{c}" stroke="#222" stroke-width="0.6">',
              "s": '<rect x="{x0:.1f}" y="{y0:.1f}" width="9" height="9" fill="{c}" stroke="#222" stroke-width="0.6">',
              "X": '<path d="M{x0:.1f},{y0:.1f}l9,9m0,-9l-9,9" stroke="{c}" stroke-width="2.4" fill="none">'}
_SVG_ENDS = {"o": "</circle>", "s": "</rect>", "X": "</path>"}


def curve_svg(shown: Panel, element_id: str = "", width: int = 340) -> str:
    """One panel as an SVG element (iso-F1 lines, the step curve, the marks with their labels as a legend below)."""
    left, top, plot_w, plot_h = 44, 24, width - 60, 224
    height = top + plot_h + 36 + 14 * len(shown["marks"]) + 8

    def x(recall: float) -> float:
        return left + plot_w * recall / 1.02

    def y(precision: float) -> float:
        return top + plot_h * (1 - precision / 1.05)

    ident = f' id="{html.escape(element_id)}"' if element_id else ""
    parts = [f'<svg{ident} class="chart pr-curve" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             'role="img" xmlns="http://www.w3.org/2000/svg">',
             f'<text x="{left}" y="14" class="legend">{html.escape(shown["title"])}</text>']
    for tick in (0, 0.2, 0.4, 0.6, 0.8, 1.0):
        parts.append(f'<line x1="{x(tick):.1f}" y1="{top}" x2="{x(tick):.1f}" y2="{top + plot_h}" class="grid"/>'
                     f'<text x="{x(tick):.1f}" y="{top + plot_h + 14}" class="tick" text-anchor="middle">{tick:g}</text>'
                     f'<line x1="{left}" y1="{y(tick):.1f}" x2="{left + plot_w}" y2="{y(tick):.1f}" class="grid"/>'
                     f'<text x="{left - 5}" y="{y(tick) + 4:.1f}" class="tick" text-anchor="end">{tick:g}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h + 28}" class="tick" text-anchor="middle">recall</text>'
                 f'<text x="12" y="{top + plot_h / 2}" class="tick" text-anchor="middle" '
                 f'transform="rotate(-90 12 {top + plot_h / 2})">precision</text>')
    for f1 in ISO_F1:
        line = iso_f1(f1)
        points = " ".join(f"{x(r):.1f},{y(p):.1f}" for r, p in line)
        parts.append(f'<polyline points="{points}" fill="none" stroke="#c8c8c8" stroke-dasharray="2 3"/>'
                     f'<text x="{x(line[-1][0]) - 2:.1f}" y="{y(line[-1][1]) - 3:.1f}" class="tick" '
                     f'text-anchor="end" fill="#999">F1={f1:g}</text>')
    if shown["points"]:
        points = " ".join(f"{x(r):.1f},{y(p):.1f}" for r, p in steps(shown["points"]))
        parts.append(f'<polyline class="curve" points="{points}" fill="none" stroke="#222" stroke-width="1.5"/>')
    for k, mark in sorted(enumerate(shown["marks"]), key=lambda item: list(MARKS).index(item[1]["kind"])):
        colour, marker, _ = MARKS[mark["kind"]]
        mx, my = x(mark["recall"]), y(mark["precision"])
        label = html.escape(mark["label"])
        tip = f'<title>{label}: precision {mark["precision"]:.4f}, recall {mark["recall"]:.4f}</title>'
        parts.append(_SVG_MARKS[marker].format(x=mx, y=my, x0=mx - 4.5, y0=my - 4.5, c=colour) + tip
                     + _SVG_ENDS[marker])
        ly = top + plot_h + 44 + 14 * k
        parts.append(_SVG_MARKS[marker].format(x=left + 4.5, y=ly - 4, x0=left, y0=ly - 8.5, c=colour)
                     + _SVG_ENDS[marker] + f'<text x="{left + 14}" y="{ly}" class="legend">{label}</text>')
    return "".join(parts) + "</svg>"


STYLE = ("body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1120px;padding:0 18px 40px;color:#222}"
         ".panels{display:flex;flex-wrap:wrap;gap:14px}.chart text{font-size:11px;fill:#333}.chart .grid{stroke:#eee}"
         "p.note{color:#555}")


def curves_page(panels: Sequence[Panel], title: str, notes: Sequence[str] = ()) -> str:
    """A self-contained HTML page of the panels (inline SVG and styles: it fetches nothing)."""
    charts = "".join(curve_svg(shown, f"pr-curve-{k}") for k, shown in enumerate(panels))
    lines = "".join(f'<p class="note">{html.escape(line)}</p>' for line in notes)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f'<style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1>{lines}'
            f'<div class="panels">{charts}</div></body></html>\n')
