"""Spark in local mode (local[2], one session for the module) equals the single-process API, every key, and names
the partition and the row of bad input."""
from __future__ import annotations

import json
import os
import runpy
import shutil
import socket
import subprocess
import sys
import threading
import time
import warnings

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("pyarrow.parquet")
pytest.importorskip("pyspark")

import tables

from nested_span_f1 import count_exact, score_exact, score_lenient, score_nested
from nested_span_f1.arrow import count_arrow
from nested_span_f1.cli.commands.wheel import build_wheel
from nested_span_f1.cli.main import main
from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.spark import count_spark, score_spark

# pyspark 4.3 warns that it does not fully support pandas >= 3; nothing here uses pandas
pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")


@pytest.fixture(scope="module")
def conll(shared_data, spark):
    sides = tables.conll2003(shared_data)
    table = pa.table({name: pa.array(tags, pa.list_(pa.string())) for name, tags in sides.items()})
    return sides, spark.createDataFrame(table).repartition(5)


@pytest.mark.parametrize("system", tables.CONLL_SYSTEMS)
def test_conll2003_systems_equal_score_exact(conll, system):
    sides, frame = conll
    assert score_spark(frame, predictions=system, references="gold") == score_exact(sides[system], sides["gold"])


def test_conll2003_strict_mode_detects_the_scheme_of_the_whole(conll):
    sides, frame = conll
    assert score_spark(frame, predictions="flair", references="gold", mode="strict") == \
        score_exact(sides["flair"], sides["gold"], mode="strict")


def test_genia_nested(shared_data, spark):
    tokens, gold, pred = tables.genia(shared_data)
    frame = spark.createDataFrame(pa.table({"tokens": pa.array(tokens), "gold": tables.span_column(gold),
                                            "pred": tables.span_column(pred)})).repartition(3)
    assert score_spark(frame, "nested", predictions="pred", references="gold", lengths="tokens") == \
        score_nested(pred, gold, lengths=[len(t) for t in tokens])


@pytest.fixture(scope="module")
def corpus(spark):
    data = tables.random_corpus(seed=5)
    table = tables.table(data)
    table = table.append_column("bucket", pa.array([row % 7 for row in range(table.num_rows)]))
    # hash partitioning of 7 keys into 16 partitions: most partitions are empty
    frame = spark.createDataFrame(table).repartition(16, "bucket")
    assert 7 >= frame.rdd.glom().map(len).filter(bool).count() >= 2
    return data, table, frame


def test_random_corpus_in_partitions_some_empty(corpus):
    data, _, frame = corpus
    spans = {"predictions": "pred", "references": "gold"}
    with pytest.warns(DuplicateSpanWarning) as caught:
        expected = score_nested(data["pred"], data["gold"], lengths=data["lengths"], zero_division=0)
    with pytest.warns(DuplicateSpanWarning) as got:
        assert score_spark(frame, "nested", lengths="tokens", zero_division=0, **spans) == expected
    assert [str(w.message) for w in got if w.category is DuplicateSpanWarning] == [str(w.message) for w in caught]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        assert score_spark(frame, "lenient", **spans) == score_lenient(data["pred"], data["gold"])
    assert score_spark(frame, predictions="pred_tags", references="gold_tags", scheme="IOBES", zero_division=0) == \
        score_exact(data["pred_tags"], data["gold_tags"], scheme="IOBES", zero_division=0)


def test_no_rows(corpus):
    _, _, frame = corpus
    empty = frame.limit(0)
    assert count_spark(empty, predictions="pred_tags", references="gold_tags") == count_exact([], [])
    assert score_spark(empty, "nested", predictions="pred", references="gold", zero_division=0) == \
        score_nested([], [], zero_division=0)


def test_a_bad_tag_is_named_by_partition_and_row(corpus, spark):
    data, table, _ = corpus
    pred = [list(s) for s in data["pred_tags"]]
    row = next(i for i in range(400, 600) if len(pred[i]) > 2)
    pred[row][2] = "b-PER"
    frame = spark.createDataFrame(table.set_column(0, "pred_tags", pa.array(pred, pa.list_(pa.string())))
                                  .append_column("row", pa.array(range(table.num_rows))))
    partitions = frame.select("row").rdd.glom().collect()
    partition = next(p for p, rows in enumerate(partitions) if any(r.row == row for r in rows))
    within = [r.row for r in partitions[partition]].index(row)
    assert len(partitions) > 1 and partition + within > 0
    with pytest.raises(ValueError) as single:
        score_exact(pred, data["gold_tags"])
    expected = f"partition {partition}: " + str(single.value).replace(f"sentence {row}", f"sentence {within}")
    with pytest.raises(ValueError) as got:
        score_spark(frame, predictions="pred_tags", references="gold_tags")
    assert str(got.value) == expected
    assert type(got.value) is type(single.value)
    with pytest.raises(ValueError, match=r"no column 'predictions', 'references' \(the columns: pred_tags, gold_tags,"):
        score_spark(frame)


def test_command_line_on_spark(spark, shared_data, tmp_path, capsys):
    """``--spark MASTER_URL``: the command counts the Parquet table on Spark (here the module's session, which it
    leaves running)."""
    sides = tables.conll2003(shared_data)
    path = tmp_path / "conll.parquet"
    pa.parquet.write_table(pa.table({name: pa.array(tags, pa.list_(pa.string())) for name, tags in sides.items()}),
                           path, row_group_size=1000)
    code = main(["score", "--gold", str(path), "--pred", str(path), "--gold-column", "gold", "--pred-column", "elmo",
                 "--spark", "local[2]", "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out) == score_exact(sides["elmo"], sides["gold"], zero_division=0)
    assert spark.range(3).count() == 3


def test_docs_spark_script(spark, repo_root, tmp_path, capsys, monkeypatch):
    """docs/corpora.md's spark-submit script, run as written on the Parquet file the page's Arrow example writes (in
    the module's session, which its ``spark.stop()`` must leave running here)."""
    from nested_span_f1.formats.columns import read_columns

    page = (repo_root / "docs" / "corpora.md").read_text(encoding="utf-8")
    script = tmp_path / "score_on_spark.py"
    script.write_text(page.split("cat > score_on_spark.py <<'PY'\n", 1)[1].split("\nPY\n", 1)[0] + "\n")
    samples = repo_root / "nested_span_f1" / "sample_data"
    gold, pred = (read_columns(samples / f"sample.{side}.conll").column() for side in ("gold", "pred"))
    pa.parquet.write_table(pa.table({"predictions": pred, "references": gold}), tmp_path / "sample.parquet",
                           row_group_size=4)
    monkeypatch.setattr(sys, "argv", [str(script), str(tmp_path / "sample.parquet")])
    monkeypatch.setattr(spark, "stop", lambda: None)
    runpy.run_path(str(script), run_name="__main__")
    expected = [line.split("  # ", 1)[1].split(" ")[0] for line in script.read_text().splitlines() if "print(" in line]
    assert capsys.readouterr().out.split() == expected == [str(score_exact(pred, gold, zero_division=0)["overall_f1"])]


def test_a_folder_is_one_table_on_every_route(spark, tmp_path, capsys):
    """Spark's own reader, the Arrow path and the command on both routes read the same files of a folder as Spark
    and Hive write it (part files with and without .parquet, _SUCCESS, _temporary/, an empty file...)."""
    data = tables.random_corpus(seed=3, sentences=300)
    folder = tmp_path / "table"
    read = tables.spark_layout(folder, data)
    columns = {"predictions": "pred_tags", "references": "gold_tags"}
    expected = count_exact(read["pred_tags"], read["gold_tags"])
    assert count_spark(spark.read.parquet(str(folder)), **columns) == expected == count_arrow(folder, **columns)
    outputs = []
    for route in ([], ["--spark", "local[1]"]):
        assert main(["score", "--gold", str(folder), "--pred", str(folder), "--gold-column", "gold_tags",
                     "--pred-column", "pred_tags", *route]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith(f"{folder}: column pred_tags against column gold_tags: {len(read['gold_tags'])} rows\n")


def _needs_java() -> None:
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("no Java runtime, which pyspark needs: apt-get install openjdk-17-jre-headless (.ci/run does)")


def _score_on_spark(path, master: str, **env: str) -> subprocess.CompletedProcess:
    """The command in a process of its own (this one's Spark is running: a session that cannot start needs a
    process without one)."""
    return subprocess.run([sys.executable, "-m", "nested_span_f1.cli", "score", "--gold", str(path), "--pred",
                           str(path), "--spark", master], capture_output=True, text=True, timeout=300, check=False,
                          env={**os.environ, "PYSPARK_PYTHON": sys.executable, **env})


@pytest.mark.parametrize("master, env, reason", [
    ("nonsense://x", {}, "Spark did not start: Master must either be yarn or start with spark, k8s, or local"),
    ("local[1]", {"JAVA_HOME": "/nonexistent"},
     "Spark did not start: JAVA_HOME=/nonexistent holds no Java runtime (no /nonexistent/bin/java); point it to a "
     "Java 17 or later, or unset it to use the java on PATH"),
    ("spark://127.0.0.1:1", {}, "Spark did not start: no Spark master answers at 127.0.0.1:1 (waited up to 30 s a "
                                "host: Connection refused)"),
])
def test_a_session_that_does_not_start_is_one_line(tmp_path, master, env, reason):
    _needs_java()
    path = tmp_path / "table.parquet"
    pa.parquet.write_table(pa.table({"predictions": [["B-PER"]], "references": [["B-PER"]]}), path)
    done = _score_on_spark(path, master, **env)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"nested-span-f1 score: error: --spark {master}: {reason}\n"


def test_a_master_that_does_not_answer_is_waited_for_a_bounded_time(tmp_path):
    """Something accepts connections at the master's address but never answers as a Spark master: the session is
    refused after ``timeout`` seconds (Spark itself asks for about a minute, then fails with a Java traceback)."""
    _needs_java()
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    accepted = []
    threading.Thread(target=lambda: accepted.extend(listener.accept() for _ in range(3)), daemon=True).start()
    code = ("import sys\nfrom nested_span_f1.spark import SessionError, session\n"
            f"try:\n    session('spark://127.0.0.1:{port}', timeout=3, quiet=True)\n"
            "except SessionError as error:\n    print(error)\n    sys.exit(2)\n")
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    listener.close()
    assert done.returncode == 2, done.stderr
    assert done.stdout == (f"the master spark://127.0.0.1:{port} registered no application within 3 s (something "
                           "accepts connections there, but does not answer as a Spark master)\n")
    assert accepted and time.monotonic() - start < 50


def test_nested_command_prints_the_test_set_on_both_routes(spark, tmp_path, capsys):
    """``nested`` on a Parquet table: the test set's size (rows, the lengths column's sum, entities from the
    counts), the same from the executors as from the Arrow path's workers."""
    data = tables.random_corpus(seed=8, sentences=200)
    path = tmp_path / "spans.parquet"
    pa.parquet.write_table(tables.table(data), path, row_group_size=30)
    columns = ["--gold", str(path), "--pred", str(path), "--gold-column", "gold", "--pred-column", "pred",
               "--lengths-column", "tokens", "--json"]
    results = []
    for route in (["--workers", "2"], ["--spark", "local[2]"]):
        assert main(["nested", *columns, *route]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert results[0] == results[1]
    assert results[0]["test_set"]["sentences"] == 200 and results[0]["test_set"]["tokens"] == sum(data["lengths"])


def test_docs_ship_the_wheel_to_executors_that_lack_the_package(repo_root, tmp_path):
    """docs/corpora.md's way to executors without the package, in local mode: the checkout's wheel, copied to a .zip,
    given to spark-submit --py-files; the driver and the executors run a Python that has pyspark, pyarrow and
    numpy but not this package (this interpreter without its site hooks, so without the editable install)."""
    _needs_java()
    import sysconfig

    page = (repo_root / "docs" / "corpora.md").read_text(encoding="utf-8")
    assert 'cp "$wheel" nested_span_f1.zip\nspark-submit --master yarn --py-files nested_span_f1.zip ' in page
    # built as `nested-span-f1 space` builds it, from a copy of the checkout (a build writes beside its sources)
    shutil.copy(build_wheel(tmp_path), tmp_path / "nested_span_f1.zip")
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\nexec {sys.executable} -S "$@"\n')
    python.chmod(0o755)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "PYSPARK"))}
    env.update(PYTHONPATH=sysconfig.get_paths()["purelib"], PYSPARK_PYTHON=str(python),
               PYSPARK_DRIVER_PYTHON=str(python))
    lacking = subprocess.run([str(python), "-c", "import pyarrow, pyspark; import nested_span_f1"], env=env,
                             cwd=tmp_path, capture_output=True, text=True, check=False)
    assert "No module named 'nested_span_f1'" in lacking.stderr
    script = tmp_path / "score_on_spark.py"
    script.write_text(page.split("cat > score_on_spark.py <<'PY'\n", 1)[1].split("\nPY\n", 1)[0] + "\n")
    gold, pred = [["B-PER", "O"], ["B-LOC"]], [["B-PER", "O"], ["O"]]
    pa.parquet.write_table(pa.table({"predictions": pred, "references": gold}), tmp_path / "sample.parquet")
    submit = os.path.join(os.path.dirname(sys.executable), "spark-submit")
    done = subprocess.run([submit, "--master", "local[1]", "--py-files", "nested_span_f1.zip", str(script),
                           str(tmp_path / "sample.parquet")], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    # pyspark writes its pandas FutureWarning to the driver's stdout first
    assert done.stdout.splitlines()[-1] == str(score_exact(pred, gold, zero_division=0)["overall_f1"])
