"""The data every benchmark job reads: seeded synthetic CoNLL-like tags, the real CoNLL-2003 and GENIA files.

Nothing here is timed: a worker builds its input with these functions, then
times the call. The real data lives in ``../shared/data`` beside the repository
(its PROVENANCE.md says where each file comes from); a job that needs a missing
file says so and is left out of the run.
"""
from __future__ import annotations

import random
from itertools import chain
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
CONLL2003 = SHARED / "conll2003"
GENIA_CLASSIC_TEST = SHARED / "genia" / "genia-classic.test.w2ner.json"
"""The nested job's data: the classic sentence split most papers report on."""
GENIA_DOCSPLIT_TEST = SHARED / "genia" / "genia-docsplit.test.jsonl"
"""The bootstrap job's data: it resamples documents, which this split keeps."""

TYPES = ("PER", "LOC", "ORG", "MISC")
TYPE_WEIGHTS = (0.28, 0.30, 0.27, 0.15)

Tags = list[list[str]]


def synthetic(n_sentences: int, seed: int = 0) -> tuple[Tags, Tags]:
    """Seeded CoNLL-like predictions and references.

    Sentences of 14 tokens on average; about 17% of tokens inside entities of 4
    types. Of the gold entities, 80% are predicted right; the others get a type
    error, a boundary error, go missing, or start with I- instead of B-; a few
    spurious entities are added on O tokens.
    """
    rng = random.Random(seed)
    rand, choice = rng.random, rng.choices
    begin = {t: "B-" + t for t in TYPES}
    inside = {t: "I-" + t for t in TYPES}
    preds, refs = [], []
    for _ in range(n_sentences):
        n = 1 + sum(rand() < 0.5 for _ in range(26))
        ref = ["O"] * n
        spans = []
        i = 0
        while i < n:
            if rand() < 0.1155:
                u = rand()
                end = min(n, i + (1 if u < 0.55 else 2 if u < 0.85 else 3 if u < 0.95 else 4))
                t = choice(TYPES, TYPE_WEIGHTS)[0]
                spans.append((i, end, t))
                ref[i] = begin[t]
                for k in range(i + 1, end):
                    ref[k] = inside[t]
                i = end
            else:
                i += 1
        pred = list(ref)
        for start, end, t in spans:
            u = rand()
            if u < 0.80:
                continue
            if u < 0.85:  # type error
                other = TYPES[(TYPES.index(t) + 1 + int(rand() * 3)) % 4]
                pred[start] = begin[other]
                for k in range(start + 1, end):
                    pred[k] = inside[other]
            elif u < 0.91:  # boundary error
                v = rand()
                if v < 0.4 and end < n and ref[end] == "O":
                    pred[end] = inside[t]
                elif v < 0.7 and end - start > 1:
                    pred[end - 1] = "O"
                elif start > 0 and ref[start - 1] == "O":
                    pred[start - 1], pred[start] = begin[t], inside[t]
                else:
                    pred[start] = "O"
            elif u < 0.96:  # missing
                for k in range(start, end):
                    pred[k] = "O"
            else:  # starts with I-
                pred[start] = inside[t]
        for k in range(n):
            if ref[k] == "O" and pred[k] == "O" and rand() < 0.012:  # spurious
                t = choice(TYPES, TYPE_WEIGHTS)[0]
                pred[k] = begin[t] if rand() < 0.9 else inside[t]
        preds.append(pred)
        refs.append(ref)
    return preds, refs


def flat_tags(dataset: str, seed: int) -> tuple[Tags, Tags]:
    """Predictions and references of a flat dataset: ``"conll2003"`` (the Flair output) or a number of sentences."""
    if dataset == "conll2003":
        from nested_span_f1.formats.columns import read_columns

        return (read_columns(CONLL2003 / "test.flair.conll").column(),
                read_columns(CONLL2003 / "test.gold.conll").column())
    return synthetic(int(dataset), seed)


def none_right(preds: Tags, refs: Tags) -> Tags:
    """The predictions with every sentence made to differ from its reference at its last tag.

    List slices: the other tags stay the same string objects, so only the
    agreement between the sides changes.
    """
    return [[*p[:-1], "B-MISC" if r[-1] != "B-MISC" else "O"] if r else p for p, r in zip(preds, refs)]


def label_ids(preds: Tags, refs: Tags, seed: int) -> tuple[Any, Any, list[str]]:
    """Trainer-shaped label ids: [CLS] + words with extra sub-tokens + [SEP], padded with -100.

    References hold -100 on special tokens, non-first sub-tokens and padding; the
    predictions hold a label at every position, as an argmax would. Returns the
    prediction ids, the reference ids and the label list.
    """
    import numpy as np

    labels = sorted({t for s in refs for t in s} | {t for s in preds for t in s}, key=lambda t: (t != "O", t))
    index = {t: i for i, t in enumerate(labels)}
    rng = np.random.default_rng(seed)
    lengths = np.fromiter(map(len, refs), np.int64, len(refs))
    n_sent, n_words = len(refs), int(lengths.sum())
    extra = (rng.random(n_words) < 0.2).astype(np.int64)  # a second sub-token after 20% of the words
    sentence = np.repeat(np.arange(n_sent), lengths)
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    extra_before = np.cumsum(extra) - extra
    extra_before -= np.concatenate(([0], np.cumsum(extra)))[offsets[:-1]][sentence]
    column = 1 + (np.arange(n_words) - offsets[sentence]) + extra_before
    width = int((column + extra).max(initial=0)) + 2
    pred_rows = rng.integers(0, len(labels), size=(n_sent, width))
    ref_rows = np.full((n_sent, width), -100, dtype=np.int64)
    ref_rows[sentence, column] = np.fromiter(map(index.__getitem__, chain.from_iterable(refs)), np.int64, n_words)
    pred_rows[sentence, column] = np.fromiter(map(index.__getitem__, chain.from_iterable(preds)), np.int64, n_words)
    return pred_rows, ref_rows, labels


Spans = list[list[tuple[int, int, str]]]


def genia_nested(seed: int) -> tuple[Spans, Spans, list[int]]:
    """GENIA test (classic split): a seeded perturbation of the gold (drops, shifts, relabels, spurious spans),
    the gold spans, and the sentence lengths."""
    from nested_span_f1.formats import read_corpus

    corpus = read_corpus(GENIA_CLASSIC_TEST)
    rng = random.Random(seed)
    types = sorted({s[2] for spans in corpus.entities for s in spans})
    preds = []
    for spans, n in zip(corpus.entities, corpus.lengths):
        out = []
        for start, end, label in spans:
            u = rng.random()
            if u < 0.08:
                continue
            if u < 0.14 and end < n:
                end += 1
            elif u < 0.18:
                label = types[(types.index(label) + 1) % len(types)]
            out.append((start, end, label))
        if n > 2 and rng.random() < 0.1:
            start = rng.randrange(n - 1)
            out.append((start, start + 1 + rng.randrange(min(3, n - start - 1) or 1), rng.choice(types)))
        preds.append(out)
    return preds, corpus.entities, corpus.lengths
