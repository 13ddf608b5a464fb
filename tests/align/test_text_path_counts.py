"""The text path says what it does (issue 38, items 5 and 6): brat's event triggers, an uncased tokenizer's
accents, words split across entities, examples of documents paired by order, suspicious entities.

The tokenizer and the pipeline are real (a ``BertTokenizerFast`` built from a vocabulary this file writes, a tiny
random ``BertForTokenClassification`` in ``transformers.pipeline``); the brat corpus is BioNLP-ST 2011 GE from
``../shared/data``.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1 import read_corpus
from nested_span_f1.align import score_text
from nested_span_f1.cli.main import main
from nested_span_f1.core.entities import check_entities
from nested_span_f1.formats.brat import read_brat
from nested_span_f1.formats.corpus import suspicious

GE = "bionlp-st-2011-ge"


def _run(capsys, *args):
    capsys.readouterr()
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _triggers_by_hand(folder: Path) -> tuple[int, int]:
    """(T lines, T lines named as the trigger of an E line) of a brat folder, read with plain string splitting."""
    lines = triggers = 0
    for ann in folder.glob("*.ann"):
        rows = ann.read_text(encoding="utf-8").split("\n")
        ids = {row.split("\t")[0] for row in rows if row.startswith("T")}
        used = {row.split("\t")[1].split(" ")[0].split(":")[1] for row in rows if row.startswith("E")}
        lines, triggers = lines + len(ids), triggers + len(ids & used)
    return lines, triggers


# ------------------------------------------------------------------------------------------------ brat triggers

def test_brat_event_triggers_are_counted_in_the_header_and_can_be_left_out(shared_data, capsys):
    folder = shared_data / "brat" / GE
    assert _triggers_by_hand(folder) == (520, 185)
    kept = read_corpus(folder)
    # two of its documents have an empty .ann (find -empty): read as marking nothing, counted and named (issue 48)
    empty = "2 empty .ann files (a document no one annotated? it is scored as marking nothing): 'PMID-7986199', " \
            "'PMID-9874515'"
    assert sum(map(len, kept.entities)) == 520 and kept.notes == {"brat_event_triggers": 185, "brat_empty_ann_files": 2}
    assert kept.conversion == ("brat standoff, character offsets: 520 T lines: 335 entities, 185 event triggers (T "
                               f"lines that E lines use, scored as entities); read past: 14 *, 244 E, 41 M; {empty}")
    left = read_brat(folder, event_triggers=False)
    assert sum(map(len, left.entities)) == 335 and left.notes == {"brat_event_triggers_left_out": 185,
                                                                   "brat_empty_ann_files": 2}
    assert "520 T lines: 335 entities, 185 event triggers (left out)" in left.conversion
    # the event types are exactly the triggers' types: leaving triggers out leaves Protein and Entity only
    assert {label for document in left.entities for *_, label in document} == {"Protein", "Entity"}
    code, out, _ = _run(capsys, "nested", "--gold", folder, "--pred", folder)
    assert code == 0 and out.splitlines()[0] == (
        f"gold:        {folder} (brat, characters; brat standoff, character offsets: 520 T lines: 335 entities, "
        f"185 event triggers (T lines that E lines use, scored as entities); read past: 14 *, 244 E, 41 M; {empty})")
    assert ("read: predictions: brat event triggers 185, predictions: brat empty ann files 2, references: brat event "
            "triggers 185, references: brat empty ann files 2") in out
    code, out, _ = _run(capsys, "nested", "--gold", folder, "--pred", folder, "--no-event-triggers", "--json")
    assert code == 0 and json.loads(out)["test_set"]["entities"] == 335
    # against the gold with its triggers, a system that leaves them out misses exactly the 185 triggers
    result = score_text(read_brat(folder, event_triggers=False), kept, metric="exact", zero_division=0)
    assert (result["tp"], result["fp"], result["fn"]) == (335, 0, 185)


@pytest.mark.parametrize("command", ["score", "lenient", "nested", "benchmark", "convert"])
def test_help_says_how_event_triggers_are_read(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--no-event-triggers" in text and "T lines that E lines use as event triggers" in text


def test_event_trigger_option_without_brat_is_refused(tmp_path, capsys):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "d", "text": "a", "entities": []}) + "\n", encoding="utf-8")
    code, _, err = _run(capsys, "score", "--gold", gold, "--pred", gold, "--no-event-triggers")
    assert code == 2 and err == ("nested-span-f1 score: error: --no-event-triggers leaves out the T lines brat's E lines "
                                 "use as triggers, but neither --gold nor --pred is one; leave it out\n")


# ------------------------------------------------------------------------------------------------ a real pipeline

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
TEXT = "José met Chloé at the Café in Zürich Paris."
VOCABULARY = ["cafe", "zu", "##rich", "par", "##is", "opened", "in", "jose", "met", "chloe", "at", "the", "."]


@pytest.fixture(scope="module")
def uncased(tmp_path_factory):
    """An uncased BERT tokenizer (lower case, accents stripped, as bert-base-uncased) from a vocabulary written
    here, and a token-classification pipeline of a tiny random model for each aggregation."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from nested_span_f1.hf.training import SPECIAL_TOKENS, tiny_bert_config

    folder = tmp_path_factory.mktemp("uncased")
    (folder / "vocab.txt").write_text("\n".join([*SPECIAL_TOKENS, *VOCABULARY]) + "\n", encoding="utf-8")
    tokenizer = transformers.BertTokenizerFast.from_pretrained(str(folder), do_lower_case=True, strip_accents=True)
    assert tokenizer.tokenize(TEXT) == ["jose", "met", "chloe", "at", "the", "cafe", "in", "zu", "##rich", "par",
                                        "##is", "."]
    torch.manual_seed(0)
    config = tiny_bert_config(len(tokenizer), num_labels=len(LABELS), id2label=dict(enumerate(LABELS)),
                              label2id={tag: i for i, tag in enumerate(LABELS)})
    model = transformers.BertForTokenClassification(config).eval()
    return tokenizer, {aggregation: transformers.pipeline("token-classification", model=model, tokenizer=tokenizer,
                                                          aggregation_strategy=aggregation)
                       for aggregation in ("none", "simple")}


def _output_file(pipe, path: Path) -> tuple[Path, list[dict]]:
    from nested_span_f1.formats.pipeline import pipeline_record

    record = pipeline_record(TEXT, pipe(TEXT), "d1")
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path, record["entities"]


@pytest.mark.parametrize("aggregation", ["none", "simple"])
def test_an_uncased_tokenizers_words_are_compared_as_it_normalises_them(uncased, tmp_path, aggregation):
    """Its words have no accents (jose, chloe, cafe, zu): each equals the text once both are normalised as the
    tokenizer's own normalizer does, and is counted as such, not warned about (our warnings are errors here)."""
    tokenizer, pipes = uncased
    path, items = _output_file(pipes[aggregation], tmp_path / "p.jsonl")
    normalise = tokenizer.backend_tokenizer.normalizer.normalize_str
    expected = 0
    for item in items:
        found, word = TEXT[item["start"]:item["end"]], item["word"].replace("##", "")
        expected += found.lower() != word and normalise(found) == word
    corpus = read_corpus(path)
    assert expected == 4  # José, Chloé, Café, Zü: each in one item of either output
    assert corpus.notes.get("pipeline_words_unaccented") == expected and "pipeline_word_mismatches" not in corpus.notes
    assert "4 words equal to the text once accents are stripped, as an uncased tokenizer does" in corpus.conversion


@pytest.mark.parametrize("aggregation", ["none", "simple"])
def test_words_split_across_entities_are_counted_with_examples(uncased, tmp_path, aggregation):
    """The random model tags "zu" I-PER and "##rich" B-PER: two spans inside "Zürich". The transformers pipeline's
    own grouping ("simple") shows the same split; both outputs are read to the same spans and the same count."""
    _, pipes = uncased
    groups = pipes["simple"](TEXT)
    by_hand = sum(a["end"] == b["start"] and TEXT[a["end"] - 1].isalnum() and TEXT[b["start"]].isalnum()
                  for a in groups for b in groups)
    path, _ = _output_file(pipes[aggregation], tmp_path / "p.jsonl")
    corpus = read_corpus(path)
    assert by_hand == 1 and corpus.notes["pipeline_words_split_across_entities"] == 1
    assert (f"1 word split across entities, each part scored as a span (first: {path}, line 1: 'Zürich' as 'in Zü' "
            "PER and 'rich' PER)") in corpus.conversion
    assert (27, 32, "PER") in corpus.entities[0] and (32, 36, "PER") in corpus.entities[0]


def test_a_word_split_across_entities_in_the_header_and_the_examples_name_both_ids(tmp_path, capsys):
    """'Par' B-LOC, '##is' B-PER: the word counted; the gold (CoNLL columns, no ids) and the prediction (id 'x7')
    paired by order, the examples name the document from 1 and the prediction's id."""
    text = "Paris café opened"
    items = [{"entity": "B-LOC", "index": 1, "word": "par", "start": 0, "end": 3},
             {"entity": "B-PER", "index": 2, "word": "##is", "start": 3, "end": 5},
             {"entity": "B-ORG", "index": 3, "word": "cafe", "start": 6, "end": 10}]
    pred = tmp_path / "p.jsonl"
    pred.write_text(json.dumps({"id": "x7", "text": text, "entities": items}) + "\n", encoding="utf-8")
    gold = tmp_path / "g.conll"
    gold.write_text("Paris B-LOC\ncafé O\nopened O\n", encoding="utf-8")
    code, out, err = _run(capsys, "score", "--gold", gold, "--pred", pred)
    assert (code, err) == (0, "")
    assert out.splitlines()[:8] == [
        f"gold:        {gold} (conll, tokens; tags decoded to spans (seqeval's default mode))",
        f"predictions: {pred} (pipeline, characters; sub-tokens (entity, index) merged into spans as the pipeline's "
        f"simple strategy merges them; 1 word split across entities, each part scored as a span (first: {pred}, "
        "line 1: 'Paris' as 'Par' LOC and 'is' PER); 1 word equal to the text once accents are stripped, as an "
        "uncased tokenizer does)",
        "aligned by order: the predictions' character spans placed against the other side's tokens",
        "predictions: 3 spans: matched 0, spurious 1, boundary inside token 2",
        "references: 1 span: matched 0, missed 1",
        "read: predictions: pipeline words split across entities 1, predictions: pipeline words unaccented 1",
        "  predictions, document 1 (prediction id 'x7', paired by order): boundary inside token: [0, 3, 'LOC'] 'Par' "
        "in 'Paris café opened'",
        "  predictions, document 1 (prediction id 'x7', paired by order): boundary inside token: [3, 5, 'PER'] 'is' "
        "in 'Paris café opened'",
    ]
    # paired by id, an example names the id alone
    pred.write_text(json.dumps({"id": "0", "text": text, "entities": items}) + "\n", encoding="utf-8")
    gold_text = tmp_path / "g.jsonl"
    gold_text.write_text(json.dumps({"id": "0", "text": text, "entities": [{"start": 0, "end": 5, "label": "LOC"}]})
                         + "\n", encoding="utf-8")
    result = score_text(pred, gold_text, metric="exact", zero_division=0)
    assert result["alignment"]["examples"] == []  # texts against texts: nothing is placed against tokens
    tokens = tmp_path / "g.oneie.jsonl"
    tokens.write_text(json.dumps({"sent_id": "0", "tokens": ["Paris", "café", "opened"], "entity_mentions": []})
                      + "\n", encoding="utf-8")
    code, out, _ = _run(capsys, "score", "--gold", tokens, "--pred", pred)
    assert code == 0 and "  predictions, id '0': boundary inside token: [0, 3, 'LOC'] 'Par'" in out


# ------------------------------------------------------------------------------------------------ suspicious entities

def test_label_O_and_spans_of_blanks_are_counted_in_the_header(tmp_path, capsys):
    text = "Paris is  big"
    document = {"id": "d1", "text": text, "entities": [{"start": 0, "end": 5, "label": "O"},
                                                        {"start": 8, "end": 10, "label": "LOC"}]}
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(document) + "\n", encoding="utf-8")
    line = ("suspicious, scored as given (a conversion bug?): gold: 1 entity labelled O (a label named like the "
            "outside tag), 1 span of blanks (it covers whitespace only); predictions: 1 entity labelled O (a label "
            "named like the outside tag), 1 span of blanks (it covers whitespace only)")
    for command in ("score", "lenient", "nested"):
        code, out, _ = _run(capsys, command, "--gold", path, "--pred", path)
        assert code == 0 and line in out.splitlines(), command
    result = score_text(path, path, metric="exact", zero_division=0)
    assert result["alignment"]["suspicious"] == {side: {"labelled_O": 1, "blank": 1}
                                                 for side in ("predictions", "references")}
    assert result["overall_f1"] == 1.0 and result["O"]["number"] == 1  # scored as given
    # tag columns: a B-O tag is an entity labelled O, counted by the metric's per-label counts
    columns = tmp_path / "o.conll"
    columns.write_text("a B-O\nb O\n\nc B-PER\n", encoding="utf-8")
    tokens_line = ("suspicious, scored as given (a conversion bug?): gold: 1 entity labelled O (a label named like "
                   "the outside tag); predictions: 1 entity labelled O (a label named like the outside tag)")
    for command in ("score", "lenient"):
        code, out, _ = _run(capsys, command, "--gold", columns, "--pred", columns)
        assert code == 0 and out.splitlines()[1] == tokens_line, command
    spans = tmp_path / "o.jsonl"
    spans.write_text(json.dumps({"tokens": ["a", "b"], "entity_mentions": [
        {"start": 0, "end": 1, "entity_type": "O"}, {"start": 1, "end": 2, "entity_type": "o"}]}) + "\n",
        encoding="utf-8")
    code, out, _ = _run(capsys, "nested", "--gold", spans, "--pred", spans)
    assert code == 0 and tokens_line.replace("1 entity", "2 entities") in out.splitlines()
    clean = tmp_path / "clean.jsonl"
    clean.write_text(json.dumps({"id": "d1", "text": text, "entities": [{"start": 0, "end": 5, "label": "LOC"}]})
                     + "\n", encoding="utf-8")
    code, out, _ = _run(capsys, "score", "--gold", clean, "--pred", clean)
    assert code == 0 and not re.search("suspicious", out)


def _suspicious_plain(texts, entities):
    """Every entity read whole: labelled O in any case, or every fragment whitespace only."""
    found = {"labelled_O": 0, "blank": 0}
    for text, ents in zip(texts, entities):
        for entity in ents:
            pieces = entity[0] if len(entity) == 2 else ((entity[0], entity[1]),)
            found["labelled_O"] += entity[-1].upper() == "O"
            found["blank"] += all(not text[start:end].strip() for start, end in pieces)
    return {key: n for key, n in found.items() if n}


@st.composite
def _texts_and_entities(draw):
    texts = draw(st.lists(st.text(st.sampled_from("ab 東\u3000\t\xa0\n"), min_size=1, max_size=12), min_size=1,
                          max_size=4))
    labels = st.sampled_from(["O", "o", "LOC", "Org"])
    entities = []
    for text in texts:
        bounds = st.tuples(st.integers(0, len(text) - 1), st.integers(1, len(text))).filter(lambda p: p[0] < p[1])
        spans = draw(st.lists(st.tuples(bounds, labels).map(lambda x: (*x[0], x[1])), max_size=4))
        # a discontinuous entity: two fragments with a gap (when the text is long enough)
        if len(text) >= 4 and draw(st.booleans()):
            a = draw(st.integers(0, len(text) - 4))
            spans.append((((a, a + 1), (a + 2, draw(st.integers(a + 3, len(text))))), draw(labels)))
        entities.append(spans)
    return texts, entities


@given(_texts_and_entities())
def test_suspicious_entities_are_those_read_whole(drawn):
    """``formats.corpus.suspicious`` reads whole only the spans whose first character is whitespace, and counts the
    labels by their ids: the counts of reading every entity whole."""
    texts, entities = drawn
    checked = check_entities(entities, [len(text) for text in texts])
    assert suspicious(texts, checked) == _suspicious_plain(texts, entities)
