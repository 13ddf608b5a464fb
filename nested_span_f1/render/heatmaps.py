"""Agreement drawn as heatmaps for a paper: pairwise F1 between annotators, and the label confusion between them.

One figure: a panel of pairwise F1 per matching the result holds (exact, then
lenient), annotator against annotator, drawn on one fixed scale from 0 to 1
with one colour bar for all of them; then the label confusion (span pairs of
two types, summed over the pairs of annotators) with a colour bar of its own,
since it counts. Every cell is written in figures as well; a cell with no
figure (an annotator against itself, a pair with nothing to agree on) is left
blank with a dash. The title is the caller's. PNG, SVG or PDF by the file name,
or a self-contained HTML page holding the same drawing as SVG (its text kept as
text). Formatting only: every number comes from the result given.
"""
from __future__ import annotations

import html
import io
from collections.abc import Mapping, Sequence
from typing import Any

F1_COLOURS = "viridis"
COUNT_COLOURS = "Blues"


def f1_matrix(result: Mapping[str, Any], mode: str) -> list[list[float | None]]:
    """The pairwise F1 of a mode as a square table, annotator by annotator (None on the diagonal and where a pair
    has nothing to agree on)."""
    names = result["annotators"]
    pairwise = result["pairwise"] if mode == "exact" else result[mode]["pairwise"]

    def cell(a: str, b: str) -> float | None:
        if a == b:
            return None
        entry = pairwise.get(f"{a}|{b}") or pairwise.get(f"{b}|{a}")
        return entry["f1"]

    return [[cell(a, b) for b in names] for a in names]


def panels(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What the figure draws: ``{"title", "rows", "columns", "values", "kind"}`` for each F1 matrix the result
    holds and for the label confusion (``kind`` ``f1`` or ``count``)."""
    names = result["annotators"]
    unit = "token" if result.get("unit") == "token" else "span"
    out = [{"title": f"{mode} {unit} F1", "rows": names, "columns": names, "values": f1_matrix(result, mode),
            "kind": "f1"} for mode in ("exact", "lenient") if mode == "exact" or mode in result]
    confusion = result.get("label_confusion")
    if confusion:
        labels = list(confusion)
        nothing = labels[-1]
        out.append({"title": "label confusion (span pairs)", "rows": labels, "columns": labels,
                    "values": [[None if a == b == nothing else confusion[a][b] for b in labels] for a in labels],
                    "kind": "count"})
    return out


def _draw(ax: Any, shown: Mapping[str, Any], colours: str, top: float) -> Any:
    """One heatmap on ``ax`` with every cell's figure; returns the image for a colour bar."""
    import numpy as np

    values = np.array([[np.nan if v is None else float(v) for v in row] for row in shown["values"]], dtype=float)
    image = ax.imshow(np.ma.masked_invalid(values), cmap=colours, vmin=0, vmax=top, aspect="equal")
    ax.set_facecolor("#f2f2f2")
    ax.set_xticks(range(len(shown["columns"])), shown["columns"], rotation=45, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(len(shown["rows"])), shown["rows"])
    for i, row in enumerate(shown["values"]):
        for j, value in enumerate(row):
            if value is None:
                text, colour = "-", "#555555"
            else:
                text = f"{value:.2f}" if shown["kind"] == "f1" else f"{value:,}"
                dark = value / top > 0.55 if shown["kind"] == "count" else value / top < 0.6
                colour = "white" if dark else "black"
            ax.text(j, i, text, ha="center", va="center", color=colour, fontsize=8)
    ax.set_title(shown["title"], fontsize=10)
    return image


def plot_heatmaps(result: Mapping[str, Any], path: str | None = None, title: str = "Agreement between annotators",
                  ) -> Any:
    """The figure of :func:`panels` as a matplotlib Figure, saved to ``path`` when given (PNG, SVG or PDF by its
    name)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    shown = panels(result)
    sizes = [max(2.6, 0.55 * len(p["columns"]) + 1.2) for p in shown]
    fig, axes = plt.subplots(1, len(shown), figsize=(sum(sizes) + 2.4, max(sizes) + 1.0),
                             gridspec_kw={"width_ratios": sizes}, squeeze=False, layout="constrained")
    f1_images: list[Any] = []
    f1_axes: list[Any] = []
    for ax, panel in zip(axes.flat, shown):
        if panel["kind"] == "f1":
            f1_images.append(_draw(ax, panel, F1_COLOURS, 1.0))
            if f1_axes:  # the same annotators as the panel on its left: their names once
                ax.tick_params(labelleft=False)
            f1_axes.append(ax)
        else:
            top = max([1, *(v for row in panel["values"] for v in row if v is not None)])
            image = _draw(ax, panel, COUNT_COLOURS, float(top))
            fig.colorbar(image, ax=ax, shrink=0.8, label="span pairs")
    fig.colorbar(f1_images[0], ax=f1_axes, shrink=0.8, label="F1 (0 to 1)")
    fig.suptitle(title, fontsize=12)
    if path:
        fig.savefig(path, dpi=150, bbox_inches="tight")
    return fig


STYLE = "body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 18px 40px;color:#222}"


def heatmaps_page(result: Mapping[str, Any], title: str, notes: Sequence[str] = ()) -> str:
    """A self-contained HTML page of :func:`plot_heatmaps`'s figure as inline SVG, its text kept as text (it fetches
    nothing); the title is the figure's and the page's."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "nested-span-f1"}):
        fig = plot_heatmaps(result, title=title)
        out = io.StringIO()
        fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    svg = out.getvalue()
    svg = svg[svg.index("<svg"):]
    lines = "".join(f"<p>{html.escape(line)}</p>" for line in notes)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{STYLE}</style></head><body>{lines}{svg}</body></html>\n")
