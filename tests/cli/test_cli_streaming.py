"""The commands stream their files: counts of many small batches equal one call on the whole file, and
bad input anywhere is one line on stderr naming file and line, never a traceback."""
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nested_span_f1 import count_exact, score_exact
from nested_span_f1.align import join_tokens
from nested_span_f1.cli.commands import batches
from nested_span_f1.cli.commands import score as score_command
from nested_span_f1.cli.commands.conlleval import _splitter as conlleval_splitter
from nested_span_f1.cli.commands.nested import score_corpora
from nested_span_f1.cli.main import main
from nested_span_f1.core.wording import quote
from nested_span_f1.flat.schemes import CONLLEVAL_DEFAULT
from nested_span_f1.formats import FORMATS, align, read_batches, read_corpus, registry, write_corpus
from nested_span_f1.formats import columns as conll
from nested_span_f1.formats.columns import read_blocks, read_columns, read_sentences
from nested_span_f1.lenient.score import score_lenient
from nested_span_f1.nested.score import describe_spans
from nested_span_f1.render.tables import conlleval_text

SAMPLES = Path(conll.__file__).resolve().parents[1] / "sample_data"
BOM = "\ufeff"


def _run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _cli(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "nested_span_f1.cli", *map(str, args)],
                          capture_output=True, timeout=120, check=False, **kwargs)


@pytest.fixture
def small_batches(monkeypatch):
    """Batches of a few tokens, chunks of a few characters: every file is read in many pieces."""
    monkeypatch.setattr(batches, "BATCH_TOKENS", 7)
    monkeypatch.setattr(conll, "CHUNK", 40)
    monkeypatch.setattr(registry, "BATCH_LINES", 2)


def _tagged(seed=0, n=60):
    """Seeded tag sentences with every kind of error, I- starts (invalid in IOB2) included."""
    rng = random.Random(seed)
    gold, pred = [], []
    for _ in range(n):
        size = rng.randint(1, 9)
        g = [rng.choice(["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC"]) for _ in range(size)]
        gold.append(g)
        pred.append([t if rng.random() < 0.7 else rng.choice(["O", "B-PER", "I-LOC", "B-ORG"]) for t in g])
    return gold, pred


def _write_columns(path, sentences, tokens):
    path.write_text("".join("".join(f"{w} {t}\n" for w, t in zip(ws, s)) + "\n" for ws, s in zip(tokens, sentences)))


def test_conlleval_in_batches_prints_the_one_shot_report(capsys, monkeypatch, small_batches, tmp_path):
    gold, pred = _tagged()
    text = "".join("".join(f"w{i} NN {g} {p}\n" for i, (g, p) in enumerate(zip(gs, ps))) + "\n"
                   for gs, ps in zip(gold, pred))
    expected = conlleval_text(count_exact(pred, gold, default_rules=CONLLEVAL_DEFAULT))
    path = tmp_path / "in.txt"
    path.write_text(text)
    with path.open("rb") as handle:
        monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"buffer": handle})())
        assert _run(capsys, "conlleval") == (0, expected, "")
    assert expected.startswith("processed 287 tokens with 161 phrases; found: 173 phrases; correct: 110.")


def test_score_in_batches_equals_one_shot_with_invalid_chunk_notes(capsys, small_batches, tmp_path):
    gold, pred = _tagged(1)
    tokens = [[f"w{i}" for i in range(len(s))] for s in gold]
    _write_columns(tmp_path / "gold.txt", gold, tokens)
    _write_columns(tmp_path / "pred.txt", pred, tokens)
    code, out, err = _run(capsys, "score", "--gold", tmp_path / "gold.txt", "--pred", tmp_path / "pred.txt",
                          "--scheme", "IOB2", "--json")
    assert (code, err) == (0, "")
    expected = score_exact(pred, gold, scheme="IOB2", zero_division=0)
    assert json.loads(out) == expected
    assert (expected["invalid_predicted_chunks"], expected["invalid_reference_chunks"]) == (65, 72)


def test_nested_in_batches_equals_one_shot_in_order_or_not(capsys, small_batches, tmp_path):
    gold = read_corpus(SAMPLES / "nested.gold.jsonl")
    pred = read_corpus(SAMPLES / "nested.pred.jsonl")
    expected = {"test_set": {**describe_spans(gold.spans(), gold.lengths), "discontinuous": 0},
                **score_corpora(gold, align(gold, pred))}
    code, out, err = _run(capsys, "nested", "--gold", SAMPLES / "nested.gold.jsonl",
                          "--pred", SAMPLES / "nested.pred.jsonl", "--json")
    assert (code, err, json.loads(out)) == (0, "", expected)
    shuffled = tmp_path / "pred.jsonl"
    lines = (SAMPLES / "nested.pred.jsonl").read_text().splitlines(keepends=True)
    shuffled.write_text("".join(lines[::-1]))
    code, out, err = _run(capsys, "nested", "--gold", SAMPLES / "nested.gold.jsonl", "--pred", shuffled, "--json")
    assert (code, err, json.loads(out)) == (0, "", expected)
    assert expected["test_set"]["sentences"] == 6


def test_nested_reads_a_pipe_once_even_when_its_ids_are_out_of_order():
    gold = read_corpus(SAMPLES / "nested.gold.jsonl")
    expected = {"test_set": {**describe_spans(gold.spans(), gold.lengths), "discontinuous": 0},
                **score_corpora(gold, align(gold, read_corpus(SAMPLES / "nested.pred.jsonl")))}
    lines = (SAMPLES / "nested.pred.jsonl").read_text().splitlines(keepends=True)
    done = _cli("nested", "--gold", SAMPLES / "nested.gold.jsonl", "--pred", "/dev/stdin", "--json",
                input="".join(lines[::-1]).encode())
    assert (done.returncode, done.stderr, json.loads(done.stdout)) == (0, b"", expected)


def test_a_bad_tag_in_a_later_batch_is_named_by_file_and_line(capsys, small_batches, tmp_path):
    gold, pred = _tagged(2)
    tokens = [[f"w{i}" for i in range(len(s))] for s in gold]
    k = next(s for s in range(40, 60) if len(gold[s]) > 1)
    pred[k][1] = "X-PER"
    _write_columns(tmp_path / "gold.txt", gold, tokens)
    _write_columns(tmp_path / "pred.txt", pred, tokens)
    line = sum(len(s) + 1 for s in gold[:k]) + 2
    code, out, err = _run(capsys, "score", "--gold", tmp_path / "gold.txt", "--pred", tmp_path / "pred.txt")
    assert (code, out) == (2, "")
    assert err == (f"nested-span-f1 score: error: predictions, sentence {k + 1}, token 2 ({tmp_path / 'pred.txt'} line "
                   f"{line}): tag 'X-PER': malformed: no valid prefix: tags are O or B-TYPE with a prefix among "
                   "O, B, I, E, S, U, L, M\n")


@pytest.mark.parametrize("missing", [24, 57])
def test_a_sentence_missing_from_the_predictions_is_named_in_any_batch(capsys, small_batches, tmp_path, missing):
    """The first sentence where the files differ is named by its number in the whole file, also when it lies
    in the last batch, where the predictions run out of sentences."""
    gold, pred = _tagged(8)
    tokens = [[f"w{s}.{i}" for i in range(len(sentence))] for s, sentence in enumerate(gold)]
    _write_columns(tmp_path / "gold.txt", gold, tokens)
    _write_columns(tmp_path / "pred.txt", pred[:missing] + pred[missing + 1:], tokens[:missing] + tokens[missing + 1:])
    line = sum(len(s) + 1 for s in gold[:missing]) + 1
    code, out, err = _run(capsys, "score", "--gold", tmp_path / "gold.txt", "--pred", tmp_path / "pred.txt")
    assert (code, out) == (2, "")
    assert err == (f"nested-span-f1 score: error: files do not align at sentence {missing + 1}, token 1: "
                   f"{tmp_path / 'gold.txt'} line {line} has 'w{missing}.0' but {tmp_path / 'pred.txt'} line {line} "
                   f"has 'w{missing + 1}.0'\n")


@pytest.mark.parametrize("command", ["nested", "benchmark"])
def test_a_bad_span_is_named_by_file_line_and_its_place_counted_from_1(capsys, tmp_path, command):
    """Counted from 1 once: the file reader names the line, and the command adds nothing to it."""
    sentence = {"tokens": ["a", "b", "c"], "entity_mentions": [
        {"start": 0, "end": 1, "entity_type": "X"}, {"start": 1, "end": 2, "entity_type": "X"},
        {"start": 2, "end": 5, "entity_type": "X"}]}
    (tmp_path / "pred.jsonl").write_text(json.dumps({"tokens": ["a"], "entity_mentions": []}) + "\n" + json.dumps(sentence) + "\n")
    pred = tmp_path / "pred.jsonl" if command == "nested" else f"p={tmp_path / 'pred.jsonl'}"
    code, out, err = _run(capsys, command, "--gold", tmp_path / "pred.jsonl", "--pred", pred)
    assert (code, out) == (2, "")
    assert err == (f"nested-span-f1 {command}: error: {tmp_path / 'pred.jsonl'}, line 2: span (2, 5, 'X') is out of "
                   "range; spans need 0 <= start < end and end <= 3 (the sentence length) (position 3 in the sentence)\n")


def test_benchmark_names_the_prediction_file_and_warns_in_one_line(capsys, tmp_path):
    gold, pred = _tagged(9, n=8)
    tokens = [[f"w{i}" for i in range(len(s))] for s in gold]
    bad = [list(s) for s in pred]
    bad[3][0] = "PER"
    for name, sentences in (("gold", gold), ("a", pred), ("b", bad)):
        _write_columns(tmp_path / f"{name}.txt", sentences, tokens)
    code, out, err = _run(capsys, "benchmark", "--gold", tmp_path / "gold.txt", "--pred", f"a={tmp_path / 'a.txt'}",
                          "--pred", f"b={tmp_path / 'b.txt'}", "--no-progress")
    assert (code, out) == (2, "")
    assert err == (f"nested-span-f1 benchmark: error: {tmp_path / 'b.txt'}, sentence 4, token 1: tag 'PER': malformed: "
                   "no valid prefix: tags are O or B-TYPE with a prefix among O, B, I, E, S, U, L, M\n")
    spans = json.dumps({"tokens": ["a", "b"], "entity_mentions": [{"start": 0, "end": 1, "entity_type": "X"}]})
    twice = json.dumps({"tokens": ["a", "b"], "entity_mentions": [{"start": 0, "end": 1, "entity_type": "X"}] * 2})
    (tmp_path / "gold.jsonl").write_text(spans + "\n")
    (tmp_path / "twice.jsonl").write_text(twice + "\n")
    code, out, err = _run(capsys, "benchmark", "--gold", tmp_path / "gold.jsonl", "--pred", f"t={tmp_path / 'twice.jsonl'}",
                          "--no-progress", "--bootstrap", "10")
    assert code == 0 and out.startswith("## Benchmark")
    assert err == ("nested-span-f1 benchmark: warning: removed duplicate spans (same sentence, start, end and label) "
                   "before scoring, counted once each: predicted spans: 1 of t (each system's notes count them)\n")


def test_a_sentence_id_given_twice_is_named(capsys, tmp_path):
    def line(sid):
        return json.dumps({"sent_id": sid, "tokens": ["a"], "entity_mentions": []}) + "\n"

    (tmp_path / "gold.jsonl").write_text(line("s1") + line("s2"))
    (tmp_path / "pred.jsonl").write_text(line("s2") + line("s2"))
    code, out, err = _run(capsys, "nested", "--gold", tmp_path / "gold.jsonl", "--pred", tmp_path / "pred.jsonl")
    assert (code, out) == (2, "")
    assert err == (f"nested-span-f1 nested: error: {tmp_path / 'pred.jsonl'}: sentence id 's2' is given to two "
                   "sentences; sentences are paired by id, so each needs its own\n")


def test_a_long_line_is_cut_in_the_column_count_message(capsys, tmp_path):
    long_line = " ".join(f"w{i}" for i in range(300))
    (tmp_path / "gold.txt").write_text("a O\n" + long_line + "\n")
    code, out, err = _run(capsys, "score", "--gold", tmp_path / "gold.txt", "--pred", tmp_path / "gold.txt")
    assert (code, out) == (2, "")
    assert err == (f"nested-span-f1 score: error: {tmp_path / 'gold.txt'}, line 2: 300 columns where earlier lines "
                   f"have 2: {quote(long_line)}\n")
    assert quote(long_line) == f"'{long_line[:56]}...' (1,389 characters)"


def test_nested_given_tag_columns_points_to_score(capsys):
    code, out, err = _run(capsys, "nested", "--gold", SAMPLES / "sample.gold.conll", "--pred", SAMPLES / "sample.pred.conll")
    assert (code, out) == (2, "")
    assert err.startswith(f"nested-span-f1 nested: error: {SAMPLES / 'sample.gold.conll'}: cannot tell the format; ")
    assert err.endswith(". A file of tag columns (token ... tag) is scored by `nested-span-f1 score` or "
                        "`nested-span-f1 lenient`\n") and err.count("\n") == 1


ROWS = ["", " ", "x y z", "-DOCSTART- O", "-X- O", "t\u00e9 B-X\r", "a  O", "b O ", " c O", "d\tO", "e", "w1 O",
        "w2 B-A", "w3 I-A", "f\u00a0g O", "h\u2028i B-A", "j O\x1c", "\x0bk O"]


@pytest.mark.parametrize(("separator", "boundary", "perl"), [
    (None, "-DOCSTART-", False), (" ", "-DOCSTART-", False), (" ", "-X-", True)], ids=["score", "score-d", "conlleval"])
def test_reading_in_chunks_equals_reading_line_by_line(monkeypatch, separator, boundary, perl):
    """read_sentences splits clean chunks at once: the blocks (or the error) equal read_blocks' on any text."""
    split = conlleval_splitter(re.compile(separator)) if perl else conll._splitter(separator)
    rng = random.Random(4)
    for chunk in (7, 30, 1000):
        monkeypatch.setattr(conll, "CHUNK", chunk)
        for _ in range(400):
            rows = rng.choices(ROWS, weights=[8, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1, 12, 12, 12, 1, 1, 1, 1], k=rng.randint(0, 16))
            text = rng.choice(["", BOM]) + "\n".join(rows) + rng.choice(["", "\n", "\n\n"])
            text = text.replace(" ", "\t") if rng.random() < 0.3 else text
            outcomes = []
            for read in (read_blocks, read_sentences):
                options = {"separator": separator} if read is read_sentences else {}
                try:
                    outcomes.append(list(read(io.StringIO(text), split=split, boundary=boundary, name="f", **options)))
                except ValueError as error:
                    outcomes.append(str(error))
            assert outcomes[0] == outcomes[1], repr(text)


def test_unicode_whitespace_stays_inside_a_token_as_for_conlleval(capsys, tmp_path):
    # QA item 7: a column file's fields split at ASCII whitespace, conlleval.pl's \s (Perl reads bytes); Python's
    # str.split() also split at a no-break space, U+2028 and U+0085, so a token holding one became two fields
    path = tmp_path / "g.conll"
    path.write_text("EU\u00a0x B-ORG\nPe\u2028ter B-PER\nParis\x85\tB-LOC\n\n", encoding="utf-8")
    assert read_columns(path).tokens == [["EU\u00a0x", "Pe\u2028ter", "Paris\x85"]]
    assert main(["score", "--gold", str(path), "--pred", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["overall_f1"] == 1.0
    assert main(["convert", str(path), "--to", "oneie", "-o", str(tmp_path / "t.jsonl")]) == 0
    assert read_corpus(tmp_path / "t.jsonl").tokens == [["EU\u00a0x", "Pe\u2028ter", "Paris\x85"]]


def test_a_byte_order_mark_is_skipped_by_every_reader(tmp_path):
    gold = read_corpus(SAMPLES / "nested.gold.jsonl")
    for name in FORMATS:
        plain, marked = tmp_path / f"plain.{name}", tmp_path / f"marked.{name}"
        # the formats of character offsets write texts: the sentences' tokens joined by spaces
        write_corpus(join_tokens(gold) if FORMATS[name].unit == "characters" else gold, plain, name)
        marked.write_text(BOM + plain.read_text(encoding="utf-8"), encoding="utf-8")
        expected = read_corpus(plain, name)
        for corpus in (read_corpus(marked), read_corpus(marked, name), *read_batches(marked)):
            assert (corpus.format, corpus.tokens, corpus.entities) == (name, expected.tokens, expected.entities)
    columns = (SAMPLES / "sample.gold.conll").read_text()
    (tmp_path / "marked.conll").write_text(BOM + columns)
    assert read_columns(tmp_path / "marked.conll").blocks == read_columns(SAMPLES / "sample.gold.conll").blocks
    assert read_columns([BOM + line for line in columns.splitlines()][:1]).tokens == [["Maria"]]


def test_conlleval_skips_a_byte_order_mark_and_refuses_windows_line_ends():
    done = _cli("conlleval", input=f"{BOM}a B-PER B-PER\nb O O\n".encode())
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.startswith(b"processed 2 tokens with 1 phrases; found: 1 phrases; correct: 1.\n")
    done = _cli("conlleval", input=b"a B-PER B-PER\r\nb O O\r\n")
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr == (b"nested-span-f1 conlleval: error: <stdin>, line 1: the line ends in \\r\\n (Windows line "
                           b"ends), which conlleval.pl reads as part of the last tag; convert the file first "
                           b"(dos2unix, or tr -d '\\r')\n")


def test_conlleval_names_a_windows_line_end_in_the_middle_of_a_file():
    done = _cli("conlleval", input=b"a B-PER B-PER\nb O O\r\nc O O\n")
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == ("nested-span-f1 conlleval: error: predictions, sentence 1, token 2 (<stdin> line 2): "
                                    "tag 'O\\r': malformed: a carriage return at its end (a Windows line end: convert "
                                    "the file, e.g. with dos2unix)\n")


def test_score_reads_windows_line_ends_as_line_ends(capsys, tmp_path):
    for name in ("gold", "pred"):
        text = (SAMPLES / f"sample.{name}.conll").read_text()
        (tmp_path / name).write_bytes(text.replace("\n", "\r\n").encode())
    crlf = _run(capsys, "score", "--gold", tmp_path / "gold", "--pred", tmp_path / "pred", "--json")
    lf = _run(capsys, "score", "--gold", SAMPLES / "sample.gold.conll", "--pred", SAMPLES / "sample.pred.conll", "--json")
    assert crlf == lf and lf[0] == 0


def _error(capsys, *args):
    code, out, err = _run(capsys, *args)
    assert (code, out) == (2, ""), err
    return err


def test_undecodable_bytes_are_named_by_file_and_line(capsys, tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_bytes(b"a O\nb O\n\nc \xff\xfeO\n")
    assert _error(capsys, "score", "--gold", bad, "--pred", bad) == (
        f"nested-span-f1 score: error: {bad}, line 4: bytes b'\\xff\\xfeO\\n' are not UTF-8; save the file as UTF-8\n")
    nested = tmp_path / "bad.jsonl"
    nested.write_bytes(b'{"tokens": ["a"], "entity_mentions": []}\n{"tokens": ["\xe9"], "entity_mentions": []}\n')
    assert _error(capsys, "nested", "--gold", nested, "--pred", nested) == (
        f"nested-span-f1 nested: error: {nested}, line 2: bytes b'\\xe9\"],' are not UTF-8; save the file as UTF-8\n")


@pytest.mark.parametrize(("args", "message"), [
    (["conlleval", "-d", "("], "-d '(' is not a regular expression (missing ), unterminated subpattern at position 0)"),
    (["conlleval", "-d", "x*"], "-d 'x*' matches the empty string, so it cannot split fields; pass a separator such "
                                "as ' ' (the default) or '\\t'"),
    (["score", "--delimiter", "", "--gold", SAMPLES / "sample.gold.conll", "--pred", SAMPLES / "sample.pred.conll"],
     "the column delimiter is empty; pass one (or none, to split on runs of ASCII whitespace)"),
], ids=["conlleval-regex", "conlleval-empty-match", "score-empty"])
def test_an_invalid_delimiter_is_one_line(args, message):
    done = _cli(*args, input=b"a B-PER B-PER\n")
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == f"nested-span-f1 {args[0]}: error: {message}\n"


def test_json_nested_too_deeply_and_a_string_of_tokens_are_one_line(capsys, tmp_path):
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"tokens": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    assert _error(capsys, "nested", "--gold", deep, "--pred", deep) == (
        f"nested-span-f1 nested: error: {deep}, line 1: json nested too deeply for Python's json reader\n")
    assert _error(capsys, "nested", "--gold", deep, "--pred", deep, "--gold-format", "oneie") == (
        f"nested-span-f1 nested: error: {deep}, line 1: json nested too deeply for Python's json reader\n")
    text = tmp_path / "text.jsonl"
    text.write_text('{"tokens": ["a", "b"], "entity_mentions": []}\n{"tokens": "abc", "entity_mentions": []}\n')
    assert _error(capsys, "nested", "--gold", text, "--pred", text, "--gold-format", "oneie") == (
        f"nested-span-f1 nested: error: {text}, line 2: 'tokens' must be a list of token strings, got \"abc\"\n")


def test_closed_stdin_is_one_line():
    done = subprocess.run(f"{sys.executable} -m nested_span_f1.cli conlleval <&-", shell=True, capture_output=True,
                          timeout=120, check=False)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr == b"nested-span-f1 conlleval: error: stdin is closed; pipe the file in: nested-span-f1 " \
                          b"conlleval < output.txt\n"


def test_a_closed_stdout_pipe_ends_quietly():
    """As `| head -1` after its line: the reader has gone when the report is written."""
    child = subprocess.Popen([sys.executable, "-m", "nested_span_f1.cli", "conlleval"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()
    child.stdin.write("".join(f"w B-T{i} B-T{i}\n" for i in range(500)).encode())
    child.stdin.close()
    assert child.wait(timeout=120) == 141
    assert child.stderr.read() == b""


def _gold_breaks_the_scheme(result):
    """The warning ``score --mode strict`` gives when gold chunks break the scheme detected from the gold."""
    broken = result["invalid_reference_chunks"]
    assert broken > 0  # the random gold holds I- starts
    return (f"nested-span-f1 score: warning: {broken} gold chunks break the scheme detected from the gold and strict "
            "mode drops them; check that it is the scheme the gold tags use\n")


def test_strict_mode_detecting_its_scheme_equals_one_shot(capsys, small_batches, tmp_path):
    gold, pred = _tagged(5)
    gold[50][0] = "E-PER"  # a late tag that changes the detected scheme (B, I, O and E: IOBES)
    tokens = [[f"w{i}" for i in range(len(s))] for s in gold]
    _write_columns(tmp_path / "gold.txt", gold, tokens)
    _write_columns(tmp_path / "pred.txt", pred, tokens)
    code, out, err = _run(capsys, "score", "--gold", tmp_path / "gold.txt", "--pred", tmp_path / "pred.txt",
                          "--mode", "strict", "--json")
    expected = score_exact(pred, gold, mode="strict", zero_division=0)
    assert (code, err, json.loads(out)) == (0, _gold_breaks_the_scheme(expected), expected)


def test_strict_mode_without_a_scheme_streams_after_a_first_pass_over_the_gold(capsys, monkeypatch, small_batches,
                                                                              tmp_path):
    gold, pred = _tagged(5)
    gold[50][0] = "E-PER"
    tokens = [[f"w{i}" for i in range(len(s))] for s in gold]
    _write_columns(tmp_path / "gold.txt", gold, tokens)
    _write_columns(tmp_path / "pred.txt", pred, tokens)
    calls = []

    def counted(*args, **kwargs):
        calls.append(kwargs["scheme"])
        return count_exact(*args, **kwargs)

    monkeypatch.setattr(score_command, "count_exact", counted)
    code, out, err = _run(capsys, "score", "--gold", tmp_path / "gold.txt", "--pred", tmp_path / "pred.txt",
                          "--mode", "strict", "--json")
    expected = score_exact(pred, gold, mode="strict", zero_division=0)
    assert (code, err, json.loads(out)) == (0, _gold_breaks_the_scheme(expected), expected)
    # many batches, each with the scheme seqeval detects from all of the gold's prefixes (I, O, B and E)
    assert len(calls) > 10 and set(calls) == {"IOBES"}


def test_strict_mode_without_a_scheme_reads_a_gold_pipe_whole(tmp_path):
    gold, pred = _tagged(5)
    tokens = [[f"w{i}" for i in range(len(s))] for s in gold]
    _write_columns(tmp_path / "gold.txt", gold, tokens)
    _write_columns(tmp_path / "pred.txt", pred, tokens)
    # a pipe cannot be read twice: the scheme is detected from the whole of it, as before any first pass
    done = _cli("score", "--gold", "/dev/stdin", "--pred", tmp_path / "pred.txt", "--mode", "strict", "--json",
                input=(tmp_path / "gold.txt").read_bytes())
    expected = score_exact(pred, gold, mode="strict", zero_division=0)
    assert (done.returncode, done.stderr.decode(), json.loads(done.stdout)) == (0, _gold_breaks_the_scheme(expected),
                                                                               expected)


@pytest.mark.parametrize("command", ["lenient", "benchmark"])
def test_lenient_and_benchmark_read_a_gold_pipe_once(command, tmp_path):
    """They detect the format from the text read, then parse that text: a pipe is not read a second time."""
    gold, pred = _tagged(7)
    tokens = [[f"w{i}" for i in range(len(s))] for s in gold]
    _write_columns(tmp_path / "gold.txt", gold, tokens)
    _write_columns(tmp_path / "pred.txt", pred, tokens)
    if command == "lenient":
        args = ("--pred", tmp_path / "pred.txt", "--json")
    else:
        args = ("--pred", f"p={tmp_path / 'pred.txt'}", "--bootstrap", "20", "--json")
    from_files = _cli(command, "--gold", tmp_path / "gold.txt", *args)
    piped = _cli(command, "--gold", "/dev/stdin", *args, input=(tmp_path / "gold.txt").read_bytes())
    assert (piped.returncode, from_files.returncode) == (0, 0)
    if command == "lenient":
        assert json.loads(piped.stdout) == json.loads(from_files.stdout) == score_lenient(pred, gold, zero_division=0)
    else:
        system = json.loads(piped.stdout)["systems"][0]
        assert json.loads(from_files.stdout)["systems"][0]["f1"] == system["f1"]
        assert system["f1"]["value"] == score_exact(pred, gold, zero_division=0)["overall_f1"]


def test_strict_mode_with_no_scheme_to_detect_names_the_problem_in_one_line(capsys, small_batches, tmp_path):
    gold = [["I-PER", "O"], ["O", "I-LOC"]]  # I and O alone: seqeval detects no scheme
    tokens = [["a", "b"], ["c", "d"]]
    _write_columns(tmp_path / "gold.txt", gold, tokens)
    _write_columns(tmp_path / "pred.txt", gold, tokens)
    code, out, err = _run(capsys, "score", "--gold", tmp_path / "gold.txt", "--pred", tmp_path / "pred.txt",
                          "--mode", "strict")
    assert (code, out) == (2, "")
    assert err == ("nested-span-f1 score: error: strict mode needs a scheme: the reference prefixes (O, I) are none "
                   "of the sets seqeval detects IOB2, IOE2, IOBES or BILOU from, or BMES from its M; pass the scheme the tags "
                   "use "
                   "(scheme= in Python, --scheme on the command line): IOB2, IOB1, IOE1, IOE2, IOBES, BILOU, BMES or IO\n")


def test_files_of_different_lengths_are_one_line(capsys, small_batches, tmp_path):
    gold, pred = _tagged(6, n=30)
    tokens = [[f"w{i}" for i in range(len(s))] for s in gold]
    _write_columns(tmp_path / "gold.txt", gold, tokens)
    _write_columns(tmp_path / "pred.txt", pred[:-1], tokens[:-1])
    assert _error(capsys, "score", "--gold", tmp_path / "gold.txt", "--pred", tmp_path / "pred.txt") == (
        f"nested-span-f1 score: error: {tmp_path / 'gold.txt'} has more sentences than {tmp_path / 'pred.txt'}, "
        "which ends after 29 sentences; they must align sentence by sentence\n")
    short = tmp_path / "pred.jsonl"
    short.write_text("".join((SAMPLES / "nested.pred.jsonl").read_text().splitlines(keepends=True)[:5]))
    gold_path = SAMPLES / "nested.gold.jsonl"
    assert _error(capsys, "nested", "--gold", gold_path, "--pred", short) == (
        f"nested-span-f1 nested: error: {short}: no prediction for sentence id 's6' (1 gold sentence missing)\n")


def test_read_batches_reports_the_bytes_of_each_batch(tmp_path):
    """What the nested command's progress bar counts: every batch's bytes, the whole file by the end."""
    gold = read_corpus(SAMPLES / "nested.gold.jsonl")
    for name, lines, batches_read in (("oneie", 2, 3), ("shibuya", 3, 6), ("triaffine", 1, 1)):
        path = tmp_path / f"gold.{name}"
        write_corpus(gold, path, name)
        sizes = []
        corpora = list(read_batches(path, lines=lines, progress=sizes.append))
        assert (len(sizes), len(corpora), sum(sizes)) == (batches_read, batches_read, path.stat().st_size), name
