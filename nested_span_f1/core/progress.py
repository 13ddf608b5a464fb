"""Progress bars for long work, shown only where a person sees them.

One rule for every bar of the package (reading a large file, resampling): a bar
is drawn when stderr is a terminal, or in a notebook (where ``tqdm.auto`` draws a
widget rather than writing to stderr). Redirected to a file or a pipe, stderr
gets no bar, so ``2> err.txt`` holds the messages and nothing else.
"""
from __future__ import annotations

import sys
from typing import Any

from tqdm import autonotebook, std
from tqdm.auto import tqdm


def seen() -> bool:
    """Whether a progress bar would reach a person: stderr is a terminal, or tqdm draws a notebook widget."""
    if autonotebook.tqdm is not std.tqdm:  # tqdm.auto chose the notebook's widget
        return True
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


def bar(total: int | None, desc: str, unit: str, *, show: bool = True, **options: Any) -> tqdm:
    """A tqdm bar on stderr (``total`` None: a count without an end), switched off unless ``show`` and :func:`seen`;
    it leaves no line behind."""
    return tqdm(total=total, desc=desc, unit=unit, disable=not (show and seen()), leave=False, **options)
