"""Where the evaluate metric modules live, in a clone and after ``pip install``."""
from __future__ import annotations

from pathlib import Path

from ..core.wording import quote

METRICS = ("span_f1", "lenient_span_f1", "nested_span_f1")

MODULES = {"exact": "span_f1", "lenient": "lenient_span_f1", "nested": "nested_span_f1"}
"""Each metric's evaluate module: the folder (``metrics/<module>/``) and its script (``<module>.py``)."""


def metric_path(name: str = "span_f1") -> str:
    """Folder of a metric module, ready for ``evaluate.load``.

    Installed packages carry the modules in ``nested_span_f1/metrics/``; a source
    checkout keeps them in the top-level ``metrics/`` folder.

    >>> metric_path("span_f1").endswith("span_f1")
    True
    """
    if name not in METRICS:
        raise ValueError(f"unknown metric {quote(name)}; choose one of {', '.join(METRICS)}")
    here = Path(__file__).resolve().parents[1]
    for folder in (here / "metrics" / name, here.parent / "metrics" / name):
        if (folder / f"{name}.py").is_file():
            return str(folder)
    raise FileNotFoundError(f"metric module {name} is not shipped with this installation (looked in {here})")
