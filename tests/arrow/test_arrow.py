"""The Arrow path equals the single-process API, every key, with 1 and 2 processes, on real and random corpora;
its errors are the single-process API's, naming the file and the row."""
from __future__ import annotations

import pickle
import warnings

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import tables

from nested_span_f1 import count_exact, score_exact, score_lenient, score_nested
from nested_span_f1.arrow import count_arrow, score_arrow
from nested_span_f1.arrow.sources import TablePart
from nested_span_f1.core.matching import DuplicateSpanWarning


def write_parts(table, folder, files=3, row_group_size=97):
    """``table`` as a folder of Parquet files with small row groups, one file empty, plus Spark's _SUCCESS marker."""
    folder.mkdir()
    cut = [table.num_rows * k // files for k in range(files + 1)]
    for k in range(files):
        pq.write_table(table.slice(cut[k], cut[k + 1] - cut[k]), folder / f"part-{k}.parquet",
                       row_group_size=row_group_size)
    pq.write_table(table.slice(0, 0), folder / f"part-{files}.parquet")
    (folder / "_SUCCESS").write_text("")
    return folder


@pytest.fixture(scope="module")
def conll(shared_data, tmp_path_factory):
    sides = tables.conll2003(shared_data)
    table = pa.table({name: pa.array(tags, pa.list_(pa.string())) for name, tags in sides.items()})
    return sides, table, write_parts(table, tmp_path_factory.mktemp("conll") / "parquet", row_group_size=500)


@pytest.mark.parametrize("system, f1", [("elmo", 92.22), ("flair", 93.03)])
def test_conll2003_systems_equal_score_exact(conll, system, f1):
    sides, table, folder = conll
    expected = score_exact(sides[system], sides["gold"])
    assert round(100 * expected["overall_f1"], 2) == f1
    assert score_arrow(table, predictions=system, references="gold") == expected
    assert score_arrow(folder, predictions=system, references="gold", num_proc=2, batch_size=300) == expected


def test_conll2003_strict_mode_detects_the_scheme_of_the_whole(conll):
    sides, _, folder = conll
    expected = score_exact(sides["flair"], sides["gold"], mode="strict")
    assert expected["invalid_reference_chunks"] == expected["invalid_predicted_chunks"] == 0
    # 9 batches of 7 sentences hold no B- tag, so that one call on them detects no scheme: each must decode
    # with the scheme of all references
    assert sum(not any(t.startswith("B-") for s in sides["gold"][k:k + 7] for t in s)
               for k in range(0, len(sides["gold"]), 7)) == 9
    assert score_arrow(folder, predictions="flair", references="gold", mode="strict", num_proc=2,
                       batch_size=7) == expected


def test_conll2003_lenient_and_label_ids(conll):
    sides, table, _ = conll
    assert score_arrow(table, "lenient", predictions="elmo", references="gold", num_proc=2,
                       batch_size=1000) == score_lenient(sides["elmo"], sides["gold"])
    label_list = sorted({t for s in sides["gold"] + sides["elmo"] for t in s})
    index = {t: i for i, t in enumerate(label_list)}
    ids = pa.table({side: pa.array([[index[t] for t in s] for s in sides[side]], pa.list_(pa.int16()))
                    for side in ("elmo", "gold")})
    assert score_arrow(ids, predictions="elmo", references="gold", label_list=label_list,
                       num_proc=2, batch_size=1000) == score_exact(sides["elmo"], sides["gold"])


@pytest.fixture(scope="module")
def genia(shared_data):
    tokens, gold, pred = tables.genia(shared_data)
    table = pa.table({"tokens": pa.array(tokens), "gold": tables.span_column(gold), "pred": tables.span_column(pred)})
    return tokens, gold, pred, table


@pytest.mark.parametrize("num_proc", [1, 2])
def test_genia_nested_equals_score_nested(genia, num_proc):
    tokens, gold, pred, table = genia
    expected = score_nested(pred, gold, lengths=[len(t) for t in tokens])
    assert expected["by_depth"]["3"]["number"] > 0 and 0.6 < expected["overall_f1"] < 0.9
    assert score_arrow(table, "nested", predictions="pred", references="gold", lengths="tokens",
                       num_proc=num_proc, batch_size=256) == expected


def test_genia_lenient_spans(genia):
    _, gold, pred, table = genia
    assert score_arrow(table, "lenient", predictions="pred", references="gold", num_proc=2,
                       batch_size=500) == score_lenient(pred, gold)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    corpus = tables.random_corpus(seed=3)
    table = tables.table(corpus)
    return corpus, table, write_parts(table, tmp_path_factory.mktemp("random") / "parquet", files=5, row_group_size=13)


@pytest.mark.parametrize("num_proc", [1, 2])
def test_random_corpus_in_many_parts_every_metric(corpus, num_proc):
    data, _, folder = corpus
    tags = {"predictions": "pred_tags", "references": "gold_tags"}
    spans = {"predictions": "pred", "references": "gold"}
    with pytest.warns(DuplicateSpanWarning) as caught:
        expected = score_nested(data["pred"], data["gold"], lengths=data["lengths"], zero_division=0)
    with pytest.warns(DuplicateSpanWarning) as got:  # once for the whole, with the sums
        assert score_arrow(folder, "nested", lengths="tokens", num_proc=num_proc, batch_size=5,
                           zero_division=0, **spans) == expected
    assert [str(w.message) for w in got] == [str(w.message) for w in caught]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        assert score_arrow(folder, "lenient", num_proc=num_proc, batch_size=5, **spans) == \
            score_lenient(data["pred"], data["gold"])
    assert score_arrow(folder, num_proc=num_proc, batch_size=5, scheme="IOBES", zero_division=0, **tags) == \
        score_exact(data["pred_tags"], data["gold_tags"], scheme="IOBES", zero_division=0)


def test_dataset_with_an_indices_mapping(corpus):
    datasets = pytest.importorskip("datasets")
    _, table, _ = corpus
    dataset = datasets.Dataset(table).select(range(100, 400)).shuffle(seed=0)
    order = dataset["gold_tags"], dataset["pred_tags"]
    assert score_arrow(dataset, predictions="pred_tags", references="gold_tags", num_proc=2, batch_size=64) == \
        score_exact(order[1], order[0])


def test_record_batch_reader_and_empty_sources(corpus):
    data, table, _ = corpus
    reader = pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=50))
    assert count_arrow(reader, predictions="pred_tags", references="gold_tags", num_proc=2) == \
        count_exact(data["pred_tags"], data["gold_tags"])
    empty = table.slice(0, 0)
    assert score_arrow(empty, "nested", predictions="pred", references="gold", zero_division=0) == \
        score_nested([], [], zero_division=0)
    assert count_arrow(empty, predictions="pred_tags", references="gold_tags") == count_exact([], [])


def test_a_part_pickles_its_slice_only(corpus):
    _, table, _ = corpus
    part = TablePart("", 10, 5, table.slice(10, 5))
    copy = pickle.loads(pickle.dumps(part))
    assert copy.table.equals(table.slice(10, 5)) and (copy.first, copy.rows) == (10, 5)
    assert len(pickle.dumps(part)) < len(pickle.dumps(table.slice(10, 5))) / 5


# --------------------------------------------------------------------------- errors


def _error(function, *args, **kwargs):
    """The type and message of the error ``function(*args, **kwargs)`` raises."""
    with pytest.raises((ValueError, TypeError)) as caught:
        function(*args, **kwargs)
    return caught.type, str(caught.value)


def test_a_bad_tag_is_named_by_file_and_row(corpus, tmp_path):
    data, table, _ = corpus
    pred = [list(s) for s in data["pred_tags"]]
    row = next(i for i in range(450, 600) if pred[i])
    pred[row][-1] = "b-PER"
    bad = table.set_column(0, "pred_tags", pa.array(pred, pa.list_(pa.string())))
    folder = write_parts(bad, tmp_path / "bad", files=2, row_group_size=40)
    single = _error(score_exact, pred, data["gold_tags"])
    # the row in its file: the second file starts at row 300
    expected = (single[0], f"{folder / 'part-1.parquet'}: " + single[1].replace(f"sentence {row}", f"sentence {row - 300}"))
    for num_proc in (1, 2):
        assert _error(score_arrow, folder, predictions="pred_tags", references="gold_tags",
                      num_proc=num_proc, batch_size=8) == expected
    # a table in memory: rows count from its start, the message is the single-process API's
    assert _error(score_arrow, bad, predictions="pred_tags", references="gold_tags", num_proc=2,
                  batch_size=8) == single


def test_bad_spans_get_the_plain_paths_message(corpus):
    data, table, _ = corpus
    for bad in ({"start": 3, "end": 2, "label": "A"}, {"start": 0, "end": 99, "label": "A"},
                {"start": 0, "end": 1, "label": ""}):
        gold = [list(s) for s in data["gold"]]
        gold[421] = [*gold[421], (bad["start"], bad["end"], bad["label"])]
        column = pa.array([[{"start": b, "end": e, "label": lab} for b, e, lab in s] for s in gold], pa.list_(tables.SPAN))
        broken = table.set_column(table.schema.get_field_index("gold"), "gold", column)
        as_dicts = [[{"start": b, "end": e, "label": lab} for b, e, lab in s] for s in gold]
        single = _error(score_nested, data["pred"], as_dicts, lengths=data["lengths"])
        assert "sentence 421" in single[1]
        assert _error(score_arrow, broken, "nested", predictions="pred", references="gold",
                      lengths="tokens", num_proc=2, batch_size=50) == single


def test_strict_mode_without_a_scheme_to_detect(corpus):
    data, table, _ = corpus
    io_only = [[t.replace("B-", "I-").replace("E-", "I-").replace("S-", "I-") for t in s] for s in data["gold_tags"]]
    io = table.set_column(1, "gold_tags", pa.array(io_only, pa.list_(pa.string())))
    single = _error(score_exact, data["pred_tags"], io_only, mode="strict")
    assert single[1].startswith("strict mode needs a scheme: the reference prefixes (O, I)")
    assert _error(score_arrow, io, predictions="pred_tags", references="gold_tags", mode="strict",
                  num_proc=2, batch_size=50) == single
    # a malformed tag is named first, as one call names it
    pred = [list(s) for s in data["pred_tags"]]
    row = next(i for i in range(590, 0, -1) if pred[i])
    pred[row][0] = "B-"
    io_pred = io.set_column(0, "pred_tags", pa.array(pred, pa.list_(pa.string())))
    single = _error(score_exact, pred, io_only, mode="strict")
    assert single[1].startswith(f"predictions, sentence {row}, token 0: tag 'B-': malformed")
    assert _error(score_arrow, io_pred, predictions="pred_tags", references="gold_tags", mode="strict",
                  batch_size=50) == single


def test_columns_and_options_are_checked(corpus, tmp_path):
    _, table, folder = corpus
    with pytest.raises(ValueError, match=r"no column 'prediction' \(the columns: pred_tags, gold_tags, pred"):
        score_arrow(table, predictions="prediction", references="gold_tags")
    with pytest.raises(ValueError, match=r"part-0.parquet: no column 'prediction'"):
        score_arrow(folder, predictions="prediction", references="gold_tags")
    with pytest.raises(TypeError, match="the exact metric takes no option partial_weight"):
        score_arrow(table, predictions="pred_tags", references="gold_tags", partial_weight=1.0)
    with pytest.raises(ValueError, match="num_proc must be a positive integer, got 0"):
        score_arrow(table, predictions="pred_tags", references="gold_tags", num_proc=0)
    with pytest.raises(ValueError, match="no such file or folder"):
        score_arrow(tmp_path / "missing")
    with pytest.raises(TypeError, match="cannot read rows from list"):
        score_arrow([["O"]])
    with pytest.raises(ValueError, match="scheme, mode and suffix apply to tag sequences"):
        score_arrow(table, "lenient", predictions="pred", references="gold", scheme="IOB2")


def test_character_spans_bounded_by_a_text_column():
    """Text spans (character offsets, end exclusive, in code points) over a text column, as one call with the
    texts' lengths scores them."""
    texts = ["Angela Merkel visited Paris.", "", "Zoë lives in Köln."]
    gold = [[(0, 13, "PER"), (22, 27, "LOC")], [], [(0, 3, "PER"), (13, 17, "LOC")]]
    pred = [[(0, 6, "PER"), (22, 27, "LOC")], [], [(0, 3, "PER"), (13, 18, "LOC")]]
    table = pa.table({"text": texts, "gold": tables.span_column(gold), "pred": tables.span_column(pred)})
    lengths = [len(t) for t in texts]
    assert score_arrow(table, "nested", predictions="pred", references="gold", lengths="text") == \
        score_nested(pred, gold, lengths=lengths)
    beyond = table.set_column(2, "pred", tables.span_column([[], [], [(13, 19, "LOC")]]))
    message = _error(score_nested, [[], [], [{"start": 13, "end": 19, "label": "LOC"}]], gold, lengths=lengths)
    assert "end <= 18 (the sentence length)" in message[1]
    assert _error(score_arrow, beyond, "nested", predictions="pred", references="gold",
                  lengths="text") == message


@pytest.mark.parametrize("num_proc", [1, 2])
def test_progress_bar_over_rows(corpus, capsys, monkeypatch, num_proc):
    """The package's one rule for bars (core.progress): a bar where a person sees it, none in a file or a pipe."""
    from nested_span_f1.core import progress

    _, _, folder = corpus
    score_arrow(folder, predictions="pred_tags", references="gold_tags", num_proc=num_proc)  # stderr: no terminal
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(progress, "seen", lambda: True)
    score_arrow(folder, predictions="pred_tags", references="gold_tags", num_proc=num_proc)
    assert "0/600 [" in capsys.readouterr().err  # the rows of the folder
    score_arrow(folder, predictions="pred_tags", references="gold_tags", num_proc=num_proc, progress=False)
    assert capsys.readouterr().err == ""


def test_a_folder_is_read_as_spark_reads_it(tmp_path):
    """Files are Parquet by their bytes, whatever their names (Spark's and Hive's part files); what Spark's listing
    skips is skipped (names starting with _ or ., copies in progress, empty files); tests/spark holds the same
    folder to Spark's reader."""
    data = tables.random_corpus(seed=3, sentences=300)
    read = tables.spark_layout(tmp_path / "table", data)
    assert 0 < len(read["gold_tags"]) < len(data["gold_tags"])
    assert count_arrow(tmp_path / "table", predictions="pred_tags", references="gold_tags", num_proc=2) == \
        count_exact(read["pred_tags"], read["gold_tags"])


def test_a_folder_spark_would_fail_on_or_read_otherwise_is_refused(tmp_path):
    folder = tmp_path / "table"
    folder.mkdir()
    pq.write_table(pa.table({"predictions": [["O"]], "references": [["O"]]}), folder / "part-0.parquet")
    (folder / "sub").mkdir()
    pq.write_table(pa.table({"predictions": [["O"]], "references": [["O"]]}), folder / "sub" / "part-1.parquet")
    with pytest.raises(ValueError, match=f"^{folder / 'sub'}: a folder inside a Parquet table that is no partition"):
        count_arrow(folder)
    (folder / "sub").rename(folder / "k=1")
    with pytest.raises(ValueError, match=f"^{folder}: data files both in the folder itself and in k=..."):
        count_arrow(folder)
    (folder / "k=1" / "part-1.parquet").rename(folder / "part-1.parquet")
    (folder / "notes.txt").write_text("not a table")
    (folder / "notes2.txt").write_text("not a table")
    with pytest.raises(ValueError, match=f"^{folder / 'notes.txt'} and 1 more files: not a Parquet file"):
        count_arrow(folder)
    (folder / "notes.txt").unlink()
    (folder / "notes2.txt").unlink()
    (folder / "part-0.parquet").unlink()
    (folder / "part-1.parquet").write_bytes(b"")
    with pytest.raises(ValueError, match="a folder without data files"):
        count_arrow(folder)


def test_partition_folders_are_read(tmp_path):
    """A table partitioned by key=value folders (all files at one depth, one key a level) is read whole."""
    data = tables.random_corpus(seed=4, sentences=40)
    columns = {"predictions": "pred_tags", "references": "gold_tags"}
    whole = tables.table(data).select(["pred_tags", "gold_tags"])
    for key, rows in (("year=2024", slice(0, 25)), ("year=2025", slice(25, 40))):
        (tmp_path / "table" / key).mkdir(parents=True)
        pq.write_table(whole.slice(rows.start, rows.stop - rows.start), tmp_path / "table" / key / "part-0")
    assert count_arrow(tmp_path / "table", **columns) == count_exact(data["pred_tags"], data["gold_tags"])
