"""Readers and writers for the nested-NER file formats (docs/DESIGN.md, 'File formats'), with detection.

>>> from nested_span_f1.formats import FORMATS
>>> sorted(FORMATS)
['biaffine', 'lu_roth', 'oneie', 'pipeline', 'pyramid', 'shibuya', 'text', 'triaffine', 'w2ner']
"""
from .corpus import Corpus, align
from .registry import (
    ALIASES,
    FORMATS,
    PATH_FORMATS,
    Format,
    UnknownFormat,
    detect_format,
    get_format,
    read_batches,
    read_corpus,
    read_dataset,
    write_corpus,
)

__all__ = [
    "ALIASES", "FORMATS", "PATH_FORMATS", "Corpus", "Format", "UnknownFormat", "align", "detect_format", "get_format",
    "read_batches", "read_corpus", "read_dataset", "write_corpus",
]
