"""Thresholds, honest (issue 50, item 3; issue 48, item 15): a best threshold among the lowest saved scores is
warned about in the report and the JSON, saying what to save; ``predicted`` is counted at the threshold a row
names; a type never right has no best threshold (none, with the fallback said); which of ``score`` and ``prob``
was read is said; development files that are the test files are refused."""
from __future__ import annotations

import json
import os
import shutil

import pytest

from nested_span_f1.cli.main import main
from nested_span_f1.thresholds import apply_thresholds, scored_pair, threshold_curve
from nested_span_f1.thresholds.curve import CUT_SHARE


def run(capsys, *args):
    capsys.readouterr()
    code = main(["thresholds", *args])
    out, err = capsys.readouterr()
    return code, out, err


def write(path, records):
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return str(path)


def sentence(k, gold, scored, prob=False, both=False):
    """A OneIE sentence ``k`` of four tokens, its gold mentions and its scored mentions (the score under ``prob``,
    or under both keys)."""
    def mention(start, end, label, score=None):
        out = {"start": start, "end": end, "entity_type": label}
        if score is not None:
            out["prob" if prob else "score"] = score
            if both:
                out["prob"] = round(1 - score, 2)
        return out

    tokens = ["w"] * 4
    return ({"sent_id": f"s{k}", "tokens": tokens, "entity_mentions": [mention(*m) for m in gold]},
            {"sent_id": f"s{k}", "tokens": tokens, "entity_mentions": [mention(*m) for m in scored]})


# --- the cut: a best threshold among the lowest 5% of the saved scores ----------------------------------------------

def cut_curve(right_scores, wrong_scores, n_gold=None):
    """The curve of one sentence a prediction: right ones (gold holds them) and wrong ones; ``n_gold`` gold spans
    in all (those beyond the right predictions never predicted)."""
    n_gold = len(right_scores) if n_gold is None else n_gold
    gold = [[(0, 1, "A")] for _ in range(n_gold)] + [[] for _ in wrong_scores]
    pred = [[(0, 1, "A", s)] for s in right_scores] + [[] for _ in range(n_gold - len(right_scores))]
    pred += [[(1, 2, "A", s)] for s in wrong_scores]
    return threshold_curve(gold, pred, zero_division=0)


def step_area(hits, n_gold):
    """Average precision by its definition, from the hits in decreasing score: the rise in recall at each hit
    times the precision there."""
    found = 0
    area = 0.0
    for rank, hit in enumerate(hits, 1):
        found += hit
        area += hit / n_gold * found / rank
    return area


def test_the_cut_is_at_most_five_percent_of_the_saved_predictions_below_the_best():
    assert CUT_SHARE == 0.05
    # 20 predictions, all right but one scored 0.05: the best threshold is the lowest score, with none below it
    curve = cut_curve([0.9 - k / 100 for k in range(19)] + [0.05], [])
    assert (curve.best["threshold"], curve.best_near_cut) == (0.05, True)
    # one of 20 (5%) below the best: still at the cut
    curve = cut_curve([0.9 - k / 100 for k in range(19)], [0.01])
    assert (curve.best["threshold"], curve.best_near_cut) == (0.72, True)
    # two of 21 (9.5%) below: not
    curve = cut_curve([0.9 - k / 100 for k in range(19)], [0.01, 0.02])
    assert (curve.best["threshold"], curve.best_near_cut) == (0.72, False)
    assert curve.warnings() == []


def test_a_curve_cut_where_the_predictions_were_saved_is_warned_about_saying_what_to_save():
    """Saved down to 0.5 the best threshold is the lowest saved (F1 still rising there); saved down to 0.01 the
    best lies well above the lowest score, and average precision differs: the cut moved both."""
    right = [0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.55, 0.5, 0.4, 0.35, 0.3]
    wrong = [0.75, 0.45, 0.2, 0.15, 0.1, 0.05, 0.04, 0.03, 0.02, 0.01]
    cut = cut_curve([s for s in right if s >= 0.5], [s for s in wrong if s >= 0.5], len(right))
    full = cut_curve(right, wrong)
    assert (cut.best["threshold"], full.best["threshold"]) == (0.5, 0.3)
    assert (cut.best_near_cut, full.best_near_cut) == (True, False)
    ranked = sorted([(s, 1) for s in right] + [(s, 0) for s in wrong], reverse=True)
    assert cut.average_precision == pytest.approx(step_area([h for s, h in ranked if s >= 0.5], 11), abs=1e-15)
    assert full.average_precision == pytest.approx(step_area([h for _, h in ranked], 11), abs=1e-15)
    assert (round(cut.average_precision, 4), round(full.average_precision, 4)) == (0.6777, 0.9047)
    assert cut.warnings() == [
        "all types: the best threshold 0.5 lies within the lowest 5% of the saved scores (0 of 9 predictions score "
        "below it; the lowest saved is 0.5): the curve stops where the predictions were saved, so F1 may still "
        "rise below it and average precision depends on that cut; save the predictions down to a lower score than "
        "0.5 (every candidate span, or the model's own threshold lowered) and run again",
        "A: the best threshold 0.5 lies within the lowest 5% of the saved scores (0 of 9 predictions score below "
        "it; the lowest saved is 0.5): the curve stops where the predictions were saved, so F1 may still rise "
        "below it and average precision depends on that cut; save the predictions down to a lower score than 0.5 "
        "(every candidate span, or the model's own threshold lowered) and run again"]
    assert cut.to_dict()["warnings"] == cut.warnings() and cut.summary()["best_near_cut"] is True
    assert cut.summary()["lowest_score"] == 0.5 and full.to_dict()["warnings"] == []


def test_the_command_warns_in_the_report_and_the_json(tmp_path, capsys):
    rows = [sentence(k, [(0, 1, "A")], [(0, 1, "A", 0.9 - k / 10)]) for k in range(3)]
    rows.append(sentence(3, [(0, 1, "B")], [(0, 1, "B", 0.95), (1, 2, "B", 0.1)]))
    gold, pred = write(tmp_path / "g.jsonl", [g for g, _ in rows]), write(tmp_path / "p.jsonl", [p for _, p in rows])
    code, out, _ = run(capsys, "--gold", gold, "--pred", pred, "--json")
    result = json.loads(out)
    assert code == 0 and result["best_near_cut"] is False  # overall: 1 of 5 (20%) below the best, 0.7
    assert result["per_type"]["A"]["best_near_cut"] and not result["per_type"]["B"]["best_near_cut"]
    assert len(result["warnings"]) == 1 and result["warnings"][0].startswith(
        "A: the best threshold 0.7 lies within the lowest 5% of the saved scores (0 of 3 predictions score below "
        "it; the lowest saved is 0.7)")
    _, text, _ = run(capsys, "--gold", gold, "--pred", pred)
    assert f"\nWARNING: {result['warnings'][0]}\n" in text


# --- predicted at the threshold the row names -------------------------------------------------------------------------

def test_predicted_is_counted_at_the_threshold_the_row_names(tmp_path, capsys):
    rows = [sentence(0, [(0, 1, "A"), (1, 2, "B")], [(0, 1, "A", 0.9), (1, 2, "A", 0.4), (2, 3, "A", 0.3),
                                                      (1, 2, "B", 0.6), (2, 4, "B", 0.2)]),
            sentence(1, [(0, 2, "A")], [(0, 2, "A", 0.8), (2, 4, "A", 0.7)])]
    golds, preds = [g for g, _ in rows], [p for _, p in rows]
    gold, pred = write(tmp_path / "g.jsonl", golds), write(tmp_path / "p.jsonl", preds)
    dev_gold, dev_pred = write(tmp_path / "dg.jsonl", golds[:1]), write(tmp_path / "dp.jsonl", preds[:1])
    code, out, _ = run(capsys, "--gold", gold, "--pred", pred, "--dev-gold", dev_gold, "--dev-pred", dev_pred, "--json")
    result = json.loads(out)
    chosen = result["selection"]["threshold"]
    assert code == 0 and chosen == 0.6
    at = result["test"]["at_dev_threshold"]
    # counted by hand: at 0.6, A keeps 0.9, 0.8 and 0.7 (3 of its 5 saved), B keeps 0.6 (1 of 2)
    assert {label: (row["predicted"], row["tp"], row["fp"]) for label, row in at["per_type"].items()} == {
        "A": (3, 2, 1), "B": (1, 1, 0)}
    assert {label: row["predicted"] for label, row in result["test"]["per_type"].items()} == {"A": 5, "B": 2}
    _, text, _ = run(capsys, "--gold", gold, "--pred", pred, "--dev-gold", dev_gold, "--dev-pred", dev_pred)
    table = text[text.index("per type, on test at the dev threshold:"):].splitlines()
    assert table[1].split() == ["type", "AP", "threshold", "precision", "recall", "f1", "f1", "interval", "number",
                                "predicted", "saved"]
    assert table[2].split()[-3:] == ["2", "3", "5"] and table[3].split()[-3:] == ["1", "1", "2"]
    # without dev data the table's rows name each type's best threshold: predicted is counted there
    _, text, _ = run(capsys, "--gold", gold, "--pred", pred)
    best = threshold_curve(gold, pred, zero_division=0).per_type["A"].best["threshold"]
    kept = sum(1 for p in preds for m in p["entity_mentions"] if m["entity_type"] == "A" and m["score"] >= best)
    assert (best, kept) == (0.8, 2)
    row = next(line for line in text.splitlines() if line.startswith("A "))
    assert row.split()[2] == "0.8" and row.split()[-3:] == ["2", "2", "5"]


# --- a type never right --------------------------------------------------------------------------------------------

def test_a_type_never_right_has_no_best_threshold_and_takes_the_overall_one(tmp_path, capsys):
    """RNA is predicted but never right, on dev and on test: no threshold of its own (F1 0 at every one, none
    better than another), reported as none; per type, it takes the overall dev threshold, said so."""
    dev = [sentence(0, [(0, 1, "protein"), (1, 2, "RNA")], [(0, 1, "protein", 0.8), (2, 3, "RNA", 0.0696)])]
    test = [sentence(0, [(0, 1, "protein"), (1, 2, "RNA")], [(0, 1, "protein", 0.9), (2, 3, "RNA", 0.5)]),
            sentence(1, [(0, 2, "protein")], [(0, 2, "protein", 0.7), (1, 3, "RNA", 0.3)])]
    curve = threshold_curve([[(0, 1, "protein"), (1, 2, "RNA")]], [[(0, 1, "protein", 0.8), (2, 3, "RNA", 0.0696)]])
    assert curve.per_type["RNA"].best is None and curve.per_type["RNA"].summary()["predicted_at_best"] is None
    assert curve.per_type["protein"].best["threshold"] == 0.8
    files = {name: write(tmp_path / f"{name}.jsonl", [r[k] for r in rows]) for name, rows, k in
             (("dev_gold", dev, 0), ("dev_pred", dev, 1), ("gold", test, 0), ("pred", test, 1))}
    code, out, _ = run(capsys, "--gold", files["gold"], "--pred", files["pred"], "--dev-gold", files["dev_gold"],
                       "--dev-pred", files["dev_pred"], "--per-type", "--json")
    result = json.loads(out)
    assert code == 0
    assert result["selection"]["thresholds"] == {"protein": 0.8}
    assert result["selection"]["types_without_dev_threshold"] == {
        "RNA": "never right on dev (F1 0 at every threshold)"}
    assert result["dev"]["curve"]["per_type"]["RNA"]["best"] is None
    pair = scored_pair(files["gold"], files["pred"])
    assert result["test"]["at_dev_threshold"]["per_type"]["RNA"]["predicted"] == apply_thresholds(
        pair, 0.8)["per_type"]["RNA"]["predicted"] == 0  # at the overall dev threshold 0.8, not at 0.0696
    oracle = result["test"]["oracle_best_on_test"]
    assert oracle["thresholds"] == {"protein": 0.7}
    assert oracle["types_without_threshold"] == {"RNA": "never right on test (F1 0 at every threshold)"}
    _, text, _ = run(capsys, "--gold", files["gold"], "--pred", files["pred"], "--dev-gold", files["dev_gold"],
                     "--dev-pred", files["dev_pred"], "--per-type")
    assert ("  types without a threshold of their own on dev, given the overall dev threshold: RNA (never right on "
            "dev (F1 0 at every threshold))") in text
    assert "RNA                0.0000       0.8*" in text
    assert ("* no threshold of its own on dev (RNA: never right on dev (F1 0 at every threshold)): the overall dev "
            "threshold applied") in text


def test_dev_never_right_is_refused_and_test_never_right_has_no_oracle(tmp_path, capsys):
    wrong = [sentence(0, [(0, 2, "A")], [(1, 2, "A", 0.5)])]
    right = [sentence(0, [(0, 1, "A")], [(0, 1, "A", 0.5)])]
    files = {name: write(tmp_path / f"{name}.jsonl", [r[k] for r in rows]) for name, rows, k in
             (("wrong_gold", wrong, 0), ("wrong_pred", wrong, 1), ("right_gold", right, 0), ("right_pred", right, 1))}
    code, _, err = run(capsys, "--gold", files["right_gold"], "--pred", files["right_pred"], "--dev-gold",
                       files["wrong_gold"], "--dev-pred", files["wrong_pred"])
    assert code == 2 and err == (f"nested-span-f1 thresholds: error: {files['wrong_gold']}: no prediction is right at "
                                 "any threshold (F1 0 at every one), so no threshold can be chosen\n")
    code, out, _ = run(capsys, "--gold", files["wrong_gold"], "--pred", files["wrong_pred"], "--dev-gold",
                       files["right_gold"], "--dev-pred", files["right_pred"], "--json")
    test = json.loads(out)["test"]
    assert code == 0 and "oracle_best_on_test" not in test
    assert test["no_oracle"] == "no oracle: no test prediction is right at any threshold (F1 0 at every one)"
    _, text, _ = run(capsys, "--gold", files["wrong_gold"], "--pred", files["wrong_pred"])
    assert "  no best threshold: no prediction is right at any threshold (F1 0 at every one)\n" in text


# --- which key was read (issue 48, item 15) -----------------------------------------------------------------------------

@pytest.mark.parametrize(("keys", "line", "read"), [
    ({"both": True}, "scores read (--pred): 2 entities hold both 'score' and 'prob': 'score' read, 'prob' not",
     {"pred": {"score_and_prob": 2, "scores_from_prob": 0}}),
    ({"prob": True}, "scores read (--pred): 2 entities hold 'prob' alone: read as the score",
     {"pred": {"score_and_prob": 0, "scores_from_prob": 2}}),
    ({}, None, None)])
def test_entities_holding_score_and_prob_say_which_was_read(tmp_path, capsys, keys, line, read):
    rows = [sentence(0, [(0, 1, "A")], [(0, 1, "A", 0.9), (1, 2, "A", 0.2)], **keys)]
    gold, pred = write(tmp_path / "g.jsonl", [g for g, _ in rows]), write(tmp_path / "p.jsonl", [p for _, p in rows])
    code, out, _ = run(capsys, "--gold", gold, "--pred", pred, "--json")
    result = json.loads(out)
    assert code == 0 and result.get("score_keys") == read
    assert [p["threshold"] for p in result["curve"]] == [0.9, 0.2]  # 'score' where both: 'prob' is 1 - score
    _, text, _ = run(capsys, "--gold", gold, "--pred", pred)
    assert (text.splitlines()[2] == line) if line else "scores read" not in text


def test_development_predictions_say_which_key_was_read_too(tmp_path, capsys):
    test = [sentence(0, [(0, 1, "A")], [(0, 1, "A", 0.9)])]
    dev = [sentence(0, [(0, 1, "A"), (1, 2, "A")], [(0, 1, "A", 0.8), (1, 3, "A", 0.3)], both=True)]
    files = [write(tmp_path / f"{name}.jsonl", [r[k] for r in rows]) for name, rows, k in
             (("g", test, 0), ("p", test, 1), ("dg", dev, 0), ("dp", dev, 1))]
    args = ["--gold", files[0], "--pred", files[1], "--dev-gold", files[2], "--dev-pred", files[3]]
    code, out, _ = run(capsys, *args, "--json")
    assert code == 0 and json.loads(out)["score_keys"] == {"dev_pred": {"score_and_prob": 2, "scores_from_prob": 0}}
    _, text, _ = run(capsys, *args)
    assert text.splitlines()[2] == ("scores read (--dev-pred): 2 entities hold both 'score' and 'prob': 'score' "
                                    "read, 'prob' not")


def test_a_text_span_file_says_which_key_was_read_too(tmp_path, capsys):
    gold = write(tmp_path / "g.jsonl", [{"id": "d", "text": "Ann met Bob", "entities": [
        {"start": 0, "end": 3, "label": "PER"}]}])
    pred = write(tmp_path / "p.jsonl", [{"id": "d", "text": "Ann met Bob", "entities": [
        {"start": 0, "end": 3, "label": "PER", "score": 0.9, "prob": 0.1},
        {"start": 8, "end": 11, "label": "PER", "prob": 0.4}]}])
    code, out, _ = run(capsys, "--gold", gold, "--pred", pred, "--json")
    assert code == 0 and json.loads(out)["score_keys"] == {"pred": {"score_and_prob": 1, "scores_from_prob": 1}}
    assert [p["threshold"] for p in json.loads(out)["curve"]] == [0.9, 0.4]


# --- development files that are the test files --------------------------------------------------------------------

@pytest.mark.parametrize("how", ["same path", "symbolic link", "copy"])
@pytest.mark.parametrize("side", ["gold", "pred"])
def test_dev_files_that_are_the_test_files_are_refused(tmp_path, capsys, how, side):
    rows = [sentence(0, [(0, 1, "A")], [(0, 1, "A", 0.9)])]
    files = {"gold": write(tmp_path / "g.jsonl", [rows[0][0]]), "pred": write(tmp_path / "p.jsonl", [rows[0][1]]),
             "dev_gold": write(tmp_path / "dg.jsonl", [rows[0][0]] * 1), "dev_pred": None}
    files["dev_pred"] = write(tmp_path / "dp.jsonl", [{**rows[0][1], "entity_mentions": []}])
    (tmp_path / "dg.jsonl").write_text((tmp_path / "dg.jsonl").read_text() + "\n")  # not a copy of the test gold
    dev = {"same path": files[side], "symbolic link": str(tmp_path / "link.jsonl"),
           "copy": str(tmp_path / "copy.jsonl")}[how]
    if how == "symbolic link":
        os.symlink(files[side], dev)
    elif how == "copy":
        shutil.copyfile(files[side], dev)
    files[f"dev_{side}"] = dev
    code, out, err = run(capsys, "--gold", files["gold"], "--pred", files["pred"], "--dev-gold", files["dev_gold"],
                         "--dev-pred", files["dev_pred"])
    same = "a copy of it (the same bytes)" if how == "copy" else "the same file"
    what = "gold" if side == "gold" else "predictions"
    assert (code, out) == (2, "")
    assert err == (f"nested-span-f1 thresholds: error: --dev-{side} {dev} is the test {what} (--{side} {files[side]}: "
                   f"{same}); a threshold is chosen on development data, and one chosen on the test set is the "
                   "oracle, which the report gives without --dev-gold and --dev-pred\n")
