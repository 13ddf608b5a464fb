"""Precision-recall curves drawn: with matplotlib (PNG, SVG), or as SVG text in a self-contained HTML page.

A panel is one curve (all types, or one type): its points, its average
precision, and the points marked on it (a threshold chosen on dev, the system's
own, the oracle's). The curve is drawn as the step function whose area is the
average precision: from recall 0, at each threshold's precision up to its
recall. Iso-F1 lines (F1 = 0.2, 0.4, 0.6, 0.8) are drawn behind it. Several
panels are small multiples, the overall curve first, on one scale with one legend
(:mod:`.panels`). Formatting only: every number comes from the result given.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from .panels import SVG_SIDE, figure, finish, frame, legend_rows, page, svg_frame, tick_text

DRAWN_POINTS = 2000
"""The points of a curve drawn at most, evenly spaced by threshold rank (the marked points are drawn exactly)."""

ISO_F1 = (0.2, 0.4, 0.6, 0.8)

MARKS = {"system": ("#1f77b4", "s", 10), "chosen": ("#d62728", "o", 7), "best": ("#d62728", "o", 7),
         "oracle": ("#7f7f7f", "X", 8)}
"""Colour, matplotlib marker and size of each kind of marked point, in the order they are drawn (a smaller mark on a
larger one where two points coincide)."""

Panel = Mapping[str, Any]
"""``{"title", "points": [(recall, precision), ...] (thresholds decreasing), "marks": [{"kind", "label",
"recall", "precision", "value"}], "lines": [{"label", "points"}]}``: a mark's ``label`` is its entry in the
legend (the same for every panel), its optional ``value`` (a threshold) is written beside it; ``lines`` are
optional."""


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


LINE_STYLE = {"color": "#2ca02c", "linestyle": "--", "linewidth": 1.2}
"""How a panel's extra lines are drawn (the curve over k of keeping the top k of each sentence)."""


def plot_curves(panels: Sequence[Panel], path: str | None = None, title: str = "", notes: Sequence[str] = (),
                percent: bool = False) -> Any:
    """The panels as a matplotlib Figure (:mod:`.panels`: square frames on one scale, one legend, the notes
    under them), saved to ``path`` when given (PNG, SVG or PDF, by its name)."""
    labels = [mark["label"] for shown in panels for mark in shown["marks"]]
    labels += [line["label"] for shown in panels for line in shown.get("lines", ())]
    fig, axes = figure(len(panels), title, notes, legend_rows(labels))
    for ax, shown in zip(axes, panels):
        for f1 in ISO_F1:
            line = iso_f1(f1)
            ax.plot(*zip(*line), color="#cccccc", linewidth=0.8, linestyle=":")
            ax.annotate(f"F1={tick_text(f1, percent)}", xy=line[-1], xytext=(-2, 2), textcoords="offset points", fontsize=7,
                        color="#999999", ha="right")
        if shown["points"]:
            ax.plot(*zip(*steps(shown["points"])), color="#222222", linewidth=1.4)
        for extra in shown.get("lines", ()):
            ax.plot(*zip(*extra["points"]), label=extra["label"], **LINE_STYLE)
        for mark, (anchor, below) in zip(shown["marks"], _stacked(shown["marks"])):
            colour, marker, size = MARKS[mark["kind"]]
            ax.plot(mark["recall"], mark["precision"], marker=marker, color=colour, markersize=size, linestyle="none",
                    label=mark["label"], markeredgecolor="#222222", markeredgewidth=0.6,
                    zorder=3 + list(MARKS).index(mark["kind"]))
            if mark.get("value"):
                ax.annotate(mark["value"], xy=anchor, xytext=(6, -10 - 9 * below),
                            textcoords="offset points", fontsize=7, color=colour)
        frame(ax, shown["title"], "recall", "precision", percent)
    return finish(fig, axes, title, notes, path)


NEAR = 0.04
"""Marks closer than this on both axes have their values written one under the other."""


def _stacked(marks: Sequence[Mapping[str, Any]]) -> list[tuple[tuple[float, float], int]]:
    """Where each mark's value is written: beside the first mark near it (within :data:`NEAR` on both axes; itself
    when none is), as ``(recall, precision)``, and on which line under it (how many marks near that one came
    before), so that the values of marks on one spot are a column, not a heap."""
    out: list[tuple[tuple[float, float], int]] = []
    for k, mark in enumerate(marks):
        near = [j for j in range(k) if abs(marks[j]["recall"] - mark["recall"]) < NEAR
                and abs(marks[j]["precision"] - mark["precision"]) < NEAR]
        anchor = out[near[0]][0] if near else (mark["recall"], mark["precision"])
        out.append((anchor, sum(1 for place, _ in out if place == anchor)))
    return out


_SVG_MARKS = {"o": '<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{c}" stroke="#222" stroke-width="0.6">',
              "s": '<rect x="{x0:.1f}" y="{y0:.1f}" width="9" height="9" fill="{c}" stroke="#222" stroke-width="0.6">',
              "X": '<path d="M{x0:.1f},{y0:.1f}l9,9m0,-9l-9,9" stroke="{c}" stroke-width="2.4" fill="none">'}
_SVG_ENDS = {"o": "</circle>", "s": "</rect>", "X": "</path>"}


def _symbol(kind: str, x: float, y: float) -> str:
    """A mark's SVG element centred at ``(x, y)`` (its tooltip and end left to the caller)."""
    colour, marker, _ = MARKS[kind]
    return _SVG_MARKS[marker].format(x=x, y=y, x0=x - 4.5, y0=y - 4.5, c=colour)


def _end(kind: str) -> str:
    return _SVG_ENDS[MARKS[kind][1]]


def curve_svg(shown: Panel, element_id: str = "", legend: bool = True, percent: bool = False) -> str:
    """One panel as an SVG element (iso-F1 lines, the step curve, the extra lines, the marks with their values
    beside them), in the frame of :func:`~.panels.svg_frame`; with ``legend``, the marks' labels listed below it
    (a page of several panels shows one legend instead, :func:`curves_page`)."""
    marks = sorted(enumerate(shown["marks"]), key=lambda item: list(MARKS).index(item[1]["kind"]))
    below = 14 * len(shown["marks"]) + 8 if legend else 4
    parts, x, y = svg_frame(shown["title"], "recall", "precision", element_id, "chart pr-curve", extra_height=below,
                            percent=percent)
    for f1 in ISO_F1:
        line = iso_f1(f1)
        points = " ".join(f"{x(r):.1f},{y(p):.1f}" for r, p in line)
        parts.append(f'<polyline points="{points}" fill="none" stroke="#c8c8c8" stroke-dasharray="2 3"/>'
                     f'<text x="{x(line[-1][0]) - 2:.1f}" y="{y(line[-1][1]) - 3:.1f}" class="tick" '
                     f'text-anchor="end" fill="#999">F1={tick_text(f1, percent)}</text>')
    if shown["points"]:
        points = " ".join(f"{x(r):.1f},{y(p):.1f}" for r, p in steps(shown["points"]))
        parts.append(f'<polyline class="curve" points="{points}" fill="none" stroke="#222" stroke-width="1.5"/>')
    for extra in shown.get("lines", ()):
        points = " ".join(f"{x(r):.1f},{y(p):.1f}" for r, p in extra["points"])
        parts.append(f'<polyline class="extra" points="{points}" fill="none" stroke="{LINE_STYLE["color"]}" '
                     f'stroke-dasharray="5 3" stroke-width="1.2"><title>{html.escape(extra["label"])}</title>'
                     "</polyline>")
    bottom = 24 + SVG_SIDE + 36
    lower = _stacked(shown["marks"])
    for k, mark in marks:
        mx, my = x(mark["recall"]), y(mark["precision"])
        label = html.escape(mark["label"] + (f" ({mark['value']})" if mark.get("value") else ""))
        tip = f'<title>{label}: precision {mark["precision"]:.4f}, recall {mark["recall"]:.4f}</title>'
        parts.append(_symbol(mark["kind"], mx, my) + tip + _end(mark["kind"]))
        if mark.get("value"):
            (near_recall, near_precision), below = lower[k]
            parts.append(f'<text x="{x(near_recall) + 7:.1f}" y="{y(near_precision) + 12 + 11 * below:.1f}" class="tick" '
                         f'fill="{MARKS[mark["kind"]][0]}">'
                         f'{html.escape(mark["value"])}</text>')
        if legend:
            ly = bottom + 8 + 14 * k
            parts.append(_symbol(mark["kind"], 44 + 4.5, ly - 4) + _end(mark["kind"])
                         + f'<text x="{44 + 14}" y="{ly}" class="legend">{label}</text>')
    return "".join(parts) + "</svg>"


def curves_page(panels: Sequence[Panel], title: str = "", notes: Sequence[str] = (), percent: bool = False) -> str:
    """A self-contained HTML page of the panels (:func:`~.panels.page`): the title, one legend of every kind of
    mark and line drawn, the panels, the notes under them."""
    charts = [curve_svg(shown, f"pr-curve-{k}", legend=False, percent=percent) for k, shown in enumerate(panels)]
    legend: dict[str, str] = {}
    for shown in panels:
        for extra in shown.get("lines", ()):
            legend.setdefault(extra["label"], f'<line x1="0" y1="6" x2="14" y2="6" stroke="{LINE_STYLE["color"]}" '
                                              'stroke-dasharray="5 3" stroke-width="1.2"/>')
        for mark in shown["marks"]:
            legend.setdefault(mark["label"], _symbol(mark["kind"], 7, 6) + _end(mark["kind"]))
    return page(title, [{"symbol": symbol, "label": label} for label, symbol in legend.items()], charts, notes)
