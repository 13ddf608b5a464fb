"""Hub Space for span_f1: paste tag sequences as JSON, get entity-level scores. ``python app.py`` launches it."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

from nested_span_f1.space import build_app, make_scorer

EXAMPLE_PREDICTIONS = [["O", "B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
EXAMPLE_REFERENCES = [["O", "B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "O"]]
OPTIONS = {"mode": None, "scheme": None, "zero_division": 0}
score = make_scorer(str(HERE))


def build_demo():
    return build_app(
        score, "span_f1",
        "Exact-match entity F1 of tag sequences, identical to seqeval. One list of tags per sentence.",
        EXAMPLE_PREDICTIONS, EXAMPLE_REFERENCES, OPTIONS,
    )


if __name__ == "__main__":
    build_demo().launch()
