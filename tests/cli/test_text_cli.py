"""The command line on texts: convert, and score / lenient / nested / benchmark taking text spans, pipeline
output and brat beside token files."""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from nested_span_f1 import Corpus, read_corpus, write_corpus
from nested_span_f1.align import join_tokens
from nested_span_f1.cli.main import main

SAMPLES = Path(__file__).resolve().parents[2] / "nested_span_f1" / "sample_data"


def _run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _error(capsys, command, *args):
    code, out, err = _run(capsys, command, *args)
    assert code == 2 and not out, (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"nested-span-f1 {command}: error: "), err
    return lines[0]


def test_conll_to_text_and_back_is_byte_for_byte(capsys, tmp_path, shared_data):
    for source in (SAMPLES / "sample.gold.conll", shared_data / "conll2003" / "test.gold.conll"):
        code, out, _ = _run(capsys, "convert", source, "--to", "text", "--output", tmp_path / "t.jsonl")
        assert code == 0 and "tokens joined by single spaces" in out
        code, out, _ = _run(capsys, "convert", tmp_path / "t.jsonl", "--to", "conll", "--output", tmp_path / "back")
        # the tags as written, tab-separated, a blank line after every sentence (the sample has none after its last)
        back = (tmp_path / "back").read_bytes()
        assert code == 0 and back.rstrip(b"\n") == source.read_bytes().replace(b" ", b"\t").rstrip(b"\n")


def test_nested_formats_to_text_and_brat_and_back(capsys, tmp_path):
    source = SAMPLES / "nested.gold.jsonl"
    gold = read_corpus(source)
    assert gold.sentence_ids is not None and gold.doc_ids is None
    for target, path in (("text", tmp_path / "g.jsonl"), ("brat", tmp_path / "brat"), ("pipeline", tmp_path / "p")):
        code, _, err = _run(capsys, "convert", source, "--to", target, "-o", path)
        assert code == 0, err
        back = read_corpus(path)
        assert back.texts == [" ".join(t) for t in gold.tokens] and back.sentence_ids == gold.sentence_ids
        code, _, err = _run(capsys, "convert", path, "--to", "oneie", "-o", tmp_path / f"{target}.oneie")
        assert code == 0, err
        again = read_corpus(tmp_path / f"{target}.oneie")
        # brat ids are file names: read back sorted by name
        order = sorted(range(len(gold)), key=lambda s: gold.sentence_ids[s]) if target == "brat" else range(len(gold))
        assert again.tokens == [gold.tokens[s] for s in order]
        assert [sorted(e) for e in again.entities] == [sorted(gold.entities[s]) for s in order]
        assert again.sentence_ids == [gold.sentence_ids[s] for s in order]


@pytest.mark.parametrize(("make", "target", "fragment"), [
    (lambda p: write_corpus(Corpus(["Peter  Blackburn"], [[(0, 5, "PER")]], unit="characters"), p, "text"),
     "conll", "not tokens joined by single spaces (an empty token"),
    (lambda p: write_corpus(Corpus(["Peter Blackburn"], [[(0, 3, "PER")]], unit="characters"), p, "text"),
     "oneie", "(0, 3, 'PER') (boundary inside token) does not start and end at token boundaries"),
    (lambda p: write_corpus(Corpus([["a", "b"]], [[(0, 2, "X"), (0, 1, "Y")]]), p, "oneie"),
     "conll", "overlaps another; tags hold one entity a token"),
    (lambda p: write_corpus(Corpus([["a", "b", "c"]], [[(((0, 1), (2, 3)), "X")]]), p, "w2ner"),
     "oneie", "discontinuous entity"),
    (lambda p: write_corpus(Corpus(["a b"], [[]], ["doc-7"], unit="characters"), p, "text"),
     "w2ner", "would lose the sentence ids"),
])
def test_lossy_conversions_are_refused_with_the_reason(capsys, tmp_path, make, target, fragment):
    make(tmp_path / "in")
    line = _error(capsys, "convert", tmp_path / "in", "--to", target, "-o", tmp_path / "out")
    assert fragment in line
    assert not (tmp_path / "out").exists()


def test_convert_refuses_to_write_over_its_input_or_to_spacy(capsys, tmp_path):
    path = tmp_path / "g.jsonl"
    write_corpus(join_tokens(read_corpus(SAMPLES / "nested.gold.jsonl")), path, "text")
    assert "an input; write to another file" in _error(capsys, "convert", path, "--to", "text", "-o", path)
    with pytest.raises(SystemExit):
        main(["convert", str(path), "--to", "spacy", "-o", str(tmp_path / "x.spacy")])
    assert "spacy is read, not written" in capsys.readouterr().err


@pytest.fixture(scope="module")
def conll_as_pipeline(shared_data, tmp_path_factory):
    """The CoNLL-2003 ELMo output as pipeline output (aggregated), the gold as CoNLL columns."""
    folder = tmp_path_factory.mktemp("conll")
    assert main(["convert", str(shared_data / "conll2003" / "test.elmo.conll"), "--to", "pipeline", "-o",
                 str(folder / "elmo.jsonl")]) == 0
    return shared_data / "conll2003" / "test.gold.conll", folder / "elmo.jsonl"


def test_score_lenient_nested_take_pipeline_output_against_conll_gold(capsys, conll_as_pipeline):
    gold, pred = conll_as_pipeline
    capsys.readouterr()
    code, out, _ = _run(capsys, "score", "--gold", gold, "--pred", pred, "--json")
    result = json.loads(out)
    assert code == 0 and round(100 * result["overall_f1"], 2) == 92.22
    assert result["alignment"]["projected"] == "predictions"
    assert result["alignment"]["predictions"]["boundary_inside_token"] == 0
    code, out, _ = _run(capsys, "score", "--gold", gold, "--pred", pred)
    assert "the predictions' character spans placed against the other side's tokens" in out
    assert "predictions: 5658 spans: matched 5213, spurious 445" in out
    code, out, _ = _run(capsys, "lenient", "--gold", gold, "--pred", pred, "--json")
    assert code == 0 and round(100 * json.loads(out)["strict_f1"], 2) == 92.22
    code, out, _ = _run(capsys, "nested", "--gold", gold, "--pred", pred)
    assert code == 0 and "span length (characters)" in out and "3453 documents" in out


def test_score_help_says_it_takes_texts(capsys):
    """score takes texts as the other commands do: its help says so, and no longer that both files must be
    token-aligned column files."""
    with pytest.raises(SystemExit):
        main(["--help"])
    top = capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "token-aligned column files" not in top and "texts (character spans)" in " ".join(top.split())
    assert "The files must hold the same tokens" not in text and "Either side may instead hold texts" in text
    assert "--gold GOLD gold: a column file (token ... tag, blank line between sentences) or texts" in text
    assert "--pred PRED predictions: a column file token-aligned with --gold, or texts" in text


def test_texts_through_a_pipe_are_pointed_to_their_format_option(capsys, tmp_path):
    """A pipe is read once, so texts in it are known only once read: lenient names --pred-format, which works."""
    gold = tmp_path / "gold.conll"
    gold.write_text("Peter\tB-PER\nvisited\tO\nParis\tB-LOC\n", encoding="utf-8")
    record = json.dumps({"id": "0", "text": "Peter visited Paris", "entities": [{"start": 0, "end": 5, "label": "PER"}]})
    pipe = tmp_path / "pipe"

    def through_pipe(*options):
        os.mkfifo(pipe)
        writer = threading.Thread(target=lambda: pipe.write_text(record + "\n", encoding="utf-8"))
        writer.start()
        try:
            return _run(capsys, "lenient", "--gold", gold, "--pred", pipe, *options)
        finally:
            writer.join()
            pipe.unlink()

    code, out, err = through_pipe()
    assert code == 2 and "holds texts (text: character offsets)" in err and "give --pred-format text" in err
    assert "score_text" not in err
    code, out, _ = through_pipe("--pred-format", "text", "--json")
    assert code == 0 and json.loads(out)["strict_correct"] == 1 and json.loads(out)["strict_missed"] == 1


def test_benchmark_takes_text_predictions_beside_tag_columns(capsys, conll_as_pipeline, shared_data):
    gold, pred = conll_as_pipeline
    code, out, err = _run(capsys, "benchmark", "--gold", gold, "--pred", f"elmo={pred}", "--pred",
                          f"flair={shared_data / 'conll2003' / 'test.flair.conll'}", "--bootstrap", 50, "--no-progress")
    assert code == 0, err
    assert "| elmo | 92.14 | 92.30 | 92.22 |" in out and "| flair | 92.75 | 93.31 | 93.03 |" in out


def test_brat_folders_are_scored_and_trim_and_snap_are_reported(capsys, tmp_path):
    text = "Peter Blackburn visited Paris ."
    (tmp_path / "gold").mkdir()
    (tmp_path / "gold" / "d1.txt").write_text(text, encoding="utf-8")
    (tmp_path / "gold" / "d1.ann").write_text("T1\tPER 0 15\tPeter Blackburn\nT2\tLOC 24 29\tParis\n", encoding="utf-8")
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps({"id": "d1", "text": text, "entities": [
        {"start": 0, "end": 16, "label": "PER"}, {"start": 24, "end": 27, "label": "LOC"}]}) + "\n")
    code, out, _ = _run(capsys, "nested", "--gold", tmp_path / "gold", "--pred", pred, "--trim", "--json")
    result = json.loads(out)
    assert code == 0 and result["tp"] == 1 and result["alignment"]["trimmed_predictions"] == 1
    assert result["test_set"]["documents"] == 1 and result["test_set"]["characters"] == len(text)
    # against tokens of the gold: the LOC cut inside 'Paris' is shown, and snapped on request
    tokens = tmp_path / "gold.conll"
    tokens.write_text("Peter\tB-PER\nBlackburn\tI-PER\nvisited\tO\nParis\tB-LOC\n.\tO\n", encoding="utf-8")
    pred.write_text(json.dumps({"id": "0", "text": text, "entities": [
        {"start": 0, "end": 15, "label": "PER"}, {"start": 24, "end": 27, "label": "LOC"}]}) + "\n")
    code, out, _ = _run(capsys, "score", "--gold", tokens, "--pred", pred)
    assert "boundary inside token 1" in out and "[24, 27, 'LOC'] 'Par' in" in out
    code, out, _ = _run(capsys, "score", "--gold", tokens, "--pred", pred, "--snap", "expand", "--json")
    assert json.loads(out)["overall_f1"] == 1.0 and json.loads(out)["alignment"]["snapped_predictions"] == 1


def test_text_errors_are_one_line_counting_documents_from_1(capsys, tmp_path):
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    write_corpus(Corpus(["abc", "xyz"], [[], []], ["a", "b"], unit="characters"), gold, "text")
    write_corpus(Corpus(["abc", "xyZ"], [[], []], ["a", "b"], unit="characters"), pred, "text")
    line = _error(capsys, "nested", "--gold", gold, "--pred", pred)
    assert "document 2 (id 'b'): texts differ at offset 2" in line
    write_corpus(Corpus(["abc"], [[]], ["a"], unit="characters"), pred, "text")
    assert "no prediction for document id 'b'" in _error(capsys, "score", "--gold", gold, "--pred", pred)
    write_corpus(Corpus(["abc", "xyz"], [[], []], ["a", "b"], unit="characters"), pred, "text")
    assert "--mode applies to tag columns" in _error(capsys, "score", "--gold", gold, "--pred", pred, "--mode",
                                                     "strict")


def test_two_token_column_files_stay_column_files_at_every_door(capsys, tmp_path):
    # QA item 5: read as Lu & Roth blocks they lost their entity and held "Peter B-PER" as one token
    gold = tmp_path / "two.conll"
    gold.write_text("Peter\tB-PER\nBlack\tI-PER\n\n", encoding="utf-8")
    code, out, err = _run(capsys, "convert", gold, "--to", "text", "-o", tmp_path / "two.jsonl")
    assert code == 0 and "(conll)" in out and "1 entities" in out, (out, err)
    assert read_corpus(tmp_path / "two.jsonl").texts == ["Peter Black"]
    pred = tmp_path / "pred.jsonl"
    write_corpus(Corpus(["Peter Black"], [[(0, 11, "PER")]], unit="characters"), pred, "pipeline")
    code, out, err = _run(capsys, "score", "--gold", gold, "--pred", pred, "--json")
    assert code == 0 and json.loads(out)["overall_f1"] == 1.0, err
    (tmp_path / "empty").write_bytes(b"")
    for args in (("convert", tmp_path / "empty", "--to", "text", "-o", tmp_path / "e.jsonl"),
                 ("convert", "/dev/null", "--to", "text", "-o", tmp_path / "e.jsonl"),
                 ("nested", "--gold", tmp_path / "empty", "--pred", tmp_path / "empty")):
        assert "the file is empty" in _error(capsys, *args)
    assert not (tmp_path / "e.jsonl").exists()
