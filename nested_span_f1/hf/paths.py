"""Where the evaluate metric modules live, in a clone and after ``pip install``."""
from __future__ import annotations

from pathlib import Path

from ..core.wording import quote

MODULES = {"exact": "span_f1", "lenient": "lenient_span_f1", "nested": "nested_span_f1"}
"""Each metric's evaluate module: the folder (``metrics/<module>/``) and its script (``<module>.py``)."""

METRICS = tuple(MODULES)
"""The metrics by name: ``exact``, ``lenient``, ``nested``."""


def metric_path(name: str = "exact") -> str:
    """Folder of a metric's evaluate module (``exact``: ``span_f1``, ``lenient``: ``lenient_span_f1``,
    ``nested``: ``nested_span_f1``), ready for ``evaluate.load``.

    Installed packages carry the modules in ``nested_span_f1/metrics/``; a source
    checkout keeps them in the top-level ``metrics/`` folder.

    >>> metric_path("exact").endswith("span_f1")
    True
    """
    if name not in MODULES:
        raise ValueError(f"unknown metric {quote(name)}; choose one of {', '.join(METRICS)}")
    module = MODULES[name]
    here = Path(__file__).resolve().parents[1]
    for folder in (here / "metrics" / module, here.parent / "metrics" / module):
        if (folder / f"{module}.py").is_file():
            return str(folder)
    raise FileNotFoundError(f"metric module {module} is not shipped with this installation (looked in {here})")
