"""NLTK chunk trees as a corpus of tokens and spans (the ``nltk`` extra), so that a chunker of the NLTK book is
scored as it comes (docs/chunkers.md).

A chunker (chapter 7 of the NLTK book: ``nltk.RegexpParser``, a tagger-based chunker) returns an
``nltk.Tree`` a sentence: its root (``S``) holds chunk subtrees (``NP``, ``VP``, ...) and the leaves outside
any chunk, each leaf a ``(word, tag)`` pair or a word. Each chunk becomes ``(start, end, label)``: the
positions of its first leaf and after its last among the sentence's leaves, counted from 0, and its label.
A cascaded grammar nests chunks (an ``NP`` inside a ``PP``): every chunk at every depth is read, unless
``nested=False`` keeps only the chunks right under the root, the only ones ``nltk.chunk.ChunkScore`` counts.

A sentence given as ``nltk.chunk.tree2conlltags`` writes it, ``(word, tag, iob)`` triples, is turned into
its tree by ``nltk.chunk.conlltags2tree`` (nltk's own rule: an ``I-`` tag that continues no chunk of its
type starts one) and read the same way. nltk is imported when a function is called.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.sequences import check_sequence
from ..core.wording import quote
from .corpus import Corpus

Span = tuple[int, int, str]


def trees_to_corpus(trees: Any, *, nested: bool = True, source: str = "trees") -> Corpus:
    """A chunker's output as a corpus: one ``nltk.Tree`` (one sentence), a list of them, or sentences as
    ``tree2conlltags`` triples (one sentence, or a list of them). Sentences are named from 0 in messages.

    Args:
        trees: what the chunker returned (see the module docstring).
        nested: read chunks at every depth (True, the default) or only those right under each root (False,
            as ``nltk.chunk.ChunkScore`` counts them).
        source: the name messages give the input.

    Returns:
        a :class:`~nested_span_f1.formats.corpus.Corpus` whose tokens are the leaves' words and whose
        entities are the chunks, ``(start, end, label)`` with ``end`` exclusive.

    Raises:
        TypeError: a leaf that is neither a word nor a ``(word, tag)`` pair, a chunk whose label is not a
            string, a sentence that is no tree and no list of triples.
        ValueError: a chunk without leaves, a triple's IOB tag that is not ``B-TYPE``, ``I-TYPE`` or ``O``.

    >>> from nltk import Tree
    >>> tree = Tree("S", [Tree("NP", [("the", "DT"), ("cat", "NN")]), ("sat", "VBD")])
    >>> corpus = trees_to_corpus(tree)
    >>> corpus.tokens, corpus.entities
    ([['the', 'cat', 'sat']], [[(0, 2, 'NP')]])
    """
    from nltk import Tree

    sentences = [trees] if isinstance(trees, Tree) or _is_triples(trees) else trees
    check_sequence(sentences, source, "sentences (nltk.Tree objects, or lists of (word, tag, iob) triples)")
    tokens, entities = [], []
    for s, sentence in enumerate(sentences):
        where = f"{source}, sentence {s}"
        if not isinstance(sentence, Tree):
            sentence = _tree_of_triples(sentence, where)
        words, spans = _read_tree(sentence, Tree, nested, where)
        tokens.append(words)
        entities.append(spans)
    depth = "every depth" if nested else "right under the root"
    return Corpus(tokens, entities, format="nltk", conversion=f"nltk chunk trees: the chunks at {depth}, "
                  "as token spans over the leaves", source=source)


def _is_triples(value: Any) -> bool:
    """True when ``value`` is one sentence of ``tree2conlltags`` triples, not a list of sentences."""
    if not isinstance(value, Sequence) or isinstance(value, str) or not value:
        return False
    first = value[0]
    return isinstance(first, Sequence) and not isinstance(first, str) and len(first) == 3 and isinstance(first[0], str)


def _tree_of_triples(sentence: Any, where: str) -> Any:
    """A sentence of ``(word, tag, iob)`` triples as ``nltk.chunk.conlltags2tree`` builds its tree, after every
    triple and IOB tag is checked (conlltags2tree's own error names no token)."""
    from nltk.chunk import conlltags2tree

    check_sequence(sentence, where, "(word, tag, iob) triples, or an nltk.Tree")
    for t, triple in enumerate(sentence):
        if isinstance(triple, str) or not isinstance(triple, Sequence) or len(triple) != 3:
            raise TypeError(f"{where}, token {t}: expected a (word, tag, iob) triple as tree2conlltags writes it, "
                            f"got {quote(triple)}")
        iob = triple[2]
        if not (iob == "O" or (isinstance(iob, str) and iob[:2] in ("B-", "I-") and len(iob) > 2)):
            raise ValueError(f"{where}, token {t}: IOB tag {quote(iob)} is not B-TYPE, I-TYPE or O")
    return conlltags2tree(sentence)


def _read_tree(tree: Any, tree_type: Any, nested: bool, where: str) -> tuple[list[str], list[Span]]:
    """The words of a sentence tree's leaves, and its chunks as spans, outermost first where two start together."""
    words: list[str] = []
    spans: list[Span] = []

    def walk(node: Any, depth: int) -> None:
        for child in node:
            if not isinstance(child, tree_type):
                words.append(_word(child, f"{where}, leaf {len(words)}"))
                continue
            start = len(words)
            walk(child, depth + 1)
            label = child.label()
            if not isinstance(label, str):
                raise TypeError(f"{where}: the chunk at leaf {start} has label {quote(label)}, not a string")
            if start == len(words):
                raise ValueError(f"{where}: chunk {label} at leaf {start} holds no leaf")
            if nested or depth == 0:
                spans.append((start, len(words), label))

    walk(tree, 0)
    return words, sorted(spans, key=lambda span: (span[0], -span[1]))


def _word(leaf: Any, where: str) -> str:
    """A leaf's word: the leaf itself, or the first item of a ``(word, tag)`` pair."""
    word = leaf[0] if isinstance(leaf, tuple) and len(leaf) == 2 else leaf
    if not isinstance(word, str):
        raise TypeError(f"{where}: expected a word or a (word, tag) pair, got {quote(leaf)}")
    return word
