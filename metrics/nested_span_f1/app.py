"""Hub Space for nested_span_f1: paste nested spans (or tags) as JSON, get exact span F1 and breakdowns.

A Space runs this file from inside its folder, where ``nested_span_f1.py`` (the
metric script) would shadow the ``nested_span_f1`` package: the folder leaves
``sys.path`` before anything is imported. ``python app.py`` launches the app.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

from nested_span_f1.space import build_app, make_scorer

EXAMPLE_REFERENCES = [[
    {"start": 5, "end": 6, "label": "protein"}, {"start": 5, "end": 7, "label": "protein"},
    {"start": 10, "end": 12, "label": "protein"}, {"start": 13, "end": 15, "label": "cell_type"},
]]
EXAMPLE_PREDICTIONS = [[
    {"start": 5, "end": 7, "label": "protein"}, {"start": 10, "end": 12, "label": "protein"},
    {"start": 13, "end": 15, "label": "cell_line"},
]]
OPTIONS = {"zero_division": 0}
score = make_scorer(str(HERE))


def build_demo():
    return build_app(
        score, "nested_span_f1",
        "Exact span F1 for nested entities, with nested/flat, depth and length breakdowns. One list per "
        "sentence: spans `{\"start\", \"end\", \"label\"}` (end exclusive), tag layers or flat tags.",
        EXAMPLE_PREDICTIONS, EXAMPLE_REFERENCES, OPTIONS,
    )


if __name__ == "__main__":
    build_demo().launch()
