"""The CLI as a new user meets it: --help and --version, messages that count from 1, missing extras,
format names and aliases, the lenient command and the progress bar."""
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from nested_span_f1 import __version__, score_lenient, tags_to_spans
from nested_span_f1.align import join_tokens
from nested_span_f1.cli.commands import inputs
from nested_span_f1.cli.commands.inputs import read_delimiter
from nested_span_f1.cli.main import COMMANDS, main
from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.formats import ALIASES, FORMATS, Corpus, get_format, read_corpus, write_corpus
from nested_span_f1.formats.columns import read_columns

SAMPLES = Path(inputs.__file__).resolve().parents[2] / "sample_data"


def _cli(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "nested_span_f1.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=120, check=False, **kwargs)


def _run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_has_a_description_and_an_example(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    _usage, example, description = text.split("\n\n")[:3]  # the example first (tests/cli/test_help.py runs it)
    assert len(description.split()) >= 10, description
    assert example.startswith("example") and f"nested-span-f1 {command}" in example


def test_version():
    done = _cli("--version")
    assert (done.returncode, done.stdout) == (0, f"nested-span-f1 {__version__}\n")


def test_missing_plots_extra_is_one_line(tmp_path):
    code = (f"import sys; sys.modules['matplotlib'] = None; from nested_span_f1.cli.main import main; "
            f"sys.exit(main(['score', '--gold', {str(SAMPLES / 'sample.gold.conll')!r}, "
            f"'--pred', {str(SAMPLES / 'sample.pred.conll')!r}, '--plot', {str(tmp_path / 'p.png')!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (2, "")  # refused before any scoring is printed
    assert done.stderr == ('nested-span-f1 score: error: this needs matplotlib; install it in the clone with '
                           'python -m pip install ".[plots]"\n')


def test_a_plot_file_of_another_type_is_refused_before_scoring(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    code = main(["score", "--gold", str(SAMPLES / "sample.gold.conll"), "--pred", str(SAMPLES / "sample.pred.conll"),
                 "--plot", str(tmp_path / "p.txt")])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == f"nested-span-f1 score: error: --plot {tmp_path / 'p.txt'}: a plot is written as .png, .svg or .pdf\n"


def test_columns_count_from_one(capsys):
    gold, pred = SAMPLES / "sample.gold.conll", SAMPLES / "sample.pred.conll"
    for column, message in (("1", "column 1 holds the tokens"), ("0", "columns count from 1 (the token)")):
        with pytest.raises(SystemExit):
            main(["score", "--gold", str(gold), "--pred", str(pred), "--column", column])
        assert message in capsys.readouterr().err
    code, out, err = _run(capsys, "score", "--gold", gold, "--pred", pred, "--column", "2", "--json")
    assert (code, json.loads(out)["tp"]) == (0, 20)
    code, _, err = _run(capsys, "score", "--gold", gold, "--pred", pred, "--column", "3")
    assert code == 2 and "--column 3 is beyond the file's 2 columns" in err


def test_messages_count_sentences_tokens_and_lines_from_one(tmp_path, capsys):
    gold, pred = tmp_path / "gold.conll", tmp_path / "pred.conll"
    gold.write_text("a\tO\n\nb\tO\nc\tB-PER\n")
    pred.write_text("a\tO\n\nb\tO\nc\tPER\n")
    code, _, err = _run(capsys, "score", "--gold", gold, "--pred", pred)
    # the second sentence's second token, on line 4 of the prediction file
    assert code == 2 and f"predictions, sentence 2, token 2 ({pred} line 4): tag 'PER'" in err
    pred.write_text("a\tO\n\nb\tO\nd\tB-PER\n")
    code, _, err = _run(capsys, "lenient", "--gold", gold, "--pred", pred)
    assert err == (f"nested-span-f1 lenient: error: files do not align at sentence 2, token 2: {gold} line 4 "
                   f"has 'c' but {pred} line 4 has 'd'\n")


@pytest.mark.parametrize("name", [*FORMATS, *ALIASES])
def test_every_format_name_and_alias_works_on_the_command_line(name, tmp_path, capsys):
    gold = read_corpus(SAMPLES / "nested.gold.jsonl")
    if get_format(name).unit == "characters":
        gold = join_tokens(gold)
    path = tmp_path / "gold.txt"
    write_corpus(gold, path, name)
    code, out, err = _run(capsys, "nested", "--gold", path, "--pred", path, "--gold-format", name,
                          "--pred-format", name.upper(), "--json")
    assert code == 0, err
    result = json.loads(out)
    assert (result["tp"], result["fp"], result["fn"], result["test_set"]["entities"]) == (14, 0, 0, 14)


def test_formats_lists_every_format_with_its_tools_and_an_example(capsys):
    code, out, _ = _run(capsys, "formats")
    assert code == 0
    for name, fmt in FORMATS.items():
        assert f"\n{name}" in out and f"written by: {fmt.used_by}" in out
        assert fmt.example().splitlines()[0] in out
    assert "oneie (also: jsonl, cnn_nested_ner)" in out


def test_unknown_or_undetected_format_lists_the_names(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["nested", "--gold", "x", "--pred", "x", "--gold-format", "conll2003"])
    assert "unknown format 'conll2003'; choose one of oneie, " in capsys.readouterr().err
    junk = tmp_path / "junk.txt"
    junk.write_text("not a corpus\n")
    code, _, err = _run(capsys, "nested", "--gold", junk, "--pred", junk)
    assert code == 2 and "cannot tell the format; pass it explicitly, one of: oneie: CNN_Nested_NER, OneIE (jsonl), " \
        "ends exclusive; triaffine: " in err


def test_lenient_equals_score_lenient_on_conll2003(shared_data, capsys):
    folder = shared_data / "conll2003"
    gold, pred = folder / "test.gold.conll", folder / "test.flair.conll"
    code, out, err = _run(capsys, "lenient", "--gold", gold, "--pred", pred, "--json")
    assert code == 0, err
    expected = score_lenient(read_columns(pred).column(), read_columns(gold).column())
    assert json.loads(out) == expected
    assert (expected["strict_correct"], expected["boundary_error"]) == (5270, 56)
    code, out, _ = _run(capsys, "lenient", "--gold", gold, "--pred", pred)
    assert "errors: correct=5270  type_error=180  boundary_error=56  boundary_type_error=56  missed=86  spurious=120" in out


def test_lenient_on_span_files_and_columns_against_spans(tmp_path, capsys):
    gold, pred = SAMPLES / "nested.gold.jsonl", SAMPLES / "nested.pred.jsonl"
    code, out, err = _run(capsys, "lenient", "--gold", gold, "--pred", pred, "--json")
    assert (code, err) == (0, "")
    result = json.loads(out)
    with pytest.warns(DuplicateSpanWarning, match="removed 1 duplicate predicted"):
        expected = score_lenient(read_corpus(pred).spans(), read_corpus(gold).spans(), zero_division=0)
    assert result == expected and result["duplicate_predictions"] == 1
    # a column gold file against predictions written as spans
    gold_columns, pred_columns = read_columns(SAMPLES / "sample.gold.conll"), read_columns(SAMPLES / "sample.pred.conll")
    spans = tmp_path / "pred.json"
    write_corpus(Corpus(pred_columns.tokens, tags_to_spans(pred_columns.column())), spans, "triaffine")
    code, out, err = _run(capsys, "lenient", "--gold", SAMPLES / "sample.gold.conll", "--pred", spans, "--json")
    assert code == 0, err
    result = json.loads(out)
    expected = score_lenient(pred_columns.column(), gold_columns.column(), zero_division=0)
    for key in ("strict_f1", "partial_f1", "type_f1", "type_error", "boundary_error", "missed", "spurious"):
        assert result[key] == expected[key], key
    assert result["strict_correct"] == 20


def test_progress_bar_on_a_terminal_for_large_files(tmp_path, monkeypatch):
    monkeypatch.setattr(inputs, "LARGE_FILE", 100_000)  # the threshold, lowered to keep the test fast
    small, big = tmp_path / "small.conll", tmp_path / "big.conll"
    line = "token\tB-PER\n"
    small.write_text(line)
    big.write_text(line * (200_000 // len(line)))
    size = big.stat().st_size
    assert inputs.progress(str(big)).disable  # stderr is not a terminal under pytest
    master, slave = pty.openpty()
    with os.fdopen(slave, "w") as terminal:
        monkeypatch.setattr(sys, "stderr", terminal)
        assert inputs.progress(str(small)).disable
        with inputs.progress(str(big)) as bar:
            assert not bar.disable and bar.total == size
        read = inputs.read_column_file(str(big))  # through the progress bar's line counter
    os.close(master)
    assert read == read_columns(big)
    assert read.name == str(big) and len(read.tokens[0]) == size // len(line)


@pytest.mark.parametrize(("argv", "message"), [
    (["score", "--gold", "g", "--pred", "p", "--scheme", "XYZ"],
     "nested-span-f1 score: error: argument --scheme: invalid choice: 'XYZ' (choose from 'BILOU', 'BMES', 'IO', "
     "'IOB1', 'IOB2', 'IOBES', 'IOE1', 'IOE2') (see nested-span-f1 score --help)\n"),
    (["score"], "nested-span-f1 score: error: the following arguments are required: --gold, --pred "
                "(see nested-span-f1 score --help)\n"),
    (["nosuch"], "nested-span-f1: error: argument command: invalid choice: 'nosuch' (choose from 'demo', 'score', "
                 "'conlleval', 'nested', 'lenient', 'answers', 'thresholds', 'benchmark', 'agreement', 'table', "
                 "'space', 'convert', 'formats') (see nested-span-f1 --help)\n"),
], ids=["bad-choice", "missing-option", "unknown-command"])
def test_a_bad_command_line_is_one_line_and_status_2(argv, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert capsys.readouterr().err == message


def test_conlleval_given_a_file_argument_says_it_reads_stdin(capsys):
    code = main(["conlleval", "output.txt"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == ("nested-span-f1 conlleval: error: conlleval reads standard input, as conlleval.pl does: "
                   "nested-span-f1 conlleval < output.txt\n")


def test_strict_mode_with_a_scheme_the_gold_breaks_warns(capsys):
    gold, pred = SAMPLES / "sample.gold.conll", SAMPLES / "sample.pred.conll"
    code = main(["score", "--gold", str(gold), "--pred", str(pred), "--mode", "strict", "--scheme", "IOBES", "--json"])
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert code == 0 and result["overall_f1"] == 0.0 and result["invalid_reference_chunks"] == 28
    assert err == ("nested-span-f1 score: warning: 28 gold chunks break scheme IOBES and strict mode drops them; "
                   "check that it is the scheme the gold tags use\n")


@pytest.mark.parametrize("command", ["score", "lenient"])
def test_a_file_of_one_column_is_named_as_such(capsys, tmp_path, command):
    (tmp_path / "tags.txt").write_text("B-PER\nI-PER\n\nO\n")
    code = main([command, "--gold", str(SAMPLES / "sample.gold.conll"), "--pred", str(tmp_path / "tags.txt")])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == (f"nested-span-f1 {command}: error: {tmp_path / 'tags.txt'}: one column (line 1); each line holds "
                   "a token, then its tag, split by whitespace (or by --delimiter)\n")


@pytest.mark.parametrize(("typed", "delimiter"), [
    ("\\t", "\t"), ("\t", "\t"), ("\\x09", "\t"), ("\\|", "|"), ("|", "|"), ("\\\\", "\\"), (" ||| ", " ||| "),
    (";\\t", ";\t"), ("", ""),
])
def test_a_delimiter_is_spelled_as_conlleval_takes_it(typed, delimiter):
    assert read_delimiter(typed) == delimiter


@pytest.mark.parametrize("typed", ["\\s", "\\s+", "\\d", "\\1", "a\\"])
def test_a_delimiter_that_is_no_fixed_text_is_refused(typed):
    with pytest.raises(ValueError, match="stands for no one character; a delimiter is fixed text"):
        read_delimiter(typed)
