"""Warnings point at the line that called us, whichever entry point and however deep they are raised."""
import warnings

import evaluate
import pytest

from nested_span_f1 import metric_path, score_exact, score_lenient, score_nested
from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.core.scores import UndefinedMetricWarning

TWICE = [[(0, 1, "A"), (0, 1, "A")]]
ONCE = [[(0, 1, "A")]]


def _where(call, category):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    found = [(w.filename, w.lineno) for w in caught if issubclass(w.category, category)]
    assert found, f"no {category.__name__}"
    return found


@pytest.mark.parametrize(
    ("call", "category"),
    [
        pytest.param(lambda: score_exact([["O"]], [["O"]]), UndefinedMetricWarning, id="zero-division"),
        pytest.param(lambda: score_nested(TWICE, ONCE), DuplicateSpanWarning, id="duplicate-nested"),
        pytest.param(lambda: score_lenient(TWICE, ONCE), DuplicateSpanWarning, id="duplicate-lenient"),
    ],
)
def test_core_warnings_name_the_callers_line(call, category):
    assert {filename for filename, _ in _where(call, category)} == {__file__}


def test_metric_warnings_name_the_line_that_calls_compute():
    metric = evaluate.load(metric_path("nested"))
    twice = [[{"start": 0, "end": 1, "label": "A"}] * 2]
    once = [[{"start": 0, "end": 1, "label": "A"}]]
    found = _where(lambda: metric.compute(predictions=twice, references=once), DuplicateSpanWarning)
    assert {filename for filename, _ in found} == {__file__}


@pytest.mark.parametrize("score", [score_lenient, score_nested, score_exact], ids=lambda f: f.__name__)
def test_an_ill_defined_score_warns_once_a_call_naming_precision_and_recall(score):
    """Nothing predicted and nothing in gold of the other's type: every scheme, type and bucket divides by zero
    somewhere, and the call still warns once (the lenient metric warned eight times, once per scheme and side)."""
    if score is score_exact:
        predictions, references = [["B-A", "O"]], [["O", "B-B"]]
    else:
        predictions, references = [[(0, 1, "A")]], [[(2, 3, "B")]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        score(predictions, references)
    assert [str(w.message) for w in caught] == [
        "precision and recall are ill-defined and set to 0.0 where there is nothing to divide by; use the "
        "zero_division parameter (0 or 1) to control this"
    ]
