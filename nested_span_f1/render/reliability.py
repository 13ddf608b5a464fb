"""Reliability diagrams drawn: with matplotlib (PNG, SVG, PDF), or as SVG text in a self-contained HTML page.

A panel is one reliability table (all types, or one type, as
:func:`nested_span_f1.thresholds.reliability` gives it): over each score bin, a bar
as high as the share of its predictions that are right, beside the diagonal a
calibrated model follows; under the bars, grey, the share of the predictions in
each bin (scaled so that the fullest bin reaches :data:`HISTOGRAM`), its count in
the HTML tooltip and in the table the command prints. Empty bins have no bar. The
frame, the scale, the legend and the notes are those of :mod:`.panels`.
Formatting only: every number comes from the table given.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .panels import figure, finish, frame, legend_rows, page, svg_frame

HISTOGRAM = 0.2
"""The height the fullest bin's share of predictions is drawn at."""

BAR, SHARE, DIAGONAL = "#4c78a8", "#bbbbbb", "#d62728"

LEGEND = ("share right in the bin", "predictions in the bin (fullest = 0.2)", "calibrated (share right = score)")


def reliability_panel(title: str, table: Mapping[str, Any]) -> dict[str, Any]:
    """A panel of one reliability table: its title with the expected calibration error and the predictions."""
    return {"title": f"{title} (ECE {table['ece']:.4f}, {table['predicted']:,} predicted)", "bins": table["bins"]}


def _bars(bins: Sequence[Mapping[str, Any]]) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """``(lower, width, height)`` of the precision bars (non-empty bins) and of the share bars."""
    fullest = max((row["count"] for row in bins), default=0) or 1
    right = [(row["lower"], row["upper"] - row["lower"], row["precision"]) for row in bins if row["count"]]
    share = [(row["lower"], row["upper"] - row["lower"], HISTOGRAM * row["count"] / fullest) for row in bins
             if row["count"]]
    return right, share


def plot_reliability(panels: Sequence[Mapping[str, Any]], path: str | None = None, title: str = "",
                     notes: Sequence[str] = (), percent: bool = False) -> Any:
    """The panels as a matplotlib Figure, saved to ``path`` when given."""
    fig, axes = figure(len(panels), title, notes, legend_rows(LEGEND))
    for ax, shown in zip(axes, panels):
        right, share = _bars(shown["bins"])
        if right:
            ax.bar([b[0] for b in right], [b[2] for b in right], width=[b[1] for b in right], align="edge",
                   color=BAR, edgecolor="#222222", linewidth=0.5, label=LEGEND[0])
            ax.bar([b[0] for b in share], [b[2] for b in share], width=[b[1] for b in share], align="edge",
                   color=SHARE, edgecolor="none", label=LEGEND[1], alpha=0.9)
        ax.plot([0, 1], [0, 1], color=DIAGONAL, linewidth=1, linestyle="--", label=LEGEND[2])
        frame(ax, shown["title"], "score", "share right", percent)
    return finish(fig, axes, title, notes, path)


def reliability_svg(shown: Mapping[str, Any], element_id: str = "", percent: bool = False) -> str:
    """One panel as an SVG element; each bar's tooltip gives its bin, count, right and mean score."""
    parts, x, y = svg_frame(shown["title"], "score", "share right", element_id, "chart reliability", extra_height=4,
                            percent=percent)
    right, share = _bars(shown["bins"])
    rows = [row for row in shown["bins"] if row["count"]]
    for (lower, width, height), (_, _, part), row in zip(right, share, rows):
        tip = (f"<title>[{row['lower']:g}, {row['upper']:g}{']' if row['upper'] == 1 else ')'}: {row['count']:,} "
               f"predicted, {row['right']:,} right ({row['precision']:.4f}), mean score {row['mean_score']:.4f}"
               "</title>")
        parts.append(f'<rect x="{x(lower):.1f}" y="{y(height):.1f}" width="{x(lower + width) - x(lower):.1f}" '
                     f'height="{y(0) - y(height):.1f}" fill="{BAR}" stroke="#222" stroke-width="0.5">{tip}</rect>'
                     f'<rect x="{x(lower):.1f}" y="{y(part):.1f}" width="{x(lower + width) - x(lower):.1f}" '
                     f'height="{y(0) - y(part):.1f}" fill="{SHARE}" opacity="0.9">{tip}</rect>')
    parts.append(f'<line x1="{x(0):.1f}" y1="{y(0):.1f}" x2="{x(1):.1f}" y2="{y(1):.1f}" stroke="{DIAGONAL}" '
                 'stroke-dasharray="5 3"/>')
    return "".join(parts) + "</svg>"


def reliability_page(panels: Sequence[Mapping[str, Any]], title: str = "", notes: Sequence[str] = (),
                     percent: bool = False) -> str:
    """A self-contained HTML page of the panels, with one legend."""
    symbols = (f'<rect x="1" y="1" width="12" height="10" fill="{BAR}" stroke="#222" stroke-width="0.5"/>',
               f'<rect x="1" y="1" width="12" height="10" fill="{SHARE}"/>',
               f'<line x1="0" y1="11" x2="14" y2="1" stroke="{DIAGONAL}" stroke-dasharray="5 3"/>')
    charts = [reliability_svg(shown, f"reliability-{k}", percent) for k, shown in enumerate(panels)]
    return page(title, [{"symbol": s, "label": label} for s, label in zip(symbols, LEGEND)], charts, notes)
