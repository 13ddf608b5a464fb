"""nested-span-f1: entity-level span F1 for flat, lenient and nested evaluation.

The core imports only numpy; transformers, torch, evaluate and datasets are
imported lazily by the modules at the edge that need them.
"""
from .counts import Counts, Tally
from .flat import count_tags, decode_pair, score_tags, tags_to_spans
from .formats import Corpus, read_corpus, read_dataset, write_corpus
from .lenient import LenientCounts, count_lenient, score_lenient
from .matching import ExactMatch, match_exact
from .nested import (
    NestedCounts,
    count_nested,
    describe_spans,
    score_nested,
    summarize_nested,
)
from .paths import metric_path
from .schemes import SCHEMES, get_scheme
from .scores import UndefinedMetricWarning, summarize
from .spans import Span, SpanArrays, spans_from_lists

__version__ = "0.1.0"

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
    "count_lenient",
    "count_nested",
    "count_tags",
    "decode_pair",
    "describe_spans",
    "get_scheme",
    "match_exact",
    "metric_path",
    "read_corpus",
    "read_dataset",
    "score_lenient",
    "score_nested",
    "score_tags",
    "spans_from_lists",
    "summarize",
    "summarize_nested",
    "tags_to_spans",
    "write_corpus",
]
