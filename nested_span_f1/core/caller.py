"""Warnings that point at the caller's line, however deep in the package they are raised.

A fixed ``stacklevel`` is right for one call path only: the same warning comes
from ``score_exact``, ``score_spans``, the evaluate modules and the Trainer glue,
each at another depth. So the level is counted: the first frame that belongs
neither to this package nor to evaluate (which runs the metric modules) is the
line the user wrote, and the one a ``warnings`` filter should see.
"""
from __future__ import annotations

import sys
import warnings

_OURS = ("nested_span_f1", "evaluate")
"""Module name prefixes whose frames are skipped (evaluate loads metric scripts as ``evaluate_modules.*``)."""


def warn_caller(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` attributed to the first frame outside this package and evaluate."""
    frame, level = sys._getframe(1), 2
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith(_OURS):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)
