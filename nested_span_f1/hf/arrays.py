"""Model outputs and label columns as numpy arrays, whatever Trainer or a loop of one's own passes.

Trainer hands ``compute_metrics`` numpy arrays, or tensors on any device when
``batch_eval_metrics=True``; a loop of one's own may pass lists. Every factory reads
them through :func:`to_numpy`, which refuses, naming the argument, the containers
whose order is not the caller's (see :mod:`nested_span_f1.core.sequences`).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.sequences import check_rows


def to_numpy(x: Any, name: str = "input") -> np.ndarray:
    """A numpy array of a tensor (any device) or array-like; a set, a dict or a generator, or a list holding
    one as a row, is refused naming ``name`` (see :func:`nested_span_f1.core.sequences.check_rows`)."""
    if hasattr(x, "detach"):
        x = x.detach().cpu().numpy()
    if x is not None and not isinstance(x, np.ndarray):
        check_rows(x, name)
    return np.asarray(x)
