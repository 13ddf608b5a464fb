"""Sub-word labels scored at word level: each word by its first sub-token (the factories' word_ids option)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("tokenizers")
from tokenizers import Tokenizer
from tokenizers.models import WordPiece

from nested_span_f1 import score_exact
from nested_span_f1.formats.columns import read_columns
from nested_span_f1.hf.nested_trainer import layered_metrics_for
from nested_span_f1.hf.trainer import compute_metrics_for
from nested_span_f1.hf.words import first_subtokens, with_word_ids, word_id_column, word_labels

SAMPLES = Path(__file__).resolve().parents[2] / "nested_span_f1" / "sample_data"
LABELS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]
EvalPrediction = transformers.EvalPrediction


@pytest.fixture(scope="module")
def sample():
    """The sample's words cut by a WordPiece model into pieces of up to three characters: sub-token label rows with
    every piece labelled, as run_ner_no_trainer.py's label_all_tokens copied them (B- on every piece, transformers
    issue 14043), and predictions with B- made I- after a word's first piece: both right at word level."""
    gold = read_columns(SAMPLES / "sample.gold.conll")
    words, tags = gold.tokens, gold.column()
    pieces = {w[:3] for s in words for w in s} | {"##" + w[i:i + 3] for s in words for w in s for i in range(3, len(w), 3)}
    vocabulary = {piece: i for i, piece in enumerate(["[UNK]", *sorted(pieces)])}
    tokenizer = Tokenizer(WordPiece(vocabulary, unk_token="[UNK]"))
    pieces = [encoding.word_ids for encoding in tokenizer.encode_batch(words, is_pretokenized=True)]
    width = max(map(len, pieces))
    copied, inside, word_ids = (np.full((len(words), width), -100) for _ in range(3))
    for s, ids in enumerate(pieces):
        previous = None
        for t, w in enumerate(ids):
            if w is None:
                continue
            tag = tags[s][w]
            copied[s, t] = LABELS.index(tag)
            inside[s, t] = LABELS.index("I-" + tag[2:] if w == previous and tag.startswith("B-") else tag)
            word_ids[s, t] = w
            previous = w
    assert (word_ids >= 0).sum() == 222 and sum(map(len, words)) == 121  # most words hold several pieces
    return words, tags, copied, inside, word_ids


def _gold_entities(result):
    return sum(result[f"{t}_number"] for t in ("PER", "ORG", "LOC", "MISC"))


def test_sub_token_scoring_inflates_and_word_ids_remove_it(sample):
    words, tags, copied, inside, word_ids = sample
    per_piece = compute_metrics_for(LABELS, entity_level=True)(EvalPrediction(inside, copied))
    per_word = compute_metrics_for(LABELS, entity_level=True, word_ids=True)(EvalPrediction(inside, (copied, word_ids)))
    right = score_exact(tags, tags)
    assert _gold_entities(per_piece) == 67 and per_piece["f1"] == 0.0 and per_piece["accuracy"] == 0.8243243243243243
    assert _gold_entities(per_word) == right["tp"] == 28
    assert (per_word["f1"], per_word["accuracy"]) == (1.0, 1.0)
    # streaming, batch by batch (Trainer's batch_eval_metrics), gives the same
    streamed = compute_metrics_for(LABELS, entity_level=True, word_ids=True)
    for start in range(0, len(words), 4):
        end = start + 4
        part = streamed(EvalPrediction(torch.tensor(inside[start:end]), (torch.tensor(copied[start:end]),
                                                                          torch.tensor(word_ids[start:end]))),
                        compute_result=end >= len(words))
    assert part == per_word


def test_word_labels_keep_each_words_first_subtoken():
    labels = np.array([[-100, 1, 2, 2, 0, 5, -100, -100]])
    ids = np.array([[-100, 0, 0, 0, 1, 2, -100, -100]])
    assert first_subtokens(ids).astype(int).tolist() == [[0, 1, 0, 0, 1, 1, 0, 0]]
    assert word_labels((labels, ids)).tolist() == [[-100, 1, -100, -100, 0, 5, -100, -100]]
    layered = np.stack([labels, labels], axis=-1)
    assert word_labels([layered, ids])[..., 1].tolist() == [[-100, 1, -100, -100, 0, 5, -100, -100]]
    assert word_id_column([None, 0, 0, 1, None]) == [-100, 0, 0, 1, -100]


@pytest.mark.parametrize(("label_ids", "error", "match"), [
    (np.array([[1, 2]]), ValueError, r"label_names=\['labels', 'word_ids'\]"),
    ((np.array([[1, 2]]), np.array([[0]])), ValueError, r"word ids of shape \(1, 1\) for labels of shape \(1, 2\)"),
    ((np.array([[1, 2]]), np.array([[0.0, 1.0]])), TypeError, "word ids must be integers"),
])
def test_word_ids_that_do_not_fit_are_refused(label_ids, error, match):
    with pytest.raises(error, match=match):
        compute_metrics_for(LABELS, word_ids=True)(EvalPrediction(np.array([[1, 2]]), label_ids))


def test_layered_factory_scores_words_too():
    # one word of two pieces, two layers: the second piece's labels are left out
    labels = np.array([[[1, 3], [2, 4], [0, 0]]])
    predictions = np.array([[[1, 3], [1, 3], [0, 0]]])
    ids = np.array([[0, 0, 1]])
    compute = layered_metrics_for(LABELS, word_ids=True)
    assert compute(EvalPrediction(predictions, (labels, ids)))["f1"] == 1.0
    assert layered_metrics_for(LABELS)(EvalPrediction(predictions, labels))["f1"] < 1.0


def test_collator_pads_word_ids_beside_the_labels(tmp_path):
    from nested_span_f1.hf.training import word_tokenizer

    tok = word_tokenizer([["Acme-Corp", "hires", "Ann"]], tmp_path)
    rows = []
    for sentence in (["Acme-Corp", "hires"], ["Ann"]):
        enc = tok(sentence, is_split_into_words=True)
        rows.append({"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"],
                     "labels": [0] * len(enc["input_ids"]), "word_ids": word_id_column(enc.word_ids())})
    batch = with_word_ids(transformers.DataCollatorForTokenClassification(tok))(rows)
    assert batch["word_ids"].tolist() == [[-100, 0, 0, 0, 1, -100], [-100, 0, -100, -100, -100, -100]]
    assert batch["labels"].shape == batch["word_ids"].shape
