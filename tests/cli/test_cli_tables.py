"""score, lenient and nested on a Parquet table (--gold-column, --pred-column, --workers): the Python API's numbers,
and bad input in one line naming the file and the row (counted from 1)."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import tables

from nested_span_f1 import Corpus, score_exact, score_lenient, score_nested
from nested_span_f1.cli.commands.tables import header
from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.nested.score import describe_spans


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nested_span_f1.cli", *args], capture_output=True, text=True,
                          timeout=300, check=False)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    data = tables.random_corpus(seed=11, sentences=400)
    folder = tmp_path_factory.mktemp("cli") / "corpus"
    folder.mkdir()
    table = tables.table(data)
    pq.write_table(table.slice(0, 150), folder / "part-0.parquet", row_group_size=40)
    pq.write_table(table.slice(150), folder / "part-1.parquet", row_group_size=40)
    return data, table, folder


def test_score_parquet_folder_with_two_workers(corpus):
    data, _, folder = corpus
    out = _cli("score", "--gold", str(folder), "--pred", str(folder), "--gold-column", "gold_tags",
               "--pred-column", "pred_tags", "--workers", "2", "--mode", "strict", "--scheme", "IOBES", "--json")
    assert out.returncode == 0, out.stderr
    expected = score_exact(data["pred_tags"], data["gold_tags"], mode="strict", scheme="IOBES", zero_division=0)
    assert json.loads(out.stdout) == expected
    text = _cli("score", "--gold", str(folder), "--pred", str(folder), "--gold-column", "gold_tags",
                "--pred-column", "pred_tags")
    assert text.stdout.startswith(f"{folder}: column pred_tags against column gold_tags: 400 rows\n\n")


def test_lenient_and_nested_on_span_columns(corpus):
    data, _, folder = corpus
    columns = ("--gold", str(folder), "--pred", str(folder), "--gold-column", "gold", "--pred-column", "pred",
               "--lengths-column", "tokens", "--workers", "2")
    out = _cli("nested", *columns, "--json")
    assert out.returncode == 0, out.stderr
    with pytest.warns(DuplicateSpanWarning):  # the command counts the duplicates in its output instead
        expected = score_nested(data["pred"], data["gold"], lengths=data["lengths"], zero_division=0)
    # the test set's size as a file of the same sentences gives it, but spans with several labels (not counted)
    gold = Corpus([["w"] * n for n in data["lengths"]], data["gold"])
    size = {**describe_spans(gold.spans(), gold.lengths), "discontinuous": 0}
    assert size.pop("multi_label_spans") > 0 and size["duplicates"] > 0 and size["max_depth"] > 1
    assert json.loads(out.stdout) == {"test_set": size, **expected} and expected["duplicate_predictions"] > 0
    out = _cli("lenient", *columns, "--partial-weight", "0.25", "--json")
    assert out.returncode == 0, out.stderr
    with pytest.warns(DuplicateSpanWarning):
        assert json.loads(out.stdout) == score_lenient(data["pred"], data["gold"], partial_weight=0.25,
                                                       zero_division=0)
    text = _cli("nested", *columns)
    assert text.stdout.splitlines()[:3] == [
        f"{folder}: column pred against column gold: 400 rows",
        f"test set: 400 sentences, {sum(data['lengths']):,} tokens, {size['entities']:,} entities (0 discontinuous), "
        f"{100 * size['nested_share']:.1f}% nested, max depth {size['max_depth']}",
        f"found: duplicates {expected['duplicate_references']} gold / {expected['duplicate_predictions']} predicted; "
        f"crossing pairs {expected['crossing_references']} gold / {expected['crossing_predictions']} predicted; "
        "discontinuous 0 gold / 0 predicted",
    ]
    assert text.stderr == ""


def test_bad_input_is_one_line_naming_file_and_row(corpus, tmp_path):
    data, table, _ = corpus
    gold = [list(s) for s in data["gold"]]
    gold[230] = [(0, 99, "A")]
    column = pa.array([[{"start": b, "end": e, "label": lab} for b, e, lab in s] for s in gold], pa.list_(tables.SPAN))
    path = tmp_path / "bad.parquet"
    pq.write_table(table.set_column(table.schema.get_field_index("gold"), "gold", column), path, row_group_size=100)
    out = _cli("nested", "--gold", str(path), "--pred", str(path), "--gold-column", "gold", "--pred-column", "pred",
               "--lengths-column", "tokens", "--workers", "2")
    assert out.returncode == 2 and out.stdout == ""
    length = data["lengths"][230]
    assert out.stderr == (
        f"nested-span-f1 nested: error: {path}: references, sentence 231: span {{'start': 0, 'end': 99, 'label': 'A'}}"
        f" is out of range; spans need 0 <= start < end and end <= {length} (the sentence length) "
        "(position 1 in the sentence)\n")


@pytest.mark.parametrize("args, message", [
    (["--workers", "2"], "--workers applies to Parquet input"),
    (["--workers", "2", "--label-list", "labels.txt"], "--workers and --label-list apply to Parquet input"),
    (["--workers", "0"], "--workers takes a number of processes, 1 or more; got '0'"),
])
def test_options_of_parquet_input(tmp_path, args, message):
    gold = tmp_path / "gold.conll"
    gold.write_text("EU B-ORG\n")
    out = _cli("score", "--gold", str(gold), "--pred", str(gold), *args)
    assert out.returncode == 2 and message in out.stderr and len(out.stderr.splitlines()) == 1


def test_both_sides_are_one_table(corpus, tmp_path):
    _, _, folder = corpus
    other = tmp_path / "pred.conll"
    other.write_text("EU B-ORG\n")
    out = _cli("score", "--gold", str(folder), "--pred", str(other))
    assert out.returncode == 2
    assert out.stderr == (f"nested-span-f1 score: error: {folder} is a Parquet table, which holds both sides: pass it "
                          "to --pred too (the columns are named by --gold-column and --pred-column)\n")


def test_nested_test_set_of_character_spans_counts_characters(tmp_path):
    path = tmp_path / "texts.parquet"
    spans = pa.array([[{"start": 0, "end": 5, "label": "PER"}, {"start": 0, "end": 11, "label": "ORG"}], []],
                     pa.list_(tables.SPAN))
    pq.write_table(pa.table({"text": ["Maria Keller", "Ann"], "gold": spans, "pred": spans}), path)
    out = _cli("nested", "--gold", str(path), "--pred", str(path), "--gold-column", "gold", "--pred-column", "pred",
               "--lengths-column", "text", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["test_set"] == {
        "sentences": 2, "characters": 15, "entities": 2, "duplicates": 0, "nested": 2, "nested_share": 1.0,
        "max_depth": 2, "crossing_pairs": 0, "discontinuous": 0}


def test_the_header_counts_rows_in_words():
    """QA item 17: a one-row table said "1 rows"."""
    args = argparse.Namespace(gold="t.parquet", pred_column="pred", gold_column="gold")
    assert header(args, 1) == "t.parquet: column pred against column gold: 1 row\n"
    assert header(args, 2) == "t.parquet: column pred against column gold: 2 rows\n"
