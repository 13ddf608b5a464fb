"""Glue shared by the three evaluate modules: feature sets, input kinds, seqeval's switches.

The metric scripts stay thin (card text, feature declaration, one call into
the core); anything two of them would otherwise repeat lives here. ``datasets``
is imported only when features are asked for.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

INPUT_KINDS = ("spans", "layers", "tags", "ids")

PROJECT_URL = "https://github.com/nested-span-f1/nested-span-f1"
"""The project's home, the ``homepage`` and ``codebase_urls`` of the three modules (setup.py's ``url`` too)."""


def features(*kinds: str) -> list[Any]:
    """evaluate feature sets for the input kinds a metric accepts, in the order given.

    ``spans``: per sentence a list of ``{start, end, label}`` (a Python list around
    the dict; ``Sequence({...})`` would want a dict of lists); ``layers``: per
    sentence a list of tag layers; ``tags``: per sentence a list of tag strings;
    ``ids``: per sentence a list of integer label ids. evaluate keeps the first set
    that encodes the first example, so more nested kinds must come first, and
    ``tags`` before ``ids`` lets an empty first sentence select strings.
    """
    import datasets

    string = datasets.Sequence(datasets.Value("string"))
    shapes = {
        "spans": [{"start": datasets.Value("int32"), "end": datasets.Value("int32"), "label": datasets.Value("string")}],
        "layers": datasets.Sequence(string),
        "tags": string,
        "ids": datasets.Sequence(datasets.Value("int64")),
    }
    unknown = set(kinds) - set(shapes)
    if unknown:
        raise ValueError(f"unknown input kinds {sorted(unknown)}; choose from {', '.join(INPUT_KINDS)}")
    return [datasets.Features({"predictions": shapes[k], "references": shapes[k]}) for k in kinds]


def input_kind(predictions: Sequence[Any], references: Sequence[Any]) -> str:
    """Which kind of input was given ("spans", "layers", "tags"), from the first non-empty sentence."""
    first = next((sentence[0] for sentence in [*predictions, *references] if len(sentence)), None)
    if isinstance(first, str):
        return "tags"
    if isinstance(first, list) and all(isinstance(tag, str) for tag in first):
        return "layers"
    return "spans"


def seqeval_scheme_name(scheme: Any) -> Any:
    """Accept evaluate-seqeval's scheme spellings: a name, a seqeval scheme class, or None."""
    return getattr(scheme, "__name__", scheme)
