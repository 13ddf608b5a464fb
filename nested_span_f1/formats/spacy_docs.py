"""spaCy ``Doc`` objects and ``DocBin`` files as a corpus of texts (the ``spacy`` extra).

A Doc's entities are ``doc.ents`` (no overlap), or ``doc.spans[key]`` (a span
group, overlaps allowed) with ``spans_key``; each becomes
``(span.start_char, span.end_char, span.label_)``, character offsets into
``doc.text``. A document's id is ``doc.user_data["id"]`` when every Doc has one
(a DocBin keeps it with ``store_user_data=True``), otherwise documents pair by order.
A span group's ``attrs["scores"]`` (spaCy's span categorizer writes one score a
span there) are the spans' confidences (``Corpus.scores``); a group of a Doc
without them, where the groups of other Docs have them, is refused by its Doc.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..core.scored import file_scores
from ..core.wording import quote
from .corpus import Corpus


def docs_to_corpus(docs: Iterable[Any], spans_key: str | None = None, source: str = "docs", first: int = 0) -> Corpus:
    """spaCy Docs as a corpus of texts (see the module docstring); messages name a Doc by its position counted
    from ``first`` (0 for Docs in memory, as Python counts; 1 for the Docs of a file, as places in files count).

    Raises:
        ValueError: a Doc without the span group ``spans_key``.
    """
    texts, entities, ids, scores = [], [], [], []
    for d, doc in enumerate(docs):
        if spans_key is not None and spans_key not in doc.spans:
            raise ValueError(f"{source}, document {first + d}: no span group {quote(spans_key)} (it has "
                             f"{', '.join(map(repr, doc.spans)) or 'none'})")
        spans = doc.ents if spans_key is None else doc.spans[spans_key]
        texts.append(doc.text)
        entities.append([(span.start_char, span.end_char, span.label_) for span in spans])
        ids.append(doc.user_data.get("id"))
        scores.append(_group_scores(spans, f"{source}, document {first + d}"))
    where = "doc.ents" if spans_key is None else f"doc.spans[{quote(spans_key)}]"
    known = [str(i) for i in ids] if all(i is not None for i in ids) else None
    places = [f"{source}, document {first + d}" for d in range(len(texts))] if first else None
    return Corpus(texts, entities, known, None, "spacy", f"spaCy Docs, {where}: character offsets", source,
                  places, "characters", scores=file_scores(scores))


def _group_scores(spans: Any, where: str) -> list[Any]:
    """A span group's ``attrs["scores"]``, one a span, as a list (None for each span of a group without them, and of
    ``doc.ents``); ValueError when their number is not the group's."""
    found = getattr(spans, "attrs", {}).get("scores")
    if found is None:
        return [None] * len(spans)
    found = list(found.tolist() if hasattr(found, "tolist") else found)
    if len(found) != len(spans):
        raise ValueError(f"{where}: the span group has {len(spans)} spans but {len(found)} scores in "
                         "attrs['scores']; give one score a span")
    return found


def read_docbin(path: str | os.PathLike[str], spans_key: str | None = None) -> Corpus:
    """A ``DocBin`` file (``.spacy``) as a corpus of texts; its Docs are read with a blank vocabulary."""
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    docs = DocBin().from_disk(Path(path)).get_docs(Vocab())
    return docs_to_corpus(docs, spans_key, os.fspath(path), first=1)
