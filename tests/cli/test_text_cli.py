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
    assert "predictions: 5,658 spans: matched 5213, spurious 445" in out
    code, out, _ = _run(capsys, "lenient", "--gold", gold, "--pred", pred, "--json")
    assert code == 0 and round(100 * json.loads(out)["strict_f1"], 2) == 92.22
    code, out, _ = _run(capsys, "nested", "--gold", gold, "--pred", pred)
    assert code == 0 and "span length (characters)" in out and "3,453 documents" in out


def test_score_help_says_it_takes_texts(capsys):
    """score takes texts as the other commands do: its help says so, and no longer that both files must be
    token-aligned column files."""
    with pytest.raises(SystemExit):
        main(["--help"])
    top = capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "token-aligned column files" not in top and "texts against texts or tokens" in " ".join(top.split())
    assert "The files must hold the same tokens" not in text and "Either side may instead hold texts" in text
    assert "--gold GOLD gold: a column file or texts" in text
    assert "--pred PRED predictions: column file of the same tokens, or texts" in text


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
    assert code == 0 and "(conll)" in out and "1 entity " in out, (out, err)
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


def test_tokens_holding_whitespace_are_not_converted_to_text(capsys, tmp_path):
    # QA item 9: "24R,25 (OH)2D3" joined into a text came back as two tokens
    source = tmp_path / "g.jsonl"
    write_corpus(Corpus([["of", "24R,25 (OH)2D3", "."], ["a"]], [[(1, 2, "X")], []], ["s1", "s2"]), source, "oneie")
    for target in ("text", "pipeline", "brat"):
        line = _error(capsys, "convert", source, "--to", target, "-o", tmp_path / "out")
        assert f"sentence 1, token 2 ({source}, line 1): '24R,25 (OH)2D3' is empty or holds whitespace" in line
        assert f"--to {target} would change them" in line and not (tmp_path / "out").exists()


@pytest.mark.parametrize(("text", "fragment", "options"), [
    ("EU NNP B-ORG\nrejects VBZ O\n", "c.conll, line 1: 3 columns; spans keep the token and its tag", ()),
    ("-DOCSTART- O\n\nEU B-ORG\n", "c.conll, line 1: a -DOCSTART- line; no target keeps document markers", ()),
    ("EU B-ORG\n\n-DOCSTART- O\n\nPeter B-PER\n", "c.conll, line 3: a -DOCSTART- line", ()),
    ("EU I-ORG\nrejects O\n", "c.conll, line 1: tag 'I-ORG' would come back as 'B-ORG'", ()),
    ("Peter B-PER\nBlack E-PER\nParis S-LOC\n", "c.conll, line 2: tag 'E-PER' would come back as 'I-PER'", ()),
    ("a O\nPeter I-PER\n", "c.conll, line 2: tag 'I-PER' would come back as 'B-PER'", ()),
    ("a O\nPeter B-PER\nBlack I-LOC\n", "c.conll, line 3: tag 'I-LOC' would come back as 'B-LOC'", ()),
    ("a\tB-PER\n\nb\tO\nc\tX-Y-\n", "c.conll, line 4: tag 'X-Y-': malformed", ()),  # QA item 21: was "sentences, ..."
    ("Peter B-PER\nBlack I-PER\n", "c.conll, line 1: tag 'B-PER' is in no entity of IOBES (decoded strictly)",
     ("--scheme", "IOBES")),
])
def test_lossy_conversions_of_columns_are_refused_naming_the_line(capsys, tmp_path, text, fragment, options):
    # QA item 10: other columns, document markers and tags of another scheme were dropped or rewritten silently
    (tmp_path / "c.conll").write_text(text, encoding="utf-8")
    assert fragment in _error(capsys, "convert", tmp_path / "c.conll", "--to", "text", "-o", tmp_path / "t", *options)
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize(("scheme", "tags"), [("IOB1", ["I-ORG", "I-ORG", "O", "I-PER"]),
                                               ("IOBES", ["B-ORG", "E-ORG", "O", "S-PER"])])
def test_another_scheme_converts_when_named_and_comes_back_as_iob2(capsys, tmp_path, scheme, tags):
    (tmp_path / "c.conll").write_text("".join(f"w{t}\t{tag}\n" for t, tag in enumerate(tags)), encoding="utf-8")
    code, out, err = _run(capsys, "convert", tmp_path / "c.conll", "--to", "text", "-o", tmp_path / "t.jsonl",
                          "--scheme", scheme)
    assert code == 0 and f"({scheme}, strict; written back as IOB2)" in out, err
    assert read_corpus(tmp_path / "t.jsonl").entities == [[(0, 5, "ORG"), (9, 11, "PER")]]
    assert "--scheme applies to CoNLL columns" in _error(capsys, "convert", tmp_path / "t.jsonl", "--to", "conll",
                                                          "-o", tmp_path / "back", "--scheme", scheme)


def test_ids_a_reader_invents_are_positions_in_every_format_and_brat_names_are_ids(capsys, tmp_path, shared_data):
    # QA item 11: brat -> text -> brat and brat -> brat were refused over document ids read_brat set; documents
    # without ids were doc0, doc1 in brat but 0, 1 in text
    brat = shared_data / "brat" / "ncbi-disease"
    code, _, err = _run(capsys, "convert", brat, "--to", "text", "-o", tmp_path / "n.jsonl")
    assert code == 0, err
    for source, target in ((tmp_path / "n.jsonl", tmp_path / "nb"), (brat, tmp_path / "bb")):
        code, _, err = _run(capsys, "convert", source, "--to", "brat", "-o", target)
        assert code == 0, err
        assert sorted(p.name for p in target.iterdir()) == sorted(p.name for p in brat.iterdir()
                                                                   if p.suffix in (".txt", ".ann"))
        for name in ("PMID-10429004.txt", "PMID-10429004.ann"):
            assert (target / name).read_bytes() == (tmp_path / "nb" / name).read_bytes()
    tokens = Corpus([[f"w{s}"] for s in range(12)], [[(0, 1, "X")] for _ in range(12)])
    write_corpus(tokens, tmp_path / "w.json", "w2ner")
    for target, path in (("brat", tmp_path / "wb"), ("text", tmp_path / "w.jsonl"), ("biaffine", tmp_path / "w.bi")):
        code, _, err = _run(capsys, "convert", tmp_path / "w.json", "--to", target, "-o", path)
        assert code == 0, err
    assert read_corpus(tmp_path / "wb").sentence_ids == [str(s) for s in range(12)]  # 2 before 10
    code, out, err = _run(capsys, "nested", "--gold", tmp_path / "wb", "--pred", tmp_path / "w.jsonl", "--json")
    assert code == 0 and json.loads(out)["overall_f1"] == 1.0, err
    for source in (tmp_path / "wb", tmp_path / "w.bi"):
        code, _, err = _run(capsys, "convert", source, "--to", "w2ner", "-o", tmp_path / f"{source.name}.json")
        assert code == 0, err
        assert read_corpus(tmp_path / f"{source.name}.json").tokens == tokens.tokens


def test_a_failed_convert_writes_nothing(capsys, tmp_path):
    # QA item 13 and 20: a lone surrogate was met by the writer, after part of the folder was written; --to brat
    # into a folder holding files mixed the documents
    (tmp_path / "s.jsonl").write_text('{"id": "a", "text": "ok", "entities": []}\n'
                                      '{"id": "b", "text": "a\\ud800b", "entities": []}\n', encoding="utf-8")
    line = _error(capsys, "convert", tmp_path / "s.jsonl", "--to", "brat", "-o", tmp_path / "sb")
    assert "s.jsonl, line 2: a lone surrogate U+D800 at offset 1 of the text" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl"]
    write_corpus(Corpus(["ok"], [[]], ["a"], unit="characters"), tmp_path / "t.jsonl", "text")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "other.txt").write_text("x", encoding="utf-8")
    assert "full exists and is not an empty folder" in _error(capsys, "convert", tmp_path / "t.jsonl", "--to", "brat",
                                                              "-o", tmp_path / "full")
    (tmp_path / "empty").mkdir()
    assert _run(capsys, "convert", tmp_path / "t.jsonl", "--to", "brat", "-o", tmp_path / "empty")[0] == 0
    assert sorted(p.name for p in (tmp_path / "empty").iterdir()) == ["a.ann", "a.txt"]
    assert "is a folder; give the name of a file" in _error(capsys, "convert", tmp_path / "t.jsonl", "--to", "oneie",
                                                            "-o", tmp_path / "empty")
    line = _error(capsys, "convert", tmp_path / "t.jsonl", "--to", "oneie", "-o", tmp_path / "no" / "t.json")
    assert f"{tmp_path / 'no' / 't.json'}: the folder {tmp_path / 'no'} does not exist" in line
    assert not [p for p in tmp_path.rglob("*.part")]


def test_convert_messages_count_from_1_and_name_the_file(capsys, tmp_path):
    # QA item 21: "sentence 0: discontinuous entity ... as tags", "0: discontinuous entity ... as pipeline output",
    # raw [Errno 21]
    source = tmp_path / "w.json"
    write_corpus(Corpus([["a"], ["a", "b", "c"]], [[], [(((0, 1), (2, 3)), "X")]]), source, "w2ner")
    assert f"{source}, sentence 2: discontinuous entity" in _error(capsys, "convert", source, "--to", "conll", "-o",
                                                                  tmp_path / "x")
    line = _error(capsys, "convert", source, "--to", "pipeline", "-o", tmp_path / "x")
    assert f"{source}, document 2 (id '1'): discontinuous entity" in line
    line = _error(capsys, "nested", "--gold", tmp_path, "--gold-format", "text", "--pred", source)
    assert line.endswith(f"error: {tmp_path}: Is a directory"), line


def test_document_markers_are_refused_from_a_pipe_too(capsys, tmp_path):
    # a pipe is read once: the -DOCSTART- check reads the text the reader read (it read the path again)
    read, write = os.pipe()
    os.write(write, b"-DOCSTART- O\n\nEU B-ORG\n")
    os.close(write)
    try:
        line = _error(capsys, "convert", f"/dev/fd/{read}", "--to", "text", "-o", tmp_path / "t.jsonl")
    finally:
        os.close(read)
    assert f"/dev/fd/{read}, line 1: a -DOCSTART- line" in line and not (tmp_path / "t.jsonl").exists()
