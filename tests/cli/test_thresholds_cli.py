"""``nested-span-f1 thresholds``: the curve, the figures at the system's threshold, a threshold chosen on dev and
applied to test beside the oracle (labelled), the plots, and the command lines it refuses."""
import json

import pytest

from nested_span_f1.cli.main import main
from nested_span_f1.thresholds import threshold_curve

TEST_GOLD = [{"sent_id": "t1", "tokens": ["a", "b", "c", "d"],
              "entity_mentions": [{"start": 0, "end": 2, "entity_type": "PER"}, {"start": 3, "end": 4, "entity_type": "LOC"}]},
             {"sent_id": "t2", "tokens": ["e", "f"], "entity_mentions": [{"start": 0, "end": 1, "entity_type": "PER"}]}]
TEST_PRED = [{"sent_id": "t1", "tokens": ["a", "b", "c", "d"], "entity_mentions": [
                 {"start": 0, "end": 2, "entity_type": "PER", "score": 0.9},
                 {"start": 3, "end": 4, "entity_type": "ORG", "score": 0.8},
                 {"start": 3, "end": 4, "entity_type": "LOC", "score": 0.4}]},
             {"sent_id": "t2", "tokens": ["e", "f"], "entity_mentions": [
                 {"start": 0, "end": 1, "entity_type": "PER", "score": 0.8},
                 {"start": 1, "end": 2, "entity_type": "PER", "score": 0.2}]}]
DEV_GOLD = [{"sent_id": "d1", "tokens": ["a", "b", "c"],
             "entity_mentions": [{"start": 0, "end": 1, "entity_type": "PER"}, {"start": 1, "end": 3, "entity_type": "LOC"}]}]
DEV_PRED = [{"sent_id": "d1", "tokens": ["a", "b", "c"], "entity_mentions": [
    {"start": 0, "end": 1, "entity_type": "PER", "score": 0.7}, {"start": 1, "end": 3, "entity_type": "LOC", "score": 0.3},
    {"start": 2, "end": 3, "entity_type": "LOC", "score": 0.6}, {"start": 0, "end": 2, "entity_type": "LOC", "score": 0.5}]}]


@pytest.fixture
def files(tmp_path):
    out = {}
    for name, rows in (("gold", TEST_GOLD), ("pred", TEST_PRED), ("dev_gold", DEV_GOLD), ("dev_pred", DEV_PRED)):
        out[name] = str(tmp_path / f"{name}.jsonl")
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return out


def run(capsys, *args):
    capsys.readouterr()
    code = main(["thresholds", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_curve_and_the_system_threshold(files, capsys):
    code, out, err = run(capsys, "--gold", files["gold"], "--pred", files["pred"], "--json")
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["curve"] == [
        {"threshold": 0.9, "precision": 1.0, "recall": 1 / 3, "f1": 0.5, "tp": 1, "fp": 0, "fn": 2},
        {"threshold": 0.8, "precision": 2 / 3, "recall": 2 / 3, "f1": 2 / 3, "tp": 2, "fp": 1, "fn": 1},
        {"threshold": 0.4, "precision": 0.75, "recall": 1.0, "f1": 0.8571428571428571, "tp": 3, "fp": 1, "fn": 0},
        {"threshold": 0.2, "precision": 0.6, "recall": 1.0, "f1": 0.7499999999999999, "tp": 3, "fp": 2, "fn": 0}]
    assert result["best"] == {"threshold": 0.4, "precision": 0.75, "recall": 1.0, "f1": 0.8571428571428571}
    assert result["average_precision"] == 0.8055555555555556
    assert set(result["per_type"]) == {"LOC", "ORG", "PER"}
    # ORG is never right: no best threshold (F1 0 at every one), reported as none
    assert result["per_type"]["ORG"] == {"curve": [{"threshold": 0.8, "precision": 0.0, "recall": 0.0, "f1": 0.0,
                                                    "tp": 0, "fp": 1, "fn": 0}],
                                         "best": None, "average_precision": 0.0, "number": 0, "predicted": 1,
                                         "predicted_at_best": None, "thresholds": 1, "lowest_score": 0.8,
                                         "best_near_cut": False}
    at = result["at_system_threshold"]
    assert {k: at[k] for k in ("threshold", "tp", "fp", "fn", "precision", "recall", "f1")} == {
        "threshold": 0.5, "tp": 2, "fp": 1, "fn": 1, "precision": 2 / 3, "recall": 2 / 3, "f1": 2 / 3}
    assert (result["metric"], result["decode"]) == ("nested", "nested")
    _, text, _ = run(capsys, "--gold", files["gold"], "--pred", files["pred"])
    assert "overall: 4 thresholds, average precision 0.8056" in text
    assert "best F1 at threshold 0.4: precision 0.7500, recall 1.0000, F1 0.8571 (chosen on these files" in text
    assert "at the system's threshold 0.5: precision 0.6667, recall 0.6667, F1 0.6667 (tp 2, fp 1, fn 1)" in text
    assert "ORG                0.0000       none         -         -         -       0         -       1" in text
    assert "none: ORG never right at any threshold (F1 0 at every one): no best threshold" in text


def test_a_threshold_chosen_on_dev_is_reported_beside_the_oracle(files, capsys):
    code, out, err = run(capsys, "--gold", files["gold"], "--pred", files["pred"], "--dev-gold", files["dev_gold"],
                         "--dev-pred", files["dev_pred"], "--json")
    assert (code, err) == (0, "")
    result = json.loads(out)
    # dev: F1 2/3 at 0.7 and at 0.3: the highest threshold of equals
    assert result["selection"] == {"on": files["dev_gold"], "per_type": False, "threshold": 0.7, "thresholds": None,
                                   "types_without_dev_threshold": {}, "labels_only_in_dev": [],
                                   "labels_only_in_test": ["ORG"], "system_threshold": 0.5}
    test = result["test"]
    figures = ("precision", "recall", "f1", "tp", "fp", "fn")
    assert [test["at_dev_threshold"][k] for k in figures] == [2 / 3, 2 / 3, 2 / 3, 2, 1, 1]
    assert [test["oracle_best_on_test"][k] for k in figures] == [0.75, 1.0, 0.8571428571428571, 3, 1, 0]
    assert test["oracle_best_on_test"]["threshold"] == 0.4
    assert test["oracle_best_on_test"]["note"].startswith("ORACLE: the threshold of best F1 on the test set itself")
    assert "best" not in test and all("best" not in row for row in test["per_type"].values())
    assert test["average_precision"] == 0.8055555555555556 and len(test["curve"]) == 4
    assert result["dev"]["curve"]["best"]["threshold"] == 0.7
    _, text, _ = run(capsys, "--gold", files["gold"], "--pred", files["pred"], "--dev-gold", files["dev_gold"],
                     "--dev-pred", files["dev_pred"])
    assert "at the dev threshold (report this)" in text and "ORACLE: best on test (do not report)" in text
    assert "labels only in test: ORG" in text


def test_per_type_thresholds_and_a_type_dev_never_predicted(files, capsys):
    code, out, _ = run(capsys, "--gold", files["gold"], "--pred", files["pred"], "--dev-gold", files["dev_gold"],
                       "--dev-pred", files["dev_pred"], "--per-type", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["selection"]["thresholds"] == {"LOC": 0.3, "PER": 0.7}
    assert result["selection"]["types_without_dev_threshold"] == {"ORG": "never predicted on dev"}  # takes 0.7
    at = result["test"]["at_dev_threshold"]
    assert [at[k] for k in ("tp", "fp", "fn")] == [3, 1, 0]
    # ORG is never right on test: no oracle threshold of its own either
    assert result["test"]["oracle_best_on_test"]["thresholds"] == {"LOC": 0.4, "PER": 0.8}
    assert result["test"]["oracle_best_on_test"]["types_without_threshold"] == {
        "ORG": "never right on test (F1 0 at every threshold)"}


@pytest.mark.parametrize("options", [["--decode", "flat"], ["--metric", "lenient"], ["--metric", "exact"],
                                     ["--metric", "lenient", "--decode", "flat", "--min-iou", "0.5"]])
def test_the_json_curve_is_threshold_curves(files, capsys, options):
    code, out, _ = run(capsys, "--gold", files["gold"], "--pred", files["pred"], "--json", *options)
    assert code == 0
    result = json.loads(out)
    settings = dict(zip(options[::2], options[1::2]))
    expected = threshold_curve(files["gold"], files["pred"], metric=settings.get("--metric", "nested"),
                               decode=settings.get("--decode", "nested"), zero_division=0,
                               min_iou=float(settings["--min-iou"]) if "--min-iou" in settings else None)
    result.pop("at_system_threshold")
    result.pop("bootstrap")
    assert result == expected.to_dict()


def test_plots(files, capsys, tmp_path):
    from PIL import Image

    for suffix in ("png", "svg", "html"):
        target = tmp_path / f"curves.{suffix}"
        code, _, err = run(capsys, "--gold", files["gold"], "--pred", files["pred"], "--dev-gold", files["dev_gold"],
                           "--dev-pred", files["dev_pred"], "--plot", str(target))
        assert (code, err) == (0, "")
    with Image.open(tmp_path / "curves.png") as image:
        assert image.size == (1512, 1164)  # three panels a row, two rows: the overall curve and three types
    assert (tmp_path / "curves.svg").read_text().count("<svg") == 1
    page = (tmp_path / "curves.html").read_text()
    assert page.count('<svg id="pr-curve-') == 4 and "ORACLE" in page and "threshold chosen on dev" in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")  # fetches nothing


def test_conll_predictions_with_a_score_column(tmp_path, capsys):
    gold = tmp_path / "gold.conll"
    gold.write_text("a B-PER\nb I-PER\nc O\n\nd B-LOC\n")
    pred = tmp_path / "pred.conll"
    pred.write_text("a B-PER 0.9\nb I-PER 0.7\nc B-LOC 0.3\n\nd B-LOC 0.6\n")
    code, out, err = run(capsys, "--gold", str(gold), "--pred", str(pred), "--pred-format", "conll",
                         "--gold-format", "conll", "--column", "2", "--score-column", "3", "--json")
    assert (code, err) == (0, "")
    assert [(p["threshold"], p["tp"], p["fp"]) for p in json.loads(out)["curve"]] == [(0.8, 1, 0), (0.6, 2, 0),
                                                                                     (0.3, 2, 1)]
    code, _, err = run(capsys, "--gold", str(gold), "--pred", str(pred), "--gold-format", "conll", "--pred-format",
                       "conll", "--column", "2")
    assert code == 2 and "--score-column" in err


def test_gliner_text_spans_against_token_gold(tmp_path, capsys):
    gold = tmp_path / "gold.conll"
    gold.write_text("Ann B-person\nmet O\nBob B-person\n")
    pred = tmp_path / "gliner.jsonl"
    pred.write_text(json.dumps({"id": "0", "text": "Ann met Bob", "entities": [
        {"start": 0, "end": 3, "text": "Ann", "label": "person", "score": 0.95},
        {"start": 8, "end": 10, "text": "Bo", "label": "person", "score": 0.6}]}) + "\n")
    code, out, err = run(capsys, "--gold", str(gold), "--pred", str(pred), "--json")
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert [(p["threshold"], p["tp"], p["fp"], p["fn"]) for p in result["curve"]] == [(0.95, 1, 0, 1), (0.6, 1, 1, 1)]
    assert result["alignment"]["predictions"]["boundary_inside_token"] == 1
    code, out, _ = run(capsys, "--gold", str(gold), "--pred", str(pred), "--snap", "expand", "--json")
    assert [p["tp"] for p in json.loads(out)["curve"]] == [1, 2]


@pytest.mark.parametrize(("args", "fragment"), [
    (["--dev-gold", "{dev_gold}"], "--dev-gold and --dev-pred go together"),
    (["--per-type"], "--per-type chooses a threshold for each type on dev"),
    (["--plot", "{tmp}/x.gif"], "--plot {tmp}/x.gif: plots are drawn as .png, .svg, .pdf or .html"),
    (["--pred-format", "oneie", "--score-column", "3"], "--score-column names a column of a CoNLL column file"),
    (["--pred-format", "answers"], "language models' answers carry no scores"),
    (["--metric", "exact", "--min-iou", "0.5"], "min_iou applies to the lenient metric"),
    (["--plot", "{pred}"], "--plot {pred} would overwrite --pred {pred}, an input"),
])
def test_command_lines_refused_in_one_line(files, capsys, tmp_path, args, fragment):
    place = {**files, "tmp": str(tmp_path)}
    code, out, err = run(capsys, "--gold", files["gold"], "--pred", files["pred"], *[a.format(**place) for a in args])
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and fragment.format(**place) in err, err


def test_predictions_without_scores_and_sets_sharing_no_label(files, capsys, tmp_path):
    code, _, err = run(capsys, "--gold", files["gold"], "--pred", files["gold"])
    assert code == 2 and "gold.jsonl: the predictions carry no scores; give each entity a 'score' (or 'prob')" in err
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"sent_id": "d1", "tokens": ["a"], "entity_mentions": [
        {"start": 0, "end": 1, "entity_type": "GENE", "score": 0.5}]}) + "\n")
    other_gold = tmp_path / "other_gold.jsonl"
    other_gold.write_text(json.dumps({"sent_id": "d1", "tokens": ["a"], "entity_mentions": [
        {"start": 0, "end": 1, "entity_type": "GENE"}]}) + "\n")
    code, _, err = run(capsys, "--gold", files["gold"], "--pred", files["pred"], "--dev-gold", str(other_gold),
                       "--dev-pred", str(other))
    assert code == 2 and "share no label (GENE against LOC, ORG, PER)" in err
