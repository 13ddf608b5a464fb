"""Top k per sentence (issue 50, item 3): the curve over k equals keeping each sentence's k best predictions by a
plain loop and re-scoring with the metric's scorer, for every k; the command's figures at k, the k chosen on dev,
and the curve drawn beside the threshold curve."""
from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import given
from scored_sets import LABELS, scored_sets

from nested_span_f1 import score_lenient, score_nested
from nested_span_f1.cli.main import main
from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.thresholds import scored_pair, top_k_curve
from nested_span_f1.thresholds.score import gains
from nested_span_f1.thresholds.topk import TOP_K_KEYS, curve_over_k, top_k_figures


def top_k(spans, k, decode):
    """A sentence's top ``k``, written apart from the package: each span once at its highest score, in decreasing
    score (ties: start, end, label); with flat decoding each kept when it overlaps no span kept before it, until
    ``k`` are kept."""
    best = {}
    for s, e, label, score in spans:
        best[s, e, label] = max(score, best.get((s, e, label), score))
    ranked = sorted(best, key=lambda key: (-best[key], key))
    if decode == "nested":
        return ranked[:k]
    kept = []
    for s, e, label in ranked:
        if len(kept) < k and all(e <= a or b <= s for a, b, _ in kept):
            kept.append((s, e, label))
    return kept


def rescored(gold, pred, k, metric, decode):
    kept = [top_k(spans, k, decode) for spans in pred]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        if metric == "lenient":
            r = score_lenient(kept, gold, zero_division=0)
            per = {label: (row["type"]["correct"], row["type"]["actual"], row["type"]["possible"])
                   for label, row in r["per_type"].items()}
            return (r["type_correct"], r["type_actual"], r["type_possible"], r["type_precision"], r["type_recall"],
                    r["type_f1"]), per
        r = score_nested(kept, gold, zero_division=0)
    per = {label: (sum(1 for spans, g in zip(kept, gold) for x in spans if x[2] == label and x in g),
                   sum(1 for spans in kept for x in spans if x[2] == label), r[label]["number"])
           for label in LABELS if label in r}
    return (r["tp"], r["tp"] + r["fp"], r["tp"] + r["fn"], r["overall_precision"], r["overall_recall"],
            r["overall_f1"]), per


@pytest.mark.parametrize("decode", ["nested", "flat"])
@pytest.mark.parametrize("metric", ["exact", "lenient"])
@given(data=scored_sets())
def test_the_curve_over_k_is_rescoring_the_top_k_of_each_sentence(metric, decode, data):
    gold, pred = data
    found = gains(scored_pair(gold, pred), metric, decode)
    curve = curve_over_k(found)
    most = max((len(top_k(spans, 10 ** 6, decode)) for spans in pred), default=0)
    assert curve.k.tolist() == list(range(1, most + 1))
    for k in range(1, most + 2):
        overall, per = rescored(gold, pred, k, metric, decode)
        i = min(k, most) - 1
        if most:
            assert (int(curve.tp[i]), int(curve.predicted[i]), curve.gold) == overall[:3]
            assert (curve.precision[i], curve.recall[i], curve.f1[i]) == overall[3:]
        figures = top_k_figures(found, k)
        assert (figures["tp"], figures["tp"] + figures["fp"], figures["tp"] + figures["fn"]) == overall[:3]
        assert (figures["precision"], figures["recall"], figures["f1"]) == overall[3:]
        shown = {label: (row["tp"], row["predicted"], row["number"]) for label, row in figures["per_type"].items()}
        assert shown == {label: counts for label, counts in per.items() if counts[1] or counts[2]}


def test_a_worked_example_by_hand():
    gold = [[(0, 1, "A"), (2, 3, "A")], [(0, 2, "B")]]
    pred = [[(0, 1, "A", 0.9), (1, 2, "A", 0.8), (2, 3, "A", 0.3)], [(0, 2, "B", 0.2)]]
    curve = top_k_curve(gold, pred)
    # k=1: 0.9 (right) and 0.2 (right); k=2: 0.8 (wrong) joins; k=3: 0.3 (right)
    assert [tuple(p.values()) for p in curve.points()] == [
        (1, 1.0, 2 / 3, 0.8, 2, 0, 1), (2, 2 / 3, 2 / 3, 2 / 3, 2, 1, 1), (3, 0.75, 1.0, 0.8571428571428571, 3, 1, 0)]
    assert list(curve.points()[0]) == list(TOP_K_KEYS)
    assert curve.best == {"k": 3, "precision": 0.75, "recall": 1.0, "f1": 0.8571428571428571}
    assert top_k_curve([[(0, 1, "A")]], [[(1, 2, "A", 0.5)]]).best is None  # never right: no best k


@pytest.fixture
def files(tmp_path):
    def write(name, rows):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        return str(path)

    def sentence(k, gold, scored):
        return ({"sent_id": f"s{k}", "tokens": ["w"] * 5, "entity_mentions": [
                    {"start": s, "end": e, "entity_type": lab} for s, e, lab in gold]},
                {"sent_id": f"s{k}", "tokens": ["w"] * 5, "entity_mentions": [
                    {"start": s, "end": e, "entity_type": lab, "score": x} for s, e, lab, x in scored]})

    test = [sentence(0, [(0, 1, "A"), (2, 3, "A")], [(0, 1, "A", 0.9), (1, 2, "A", 0.8), (2, 3, "A", 0.3)]),
            sentence(1, [(0, 2, "B")], [(0, 2, "B", 0.2), (3, 4, "B", 0.1)])]
    dev = [sentence(0, [(0, 1, "A"), (1, 2, "B")], [(0, 1, "A", 0.6), (1, 2, "B", 0.5), (3, 5, "A", 0.4)])]
    return {"gold": write("gold", [g for g, _ in test]), "pred": write("pred", [p for _, p in test]),
            "dev_gold": write("dev_gold", [g for g, _ in dev]), "dev_pred": write("dev_pred", [p for _, p in dev])}


def test_the_command_reports_top_k_and_its_curve(files, capsys):
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--top-k", "2", "--json"]) == 0
    top = json.loads(capsys.readouterr().out)["top_k"]
    assert top["k"] == 2 and top["curve"] == top_k_curve(files["gold"], files["pred"]).points()
    assert [top["at_k"][key] for key in ("tp", "fp", "fn")] == [2, 2, 1]  # k=2: 0.9, 0.8; 0.2, 0.1
    # k=1: 0.9 and 0.2, both right (F1 0.8); k=3 finds every gold span but keeps two wrong ones (F1 0.75)
    assert top["best"] == {"k": 1, "precision": 1.0, "recall": 0.6666666666666666, "f1": 0.8}
    assert top["curve"][2]["f1"] == 0.7499999999999999
    assert set(top["at_k"]["interval"]) == {"precision", "recall", "f1"}
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--top-k", "2"]) == 0
    text = capsys.readouterr().out
    assert "  at k=2: precision 0.5000, recall 0.6667, F1 0.5714 (tp 2, fp 2, fn 1)" in text
    assert "  best F1 at k=1: precision 1.0000, recall 0.6667, F1 0.8000 (chosen on these files" in text


def test_k_chosen_on_dev_is_applied_to_test(files, capsys):
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--dev-gold", files["dev_gold"],
                 "--dev-pred", files["dev_pred"], "--top-k", "1", "--json"]) == 0
    top = json.loads(capsys.readouterr().out)["top_k"]
    # dev: k=1 keeps A 0.6 (right), k=2 adds B 0.5 (right), k=3 adds A 0.4 (wrong): k=2 is best
    assert top["chosen_on_dev"] == 2 and top["dev"]["best"]["k"] == 2
    assert [top["at_dev_k"][key] for key in ("k", "tp", "fp", "fn")] == [2, 2, 2, 1]
    assert top["oracle_best_on_test"]["k"] == 1 and top["oracle_best_on_test"]["note"].startswith("ORACLE")
    assert "best" not in top


def test_the_plot_draws_the_curve_over_k_beside_the_thresholds(files, capsys, tmp_path):
    page = tmp_path / "c.html"
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--top-k", "1", "--plot",
                 str(page)]) == 0
    text = page.read_text()
    assert text.count('class="extra"') == 1 and "top k per sentence (k = 1, 2, ...)" in text


@pytest.mark.parametrize("value", ["0", "-1", "two"])
def test_a_k_below_one_is_refused(files, capsys, value):
    with pytest.raises(SystemExit):
        main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--top-k", value])
    assert "argument --top-k" in capsys.readouterr().err
