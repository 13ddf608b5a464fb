"""Hub Space for lenient_span_f1: paste spans (or tags) as JSON, get the MUC / SemEval scores. ``python app.py`` launches it."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

from nested_span_f1.space import build_app, make_scorer

EXAMPLE_REFERENCES = [[
    {"start": 0, "end": 2, "label": "PER"}, {"start": 3, "end": 4, "label": "ORG"},
    {"start": 6, "end": 7, "label": "LOC"}, {"start": 9, "end": 11, "label": "DATE"},
]]
EXAMPLE_PREDICTIONS = [[
    {"start": 0, "end": 2, "label": "PER"}, {"start": 3, "end": 4, "label": "ORG"},
    {"start": 6, "end": 7, "label": "LOC"}, {"start": 9, "end": 10, "label": "DATE"},
]]
OPTIONS = {"partial_weight": 0.5, "min_iou": None, "zero_division": 0, "return_errors": True}
score = make_scorer(str(HERE))


def build_demo():
    return build_app(
        score, "lenient_span_f1",
        "Strict, exact, partial and type scores (SemEval-2013 Task 9.1, after MUC) over an optimal one-to-one "
        "matching. One list per sentence: spans `{\"start\", \"end\", \"label\"}` (end exclusive) or tags.",
        EXAMPLE_PREDICTIONS, EXAMPLE_REFERENCES, OPTIONS,
    )


if __name__ == "__main__":
    build_demo().launch()
