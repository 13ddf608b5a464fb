"""The colours of the benchmark's plots and HTML report: one per system, and others, never the systems', for the
lenient error categories (a reader matches colours across panels, so a colour means one thing)."""
from __future__ import annotations

SYSTEMS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#5254a3", "#8ca252", "#bd9e39",
           "#ad494a", "#a55194")
"""Systems in report order (matplotlib's tab10, then the darker half of tab20b), repeated past twenty systems."""

CATEGORIES = {"correct": "#b8e186", "type_error": "#fdb863", "boundary_error": "#b2abd2",
              "boundary_type_error": "#f1b6da", "missed": "#5e3c99", "spurious": "#e66101"}
"""Lenient error categories (ColorBrewer's PuOr and PiYG ends: none is a system's colour)."""
DARK = ("missed", "spurious")
"""Categories whose colour is dark: text on them is white."""


RUNS = ("#333333", "#8a8a8a", "#5c5c5c", "#b5b5b5")
"""Lines of F1 against step, one per run (greys: a run is no system; its points take their systems' colours)."""
RUN_STYLES = ("-", "--", "-.", ":")


def run_style(index: int) -> tuple[str, str]:
    """The colour and line style of the ``index``-th run."""
    return RUNS[index % len(RUNS)], RUN_STYLES[index // len(RUNS) % len(RUN_STYLES)]


def system_colour(index: int) -> str:
    """The colour of the ``index``-th system."""
    return SYSTEMS[index % len(SYSTEMS)]
