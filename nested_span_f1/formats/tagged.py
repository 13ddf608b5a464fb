"""Flat spans written as CoNLL columns: a token and its IOB2 tag a line, a blank line between sentences.

Only what tags can hold is written: contiguous spans that do not overlap, in a
corpus of tokens. Anything else is refused, naming the sentence and the span,
rather than written as tags that would read back as other spans.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.entities import is_fragmented
from ..core.wording import quote
from .corpus import Corpus, not_a_word


def iob2_tags(n_tokens: int, spans: Sequence[Any], where: str) -> list[str]:
    """The IOB2 tags of one sentence's spans.

    >>> iob2_tags(4, [(0, 2, "PER"), (3, 4, "LOC")], "sentence 0")
    ['B-PER', 'I-PER', 'O', 'B-LOC']

    Raises:
        ValueError: a discontinuous entity, or spans that overlap (tags hold one label a token).
    """
    tags = ["O"] * n_tokens
    for span in sorted(spans, key=lambda e: (e[0][0][0], 0) if is_fragmented(e) else (e[0], e[1])):
        if is_fragmented(span):
            raise ValueError(f"{where}: discontinuous entity {quote(span)} cannot be written as tags")
        start, end, label = span
        if any(tag != "O" for tag in tags[start:end]):
            raise ValueError(f"{where}: span {quote(span)} overlaps another; tags hold one entity a token "
                             "(write a span format such as text or oneie instead)")
        tags[start:end] = [f"B-{label}", *[f"I-{label}"] * (end - start - 1)]
    return tags


def write_columns(corpus: Corpus) -> str:
    """A token corpus of flat spans as ``token<TAB>tag`` lines (IOB2), a blank line after each sentence.

    Raises:
        ValueError: a corpus of texts, an empty sentence (columns cannot hold one), a token holding
            whitespace, spans that tags cannot hold.
    """
    if corpus.texts is not None:
        raise ValueError(f"{corpus.source} holds texts; split them into tokens first")
    out = []
    for s, (tokens, spans) in enumerate(zip(corpus.tokens, corpus.entities)):
        where = f"sentence {s}" + (f" (id {quote(corpus.sentence_ids[s])})" if corpus.sentence_ids is not None else "")
        if not tokens:
            raise ValueError(f"{where} is empty; a column file cannot hold an empty sentence")
        odd = next((t for t in tokens if not_a_word(t)), None)
        if odd is not None:
            raise ValueError(f"{where}: token {quote(odd)} is empty or holds whitespace, which columns split on")
        out += [f"{token}\t{tag}\n" for token, tag in zip(tokens, iob2_tags(len(tokens), spans, where))]
        out.append("\n")
    return "".join(out)
