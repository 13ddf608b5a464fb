"""The real token-classification pipeline (a tiny BERT built offline) scored through the pipeline-output path."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from nested_span_f1 import Corpus, read_corpus, score_exact, tags_to_spans
from nested_span_f1.align import score_text
from nested_span_f1.formats.columns import read_columns
from nested_span_f1.formats.pipeline import pipeline_record
from nested_span_f1.hf.training import tiny_bert_config, word_tokenizer

SAMPLES = Path(__file__).resolve().parents[2] / "nested_span_f1" / "sample_data"
LABELS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]
BIOES = ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-ORG", "I-ORG", "E-ORG", "S-ORG"]


def _rows(tok, words, tags):
    """Every sub-token labelled with its word's tag (B- turned into I- after the first), so that the model learns
    to tag the pieces of a word alike."""
    enc = tok(words, is_split_into_words=True)
    rows = []
    for i in range(len(words)):
        previous, labels = None, []
        for w in enc.word_ids(i):
            tag = "O" if w is None else tags[i][w]
            if w is not None and w == previous and tag.startswith("B-"):
                tag = "I-" + tag[2:]
            labels.append(-100 if w is None else LABELS.index(tag))
            previous = w
        rows.append({"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i], "labels": labels})
    return rows


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    gold = read_columns(SAMPLES / "sample.gold.conll")
    words, tags = gold.tokens, gold.column()
    tok = word_tokenizer(words, tmp_path_factory.mktemp("tok"))
    enc = tok(words, is_split_into_words=True)
    assert any(len(enc.word_ids(i)) - 2 > len(words[i]) for i in range(len(words)))  # words of several pieces

    def model(epochs, labels=LABELS):
        torch.manual_seed(0)
        config = tiny_bert_config(len(tok), num_labels=len(labels), id2label=dict(enumerate(labels)),
                                  label2id={t: i for i, t in enumerate(labels)})
        net = transformers.BertForTokenClassification(config)
        if epochs:
            # trained on the first ten sentences only, so that the other five hold errors
            args = transformers.TrainingArguments(
                output_dir=str(tmp_path_factory.mktemp("run")), num_train_epochs=epochs, learning_rate=3e-2,
                per_device_train_batch_size=4, report_to=[], use_cpu=True, disable_tqdm=True, save_strategy="no",
                seed=0)
            transformers.Trainer(model=net, args=args, train_dataset=_rows(tok, words, tags)[:10],
                                 data_collator=transformers.DataCollatorForTokenClassification(tok)).train()
        return net.eval()

    return words, tags, tok, model


def _word_level(model, tok, words):
    """The model's tag of each word: its first sub-token's prediction (what papers report)."""
    with torch.no_grad():
        enc = tok(words, is_split_into_words=True, return_tensors="pt", padding=True)
        ids = model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"]).logits.argmax(-1).tolist()
    out = []
    for i, sentence in enumerate(words):
        tags, previous = ["O"] * len(sentence), None
        for position, w in enumerate(enc.word_ids(i)):
            if w is not None and w != previous:
                tags[w] = LABELS[ids[i][position]]
            previous = w
        out.append(tags)
    return out


def _pipeline_file(model, tok, texts, aggregation, path, **options):
    """The pipeline's output for each text as a pipeline-output file; ``options`` go to each call."""
    pipe = transformers.pipeline("token-classification", model=model, tokenizer=tok, aggregation_strategy=aggregation)
    with open(path, "w", encoding="utf-8") as handle:
        for i, text in enumerate(texts):
            handle.write(json.dumps(pipeline_record(text, pipe(text, **options), f"s{i}")) + "\n")
    return path


def test_pipeline_output_scores_as_the_word_level_predictions(sample, tmp_path):
    words, tags, tok, model = sample
    trained = model(10)
    texts = [" ".join(sentence) for sentence in words]
    gold = Corpus(words, tags_to_spans(tags), [f"s{i}" for i in range(len(words))])
    expected = score_exact(_word_level(trained, tok, words), tags, zero_division=0)
    assert 0.3 < expected["overall_f1"] < 1
    results = {}
    for aggregation in ("simple", "none"):
        path = _pipeline_file(trained, tok, texts, aggregation, tmp_path / f"{aggregation}.jsonl")
        corpus = read_corpus(path)
        assert corpus.format == "pipeline" and corpus.notes == {}
        results[aggregation] = result = score_text(path, gold, metric="exact", zero_division=0)
        for key, value in expected.items():
            if key != "overall_accuracy":
                assert result[key] == value, (aggregation, key)
        assert result["alignment"]["projected"] == "predictions"
        assert result["alignment"]["predictions"]["boundary_inside_token"] == 0
    assert results["simple"] == results["none"]


@pytest.mark.parametrize("labels", [LABELS, BIOES], ids=["BIO", "BIOES"])
def test_subtokens_merge_as_the_real_pipeline_merges_them(sample, tmp_path, labels):
    """An untrained model tags the pieces of a word at random: 'none' output merged by the reader gives exactly
    the spans and labels of the pipeline's own 'simple' aggregation, including spans that end inside a word, and
    E-/S- tags split as the pipeline splits them (labelled by their type, never 'E-PER')."""
    words, tags, tok, model = sample
    texts = [" ".join(sentence) for sentence in words] + ["Dr. Okafor won 2-1 in U.S.-Basel", "Nobody"]
    untrained = model(0, labels)
    simple = read_corpus(_pipeline_file(untrained, tok, texts, "simple", tmp_path / "simple.jsonl"))
    none = read_corpus(_pipeline_file(untrained, tok, texts, "none", tmp_path / "none.jsonl"))
    assert simple.entities == none.entities and sum(map(len, simple.entities)) > 20
    assert {label for document in none.entities for *_, label in document} == {"PER", "ORG"} | (
        {"LOC", "MISC"} if labels == LABELS else set())
    gold = Corpus(words, tags_to_spans(tags), [f"s{i}" for i in range(len(words))])
    # the two extra texts have no gold; the sample's sentences scored against their gold
    kept = Corpus(none.texts[:len(words)], none.entities[:len(words)], none.sentence_ids[:len(words)],
                  unit="characters")
    result = score_text(kept, gold, metric="exact", zero_division=0)
    counts = result["alignment"]["predictions"]
    assert sum(v for k, v in counts.items() if k != "total") == counts["total"] == sum(map(len, kept.entities))
    # the untrained model cuts '2-1' and 'Dr.' into spans of their pieces: counted, shown, never matched
    assert counts["boundary_inside_token"] > 0 and counts["matched"] < 5
    shown = [e for e in result["alignment"]["examples"] if e["category"] == "boundary_inside_token"]
    assert shown and all(e["text"] in ("2", "-", "1", "2-", "-1", "Dr", ".") for e in shown)


@pytest.mark.parametrize("aggregation", ["simple", "none"])
def test_outside_items_are_left_out_and_counted(sample, tmp_path, aggregation):
    """The pipeline run with ignore_labels=[] returns the O groups (simple) and sub-tokens (none) too: the reader
    leaves them out, counts them, and gives the spans of the default run."""
    words, _, tok, model = sample
    texts = [" ".join(sentence) for sentence in words]
    untrained = model(0)
    default = read_corpus(_pipeline_file(untrained, tok, texts, aggregation, tmp_path / "default.jsonl"))
    path = _pipeline_file(untrained, tok, texts, aggregation, tmp_path / "all.jsonl", ignore_labels=[])
    outside = sum(item.get("entity", item.get("entity_group")) == "O" for line in open(path, encoding="utf-8")
                  for item in json.loads(line)["entities"])
    every = read_corpus(path)
    assert outside > 10 and every.entities == default.entities
    assert every.notes == {"pipeline_outside_items": outside} and default.notes == {}
    assert f"{outside} items tagged O left out" in every.conversion


def _byte_level_model(texts, directory):
    """A tiny RoBERTa and a byte-level BPE tokenizer (as RoBERTa's and GPT-2's) trained offline on ``texts``."""
    from tokenizers import ByteLevelBPETokenizer

    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    bpe = ByteLevelBPETokenizer(trim_offsets=True)
    bpe.train_from_iterator(texts, vocab_size=400, min_frequency=2, special_tokens=specials, show_progress=False)
    tok = transformers.RobertaTokenizerFast(tokenizer_object=bpe._tokenizer, bos_token="<s>", pad_token="<pad>",
                                            eos_token="</s>", unk_token="<unk>", mask_token="<mask>")
    torch.manual_seed(0)
    config = transformers.RobertaConfig(
        vocab_size=len(tok), hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64,
        max_position_embeddings=130, pad_token_id=1, num_labels=len(LABELS), id2label=dict(enumerate(LABELS)),
        label2id={t: i for i, t in enumerate(LABELS)})
    return transformers.RobertaForTokenClassification(config).eval(), tok


def test_byte_level_words_are_decoded_before_they_are_compared(sample, tmp_path):
    """A byte-level tokenizer's pipeline writes the bytes of non-ASCII characters in its alphabet ('Ã©' for 'é',
    pieces of an emoji or a CJK character): decoded as its byte decoder decodes them, no word differs from its
    text; 'none' and 'simple' give the same spans."""
    words = sample[0]
    texts = [" ".join(sentence) for sentence in words] + [
        "José visited Zürich café with Chloé in Köln", "Ünal  met 東京 naïve 😀 and Zoë on Montréal"]
    model, tok = _byte_level_model(texts * 3, tmp_path / "tok")
    simple = _pipeline_file(model, tok, texts, "simple", tmp_path / "simple.jsonl")
    none = _pipeline_file(model, tok, texts, "none", tmp_path / "none.jsonl")
    pieces = [item["word"] for line in open(none, encoding="utf-8") for item in json.loads(line)["entities"]]
    assert any("Ã" in word or "Ġ" in word for word in pieces)  # the byte-level alphabet is what is compared
    read = {aggregation: read_corpus(path) for aggregation, path in (("simple", simple), ("none", none))}
    assert read["simple"].entities == read["none"].entities and sum(map(len, read["none"].entities)) > 20
    for corpus in read.values():
        assert "pipeline_word_mismatches" not in corpus.notes, corpus.conversion
