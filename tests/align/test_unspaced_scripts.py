"""Texts of scripts written without spaces (Chinese, Japanese, Thai) on the text path.

- A gold of tokens holding a token of whitespace (``\\u3000 O`` in a character-per-line gold; spaCy's Japanese
  tokenizer makes the ideographic space a token of its own) is located on the text's own whitespace and counted
  (``whitespace_tokens_located``); a whitespace token the text does not hold there is refused by name.
- The pipeline reader's "words split across entities" reads a Chinese, Japanese or Thai letter as a word of its
  own (``core/letters.py``, as placing answers does): two right entities side by side split no word; a span that
  cuts a letter from its combining mark still splits one.
"""
from __future__ import annotations

import doctest
import importlib
import json
import warnings

import pytest

from nested_span_f1 import Corpus, read_corpus
from nested_span_f1.align import locate_tokens, score_text
from nested_span_f1.cli.main import main
from nested_span_f1.core.letters import inside_word, word_around


@pytest.mark.parametrize("module", ["core.letters", "align.project"])
def test_the_examples_in_the_docstrings_hold(module):
    found = doctest.testmod(importlib.import_module(f"nested_span_f1.{module}"))
    assert found.attempted and not found.failed


# --------------------------------------------------------------------------- whitespace tokens (item 7)

@pytest.mark.parametrize(("tokens", "text", "offsets"), [
    pytest.param(["東", "京", "\u3000", "大", "阪"], "東京\u3000大阪", [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)],
                 id="character-per-line"),
    # whitespace no token holds is skipped up to the token's own character
    pytest.param(["東京", "\u3000", "大阪"], "東京 \u3000 大阪", [(0, 2), (3, 4), (5, 7)], id="space-before"),
    # two ideographic spaces, one a token: the first is the token's, the second whitespace between tokens
    pytest.param(["東京", "\u3000", "大阪"], "東京\u3000\u3000大阪", [(0, 2), (2, 3), (4, 6)], id="two-one-a-token"),
    pytest.param(["a", "\u3000", "\u3000", "b"], "a\u3000\u3000b", [(0, 1), (1, 2), (2, 3), (3, 4)], id="both-tokens"),
])
def test_a_whitespace_token_is_located_on_the_texts_own(tokens, text, offsets):
    assert locate_tokens(tokens, text) == offsets


@pytest.mark.parametrize(("tokens", "text", "message"), [
    pytest.param(["東京", "\u3000", "大阪"], "東京 大阪",
                 "doc: token 1 ('\\u3000') is not found at character 3 of the text (which reads '大阪' there); the "
                 "tokens must spell the text, the whitespace between them aside (a token of whitespace is the text's "
                 "own)", id="an-ascii-space-where-the-token-is-an-ideographic-one"),
    pytest.param(["東京", "\u3000", "大阪"], "東京大阪",
                 "doc: token 1 ('\\u3000') is not found at character 2 of the text (which reads '大阪' there); the "
                 "tokens must spell the text, the whitespace between them aside (a token of whitespace is the text's "
                 "own)", id="no-whitespace-in-the-text"),
])
def test_a_whitespace_token_the_text_does_not_hold_is_refused(tokens, text, message):
    with pytest.raises(ValueError) as raised:
        locate_tokens(tokens, text, "doc")
    assert str(raised.value) == message


GOLD = "東 B-LOC\n京 E-LOC\n\u3000 O\n大 B-LOC\n阪 E-LOC\nに O\n行 O\nく O\n"
"""A character a line, the ideographic space a token tagged O (BMES tags, as Japanese character-level corpora)."""
TEXT = "東京\u3000大阪に行く"


def _pred(path, entities):
    path.write_text(json.dumps({"text": TEXT, "entities": entities}, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def test_score_reads_a_character_per_line_gold_holding_an_ideographic_space(tmp_path, capsys):
    (tmp_path / "gold.conll").write_text(GOLD, encoding="utf-8")
    pred = _pred(tmp_path / "pred.jsonl", [{"start": 0, "end": 2, "label": "LOC"}, {"start": 3, "end": 6, "label": "LOC"}])
    code = main(["score", "--gold", str(tmp_path / "gold.conll"), "--pred", str(pred)])
    out = capsys.readouterr().out
    assert code == 0
    # 大阪に is no gold entity: one match of two
    assert out.splitlines()[2:6] == [
        "aligned by order: the predictions' character spans placed against the other side's tokens",
        "predictions: 2 spans: matched 1, spurious 1",
        "references: 2 spans: matched 1, missed 1",
        "read: references: whitespace tokens located 1",
    ]
    assert " overall     0.5000     0.5000     0.5000        2" in out


def test_score_text_counts_the_whitespace_tokens_it_located():
    gold = Corpus([["東", "京", "\u3000", "大", "阪"]], [[(0, 2, "LOC"), (3, 5, "LOC")]])
    pred = Corpus(["東京\u3000大阪"], [[(0, 2, "LOC"), (3, 5, "LOC")]], unit="characters")
    result = score_text(pred, gold, metric="exact")
    assert result["overall_f1"] == 1.0
    assert result["alignment"]["read"] == {"predictions": {}, "references": {"whitespace_tokens_located": 1}}
    assert score_text(gold, pred, metric="exact")["alignment"]["read"] == {
        "predictions": {"whitespace_tokens_located": 1}, "references": {}}


def test_spacys_japanese_tokens_of_a_text_holding_an_ideographic_space(tmp_path, capsys):
    """spaCy's Japanese tokenizer (SudachiPy) makes U+3000 a token of its own and an ASCII space whitespace: a gold
    written a token a line from its tokens is scored against text spans."""
    spacy = pytest.importorskip("spacy")
    pytest.importorskip("sudachipy")
    pytest.importorskip("sudachidict_core")
    text = "東京\u3000大阪に行った。 山田さん"
    with warnings.catch_warnings():  # spaCy 3.8 calls SudachiPy 0.7's deprecated Dictionary.create()
        warnings.simplefilter("ignore", DeprecationWarning)
        doc = spacy.blank("ja")(text)
    assert [t.text for t in doc] == ["東京", "\u3000", "大阪", "に", "行っ", "た", "。", "山田", "さん"]
    assert [t.whitespace_ for t in doc].count(" ") == 1  # the ASCII space: whitespace after "。"
    tags = {"東京": "S-LOC", "大阪": "S-LOC", "山田": "S-PER"}
    (tmp_path / "gold.conll").write_text("".join(f"{t.text} {tags.get(t.text, 'O')}\n" for t in doc), encoding="utf-8")
    (tmp_path / "pred.jsonl").write_text(json.dumps({"text": text, "entities": [
        {"start": 0, "end": 2, "label": "LOC"}, {"start": 3, "end": 5, "label": "LOC"},
        {"start": 11, "end": 13, "label": "PER"}]}, ensure_ascii=False) + "\n", encoding="utf-8")
    code = main(["score", "--gold", str(tmp_path / "gold.conll"), "--pred", str(tmp_path / "pred.jsonl"), "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0 and (result["tp"], result["fp"], result["fn"]) == (3, 0, 0)
    assert result["alignment"]["read"]["references"] == {"whitespace_tokens_located": 1}


# --------------------------------------------------------------------------- words split across entities (item 8)

@pytest.mark.parametrize(("text", "at", "inside", "word"), [
    ("Parisian", 3, True, (0, 8)),
    ("杭州西湖", 2, False, None),  # Chinese letters are words of one letter
    ("東京タワー", 2, False, None),  # so are kana
    ("กรุงเทพ", 4, False, None),  # and Thai consonants
    ("กิน", 1, True, (0, 2)),  # but a span never cuts a letter from its mark (ก and its vowel sign)
    ("foo_bar", 4, True, (0, 7)),
    ("iPhone手机", 6, False, None),
])
def test_inside_a_word(text, at, inside, word):
    assert inside_word(text, at) is inside
    if inside:
        assert word_around(text, at) == word


def _pipeline(tmp_path, *records):
    path = tmp_path / "pipe.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return read_corpus(path)


def _group(start, end, label, word):
    return {"entity_group": label, "score": 0.9, "word": word, "start": start, "end": end}


def test_two_adjacent_chinese_entities_split_no_word(tmp_path):
    corpus = _pipeline(tmp_path, {"id": "z1", "text": "我去了杭州西湖。",
                                  "entities": [_group(3, 5, "LOC", "杭 州"), _group(5, 7, "LOC", "西 湖")]})
    assert corpus.entities == [[(3, 5, "LOC"), (5, 7, "LOC")]]
    assert corpus.notes == {}
    assert corpus.conversion == "aggregated entities (entity_group) taken as spans"


def test_a_split_word_is_still_counted_and_shown_as_the_word(tmp_path):
    corpus = _pipeline(
        tmp_path,
        {"id": "e1", "text": "Parisian art", "entities": [_group(0, 3, "LOC", "Par"), _group(3, 8, "MISC", "##isian")]},
        {"id": "t1", "text": "กินข้าว", "entities": [_group(0, 1, "X", "ก"), _group(1, 3, "Y", "ิน")]},
        {"id": "j1", "text": "東京タワーに行く", "entities": [_group(0, 2, "LOC", "東京"), _group(2, 5, "FAC", "タワー")]},
    )
    where = f"{tmp_path / 'pipe.jsonl'}, line"
    assert corpus.notes == {"pipeline_words_split_across_entities": 2}
    assert corpus.conversion == (
        "aggregated entities (entity_group) taken as spans; 2 words split across entities, each part scored as a "
        f"span (first: {where} 1: 'Parisian' as 'Par' LOC and 'isian' MISC; {where} 2: 'กิ' as 'ก' X and 'ิน' Y)")


# --------------------------------------------------------------------------- which pipeline aggregation (docs/texts.md)

AGGREGATION_LABELS = ["O", "B-LOC", "I-LOC"]
SENTENCES = ["杭州西湖很美。", "我去了杭州西湖。"]
GOLD_SPANS = [[(0, 2, "LOC"), (2, 4, "LOC")], [(3, 5, "LOC"), (5, 7, "LOC")]]


def _tagging_model(transformers, torch, config, tok, tags):
    """A token classifier without layers whose every piece gets the label ``tags`` gives it (``O`` otherwise): each
    embedding points at one label, the classifier reads it back. A real model in a real pipeline, its output known."""
    h = 2 * len(AGGREGATION_LABELS)
    config = config(vocab_size=len(tok), hidden_size=h, num_hidden_layers=0, num_attention_heads=1, intermediate_size=4,
                    max_position_embeddings=64, pad_token_id=tok.pad_token_id, num_labels=len(AGGREGATION_LABELS),
                    id2label=dict(enumerate(AGGREGATION_LABELS)), label2id={t: i for i, t in enumerate(AGGREGATION_LABELS)})
    net = transformers.AutoModelForTokenClassification.from_config(config).eval()
    pattern = torch.zeros(len(AGGREGATION_LABELS), h)
    for k in range(len(AGGREGATION_LABELS)):
        pattern[k, 2 * k], pattern[k, 2 * k + 1] = 1.0, -1.0
    with torch.no_grad():
        for parameter in net.parameters():
            parameter.zero_()
        embeddings = net.base_model.embeddings
        embeddings.LayerNorm.weight.fill_(1.0)
        for piece, i in tok.get_vocab().items():
            embeddings.word_embeddings.weight[i] = pattern[AGGREGATION_LABELS.index(tags(piece))]
        net.classifier.weight.copy_(pattern)
    return net


def _pipeline_corpus(transformers, net, tok, aggregation, path, texts=SENTENCES):
    """The pipeline's output for ``texts`` as the reader reads it, and the warnings the pipeline gave."""
    from nested_span_f1.formats.pipeline import pipeline_record

    pipe = transformers.pipeline("token-classification", model=net, tokenizer=tok, aggregation_strategy=aggregation,
                                 device="cpu")
    with warnings.catch_warnings(record=True) as given:
        warnings.simplefilter("always")
        lines = [json.dumps(pipeline_record(text, pipe(text), f"d{k}"), ensure_ascii=False) for k, text in enumerate(texts)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return read_corpus(path), sorted({str(w.message) for w in given if issubclass(w.category, UserWarning)})


@pytest.fixture(scope="module")
def sentencepiece():
    """A SentencePiece (Unigram) tokenizer trained offline, wrapped as XLM-R's, and a tiny XLM-R tagging its pieces
    杭州 and 西湖 B-LOC."""
    transformers = pytest.importorskip("transformers")
    torch = pytest.importorskip("torch")
    from tokenizers import SentencePieceUnigramTokenizer

    texts = ["我去了杭州。", "西湖很美。", "杭州很大。", "我爱西湖。", "周杰伦在台湾。", "我去了北京。", "台湾很美。",
             "杭州西湖很美。", "北京很大。"] * 4
    unigram = SentencePieceUnigramTokenizer()
    unigram.train_from_iterator(texts, vocab_size=40, special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"],
                                unk_token="<unk>", show_progress=False)
    tok = transformers.XLMRobertaTokenizerFast(tokenizer_object=unigram._tokenizer, bos_token="<s>", eos_token="</s>",
                                               pad_token="<pad>", unk_token="<unk>", mask_token="<mask>")
    assert tok.convert_ids_to_tokens(tok(SENTENCES[0])["input_ids"])[1:-1] == ["▁杭州", "西湖", "很", "美", "。"]
    net = _tagging_model(transformers, torch, transformers.XLMRobertaConfig, tok,
                         lambda piece: "B-LOC" if piece.lstrip("▁") in ("杭州", "西湖") else "O")
    return transformers, net, tok


@pytest.mark.parametrize("aggregation", ["simple", "none"])
def test_simple_and_none_give_the_pieces_entities(sentencepiece, tmp_path, aggregation):
    transformers, net, tok = sentencepiece
    corpus, said = _pipeline_corpus(transformers, net, tok, aggregation, tmp_path / "p.jsonl")
    assert corpus.entities == GOLD_SPANS and said == []
    assert corpus.notes == {}  # 杭州 and 西湖 side by side split no word


@pytest.mark.parametrize("aggregation", ["first", "average", "max"])
def test_word_aggregation_makes_a_run_of_unspaced_text_one_word(sentencepiece, tmp_path, aggregation):
    """Without a continuing-subword mark (SentencePiece has none) the pipeline tells words by spaces: the whole
    sentence is one word, labelled as its first piece (first) or by its pieces' mean or max score."""
    transformers, net, tok = sentencepiece
    corpus, said = _pipeline_corpus(transformers, net, tok, aggregation, tmp_path / "p.jsonl")
    assert said == ["Tokenizer does not support real words, using fallback heuristic"]
    expected = {"first": [[(0, 7, "LOC")], []], "max": [[(0, 7, "LOC")], []], "average": [[], []]}[aggregation]
    assert corpus.entities == expected
    gold = Corpus(SENTENCES, GOLD_SPANS, ["d0", "d1"], unit="characters")
    assert score_text(corpus, gold, metric="exact", zero_division=0)["overall_f1"] == 0.0


def test_a_piece_after_a_space_carries_the_space_and_trim_takes_it_off(sentencepiece, tmp_path):
    transformers, net, tok = sentencepiece
    text = "我去了 杭州西湖。"
    corpus, _ = _pipeline_corpus(transformers, net, tok, "simple", tmp_path / "p.jsonl", [text])
    assert corpus.entities == [[(3, 6, "LOC"), (6, 8, "LOC")]] and text[3:6] == " 杭州"
    gold = Corpus([text], [[(4, 6, "LOC"), (6, 8, "LOC")]], ["d0"], unit="characters")
    assert score_text(corpus, gold, metric="exact", zero_division=0)["overall_f1"] == 0.5
    trimmed = score_text(corpus, gold, metric="exact", trim=True)
    assert trimmed["overall_f1"] == 1.0 and trimmed["alignment"]["trimmed_predictions"] == 1


def test_a_wordpiece_tokenizer_makes_each_chinese_character_a_word(tmp_path):
    """BERT's tokenizers cut Chinese into characters, each a word: there 'first' keeps 杭州 and 西湖 apart."""
    transformers = pytest.importorskip("transformers")
    torch = pytest.importorskip("torch")
    from nested_span_f1.hf.training import word_tokenizer

    tok = word_tokenizer([list(text) for text in SENTENCES], tmp_path / "tok")
    net = _tagging_model(transformers, torch, transformers.BertConfig, tok,
                         lambda piece: {"杭": "B-LOC", "西": "B-LOC", "州": "I-LOC", "湖": "I-LOC"}.get(piece, "O"))
    for aggregation in ("first", "simple"):
        corpus, said = _pipeline_corpus(transformers, net, tok, aggregation, tmp_path / f"{aggregation}.jsonl")
        assert corpus.entities == GOLD_SPANS and said == []
