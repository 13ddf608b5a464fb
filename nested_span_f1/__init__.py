"""nested-span-f1: entity-level span F1 for flat, lenient and nested evaluation.

``__all__`` is the public API, what the README and docs/ teach (docs/python.md lists it); every
other name stays importable from its module. ``import nested_span_f1`` loads numpy and the flat
pipeline (what ``score_exact`` needs); the readers, the lenient and nested metrics and the metric
folders' paths load on first use of one of their names. transformers, torch, evaluate, datasets
and matplotlib are imported only by the modules at the edge that need them.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .core.scores import UndefinedMetricWarning, summarize
from .flat.pipeline import count_exact, score_exact, tags_to_spans

if TYPE_CHECKING:
    from .formats import Corpus, read_corpus, read_dataset, write_corpus
    from .formats.columns import read_columns
    from .formats.trees import trees_to_corpus
    from .hf.paths import metric_path
    from .lenient.score import count_lenient, score_lenient, summarize_lenient
    from .nested.score import count_nested, score_nested, summarize_nested

__version__ = "0.1.0"


def sample_path(name: str = "") -> str:
    """Path of a sample file (or folder) shipped inside the package (the samples' folder without ``name``), as
    ``nested-span-f1 demo --help`` prints it: the same in a clone and after ``pip install``.

    >>> sample_path("nested.gold.jsonl").endswith("nested.gold.jsonl")
    True

    Raises:
        FileNotFoundError: no sample of that name (the message lists the samples).
    """
    import os

    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sample_data")
    if not name:
        return folder
    if os.path.basename(name) != name or not os.path.exists(os.path.join(folder, name)):
        samples = ", ".join(sorted(f for f in os.listdir(folder) if f != "README.md"))
        raise FileNotFoundError(f"no sample file {name!r} ships with nested-span-f1; the samples are {samples}")
    return os.path.join(folder, name)


_ON_FIRST_USE = {
    **dict.fromkeys(("Corpus", "read_corpus", "read_dataset", "write_corpus"), "formats"),
    "read_columns": "formats.columns",
    "trees_to_corpus": "formats.trees",
    **dict.fromkeys(("count_lenient", "score_lenient", "summarize_lenient"), "lenient"),
    **dict.fromkeys(("count_nested", "score_nested", "summarize_nested"), "nested"),
    "metric_path": "hf.paths",
}
"""Public names whose module is imported when the name is first used (PEP 562)."""


def __getattr__(name: str) -> Any:
    if name not in _ON_FIRST_USE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_ON_FIRST_USE[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_ON_FIRST_USE])


__all__ = [
    "Corpus",
    "UndefinedMetricWarning",
    "count_exact",
    "count_lenient",
    "count_nested",
    "metric_path",
    "read_columns",
    "read_corpus",
    "read_dataset",
    "sample_path",
    "score_exact",
    "score_lenient",
    "score_nested",
    "summarize",
    "summarize_lenient",
    "summarize_nested",
    "tags_to_spans",
    "trees_to_corpus",
    "write_corpus",
]
