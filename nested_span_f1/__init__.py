"""nested-span-f1: entity-level span F1 for flat, lenient and nested evaluation.

``import nested_span_f1`` loads numpy and the flat pipeline (what ``score_exact``
needs); the readers, the lenient and nested metrics and the metric folders' paths
load on first use of one of their names. transformers, torch, evaluate, datasets
and matplotlib are imported only by the modules at the edge that need them.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .core.counts import Counts, Tally
from .core.matching import ExactMatch, match_exact
from .core.scores import UndefinedMetricWarning, summarize
from .core.spans import Span, SpanArrays, spans_from_lists
from .flat.pipeline import count_exact, decode_pair, score_exact, tags_to_spans
from .flat.schemes import SCHEMES, get_scheme

if TYPE_CHECKING:
    from .formats import Corpus, read_corpus, read_dataset, write_corpus
    from .hf.paths import metric_path
    from .lenient.score import LenientCounts, count_lenient, score_lenient
    from .nested.score import NestedCounts, count_nested, describe_spans, score_nested, summarize_nested

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
    **dict.fromkeys(("LenientCounts", "count_lenient", "score_lenient"), "lenient"),
    **dict.fromkeys(("NestedCounts", "count_nested", "describe_spans", "score_nested", "summarize_nested"), "nested"),
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
    "SCHEMES",
    "Corpus",
    "Counts",
    "ExactMatch",
    "LenientCounts",
    "NestedCounts",
    "Span",
    "SpanArrays",
    "Tally",
    "UndefinedMetricWarning",
    "count_exact",
    "count_lenient",
    "count_nested",
    "decode_pair",
    "describe_spans",
    "get_scheme",
    "match_exact",
    "metric_path",
    "read_corpus",
    "read_dataset",
    "sample_path",
    "score_exact",
    "score_lenient",
    "score_nested",
    "spans_from_lists",
    "summarize",
    "summarize_nested",
    "tags_to_spans",
    "write_corpus",
]
