"""Glue shared by the three evaluate modules: features and the seqeval-compatible switches.

The metric scripts stay thin (card text, feature declaration, one call into
the core); anything two of them would otherwise repeat lives here. ``datasets``
is imported only when features are asked for.
"""
from __future__ import annotations

from typing import Any


def tag_features() -> list[Any]:
    """Feature sets for tag input: tag strings first, then integer label ids.

    Strings come first so an empty first sentence still selects them (evaluate
    picks the first set that encodes the first example); an integer example is
    refused by the string set and falls through to the id set.
    """
    import datasets

    strings = datasets.Sequence(datasets.Value("string"))
    ids = datasets.Sequence(datasets.Value("int64"))
    return [
        datasets.Features({"predictions": strings, "references": strings}),
        datasets.Features({"predictions": ids, "references": ids}),
    ]


def span_features() -> Any:
    """Feature set for span lists: a Python list around the span dict (not ``Sequence({...})``)."""
    import datasets

    span = {"start": datasets.Value("int32"), "end": datasets.Value("int32"), "label": datasets.Value("string")}
    return datasets.Features({"predictions": [span], "references": [span]})


def seqeval_scheme_name(scheme: Any) -> Any:
    """Accept evaluate-seqeval's scheme spellings: a name, a seqeval scheme class, or None."""
    return getattr(scheme, "__name__", scheme)
