"""Flat span F1 (``span_f1``): tag sequences -> spans -> counts -> scores, as seqeval and conlleval.pl.

The stages in the order data flows: :mod:`.encoding` (both sides to integer codes),
:mod:`.tags` (each distinct tag read against the :mod:`.schemes` tables),
:mod:`.decoding` (codes to spans), then the core's matcher, counts and scores;
:mod:`.pipeline` holds the entry points and reads as those steps. Beside them,
:mod:`.kinds` holds the rule every door of the package reads the kind of its
input by (tags, label ids, spans or tag layers).
"""
from .pipeline import count_exact, decode_pair, score_exact, tags_to_spans
from .tags import EMPTY_TYPE

__all__ = ["EMPTY_TYPE", "count_exact", "decode_pair", "score_exact", "tags_to_spans"]
