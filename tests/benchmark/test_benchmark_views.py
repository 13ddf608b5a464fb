"""The benchmark's views: JSON fields, Markdown tables, the model-index block, PNG plots, the command."""
import json
import os

import pytest

from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.cli.main import main
from nested_span_f1.formats import Corpus, write_corpus

# the fields docs/benchmark.md documents
SETTINGS = {"gold", "dataset", "gold_counts", "split", "units", "length_unit", "comparisons", "compared", "baseline",
            "rounds_needed", "raised_from", "selection", "n_units", "sentences", "n_resamples", "n_permutations", "seed",
            "confidence", "alpha", "scheme", "mode", "version"}
SYSTEM = {"name", "run", "step", "source", "precision", "recall", "f1", "tp", "predicted", "gold", "per_type",
          "alignment", "by_nesting", "buckets", "dev", "errors", "notes"}
ESTIMATE = {"value", "low", "high"}
PER_TYPE = {"precision", "recall", "f1", "number", "predicted"}
ERRORS = {"correct", "type_error", "boundary_error", "boundary_type_error", "missed", "spurious"}
NOTES = {"duplicate_predictions", "duplicate_references", "discontinuous_left_out"}
COMPARISON = {"a", "b", "f1_difference", "p_bootstrap", "p_randomization", "p_bootstrap_holm",
              "p_randomization_holm", "significant"}

TOKENS = [["IL-2", "gene", "expression"], ["NF-kappa", "B", "binds", "DNA"], ["T", "cells"], ["a", "b", "c"]]
GOLD = [[(0, 2, "DNA"), (0, 1, "protein")], [(0, 2, "protein")], [(0, 2, "cell_type")], [(1, 2, "protein")]]
PREDICTIONS = {
    500: [[(0, 1, "protein")], [(0, 1, "protein")], [], [(1, 3, "protein")]],
    1000: [[(0, 2, "DNA"), (0, 1, "protein")], [(0, 2, "DNA")], [(0, 2, "cell_type")], []],
    1500: [[(0, 2, "DNA"), (0, 1, "protein")], [(0, 2, "protein")], [(0, 2, "cell_type")], [(2, 3, "protein")]],
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A gold file, a checkpoint directory of three steps, and a fourth system's file."""
    root = tmp_path_factory.mktemp("bench")
    docs = ["d1", "d1", "d2", "d3"]
    write_corpus(Corpus(TOKENS, GOLD, ["s1", "s2", "s3", "s4"], docs), root / "gold.jsonl")
    (root / "runs").mkdir()
    for step, spans in PREDICTIONS.items():
        write_corpus(Corpus(TOKENS, spans, ["s1", "s2", "s3", "s4"]), root / "runs" / f"checkpoint-{step}.jsonl")
    write_corpus(Corpus(TOKENS, GOLD), root / "perfect.jsonl")
    return root


@pytest.fixture(scope="module")
def result(files):
    return benchmark(files / "gold.jsonl", {"runs": files / "runs", "perfect": files / "perfect.jsonl"},
                     n_resamples=200, seed=1, dataset="tiny", progress=False)


def test_json_has_every_documented_field(result, tmp_path):
    data = json.loads(result.to_json(tmp_path / "out.json"))
    assert data == json.loads((tmp_path / "out.json").read_text())
    assert set(data) == {"settings", "systems", "comparisons", "best"}
    assert set(data["settings"]) == SETTINGS
    assert (data["settings"]["units"], data["settings"]["n_units"], data["best"]) == ("documents", 3, "perfect")
    assert [s["name"] for s in data["systems"]] == [
        "runs/checkpoint-500", "runs/checkpoint-1000", "runs/checkpoint-1500", "perfect"]
    for system in data["systems"]:
        assert set(system) == SYSTEM
        assert all(set(system[k]) == ESTIMATE for k in ("precision", "recall", "f1"))
        assert set(system["per_type"]) <= {"DNA", "protein", "cell_type"}
        for row in system["per_type"].values():
            assert set(row) == PER_TYPE and set(row["f1"]) == ESTIMATE
        assert set(system["by_nesting"]) == {"flat", "nested"}
        assert all(set(b) == {"recall", "number"} for b in system["by_nesting"].values())
        assert list(system["buckets"]) == ["entity_length", "sentence_length", "entity_density", "nesting_depth"]
        assert all(set(row) == PER_TYPE for bucket in system["buckets"].values() for row in bucket.values())
        assert set(system["errors"]) == ERRORS and set(system["notes"]) == NOTES
    assert [s["run"] for s in data["systems"]] == ["runs", "runs", "runs", None]
    first = data["systems"][0]
    # checkpoint-500: one of five gold spans found, of three predicted: the inner one of the nested pair
    assert (first["tp"], first["predicted"], first["gold"], first["step"]) == (1, 3, 5, 500)
    assert first["by_nesting"] == {"flat": {"recall": 0.0, "number": 3}, "nested": {"recall": 0.5, "number": 2}}
    assert first["errors"] == {"correct": 1, "type_error": 0, "boundary_error": 2, "boundary_type_error": 0,
                               "missed": 2, "spurious": 0}
    assert len(data["comparisons"]) == 6
    for pair in data["comparisons"]:
        assert set(pair) == COMPARISON and set(pair["f1_difference"]) == ESTIMATE


def parse_tables(text):
    """Every table of a Markdown text as a list of rows of cell texts (header first), parsed by markdown-it."""
    markdown_it = pytest.importorskip("markdown_it", reason="markdown-it-py parses the tables (pip install markdown-it-py)")
    tables, row, in_cell = [], None, False
    for token in markdown_it.MarkdownIt("commonmark").enable("table").parse(text):
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open":
            row = []
        elif token.type == "tr_close":
            tables[-1].append(row)
        elif token.type in ("th_open", "td_open"):
            in_cell = True
        elif token.type in ("th_close", "td_close"):
            in_cell = False
        elif token.type == "inline" and in_cell:
            row.append(token.content)
    return tables


def test_markdown_tables_parse(result, tmp_path):
    text = result.to_markdown(tmp_path / "report.md")
    assert (tmp_path / "report.md").read_text() == text
    systems, per_type, errors, pairs = parse_tables(text)
    assert systems[0] == ["System", "Step", "Precision", "Recall", "F1", "F1 95% CI", "Nested recall", "Flat recall"]
    f1 = result.systems[0]["f1"]
    assert systems[1] == ["runs/checkpoint-500", "500", "33.33", "20.00", "25.00",
                          f"[{100 * f1['low']:.2f}, {100 * f1['high']:.2f}]", "50.00", "0.00"]
    assert systems[4][:2] == ["perfect", "–"]
    dna = result.systems[0]["per_type"]["DNA"]["f1"]
    assert per_type[0] == ["System", "DNA", "cell_type", "protein"]
    assert per_type[1][1] == f"0.00 [{100 * dna['low']:.2f}, {100 * dna['high']:.2f}]" == "0.00 [0.00, 0.00]"
    assert errors[0] == ["System", "Correct", "Type", "Boundary", "Boundary and type", "Missed", "Spurious"]
    assert errors[1] == ["runs/checkpoint-500", "1", "0", "2", "0", "2", "0"]
    assert len(pairs) == 7 and pairs[0][-3:] == ["p bootstrap (Holm)", "p randomization (Holm)", "Holds at 0.05"]
    first = result.comparisons[0]
    assert pairs[1] == [first["a"], first["b"], f"{100 * first['f1_difference']['value']:+.2f}",
                        f"[{100 * first['f1_difference']['low']:.2f}, {100 * first['f1_difference']['high']:.2f}]",
                        *(f"{first[k]:.4f}" for k in ("p_bootstrap", "p_randomization", "p_bootstrap_holm",
                                                       "p_randomization_holm")), "no"]
    assert all(len(row) == len(table[0]) for table in (systems, per_type, errors, pairs) for row in table)


def test_model_card_is_hub_yaml_and_says_how_the_system_was_selected(result, tmp_path):
    yaml = pytest.importorskip("yaml", reason="PyYAML reads the block (it comes with transformers and datasets)")
    text = result.model_index(split="validation", path=tmp_path / "card.md")
    assert text.startswith("---\n") and (tmp_path / "card.md").read_text() == text
    _, front, body = text.split("---\n")
    (model,) = yaml.safe_load(front)["model-index"]
    best = result.best
    assert model["name"] == "perfect" == best["name"] == result.settings["selection"]["system"]
    (entry,) = model["results"]
    assert entry["task"] == {"type": "token-classification", "name": "Token Classification"}
    assert entry["dataset"] == {"name": "tiny", "type": "tiny", "split": "validation"}
    assert entry["metrics"] == [{"type": "f1", "value": 1.0, "name": "F1"},
                                {"type": "precision", "value": 1.0, "name": "Precision"},
                                {"type": "recall", "value": 1.0, "name": "Recall"}]
    assert body.startswith("\n# perfect\n\n## Evaluation\n\nEntity-level exact-match scores on tiny (tiny, validation): "
                           "F1 100.00 (95% bootstrap interval [100.00, 100.00] over 3 documents)")
    assert ("The checkpoint (perfect) was selected on the test set itself (no development data was given), so these "
            "test scores overstate what it would score on new data.") in body
    named = result.model_index("GENIA", dataset_type="bigbio/genia_term_corpus", dataset_config="genia_term_corpus_source",
                               model_name="org/span-ner-base")
    (model,) = yaml.safe_load(named.split("---\n")[1])["model-index"]
    assert model["name"] == "org/span-ner-base" and model["results"][0]["dataset"] == {
        "name": "GENIA", "type": "bigbio/genia_term_corpus", "config": "genia_term_corpus_source", "split": "test"}
    assert "# org/span-ner-base\n" in named and "on GENIA (bigbio/genia_term_corpus, config genia_term_corpus_source, test)" in named


def test_plots_are_png_files(result, tmp_path):
    image = pytest.importorskip("matplotlib.image", reason="plots need matplotlib (pip install '.[plots]' in the clone)")
    fig = result.plot(tmp_path / "bench.png")
    assert len(fig.axes) == 3
    assert (tmp_path / "bench.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    height, width, _ = image.imread(tmp_path / "bench.png").shape
    assert height > 500 and width > 500


def test_command_writes_every_view(files, tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["benchmark", "--gold", str(files / "gold.jsonl"), "--pred", str(files / "runs"),
                 "--pred", f"perfect={files / 'perfect.jsonl'}", "--bootstrap", "200", "--seed", "1",
                 "--dataset-name", "tiny", "--json", "--markdown", f"{out}.md", "--html", f"{out}.html", "--plot",
                 f"{out}.png", "--model-card", f"{out}.card.md", "--no-progress"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)  # --json prints every figure as JSON instead of the report
    code = main(["benchmark", "--gold", str(files / "gold.jsonl"), "--pred", str(files / "runs"),
                 "--pred", f"perfect={files / 'perfect.jsonl'}", "--bootstrap", "200", "--seed", "1",
                 "--dataset-name", "tiny", "--no-progress"])
    assert code == 0 and capsys.readouterr().out == (tmp_path / "out.md").read_text()
    assert [s["name"] for s in data["systems"]] == [
        "checkpoint-500", "checkpoint-1000", "checkpoint-1500", "perfect"]
    assert [s["f1"] for s in data["systems"]] == [s["f1"] for s in benchmark(
        files / "gold.jsonl", {"runs": files / "runs", "perfect": files / "perfect.jsonl"}, n_resamples=200,
        seed=1, progress=False).systems]
    assert (tmp_path / "out.png").stat().st_size > 0 and "model-index:" in (tmp_path / "out.card.md").read_text()
    page = (tmp_path / "out.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and '<table id="summary-table">' in page and 'id="browser-data"' in page


@pytest.mark.parametrize("argv, message", [
    (["--pred", "a=GOLD", "--pred", "a=GOLD"], "--pred a is given twice; name each prediction set once"),
    (["--pred", "x=MISSING"], "No such file or directory"),
    (["--pred", "x=GOLD", "--confidence", "1.5"], "confidence must be between 0 and 1"),
], ids=["repeated name", "missing file", "bad confidence"])
def test_command_refuses_bad_input_in_one_line(files, capsys, argv, message):
    gold = str(files / "gold.jsonl")
    argv = [a.replace("GOLD", gold).replace("MISSING", str(files / "nope.jsonl")) for a in argv]
    assert main(["benchmark", "--gold", gold, *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nested-span-f1 benchmark: error: ") and message in err and err.count("\n") == 1


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """Two runs that share a step (1000), each of its own quality."""
    root = tmp_path_factory.mktemp("runs")
    for run, steps in (("base", (500, 1000)), ("large", (1000, 1500))):
        (root / run).mkdir()
        for step in steps:
            spans = PREDICTIONS[step if run == "base" else {1000: 1500, 1500: 1000}[step]]
            write_corpus(Corpus(TOKENS, spans, ["s1", "s2", "s3", "s4"]), root / run / f"checkpoint-{step}.jsonl")
    return root


def test_two_runs_sharing_a_step_are_two_lines(files, two_runs, tmp_path):
    pytest.importorskip("matplotlib", reason="plots need matplotlib (pip install '.[plots]' in the clone)")
    result = benchmark(files / "gold.jsonl", {"base": two_runs / "base", "large": two_runs / "large"}, n_resamples=200,
                       progress=False)
    by_step = result.plot(tmp_path / "runs.png").axes[2]
    lines = {line.get_label(): (list(line.get_xdata()), list(line.get_ydata())) for line in by_step.get_lines()}
    f1 = {s["name"]: s["f1"]["value"] for s in result.systems}
    assert lines == {
        "base": ([500, 1000], [f1["base/checkpoint-500"], f1["base/checkpoint-1000"]]),
        "large": ([1000, 1500], [f1["large/checkpoint-1000"], f1["large/checkpoint-1500"]]),
    }
    from matplotlib.collections import PathCollection, PolyCollection

    # per run: its interval band, then its points
    kinds = [PolyCollection if isinstance(c, PolyCollection) else type(c) for c in by_step.collections]
    assert kinds == [PolyCollection, PathCollection] * 2


def test_command_writes_every_view_of_two_runs(files, two_runs, tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="plots need matplotlib (pip install '.[plots]' in the clone)")
    out = tmp_path / "out"
    code = main(["benchmark", "--gold", str(files / "gold.jsonl"), "--pred", f"base={two_runs / 'base'}", "--pred",
                 f"large={two_runs / 'large'}", "--bootstrap", "200", "--no-progress", "--json",
                 "--markdown", f"{out}.md", "--plot", f"{out}.png", "--model-card", f"{out}.card.md"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert [s["name"] for s in json.loads(out)["systems"]][:2] == ["base/checkpoint-500", "base/checkpoint-1000"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.card.md", "out.md", "out.png"]


def test_a_view_that_fails_leaves_no_file(files, tmp_path, capsys, monkeypatch):
    """Every view is made before any is written: a plot that cannot be drawn leaves no JSON or Markdown behind."""
    pytest.importorskip("matplotlib", reason="plots need matplotlib (pip install '.[plots]' in the clone)")
    from nested_span_f1.render import plots

    def broken(result, ax):
        raise ValueError("the figure has no room for 2 runs")

    monkeypatch.setattr(plots, "f1_by_step", broken)
    code = main(["benchmark", "--gold", str(files / "gold.jsonl"), "--pred", str(files / "runs"), "--bootstrap", "100",
                 "--no-progress", "--json", "--html", str(tmp_path / "b.html"), "--markdown", str(tmp_path / "b.md"),
                 "--plot", str(tmp_path / "b.png")])
    out, err = capsys.readouterr()
    assert (code, out, err) == (2, "", "nested-span-f1 benchmark: error: the figure has no room for 2 runs\n")
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_cannot_be_written_is_named_with_those_written(files, tmp_path, capsys):
    """A write that fails after scoring (a full device: an output in a folder that does not exist, or one that is a
    folder, is refused before anything is scored) names the file and what was written."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full (a device every write to fails) on this system")
    code = main(["benchmark", "--gold", str(files / "gold.jsonl"), "--pred", str(files / "runs"), "--bootstrap", "100",
                 "--no-progress", "--markdown", str(tmp_path / "b.md"), "--html", "/dev/full"])
    out, err = capsys.readouterr()
    assert code == 2 and out == (tmp_path / "b.md").read_text()
    assert err == (f"nested-span-f1 benchmark: error: could not write --html /dev/full (No space left on device); "
                   f"wrote --markdown {tmp_path / 'b.md'}\n")
    code = main(["benchmark", "--gold", str(files / "gold.jsonl"), "--pred", str(files / "runs"), "--bootstrap", "100",
                 "--no-progress", "--markdown", str(tmp_path / "missing" / "b.md")])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "") and err == (f"nested-span-f1 benchmark: error: --markdown {tmp_path / 'missing' / 'b.md'}: "
                                              f"the folder {tmp_path / 'missing'} does not exist\n")


def test_progress_bars_only_on_a_terminal(files, tmp_path):
    """``2> err.txt`` gets no bar; a terminal gets the bootstrap's and the randomization's (the file readers'
    rule: :mod:`nested_span_f1.core.progress`)."""
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    command = [sys.executable, "-m", "nested_span_f1.cli", "benchmark", "--gold", str(files / "gold.jsonl"),
               "--pred", str(files / "runs"), "--bootstrap", "300"]
    env = {**os.environ, "TQDM_MININTERVAL": "0", "TQDM_MINITERS": "1"}
    with open(tmp_path / "err.txt", "wb") as err:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=err, env=env, timeout=120, check=False)
    assert done.returncode == 0 and (tmp_path / "err.txt").read_bytes() == b""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # tqdm draws to the terminal's width
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    drawn = []
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # EIO: the child has ended
            break
        drawn.append(chunk)
    os.close(master)
    assert child.wait(timeout=120) == 0
    terminal = b"".join(drawn).decode()
    assert "bootstrap: 100%" in terminal and "randomization: 100%" in terminal and "300/300" in terminal
