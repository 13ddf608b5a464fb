"""The nested evaluate module with scored predictions (a real ``evaluate.load`` of the local folder): its figures
at a threshold, ``average_precision`` and the best threshold among its keys, and what it refuses."""
import json
import math

import evaluate
import pytest

from nested_span_f1 import metric_path, score_nested
from nested_span_f1.thresholds import threshold_curve

average_precision_score = pytest.importorskip("sklearn.metrics").average_precision_score

REFERENCES = [[{"start": 0, "end": 2, "label": "protein"}, {"start": 0, "end": 1, "label": "protein"}],
              [{"start": 1, "end": 3, "label": "DNA"}]]
PREDICTIONS = [[{"start": 0, "end": 2, "label": "protein", "score": 0.9},
                {"start": 1, "end": 2, "label": "protein", "score": 0.6},
                {"start": 0, "end": 1, "label": "protein", "score": 0.3}],
               [{"start": 1, "end": 3, "label": "DNA", "score": 0.75}, {"start": 0, "end": 3, "label": "DNA", "score": 2.5}]]


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(metric_path("nested"))


def plain(threshold):
    return [[{k: s[k] for k in ("start", "end", "label")} for s in sentence if s["score"] >= threshold]
            for sentence in PREDICTIONS]


@pytest.mark.parametrize("threshold", [None, 0.5, 0.75, 3.0])
def test_the_figures_at_a_threshold_are_the_metrics_with_the_curve_beside(metric, threshold):
    result = metric.compute(predictions=PREDICTIONS, references=REFERENCES, threshold=threshold, zero_division=0)
    curve = threshold_curve(REFERENCES, PREDICTIONS, zero_division=0)
    extra = {"average_precision": curve.average_precision, **{f"best_{k}": v for k, v in curve.best.items()}}
    expected = score_nested(plain(-math.inf if threshold is None else threshold), REFERENCES, zero_division=0)
    assert result == {**expected, **extra}
    # recall rises by 1/3 at precision 1/2, 2/3 and 3/5: 0.5889; scikit-learn's on the same hits and scores
    assert extra == {"average_precision": 0.5888888888888889, "best_threshold": 0.3, "best_precision": 0.6,
                     "best_recall": 1.0, "best_f1": 0.7499999999999999}
    assert extra["average_precision"] == average_precision_score([0, 1, 1, 0, 1], [2.5, 0.9, 0.75, 0.6, 0.3])
    json.dumps(result)


def test_batches_and_flat_decoding(metric):
    for p, r in zip(PREDICTIONS, REFERENCES):
        metric.add_batch(predictions=[p], references=[r])
    flat = metric.compute(decode="flat", zero_division=0)
    # sentence 1: (0, 3) at 2.5 keeps (1, 3) out; sentence 0: (0, 2) at 0.9 keeps the others out
    assert (flat["tp"], flat["fp"], flat["fn"]) == (1, 1, 2)
    assert flat["average_precision"] == threshold_curve(REFERENCES, PREDICTIONS, decode="flat").average_precision


def test_nothing_predicted_has_no_best_threshold(metric):
    result = metric.compute(predictions=[[]], references=[[{"start": 0, "end": 1, "label": "X"}]], zero_division=0)
    assert "average_precision" not in result  # no score given: spans, not scored spans
    scored = metric.compute(predictions=[[], [{"start": 0, "end": 1, "label": "X", "score": 0.1}]],
                            references=[[{"start": 0, "end": 1, "label": "X"}], []], threshold=0.5, zero_division=0)
    # predicted but never right: F1 0 at every threshold, so no threshold is best (issue 50)
    assert (scored["tp"], scored["fn"], scored["best_threshold"], scored["best_f1"]) == (0, 1, None, None)


@pytest.mark.parametrize(("predictions", "options", "error", "fragment"), [
    ([[{"start": 0, "end": 2, "label": "protein", "score": 0.9}, {"start": 0, "end": 1, "label": "protein"}], []], {},
     ValueError, "predictions, sentence 0: entity {'start': 0, 'end': 1, 'label': 'protein'} has no score"),
    ([[{"start": 0, "end": 2, "label": "protein", "score": math.nan}], []], {}, ValueError, "has score nan"),
    ([[{"start": 0, "end": 2, "label": "protein", "score": "0.9"}], []], {}, TypeError,
     "has score '0.9', which is not a number"),
    ([[{"start": 0, "end": 2, "label": "protein"}], []], {"threshold": 0.5}, ValueError,
     "threshold applies to scored predictions"),
    ([[{"start": 0, "end": 2, "label": "protein", "score": 0.9}], []], {"threshold": math.inf}, ValueError,
     "threshold must be a finite number"),
])
def test_refused_with_the_place_and_the_instance_stays_usable(metric, predictions, options, error, fragment):
    with pytest.raises(error) as raised:
        metric.compute(predictions=predictions, references=REFERENCES, **options)
    assert fragment in str(raised.value)
    again = metric.compute(predictions=PREDICTIONS, references=REFERENCES, zero_division=0)
    assert again["tp"] == 3
