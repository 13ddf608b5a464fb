"""Small multiples on the unit square, drawn alike with matplotlib (PNG, SVG, PDF) and as SVG text in a page.

Precision-recall curves and reliability diagrams are both panels whose two axes
run over [0, 1]: each panel has the same square frame, the same ticks (0, 0.2,
..., 1, or 0, 20, ..., 100 with ``percent``) and a small margin past 1
(:data:`LIMIT`), in the PNG as in the HTML page. A figure has one title (the
caller's, or none), one legend shared by its panels (each entry once), and notes
under the panels (what is not drawn, and why). Formatting only: every number
comes from the caller.
"""
from __future__ import annotations

import html
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .plots import DPI

LIMIT = 1.02
"""Both axes run from 0 to this: the frame holds a point at 1 whole."""

TICKS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)

PANEL_INCHES = 3.6
"""A panel's side in a matplotlib figure."""

SVG_SIDE = 224
"""A panel's plot side in an SVG chart, in pixels."""

STYLE = ("body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1120px;padding:0 18px 40px;color:#222}"
         ".panels{display:flex;flex-wrap:wrap;gap:14px}.chart text{font-size:11px;fill:#333}.chart .grid{stroke:#eee}"
         "p.note{color:#555}.legend-row{display:flex;flex-wrap:wrap;gap:4px 18px;margin:6px 0 12px}")


def tick_text(tick: float, percent: bool = False) -> str:
    """A tick's label: ``0.2`` or, in percent, ``20``."""
    return f"{round(tick * 100):d}" if percent else f"{tick:g}"


def axis_name(name: str, percent: bool = False) -> str:
    return f"{name} (%)" if percent else name


def grid(n: int) -> tuple[int, int]:
    """Columns and rows of ``n`` panels: three a row at most."""
    columns = max(1, min(3, n))
    return columns, max(1, math.ceil(n / columns))


def _margins(title: str, notes: Sequence[str], legend_rows: int) -> tuple[float, float]:
    """Inches kept above the panels (for the title) and below them (for the legend and the notes)."""
    return (0.45 if title else 0.1), 0.3 * legend_rows + 0.2 * len(notes) + 0.15


def figure(n: int, title: str, notes: Sequence[str], legend_rows: int) -> tuple[Any, list[Any]]:
    """A matplotlib figure of ``n`` square panels in :func:`grid`, with room above for the title and below for
    the legend and the notes (:func:`finish` lays them out); the panels' axes (the unused cells removed)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    columns, rows = grid(n)
    top, bottom = _margins(title, notes, legend_rows)
    fig, axes = plt.subplots(rows, columns, squeeze=False,
                             figsize=((PANEL_INCHES + 0.6) * columns, (PANEL_INCHES + 0.7) * rows + top + bottom))
    cells = list(axes.flat)
    for ax in cells[n:]:
        fig.delaxes(ax)
    if title:
        fig.suptitle(title, fontsize=11)
    return fig, cells[:n]


def frame(ax: Any, title: str, x_name: str, y_name: str, percent: bool = False) -> None:
    """One matplotlib panel's square frame, ticks and names (see the module docstring)."""
    ax.set_xlim(0, LIMIT)
    ax.set_ylim(0, LIMIT)
    ax.set_aspect("equal")
    ax.set_xticks(TICKS, [tick_text(t, percent) for t in TICKS])
    ax.set_yticks(TICKS, [tick_text(t, percent) for t in TICKS])
    ax.set_xlabel(axis_name(x_name, percent))
    ax.set_ylabel(axis_name(y_name, percent))
    ax.set_title(title, fontsize=9)


def finish(fig: Any, axes: Sequence[Any], title: str, notes: Sequence[str], path: str | None) -> Any:
    """The panels laid out between the title and, below them, one legend for every panel (each label once, in the
    order first drawn) and the notes; the figure saved to ``path`` when given."""
    handles: dict[str, Any] = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    height = fig.get_figheight()
    top, bottom = _margins(title, notes, legend_rows(handles))
    fig.tight_layout(rect=(0, bottom / height, 1, 1 - top / height), h_pad=2.0)
    line = 0.2 / height
    if handles:
        fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=min(4, len(handles)),
                   fontsize=8, frameon=False, bbox_to_anchor=(0.5, line * len(notes) + 0.05 / height))
    for k, note in enumerate(notes):
        fig.text(0.01, line * (len(notes) - 1 - k) + 0.05 / height, note, fontsize=7.5, color="#444")
    if path:
        fig.savefig(path, dpi=DPI)
    return fig


def legend_rows(labels: Iterable[str]) -> int:
    """The rows the shared legend takes (four entries a row)."""
    return math.ceil(len(dict.fromkeys(labels)) / 4)


Scale = Callable[[float], float]


def svg_frame(title: str, x_name: str, y_name: str, element_id: str = "", css: str = "chart", width: int = 300,
              extra_height: int = 0, percent: bool = False) -> tuple[list[str], Scale, Scale]:
    """The opening of one panel as SVG (its square frame, ticks and names) and its coordinate functions; the
    caller appends its marks and ``</svg>``. ``extra_height`` pixels are left below the axis names."""
    left, top = 44, 24
    height = top + SVG_SIDE + 36 + extra_height

    def x(value: float) -> float:
        return left + SVG_SIDE * value / LIMIT

    def y(value: float) -> float:
        return top + SVG_SIDE * (1 - value / LIMIT)

    ident = f' id="{html.escape(element_id)}"' if element_id else ""
    parts = [f'<svg{ident} class="{css}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             'role="img" xmlns="http://www.w3.org/2000/svg">',
             f'<text x="{left}" y="14" class="legend">{html.escape(title)}</text>']
    for tick in TICKS:
        label = tick_text(tick, percent)
        parts.append(f'<line x1="{x(tick):.1f}" y1="{top}" x2="{x(tick):.1f}" y2="{top + SVG_SIDE}" class="grid"/>'
                     f'<text x="{x(tick):.1f}" y="{top + SVG_SIDE + 14}" class="tick" text-anchor="middle">{label}</text>'
                     f'<line x1="{left}" y1="{y(tick):.1f}" x2="{left + SVG_SIDE}" y2="{y(tick):.1f}" class="grid"/>'
                     f'<text x="{left - 5}" y="{y(tick) + 4:.1f}" class="tick" text-anchor="end">{label}</text>')
    middle = top + SVG_SIDE / 2
    parts.append(f'<text x="{left + SVG_SIDE / 2}" y="{top + SVG_SIDE + 28}" class="tick" text-anchor="middle">'
                 f'{html.escape(axis_name(x_name, percent))}</text>'
                 f'<text x="12" y="{middle}" class="tick" text-anchor="middle" transform="rotate(-90 12 {middle})">'
                 f'{html.escape(axis_name(y_name, percent))}</text>')
    return parts, x, y


def page(title: str, legend: Sequence[Mapping[str, str]], charts: Sequence[str], notes: Sequence[str]) -> str:
    """A self-contained HTML page (inline SVG and styles: it fetches nothing): the title (when given), one legend
    (``{"symbol": svg, "label": text}`` entries), the charts, then the notes."""
    entries = "".join(f'<span><svg width="14" height="12" xmlns="http://www.w3.org/2000/svg">{entry["symbol"]}</svg> '
                      f'{html.escape(entry["label"])}</span>' for entry in legend)
    heading = f"<h1>{html.escape(title)}</h1>" if title else ""
    lines = "".join(f'<p class="note">{html.escape(line)}</p>' for line in notes)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title or "Charts")}'
            f'</title><style>{STYLE}</style></head><body>{heading}'
            + (f'<div class="legend-row">{entries}</div>' if legend else "")
            + f'<div class="panels">{"".join(charts)}</div>{lines}</body></html>\n')
